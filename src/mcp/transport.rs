//! The HTTP side of the endpoint, in a fixed order of checks: body size, Content-Type, Accept,
//! JSON, batch, Origin, authentication, era and headers, then the method.

use std::sync::Arc;

use poem::http::header::{ACCEPT, AUTHORIZATION, CONTENT_TYPE, ORIGIN};
use poem::http::{HeaderMap, HeaderName, Method, StatusCode};
use poem::{Request, Response};
use serde_json::{Value, json};

use super::context::{Context, result_body};
use super::dispatch::{Caller, Dispatcher};
use super::era::{self, V2025_06};
use super::methods;
use super::wire::{Body, INVALID_REQUEST, Message, PARSE_ERROR, RpcError, SERVER_ERROR};
use crate::app::App;
use crate::auth::{Audience, Refused, admit, client_address};
use crate::domain::json_shape;
use crate::request::{BodyError, read_body};
use crate::toolsets::{self, PathError, ToolFilter};

/// Request headers a browser client may send (CORS).
const ALLOWED_HEADERS: &str =
    "Authorization, Content-Type, Accept, MCP-Protocol-Version, Mcp-Method, Mcp-Name";

/// The header naming the protocol revision of an answer (built once: parsing the name and
/// checking the value on every answer showed in the profile).
const PROTOCOL_VERSION: HeaderName = era::PROTOCOL_VERSION;

/// The most JSON values one message may hold: its envelope and a few inputs of the most one input
/// may hold.
const MESSAGE_VALUES: usize = 4 * json_shape::MAX_VALUES;

/// One mount of the MCP endpoint.
pub struct McpEndpoint {
    app: Arc<App>,
    dispatcher: Arc<Dispatcher>,
    /// `/mcp` or `` (the `POST /` alias): names the protected resource in challenges.
    resource_path: &'static str,
}

/// 404 for a path under `/mcp/` that names no endpoint: what the paths are and the toolsets.
fn no_such_path(err: &PathError) -> RpcError {
    let unknown = match err {
        PathError::UnknownToolsets(names) => json!(names),
        PathError::NotAnEndpoint => json!([]),
    };
    let toolsets: Vec<&str> = crate::operations::TOOLSETS.iter().map(|s| s.name).collect();
    RpcError::new(StatusCode::NOT_FOUND, INVALID_REQUEST, err.message())
        .with_data(json!({ "code": "NOT_FOUND", "unknown_toolsets": unknown, "toolsets": toolsets }))
}

impl McpEndpoint {
    /// The endpoint for a resource path; mounts share one in-process /v1.
    pub fn new(app: Arc<App>, dispatcher: Arc<Dispatcher>, resource_path: &'static str) -> Self {
        Self { app, dispatcher, resource_path }
    }
}

/// The 503 of an overloaded or draining server, as a JSON-RPC error.
pub fn unavailable() -> Response {
    let err = RpcError::new(StatusCode::SERVICE_UNAVAILABLE, SERVER_ERROR, "Server busy; retry later")
        .with_data(json!({ "code": "UNAVAILABLE", "retry_after": 1 }));
    Response::builder()
        .status(err.status)
        .header("MCP-Protocol-Version", V2025_06)
        .header("Retry-After", "1")
        .header(poem::http::header::CONTENT_TYPE, crate::request::APPLICATION_JSON)
        .body(err.body(None).to_string())
}

/// The MCP answer to a body declared over the cap, sent before a byte of it is read.
pub fn payload_too_large() -> Response {
    let err = RpcError::new(StatusCode::PAYLOAD_TOO_LARGE, INVALID_REQUEST, "Request body too large");
    Response::builder()
        .status(err.status)
        .header("MCP-Protocol-Version", V2025_06)
        .header(poem::http::header::CONTENT_TYPE, crate::request::APPLICATION_JSON)
        .body(err.body(None).to_string())
}

/// The era of answers given before a request's era is known: the one a client that sent no
/// version understands.
const UNKNOWN_ERA: &str = V2025_06;

/// A finished answer before it becomes HTTP.
struct Outgoing {
    status: StatusCode,
    /// The JSON body, as written.
    body: Option<poem::Body>,
    version: &'static str,
    headers: Vec<(&'static str, String)>,
}

// Errors are built out of line and marked cold, so the code of the refusals stays out of the
// hot path's instruction cache lines (the endpoint's code did not fit in L1).
impl Outgoing {
    /// A refusal of the request as a whole, before its message is read: no id, no era yet.
    #[cold]
    #[inline(never)]
    fn refused(status: StatusCode, code: i64, message: &str) -> Self {
        Self::error(RpcError::new(status, code, message), None, UNKNOWN_ERA)
    }

    #[cold]
    #[inline(never)]
    fn error(err: RpcError, id: Option<&Value>, version: &'static str) -> Self {
        let body = serde_json::to_vec(&err.body(id)).expect("a Value serialises to a Vec");
        Self { status: err.status, body: Some(body.into()), version, headers: err.headers }
    }
}

impl McpEndpoint {
    /// Answers one request to the endpoint; `request_id` is the one the server gave it.
    pub async fn serve(&self, req: Request, request_id: &str) -> Response {
        self.serve_at(req, request_id, self.resource_path, Ok(ToolFilter::ALL)).await
    }

    /// Answers one request to a narrower path under `/mcp/` (`/mcp/x/charges`, `/mcp/readonly`):
    /// the same endpoint with fewer tools, the path naming the protected resource. A path that
    /// names no endpoint is 404, whatever the request.
    pub async fn serve_narrowed(&self, req: Request, request_id: &str, path: &str) -> Response {
        self.serve_at(req, request_id, path, toolsets::parse(path)).await
    }

    async fn serve_at(
        &self,
        mut req: Request,
        request_id: &str,
        resource_path: &str,
        tools: Result<ToolFilter, PathError>,
    ) -> Response {
        let origin = req.headers().get(ORIGIN).and_then(|v| v.to_str().ok()).map(str::to_string);
        let origin_ok = origin.as_deref().is_none_or(|o| self.app.accepts_origin(o));
        let outgoing = match tools {
            Err(err) => Outgoing::error(no_such_path(&err), None, UNKNOWN_ERA),
            Ok(_) if req.method() == Method::OPTIONS => return self.preflight(origin.as_deref(), origin_ok),
            Ok(tools) => self.answer(&mut req, origin_ok, request_id, resource_path, tools).await,
        };
        let mut builder = Response::builder()
            .status(outgoing.status)
            .header(PROTOCOL_VERSION, poem::http::HeaderValue::from_static(outgoing.version));
        for (name, value) in outgoing.headers {
            builder = builder.header(name, value);
        }
        if let (Some(origin), true) = (origin, origin_ok) {
            builder = builder
                .header("Access-Control-Allow-Origin", origin)
                .header("Access-Control-Expose-Headers", "MCP-Protocol-Version")
                .header("Vary", "Origin");
        }
        match outgoing.body {
            Some(body) => {
                builder.header(poem::http::header::CONTENT_TYPE, crate::request::APPLICATION_JSON).body(body)
            }
            None => builder.finish(),
        }
    }
}

/// A request header by its name (a `HeaderName`, not text: no parse of the name per lookup).
fn header<'a>(headers: &'a HeaderMap, name: &HeaderName) -> Option<&'a str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

/// `application/json`, parameters allowed.
fn is_json(content_type: &str) -> bool {
    content_type.eq_ignore_ascii_case(JSON)
        || content_type.split(';').next().is_some_and(|t| t.trim().eq_ignore_ascii_case(JSON))
}

const JSON: &str = "application/json";

/// Whether an Accept header admits a JSON answer. What clients send, JSON first, is told
/// without splitting the header.
fn accepts_json(accept: &str) -> bool {
    let json_first = accept.get(..JSON.len()).is_some_and(|first| first.eq_ignore_ascii_case(JSON))
        && matches!(accept.as_bytes().get(JSON.len()), None | Some(b',' | b';'));
    json_first
        || accept.split(',').any(|item| {
            let media = item.split(';').next().unwrap_or_default().trim();
            ["application/json", "application/*", "*/*"].iter().any(|m| media.eq_ignore_ascii_case(m))
        })
}

impl McpEndpoint {
    fn preflight(&self, origin: Option<&str>, origin_ok: bool) -> Response {
        match (origin, origin_ok) {
            (Some(origin), true) => Response::builder()
                .status(StatusCode::NO_CONTENT)
                .header("Access-Control-Allow-Origin", origin)
                .header("Access-Control-Allow-Methods", "POST, OPTIONS")
                .header("Access-Control-Allow-Headers", ALLOWED_HEADERS)
                .header("Access-Control-Expose-Headers", "MCP-Protocol-Version")
                .header("Access-Control-Max-Age", "600")
                .header("Vary", "Origin")
                .header("MCP-Protocol-Version", V2025_06)
                .finish(),
            _ => Response::builder()
                .status(StatusCode::FORBIDDEN)
                .header("MCP-Protocol-Version", V2025_06)
                .finish(),
        }
    }

    async fn answer(
        &self,
        req: &mut Request,
        origin_ok: bool,
        request_id: &str,
        resource_path: &str,
        tools: ToolFilter,
    ) -> Outgoing {
        if req.method() != Method::POST {
            let err = RpcError::new(
                StatusCode::METHOD_NOT_ALLOWED,
                INVALID_REQUEST,
                "Method Not Allowed: POST JSON-RPC messages here",
            )
            .with_header("Allow", "POST, OPTIONS".into());
            return Outgoing::error(err, None, UNKNOWN_ERA);
        }
        let bytes = match read_body(req.take_body()).await {
            Ok(b) => b,
            Err(BodyError::TooLarge) => {
                return Outgoing::refused(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    INVALID_REQUEST,
                    "Request body too large",
                );
            }
            Err(BodyError::Unreadable) => {
                let message = "Invalid Request: the body could not be read";
                return Outgoing::refused(StatusCode::BAD_REQUEST, INVALID_REQUEST, message);
            }
        };
        if !header(req.headers(), &CONTENT_TYPE).is_some_and(is_json) {
            let message = "Content-Type must be application/json";
            return Outgoing::refused(StatusCode::UNSUPPORTED_MEDIA_TYPE, INVALID_REQUEST, message);
        }
        if header(req.headers(), &ACCEPT).is_some_and(|a| !accepts_json(a)) {
            let message = "Accept must admit application/json";
            return Outgoing::refused(StatusCode::NOT_ACCEPTABLE, INVALID_REQUEST, message);
        }
        // Counted before it is parsed, which is the cost: the message may carry its envelope and
        // a few inputs of the most values one may hold; tool arguments within that and over their
        // own bound are the tool's VALIDATION_ERROR, after parsing.
        if !json_shape::within_values(&bytes, MESSAGE_VALUES) {
            let message =
                format!("Invalid Request: the message holds more than {MESSAGE_VALUES} JSON values");
            return Outgoing::refused(StatusCode::BAD_REQUEST, INVALID_REQUEST, &message);
        }
        let members = match Body::parse(&bytes) {
            Ok(Body::Object(members)) => members,
            Ok(Body::Batch) => {
                let message = "Invalid Request: batches are not supported";
                return Outgoing::refused(StatusCode::BAD_REQUEST, INVALID_REQUEST, message);
            }
            Ok(Body::NotObject) => {
                return Outgoing::refused(
                    StatusCode::BAD_REQUEST,
                    INVALID_REQUEST,
                    "Invalid Request: not an object",
                );
            }
            Err(_) => {
                return Outgoing::refused(
                    StatusCode::BAD_REQUEST,
                    PARSE_ERROR,
                    "Parse error: the body is not JSON",
                );
            }
        };
        let readable_id = members.readable_id();
        if !origin_ok {
            let err = RpcError::new(
                StatusCode::FORBIDDEN,
                INVALID_REQUEST,
                "Forbidden: this Origin is not allowed",
            );
            return Outgoing::error(err, readable_id.as_ref(), UNKNOWN_ERA);
        }
        let authorization = header(req.headers(), &AUTHORIZATION);
        let principal =
            match admit(self.app.as_ref(), authorization, Audience::Mcp, client_address(req)).await {
                Ok(p) => p,
                Err(Refused::Unauthorized) => {
                    let challenge =
                        self.app.challenge(resource_path, header(req.headers(), &AUTHORIZATION).is_some());
                    let err = RpcError::new(
                        StatusCode::UNAUTHORIZED,
                        INVALID_REQUEST,
                        "Unauthorized: a valid bearer token for this server is required",
                    )
                    .with_header("WWW-Authenticate", challenge);
                    return Outgoing::error(err, readable_id.as_ref(), UNKNOWN_ERA);
                }
                Err(Refused::RateLimited(limited)) => {
                    let mut err =
                        RpcError::new(StatusCode::TOO_MANY_REQUESTS, SERVER_ERROR, "Rate limit exceeded")
                            .with_data(json!({ "code": "RATE_LIMITED", "retry_after": limited.retry_after }));
                    err.headers = limited.headers();
                    return Outgoing::error(err, readable_id.as_ref(), UNKNOWN_ERA);
                }
                Err(Refused::Failed(e)) => {
                    tracing::error!(error = %e, "authentication failed");
                    let err = RpcError::new(
                        StatusCode::INTERNAL_SERVER_ERROR,
                        super::wire::INTERNAL_ERROR,
                        "Internal error",
                    );
                    return Outgoing::error(err, readable_id.as_ref(), UNKNOWN_ERA);
                }
            };
        let message = match Message::parse(members) {
            Ok(m) => m,
            Err(err) => return Outgoing::error(err, readable_id.as_ref(), UNKNOWN_ERA),
        };
        let era = match era::select(&message, req.headers()) {
            Ok(era) => era,
            Err(err) => return Outgoing::error(err, message.id.as_ref(), UNKNOWN_ERA),
        };
        let version = era.version();
        let Message { id, method, params } = message;
        let (Some(id), Some(method)) = (id, method) else {
            // Notifications and client responses: accepted, nothing to answer.
            return Outgoing { status: StatusCode::ACCEPTED, body: None, version, headers: Vec::new() };
        };
        let caller = Caller { app: self.app.clone(), principal, request_id };
        let ctx = Context { caller: &caller, era: &era, dispatcher: &self.dispatcher, resource_path, tools };
        match methods::handle(&ctx, &method, &params, &bytes).await {
            Ok(outcome) => Outgoing {
                status: StatusCode::OK,
                body: Some(result_body(&id, outcome, &era)),
                version,
                headers: Vec::new(),
            },
            Err(err) => Outgoing::error(err, Some(&id), version),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accept_and_content_type_rules() {
        assert!(accepts_json("application/json, text/event-stream"));
        assert!(accepts_json("*/*"));
        assert!(accepts_json("text/event-stream, application/json;q=0.9"));
        assert!(!accepts_json("text/event-stream"));
        assert!(accepts_json("application/json"));
        assert!(accepts_json("APPLICATION/JSON;q=0.5, text/event-stream"));
        assert!(accepts_json("application/json , text/event-stream"));
        assert!(!accepts_json("application/json x"));
        assert!(!accepts_json("application/jsonx, text/event-stream"));
        assert!(!accepts_json("application/json-seq"));
        assert!(accepts_json("application/json-seq, */*"));
        assert!(is_json("application/json") && is_json("Application/JSON"));
        assert!(!is_json("application/jsonx"));
        assert!(is_json("application/json; charset=utf-8"));
        assert!(!is_json("text/plain"));
    }
}
