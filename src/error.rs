//! The error envelope: `{"error": {"code", "message", "details", "request_id"}}`, the body of
//! every /v1 error and the text of every MCP tool error, so both surfaces read alike.
//!
//! Codes are part of the OpenAPI contract. Internal failures keep their cause for the log and
//! show the caller only a request id. It lives below `api` and `auth` (both answer with it) and
//! above `store` and `limits` (whose failures it wraps).

use poem::Response;
use poem::http::StatusCode;
use serde::Serialize;
use serde_json::{Value, json};

use crate::store::{Outage, StoreError};

/// One field a request got wrong.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FieldError {
    /// The field or argument, dotted for nested fields (`address.zipcode`).
    pub field: String,
    /// What is wrong with it.
    pub message: String,
    /// A close known name, for an unknown field.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suggestion: Option<String>,
}

impl FieldError {
    /// A field with a problem.
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        Self { field: field.into(), message: message.into(), suggestion: None }
    }
}

/// Everything a /v1 operation can answer besides success.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// 422: fields are missing, malformed or unknown.
    #[error("the request has invalid fields")]
    Validation(Vec<FieldError>),
    /// 400: the request cannot be read at all.
    #[error("{0}")]
    BadRequest(String),
    /// 401: no valid token.
    #[error("a valid bearer token is required")]
    Unauthorized {
        /// The WWW-Authenticate challenge.
        challenge: String,
    },
    /// 401: a gateway callback whose signature is not the gateway's.
    #[error("the X-Kobana-Signature header is not the gateway's signature of this body")]
    BadSignature,
    /// 403: the token lacks the operation's scope.
    #[error("this operation needs the scope {required}")]
    InsufficientScope {
        /// The scope the operation needs.
        required: String,
        /// The scopes the token has.
        granted: Vec<String>,
        /// The WWW-Authenticate step-up challenge.
        challenge: String,
    },
    /// 404: no such object in the caller's organization.
    #[error("{0} not found")]
    NotFound(&'static str),
    /// 405: the path exists but declares no operation for the method.
    #[error("{method} is not allowed here; this path takes {}", .allowed.join(", "))]
    MethodNotAllowed {
        /// The method asked.
        method: String,
        /// The methods the path takes (the `Allow` header).
        allowed: Vec<&'static str>,
    },
    /// 409: the object's status does not allow the action.
    #[error("{message}")]
    InvalidState {
        /// What went wrong, for people.
        message: String,
        /// The object's current status.
        status: String,
        /// The statuses that allow the action.
        allowed: Vec<&'static str>,
    },
    /// 403: the signed-in user's role does not allow the operation, whatever the token's scopes.
    #[error("only a user with the {0} role may do this")]
    RoleRequired(&'static str),
    /// 409: the request conflicts with existing data.
    #[error("{0}")]
    Conflict(String),
    /// 409: a request with the same idempotency key is still running; retry after Retry-After
    /// seconds to get its answer.
    #[error("a request with this idempotency key is still running; retry in a moment to get its answer")]
    KeyInFlight,
    /// 409: the object changed while the request ran; nothing was written and a retry can work.
    #[error("the {0} changed while this request ran; nothing was changed, retry")]
    Concurrent(&'static str),
    /// 412: If-Match does not match the object's ETag.
    #[error("the object changed: its ETag is now {current}")]
    PreconditionFailed {
        /// The current ETag.
        current: String,
    },
    /// 422: an idempotency key came back with another request.
    #[error("this idempotency key was used with a different request")]
    IdempotencyKeyReused,
    /// 413: the body is over the cap.
    #[error("the request body is larger than 2 MiB")]
    PayloadTooLarge,
    /// 429: the token's rate limit is spent.
    #[error("rate limit exceeded; retry after {} seconds", .0.retry_after)]
    RateLimited(crate::limits::Limited),
    /// 503: the server is overloaded or draining.
    #[error("the server is busy; retry shortly")]
    Unavailable,
    /// 503: the database cannot take the request now; nothing was done.
    #[error("{}; nothing was done, retry in {} seconds", outage_text(*.0), .0.retry_after())]
    DatabaseUnavailable(Outage),
    /// 503: the database failed once the commit was sent: the request may have been done.
    /// Only a retry with the same key can tell (a new key could do it twice).
    #[error(
        "{}; the outcome of this request is unknown (it may have been done): retry with the same \
         Idempotency-Key in {} seconds to get its answer",
        outage_text(*.0),
        .0.retry_after()
    )]
    OutcomeUnknown(Outage),
    /// MCP only: a destructive tool needs a confirmation this client cannot collect. Its own
    /// code beside the /v1 ones so that both surfaces write errors with this one envelope.
    #[error("{message}")]
    ConfirmationRequired {
        /// Why, and what would let the client confirm.
        message: String,
        /// The page where a signed-in user approves this exact call.
        approval_url: Option<String>,
    },
    /// MCP only: the user declined a confirmation; nothing ran.
    #[error("The user did not confirm {tool}; nothing was changed.")]
    ConfirmationDeclined {
        /// The tool that did not run.
        tool: &'static str,
    },
    /// 500: a failure that is not the caller's.
    #[error("internal error")]
    Internal(#[source] Box<dyn std::error::Error + Send + Sync>),
}

impl From<StoreError> for ApiError {
    fn from(err: StoreError) -> Self {
        match err {
            StoreError::Duplicate(what) => ApiError::Conflict(what),
            contention if contention.is_contention() => ApiError::Concurrent("data"),
            StoreError::Unavailable(outage, cause) => {
                tracing::warn!(reason = outage.reason(), error = %cause, "database unavailable");
                ApiError::DatabaseUnavailable(outage)
            }
            StoreError::OutcomeUnknown(outage, cause) => {
                tracing::warn!(reason = outage.reason(), error = %cause, "database failed after a commit was sent");
                ApiError::OutcomeUnknown(outage)
            }
            other => ApiError::Internal(Box::new(other)),
        }
    }
}

/// What an outage means to a caller.
fn outage_text(outage: Outage) -> &'static str {
    match outage {
        Outage::Unreachable => "the database cannot be reached",
        Outage::Busy => "the database is busy",
        Outage::DiskFull => "the database's disk is full",
        Outage::ReadOnly => "the database takes no writes now",
    }
}

impl ApiError {
    /// A single invalid field.
    pub fn field(field: impl Into<String>, message: impl Into<String>) -> Self {
        Self::Validation(vec![FieldError::new(field, message)])
    }

    /// Whether a handler's error is kept under its idempotency key and replayed. Not kept: the
    /// refusals that ask for a fix or a retry (a field the handler refused, a concurrent
    /// change), the failures after which nothing committed (the database out, an internal
    /// error), so that the retry runs the request for the first time, and a commit whose
    /// outcome is unknown (the retry finds its answer, or runs it).
    pub fn kept_under_key(&self) -> bool {
        !matches!(
            self,
            Self::Validation(_)
                | Self::Concurrent(_)
                | Self::KeyInFlight
                | Self::Unavailable
                | Self::DatabaseUnavailable(_)
                | Self::OutcomeUnknown(_)
                | Self::Internal(_)
        )
    }

    /// The stable code of the error.
    pub fn code(&self) -> &'static str {
        match self {
            Self::Validation(_) => "VALIDATION_ERROR",
            Self::BadRequest(_) => "BAD_REQUEST",
            Self::Unauthorized { .. } | Self::BadSignature => "UNAUTHORIZED",
            Self::InsufficientScope { .. } => "INSUFFICIENT_SCOPE",
            Self::RoleRequired(_) => "FORBIDDEN",
            Self::NotFound(_) => "NOT_FOUND",
            Self::MethodNotAllowed { .. } => "METHOD_NOT_ALLOWED",
            Self::InvalidState { .. } => "INVALID_STATE",
            Self::Conflict(_) | Self::Concurrent(_) | Self::KeyInFlight => "CONFLICT",
            Self::PreconditionFailed { .. } => "PRECONDITION_FAILED",
            Self::IdempotencyKeyReused => "IDEMPOTENCY_KEY_REUSED",
            Self::PayloadTooLarge => "PAYLOAD_TOO_LARGE",
            Self::RateLimited(_) => "RATE_LIMITED",
            Self::Unavailable | Self::DatabaseUnavailable(_) | Self::OutcomeUnknown(_) => "UNAVAILABLE",
            Self::ConfirmationRequired { .. } => "CONFIRMATION_REQUIRED",
            Self::ConfirmationDeclined { .. } => "CONFIRMATION_DECLINED",
            Self::Internal(_) => "INTERNAL",
        }
    }

    /// The HTTP status of the error.
    pub fn status(&self) -> StatusCode {
        match self {
            Self::Validation(_) | Self::IdempotencyKeyReused => StatusCode::UNPROCESSABLE_ENTITY,
            Self::BadRequest(_) => StatusCode::BAD_REQUEST,
            Self::Unauthorized { .. } | Self::BadSignature => StatusCode::UNAUTHORIZED,
            Self::InsufficientScope { .. } | Self::RoleRequired(_) => StatusCode::FORBIDDEN,
            Self::NotFound(_) => StatusCode::NOT_FOUND,
            Self::MethodNotAllowed { .. } => StatusCode::METHOD_NOT_ALLOWED,
            Self::InvalidState { .. } | Self::Conflict(_) | Self::Concurrent(_) | Self::KeyInFlight => {
                StatusCode::CONFLICT
            }
            Self::PreconditionFailed { .. } => StatusCode::PRECONDITION_FAILED,
            Self::PayloadTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            Self::RateLimited(_) => StatusCode::TOO_MANY_REQUESTS,
            Self::Unavailable | Self::DatabaseUnavailable(_) | Self::OutcomeUnknown(_) => {
                StatusCode::SERVICE_UNAVAILABLE
            }
            // Never an HTTP answer (tool results travel in a 200); the nearest statuses.
            Self::ConfirmationRequired { .. } => StatusCode::PRECONDITION_REQUIRED,
            Self::ConfirmationDeclined { .. } => StatusCode::CONFLICT,
            Self::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The `details` object of the envelope.
    pub fn details(&self) -> Value {
        match self {
            Self::Validation(fields) => json!({ "fields": fields }),
            Self::InsufficientScope { required, granted, .. } => {
                json!({ "required": required, "granted": granted })
            }
            Self::InvalidState { status, allowed, .. } => json!({ "status": status, "allowed": allowed }),
            Self::RoleRequired(role) => json!({ "required_role": role }),
            Self::PreconditionFailed { current } => json!({ "etag": current }),
            Self::MethodNotAllowed { allowed, .. } => json!({ "allowed": allowed }),
            Self::RateLimited(limited) => json!({ "retry_after": limited.retry_after }),
            Self::DatabaseUnavailable(outage) => {
                json!({ "reason": outage.reason(), "retry_after": outage.retry_after() })
            }
            Self::OutcomeUnknown(outage) => json!({
                "reason": outage.reason(),
                "retry_after": outage.retry_after(),
                "outcome": "unknown",
            }),
            Self::KeyInFlight => json!({ "retry_after": KEY_IN_FLIGHT_RETRY }),
            Self::ConfirmationRequired { approval_url, .. } => {
                let mut details = json!({ "required_capability": { "elicitation": { "form": {} } } });
                if let Some(url) = approval_url {
                    details["approval_url"] = json!(url);
                }
                details
            }
            _ => json!({}),
        }
    }

    /// The error envelope.
    pub fn body(&self, request_id: &str) -> Value {
        json!({
            "error": {
                "code": self.code(),
                "message": self.to_string(),
                "details": self.details(),
                "request_id": request_id,
            }
        })
    }

    /// The headers the error adds to its response.
    pub fn headers(&self) -> Vec<(&'static str, String)> {
        match self {
            Self::Unauthorized { challenge } | Self::InsufficientScope { challenge, .. } => {
                vec![("WWW-Authenticate", challenge.clone())]
            }
            Self::RateLimited(limited) => limited.headers(),
            Self::Unavailable => vec![("Retry-After", "1".to_string())],
            Self::DatabaseUnavailable(outage) | Self::OutcomeUnknown(outage) => {
                vec![("Retry-After", outage.retry_after().to_string())]
            }
            Self::KeyInFlight => vec![("Retry-After", KEY_IN_FLIGHT_RETRY.to_string())],
            Self::MethodNotAllowed { allowed, .. } => vec![("Allow", allowed.join(", "))],
            _ => Vec::new(),
        }
    }
}

/// Seconds to wait before retrying a key whose first request still runs: it commits or rolls
/// back within a request's time, so one second is enough.
const KEY_IN_FLIGHT_RETRY: u32 = 1;

/// The result of an operation.
pub type ApiResult<T> = Result<T, ApiError>;

/// The error envelope as an HTTP response (internal causes go to the log, not the caller).
pub fn error_response(err: &ApiError, request_id: &str) -> Response {
    if let ApiError::Internal(cause) = err {
        tracing::error!(request_id, error = %cause, "internal error");
    }
    let mut builder = Response::builder()
        .status(err.status())
        .header(poem::http::header::CONTENT_TYPE, crate::request::APPLICATION_JSON);
    for (name, value) in err.headers() {
        builder = builder.header(name, value);
    }
    builder.body(err.body(request_id).to_string())
}
