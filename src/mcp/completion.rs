//! `completion/complete`: ids for prompt arguments and template variables, by id prefix,
//! debtor name or document, through the same /v1 list the caller could run: its `q` search where
//! it has one, else its pages filtered here by id prefix; only ids of objects the caller may read.

use serde_json::{Map, Value, json};

use super::context::{Context, Outcome, allowed};
use super::dispatch::{document, succeeded};
use super::params::Params;
use super::prompts::{PROMPTS, available};
use super::resources::resolve;
use super::wire::RpcError;
use crate::auth::visibility;
use crate::operations::{OPERATIONS, Operation, by_operation_id};

/// At most this many values per answer (the spec's limit).
const MAX_VALUES: usize = 100;
/// A list without a search (`q`) is read at most this many pages of `MAX_VALUES` for a prefix.
const MAX_SCANNED_PAGES: i64 = 10;

/// The list operation whose ids complete an operation's argument (`x-mcp.complete` of the spec).
fn completing_list(op: &Operation, argument: &str) -> Option<&'static Operation> {
    op.complete.iter().find(|(name, _)| *name == argument).and_then(|(_, list)| by_operation_id(list))
}

/// `completion/complete`
pub async fn complete(ctx: &Context<'_>, params: &Params) -> Result<Outcome, RpcError> {
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
    let value = value.trim();
    let (values, total, has_more) = match list.filter(|op| allowed(ctx, op)) {
        None => (Vec::new(), 0, false),
        Some(op) if value.is_empty() => searched(ctx, op, value).await,
        Some(op) if op.query_params.iter().any(|p| p.name == "q") => {
            // Names and documents through the list's search; the start of an id (`c`, `chg_`,
            // `chg_01a2`), too short for the search to take as one, from the newest pages.
            let (mut values, mut total, mut has_more) = searched(ctx, op, value).await;
            if looks_like_id_start(value) {
                let (ids, more, ids_more) = by_prefix(ctx, op, value).await;
                for id in ids {
                    if values.len() >= MAX_VALUES {
                        has_more = true;
                        break;
                    }
                    if !values.contains(&id) {
                        values.push(id);
                        total += 1;
                    }
                }
                total = total.max(more);
                has_more |= ids_more;
            }
            (values, total, has_more)
        }
        Some(op) => by_prefix(ctx, op, value).await,
    };
    // Only ids of objects the caller could read, whatever list they came from.
    let (values, total) = readable(ctx, values, total);
    Ok(Outcome::complete(json!({ "completion": { "values": values, "total": total, "hasMore": has_more } })))
}

/// The values naming objects the caller may read (`auth::visibility`), and the total less those
/// left out.
fn readable(ctx: &Context<'_>, mut values: Vec<Value>, total: i64) -> (Vec<Value>, i64) {
    let scopes = &ctx.caller.principal.scopes;
    let before = values.len();
    values.retain(|v| v.as_str().is_none_or(|id| visibility::sees_id(scopes, id)));
    let left_out = (before - values.len()) as i64;
    (values, (total - left_out).max(0))
}

/// Whether a value may be the first characters of an id (lower-case letters, digits and `_`).
fn looks_like_id_start(value: &str) -> bool {
    !value.is_empty() && value.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
}

/// One list call, its `q` (when given) doing the search: ids, total and whether there are more.
async fn searched(ctx: &Context<'_>, op: &'static Operation, value: &str) -> (Vec<Value>, i64, bool) {
    let mut query = Map::new();
    query.insert("per_page".into(), json!(MAX_VALUES));
    if !value.is_empty() {
        query.insert("q".into(), json!(value));
    }
    let answered = ctx.dispatcher.call(ctx.caller, op, &[], &query, None).await;
    let Some(body) = document(&answered).filter(|_| succeeded(&answered)) else {
        return (Vec::new(), 0, false);
    };
    let total = body["meta"]["total"].as_i64().unwrap_or(0);
    let values: Vec<Value> =
        body["data"].as_array().map(|d| d.iter().map(|o| o["id"].clone()).collect()).unwrap_or_default();
    let has_more = total > values.len() as i64;
    (values, total, has_more)
}

/// A list without `q` (policies, notifications, events) completes ids by prefix too: its pages
/// are read here, up to `MAX_SCANNED_PAGES`, and their ids filtered. `hasMore` when matches were
/// left out or pages were left unread.
async fn by_prefix(ctx: &Context<'_>, op: &'static Operation, value: &str) -> (Vec<Value>, i64, bool) {
    let prefix = value.to_ascii_lowercase();
    let mut values: Vec<Value> = Vec::new();
    let mut total: i64 = 0;
    for page in 1..=MAX_SCANNED_PAGES {
        let mut query = Map::new();
        query.insert("per_page".into(), json!(MAX_VALUES));
        query.insert("page".into(), json!(page));
        let answered = ctx.dispatcher.call(ctx.caller, op, &[], &query, None).await;
        let Some(body) = document(&answered).filter(|_| succeeded(&answered)) else { break };
        let data = body["data"].as_array().cloned().unwrap_or_default();
        for id in data.iter().filter_map(|o| o["id"].as_str()).filter(|id| id.starts_with(&prefix)) {
            total += 1;
            if values.len() < MAX_VALUES {
                values.push(json!(id));
            }
        }
        let listed = body["meta"]["total"].as_i64().unwrap_or(0);
        if values.len() >= MAX_VALUES {
            // A full answer: the rest are not counted, only announced.
            return (values, total.max(MAX_VALUES as i64), true);
        }
        if data.len() < MAX_VALUES || page * MAX_VALUES as i64 >= listed {
            let has_more = total > values.len() as i64;
            return (values, total, has_more);
        }
    }
    (values, total, true)
}
