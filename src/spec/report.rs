//! `spec diff`'s output: text for people, JSON for pipelines.
//!
//! JSON is a list of changes, each `{"kind", "breaking", "location": {"tool", "operation",
//! "path"}, "message"}`, in tool-name order: a stable shape (`jq '.[] | select(.breaking)'`).
//! Text lists the breaking changes first, and says a change once for all the tools it
//! concerns (a shared schema such as `Error` changes in every operation's answers).

use std::fmt::Write;

use super::change::Change;

/// The output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// For people.
    Text,
    /// For pipelines.
    Json,
}

/// The changes as `format` writes them, with a final newline.
pub fn render(changes: &[Change], format: Format) -> String {
    match format {
        Format::Json => {
            let mut text = serde_json::to_string_pretty(changes).expect("changes serialize");
            text.push('\n');
            text
        }
        Format::Text => text(changes),
    }
}

/// Tools named in full in a grouped line before "and N more".
const NAMED_IN_A_GROUP: usize = 3;

fn text(changes: &[Change]) -> String {
    if changes.is_empty() {
        return "no changes\n".into();
    }
    let breaking = changes.iter().filter(|c| c.breaking).count();
    let mut out = format!(
        "{} change{}: {breaking} breaking, {} compatible\n",
        changes.len(),
        if changes.len() == 1 { "" } else { "s" },
        changes.len() - breaking
    );
    for (title, wanted) in [("breaking", true), ("compatible", false)] {
        // The same change (kind, path, message) in several tools, said once.
        let mut groups: Vec<(&Change, Vec<&Change>)> = Vec::new();
        for change in changes.iter().filter(|c| c.breaking == wanted) {
            let same = |c: &Change| {
                c.kind == change.kind
                    && c.location.path == change.location.path
                    && c.message == change.message
            };
            match groups.iter_mut().find(|(first, _)| same(first)) {
                Some((_, members)) => members.push(change),
                None => groups.push((change, vec![change])),
            }
        }
        if groups.is_empty() {
            continue;
        }
        let _ = writeln!(out, "\n{title}:");
        for (first, members) in groups {
            let where_ = match members.as_slice() {
                [only] => format!("{} ({})", only.location.tool, only.location.operation),
                many => {
                    let mut names: Vec<&str> =
                        many.iter().take(NAMED_IN_A_GROUP).map(|c| c.location.tool.as_str()).collect();
                    let more = many.len().saturating_sub(NAMED_IN_A_GROUP);
                    let more = if more > 0 { format!(" and {more} more") } else { String::new() };
                    names.dedup();
                    format!("{} tools: {}{more}", many.len(), names.join(", "))
                }
            };
            let path = if first.location.path.is_empty() {
                String::new()
            } else {
                format!(" {}", first.location.path)
            };
            let _ = writeln!(out, "  {where_}{path}\n    {}", first.message);
        }
    }
    if breaking == 0 {
        out.push_str("\nno breaking change\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::change::{Kind, Location};

    fn change(tool: &str, breaking: bool) -> Change {
        Change {
            kind: Kind::FieldRemoved,
            breaking,
            location: Location {
                tool: tool.into(),
                operation: "GET /v1/x".into(),
                path: "/responses/400/properties/error".into(),
            },
            message: "400 answer field error: removed".into(),
        }
    }

    #[test]
    fn the_same_change_in_several_tools_is_said_once() {
        let changes: Vec<Change> = ["a", "b", "c", "d", "e"].map(|t| change(t, true)).into();
        let text = render(&changes, Format::Text);
        assert!(text.contains("5 tools: a, b, c and 2 more /responses/400/properties/error"), "{text}");
        assert_eq!(text.matches("field error: removed").count(), 1, "{text}");
    }

    #[test]
    fn json_is_a_list_of_changes() {
        let json: serde_json::Value =
            serde_json::from_str(&render(&[change("a", false)], Format::Json)).unwrap();
        assert_eq!(json[0]["kind"], "field_removed");
        assert_eq!(json[0]["location"]["tool"], "a");
        assert_eq!(json[0]["breaking"], false);
        assert_eq!(render(&[], Format::Text), "no changes\n");
    }
}
