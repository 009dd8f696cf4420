//! Shared server state and the constants every layer agrees on.

use crate::auth::ServerKey;
use crate::limits::{Limits, Load, RateLimiter};
use crate::metrics::Metrics;
use crate::store::Store;

/// The body cap of /v1 and /mcp: 2 MiB.
pub const MAX_BODY_BYTES: usize = 2 * 1024 * 1024;

/// The id of the request being served (also the `X-Request-Id` response header).
#[derive(Debug, Clone)]
pub struct RequestId(pub String);

impl RequestId {
    /// The id the common middleware gave a request (empty outside it).
    pub fn of(req: &poem::Request) -> String {
        req.data::<RequestId>().map(|r| r.0.clone()).unwrap_or_default()
    }
}

/// State shared by every request.
pub struct App {
    /// The database.
    pub store: Store,
    /// The URL clients use to reach this server (no trailing slash).
    pub public_url: String,
    /// The origin (`scheme://host[:port]`) of the public URL.
    origin: String,
    /// Other origins the server itself is served under (`--allowed-origin`).
    other_origins: Vec<String>,
    /// Seals confirmation states.
    pub key: ServerKey,
    /// Requests a minute per token, shared by REST and MCP.
    pub rate: RateLimiter,
    /// Requests in flight and draining.
    pub load: Load,
    /// Request counters for `/metrics`.
    pub metrics: Metrics,
}

impl App {
    /// Builds the state with limits.
    pub fn with_limits(store: Store, public_url: &str, key: ServerKey, limits: Limits) -> Self {
        let public_url = public_url.trim_end_matches('/').to_string();
        let after_scheme = public_url.find("://").map_or(0, |i| i + 3);
        let origin = match public_url[after_scheme..].find('/') {
            Some(slash) => public_url[..after_scheme + slash].to_string(),
            None => public_url.clone(),
        };
        Self {
            store,
            public_url,
            origin,
            other_origins: Vec::new(),
            key,
            rate: RateLimiter::new(limits),
            load: Load::new(limits.max_in_flight),
            metrics: Metrics::default(),
        }
    }

    /// The origin (`scheme://host[:port]`) of the public URL.
    pub fn origin(&self) -> &str {
        &self.origin
    }

    /// Adds origins under which this server is also served (a second public host name). They are
    /// this server's own origins, not a way to let third-party sites in (DESIGN.md section 11).
    pub fn with_other_origins(mut self, origins: Vec<String>) -> Self {
        self.other_origins = origins.into_iter().map(|o| o.trim_end_matches('/').to_string()).collect();
        self
    }

    /// Whether a browser `Origin` is one of this server's own.
    pub fn accepts_origin(&self, origin: &str) -> bool {
        origin == self.origin || self.other_origins.iter().any(|o| o == origin)
    }

    /// The RFC 9728 metadata URL of a protected resource (`/mcp`, `/v1` or `` for `POST /`).
    pub fn resource_metadata_url(&self, resource_path: &str) -> String {
        format!("{}/.well-known/oauth-protected-resource{resource_path}", self.public_url)
    }

    /// The 401 challenge for a resource; `error="invalid_token"` when a token was sent.
    pub fn challenge(&self, resource_path: &str, token_sent: bool) -> String {
        let metadata = self.resource_metadata_url(resource_path);
        if token_sent {
            format!("Bearer error=\"invalid_token\", resource_metadata=\"{metadata}\"")
        } else {
            format!("Bearer resource_metadata=\"{metadata}\"")
        }
    }

    /// The 403 step-up challenge naming the scope an operation needs.
    pub fn step_up_challenge(&self, resource_path: &str, scope: &str) -> String {
        format!(
            "Bearer error=\"insufficient_scope\", scope=\"{scope}\", resource_metadata=\"{}\"",
            self.resource_metadata_url(resource_path)
        )
    }
}
