//! The adapter between poem and an operation handler, the same for every operation: scope
//! check (before the body is read), path, query and body read strictly against the spec,
//! idempotency keys, then the handler, then the answer or the error envelope.

use std::borrow::Cow;
use std::collections::HashSet;
use std::future::Future;
use std::sync::Arc;

use poem::Request;
use poem::http::header::{CONTENT_TYPE, IF_MATCH};
use poem::http::{HeaderMap, HeaderName};
use serde::de::DeserializeOwned;
use serde::de::value::MapDeserializer;
use serde_json::{Map, Value};
use time::OffsetDateTime;

use super::call::{Call, Render, Rendered};
use super::error::{ApiError, ApiResult, FieldError};
use super::idempotency::{self, Claim, Stored};
use super::layout::Layout;
use super::validation::schemas;
use crate::app::App;
use crate::auth::Principal;
use crate::domain::DomainError;
use crate::domain::dates::Offsets;
use crate::domain::json_numbers;
use crate::domain::json_shape::{self, ShapeError};
use crate::domain::money::hundredths_from_text;
use crate::operations::{Effect, Operation, ParamKind};
use crate::request::BodyError;

/// The most values a comma-separated filter takes.
const MAX_CSV_VALUES: usize = 100;
/// The longest idempotency key accepted.
const MAX_IDEMPOTENCY_KEY: usize = 255;

/// One call of an operation as either surface hands it over (docs/ARCHITECTURE.md, "One spec,
/// two surfaces, one implementation"): REST reads it from an HTTP request, MCP from a tool's
/// arguments, in process. From here on both take the same path: scope, path, query and body
/// checked against the spec, idempotency, handler.
pub struct Invocation<'a> {
    /// Shared server state.
    pub app: Arc<App>,
    /// Who calls.
    pub principal: Principal,
    /// The request id (X-Request-Id).
    pub request_id: &'a str,
    /// The path parameters by name, decoded.
    pub path: Vec<(&'static str, String)>,
    /// The query parameters as text, in order; a list is one comma-separated value.
    pub query: Vec<(Cow<'a, str>, Cow<'a, str>)>,
    /// The body.
    pub body: InvocationBody<'a>,
    /// The idempotency key sent outside the body (a header).
    pub idempotency_key: Option<String>,
    /// The If-Match precondition (one or more entity tags, or `*`).
    pub if_match: Option<String>,
    /// The layout of a successful JSON answer (an idempotent call's is always stored compact).
    pub layout: Layout,
}

/// The body of an [`Invocation`].
pub enum InvocationBody<'a> {
    /// HTTP: read (and its scope checked first) only once path and query passed.
    Unread { body: poem::Body, content_type: Option<&'a str> },
    /// A JSON object already parsed, whose numbers were already checked on the raw bytes.
    Parsed(Option<Map<String, Value>>),
}

impl<'a> Invocation<'a> {
    /// The invocation of a /v1 request: its caller admitted, its operation found and the
    /// path's parameters decoded by the route table.
    pub(super) fn from_request(
        app: Arc<App>,
        principal: Principal,
        path: Vec<(&'static str, String)>,
        req: &'a mut Request,
        request_id: &'a str,
    ) -> Self {
        let body = req.take_body();
        // From here on the request is only read, for as long as the invocation borrows it.
        let req: &'a Request = req;
        let headers = req.headers();
        Self {
            app,
            principal,
            request_id,
            path,
            query: form_urlencoded::parse(req.uri().query().unwrap_or_default().as_bytes()).collect(),
            body: InvocationBody::Unread { body, content_type: header_str(headers, &CONTENT_TYPE) },
            idempotency_key: header(headers, &IDEMPOTENCY_KEY)
                .or_else(|| header(headers, &X_IDEMPOTENCY_KEY)),
            if_match: list_header(headers, &IF_MATCH),
            layout: Layout::Compact,
        }
    }
}

/// What an operation answered, before it is HTTP: the /v1 route writes it as a response
/// ([`Answered::into_response`]); the MCP dispatcher reads it as it is, without building a
/// response and reading its body back. A refusal is no `Answered` but the typed `ApiError`,
/// until the surface writes it; only one kept under an idempotency key is a document here.
#[derive(Debug)]
pub enum Answered {
    /// The handler's answer, rendered in the layout asked for.
    Rendered(Rendered),
    /// An answer the idempotency store keeps, as /v1 JSON: the first, or a replay of it.
    Stored {
        /// What is kept.
        stored: Stored,
        /// Whether this is a replay (`Idempotent-Replayed: true`).
        replayed: bool,
    },
}

impl Answered {
    /// Its HTTP status.
    pub fn status(&self) -> u16 {
        match self {
            Self::Rendered(rendered) => rendered.status,
            Self::Stored { stored, .. } => stored.status(),
        }
    }

    /// Its JSON text, when it has one (a file and a 204 have none).
    pub fn body(&self) -> Option<&str> {
        match self {
            Self::Rendered(rendered) => rendered.body.as_deref(),
            Self::Stored { stored, .. } => stored.body(),
        }
    }

    /// The HTTP response.
    pub fn into_response(self) -> poem::Response {
        match self {
            Self::Rendered(rendered) => rendered.into_response(),
            Self::Stored { stored, replayed: false } => stored.into_first_response(),
            Self::Stored { stored, replayed: true } => stored.into_replay_response(),
        }
    }
}

/// Runs one operation: the shared path of both surfaces.
pub async fn execute<I, A, F, Fut>(
    op: &'static Operation,
    call: Invocation<'_>,
    handler: F,
) -> ApiResult<Answered>
where
    I: DeserializeOwned,
    A: Render,
    F: Fn(Call, I) -> Fut,
    Fut: Future<Output = ApiResult<A>>,
{
    let Invocation {
        app,
        principal,
        request_id,
        path,
        query,
        body,
        idempotency_key: key_header,
        if_match,
        layout,
    } = call;
    let missing = principal.missing_scopes(op);
    if !missing.is_empty() {
        // The challenge names every scope the operation needs (a client re-authorising with it
        // gets a token that works); the details name what this token lacks.
        let all: Vec<&str> = op.required_scopes().collect();
        return Err(ApiError::InsufficientScope {
            challenge: app.step_up_challenge("/v1", &all.join(" ")),
            required: missing.join(" "),
            granted: principal.scopes.clone(),
        });
    }
    // No id holds a control character (PostgreSQL could not even compare one with a NUL): such
    // a path names nothing, and is answered so without asking the store.
    if path.iter().any(|(_, value)| value.chars().any(char::is_control)) {
        return Err(ApiError::NotFound(op.tag.strip_suffix('s').unwrap_or(op.tag)));
    }
    let mut query = read_query(op, query)?;
    let fields = super::fields::asked(op, &mut query)?;
    let mut body = match body {
        InvocationBody::Unread { body, content_type } => {
            let bytes = crate::request::read_body(body).await.map_err(|e| match e {
                BodyError::TooLarge => ApiError::PayloadTooLarge,
                BodyError::Unreadable => ApiError::BadRequest(e.to_string()),
            })?;
            read_body(op, content_type, &bytes)?
        }
        InvocationBody::Parsed(map) => body_map(op, map, Vec::new())?,
    };

    let key = idempotency_key(op, key_header, &mut body)?;
    let fingerprint = key.as_ref().map(|_| idempotency::fingerprint(op, &path, &query, &body));
    let input: I = typed_input(path, query, body)?;
    let now = OffsetDateTime::now_utc();
    if op.effect == Effect::Read {
        let store = app.store.clone();
        let offsets = Offsets::new(&principal.zone, now);
        let call = Call { app, store, principal, op, request_id: request_id.to_string(), if_match, now };
        let answer = handler(call, input).await?;
        return Ok(Answered::Rendered(
            offsets.write(|| answer.render_cut(op.success_status, layout, fields.as_deref()))?,
        ));
    }
    // A write: one unit of work, which commits whole (with the key's claim and answer, when
    // keyed) or not at all. A full disk or a read-only database it meets makes /readyz say so.
    let readiness = app.clone();
    let written =
        write(app, principal, op, request_id, if_match, layout, key.zip(fingerprint), input, now, handler)
            .await;
    if let Err(ApiError::DatabaseUnavailable(outage)) = &written {
        readiness.readiness.saw(*outage);
    }
    written
}

/// The write path of [`execute`]: the handler in a unit of work, with the key's claim and
/// answer when keyed.
#[allow(clippy::too_many_arguments)]
async fn write<I, A, F, Fut>(
    app: Arc<App>,
    principal: Principal,
    op: &'static Operation,
    request_id: &str,
    if_match: Option<String>,
    layout: Layout,
    key: Option<(String, String)>,
    input: I,
    now: OffsetDateTime,
    handler: F,
) -> ApiResult<Answered>
where
    A: Render,
    F: Fn(Call, I) -> Fut,
    Fut: Future<Output = ApiResult<A>>,
{
    let keyed = match key {
        Some((key, fingerprint)) => {
            Some((idempotency::enter(&principal.organization_id, &key)?, fingerprint))
        }
        None => None,
    };
    let unit = app.store.begin().await?;
    if let Some((key, fingerprint)) = &keyed {
        match idempotency::claim(unit.store(), key, op.operation_id, fingerprint, now, &app.key).await {
            Ok(Claim::Started) => {}
            Ok(Claim::Replay(stored)) => {
                unit.rollback().await?;
                return Ok(Answered::Stored { stored, replayed: true });
            }
            Err(err) => {
                unit.rollback().await?;
                return Err(err);
            }
        }
    }
    let store = unit.store().clone();
    let offsets = Offsets::new(&principal.zone, now);
    let call =
        Call { app: app.clone(), store, principal, op, request_id: request_id.to_string(), if_match, now };
    let layout = if keyed.is_some() { Layout::Compact } else { layout };
    let answered = handler(call, input).await;
    let rendered =
        match answered.and_then(|answer| offsets.write(|| answer.render(op.success_status, layout))) {
            Ok(rendered) => rendered,
            Err(err) => {
                // Nothing the handler wrote stays, nor the key's claim; the locks go before the
                // caller hears of it, so that a retry finds the key free.
                unit.rollback().await?;
                return match keyed {
                    Some((key, fingerprint)) if err.kept_under_key() => {
                        keep_error(&app, &key, op, &fingerprint, err, request_id, now).await
                    }
                    _ => Err(err),
                };
            }
        };
    let Some((key, _)) = keyed else {
        unit.commit().await?;
        return Ok(Answered::Rendered(rendered));
    };
    let stored = Stored::from_rendered(rendered);
    let seal = idempotency::sealed_answers(op).then_some(&app.key);
    idempotency::finish(unit.store(), &key, &stored, seal).await?;
    unit.commit().await?;
    Ok(Answered::Stored { stored, replayed: false })
}

/// Keeps a handler's error under its key, in a unit of its own (the handler's was rolled
/// back): the key's claim and the error commit together.
async fn keep_error(
    app: &App,
    key: &idempotency::InFlight,
    op: &Operation,
    fingerprint: &str,
    err: ApiError,
    request_id: &str,
    now: OffsetDateTime,
) -> ApiResult<Answered> {
    let stored = Stored::from_error(&err, request_id);
    let unit = app.store.begin().await?;
    if let Claim::Replay(first) =
        idempotency::claim(unit.store(), key, op.operation_id, fingerprint, now, &app.key).await?
    {
        unit.rollback().await?;
        return Ok(Answered::Stored { stored: first, replayed: true });
    }
    idempotency::finish(unit.store(), key, &stored, None).await?;
    unit.commit().await?;
    Ok(Answered::Stored { stored, replayed: false })
}

/// The operation's typed input, from its validated path, query and body fields side by side.
/// The schemas already passed, so what can still fail here is a value type's own rule (a third
/// decimal, a date that does not exist), answered like a schema error, naming the field.
fn typed_input<I: DeserializeOwned>(
    path: Vec<(&'static str, String)>,
    query: Map<String, Value>,
    body: Map<String, Value>,
) -> ApiResult<I> {
    if query.is_empty() && body.is_empty() {
        // Path parameters only (a read by id): read straight from the pairs, as the strings
        // they are in the map below, without building one (a table and a hash per member).
        let pairs = MapDeserializer::<_, serde::de::value::Error>::new(path.into_iter());
        return serde_path_to_error::deserialize(pairs).map_err(input_error);
    }
    let mut flat: Map<String, Value> =
        path.into_iter().map(|(name, value)| (name.to_string(), Value::String(value))).collect();
    flat.extend(query);
    flat.extend(body);
    serde_path_to_error::deserialize(Value::Object(flat)).map_err(input_error)
}

/// A value type's own rule that failed, answered like a schema error naming the field.
fn input_error<E: std::fmt::Display>(e: serde_path_to_error::Error<E>) -> ApiError {
    // serde writes `tags[0]`; the schema errors and the number scanner write `tags.0`.
    let field = e.path().to_string().replace('[', ".").replace(']', "");
    // Neither error type appends a position for values; keep only the rule that failed.
    let message = e.into_inner().to_string();
    ApiError::Validation(vec![FieldError::new(field, message)])
}

/// The headers an invocation reads, by `HeaderName` (no parse of the name per lookup).
const IDEMPOTENCY_KEY: HeaderName = HeaderName::from_static("idempotency-key");
const X_IDEMPOTENCY_KEY: HeaderName = HeaderName::from_static("x-idempotency-key");

fn header(headers: &HeaderMap, name: &HeaderName) -> Option<String> {
    header_str(headers, name).map(str::to_string)
}

fn header_str<'a>(headers: &'a HeaderMap, name: &HeaderName) -> Option<&'a str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

/// A list header sent over one or more field lines, as the one comma-separated value it is
/// (RFC 9110 section 5.3); a line that is not text is kept as an unreadable element.
fn list_header(headers: &HeaderMap, name: &HeaderName) -> Option<String> {
    let lines: Vec<&str> = headers.get_all(name).iter().map(|v| v.to_str().unwrap_or("\u{fffd}")).collect();
    (!lines.is_empty()).then(|| lines.join(", "))
}

/// The query string as typed JSON, validated against the operation's query schema.
fn read_query(op: &Operation, pairs: Vec<(Cow<'_, str>, Cow<'_, str>)>) -> ApiResult<Map<String, Value>> {
    let mut query = Map::new();
    let mut errors = Vec::new();
    for (name, value) in pairs {
        let name = name.into_owned();
        // A query value is one line of text; a control character in it is never meant.
        if json_shape::has_any_control(&name) || json_shape::has_any_control(&value) {
            let field = if json_shape::has_any_control(&name) { "query" } else { name.as_str() };
            errors.push(FieldError::new(field, "contains a control character"));
            continue;
        }
        let kind = op.query_params.iter().find(|p| p.name == name).map(|p| p.kind);
        let typed = match kind {
            Some(ParamKind::Integer) => match value.parse::<i64>() {
                Ok(n) => Value::from(n),
                Err(_) => {
                    errors.push(FieldError::new(&name, "must be an integer"));
                    continue;
                }
            },
            Some(ParamKind::Number) => match value.parse::<f64>().ok().and_then(serde_json::Number::from_f64)
            {
                // Judged as written: f64 would round `1.0000000000000000001` to 1.
                Some(_) if hundredths_from_text(&value) == Err(DomainError::TooManyDecimals) => {
                    errors.push(FieldError::new(&name, DomainError::TooManyDecimals.to_string()));
                    continue;
                }
                Some(n) => Value::Number(n),
                None => {
                    errors.push(FieldError::new(&name, "must be a number"));
                    continue;
                }
            },
            Some(ParamKind::Boolean) => match value.as_ref() {
                "true" => Value::Bool(true),
                "false" => Value::Bool(false),
                _ => {
                    errors.push(FieldError::new(&name, "must be true or false"));
                    continue;
                }
            },
            Some(ParamKind::String) | None => {
                // Each value of a CSV filter becomes a bound parameter: keep the list bounded.
                if value.split(',').count() > MAX_CSV_VALUES {
                    errors.push(FieldError::new(&name, format!("takes at most {MAX_CSV_VALUES} values")));
                    continue;
                }
                Value::String(value.into_owned())
            }
        };
        if query.insert(name.clone(), typed).is_some() {
            errors.push(FieldError::new(&name, "is given more than once (use commas for several values)"));
        }
    }
    let (query, checked) = schemas(op).query.check_object(query);
    if let Err(mut schema_errors) = checked {
        errors.append(&mut schema_errors);
    }
    if errors.is_empty() { Ok(query) } else { Err(ApiError::Validation(errors)) }
}

/// The JSON body. Without one (no bytes, or only whitespace) an optional body is empty and a
/// required one is missing, whatever the `Content-Type`; a body sent is read only as
/// `application/json` or a `+json` type (RFC 6839), as the spec declares.
pub(super) fn read_body(
    op: &Operation,
    content_type: Option<&str>,
    bytes: &[u8],
) -> ApiResult<Map<String, Value>> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return body_map(op, None, Vec::new());
    }
    if op.body.is_none() {
        return Err(no_body_taken(op));
    }
    if !content_type.is_some_and(is_json) {
        return Err(ApiError::BadRequest(match content_type {
            Some(_) => "the request body must be sent with Content-Type: application/json".into(),
            None => "the request body has no Content-Type; send it as application/json".into(),
        }));
    }
    // Counted before it is parsed: parsing is the cost a body of many small values imposes.
    if !json_shape::within_values(bytes, json_shape::MAX_VALUES) {
        return Err(shape_error(&ShapeError::TooManyValues));
    }
    let value: Value = serde_json::from_slice(bytes)
        .map_err(|e| ApiError::BadRequest(format!("the body is not valid JSON: {e}")))?;
    let Value::Object(map) = value else {
        return Err(ApiError::field("body", "must be a JSON object"));
    };
    // Bounded before anything looks at the members one by one.
    if let Err(fault) = json_shape::check_object(&map) {
        return Err(shape_error(&fault));
    }
    // The parsed numbers went through f64; their third decimals are judged on the bytes.
    body_map(op, Some(map), inexact_fields(bytes))
}

/// A body object (or none) checked against the operation's body: `errors` were found on its
/// raw bytes.
fn body_map(
    op: &Operation,
    map: Option<Map<String, Value>>,
    errors: Vec<FieldError>,
) -> ApiResult<Map<String, Value>> {
    match (op.body, map) {
        (None, None) => Ok(Map::new()),
        (None, Some(_)) => Err(no_body_taken(op)),
        (Some(spec), None) if spec.required => Err(ApiError::field("body", "a JSON object is required")),
        (Some(_), None) => Ok(Map::new()),
        (Some(_), Some(map)) => validate_body(op, map, errors),
    }
}

fn no_body_taken(op: &Operation) -> ApiError {
    ApiError::BadRequest(format!("{} takes no request body", op.operation_id))
}

/// `application/json` or `application/<anything>+json`, with any parameters.
fn is_json(content_type: &str) -> bool {
    let media = content_type.split(';').next().unwrap_or_default().trim().to_ascii_lowercase();
    match media.split_once('/') {
        Some(("application", subtype)) => {
            subtype == "json" || (subtype.len() > 5 && subtype.ends_with("+json"))
        }
        _ => false,
    }
}

/// A field error for every number literal of `json` with more than 2 decimals, named by its
/// dotted path (`amount`, `installments.0.amount`).
fn inexact_fields(json: &[u8]) -> Vec<FieldError> {
    json_numbers::inexact_numbers(json)
        .into_iter()
        .map(|path| {
            let field = if path.is_empty() { "body".to_string() } else { path.join(".") };
            FieldError::new(field, DomainError::TooManyDecimals.to_string())
        })
        .collect()
}

/// Validates a JSON body against the operation's closed body schema; `errors` (found on the raw
/// bytes) come first, and the schema's errors are added for the fields they do not name.
fn validate_body(
    op: &Operation,
    map: Map<String, Value>,
    mut errors: Vec<FieldError>,
) -> ApiResult<Map<String, Value>> {
    let value = Value::Object(map);
    if let Some(schema) = &schemas(op).body
        && let Err(schema_errors) = schema.check(&value)
    {
        let named: HashSet<String> = errors.iter().map(|e| e.field.clone()).collect();
        errors.extend(schema_errors.into_iter().filter(|e| !named.contains(&e.field)));
    }
    if !errors.is_empty() {
        return Err(ApiError::Validation(errors));
    }
    let Value::Object(map) = value else { unreachable!("built from a map above") };
    Ok(map)
}

/// A shape fault as the field error it is: the value at fault named, the limit said.
fn shape_error(fault: &ShapeError) -> ApiError {
    let field = if fault.path().is_empty() { "body" } else { fault.path() };
    ApiError::field(field, fault.to_string())
}

/// The idempotency key: a header wins over the body field, which is removed either way.
fn idempotency_key(
    op: &Operation,
    from_header: Option<String>,
    body: &mut Map<String, Value>,
) -> ApiResult<Option<String>> {
    let from_body = body.remove("idempotency_key").and_then(|v| v.as_str().map(str::to_string));
    if !op.accepts_idempotency_key {
        return Ok(None);
    }
    let key = from_header.or(from_body);
    match key {
        // Characters, as the spec's maxLength counts them (not bytes).
        Some(k) if k.is_empty() || k.chars().count() > MAX_IDEMPOTENCY_KEY => Err(ApiError::field(
            "idempotency_key",
            format!("must have 1 to {MAX_IDEMPOTENCY_KEY} characters"),
        )),
        Some(k) if json_shape::has_any_control(&k) => {
            Err(ApiError::field("idempotency_key", "contains a control character"))
        }
        other => Ok(other),
    }
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;
    use serde_json::json;

    use super::*;

    #[derive(Debug, PartialEq, Deserialize)]
    #[serde(rename_all = "snake_case")]
    enum Kind {
        Pending,
        Paid,
    }

    #[derive(Debug, PartialEq, Deserialize)]
    struct Probe {
        id: String,
        kind: Kind,
        limit: Option<i64>,
    }

    /// The same input through the map of path, query and body members, which a non-empty query
    /// forces (`limit` is a member the probe ignores when it is null).
    fn through_the_map(path: Vec<(&'static str, String)>) -> ApiResult<Probe> {
        let query = json!({ "limit": null }).as_object().unwrap().clone();
        typed_input(path, query, Map::new())
    }

    fn outcome(result: ApiResult<Probe>) -> String {
        match result {
            Ok(probe) => format!("{probe:?}"),
            Err(ApiError::Validation(fields)) => format!("{fields:?}"),
            Err(other) => panic!("not a validation error: {other:?}"),
        }
    }

    #[test]
    fn path_parameters_alone_read_as_through_the_map() {
        let cases: [Vec<(&'static str, String)>; 4] = [
            vec![("id", "chg_1".into()), ("kind", "paid".into())],
            vec![("kind", "pending".into()), ("id", "ç".into())],
            vec![("id", "chg_1".into()), ("kind", "lost".into())],
            vec![("id", "chg_1".into())],
        ];
        for path in cases {
            let direct = outcome(typed_input(path.clone(), Map::new(), Map::new()));
            assert_eq!(direct, outcome(through_the_map(path.clone())), "{path:?}");
        }
        let read: Probe =
            typed_input(vec![("id", "x".into()), ("kind", "paid".into())], Map::new(), Map::new()).unwrap();
        assert_eq!(read, Probe { id: "x".into(), kind: Kind::Paid, limit: None });
        let refused = outcome(typed_input::<Probe>(
            vec![("id", "x".into()), ("kind", "lost".into())],
            Map::new(),
            Map::new(),
        ));
        assert!(refused.contains("kind") && refused.contains("lost"), "{refused}");
    }
}
