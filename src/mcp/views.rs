//! MCP App views (extension `io.modelcontextprotocol/ui`): the generated [`VIEWS`], linked from
//! their tools in tools/list, listed and read as `ui://` resources. A caller sees a view when it
//! sees one of the tools that name it, on this path: the same rule as the tools themselves.
//!
//! The link (`_meta.ui` on a tool) follows the era. A 2026-07-28 request carries the client's
//! capabilities, so the link goes only to a client that declares the extension with the view's
//! MIME type. A 2025-06-18 server is stateless here and cannot remember what `initialize` said,
//! so every tools/list carries it (a host without the extension ignores `_meta`); 2025-03-26 has
//! no `_meta` on tools and gets none.

use serde_json::{Value, json};

use super::context::{Context, Outcome, allowed, on_this_path};
use super::era::Era;
use crate::operations::{OPERATIONS, Operation, VIEWS, View};

/// The extension's identifier.
pub const EXTENSION: &str = "io.modelcontextprotocol/ui";
/// The MIME type of every view.
pub const MIME_TYPE: &str = "text/html;profile=mcp-app";

/// The extension as the server declares it under `capabilities.extensions` (the settings a
/// host declares, answered in kind: the one MIME type its views are).
pub fn capability() -> Value {
    json!({ EXTENSION: { "mimeTypes": [MIME_TYPE] } })
}

/// Whether the era's answers carry `_meta` (the capability, a tool's link, a read's settings):
/// every era but 2025-03-26.
pub fn era_has_meta(era: &Era) -> bool {
    era.has_titles()
}

/// Whether tools/list links the tools to their views for this request (the module's rule).
pub fn linked(era: &Era) -> bool {
    match era {
        Era::Stateless { capabilities } => capabilities
            .get("extensions")
            .and_then(|extensions| extensions.get(EXTENSION))
            .and_then(|settings| settings.get("mimeTypes"))
            .and_then(Value::as_array)
            .is_some_and(|types| types.iter().any(|t| t == MIME_TYPE)),
        Era::Legacy { .. } => era_has_meta(era),
    }
}

/// A tool's `_meta` when it has a view: the view, and both the model and the view may call the
/// tool (the specification's default, said rather than left to each host).
pub fn tool_meta(op: &Operation) -> Option<Value> {
    let uri = op.view_uri?;
    Some(json!({ "ui": { "resourceUri": uri, "visibility": ["model", "app"] } }))
}

/// Whether the caller sees a view: it may run a tool on this path that names it.
fn visible(ctx: &Context<'_>, view: &View) -> bool {
    OPERATIONS.iter().any(|op| op.view_uri == Some(view.uri) && on_this_path(ctx, op) && allowed(ctx, op))
}

/// The views the caller sees, as `resources/list` items.
pub fn resources<'a>(ctx: &'a Context<'a>) -> impl Iterator<Item = Value> + 'a {
    VIEWS.iter().filter(|view| visible(ctx, view)).map(|view| {
        let mut item = json!({
            "uri": view.uri,
            "name": view.name,
            "description": view.description,
            "mimeType": MIME_TYPE,
            "size": view.html.len(),
        });
        if ctx.era.has_titles() {
            item["title"] = json!(view.title);
        }
        item
    })
}

/// The view a URI names, if any.
pub fn find(uri: &str) -> Option<&'static View> {
    VIEWS.iter().find(|view| view.uri == uri)
}

/// `resources/read` of a view: the document, and how the host should frame it. No `csp`
/// domains: a view loads nothing from anywhere (build.rs refuses one that would). `None` for a
/// view the caller does not see, which the resources answer as any URI it cannot read.
pub fn read(ctx: &Context<'_>, view: &View) -> Option<Outcome> {
    if !visible(ctx, view) {
        return None;
    }
    let mut content = json!({ "uri": view.uri, "mimeType": MIME_TYPE, "text": view.html });
    if era_has_meta(ctx.era) {
        content["_meta"] = json!({ "ui": { "prefersBorder": true, "csp": {} } });
    }
    Some(Outcome::cacheable(json!({ "contents": [content] })))
}

#[cfg(test)]
mod tests {
    use serde_json::Map;

    use super::*;
    use crate::mcp::era::{V2025_03, V2025_06};

    fn stateless(capabilities: Value) -> Era {
        Era::Stateless { capabilities: capabilities.as_object().cloned().unwrap_or_else(Map::new) }
    }

    #[test]
    fn the_link_follows_the_era_and_the_declared_extension() {
        assert!(linked(&Era::Legacy { version: V2025_06 }));
        assert!(!linked(&Era::Legacy { version: V2025_03 }));
        assert!(!linked(&stateless(json!({}))));
        assert!(linked(&stateless(json!({ "extensions": capability() }))));
        for other in [
            json!({ "extensions": { EXTENSION: { "mimeTypes": ["text/html"] } } }),
            json!({ "extensions": { EXTENSION: {} } }),
            json!({ "extensions": { EXTENSION: { "mimeTypes": MIME_TYPE } } }),
            json!({ "extensions": { "io.modelcontextprotocol/other": { "mimeTypes": [MIME_TYPE] } } }),
        ] {
            assert!(!linked(&stateless(other.clone())), "{other}");
        }
    }

    #[test]
    fn every_view_is_named_by_a_tool_and_every_named_view_exists() {
        assert!(!VIEWS.is_empty());
        for view in VIEWS {
            assert!(view.uri.starts_with("ui://kobana-dunning/") && view.uri.ends_with(view.name));
            assert!(OPERATIONS.iter().any(|op| op.view_uri == Some(view.uri)), "{}", view.name);
            assert!(view.html.len() <= 65_536 && !view.html.contains("src=\"lib/"), "{}", view.name);
        }
        for op in OPERATIONS.iter().filter(|op| op.view_uri.is_some()) {
            assert!(op.view_uri.and_then(find).is_some(), "{}", op.operation_id);
        }
    }
}
