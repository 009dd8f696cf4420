//! OpenAPI 3.0 schema objects -> self-contained JSON Schema 2020-12.
//!
//! MCP clients and the jsonschema validator read 2020-12, which differs from OpenAPI 3.0 in ways
//! that silently change meaning: `nullable` is unknown (null would be refused), exclusive bounds
//! are numbers rather than booleans, and `$ref`s must resolve inside the schema. Every `$ref` is
//! inlined (only `#/components/...` of this document), objects with declared properties become
//! closed (`additionalProperties: false`), and OpenAPI-only keywords are dropped.
//!
//! The text rule's patterns (`x-text-patterns` at the spec's root, on every plain text argument)
//! are dropped too: the `Text` and `MultilineText` types enforce that rule with messages that
//! say what is wrong, and every tool would otherwise carry the same long pattern many times over
//! (the catalogue budget). The REST spec keeps them, for the tools that read it.
//!
//! A tool's descriptor shows a tighter schema still ([`for_tool`]): what a model needs to write
//! a valid call (names, types, enums, formats, what is required, what each argument means), not
//! every bound the server checks. The operation keeps the full schema, and the server validates
//! every call against it (tools/call's arguments, or the /v1 query and body a call becomes), so a
//! bound left out of the descriptor is still a VALIDATION_ERROR that names the argument.

use openapiv3::{Components, ReferenceOr, Schema};
use serde_json::{Map, Value, json};

/// The named schemas as JSON, where conversion inlines them, and the text rule's patterns.
pub struct Schemas {
    named: Map<String, Value>,
    /// The values of `x-text-patterns`: patterns the text types enforce.
    text_patterns: Vec<Value>,
    /// Named schemas with `x-mcp-pattern`: their `enum`, and the pattern a tool shows instead.
    tool_patterns: Vec<(Value, Value)>,
}

/// Keywords OpenAPI 3.0 has and JSON Schema does not (or that only document).
const DROPPED: &[&str] = &["nullable", "example", "xml", "externalDocs", "discriminator", "deprecated"];
/// Formats OpenAPI defines for code generators; JSON Schema validators do not know them.
const OPENAPI_ONLY_FORMATS: &[&str] = &["int32", "int64", "float", "double", "byte", "binary", "password"];
const MAX_DEPTH: usize = 32;
const SCHEMA_PREFIX: &str = "#/components/schemas/";

impl Schemas {
    /// `text_patterns` is the spec's `x-text-patterns`.
    pub fn new(components: &Components, text_patterns: Option<&Value>) -> Result<Self, String> {
        let mut named = Map::new();
        for (name, schema) in &components.schemas {
            let json = to_json(schema).map_err(|e| format!("components.schemas.{name}: {e}"))?;
            named.insert(name.clone(), json);
        }
        let text_patterns = text_patterns
            .and_then(Value::as_object)
            .map(|patterns| patterns.values().cloned().collect())
            .unwrap_or_default();
        let mut tool_patterns = Vec::new();
        for (name, schema) in &named {
            tool_patterns_in(schema, &format!("components.schemas.{name}"), &mut tool_patterns)?;
        }
        Ok(Self { named, text_patterns, tool_patterns })
    }

    /// Whether `pattern` is one of the text rule's (`x-text-patterns`).
    fn is_text_pattern(&self, pattern: &Value) -> bool {
        self.text_patterns.contains(pattern)
    }

    /// The schema a `$ref` names, as JSON.
    fn named(&self, reference: &str) -> Result<&Value, String> {
        let name = schema_name(reference)
            .ok_or_else(|| format!("$ref {reference} must point into {SCHEMA_PREFIX}"))?;
        self.named.get(name).ok_or_else(|| format!("$ref {reference} does not exist"))
    }
}

/// Every `x-mcp-pattern` of a schema and the schemas inside it, with the enum it stands for.
fn tool_patterns_in(schema: &Value, at: &str, found: &mut Vec<(Value, Value)>) -> Result<(), String> {
    match schema {
        Value::Object(members) => {
            if let Some(pattern) = members.get("x-mcp-pattern") {
                // (That the values are strings is the type generator's check.)
                let values = members
                    .get("enum")
                    .filter(|values| values.is_array())
                    .ok_or_else(|| format!("{at}: x-mcp-pattern stands for an enum"))?;
                if !pattern.is_string() {
                    return Err(format!("{at}: x-mcp-pattern is a regular expression"));
                }
                found.push((values.clone(), pattern.clone()));
            }
            for (key, member) in members {
                tool_patterns_in(member, &format!("{at}.{key}"), found)?;
            }
            Ok(())
        }
        Value::Array(items) => items.iter().try_for_each(|item| tool_patterns_in(item, at, found)),
        _ => Ok(()),
    }
}

/// The name of the schema a `$ref` points to, when it points into `#/components/schemas/`.
pub fn schema_name(reference: &str) -> Option<&str> {
    reference.strip_prefix(SCHEMA_PREFIX)
}

/// A schema as the JSON it is written as: conversion works on JSON because JSON is its output.
/// Callers say which schema failed.
fn to_json(schema: &ReferenceOr<Schema>) -> Result<Value, String> {
    serde_json::to_value(schema).map_err(|e| format!("cannot re-serialize the schema: {e}"))
}

/// Converts one schema, inlining references. `closed` adds `additionalProperties: false` to
/// every object that declares properties and says nothing else about extra keys.
pub fn convert(schema: &ReferenceOr<Schema>, schemas: &Schemas, closed: bool) -> Result<Value, String> {
    convert_at(&to_json(schema)?, schemas, closed, &mut Vec::new())
}

fn convert_at(
    schema: &Value,
    schemas: &Schemas,
    closed: bool,
    stack: &mut Vec<String>,
) -> Result<Value, String> {
    if stack.len() > MAX_DEPTH {
        return Err("schema nesting is too deep".into());
    }
    let Some(object) = schema.as_object() else {
        return Ok(schema.clone());
    };
    if let Some(reference) = object.get("$ref").and_then(Value::as_str) {
        if stack.iter().any(|r| r == reference) {
            return Err(format!("recursive $ref {reference} cannot be inlined"));
        }
        let target = schemas.named(reference)?;
        stack.push(reference.to_string());
        let converted = convert_at(target, schemas, closed, stack);
        stack.pop();
        return converted;
    }

    let mut out = Map::new();
    for (key, value) in object {
        if DROPPED.contains(&key.as_str()) || key.starts_with("x-") {
            continue;
        }
        let converted = match key.as_str() {
            "properties" => {
                let mut props = Map::new();
                for (name, prop) in value.as_object().ok_or("properties must be an object")? {
                    props.insert(name.clone(), convert_at(prop, schemas, closed, stack)?);
                }
                Value::Object(props)
            }
            "items" | "not" => convert_at(value, schemas, closed, stack)?,
            "additionalProperties" if value.is_object() => convert_at(value, schemas, closed, stack)?,
            "allOf" | "anyOf" | "oneOf" => Value::Array(
                value
                    .as_array()
                    .ok_or_else(|| format!("{key} must be an array"))?
                    .iter()
                    .map(|s| convert_at(s, schemas, closed, stack))
                    .collect::<Result<_, _>>()?,
            ),
            "format" if value.as_str().is_some_and(|f| OPENAPI_ONLY_FORMATS.contains(&f)) => {
                continue;
            }
            "pattern" if schemas.is_text_pattern(value) => continue,
            _ => value.clone(),
        };
        out.insert(key.clone(), converted);
    }

    // `allOf` with a single member is OpenAPI 3.0's way to put siblings (nullable, description)
    // next to a `$ref`: merge it into its parent.
    if let Some(Value::Array(all)) = out.get("allOf")
        && let [Value::Object(only)] = all.as_slice()
    {
        let only = only.clone();
        out.remove("allOf");
        for (k, v) in only {
            out.entry(k).or_insert(v);
        }
    }

    // `anyOf`/`oneOf` of a schema and a null-only one (`{type, nullable: true, enum: [null]}`)
    // is how OpenAPI 3.0.3 says "this $ref, or null" so that strict validators accept the null
    // (`nullable` beside an `allOf` does not: it only widens a `type` in the same object). It
    // becomes the schema itself, made nullable, exactly as `nullable` beside a `type` would.
    let mut or_null = false;
    for combinator in ["anyOf", "oneOf"] {
        if let Some(Value::Array(alternatives)) = out.get(combinator)
            && let [first, second] = alternatives.as_slice()
            && let Some(Value::Object(other)) = match (is_null_only(first), is_null_only(second)) {
                (false, true) => Some(first),
                (true, false) => Some(second),
                _ => None,
            }
        {
            let other = other.clone();
            out.remove(combinator);
            for (k, v) in other {
                out.entry(k).or_insert(v);
            }
            or_null = true;
        }
    }

    for (flag, bound) in [("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")] {
        match out.get(flag) {
            Some(Value::Bool(true)) => {
                let limit = out.remove(bound).ok_or_else(|| format!("{flag} without {bound}"))?;
                out.insert(flag.into(), limit);
            }
            Some(Value::Bool(false)) => {
                out.remove(flag);
            }
            _ => {}
        }
    }

    if closed && out.contains_key("properties") && !out.contains_key("additionalProperties") {
        out.insert("additionalProperties".into(), Value::Bool(false));
    }

    if or_null || object.get("nullable").and_then(Value::as_bool) == Some(true) {
        return Ok(make_nullable(out));
    }
    Ok(Value::Object(out))
}

/// Whether a converted schema admits `null` and nothing else (`enum: [null]`). The Rust type
/// generator has its own on openapiv3's types (codegen/types.rs `is_null_only`): conversion
/// works on JSON, and this module is also compiled without types.rs (src/spec/).
fn is_null_only(schema: &Value) -> bool {
    schema.get("enum").and_then(Value::as_array).is_some_and(|values| values.as_slice() == [Value::Null])
}

/// `nullable: true` becomes `null` among the types (and the enum), or an `anyOf` when the
/// schema has no single type to extend.
fn make_nullable(mut out: Map<String, Value>) -> Value {
    if let Some(Value::Array(values)) = out.get_mut("enum")
        && !values.contains(&Value::Null)
    {
        values.push(Value::Null);
    }
    match out.get("type").cloned() {
        Some(Value::String(t)) => {
            out.insert("type".into(), json!([t, "null"]));
            Value::Object(out)
        }
        Some(Value::Array(mut types)) => {
            if !types.contains(&json!("null")) {
                types.push(json!("null"));
            }
            out.insert("type".into(), Value::Array(types));
            Value::Object(out)
        }
        _ => {
            let description = out.remove("description");
            let mut wrapper = Map::new();
            if let Some(d) = description {
                wrapper.insert("description".into(), d);
            }
            wrapper.insert("anyOf".into(), json!([Value::Object(out), {"type": "null"}]));
            Value::Object(wrapper)
        }
    }
}

/// Keywords a tool's descriptor keeps: what a value is, not every bound it must keep.
const TOOL_KEYWORDS: &[&str] = &[
    "type",
    "enum",
    "const",
    "format",
    "pattern",
    "required",
    "properties",
    "items",
    "anyOf",
    "oneOf",
    "allOf",
];

/// The schema a tool's descriptor shows for a converted (validator) schema: its names, types,
/// enums, formats and requirements, without the descriptions (the operation picks the few its
/// tool keeps, `x-mcp.describe`) and without the bounds the server checks on every
/// call anyway (lengths, ranges, decimals, counts, defaults, `additionalProperties: false`, the
/// exact patterns). An enum a named schema gives an `x-mcp-pattern` (the webhook event codes,
/// written out in full on every tool that takes them) becomes that pattern; a comma-separated
/// filter's pattern (`^(a|b)(,(a|b))*$`) names each value once.
pub fn for_tool(schema: &Value, schemas: &Schemas) -> Value {
    let Some(object) = schema.as_object() else {
        return schema.clone();
    };
    let mut out = Map::new();
    for (key, value) in object {
        let kept = match key.as_str() {
            "properties" => Value::Object(
                value
                    .as_object()
                    .into_iter()
                    .flatten()
                    .map(|(name, property)| (name.clone(), for_tool(property, schemas)))
                    .collect(),
            ),
            "items" => for_tool(value, schemas),
            "anyOf" | "oneOf" | "allOf" => {
                Value::Array(value.as_array().into_iter().flatten().map(|s| for_tool(s, schemas)).collect())
            }
            // A map's values keep their type (`metadata`: strings).
            "additionalProperties" if value.is_object() => for_tool(value, schemas),
            "enum" => match schemas.tool_patterns.iter().find(|(values, _)| values == value) {
                Some((_, pattern)) => {
                    out.insert("pattern".into(), pattern.clone());
                    continue;
                }
                None => value.clone(),
            },
            // Only a comma-separated filter's pattern says something a model needs (the values
            // it takes); the others are exact forms the server checks and the instructions or
            // the description say in words (phones, CEPs, times).
            "pattern" => match value.as_str().and_then(compact_list_pattern) {
                Some(compact) => Value::String(compact),
                None => continue,
            },
            other if TOOL_KEYWORDS.contains(&other) => value.clone(),
            _ => continue,
        };
        out.insert(key.clone(), kept);
    }
    Value::Object(out)
}

/// `^(a|b)(,(a|b))*$` (a comma-separated list of some values, each written twice) as
/// `^((a|b)(,|$))+$`, each written once. It also admits a trailing comma, which the server's
/// exact pattern refuses.
pub fn compact_list_pattern(pattern: &str) -> Option<String> {
    let inner = pattern.strip_prefix("^(")?.strip_suffix(")*$")?;
    let (values, rest) = inner.split_once(")(,(")?;
    (rest == format!("{values})")
        && values
            .split('|')
            .all(|v| !v.is_empty() && v.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')))
    .then(|| format!("^(({values})(,|$))+$"))
}
