//! The generator's view of the spec: one `Op` per operation, checked for everything the
//! generated code relies on (ids, x-mcp, scopes, name lengths, argument collisions).
//!
//! This file holds the model and the driver that reads it; each part of the spec is read in a
//! file of its own beside it (model.rs is always compiled through `#[path]`, so its `mod`
//! declarations find these files in codegen/): `x_mcp.rs` an operation's `x-mcp` block, `inputs.rs` its parameters and body, `responses.rs`
//! its answers, `toolsets.rs` `x-toolsets`, `events.rs` `x-event-payloads`, and `checks.rs`
//! what must hold across operations.

mod checks;
mod events;
mod inputs;
mod responses;
mod toolsets;
mod x_mcp;

use std::collections::BTreeMap;
use std::fmt;

use openapiv3::{
    AdditionalProperties, Components, Content, OpenAPI, Operation, Parameter, ReferenceOr, Schema,
    SchemaKind, Type,
};
use serde::Deserialize;
use serde_json::{Value, json};

// `super`, not `crate`: the server's `spec diff` (src/spec/) reads specs with this same model,
// nested in a module, while build.rs and tests/codegen.rs have it at their crate root.

use super::schema::{self, Schemas};

/// A spec the generator refuses, with the reason (and the operation it concerns).
#[derive(Debug)]
pub struct SpecError(String);

impl SpecError {
    pub fn new(message: impl Into<String>) -> Self {
        Self(message.into())
    }
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

pub type Result<T> = std::result::Result<T, SpecError>;

/// MCP tool names are limited to 64 characters by the MCP specification.
const MAX_TOOL_NAME: usize = 64;
const TOOL_PREFIX: &str = "dunning_";
pub const KNOWN_SCOPES: &[&str] = &[
    "any",
    "dunning.read",
    "dunning.write",
    "dunning.notify",
    "dunning.escalate",
    "dunning.webhooks",
    "dunning.exports",
];

/// The query parameter that cuts a list's rows to the named fields; every list takes it.
pub const FIELDS_PARAM: &str = "fields";
/// The schema of a list row cut by `fields` (the second of its `data` items' `anyOf`).
pub const PARTIAL_ROW: &str = "PartialRow";

pub struct Api {
    pub version: String,
    pub ops: Vec<Op>,
    /// `x-toolsets`, in name order: the narrower MCP endpoints (`/mcp/x/<toolset>`).
    pub toolsets: Vec<Toolset>,
    /// `x-event-payloads`: event code -> the converted schema of what the event carries.
    pub event_payloads: BTreeMap<String, Value>,
    /// The components, for the type generator.
    pub components: Components,
}

pub struct QueryParam {
    pub name: String,
    pub kind: &'static str,
}

/// `x-mcp.confirm`: how a destructive operation asks before it runs.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Confirm {
    #[serde(default)]
    pub target: Option<String>,
    /// The argument whose value is the target's `id`, when the operation takes it in its body
    /// (a create about an existing object) rather than in its path.
    #[serde(default)]
    pub target_id: Option<String>,
    /// More objects the question shows, read before it is asked (see `codegen/confirm.rs`).
    #[serde(default)]
    pub reads: Vec<ConfirmRead>,
    pub message: String,
}

/// One entry of `x-toolsets`: a group of tags served alone at `/mcp/x/<name>`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Toolset {
    /// Filled from the map's key.
    #[serde(skip)]
    pub name: String,
    /// What its tools cover, for the server instructions (a phrase, lower case).
    pub description: String,
    /// The tags whose operations it holds.
    pub tags: Vec<String>,
}

/// One more read of `x-mcp.confirm.reads`: a read-only operation taken with arguments drawn
/// from the call's, the target's or an earlier read's, whose answer the template sees by `name`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConfirmRead {
    pub name: String,
    pub operation: String,
    /// Read once per item of this list (an expression), the item named `item`, at most `limit`.
    #[serde(default)]
    pub each: Option<String>,
    #[serde(default)]
    pub limit: Option<usize>,
    /// Argument of the read -> expression (`[expression]` for a one-item list); `*` spreads an
    /// object's fields, those the read takes.
    #[serde(default)]
    pub arguments: BTreeMap<String, String>,
}

/// `x-mcp.effect`.
#[derive(Deserialize, Clone, Copy, PartialEq, Eq, Debug)]
#[serde(rename_all = "snake_case")]
pub enum Effect {
    Read,
    Write,
    Destructive,
}

impl Effect {
    pub fn variant(self) -> &'static str {
        match self {
            Self::Read => "Read",
            Self::Write => "Write",
            Self::Destructive => "Destructive",
        }
    }
}

pub enum ResponseKind {
    Json,
    NoContent,
    Binary { content_type: String, extension: String },
}

pub struct Op {
    pub operation_id: String,
    pub tool_name: String,
    /// `x-mcp.aliases`: former tool names that still answer, never listed.
    pub aliases: Vec<String>,
    pub title: String,
    pub description: String,
    /// `x-mcp.description`: the tool descriptor's description.
    pub tool_description: String,
    pub tag: String,
    /// Every tag of the operation (`tag` is the first).
    pub tags: Vec<String>,
    /// The `x-toolsets` entry its tags are in (set by `Api::from_yaml`).
    pub toolset: String,
    pub method: String,
    pub path: String,
    pub effect: Effect,
    pub idempotent: bool,
    /// The first scope of `x-mcp.scope`; `None` for `any`.
    pub scope: Option<String>,
    /// The other scopes of `x-mcp.scope` (a list): every call needs them too.
    pub further_scopes: Vec<String>,
    /// `x-mcp.conditional_scope`.
    pub conditional_scope: Option<String>,
    pub confirm: Option<Confirm>,
    pub path_params: Vec<String>,
    pub query_params: Vec<QueryParam>,
    /// Header parameters (documentation for REST callers; tools do not take them). Only
    /// `spec diff` reads them: the generated code does not.
    #[allow(dead_code)]
    pub header_params: Vec<HeaderParam>,
    pub body: Option<Body>,
    pub success_status: u16,
    pub response: ResponseKind,
    pub resource_uri: Option<String>,
    /// Argument -> list operation whose ids complete it (`x-mcp.complete`).
    pub complete: BTreeMap<String, String>,
    /// `x-mcp.view`: the name of the MCP App view that shows the tool's result.
    pub view: Option<String>,
    /// Raw OpenAPI schemas, for the typed input: (field, schema, required, where).
    pub input_fields: Vec<InputField>,
    /// The `$ref` name of the success response's JSON schema.
    pub response_type: Option<String>,
    pub input_schema: Value,
    /// What the tool's descriptor shows of `input_schema` (`schema::for_tool`).
    pub tool_schema: Value,
    pub query_schema: Value,
    /// Status code -> converted response schema, for the contract tests.
    pub response_schemas: BTreeMap<String, Value>,
    /// A list's row fields, the names its `fields` takes (the properties of its `data` items'
    /// schema); empty for an operation that is not a list.
    pub row_fields: Vec<String>,
}

/// Where an input field comes from.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Source {
    Path,
    Query,
    Body,
}

/// One field of an operation's flat input, with its raw (OpenAPI) schema.
pub struct InputField {
    pub name: String,
    pub schema: ReferenceOr<Schema>,
    pub required: bool,
    pub source: Source,
}

/// A header parameter, with its converted schema.
#[allow(dead_code)]
pub struct HeaderParam {
    pub name: String,
    pub required: bool,
    pub schema: Value,
}

pub struct Body {
    pub required: bool,
    pub fields: Vec<String>,
    pub schema: Value,
}

impl Op {
    /// Writes take an idempotency key: POST and PATCH that change something.
    pub fn accepts_idempotency_key(&self) -> bool {
        self.effect != Effect::Read && matches!(self.method.as_str(), "post" | "patch")
    }

    /// The MCP tool descriptor: deterministic, caller-independent. Its schema is `tool_schema`
    /// (the catalogue budget, docs/ARCHITECTURE.md): conventions every tool shares are said
    /// once, in the server instructions (src/mcp/instructions.rs), and the server checks every
    /// call against the full `input_schema`.
    pub fn descriptor(&self) -> Value {
        // No `annotations.title`: it would repeat `title` in every descriptor. Eras without
        // a top-level title get it there instead (src/mcp/tools.rs).
        let annotations = json!({
            "readOnlyHint": self.effect == Effect::Read,
            "destructiveHint": self.effect == Effect::Destructive,
            "idempotentHint": self.idempotent,
            "openWorldHint": false,
        });
        let mut descriptor = json!({ "name": self.tool_name, "title": self.title });
        descriptor["description"] = json!(self.tool_description);
        descriptor["inputSchema"] = self.tool_schema.clone();
        descriptor["annotations"] = annotations;
        descriptor
    }
}

impl Api {
    pub fn from_yaml(text: &str) -> Result<Self> {
        let mut doc: OpenAPI = yaml_serde::from_str(text)
            .map_err(|e| SpecError::new(format!("not an OpenAPI 3.0 document: {e}")))?;
        if !doc.openapi.starts_with("3.0.") {
            return Err(SpecError::new(format!("openapi {} is not supported (3.0.x only)", doc.openapi)));
        }
        let components = doc.components.take().unwrap_or_default();
        let schemas =
            Schemas::new(&components, doc.extensions.get("x-text-patterns")).map_err(SpecError::new)?;
        let mut ops = Vec::new();
        for (path, item) in &doc.paths.paths {
            let ReferenceOr::Item(item) = item else {
                return Err(SpecError::new(format!("{path}: a $ref path item is not supported")));
            };
            for (method, operation) in item.iter() {
                if matches!(method, "options" | "head" | "trace") {
                    return Err(SpecError::new(format!("{path}: method {method} is not supported")));
                }
                ops.push(Op::new(path, method, operation, &item.parameters, &components, &schemas)?);
            }
        }
        checks::check_collisions(&ops)?;
        checks::check_confirm_targets(&ops)?;
        super::confirm::check(&ops)?;
        checks::check_completions(&ops)?;
        let declared: Vec<&str> = doc.tags.iter().map(|t| t.name.as_str()).collect();
        let toolsets = toolsets::toolsets(doc.extensions.get("x-toolsets"), &declared, &mut ops)?;
        let event_payloads =
            events::event_payloads(doc.extensions.get("x-event-payloads"), &components, &schemas)?;
        Ok(Self { version: doc.info.version, ops, toolsets, event_payloads, components })
    }
}

/// Follows a `$ref` to `#/components/<kind>/<name>` (one level), or returns the item.
fn resolve<'a, T>(
    item: &'a ReferenceOr<T>,
    kind: &str,
    named: impl FnOnce(&str) -> Option<&'a ReferenceOr<T>>,
) -> std::result::Result<&'a T, String> {
    let reference = match item {
        ReferenceOr::Item(item) => return Ok(item),
        ReferenceOr::Reference { reference } => reference,
    };
    let prefix = format!("#/components/{kind}/");
    let name = reference
        .strip_prefix(&prefix)
        .ok_or_else(|| format!("$ref {reference} must point into {prefix}"))?;
    match named(name) {
        Some(ReferenceOr::Item(item)) => Ok(item),
        Some(ReferenceOr::Reference { .. }) => Err(format!("$ref {reference} names another $ref")),
        None => Err(format!("$ref {reference} does not exist")),
    }
}

/// The `type` a schema declares, if it declares one.
pub fn type_name(schema: &Schema) -> Option<&str> {
    match &schema.schema_kind {
        SchemaKind::Type(Type::String(_)) => Some("string"),
        SchemaKind::Type(Type::Number(_)) => Some("number"),
        SchemaKind::Type(Type::Integer(_)) => Some("integer"),
        SchemaKind::Type(Type::Boolean(_)) => Some("boolean"),
        SchemaKind::Type(Type::Object(_)) => Some("object"),
        SchemaKind::Type(Type::Array(_)) => Some("array"),
        SchemaKind::Any(any) => any.typ.as_deref(),
        _ => None,
    }
}

/// What an object schema declares about its keys.
pub struct ObjectParts<'a> {
    pub properties: Vec<(&'a String, &'a ReferenceOr<Box<Schema>>)>,
    pub required: &'a [String],
    pub additional_properties: Option<&'a AdditionalProperties>,
}

/// The keys of an object schema: `type: object`, or `properties` without a `type`. openapiv3
/// files either under `SchemaKind::Any` when other keywords (`oneOf`, `enum`...) sit beside them.
pub fn object_parts(schema: &Schema) -> Option<ObjectParts<'_>> {
    match &schema.schema_kind {
        SchemaKind::Type(Type::Object(object)) => Some(ObjectParts {
            properties: object.properties.iter().collect(),
            required: &object.required,
            additional_properties: object.additional_properties.as_ref(),
        }),
        SchemaKind::Any(any)
            if any.typ.as_deref() == Some("object") || (any.typ.is_none() && !any.properties.is_empty()) =>
        {
            Some(ObjectParts {
                properties: any.properties.iter().collect(),
                required: &any.required,
                additional_properties: any.additional_properties.as_ref(),
            })
        }
        _ => None,
    }
}

/// The schema of a body or answer's `application/json` content.
fn json_schema(content: &Content) -> Option<&ReferenceOr<Schema>> {
    content.get("application/json").and_then(|media| media.schema.as_ref())
}

/// Whether a name can name a view: `charge-timeline`, `portfolio`.
pub fn is_view_name(name: &str) -> bool {
    !name.is_empty()
        && name.split('-').all(|word| {
            !word.is_empty() && word.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        })
}

/// A GET that takes `page`/`per_page` is a list (DESIGN.md section 3): lists are not resources.
pub fn is_list(query_params: &[QueryParam]) -> bool {
    query_params.iter().any(|p| p.name == "page" || p.name == "per_page")
}

impl Op {
    /// Reads one operation: its names, then its `x-mcp` block, its inputs and its answers.
    fn new(
        path: &str,
        method: &str,
        operation: &Operation,
        shared_params: &[ReferenceOr<Parameter>],
        components: &Components,
        schemas: &Schemas,
    ) -> Result<Self> {
        let where_ = format!("{} {path}", method.to_uppercase());
        let operation_id = operation
            .operation_id
            .clone()
            .ok_or_else(|| SpecError::new(format!("{where_}: missing operationId")))?;
        let fail = |msg: String| SpecError::new(format!("operation {operation_id} ({where_}): {msg}"));
        let names = names(&operation_id, operation).map_err(fail)?;
        let x_mcp = x_mcp::read(operation, &names.title).map_err(fail)?;
        let inputs = inputs::read(path, operation, shared_params, components, schemas).map_err(fail)?;
        let answers = responses::read(method, operation, components, schemas).map_err(fail)?;
        let resource_uri =
            responses::resource_uri(path, method, x_mcp.resource_opt_out, &inputs, &answers.response)
                .map_err(fail)?;
        let row_fields =
            responses::list_rows(&inputs.query_params, answers.response_type.as_deref(), components)
                .map_err(fail)?;
        let input_schema = inputs.input_schema();
        let tool_schema = inputs::tool_schema(&input_schema, &x_mcp.describe, schemas).map_err(fail)?;
        let query_schema = inputs.query_schema();
        Ok(Self {
            operation_id,
            tool_name: names.tool_name,
            aliases: x_mcp.aliases,
            title: names.title,
            description: names.description,
            tool_description: x_mcp.tool_description,
            tag: names.tag,
            tags: operation.tags.clone(),
            toolset: String::new(),
            method: method.to_string(),
            path: path.to_string(),
            effect: x_mcp.effect,
            idempotent: x_mcp.idempotent,
            scope: x_mcp.scope,
            further_scopes: x_mcp.further_scopes,
            conditional_scope: x_mcp.conditional_scope,
            confirm: x_mcp.confirm,
            path_params: inputs.path_params,
            query_params: inputs.query_params,
            header_params: inputs.header_params,
            body: inputs.body,
            success_status: answers.success_status,
            response: answers.response,
            resource_uri,
            complete: x_mcp.complete,
            view: x_mcp.view,
            input_fields: inputs.input_fields,
            response_type: answers.response_type,
            input_schema,
            tool_schema,
            query_schema,
            response_schemas: answers.response_schemas,
            row_fields,
        })
    }
}

/// What names an operation besides its id: its tool, its handler module (the first tag), its
/// title and its description.
struct Names {
    tool_name: String,
    tag: String,
    title: String,
    description: String,
}

/// The names of the operation `operation_id`, checked.
fn names(operation_id: &str, operation: &Operation) -> std::result::Result<Names, String> {
    if !operation_id.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_') {
        return Err("operationId must be snake_case".into());
    }
    let tool_name = format!("{TOOL_PREFIX}{operation_id}");
    if tool_name.len() > MAX_TOOL_NAME {
        return Err(format!(
            "tool name {tool_name} is {} characters, over the limit of {MAX_TOOL_NAME}",
            tool_name.len()
        ));
    }
    let tag = operation.tags.first().ok_or("missing tag (it names the handler module)")?.clone();
    if tag.is_empty() || !tag.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_') {
        return Err(format!("tag {tag} must be snake_case: it names the handler module"));
    }
    let title = operation.summary.clone().ok_or("missing summary")?;
    let description = operation.description.as_deref().ok_or("missing description")?.trim().to_string();
    Ok(Names { tool_name, tag, title, description })
}
