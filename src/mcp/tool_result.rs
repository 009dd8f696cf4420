//! A tool's answer as one text item: the endpoint's JSON, `{"status": 204}`, a file's descriptor,
//! or an error in the same envelope /v1 writes (`ApiError::body`, from the typed error), so both
//! surfaces read alike. Shared by tools/call and the confirmation flow.

use poem::http::StatusCode;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use super::arguments::Split;
use super::context::{Context, Outcome};
use super::tool_text::{endpoint_text, literal, shown};
use super::wire::{INTERNAL_ERROR, RpcError, SERVER_ERROR};
use crate::api::{Answered, ApiError, ApiResult, Layout, Rendered};
use crate::operations::{Operation, ResponseKind};

/// A tool result with one text item: `value` as its text.
pub fn text_result(value: &Value, is_error: bool) -> Outcome {
    Outcome::tool_text(literal(value), is_error)
}

/// A tool error (`isError: true`) written by the /v1 envelope code.
pub fn error_result(ctx: &Context<'_>, err: &ApiError) -> Outcome {
    text_result(&err.body(ctx.caller.request_id), true)
}

/// An operation's answer as a tool result: a refusal as a tool error, a failure of the server
/// as a JSON-RPC error.
pub fn endpoint_result(
    ctx: &Context<'_>,
    op: &Operation,
    split: &Split,
    answered: ApiResult<Answered>,
) -> Result<Outcome, RpcError> {
    match answered {
        Ok(Answered::Rendered(rendered)) => rendered_result(op, split, rendered),
        Ok(Answered::Stored { stored, .. }) => {
            kept_result(ctx, op, split, stored.status(), stored.body().unwrap_or_default())
        }
        Err(err) => refused(ctx, &err),
    }
}

/// A handler's own answer, rendered in the layout the call asked for.
fn rendered_result(op: &Operation, split: &Split, rendered: Rendered) -> Result<Outcome, RpcError> {
    if rendered.status == StatusCode::NO_CONTENT.as_u16() {
        return Ok(no_content());
    }
    if let ResponseKind::Binary { content_type, .. } = op.response {
        let bytes = rendered.file.map(|file| file.bytes).unwrap_or_default();
        return Ok(text_result(&binary_descriptor(op, split, content_type, &bytes), false));
    }
    match (rendered.body, rendered.layout) {
        // Serialised by the API straight into the text's string: only what a model would not
        // see is left to escape.
        (Some(body), Layout::IndentedString) => Ok(Outcome::tool_text(shown(body.into_bytes()), false)),
        (body, _) => json_result(body.as_deref().unwrap_or_default()),
    }
}

/// An answer kept under an idempotency key, as /v1 JSON: the first or a replay. Only successes
/// and refusals are kept (`ApiError::kept_under_key`), so a refusal here is read back from the
/// envelope it was kept as.
fn kept_result(
    ctx: &Context<'_>,
    op: &Operation,
    split: &Split,
    status: u16,
    body: &str,
) -> Result<Outcome, RpcError> {
    let status = StatusCode::from_u16(status).unwrap_or(StatusCode::OK);
    if status.is_server_error() {
        return Err(internal_error(ctx));
    }
    if status == StatusCode::NO_CONTENT {
        return Ok(no_content());
    }
    if status.is_client_error() {
        let text = endpoint_text(body.as_bytes()).unwrap_or_else(|| {
            literal(&json!({ "error": { "code": "BAD_REQUEST", "message": "the request was refused" } }))
        });
        return Ok(Outcome::tool_text(text, true));
    }
    if let ResponseKind::Binary { content_type, .. } = op.response {
        return Ok(text_result(&binary_descriptor(op, split, content_type, body.as_bytes()), false));
    }
    json_result(body)
}

/// A refusal as a tool error; an overloaded or failing server as the JSON-RPC error it is.
fn refused(ctx: &Context<'_>, err: &ApiError) -> Result<Outcome, RpcError> {
    let status = err.status();
    if status == StatusCode::SERVICE_UNAVAILABLE {
        let retry_after = err
            .headers()
            .into_iter()
            .find_map(|(name, value)| name.eq_ignore_ascii_case("retry-after").then_some(value))
            .unwrap_or_else(|| "1".into());
        return Err(RpcError::new(status, SERVER_ERROR, "Server busy; retry later")
            .with_data(json!({ "code": "UNAVAILABLE", "retry_after": retry_after }))
            .with_header("Retry-After", retry_after));
    }
    if status.is_server_error() {
        return Err(internal_error(ctx));
    }
    Ok(error_result(ctx, err))
}

/// A successful answer's compact JSON as the tool's text.
fn json_result(body: &str) -> Result<Outcome, RpcError> {
    match endpoint_text(body.as_bytes()) {
        Some(literal) => Ok(Outcome::tool_text(literal, false)),
        None => Err(RpcError::new(
            StatusCode::OK,
            INTERNAL_ERROR,
            "Internal error: the endpoint did not answer JSON",
        )),
    }
}

/// A 204's text.
fn no_content() -> Outcome {
    text_result(&json!({ "status": 204 }), false)
}

fn internal_error(ctx: &Context<'_>) -> RpcError {
    RpcError::new(StatusCode::OK, INTERNAL_ERROR, "Internal error")
        .with_data(json!({ "request_id": ctx.caller.request_id }))
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
        "sha256": hex::encode(Sha256::digest(bytes)),
        "download_path": fill(op.path),
        "resource_uri": op.resource_uri.map(fill),
        "note": "The file is not included. Download it from download_path with the same bearer token, or read resource_uri.",
    })
}

#[cfg(test)]
mod tests {
    use serde_json::Map;

    use super::*;
    use crate::mcp::arguments::split;
    use crate::operations::{
        Annotations, BodySpec, Confirm, Effect, HttpMethod, Operation, ParamKind, QueryParam, ResponseKind,
    };

    static STATEMENT: Operation = Operation {
        operation_id: "debtors_statement",
        tool_name: "dunning_debtors_statement",
        aliases: &[],
        title: "Statement",
        description: "A PDF statement",
        tag: "debtors",
        method: HttpMethod::Get,
        path: "/v1/debtors/{id}/statement",
        effect: Effect::Read,
        annotations: Annotations { read_only: true, destructive: false, idempotent: true, open_world: false },
        scope: Some("dunning.read"),
        further_scopes: &[],
        conditional_scope: None,
        toolset: "debtors",
        confirm: None::<Confirm>,
        path_params: &["id"],
        query_params: &[QueryParam { name: "lang", kind: ParamKind::String }],
        body: None::<BodySpec>,
        accepts_idempotency_key: false,
        success_status: 200,
        response: ResponseKind::Binary { content_type: "application/pdf", extension: "pdf" },
        resource_uri: Some("kobana://dunning/debtors/{id}/statement.pdf"),
        view_uri: Some("ui://kobana-dunning/debtor-overview"),
        row_fields: &[],
        complete: &[],
        descriptor: "{}",
        input_schema: "{}",
        query_schema: "{}",
    };

    #[test]
    fn text_results_write_the_same_json_as_before() {
        use crate::mcp::era::Era;
        let eras = [
            Era::Legacy { version: crate::mcp::era::V2025_06 },
            Era::Legacy { version: crate::mcp::era::V2025_03 },
            Era::Stateless { capabilities: Map::new() },
        ];
        for era in &eras {
            for is_error in [false, true] {
                let value = json!({ "a": "\u{202e}", "b": [1, { "c": null }] });
                let text =
                    "{\n  \"a\": \"\\u202e\",\n  \"b\": [\n    1,\n    {\n      \"c\": null\n    }\n  ]\n}";
                let mut written = Vec::new();
                text_result(&value, is_error).write_to(era, &mut written);
                let mut expected = json!({ "content": [{ "type": "text", "text": text }] });
                if is_error {
                    expected["isError"] = json!(true);
                }
                let expected = Outcome::complete(expected).finish(era);
                assert_eq!(serde_json::from_slice::<Value>(&written).unwrap(), expected);
                assert_eq!(written, serde_json::to_vec(&expected).unwrap(), "same keys, same order");
            }
        }
    }

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
