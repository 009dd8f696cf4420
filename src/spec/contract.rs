//! What `spec diff` compares, read from a spec by the generator's own model (codegen/model.rs,
//! the code build.rs runs): the tool as tools/list shows it (`Op::descriptor`) with the arguments
//! its calls are checked against (the descriptor shows a relaxation of them), and the /v1 operation as the routes and the contract tests see it. Both specs go through the same
//! parser, `$ref` inlining and OpenAPI-to-JSON-Schema conversion as the generated server, so a
//! difference here is a difference a client sees, never one of reading.

use std::collections::BTreeMap;

use serde_json::Value;

use super::model::{Api, ResponseKind};

/// Where a tool argument travels on /v1.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// A path parameter.
    Path,
    /// A query parameter.
    Query,
    /// A top-level field of the JSON body.
    Body,
}

impl Source {
    /// As the messages name it.
    pub fn word(self) -> &'static str {
        match self {
            Self::Path => "path",
            Self::Query => "query",
            Self::Body => "body",
        }
    }
}

/// A header parameter of a /v1 operation.
#[derive(Debug, Clone, PartialEq)]
pub struct Header {
    /// Whether a caller must send it.
    pub required: bool,
    /// Its JSON Schema.
    pub schema: Value,
}

/// One operation of a spec: its tool and its /v1 operation.
#[derive(Debug, Clone)]
pub struct Endpoint {
    /// The tool name.
    pub tool: String,
    /// `x-mcp.aliases`.
    pub aliases: Vec<String>,
    /// `GET`, `POST`, …
    pub method: String,
    /// `/v1/charges/{id}`.
    pub path: String,
    /// The tool descriptor's `title`.
    pub title: String,
    /// The tool descriptor's `description`.
    pub description: String,
    /// The arguments a tool call is checked against: path, query and body fields side by side.
    /// The descriptor's `inputSchema` shows a relaxation of it (the catalogue budget): a bound
    /// the server checks counts whether or not the descriptor shows it.
    pub input_schema: Value,
    /// The tool descriptor's `annotations`: hint -> value.
    pub annotations: BTreeMap<String, bool>,
    /// The scopes a token needs (space-separated); `None` is any valid token.
    pub scope: Option<String>,
    /// Argument -> where /v1 takes it.
    pub sources: BTreeMap<String, Source>,
    /// Header name -> parameter.
    pub headers: BTreeMap<String, Header>,
    /// `None` without a request body, else whether it is required.
    pub body_required: Option<bool>,
    /// The status of a successful answer.
    pub success_status: u16,
    /// `JSON`, `no content`, or the file's media type.
    pub response_kind: String,
    /// Status -> JSON Schema of its JSON answer.
    pub responses: BTreeMap<String, Value>,
    /// The resource template, for one-document GETs.
    pub resource_uri: Option<String>,
    /// The confirmation question of a destructive tool: (target, message).
    pub confirm: Option<(Option<String>, String)>,
}

impl Endpoint {
    /// `METHOD /path`.
    pub fn operation(&self) -> String {
        format!("{} {}", self.method, self.path)
    }
}

/// Reads a spec (YAML or JSON text) as the generator does; the generator's refusal otherwise.
pub fn read(text: &str) -> Result<Vec<Endpoint>, String> {
    let api = Api::from_yaml(text).map_err(|e| e.to_string())?;
    let mut endpoints: Vec<Endpoint> = api.ops.iter().map(endpoint).collect();
    endpoints.sort_by(|a, b| a.tool.cmp(&b.tool));
    Ok(endpoints)
}

/// What each event carries (`x-event-payloads`), by code, as the generator reads it.
pub fn read_events(text: &str) -> Result<BTreeMap<String, Value>, String> {
    Ok(Api::from_yaml(text).map_err(|e| e.to_string())?.event_payloads)
}

fn endpoint(op: &super::model::Op) -> Endpoint {
    let descriptor = op.descriptor();
    let annotations = descriptor["annotations"]
        .as_object()
        .map(|hints| hints.iter().filter_map(|(k, v)| Some((k.clone(), v.as_bool()?))).collect())
        .unwrap_or_default();
    let mut sources = BTreeMap::new();
    for name in &op.path_params {
        sources.insert(name.clone(), Source::Path);
    }
    for param in &op.query_params {
        sources.insert(param.name.clone(), Source::Query);
    }
    for field in op.body.iter().flat_map(|b| &b.fields) {
        sources.insert(field.clone(), Source::Body);
    }
    let headers = op
        .header_params
        .iter()
        .map(|h| (h.name.clone(), Header { required: h.required, schema: h.schema.clone() }))
        .collect();
    let response_kind = match &op.response {
        ResponseKind::Json => "JSON".to_string(),
        ResponseKind::NoContent => "no content".to_string(),
        ResponseKind::Binary { content_type, .. } => content_type.clone(),
    };
    Endpoint {
        tool: op.tool_name.clone(),
        aliases: op.aliases.clone(),
        method: op.method.to_ascii_uppercase(),
        path: op.path.clone(),
        title: op.title.clone(),
        description: op.description.clone(),
        input_schema: op.input_schema.clone(),
        annotations,
        // Every scope `x-mcp.scope` lists, space-separated as in a challenge: adding one is a
        // change of scope.
        scope: op.scope.as_ref().map(|first| {
            std::iter::once(first).chain(&op.further_scopes).cloned().collect::<Vec<_>>().join(" ")
        }),
        sources,
        headers,
        body_required: op.body.as_ref().map(|b| b.required),
        success_status: op.success_status,
        response_kind,
        responses: whole_rows(op),
        resource_uri: op.resource_uri.clone(),
        confirm: op.confirm.as_ref().map(|c| (c.target.clone(), c.message.clone())),
    }
}

/// The answers as a caller that does not send `fields` gets them: a list's `data` items are
/// its row, or (only when asked) the row cut to the named fields; the row is what every caller
/// may rely on, so the comparison reads the row alone.
fn whole_rows(op: &super::model::Op) -> BTreeMap<String, Value> {
    let mut responses = op.response_schemas.clone();
    if op.row_fields.is_empty() {
        return responses;
    }
    if let Some(items) = responses
        .get_mut(&op.success_status.to_string())
        .and_then(|answer| answer.pointer_mut("/properties/data/items"))
        && let Some(row) = items.pointer("/anyOf/0").cloned()
    {
        *items = row;
    }
    responses
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_real_spec_reads_as_the_committed_catalogue() {
        let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/openapi/v1.yaml")).unwrap();
        let endpoints = read(&text).expect("the spec reads");
        let catalogue: Value = serde_json::from_str(crate::operations::CATALOGUE_JSON).unwrap();
        let tools = catalogue["tools"].as_array().unwrap();
        assert_eq!(endpoints.len(), tools.len());
        for (endpoint, tool) in endpoints.iter().zip(tools) {
            assert_eq!(tool["name"], endpoint.tool.as_str());
            let op = crate::operations::OPERATIONS.iter().find(|op| op.tool_name == endpoint.tool).unwrap();
            let checked: Value = serde_json::from_str(op.input_schema).unwrap();
            assert_eq!(checked, endpoint.input_schema, "{}", endpoint.tool);
        }
        let list = endpoints.iter().find(|e| e.tool == "dunning_charges_list").unwrap();
        assert_eq!(list.sources.get("per_page"), Some(&Source::Query));
        assert_eq!(list.operation(), "GET /v1/charges");
    }
}
