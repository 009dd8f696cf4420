//! A tool's answer as one text item (DESIGN.md section 4): the endpoint's JSON, `{"status": 204}`,
//! a file's descriptor, or an error in the same envelope /v1 writes (`ApiError::body`), so both
//! surfaces read alike. Shared by tools/call and the confirmation flow.

use poem::http::StatusCode;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use super::arguments::Split;
use super::context::{Context, Outcome};
use super::dispatch::Answer;
use super::wire::{INTERNAL_ERROR, RpcError, SERVER_ERROR};
use crate::api::ApiError;
use crate::domain::text::is_format;
use crate::operations::{Operation, ResponseKind};

/// A tool result with one text item.
pub fn text_result(text: String, is_error: bool) -> Outcome {
    let mut result = json!({ "content": [{ "type": "text", "text": text }] });
    if is_error {
        result["isError"] = json!(true);
    }
    Outcome::complete(result)
}

/// A tool error (`isError: true`) written by the /v1 envelope code.
pub fn error_result(ctx: &Context<'_>, err: &ApiError) -> Outcome {
    text_result(pretty(&err.body(&ctx.caller.request_id)), true)
}

fn pretty(value: &Value) -> String {
    json_text(value)
}

/// A JSON value as indented text a model reads safely: text stored before input was checked may
/// hold DEL, C1 controls or format characters (bidi overrides, zero-width), which serde_json
/// writes raw. They are written as `\uXXXX` escapes instead, so the text is still the same JSON
/// once parsed, but nothing in it is invisible or reorders what is shown.
pub fn json_text(value: &Value) -> String {
    let text = serde_json::to_string_pretty(value).unwrap_or_default();
    // Outside strings JSON text is ASCII, so every such character found is inside a string.
    let hidden = |c: char| c == '\u{7f}' || ('\u{80}'..='\u{9f}').contains(&c) || is_format(c);
    if !text.chars().any(hidden) {
        return text;
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if hidden(c) {
            let mut units = [0u16; 2];
            for unit in c.encode_utf16(&mut units) {
                out.push_str(&format!("\\u{unit:04x}"));
            }
        } else {
            out.push(c);
        }
    }
    out
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
        complete: &[],
        descriptor: "{}",
        input_schema: "{}",
        query_schema: "{}",
    };

    #[test]
    fn invisible_characters_are_escaped_and_the_json_is_unchanged() {
        let value = json!({
            "name": "Maria\u{202e}anele\u{200b}\u{feff}\u{2066}",
            "note": "a\u{85}b\u{7f}c\u{0}\n\u{e0041}",
            "plain": "José 🎉",
        });
        let text = json_text(&value);
        assert!(text.contains(r"Maria\u202eanele\u200b\ufeff\u2066"), "{text}");
        assert!(text.contains(r"a\u0085b\u007fc\u0000\n\udb40\udc41"), "{text}");
        assert!(text.contains("José 🎉"), "{text}");
        assert!(!text.chars().any(|c| is_format(c) || (c.is_control() && c != '\n')), "{text}");
        assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), value);
        assert_eq!(json_text(&json!({"a": 1})), serde_json::to_string_pretty(&json!({"a": 1})).unwrap());
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
