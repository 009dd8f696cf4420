//! What the server shows of its objects: the public views answers carry and the payloads events
//! carry, built from them (the spec's generated types). The API answers with them; the engine,
//! the demo, the sender and the export builder write events and files with them, so they sit
//! below all of these and know nothing of a request.

pub(crate) mod agreement;
pub(crate) mod charge;
pub(crate) mod debtor;
pub(crate) mod escalation;
pub(crate) mod event;
pub(crate) mod event_data;
pub(crate) mod event_instants;
pub(crate) mod export;
pub(crate) mod notification;
pub(crate) mod payment;
pub(crate) mod policy;

use serde_json::Value;

/// A typed view as JSON, for event payloads (views are plain data: this cannot fail).
pub(crate) fn to_json<T: serde::Serialize>(view: &T) -> Value {
    serde_json::to_value(view).unwrap_or(Value::Null)
}
