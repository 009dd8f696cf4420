//! MCP App views (extension `io.modelcontextprotocol/ui`): the HTML documents under `ui/` that a
//! host renders a tool's result in. An operation names its view (`x-mcp.view: <name>`), served
//! as `ui://kobana-dunning/<name>` from `ui/<name>.html`. Here the names are linked to the files,
//! the shared parts under `ui/lib/` are inlined, and what a host could not render as one
//! self-contained document is refused.
//!
//! A view includes a shared part with a line of its own, `<script src="lib/NAME.js"></script>`
//! or `<link rel="stylesheet" href="lib/NAME.css">`: opened from disk it loads the file, and the
//! served document carries the file's content in its place. The host's sandbox loads nothing
//! from anywhere else (its default CSP allows inline scripts and styles only), so every part of
//! a view has to be in the one document.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use crate::model::{Api, Result, SpecError, is_view_name};

/// Where every view's URI starts.
pub const VIEW_PREFIX: &str = "ui://kobana-dunning/";
/// The largest document a view may be, its shared parts inlined: hosts fetch it whole before
/// they render anything.
pub const MAX_VIEW_BYTES: usize = 65_536;

/// The files of `ui/`: the views (`<name>.html`) and the shared parts (`lib/<file>`). Other
/// files are neither.
#[derive(Clone, Default)]
pub struct ViewFiles {
    /// View name -> its HTML as written.
    pub pages: BTreeMap<String, String>,
    /// File name under `lib/` -> its content.
    pub lib: BTreeMap<String, String>,
}

impl ViewFiles {
    /// Reads a `ui/` folder (none at all is a folder without views).
    pub fn read(dir: &Path) -> Result<Self> {
        let mut files = Self::default();
        for (name, path) in entries(dir)? {
            if let Some(view) = name.strip_suffix(".html") {
                files.pages.insert(view.to_string(), read_text(&path)?);
            }
        }
        for (name, path) in entries(&dir.join("lib"))? {
            files.lib.insert(name, read_text(&path)?);
        }
        Ok(files)
    }
}

/// The files (not folders) directly in `dir`, by name; none when it does not exist.
fn entries(dir: &Path) -> Result<Vec<(String, std::path::PathBuf)>> {
    if !dir.is_dir() {
        return Ok(Vec::new());
    }
    let failed = |e: std::io::Error| SpecError::new(format!("cannot read {}: {e}", dir.display()));
    let mut found = Vec::new();
    for entry in fs::read_dir(dir).map_err(failed)? {
        let path = entry.map_err(failed)?.path();
        if !path.is_file() {
            continue;
        }
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .ok_or_else(|| SpecError::new(format!("{}: a file name that is not UTF-8", path.display())))?
            .to_string();
        found.push((name, path));
    }
    Ok(found)
}

fn read_text(path: &Path) -> Result<String> {
    fs::read_to_string(path).map_err(|e| SpecError::new(format!("cannot read {}: {e}", path.display())))
}

/// A view as the server serves it.
pub struct View {
    pub name: String,
    pub uri: String,
    /// The document's `<title>`.
    pub title: String,
    /// The document's `<meta name="description">`, or which tools it shows.
    pub description: String,
    /// The document, its shared parts inlined.
    pub html: String,
}

/// The URI of a view.
pub fn uri(name: &str) -> String {
    format!("{VIEW_PREFIX}{name}")
}

/// Every view the operations name, in name order, assembled; or the first thing wrong with the
/// operations' names, the files or a document.
pub fn assemble(api: &Api, files: &ViewFiles) -> Result<Vec<View>> {
    let mut named: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    let mut ops: Vec<_> = api.ops.iter().collect();
    ops.sort_by(|a, b| a.tool_name.cmp(&b.tool_name));
    for op in ops {
        let Some(name) = op.view.as_deref() else { continue };
        if !files.pages.contains_key(name) {
            return Err(SpecError::new(format!(
                "operation {}: x-mcp.view {name} has no ui/{name}.html",
                op.operation_id
            )));
        }
        named.entry(name).or_default().push(op.tool_name.as_str());
    }
    if let Some(page) = files.pages.keys().find(|page| !named.contains_key(page.as_str())) {
        let hint = if is_view_name(page) {
            ""
        } else {
            " (nor can one: a view's name is lowercase words joined by `-`)"
        };
        return Err(SpecError::new(format!(
            "ui/{page}.html is a view no operation names in x-mcp.view{hint}: name it from an operation, or \
             move a shared part to ui/lib/"
        )));
    }
    named
        .into_iter()
        .map(|(name, tools)| {
            let fail = |message: String| SpecError::new(format!("ui/{name}.html: {message}"));
            let html = inline(&files.pages[name], &files.lib).map_err(fail)?;
            check_self_contained(&html).map_err(fail)?;
            if html.len() > MAX_VIEW_BYTES {
                return Err(fail(format!(
                    "{} bytes with its shared parts inlined, over the {MAX_VIEW_BYTES} a view may be",
                    html.len()
                )));
            }
            let title = element_text(&html, "title")
                .filter(|t| !t.is_empty())
                .ok_or_else(|| fail("no <title>: hosts show it as the view's name".into()))?;
            let description = meta_description(&html)
                .filter(|d| !d.is_empty())
                .unwrap_or_else(|| format!("Shows the result of {}.", tools.join(" and ")));
            Ok(View { name: name.to_string(), uri: uri(name), title, description, html })
        })
        .collect()
}

/// What an include line (without its indentation) includes: a file of `ui/lib/`.
enum Include<'a> {
    Script(&'a str),
    Style(&'a str),
}

fn include_of(line: &str) -> Option<Include<'_>> {
    if let Some(file) =
        line.strip_prefix(r#"<script src="lib/"#).and_then(|r| r.strip_suffix(r#""></script>"#))
    {
        return Some(Include::Script(file));
    }
    line.strip_prefix(r#"<link rel="stylesheet" href="lib/"#)
        .and_then(|r| r.strip_suffix(r#"">"#))
        .map(Include::Style)
}

/// The page with every include line replaced by the included file, inline, at the line's
/// indentation.
fn inline(page: &str, lib: &BTreeMap<String, String>) -> std::result::Result<String, String> {
    let mut out = String::with_capacity(page.len());
    for line in page.split_inclusive('\n') {
        let body = line.trim_end_matches(['\n', '\r']);
        let indent = &body[..body.len() - body.trim_start().len()];
        let (file, open, close) = match include_of(body.trim()) {
            Some(Include::Script(file)) if file.ends_with(".js") => (file, "<script>", "</script>"),
            Some(Include::Style(file)) if file.ends_with(".css") => (file, "<style>", "</style>"),
            _ => {
                out.push_str(line);
                continue;
            }
        };
        let content =
            lib.get(file).ok_or_else(|| format!("includes lib/{file}, which ui/lib/ does not have"))?;
        // The part's text ends its element if it holds the closing tag.
        if content.to_ascii_lowercase().contains(&close[..close.len() - 1]) {
            return Err(format!("lib/{file} holds {close}, which would end it early once inlined"));
        }
        out.push_str(indent);
        out.push_str(open);
        out.push('\n');
        out.push_str(content);
        if !content.ends_with('\n') {
            out.push('\n');
        }
        out.push_str(indent);
        out.push_str(close);
        out.push_str(&line[body.len()..]);
    }
    Ok(out)
}

/// Where a document names what to load or to reach: an attribute or assignment (`NAME=`) or a
/// call (`NAME(`). A lowercase search of the text, markup and code alike: simple enough to
/// read, and a mention in a comment is refused as well, which costs nothing.
const REFERENCES: &[(&str, char)] = &[
    ("src", '='),
    ("href", '='),
    ("action", '='),
    ("formaction", '='),
    ("poster", '='),
    ("srcset", '='),
    ("url", '='),
    ("url", '('),
    ("fetch", '('),
    ("import", '('),
    ("websocket", '('),
    ("eventsource", '('),
    ("sendbeacon", '('),
];

/// How an address of another origin starts (`//host` is the page's scheme on another host).
const OTHER_ORIGINS: &[&str] = &["http:", "https:", "//", "ws:", "wss:"];

/// Refuses a document that loads from or talks to another origin (`src="https://…"`,
/// `url(//…)`, `@import "http:…"`, `fetch("https://…")`), or that still loads a file (an
/// include that is not on a line of its own): the host's sandbox would block the one and find
/// nothing at the other, and the view would render broken.
fn check_self_contained(html: &str) -> std::result::Result<(), String> {
    let text = html.to_ascii_lowercase();
    let snippet = |at: usize| {
        let end = text[at..].find('\n').map_or(text.len(), |n| at + n).min(at + 80);
        let end = (at..=end).rev().find(|i| html.is_char_boundary(*i)).unwrap_or(at);
        html[at..end].trim().to_string()
    };
    for (name, opener) in REFERENCES {
        for (at, _) in text.match_indices(name) {
            let before = text[..at].chars().next_back();
            if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
                continue;
            }
            let rest = text[at + name.len()..].trim_start();
            let Some(value) = rest.strip_prefix(*opener) else { continue };
            if refers_elsewhere(value) {
                return Err(another_origin(&snippet(at)));
            }
        }
    }
    for (at, _) in text.match_indices("@import") {
        let value = text[at + "@import".len()..].trim_start();
        let value = value.strip_prefix("url(").unwrap_or(value);
        if refers_elsewhere(value) {
            return Err(another_origin(&snippet(at)));
        }
    }
    for (tag, loads) in [("<script", "src="), ("<link", "stylesheet")] {
        for (at, _) in text.match_indices(tag) {
            let end = text[at..].find('>').map_or(text.len(), |n| at + n);
            if text[at..end].contains(loads) {
                return Err(format!(
                    "`{}` loads a file: only a line of its own `<script src=\"lib/NAME.js\"></script>` or \
                     `<link rel=\"stylesheet\" href=\"lib/NAME.css\">` is inlined, and a view is one document",
                    snippet(at)
                ));
            }
        }
    }
    Ok(())
}

fn refers_elsewhere(value: &str) -> bool {
    let value = value.trim_start().trim_start_matches(['"', '\'', '`']).trim_start();
    OTHER_ORIGINS.iter().any(|origin| value.starts_with(origin))
}

fn another_origin(snippet: &str) -> String {
    format!(
        "`{snippet}` refers to another origin: a view is one self-contained document, and the host's \
         sandbox lets it load nothing from elsewhere (inline it, or put it under ui/lib/)"
    )
}

/// The text of the first `<tag>…</tag>`, trimmed, its entities decoded.
fn element_text(html: &str, tag: &str) -> Option<String> {
    let text = html.to_ascii_lowercase();
    let start = text.find(&format!("<{tag}>"))? + tag.len() + 2;
    let end = start + text[start..].find(&format!("</{tag}>"))?;
    Some(decode_entities(html[start..end].trim()))
}

/// The `content` of `<meta name="description" content="…">`, its entities decoded.
fn meta_description(html: &str) -> Option<String> {
    let text = html.to_ascii_lowercase();
    text.match_indices("<meta").find_map(|(at, _)| {
        let end = at + text[at..].find('>')?;
        let tag = &text[at..end];
        if !tag.contains(r#"name="description""#) {
            return None;
        }
        let start = at + tag.find(r#"content=""#)? + r#"content=""#.len();
        let stop = start + text[start..end].find('"')?;
        Some(decode_entities(html[start..stop].trim()))
    })
}

/// The character references a title or a description may use for markup characters.
fn decode_entities(text: &str) -> String {
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}
