//! What every HTTP layer knows of a request: its id and the body cap. Kept apart from `app`
//! so that `auth` can name them without importing the state that holds auth's own key.

/// The body cap of /v1 and /mcp: 2 MiB.
pub const MAX_BODY_BYTES: usize = 2 * 1024 * 1024;

/// `Content-Type: application/json`, built once (poem's `content_type` copies its text into a
/// new header value on every answer).
pub const APPLICATION_JSON: poem::http::HeaderValue =
    poem::http::HeaderValue::from_static("application/json");

/// `Cache-Control: no-store`, on every answer.
pub const NO_STORE: poem::http::HeaderValue = poem::http::HeaderValue::from_static("no-store");

/// The id of the request being served (also the `X-Request-Id` response header).
#[derive(Debug, Clone)]
pub struct RequestId(pub String);

impl RequestId {
    /// The id the common middleware gave a request (empty outside it).
    pub fn of(req: &poem::Request) -> String {
        req.data::<RequestId>().map(|r| r.0.clone()).unwrap_or_default()
    }
}

/// Why a body could not be read.
#[derive(Debug, thiserror::Error)]
pub enum BodyError {
    /// More than [`MAX_BODY_BYTES`].
    #[error("the request body is larger than {MAX_BODY_BYTES} bytes")]
    TooLarge,
    /// The connection failed while the body was read.
    #[error("the request body could not be read")]
    Unreadable,
}

/// The whole body, at most [`MAX_BODY_BYTES`]. Frames are gathered as they come (poem's
/// `into_bytes_limit` zeroes a 4 KiB buffer and copies through it, even for no body at all).
pub async fn read_body(body: poem::Body) -> Result<bytes::Bytes, BodyError> {
    use http_body_util::BodyExt;
    if body.is_empty() {
        return Ok(bytes::Bytes::new());
    }
    let body: http_body_util::combinators::BoxBody<bytes::Bytes, std::io::Error> = body.into();
    match http_body_util::Limited::new(body, MAX_BODY_BYTES).collect().await {
        Ok(collected) => Ok(collected.to_bytes()),
        Err(err) if err.is::<http_body_util::LengthLimitError>() => Err(BodyError::TooLarge),
        Err(_) => Err(BodyError::Unreadable),
    }
}
