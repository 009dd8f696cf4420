//! Idempotency keys (api-v1.md conventions): the first answer of a key is stored once the
//! handler ran, errors included, and replayed for the same request for 24 hours. Refusals that
//! changed nothing and ask for a fix or a retry (a validation error, a concurrent change) are not
//! stored, so the caller retries under the same key. The same key with another request is
//! `IDEMPOTENCY_KEY_REUSED`; any request while the first still runs is `CONFLICT`; a claim left
//! unanswered by a request that died is released.

use poem::Response;
use poem::http::StatusCode;
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};
use time::{Duration, OffsetDateTime};

use super::call::Rendered;
use super::error::{ApiError, ApiResult};
use crate::operations::Operation;
use crate::store::{IdempotencyRecord, Store};

/// How long a key is remembered.
pub const RETENTION: Duration = Duration::hours(24);
/// A claim still unanswered after this long belongs to a request that died; it is taken over.
pub const ABANDONED_AFTER: Duration = Duration::seconds(60);

/// The outcome of presenting a key.
pub enum Claim {
    /// The key is new: run the handler, then `finish`.
    Started,
    /// The key already answered this request: send the stored answer again.
    Replay(Stored),
}

/// A stored answer (kept as JSON in the key's row).
#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub struct Stored {
    status: u16,
    etag: Option<String>,
    body: Option<String>,
    headers: Vec<(String, String)>,
}

impl Stored {
    /// The answer of a successful handler.
    pub fn from_rendered(rendered: Rendered) -> Self {
        let Rendered { status, etag, body, .. } = rendered;
        Self { status, etag, body, headers: Vec::new() }
    }

    /// The answer of a failed handler.
    pub fn from_error(err: &ApiError, request_id: &str) -> Self {
        if let ApiError::Internal(cause) = err {
            tracing::error!(request_id, error = %cause, "internal error");
        }
        Self {
            status: err.status().as_u16(),
            etag: None,
            body: Some(err.body(request_id).to_string()),
            headers: err.headers().into_iter().map(|(k, v)| (k.to_string(), v)).collect(),
        }
    }

    fn response(&self, replayed: bool) -> Response {
        let mut builder =
            Response::builder().status(StatusCode::from_u16(self.status).unwrap_or(StatusCode::OK));
        if let Some(etag) = &self.etag {
            builder = builder.header("ETag", etag.as_str());
        }
        for (name, value) in &self.headers {
            builder = builder.header(name.as_str(), value.as_str());
        }
        if replayed {
            builder = builder.header("Idempotent-Replayed", "true");
        }
        match &self.body {
            Some(body) => builder
                .header(poem::http::header::CONTENT_TYPE, crate::request::APPLICATION_JSON)
                .body(body.clone()),
            None => builder.finish(),
        }
    }

    /// The response of the request that ran the handler.
    pub fn into_first_response(self) -> Response {
        self.response(false)
    }

    /// The response of a replay.
    pub fn into_replay_response(self) -> Response {
        self.response(true)
    }
}

/// A digest of what makes two requests "the same": operation, path, query and body, with
/// object keys in a canonical order.
pub fn fingerprint(
    op: &Operation,
    path: &[(&'static str, String)],
    query: &Map<String, Value>,
    body: &Map<String, Value>,
) -> String {
    let mut hasher = Sha256::new();
    hasher.update(op.operation_id.as_bytes());
    for (name, value) in path {
        hasher.update([0]);
        hasher.update(name.as_bytes());
        hasher.update([0]);
        hasher.update(value.as_bytes());
    }
    hasher.update([1]);
    hasher.update(canonical(&Value::Object(query.clone())).as_bytes());
    hasher.update([1]);
    hasher.update(canonical(&Value::Object(body.clone())).as_bytes());
    hex::encode(hasher.finalize())
}

/// JSON with object keys sorted at every level and numbers written by their value (`10`,
/// `10.0` and `1e1` are one number): equal documents give equal text.
pub fn canonical(value: &Value) -> String {
    match value {
        Value::Number(n) => canonical_number(n),
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            let fields: Vec<String> = keys
                .into_iter()
                .map(|k| format!("{}:{}", Value::String(k.clone()), canonical(&map[k])))
                .collect();
            format!("{{{}}}", fields.join(","))
        }
        Value::Array(items) => format!("[{}]", items.iter().map(canonical).collect::<Vec<_>>().join(",")),
        other => other.to_string(),
    }
}

/// A number by its value: an integer as one (whether written `10`, `10.0` or `1e1`), any other
/// as the shortest decimal that reads back to it.
fn canonical_number(n: &serde_json::Number) -> String {
    if n.is_i64() || n.is_u64() {
        return n.to_string();
    }
    match n.as_f64() {
        // Within ±2^53 every integer is exact in an f64, so the cast cannot change the value.
        Some(f) if f.fract() == 0.0 && f.abs() < 9_007_199_254_740_992.0 => (f as i64).to_string(),
        _ => n.to_string(),
    }
}

/// Presents a key: starts it, or finds its stored answer.
pub async fn claim(
    store: &Store,
    org_id: &str,
    key: &str,
    operation_id: &str,
    fingerprint: &str,
    now: OffsetDateTime,
) -> ApiResult<Claim> {
    // Expired and abandoned keys are forgotten first, so a key is reusable after the retention
    // period and a request that died does not lock its key.
    store.idempotency_forget_stale(org_id, key, now - RETENTION, now - ABANDONED_AFTER).await?;
    if store.idempotency_start(org_id, key, operation_id, fingerprint, now).await? {
        return Ok(Claim::Started);
    }
    let Some(record) = store.idempotency_get(org_id, key).await? else {
        // Forgotten between the two statements: present it again.
        return if store.idempotency_start(org_id, key, operation_id, fingerprint, now).await? {
            Ok(Claim::Started)
        } else {
            Err(ApiError::Conflict(
                "this idempotency key is in use by a request that is still running".into(),
            ))
        };
    };
    let IdempotencyRecord { fingerprint: stored_fingerprint, operation_id: stored_op, response } = record;
    // While the first request runs its outcome is unknown: any request with the key waits.
    let Some(response) = response else {
        return Err(ApiError::Conflict(
            "this idempotency key is in use by a request that is still running".into(),
        ));
    };
    if stored_fingerprint != fingerprint || stored_op != operation_id {
        return Err(ApiError::IdempotencyKeyReused);
    }
    let stored: Stored = serde_json::from_str(&response).map_err(|e| ApiError::Internal(Box::new(e)))?;
    Ok(Claim::Replay(stored))
}

/// Releases a started key if its request ends without an answer to store (the handler future
/// dropped when the client went away, or a panic): the key must not stay "still running".
pub struct ClaimGuard {
    store: Store,
    org_id: String,
    key: String,
    armed: bool,
}

impl ClaimGuard {
    /// Guards a started key.
    pub fn new(store: &Store, org_id: &str, key: &str) -> Self {
        Self { store: store.clone(), org_id: org_id.to_string(), key: key.to_string(), armed: true }
    }

    /// The key was answered or released on purpose: nothing to undo.
    pub fn disarm(mut self) {
        self.armed = false;
    }
}

impl Drop for ClaimGuard {
    fn drop(&mut self) {
        if !self.armed {
            return;
        }
        let (store, org_id, key) =
            (self.store.clone(), std::mem::take(&mut self.org_id), std::mem::take(&mut self.key));
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(async move {
                if let Err(e) = store.idempotency_release(&org_id, &key).await {
                    tracing::warn!(error = %e, "could not release an abandoned idempotency key");
                }
            });
        }
    }
}

/// Stores the answer of a started key.
pub async fn finish(store: &Store, org_id: &str, key: &str, stored: &Stored) -> ApiResult<()> {
    let text = serde_json::to_string(stored).map_err(|e| ApiError::Internal(Box::new(e)))?;
    store.idempotency_finish(org_id, key, &text).await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::canonical;
    use serde_json::json;

    #[test]
    fn numbers_are_compared_by_value() {
        let text = |raw: &str| canonical(&serde_json::from_str(raw).expect("JSON"));
        assert_eq!(text(r#"{"b": 10, "a": [1.50]}"#), text(r#"{"a": [1.5], "b": 10.0}"#));
        assert_eq!(text("1e1"), "10");
        assert_eq!(text("-0.0"), "0");
        assert_eq!(text("10.25"), "10.25");
        assert_ne!(text("10.25"), text("10.2"));
        assert_eq!(canonical(&json!(u64::MAX)), u64::MAX.to_string());
    }
}
