//! The events the engine writes, in the shape the API writes for changes.

use time::OffsetDateTime;

use crate::domain::charge::Charge;
use crate::domain::dates::format_timestamp;
use crate::domain::ids::new_id;
use crate::store::NewEvent;
use crate::types as wire;
use crate::views::charge::charge_event_view;
use crate::views::event_data::{ObjectPayload, Payload, to_data};

/// The `charge.overdue` event, in the shape the API writes for changes.
pub(super) fn overdue_event(
    before: &Charge,
    after: &Charge,
    today: time::Date,
    now: OffsetDateTime,
) -> NewEvent {
    charge_event(before, after, "charge.overdue", today, now, |_| {})
}

/// An event of the engine's about a charge, in the shape the API writes for changes.
pub(super) fn charge_event(
    before: &Charge,
    after: &Charge,
    code: &str,
    today: time::Date,
    now: OffsetDateTime,
    extra: impl FnOnce(&mut wire::ChargeEventData),
) -> NewEvent {
    let mut data =
        wire::ChargeEventData::of(Some(&charge_event_view(before, today)), charge_event_view(after, today));
    extra(&mut data);
    engine_event(code, &after.id, &after.organization_id, &data, now)
}

/// An event the engine caused, carrying `data`.
pub(super) fn engine_event<P: Payload>(
    code: &str,
    id: &str,
    organization_id: &str,
    data: &P,
    now: OffsetDateTime,
) -> NewEvent {
    NewEvent {
        id: new_id("evt"),
        organization_id: organization_id.to_string(),
        code: code.into(),
        resource_type: P::RESOURCE,
        resource_id: id.to_string(),
        actor_type: "system".into(),
        actor_id: "engine".into(),
        data: to_data(data),
        request_id: None,
        occurred_at: format_timestamp(now),
    }
}
