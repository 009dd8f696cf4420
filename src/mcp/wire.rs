//! JSON-RPC 2.0 framing and the MCP error codes.
//!
//! Hand-written rather than taken from `rmcp::model`: the contract's answers mix two protocol
//! eras in one endpoint (2026 `resultType`/`_meta` envelopes beside 2025 results, errors without
//! `id`, HTTP statuses per error), which no single SDK model type expresses, and the shapes here
//! are small enough that owning them is cheaper than adapting them.

use poem::http::StatusCode;
use serde_json::{Map, Value, json};

/// Parse error.
pub const PARSE_ERROR: i64 = -32700;
/// Invalid request (also: batch, body too large, wrong content type).
pub const INVALID_REQUEST: i64 = -32600;
/// Method not found.
pub const METHOD_NOT_FOUND: i64 = -32601;
/// Invalid params (also: unknown tool or prompt, missing envelope fields, 2026 resource not found).
pub const INVALID_PARAMS: i64 = -32602;
/// Internal error.
pub const INTERNAL_ERROR: i64 = -32603;
/// Server error (rate limit, overload).
pub const SERVER_ERROR: i64 = -32000;
/// 2025 resource not found.
pub const RESOURCE_NOT_FOUND: i64 = -32002;
/// 2026 header mismatch.
pub const HEADER_MISMATCH: i64 = -32020;
/// 2026 unsupported protocol version.
pub const UNSUPPORTED_VERSION: i64 = -32022;

/// A JSON-RPC error together with the HTTP status and headers it travels with.
#[derive(Debug, Clone)]
pub struct RpcError {
    /// HTTP status of the answer.
    pub status: StatusCode,
    /// JSON-RPC error code.
    pub code: i64,
    /// Human-readable message.
    pub message: String,
    /// Structured data (boxed: errors travel in `Result`s and should stay small).
    pub data: Option<Box<Value>>,
    /// Extra response headers (WWW-Authenticate, Retry-After).
    pub headers: Vec<(&'static str, String)>,
}

impl RpcError {
    /// An error with status and code.
    pub fn new(status: StatusCode, code: i64, message: impl Into<String>) -> Self {
        Self { status, code, message: message.into(), data: None, headers: Vec::new() }
    }

    /// With `data`.
    pub fn with_data(mut self, data: Value) -> Self {
        self.data = Some(Box::new(data));
        self
    }

    /// With a response header.
    pub fn with_header(mut self, name: &'static str, value: String) -> Self {
        self.headers.push((name, value));
        self
    }

    /// -32602 in a 200: an argument the caller can fix.
    pub fn invalid_params(message: impl Into<String>) -> Self {
        Self::new(StatusCode::OK, INVALID_PARAMS, message)
    }

    /// The JSON-RPC error object (with the request id when it could be read).
    pub fn body(&self, id: Option<&Value>) -> Value {
        let mut error = json!({ "code": self.code, "message": self.message });
        if let Some(data) = &self.data {
            error["data"] = (**data).clone();
        }
        let mut body = Map::new();
        body.insert("jsonrpc".into(), json!("2.0"));
        if let Some(id) = id {
            body.insert("id".into(), id.clone());
        }
        body.insert("error".into(), error);
        Value::Object(body)
    }
}

/// One parsed JSON-RPC message.
#[derive(Debug, Clone)]
pub struct Message {
    /// The id; `None` for notifications (and client responses).
    pub id: Option<Value>,
    /// The method; `None` for client responses.
    pub method: Option<String>,
    /// The params object (empty when absent).
    pub params: Map<String, Value>,
}

impl Message {
    /// Reads a JSON-RPC object, refusing what is not one.
    pub fn parse(value: Value) -> Result<Self, RpcError> {
        let Value::Object(mut object) = value else {
            return Err(RpcError::new(
                StatusCode::BAD_REQUEST,
                INVALID_REQUEST,
                "Invalid Request: not an object",
            ));
        };
        let id = object.get("id").filter(|id| id.is_string() || id.is_number()).cloned();
        if object.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
            return Err(RpcError::new(
                StatusCode::BAD_REQUEST,
                INVALID_REQUEST,
                "Invalid Request: jsonrpc must be \"2.0\"",
            ));
        }
        if object.contains_key("id") && id.is_none() {
            return Err(RpcError::new(
                StatusCode::BAD_REQUEST,
                INVALID_REQUEST,
                "Invalid Request: id must be a string or a number",
            ));
        }
        let method = match object.get("method") {
            None => None,
            Some(Value::String(m)) => Some(m.clone()),
            Some(_) => {
                return Err(RpcError::new(
                    StatusCode::BAD_REQUEST,
                    INVALID_REQUEST,
                    "Invalid Request: method must be a string",
                ));
            }
        };
        if method.is_none() && !(object.contains_key("result") || object.contains_key("error")) {
            return Err(RpcError::new(
                StatusCode::BAD_REQUEST,
                INVALID_REQUEST,
                "Invalid Request: no method",
            ));
        }
        let params = match object.remove("params") {
            None | Some(Value::Null) => Map::new(),
            Some(Value::Object(p)) => p,
            Some(_) => {
                return Err(RpcError::new(
                    StatusCode::BAD_REQUEST,
                    INVALID_PARAMS,
                    "params must be an object",
                ));
            }
        };
        Ok(Self { id, method, params })
    }
}
