//! Queued notifications sent again when their attempt is due.

use std::collections::HashMap;

use super::PAGE;
use super::clock::PassClock;
use super::report::PassReport;
use super::writes::committed;
use crate::domain::calendar;
use crate::domain::charge::Charge;
use crate::domain::dates::Zone;
use crate::domain::notification::{NOTIFIABLE, Notification};
use crate::domain::policy::Policy;
use crate::outbound::delivery::Courier;
use crate::store::StoreResult;
use crate::types::NotificationOrigin;

/// What to do with a queued notification whose attempt is due.
enum Due {
    /// Send it now.
    Send,
    /// Not now: outside its policy's window or business days, or its charge's régua is paused
    /// or waits for a decision.
    Wait,
    /// Never: the charge closed, or the policy was archived.
    Skip(&'static str),
}

/// Whether a due notification goes now. A person's message goes while its charge takes
/// messages; the régua's follows the régua's rules, as its first attempt did.
fn judge(n: &Notification, charge: Option<&Charge>, policy: Option<&Policy>, clock: &PassClock) -> Due {
    use crate::types::{ChargeStatus, DunningStatus};
    let Some(charge) = charge else { return Due::Skip("charge_closed") };
    if n.origin != NotificationOrigin::Policy {
        return if NOTIFIABLE.contains(&charge.status) { Due::Send } else { Due::Skip("charge_closed") };
    }
    if !matches!(charge.status, ChargeStatus::Pending | ChargeStatus::Overdue)
        || charge.dunning_status == DunningStatus::Closed
    {
        return Due::Skip("charge_closed");
    }
    let Some(policy) = policy.filter(|p| p.status == crate::types::PolicyStatus::Active) else {
        return Due::Skip("policy_archived");
    };
    let clock = clock.in_zone(policy.zone_or(&clock.zone).clone());
    let open_now = calendar::is_business_day(clock.today()) && policy.window.contains(clock.minute());
    let runs = matches!(charge.dunning_status, DunningStatus::NotStarted | DunningStatus::Active);
    if open_now && runs { Due::Send } else { Due::Wait }
}

/// Sends again the queued notifications whose attempt is due, when [`judge`] says so.
pub(super) async fn retry_due(
    courier: &Courier<'_>,
    clock: &PassClock,
    organizations: &HashMap<String, (bool, Zone)>,
    report: &mut PassReport,
) -> StoreResult<()> {
    let store = courier.store;
    let mut seen = std::collections::HashSet::new();
    let mut policies: HashMap<String, Option<Policy>> = HashMap::new();
    loop {
        let due = store.due_notifications(clock.now, PAGE).await?;
        let fresh: Vec<Notification> = due.into_iter().filter(|n| seen.insert(n.id.clone())).collect();
        if fresh.is_empty() {
            return Ok(());
        }
        for n in fresh {
            let stamp = clock.stamp(n.updated_at);
            let charge = store.charge(&n.organization_id, &n.charge_id).await?;
            let policy = match &n.cp_id {
                Some(cp_id) if !policies.contains_key(cp_id) => {
                    let p = store.policy(&n.organization_id, cp_id).await?;
                    policies.entry(cp_id.clone()).or_insert(p).as_ref()
                }
                Some(cp_id) => policies.get(cp_id).and_then(Option::as_ref),
                None => None,
            };
            // An organization created during the pass waits for the next one.
            let Some((sandbox, zone)) = organizations.get(&n.organization_id) else { continue };
            match judge(&n, charge.as_ref(), policy, &clock.in_zone(zone.clone())) {
                Due::Wait => {}
                Due::Skip(reason) => {
                    let mut after = n.clone();
                    after.skip(reason, stamp);
                    let event = courier.actor.event("notification.skipped", Some(&n), &after, stamp);
                    if store.update_notification(&after, n.version, &[event]).await? {
                        committed();
                        report.skipped += 1;
                    }
                }
                Due::Send => {
                    if let Some(after) = courier.retry(n, *sandbox, stamp).await? {
                        committed();
                        report.count(&after);
                    }
                }
            }
        }
    }
}
