//! The layers of docs/ARCHITECTURE.md ("Layers"), checked on the source so that later work keeps
//! them.
//!
//! Every `crate::…` and `super::…` path in src/ (imports and inline paths alike; `#[cfg(test)]`
//! items excluded) is an edge from the file it is written in to the module it names. Top-level
//! modules sit in layers and an edge may only run down or sideways; files of one directory may not
//! import each other in a circle; the MCP layer never reaches the store. The source is read as
//! tokens (proc-macro2), so comments and strings never count.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::str::FromStr;

use proc_macro2::{Delimiter, TokenStream, TokenTree};

/// Top-level modules, highest layer first. An edge may run to its own layer or a lower one.
/// `app` (the shared state every handler is given, holding auth's key and the store) sits under
/// the layers that carry it and above `auth`, which reaches it only through `auth::AuthState`.
/// `oauth` (the authorization server and its pages) sits beside `auth`, and reaches the state
/// through `oauth::OAuthHost` alike; `approvals` (the approval page, built on its sign-in) sits
/// beside `app`. `priority` (the background thread's CPU priority) sits at the bottom, under the
/// store, whose locks lift it. `outbound` (what leaves the server: messages, webhook deliveries,
/// export files), `changes` (a change made for someone with its events: a charge's, the withdrawal
/// it brings, a payment heard of) and `views` (the objects as answers and events show them) sit
/// under `api`, which uses them.
const LAYERS: &[&[&str]] = &[
    &["lib", "server", "admin", "demo", "housekeeping", "logs", "engine", "receiver", "payments_import"],
    &["mcp"],
    &["api"],
    &["outbound", "changes"],
    &["views"],
    &["app", "approvals"],
    &["auth", "oauth"],
    &["http", "error", "request", "documents"],
    &["store", "limits", "metrics", "providers"],
    &["domain", "types", "operations", "toolsets", "allocator", "priority"],
];

/// Edges forbidden although they run down: MCP gets its data through /v1, never the store; the
/// work beside the API (the engine, the demo, housekeeping, what leaves the server, the payment
/// receiver and imports) reaches what it shares with it through the layers below, never the API
/// itself.
const FORBIDDEN: &[(&str, &str)] = &[
    ("mcp", "store"),
    ("engine", "api"),
    ("demo", "api"),
    ("housekeeping", "api"),
    ("outbound", "api"),
    ("receiver", "api"),
    ("payments_import", "api"),
];

/// One source file: its module path (`["mcp", "tools"]`; `[]` for lib.rs) and its tokens.
struct File {
    module: Vec<String>,
    tokens: Vec<TokenTree>,
}

fn is_sep(t: &[TokenTree], i: usize) -> bool {
    matches!(
        (t.get(i), t.get(i + 1)),
        (Some(TokenTree::Punct(a)), Some(TokenTree::Punct(b))) if a.as_char() == ':' && b.as_char() == ':'
    )
}

/// Reads `a::b::{c, d::e}` starting at `i` (after `prefix`); the full paths and where it ends.
fn read_path(t: &[TokenTree], mut i: usize, mut prefix: Vec<String>) -> (Vec<Vec<String>>, usize) {
    loop {
        match t.get(i) {
            Some(TokenTree::Ident(id)) => {
                prefix.push(id.to_string());
                i += 1;
            }
            Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Brace => {
                let inner: Vec<TokenTree> = g.stream().into_iter().collect();
                let mut all = Vec::new();
                for item in inner.split(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == ',')) {
                    if !item.is_empty() {
                        all.extend(read_path(item, 0, prefix.clone()).0);
                    }
                }
                return (all, i + 1);
            }
            _ => return (vec![prefix], i),
        }
        if is_sep(t, i) {
            i += 2;
        } else {
            return (vec![prefix], i);
        }
    }
}

fn is_cfg_test(group: &TokenTree) -> bool {
    matches!(group, TokenTree::Group(g) if g.delimiter() == Delimiter::Bracket
        && g.stream().to_string().replace(' ', "") == "cfg(test)")
}

/// Where the item whose `#[cfg(test)]` starts at `i` ends: its body or its `;`.
fn end_of_test_item(t: &[TokenTree], mut i: usize) -> usize {
    i += 2;
    while i < t.len() {
        match &t[i] {
            TokenTree::Group(g) if g.delimiter() == Delimiter::Brace => break,
            TokenTree::Punct(p) if p.as_char() == ';' => break,
            _ => i += 1,
        }
    }
    i
}

/// The `crate::`/`super::` paths of a token list, and the `use child::…` of a `mod.rs`.
fn paths(t: &[TokenTree], children: &BTreeSet<String>, out: &mut Vec<Vec<String>>) {
    let mut i = 0;
    while i < t.len() {
        match &t[i] {
            // A test-only item: skip its attributes and its body.
            TokenTree::Punct(p) if p.as_char() == '#' && t.get(i + 1).is_some_and(is_cfg_test) => {
                i = end_of_test_item(t, i);
            }
            TokenTree::Ident(id) if (id == "crate" || id == "super") && is_sep(t, i + 1) => {
                let (found, next) = read_path(t, i, Vec::new());
                out.extend(found);
                i = next;
                continue;
            }
            TokenTree::Ident(id) if id == "use" => {
                if let Some(TokenTree::Ident(first)) = t.get(i + 1)
                    && children.contains(&first.to_string())
                {
                    let (found, next) = read_path(t, i + 1, vec!["self".into()]);
                    out.extend(found);
                    i = next;
                    continue;
                }
            }
            TokenTree::Group(g) => {
                let inner: Vec<TokenTree> = g.stream().into_iter().collect();
                paths(&inner, children, out);
            }
            _ => {}
        }
        i += 1;
    }
}

/// A path made absolute from the module it is written in.
fn absolute(module: &[String], path: &[String]) -> Vec<String> {
    // In `a/b.rs` (module a::b) `super` is `a`; in `a/mod.rs` (module a) it is the root.
    let mut base: Vec<String> = module.to_vec();
    let mut rest = path;
    match rest.first().map(String::as_str) {
        Some("crate") => {
            base.clear();
            rest = &rest[1..];
        }
        Some("self") => rest = &rest[1..],
        _ => {}
    }
    while rest.first().is_some_and(|s| s == "super") {
        base.pop();
        rest = &rest[1..];
    }
    base.extend(rest.iter().filter(|s| *s != "self").cloned());
    base
}

/// Every file under `src/`, parsed into tokens.
fn read_sources(root: &Path) -> Vec<File> {
    let mut files = Vec::new();
    let mut dirs = vec![root.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("src/ is readable") {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                dirs.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let relative = path.strip_prefix(root).expect("under src/");
            let mut module: Vec<String> =
                relative.with_extension("").iter().map(|s| s.to_string_lossy().into_owned()).collect();
            if module.last().is_some_and(|m| m == "mod") || module == ["lib"] {
                module.pop();
            }
            // The binary names the library by its crate name; it sits on top anyway.
            if module == ["main"] {
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("a readable source file");
            let tokens = TokenStream::from_str(&text)
                .unwrap_or_else(|e| panic!("{} does not lex: {e:?}", path.display()))
                .into_iter()
                .collect();
            files.push(File { module, tokens });
        }
    }
    files
}

fn layer(top: &str) -> usize {
    LAYERS.iter().position(|l| l.contains(&top)).unwrap_or_else(|| {
        panic!("module {top} is in no layer: add it to LAYERS in tests/integration/layers.rs")
    })
}

/// The problems of a set of files: forbidden layer edges, `.store` in MCP, and import circles
/// among the files of one directory.
fn problems(files: &[File]) -> (Vec<String>, BTreeMap<String, BTreeSet<String>>) {
    let modules: BTreeSet<Vec<String>> = files.iter().map(|f| f.module.clone()).collect();
    let mut problems = Vec::new();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in files {
        let here = file.module.join("::");
        let top = file.module.first().map_or("lib", String::as_str);
        let children: BTreeSet<String> = modules
            .iter()
            .filter(|m| m.len() == file.module.len() + 1 && m.starts_with(&file.module))
            .filter_map(|m| m.last().cloned())
            .collect();
        let mut found = Vec::new();
        paths(&file.tokens, &children, &mut found);
        for path in found {
            let target = absolute(&file.module, &path);
            let Some(target_top) = target.first() else { continue };
            if !modules.iter().any(|m| m.first() == Some(target_top)) {
                continue; // a macro-generated or external name
            }
            graph.entry(top.to_string()).or_default();
            if target_top != top {
                graph.entry(top.to_string()).or_default().insert(target_top.clone());
                if layer(target_top) < layer(top) {
                    problems.push(format!("{here} imports {} from a higher layer", target.join("::")));
                }
                if FORBIDDEN.contains(&(top, target_top.as_str())) {
                    problems.push(format!("{here} reaches {target_top}: {}", target.join("::")));
                }
                continue;
            }
            // Within one directory: which of its files (or its mod.rs) the path lands in.
            if file.module.len() <= 1 && target.len() <= 1 {
                continue;
            }
            let landing = if target.len() >= 2 && modules.contains(&target[..2]) {
                target[..2].join("::")
            } else {
                target_top.clone()
            };
            // A mod.rs naming its own children (`mod x; pub use x::Y;`) is the directory's
            // facade, not a dependency: only edges between files and up to mod.rs count.
            let facade = file.module.len() == 1 && landing.starts_with(&format!("{here}::"));
            if landing != here && !facade {
                graph.entry(here.clone()).or_default().insert(landing);
            }
        }
        if top == "mcp" {
            let text: String = file.tokens.iter().map(ToString::to_string).collect::<Vec<_>>().join(" ");
            if text.contains(". store") {
                problems.push(format!("{here} reaches the store through `.store`"));
            }
        }
    }
    for cycle in cycles(&graph) {
        problems.push(format!("import circle: {}", cycle.join(" -> ")));
    }
    (problems, graph)
}

/// Circles in a graph, each reported once from its first node.
fn cycles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        stack: &mut Vec<String>,
        done: &mut BTreeSet<String>,
        out: &mut Vec<Vec<String>>,
    ) {
        if let Some(at) = stack.iter().position(|n| n == node) {
            let mut cycle = stack[at..].to_vec();
            cycle.push(node.to_string());
            out.push(cycle);
            return;
        }
        if done.contains(node) {
            return;
        }
        stack.push(node.to_string());
        for next in graph.get(node).into_iter().flatten() {
            visit(next, graph, stack, done, out);
        }
        stack.pop();
        done.insert(node.to_string());
    }
    let mut out = Vec::new();
    let mut done = BTreeSet::new();
    for node in graph.keys() {
        visit(node, graph, &mut Vec::new(), &mut done, &mut out);
    }
    out
}

fn file(module: &[&str], text: &str) -> File {
    let tokens = TokenStream::from_str(text).expect("test source lexes").into_iter().collect();
    File { module: module.iter().map(|s| s.to_string()).collect(), tokens }
}

#[test]
fn the_source_keeps_its_layers() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let files = read_sources(&root);
    let (problems, graph) = problems(&files);
    assert!(
        problems.is_empty(),
        "layer rules of docs/ARCHITECTURE.md (Layers) broken:\n{}",
        problems.join("\n")
    );
    // The reader sees real edges (a parser that found nothing would pass vacuously).
    assert!(graph["mcp"].contains("api") && graph["api"].contains("store"), "{graph:?}");
    assert!(graph["mcp::tools"].contains("mcp::confirm"), "{graph:?}");
}

#[test]
fn the_checker_catches_what_it_forbids() {
    let sources = [
        file(&["auth", "middleware"], "use crate::api::{ApiError, error_response};"),
        file(&["api", "error"], "pub struct ApiError;"),
        file(&["mcp", "confirm"], "use super::tools::Split; fn f(a: A) { a.app.store.x(); }"),
        file(&["mcp", "tools"], "use super::{confirm::{self, Gate}, wire};"),
        file(&["mcp", "wire"], "fn f() { crate::store::Store::open(); }"),
        file(&["store", "tokens"], "#[cfg(test)] mod tests { use crate::auth::Principal; }"),
        file(&["store"], "pub use tokens::Row; pub struct Store;"),
        file(&["store", "orgs"], "use super::Store;"),
        file(&["engine", "sweep"], "use crate::api::charges::settle;"),
    ];
    let (problems, _) = problems(&sources);
    let text = problems.join("\n");
    assert!(text.contains("auth::middleware imports api::ApiError from a higher layer"), "{text}");
    assert!(text.contains("mcp::confirm reaches the store through `.store`"), "{text}");
    assert!(text.contains("mcp::wire reaches store"), "{text}");
    assert!(text.contains("import circle: mcp::confirm -> mcp::tools -> mcp::confirm"), "{text}");
    assert!(!text.contains("store::tokens"), "test-only imports do not count: {text}");
    assert!(!text.contains("store::orgs"), "a file using its mod.rs is no circle: {text}");
    assert!(text.contains("engine::sweep reaches api: api::charges::settle"), "{text}");
    // The two names auth imports from api are two problems.
    assert_eq!(problems.len(), 6, "{text}");
}

/// Where `json!` is called outside test code in `tokens`.
fn json_macros(t: &[TokenTree]) -> usize {
    let mut found = 0;
    let mut i = 0;
    while i < t.len() {
        match &t[i] {
            TokenTree::Punct(p) if p.as_char() == '#' && t.get(i + 1).is_some_and(is_cfg_test) => {
                i = end_of_test_item(t, i);
            }
            TokenTree::Ident(id)
                if id == "json"
                    && matches!(t.get(i + 1), Some(TokenTree::Punct(p)) if p.as_char() == '!') =>
            {
                found += 1
            }
            TokenTree::Group(g) => found += json_macros(&g.stream().into_iter().collect::<Vec<_>>()),
            _ => {}
        }
        i += 1;
    }
    found
}

/// What the API answers and what events carry are generated types (the spec's schemas and
/// `x-event-payloads`): no handler, event or demo seed builds JSON by hand.
#[test]
fn handlers_build_no_json() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut offenders: Vec<String> = read_sources(&root)
        .iter()
        .filter(|f| matches!(f.module.first().map(String::as_str), Some("api" | "demo")))
        .filter(|f| json_macros(&f.tokens) > 0)
        .map(|f| f.module.join("::"))
        .collect();
    offenders.sort();
    assert!(offenders.is_empty(), "json! outside tests in: {offenders:?}");
}

/// The names the API may not use: those of the MCP surface and of a tool's text, which MCP makes
/// from what the API answers.
const NOT_OF_THE_API: &[&str] = &["mcp", "tool_text", "ToolText", "tool_result"];

/// The identifiers among `names` used outside test code in `tokens`.
fn names_used(t: &[TokenTree], names: &[&str], out: &mut BTreeSet<String>) {
    let mut i = 0;
    while i < t.len() {
        match &t[i] {
            TokenTree::Punct(p) if p.as_char() == '#' && t.get(i + 1).is_some_and(is_cfg_test) => {
                i = end_of_test_item(t, i);
            }
            TokenTree::Ident(id) if names.iter().any(|name| id == name) => {
                out.insert(id.to_string());
            }
            TokenTree::Group(g) => names_used(&g.stream().into_iter().collect::<Vec<_>>(), names, out),
            _ => {}
        }
        i += 1;
    }
}

/// The API knows nothing of MCP (docs/ARCHITECTURE.md): it answers in a layout, typed errors
/// stay typed, and the MCP module makes a tool's text and its errors from them. No file of the
/// API names MCP, a tool's text, or where MCP writes it, whatever the path (`crate::mcp`, `super::`,
/// a re-export).
#[test]
fn the_api_names_nothing_of_mcp() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut offenders = Vec::new();
    for file in read_sources(&root).iter().filter(|f| f.module.first().is_some_and(|m| m == "api")) {
        let mut used = BTreeSet::new();
        names_used(&file.tokens, NOT_OF_THE_API, &mut used);
        if !used.is_empty() {
            offenders.push(format!("{} names {used:?}", file.module.join("::")));
        }
    }
    assert!(offenders.is_empty(), "the API names MCP:\n{}", offenders.join("\n"));

    // The checker sees a name in a path, a type and a variant, and not in a test, a comment or
    // a string.
    let probe = file(
        &["api", "call"],
        "use crate::mcp::tool_text; fn f(form: AnswerForm) { match form { AnswerForm::ToolText => {} } }
         // mcp
         fn g() -> &'static str { \"tool_text\" }
         #[cfg(test)] mod tests { use crate::mcp::Dispatcher; }",
    );
    let mut used = BTreeSet::new();
    names_used(&probe.tokens, NOT_OF_THE_API, &mut used);
    assert_eq!(used, BTreeSet::from(["ToolText".to_string(), "mcp".into(), "tool_text".into()]));
}
