//! Two JSON Schemas (as the generator writes them: 2020-12, refs inlined, `nullable` turned into
//! a `null` type) compared keyword by keyword, each difference classified by the side of the
//! call it is on (`Side::breaks`): what a client sends may not narrow, what it receives may not
//! widen.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value};

use super::change::{Direction, Kind, Side};

/// One difference inside a schema.
#[derive(Debug, Clone, PartialEq)]
pub struct Finding {
    /// What kind.
    pub kind: Kind,
    /// Whether it breaks a client.
    pub breaking: bool,
    /// JSON-pointer-like path, from the pointer given to [`compare`].
    pub pointer: String,
    /// In words, naming the argument or field.
    pub message: String,
}

/// Keywords that bound a value from below: a larger bound accepts fewer values.
const LOWER_BOUNDS: &[&str] = &["minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties"];
/// Keywords that bound a value from above: a smaller bound accepts fewer values.
const UPPER_BOUNDS: &[&str] = &["maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties"];
/// Keywords that only document.
const DOCUMENTATION: &[&str] = &["description", "title", "examples", "example", "deprecated", "$comment"];
/// Keywords compared by [`Walk::node`] itself; any other keyword that differs is a
/// `schema_changed`.
const HANDLED: &[&str] = &[
    "type",
    "format",
    "enum",
    "const",
    "pattern",
    "multipleOf",
    "uniqueItems",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "default",
];

/// How messages name what is compared.
pub struct Naming {
    /// The schema itself: `the arguments`, `header If-Match`, `the 200 answer`.
    pub root: String,
    /// A property, before its path: `argument`, `200 answer field`.
    pub noun: String,
    /// The root's properties by name, when they have a better one: `per_page (query)`.
    pub labels: BTreeMap<String, String>,
}

/// Compares `old` with `new`, on `side` of a call. `pointer` is where they sit
/// (`/inputSchema`, `/responses/200`).
pub fn compare(side: Side, old: &Value, new: &Value, pointer: &str, naming: &Naming) -> Vec<Finding> {
    let mut walk = Walk { side, naming, out: Vec::new() };
    walk.node(old, new, pointer, "");
    walk.out
}

struct Walk<'a> {
    side: Side,
    naming: &'a Naming,
    out: Vec<Finding>,
}

/// JSON pointer escaping of one token.
fn escape(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// The schema with a nullable `anyOf: [X, {type: null}]` folded into X, and whether null is
/// accepted; the non-null types (`None`: any type).
struct Shape {
    schema: Map<String, Value>,
    nullable: bool,
    types: Option<BTreeSet<String>>,
}

fn shape(value: &Value) -> Shape {
    let mut schema = value.as_object().cloned().unwrap_or_default();
    let mut nullable = false;
    if let Some(Value::Array(branches)) = schema.get("anyOf")
        && branches.len() == 2
        && let Some(null_at) = branches.iter().position(|b| *b == serde_json::json!({ "type": "null" }))
        && let Some(Value::Object(inner)) = branches.get(1 - null_at)
    {
        let inner = inner.clone();
        schema.remove("anyOf");
        for (k, v) in inner {
            schema.entry(k).or_insert(v);
        }
        nullable = true;
    }
    let types = match schema.get("type") {
        Some(Value::String(t)) => Some(BTreeSet::from([t.clone()])),
        Some(Value::Array(ts)) => Some(ts.iter().filter_map(Value::as_str).map(str::to_string).collect()),
        _ => None,
    };
    let types = types.map(|mut ts| {
        nullable |= ts.remove("null");
        ts
    });
    // An enum that lists null accepts null, whatever the type says.
    if schema.get("enum").and_then(Value::as_array).is_some_and(|e| e.contains(&Value::Null)) {
        nullable = true;
    }
    Shape { schema, nullable, types }
}

/// Whether a value of every type in `inner` is accepted by `outer` (`None`: any type; an
/// integer is a number).
fn accepts_all(outer: &Option<BTreeSet<String>>, inner: &Option<BTreeSet<String>>) -> bool {
    match (outer, inner) {
        (None, _) => true,
        (Some(_), None) => false,
        (Some(outer), Some(inner)) => {
            inner.iter().all(|t| outer.contains(t) || (t == "integer" && outer.contains("number")))
        }
    }
}

fn type_text(types: &Option<BTreeSet<String>>) -> String {
    match types {
        None => "any".into(),
        Some(ts) if ts.is_empty() => "none".into(),
        Some(ts) => ts.iter().cloned().collect::<Vec<_>>().join(" or "),
    }
}

fn number(value: Option<&Value>) -> Option<f64> {
    match value? {
        Value::Number(n) => n.as_f64(),
        _ => None,
    }
}

/// Whether `a` is a whole multiple of `b` (both positive), allowing for decimal fractions.
fn is_multiple(a: f64, b: f64) -> bool {
    let ratio = a / b;
    ratio >= 1.0 && (ratio - ratio.round()).abs() < 1e-9
}

fn shown(value: Option<&Value>) -> String {
    value.map_or_else(|| "none".to_string(), Value::to_string)
}

impl Walk<'_> {
    /// How a message names the schema at `field` (`argument per_page (query)`, `field
    /// data[].status`, `the answer`).
    fn subject(&self, field: &str) -> String {
        let noun = &self.naming.noun;
        if field.is_empty() {
            return self.naming.root.clone();
        }
        let root = field.split(['.', '[']).next().unwrap_or(field);
        match self.naming.labels.get(root) {
            Some(label) if root == field => format!("{noun} {label}"),
            _ => format!("{noun} {field}"),
        }
    }

    fn push(&mut self, kind: Kind, breaking: bool, pointer: String, message: String) {
        self.out.push(Finding { kind, breaking, pointer, message });
    }

    fn directed(&mut self, kind: Kind, direction: Direction, pointer: String, message: String) {
        let breaking = self.side.breaks(direction);
        let message = format!("{message} ({})", direction.word());
        self.push(kind, breaking, pointer, message);
    }

    fn node(&mut self, old: &Value, new: &Value, pointer: &str, field: &str) {
        if old == new {
            return;
        }
        let (old_shape, new_shape) = (shape(old), shape(new));
        let subject = self.subject(field);
        self.types(&old_shape, &new_shape, pointer, &subject);
        let (old, new) = (&old_shape.schema, &new_shape.schema);
        self.format(old, new, pointer, &subject);
        self.enumeration(old, new, pointer, &subject);
        self.constraints(old, new, pointer, &subject);
        self.properties(old, new, pointer, field);
        self.additional_properties(old, new, pointer, field, &subject);
        if old.get("items") != new.get("items") {
            let null = Value::Null;
            let (a, b) = (old.get("items").unwrap_or(&null), new.get("items").unwrap_or(&null));
            if a.is_null() || b.is_null() {
                let direction = if a.is_null() { Direction::Narrowed } else { Direction::Widened };
                self.directed(
                    Kind::SchemaChanged,
                    direction,
                    format!("{pointer}/items"),
                    format!("{subject}: items schema {}", if a.is_null() { "added" } else { "removed" }),
                );
            } else {
                self.node(a, b, &format!("{pointer}/items"), &format!("{field}[]"));
            }
        }
        if old.get("default") != new.get("default") {
            self.push(
                Kind::DefaultChanged,
                false,
                format!("{pointer}/default"),
                format!(
                    "{subject}: default {} became {}",
                    shown(old.get("default")),
                    shown(new.get("default"))
                ),
            );
        }
        let documentation_changed = DOCUMENTATION.iter().any(|k| old.get(*k) != new.get(*k));
        if documentation_changed {
            self.push(
                Kind::DescriptionChanged,
                false,
                format!("{pointer}/description"),
                format!("{subject}: description changed"),
            );
        }
        self.others(old, new, pointer, field, &subject);
    }

    fn types(&mut self, old: &Shape, new: &Shape, pointer: &str, subject: &str) {
        if old.types != new.types {
            let direction = match (accepts_all(&new.types, &old.types), accepts_all(&old.types, &new.types)) {
                (true, false) => Direction::Widened,
                (false, true) => Direction::Narrowed,
                _ => Direction::Changed,
            };
            self.directed(
                Kind::TypeChanged,
                direction,
                format!("{pointer}/type"),
                format!("{subject}: type {} became {}", type_text(&old.types), type_text(&new.types)),
            );
        }
        match (old.nullable, new.nullable) {
            (false, true) => self.directed(
                Kind::MadeNullable,
                Direction::Widened,
                format!("{pointer}/type"),
                format!("{subject}: may now be null"),
            ),
            (true, false) => self.directed(
                Kind::MadeNonNullable,
                Direction::Narrowed,
                format!("{pointer}/type"),
                format!("{subject}: may no longer be null"),
            ),
            _ => {}
        }
    }

    fn format(&mut self, old: &Map<String, Value>, new: &Map<String, Value>, pointer: &str, subject: &str) {
        let (a, b) = (old.get("format"), new.get("format"));
        if a == b {
            return;
        }
        let direction = match (a, b) {
            (None, Some(_)) => Direction::Narrowed,
            (Some(_), None) => Direction::Widened,
            _ => Direction::Changed,
        };
        self.directed(
            Kind::FormatChanged,
            direction,
            format!("{pointer}/format"),
            format!("{subject}: format {} became {}", shown(a), shown(b)),
        );
    }

    fn enumeration(
        &mut self,
        old: &Map<String, Value>,
        new: &Map<String, Value>,
        pointer: &str,
        subject: &str,
    ) {
        // `const` is an enum of one value; null is the type's business (made_nullable).
        let values = |schema: &Map<String, Value>| -> Option<Vec<Value>> {
            let all = match (schema.get("enum"), schema.get("const")) {
                (Some(Value::Array(values)), _) => values.clone(),
                (_, Some(value)) => vec![value.clone()],
                _ => return None,
            };
            Some(all.into_iter().filter(|v| !v.is_null()).collect())
        };
        let at = if old.contains_key("const") || new.contains_key("const") { "const" } else { "enum" };
        let pointer = format!("{pointer}/{at}");
        match (values(old), values(new)) {
            (None, None) => {}
            (None, Some(_)) => self.directed(
                Kind::EnumAdded,
                Direction::Narrowed,
                pointer,
                format!("{subject}: now limited to listed values"),
            ),
            (Some(_), None) => self.directed(
                Kind::EnumRemoved,
                Direction::Widened,
                pointer,
                format!("{subject}: no longer limited to listed values"),
            ),
            (Some(a), Some(b)) => {
                for value in a.iter().filter(|v| !b.contains(v)) {
                    self.directed(
                        Kind::EnumValueRemoved,
                        Direction::Narrowed,
                        pointer.clone(),
                        format!("{subject}: value {value} removed"),
                    );
                }
                for value in b.iter().filter(|v| !a.contains(v)) {
                    self.directed(
                        Kind::EnumValueAdded,
                        Direction::Widened,
                        pointer.clone(),
                        format!("{subject}: new value {value}"),
                    );
                }
            }
        }
    }

    fn constraints(
        &mut self,
        old: &Map<String, Value>,
        new: &Map<String, Value>,
        pointer: &str,
        subject: &str,
    ) {
        for (keywords, larger_narrows) in [(LOWER_BOUNDS, true), (UPPER_BOUNDS, false)] {
            for keyword in keywords.iter().copied() {
                let (a, b) = (old.get(keyword), new.get(keyword));
                if a == b {
                    continue;
                }
                let direction = match (number(a), number(b)) {
                    (None, Some(_)) => Direction::Narrowed,
                    (Some(_), None) => Direction::Widened,
                    (Some(x), Some(y)) if (y > x) == larger_narrows => Direction::Narrowed,
                    (Some(_), Some(_)) => Direction::Widened,
                    (None, None) => Direction::Changed,
                };
                self.constraint(keyword, direction, a, b, pointer, subject);
            }
        }
        for keyword in ["pattern", "multipleOf", "uniqueItems"] {
            let (a, b) = (old.get(keyword), new.get(keyword));
            if a == b {
                continue;
            }
            let direction = match (keyword, a, b) {
                ("uniqueItems", _, _) => {
                    if b == Some(&Value::Bool(true)) {
                        Direction::Narrowed
                    } else {
                        Direction::Widened
                    }
                }
                (_, None, Some(_)) => Direction::Narrowed,
                (_, Some(_), None) => Direction::Widened,
                ("multipleOf", Some(x), Some(y)) => match (number(Some(x)), number(Some(y))) {
                    (Some(x), Some(y)) if is_multiple(y, x) => Direction::Narrowed,
                    (Some(x), Some(y)) if is_multiple(x, y) => Direction::Widened,
                    _ => Direction::Changed,
                },
                _ => Direction::Changed,
            };
            self.constraint(keyword, direction, a, b, pointer, subject);
        }
    }

    fn constraint(
        &mut self,
        keyword: &str,
        direction: Direction,
        old: Option<&Value>,
        new: Option<&Value>,
        pointer: &str,
        subject: &str,
    ) {
        self.directed(
            Kind::ConstraintChanged,
            direction,
            format!("{pointer}/{keyword}"),
            format!("{subject}: {keyword} {} became {}", shown(old), shown(new)),
        );
    }

    fn properties(&mut self, old: &Map<String, Value>, new: &Map<String, Value>, pointer: &str, field: &str) {
        let empty = Map::new();
        let props =
            |schema: &Map<String, Value>| schema.get("properties").and_then(Value::as_object).cloned();
        let (old_props, new_props) = (props(old), props(new));
        if old_props.is_none() && new_props.is_none() && old.get("required") == new.get("required") {
            return;
        }
        let (old_props, new_props) = (old_props.unwrap_or_else(|| empty.clone()), new_props.unwrap_or(empty));
        let required = |schema: &Map<String, Value>| -> BTreeSet<String> {
            schema
                .get("required")
                .and_then(Value::as_array)
                .map(|r| r.iter().filter_map(Value::as_str).map(str::to_string).collect())
                .unwrap_or_default()
        };
        let (old_required, new_required) = (required(old), required(new));
        let child = |name: &str| if field.is_empty() { name.to_string() } else { format!("{field}.{name}") };
        let at = |name: &str| format!("{pointer}/properties/{}", escape(name));
        let mut removed: Vec<&String> = old_props.keys().filter(|k| !new_props.contains_key(*k)).collect();
        let mut added: Vec<&String> = new_props.keys().filter(|k| !old_props.contains_key(*k)).collect();
        let argument = self.side == Side::Argument;

        // One property gone and one come, with the same schema: a rename.
        if let ([gone], [came]) = (removed.as_slice(), added.as_slice())
            && without_documentation(&old_props[*gone]) == without_documentation(&new_props[*came])
        {
            let (gone, came) = (*gone, *came);
            let kind = if argument { Kind::ArgumentRenamed } else { Kind::FieldRenamed };
            // Both verdicts would break anyway; said as one change, since it reads as a rename.
            let message = format!(
                "{}: removed, and {} added with the same schema (renamed)",
                self.subject(&child(gone)),
                child(came)
            );
            self.push(kind, true, at(gone), message);
            removed.clear();
            added.clear();
        }
        for name in removed {
            let kind = if argument { Kind::ArgumentRemoved } else { Kind::FieldRemoved };
            let message = format!("{}: removed", self.subject(&child(name)));
            self.push(kind, true, at(name), message);
        }
        for name in added {
            let is_required = new_required.contains(name.as_str());
            let (kind, breaking, how) = match (argument, is_required) {
                (true, true) => (Kind::ArgumentAdded, true, "new and required"),
                (true, false) => (Kind::ArgumentAdded, false, "new, optional"),
                (false, _) => (Kind::FieldAdded, false, "new"),
            };
            self.push(kind, breaking, at(name), format!("{}: {how}", self.subject(&child(name))));
        }
        for (name, old_schema) in &old_props {
            let Some(new_schema) = new_props.get(name) else { continue };
            let (was, is) = (old_required.contains(name), new_required.contains(name));
            if was != is {
                let subject = self.subject(&child(name));
                let (kind, breaking, message) = match (argument, is) {
                    (true, true) => (Kind::ArgumentRequired, true, format!("{subject}: now required")),
                    (true, false) => (Kind::ArgumentOptional, false, format!("{subject}: now optional")),
                    (false, false) => (Kind::FieldOptional, true, format!("{subject}: may now be absent")),
                    (false, true) => (Kind::FieldRequired, false, format!("{subject}: now always present")),
                };
                self.push(kind, breaking, at(name), message);
            }
            self.node(old_schema, new_schema, &at(name), &child(name));
        }
        // `required` naming properties the schema does not declare (rare; free objects).
        let undeclared = |r: &BTreeSet<String>, props: &Map<String, Value>| -> BTreeSet<String> {
            r.iter().filter(|n| !props.contains_key(*n)).cloned().collect()
        };
        let (a, b) = (undeclared(&old_required, &old_props), undeclared(&new_required, &new_props));
        if a != b {
            let direction = if a.is_subset(&b) { Direction::Narrowed } else { Direction::Changed };
            self.directed(
                Kind::SchemaChanged,
                direction,
                format!("{pointer}/required"),
                format!("{}: required names without a schema changed", self.subject(field)),
            );
        }
    }

    fn additional_properties(
        &mut self,
        old: &Map<String, Value>,
        new: &Map<String, Value>,
        pointer: &str,
        field: &str,
        subject: &str,
    ) {
        let (a, b) = (old.get("additionalProperties"), new.get("additionalProperties"));
        if a == b {
            return;
        }
        let open = |v: Option<&Value>| v != Some(&Value::Bool(false));
        let here = format!("{pointer}/additionalProperties");
        match (a, b) {
            (Some(x @ Value::Object(_)), Some(y @ Value::Object(_))) => {
                self.node(x, y, &here, &format!("{field}.*"));
            }
            _ if open(a) == open(b) => {
                // `true`, absent and a schema all accept extra keys; from "any value" to a
                // schema narrows them, the other way widens.
                let direction =
                    if a.is_some_and(Value::is_object) { Direction::Widened } else { Direction::Narrowed };
                self.directed(
                    Kind::AdditionalPropertiesChanged,
                    direction,
                    here,
                    format!("{subject}: schema of undeclared properties changed"),
                );
            }
            _ => {
                let direction = if open(b) { Direction::Widened } else { Direction::Narrowed };
                let text = if open(b) {
                    "now accepts undeclared properties"
                } else {
                    "now refuses undeclared properties"
                };
                // An answer that may carry more fields only adds: compatible, as a new field is.
                let breaking = match self.side {
                    Side::Answer => false,
                    Side::Argument => self.side.breaks(direction),
                };
                self.push(
                    Kind::AdditionalPropertiesChanged,
                    breaking,
                    here,
                    format!("{subject}: {text} ({})", direction.word()),
                );
            }
        }
    }

    /// Combinators and keywords the comparison does not know: classified as breaking, since a
    /// change there cannot be shown compatible. Same-length combinators are compared branch by
    /// branch.
    fn others(
        &mut self,
        old: &Map<String, Value>,
        new: &Map<String, Value>,
        pointer: &str,
        field: &str,
        subject: &str,
    ) {
        let keys: BTreeSet<&String> = old.keys().chain(new.keys()).collect();
        for key in keys {
            let key = key.as_str();
            if HANDLED.contains(&key)
                || DOCUMENTATION.contains(&key)
                || LOWER_BOUNDS.contains(&key)
                || UPPER_BOUNDS.contains(&key)
            {
                continue;
            }
            let (a, b) = (old.get(key), new.get(key));
            if a == b {
                continue;
            }
            if let (Some(Value::Array(x)), Some(Value::Array(y))) = (a, b)
                && matches!(key, "anyOf" | "oneOf" | "allOf")
                && x.len() == y.len()
            {
                for (i, (x, y)) in x.iter().zip(y).enumerate() {
                    self.node(x, y, &format!("{pointer}/{key}/{i}"), field);
                }
                continue;
            }
            if let (Some(x @ Value::Object(_)), Some(y @ Value::Object(_)), "not") = (a, b, key) {
                // What `not` refuses, narrowed, widens what the schema accepts: compared as an
                // unknown change rather than inverted.
                if x != y {
                    self.directed(
                        Kind::SchemaChanged,
                        Direction::Changed,
                        format!("{pointer}/not"),
                        format!("{subject}: `not` changed"),
                    );
                }
                continue;
            }
            self.directed(
                Kind::SchemaChanged,
                Direction::Changed,
                format!("{pointer}/{}", escape(key)),
                format!("{subject}: {key} {} became {}", shown(a), shown(b)),
            );
        }
    }
}

/// A schema with its documentation keywords removed, at every level (to recognise a rename).
fn without_documentation(value: &Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(k, _)| !DOCUMENTATION.contains(&k.as_str()))
                .map(|(k, v)| (k.clone(), without_documentation(v)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(without_documentation).collect()),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn diff(side: Side, old: Value, new: Value) -> Vec<(Kind, bool)> {
        let naming = Naming { root: "it".into(), noun: "property".into(), labels: BTreeMap::new() };
        compare(side, &old, &new, "", &naming).into_iter().map(|f| (f.kind, f.breaking)).collect()
    }

    #[test]
    fn integer_to_number_widens_and_back_narrows() {
        let (int, num) = (json!({ "type": "integer" }), json!({ "type": "number" }));
        assert_eq!(diff(Side::Argument, int.clone(), num.clone()), [(Kind::TypeChanged, false)]);
        assert_eq!(diff(Side::Argument, num.clone(), int.clone()), [(Kind::TypeChanged, true)]);
        assert_eq!(diff(Side::Answer, int.clone(), num.clone()), [(Kind::TypeChanged, true)]);
        assert_eq!(diff(Side::Answer, num, int), [(Kind::TypeChanged, false)]);
    }

    #[test]
    fn a_nullable_any_of_is_read_as_a_null_type() {
        let old = json!({ "type": "object", "properties": { "a": { "type": "string" } } });
        let new = json!({ "anyOf": [old.clone(), { "type": "null" }] });
        assert_eq!(diff(Side::Answer, old.clone(), new.clone()), [(Kind::MadeNullable, true)]);
        assert_eq!(diff(Side::Argument, old, new), [(Kind::MadeNullable, false)]);
    }

    #[test]
    fn bounds_narrow_in_their_own_direction() {
        let a = json!({ "type": "integer", "minimum": 1, "maximum": 100 });
        let tighter_max = json!({ "type": "integer", "minimum": 1, "maximum": 50 });
        let looser_min = json!({ "type": "integer", "minimum": 0, "maximum": 100 });
        assert_eq!(diff(Side::Argument, a.clone(), tighter_max), [(Kind::ConstraintChanged, true)]);
        assert_eq!(diff(Side::Argument, a, looser_min), [(Kind::ConstraintChanged, false)]);
        let cents = json!({ "type": "number", "multipleOf": 0.01 });
        let tenths = json!({ "type": "number", "multipleOf": 0.1 });
        assert_eq!(diff(Side::Argument, cents.clone(), tenths.clone()), [(Kind::ConstraintChanged, true)]);
        assert_eq!(diff(Side::Argument, tenths, cents), [(Kind::ConstraintChanged, false)]);
    }

    #[test]
    fn a_property_with_the_same_schema_under_another_name_is_a_rename() {
        let old =
            json!({ "type": "object", "properties": { "a": { "type": "string", "description": "x" } } });
        let new = json!({ "type": "object", "properties": { "b": { "type": "string" } } });
        assert_eq!(diff(Side::Argument, old, new), [(Kind::ArgumentRenamed, true)]);
    }

    #[test]
    fn unknown_keywords_and_combinators_count_as_breaking() {
        let old = json!({ "oneOf": [{ "type": "string" }, { "type": "integer" }] });
        let new = json!({ "oneOf": [{ "type": "string" }] });
        assert_eq!(diff(Side::Argument, old, new), [(Kind::SchemaChanged, true)]);
    }

    #[test]
    fn documentation_is_compatible() {
        let old = json!({ "type": "string", "description": "a" });
        let new = json!({ "type": "string", "description": "b" });
        assert_eq!(diff(Side::Answer, old, new), [(Kind::DescriptionChanged, false)]);
    }
}
