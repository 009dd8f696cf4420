//! Revoking tokens, and hearing the revocations other processes make.
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

/// Revokes a live token, given as the token itself or its id, or an OAuth grant given by its
/// id (`grt_…`); false when nothing live matches. A token issued through a grant takes the
/// whole grant with it: the grant's refresh tokens and every access token issued through it
/// (revoking the access token alone would leave the client a refresh token that mints the
/// next one). `cache` forgets the token, or everything when a grant goes (a grant may have
/// several tokens cached), as reuse detection does.
pub async fn revoke_token_or_grant(
    store: &Store,
    cache: Option<&TokenCache>,
    token_or_id: &str,
) -> StoreResult<bool> {
    let token_or_id = token_or_id.trim();
    let is_grant = token_or_id.starts_with("grt_");
    let grant_id = if is_grant {
        Some(token_or_id.to_string())
    } else {
        let key =
            if looks_like_token(token_or_id) { hash_token(token_or_id) } else { token_or_id.to_string() };
        store.grant_of_token(&key).await?.and_then(|(_, grant_id)| grant_id)
    };
    let mut grant_revoked = false;
    if let Some(grant_id) = &grant_id {
        grant_revoked = store.revoke_grant(grant_id, &format_timestamp(OffsetDateTime::now_utc())).await?;
        if grant_revoked {
            if let Some(cache) = cache {
                cache.clear();
            }
            tracing::info!(grant_id = grant_id.as_str(), "oauth grant revoked with its tokens");
        }
    }
    let token_revoked = !is_grant && revoke_token(store, cache, token_or_id).await?;
    Ok(grant_revoked || token_revoked)
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
