//! Bearer authentication in front of a protected resource: no or bad token is a 401 with the
//! RFC 9728 challenge; a good one puts the `Principal` in the request.

use std::sync::Arc;

use poem::{Endpoint, IntoResponse, Middleware, Request, Response};
use time::OffsetDateTime;

use super::{AuthState, Principal, hash_token};
use crate::error::{ApiError, error_response};
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
        let token = bearer_token(req.headers().get("authorization").and_then(|v| v.to_str().ok()))
            .map(str::to_string);
        let sent = req.headers().contains_key("authorization");
        match self.authenticate(token.as_deref()).await {
            Ok(Some(principal)) => {
                // The rate limit counts authenticated requests, per token.
                if let Err(limited) = self.state.rate().check(&principal.token_id) {
                    let request_id = RequestId::of(&req);
                    return Ok(error_response(&ApiError::RateLimited(limited), &request_id));
                }
                req.set_data(principal);
                Ok(self.inner.call(req).await?.into_response())
            }
            Ok(None) => {
                let request_id = RequestId::of(&req);
                let err = ApiError::Unauthorized {
                    challenge: super::challenge(self.state.public_url(), self.resource_path, sent),
                };
                Ok(error_response(&err, &request_id))
            }
            Err(err) => {
                let request_id = RequestId::of(&req);
                Ok(error_response(&err, &request_id))
            }
        }
    }
}

impl<E, S: AuthState> BearerAuthEndpoint<E, S> {
    async fn authenticate(&self, token: Option<&str>) -> Result<Option<Principal>, ApiError> {
        authenticate(self.state.as_ref(), token, self.audience).await
    }
}

/// The bearer token of an `Authorization` header value, if it is one.
pub fn bearer_token(header: Option<&str>) -> Option<&str> {
    let (scheme, token) = header?.split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then(|| token.trim()).filter(|t| !t.is_empty())
}

/// The principal of a live token whose audience covers the resource; `None` for anything else
/// (unknown, expired, revoked or meant for another resource).
pub async fn authenticate<S: AuthState + ?Sized>(
    state: &S,
    token: Option<&str>,
    audience: Audience,
) -> Result<Option<Principal>, ApiError> {
    let Some(token) = token.filter(|t| !t.is_empty()) else {
        return Ok(None);
    };
    let Some(row) = state.store().token_by_hash(&hash_token(token)).await? else {
        return Ok(None);
    };
    let principal = Principal::from(row);
    if principal.expires_at <= OffsetDateTime::now_utc() || !audience.accepts(&principal.audience) {
        return Ok(None);
    }
    Ok(Some(principal))
}
