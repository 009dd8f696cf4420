//! /v1/protests: overdue charges sent to protest at a notary (protestos).

use super::escalations::{escalated_charge, file_protest, list, list_input, load, reply, take_back};
use super::{ApiResult, Call, Reply};
use crate::domain::protest::{Protest, ProtestDetails};
use crate::types::{self as wire, ProtestEnvelope, ProtestList};

/// The handlers of the `protests` tag.
pub struct Protests;

impl super::handlers::ProtestsApi for Protests {
    async fn protests_create(
        call: Call,
        input: wire::ProtestsCreateInput,
    ) -> ApiResult<Reply<ProtestEnvelope>> {
        let charge = escalated_charge(&call, input.charge_id.as_str()).await?;
        Ok(reply(&file_protest(&call, &charge, input.title_type, input.document_number.into()).await?))
    }

    async fn protests_get(call: Call, input: wire::ProtestsGetInput) -> ApiResult<Reply<ProtestEnvelope>> {
        Ok(reply(&load::<ProtestDetails>(&call, &input.id).await?))
    }

    async fn protests_list(call: Call, input: wire::ProtestsListInput) -> ApiResult<Reply<ProtestList>> {
        list::<ProtestDetails>(&call, list_input!(input)).await
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
