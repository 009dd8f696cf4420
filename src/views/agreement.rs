//! An agreement as the API shows it.

use crate::domain::agreement::Agreement;
use crate::domain::dates::{Day, Timestamp};
use crate::types as wire;

/// The public view of an agreement.
pub(crate) fn agreement_view(a: &Agreement) -> wire::Agreement {
    wire::Agreement {
        id: a.id.clone(),
        debtor_id: a.debtor_id.clone(),
        charge_ids: a.charge_ids.clone(),
        status: a.status,
        original_amount: a.original_amount,
        fine_amount: a.fine_amount,
        interest_amount: a.interest_amount,
        discount_amount: a.discount_amount,
        total_amount: a.total_amount,
        fine_waived: a.fine_waived,
        interest_waived: a.interest_waived,
        down_payment_amount: a.down_payment_amount,
        down_payment_due_date: a.down_payment_due_date.map(Day),
        installments_count: i64::from(a.installments_count),
        first_due_date: Day(a.first_due_date),
        grace_days_before_broken: a.grace_days_before_broken,
        canceled_at: a.canceled_at.map(Timestamp),
        cancellation_reason: a.cancellation_reason.clone(),
        broken_at: a.broken_at.map(Timestamp),
        completed_at: a.completed_at.map(Timestamp),
        version: a.version,
        created_at: Timestamp(a.created_at),
        updated_at: Timestamp(a.updated_at),
    }
}
