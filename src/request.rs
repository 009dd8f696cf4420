//! What every HTTP layer knows of a request: its id and the body cap. Kept apart from `app`
//! so that `auth` can name them without importing the state that holds auth's own key.

/// The body cap of /v1 and /mcp: 2 MiB.
pub const MAX_BODY_BYTES: usize = 2 * 1024 * 1024;

/// The id of the request being served (also the `X-Request-Id` response header).
#[derive(Debug, Clone)]
pub struct RequestId(pub String);

impl RequestId {
    /// The id the common middleware gave a request (empty outside it).
    pub fn of(req: &poem::Request) -> String {
        req.data::<RequestId>().map(|r| r.0.clone()).unwrap_or_default()
    }
}
