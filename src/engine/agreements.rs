//! The engine's part in agreements: once the installment charges are paid or late, a live
//! agreement moves on. Its down payment paid makes it active; every installment paid completes
//! it and marks the charges it renegotiated paid; an installment overdue past the grace days
//! breaks it, cancels its unpaid installments and reopens the renegotiated charges, whose régua
//! resumes. Each agreement's move, with its charges and events, is one unit of work.

use time::OffsetDateTime;

use super::{PassClock, committed, engine_event};
use crate::domain::agreement::Agreement;
use crate::domain::charge::{Charge, OPEN};
use crate::domain::dates::Zone;
use crate::store::{Store, StoreResult};
use crate::types::{self as wire, AgreementStatus, ChargeStatus};
use crate::views::agreement::agreement_view;
use crate::views::charge::charge_event_view;
use crate::views::event_data::ObjectPayload;

/// What the agreements of one organization did in a pass.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Moved {
    pub activated: u64,
    pub completed: u64,
    pub broken: u64,
}

/// Moves the organization's live agreements on.
pub async fn follow(store: &Store, org_id: &str, clock: &PassClock) -> StoreResult<Moved> {
    let mut moved = Moved::default();
    let today = clock.today();
    for agreement in store.live_agreements(org_id).await? {
        let mut installments = Vec::new();
        for (number, id) in store.agreement_installments(&agreement.id).await? {
            if let Some(charge) = store.charge(org_id, &id).await? {
                installments.push((number, charge));
            }
        }
        let paid: Vec<(u32, bool)> =
            installments.iter().map(|(n, c)| (*n, c.status == ChargeStatus::Paid)).collect();
        let late_days = installments
            .iter()
            .filter(|(_, c)| OPEN.contains(&c.status))
            .map(|(_, c)| c.days_overdue(today))
            .max()
            .unwrap_or(0);
        let stamp = clock.stamp(agreement.updated_at);
        let mut after = agreement.clone();
        if !after.follow(&paid, late_days, stamp) {
            continue;
        }
        if save(store, &agreement, &after, &installments, stamp, &clock.zone).await? {
            committed();
            match after.status {
                AgreementStatus::Active => moved.activated += 1,
                AgreementStatus::Completed => moved.completed += 1,
                AgreementStatus::Broken => moved.broken += 1,
                _ => {}
            }
        }
    }
    Ok(moved)
}

/// The agreement's move and what it does to its charges, in one unit; false (nothing written)
/// when anything changed meanwhile: the next pass looks again.
async fn save(
    store: &Store,
    before: &Agreement,
    after: &Agreement,
    installments: &[(u32, Charge)],
    now: OffsetDateTime,
    zone: &Zone,
) -> StoreResult<bool> {
    let today = zone.today(now);
    let unit = store.begin().await?;
    let in_unit = unit.store();
    match after.status {
        AgreementStatus::Completed => {
            for id in &after.charge_ids {
                let Some(source) = in_unit.charge(&after.organization_id, id).await? else { continue };
                let mut paid = source.clone();
                if paid.settled_by_agreement(now)
                    && !save_charge(in_unit, &source, paid, "charge.paid", after, now, zone).await?
                {
                    return Ok(false);
                }
            }
        }
        AgreementStatus::Broken => {
            for (_, installment) in installments.iter().filter(|(_, c)| OPEN.contains(&c.status)) {
                let mut canceled = installment.clone();
                let reason = format!("Acordo {} rompido", after.id);
                if canceled.cancel_with_agreement(reason, now)
                    && !save_charge(in_unit, installment, canceled, "charge.canceled", after, now, zone)
                        .await?
                {
                    return Ok(false);
                }
            }
            for id in &after.charge_ids {
                let Some(source) = in_unit.charge(&after.organization_id, id).await? else { continue };
                let mut reopened = source.clone();
                if reopened.leave_agreement(today)
                    && !save_charge(in_unit, &source, reopened, "charge.db.updated", after, now, zone).await?
                {
                    return Ok(false);
                }
            }
        }
        _ => {}
    }
    let code = match after.status {
        AgreementStatus::Completed => "agreement.completed",
        AgreementStatus::Broken => "agreement.broken",
        _ => "agreement.activated",
    };
    let data = wire::AgreementEventData::of(Some(&agreement_view(before)), agreement_view(after));
    let event = engine_event(code, &after.id, &after.organization_id, &data, now);
    if !in_unit.update_agreement(after, before.version, &event).await? {
        return Ok(false);
    }
    unit.commit().await?;
    Ok(true)
}

/// Saves a charge the agreement's move changed, at the version read, with its next action.
/// A charge the agreement gives back to the régua (it broke) is due again as its policy says.
async fn save_charge(
    store: &Store,
    before: &Charge,
    mut after: Charge,
    code: &str,
    agreement: &Agreement,
    now: OffsetDateTime,
    zone: &Zone,
) -> StoreResult<bool> {
    let today = zone.today(now);
    after.touch(now);
    let policy = store.followed_policy(&after.organization_id, after.cp_id.as_deref()).await?;
    after.next_action_at = policy.and_then(|p| p.next_action_for(&after, zone, now));
    let mut data =
        wire::ChargeEventData::of(Some(&charge_event_view(before, today)), charge_event_view(&after, today));
    data.agreement_id = Some(agreement.id.clone());
    let event = engine_event(code, &after.id, &after.organization_id, &data, now);
    store.update_charge(&after, before.version, &event).await
}
