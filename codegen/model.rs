//! The generator's view of the spec: one `Op` per operation, checked for everything the
//! generated code relies on (ids, x-mcp, scopes, name lengths, argument collisions).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use openapiv3::{
    AdditionalProperties, Components, Content, OpenAPI, Operation, Parameter, ParameterSchemaOrContent,
    ReferenceOr, Schema, SchemaKind, Type,
};
use serde::Deserialize;
use serde_json::{Map, Value, json};

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
const RESOURCE_PREFIX: &str = "kobana://dunning/";
pub const KNOWN_SCOPES: &[&str] = &[
    "any",
    "dunning.read",
    "dunning.write",
    "dunning.notify",
    "dunning.escalate",
    "dunning.webhooks",
    "dunning.exports",
];

/// Arguments the server instructions explain once for every tool: `x-mcp.describe` may not
/// name them (an operation that gives one of these names another meaning must use another
/// name). mcp_wire's instruction test checks that the instructions name each of them.
const CONVENTIONAL_ARGUMENTS: &[&str] = &[
    "id",
    "page",
    "per_page",
    "sort_by",
    "sort_order",
    "fields",
    "idempotency_key",
    "external_id",
    "tags",
    "metadata",
];

/// The query parameter that cuts a list's rows to the named fields; every list takes it.
pub const FIELDS_PARAM: &str = "fields";
/// The schema of a list row cut by `fields` (the second of its `data` items' `anyOf`).
pub const PARTIAL_ROW: &str = "PartialRow";
/// Arguments every write takes that the server instructions describe, once, instead of every
/// write's descriptor listing them: the server still takes and checks them.
const INSTRUCTED_ARGUMENTS: &[&str] = &["idempotency_key"];

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

/// `x-mcp.scope`: one scope (or `any`), or the list of every scope the operation needs.
#[derive(Deserialize)]
#[serde(untagged)]
enum Scopes {
    One(String),
    Many(Vec<String>),
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

/// The `x-mcp` block of an operation. Unknown keys are refused, so a typo such as
/// `resouce: false` fails the build instead of being silently ignored.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct XMcp {
    effect: Effect,
    idempotent: bool,
    scope: Scopes,
    /// A scope some calls need besides, by the state of the object (the description says
    /// when): checked by the handler from the table, not by the listing.
    #[serde(default)]
    conditional_scope: Option<String>,
    #[serde(default)]
    confirm: Option<Confirm>,
    #[serde(default)]
    resource: Option<bool>,
    /// Argument name -> the list operation whose ids complete it.
    #[serde(default)]
    complete: BTreeMap<String, String>,
    /// Former tool names that still answer tools/call (hidden from tools/list), so a rename
    /// does not break clients that kept the old name.
    #[serde(default)]
    aliases: Vec<String>,
    /// What the tool's descriptor says beyond its title and schema (the catalogue budget): what
    /// a model must know before it calls, in a sentence. None when the title says it all.
    #[serde(default)]
    description: Option<String>,
    /// The arguments whose spec description the tool's descriptor keeps: those whose meaning
    /// neither their name, type and enum nor the server instructions tell.
    #[serde(default)]
    describe: Vec<String>,
    /// The MCP App view (`ui/<view>.html`) that shows the tool's result (codegen/views.rs).
    #[serde(default)]
    view: Option<String>,
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
        check_collisions(&ops)?;
        check_confirm_targets(&ops)?;
        super::confirm::check(&ops)?;
        check_completions(&ops)?;
        let declared: Vec<&str> = doc.tags.iter().map(|t| t.name.as_str()).collect();
        let toolsets = toolsets(doc.extensions.get("x-toolsets"), &declared, &mut ops)?;
        let event_payloads = event_payloads(doc.extensions.get("x-event-payloads"), &components, &schemas)?;
        Ok(Self { version: doc.info.version, ops, toolsets, event_payloads, components })
    }
}

/// The most toolsets there may be: an endpoint's choice of them is a bit set in a `u32`.
pub const MAX_TOOLSETS: usize = 32;

/// `x-toolsets`: every declared tag in exactly one toolset, so every operation is in exactly
/// one; each operation's `toolset` is set here. A spec without it (one written before toolsets,
/// which `spec diff` reads as a base) has none: the generator refuses that (`render`).
fn toolsets(extension: Option<&Value>, declared: &[&str], ops: &mut [Op]) -> Result<Vec<Toolset>> {
    let fail = |msg: String| SpecError::new(format!("x-toolsets: {msg}"));
    let Some(extension) = extension else { return Ok(Vec::new()) };
    let entries: BTreeMap<String, Toolset> =
        BTreeMap::deserialize(extension).map_err(|e| fail(e.to_string()))?;
    if entries.is_empty() || entries.len() > MAX_TOOLSETS {
        return Err(fail(format!("between 1 and {MAX_TOOLSETS} toolsets, not {}", entries.len())));
    }
    let mut holder: BTreeMap<&str, &str> = BTreeMap::new();
    for (name, set) in &entries {
        // A name is one segment of a URL path and one item of a comma-separated list.
        let well_formed = !name.is_empty()
            && name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
            && name != "readonly";
        if !well_formed {
            return Err(fail(format!("{name:?} is not a toolset name (snake_case, not `readonly`)")));
        }
        if set.tags.is_empty() || set.description.trim().is_empty() {
            return Err(fail(format!("{name} needs tags and a description")));
        }
        for tag in &set.tags {
            if !declared.contains(&tag.as_str()) {
                return Err(fail(format!("{name} names tag {tag}, which the document does not declare")));
            }
            if let Some(other) = holder.insert(tag, name) {
                return Err(fail(format!("tag {tag} is in both {other} and {name}")));
            }
        }
    }
    if let Some(tag) = declared.iter().find(|t| !holder.contains_key(*t)) {
        return Err(fail(format!("tag {tag} is in no toolset")));
    }
    for op in ops.iter_mut() {
        let mut sets: Vec<&str> = op.tags.iter().filter_map(|t| holder.get(t.as_str()).copied()).collect();
        sets.sort_unstable();
        sets.dedup();
        match (sets.as_slice(), op.tags.iter().find(|t| !holder.contains_key(t.as_str()))) {
            ([set], None) => op.toolset = set.to_string(),
            (_, Some(tag)) => {
                return Err(fail(format!("operation {} has tag {tag}, in no toolset", op.operation_id)));
            }
            _ => {
                return Err(fail(format!(
                    "operation {} is in {} toolsets ({}): its tags must be in one",
                    op.operation_id,
                    sets.len(),
                    sets.join(", ")
                )));
            }
        }
    }
    Ok(entries.into_iter().map(|(name, set)| Toolset { name, ..set }).collect())
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

/// `x-event-payloads`, each code's schema converted as an answer's is (closed: a payload carries
/// exactly the fields it documents). Its codes must be exactly those `WebhookEventCode` lists,
/// when the spec has that enum: an event a webhook can take always has a documented payload.
fn event_payloads(
    listed: Option<&Value>,
    components: &Components,
    schemas: &Schemas,
) -> Result<BTreeMap<String, Value>> {
    let Some(listed) = listed else { return Ok(BTreeMap::new()) };
    let listed = BTreeMap::<String, ReferenceOr<Schema>>::deserialize(listed)
        .map_err(|e| SpecError::new(format!("x-event-payloads: {e}")))?;
    let mut payloads = BTreeMap::new();
    for (code, schema) in &listed {
        let named = match schema {
            ReferenceOr::Reference { reference } => schema::schema_name(reference).is_some(),
            ReferenceOr::Item(_) => false,
        };
        if !named {
            return Err(SpecError::new(format!(
                "x-event-payloads: {code} must be a $ref to a schema of components.schemas"
            )));
        }
        let converted = schema::convert(schema, schemas, true)
            .map_err(|e| SpecError::new(format!("x-event-payloads: {code}: {e}")))?;
        payloads.insert(code.clone(), converted);
    }
    let webhook_event_code = components.schemas.get("WebhookEventCode").and_then(ReferenceOr::as_item);
    let Some(codes) = webhook_event_code.and_then(enum_values) else {
        return Ok(payloads);
    };
    let codes: BTreeSet<&str> = codes.iter().filter_map(Value::as_str).collect();
    let documented: BTreeSet<&str> = payloads.keys().map(String::as_str).collect();
    if let Some(code) = codes.difference(&documented).next() {
        return Err(SpecError::new(format!(
            "event {code} (WebhookEventCode) has no payload in x-event-payloads"
        )));
    }
    if let Some(code) = documented.difference(&codes).next() {
        return Err(SpecError::new(format!("x-event-payloads: {code} is not listed in WebhookEventCode")));
    }
    Ok(payloads)
}

/// The values of a schema's `enum`, whatever its type; `None` when it has none.
fn enum_values(schema: &Schema) -> Option<Vec<Value>> {
    let values: Vec<Value> = match &schema.schema_kind {
        SchemaKind::Type(Type::String(t)) => t.enumeration.iter().map(|v| json!(v)).collect(),
        SchemaKind::Type(Type::Integer(t)) => t.enumeration.iter().map(|v| json!(v)).collect(),
        SchemaKind::Type(Type::Number(t)) => t.enumeration.iter().map(|v| json!(v)).collect(),
        SchemaKind::Type(Type::Boolean(t)) => t.enumeration.iter().map(|v| json!(v)).collect(),
        SchemaKind::Any(any) => any.enumeration.clone(),
        _ => Vec::new(),
    };
    (!values.is_empty()).then_some(values)
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

fn check_collisions(ops: &[Op]) -> Result<()> {
    let mut seen = BTreeSet::new();
    for op in ops {
        if !seen.insert(op.tool_name.as_str()) {
            return Err(SpecError::new(format!(
                "operation {}: tool name {} is used twice",
                op.operation_id, op.tool_name
            )));
        }
    }
    // An alias answers tools/call in place of a tool: it may name no tool and no other alias,
    // or one of the two would never be reached.
    let mut aliases = BTreeMap::new();
    for op in ops {
        for alias in &op.aliases {
            if seen.contains(alias.as_str()) {
                return Err(SpecError::new(format!(
                    "operation {}: x-mcp.aliases {alias} collides with the tool name {alias}",
                    op.operation_id
                )));
            }
            if let Some(other) = aliases.insert(alias.as_str(), op.operation_id.as_str()) {
                return Err(SpecError::new(format!(
                    "operation {}: x-mcp.aliases {alias} is also an alias of operation {other}",
                    op.operation_id
                )));
            }
        }
    }
    Ok(())
}

fn check_confirm_targets(ops: &[Op]) -> Result<()> {
    for op in ops {
        let Some(target) = op.confirm.as_ref().and_then(|c| c.target.as_deref()) else {
            continue;
        };
        let Some(read) = ops.iter().find(|o| o.operation_id == target) else {
            return Err(SpecError::new(format!(
                "operation {}: x-mcp.confirm.target {target} is not an operation",
                op.operation_id
            )));
        };
        let target_id = op.confirm.as_ref().and_then(|c| c.target_id.as_deref());
        let by_argument = target_id.is_some_and(|arg| {
            read.path_params.iter().all(|p| p == "id") && op.input_fields.iter().any(|f| f.name == arg)
        });
        if read.method != "get"
            || (!by_argument && read.path_params.iter().any(|p| !op.path_params.contains(p)))
        {
            return Err(SpecError::new(format!(
                "operation {}: x-mcp.confirm.target {target} must be a GET whose path parameters the operation has",
                op.operation_id
            )));
        }
    }
    Ok(())
}

/// `x-mcp.complete` names an argument of the operation and a list operation of the spec.
fn check_completions(ops: &[Op]) -> Result<()> {
    for op in ops {
        for (argument, list) in &op.complete {
            if !op.input_fields.iter().any(|f| &f.name == argument) {
                return Err(SpecError::new(format!(
                    "operation {}: x-mcp.complete names {argument}, which is not an argument",
                    op.operation_id
                )));
            }
            let is_list =
                ops.iter().any(|o| &o.operation_id == list && o.method == "get" && is_list(&o.query_params));
            if !is_list {
                return Err(SpecError::new(format!(
                    "operation {}: x-mcp.complete.{argument} names {list}, which is not a list operation",
                    op.operation_id
                )));
            }
        }
    }
    Ok(())
}

impl Op {
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
        if !operation_id.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_') {
            return Err(fail("operationId must be snake_case".into()));
        }
        let tool_name = format!("{TOOL_PREFIX}{operation_id}");
        if tool_name.len() > MAX_TOOL_NAME {
            return Err(fail(format!(
                "tool name {tool_name} is {} characters, over the limit of {MAX_TOOL_NAME}",
                tool_name.len()
            )));
        }
        let tag = operation
            .tags
            .first()
            .ok_or_else(|| fail("missing tag (it names the handler module)".into()))?
            .clone();
        if tag.is_empty() || !tag.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_') {
            return Err(fail(format!("tag {tag} must be snake_case: it names the handler module")));
        }
        let title = operation.summary.clone().ok_or_else(|| fail("missing summary".into()))?;
        let description = operation
            .description
            .as_deref()
            .ok_or_else(|| fail("missing description".into()))?
            .trim()
            .to_string();

        let x_mcp = operation.extensions.get("x-mcp").ok_or_else(|| fail("missing x-mcp block".into()))?;
        let x_mcp = XMcp::deserialize(x_mcp).map_err(|e| fail(format!("x-mcp: {e}")))?;
        let effect = x_mcp.effect;
        let idempotent = x_mcp.idempotent;
        let scopes = match x_mcp.scope {
            Scopes::One(scope) => vec![scope],
            Scopes::Many(scopes) => scopes,
        };
        for (i, scope) in scopes.iter().enumerate() {
            if !KNOWN_SCOPES.contains(&scope.as_str()) {
                return Err(fail(format!("x-mcp.scope {scope} is not a known scope")));
            }
            if scopes[..i].contains(scope) {
                return Err(fail(format!("x-mcp.scope names {scope} twice")));
            }
        }
        if scopes.is_empty() || (scopes.len() > 1 && scopes.iter().any(|s| s == "any")) {
            return Err(fail("x-mcp.scope is `any`, one scope or a list of scopes".into()));
        }
        let scope = scopes.first().filter(|s| *s != "any").cloned();
        let further_scopes = scopes[1..].to_vec();
        let conditional_scope = x_mcp.conditional_scope;
        if let Some(extra) = &conditional_scope
            && (extra == "any" || !KNOWN_SCOPES.contains(&extra.as_str()) || scopes.contains(extra))
        {
            return Err(fail(format!("x-mcp.conditional_scope {extra} is not a scope the operation lacks")));
        }
        let confirm = match x_mcp.confirm {
            None if effect == Effect::Destructive => {
                return Err(fail("destructive operations need x-mcp.confirm".into()));
            }
            None => None,
            Some(_) if effect != Effect::Destructive => {
                return Err(fail("x-mcp.confirm is only for destructive operations".into()));
            }
            Some(c) => Some(c),
        };
        let resource_opt_out = x_mcp.resource == Some(false);
        let complete = x_mcp.complete;
        for alias in &x_mcp.aliases {
            let well_formed = alias.strip_prefix(TOOL_PREFIX).is_some_and(|rest| {
                !rest.is_empty()
                    && rest.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
            });
            if !well_formed || alias.len() > MAX_TOOL_NAME {
                return Err(fail(format!(
                    "x-mcp.aliases: {alias} is not a tool name ({TOOL_PREFIX} and snake_case, at most \
                     {MAX_TOOL_NAME} characters: the name clients called)"
                )));
            }
        }
        let aliases = x_mcp.aliases;
        // A view's name is a file name (`ui/<name>.html`) and the last segment of its `ui://`
        // URI: lowercase words joined by hyphens keep it both.
        let view = x_mcp.view;
        if let Some(name) = &view
            && !is_view_name(name)
        {
            return Err(fail(format!(
                "x-mcp.view {name} is not a view name (lowercase letters and digits, words joined by `-`)"
            )));
        }
        // Read beside the title: it says what the title cannot, in a sentence. MCP clients
        // require one (the conformance suite checks it), so the generator refuses a tool without
        // it (`render`); here only an empty one is refused, since `spec diff` also reads specs
        // written before it was required.
        let given = x_mcp.description.is_some();
        let tool_description = x_mcp.description.map(|d| d.trim().to_string()).unwrap_or_default();
        if given && tool_description.is_empty() {
            return Err(fail("x-mcp.description is missing or empty: every tool describes itself".into()));
        }
        if tool_description == title {
            return Err(fail("x-mcp.description repeats the title: say what the title cannot".into()));
        }
        let describe = x_mcp.describe;

        // Parameters: path and query (headers are documentation for REST callers).
        let mut path_params = Vec::new();
        let mut query_params = Vec::new();
        let mut header_params = Vec::new();
        let mut properties = Map::new();
        let mut required = Vec::new();
        let mut query_props = Map::new();
        let mut query_required = Vec::new();
        let mut input_fields = Vec::new();
        for param in shared_params.iter().chain(&operation.parameters) {
            let param = resolve(param, "parameters", |name| components.parameters.get(name)).map_err(fail)?;
            let data = param.parameter_data_ref();
            let name = data.name.clone();
            let ParameterSchemaOrContent::Schema(param_schema) = &data.format else {
                return Err(fail(format!("parameter {name} has no schema")));
            };
            let mut converted = schema::convert(param_schema, schemas, true)
                .map_err(|e| fail(format!("parameter {name}: {e}")))?;
            if let (Some(desc), Some(obj)) = (&data.description, converted.as_object_mut()) {
                // The parameter's own words beat a shared schema's (`SortOrder`, `PersonType`).
                obj.insert("description".into(), Value::String(desc.trim().to_string()));
            }
            let is_required = data.required;
            match param {
                Parameter::Path { .. } => {
                    if !path.contains(&format!("{{{name}}}")) {
                        return Err(fail(format!("path parameter {name} is not in the path")));
                    }
                    path_params.push(name.clone());
                    required.push(name.clone());
                    input_fields.push(InputField {
                        name: name.clone(),
                        schema: param_schema.clone(),
                        required: true,
                        source: Source::Path,
                    });
                }
                Parameter::Query { .. } => {
                    let kind = match param_schema.as_item().and_then(type_name) {
                        Some("integer") => "Integer",
                        Some("number") => "Number",
                        Some("boolean") => "Boolean",
                        Some("string") | None => "String",
                        Some(other) => {
                            return Err(fail(format!("query parameter {name} has type {other}")));
                        }
                    };
                    query_params.push(QueryParam { name: name.clone(), kind });
                    input_fields.push(InputField {
                        name: name.clone(),
                        schema: param_schema.clone(),
                        required: is_required,
                        source: Source::Query,
                    });
                    query_props.insert(name.clone(), converted.clone());
                    if is_required {
                        query_required.push(name.clone());
                        required.push(name.clone());
                    }
                }
                Parameter::Header { .. } => {
                    header_params.push(HeaderParam { name, required: is_required, schema: converted });
                    continue;
                }
                Parameter::Cookie { .. } => continue,
            }
            if properties.insert(name.clone(), converted).is_some() {
                return Err(fail(format!("parameter {name} is declared twice")));
            }
        }
        for segment in path.split('/') {
            if let Some(name) = segment.strip_prefix('{').and_then(|s| s.strip_suffix('}'))
                && !path_params.iter().any(|p| p == name)
            {
                return Err(fail(format!("path parameter {name} is not declared")));
            }
        }

        // Request body: JSON only; its top-level properties sit beside the parameters.
        let body = match &operation.request_body {
            None => None,
            Some(rb) => {
                let rb =
                    resolve(rb, "requestBodies", |name| components.request_bodies.get(name)).map_err(fail)?;
                let media = json_schema(&rb.content)
                    .ok_or_else(|| fail("request body must be application/json with a schema".into()))?;
                // Fields come from the body's own schema; the converted one is only output (the
                // tool's input schema and the REST validator's).
                let body_schema =
                    schema::convert(media, schemas, true).map_err(|e| fail(format!("request body: {e}")))?;
                let raw_body =
                    resolve(media, "schemas", |name| components.schemas.get(name)).map_err(fail)?;
                let object = object_parts(raw_body)
                    .filter(|_| !raw_body.schema_data.nullable)
                    .ok_or_else(|| fail("request body schema must be an object".into()))?;
                let body_required = rb.required;
                let mut fields = Vec::new();
                for (name, prop) in object.properties {
                    if properties.contains_key(name) {
                        return Err(fail(format!(
                            "body field {name} collides with a path or query parameter of the same name"
                        )));
                    }
                    properties.insert(name.clone(), body_schema["properties"][name.as_str()].clone());
                    fields.push(name.clone());
                    input_fields.push(InputField {
                        name: name.clone(),
                        schema: prop.clone().unbox(),
                        required: body_required && object.required.contains(name),
                        source: Source::Body,
                    });
                }
                if body_required {
                    required.extend(object.required.iter().cloned());
                }
                Some(Body { required: body_required, fields, schema: body_schema })
            }
        };

        // Responses: the success status decides the response kind.
        let responses = &operation.responses;
        let statuses = responses.default.iter().map(|r| ("default".to_string(), r));
        let statuses = statuses.chain(responses.responses.iter().map(|(code, r)| (code.to_string(), r)));
        let mut success = None;
        let mut response_type = None;
        let mut response_schemas = BTreeMap::new();
        for (status, response) in statuses {
            let response =
                resolve(response, "responses", |name| components.responses.get(name)).map_err(fail)?;
            let json = json_schema(&response.content);
            if let Some(schema_raw) = json {
                let converted = schema::convert(schema_raw, schemas, true)
                    .map_err(|e| fail(format!("response {status}: {e}")))?;
                response_schemas.insert(status.clone(), converted);
            }
            if status.starts_with('2') && success.is_none() {
                if let Some(schema_raw) = json {
                    let name = match schema_raw {
                        ReferenceOr::Reference { reference } => schema::schema_name(reference),
                        ReferenceOr::Item(_) => None,
                    };
                    let name = name.ok_or_else(|| {
                        fail(format!("response {status}: a JSON answer must be a $ref to a named schema"))
                    })?;
                    response_type = Some(name.to_string());
                }
                let code: u16 = status.parse().map_err(|_| fail(format!("response status {status}")))?;
                let kind = match response.content.keys().next() {
                    None => ResponseKind::NoContent,
                    Some(ct) if ct == "application/json" => ResponseKind::Json,
                    Some(ct) => {
                        let extension = match ct.as_str() {
                            "application/pdf" => "pdf",
                            "image/png" => "png",
                            "text/csv" => "csv",
                            other => {
                                return Err(fail(format!("unsupported response content type {other}")));
                            }
                        };
                        ResponseKind::Binary { content_type: ct.clone(), extension: extension.into() }
                    }
                };
                success = Some((code, kind));
            }
        }
        let (success_status, response) = success.ok_or_else(|| fail("no 2xx response".into()))?;
        if method == "delete" && !matches!(response, ResponseKind::NoContent) {
            return Err(fail("DELETE must answer 204 with no body".into()));
        }

        // Resource template rule (DESIGN.md section 3).
        let resource_uri =
            if method == "get" && !resource_opt_out && !is_list(&query_params) && query_required.is_empty() {
                let rest = path.strip_prefix("/v1/").ok_or_else(|| fail("paths start with /v1/".into()))?;
                let ext = match &response {
                    ResponseKind::Binary { extension, .. } => format!(".{extension}"),
                    _ => String::new(),
                };
                Some(format!("{RESOURCE_PREFIX}{rest}{ext}"))
            } else {
                None
            };

        let takes_fields = query_params.iter().any(|q| q.name == FIELDS_PARAM);
        // That every list takes it is the generator's rule (render.rs), not the model's: `spec
        // diff` reads specs written before it with this model.
        let row_fields = match (is_list(&query_params), takes_fields) {
            (_, false) => Vec::new(),
            (true, true) => row_fields(response_type.as_deref(), components).map_err(fail)?,
            (false, true) => return Err(fail(format!("only a list takes {FIELDS_PARAM}"))),
        };

        let mut input_schema =
            json!({ "type": "object", "properties": properties, "additionalProperties": false });
        if !required.is_empty() {
            input_schema["required"] = json!(required);
        }
        let tool_schema = tool_schema(&input_schema, &describe, schemas).map_err(fail)?;
        let mut query_schema =
            json!({ "type": "object", "properties": query_props, "additionalProperties": false });
        if !query_required.is_empty() {
            query_schema["required"] = json!(query_required);
        }

        Ok(Self {
            operation_id,
            tool_name,
            aliases,
            title,
            description,
            tool_description,
            tag,
            tags: operation.tags.clone(),
            toolset: String::new(),
            method: method.to_string(),
            path: path.to_string(),
            effect,
            idempotent,
            scope,
            further_scopes,
            conditional_scope,
            confirm,
            path_params,
            query_params,
            header_params,
            body,
            success_status,
            response,
            resource_uri,
            complete,
            view,
            input_fields,
            response_type,
            input_schema,
            tool_schema,
            query_schema,
            response_schemas,
            row_fields,
        })
    }
}

/// The names `fields` takes on a list answering `response_type`: the properties of the schema
/// of its `data` items, which are that row or a [`PARTIAL_ROW`].
fn row_fields(
    response_type: Option<&str>,
    components: &Components,
) -> std::result::Result<Vec<String>, String> {
    let named = |name: &str| -> std::result::Result<&Schema, String> {
        match components.schemas.get(name) {
            Some(ReferenceOr::Item(schema)) => Ok(schema),
            _ => Err(format!("schema {name} is not an inline schema of components/schemas")),
        }
    };
    let list = response_type.ok_or("a list answers a named JSON schema")?;
    let data = object_parts(named(list)?)
        .and_then(|o| o.properties.into_iter().find(|(name, _)| name.as_str() == "data"))
        .and_then(|(_, data)| data.as_item())
        .and_then(|data| match &data.schema_kind {
            SchemaKind::Type(Type::Array(array)) => array.items.clone(),
            _ => None,
        })
        .ok_or_else(|| format!("{list}: a list answers its rows as a `data` array"))?;
    let reference = |item: &ReferenceOr<Schema>| match item {
        ReferenceOr::Reference { reference } => schema::schema_name(reference).map(str::to_string),
        ReferenceOr::Item(_) => None,
    };
    let rows = data
        .as_item()
        .and_then(|items| match &items.schema_kind {
            SchemaKind::AnyOf { any_of } => Some(any_of.as_slice()),
            SchemaKind::Any(any) if !any.any_of.is_empty() => Some(any.any_of.as_slice()),
            _ => None,
        })
        .and_then(|alternatives| match alternatives {
            [row, partial] if reference(partial).as_deref() == Some(PARTIAL_ROW) => reference(row),
            _ => None,
        })
        .ok_or_else(|| {
            format!(
                "{list}: `data` items must be anyOf the row's $ref and {PARTIAL_ROW} (what `fields` cuts)"
            )
        })?;
    let row = object_parts(named(&rows)?).ok_or_else(|| format!("{rows}: a list row is an object"))?;
    Ok(row.properties.into_iter().map(|(name, _)| name.clone()).collect())
}

/// The descriptor's schema of an operation's flat input: `schema::for_tool` of it, without the
/// descriptions but those `x-mcp.describe` names and without the arguments the instructions
/// describe for every write.
fn tool_schema(
    input_schema: &Value,
    describe: &[String],
    schemas: &Schemas,
) -> std::result::Result<Value, String> {
    let mut tool = schema::for_tool(input_schema, schemas);
    let properties = tool.get_mut("properties").and_then(Value::as_object_mut).ok_or("no properties")?;
    for name in INSTRUCTED_ARGUMENTS {
        properties.shift_remove(*name);
    }
    for name in describe {
        if CONVENTIONAL_ARGUMENTS.contains(&name.as_str()) {
            return Err(format!("x-mcp.describe names {name}, which the server instructions describe"));
        }
        let description = input_schema["properties"]
            .get(name.as_str())
            .and_then(|p| p.get("description"))
            .ok_or_else(|| format!("x-mcp.describe names {name}, which is not a described argument"))?;
        let property =
            properties.get_mut(name.as_str()).and_then(Value::as_object_mut).ok_or("unreachable")?;
        property.insert("description".into(), description.clone());
    }
    if let Some(required) = tool.get_mut("required").and_then(Value::as_array_mut) {
        required.retain(|name| !name.as_str().is_some_and(|n| INSTRUCTED_ARGUMENTS.contains(&n)));
    }
    Ok(tool)
}
