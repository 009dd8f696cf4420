//! The MCP methods of each era, and the result envelope each era expects.

use poem::http::StatusCode;
use serde_json::{Map, Value, json};

use super::dispatch::{Caller, Dispatcher};
use super::era::{Era, SUPPORTED};
use super::wire::{METHOD_NOT_FOUND, RpcError};
use super::{completion, instructions, prompts, resources, tools};

/// Everything a method needs.
pub struct Context<'a> {
    /// Who calls.
    pub caller: &'a Caller,
    /// The era of the request.
    pub era: &'a Era,
    /// The in-process /v1.
    pub dispatcher: &'a Dispatcher,
    /// `/mcp` or ``: the protected resource named in step-up challenges.
    pub resource_path: &'static str,
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
    /// The result object.
    pub result: Map<String, Value>,
    /// How to wrap it.
    pub kind: Kind,
}

impl Outcome {
    /// A complete result.
    pub fn complete(result: Value) -> Self {
        Self { result: into_map(result), kind: Kind::Complete }
    }

    /// A cacheable complete result.
    pub fn cacheable(result: Value) -> Self {
        Self { result: into_map(result), kind: Kind::Cacheable }
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
}

fn into_map(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(m) => m,
        _ => Map::new(),
    }
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

/// Runs a method of the request's era.
pub async fn handle(
    ctx: &Context<'_>,
    method: &str,
    params: &Map<String, Value>,
) -> Result<Outcome, RpcError> {
    let stateless = ctx.era.is_stateless();
    // Nothing is paginated (every list is under 100 items), so any cursor is a bad cursor.
    let is_list =
        matches!(method, "tools/list" | "resources/list" | "resources/templates/list" | "prompts/list");
    if is_list && params.get("cursor").is_some_and(|c| !c.is_null()) {
        return Err(RpcError::invalid_params("Invalid cursor: this list has a single page"));
    }
    match method {
        "server/discover" if stateless => Ok(discover(ctx)),
        "initialize" if !stateless => Ok(initialize(ctx)),
        "ping" if !stateless => Ok(Outcome::complete(json!({}))),
        "tools/list" => Ok(tools::list(ctx)),
        "tools/call" => tools::call(ctx, params).await,
        "resources/list" => Ok(resources::list(ctx)),
        "resources/templates/list" => Ok(resources::templates(ctx)),
        "resources/read" => resources::read(ctx, params).await,
        "prompts/list" => Ok(prompts::list(ctx)),
        "prompts/get" => prompts::get(ctx, params).await,
        "completion/complete" => completion::complete(ctx, params).await,
        other => {
            // 2026-07-28 answers unknown methods with 404; the 2025 era in a 200.
            let status = if stateless { StatusCode::NOT_FOUND } else { StatusCode::OK };
            Err(RpcError::new(status, METHOD_NOT_FOUND, format!("Method not found: {other}")))
        }
    }
}

fn capabilities_2026() -> Value {
    json!({ "tools": {}, "resources": {}, "prompts": {}, "completions": {} })
}

fn discover(ctx: &Context<'_>) -> Outcome {
    Outcome::cacheable(json!({
        "supportedVersions": SUPPORTED,
        "capabilities": capabilities_2026(),
        "instructions": instructions::for_caller(&ctx.caller.principal),
    }))
}

fn initialize(ctx: &Context<'_>) -> Outcome {
    Outcome::complete(json!({
        "protocolVersion": ctx.era.version(),
        "capabilities": {
            "tools": { "listChanged": false },
            "resources": { "subscribe": false, "listChanged": false },
            "prompts": { "listChanged": false },
            "completions": {},
        },
        "serverInfo": server_info(ctx.era),
        "instructions": instructions::for_caller(&ctx.caller.principal),
    }))
}
