//! `x-event-payloads`: what each webhook event carries.

use std::collections::{BTreeMap, BTreeSet};

use openapiv3::{Components, ReferenceOr, Schema, SchemaKind, Type};
use serde::Deserialize;
use serde_json::{Value, json};

use super::schema::{self, Schemas};
use super::{Result, SpecError};

/// `x-event-payloads`, each code's schema converted as an answer's is (closed: a payload carries
/// exactly the fields it documents). Its codes must be exactly those `WebhookEventCode` lists,
/// when the spec has that enum: an event a webhook can take always has a documented payload.
pub fn event_payloads(
    listed: Option<&Value>,
    components: &Components,
    schemas: &Schemas,
) -> Result<BTreeMap<String, Value>> {
    let Some(listed) = listed else { return Ok(BTreeMap::new()) };
    let listed = BTreeMap::<String, ReferenceOr<Schema>>::deserialize(listed)
        .map_err(|e| SpecError::new(format!("x-event-payloads: {e}")))?;
    let mut payloads = BTreeMap::new();
    for (code, schema) in &listed {
        let named = match schema {
            ReferenceOr::Reference { reference } => schema::schema_name(reference).is_some(),
            ReferenceOr::Item(_) => false,
        };
        if !named {
            return Err(SpecError::new(format!(
                "x-event-payloads: {code} must be a $ref to a schema of components.schemas"
            )));
        }
        let converted = schema::convert(schema, schemas, true)
            .map_err(|e| SpecError::new(format!("x-event-payloads: {code}: {e}")))?;
        payloads.insert(code.clone(), converted);
    }
    let webhook_event_code = components.schemas.get("WebhookEventCode").and_then(ReferenceOr::as_item);
    let Some(codes) = webhook_event_code.and_then(enum_values) else {
        return Ok(payloads);
    };
    let codes: BTreeSet<&str> = codes.iter().filter_map(Value::as_str).collect();
    let documented: BTreeSet<&str> = payloads.keys().map(String::as_str).collect();
    if let Some(code) = codes.difference(&documented).next() {
        return Err(SpecError::new(format!(
            "event {code} (WebhookEventCode) has no payload in x-event-payloads"
        )));
    }
    if let Some(code) = documented.difference(&codes).next() {
        return Err(SpecError::new(format!("x-event-payloads: {code} is not listed in WebhookEventCode")));
    }
    Ok(payloads)
}

/// The values of a schema's `enum`, whatever its type; `None` when it has none.
fn enum_values(schema: &Schema) -> Option<Vec<Value>> {
    let values: Vec<Value> = match &schema.schema_kind {
        SchemaKind::Type(Type::String(t)) => t.enumeration.iter().map(|v| json!(v)).collect(),
        SchemaKind::Type(Type::Integer(t)) => t.enumeration.iter().map(|v| json!(v)).collect(),
        SchemaKind::Type(Type::Number(t)) => t.enumeration.iter().map(|v| json!(v)).collect(),
        SchemaKind::Type(Type::Boolean(t)) => t.enumeration.iter().map(|v| json!(v)).collect(),
        SchemaKind::Any(any) => any.enumeration.clone(),
        _ => Vec::new(),
    };
    (!values.is_empty()).then_some(values)
}
