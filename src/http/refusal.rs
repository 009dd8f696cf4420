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
        }
    }

    fn message(self) -> &'static str {
        match self {
            Self::Malformed => "the request is not valid HTTP/1.1",
            Self::LineTooLong => "the request line is too long",
            Self::HeadTooLarge => "the request headers are too large",
            Self::TooSlow => "the request did not arrive in time",
            Self::Http2 => "only HTTP/1.1 is served",
        }
    }
}

/// The whole answer, as bytes on the wire.
pub fn refusal_bytes(refusal: Refusal) -> Vec<u8> {
    let request_id = new_id("req");
    let body = ApiError::BadRequest(refusal.message().into()).body(&request_id).to_string();
    format!(
        "HTTP/1.1 {} {}\r\ncontent-type: application/json\r\ncache-control: no-store\r\n\
         x-request-id: {request_id}\r\nconnection: close\r\ncontent-length: {}\r\n\r\n{body}",
        refusal.status(),
        refusal.reason(),
        body.len(),
    )
    .into_bytes()
}
