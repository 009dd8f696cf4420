//! A list's `fields`: the row fields an answer keeps. The names a list takes are its row
//! schema's properties, generated from the spec into the operation table (`row_fields`), so a
//! list the spec grows a field on takes it without a change here. The handler answers whole
//! rows; the cut is made on their JSON, and `meta` is never cut.

use serde::Serialize;
use serde_json::Value;

use super::error::{ApiError, ApiResult, FieldError};
use super::validation::suggest;
use crate::operations::Operation;

/// The argument's name (the spec's shared `Fields` parameter).
const FIELDS: &str = "fields";
/// The field every row keeps, asked for or not: a row without it cannot be followed up.
const ALWAYS: &str = "id";

/// The row fields asked for, in the row's order, `id` first among them; `None` when the call
/// did not cut its rows. An unknown name is a validation error naming it, with the nearest
/// known name and the full list of names the list takes.
pub fn asked(
    op: &Operation,
    query: &mut serde_json::Map<String, Value>,
) -> ApiResult<Option<Vec<&'static str>>> {
    let Some(value) = query.remove(FIELDS) else { return Ok(None) };
    let text = value.as_str().unwrap_or_default();
    let names: Vec<&str> = text.split(',').map(str::trim).filter(|n| !n.is_empty()).collect();
    if names.is_empty() {
        return Err(ApiError::field(FIELDS, "names no field; leave it out to answer whole rows"));
    }
    let known: Vec<String> = op.row_fields.iter().map(|f| f.to_string()).collect();
    let errors: Vec<FieldError> = names
        .iter()
        .filter(|name| !op.row_fields.contains(name))
        .map(|name| FieldError {
            field: FIELDS.into(),
            message: format!("{name} is not a field of this list's rows, which are: {}", known.join(", ")),
            suggestion: suggest(name, &known),
        })
        .collect();
    if !errors.is_empty() {
        return Err(ApiError::Validation(errors));
    }
    Ok(Some(op.row_fields.iter().copied().filter(|f| *f == ALWAYS || names.contains(f)).collect()))
}

/// A list answer as JSON with each row of its `data` cut to `fields`.
pub fn cut<T: Serialize>(answer: &T, fields: &[&str]) -> serde_json::Result<Value> {
    let mut json = serde_json::to_value(answer)?;
    if let Some(Value::Array(rows)) = json.get_mut("data") {
        for row in rows.iter_mut().filter_map(Value::as_object_mut) {
            row.retain(|name, _| fields.contains(&name.as_str()));
        }
    }
    Ok(json)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::operations::ops;

    fn query(fields: &str) -> serde_json::Map<String, Value> {
        json!({ "fields": fields, "page": 1 }).as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn the_names_come_back_in_row_order_with_the_id() {
        let mut q = query("status, balance,debtor_name");
        let asked = asked(ops::CHARGES_LIST, &mut q).unwrap().unwrap();
        assert_eq!(asked, ["id", "debtor_name", "balance", "status"]);
        assert!(!q.contains_key("fields"), "the handler never sees it");
        assert!(q.contains_key("page"));
    }

    #[test]
    fn an_unknown_name_is_named_with_the_nearest() {
        let Err(ApiError::Validation(errors)) = asked(ops::CHARGES_LIST, &mut query("id,balanse,nope"))
        else {
            panic!("unknown names are refused");
        };
        assert_eq!(errors.len(), 2);
        assert!(errors[0].message.starts_with("balanse is not a field"), "{}", errors[0].message);
        assert_eq!(errors[0].suggestion.as_deref(), Some("balance"));
        assert!(errors[1].message.contains("due_date"), "lists the names a row has");
    }

    #[test]
    fn a_cut_keeps_meta_whole() {
        let answer = json!({ "data": [{ "id": "a", "x": 1, "y": 2 }], "meta": { "total": 1 } });
        assert_eq!(
            cut(&answer, &["id", "y"]).unwrap(),
            json!({ "data": [{ "id": "a", "y": 2 }], "meta": { "total": 1 } })
        );
    }
}
