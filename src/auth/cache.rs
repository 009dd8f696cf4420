//! A few seconds of memory for token lookups (issue 8): most requests come from a token that
//! was just seen, and each lookup cost a database round trip (a thread hop with SQLite).
//!
//! Only live tokens found in the store are kept, for at most [`TOKEN_CACHE_TTL`]; unknown
//! tokens always go to the store (and to the per-address limit). Expiry and audience are still
//! judged on every request, so the cache changes one thing: **a token revoked or deleted in
//! the database keeps working on this process for at most [`TOKEN_CACHE_TTL`]** — the
//! documented revocation bound.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::Principal;

/// How long a looked-up token is trusted without asking the store again (the revocation
/// bound).
pub const TOKEN_CACHE_TTL: Duration = Duration::from_secs(5);

/// The most tokens remembered; past it, expired entries go, then everything if none had.
const MAX_ENTRIES: usize = 10_000;

/// Principals by token hash, each with the time it was looked up.
pub struct TokenCache {
    ttl: Duration,
    entries: Mutex<HashMap<String, (Principal, Instant)>>,
}

impl Default for TokenCache {
    fn default() -> Self {
        Self::new(TOKEN_CACHE_TTL)
    }
}

impl TokenCache {
    /// A cache keeping lookups for `ttl` (at most [`TOKEN_CACHE_TTL`]).
    pub fn new(ttl: Duration) -> Self {
        Self { ttl: ttl.min(TOKEN_CACHE_TTL), entries: Mutex::new(HashMap::new()) }
    }

    /// The principal of a token hash looked up less than the TTL ago.
    pub fn get(&self, hash: &str) -> Option<Principal> {
        let entries = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        entries.get(hash).filter(|(_, at)| at.elapsed() < self.ttl).map(|(p, _)| p.clone())
    }

    /// Remembers a principal found in the store.
    pub fn insert(&self, hash: String, principal: Principal) {
        let now = Instant::now();
        let mut entries = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        if entries.len() >= MAX_ENTRIES {
            entries.retain(|_, (_, at)| now.duration_since(*at) < self.ttl);
            if entries.len() >= MAX_ENTRIES {
                entries.clear();
            }
        }
        entries.insert(hash, (principal, now));
    }
}

#[cfg(test)]
mod tests {
    use time::OffsetDateTime;

    use super::*;

    fn principal(id: &str) -> Principal {
        Principal {
            token_id: id.into(),
            organization_id: "org_1".into(),
            user_id: None,
            client_id: None,
            scopes: vec!["dunning.read".into()],
            audience: "all".into(),
            expires_at: OffsetDateTime::now_utc(),
        }
    }

    #[test]
    fn entries_live_for_the_ttl_only_and_the_ttl_is_capped() {
        assert_eq!(TokenCache::new(Duration::from_secs(3600)).ttl, TOKEN_CACHE_TTL);
        let cache = TokenCache::new(Duration::from_millis(50));
        assert!(cache.get("h").is_none());
        cache.insert("h".into(), principal("tok_1"));
        assert_eq!(cache.get("h").unwrap().token_id, "tok_1");
        std::thread::sleep(Duration::from_millis(60));
        assert!(cache.get("h").is_none(), "a lookup older than the TTL is asked again");
    }

    #[test]
    fn the_cache_is_bounded() {
        let cache = TokenCache::default();
        for i in 0..MAX_ENTRIES + 10 {
            cache.insert(format!("h{i}"), principal("tok"));
        }
        assert!(cache.entries.lock().unwrap().len() <= MAX_ENTRIES);
    }
}
