//! /v1/events: what happened to each object, read back from the rows every change writes; only
//! of the objects the caller could read (`auth::visibility`).

use super::{ApiError, ApiResult, Call, ListArgs, Reply};
use crate::auth::visibility;
use crate::domain::dates::Offsets;
use crate::store::EventFilter;
use crate::types::{self as wire, EventEnvelope, EventList, SortOrder};
use crate::views::event::event_view;

/// The handlers of the `events` tag.
pub struct Events;

impl super::handlers::EventsApi for Events {
    async fn events_list(call: Call, input: wire::EventsListInput) -> ApiResult<Reply<EventList>> {
        let (window, pager) = ListArgs::plain(input.page, input.per_page, input.sort_order).page(call.zone());
        let filter = EventFilter {
            resource_id: input.resource_id.map(Into::into),
            code: input.code.map(Into::into),
            hidden_families: visibility::hidden_families(&call.principal.scopes),
            ascending: input.sort_order == Some(SortOrder::Asc),
            limit: window.limit,
            offset: window.offset,
        };
        let (events, total) = call.store.events(call.org_id(), &filter).await?;
        let offsets = Offsets::new(call.zone(), call.now);
        Ok(Reply::new(EventList {
            data: events.into_iter().map(|e| event_view(e, &offsets)).collect::<ApiResult<_>>()?,
            meta: pager.meta(total),
        }))
    }

    async fn events_get(call: Call, input: wire::EventsGetInput) -> ApiResult<Reply<EventEnvelope>> {
        let event = call
            .store
            .event(call.org_id(), &input.id)
            .await?
            .filter(|e| visibility::sees_code(&call.principal.scopes, &e.code))
            .ok_or(ApiError::NotFound("event"))?;
        Ok(Reply::new(EventEnvelope { data: event_view(event, &Offsets::new(call.zone(), call.now))? }))
    }
}
