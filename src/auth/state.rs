//! What authentication needs of the server's state, as a trait. `App` implements it one layer
//! up: `auth` never imports the app (which holds auth's own `ServerKey`), so the dependency
//! points one way only (docs/ARCHITECTURE.md, "Layers").

use crate::limits::RateLimiter;
use crate::store::Store;

/// The state a protected resource authenticates against.
pub trait AuthState: Send + Sync + 'static {
    /// The database with the tokens and the consumed nonces.
    fn store(&self) -> &Store;
    /// Requests a minute per token.
    fn rate(&self) -> &RateLimiter;
    /// Requests a minute per client address without a valid token.
    fn anonymous_rate(&self) -> &RateLimiter;
    /// The URL clients reach this server at (no trailing slash).
    fn public_url(&self) -> &str;
    /// Recent token lookups (at most [`super::TOKEN_CACHE_TTL`] old); `None`: every request
    /// asks the store.
    fn token_cache(&self) -> Option<&super::TokenCache> {
        None
    }
}

/// The RFC 9728 metadata URL of a protected resource (`/mcp`, `/v1` or `` for `POST /`).
pub fn resource_metadata_url(public_url: &str, resource_path: &str) -> String {
    format!("{public_url}/.well-known/oauth-protected-resource{resource_path}")
}

/// The 401 challenge for a resource; `error="invalid_token"` when a token was sent.
pub fn challenge(public_url: &str, resource_path: &str, token_sent: bool) -> String {
    let metadata = resource_metadata_url(public_url, resource_path);
    if token_sent {
        format!("Bearer error=\"invalid_token\", resource_metadata=\"{metadata}\"")
    } else {
        format!("Bearer resource_metadata=\"{metadata}\"")
    }
}

/// The 403 step-up challenge naming the scope an operation needs.
pub fn step_up_challenge(public_url: &str, resource_path: &str, scope: &str) -> String {
    format!(
        "Bearer error=\"insufficient_scope\", scope=\"{scope}\", resource_metadata=\"{}\"",
        resource_metadata_url(public_url, resource_path)
    )
}
