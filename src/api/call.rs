//! What a handler receives (`Call`) and answers (`Reply`), independent of poem's extractors so
//! that every operation reads its input the same way and the MCP dispatch sees the same code.

use std::sync::Arc;

use serde_json::{Map, Value, json};
use time::OffsetDateTime;

use super::error::{ApiError, ApiResult};
use crate::app::App;
use crate::auth::Principal;
use crate::domain::dates::{organization_day_start, parse_date};
use crate::operations::Operation;
use crate::store::ListWindow;

/// One validated request to an operation.
pub struct Call {
    /// Shared server state.
    pub app: Arc<App>,
    /// Who calls (the organization comes from here, never from the input).
    pub principal: Principal,
    /// The operation called.
    pub op: &'static Operation,
    /// The request id (X-Request-Id).
    pub request_id: String,
    /// Path parameters, by name.
    pub path: Vec<(&'static str, String)>,
    /// Query parameters, typed and validated against the spec.
    pub query: Map<String, Value>,
    /// The JSON body, validated against the spec (idempotency_key removed).
    pub body: Map<String, Value>,
    /// The If-Match header, if any.
    pub if_match: Option<String>,
    /// The time of the request, shared by everything it writes.
    pub now: OffsetDateTime,
}

impl Call {
    /// A path parameter (every declared one is present: the router matched it).
    pub fn path_param(&self, name: &str) -> &str {
        self.path.iter().find(|(n, _)| *n == name).map(|(_, v)| v.as_str()).unwrap_or_default()
    }

    /// The organization of the caller.
    pub fn org_id(&self) -> &str {
        &self.principal.organization_id
    }

    /// A query string parameter as text.
    pub fn query_str(&self, name: &str) -> Option<&str> {
        self.query.get(name).and_then(Value::as_str)
    }

    /// A CSV query parameter split into its values.
    pub fn query_csv(&self, name: &str) -> Vec<String> {
        self.query_str(name)
            .map(|s| s.split(',').map(str::trim).filter(|v| !v.is_empty()).map(str::to_string).collect())
            .unwrap_or_default()
    }

    /// A query parameter as an integer.
    pub fn query_i64(&self, name: &str) -> Option<i64> {
        self.query.get(name).and_then(Value::as_i64)
    }

    /// Refuses the call when If-Match names another version of the object.
    pub fn check_if_match(&self, version: i64) -> ApiResult<()> {
        let current = etag(version);
        match &self.if_match {
            Some(expected) if expected.trim() != "*" && expected.trim() != current => {
                Err(ApiError::PreconditionFailed { current })
            }
            _ => Ok(()),
        }
    }

    /// The search, creation range, order and window of a list call, with (page, per_page).
    pub fn list_window(&self) -> (ListWindow, i64, i64) {
        let (page, per_page, offset) = self.page();
        let window = ListWindow {
            q: self.query_str("q").map(str::to_string),
            created_from: self.query_str("created_from").map(|d| day_start(d, 0)),
            created_before: self.query_str("created_to").map(|d| day_start(d, 1)),
            sort_by: self.query_str("sort_by").unwrap_or("created_at").to_string(),
            descending: self.sort_desc(),
            limit: per_page,
            offset,
        };
        (window, page, per_page)
    }

    /// Pagination of a list call: (page, per_page, offset).
    pub fn page(&self) -> (i64, i64, i64) {
        let page = self.query_i64("page").unwrap_or(1).max(1);
        let per_page = self.query_i64("per_page").unwrap_or(25).clamp(1, 100);
        (page, per_page, (page - 1).saturating_mul(per_page))
    }

    /// The sort direction of a list call.
    pub fn sort_desc(&self) -> bool {
        self.query_str("sort_order") != Some("asc")
    }

    /// A body string field (absent and null are both `None`).
    pub fn body_str(&self, field: &str) -> Option<&str> {
        self.body.get(field).and_then(Value::as_str)
    }
}

/// The first instant (UTC) of a date filter's day, `plus_days` later, in the organization's
/// time zone: `created_from` is inclusive, `created_to` ends where the next day starts. The
/// query schema already checked the date format.
fn day_start(date: &str, plus_days: i64) -> String {
    parse_date(date)
        .ok()
        .and_then(|d| d.checked_add(time::Duration::days(plus_days)))
        .map(organization_day_start)
        .unwrap_or_else(|| date.to_string())
}

/// The ETag of an object version.
pub fn etag(version: i64) -> String {
    format!("\"v{version}\"")
}

/// A successful answer.
#[derive(Debug)]
pub enum Reply {
    /// A JSON document with a status and, for one object, its ETag.
    Json {
        /// HTTP status.
        status: u16,
        /// The document.
        body: Value,
        /// ETag of the object.
        etag: Option<String>,
    },
    /// 204 with no body.
    NoContent,
}

impl Reply {
    /// `{"data": object}` with the object's ETag.
    pub fn object(status: u16, data: Value, version: i64) -> Self {
        Self::Json { status, body: json!({ "data": data }), etag: Some(etag(version)) }
    }

    /// `{"data": [...], "meta": {...}}`.
    pub fn list(data: Vec<Value>, total: i64, page: i64, per_page: i64) -> Self {
        let total_pages = if total == 0 { 0 } else { (total + per_page - 1) / per_page };
        Self::Json {
            status: 200,
            body: json!({
                "data": data,
                "meta": { "total": total, "page": page, "per_page": per_page, "total_pages": total_pages },
            }),
            etag: None,
        }
    }
}
