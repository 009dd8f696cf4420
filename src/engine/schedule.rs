//! When the régua acts next on each charge: after a pause ends, after its policy changed, and
//! past steps it no longer sends.

use std::collections::HashMap;

use time::{Duration, OffsetDateTime};

use super::clock::PassClock;
use super::events::charge_event;
use super::report::PassReport;
use super::writes::committed;
use super::{CATCH_UP_DAYS, PAGE};
use crate::domain::charge::Charge;
use crate::domain::dates::{format_date, format_timestamp};
use crate::domain::policy::Policy;
use crate::store::{Store, StoreResult};

/// Resumes the régua of the organization's charges whose pause ends today.
pub(super) async fn end_pauses(
    store: &Store,
    org_id: &str,
    clock: &PassClock,
    report: &mut PassReport,
) -> StoreResult<()> {
    let today = clock.today();
    // Each resumed charge leaves the query, so pages follow until one comes back short.
    loop {
        let page = store.pauses_ending(org_id, &format_date(today), PAGE).await?;
        report.charges_read += page.len() as u64;
        let full = page.len() as i64 == PAGE;
        let mut changed = 0;
        for before in page {
            let mut after = before.clone();
            let stamp = clock.stamp(before.updated_at);
            if !after.end_pause(today, stamp) {
                continue;
            }
            let policy = store.followed_policy(org_id, after.cp_id.as_deref()).await?;
            after.next_action_at = policy.and_then(|p| p.next_action_for(&after, &clock.zone, clock.now));
            let event = charge_event(&before, &after, "charge.resumed", today, stamp, |_| {});
            if store.update_charge(&after, before.version, &event).await? {
                committed();
                changed += 1;
            }
        }
        report.resumed += changed;
        if !full || changed == 0 {
            return Ok(());
        }
    }
}

/// Computes again when the régua acts next on the charges of each policy changed since the
/// last time (a step added, moved or removed; the window, zone or status changed; the default
/// passed to it). A charge changed meanwhile keeps the next action its own change computed.
pub(super) async fn reschedule(
    store: &Store,
    org_id: &str,
    clock: &PassClock,
    report: &mut PassReport,
) -> StoreResult<()> {
    use crate::types::ChargeStatus;
    for policy in store.policies_to_reschedule(org_id).await? {
        let following = (policy.id.as_str(), policy.is_default);
        for status in [ChargeStatus::Pending, ChargeStatus::Overdue] {
            let mut after = (String::new(), String::new());
            loop {
                let cursor = (after.0.as_str(), after.1.as_str());
                let page = store.charges_following(org_id, following, status, cursor, PAGE).await?;
                report.charges_read += page.len() as u64;
                let changes: Vec<(&Charge, Option<OffsetDateTime>)> = page
                    .iter()
                    .map(|c| (c, policy.next_action_for(c, &clock.zone, clock.now)))
                    .filter(|(c, next)| c.next_action_at != *next)
                    .collect();
                store.reschedule_charges(&changes).await?;
                report.rescheduled += changes.len() as u64;
                match page.last() {
                    Some(last) if page.len() as i64 == PAGE => {
                        after = (format_date(last.due_date), last.id.clone())
                    }
                    _ => break,
                }
            }
        }
        store.policy_scheduled(&policy.id, policy.version).await?;
    }
    Ok(())
}

/// Moves on the next action of the organization's charges whose next step came more than
/// [`CATCH_UP_DAYS`] ago (the engine was down, or the step went without moving the charge on):
/// the engine no longer sends it, and a charge left waiting for it would be read every pass.
pub(super) async fn skip_missed(
    store: &Store,
    org_id: &str,
    clock: &PassClock,
    report: &mut PassReport,
) -> StoreResult<()> {
    let earliest = clock.today() - Duration::days(CATCH_UP_DAYS);
    let before = format_timestamp(clock.zone.instant(earliest, time::Time::MIDNIGHT));
    let mut policies: HashMap<Option<String>, Option<Policy>> = HashMap::new();
    // Each moved charge leaves the query, so pages follow until one changes nothing.
    loop {
        let page = store.actions_missed(org_id, &before, PAGE).await?;
        report.charges_read += page.len() as u64;
        let mut changes = Vec::with_capacity(page.len());
        for charge in &page {
            if !policies.contains_key(&charge.cp_id) {
                let policy = store.followed_policy(org_id, charge.cp_id.as_deref()).await?;
                policies.insert(charge.cp_id.clone(), policy);
            }
            let policy = policies.get(&charge.cp_id).and_then(Option::as_ref);
            let next = policy.and_then(|p| p.next_action_for(charge, &clock.zone, clock.now));
            if next != charge.next_action_at {
                changes.push((charge, next));
            }
        }
        store.reschedule_charges(&changes).await?;
        report.rescheduled += changes.len() as u64;
        if page.len() as i64 != PAGE || changes.is_empty() {
            return Ok(());
        }
    }
}
