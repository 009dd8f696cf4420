//! `kobana-dunning spec diff`: every change between two specs to the tool contract (name,
//! inputSchema, annotations, scope) and to the /v1 contract (operations, parameters, bodies,
//! answers), each classified breaking or compatible (issue 10):
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
//! Both specs are read by the generator's own model (codegen/model.rs, compiled here as build.rs
//! compiles it), so they are read exactly as the server that serves them was generated.

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

/// Every change from the spec `old` to the spec `new` (YAML or JSON text), in tool-name order.
pub fn diff(old: &str, new: &str) -> Result<Vec<Change>, DiffError> {
    let old = contract::read(old).map_err(DiffError::Old)?;
    let new = contract::read(new).map_err(DiffError::New)?;
    Ok(compare::compare(&old, &new))
}
