//! The instants of an event's data written in the organization's offset, as every answer's are
//! (`domain::dates::Offsets`). An event row keeps its data as JSON in UTC, whatever the types it
//! was built from, so the typed [`Timestamp`](crate::domain::dates::Timestamp) cannot do it here:
//! the schema each code names in `x-event-payloads` says where its instants are (`format:
//! date-time`), and only those members are rewritten. `changes` holds `[old, new]` pairs of the
//! object's own fields, so a pair is read with the schema of the `object` member of that name.

use std::collections::HashMap;
use std::sync::LazyLock;

use serde_json::{Map, Value};

use crate::domain::dates::{Offsets, parse_timestamp};
use crate::operations::EVENTS_JSON;

/// Where a value holds instants.
#[derive(Debug)]
enum Instants {
    /// The value is one.
    Here,
    /// These members of an object hold some.
    Members(HashMap<String, Instants>),
    /// Each item of an array holds some.
    Items(Box<Instants>),
    /// Each value of a map holds some.
    Values(Box<Instants>),
}

/// Where the data of each event code holds instants; a code whose data holds none is absent.
static BY_CODE: LazyLock<HashMap<String, Instants>> = LazyLock::new(|| {
    let schemas: Map<String, Value> = serde_json::from_str(EVENTS_JSON).unwrap_or_default();
    schemas.iter().filter_map(|(code, schema)| Some((code.clone(), instants(schema)?))).collect()
});

/// Where `schema` puts instants, if anywhere.
fn instants(schema: &Value) -> Option<Instants> {
    if schema.get("format").and_then(Value::as_str) == Some("date-time") {
        return Some(Instants::Here);
    }
    if let Some(properties) = schema.get("properties").and_then(Value::as_object) {
        let members: HashMap<String, Instants> =
            properties.iter().filter_map(|(name, s)| Some((name.clone(), instants(s)?))).collect();
        return (!members.is_empty()).then_some(Instants::Members(members));
    }
    if let Some(items) = schema.get("items") {
        return instants(items).map(|i| Instants::Items(Box::new(i)));
    }
    schema.get("additionalProperties").and_then(instants).map(|i| Instants::Values(Box::new(i)))
}

/// Reads the schemas now rather than on the first event shown.
pub fn warm_up() {
    LazyLock::force(&BY_CODE);
}

/// Writes the instants of the data of an event of `code` at `offsets`. Data of a code the spec
/// no longer names, or a member that is not an instant as stored, is left as it is.
pub fn write_at(code: &str, data: &mut Map<String, Value>, offsets: &Offsets) {
    let Some(Instants::Members(members)) = BY_CODE.get(code) else { return };
    write_members(data, members, offsets);
    let object = match members.get("object") {
        Some(Instants::Members(object)) => object,
        _ => return,
    };
    if let Some(Value::Object(changes)) = data.get_mut("changes") {
        for (field, pair) in changes.iter_mut() {
            if let (Some(at), Value::Array(pair)) = (object.get(field), pair) {
                pair.iter_mut().for_each(|side| write(side, at, offsets));
            }
        }
    }
}

fn write_members(object: &mut Map<String, Value>, members: &HashMap<String, Instants>, offsets: &Offsets) {
    for (name, at) in members {
        if let Some(value) = object.get_mut(name) {
            write(value, at, offsets);
        }
    }
}

fn write(value: &mut Value, at: &Instants, offsets: &Offsets) {
    match (at, value) {
        (Instants::Here, Value::String(text)) => {
            if let Ok(instant) = parse_timestamp(text) {
                *text = offsets.format(instant);
            }
        }
        (Instants::Members(members), Value::Object(object)) => write_members(object, members, offsets),
        (Instants::Items(each), Value::Array(items)) => {
            items.iter_mut().for_each(|item| write(item, each, offsets))
        }
        (Instants::Values(each), Value::Object(map)) => {
            map.values_mut().for_each(|v| write(v, each, offsets))
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::dates::Zone;
    use serde_json::json;
    use time::macros::datetime;

    fn manaus() -> Offsets {
        Offsets::new(&Zone::named("America/Manaus").unwrap(), datetime!(2027-01-04 12:00 UTC))
    }

    #[test]
    fn the_instants_the_schema_names_are_written_at_the_offset_and_nothing_else() {
        let mut data = json!({
            "object": { "id": "chg_1", "description": "2027-01-04T13:00:00.000000Z",
                        "due_date": "2027-01-04", "created_at": "2027-01-04T13:00:00.000000Z",
                        "next_action_at": null },
            "changes": { "next_action_at": [null, "2027-01-05T13:00:00.000000Z"],
                         "description": ["a", "2027-01-04T13:00:00.000000Z"] },
            "payment": { "paid_at": "2027-01-04T03:30:00.000000Z" },
        });
        write_at("charge.paid", data.as_object_mut().unwrap(), &manaus());
        assert_eq!(
            data,
            json!({
                "object": { "id": "chg_1", "description": "2027-01-04T13:00:00.000000Z",
                            "due_date": "2027-01-04", "created_at": "2027-01-04T09:00:00.000000-04:00",
                            "next_action_at": null },
                "changes": { "next_action_at": [null, "2027-01-05T09:00:00.000000-04:00"],
                             "description": ["a", "2027-01-04T13:00:00.000000Z"] },
                "payment": { "paid_at": "2027-01-03T23:30:00.000000-04:00" },
            })
        );
    }

    #[test]
    fn nested_lists_of_instants_are_written_too() {
        let mut data = json!({ "object": { "steps": [ { "created_at": "2027-01-04T13:00:00.000000Z" } ] } });
        write_at("collection_policy.db.created", data.as_object_mut().unwrap(), &manaus());
        assert_eq!(data["object"]["steps"][0]["created_at"], "2027-01-04T09:00:00.000000-04:00");
    }

    #[test]
    fn an_unknown_code_is_left_as_stored() {
        let mut data = json!({ "object": { "created_at": "2027-01-04T13:00:00.000000Z" } });
        let before = data.clone();
        write_at("nothing.known", data.as_object_mut().unwrap(), &manaus());
        assert_eq!(data, before);
    }
}
