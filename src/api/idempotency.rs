//! Idempotency keys (docs/ARCHITECTURE.md, "Writes: one unit of work"): the first answer of a key
//! is stored once the handler ran, errors included, and replayed for the same request for 24 hours.
//! The key's claim, the handler's writes and the stored answer are one unit of work: they commit
//! together or not at all, so a retry gets the stored answer or, when nothing committed (a crash, a
//! dropped connection, the database out), runs the request for the first time; never a second time.
//! Refusals that ask for a fix or a retry (a validation error, a concurrent change) and failures
//! after which nothing committed are not stored. The same key with another request is
//! `IDEMPOTENCY_KEY_REUSED`; any request while the first still runs is `CONFLICT` with
//! `Retry-After`.

use std::collections::HashSet;
use std::sync::{LazyLock, Mutex};

use poem::Response;
use poem::http::StatusCode;
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};
use time::OffsetDateTime;

use super::call::Rendered;
use super::error::{ApiError, ApiResult};
use crate::auth::ServerKey;
use crate::operations::{Operation, ops};
use crate::store::{IdempotencyRecord, Store};

/// How long a key is remembered (the store's purge reads it too).
pub use crate::store::IDEMPOTENCY_RETENTION as RETENTION;

/// The outcome of presenting a key.
pub enum Claim {
    /// The key is new: run the handler, then `finish`, in the same unit of work.
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
    /// The token the secret in `body` was shown to (sealed with the rest): a replay to any
    /// other token shows the answer without it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    shown_to: Option<String>,
    /// The member of `data` that holds the secret; `secret` when not named (answers kept before
    /// it was).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    secret_member: Option<String>,
}

/// What a replay to another token shows in place of the secret.
pub const SECRET_NOTE: &str = "The secret was shown once, to the token that made this request. \
    Rotate the secret (rotate_secret) to get a new one.";

impl Stored {
    /// The answer of a successful handler.
    pub fn from_rendered(rendered: Rendered) -> Self {
        let Rendered { status, etag, body, secret_shown_to, .. } = rendered;
        let (shown_to, secret_member) = match secret_shown_to {
            Some(shown) => (Some(shown.token_id), Some(shown.member.to_string())),
            None => (None, None),
        };
        Self { status, etag, body, headers: Vec::new(), shown_to, secret_member }
    }

    /// The answer as the token `token_id` may see it again: a secret only to the token it was
    /// shown to; to any other, `secret: null` and a note to rotate it.
    pub fn seen_by(mut self, token_id: &str) -> Self {
        let Some(owner) = &self.shown_to else { return self };
        if owner == token_id {
            return self;
        }
        let member = self.secret_member.as_deref().unwrap_or("secret");
        self.body = self.body.map(|body| without_secret(&body, member).unwrap_or(body));
        self
    }

    /// Its HTTP status.
    pub fn status(&self) -> u16 {
        self.status
    }

    /// Its JSON text, if it has one.
    pub fn body(&self) -> Option<&str> {
        self.body.as_deref()
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
            shown_to: None,
            secret_member: None,
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

/// `body` with its `data.<member>` replaced by null; a webhook's `secret` comes with a note to
/// rotate it (its schema has one). `None` when it shows no such member.
fn without_secret(body: &str, member: &str) -> Option<String> {
    let mut doc: Value = serde_json::from_str(body).ok()?;
    let data = doc.get_mut("data")?.as_object_mut()?;
    data.get(member)?;
    data.insert(member.into(), Value::Null);
    if member == "secret" {
        data.insert("secret_note".into(), Value::String(SECRET_NOTE.into()));
    }
    serde_json::to_string(&doc).ok()
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

/// The keys whose request runs in this process, by organization: a second request with one
/// is answered at once rather than waiting for the first's unit of work.
static IN_FLIGHT: LazyLock<Mutex<HashSet<(String, String)>>> = LazyLock::new(Mutex::default);

/// A key whose request runs here; it leaves the in-flight set when dropped.
pub struct InFlight {
    org_id: String,
    key: String,
}

/// Marks a key as running in this process: `CONFLICT` (with Retry-After) when it already is.
pub fn enter(org_id: &str, key: &str) -> ApiResult<InFlight> {
    let entry = (org_id.to_string(), key.to_string());
    if !IN_FLIGHT.lock().unwrap_or_else(|p| p.into_inner()).insert(entry) {
        return Err(ApiError::KeyInFlight);
    }
    Ok(InFlight { org_id: org_id.to_string(), key: key.to_string() })
}

impl Drop for InFlight {
    fn drop(&mut self) {
        let entry = (std::mem::take(&mut self.org_id), std::mem::take(&mut self.key));
        IN_FLIGHT.lock().unwrap_or_else(|p| p.into_inner()).remove(&entry);
    }
}

/// The operations whose answer shows a secret once (a signing secret, a receiver's URL): their
/// stored answers are sealed with the server key, so the secret is never at rest in clear.
const SECRET_ANSWERS: [&Operation; 3] =
    [ops::WEBHOOKS_CREATE, ops::WEBHOOKS_ROTATE_SECRET, ops::PAYMENT_RECEIVER_CREATE];

/// How a stored answer that was sealed starts.
const SEALED: &str = "sealed:";

/// Whether `op`'s stored answers are sealed.
pub fn sealed_answers(op: &Operation) -> bool {
    SECRET_ANSWERS.iter().any(|o| o.operation_id == op.operation_id)
}

/// Presents a key inside a unit of work: claims it, or finds its stored answer (opened with
/// `key_ring` when it was sealed). The claim is part of the unit, so it commits with the
/// handler's writes and answer or goes with them.
pub async fn claim(
    unit: &Store,
    key: &InFlight,
    operation_id: &str,
    fingerprint: &str,
    now: OffsetDateTime,
    key_ring: &ServerKey,
) -> ApiResult<Claim> {
    let (org_id, key) = (key.org_id.as_str(), key.key.as_str());
    // Another replica's request with the key holds it until its unit ends.
    if !unit.idempotency_lock(org_id, key).await? {
        return Err(ApiError::KeyInFlight);
    }
    // An expired key is forgotten, so that it can be used again after the retention period.
    unit.idempotency_forget_stale(org_id, key, now - RETENTION).await?;
    if unit.idempotency_start(org_id, key, operation_id, fingerprint, now).await? {
        return Ok(Claim::Started);
    }
    let Some(record) = unit.idempotency_get(org_id, key).await? else {
        // Claimed by a unit that committed after ours began and then expired: ask again.
        return Err(ApiError::KeyInFlight);
    };
    let IdempotencyRecord { fingerprint: stored_fingerprint, operation_id: stored_op, response } = record;
    if stored_fingerprint != fingerprint || stored_op != operation_id {
        return Err(ApiError::IdempotencyKeyReused);
    }
    // Claims commit only with their answer, and `forget_stale` drops any left by older servers.
    let Some(response) = response else { return Err(ApiError::KeyInFlight) };
    let stored: Stored = match response.strip_prefix(SEALED) {
        Some(sealed) => {
            let mut stored: Stored = key_ring.open(sealed).ok_or_else(|| {
                ApiError::Internal("a stored answer cannot be opened with the server key".into())
            })?;
            // Kept before answers named their token: its secret is shown to no token again.
            stored.shown_to.get_or_insert_with(String::new);
            stored
        }
        None => serde_json::from_str(&response).map_err(|e| ApiError::Internal(Box::new(e)))?,
    };
    Ok(Claim::Replay(stored))
}

/// Stores the answer of a claimed key, in the claim's unit of work, sealed with `seal` when
/// given.
pub async fn finish(
    unit: &Store,
    key: &InFlight,
    stored: &Stored,
    seal: Option<&ServerKey>,
) -> ApiResult<()> {
    let text = match seal {
        Some(key_ring) => {
            let sealed = key_ring.seal(stored).map_err(|e| ApiError::Internal(Box::new(e)))?;
            format!("{SEALED}{sealed}")
        }
        None => serde_json::to_string(stored).map_err(|e| ApiError::Internal(Box::new(e)))?,
    };
    unit.idempotency_finish(&key.org_id, &key.key, &text).await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use time::Duration;

    #[tokio::test]
    async fn a_secret_replays_to_its_token_only_and_never_after_the_window() {
        let store = Store::open("sqlite::memory:").await.unwrap();
        let key_ring = ServerKey::load(&store, None).await.unwrap();
        let now = OffsetDateTime::now_utc();
        let held = enter("org_window", "k").unwrap();
        let present = async |at: OffsetDateTime| {
            let unit = store.begin().await.unwrap();
            let claim = claim(unit.store(), &held, "webhooks_create", "f", at, &key_ring).await.unwrap();
            (unit, claim)
        };
        let (unit, first) = present(now).await;
        assert!(matches!(first, Claim::Started));
        let stored = Stored {
            status: 201,
            etag: None,
            body: Some(r#"{"data":{"id":"whk_1","secret":"whsec_x"}}"#.into()),
            headers: Vec::new(),
            shown_to: Some("tok_a".into()),
            secret_member: Some("secret".into()),
        };
        finish(unit.store(), &held, &stored, Some(&key_ring)).await.unwrap();
        unit.commit().await.unwrap();

        let (unit, Claim::Replay(again)) = present(now + Duration::hours(23)).await else {
            panic!("replayed within the window")
        };
        unit.rollback().await.unwrap();
        let body = |s: Stored| serde_json::from_str::<Value>(&s.body.unwrap()).unwrap();
        let shown = body(again.seen_by("tok_a"));
        assert_eq!(shown["data"]["secret"], "whsec_x");
        let (unit, Claim::Replay(again)) = present(now + Duration::hours(23)).await else { panic!() };
        unit.rollback().await.unwrap();
        let other = body(again.seen_by("tok_b"));
        assert_eq!((&other["data"]["id"], &other["data"]["secret"]), (&json!("whk_1"), &Value::Null));
        assert_eq!(other["data"]["secret_note"], SECRET_NOTE);

        // Once the window closed the record (and its sealed secret) is forgotten: the key runs anew.
        let (unit, late) = present(now + RETENTION + Duration::seconds(1)).await;
        assert!(matches!(late, Claim::Started));
        unit.rollback().await.unwrap();
        // Housekeeping drops it too, at the same age (it purges what was claimed a window ago).
        let housekeeping_at = |at: OffsetDateTime| store.purge_idempotency_before(at - RETENTION);
        assert_eq!(housekeeping_at(now + Duration::hours(23)).await.unwrap(), 0);
        assert_eq!(housekeeping_at(now + RETENTION + Duration::seconds(1)).await.unwrap(), 1);
        assert!(store.idempotency_get("org_window", "k").await.unwrap().is_none());
    }

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
