//! /v1/protests: overdue charges sent to protest at a notary (protestos).

use super::escalation_view::escalation_view;
use super::escalations::{Shown, escalated_charge, file_protest, list, list_input, load, take_back};
use super::{ApiResult, Call, Reply};
use crate::domain::dates::Timestamp;
use crate::domain::protest::{Protest, ProtestDetails};
use crate::types::{self as wire, ProtestEnvelope, ProtestList, ProtestStatus as Status};

/// The handlers of the `protests` tag.
pub struct Protests;

impl Shown for ProtestDetails {
    type View = wire::Protest;
    type Payload = wire::ProtestEventData;
    const REACHED: &'static str = "protest";
    const VIEW: fn(&Protest) -> wire::Protest = protest_view;
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
            protocol_number: p.protocol_number.clone(),
            sent_at: p.at(Status::Sent).map(Timestamp),
            intimated_at: p.at(Status::Intimated).map(Timestamp),
            protested_at: p.at(Status::Protested).map(Timestamp),
            paid_at: p.at(Status::Paid).map(Timestamp),
            withdrawn_at: p.at(Status::Withdrawn).map(Timestamp),
            cancellation_requested_at: p.at(Status::CancellationRequested).map(Timestamp),
            canceled_at: p.at(Status::Canceled).map(Timestamp),
            costs_amount: p.costs_amount,
        }
    )
}

fn reply(p: &Protest) -> Reply<ProtestEnvelope> {
    Reply::versioned(ProtestEnvelope { data: protest_view(p) }, p.version)
}

impl super::handlers::ProtestsApi for Protests {
    async fn protests_create(
        call: Call,
        input: wire::ProtestsCreateInput,
    ) -> ApiResult<Reply<ProtestEnvelope>> {
        let charge = escalated_charge(&call, input.charge_id.as_str()).await?;
        Ok(reply(&file_protest(&call, &charge, input.title_type, input.document_number.into()).await?))
    }

    async fn protests_get(call: Call, input: wire::ProtestsGetInput) -> ApiResult<Reply<ProtestEnvelope>> {
        Ok(reply(&load(&call, &input.id).await?))
    }

    async fn protests_list(call: Call, input: wire::ProtestsListInput) -> ApiResult<Reply<ProtestList>> {
        let (data, meta) = list::<ProtestDetails>(&call, list_input!(input)).await?;
        Ok(Reply::new(ProtestList { data, meta }))
    }

    /// A title not yet protested is withdrawn; a protested one gets its cancellation requested.
    async fn protests_cancel(
        call: Call,
        input: wire::ProtestsCancelInput,
    ) -> ApiResult<Reply<ProtestEnvelope>> {
        let protest = take_back(&call, &input.id, |p: &mut Protest| p.cancel(call.now));
        Ok(reply(&protest.await?))
    }
}
