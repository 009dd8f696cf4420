//! An event as the API shows it, read back from its row.

use super::event_instants;
use crate::domain::dates::{Offsets, Timestamp, parse_timestamp};
use crate::error::ApiResult;
use crate::store::{EventRow, StoreError};
use crate::types as wire;

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
