//! What must hold across the operations: tool names and aliases unique, confirmation targets
//! and completions that name operations able to serve them.

use std::collections::{BTreeMap, BTreeSet};

use super::{Op, Result, SpecError, is_list};

pub fn check_collisions(ops: &[Op]) -> Result<()> {
    let mut seen = BTreeSet::new();
    for op in ops {
        if !seen.insert(op.tool_name.as_str()) {
            return Err(SpecError::new(format!(
                "operation {}: tool name {} is used twice",
                op.operation_id, op.tool_name
            )));
        }
    }
    // An alias answers tools/call in place of a tool: it may name no tool and no other alias,
    // or one of the two would never be reached.
    let mut aliases = BTreeMap::new();
    for op in ops {
        for alias in &op.aliases {
            if seen.contains(alias.as_str()) {
                return Err(SpecError::new(format!(
                    "operation {}: x-mcp.aliases {alias} collides with the tool name {alias}",
                    op.operation_id
                )));
            }
            if let Some(other) = aliases.insert(alias.as_str(), op.operation_id.as_str()) {
                return Err(SpecError::new(format!(
                    "operation {}: x-mcp.aliases {alias} is also an alias of operation {other}",
                    op.operation_id
                )));
            }
        }
    }
    Ok(())
}

pub fn check_confirm_targets(ops: &[Op]) -> Result<()> {
    for op in ops {
        let Some(target) = op.confirm.as_ref().and_then(|c| c.target.as_deref()) else {
            continue;
        };
        let Some(read) = ops.iter().find(|o| o.operation_id == target) else {
            return Err(SpecError::new(format!(
                "operation {}: x-mcp.confirm.target {target} is not an operation",
                op.operation_id
            )));
        };
        let target_id = op.confirm.as_ref().and_then(|c| c.target_id.as_deref());
        let by_argument = target_id.is_some_and(|arg| {
            read.path_params.iter().all(|p| p == "id") && op.input_fields.iter().any(|f| f.name == arg)
        });
        if read.method != "get"
            || (!by_argument && read.path_params.iter().any(|p| !op.path_params.contains(p)))
        {
            return Err(SpecError::new(format!(
                "operation {}: x-mcp.confirm.target {target} must be a GET whose path parameters the operation has",
                op.operation_id
            )));
        }
    }
    Ok(())
}

/// `x-mcp.complete` names an argument of the operation and a list operation of the spec.
pub fn check_completions(ops: &[Op]) -> Result<()> {
    for op in ops {
        for (argument, list) in &op.complete {
            if !op.input_fields.iter().any(|f| &f.name == argument) {
                return Err(SpecError::new(format!(
                    "operation {}: x-mcp.complete names {argument}, which is not an argument",
                    op.operation_id
                )));
            }
            let is_list =
                ops.iter().any(|o| &o.operation_id == list && o.method == "get" && is_list(&o.query_params));
            if !is_list {
                return Err(SpecError::new(format!(
                    "operation {}: x-mcp.complete.{argument} names {list}, which is not a list operation",
                    op.operation_id
                )));
            }
        }
    }
    Ok(())
}
