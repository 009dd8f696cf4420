//! `x-toolsets`: the groups of tags served alone at `/mcp/x/<name>`, and the one each operation
//! is in.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::Value;

use super::{Op, Result, SpecError, Toolset};

/// The most toolsets there may be: an endpoint's choice of them is a bit set in a `u32`.
pub const MAX_TOOLSETS: usize = 32;

/// `x-toolsets`: every declared tag in exactly one toolset, so every operation is in exactly
/// one; each operation's `toolset` is set here. A spec without it (one written before toolsets,
/// which `spec diff` reads as a base) has none: the generator refuses that (`render`).
pub fn toolsets(extension: Option<&Value>, declared: &[&str], ops: &mut [Op]) -> Result<Vec<Toolset>> {
    let fail = |msg: String| SpecError::new(format!("x-toolsets: {msg}"));
    let Some(extension) = extension else { return Ok(Vec::new()) };
    let entries: BTreeMap<String, Toolset> =
        BTreeMap::deserialize(extension).map_err(|e| fail(e.to_string()))?;
    if entries.is_empty() || entries.len() > MAX_TOOLSETS {
        return Err(fail(format!("between 1 and {MAX_TOOLSETS} toolsets, not {}", entries.len())));
    }
    let mut holder: BTreeMap<&str, &str> = BTreeMap::new();
    for (name, set) in &entries {
        // A name is one segment of a URL path and one item of a comma-separated list.
        let well_formed = !name.is_empty()
            && name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
            && name != "readonly";
        if !well_formed {
            return Err(fail(format!("{name:?} is not a toolset name (snake_case, not `readonly`)")));
        }
        if set.tags.is_empty() || set.description.trim().is_empty() {
            return Err(fail(format!("{name} needs tags and a description")));
        }
        for tag in &set.tags {
            if !declared.contains(&tag.as_str()) {
                return Err(fail(format!("{name} names tag {tag}, which the document does not declare")));
            }
            if let Some(other) = holder.insert(tag, name) {
                return Err(fail(format!("tag {tag} is in both {other} and {name}")));
            }
        }
    }
    if let Some(tag) = declared.iter().find(|t| !holder.contains_key(*t)) {
        return Err(fail(format!("tag {tag} is in no toolset")));
    }
    for op in ops.iter_mut() {
        let mut sets: Vec<&str> = op.tags.iter().filter_map(|t| holder.get(t.as_str()).copied()).collect();
        sets.sort_unstable();
        sets.dedup();
        match (sets.as_slice(), op.tags.iter().find(|t| !holder.contains_key(t.as_str()))) {
            ([set], None) => op.toolset = set.to_string(),
            (_, Some(tag)) => {
                return Err(fail(format!("operation {} has tag {tag}, in no toolset", op.operation_id)));
            }
            _ => {
                return Err(fail(format!(
                    "operation {} is in {} toolsets ({}): its tags must be in one",
                    op.operation_id,
                    sets.len(),
                    sets.join(", ")
                )));
            }
        }
    }
    Ok(entries.into_iter().map(|(name, set)| Toolset { name, ..set }).collect())
}
