//! What each event carries: the generated payload types the spec names in `x-event-payloads`,
//! built from the objects' public views. Events leave the server in webhook deliveries, so their
//! data is a contract like an answer: handlers, the engine and the demo build it only here, as
//! these types, and `spec diff` compares their schemas.

use serde::Serialize;
use serde_json::{Map, Value};

use crate::types as wire;

/// The `{field: [old, new]}` of a change.
pub(crate) type Changes = Map<String, Value>;

/// A payload, and the kind of object its events are about (the event's `resource_type`).
pub(crate) trait Payload: Serialize {
    const RESOURCE: &'static str;
}

/// A payload made of an object after the change and the fields the change set.
pub(crate) trait ObjectPayload: Payload + Sized {
    type Object: Serialize;

    fn with(object: Self::Object, changes: Changes) -> Self;

    /// The payload of a change from `before` (none: created, or deleted as `after`) to `after`.
    fn of(before: Option<&Self::Object>, after: Self::Object) -> Self {
        let changes = before.map(|b| changes(b, &after)).unwrap_or_default();
        Self::with(after, changes)
    }
}

/// The fields that differ between two views of an object, as `[old, new]`; `updated_at`,
/// `version` and `summary` move with every change and are left out.
pub(crate) fn changes<T: Serialize>(before: &T, after: &T) -> Changes {
    let (Ok(Value::Object(before)), Ok(Value::Object(after))) =
        (serde_json::to_value(before), serde_json::to_value(after))
    else {
        return Changes::new();
    };
    let mut out = Changes::new();
    for (key, new) in after {
        if matches!(key.as_str(), "updated_at" | "version" | "summary") {
            continue;
        }
        let old = before.get(&key).cloned().unwrap_or(Value::Null);
        if old != new {
            out.insert(key, Value::Array(vec![old, new]));
        }
    }
    out
}

/// A payload as the event row keeps it (plain data: serialising cannot fail).
pub(crate) fn to_data<P: Payload>(payload: &P) -> Value {
    serde_json::to_value(payload).unwrap_or(Value::Null)
}

/// The payloads that are an object and its changes, and nothing else unless set afterwards.
macro_rules! object_payloads {
    ($($payload:ident($object:ident, $resource:literal) { $($extra:ident),* })*) => {$(
        impl Payload for wire::$payload {
            const RESOURCE: &'static str = $resource;
        }

        impl ObjectPayload for wire::$payload {
            type Object = wire::$object;

            fn with(object: wire::$object, changes: Changes) -> Self {
                wire::$payload { object, changes, $($extra: None),* }
            }
        }
    )*};
}

object_payloads! {
    ChargeEventData(Charge, "charge") {
        payment, agreement_id, protest_id, decision, reason, step_id, action, cp_id, refused
    }
    DebtorEventData(Debtor, "debtor") { reason }
    CollectionPolicyEventData(CollectionPolicy, "collection_policy") { duplicate_of }
    StepEventData(Step, "step") {}
    NotificationEventData(Notification, "notification") {}
    AgreementEventData(Agreement, "agreement") {}
    CreditBureauReportEventData(CreditBureauReport, "credit_bureau_report") { step_id }
    ProtestEventData(Protest, "protest") { step_id }
    OrganizationPixEventData(OrganizationPix, "organization") {}
    WebhookEventData(Webhook, "webhook") {}
    ExportEventData(Export, "export") {}
    PaymentEventData(Payment, "payment") {}
}

impl Payload for wire::ApprovalEventData {
    const RESOURCE: &'static str = "approval";
}

impl Payload for wire::PaymentReceiverEventData {
    const RESOURCE: &'static str = "payment_receiver";
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[derive(Serialize)]
    struct View {
        name: &'static str,
        status: &'static str,
        version: i64,
        updated_at: &'static str,
    }

    #[test]
    fn changes_name_the_fields_that_moved_but_the_bookkeeping() {
        let before = View { name: "Ana", status: "pending", version: 1, updated_at: "a" };
        let after = View { name: "Ana", status: "overdue", version: 2, updated_at: "b" };
        assert_eq!(Value::Object(changes(&before, &after)), json!({ "status": ["pending", "overdue"] }));
        assert!(changes(&before, &before).is_empty());
    }
}
