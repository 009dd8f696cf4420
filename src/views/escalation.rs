//! A credit-bureau report and a protest as the API shows them and as their events carry them.

use super::event_data::ObjectPayload;
use crate::domain::credit_bureau::{Report, ReportDetails};
use crate::domain::dates::{Day, Timestamp};
use crate::domain::escalation::Escalation;
use crate::domain::protest::{Protest, ProtestDetails};
use crate::store::Stored;
use crate::types::{self as wire, CreditBureauReportStatus as ReportStatus, ProtestStatus};

// The views are generated structs with no trait in common, so a macro fills the fields every
// escalation shares; each kind names only its own. The JSON keeps the spec's field order.
/// The view `$view` of the escalation `$e`: the shared fields, then the kind's `$field: $value`.
macro_rules! escalation_view {
    ($($view:ident)::+, $e:ident { $($field:ident: $value:expr),* $(,)? }) => {
        $($view)::+ {
            id: $e.id.clone(),
            charge_id: $e.charge_id.clone(),
            debtor_id: $e.debtor_id.clone(),
            debtor_name: $e.debtor_name.clone(),
            charge_description: $e.charge_description.clone(),
            status: $e.status,
            amount: $e.amount,
            requested_at: Timestamp($e.requested_at),
            failure_reason: $e.failure_reason.clone(),
            version: $e.version,
            created_at: Timestamp($e.created_at),
            updated_at: Timestamp($e.updated_at),
            $($field: $value),*
        }
    };
}

/// How one kind shows in answers and events.
pub(crate) trait Shown: Stored {
    type View: serde::Serialize;
    type Payload: ObjectPayload<Object = Self::View>;
    /// Its answer: the view in the kind's envelope; a page of views with the page's meta.
    type Envelope;
    type List;
    /// What the server cannot reach without a gateway ("a protest").
    const REACHED: &'static str;

    const VIEW: fn(&Escalation<Self>) -> Self::View;
    const ENVELOPE: fn(Self::View) -> Self::Envelope;
    const LIST: fn(Vec<Self::View>, wire::AmountListMeta) -> Self::List;
}

/// The [`Shown`] of `$kind`: the view `$view` makes, the generated types around it (`$View`,
/// its `EventData`, `Envelope` and `List`), and what the server cannot reach without a gateway.
macro_rules! shown {
    ($($kind:ty: $view:ident, $View:ident { $Payload:ident, $Envelope:ident, $List:ident }, $reached:literal;)*) => {$(
        impl Shown for $kind {
            type View = wire::$View;
            type Payload = wire::$Payload;
            type Envelope = wire::$Envelope;
            type List = wire::$List;
            const REACHED: &'static str = $reached;
            const VIEW: fn(&Escalation<Self>) -> wire::$View = $view;
            const ENVELOPE: fn(wire::$View) -> wire::$Envelope = |data| wire::$Envelope { data };
            const LIST: fn(Vec<wire::$View>, wire::AmountListMeta) -> wire::$List =
                |data, meta| wire::$List { data, meta };
        }
    )*};
}
shown! {
    ReportDetails: report_view, CreditBureauReport {
        CreditBureauReportEventData, CreditBureauReportEnvelope, CreditBureauReportList
    }, "credit-bureau";
    ProtestDetails: protest_view, Protest { ProtestEventData, ProtestEnvelope, ProtestList }, "protest";
}

/// The move from `before` (none: filed) to `after`, as its event carries it.
pub(crate) fn moved<K: Shown>(before: Option<&Escalation<K>>, after: &Escalation<K>) -> K::Payload {
    K::Payload::of(before.map(K::VIEW).as_ref(), (K::VIEW)(after))
}

/// The public view of a report.
pub(crate) fn report_view(r: &Report) -> wire::CreditBureauReport {
    escalation_view!(
        wire::CreditBureauReport,
        r {
            bureau: r.bureau,
            nature: r.nature.clone(),
            notice_notification_id: r.notice_notification_id.clone(),
            notice_sent_at: r.at(ReportStatus::NoticeSent).map(Timestamp),
            included_at: r.at(ReportStatus::Reported).map(Timestamp),
            removal_requested_at: r.at(ReportStatus::RemovalRequested).map(Timestamp),
            removal_due_by: r.removal_due_by.map(Day),
            removed_at: r.at(ReportStatus::Removed).map(Timestamp),
            canceled_at: r.at(ReportStatus::Canceled).map(Timestamp),
            remove_reason: r.remove_reason,
            external_protocol: r.protocol.clone(),
        }
    )
}

/// The public view of a protest.
pub(crate) fn protest_view(p: &Protest) -> wire::Protest {
    escalation_view!(
        wire::Protest,
        p {
            title_type: p.title_type,
            document_number: p.document_number.clone(),
            notary: wire::Notary {
                name: p.notary.name.clone(),
                city: p.notary.city.clone(),
                state: p.notary.state.clone(),
            },
            protocol_number: p.protocol.clone(),
            sent_at: p.at(ProtestStatus::Sent).map(Timestamp),
            intimated_at: p.at(ProtestStatus::Intimated).map(Timestamp),
            protested_at: p.at(ProtestStatus::Protested).map(Timestamp),
            paid_at: p.at(ProtestStatus::Paid).map(Timestamp),
            withdrawn_at: p.at(ProtestStatus::Withdrawn).map(Timestamp),
            cancellation_requested_at: p.at(ProtestStatus::CancellationRequested).map(Timestamp),
            canceled_at: p.at(ProtestStatus::Canceled).map(Timestamp),
            costs_amount: p.costs_amount,
        }
    )
}
