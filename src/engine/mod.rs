//! The régua's engine: passes over every organization at an instant. In each pass:
//! - a pending charge turns overdue the day after its effective due date, in the organization's
//!   day, with the `charge.overdue` event the API writes for any other change;
//! - on a business day, inside a policy's send window, each active step whose day and time have
//!   come gives each open charge under the policy its notification (at most one per charge and
//!   step: the store's unique index), or stops the régua for a human (escalations);
//! - queued notifications whose attempt is due (retries, or a crashed sender's whose lease ran
//!   out) are sent again.
//!
//! Steps are not sent retroactively: a step whose day came before the charge existed, or more
//! than [`CATCH_UP_DAYS`] ago (the engine was down), is left out.
//!
//! A pass can run at any time and any number of times, on any number of processes: each change
//! is saved only if the charge is still at the version read, so two engines never turn one
//! charge twice. The work on one charge is one transaction (for a step: the notification, the
//! charge's change and their events), so a pass that dies midway leaves nothing half done, and
//! the next pass at the same instant writes what an uninterrupted one would have.
//!
//! For crash tests, `KOBANA_DUNNING_ABORT_AFTER_WRITES=N` makes the process abort right after
//! the engine's N-th committed write (see [`committed`]).

mod agreements;
pub mod background;
mod clock;
mod escalations;
mod events;
pub mod exports;
mod overdue;
mod pass;
mod periodic;
mod report;
mod retries;
mod schedule;
mod steps;
pub mod webhooks;
mod writes;

pub use escalations::callback as gateway_callback;
pub use report::{PassReport, Progress};

// What agreements, escalations, exports and webhooks take from here.
use clock::PassClock;
use events::{charge_event, engine_event};
pub(crate) use periodic::every;
use writes::committed;

use std::sync::Arc;
use std::time::Duration as StdDuration;

use time::OffsetDateTime;

use crate::app::App;
use crate::providers::Providers;
use crate::store::{Store, StoreResult};

/// How often `serve` runs a pass.
pub const PERIOD: StdDuration = StdDuration::from_secs(60);
/// Charges read and saved at a time.
const PAGE: i64 = 500;
/// Charges in a unit whose messages go to an outside provider (the HTTP gateway, SMTP), all
/// handed over at once when it commits, so this is also the most messages in flight to one
/// provider: each starts as its unit commits and ends within its provider's time limit, well
/// inside the lease its record took.
pub const OUTSIDE_BATCH: usize = 16;
pub use crate::domain::policy::CATCH_UP_DAYS;

/// One pass at `now`.
/// `now` decides what is due (a test or an operator may pass another instant); changes are
/// stamped with the pass's clock, `now` plus the time the pass has taken, and never earlier
/// than the charge's last change. One organization's failure is logged and the others go on.
pub async fn run_once(store: &Store, providers: &Providers, now: OffsetDateTime) -> StoreResult<PassReport> {
    run_once_reporting(store, providers, now, &|_| {}).await
}

/// [`run_once`], telling `progress` the counts so far after each organization's housekeeping
/// and each batch of messages.
pub async fn run_once_reporting(
    store: &Store,
    providers: &Providers,
    now: OffsetDateTime,
    progress: Progress<'_>,
) -> StoreResult<PassReport> {
    pass::run(store, providers, now, progress).await
}

/// [`reschedule`](schedule::reschedule) for one organization at `now`, outside a pass (after a
/// bulk load); how many charges' next action moved.
pub async fn reschedule_organization(store: &Store, org_id: &str, now: OffsetDateTime) -> StoreResult<u64> {
    let Some(org) = store.organization(org_id).await? else { return Ok(0) };
    let clock = PassClock { now, started: std::time::Instant::now(), zone: org.timezone };
    let mut report = PassReport::default();
    schedule::reschedule(store, org_id, &clock, &mut report).await?;
    Ok(report.rescheduled)
}

/// Runs a pass on `store` every [`PERIOD`] until the process ends; `/metrics` hears of each.
/// `serve` runs it on the background thread ([`background::start`]).
pub fn spawn(app: Arc<App>, store: Store) -> tokio::task::JoinHandle<()> {
    every(PERIOD, "engine pass", move || {
        let app = app.clone();
        let store = store.clone();
        async move {
            let started = std::time::Instant::now();
            let report = run_once(&store, &app.providers, OffsetDateTime::now_utc()).await?;
            app.metrics.record_pass(started.elapsed(), report.carried_over);
            Ok(report)
        }
    })
}
