//! OpenAPI schemas -> Rust types: one struct per object schema of `components/schemas`, one
//! enum per string enum, and one flat input struct per operation (its path, query and body
//! fields side by side, as the MCP tool sees them).
//!
//! The mapping is deliberately small, because the spec is: `string` is `String` (`Day` for
//! `format: date`, `Timestamp` for `format: date-time`, an enum when it has `enum`), `integer`
//! is `i64`, `number` is `Hundredths` (every number of this API is money or a percentage with at
//! most 2 decimals), `boolean` is `bool`, arrays are `Vec`, string maps are `BTreeMap`, free
//! objects are JSON maps. A nullable field is an `Option`; an optional one is skipped when absent;
//! an optional nullable one (`PATCH` semantics: absent keeps, null clears) is `Option<Option<_>>`.
//! In the operation inputs (not the answers), plain strings outside the path are checked text:
//! `Text`, or `MultilineText` for properties marked `x-multiline: true`.
//! Anything else fails the build with the schema it concerns.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Value, json};

use crate::model::{Op, Result, Source, SpecError};

const DAY: &str = "crate::domain::dates::Day";
const TIMESTAMP: &str = "crate::domain::dates::Timestamp";
const HUNDREDTHS: &str = "crate::domain::money::Hundredths";
const TEXT: &str = "crate::domain::text::Text";
const MULTILINE_TEXT: &str = "crate::domain::text::MultilineText";
/// Consumed by the endpoint before the handler runs (it is a header as well).
const ENDPOINT_FIELDS: &[&str] = &["idempotency_key"];

/// The generated types, ready for the template.
#[derive(Default)]
pub struct Types {
    structs: BTreeMap<String, Value>,
    enums: BTreeMap<String, Value>,
    /// Enum name -> its values, to refuse two different enums under one name.
    enum_values: BTreeMap<String, Vec<String>>,
    in_progress: BTreeSet<String>,
}

impl Types {
    /// Every component schema and every operation's input.
    pub fn build(root: &Value, ops: &[Op]) -> Result<Self> {
        let mut types = Self::default();
        let names: Vec<String> = root
            .pointer("/components/schemas")
            .and_then(Value::as_object)
            .map(|m| m.keys().cloned().collect())
            .unwrap_or_default();
        for name in names {
            types.component(root, &name)?;
        }
        for op in ops {
            types.input(root, op)?;
        }
        Ok(types)
    }

    /// Template data: `{structs: [...], enums: [...]}`, in name order.
    pub fn data(&self) -> Value {
        json!({
            "structs": self.structs.values().collect::<Vec<_>>(),
            "enums": self.enums.values().collect::<Vec<_>>(),
        })
    }

    fn component(&mut self, root: &Value, name: &str) -> Result<String> {
        if self.structs.contains_key(name) || self.enums.contains_key(name) || self.in_progress.contains(name)
        {
            return Ok(name.to_string());
        }
        let schema = root
            .pointer(&format!("/components/schemas/{name}"))
            .ok_or_else(|| SpecError::new(format!("schema {name} does not exist")))?
            .clone();
        self.in_progress.insert(name.to_string());
        let ty = self.ty(root, &schema, name)?;
        self.in_progress.remove(name);
        Ok(ty)
    }

    /// The input struct of an operation: `ChargesUpdateInput`.
    fn input(&mut self, root: &Value, op: &Op) -> Result<()> {
        let name = format!("{}Input", pascal(&op.operation_id));
        let mut fields = Vec::new();
        for field in op.input_fields.iter().filter(|f| !ENDPOINT_FIELDS.contains(&f.name.as_str())) {
            let context = format!("{}{}", pascal(&op.operation_id), pascal(&field.name));
            let doc = match field.source {
                Source::Path => "Path parameter.",
                Source::Query => "Query parameter.",
                Source::Body => "Body field.",
            };
            // A malformed id in the path must stay NOT_FOUND, so path parameters stay `String`.
            let text = (field.source != Source::Path).then(|| text_ty(&field.schema)).flatten();
            let base = match text {
                Some(ty) => ty,
                None => self.ty(root, &field.schema, &context)?,
            };
            fields.push(field_data(&field.name, &field.schema, base, field.required, doc));
        }
        let doc =
            doc_text(&format!("The input of `{}`: path, query and body fields, flat.", op.operation_id));
        self.structs
            .insert(name.clone(), json!({ "name": name, "doc": doc, "fields": fields, "closed": true }));
        Ok(())
    }

    fn field(
        &mut self,
        root: &Value,
        name: &str,
        schema: &Value,
        required: bool,
        context: &str,
        fallback_doc: &str,
    ) -> Result<Value> {
        let base = self.ty(root, schema, context)?;
        Ok(field_data(name, schema, base, required, fallback_doc))
    }

    fn ty(&mut self, root: &Value, schema: &Value, context: &str) -> Result<String> {
        if let Some(reference) = schema.get("$ref").and_then(Value::as_str) {
            let name = reference
                .strip_prefix("#/components/schemas/")
                .ok_or_else(|| SpecError::new(format!("{context}: $ref {reference} is not a schema")))?;
            return self.component(root, name);
        }
        if let Some(all) = schema.get("allOf").and_then(Value::as_array) {
            return match all.as_slice() {
                [only] => self.ty(root, only, context),
                _ => Err(SpecError::new(format!("{context}: allOf with several schemas has no Rust type"))),
            };
        }
        if let Some(alternatives) = or_null(schema) {
            // "This, or null": the type of this (the field is nullable, see `is_nullable`).
            return match alternatives {
                Some(only) => self.ty(root, only, context),
                None => Err(SpecError::new(format!(
                    "{context}: anyOf/oneOf has a Rust type only as one schema or null"
                ))),
            };
        }
        let kind = schema.get("type").and_then(Value::as_str);
        match kind {
            Some("string") => {
                if let Some(values) = schema.get("enum").and_then(Value::as_array) {
                    return self.enumeration(context, values, schema);
                }
                Ok(match schema.get("format").and_then(Value::as_str) {
                    Some("date") => DAY.into(),
                    Some("date-time") => TIMESTAMP.into(),
                    _ => "String".into(),
                })
            }
            Some("integer") => Ok("i64".into()),
            Some("number") => Ok(HUNDREDTHS.into()),
            Some("boolean") => Ok("bool".into()),
            Some("array") => {
                let items = schema
                    .get("items")
                    .ok_or_else(|| SpecError::new(format!("{context}: array without items")))?;
                Ok(format!("Vec<{}>", self.ty(root, items, &format!("{context}Item"))?))
            }
            Some("object") | None if schema.get("properties").is_some() => self.object(root, context, schema),
            Some("object") => match schema.get("additionalProperties") {
                Some(extra) if extra.get("type").and_then(Value::as_str) == Some("string") => {
                    Ok("std::collections::BTreeMap<String, String>".into())
                }
                _ => Ok("serde_json::Map<String, serde_json::Value>".into()),
            },
            other => Err(SpecError::new(format!("{context}: schema type {other:?} has no Rust type"))),
        }
    }

    fn object(&mut self, root: &Value, name: &str, schema: &Value) -> Result<String> {
        let required: Vec<&str> = schema
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let mut fields = Vec::new();
        for (field, prop) in schema.get("properties").and_then(Value::as_object).into_iter().flatten() {
            let context = format!("{name}{}", pascal(field));
            let required = required.contains(&field.as_str());
            fields.push(self.field(root, field, prop, required, &context, "")?);
        }
        let doc = doc_text(schema.get("description").and_then(Value::as_str).unwrap_or(""));
        let closed = schema.get("additionalProperties") == Some(&Value::Bool(false));
        self.structs.insert(
            name.to_string(),
            json!({ "name": name, "doc": doc, "fields": fields, "closed": closed }),
        );
        Ok(name.to_string())
    }

    fn enumeration(&mut self, name: &str, values: &[Value], schema: &Value) -> Result<String> {
        let values: Vec<String> =
            values.iter().map(|v| v.as_str().map(str::to_string)).collect::<Option<_>>().ok_or_else(
                || SpecError::new(format!("{name}: a string enum has a value that is not a string")),
            )?;
        match self.enum_values.get(name) {
            Some(existing) if *existing != values => {
                return Err(SpecError::new(format!(
                    "{name}: two different enums would share this Rust name"
                )));
            }
            Some(_) => return Ok(name.to_string()),
            None => {}
        }
        let variants: Vec<Value> =
            values.iter().map(|v| json!({ "value": v, "ident": pascal(&v.to_ascii_lowercase()) })).collect();
        let idents: BTreeSet<&str> = variants.iter().filter_map(|v| v["ident"].as_str()).collect();
        if idents.len() != variants.len() {
            return Err(SpecError::new(format!("{name}: enum values collide once written in PascalCase")));
        }
        let doc = doc_text(schema.get("description").and_then(Value::as_str).unwrap_or(""));
        self.enum_values.insert(name.to_string(), values);
        self.enums.insert(name.to_string(), json!({ "name": name, "doc": doc, "variants": variants }));
        Ok(name.to_string())
    }
}

/// A field's template data, from its Rust type before `Option` wrapping.
fn field_data(name: &str, schema: &Value, base: String, required: bool, fallback_doc: &str) -> Value {
    let nullable = is_nullable(schema);
    let (ty, mode) = match (required, nullable) {
        (true, false) => (base, "required"),
        (true, true) => (format!("Option<{base}>"), "nullable"),
        (false, false) => (format!("Option<{base}>"), "optional"),
        (false, true) => (format!("Option<Option<{base}>>"), "patch"),
    };
    let doc = doc_text(schema.get("description").and_then(Value::as_str).unwrap_or(fallback_doc));
    json!({
        "name": name,
        "ident": ident(name),
        "ty": ty,
        "doc": doc,
        "optional": mode == "optional",
        "patch": mode == "patch",
    })
}

/// The checked text type of an input field that is plain text (a `type: string` without enum or
/// date format), a list of them or a string map: `Text`, or `MultilineText` where the spec says
/// `x-multiline: true` (free text, where a newline belongs). `None` for anything else.
fn text_ty(schema: &Value) -> Option<String> {
    let plain_string = |s: &Value| {
        s.get("type").and_then(Value::as_str) == Some("string")
            && s.get("enum").is_none()
            && s.get("$ref").is_none()
            && !matches!(s.get("format").and_then(Value::as_str), Some("date" | "date-time"))
    };
    let text = |s: &Value| {
        let multiline = s.get("x-multiline").and_then(Value::as_bool) == Some(true);
        if multiline { MULTILINE_TEXT } else { TEXT }.to_string()
    };
    match schema.get("type").and_then(Value::as_str) {
        _ if plain_string(schema) => Some(text(schema)),
        Some("array") => schema.get("items").filter(|i| plain_string(i)).map(|i| format!("Vec<{}>", text(i))),
        Some("object") if schema.get("properties").is_none() => schema
            .get("additionalProperties")
            .filter(|v| plain_string(v))
            .map(|v| format!("std::collections::BTreeMap<{TEXT}, {}>", text(v))),
        _ => None,
    }
}

/// A spec description as doc-comment text: one leading space per line, as `///` writes it.
pub fn doc_text(description: &str) -> String {
    description.trim().lines().map(|l| format!(" {}", l.trim_end())).collect::<Vec<_>>().join("\n")
}

fn is_nullable(schema: &Value) -> bool {
    schema.get("nullable").and_then(Value::as_bool) == Some(true) || matches!(or_null(schema), Some(Some(_)))
}

/// An `anyOf`/`oneOf`: `Some(Some(schema))` when it is one schema or null (OpenAPI 3.0.3's
/// nullable `$ref`: the other member is `{type, nullable: true, enum: [null]}`), `Some(None)`
/// for any other alternatives, `None` when there are none.
fn or_null(schema: &Value) -> Option<Option<&Value>> {
    let alternatives = schema.get("anyOf").or_else(|| schema.get("oneOf"))?.as_array()?;
    let null_only = |s: &Value| crate::schema::is_null_only(s);
    Some(match alternatives.as_slice() {
        [only, null] | [null, only] if null_only(null) && !null_only(only) => Some(only),
        _ => None,
    })
}

/// `charges_list` -> `ChargesList`, `due_date` -> `DueDate`.
pub fn pascal(s: &str) -> String {
    s.split(['_', '-', '.', ' '])
        .filter(|p| !p.is_empty())
        .map(|p| {
            let mut chars = p.chars();
            chars.next().map(|c| c.to_ascii_uppercase().to_string() + chars.as_str()).unwrap_or_default()
        })
        .collect()
}

/// A field name as a Rust identifier (raw when it is a keyword).
fn ident(name: &str) -> String {
    const KEYWORDS: &[&str] = &["type", "match", "ref", "self", "move", "fn", "impl", "use", "mod", "where"];
    if KEYWORDS.contains(&name) { format!("r#{name}") } else { name.to_string() }
}
