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
pub async fn run_once(store: &Store, now: OffsetDateTime) -> StoreResult<PassReport> {
    let mut report = PassReport::default();
    for org_id in store.organization_ids().await? {
        report.turned_overdue += turn_overdue(store, &org_id, now).await?;
    }
    Ok(report)
}

/// Turns the organization's late pending charges overdue; how many it turned.
async fn turn_overdue(store: &Store, org_id: &str, now: OffsetDateTime) -> StoreResult<u64> {
    let today = organization_today(now);
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
            if !charge.turn_overdue(today, now) {
                continue;
            }
            // Saved only at the version read: a charge changed meanwhile (paid, edited, turned
            // by another engine) is left to that change and judged again next pass.
            if store.update_charge(&charge, before.version, &overdue_event(&before, &charge, now)).await? {
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
fn overdue_event(before: &Charge, after: &Charge, now: OffsetDateTime) -> NewEvent {
    let today = organization_today(now);
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
