//! /v1/events: what happened to each object, read back from the rows every change writes; only
//! of the objects the caller could read (`auth::visibility`).

use super::{ApiError, ApiResult, Call, ListArgs, Reply, event_instants};
use crate::auth::visibility;
use crate::domain::dates::{Offsets, Timestamp, parse_timestamp};
use crate::store::{EventFilter, EventRow, StoreError};
use crate::types::{self as wire, EventEnvelope, EventList, SortOrder};

/// The handlers of the `events` tag.
pub struct Events;

/// The public view of an event, its data's instants written at `offsets` (the envelope's own
/// are [`Timestamp`]s, written so when serialised).
pub(crate) fn event_view(e: EventRow, offsets: &Offsets) -> ApiResult<wire::Event> {
    let occurred_at =
        parse_timestamp(&e.occurred_at).map_err(|_| StoreError::CorruptColumn("occurred_at".into()))?;
    let mut data = match e.data {
        serde_json::Value::Object(map) => map,
        _ => return Err(StoreError::CorruptColumn("data".into()).into()),
    };
    event_instants::write_at(&e.code, &mut data, offsets);
    Ok(wire::Event {
        id: e.id,
        code: e.code,
        resource_type: e.resource_type,
        resource_id: e.resource_id,
        actor: wire::EventActor { r#type: e.actor_type, id: e.actor_id },
        data,
        request_id: e.request_id,
        occurred_at: Timestamp(occurred_at),
    })
}

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
