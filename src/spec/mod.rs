//! `kobana-dunning spec diff`: every change between two specs to the tool contract (name,
//! inputSchema, annotations, scope) and to the /v1 contract (operations, parameters, bodies,
//! answers), each classified breaking or compatible:
//!
//! - breaking on arguments: a tool or operation removed or renamed, an argument removed or
//!   renamed, a new required argument, a type, format or constraint narrowed, an enum value
//!   removed;
//! - breaking on answers: a field removed, its type changed or widened, made nullable, or given
//!   a new enum value (narrowing breaks arguments, widening breaks answers, any other change
//!   both);
//! - breaking on behaviour: an annotation made less safe, a scope changed;
//! - compatible: everything else, which only adds; a rename that keeps the old name in
//!   `x-mcp.aliases` among it.
//!
//! What each event carries (`x-event-payloads`) reaches webhook receivers and `events_get`
//! callers: it is compared as an answer is, code by code, and a code no longer written breaks.
//!
//! Both specs are read by the generator's own model (codegen/model.rs, compiled here as build.rs
//! compiles it), so they are read exactly as the server that serves them was generated.

#[path = "../../codegen/confirm.rs"]
#[allow(dead_code)]
mod confirm;
#[path = "../../codegen/model.rs"]
#[allow(dead_code)]
mod model;
#[path = "../../codegen/schema.rs"]
#[allow(dead_code)]
mod schema;

mod change;
mod command;
mod compare;
mod contract;
mod git;
mod matching;
mod report;
mod schemas;

#[cfg(test)]
mod tests;

pub use change::{Change, Kind, Location};
pub use command::{DiffArgs, EXIT_BREAKING, EXIT_COMPATIBLE, EXIT_USAGE, run};
pub use report::Format;

/// A spec the generator refuses, or cannot parse.
#[derive(Debug)]
pub enum DiffError {
    /// The old spec.
    Old(String),
    /// The new spec.
    New(String),
}

/// Every change from the spec `old` to the spec `new` (YAML or JSON text), in tool-name order
/// (changes to the text rule, which concern every tool, first).
pub fn diff(old: &str, new: &str) -> Result<Vec<Change>, DiffError> {
    let old_endpoints = contract::read(old).map_err(DiffError::Old)?;
    let new_endpoints = contract::read(new).map_err(DiffError::New)?;
    let old_events = contract::read_events(old).map_err(DiffError::Old)?;
    let new_events = contract::read_events(new).map_err(DiffError::New)?;
    let mut changes = text_rule_changes(old, new);
    changes.extend(compare::compare(&old_endpoints, &new_endpoints));
    changes.extend(compare::events(&old_events, &new_events));
    Ok(changes)
}

/// Changes to the text rule, `x-text-patterns`: the patterns every plain text argument carries
/// in the REST spec. The generated schemas leave them to the text types (codegen/schema.rs), so
/// the contracts compared above do not show them, and a change to them changes what every text
/// argument accepts. Which way a pattern moved cannot be told, so any change but a removal (which
/// only widens) is breaking. Both texts have been read by the generator already.
fn text_rule_changes(old: &str, new: &str) -> Vec<Change> {
    let patterns = |text: &str| -> std::collections::BTreeMap<String, serde_json::Value> {
        yaml_serde::from_str::<serde_json::Value>(text)
            .ok()
            .and_then(|spec| spec.get("x-text-patterns")?.as_object().cloned())
            .map(|patterns| patterns.into_iter().collect())
            .unwrap_or_default()
    };
    let (old, new) = (patterns(old), patterns(new));
    let names: std::collections::BTreeSet<&String> = old.keys().chain(new.keys()).collect();
    let mut changes = Vec::new();
    for name in names {
        let (breaking, what) = match (old.get(name), new.get(name)) {
            (Some(o), Some(n)) if o == n => continue,
            (Some(_), Some(n)) => (true, format!("changed to {n}")),
            (None, Some(n)) => (true, format!("added: {n}")),
            (Some(_), None) => (false, "removed".to_string()),
            (None, None) => continue,
        };
        changes.push(Change {
            kind: Kind::ConstraintChanged,
            breaking,
            location: Location {
                tool: "every tool".into(),
                operation: "every text argument".into(),
                path: format!("/x-text-patterns/{name}"),
            },
            message: format!("the text rule's pattern {name} (on every text argument of its kind) {what}"),
        });
    }
    changes
}
