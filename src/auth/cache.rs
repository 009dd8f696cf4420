//! A few seconds of memory for token lookups: most requests come from a token that
//! was just seen, and each lookup cost a database round trip (a thread hop with SQLite).
//!
//! Only live tokens found in the store are kept, for at most [`TOKEN_CACHE_TTL`]; unknown
//! tokens always go to the store (and to the per-address limit). Expiry and audience are still
//! judged on every request. A token revoked by this process is evicted at once
//! ([`super::revoke_token`]), and on PostgreSQL so is a token revoked by any process
//! ([`super::watch_revocations`]: LISTEN/NOTIFY). What remains bounded by [`TOKEN_CACHE_TTL`] is a
//! token revoked by another process on SQLite (the CLI while a server runs), or changed in the
//! database by hand.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::Principal;

/// How long a looked-up token is trusted without asking the store again (the revocation
/// bound where no revocation is heard).
pub const TOKEN_CACHE_TTL: Duration = Duration::from_secs(5);

/// The most tokens remembered; past it, expired entries go, then everything if none had.
const MAX_ENTRIES: usize = 10_000;

/// Principals by token hash, each with the time it was looked up.
pub struct TokenCache {
    ttl: Duration,
    inner: Mutex<Inner>,
}

struct Inner {
    entries: foldhash::HashMap<String, (Principal, Instant)>,
    /// Moves on at every eviction: a lookup that started before one may have read a token
    /// revoked since, so what it found is not kept ([`TokenCache::insert`]).
    generation: u64,
}

/// When a lookup started, in evictions ([`TokenCache::generation`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Generation(u64);

impl Default for TokenCache {
    fn default() -> Self {
        Self::new(TOKEN_CACHE_TTL)
    }
}

impl TokenCache {
    /// A cache keeping lookups for `ttl` (at most [`TOKEN_CACHE_TTL`]).
    pub fn new(ttl: Duration) -> Self {
        Self {
            ttl: ttl.min(TOKEN_CACHE_TTL),
            inner: Mutex::new(Inner { entries: foldhash::HashMap::default(), generation: 0 }),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The principal of a token hash looked up less than the TTL ago.
    pub fn get(&self, hash: &str) -> Option<Principal> {
        let inner = self.lock();
        inner.entries.get(hash).filter(|(_, at)| at.elapsed() < self.ttl).map(|(p, _)| p.clone())
    }

    /// Taken before asking the store, and given back to [`TokenCache::insert`].
    pub fn generation(&self) -> Generation {
        Generation(self.lock().generation)
    }

    /// Remembers a principal found in the store by a lookup that started at `since`, unless
    /// something was evicted after it started (the answer may predate a revocation).
    pub fn insert(&self, hash: String, principal: Principal, since: Generation) {
        let now = Instant::now();
        let mut inner = self.lock();
        if inner.generation != since.0 {
            return;
        }
        if inner.entries.len() >= MAX_ENTRIES {
            inner.entries.retain(|_, (_, at)| now.duration_since(*at) < self.ttl);
            if inner.entries.len() >= MAX_ENTRIES {
                inner.entries.clear();
            }
        }
        inner.entries.insert(hash, (principal, now));
    }

    /// Forgets a token (revoked).
    pub fn evict(&self, hash: &str) {
        let mut inner = self.lock();
        inner.generation += 1;
        inner.entries.remove(hash);
    }

    /// Forgets every token (revocations may have been missed).
    pub fn clear(&self) {
        let mut inner = self.lock();
        inner.generation += 1;
        inner.entries.clear();
    }
}

#[cfg(test)]
mod tests {
    use time::OffsetDateTime;

    use super::*;
    use crate::auth::PrincipalData;

    fn principal(id: &str) -> Principal {
        PrincipalData {
            token_id: id.into(),
            organization_id: "org_1".into(),
            user_id: None,
            client_id: None,
            scopes: vec!["dunning.read".into()],
            audience: "all".into(),
            expires_at: OffsetDateTime::now_utc(),
            zone: crate::domain::dates::Zone::default_zone(),
            pix_account: None,
            is_system: false,
        }
        .into()
    }

    #[test]
    fn entries_live_for_the_ttl_only_and_the_ttl_is_capped() {
        assert_eq!(TokenCache::new(Duration::from_secs(3600)).ttl, TOKEN_CACHE_TTL);
        let cache = TokenCache::new(Duration::from_millis(50));
        assert!(cache.get("h").is_none());
        cache.insert("h".into(), principal("tok_1"), cache.generation());
        assert_eq!(cache.get("h").unwrap().token_id, "tok_1");
        std::thread::sleep(Duration::from_millis(60));
        assert!(cache.get("h").is_none(), "a lookup older than the TTL is asked again");
    }

    #[test]
    fn the_cache_is_bounded() {
        let cache = TokenCache::default();
        for i in 0..MAX_ENTRIES + 10 {
            cache.insert(format!("h{i}"), principal("tok"), cache.generation());
        }
        assert!(cache.lock().entries.len() <= MAX_ENTRIES);
    }

    #[test]
    fn an_eviction_forgets_the_token_and_what_lookups_started_before_it_found() {
        let cache = TokenCache::default();
        cache.insert("a".into(), principal("tok_a"), cache.generation());
        cache.insert("b".into(), principal("tok_b"), cache.generation());
        let before = cache.generation();
        cache.evict("a");
        assert!(cache.get("a").is_none());
        assert_eq!(cache.get("b").unwrap().token_id, "tok_b", "only the revoked token goes");
        cache.insert("a".into(), principal("tok_a"), before);
        assert!(cache.get("a").is_none(), "a lookup older than the eviction may have read it live");
        let before = cache.generation();
        cache.clear();
        assert!(cache.get("b").is_none());
        cache.insert("b".into(), principal("tok_b"), before);
        assert!(cache.get("b").is_none());
        cache.insert("b".into(), principal("tok_b"), cache.generation());
        assert!(cache.get("b").is_some());
    }
}
