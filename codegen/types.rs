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

use openapiv3::{
    AdditionalProperties, Components, ObjectType, ReferenceOr, Schema, SchemaKind, StringFormat, Type,
    VariantOrUnknownOrEmpty,
};
use serde_json::{Value, json};

use crate::model::{Op, Result, Source, SpecError, type_name};

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
    pub fn build(components: &Components, ops: &[Op]) -> Result<Self> {
        let mut types = Self::default();
        for name in components.schemas.keys() {
            types.component(components, name)?;
        }
        for op in ops {
            types.input(components, op)?;
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

    fn component(&mut self, components: &Components, name: &str) -> Result<String> {
        if self.structs.contains_key(name) || self.enums.contains_key(name) || self.in_progress.contains(name)
        {
            return Ok(name.to_string());
        }
        let schema = components
            .schemas
            .get(name)
            .ok_or_else(|| SpecError::new(format!("schema {name} does not exist")))?;
        self.in_progress.insert(name.to_string());
        let ty = self.ty(components, schema, name)?;
        self.in_progress.remove(name);
        Ok(ty)
    }

    /// The input struct of an operation: `ChargesUpdateInput`.
    fn input(&mut self, components: &Components, op: &Op) -> Result<()> {
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
                None => self.ty(components, &field.schema, &context)?,
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
        components: &Components,
        name: &str,
        schema: &ReferenceOr<Schema>,
        required: bool,
        context: &str,
        fallback_doc: &str,
    ) -> Result<Value> {
        let base = self.ty(components, schema, context)?;
        Ok(field_data(name, schema, base, required, fallback_doc))
    }

    fn ty(&mut self, components: &Components, schema: &ReferenceOr<Schema>, context: &str) -> Result<String> {
        let schema = match schema {
            ReferenceOr::Reference { reference } => {
                let name = reference
                    .strip_prefix("#/components/schemas/")
                    .ok_or_else(|| SpecError::new(format!("{context}: $ref {reference} is not a schema")))?;
                return self.component(components, name);
            }
            ReferenceOr::Item(schema) => schema,
        };
        match &schema.schema_kind {
            SchemaKind::AllOf { all_of } => match all_of.as_slice() {
                [only] => self.ty(components, only, context),
                _ => Err(SpecError::new(format!("{context}: allOf with several schemas has no Rust type"))),
            },
            // "This, or null": the type of this (the field is nullable, see `is_nullable`).
            SchemaKind::AnyOf { any_of: alternatives } | SchemaKind::OneOf { one_of: alternatives } => {
                match or_null(alternatives) {
                    Some(only) => self.ty(components, only, context),
                    None => Err(SpecError::new(format!(
                        "{context}: anyOf/oneOf has a Rust type only as one schema or null"
                    ))),
                }
            }
            SchemaKind::Type(Type::String(string)) => {
                if !string.enumeration.is_empty() {
                    return self.enumeration(context, &string.enumeration, schema);
                }
                Ok(match string.format {
                    VariantOrUnknownOrEmpty::Item(StringFormat::Date) => DAY.into(),
                    VariantOrUnknownOrEmpty::Item(StringFormat::DateTime) => TIMESTAMP.into(),
                    _ => "String".into(),
                })
            }
            SchemaKind::Type(Type::Integer(_)) => Ok("i64".into()),
            SchemaKind::Type(Type::Number(_)) => Ok(HUNDREDTHS.into()),
            SchemaKind::Type(Type::Boolean(_)) => Ok("bool".into()),
            SchemaKind::Type(Type::Array(array)) => {
                let items = array
                    .items
                    .clone()
                    .ok_or_else(|| SpecError::new(format!("{context}: array without items")))?
                    .unbox();
                Ok(format!("Vec<{}>", self.ty(components, &items, &format!("{context}Item"))?))
            }
            SchemaKind::Type(Type::Object(object)) if !object.properties.is_empty() => {
                self.object(components, context, schema, object)
            }
            SchemaKind::Type(Type::Object(object)) => match &object.additional_properties {
                Some(AdditionalProperties::Schema(extra))
                    if extra.as_item().and_then(type_name) == Some("string") =>
                {
                    Ok("std::collections::BTreeMap<String, String>".into())
                }
                _ => Ok("serde_json::Map<String, serde_json::Value>".into()),
            },
            // Keywords of several types at once (or none), which openapiv3 reads as no one type.
            SchemaKind::Any(_) | SchemaKind::Not { .. } => Err(SpecError::new(format!(
                "{context}: schema type {:?} has no Rust type",
                type_name(schema)
            ))),
        }
    }

    fn object(
        &mut self,
        components: &Components,
        name: &str,
        schema: &Schema,
        object: &ObjectType,
    ) -> Result<String> {
        let mut fields = Vec::new();
        for (field, prop) in &object.properties {
            let context = format!("{name}{}", pascal(field));
            let required = object.required.contains(field);
            fields.push(self.field(components, field, &prop.clone().unbox(), required, &context, "")?);
        }
        let doc = doc_text(schema.schema_data.description.as_deref().unwrap_or(""));
        let closed = object.additional_properties == Some(AdditionalProperties::Any(false));
        self.structs.insert(
            name.to_string(),
            json!({ "name": name, "doc": doc, "fields": fields, "closed": closed }),
        );
        Ok(name.to_string())
    }

    fn enumeration(&mut self, name: &str, values: &[Option<String>], schema: &Schema) -> Result<String> {
        let values: Vec<String> = values.iter().cloned().collect::<Option<_>>().ok_or_else(|| {
            SpecError::new(format!("{name}: a string enum has a value that is not a string"))
        })?;
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
        let doc = doc_text(schema.schema_data.description.as_deref().unwrap_or(""));
        self.enum_values.insert(name.to_string(), values);
        self.enums.insert(name.to_string(), json!({ "name": name, "doc": doc, "variants": variants }));
        Ok(name.to_string())
    }
}

/// A field's template data, from its Rust type before `Option` wrapping.
fn field_data(
    name: &str,
    schema: &ReferenceOr<Schema>,
    base: String,
    required: bool,
    fallback_doc: &str,
) -> Value {
    let nullable = is_nullable(schema);
    let (ty, mode) = match (required, nullable) {
        (true, false) => (base, "required"),
        (true, true) => (format!("Option<{base}>"), "nullable"),
        (false, false) => (format!("Option<{base}>"), "optional"),
        (false, true) => (format!("Option<Option<{base}>>"), "patch"),
    };
    let description = schema.as_item().and_then(|s| s.schema_data.description.as_deref());
    let doc = doc_text(description.unwrap_or(fallback_doc));
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
fn text_ty(schema: &ReferenceOr<Schema>) -> Option<String> {
    let plain_string = |s: &Schema| match &s.schema_kind {
        SchemaKind::Type(Type::String(string)) => {
            string.enumeration.is_empty()
                && !matches!(
                    string.format,
                    VariantOrUnknownOrEmpty::Item(StringFormat::Date | StringFormat::DateTime)
                )
        }
        _ => false,
    };
    let text = |s: &Schema| {
        let multiline = s.schema_data.extensions.get("x-multiline") == Some(&Value::Bool(true));
        if multiline { MULTILINE_TEXT } else { TEXT }.to_string()
    };
    let schema = schema.as_item()?;
    match &schema.schema_kind {
        _ if plain_string(schema) => Some(text(schema)),
        SchemaKind::Type(Type::Array(array)) => {
            let items = array.items.as_ref()?.as_item().filter(|i| plain_string(i))?;
            Some(format!("Vec<{}>", text(items)))
        }
        SchemaKind::Type(Type::Object(object)) if object.properties.is_empty() => {
            let Some(AdditionalProperties::Schema(values)) = &object.additional_properties else {
                return None;
            };
            let values = values.as_item().filter(|v| plain_string(v))?;
            Some(format!("std::collections::BTreeMap<{TEXT}, {}>", text(values)))
        }
        _ => None,
    }
}

/// A spec description as doc-comment text: one leading space per line, as `///` writes it.
pub fn doc_text(description: &str) -> String {
    description.trim().lines().map(|l| format!(" {}", l.trim_end())).collect::<Vec<_>>().join("\n")
}

fn is_nullable(schema: &ReferenceOr<Schema>) -> bool {
    schema.as_item().is_some_and(|schema| {
        schema.schema_data.nullable
            || matches!(&schema.schema_kind, SchemaKind::AnyOf { any_of: alternatives }
                | SchemaKind::OneOf { one_of: alternatives } if or_null(alternatives).is_some())
    })
}

/// The one schema of alternatives that are it or null (OpenAPI 3.0.3's nullable `$ref`: the
/// other member is `{type, nullable: true, enum: [null]}`); `None` for any other alternatives.
fn or_null(alternatives: &[ReferenceOr<Schema>]) -> Option<&ReferenceOr<Schema>> {
    match alternatives {
        [only, null] | [null, only] if is_null_only(null) && !is_null_only(only) => Some(only),
        _ => None,
    }
}

/// Whether a schema admits `null` and nothing else (`enum: [null]`).
fn is_null_only(schema: &ReferenceOr<Schema>) -> bool {
    let Some(schema) = schema.as_item() else { return false };
    match &schema.schema_kind {
        SchemaKind::Type(Type::String(string)) => string.enumeration == [None],
        SchemaKind::Type(Type::Integer(integer)) => integer.enumeration == [None],
        SchemaKind::Type(Type::Number(number)) => number.enumeration == [None],
        SchemaKind::Type(Type::Boolean(boolean)) => boolean.enumeration == [None],
        SchemaKind::Any(any) => any.enumeration == [Value::Null],
        _ => false,
    }
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
