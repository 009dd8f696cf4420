//! The export builder, beside the engine in `serve`: every two seconds it removes the files of
//! exports that expired and builds the exports waiting, one at a time (a builder that died
//! leaves its export leased; once the lease runs out another starts it again). `engine
//! run-once` runs it once.

use std::time::Duration;

use time::OffsetDateTime;

use super::engine_event;
use crate::domain::export::{Export, gave_up};
use crate::outbound::export_file::{BuildError, LEASE, build};
use crate::store::{Lease, Store, StoreResult};
use crate::types as wire;
use crate::views::event_data::ObjectPayload;
use crate::views::export::export_view;

/// How often `serve` looks for exports to build or expire.
pub const PERIOD: Duration = Duration::from_secs(2);

/// What a run did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct ExportReport {
    pub built: u64,
    pub failed: u64,
    pub expired: u64,
}

/// The change of an export, as its `export.db.updated` event.
fn updated(before: &Export, after: &Export, now: OffsetDateTime) -> crate::store::NewEvent {
    let data = wire::ExportEventData::of(Some(&export_view(before)), export_view(after));
    engine_event("export.db.updated", &after.id, &after.organization_id, &data, now)
}

/// Expires what is due at `now`, then builds every export waiting.
pub async fn run_once(store: &Store, now: OffsetDateTime) -> StoreResult<ExportReport> {
    let mut report = ExportReport::default();
    for before in store.expiring_exports(now, 100).await? {
        let mut after = before.clone();
        after.expire(now);
        if store.expire_export(&after, before.version, &updated(&before, &after, now)).await? {
            report.expired += 1;
        }
    }
    let owner = format!("exports:{}", *crate::outbound::delivery::PROCESS);
    loop {
        let lease = Lease { owner: owner.clone(), until: OffsetDateTime::now_utc() + LEASE };
        let Some(started) = store.take_export(&lease, now).await? else { return Ok(report) };
        let zone = match store.organization(&started.organization_id).await? {
            Some(org) => org.timezone,
            None => continue,
        };
        let mut after = started.clone();
        let finished_at = OffsetDateTime::now_utc().max(now);
        // Builders that died, or builds the database failed, each took an attempt: past the
        // last one the export ends failed instead of being built again for ever.
        let built = if started.out_of_attempts() {
            Err(BuildError::Csv(gave_up()))
        } else {
            build(store, &started, &owner, &zone).await
        };
        match built {
            Ok((rows, size)) => {
                after.finish(rows, size, finished_at);
                report.built += 1;
            }
            Err(BuildError::Csv(why)) => {
                after.fail(why, finished_at);
                report.failed += 1;
            }
            Err(BuildError::LeaseLost) => continue,
            Err(BuildError::Store(e)) if started.on_last_attempt() => {
                tracing::warn!(export = %after.id, error = %e, "an export's last build attempt failed");
                after.fail(gave_up(), finished_at);
                report.failed += 1;
            }
            // Kept leased: the next attempt starts once the lease runs out.
            Err(BuildError::Store(e)) => return Err(e),
        }
        if !store.finish_export(&after, &owner, &updated(&started, &after, finished_at)).await? {
            tracing::warn!(export = %after.id, "an export was taken over while it was built");
        }
    }
}

/// Runs the builder on `store` until the process ends.
pub fn spawn(store: Store) -> tokio::task::JoinHandle<()> {
    super::every(PERIOD, "exports", move || {
        let store = store.clone();
        async move { run_once(&store, OffsetDateTime::now_utc()).await }
    })
}
