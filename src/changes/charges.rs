//! Saving a change to a charge with its event: shared by the handlers that change charges (the
//! charges, agreements and payments tags) and the payments heard of. How a charge shows is
//! `views::charge`.

use super::{Acting, Withdrawal};
use crate::domain::charge::{Charge, Payment};
use crate::domain::dates::Timestamp;
use crate::error::{ApiError, ApiResult};
use crate::types as wire;
use crate::views::charge::charge_event_view;
use crate::views::event_data::ObjectPayload;

/// Records a payment on a charge and saves it with its event (`charge.paid` when it pays the
/// balance): the one path of `charges_settle`, the payment receiver, imports and assignments.
/// A charge already paid is answered as it is.
pub(crate) async fn settle(acting: &Acting<'_>, before: Charge, payment: Payment) -> ApiResult<Charge> {
    let mut after = before.clone();
    let Some(receipt) = after.settle(payment, acting.now)? else {
        return Ok(before);
    };
    let code = if after.status == wire::ChargeStatus::Paid { "charge.paid" } else { "charge.db.updated" };
    let payment = wire::EventPayment { amount: receipt.amount, paid_at: Timestamp(receipt.paid_at) };
    save_change(acting, &before, after, code, |data| data.payment = Some(payment)).await
}

/// When the régua acts next on a charge, from the policy it follows (its own, else the
/// organization's default); while paused until a day, when it resumes; none while it is paused
/// with no end, waits for a person or has ended.
pub(crate) async fn next_action(
    acting: &Acting<'_>,
    charge: &Charge,
) -> ApiResult<Option<time::OffsetDateTime>> {
    if let Some(resumes) = charge.resumes_at(acting.zone()) {
        return Ok(Some(resumes));
    }
    if !charge.regua_runs() {
        return Ok(None);
    }
    let policy = acting.store.followed_policy(acting.org_id(), charge.cp_id.as_deref()).await?;
    Ok(policy.and_then(|p| p.next_action_for(charge, acting.zone(), acting.now)))
}

/// Saves a changed charge (its version and time moved on) with its event `code`, whose data
/// `extra` completes, if it is still at `before`'s version; a concurrent change is a conflict
/// to retry.
pub(crate) async fn save_change(
    acting: &Acting<'_>,
    before: &Charge,
    mut after: Charge,
    code: &str,
    extra: impl FnOnce(&mut wire::ChargeEventData),
) -> ApiResult<Charge> {
    after.touch(acting.now);
    after.next_action_at = next_action(acting, &after).await?;
    // A debt that ended takes back its report and protest; the charge carries their statuses.
    let withdrawal = Withdrawal::of(acting, before, &mut after).await?;
    let day = acting.today();
    let mut data =
        wire::ChargeEventData::of(Some(&charge_event_view(before, day)), charge_event_view(&after, day));
    extra(&mut data);
    let evt = acting.event(code, &after.id, &data);
    if !acting.store.update_charge(&after, before.version, &evt).await? {
        return Err(ApiError::Concurrent("charge"));
    }
    withdrawal.save(acting).await?;
    Ok(after)
}
