//! A charge as the API shows it and as its events carry it.

use time::Date;

use crate::domain::charge::Charge;
use crate::domain::dates::{Day, Timestamp};
use crate::domain::pix_account::PixAccount;
use crate::types::{self as wire, ChargeCurrency};

/// A charge as events carry it: its own payment codes only (a code made for the organization's
/// Pix account follows from the balance and the account, and changes with either).
pub(crate) fn charge_event_view(c: &Charge, today: Date) -> wire::Charge {
    into_view(c.clone(), today, None)
}

/// The public view of a charge on `today`, showing a Pix code made for the organization's
/// `pix_account` when the charge has none of its own; its text moves into the view rather than
/// being copied (a GET answers one charge read for it).
pub(crate) fn into_view(c: Charge, today: Date, pix_account: Option<&PixAccount>) -> wire::Charge {
    let (balance, days_overdue) = (c.balance(), c.days_overdue(today));
    let pix = c.pix_shown(pix_account).map(|(emv, txid)| wire::Pix { emv, txid });
    let boleto = c.boleto.map(|b| wire::Boleto {
        line: b.barcode.line(),
        barcode: b.barcode.digits().to_string(),
        url: b.url,
    });
    wire::Charge {
        id: c.id,
        debtor_id: c.debtor_id,
        debtor_name: c.debtor_name,
        cp_id: c.cp_id,
        external_id: c.external_id,
        description: c.description,
        amount: c.amount,
        paid_amount: c.paid,
        balance,
        currency: ChargeCurrency::Brl,
        issue_date: Day(c.issue_date),
        due_date: Day(c.due_date),
        days_overdue,
        status: c.status,
        dunning_status: c.dunning_status,
        payment_method: c.payment_method,
        boleto,
        pix,
        fine_percentage: c.fine,
        interest_monthly_percentage: c.interest,
        paid_at: c.paid_at.map(Timestamp),
        canceled_at: c.canceled_at.map(Timestamp),
        cancellation_reason: c.cancellation_reason,
        written_off_at: c.written_off_at.map(Timestamp),
        write_off_reason: c.write_off_reason,
        decision: c.decision.map(|d| wire::ChargeDecision {
            decision: d.decision,
            reason: d.reason,
            decided_at: d.decided_at,
        }),
        agreement_id: c.agreement_id,
        origin: c.origin,
        credit_bureau_status: c.credit_bureau_status.map(|s| s.as_str().to_string()),
        protest_status: c.protest_status.map(|s| s.as_str().to_string()),
        current_step_id: c.current_step_id,
        pending_decision: c
            .pending_decision
            .filter(|_| c.dunning_status == wire::DunningStatus::AwaitingDecision)
            .map(|p| wire::PendingDecision {
                proposed_decision: p.proposed_decision(),
                step_id: p.step_id,
                step_name: p.step_name,
                cp_id: p.cp_id,
                action: p.action,
                title_type: p.title_type,
                refused: p.refused,
                proposed_at: p.proposed_at,
            }),
        next_action_at: c.next_action_at.map(Timestamp),
        paused_until: c.paused_until.map(Day),
        tags: c.tags,
        metadata: c.metadata,
        version: c.version,
        created_at: Timestamp(c.created_at),
        updated_at: Timestamp(c.updated_at),
    }
}
