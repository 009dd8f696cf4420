//! What every MCP method gets (`Context`), what it gives back before its era envelope
//! (`Outcome`), and the scope rules they share. Its own file so that the method files and the
//! router that calls them do not import each other.

use poem::http::StatusCode;
use serde_json::{Map, Value, json};

use super::dispatch::{Caller, Dispatcher};
use super::era::Era;
use super::wire::{INVALID_PARAMS, RpcError};
use crate::operations::Operation;
use crate::toolsets::ToolFilter;

/// Everything a method needs.
pub struct Context<'a> {
    /// Who calls.
    pub caller: &'a Caller<'a>,
    /// The era of the request.
    pub era: &'a Era,
    /// The in-process /v1.
    pub dispatcher: &'a Dispatcher,
    /// `/mcp`, `` or a narrower path (`/mcp/x/charges`): the protected resource named in
    /// challenges.
    pub resource_path: &'a str,
    /// The tools this path lists and runs (every one on `/mcp`).
    pub tools: ToolFilter,
}

/// How a result is wrapped in the 2026-07-28 era.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `resultType: "complete"`.
    Complete,
    /// Complete, and cacheable: `ttlMs: 0`, `cacheScope: "private"` (discovery, lists, reads).
    Cacheable,
    /// `resultType: "input_required"` (never cacheable).
    InputRequired,
}

/// A method's result before its era envelope.
pub struct Outcome {
    /// The result object (empty when `written` holds the result).
    pub result: Map<String, Value>,
    /// How to wrap it.
    pub kind: Kind,
    /// A result whose JSON is written without a `Value` tree (the hot paths: a tool's text
    /// item, a cached catalogue). Byte-equivalent, once parsed, to what `result` would give.
    pub written: Option<Written>,
}

/// A result already (partly) written as JSON text.
pub enum Written {
    /// One text item (`{"content":[{"type":"text","text":…}]}`, `isError` when set): the text
    /// as a JSON string literal, quotes included.
    ToolText {
        /// The JSON string literal.
        literal: Vec<u8>,
        /// Whether it is a tool error.
        is_error: bool,
    },
    /// The whole result, era envelope included (computed once per era, `tools/list`).
    Finished(bytes::Bytes),
}

impl Outcome {
    /// A complete result.
    pub fn complete(result: Value) -> Self {
        Self { result: into_map(result), kind: Kind::Complete, written: None }
    }

    /// A cacheable complete result.
    pub fn cacheable(result: Value) -> Self {
        Self { result: into_map(result), kind: Kind::Cacheable, written: None }
    }

    /// A tool result with one text item, given as a JSON string literal.
    pub fn tool_text(literal: Vec<u8>, is_error: bool) -> Self {
        Self {
            result: Map::new(),
            kind: Kind::Complete,
            written: Some(Written::ToolText { literal, is_error }),
        }
    }

    /// A result already finished for its era (`finish` and serialisation done once, earlier).
    pub fn finished(text: bytes::Bytes) -> Self {
        Self { result: Map::new(), kind: Kind::Complete, written: Some(Written::Finished(text)) }
    }

    /// The result as the era wants it.
    pub fn finish(self, era: &Era) -> Value {
        let mut result = self.result;
        if era.is_stateless() {
            let result_type = if self.kind == Kind::InputRequired { "input_required" } else { "complete" };
            result.insert("resultType".into(), json!(result_type));
            if self.kind == Kind::Cacheable {
                result.insert("ttlMs".into(), json!(0));
                result.insert("cacheScope".into(), json!("private"));
            }
            let meta = result.entry("_meta").or_insert_with(|| json!({}));
            if let Some(meta) = meta.as_object_mut() {
                meta.insert("io.modelcontextprotocol/serverInfo".into(), server_info(era));
            }
        }
        Value::Object(result)
    }

    /// Appends the result as the era wants it, as JSON text, to `out`: the same JSON as
    /// `finish`, without building a `Value` tree for the written forms.
    pub fn write_to(self, era: &Era, out: &mut Vec<u8>) {
        match self.written {
            None => {
                let value = self.finish(era);
                serde_json::to_writer(&mut *out, &value).expect("a Value serialises to a Vec");
            }
            Some(Written::Finished(text)) => out.extend_from_slice(&text),
            Some(Written::ToolText { literal, is_error }) => {
                out.extend_from_slice(TEXT_ITEM_HEAD);
                out.extend_from_slice(&literal);
                write_text_item_tail(era, is_error, out);
            }
        }
    }
}

/// A successful JSON-RPC answer, written around the result without a `Value` tree for the
/// envelope: `{"jsonrpc":"2.0","id":…,"result":…}`. A finished result (the cached catalogue) is
/// sent as it is kept, between the envelope's pieces, not copied; a tool's text becomes the
/// answer's buffer, the envelope written around it in place.
pub fn result_body(id: &Value, outcome: Outcome, era: &Era) -> poem::Body {
    let head = |capacity: usize| {
        let mut out = Vec::with_capacity(capacity);
        out.extend_from_slice(br#"{"jsonrpc":"2.0","id":"#);
        serde_json::to_writer(&mut out, id).expect("a Value serialises to a Vec");
        out.extend_from_slice(br#","result":"#);
        out
    };
    match outcome.written {
        Some(Written::Finished(text)) => {
            let pieces = [bytes::Bytes::from(head(64)), text, bytes::Bytes::from_static(b"}")];
            crate::http::Pieces::new(pieces).into()
        }
        Some(Written::ToolText { literal, is_error }) => {
            let mut front = head(96);
            front.extend_from_slice(TEXT_ITEM_HEAD);
            let mut out = around(literal, &front);
            write_text_item_tail(era, is_error, &mut out);
            out.push(b'}');
            out.into()
        }
        None => {
            let mut out = head(320);
            outcome.write_to(era, &mut out);
            out.push(b'}');
            out.into()
        }
    }
}

/// What a tool result with one text item starts with, up to its text.
const TEXT_ITEM_HEAD: &[u8] = br#"{"content":[{"type":"text","text":"#;

/// `text` with `front` before it, in `text`'s buffer: one move of the text instead of a second
/// request-long buffer for the answer and a copy of the text into it. The buffer grows
/// only if its spare room is short of `front` and the tail.
fn around(mut text: Vec<u8>, front: &[u8]) -> Vec<u8> {
    let len = text.len();
    text.reserve(front.len() + TAIL_ROOM);
    text.resize(len + front.len(), 0);
    text.copy_within(..len, front.len());
    text[..front.len()].copy_from_slice(front);
    text
}

/// Room for the longest tail [`write_text_item_tail`] writes and the envelope's `}`.
const TAIL_ROOM: usize = 192;

/// What closes a tool result with one text item: the item, `isError` when set, and the 2026
/// envelope's keys, as `finish` adds them to a complete result, in its order.
fn write_text_item_tail(era: &Era, is_error: bool, out: &mut Vec<u8>) {
    out.extend_from_slice(b"}]");
    if is_error {
        out.extend_from_slice(br#","isError":true"#);
    }
    if era.is_stateless() {
        out.extend_from_slice(br#","resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":"#);
        out.extend_from_slice(server_info_json(era).as_bytes());
        out.push(b'}');
    }
    out.push(b'}');
}

fn into_map(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(m) => m,
        _ => Map::new(),
    }
}

/// [`server_info`] as JSON text, written once per answer without building it.
fn server_info_json(era: &Era) -> &'static str {
    const WITH_TITLE: &str = concat!(
        r#"{"name":"kobana-dunning","title":"Kobana Dunning","version":""#,
        env!("CARGO_PKG_VERSION"),
        r#""}"#
    );
    const WITHOUT_TITLE: &str =
        concat!(r#"{"name":"kobana-dunning","version":""#, env!("CARGO_PKG_VERSION"), r#""}"#);
    if era.has_titles() { WITH_TITLE } else { WITHOUT_TITLE }
}

/// `serverInfo`: 2025-03-26 has no `title`.
pub fn server_info(era: &Era) -> Value {
    let mut info =
        json!({ "name": "kobana-dunning", "title": "Kobana Dunning", "version": env!("CARGO_PKG_VERSION") });
    if !era.has_titles() {
        info.as_object_mut().map(|o| o.remove("title"));
    }
    info
}

/// Whether the caller may run an operation (the rule of `Principal::may_run`).
pub fn allowed(ctx: &Context<'_>, op: &Operation) -> bool {
    ctx.caller.principal.may_run(op)
}

/// Whether the path's tool list holds an operation (a narrower path lists fewer). A tool it
/// does not hold is, on this path, a tool that does not exist.
pub fn on_this_path(ctx: &Context<'_>, op: &Operation) -> bool {
    ctx.tools.admits(op)
}

/// The 403 step-up for an operation beyond the token's scopes, naming the scopes the token
/// lacks.
pub fn step_up(ctx: &Context<'_>, op: &Operation) -> RpcError {
    let missing = ctx.caller.principal.missing_scopes(op).join(" ");
    RpcError::new(
        StatusCode::FORBIDDEN,
        INVALID_PARAMS,
        format!("insufficient scope: {} needs {missing}", op.tool_name),
    )
    .with_data(
        json!({ "code": "INSUFFICIENT_SCOPE", "required": missing, "granted": ctx.caller.principal.scopes }),
    )
    // The challenge names every scope the operation needs, so re-authorising with it works.
    .with_header(
        "WWW-Authenticate",
        ctx.caller
            .app
            .step_up_challenge(ctx.resource_path, &op.required_scopes().collect::<Vec<_>>().join(" ")),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mcp::era::{V2025_03, V2025_06};

    fn eras() -> [Era; 3] {
        [
            Era::Legacy { version: V2025_03 },
            Era::Legacy { version: V2025_06 },
            Era::Stateless { capabilities: Map::new() },
        ]
    }

    #[tokio::test]
    async fn a_tool_text_answer_is_the_envelope_around_the_text() {
        let text = "{\n  \"id\": \"chg_1\"\n}";
        for era in &eras() {
            for is_error in [false, true] {
                for id in [json!(7), json!("req-\"1\"")] {
                    let literal = serde_json::to_vec(text).unwrap();
                    let body = result_body(&id, Outcome::tool_text(literal, is_error), era);
                    let written = body.into_vec().await.unwrap();
                    let mut result = json!({ "content": [{ "type": "text", "text": text }] });
                    if is_error {
                        result["isError"] = json!(true);
                    }
                    let expected = json!({
                        "jsonrpc": "2.0",
                        "id": id,
                        "result": Outcome::complete(result).finish(era),
                    });
                    // Byte for byte: the keys in the order `finish` gives them (preserve_order).
                    let expected = serde_json::to_vec(&expected).unwrap();
                    assert_eq!(
                        String::from_utf8(written).unwrap(),
                        String::from_utf8(expected).unwrap(),
                        "{era:?} {is_error}"
                    );
                }
            }
        }
    }

    #[test]
    fn the_envelope_fits_in_the_room_the_text_keeps() {
        let mut longest = Vec::new();
        write_text_item_tail(&Era::Stateless { capabilities: Map::new() }, true, &mut longest);
        assert!(longest.len() < TAIL_ROOM, "{}", longest.len());
        let mut text = Vec::with_capacity(2048);
        text.extend_from_slice(br#""some text""#);
        let buffer = text.as_ptr();
        let out = around(text, b"front:");
        assert_eq!(out, br#"front:"some text""#);
        assert_eq!(out.as_ptr(), buffer, "the text's own buffer carries the answer");
    }

    #[test]
    fn server_info_text_is_the_value_written() {
        let eras = [
            Era::Legacy { version: V2025_03 },
            Era::Legacy { version: V2025_06 },
            Era::Stateless { capabilities: Map::new() },
        ];
        for era in &eras {
            assert_eq!(server_info_json(era), server_info(era).to_string());
        }
    }
}
