//! `completion/complete`: ids for prompt arguments and template variables, by id prefix,
//! debtor name or document, through the same /v1 list the caller could run.

use serde_json::{Map, Value, json};

use super::context::{Context, Outcome, allowed};
use super::prompts::{PROMPTS, available};
use super::resources::resolve;
use super::wire::RpcError;
use crate::operations::{OPERATIONS, Operation, by_operation_id};

/// At most this many values per answer (the spec's limit).
const MAX_VALUES: usize = 100;

/// The list operation whose ids complete an operation's argument (`x-mcp.complete` of the spec).
fn completing_list(op: &Operation, argument: &str) -> Option<&'static Operation> {
    op.complete.iter().find(|(name, _)| *name == argument).and_then(|(_, list)| by_operation_id(list))
}

/// `completion/complete`
pub async fn complete(ctx: &Context<'_>, params: &Map<String, Value>) -> Result<Outcome, RpcError> {
    let reference = params.get("ref").ok_or_else(|| RpcError::invalid_params("params.ref is required"))?;
    let argument =
        params.get("argument").ok_or_else(|| RpcError::invalid_params("params.argument is required"))?;
    let name = argument.get("name").and_then(Value::as_str).unwrap_or_default();
    let value = argument.get("value").and_then(Value::as_str).unwrap_or_default();
    let list = match reference.get("type").and_then(Value::as_str) {
        Some("ref/prompt") => {
            let prompt_name = reference.get("name").and_then(Value::as_str).unwrap_or_default();
            let prompt = PROMPTS
                .iter()
                .find(|p| p.name == prompt_name && available(ctx, p))
                .ok_or_else(|| RpcError::invalid_params(format!("Unknown prompt: {prompt_name}")))?;
            let argument = prompt.arguments.iter().find(|a| a.name == name).ok_or_else(|| {
                RpcError::invalid_params(format!("Prompt {prompt_name} has no argument {name}"))
            })?;
            argument.passed_to.and_then(|(op, parameter)| completing_list(op, parameter))
        }
        Some("ref/resource") => {
            let uri = reference.get("uri").and_then(Value::as_str).unwrap_or_default();
            let op = OPERATIONS
                .iter()
                .find(|op| op.resource_uri == Some(uri))
                .or_else(|| resolve(uri).map(|(op, _)| op))
                .ok_or_else(|| RpcError::invalid_params(format!("Unknown resource template: {uri}")))?;
            completing_list(op, name)
        }
        _ => return Err(RpcError::invalid_params("params.ref.type must be ref/prompt or ref/resource")),
    };
    let mut values: Vec<Value> = Vec::new();
    let mut total = 0;
    if let Some(op) = list.filter(|op| allowed(ctx, op)) {
        let mut query = Map::new();
        query.insert("per_page".into(), json!(MAX_VALUES));
        if !value.trim().is_empty() {
            query.insert("q".into(), json!(value.trim()));
        }
        let answer = ctx.dispatcher.call(ctx.caller, op, &[], &query, None).await;
        if let Some(body) = answer.json().filter(|_| answer.status.is_success()) {
            total = body["meta"]["total"].as_i64().unwrap_or(0);
            values = body["data"]
                .as_array()
                .map(|d| d.iter().map(|o| o["id"].clone()).collect())
                .unwrap_or_default();
        }
    }
    let has_more = total > values.len() as i64;
    Ok(Outcome::complete(json!({ "completion": { "values": values, "total": total, "hasMore": has_more } })))
}
