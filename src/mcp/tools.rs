//! tools/list and tools/call: the generated catalogue, filtered by scope, and in-process
//! dispatch of each call to its /v1 handler.

use std::sync::LazyLock;

use poem::http::StatusCode;
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

use super::confirm::{self, Gate};
use super::dispatch::Answer;
use super::methods::{Context, Outcome};
use super::wire::{INTERNAL_ERROR, RpcError, SERVER_ERROR};
use crate::api::{FieldError, schemas};
use crate::auth::hex;
use crate::operations::{Effect, OPERATIONS, Operation, ResponseKind, by_tool_name};

/// Whether the caller may run an operation.
pub fn allowed(ctx: &Context<'_>, op: &Operation) -> bool {
    op.scope.is_none_or(|scope| ctx.caller.principal.has_scope(scope))
}

/// The 403 step-up for an operation beyond the token's scopes (DESIGN.md section 6).
pub fn step_up(ctx: &Context<'_>, op: &Operation) -> RpcError {
    let scope = op.scope.unwrap_or_default();
    RpcError::new(
        StatusCode::FORBIDDEN,
        super::wire::INVALID_PARAMS,
        format!("insufficient scope: {} needs {scope}", op.tool_name),
    )
    .with_data(
        json!({ "code": "INSUFFICIENT_SCOPE", "required": scope, "granted": ctx.caller.principal.scopes }),
    )
    .with_header("WWW-Authenticate", ctx.caller.app.step_up_challenge(ctx.resource_path, scope))
}

/// The generated descriptors, parsed once, in the order of `OPERATIONS`.
static DESCRIPTORS: LazyLock<Vec<Value>> = LazyLock::new(|| {
    OPERATIONS
        .iter()
        .map(|op| serde_json::from_str(op.descriptor).expect("generated descriptors are JSON"))
        .collect()
});

/// Parses the descriptors now rather than on the first tools/list.
pub fn warm_up() {
    LazyLock::force(&DESCRIPTORS);
}

/// `tools/list`: the caller's tools, in name order; descriptors never depend on the caller.
pub fn list(ctx: &Context<'_>) -> Outcome {
    let tools: Vec<Value> = OPERATIONS
        .iter()
        .zip(DESCRIPTORS.iter())
        .filter(|(op, _)| allowed(ctx, op))
        .map(|(_, descriptor)| {
            let mut descriptor = descriptor.clone();
            // 2025-03-26 has no top-level title: it goes where that revision shows one.
            if !ctx.era.has_titles()
                && let Some(title) = descriptor.as_object_mut().and_then(|d| d.remove("title"))
            {
                descriptor["annotations"]["title"] = title;
            }
            descriptor
        })
        .collect();
    Outcome::cacheable(json!({ "tools": tools }))
}

/// A tool result with one text item.
pub fn text_result(text: String, is_error: bool) -> Outcome {
    let mut result = json!({ "content": [{ "type": "text", "text": text }] });
    if is_error {
        result["isError"] = json!(true);
    }
    Outcome::complete(result)
}

/// A tool error in the /v1 error envelope, so both surfaces read alike.
pub fn error_result(ctx: &Context<'_>, code: &str, message: &str, details: Value) -> Outcome {
    let body = json!({ "error": { "code": code, "message": message, "details": details, "request_id": ctx.caller.request_id } });
    text_result(pretty(&body), true)
}

fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_default()
}

fn validation_error(ctx: &Context<'_>, fields: Vec<FieldError>) -> Outcome {
    error_result(ctx, "VALIDATION_ERROR", "the request has invalid fields", json!({ "fields": fields }))
}

/// Arguments split into path parameters, query parameters and body.
pub struct Split {
    /// Path parameters.
    pub path: Vec<(&'static str, String)>,
    /// Query parameters.
    pub query: Map<String, Value>,
    /// Body, for operations that take one.
    pub body: Option<Map<String, Value>>,
}

/// Splits flat arguments by where the operation reads them. Arguments an operation without a
/// body does not know go to the query string, where the endpoint names them.
pub fn split(op: &'static Operation, args: &Map<String, Value>) -> Split {
    let mut path = Vec::new();
    let mut query = Map::new();
    let mut body = op.body.map(|_| Map::new());
    for (name, value) in args {
        if let Some(param) = op.path_params.iter().find(|p| **p == name) {
            path.push((*param, value.as_str().map(str::to_string).unwrap_or_else(|| value.to_string())));
        } else if op.query_params.iter().any(|q| q.name == name) {
            query.insert(name.clone(), value.clone());
        } else if let Some(body) = body.as_mut() {
            body.insert(name.clone(), value.clone());
        } else {
            query.insert(name.clone(), value.clone());
        }
    }
    Split { path, query, body }
}

/// Checks the arguments the MCP layer owns: all of them for reads, the path for writes.
fn check_arguments(op: &Operation, args: &Map<String, Value>) -> Result<(), Vec<FieldError>> {
    if op.effect == Effect::Read {
        return schemas(op).input.check(&Value::Object(args.clone()));
    }
    let missing: Vec<FieldError> = op
        .path_params
        .iter()
        .filter(|p| !args.get(**p).is_some_and(Value::is_string))
        .map(|p| FieldError::new(*p, "is required and must be a string"))
        .collect();
    if missing.is_empty() { Ok(()) } else { Err(missing) }
}

/// `tools/call`
pub async fn call(ctx: &Context<'_>, params: &Map<String, Value>) -> Result<Outcome, RpcError> {
    let name = params
        .get("name")
        .and_then(Value::as_str)
        .ok_or_else(|| RpcError::invalid_params("params.name is required"))?;
    let op = by_tool_name(name).ok_or_else(|| RpcError::invalid_params(format!("Unknown tool: {name}")))?;
    if !allowed(ctx, op) {
        return Err(step_up(ctx, op));
    }
    let args = match params.get("arguments") {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(a)) => a.clone(),
        Some(_) => return Err(RpcError::invalid_params("params.arguments must be an object")),
    };
    if let Err(fields) = check_arguments(op, &args) {
        return Ok(validation_error(ctx, fields));
    }
    let split = split(op, &args);
    let mut if_match = None;
    if op.confirm.is_some() {
        // Ask only about a call that can run: a body the endpoint would refuse is refused now,
        // before the user is asked to confirm it.
        if let (Some(schema), Some(body)) = (&schemas(op).body, &split.body) {
            let mut body = body.clone();
            body.remove("idempotency_key");
            if let Err(fields) = schema.check(&Value::Object(body)) {
                return Ok(validation_error(ctx, fields));
            }
        }
        match confirm::gate(ctx, op, &args, &split, params).await? {
            Gate::Proceed(version) => if_match = version,
            Gate::Answer(outcome) => return Ok(outcome),
        }
    }
    // A confirmed call runs only on the version the user saw: a change in between is a 412.
    let answer = ctx
        .dispatcher
        .call_if_match(ctx.caller, op, &split.path, &split.query, split.body.as_ref(), if_match)
        .await;
    endpoint_result(ctx, op, &split, answer)
}

/// An endpoint's answer as a tool result (DESIGN.md section 4).
pub fn endpoint_result(
    ctx: &Context<'_>,
    op: &Operation,
    split: &Split,
    answer: Answer,
) -> Result<Outcome, RpcError> {
    let status = answer.status;
    if status == StatusCode::SERVICE_UNAVAILABLE {
        let retry_after = answer.retry_after.clone().unwrap_or_else(|| "1".into());
        return Err(RpcError::new(status, SERVER_ERROR, "Server busy; retry later")
            .with_data(json!({ "code": "UNAVAILABLE", "retry_after": retry_after }))
            .with_header("Retry-After", retry_after));
    }
    if status.is_server_error() {
        return Err(RpcError::new(StatusCode::OK, INTERNAL_ERROR, "Internal error")
            .with_data(json!({ "request_id": ctx.caller.request_id })));
    }
    if status == StatusCode::NO_CONTENT {
        return Ok(text_result(pretty(&json!({ "status": 204 })), false));
    }
    if status.is_client_error() {
        let body = answer.json().unwrap_or_else(
            || json!({ "error": { "code": "BAD_REQUEST", "message": "the request was refused" } }),
        );
        return Ok(text_result(pretty(&body), true));
    }
    if let ResponseKind::Binary { content_type, .. } = op.response {
        return Ok(text_result(pretty(&binary_descriptor(op, split, content_type, &answer.body)), false));
    }
    match answer.json() {
        Some(body) => Ok(text_result(pretty(&body), false)),
        None => Err(RpcError::new(
            StatusCode::OK,
            INTERNAL_ERROR,
            "Internal error: the endpoint did not answer JSON",
        )),
    }
}

/// A file described, never sent: models get its size, digest and where to fetch it.
fn binary_descriptor(op: &Operation, split: &Split, content_type: &str, bytes: &[u8]) -> Value {
    let fill = |template: &str| {
        split
            .path
            .iter()
            .fold(template.to_string(), |acc, (name, value)| acc.replace(&format!("{{{name}}}"), value))
    };
    json!({
        "content_type": content_type,
        "byte_size": bytes.len(),
        "sha256": hex(&Sha256::digest(bytes)),
        "download_path": fill(op.path),
        "resource_uri": op.resource_uri.map(fill),
        "note": "The file is not included. Download it from download_path with the same bearer token, or read resource_uri.",
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::operations::{
        Annotations, BodySpec, Confirm, Effect, HttpMethod, Operation, ParamKind, QueryParam, ResponseKind,
    };

    static STATEMENT: Operation = Operation {
        operation_id: "debtors_statement",
        tool_name: "dunning_debtors_statement",
        title: "Statement",
        description: "A PDF statement",
        tag: "debtors",
        method: HttpMethod::Get,
        path: "/v1/debtors/{id}/statement",
        effect: Effect::Read,
        annotations: Annotations { read_only: true, destructive: false, idempotent: true, open_world: false },
        scope: Some("dunning.read"),
        confirm: None::<Confirm>,
        path_params: &["id"],
        query_params: &[QueryParam { name: "lang", kind: ParamKind::String }],
        body: None::<BodySpec>,
        accepts_idempotency_key: false,
        success_status: 200,
        response: ResponseKind::Binary { content_type: "application/pdf", extension: "pdf" },
        resource_uri: Some("kobana://dunning/debtors/{id}/statement.pdf"),
        descriptor: "{}",
        input_schema: "{}",
        query_schema: "{}",
    };

    #[test]
    fn binaries_are_described_not_sent() {
        let args: Map<String, Value> =
            serde_json::from_value(json!({ "id": "dbt_1", "lang": "pt" })).unwrap();
        let split = split(&STATEMENT, &args);
        assert_eq!(split.path, vec![("id", "dbt_1".to_string())]);
        assert_eq!(split.query.get("lang"), Some(&json!("pt")));
        let descriptor = binary_descriptor(&STATEMENT, &split, "application/pdf", b"%PDF-1.7 fake");
        assert_eq!(descriptor["byte_size"], 13);
        assert_eq!(descriptor["download_path"], "/v1/debtors/dbt_1/statement");
        assert_eq!(descriptor["resource_uri"], "kobana://dunning/debtors/dbt_1/statement.pdf");
        assert_eq!(descriptor["sha256"].as_str().unwrap().len(), 64);
        assert!(descriptor.get("data").is_none());
    }
}
