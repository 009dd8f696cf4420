//! Shared server state and the constants every layer agrees on.

use std::sync::Arc;

use crate::auth::{self, AuthState, RevocationWatch, ServerKey, TokenCache};
use crate::limits::{Limits, Load, RateLimiter};
use crate::metrics::Metrics;
use crate::oauth::{OAuthConfig, OAuthHost};
use crate::providers::Providers;
use crate::store::Store;

pub use crate::request::{MAX_BODY_BYTES, RequestId};

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
    /// Requests a minute per client address without a valid token.
    pub anonymous_rate: RateLimiter,
    /// Requests in flight and draining.
    pub load: Load,
    /// Request counters for `/metrics`.
    pub metrics: Metrics,
    /// Recent token lookups (at most `auth::TOKEN_CACHE_TTL` old, evicted when revoked).
    pub tokens: Arc<TokenCache>,
    /// The database's last readiness probe (`/readyz`).
    pub readiness: crate::store::Readiness,
    /// Where notifications leave the server (the outbox unless configured).
    pub providers: Arc<Providers>,
    /// The authorization server's settings and caches.
    pub oauth: OAuthConfig,
    /// On PostgreSQL, the task that evicts tokens revoked by any process; it stops with the
    /// state.
    _revocations: Option<RevocationWatch>,
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
        let tokens = Arc::new(TokenCache::default());
        let revocations = auth::watch_revocations(&store, tokens.clone());
        Self {
            store,
            public_url,
            origin,
            other_origins: Vec::new(),
            key,
            rate: RateLimiter::new(limits.per_minute, limits.burst),
            anonymous_rate: RateLimiter::new(limits.anonymous_per_minute, limits.anonymous_per_minute),
            load: Load::new(limits.max_in_flight),
            metrics: Metrics::default(),
            tokens,
            readiness: crate::store::Readiness::default(),
            providers: Arc::new(Providers::default()),
            oauth: OAuthConfig::default(),
            _revocations: revocations,
        }
    }

    /// Sends notifications through these providers.
    pub fn with_providers(mut self, providers: Arc<Providers>) -> Self {
        self.providers = providers;
        self
    }

    /// `--allow-insecure-targets`: client ID metadata documents may also come over http from
    /// loopback (development and tests).
    pub fn with_insecure_targets(mut self, allow: bool) -> Self {
        self.oauth = OAuthConfig::new(allow);
        self
    }

    /// Revokes a live token (the token itself or its id; a token of an OAuth grant, or a
    /// `grt_…` id, revokes the whole grant) and forgets it at once on this process, and on
    /// PostgreSQL on every replica; false when nothing live matches.
    pub async fn revoke_token(&self, token_or_id: &str) -> crate::store::StoreResult<bool> {
        auth::revoke_token_or_grant(&self.store, Some(&self.tokens), token_or_id).await
    }

    /// The origin (`scheme://host[:port]`) of the public URL.
    pub fn origin(&self) -> &str {
        &self.origin
    }

    /// Adds origins under which this server is also served (a second public host name). They are
    /// this server's own origins, not a way to let third-party sites in.
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
        auth::resource_metadata_url(&self.public_url, resource_path)
    }

    /// The 401 challenge for a resource; `error="invalid_token"` when a token was sent.
    pub fn challenge(&self, resource_path: &str, token_sent: bool) -> String {
        auth::challenge(&self.public_url, resource_path, token_sent)
    }

    /// The 403 step-up challenge naming the scope an operation needs.
    pub fn step_up_challenge(&self, resource_path: &str, scope: &str) -> String {
        auth::step_up_challenge(&self.public_url, resource_path, scope)
    }
}

// What authentication needs of the state; `auth` names only the trait, never `App`.
impl AuthState for App {
    fn store(&self) -> &Store {
        &self.store
    }

    fn rate(&self) -> &RateLimiter {
        &self.rate
    }

    fn anonymous_rate(&self) -> &RateLimiter {
        &self.anonymous_rate
    }

    fn public_url(&self) -> &str {
        &self.public_url
    }

    fn token_cache(&self) -> Option<&TokenCache> {
        Some(self.tokens.as_ref())
    }
}

// What the authorization server needs of the state; `oauth` names only the trait.
impl OAuthHost for App {
    fn oauth(&self) -> &OAuthConfig {
        &self.oauth
    }
}
