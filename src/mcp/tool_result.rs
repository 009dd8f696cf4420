//! A tool's answer as one text item: the endpoint's JSON, `{"status": 204}`, a file's descriptor,
//! or an error in the same envelope /v1 writes (`ApiError::body`), so both surfaces read alike.
//! Shared by tools/call and the confirmation flow.

use poem::http::StatusCode;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use super::arguments::Split;
use super::context::{Context, Outcome};
use super::dispatch::Answer;
use super::wire::{INTERNAL_ERROR, RpcError, SERVER_ERROR};
use crate::api::ApiError;
use crate::operations::{Operation, ResponseKind};
pub use crate::tool_text::{endpoint_text, json_text};

/// A tool result with one text item.
pub fn text_result(text: String, is_error: bool) -> Outcome {
    let mut literal = Vec::with_capacity(text.len() + 16);
    serde_json::to_writer(&mut literal, &text).expect("a string serialises to a Vec");
    Outcome::tool_text(literal, is_error)
}

/// A tool error (`isError: true`) written by the /v1 envelope code.
pub fn error_result(ctx: &Context<'_>, err: &ApiError) -> Outcome {
    text_result(pretty(&err.body(ctx.caller.request_id)), true)
}

fn pretty(value: &Value) -> String {
    json_text(value)
}

/// An endpoint's answer as a tool result.
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
    if answer.tool_text {
        // Serialised by the handler's adapter straight into the text (`AnswerForm::ToolText`).
        return Ok(Outcome::tool_text(answer.body, false));
    }
    match endpoint_text(&answer.body) {
        Some(literal) => Ok(Outcome::tool_text(literal, false)),
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
                let text = "{\n  \"a\": \"\\u202e\"\n}".to_string();
                let mut written = Vec::new();
                text_result(text.clone(), is_error).write_to(era, &mut written);
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
