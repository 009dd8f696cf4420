//! The narrower MCP endpoints, as GitHub's MCP server offers them: `/mcp/x/<toolset>` lists one
//! toolset's tools, `/mcp/x/<a>,<b>` the union of several, `/mcp/readonly` only the tools that
//! read, `/mcp/x/<toolsets>/readonly` both. Each is the same endpoint as `/mcp` (same auth, eras,
//! methods and confirmations) with a narrower tool list. The toolsets are the spec's
//! (`x-toolsets`, generated into [`TOOLSETS`]); this file reads the paths and says which tools
//! a path admits. Its own file at the bottom layer, because the MCP transport and the
//! authorization server (which tells a resource's metadata and audience) both read the paths.

use crate::operations::{Effect, Operation, TOOLSETS, ops};

/// The prefix of every MCP path but `/mcp` itself.
pub const MCP_PREFIX: &str = "/mcp/";

/// The tools an MCP endpoint lists and runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ToolFilter {
    /// A bit per toolset of [`TOOLSETS`] (by index); `None`: every toolset.
    sets: Option<u32>,
    /// Only the tools that read.
    read_only: bool,
}

/// Why a path under `/mcp/` is no MCP endpoint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PathError {
    /// `/mcp/x/…` names toolsets there are not (or an empty name).
    UnknownToolsets(Vec<String>),
    /// Not one of the forms at all.
    NotAnEndpoint,
}

impl ToolFilter {
    /// `/mcp` (and `POST /`): every tool.
    pub const ALL: Self = Self { sets: None, read_only: false };

    /// Whether the endpoint lists and runs `op`. `dunning_me` is on every endpoint: the server
    /// instructions ask the model to call it first (the organization, the scopes, today's date).
    pub fn admits(&self, op: &Operation) -> bool {
        if self.read_only && op.effect != Effect::Read {
            return false;
        }
        match self.sets {
            None => true,
            Some(sets) => sets & bit_of(op.toolset) != 0 || op.operation_id == ops::ME.operation_id,
        }
    }

    /// Whether this is `/mcp` itself: nothing narrowed.
    pub fn is_all(&self) -> bool {
        *self == Self::ALL
    }

    /// Whether only the tools that read are admitted.
    pub fn is_read_only(&self) -> bool {
        self.read_only
    }

    /// The toolsets admitted, in [`TOOLSETS`] order; `None`: every one.
    pub fn toolsets(&self) -> Option<Vec<&'static str>> {
        let sets = self.sets?;
        Some(TOOLSETS.iter().enumerate().filter(|(i, _)| sets & (1 << i) != 0).map(|(_, s)| s.name).collect())
    }
}

/// The bit of a toolset by name (none for a name not in the table: the generator refuses one).
fn bit_of(name: &str) -> u32 {
    TOOLSETS.iter().position(|s| s.name == name).map_or(0, |i| 1 << i)
}

/// The tools a path serves: `/mcp`, `/mcp/readonly`, `/mcp/x/<toolsets>` or
/// `/mcp/x/<toolsets>/readonly`, toolsets comma-separated. A toolset named twice counts once.
pub fn parse(path: &str) -> Result<ToolFilter, PathError> {
    if path == "/mcp" {
        return Ok(ToolFilter::ALL);
    }
    let rest = path.strip_prefix(MCP_PREFIX).ok_or(PathError::NotAnEndpoint)?;
    if rest == "readonly" {
        return Ok(ToolFilter { sets: None, read_only: true });
    }
    let list = rest.strip_prefix("x/").ok_or(PathError::NotAnEndpoint)?;
    let (list, read_only) = match list.split_once('/') {
        None => (list, false),
        Some((list, "readonly")) => (list, true),
        Some(_) => return Err(PathError::NotAnEndpoint),
    };
    // A client may write the commas percent-encoded.
    let decoded;
    let list = if list.contains('%') {
        decoded = list.replace("%2C", ",").replace("%2c", ",");
        decoded.as_str()
    } else {
        list
    };
    let mut sets = 0u32;
    let mut unknown = Vec::new();
    for name in list.split(',') {
        match TOOLSETS.iter().position(|s| s.name == name) {
            Some(i) => sets |= 1 << i,
            None => unknown.push(name.to_string()),
        }
    }
    if !unknown.is_empty() {
        return Err(PathError::UnknownToolsets(unknown));
    }
    Ok(ToolFilter { sets: Some(sets), read_only })
}

/// Every toolset's name, in [`TOOLSETS`] order, comma-separated.
pub fn names() -> String {
    TOOLSETS.iter().map(|s| s.name).collect::<Vec<_>>().join(", ")
}

impl PathError {
    /// What the 404 says: the forms of the paths and the toolsets there are.
    pub fn message(&self) -> String {
        let forms = "/mcp, /mcp/readonly, /mcp/x/<toolsets> or /mcp/x/<toolsets>/readonly, toolsets \
                     comma-separated";
        match self {
            Self::UnknownToolsets(unknown) => {
                let quoted: Vec<String> = unknown.iter().map(|n| format!("{n:?}")).collect();
                format!("Not found: no toolset {}; the toolsets are {} ({forms})", quoted.join(", "), names())
            }
            Self::NotAnEndpoint => {
                format!("Not found: the MCP endpoints are {forms}; the toolsets are {}", names())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::operations::OPERATIONS;

    fn listed(path: &str) -> Vec<&'static str> {
        let filter = parse(path).unwrap();
        OPERATIONS.iter().filter(|op| filter.admits(op)).map(|op| op.operation_id).collect()
    }

    #[test]
    fn every_operation_is_in_exactly_one_toolset() {
        for op in OPERATIONS {
            let holders: Vec<&str> =
                TOOLSETS.iter().filter(|s| s.tags.contains(&op.tag)).map(|s| s.name).collect();
            assert_eq!(holders, [op.toolset], "{}", op.operation_id);
        }
        let mut seen: Vec<&str> = Vec::new();
        for set in TOOLSETS {
            seen.extend(listed(&format!("/mcp/x/{}", set.name)).into_iter().filter(|id| *id != "me"));
        }
        seen.push("me");
        seen.sort_unstable();
        let mut all: Vec<&str> = OPERATIONS.iter().map(|op| op.operation_id).collect();
        all.sort_unstable();
        assert_eq!(seen, all, "the toolsets cover every tool once");
    }

    #[test]
    fn paths_name_toolsets_their_union_and_reads() {
        assert!(parse("/mcp").unwrap().is_all());
        let charges = listed("/mcp/x/charges");
        assert!(charges.contains(&"charges_cancel") && charges.contains(&"notifications_list"));
        assert!(charges.contains(&"me"), "dunning_me is everywhere");
        assert!(!charges.contains(&"debtors_get"));
        let union = listed("/mcp/x/charges,debtors");
        assert_eq!(union.len(), charges.len() + listed("/mcp/x/debtors").len() - 1);
        assert_eq!(listed("/mcp/x/debtors,charges,debtors"), union, "order and repeats do not matter");
        assert_eq!(listed("/mcp/x/charges%2Cdebtors"), union, "an encoded comma is a comma");
        let reads = listed("/mcp/readonly");
        assert!(
            reads.iter().all(|id| crate::operations::by_operation_id(id).unwrap().effect == Effect::Read)
        );
        assert_eq!(reads.len(), OPERATIONS.iter().filter(|op| op.effect == Effect::Read).count());
        let both = listed("/mcp/x/charges/readonly");
        assert!(both.contains(&"charges_list") && !both.contains(&"charges_cancel"));
        assert_eq!(parse("/mcp/x/charges/readonly").unwrap().toolsets(), Some(vec!["charges"]));
    }

    #[test]
    fn other_paths_are_refused_naming_the_toolsets() {
        assert_eq!(parse("/mcp/x/charges,nope"), Err(PathError::UnknownToolsets(vec!["nope".into()])));
        assert_eq!(parse("/mcp/x/"), Err(PathError::UnknownToolsets(vec![String::new()])));
        assert_eq!(parse("/mcp/x/charges,"), Err(PathError::UnknownToolsets(vec![String::new()])));
        for path in ["/mcp/", "/mcp/x", "/mcp/y/charges", "/mcp/x/charges/", "/mcp/x/charges/write", "/mcpx"]
        {
            assert_eq!(parse(path), Err(PathError::NotAnEndpoint), "{path}");
        }
        let message = PathError::UnknownToolsets(vec!["nope".into()]).message();
        assert!(message.contains("\"nope\"") && message.contains(&names()), "{message}");
    }
}
