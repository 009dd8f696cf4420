//! An operation's `x-mcp` block: what its tool is (effect, scopes, confirmation, aliases, view,
//! description), read and checked.

use std::collections::BTreeMap;

use openapiv3::Operation;
use serde::Deserialize;

use super::{Confirm, Effect, KNOWN_SCOPES, MAX_TOOL_NAME, TOOL_PREFIX, is_view_name};

/// `x-mcp.scope`: one scope (or `any`), or the list of every scope the operation needs.
#[derive(Deserialize)]
#[serde(untagged)]
enum Scopes {
    One(String),
    Many(Vec<String>),
}

/// The `x-mcp` block of an operation. Unknown keys are refused, so a typo such as
/// `resouce: false` fails the build instead of being silently ignored.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct XMcp {
    effect: Effect,
    idempotent: bool,
    scope: Scopes,
    /// A scope some calls need besides, by the state of the object (the description says
    /// when): checked by the handler from the table, not by the listing.
    #[serde(default)]
    conditional_scope: Option<String>,
    #[serde(default)]
    confirm: Option<Confirm>,
    #[serde(default)]
    resource: Option<bool>,
    /// Argument name -> the list operation whose ids complete it.
    #[serde(default)]
    complete: BTreeMap<String, String>,
    /// Former tool names that still answer tools/call (hidden from tools/list), so a rename
    /// does not break clients that kept the old name.
    #[serde(default)]
    aliases: Vec<String>,
    /// What the tool's descriptor says beyond its title and schema (the catalogue budget): what
    /// a model must know before it calls, in a sentence. None when the title says it all.
    #[serde(default)]
    description: Option<String>,
    /// The arguments whose spec description the tool's descriptor keeps: those whose meaning
    /// neither their name, type and enum nor the server instructions tell.
    #[serde(default)]
    describe: Vec<String>,
    /// The MCP App view (`ui/<view>.html`) that shows the tool's result (codegen/views.rs).
    #[serde(default)]
    view: Option<String>,
}

/// What `x-mcp` says of an operation, checked: the [`Op`](super::Op) fields of the same names,
/// and whether a GET opted out of being a resource (`resource: false`).
pub struct Extension {
    pub effect: Effect,
    pub idempotent: bool,
    pub confirm: Option<Confirm>,
    pub resource_opt_out: bool,
    pub scope: Option<String>,
    pub further_scopes: Vec<String>,
    pub conditional_scope: Option<String>,
    pub complete: BTreeMap<String, String>,
    pub aliases: Vec<String>,
    pub view: Option<String>,
    pub tool_description: String,
    pub describe: Vec<String>,
}

/// Reads the operation's `x-mcp` block; `title` is its summary, which the tool's description
/// may not repeat.
pub fn read(operation: &Operation, title: &str) -> Result<Extension, String> {
    let x_mcp = operation.extensions.get("x-mcp").ok_or("missing x-mcp block")?;
    let x_mcp = XMcp::deserialize(x_mcp).map_err(|e| format!("x-mcp: {e}"))?;
    let effect = x_mcp.effect;
    let scopes = scopes(x_mcp.scope)?;
    let conditional_scope = x_mcp.conditional_scope;
    if let Some(extra) = &conditional_scope
        && (extra == "any" || !KNOWN_SCOPES.contains(&extra.as_str()) || scopes.contains(extra))
    {
        return Err(format!("x-mcp.conditional_scope {extra} is not a scope the operation lacks"));
    }
    let confirm = confirm(effect, x_mcp.confirm)?;
    check_aliases(&x_mcp.aliases)?;
    check_view(x_mcp.view.as_deref())?;
    let tool_description = tool_description(x_mcp.description, title)?;
    Ok(Extension {
        effect,
        idempotent: x_mcp.idempotent,
        confirm,
        resource_opt_out: x_mcp.resource == Some(false),
        scope: scopes.first().filter(|s| *s != "any").cloned(),
        further_scopes: scopes[1..].to_vec(),
        conditional_scope,
        complete: x_mcp.complete,
        aliases: x_mcp.aliases,
        view: x_mcp.view,
        tool_description,
        describe: x_mcp.describe,
    })
}

/// `x-mcp.scope` as a list: known scopes, each named once, or `any` alone.
fn scopes(scope: Scopes) -> Result<Vec<String>, String> {
    let scopes = match scope {
        Scopes::One(scope) => vec![scope],
        Scopes::Many(scopes) => scopes,
    };
    for (i, scope) in scopes.iter().enumerate() {
        if !KNOWN_SCOPES.contains(&scope.as_str()) {
            return Err(format!("x-mcp.scope {scope} is not a known scope"));
        }
        if scopes[..i].contains(scope) {
            return Err(format!("x-mcp.scope names {scope} twice"));
        }
    }
    if scopes.is_empty() || (scopes.len() > 1 && scopes.iter().any(|s| s == "any")) {
        return Err("x-mcp.scope is `any`, one scope or a list of scopes".into());
    }
    Ok(scopes)
}

/// `x-mcp.confirm`: every destructive operation has one, and no other operation.
fn confirm(effect: Effect, confirm: Option<Confirm>) -> Result<Option<Confirm>, String> {
    match confirm {
        None if effect == Effect::Destructive => Err("destructive operations need x-mcp.confirm".into()),
        None => Ok(None),
        Some(_) if effect != Effect::Destructive => {
            Err("x-mcp.confirm is only for destructive operations".into())
        }
        Some(c) => Ok(Some(c)),
    }
}

/// `x-mcp.aliases`: each a tool name clients could have called.
fn check_aliases(aliases: &[String]) -> Result<(), String> {
    for alias in aliases {
        let well_formed = alias.strip_prefix(TOOL_PREFIX).is_some_and(|rest| {
            !rest.is_empty() && rest.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        });
        if !well_formed || alias.len() > MAX_TOOL_NAME {
            return Err(format!(
                "x-mcp.aliases: {alias} is not a tool name ({TOOL_PREFIX} and snake_case, at most \
                 {MAX_TOOL_NAME} characters: the name clients called)"
            ));
        }
    }
    Ok(())
}

/// `x-mcp.view`. A view's name is a file name (`ui/<name>.html`) and the last segment of its
/// `ui://` URI: lowercase words joined by hyphens keep it both.
fn check_view(view: Option<&str>) -> Result<(), String> {
    if let Some(name) = view
        && !is_view_name(name)
    {
        return Err(format!(
            "x-mcp.view {name} is not a view name (lowercase letters and digits, words joined by `-`)"
        ));
    }
    Ok(())
}

/// `x-mcp.description`, read beside the title: it says what the title cannot, in a sentence. MCP
/// clients require one (the conformance suite checks it), so the generator refuses a tool without
/// it (`render`); here only an empty one is refused, since `spec diff` also reads specs written
/// before it was required.
fn tool_description(description: Option<String>, title: &str) -> Result<String, String> {
    let given = description.is_some();
    let tool_description = description.map(|d| d.trim().to_string()).unwrap_or_default();
    if given && tool_description.is_empty() {
        return Err("x-mcp.description is missing or empty: every tool describes itself".into());
    }
    if tool_description == title {
        return Err("x-mcp.description repeats the title: say what the title cannot".into());
    }
    Ok(tool_description)
}
