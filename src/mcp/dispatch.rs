//! In-process dispatch to the /v1 handlers (DESIGN.md section 4): a `poem::Request` is built
//! from the tool's arguments and handed to the same route table REST serves, below
//! authentication. No socket, no second implementation.

use std::sync::Arc;

use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};
use poem::http::{Method, StatusCode};
use poem::{Endpoint, EndpointExt, IntoResponse, Request, endpoint::BoxEndpoint};
use serde_json::{Map, Value};

use crate::app::{App, RequestId};
use crate::auth::Principal;
use crate::operations::Operation;

/// What the endpoint answered.
#[derive(Debug)]
pub struct Answer {
    /// HTTP status.
    pub status: StatusCode,
    /// The body bytes.
    pub body: Vec<u8>,
    /// Retry-After, for 503.
    pub retry_after: Option<String>,
}

impl Answer {
    /// The body as JSON, when it is JSON.
    pub fn json(&self) -> Option<Value> {
        serde_json::from_slice(&self.body).ok()
    }
}

/// The caller of an MCP request, as the /v1 handlers need it.
#[derive(Clone)]
pub struct Caller {
    /// Shared state.
    pub app: Arc<App>,
    /// Who calls.
    pub principal: Principal,
    /// The MCP request's id (X-Request-Id), shared with the events it causes.
    pub request_id: String,
}

/// The /v1 route table, mounted a second time for in-process calls.
pub struct Dispatcher {
    v1: BoxEndpoint<'static>,
}

impl Default for Dispatcher {
    fn default() -> Self {
        Self { v1: crate::api::v1_routes().map_to_response().boxed() }
    }
}

/// Everything but RFC 3986 unreserved characters is escaped in a path segment.
const SEGMENT: &AsciiSet = &NON_ALPHANUMERIC.remove(b'-').remove(b'.').remove(b'_').remove(b'~');

/// Percent-encodes one path segment.
fn encode_segment(value: &str) -> String {
    utf8_percent_encode(value, SEGMENT).to_string()
}

/// A query value as text: arrays become CSV, the API's multi-value form.
fn query_text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Array(items) => items.iter().map(query_text).collect::<Vec<_>>().join(","),
        other => other.to_string(),
    }
}

impl Dispatcher {
    /// Calls an operation with path parameters, query parameters and a JSON body.
    pub async fn call(
        &self,
        caller: &Caller,
        op: &Operation,
        path: &[(&str, String)],
        query: &Map<String, Value>,
        body: Option<&Map<String, Value>>,
    ) -> Answer {
        self.call_if_match(caller, op, path, query, body, None).await
    }

    /// `call` with an `If-Match` precondition (a confirmed call binds the version confirmed).
    pub async fn call_if_match(
        &self,
        caller: &Caller,
        op: &Operation,
        path: &[(&str, String)],
        query: &Map<String, Value>,
        body: Option<&Map<String, Value>>,
        if_match: Option<String>,
    ) -> Answer {
        let mut uri = op.path.to_string();
        for (name, value) in path {
            uri = uri.replace(&format!("{{{name}}}"), &encode_segment(value));
        }
        if !query.is_empty() {
            let mut serializer = form_urlencoded::Serializer::new(String::new());
            for (name, value) in query {
                serializer.append_pair(name, &query_text(value));
            }
            uri = format!("{uri}?{}", serializer.finish());
        }
        let method: Method = op.method.as_poem();
        let mut builder = Request::builder().method(method).uri_str(&uri);
        if let Some(etag) = if_match {
            builder = builder.header("If-Match", etag);
        }
        let request = match body {
            Some(body) => {
                builder = builder.content_type("application/json");
                builder.body(Value::Object(body.clone()).to_string())
            }
            None => builder.finish(),
        };
        let mut request = request;
        request.set_data(caller.app.clone());
        request.set_data(caller.principal.clone());
        request.set_data(RequestId(caller.request_id.clone()));
        let response = match self.v1.call(request).await {
            Ok(r) => r.into_response(),
            Err(e) => e.into_response(),
        };
        let status = response.status();
        let header =
            |name: &str| response.headers().get(name).and_then(|v| v.to_str().ok()).map(str::to_string);
        let retry_after = header("retry-after");
        let body = response.into_body().into_vec().await.unwrap_or_default();
        Answer { status, body, retry_after }
    }
}
