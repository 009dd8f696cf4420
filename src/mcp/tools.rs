//! tools/list and tools/call: the generated catalogue, filtered by scope, and in-process
//! dispatch of each call to its /v1 handler.

use std::collections::HashMap;
use std::sync::{Arc, LazyLock, RwLock};

use serde_json::{Map, Value, json};

use super::arguments::{self, split};
use super::confirm::{self, Gate};
use super::context::{Context, Outcome, allowed, step_up};
use super::tool_result::{endpoint_result, error_result};
use super::wire::RpcError;
use crate::api::{ApiError, FieldError};
use crate::domain::DomainError;
use crate::domain::json_numbers;
use crate::operations::{OPERATIONS, by_tool_name};

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
/// The answer depends only on the era and on which tools the caller's scopes allow, so it is
/// written once per (era, set of tools) and kept (issue 8: it was rebuilt from `Value` trees on
/// every request). The cache is bounded by the eras (3) times the scope combinations.
pub fn list(ctx: &Context<'_>) -> Outcome {
    static WRITTEN: LazyLock<RwLock<HashMap<ListKey, Arc<str>>>> = LazyLock::new(Default::default);
    let mut shown = vec![0u64; OPERATIONS.len().div_ceil(64)];
    for (i, op) in OPERATIONS.iter().enumerate() {
        if allowed(ctx, op) {
            shown[i / 64] |= 1 << (i % 64);
        }
    }
    let key = (ctx.era.version(), shown);
    if let Some(text) = WRITTEN.read().unwrap_or_else(|p| p.into_inner()).get(&key) {
        return Outcome::finished(text.clone());
    }
    let text: Arc<str> = build_list(ctx).finish(ctx.era).to_string().into();
    WRITTEN.write().unwrap_or_else(|p| p.into_inner()).insert(key, text.clone());
    Outcome::finished(text)
}

/// The era's version and a bit per operation the caller may run.
type ListKey = (&'static str, Vec<u64>);

/// `tools/list` built from the descriptors (what [`list`] keeps).
fn build_list(ctx: &Context<'_>) -> Outcome {
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

/// `tools/call`; `raw` is the JSON-RPC body as received.
pub async fn call(ctx: &Context<'_>, params: &Map<String, Value>, raw: &[u8]) -> Result<Outcome, RpcError> {
    let name = params
        .get("name")
        .and_then(Value::as_str)
        .ok_or_else(|| RpcError::invalid_params("params.name is required"))?;
    let op = by_tool_name(name).ok_or_else(|| RpcError::invalid_params(format!("Unknown tool: {name}")))?;
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
    // `params` went through f64: a third decimal is judged on the bytes, like /v1 bodies.
    let inexact = inexact_arguments(raw);
    if !inexact.is_empty() {
        return Ok(error_result(ctx, &ApiError::Validation(inexact)));
    }
    if let Err(fields) = arguments::check(op, arguments) {
        return Ok(error_result(ctx, &ApiError::Validation(fields)));
    }
    let split = split(op, args);
    let mut if_match = None;
    if op.confirm.is_some() {
        match confirm::gate(ctx, op, args, &split, params).await? {
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

    #[test]
    fn only_arguments_are_judged_and_named_without_their_prefix() {
        let raw = br#"{"jsonrpc":"2.0","id":1.001,"method":"tools/call","params":{"name":"x",
            "_meta":{"progressToken":0.001},"arguments":{"amount":1.0000000000000000001,"fine_percentage":2.5,
            "items":[{"amount":1e-3}]}}}"#;
        let fields: Vec<String> = inexact_arguments(raw).into_iter().map(|f| f.field).collect();
        assert_eq!(fields, ["amount", "items.0.amount"]);
    }
}
