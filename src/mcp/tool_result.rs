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
use crate::operations::{Operation, ResponseKind};
pub use crate::tool_text::json_text;
use crate::tool_text::{StringBody, hidden, shown};

/// A tool result with one text item.
pub fn text_result(text: String, is_error: bool) -> Outcome {
    let mut literal = Vec::with_capacity(text.len() + 16);
    serde_json::to_writer(&mut literal, &text).expect("a string serialises to a Vec");
    Outcome::tool_text(literal, is_error)
}

/// A tool error (`isError: true`) written by the /v1 envelope code.
pub fn error_result(ctx: &Context<'_>, err: &ApiError) -> Outcome {
    text_result(pretty(&err.body(&ctx.caller.request_id)), true)
}

fn pretty(value: &Value) -> String {
    json_text(value)
}

/// An endpoint's JSON answer as the JSON string literal of a tool's text item: the same text
/// as `json_text` of the parsed answer, written by transcoding the bytes straight into the
/// literal (no `Value` tree, no intermediate text). `None` when the bytes are not one JSON
/// value.
pub fn endpoint_text(bytes: &[u8]) -> Option<Vec<u8>> {
    let mut literal = Vec::with_capacity(bytes.len() + bytes.len() / 2 + 64);
    literal.push(b'"');
    if reindent(bytes, &mut literal).is_some() {
        literal.push(b'"');
        return Some(literal);
    }
    literal.truncate(1);
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    let mut serializer = serde_json::Serializer::with_formatter(StringBody(&mut literal), shown());
    serde_transcode::transcode(&mut deserializer, &mut serializer).ok()?;
    deserializer.end().ok()?;
    literal.push(b'"');
    Some(literal)
}

/// What the JSON grammar allows next, as [`reindent`] walks the bytes.
#[derive(Clone, Copy, PartialEq)]
enum Next {
    Value,
    Key,
    Colon,
    CommaOrClose,
    /// The one top-level value is complete.
    End,
}

/// The fast path of [`endpoint_text`]: JSON as serde_json writes it (every answer of this
/// server) re-indented in one pass over its bytes, straight into the inside of a string literal,
/// checking the grammar as it goes (one pass: no separate validation of the answer). For
/// serde_json's own output the result is what the transcoder writes for the same bytes. Numbers
/// are copied as written (serde_json writes them in the form it reads back); a string escape
/// serde_json would not have written, such as `\/` or `\u00e9`, gives `None` (and a partial
/// output), and the transcoder normalises it. Bytes that are not one JSON value give `None`.
fn reindent(json: &[u8], out: &mut Vec<u8>) -> Option<()> {
    fn newline(out: &mut Vec<u8>, depth: usize) {
        out.extend_from_slice(b"\\n");
        for _ in 0..depth {
            out.extend_from_slice(b"  ");
        }
    }
    let mut open: Vec<u8> = Vec::with_capacity(8);
    let mut next = Next::Value;
    let after_value = |open: &[u8]| if open.is_empty() { Next::End } else { Next::CommaOrClose };
    let mut i = 0;
    while let Some(&b) = json.get(i) {
        match b {
            b' ' | b'\n' | b'\r' | b'\t' => {}
            b'{' | b'[' if next == Next::Value => {
                let close = if b == b'{' { b'}' } else { b']' };
                let first = i + 1 + json[i + 1..].iter().position(|c| !c.is_ascii_whitespace())?;
                out.push(b);
                if json[first] == close {
                    out.push(close);
                    i = first;
                    next = after_value(&open);
                } else {
                    open.push(close);
                    newline(out, open.len());
                    next = if b == b'{' { Next::Key } else { Next::Value };
                }
            }
            b'}' | b']' if next == Next::CommaOrClose && open.last() == Some(&b) => {
                open.pop();
                newline(out, open.len());
                out.push(b);
                next = after_value(&open);
            }
            b',' if next == Next::CommaOrClose => {
                out.push(b',');
                newline(out, open.len());
                next = if open.last() == Some(&b'}') { Next::Key } else { Next::Value };
            }
            b':' if next == Next::Colon => {
                out.extend_from_slice(b": ");
                next = Next::Value;
            }
            b'"' if next == Next::Key => {
                i = string(json, i, out)?;
                next = Next::Colon;
            }
            b'"' if next == Next::Value => {
                i = string(json, i, out)?;
                next = after_value(&open);
            }
            b'-' | b'0'..=b'9' | b't' | b'f' | b'n' if next == Next::Value => {
                let len = json[i..]
                    .iter()
                    .position(|c| !(c.is_ascii_alphanumeric() || matches!(c, b'+' | b'-' | b'.')))
                    .unwrap_or(json.len() - i);
                let scalar = &json[i..i + len];
                if !(matches!(scalar, b"true" | b"false" | b"null") || is_number(scalar)) {
                    return None;
                }
                out.extend_from_slice(scalar);
                i += len - 1;
                next = after_value(&open);
            }
            _ => return None,
        }
        i += 1;
    }
    (next == Next::End).then_some(())
}

/// A JSON number: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
fn is_number(text: &[u8]) -> bool {
    let digits = |rest: &[u8]| rest.iter().take_while(|c| c.is_ascii_digit()).count();
    let mut rest = text.strip_prefix(b"-").unwrap_or(text);
    match rest.first() {
        Some(b'0') => rest = &rest[1..],
        Some(b'1'..=b'9') => rest = &rest[digits(rest)..],
        _ => return false,
    }
    if let Some(fraction) = rest.strip_prefix(b".") {
        let n = digits(fraction);
        if n == 0 {
            return false;
        }
        rest = &fraction[n..];
    }
    if let Some(exponent) = rest.strip_prefix(b"e").or_else(|| rest.strip_prefix(b"E")) {
        let exponent =
            exponent.strip_prefix(b"+").or_else(|| exponent.strip_prefix(b"-")).unwrap_or(exponent);
        let n = digits(exponent);
        if n == 0 {
            return false;
        }
        rest = &exponent[n..];
    }
    rest.is_empty()
}

/// Copies the string that starts at `json[start]` (a quote) into the literal; returns the
/// index of its closing quote.
fn string(json: &[u8], start: usize, out: &mut Vec<u8>) -> Option<usize> {
    out.extend_from_slice(b"\\\"");
    let mut i = start + 1;
    loop {
        let b = *json.get(i)?;
        match b {
            b'"' => {
                out.extend_from_slice(b"\\\"");
                return Some(i);
            }
            b'\\' => {
                // The escapes serde_json writes; the text keeps them, so the literal escapes
                // their backslash (and a quote or backslash after it).
                let e = *json.get(i + 1)?;
                match e {
                    b'"' | b'\\' => out.extend_from_slice(&[b'\\', b'\\', b'\\', e]),
                    b'n' | b'r' | b't' | b'b' | b'f' => out.extend_from_slice(&[b'\\', b'\\', e]),
                    b'u' => {
                        let hex = json.get(i + 2..i + 6)?;
                        // serde_json writes \u only for the other control characters.
                        let code = std::str::from_utf8(hex).ok().and_then(|h| u8::from_str_radix(h, 16).ok());
                        let canonical = code.is_some_and(|c| c < 0x20 && !matches!(c, 8 | 9 | 10 | 12 | 13))
                            && !hex.iter().any(u8::is_ascii_uppercase);
                        if !canonical {
                            return None;
                        }
                        out.extend_from_slice(b"\\\\u");
                        out.extend_from_slice(hex);
                        i += 4;
                    }
                    _ => return None,
                }
                i += 2;
            }
            0x7f => {
                out.extend_from_slice(b"\\\\u007f");
                i += 1;
            }
            0x80.. => {
                let width = utf8_width(b);
                let text = std::str::from_utf8(json.get(i..i + width)?).ok()?;
                let c = text.chars().next()?;
                if hidden(c) {
                    let mut units = [0u16; 2];
                    for unit in c.encode_utf16(&mut units) {
                        out.extend_from_slice(format!("\\\\u{unit:04x}").as_bytes());
                    }
                } else {
                    out.extend_from_slice(text.as_bytes());
                }
                i += width;
            }
            0..=0x1f => return None,
            _ => {
                // A run of plain ASCII goes in one copy, not a push per byte.
                let mut end = i + 1;
                while json.get(end).is_some_and(|&c| PLAIN[usize::from(c)]) {
                    end += 1;
                }
                out.extend_from_slice(&json[i..end]);
                i = end;
            }
        }
    }
}

/// The bytes a string's text copies as they are: printable ASCII but the quote and the backslash.
static PLAIN: [bool; 256] = {
    let mut plain = [false; 256];
    let mut b = 0x20;
    while b < 0x7f {
        plain[b] = b != b'"' as usize && b != b'\\' as usize;
        b += 1;
    }
    plain
};

/// The length of the UTF-8 sequence a leading byte starts.
fn utf8_width(lead: u8) -> usize {
    match lead {
        0xf0.. => 4,
        0xe0.. => 3,
        _ => 2,
    }
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

    use crate::domain::text::is_format;

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

    /// `json_text` as it was before it wrote through `ShownFormatter`: the reference.
    fn json_text_reference(value: &Value) -> String {
        let text = serde_json::to_string_pretty(value).unwrap();
        let mut out = String::new();
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

    #[test]
    fn endpoint_answers_become_the_same_text_as_through_a_value() {
        let value = json!({
            "data": {
                "name": "Maria\u{202e}anele\u{200b}\u{7f}\u{85} José 🎉\u{e0041}",
                "quoted": "a\"b\\c\n\t\r\u{1}\u{8}\u{c}\u{1f} </script>",
                "k\u{2066}ey": 1850.5,
                "int": -3,
                "big": 1e300,
                "small": 0.001,
                "empty": {},
                "list": [],
                "nested": [1, { "a": null, "b": [true, false] }],
            },
            "meta": { "total": 18446744073709551615u64 }
        });
        for bytes in [serde_json::to_vec(&value).unwrap(), serde_json::to_vec_pretty(&value).unwrap()] {
            assert!(
                reindent(&bytes, &mut Vec::new()).is_some(),
                "serde_json's own output takes the fast path"
            );
            let literal = endpoint_text(&bytes).unwrap();
            let text: String = serde_json::from_slice(&literal).unwrap();
            let parsed: Value = serde_json::from_slice(&bytes).unwrap();
            assert_eq!(text, json_text_reference(&parsed));
            assert_eq!(text, json_text(&parsed));
            // The literal is what serde_json writes for that text.
            assert_eq!(literal, serde_json::to_vec(&text).unwrap());
        }
        // Forms serde_json does not write take the transcoder, and read the same.
        for odd in [
            &br#"{"a":"\/\u00e9\u0008\u001F","b" : [ {} , [ ] ,{"c":[1,2]}]}"#[..],
            br#"[[],{},"x\u0001y\"\\"]"#,
            b" 12 ",
            br#""\u200b""#,
        ] {
            let literal = endpoint_text(odd).unwrap();
            let text: String = serde_json::from_slice(&literal).unwrap();
            let parsed: Value = serde_json::from_slice(odd).unwrap();
            assert_eq!(text, json_text_reference(&parsed), "{}", String::from_utf8_lossy(odd));
        }
        // Not one JSON value: the one pass refuses it, and so does the transcoder after it.
        for bad in [
            &b"{} {}"[..],
            br#"{"a" 1}"#,
            br#"{"a":1,}"#,
            br#"[1 2]"#,
            br#"[1,]"#,
            br#"{1:2}"#,
            br#"{"a":tru}"#,
            br#"{"a":01}"#,
            br#"{"a":1.}"#,
            br#"{"a":-}"#,
            br#"{"a":1e}"#,
            br#"[}"#,
            br#"{"a":[1}]"#,
            br#"{"a"}"#,
            b"]",
            b"nul",
        ] {
            assert!(reindent(bad, &mut Vec::new()).is_none(), "{}", String::from_utf8_lossy(bad));
            assert!(endpoint_text(bad).is_none(), "{}", String::from_utf8_lossy(bad));
        }
        for good in [&b"true"[..], b"-0.5e+10", b"[null,false,1E2]", br#"{"a":{"b":[]}}"#] {
            assert!(reindent(good, &mut Vec::new()).is_some(), "{}", String::from_utf8_lossy(good));
        }
        assert!(endpoint_text(b"{} x").is_none());
        assert!(endpoint_text(br#"{"a":1"#).is_none());
        assert!(endpoint_text(b"<html>").is_none());
        assert!(endpoint_text(b"").is_none());
    }

    #[test]
    fn an_answer_serialised_straight_to_its_text_matches_the_reindented_rest_body() {
        #[derive(serde::Serialize)]
        struct Typed {
            id: &'static str,
            amount: f64,
            paid_at: Option<&'static str>,
            tags: Vec<&'static str>,
            metadata: Value,
        }
        let typed = Typed {
            id: "chg_1",
            amount: 1850.5,
            paid_at: None,
            tags: vec!["a\"b", "\u{202e}x\u{7f}\u{9f}"],
            metadata: json!({ "k\u{2066}": [1, -2.25, {}, []], "n": "x\u{1}\n\t\u{8}y", "e": {} }),
        };
        let value = json!({
            "data": {
                "name": "Maria\u{202e}anele\u{200b}\u{7f}\u{85} José 🎉\u{e0041}",
                "quoted": "a\"b\\c\n\t\r\u{1}\u{8}\u{c}\u{1f} </script>",
                "big": 1e300,
                "small": 0.001,
                "list": [],
                "nested": [1, { "a": null, "b": [true, false] }],
            },
            "meta": { "total": 18446744073709551615u64 }
        });
        for literal in
            [crate::tool_text::literal(&typed).unwrap(), crate::tool_text::literal(&value).unwrap()]
        {
            let text: String = serde_json::from_str(&literal).unwrap();
            let parsed: Value = serde_json::from_str(&text).unwrap();
            let rest = serde_json::to_vec(&parsed).unwrap();
            assert_eq!(literal.as_bytes(), endpoint_text(&rest).unwrap(), "{text}");
        }
        assert_eq!(
            crate::tool_text::literal(&typed).unwrap().as_bytes(),
            endpoint_text(&serde_json::to_vec(&typed).unwrap()).unwrap()
        );
    }

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
