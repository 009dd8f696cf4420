//! Revoking tokens, and hearing the revocations other processes make (issue 8).
//!
//! A process drops a token it revokes from its own cache at once. On PostgreSQL the
//! revocation is also announced when it commits (migration 0005's trigger: NOTIFY
//! kd_token_revoked, the token's hash), and every serving process listens
//! ([`watch_revocations`]) and drops the token too, so a token revoked by one replica or by
//! the CLI stops working on all of them at once. When the listener (re)connects it may have
//! missed announcements, so it forgets every cached token.

use std::sync::Arc;

use time::OffsetDateTime;

use super::TokenCache;
use super::tokens::{hash_token, looks_like_token};
use crate::domain::dates::format_timestamp;
use crate::store::{Revocation, Store, StoreResult};

/// Revokes a live token, given as the token itself (`kd_at_…`) or its id (`tok_…`), and drops
/// it from `cache`; false when no live token matches.
pub async fn revoke_token(store: &Store, cache: Option<&TokenCache>, token_or_id: &str) -> StoreResult<bool> {
    let token_or_id = token_or_id.trim();
    let key = if looks_like_token(token_or_id) { hash_token(token_or_id) } else { token_or_id.to_string() };
    let revoked = store.revoke_token(&key, &format_timestamp(OffsetDateTime::now_utc())).await?;
    if let (Some(hash), Some(cache)) = (&revoked, cache) {
        cache.evict(hash);
    }
    Ok(revoked.is_some())
}

/// The task that keeps a cache true to revocations heard from the database; it stops when
/// this is dropped (with the state that owns the cache).
pub struct RevocationWatch(tokio::task::AbortHandle);

impl Drop for RevocationWatch {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// Starts listening for revoked tokens and evicting them from `cache`, on PostgreSQL (on
/// SQLite, or outside a Tokio runtime, there is nothing to hear: `None`).
pub fn watch_revocations(store: &Store, cache: Arc<TokenCache>) -> Option<RevocationWatch> {
    let mut revocations = store.token_revocations()?;
    let runtime = tokio::runtime::Handle::try_current().ok()?;
    let task = runtime.spawn(async move {
        loop {
            match revocations.next().await {
                Revocation::Revoked(hash) => cache.evict(&hash),
                Revocation::Unknown => cache.clear(),
            }
        }
    });
    Some(RevocationWatch(task.abort_handle()))
}
