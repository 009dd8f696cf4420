//! Two specs' endpoints, paired (`matching`), compared surface by surface: the tool (name,
//! aliases, inputSchema, annotations, scope, resource template, confirmation) and the /v1
//! operation (method and path, where each argument travels, headers, body, answers).

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use super::change::{Change, Kind, Location, Side};
use super::contract::Endpoint;
use super::matching::{Pairing, pair};
use super::schemas::{self, Finding, Naming};

/// Every change from `old` to `new`, in tool-name order.
pub fn compare(old: &[Endpoint], new: &[Endpoint]) -> Vec<Change> {
    let mut changes = Vec::new();
    for pairing in pair(old, new) {
        match pairing {
            Pairing::Removed(o) => changes.push(Change {
                kind: Kind::OperationRemoved,
                breaking: true,
                location: at(o, ""),
                message: format!("tool {} and operation {} removed", o.tool, o.operation()),
            }),
            Pairing::Added(n) => changes.push(Change {
                kind: Kind::OperationAdded,
                breaking: false,
                location: at(n, ""),
                message: format!("new tool {} and operation {}", n.tool, n.operation()),
            }),
            Pairing::Same { old, new } => Pair { old, new, out: &mut changes }.compare(),
            Pairing::Renamed { old, new, aliased } => {
                let message = if aliased {
                    format!(
                        "tool {} renamed to {}; the old name still answers (x-mcp.aliases)",
                        old.tool, new.tool
                    )
                } else {
                    format!(
                        "tool {} renamed to {}: clients calling the old name get \"Unknown tool\" (keep \
                         it in x-mcp.aliases to make the rename compatible)",
                        old.tool, new.tool
                    )
                };
                changes.push(Change {
                    kind: Kind::ToolRenamed,
                    breaking: !aliased,
                    location: Location {
                        tool: old.tool.clone(),
                        operation: new.operation(),
                        path: "/name".into(),
                    },
                    message,
                });
                Pair { old, new, out: &mut changes }.compare();
            }
        }
    }
    changes.sort_by(|a, b| a.location.tool.cmp(&b.location.tool));
    changes
}

/// Changes to what events carry, code by code: read by webhook receivers and `events_get`
/// callers, so compared as answers are.
pub fn events(old: &BTreeMap<String, Value>, new: &BTreeMap<String, Value>) -> Vec<Change> {
    let location = |code: &str, path: &str| Location {
        tool: format!("event {code}"),
        operation: "webhook deliveries and events_get".into(),
        path: path.to_string(),
    };
    let codes: BTreeSet<&String> = old.keys().chain(new.keys()).collect();
    let mut changes = Vec::new();
    for code in codes {
        let pointer = format!("/x-event-payloads/{code}");
        match (old.get(code), new.get(code)) {
            (Some(_), None) => changes.push(Change {
                kind: Kind::EventRemoved,
                breaking: true,
                location: location(code, &pointer),
                message: format!("event {code} is no longer written: receivers waiting for it hear nothing"),
            }),
            (None, Some(_)) => changes.push(Change {
                kind: Kind::EventAdded,
                breaking: false,
                location: location(code, &pointer),
                message: format!("new event {code}"),
            }),
            (Some(o), Some(n)) => {
                let naming = Naming {
                    root: format!("the payload of event {code}"),
                    noun: format!("event {code} field"),
                    labels: BTreeMap::new(),
                };
                for f in schemas::compare(Side::Answer, o, n, &pointer, &naming) {
                    changes.push(Change {
                        kind: f.kind,
                        breaking: f.breaking,
                        location: location(code, &f.pointer),
                        message: f.message,
                    });
                }
            }
            (None, None) => {}
        }
    }
    changes
}

fn at(endpoint: &Endpoint, path: &str) -> Location {
    Location { tool: endpoint.tool.clone(), operation: endpoint.operation(), path: path.to_string() }
}

/// The hints whose `true` is the safe value (the others are safe when `false`).
const SAFE_WHEN_TRUE: &[&str] = &["readOnlyHint", "idempotentHint"];

struct Pair<'a> {
    old: &'a Endpoint,
    new: &'a Endpoint,
    out: &'a mut Vec<Change>,
}

impl Pair<'_> {
    fn push(&mut self, kind: Kind, breaking: bool, path: &str, message: String) {
        let location = at(self.new, path);
        self.out.push(Change { kind, breaking, location, message });
    }

    fn findings(&mut self, findings: Vec<Finding>) {
        for f in findings {
            self.push(f.kind, f.breaking, &f.pointer, f.message);
        }
    }

    fn compare(&mut self) {
        self.identity();
        self.tool();
        self.arguments();
        self.rest();
        self.answers();
    }

    fn identity(&mut self) {
        let (old, new) = (self.old, self.new);
        if old.operation() != new.operation() {
            self.push(
                Kind::OperationMoved,
                true,
                "",
                format!(
                    "operation {} is now {}: REST callers of the old one get 404",
                    old.operation(),
                    new.operation()
                ),
            );
        }
        let old_aliases: BTreeSet<&String> = old.aliases.iter().collect();
        let new_aliases: BTreeSet<&String> = new.aliases.iter().collect();
        for alias in old_aliases.difference(&new_aliases) {
            // An alias that became the tool's name again still answers.
            if **alias != new.tool {
                self.push(
                    Kind::AliasRemoved,
                    true,
                    "/x-mcp/aliases",
                    format!("former name {alias} no longer answers"),
                );
            }
        }
        for alias in new_aliases.difference(&old_aliases) {
            // The old name of a rename is reported with the rename.
            if **alias != old.tool {
                self.push(
                    Kind::AliasAdded,
                    false,
                    "/x-mcp/aliases",
                    format!("{alias} now answers as a former name"),
                );
            }
        }
    }

    fn tool(&mut self) {
        let (old, new) = (self.old, self.new);
        for (field, a, b) in
            [("title", &old.title, &new.title), ("description", &old.description, &new.description)]
        {
            if a != b {
                self.push(
                    Kind::DescriptionChanged,
                    false,
                    &format!("/{field}"),
                    format!("tool {field} changed"),
                );
            }
        }
        let hints: BTreeSet<&String> = old.annotations.keys().chain(new.annotations.keys()).collect();
        for hint in hints {
            let safe_value = SAFE_WHEN_TRUE.contains(&hint.as_str());
            let (a, b) = (old.annotations.get(hint), new.annotations.get(hint));
            if a == b {
                continue;
            }
            // A hint that is absent promises nothing: treated as its unsafe value.
            let (was_safe, is_safe) = (a == Some(&safe_value), b == Some(&safe_value));
            let breaking = was_safe && !is_safe;
            let how = if breaking { "less safe" } else { "safer" };
            let shown = |v: Option<&bool>| v.map_or("absent".to_string(), bool::to_string);
            self.push(
                Kind::AnnotationChanged,
                breaking,
                &format!("/annotations/{hint}"),
                format!("{hint} {} became {} ({how})", shown(a), shown(b)),
            );
        }
        if old.scope != new.scope {
            let shown = |s: &Option<String>| s.clone().unwrap_or_else(|| "any valid token".into());
            self.push(
                Kind::ScopeChanged,
                true,
                "/scope",
                format!("scope {} became {}", shown(&old.scope), shown(&new.scope)),
            );
        }
        match (&old.resource_uri, &new.resource_uri) {
            (Some(a), None) => {
                self.push(Kind::ResourceRemoved, true, "/resource", format!("resource template {a} removed"))
            }
            (None, Some(b)) => {
                self.push(Kind::ResourceAdded, false, "/resource", format!("new resource template {b}"))
            }
            (Some(a), Some(b)) if a != b => self.push(
                Kind::ResourceChanged,
                true,
                "/resource",
                format!("resource template {a} became {b}"),
            ),
            _ => {}
        }
        if old.confirm != new.confirm {
            self.push(
                Kind::ConfirmationChanged,
                false,
                "/x-mcp/confirm",
                "the confirmation question changed".into(),
            );
        }
    }

    fn arguments(&mut self) {
        // Messages name a top-level argument with where /v1 takes it: `per_page (query)`.
        let labels = self
            .old
            .sources
            .iter()
            .chain(&self.new.sources)
            .map(|(name, source)| (name.clone(), format!("{name} ({})", source.word())))
            .collect();
        let naming = Naming { root: "the arguments".into(), noun: "argument".into(), labels };
        let findings = schemas::compare(
            Side::Argument,
            &self.old.input_schema,
            &self.new.input_schema,
            "/inputSchema",
            &naming,
        );
        self.findings(findings);
    }

    /// What only REST callers see: where arguments travel, headers, the body's presence.
    fn rest(&mut self) {
        let (old, new) = (self.old, self.new);
        for (name, a) in &old.sources {
            if let Some(b) = new.sources.get(name)
                && a != b
            {
                self.push(
                    Kind::ArgumentMoved,
                    true,
                    &format!("/parameters/{}/{name}", b.word()),
                    format!(
                        "argument {name} moved from {} to {}: REST callers send it elsewhere (tools are unaffected)",
                        a.word(),
                        b.word()
                    ),
                );
            }
        }
        for (name, header) in &old.headers {
            let path = format!("/parameters/header/{name}");
            match new.headers.get(name) {
                None => self.push(Kind::HeaderRemoved, true, &path, format!("header {name} removed")),
                Some(now) => {
                    if !header.required && now.required {
                        self.push(
                            Kind::ArgumentRequired,
                            true,
                            &path,
                            format!("header {name}: now required"),
                        );
                    } else if header.required && !now.required {
                        self.push(
                            Kind::ArgumentOptional,
                            false,
                            &path,
                            format!("header {name}: now optional"),
                        );
                    }
                    let naming = Naming {
                        root: format!("header {name}"),
                        noun: format!("header {name} property"),
                        labels: BTreeMap::new(),
                    };
                    let findings =
                        schemas::compare(Side::Argument, &header.schema, &now.schema, &path, &naming);
                    self.findings(findings);
                }
            }
        }
        for (name, header) in new.headers.iter().filter(|(n, _)| !old.headers.contains_key(*n)) {
            let how = if header.required { "new and required" } else { "new, optional" };
            self.push(
                Kind::HeaderAdded,
                header.required,
                &format!("/parameters/header/{name}"),
                format!("header {name}: {how}"),
            );
        }
        match (old.body_required, new.body_required) {
            (None | Some(false), Some(true)) => self.push(
                Kind::BodyRequired,
                true,
                "/requestBody/required",
                "the request body is now required".into(),
            ),
            (Some(true), None | Some(false)) => self.push(
                Kind::BodyOptional,
                false,
                "/requestBody/required",
                "the request body is now optional".into(),
            ),
            _ => {}
        }
    }

    fn answers(&mut self) {
        let (old, new) = (self.old, self.new);
        if old.success_status != new.success_status {
            self.push(
                Kind::SuccessStatusChanged,
                true,
                "/responses",
                format!("a successful call answers {} instead of {}", new.success_status, old.success_status),
            );
        }
        if old.response_kind != new.response_kind {
            self.push(
                Kind::ResponseKindChanged,
                true,
                "/responses",
                format!("a successful call answers {} instead of {}", new.response_kind, old.response_kind),
            );
        }
        for (status, schema) in &old.responses {
            let path = format!("/responses/{status}");
            match new.responses.get(status) {
                // A success status that changed is reported above; an error no longer documented
                // breaks nobody.
                None => {
                    let success = status.starts_with('2') && old.success_status == new.success_status;
                    self.push(
                        Kind::ResponseRemoved,
                        success,
                        &path,
                        format!("the {status} answer is no longer documented"),
                    );
                }
                Some(now) => {
                    let naming = Naming {
                        root: format!("the {status} answer"),
                        noun: format!("{status} answer field"),
                        labels: BTreeMap::new(),
                    };
                    let findings = schemas::compare(Side::Answer, schema, now, &path, &naming);
                    self.findings(findings);
                }
            }
        }
        for status in new.responses.keys().filter(|s| !old.responses.contains_key(*s)) {
            self.push(
                Kind::ResponseAdded,
                false,
                &format!("/responses/{status}"),
                format!("the {status} answer is newly documented"),
            );
        }
    }
}
