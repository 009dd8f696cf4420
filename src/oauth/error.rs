//! The authorization server's errors: RFC 6749 (and RFC 7591, RFC 8707) error codes, each
//! with a description fit to show the client or the person at the browser. Internal failures
//! keep their cause for the log and show only "server_error".

use poem::http::StatusCode;
use poem::{IntoResponse, Response};
use serde_json::json;

use crate::store::StoreError;

/// The stable error codes, as the RFCs spell them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorCode {
    InvalidRequest,
    InvalidClient,
    InvalidGrant,
    UnauthorizedClient,
    UnsupportedGrantType,
    UnsupportedResponseType,
    InvalidScope,
    AccessDenied,
    /// RFC 8707: a `resource` this server does not protect.
    InvalidTarget,
    /// RFC 7591.
    InvalidRedirectUri,
    /// RFC 7591.
    InvalidClientMetadata,
    ServerError,
    TemporarilyUnavailable,
}

impl ErrorCode {
    /// The code on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::InvalidRequest => "invalid_request",
            ErrorCode::InvalidClient => "invalid_client",
            ErrorCode::InvalidGrant => "invalid_grant",
            ErrorCode::UnauthorizedClient => "unauthorized_client",
            ErrorCode::UnsupportedGrantType => "unsupported_grant_type",
            ErrorCode::UnsupportedResponseType => "unsupported_response_type",
            ErrorCode::InvalidScope => "invalid_scope",
            ErrorCode::AccessDenied => "access_denied",
            ErrorCode::InvalidTarget => "invalid_target",
            ErrorCode::InvalidRedirectUri => "invalid_redirect_uri",
            ErrorCode::InvalidClientMetadata => "invalid_client_metadata",
            ErrorCode::ServerError => "server_error",
            ErrorCode::TemporarilyUnavailable => "temporarily_unavailable",
        }
    }

    /// The status of a JSON answer with this code (RFC 6749 section 5.2: 400, or 401 for a
    /// client that failed to authenticate).
    pub fn status(self) -> StatusCode {
        match self {
            ErrorCode::InvalidClient => StatusCode::UNAUTHORIZED,
            ErrorCode::ServerError => StatusCode::INTERNAL_SERVER_ERROR,
            ErrorCode::TemporarilyUnavailable => StatusCode::SERVICE_UNAVAILABLE,
            _ => StatusCode::BAD_REQUEST,
        }
    }
}

/// Why an authorization-server request failed.
#[derive(Debug, thiserror::Error)]
pub enum OAuthError {
    /// A protocol error the caller can act on.
    #[error("{code:?}: {description}")]
    Protocol { code: ErrorCode, description: String },
    /// A form without the right CSRF token: refused, nothing done.
    #[error("the form's csrf token is missing or wrong")]
    Csrf,
    /// A method the endpoint does not take: 405, with `Allow`.
    #[error("{method} is not allowed here; use {allow}")]
    MethodNotAllowed { method: String, allow: String },
    /// Too many requests from this address.
    #[error("too many requests; retry in {0} s")]
    RateLimited(u64),
    /// The database failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The system random source failed.
    #[error("no randomness available")]
    Random,
}

impl From<getrandom::Error> for OAuthError {
    fn from(_: getrandom::Error) -> Self {
        OAuthError::Random
    }
}

impl OAuthError {
    /// A protocol error.
    pub fn protocol(code: ErrorCode, description: impl Into<String>) -> Self {
        OAuthError::Protocol { code, description: description.into() }
    }

    /// The RFC code and the description to show (internal failures say only that they
    /// happened; the cause goes to the log).
    pub fn public(&self) -> (ErrorCode, String) {
        match self {
            OAuthError::Protocol { code, description } => (*code, description.clone()),
            OAuthError::Csrf => {
                (ErrorCode::InvalidRequest, "the form's csrf token is missing or wrong".into())
            }
            OAuthError::MethodNotAllowed { .. } => (ErrorCode::InvalidRequest, self.to_string()),
            OAuthError::RateLimited(secs) => {
                (ErrorCode::TemporarilyUnavailable, format!("too many requests; retry in {secs} s"))
            }
            OAuthError::Store(_) | OAuthError::Random => {
                (ErrorCode::ServerError, "the server could not complete the request".into())
            }
        }
    }

    /// Logs an internal failure (never a secret: store errors name tables and columns).
    pub fn log(&self) {
        if matches!(self, OAuthError::Store(_) | OAuthError::Random) {
            tracing::error!(error = %self, "authorization server failure");
        }
    }

    /// The RFC 6749 section 5.2 JSON answer.
    pub fn json_response(&self) -> Response {
        self.log();
        let (code, description) = self.public();
        let status = match self {
            OAuthError::RateLimited(_) => StatusCode::TOO_MANY_REQUESTS,
            OAuthError::MethodNotAllowed { .. } => StatusCode::METHOD_NOT_ALLOWED,
            _ => code.status(),
        };
        let mut response =
            no_cache_json(status, json!({ "error": code.as_str(), "error_description": description }));
        if let OAuthError::RateLimited(secs) = self {
            response.headers_mut().insert("retry-after", secs.to_string().parse().expect("digits"));
        }
        response
    }
}

/// A JSON answer of the token and revocation endpoints, errors included: `Pragma: no-cache`
/// beside the `Cache-Control: no-store` the server gives every answer (RFC 6749 section 5.1,
/// for HTTP/1.0 caches).
pub fn no_cache_json(status: StatusCode, body: serde_json::Value) -> Response {
    let mut response = poem::web::Json(body).with_status(status).into_response();
    response.headers_mut().insert("pragma", poem::http::HeaderValue::from_static("no-cache"));
    response
}

/// A result of the authorization server.
pub type OAuthResult<T> = Result<T, OAuthError>;
