//! What an operation answers: its success status and kind, the named type of its JSON answer,
//! each status's schema, the resource it also is, and a list's row fields.

use std::collections::BTreeMap;

use openapiv3::{Components, Operation, ReferenceOr, Response, Schema, SchemaKind, Type};
use serde_json::Value;

use super::inputs::Inputs;
use super::schema::{self, Schemas};
use super::{
    FIELDS_PARAM, PARTIAL_ROW, QueryParam, ResponseKind, is_list, json_schema, object_parts, resolve,
};

const RESOURCE_PREFIX: &str = "kobana://dunning/";

/// An operation's answers, read from its responses.
pub struct Answers {
    pub success_status: u16,
    pub response: ResponseKind,
    /// The `$ref` name of the success response's JSON schema.
    pub response_type: Option<String>,
    /// Status code -> converted response schema.
    pub response_schemas: BTreeMap<String, Value>,
}

/// Reads the responses: the first success status decides the response kind.
pub fn read(
    method: &str,
    operation: &Operation,
    components: &Components,
    schemas: &Schemas,
) -> Result<Answers, String> {
    let responses = &operation.responses;
    let statuses = responses.default.iter().map(|r| ("default".to_string(), r));
    let statuses = statuses.chain(responses.responses.iter().map(|(code, r)| (code.to_string(), r)));
    let mut success = None;
    let mut response_type = None;
    let mut response_schemas = BTreeMap::new();
    for (status, response) in statuses {
        let response = resolve(response, "responses", |name| components.responses.get(name))?;
        let json = json_schema(&response.content);
        if let Some(schema_raw) = json {
            let converted =
                schema::convert(schema_raw, schemas, true).map_err(|e| format!("response {status}: {e}"))?;
            response_schemas.insert(status.clone(), converted);
        }
        if status.starts_with('2') && success.is_none() {
            if let Some(schema_raw) = json {
                response_type = Some(answer_type(&status, schema_raw)?);
            }
            let code: u16 = status.parse().map_err(|_| format!("response status {status}"))?;
            success = Some((code, success_kind(response)?));
        }
    }
    let (success_status, response) = success.ok_or("no 2xx response")?;
    if method == "delete" && !matches!(response, ResponseKind::NoContent) {
        return Err("DELETE must answer 204 with no body".into());
    }
    Ok(Answers { success_status, response, response_type, response_schemas })
}

/// The name of a success answer's JSON schema, which must be a `$ref` to a named one.
fn answer_type(status: &str, schema_raw: &ReferenceOr<Schema>) -> Result<String, String> {
    let name = match schema_raw {
        ReferenceOr::Reference { reference } => schema::schema_name(reference),
        ReferenceOr::Item(_) => None,
    };
    let name =
        name.ok_or_else(|| format!("response {status}: a JSON answer must be a $ref to a named schema"))?;
    Ok(name.to_string())
}

/// What a success answer is, by its content type.
fn success_kind(response: &Response) -> Result<ResponseKind, String> {
    let kind = match response.content.keys().next() {
        None => ResponseKind::NoContent,
        Some(ct) if ct == "application/json" => ResponseKind::Json,
        Some(ct) => {
            let extension = match ct.as_str() {
                "application/pdf" => "pdf",
                "image/png" => "png",
                "text/csv" => "csv",
                other => {
                    return Err(format!("unsupported response content type {other}"));
                }
            };
            ResponseKind::Binary { content_type: ct.clone(), extension: extension.into() }
        }
    };
    Ok(kind)
}

/// The resource template rule (DESIGN.md section 3): a GET of one object, which no required
/// query narrows and `x-mcp.resource: false` does not opt out, is also a resource.
pub fn resource_uri(
    path: &str,
    method: &str,
    resource_opt_out: bool,
    inputs: &Inputs,
    response: &ResponseKind,
) -> Result<Option<String>, String> {
    let (query_params, query_required) = (&inputs.query_params, &inputs.query_required);
    let uri = if method == "get" && !resource_opt_out && !is_list(query_params) && query_required.is_empty() {
        let rest = path.strip_prefix("/v1/").ok_or("paths start with /v1/")?;
        let ext = match response {
            ResponseKind::Binary { extension, .. } => format!(".{extension}"),
            _ => String::new(),
        };
        Some(format!("{RESOURCE_PREFIX}{rest}{ext}"))
    } else {
        None
    };
    Ok(uri)
}

/// The row fields of a list that takes [`FIELDS_PARAM`]; none for an operation that does not.
/// That every list takes it is the generator's rule (render.rs), not the model's: `spec diff`
/// reads specs written before it with this model.
pub fn list_rows(
    query_params: &[QueryParam],
    response_type: Option<&str>,
    components: &Components,
) -> Result<Vec<String>, String> {
    let takes_fields = query_params.iter().any(|q| q.name == FIELDS_PARAM);
    match (is_list(query_params), takes_fields) {
        (_, false) => Ok(Vec::new()),
        (true, true) => row_fields(response_type, components),
        (false, true) => Err(format!("only a list takes {FIELDS_PARAM}")),
    }
}

/// The names `fields` takes on a list answering `response_type`: the properties of the schema
/// of its `data` items, which are that row or a [`PARTIAL_ROW`].
fn row_fields(
    response_type: Option<&str>,
    components: &Components,
) -> std::result::Result<Vec<String>, String> {
    let named = |name: &str| -> std::result::Result<&Schema, String> {
        match components.schemas.get(name) {
            Some(ReferenceOr::Item(schema)) => Ok(schema),
            _ => Err(format!("schema {name} is not an inline schema of components/schemas")),
        }
    };
    let list = response_type.ok_or("a list answers a named JSON schema")?;
    let data = object_parts(named(list)?)
        .and_then(|o| o.properties.into_iter().find(|(name, _)| name.as_str() == "data"))
        .and_then(|(_, data)| data.as_item())
        .and_then(|data| match &data.schema_kind {
            SchemaKind::Type(Type::Array(array)) => array.items.clone(),
            _ => None,
        })
        .ok_or_else(|| format!("{list}: a list answers its rows as a `data` array"))?;
    let reference = |item: &ReferenceOr<Schema>| match item {
        ReferenceOr::Reference { reference } => schema::schema_name(reference).map(str::to_string),
        ReferenceOr::Item(_) => None,
    };
    let rows = data
        .as_item()
        .and_then(|items| match &items.schema_kind {
            SchemaKind::AnyOf { any_of } => Some(any_of.as_slice()),
            SchemaKind::Any(any) if !any.any_of.is_empty() => Some(any.any_of.as_slice()),
            _ => None,
        })
        .and_then(|alternatives| match alternatives {
            [row, partial] if reference(partial).as_deref() == Some(PARTIAL_ROW) => reference(row),
            _ => None,
        })
        .ok_or_else(|| {
            format!(
                "{list}: `data` items must be anyOf the row's $ref and {PARTIAL_ROW} (what `fields` cuts)"
            )
        })?;
    let row = object_parts(named(&rows)?).ok_or_else(|| format!("{rows}: a list row is an object"))?;
    Ok(row.properties.into_iter().map(|(name, _)| name.clone()).collect())
}
