//! The generator's view of the spec: one `Op` per operation, checked for everything the
//! generated code relies on (ids, x-mcp, scopes, name lengths, argument collisions).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use serde_json::{Map, Value, json};

use crate::schema::{self, Components};

/// A spec the generator refuses, with the reason (and the operation it concerns).
#[derive(Debug)]
pub struct SpecError(String);

impl SpecError {
    pub fn new(message: impl Into<String>) -> Self {
        Self(message.into())
    }
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

pub type Result<T> = std::result::Result<T, SpecError>;

/// MCP tool names are limited to 64 characters by the MCP specification.
const MAX_TOOL_NAME: usize = 64;
const TOOL_PREFIX: &str = "dunning_";
const RESOURCE_PREFIX: &str = "kobana://dunning/";
pub const KNOWN_SCOPES: &[&str] = &[
    "any",
    "dunning.read",
    "dunning.write",
    "dunning.notify",
    "dunning.escalate",
    "dunning.webhooks",
    "dunning.exports",
];

/// Arguments the server instructions explain once for every tool, so their descriptions are
/// left out of tool descriptors (see `Op::descriptor`). An operation that gives one of these
/// names another meaning must use another name. mcp_wire's instruction test checks that the
/// instructions mention every argument whose description the descriptor drops.
const CONVENTIONAL_ARGUMENTS: &[&str] = &[
    "id",
    "page",
    "per_page",
    "sort_by",
    "sort_order",
    "idempotency_key",
    "external_id",
    "tags",
    "metadata",
];

pub struct Api {
    pub version: String,
    pub ops: Vec<Op>,
}

pub struct QueryParam {
    pub name: String,
    pub kind: &'static str,
}

pub struct Confirm {
    pub target: Option<String>,
    pub message: String,
}

pub enum ResponseKind {
    Json,
    NoContent,
    Binary { content_type: String, extension: String },
}

pub struct Op {
    pub operation_id: String,
    pub tool_name: String,
    pub title: String,
    pub description: String,
    pub tag: String,
    pub method: String,
    pub path: String,
    pub effect: String,
    pub idempotent: bool,
    pub scope: Option<String>,
    pub confirm: Option<Confirm>,
    pub path_params: Vec<String>,
    pub query_params: Vec<QueryParam>,
    pub body: Option<Body>,
    pub success_status: u16,
    pub response: ResponseKind,
    pub resource_uri: Option<String>,
    pub input_schema: Value,
    pub query_schema: Value,
    /// Status code -> converted response schema, for the contract tests.
    pub response_schemas: BTreeMap<String, Value>,
}

pub struct Body {
    pub required: bool,
    pub fields: Vec<String>,
    pub schema: Value,
}

impl Op {
    /// Writes take an idempotency key: POST and PATCH that change something.
    pub fn accepts_idempotency_key(&self) -> bool {
        self.effect != "read" && matches!(self.method.as_str(), "post" | "patch")
    }

    /// The MCP tool descriptor: deterministic, caller-independent.
    pub fn descriptor(&self) -> Value {
        // The catalogue budget (DESIGN.md section 3): arguments whose meaning is a convention
        // shared by every tool are explained once, in the server instructions
        // (src/mcp/instructions.rs), so the descriptor drops their spec description. The
        // validator's schema and the REST documentation keep it.
        let mut input_schema = self.input_schema.clone();
        if let Some(properties) = input_schema.get_mut("properties").and_then(Value::as_object_mut) {
            for (name, property) in properties.iter_mut() {
                if CONVENTIONAL_ARGUMENTS.contains(&name.as_str())
                    && let Some(property) = property.as_object_mut()
                {
                    property.shift_remove("description");
                }
            }
        }
        json!({
            "name": self.tool_name,
            "title": self.title,
            "description": self.description,
            "inputSchema": input_schema,
            // No `annotations.title`: it would repeat `title` in every descriptor. Eras without
            // a top-level title get it there instead (src/mcp/tools.rs).
            "annotations": {
                "readOnlyHint": self.effect == "read",
                "destructiveHint": self.effect == "destructive",
                "idempotentHint": self.idempotent,
                "openWorldHint": false,
            },
        })
    }
}

impl Api {
    pub fn from_yaml(text: &str) -> Result<Self> {
        let doc: openapiv3::OpenAPI = yaml_serde::from_str(text)
            .map_err(|e| SpecError::new(format!("not an OpenAPI 3.0 document: {e}")))?;
        if !doc.openapi.starts_with("3.0.") {
            return Err(SpecError::new(format!("openapi {} is not supported (3.0.x only)", doc.openapi)));
        }
        // Work on the document as openapiv3 understood it, re-serialized: everything below reads
        // plain JSON, and nothing openapiv3 rejected can sneak in.
        let raw = serde_json::to_value(&doc)
            .map_err(|e| SpecError::new(format!("cannot re-serialize the spec: {e}")))?;
        let components = Components::new(&raw);
        let mut ops = Vec::new();
        let paths = raw.get("paths").and_then(Value::as_object).cloned().unwrap_or_default();
        for (path, item) in &paths {
            let item = item.as_object().ok_or_else(|| SpecError::new(format!("{path}: not a path item")))?;
            let shared_params = item.get("parameters").and_then(Value::as_array).cloned().unwrap_or_default();
            for method in ["get", "put", "post", "delete", "patch"] {
                if let Some(op) = item.get(method) {
                    ops.push(Op::from_raw(path, method, op, &shared_params, &components)?);
                }
            }
            for other in ["options", "head", "trace"] {
                if item.contains_key(other) {
                    return Err(SpecError::new(format!("{path}: method {other} is not supported")));
                }
            }
        }
        check_collisions(&ops)?;
        check_confirm_targets(&ops)?;
        Ok(Self { version: doc.info.version, ops })
    }
}

/// A GET that takes `page`/`per_page` is a list (DESIGN.md section 3): lists are not resources.
fn is_list(query_params: &[QueryParam]) -> bool {
    query_params.iter().any(|p| p.name == "page" || p.name == "per_page")
}

fn check_collisions(ops: &[Op]) -> Result<()> {
    let mut seen = BTreeSet::new();
    for op in ops {
        if !seen.insert(op.tool_name.as_str()) {
            return Err(SpecError::new(format!(
                "operation {}: tool name {} is used twice",
                op.operation_id, op.tool_name
            )));
        }
    }
    Ok(())
}

fn check_confirm_targets(ops: &[Op]) -> Result<()> {
    for op in ops {
        let Some(target) = op.confirm.as_ref().and_then(|c| c.target.as_deref()) else {
            continue;
        };
        let Some(read) = ops.iter().find(|o| o.operation_id == target) else {
            return Err(SpecError::new(format!(
                "operation {}: x-mcp.confirm.target {target} is not an operation",
                op.operation_id
            )));
        };
        if read.method != "get" || read.path_params.iter().any(|p| !op.path_params.contains(p)) {
            return Err(SpecError::new(format!(
                "operation {}: x-mcp.confirm.target {target} must be a GET whose path parameters the operation has",
                op.operation_id
            )));
        }
    }
    Ok(())
}

fn str_field<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key).and_then(Value::as_str)
}

impl Op {
    fn from_raw(
        path: &str,
        method: &str,
        raw: &Value,
        shared_params: &[Value],
        components: &Components,
    ) -> Result<Self> {
        let where_ = format!("{} {path}", method.to_uppercase());
        let operation_id = str_field(raw, "operationId")
            .ok_or_else(|| SpecError::new(format!("{where_}: missing operationId")))?
            .to_string();
        let fail = |msg: String| SpecError::new(format!("operation {operation_id} ({where_}): {msg}"));
        if !operation_id.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_') {
            return Err(fail("operationId must be snake_case".into()));
        }
        let tool_name = format!("{TOOL_PREFIX}{operation_id}");
        if tool_name.len() > MAX_TOOL_NAME {
            return Err(fail(format!(
                "tool name {tool_name} is {} characters, over the limit of {MAX_TOOL_NAME}",
                tool_name.len()
            )));
        }
        let tag = raw
            .get("tags")
            .and_then(Value::as_array)
            .and_then(|t| t.first())
            .and_then(Value::as_str)
            .ok_or_else(|| fail("missing tag (it names the handler module)".into()))?
            .to_string();
        if tag.is_empty() || !tag.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_') {
            return Err(fail(format!("tag {tag} must be snake_case: it names the handler module")));
        }
        let title = str_field(raw, "summary").ok_or_else(|| fail("missing summary".into()))?.to_string();
        let description = str_field(raw, "description")
            .ok_or_else(|| fail("missing description".into()))?
            .trim()
            .to_string();

        let x_mcp = raw.get("x-mcp").ok_or_else(|| fail("missing x-mcp block".into()))?;
        let effect =
            str_field(x_mcp, "effect").ok_or_else(|| fail("missing x-mcp.effect".into()))?.to_string();
        if !matches!(effect.as_str(), "read" | "write" | "destructive") {
            return Err(fail(format!("x-mcp.effect {effect} is not read, write or destructive")));
        }
        let idempotent = x_mcp
            .get("idempotent")
            .and_then(Value::as_bool)
            .ok_or_else(|| fail("missing x-mcp.idempotent".into()))?;
        let scope = str_field(x_mcp, "scope").ok_or_else(|| fail("missing x-mcp.scope".into()))?;
        if !KNOWN_SCOPES.contains(&scope) {
            return Err(fail(format!("x-mcp.scope {scope} is not a known scope")));
        }
        let scope = (scope != "any").then(|| scope.to_string());
        let confirm = match x_mcp.get("confirm") {
            None if effect == "destructive" => {
                return Err(fail("destructive operations need x-mcp.confirm".into()));
            }
            None => None,
            Some(_) if effect != "destructive" => {
                return Err(fail("x-mcp.confirm is only for destructive operations".into()));
            }
            Some(c) => Some(Confirm {
                target: str_field(c, "target").map(str::to_string),
                message: str_field(c, "message")
                    .ok_or_else(|| fail("missing x-mcp.confirm.message".into()))?
                    .to_string(),
            }),
        };
        let resource_opt_out = x_mcp.get("resource").and_then(Value::as_bool) == Some(false);

        // Parameters: path and query (headers are documentation for REST callers).
        let mut path_params = Vec::new();
        let mut query_params = Vec::new();
        let mut properties = Map::new();
        let mut required = Vec::new();
        let mut query_props = Map::new();
        let mut query_required = Vec::new();
        let op_params = raw.get("parameters").and_then(Value::as_array).cloned().unwrap_or_default();
        for param in shared_params.iter().chain(op_params.iter()) {
            let param = components.resolve_parameter(param).map_err(fail)?;
            let name =
                str_field(&param, "name").ok_or_else(|| fail("parameter without name".into()))?.to_string();
            let location = str_field(&param, "in").unwrap_or_default().to_string();
            let param_schema =
                param.get("schema").ok_or_else(|| fail(format!("parameter {name} has no schema")))?;
            let mut converted = schema::convert(param_schema, components, true)
                .map_err(|e| fail(format!("parameter {name}: {e}")))?;
            if let (Some(desc), Some(obj)) = (str_field(&param, "description"), converted.as_object_mut()) {
                obj.entry("description").or_insert_with(|| Value::String(desc.trim().to_string()));
            }
            let is_required = param.get("required").and_then(Value::as_bool).unwrap_or(false);
            match location.as_str() {
                "path" => {
                    if !path.contains(&format!("{{{name}}}")) {
                        return Err(fail(format!("path parameter {name} is not in the path")));
                    }
                    path_params.push(name.clone());
                    required.push(name.clone());
                }
                "query" => {
                    let kind = match str_field(param_schema, "type") {
                        Some("integer") => "Integer",
                        Some("number") => "Number",
                        Some("boolean") => "Boolean",
                        Some("string") | None => "String",
                        Some(other) => {
                            return Err(fail(format!("query parameter {name} has type {other}")));
                        }
                    };
                    query_params.push(QueryParam { name: name.clone(), kind });
                    query_props.insert(name.clone(), converted.clone());
                    if is_required {
                        query_required.push(name.clone());
                        required.push(name.clone());
                    }
                }
                "header" | "cookie" => continue,
                other => return Err(fail(format!("parameter {name} is in {other}"))),
            }
            if properties.insert(name.clone(), converted).is_some() {
                return Err(fail(format!("parameter {name} is declared twice")));
            }
        }
        for segment in path.split('/') {
            if let Some(name) = segment.strip_prefix('{').and_then(|s| s.strip_suffix('}'))
                && !path_params.iter().any(|p| p == name)
            {
                return Err(fail(format!("path parameter {name} is not declared")));
            }
        }

        // Request body: JSON only; its top-level properties sit beside the parameters.
        let body = match raw.get("requestBody") {
            None => None,
            Some(rb) => {
                let rb = components.resolve(rb, "requestBodies").map_err(fail)?;
                let media = rb
                    .pointer("/content/application~1json/schema")
                    .ok_or_else(|| fail("request body must be application/json with a schema".into()))?;
                let body_schema = schema::convert(media, components, true)
                    .map_err(|e| fail(format!("request body: {e}")))?;
                if body_schema.get("type").and_then(Value::as_str) != Some("object") {
                    return Err(fail("request body schema must be an object".into()));
                }
                let body_required = rb.get("required").and_then(Value::as_bool).unwrap_or(false);
                let mut fields = Vec::new();
                if let Some(props) = body_schema.get("properties").and_then(Value::as_object) {
                    for (name, prop) in props {
                        if properties.contains_key(name) {
                            return Err(fail(format!(
                                "body field {name} collides with a path or query parameter of the same name"
                            )));
                        }
                        properties.insert(name.clone(), prop.clone());
                        fields.push(name.clone());
                    }
                }
                if body_required && let Some(req) = body_schema.get("required").and_then(Value::as_array) {
                    required.extend(req.iter().filter_map(Value::as_str).map(str::to_string));
                }
                Some(Body { required: body_required, fields, schema: body_schema })
            }
        };

        // Responses: the success status decides the response kind.
        let responses =
            raw.get("responses").and_then(Value::as_object).ok_or_else(|| fail("no responses".into()))?;
        let mut success = None;
        let mut response_schemas = BTreeMap::new();
        for (status, response) in responses {
            let response = components.resolve(response, "responses").map_err(fail)?;
            let content = response.get("content").and_then(Value::as_object);
            if let Some(schema_raw) = response.pointer("/content/application~1json/schema") {
                let converted = schema::convert(schema_raw, components, true)
                    .map_err(|e| fail(format!("response {status}: {e}")))?;
                response_schemas.insert(status.clone(), converted);
            }
            if status.starts_with('2') && success.is_none() {
                let code: u16 = status.parse().map_err(|_| fail(format!("response status {status}")))?;
                let kind = match content.and_then(|c| c.keys().next()) {
                    None => ResponseKind::NoContent,
                    Some(ct) if ct == "application/json" => ResponseKind::Json,
                    Some(ct) => {
                        let extension = match ct.as_str() {
                            "application/pdf" => "pdf",
                            "text/csv" => "csv",
                            other => {
                                return Err(fail(format!("unsupported response content type {other}")));
                            }
                        };
                        ResponseKind::Binary { content_type: ct.clone(), extension: extension.into() }
                    }
                };
                success = Some((code, kind));
            }
        }
        let (success_status, response) = success.ok_or_else(|| fail("no 2xx response".into()))?;
        if method == "delete" && !matches!(response, ResponseKind::NoContent) {
            return Err(fail("DELETE must answer 204 with no body".into()));
        }

        // Resource template rule (DESIGN.md section 3).
        let resource_uri =
            if method == "get" && !resource_opt_out && !is_list(&query_params) && query_required.is_empty() {
                let rest = path.strip_prefix("/v1/").ok_or_else(|| fail("paths start with /v1/".into()))?;
                let ext = match &response {
                    ResponseKind::Binary { extension, .. } => format!(".{extension}"),
                    _ => String::new(),
                };
                Some(format!("{RESOURCE_PREFIX}{rest}{ext}"))
            } else {
                None
            };

        let mut input_schema =
            json!({ "type": "object", "properties": properties, "additionalProperties": false });
        if !required.is_empty() {
            input_schema["required"] = json!(required);
        }
        let mut query_schema =
            json!({ "type": "object", "properties": query_props, "additionalProperties": false });
        if !query_required.is_empty() {
            query_schema["required"] = json!(query_required);
        }

        Ok(Self {
            operation_id,
            tool_name,
            title,
            description,
            tag,
            method: method.to_string(),
            path: path.to_string(),
            effect,
            idempotent,
            scope,
            confirm,
            path_params,
            query_params,
            body,
            success_status,
            response,
            resource_uri,
            input_schema,
            query_schema,
            response_schemas,
        })
    }
}
