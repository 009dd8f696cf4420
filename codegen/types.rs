//! OpenAPI schemas -> Rust types: one struct per object schema of `components/schemas`, one
//! enum per string enum, and one flat input struct per operation (its path, query and body
//! fields side by side, as the MCP tool sees them).
//!
//! The mapping is deliberately small, because the spec is: `string` is `String` (`Day` for
//! `format: date`, `Timestamp` for `format: date-time`, an enum when it has `enum`), `integer`
//! is `i64`, `number` is `Hundredths` (every number of this API is money or a percentage with at
//! most 2 decimals), `boolean` is `bool`, arrays are `Vec`, string and integer maps are
//! `BTreeMap`, free objects are JSON maps. A nullable field is an `Option`; an optional one is
//! skipped when absent; an optional nullable one (`PATCH` semantics: absent keeps, null clears)
//! is `Option<Option<_>>`.
//! In the operation inputs (not the answers), plain strings outside the path are checked text:
//! `Text`, or `MultilineText` for properties marked `x-multiline: true`.
//! Anything else fails the build with the schema it concerns.

use std::collections::{BTreeMap, BTreeSet};

use openapiv3::{
    AdditionalProperties, AnySchema, Components, ReferenceOr, Schema, SchemaKind, StringFormat, Type,
    VariantOrUnknownOrEmpty,
};
use serde_json::{Value, json};

use crate::model::{ObjectParts, Op, PARTIAL_ROW, Result, Source, SpecError, object_parts, type_name};
use crate::schema::schema_name;

const DAY: &str = "crate::domain::dates::Day";
const TIMESTAMP: &str = "crate::domain::dates::Timestamp";
const HUNDREDTHS: &str = "crate::domain::money::Hundredths";
const TEXT: &str = "crate::domain::text::Text";
const MULTILINE_TEXT: &str = "crate::domain::text::MultilineText";
/// Consumed by the endpoint before the handler runs: the idempotency key (a header as well), and
/// a list's `fields` (the endpoint cuts the rows the handler answers).
const ENDPOINT_FIELDS: &[&str] = &["idempotency_key", "fields"];

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
                let name = schema_name(reference)
                    .ok_or_else(|| SpecError::new(format!("{context}: $ref {reference} is not a schema")))?;
                return self.component(components, name);
            }
            ReferenceOr::Item(schema) => schema,
        };
        match &schema.schema_kind {
            SchemaKind::AllOf { all_of } => self.all_of(components, all_of, context),
            SchemaKind::AnyOf { any_of: alternatives } | SchemaKind::OneOf { one_of: alternatives } => {
                self.one_or_null(components, alternatives, context)
            }
            SchemaKind::Type(Type::String(string)) => {
                if !string.enumeration.is_empty() {
                    return self.enumeration(context, string.enumeration.to_vec(), schema);
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
            SchemaKind::Type(Type::Object(_)) => self.object(components, context, schema),
            SchemaKind::Any(any) => self.any(components, context, schema, any),
            SchemaKind::Not { .. } => Err(SpecError::new(format!("{context}: `not` has no Rust type"))),
        }
    }

    fn all_of(
        &mut self,
        components: &Components,
        all_of: &[ReferenceOr<Schema>],
        context: &str,
    ) -> Result<String> {
        match all_of {
            [only] => self.ty(components, only, context),
            _ => Err(SpecError::new(format!("{context}: allOf with several schemas has no Rust type"))),
        }
    }

    /// "This, or null": the type of this (the field is nullable, see `is_nullable`).
    fn one_or_null(
        &mut self,
        components: &Components,
        alternatives: &[ReferenceOr<Schema>],
        context: &str,
    ) -> Result<String> {
        match or_null(alternatives).or_else(|| or_partial(alternatives)) {
            Some(only) => self.ty(components, only, context),
            None => Err(SpecError::new(format!(
                "{context}: anyOf/oneOf has a Rust type only as one schema or null"
            ))),
        }
    }

    /// `SchemaKind::Any` is where openapiv3 files a schema whose keywords do not fit its one-type
    /// structs: properties without `type`, an object beside `oneOf`/`allOf`/`enum`, a string enum
    /// with a value that is not a string. Combinators come first, then objects, as the generator
    /// read them before openapiv3 did.
    fn any(
        &mut self,
        components: &Components,
        context: &str,
        schema: &Schema,
        any: &AnySchema,
    ) -> Result<String> {
        if !any.all_of.is_empty() {
            return self.all_of(components, &any.all_of, context);
        }
        if !any.any_of.is_empty() {
            return self.one_or_null(components, &any.any_of, context);
        }
        if !any.one_of.is_empty() {
            return self.one_or_null(components, &any.one_of, context);
        }
        if object_parts(schema).is_some() {
            return self.object(components, context, schema);
        }
        match any.typ.as_deref() {
            Some("string") if !any.enumeration.is_empty() => {
                let values = any.enumeration.iter().map(|v| v.as_str().map(str::to_string)).collect();
                self.enumeration(context, values, schema)
            }
            Some(typ) => Err(SpecError::new(format!(
                "{context}: a schema of type {typ} with keywords of another type has no Rust type"
            ))),
            None => Err(SpecError::new(format!(
                "{context}: a schema without type or properties has no Rust type"
            ))),
        }
    }

    /// An object: a struct when it declares properties, else a map.
    fn object(&mut self, components: &Components, name: &str, schema: &Schema) -> Result<String> {
        let Some(ObjectParts { properties, required, additional_properties }) = object_parts(schema) else {
            return Err(SpecError::new(format!("{name}: not an object schema")));
        };
        if properties.is_empty() {
            return Ok(match additional_properties {
                Some(AdditionalProperties::Schema(extra))
                    if extra.as_item().and_then(type_name) == Some("string") =>
                {
                    "std::collections::BTreeMap<String, String>".into()
                }
                Some(AdditionalProperties::Schema(extra))
                    if extra.as_item().and_then(type_name) == Some("integer") =>
                {
                    "std::collections::BTreeMap<String, i64>".into()
                }
                _ => "serde_json::Map<String, serde_json::Value>".into(),
            });
        }
        let mut fields = Vec::new();
        for (field, prop) in properties {
            let context = format!("{name}{}", pascal(field));
            let required = required.contains(field);
            fields.push(self.field(components, field, &prop.clone().unbox(), required, &context, "")?);
        }
        let doc = doc_text(schema.schema_data.description.as_deref().unwrap_or(""));
        let closed = additional_properties == Some(&AdditionalProperties::Any(false));
        self.structs.insert(
            name.to_string(),
            json!({ "name": name, "doc": doc, "fields": fields, "closed": closed }),
        );
        Ok(name.to_string())
    }

    /// `values` holds `None` for each value that is not a string.
    fn enumeration(&mut self, name: &str, values: Vec<Option<String>>, schema: &Schema) -> Result<String> {
        let values: Vec<String> = values.into_iter().collect::<Option<_>>().ok_or_else(|| {
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
        let alternatives = match &schema.schema_kind {
            SchemaKind::AnyOf { any_of: alternatives } | SchemaKind::OneOf { one_of: alternatives } => {
                alternatives.as_slice()
            }
            SchemaKind::Any(any) if !any.any_of.is_empty() => &any.any_of,
            SchemaKind::Any(any) => &any.one_of,
            _ => &[],
        };
        schema.schema_data.nullable || or_null(alternatives).is_some()
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

/// The row of a list's `data` items, which are the row or, when `fields` cut it, a
/// [`PARTIAL_ROW`]: the answer's type is the full row's (the cut is made on its JSON).
fn or_partial(alternatives: &[ReferenceOr<Schema>]) -> Option<&ReferenceOr<Schema>> {
    let is_partial = |schema: &ReferenceOr<Schema>| match schema {
        ReferenceOr::Reference { reference } => schema_name(reference) == Some(PARTIAL_ROW),
        ReferenceOr::Item(_) => false,
    };
    match alternatives {
        [only, partial] if is_partial(partial) && !is_partial(only) => Some(only),
        _ => None,
    }
}

/// Whether a schema admits `null` and nothing else (`enum: [null]`). codegen/schema.rs has the
/// same test on converted JSON (`is_null_only`), where it works: that module is also compiled
/// without this one (src/spec/), and the two read different forms of the schema.
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
