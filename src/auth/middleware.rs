//! Bearer authentication in front of a protected resource: no or bad token is a 401 with the
//! RFC 9728 challenge; a good one puts the `Principal` in the request.

use std::net::IpAddr;
use std::sync::Arc;

use poem::{Endpoint, IntoResponse, Middleware, Request, Response};
use time::OffsetDateTime;

use super::tokens::looks_like_token;
use super::{AuthState, Principal, hash_token};
use crate::error::{ApiError, error_response};
use crate::limits::Limited;
use crate::request::RequestId;

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

/// The middleware; `resource_path` names the protected resource in challenges.
pub struct BearerAuth<S> {
    /// The server state.
    pub state: Arc<S>,
    /// `/v1`, `/mcp` or `` (the `POST /` alias).
    pub resource_path: &'static str,
    /// Accepted audiences.
    pub audience: Audience,
}

impl<E: Endpoint, S: AuthState> Middleware<E> for BearerAuth<S> {
    type Output = BearerAuthEndpoint<E, S>;

    fn transform(&self, inner: E) -> Self::Output {
        BearerAuthEndpoint {
            inner,
            state: self.state.clone(),
            resource_path: self.resource_path,
            audience: self.audience,
        }
    }
}

/// The endpoint the middleware wraps.
pub struct BearerAuthEndpoint<E, S> {
    inner: E,
    state: Arc<S>,
    resource_path: &'static str,
    audience: Audience,
}

impl<E: Endpoint, S: AuthState> Endpoint for BearerAuthEndpoint<E, S> {
    type Output = Response;

    async fn call(&self, mut req: Request) -> poem::Result<Self::Output> {
        let header = req.headers().get("authorization").and_then(|v| v.to_str().ok()).map(str::to_string);
        let client = client_address(&req);
        let err = match admit(self.state.as_ref(), header.as_deref(), self.audience, client).await {
            Ok(principal) => {
                req.set_data(principal);
                return Ok(self.inner.call(req).await?.into_response());
            }
            Err(Refused::Unauthorized) => ApiError::Unauthorized {
                challenge: super::challenge(self.state.public_url(), self.resource_path, header.is_some()),
            },
            Err(Refused::RateLimited(limited)) => ApiError::RateLimited(limited),
            Err(Refused::Failed(err)) => err,
        };
        Ok(error_response(&err, &RequestId::of(&req)))
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
