//! /v1/protests: overdue charges sent to protest at a notary (protestos).

use super::escalations::{
    escalated_charge, file_protest, list_filter, list_input, protest_view, save_protest,
};
use super::{ApiError, ApiResult, Call, Reply};
use crate::domain::charge::Outcome;
use crate::domain::protest::Protest;
use crate::types::{self as wire, ProtestEnvelope, ProtestList};

/// The handlers of the `protests` tag.
pub struct Protests;

fn reply(p: &Protest) -> Reply<ProtestEnvelope> {
    Reply::versioned(ProtestEnvelope { data: protest_view(p) }, p.version)
}

async fn load(call: &Call, id: &str) -> ApiResult<Protest> {
    call.store.protest(call.org_id(), id).await?.ok_or(ApiError::NotFound("protest"))
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
        let (filter, meta) = list_filter(list_input!(input), call.zone());
        let (protests, total, amount) = call.store.protests(call.org_id(), &filter).await?;
        Ok(Reply::new(ProtestList {
            data: protests.iter().map(protest_view).collect(),
            meta: meta(total, amount),
        }))
    }

    /// A title not yet protested is withdrawn; a protested one gets its cancellation requested.
    async fn protests_cancel(
        call: Call,
        input: wire::ProtestsCancelInput,
    ) -> ApiResult<Reply<ProtestEnvelope>> {
        let before = load(&call, &input.id).await?;
        call.check_if_match(before.version)?;
        let mut after = before.clone();
        if after.cancel(call.now)? == Outcome::Unchanged {
            return Ok(reply(&before));
        }
        save_protest(&call, &before, &after).await?;
        Ok(reply(&after))
    }
}
