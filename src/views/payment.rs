//! A payment heard of (the receiver, an import) as the API and its events show it.

use crate::domain::dates::Timestamp;
use crate::domain::received_payment::ReceivedPayment;
use crate::types as wire;

/// The public view of a payment heard of.
pub(crate) fn payment_view(p: ReceivedPayment) -> wire::Payment {
    wire::Payment {
        id: p.id,
        source: p.source,
        status: p.status,
        reason: p.reason,
        amount: p.facts.amount,
        paid_at: Timestamp(p.paid_at),
        external_id: p.facts.external_id,
        line: p.facts.line,
        txid: p.facts.txid,
        charge_id: p.charge_id,
        created_at: Timestamp(p.created_at),
        resolved_at: p.resolved_at.map(Timestamp),
    }
}
