//! Periodic clean-up of what only needs keeping for a while: idempotency keys (24 hours),
//! consumed confirmation nonces (their states expire after 5 minutes; a day is kept), approvals
//! (they expire after 10 minutes; a day is kept, and every decision stays in the events), and
//! the authorization server's records a day after they stop mattering: codes (a code replayed
//! within that day still revokes its grant), sessions, sign-in failures, refresh tokens (a used
//! one is kept until a day after its own expiry, so a replay revokes its grant while the token
//! could otherwise work), OAuth access tokens, revoked or expired grants, and registered clients
//! left without a grant (`store::Store::purge_oauth_before` has the rules). Open registration
//! therefore cannot grow the database without bound.

use std::sync::Arc;
use std::time::Duration as StdDuration;

use time::{Duration, OffsetDateTime};

use crate::app::App;
use crate::domain::dates::format_timestamp;
use crate::store::{IDEMPOTENCY_RETENTION, OAuthPurged, StoreResult};

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

/// The authorization server's clean-up at `now`: what stopped mattering more than a day ago;
/// returns how many rows of each kind went.
pub async fn run_oauth_once(app: &App, now: OffsetDateTime) -> StoreResult<OAuthPurged> {
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
                Ok(purged) if purged.total() > 0 => tracing::info!(
                    codes = purged.codes,
                    sessions = purged.sessions,
                    sign_in_failures = purged.sign_in_failures,
                    refresh_tokens = purged.refresh_tokens,
                    access_tokens = purged.access_tokens,
                    grants = purged.grants,
                    clients = purged.clients,
                    "housekeeping purged expired sign-in records"
                ),
                Ok(_) => {}
                Err(e) => tracing::warn!(error = %e, "housekeeping of sign-in records failed"),
            }
        }
    })
}
