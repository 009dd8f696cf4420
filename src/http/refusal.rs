//! The answers the HTTP gate writes itself, before any handler runs: with a request id,
//! `Cache-Control: no-store` and the error envelope, like every other answer of the server, and
//! `Connection: close`, since what follows on the connection cannot be trusted.

use crate::domain::ids::new_id;
use crate::error::ApiError;

/// Why the gate refuses a request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// The head is not HTTP/1.x.
    Malformed,
    /// The request line is over its limit.
    LineTooLong,
    /// The head is over its limits.
    HeadTooLarge,
    /// The head or the body did not arrive within its deadline.
    TooSlow,
    /// An HTTP/2 preface: only HTTP/1.1 is spoken.
    Http2,
    /// A body over the cap that is not declared up front (chunked), or a length HTTP cannot frame.
    TooLarge,
    /// The connections together buffer as much as the server allows: come back shortly.
    Busy,
}

impl Refusal {
    /// The HTTP status.
    pub fn status(self) -> u16 {
        match self {
            Self::Malformed => 400,
            Self::LineTooLong => 414,
            Self::HeadTooLarge => 431,
            Self::TooSlow => 408,
            Self::Http2 => 505,
            Self::TooLarge => 413,
            Self::Busy => 503,
        }
    }

    /// The reason phrase.
    pub fn reason(self) -> &'static str {
        match self {
            Self::Malformed => "Bad Request",
            Self::LineTooLong => "URI Too Long",
            Self::HeadTooLarge => "Request Header Fields Too Large",
            Self::TooSlow => "Request Timeout",
            Self::Http2 => "HTTP Version Not Supported",
            Self::TooLarge => "Payload Too Large",
            Self::Busy => "Service Unavailable",
        }
    }

    fn message(self) -> &'static str {
        match self {
            Self::Malformed => "the request is not valid HTTP/1.1",
            Self::LineTooLong => "the request line is too long",
            Self::HeadTooLarge => "the request headers are too large",
            Self::TooSlow => "the request did not arrive in time",
            Self::Http2 => "only HTTP/1.1 is served",
            Self::TooLarge => "the request body is larger than 2 MiB",
            Self::Busy => "the server is busy; retry shortly",
        }
    }

    /// The error in the API's vocabulary (the contract's codes).
    fn error(self) -> ApiError {
        match self {
            Self::TooLarge => ApiError::PayloadTooLarge,
            Self::Busy => ApiError::Unavailable,
            other => ApiError::BadRequest(other.message().into()),
        }
    }
}

/// The whole answer, as bytes on the wire; `to_mcp` answers in JSON-RPC, as the MCP endpoint
/// does (its transport errors carry no id: the request was not read).
pub fn refusal_bytes(refusal: Refusal, to_mcp: bool) -> Vec<u8> {
    let request_id = new_id("req");
    let (body, extra) = if to_mcp {
        let (code, message) = match refusal {
            Refusal::TooLarge => (-32600, "Request body too large"),
            Refusal::Busy => (-32000, "Server busy; retry later"),
            _ => (-32600, "Invalid Request: the HTTP request could not be read"),
        };
        let body = serde_json::json!({ "jsonrpc": "2.0", "error": { "code": code, "message": message } });
        (body.to_string(), "mcp-protocol-version: 2025-06-18\r\n")
    } else {
        (refusal.error().body(&request_id).to_string(), "")
    };
    let retry = if refusal == Refusal::Busy { "retry-after: 1\r\n" } else { "" };
    format!(
        "HTTP/1.1 {} {}\r\ncontent-type: application/json\r\ncache-control: no-store\r\n\
         x-request-id: {request_id}\r\n{extra}{retry}connection: close\r\ncontent-length: {}\r\n\r\n{body}",
        refusal.status(),
        refusal.reason(),
        body.len(),
    )
    .into_bytes()
}
