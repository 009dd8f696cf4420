//! A credit-bureau report and a protest as the API shows them and as their events carry them.

use super::event_data::ObjectPayload;
use crate::domain::credit_bureau::{Report, ReportDetails};
use crate::domain::dates::{Day, Timestamp};
use crate::domain::escalation::Escalation;
use crate::domain::protest::{Protest, ProtestDetails};
use crate::store::Stored;
use crate::types as wire;

/// How one kind shows in answers and events.
pub(crate) trait Shown: Stored {
    type View: serde::Serialize;
    type Payload: ObjectPayload<Object = Self::View>;
    /// What the server cannot reach without a gateway ("a protest").
    const REACHED: &'static str;

    const VIEW: fn(&Escalation<Self>) -> Self::View;
}

/// The move from `before` (none: filed) to `after`, as its event carries it.
pub(crate) fn moved<K: Shown>(before: Option<&Escalation<K>>, after: &Escalation<K>) -> K::Payload {
    K::Payload::of(before.map(K::VIEW).as_ref(), (K::VIEW)(after))
}

impl Shown for ReportDetails {
    type View = wire::CreditBureauReport;
    type Payload = wire::CreditBureauReportEventData;
    const REACHED: &'static str = "credit-bureau";
    const VIEW: fn(&Report) -> wire::CreditBureauReport = report_view;
}

/// The public view of a report.
pub(crate) fn report_view(r: &Report) -> wire::CreditBureauReport {
    wire::CreditBureauReport {
        id: r.id.clone(),
        charge_id: r.charge_id.clone(),
        debtor_id: r.debtor_id.clone(),
        debtor_name: r.debtor_name.clone(),
        charge_description: r.charge_description.clone(),
        bureau: r.bureau,
        status: r.status,
        amount: r.amount,
        nature: r.nature.clone(),
        notice_notification_id: r.notice_notification_id.clone(),
        requested_at: Timestamp(r.requested_at),
        notice_sent_at: r.notice_sent_at.map(Timestamp),
        included_at: r.included_at.map(Timestamp),
        removal_requested_at: r.removal_requested_at.map(Timestamp),
        removal_due_by: r.removal_due_by.map(Day),
        removed_at: r.removed_at.map(Timestamp),
        canceled_at: r.canceled_at.map(Timestamp),
        remove_reason: r.remove_reason,
        failure_reason: r.failure_reason.clone(),
        external_protocol: r.external_protocol.clone(),
        version: r.version,
        created_at: Timestamp(r.created_at),
        updated_at: Timestamp(r.updated_at),
    }
}

impl Shown for ProtestDetails {
    type View = wire::Protest;
    type Payload = wire::ProtestEventData;
    const REACHED: &'static str = "protest";
    const VIEW: fn(&Protest) -> wire::Protest = protest_view;
}

/// The public view of a protest.
pub(crate) fn protest_view(p: &Protest) -> wire::Protest {
    wire::Protest {
        id: p.id.clone(),
        charge_id: p.charge_id.clone(),
        debtor_id: p.debtor_id.clone(),
        debtor_name: p.debtor_name.clone(),
        charge_description: p.charge_description.clone(),
        status: p.status,
        amount: p.amount,
        title_type: p.title_type,
        document_number: p.document_number.clone(),
        notary: wire::Notary {
            name: p.notary.name.clone(),
            city: p.notary.city.clone(),
            state: p.notary.state.clone(),
        },
        protocol_number: p.protocol_number.clone(),
        requested_at: Timestamp(p.requested_at),
        sent_at: p.sent_at.map(Timestamp),
        intimated_at: p.intimated_at.map(Timestamp),
        protested_at: p.protested_at.map(Timestamp),
        paid_at: p.paid_at.map(Timestamp),
        withdrawn_at: p.withdrawn_at.map(Timestamp),
        cancellation_requested_at: p.cancellation_requested_at.map(Timestamp),
        canceled_at: p.canceled_at.map(Timestamp),
        costs_amount: p.costs_amount,
        failure_reason: p.failure_reason.clone(),
        version: p.version,
        created_at: Timestamp(p.created_at),
        updated_at: Timestamp(p.updated_at),
    }
}
