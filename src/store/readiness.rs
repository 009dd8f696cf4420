//! Readiness: whether the database answers and takes writes, as `/readyz` reports it. The
//! probe rewrites one row (a full disk, a read-only file or a standby server fail it) within a
//! bounded time, and its answer is kept briefly, so a load balancer polling often costs the
//! database at most one write a second per server.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use time::OffsetDateTime;

use super::value::args;
use super::{Outage, Store, StoreResult};
use crate::domain::dates::format_timestamp;

/// How long a probe's answer is kept.
const KEPT: Duration = Duration::from_secs(1);
/// The longest a probe may take: past it the database is not ready.
const PROBE_LIMIT: Duration = Duration::from_millis(700);

/// How long a write refused for want of space or permission keeps the server not ready: the
/// probe's one-row rewrite can still fit where a request's write did not.
const REFUSAL_KEPT: Duration = Duration::from_secs(5);

/// The last probe's answer, the probe running now, if any, and the last write a request saw
/// refused by a full disk or a read-only database.
#[derive(Default)]
pub struct Readiness {
    last: Mutex<Option<(Instant, bool)>>,
    probing: tokio::sync::Mutex<()>,
    refused: Mutex<Option<Instant>>,
}

impl Readiness {
    /// Whether the database answers and takes writes: the kept answer when fresh, else a new
    /// probe (one at a time; a request that finds one running waits for it), always within
    /// about [`PROBE_LIMIT`].
    pub async fn check(&self, store: &Store) -> bool {
        let refused = *self.refused.lock().unwrap_or_else(|p| p.into_inner());
        if refused.is_some_and(|at| at.elapsed() < REFUSAL_KEPT) {
            return false;
        }
        if let Some(ready) = self.fresh() {
            return ready;
        }
        let Ok(_probing) = tokio::time::timeout(PROBE_LIMIT, self.probing.lock()).await else {
            return self.last().unwrap_or(false);
        };
        if let Some(ready) = self.fresh() {
            return ready;
        }
        let ready =
            match tokio::time::timeout(PROBE_LIMIT, store.probe_write(OffsetDateTime::now_utc())).await {
                Ok(Ok(())) => true,
                Ok(Err(e)) => {
                    tracing::warn!(error = %e, "readiness probe failed");
                    false
                }
                Err(_) => {
                    tracing::warn!("readiness probe timed out");
                    false
                }
            };
        *self.last.lock().unwrap_or_else(|p| p.into_inner()) = Some((Instant::now(), ready));
        ready
    }

    /// A request's write met `outage`: a full disk or a read-only database makes the server
    /// not ready for a while, whatever the probe finds.
    pub fn saw(&self, outage: Outage) {
        if matches!(outage, Outage::DiskFull | Outage::ReadOnly) {
            *self.refused.lock().unwrap_or_else(|p| p.into_inner()) = Some(Instant::now());
        }
    }

    fn last(&self) -> Option<bool> {
        self.last.lock().unwrap_or_else(|p| p.into_inner()).map(|(_, ready)| ready)
    }

    fn fresh(&self) -> Option<bool> {
        let last = *self.last.lock().unwrap_or_else(|p| p.into_inner());
        last.filter(|(at, _)| at.elapsed() < KEPT).map(|(_, ready)| ready)
    }
}

impl Store {
    /// Rewrites the one row of the readiness probe.
    pub async fn probe_write(&self, now: OffsetDateTime) -> StoreResult<()> {
        self.db
            .execute(
                "INSERT INTO readiness_probe (id, checked_at) VALUES (1, $1) \
                 ON CONFLICT (id) DO UPDATE SET checked_at = excluded.checked_at",
                &args![format_timestamp(now)],
            )
            .await?;
        Ok(())
    }
}
