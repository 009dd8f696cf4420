//! Bearer authentication in front of a protected resource: no or bad token is a 401 with the
//! RFC 9728 challenge; a good one gives the caller's `Principal`.

use std::net::IpAddr;

use poem::Request;
use poem::http::HeaderMap;
use time::OffsetDateTime;

use super::tokens::looks_like_token;
use super::{AuthState, Principal, hash_token};
use crate::error::ApiError;
use crate::limits::Limited;

/// Which token audiences a resource accepts (RFC 8707).
#[derive(Debug, Clone, Copy)]
pub enum Audience {
    /// The REST API: `api` and `all` tokens.
    Api,
    /// The MCP endpoint: `mcp` and `all` tokens.
    Mcp,
}

impl Audience {
    fn accepts(self, audience: &str) -> bool {
        matches!((self, audience), (_, "all") | (Audience::Api, "api") | (Audience::Mcp, "mcp"))
    }
}

/// Admits a request to a protected resource: its principal, or the error to answer with (a
/// 401 with the RFC 9728 challenge naming `resource_path`, a 429, or a failure to check the
/// token).
pub async fn admit_request<S: AuthState + ?Sized>(
    state: &S,
    headers: &HeaderMap,
    client: Option<IpAddr>,
    resource_path: &str,
    audience: Audience,
) -> Result<Principal, ApiError> {
    let authorization = headers.get(poem::http::header::AUTHORIZATION).and_then(|v| v.to_str().ok());
    match admit(state, authorization, audience, client).await {
        Ok(principal) => Ok(principal),
        Err(Refused::Unauthorized) => Err(ApiError::Unauthorized {
            challenge: super::challenge(state.public_url(), resource_path, authorization.is_some()),
        }),
        Err(Refused::RateLimited(limited)) => Err(ApiError::RateLimited(limited)),
        Err(Refused::Failed(err)) => Err(err),
    }
}

/// The address of the client (the TCP peer: a proxy in front should be the one limited, or
/// the deployment sets the limit so that the proxy's share suffices).
pub fn client_address(req: &Request) -> Option<IpAddr> {
    req.remote_addr().as_socket_addr().map(std::net::SocketAddr::ip)
}

/// Why a request was not admitted.
#[derive(Debug)]
pub enum Refused {
    /// No valid token for this resource: 401 with the challenge.
    Unauthorized,
    /// The token's limit, or the client address's limit for requests without a valid token.
    RateLimited(Limited),
    /// The token could not be checked.
    Failed(ApiError),
}

/// Authenticates a request and counts it against its rate limit: per token when the token is
/// valid, per client address when it is not, so requests without a valid token are limited too.
pub async fn admit<S: AuthState + ?Sized>(
    state: &S,
    authorization: Option<&str>,
    audience: Audience,
    client: Option<IpAddr>,
) -> Result<Principal, Refused> {
    // A request with something shaped like our token is looked up whatever its address did, so
    // a shared address (a NAT, a proxy) spending its share on bad requests locks nobody out; a
    // request without one costs no lookup at all.
    if let Some(token) = bearer_token(authorization).filter(|t| looks_like_token(t)) {
        match authenticate(state, Some(token), audience).await {
            Ok(Some(principal)) => {
                state.rate().check(&principal.token_id).map_err(Refused::RateLimited)?;
                return Ok(principal);
            }
            Ok(None) => {}
            Err(err) => return Err(Refused::Failed(err)),
        }
    }
    if let Some(address) = client {
        state.anonymous_rate().check(&address_key(address)).map_err(Refused::RateLimited)?;
    }
    Err(Refused::Unauthorized)
}

/// The bucket of an address: an IPv4 address, or an IPv6 /64 (one host usually has a whole /64,
/// so counting single addresses would give it endless buckets).
pub fn address_key(address: IpAddr) -> String {
    match address {
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) => {
            let s = v6.segments();
            format!("{:x}:{:x}:{:x}:{:x}::/64", s[0], s[1], s[2], s[3])
        }
    }
}

/// The bearer token of an `Authorization` header value, if it is one.
pub fn bearer_token(header: Option<&str>) -> Option<&str> {
    let (scheme, token) = header?.split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then(|| token.trim()).filter(|t| !t.is_empty())
}

/// The principal of a live token whose audience covers the resource; `None` for anything else
/// (unknown, expired, revoked or meant for another resource). A token found in the store is
/// remembered for at most [`super::TOKEN_CACHE_TTL`], or until its revocation is heard.
pub async fn authenticate<S: AuthState + ?Sized>(
    state: &S,
    token: Option<&str>,
    audience: Audience,
) -> Result<Option<Principal>, ApiError> {
    let Some(token) = token.filter(|t| !t.is_empty()) else {
        return Ok(None);
    };
    let hash = hash_token(token);
    let cached = state.token_cache().and_then(|cache| cache.get(&hash));
    let principal = match cached {
        Some(principal) => principal,
        None => {
            let since = state.token_cache().map(|cache| cache.generation());
            let Some(row) = state.store().token_by_hash(&hash).await? else {
                return Ok(None);
            };
            let principal = Principal::from(row);
            if let (Some(cache), Some(since)) = (state.token_cache(), since) {
                cache.insert(hash, principal.clone(), since);
            }
            principal
        }
    };
    if principal.expires_at <= OffsetDateTime::now_utc() || !audience.accepts(&principal.audience) {
        return Ok(None);
    }
    Ok(Some(principal))
}
