//! The generated operation tables (see `build.rs`) and the types they are written in.
//!
//! One row per operation of `openapi/v1.yaml`: the /v1 routes, the MCP tool catalogue, the
//! annotations, confirmations, argument schemas and resource templates all read this table, so
//! the REST API and the MCP tools cannot disagree about an operation.

/// HTTP method of an operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HttpMethod {
    /// GET
    Get,
    /// POST
    Post,
    /// PUT
    Put,
    /// PATCH
    Patch,
    /// DELETE
    Delete,
}

impl HttpMethod {
    /// The method as poem knows it.
    pub fn as_poem(self) -> poem::http::Method {
        match self {
            Self::Get => poem::http::Method::GET,
            Self::Post => poem::http::Method::POST,
            Self::Put => poem::http::Method::PUT,
            Self::Patch => poem::http::Method::PATCH,
            Self::Delete => poem::http::Method::DELETE,
        }
    }
}

/// `x-mcp.effect`: what the operation does to the world.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    /// Only reads.
    Read,
    /// Creates or changes data.
    Write,
    /// Deletes, archives, cancels, talks to the debtor or a third party, or decides on the debt.
    Destructive,
}

/// The MCP tool annotations of an operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Annotations {
    /// readOnlyHint
    pub read_only: bool,
    /// destructiveHint
    pub destructive: bool,
    /// idempotentHint
    pub idempotent: bool,
    /// openWorldHint (always false: nothing outside Régua de Cobrança is reached)
    pub open_world: bool,
}

/// `x-mcp.confirm`: how a destructive tool asks before it runs.
#[derive(Debug, Clone, Copy)]
pub struct Confirm {
    /// The GET operation that reads the object acted on (absent for creates).
    pub target: Option<&'static str>,
    /// The argument that names the target when it is not a path parameter.
    pub target_id: Option<&'static str>,
    /// More objects the question shows, read in order before it is asked.
    pub reads: &'static [ConfirmRead],
    /// pt-BR handlebars template over `args`, `target`, `now` and each read by its name.
    pub message: &'static str,
}

/// One read of `x-mcp.confirm.reads` (checked by codegen/confirm.rs).
#[derive(Debug, Clone, Copy)]
pub struct ConfirmRead {
    /// The name the template reads its answer by.
    pub name: &'static str,
    /// The operationId of a read-only operation.
    pub operation: &'static str,
    /// Taken once per item of this list (an expression), for at most this many items.
    pub each: Option<(&'static str, usize)>,
    /// Argument -> expression (`[expression]`: a one-item list; argument `*`: an object's fields).
    pub arguments: &'static [(&'static str, &'static str)],
}

/// How a query parameter's text is read before validation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParamKind {
    /// Kept as text.
    String,
    /// A whole number.
    Integer,
    /// Any JSON number.
    Number,
    /// `true` or `false`.
    Boolean,
}

/// One query parameter of an operation.
#[derive(Debug, Clone, Copy)]
pub struct QueryParam {
    /// Its name (snake_case).
    pub name: &'static str,
    /// How its text is read.
    pub kind: ParamKind,
}

/// The JSON request body of an operation.
#[derive(Debug, Clone, Copy)]
pub struct BodySpec {
    /// Whether a body must be sent.
    pub required: bool,
    /// Its top-level fields.
    pub fields: &'static [&'static str],
    /// Its closed JSON Schema 2020-12.
    pub schema: &'static str,
}

/// What a successful call answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResponseKind {
    /// A JSON document.
    Json,
    /// 204 and no body.
    NoContent,
    /// A file.
    Binary {
        /// Its media type.
        content_type: &'static str,
        /// The extension its resource URI carries.
        extension: &'static str,
    },
}

/// One operation of the spec.
#[derive(Debug)]
pub struct Operation {
    /// operationId.
    pub operation_id: &'static str,
    /// The MCP tool name (`dunning_` + operationId).
    pub tool_name: &'static str,
    /// `x-mcp.aliases`: former tool names that still answer tools/call, never listed.
    pub aliases: &'static [&'static str],
    /// The summary: the tool title.
    pub title: &'static str,
    /// The description: the tool description.
    pub description: &'static str,
    /// The first tag: the handler module.
    pub tag: &'static str,
    /// HTTP method.
    pub method: HttpMethod,
    /// OpenAPI path template (`/v1/charges/{id}`).
    pub path: &'static str,
    /// `x-mcp.effect`.
    pub effect: Effect,
    /// Tool annotations.
    pub annotations: Annotations,
    /// The scope needed; `None` means any valid token.
    pub scope: Option<&'static str>,
    /// The other scopes every call needs (`x-mcp.scope` as a list).
    pub further_scopes: &'static [&'static str],
    /// `x-mcp.conditional_scope`: a scope some calls need besides, by the state of the object
    /// (an active policy); its handler checks it ([`Operation::conditional_scope`] names it).
    pub conditional_scope: Option<&'static str>,
    /// The toolset (`x-toolsets`) the operation's tag is in.
    pub toolset: &'static str,
    /// Confirmation of a destructive operation.
    pub confirm: Option<Confirm>,
    /// Path parameter names, in path order.
    pub path_params: &'static [&'static str],
    /// Query parameters.
    pub query_params: &'static [QueryParam],
    /// JSON body, if the operation takes one.
    pub body: Option<BodySpec>,
    /// Whether the operation takes an idempotency key (POST and PATCH writes).
    pub accepts_idempotency_key: bool,
    /// Status of a successful answer.
    pub success_status: u16,
    /// Kind of a successful answer.
    pub response: ResponseKind,
    /// The resource URI template, for GETs that read one document.
    pub resource_uri: Option<&'static str>,
    /// The URI of the MCP App view that shows the tool's result (`x-mcp.view`), one of [`VIEWS`].
    pub view_uri: Option<&'static str>,
    /// A list's row fields, the names its `fields` takes (empty when it is not a list).
    pub row_fields: &'static [&'static str],
    /// `x-mcp.complete`: (argument, operationId of the list whose ids complete it).
    pub complete: &'static [(&'static str, &'static str)],
    /// The MCP tool descriptor, as JSON.
    pub descriptor: &'static str,
    /// The strict schema of the flat tool arguments.
    pub input_schema: &'static str,
    /// The strict schema of the query string, after its values are typed.
    pub query_schema: &'static str,
}

/// A toolset: a group of tags whose tools `/mcp/x/<name>` lists alone.
#[derive(Debug)]
pub struct Toolset {
    /// Its name in the path.
    pub name: &'static str,
    /// What its tools cover (for the server instructions).
    pub description: &'static str,
    /// Its tags.
    pub tags: &'static [&'static str],
}

/// An MCP App view (extension `io.modelcontextprotocol/ui`): a document under `ui/` that a host
/// renders the results of the tools naming it in.
#[derive(Debug)]
pub struct View {
    /// Its name (`ui/<name>.html`).
    pub name: &'static str,
    /// `ui://kobana-dunning/<name>`.
    pub uri: &'static str,
    /// The document's `<title>`.
    pub title: &'static str,
    /// What it shows.
    pub description: &'static str,
    /// The document as served: one HTML5 file, its shared parts inlined.
    pub html: &'static str,
}

include!(concat!(env!("OUT_DIR"), "/operations.rs"));

/// The tool catalogue (`spec tools`), in name order, exactly as committed in
/// `tests/snapshots/tools.json`.
pub const CATALOGUE_JSON: &str = include_str!(concat!(env!("OUT_DIR"), "/catalogue.json"));

/// Response schemas by operationId and status, for contract tests.
pub const CONTRACT_JSON: &str = include_str!(concat!(env!("OUT_DIR"), "/contract.json"));

/// The schema of what each event carries, by event code (`x-event-payloads`), for the tests
/// that check events and webhook deliveries.
pub const EVENTS_JSON: &str = include_str!(concat!(env!("OUT_DIR"), "/events.json"));

/// The scope every scoped operation needs besides its own: an answer shows the object it acts
/// on, and no answer may show an object to a token that could not GET it.
pub const READ_SCOPE: &str = "dunning.read";

impl Operation {
    /// Every scope a token needs to run this operation: `dunning.read` for any operation that
    /// has a scope, plus its own (every one `x-mcp.scope` lists). An operation without a scope
    /// (`me`) needs none. Listing, tools/call and /v1 all apply this one rule.
    pub fn required_scopes(&self) -> impl Iterator<Item = &'static str> + use<> {
        let (own, further) = (self.scope, self.further_scopes);
        own.map(|_| READ_SCOPE)
            .into_iter()
            .chain(own.into_iter().chain(further.iter().copied()).filter(|s| *s != READ_SCOPE))
    }
}

/// Looks an operation up by operationId.
pub fn by_operation_id(operation_id: &str) -> Option<&'static Operation> {
    OPERATIONS.iter().find(|op| op.operation_id == operation_id)
}

/// Looks an operation up by the name a tools/call gives: its tool name, or one of its aliases.
pub fn by_tool_name(tool_name: &str) -> Option<&'static Operation> {
    find_tool(OPERATIONS, tool_name)
}

/// [`by_tool_name`] over a given table: a tool name first, then the aliases (the generator
/// refuses an alias that is also a tool name, so the order only saves work).
pub fn find_tool<'a>(operations: &'a [Operation], tool_name: &str) -> Option<&'a Operation> {
    operations
        .iter()
        .find(|op| op.tool_name == tool_name)
        .or_else(|| operations.iter().find(|op| op.aliases.contains(&tool_name)))
}

impl HttpMethod {
    /// The method's name on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Get => "GET",
            Self::Post => "POST",
            Self::Put => "PUT",
            Self::Patch => "PATCH",
            Self::Delete => "DELETE",
        }
    }
}

/// The most segments a path of an operation has, the empty one before the first slash included
/// (`/v1/collection_policies/{cp_id}/steps/{step_id}` has 6): a longer path is nobody's.
pub const MAX_PATH_SEGMENTS: usize = 8;

/// The segments of a request path, for the generated route table to match: `None` past
/// [`MAX_PATH_SEGMENTS`].
pub fn path_segments(path: &str) -> Option<([&str; MAX_PATH_SEGMENTS], usize)> {
    let mut segments = [""; MAX_PATH_SEGMENTS];
    let mut count = 0;
    for segment in path.split('/') {
        *segments.get_mut(count)? = segment;
        count += 1;
    }
    Some((segments, count))
}
