//! The engine's part in credit-bureau reports and protests:
//! - a `credit_bureau` step that needs no approval files the report itself, once per charge and
//!   step (the escalation row and the report commit together); a rule that refuses it (no
//!   letter sent, no full address, the debtor blocked, a production organization with no bureau
//!   provider) leaves the charge awaiting a decision, with the refusal in the event;
//! - in a sandbox organization, the bureau's and the notary's steps are played on the engine's
//!   clock, with the delays `domain::credit_bureau` and `domain::protest` document.

use serde_json::{Value, json};

use super::{PassClock, committed, engine_event};
use crate::domain::charge::Charge;
use crate::domain::credit_bureau::{DEFAULT_BUREAU, DEFAULT_NATURE, Report};
use crate::domain::dates::{format_timestamp, organization_today};
use crate::domain::policy::Step;
use crate::store::{Store, StoreResult};

/// What the sandbox's bureau and notary did in a pass.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Moved {
    pub reports: u64,
    pub protests: u64,
}

/// How a step's own report went.
pub enum Filed {
    /// The report is filed (or one was already under way) and the step is marked run.
    Done,
    /// The charge changed meanwhile, or the step already ran: the next pass looks again.
    Skipped,
    /// A rule refuses it: a person decides instead.
    Refused(String),
}

/// The status change of a report or protest, as an event's data.
fn status_change(id: &str, before: &str, after: &str, version: i64) -> Value {
    json!({
        "changes": { "status": [before, after] },
        "object": { "id": id, "status": after, "version": version },
    })
}

/// Plays the next step of the organization's reports and protests that wait on the bureau or
/// the notary (sandbox organizations only: nothing is simulated for a production one).
pub async fn follow(store: &Store, org_id: &str, sandbox: bool, clock: &PassClock) -> StoreResult<Moved> {
    let mut moved = Moved::default();
    if !sandbox {
        return Ok(moved);
    }
    let today = organization_today(clock.now);
    for report in store.moving_credit_bureau_reports(org_id).await? {
        let stamp = clock.stamp(report.updated_at);
        let mut after = report.clone();
        if !after.advance_sandbox(today, stamp) {
            continue;
        }
        let data = status_change(&after.id, report.status.as_str(), after.status.as_str(), after.version);
        let event = engine_event(after.event_code(), "credit_bureau_report", &after.id, org_id, data, stamp);
        if store.update_credit_bureau_report(&after, report.version, &event).await? {
            committed();
            moved.reports += 1;
        }
    }
    for protest in store.moving_protests(org_id).await? {
        let stamp = clock.stamp(protest.updated_at);
        let mut after = protest.clone();
        if !after.advance_sandbox(today, stamp) {
            continue;
        }
        let data = status_change(&after.id, protest.status.as_str(), after.status.as_str(), after.version);
        let event = engine_event(after.event_code(), "protest", &after.id, org_id, data, stamp);
        if store.update_protest(&after, protest.version, &event).await? {
            committed();
            moved.protests += 1;
        }
    }
    Ok(moved)
}

/// Files the report a `credit_bureau` step that needs no approval calls for, in one unit with
/// the row that marks the step run for the charge.
pub async fn report_on_its_own(
    store: &Store,
    step: &Step,
    charge: &Charge,
    sandbox: bool,
    now: time::OffsetDateTime,
) -> StoreResult<Filed> {
    if !sandbox {
        return Ok(Filed::Refused("no credit-bureau provider is connected to this server".into()));
    }
    let org_id = charge.organization_id.as_str();
    let unit = store.begin().await?;
    let in_unit = unit.store();
    match in_unit.charge(org_id, &charge.id).await? {
        Some(current) if current.version == charge.version => {}
        _ => return Ok(Filed::Skipped),
    }
    let Some(debtor) = in_unit.debtor(org_id, &charge.debtor_id).await? else { return Ok(Filed::Skipped) };
    let notice = in_unit.letter_notice(org_id, &charge.id).await?;
    let report =
        match Report::file(charge, &debtor, notice.as_deref(), DEFAULT_BUREAU, DEFAULT_NATURE.into(), now) {
            Ok(report) => report,
            Err(refused) => return Ok(Filed::Refused(refused.to_string())),
        };
    if !in_unit.record_escalation(&charge.id, &step.id, org_id, &format_timestamp(now)).await? {
        return Ok(Filed::Skipped);
    }
    // A report a person filed already stands for the step.
    if in_unit.live_credit_bureau_report(org_id, &charge.id).await?.is_none() {
        let data = json!({
            "object": crate::api::to_json(&crate::api::escalations::report_view(&report)),
            "changes": {},
            "step_id": step.id,
        });
        let event = engine_event(report.event_code(), "credit_bureau_report", &report.id, org_id, data, now);
        in_unit.insert_credit_bureau_report(&report, &event).await?;
    }
    unit.commit().await?;
    Ok(Filed::Done)
}
