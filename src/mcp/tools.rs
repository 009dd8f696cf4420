//! tools/list and tools/call: the generated catalogue, filtered by scope, and in-process
//! dispatch of each call to its /v1 handler.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::{LazyLock, RwLock};

use serde_json::{Map, Value, json};

use super::arguments::{self, split};
use super::confirm;
use super::context::{Context, Outcome, allowed, on_this_path, step_up};
use super::gate::Gate;
use super::params::Params;
use super::tool_result::{endpoint_result, error_result};
use super::views;
use super::wire::RpcError;
use crate::api::{ApiError, FieldError};
use crate::domain::DomainError;
use crate::domain::json_numbers;
use crate::operations::{OPERATIONS, Operation, find_tool};

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

/// `tools/list`: the caller's tools on this path, in name order; descriptors never depend on the
/// caller. The answer depends only on the era and on which tools are shown (the caller's
/// scopes allow them and the path's toolsets hold them), so it is written once per (era, set of
/// tools) and kept (it was rebuilt from `Value` trees on every request). The cache is bounded
/// by the eras (3) times the scope combinations times the paths' tool sets.
pub fn list(ctx: &Context<'_>) -> Outcome {
    static WRITTEN: LazyLock<RwLock<HashMap<ListKey, bytes::Bytes>>> = LazyLock::new(Default::default);
    let mut shown = vec![0u64; OPERATIONS.len().div_ceil(64)];
    for (i, op) in OPERATIONS.iter().enumerate() {
        if shown_here(ctx, op) {
            shown[i / 64] |= 1 << (i % 64);
        }
    }
    let key = (ctx.era.version(), views::linked(ctx.era), shown);
    if let Some(text) = WRITTEN.read().unwrap_or_else(|p| p.into_inner()).get(&key) {
        return Outcome::finished(text.clone());
    }
    let text = bytes::Bytes::from(build_list(ctx).finish(ctx.era).to_string());
    WRITTEN.write().unwrap_or_else(|p| p.into_inner()).insert(key, text.clone());
    Outcome::finished(text)
}

/// The era's version, whether tools link their views, and a bit per operation shown.
type ListKey = (&'static str, bool, Vec<u64>);

/// Whether tools/list shows an operation: the path holds it and the caller may run it.
fn shown_here(ctx: &Context<'_>, op: &Operation) -> bool {
    on_this_path(ctx, op) && allowed(ctx, op)
}

/// `tools/list` built from the descriptors (what [`list`] keeps). Eras that have `_meta` get
/// the list's hash there, so a client that cached the list can tell it changed without
/// comparing every descriptor (one hash for the list rather than one a tool: the catalogue
/// budget). The hash is of the tools with their views linked, whether this client gets the
/// links or not: the same tools have the same hash in every era, and a change of view changes
/// it.
fn build_list(ctx: &Context<'_>) -> Outcome {
    let mut tools = listed(ctx, OPERATIONS.iter().zip(DESCRIPTORS.iter()));
    let hash = ctx.era.has_titles().then(|| catalogue_hash(&Value::Array(tools.clone())));
    if !views::linked(ctx.era) {
        for tool in &mut tools {
            tool.as_object_mut().map(|fields| fields.remove("_meta"));
        }
    }
    let mut result = json!({ "tools": tools });
    if let Some(hash) = hash {
        result["_meta"] = json!({ CATALOGUE_HASH_KEY: hash });
    }
    Outcome::cacheable(result)
}

/// The `_meta` key of a tools/list answer's hash.
pub const CATALOGUE_HASH_KEY: &str = "com.kobana/catalogue_hash";

/// The first 16 hex digits of the SHA-256 of the listed tools as compact JSON: the same list
/// (descriptors are written in one order, by the generator) gives the same hash on every build
/// and every server, and any change to a listed tool, or to which tools are listed, changes it.
fn catalogue_hash(tools: &Value) -> String {
    use sha2::Digest;
    let digest = sha2::Sha256::digest(tools.to_string().as_bytes());
    hex::encode(&digest[..8])
}

/// The descriptors of the tools the caller may run, as the era shows them, each linked to its
/// view where the era has `_meta` (src/mcp/views.rs). One per operation, under its tool name:
/// `x-mcp.aliases` answer tools/call but are never listed.
fn listed<'a>(ctx: &Context<'_>, tools: impl Iterator<Item = (&'a Operation, &'a Value)>) -> Vec<Value> {
    tools
        .filter(|(op, _)| shown_here(ctx, op))
        .map(|(op, descriptor)| {
            let mut descriptor = descriptor.clone();
            if let Some(meta) = views::tool_meta(op).filter(|_| views::era_has_meta(ctx.era)) {
                descriptor["_meta"] = meta;
            }
            // 2025-03-26 has no top-level title: it goes where that revision shows one. Nor has
            // it `_meta` on tools (the schema hash): that goes.
            if !ctx.era.has_titles()
                && let Some(fields) = descriptor.as_object_mut()
            {
                fields.remove("_meta");
                if let Some(title) = fields.remove("title") {
                    descriptor["annotations"]["title"] = title;
                }
            }
            descriptor
        })
        .collect()
}

/// `tools/call`; `raw` is the JSON-RPC body as received.
pub async fn call(ctx: &Context<'_>, params: &Params, raw: &[u8]) -> Result<Outcome, RpcError> {
    call_in(ctx, OPERATIONS, params, raw).await
}

/// [`call`] over a given operation table. The name is a tool name or one of its
/// `x-mcp.aliases` (a former name): either runs the same operation.
async fn call_in(
    ctx: &Context<'_>,
    operations: &'static [Operation],
    params: &Params,
    raw: &[u8],
) -> Result<Outcome, RpcError> {
    let name = params
        .get("name")
        .and_then(Value::as_str)
        .ok_or_else(|| RpcError::invalid_params("params.name is required"))?;
    // Bounded before anything looks at the arguments one by one: a fault in them is the tool's
    // VALIDATION_ERROR, anywhere else an invalid params.
    let shape = params.check_shape().map_err(|fault| {
        let in_arguments = fault.path() == "arguments" || fault.path().starts_with("arguments.");
        (fault, in_arguments)
    });
    if let Err((fault, false)) = &shape {
        return Err(RpcError::invalid_params(format!("Invalid params: {} {fault}", fault.path())));
    }
    // A tool this path does not hold is answered as one that does not exist (whatever the
    // token's scopes): a read-only path never runs a write.
    let op = find_tool(operations, name)
        .filter(|op| on_this_path(ctx, op))
        .ok_or_else(|| unknown_tool(ctx, name))?;
    if !allowed(ctx, op) {
        return Err(step_up(ctx, op));
    }
    // Borrowed as received: the object checked, split and confirmed is `params.arguments`.
    static NO_ARGUMENTS: LazyLock<Value> = LazyLock::new(|| Value::Object(Map::new()));
    static NO_ARGUMENT_MAP: LazyLock<Map<String, Value>> = LazyLock::new(Map::new);
    let (arguments, args) = match params.get("arguments") {
        None | Some(Value::Null) => (&*NO_ARGUMENTS, &*NO_ARGUMENT_MAP),
        Some(value @ Value::Object(map)) => (value, map),
        Some(_) => return Err(RpcError::invalid_params("params.arguments must be an object")),
    };
    if let Err((fault, _)) = shape {
        let field = fault.path().strip_prefix("arguments").unwrap_or_default().trim_start_matches('.');
        let field = if field.is_empty() { "arguments" } else { field };
        return Ok(error_result(ctx, &ApiError::field(field, fault.to_string())));
    }
    // `params` went through f64: a third decimal is judged on the bytes, like /v1 bodies. Only
    // a number written with a fraction or an exponent can have one, and serde_json reads exactly
    // those as f64: arguments without such a number need no scan of the bytes.
    let inexact = if has_fraction(arguments) { inexact_arguments(raw) } else { Vec::new() };
    if !inexact.is_empty() {
        return Ok(error_result(ctx, &ApiError::Validation(inexact)));
    }
    if let Err(fields) = arguments::check(op, arguments) {
        return Ok(error_result(ctx, &ApiError::Validation(fields)));
    }
    let split = split(op, args);
    let mut if_match = None;
    if op.confirm.is_some() {
        // Boxed: the confirmation flow's state and code stay out of a read's path.
        let gate: Pin<Box<dyn Future<Output = Result<Gate, RpcError>> + Send + '_>> =
            Box::pin(confirm::gate(ctx, op, args, &split, params));
        match gate.await? {
            Gate::Proceed(version) => if_match = version,
            Gate::Answer(outcome) => return Ok(outcome),
        }
    }
    // A confirmed call runs only on the version the user saw: a change in between is a 412.
    let answered = ctx
        .dispatcher
        .call_tool(ctx.caller, op, &split.path, &split.query, split.body.as_ref(), if_match)
        .await;
    endpoint_result(ctx, op, &split, answered)
}

/// -32602 for a tool name this path does not know; a narrower path says where the rest are.
fn unknown_tool(ctx: &Context<'_>, name: &str) -> RpcError {
    if ctx.tools.is_all() {
        return RpcError::invalid_params(format!("Unknown tool: {name}"));
    }
    RpcError::invalid_params(format!(
        "Unknown tool: {name} (this endpoint, {}, lists fewer tools; /mcp lists every one)",
        ctx.resource_path
    ))
}

/// Whether a value holds a number serde_json read as a float (written with a fraction or an
/// exponent, or too large for an integer).
fn has_fraction(value: &Value) -> bool {
    match value {
        Value::Number(n) => n.is_f64(),
        Value::Array(items) => items.iter().any(has_fraction),
        Value::Object(map) => map.values().any(has_fraction),
        Value::Null | Value::Bool(_) | Value::String(_) => false,
    }
}

/// The arguments of a tools/call body that are numbers with more than 2 decimals, named as the
/// tool's arguments are (`amount`, `installments.0.amount`).
fn inexact_arguments(raw: &[u8]) -> Vec<FieldError> {
    json_numbers::inexact_numbers(raw)
        .into_iter()
        .filter_map(|path| match path.as_slice() {
            [params, arguments, rest @ ..]
                if params == "params" && arguments == "arguments" && !rest.is_empty() =>
            {
                Some(FieldError::new(rest.join("."), DomainError::TooManyDecimals.to_string()))
            }
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::auth::{ALL_SCOPES, Principal, PrincipalData, ServerKey};
    use crate::mcp::dispatch::{Caller, Dispatcher};
    use crate::mcp::era::{Era, V2025_06};
    use crate::operations::ops;

    /// `x-mcp.aliases`: a tool renamed from `dunning_whoami` to `dunning_me` keeps answering
    /// under the old name, in-process down to the /v1 handler, and is listed under its new name
    /// only. (The real spec has no rename yet, so the table is `me` with an alias added.)
    #[tokio::test]
    async fn an_alias_answers_tools_call_under_the_old_name_and_is_not_listed() {
        let renamed: &'static [Operation] =
            Box::leak(Box::new([Operation { aliases: &["dunning_whoami"], ..*ops::ME }]));
        let descriptors: Vec<Value> =
            renamed.iter().map(|op| serde_json::from_str(op.descriptor).unwrap()).collect();

        let store = crate::store::Store::open("sqlite::memory:").await.unwrap();
        let org = crate::admin::create_organization(&store, "Org", "sandbox", None, false).await.unwrap();
        let key = ServerKey::load(&store, None).await.unwrap();
        let app = crate::app::App::with_limits(store, "http://127.0.0.1:8080", key, Default::default());
        let principal: Principal = PrincipalData {
            token_id: "tok_test".into(),
            organization_id: org.clone(),
            user_id: None,
            client_id: None,
            scopes: ALL_SCOPES.iter().map(|s| s.to_string()).collect(),
            audience: "all".into(),
            expires_at: time::OffsetDateTime::now_utc() + time::Duration::hours(1),
            zone: crate::domain::dates::Zone::default_zone(),
            pix_account: None,
            is_system: false,
        }
        .into();
        let caller = Caller { app: std::sync::Arc::new(app), principal, request_id: "req_test" };
        let (era, dispatcher) = (Era::Legacy { version: V2025_06 }, Dispatcher);
        let ctx = Context {
            caller: &caller,
            era: &era,
            dispatcher: &dispatcher,
            resource_path: "/mcp",
            tools: crate::toolsets::ToolFilter::ALL,
        };

        let names: Vec<Value> =
            listed(&ctx, renamed.iter().zip(&descriptors)).iter().map(|t| t["name"].clone()).collect();
        assert_eq!(names, [json!("dunning_me")], "the alias is not listed");

        let answer = |name: &str| {
            let params = json!({ "name": name, "arguments": {} });
            let raw =
                json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params }).to_string();
            let params = Params::from(params.as_object().unwrap().clone());
            let (ctx, era) = (&ctx, &era);
            async move {
                let outcome = call_in(ctx, renamed, &params, raw.as_bytes()).await?;
                let mut written = Vec::new();
                outcome.write_to(era, &mut written);
                Ok::<Value, RpcError>(serde_json::from_slice(&written).unwrap())
            }
        };
        // The answer without its clock reading, which moves between the two calls.
        let text = |result: Value| -> Value {
            assert!(result.get("isError").is_none(), "{result}");
            let text = result["content"][0]["text"].as_str().unwrap().to_string();
            let mut answer: Value = serde_json::from_str(&text).unwrap();
            assert!(answer["data"]["organization"]["now"].is_string(), "{answer}");
            answer["data"]["organization"]["now"] = Value::Null;
            answer
        };
        let by_alias = text(answer("dunning_whoami").await.expect("the old name answers"));
        let by_name = text(answer("dunning_me").await.expect("the new name answers"));
        assert_eq!(by_alias, by_name, "both names run the same operation");
        assert!(by_alias.to_string().contains(&org), "{by_alias}");
        let unknown = answer("dunning_whoareyou").await.expect_err("other names are unknown");
        assert!(unknown.message.contains("Unknown tool: dunning_whoareyou"), "{}", unknown.message);
    }

    #[test]
    fn every_number_the_scan_could_flag_is_read_as_a_float() {
        for written in
            ["1.005", "1.000", "1e-3", "1E2", "-0.125", "12345678901234567890123", "[1, {\"a\": 0.001}]"]
        {
            let value: Value = serde_json::from_str(written).unwrap();
            assert!(has_fraction(&value), "{written}");
        }
        for written in ["150", "-2", "\"1.005\"", "[1, {\"a\": true}]", "null"] {
            let value: Value = serde_json::from_str(written).unwrap();
            assert!(!has_fraction(&value), "{written}");
            assert!(json_numbers::inexact_numbers(written.as_bytes()).is_empty(), "{written}");
        }
    }
    #[test]
    fn only_arguments_are_judged_and_named_without_their_prefix() {
        let raw = br#"{"jsonrpc":"2.0","id":1.001,"method":"tools/call","params":{"name":"x",
            "_meta":{"progressToken":0.001},"arguments":{"amount":1.0000000000000000001,"fine_percentage":2.5,
            "items":[{"amount":1e-3}]}}}"#;
        let fields: Vec<String> = inexact_arguments(raw).into_iter().map(|f| f.field).collect();
        assert_eq!(fields, ["amount", "items.0.amount"]);
    }
}
