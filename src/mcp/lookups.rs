//! The reads a confirmation question draws on besides its target (`x-mcp.confirm.reads`): each
//! a read-only operation taken in-process with arguments drawn from the call, the target or an
//! earlier read, e.g. the simulation of the agreement a create would make (the very answer
//! `agreements_simulate` gives for those terms), or the debtor a message goes to. codegen/confirm.rs
//! checks every read and expression at build time.

use serde_json::{Map, Value};

use super::arguments::split;
use super::context::{Context, step_up};
use super::dispatch::{document, succeeded};
use super::gate::Gate;
use super::tool_result::endpoint_result;
use super::wire::RpcError;
use crate::api::ApiError;
use crate::operations::{Confirm, ConfirmRead, Operation, by_operation_id};

/// Every read of `confirm`, by name (null when an argument it needs is absent, as
/// `args.agreement` is for a decision other than an agreement), or the answer to give instead
/// when one fails: the call itself would fail the same way, so nobody is asked about it.
pub async fn gather(
    ctx: &Context<'_>,
    confirm: &Confirm,
    args: &Map<String, Value>,
    target: &Value,
) -> Result<Result<Map<String, Value>, Gate>, RpcError> {
    let mut names = Map::new();
    names.insert("args".into(), Value::Object(args.clone()));
    names.insert("target".into(), target.clone());
    let mut reads = Map::new();
    for read in confirm.reads {
        let Some(op) = by_operation_id(read.operation) else { continue };
        if !ctx.caller.principal.may_run(op) {
            return Err(step_up(ctx, op));
        }
        let value = match read.each {
            None => match arguments(read, op, &names) {
                Some(arguments) => match call(ctx, op, &arguments).await? {
                    Ok(value) => value,
                    Err(gate) => return Ok(Err(gate)),
                },
                None => Value::Null,
            },
            Some((list, limit)) => {
                let items = eval(list, &names).and_then(Value::as_array).cloned().unwrap_or_default();
                let mut answers = Vec::new();
                for item in items.into_iter().take(limit) {
                    names.insert("item".into(), item);
                    let Some(arguments) = arguments(read, op, &names) else { continue };
                    match call(ctx, op, &arguments).await? {
                        Ok(value) => answers.push(value),
                        Err(gate) => return Ok(Err(gate)),
                    }
                }
                names.remove("item");
                Value::Array(answers)
            }
        };
        names.insert(read.name.into(), value.clone());
        reads.insert(read.name.into(), value);
    }
    Ok(Ok(reads))
}

/// The arguments of one read, and where each came from in the call's (`down_payment_amount` of
/// a decision's simulation is its `agreement.down_payment_amount`), or `None` when one it names
/// is absent.
fn arguments(read: &ConfirmRead, op: &Operation, names: &Map<String, Value>) -> Option<Arguments> {
    let mut values = Map::new();
    let mut origins = Vec::new();
    // The call's field an expression names (`args.agreement` -> `agreement`), if it is the call's.
    let of_call = |expression: &str| -> Option<String> {
        let rest = expression.strip_prefix("args")?;
        (rest.is_empty() || rest.starts_with('.')).then(|| rest.trim_start_matches('.').to_string())
    };
    for (argument, expression) in read.arguments {
        if *argument == "*" {
            // The fields of an object the read takes (the terms of an agreement, say).
            for (field, value) in eval(expression, names)?.as_object()? {
                if takes(op, field) {
                    values.insert(field.clone(), value.clone());
                    if let Some(parent) = of_call(expression).filter(|p| !p.is_empty()) {
                        origins.push((field.clone(), format!("{parent}.{field}")));
                    }
                }
            }
            continue;
        }
        let inner = expression.strip_prefix('[').and_then(|e| e.strip_suffix(']'));
        let value = match inner {
            Some(inner) => Value::Array(vec![eval(inner, names)?.clone()]),
            None => match expression.parse::<u64>() {
                Ok(number) => Value::from(number),
                Err(_) => eval(expression, names)?.clone(),
            },
        };
        if let Some(field) = of_call(inner.unwrap_or(expression)).filter(|f| f != argument) {
            if inner.is_some() {
                // The one item of a list made of the call's field is that field.
                origins.push((format!("{argument}[0]"), field.clone()));
            }
            origins.push(((*argument).to_string(), field));
        }
        values.insert((*argument).into(), value);
    }
    Some(Arguments { values, origins })
}

/// A read's arguments, and which of the call's fields each came from when it was renamed.
struct Arguments {
    values: Map<String, Value>,
    origins: Vec<(String, String)>,
}

/// A refusal of a read, its fields named as the call names them.
fn renamed(mut err: ApiError, origins: &[(String, String)]) -> ApiError {
    if let ApiError::Validation(fields) = &mut err {
        for field in fields {
            let origin = origins.iter().find_map(|(read, call)| {
                let rest = field.field.strip_prefix(read.as_str())?;
                (rest.is_empty() || rest.starts_with(['.', '['])).then(|| format!("{call}{rest}"))
            });
            if let Some(origin) = origin {
                field.field = origin;
            }
        }
    }
    err
}

/// Whether `op` takes an argument named `field`.
fn takes(op: &Operation, field: &str) -> bool {
    op.path_params.contains(&field)
        || op.query_params.iter().any(|q| q.name == field)
        || op.body.is_some_and(|b| b.fields.contains(&field))
}

/// The value a dotted expression names, when it is there and not null.
fn eval<'a>(expression: &str, names: &'a Map<String, Value>) -> Option<&'a Value> {
    let mut segments = expression.split('.');
    let mut value = names.get(segments.next()?)?;
    for segment in segments {
        value = match value {
            Value::Array(items) => items.get(segment.parse::<usize>().ok()?)?,
            other => other.get(segment)?,
        };
    }
    (!value.is_null()).then_some(value)
}

/// One read: its `data`, or the tool's answer when it fails.
async fn call(
    ctx: &Context<'_>,
    op: &'static Operation,
    arguments: &Arguments,
) -> Result<Result<Value, Gate>, RpcError> {
    let parts = split(op, &arguments.values);
    let answered = ctx
        .dispatcher
        .call(ctx.caller, op, &parts.path, &parts.query, parts.body.as_ref())
        .await
        .map_err(|err| renamed(err, &arguments.origins));
    if !succeeded(&answered) {
        return endpoint_result(ctx, op, &parts, answered).map(|outcome| Err(Gate::Answer(outcome)));
    }
    Ok(Ok(document(&answered).map(|j| j["data"].clone()).unwrap_or(Value::Null)))
}
