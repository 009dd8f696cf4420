//! The régua's engine (issue 9): passes over every organization at an instant. Its first duty:
//! a pending charge turns overdue the day after its effective due date, in the organization's
//! day, with the `charge.overdue` event the API writes for any other change. Policies, steps and
//! notifications run in the same pass as they arrive.
//!
//! A pass can run at any time and any number of times, on any number of processes: each change
//! is saved only if the charge is still at the version read, so two engines never turn one
//! charge twice, and a pass that dies midway leaves nothing half done.

use std::sync::Arc;
use std::time::Duration as StdDuration;

use serde_json::json;
use time::OffsetDateTime;

use crate::api::{changes, charges::charge_view, to_json};
use crate::app::App;
use crate::domain::charge::Charge;
use crate::domain::dates::{format_date, format_timestamp, organization_today};
use crate::domain::ids::new_id;
use crate::store::{NewEvent, Store, StoreResult};

/// How often `serve` runs a pass.
pub const PERIOD: StdDuration = StdDuration::from_secs(60);
/// Charges read and saved at a time.
const PAGE: i64 = 500;

/// What one pass did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct PassReport {
    /// Charges turned overdue.
    pub turned_overdue: u64,
}

/// One pass at `now`.
/// `now` decides what is due (a test or an operator may pass another instant); changes are
/// stamped with the pass's clock, `now` plus the time the pass has taken, and never earlier
/// than the charge's last change. One organization's failure is logged and the others go on.
pub async fn run_once(store: &Store, now: OffsetDateTime) -> StoreResult<PassReport> {
    let clock = PassClock { now, started: std::time::Instant::now() };
    let mut report = PassReport::default();
    for org_id in store.organization_ids().await? {
        match turn_overdue(store, &org_id, &clock).await {
            Ok(turned) => report.turned_overdue += turned,
            Err(e) => {
                tracing::warn!(organization = %org_id, error = %e, "engine pass failed for an organization")
            }
        }
    }
    Ok(report)
}

/// The instant a pass runs as, advancing with real time while it runs.
struct PassClock {
    now: OffsetDateTime,
    started: std::time::Instant,
}

impl PassClock {
    /// The stamp of a change to something last changed at `last`.
    fn stamp(&self, last: OffsetDateTime) -> OffsetDateTime {
        let elapsed = time::Duration::try_from(self.started.elapsed()).unwrap_or(time::Duration::ZERO);
        (self.now + elapsed).max(last)
    }
}

/// Turns the organization's late pending charges overdue; how many it turned.
async fn turn_overdue(store: &Store, org_id: &str, clock: &PassClock) -> StoreResult<u64> {
    let today = organization_today(clock.now);
    let before = format_date(today);
    let mut turned = 0;
    let mut after: Option<(String, String)> = None;
    loop {
        let page = store
            .pending_due_before(org_id, &before, after.as_ref().map(|(d, i)| (d.as_str(), i.as_str())), PAGE)
            .await?;
        let Some(last) = page.last() else { break };
        after = Some((format_date(last.due_date), last.id.clone()));
        let full = page.len() as i64 == PAGE;
        for before in page {
            let mut charge = before.clone();
            let stamp = clock.stamp(before.updated_at);
            if !charge.turn_overdue(today, stamp) {
                continue;
            }
            // Saved only at the version read: a charge changed meanwhile (paid, edited, turned
            // by another engine) is left to that change and judged again next pass.
            let event = overdue_event(&before, &charge, today, stamp);
            if store.update_charge(&charge, before.version, &event).await? {
                turned += 1;
            }
        }
        if !full {
            break;
        }
    }
    Ok(turned)
}

/// The `charge.overdue` event, in the shape the API writes for changes.
fn overdue_event(before: &Charge, after: &Charge, today: time::Date, now: OffsetDateTime) -> NewEvent {
    let object = to_json(&charge_view(after, today));
    let data =
        json!({ "changes": changes(&to_json(&charge_view(before, today)), &object), "object": object });
    NewEvent {
        id: new_id("evt"),
        organization_id: after.organization_id.clone(),
        code: "charge.overdue".into(),
        resource_type: "charge",
        resource_id: after.id.clone(),
        actor_type: "system".into(),
        actor_id: "engine".into(),
        data,
        request_id: None,
        occurred_at: format_timestamp(now),
    }
}

/// Runs a pass every [`PERIOD`] until the process ends.
pub fn spawn(app: Arc<App>) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut ticks = tokio::time::interval(PERIOD);
        // A pass longer than the period is followed by one period of rest, not a burst.
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            ticks.tick().await;
            match run_once(&app.store, OffsetDateTime::now_utc()).await {
                Ok(report) if report.turned_overdue > 0 => {
                    tracing::info!(turned_overdue = report.turned_overdue, "engine pass");
                }
                Ok(_) => {}
                Err(e) => tracing::warn!(error = %e, "engine pass failed; the next one tries again"),
            }
        }
    })
}
