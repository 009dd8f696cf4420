//! Periodic clean-up of what only needs keeping for a while: idempotency keys (24 hours),
//! consumed confirmation nonces (their states expire after 5 minutes; a day is kept), approvals
//! (they expire after 10 minutes; a day is kept, and every decision stays in the events), and
//! the authorization server's expired codes, sessions and sign-in failures (a day after they stop
//! mattering: a code replayed within that day still revokes its grant).

use std::sync::Arc;
use std::time::Duration as StdDuration;

use time::{Duration, OffsetDateTime};

use crate::api::IDEMPOTENCY_RETENTION;
use crate::app::App;
use crate::domain::dates::format_timestamp;
use crate::store::StoreResult;

/// How often the clean-up runs.
pub const PERIOD: StdDuration = StdDuration::from_secs(600);
/// How long consumed nonces, and expired approvals, are kept.
const NONCE_RETENTION: Duration = Duration::days(1);

/// One clean-up pass at `now`: (idempotency keys, nonces and approvals) removed.
pub async fn run_once(app: &App, now: OffsetDateTime) -> StoreResult<(u64, u64, u64)> {
    let keys = app.store.purge_idempotency_before(now - IDEMPOTENCY_RETENTION).await?;
    let nonces = app.store.purge_nonces_before(&format_timestamp(now - NONCE_RETENTION)).await?;
    let approvals = app.store.purge_approvals_before(now - NONCE_RETENTION).await?;
    Ok((keys, nonces, approvals))
}

/// How long the authorization server's expired records are kept.
const OAUTH_RETENTION: Duration = Duration::days(1);

/// The authorization server's clean-up at `now`: expired codes, sessions and sign-in failures
/// older than a day; returns how many rows went.
pub async fn run_oauth_once(app: &App, now: OffsetDateTime) -> StoreResult<u64> {
    app.store.purge_oauth_before(&format_timestamp(now - OAUTH_RETENTION)).await
}

/// Runs the clean-up every `PERIOD` until the process ends.
pub fn spawn(app: Arc<App>) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut ticks = tokio::time::interval(PERIOD);
        loop {
            ticks.tick().await;
            match run_once(&app, OffsetDateTime::now_utc()).await {
                Ok((keys, nonces, approvals)) if keys + nonces + approvals > 0 => {
                    tracing::info!(
                        idempotency_keys = keys,
                        nonces,
                        approvals,
                        "housekeeping purged expired records"
                    );
                }
                Ok(_) => {}
                Err(e) => tracing::warn!(error = %e, "housekeeping failed"),
            }
            match run_oauth_once(&app, OffsetDateTime::now_utc()).await {
                Ok(0) => {}
                Ok(rows) => tracing::info!(rows, "housekeeping purged expired sign-in records"),
                Err(e) => tracing::warn!(error = %e, "housekeeping of sign-in records failed"),
            }
        }
    })
}
