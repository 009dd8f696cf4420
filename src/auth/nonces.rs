//! Confirmation nonces: every answered confirmation state is consumed once, in the database so
//! replicas agree. The MCP layer reaches them here, never through the store, so the rule of one use
//! lives beside the key that seals the states.

use time::OffsetDateTime;

use super::AuthState;
use crate::domain::dates::format_timestamp;
use crate::error::ApiError;

/// Whether a nonce was already consumed.
pub async fn nonce_consumed<S: AuthState + ?Sized>(state: &S, nonce: &str) -> Result<bool, ApiError> {
    Ok(state.store().nonce_consumed(nonce).await?)
}

/// Consumes a nonce; false when another presentation consumed it first.
pub async fn consume_nonce<S: AuthState + ?Sized>(
    state: &S,
    nonce: &str,
    now: OffsetDateTime,
) -> Result<bool, ApiError> {
    Ok(state.store().consume_nonce(nonce, &format_timestamp(now)).await?)
}
