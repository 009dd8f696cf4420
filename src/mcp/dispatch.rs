//! In-process dispatch to the /v1 handlers (docs/ARCHITECTURE.md, "One spec, two surfaces, one
//! implementation"): a tool's arguments become the same invocation a /v1 request becomes, handed to
//! the operation's handler through the generated dispatch table, below authentication. No socket,
//! no HTTP request built and parsed again, no second implementation.

use std::borrow::Cow;
use std::sync::Arc;

use serde_json::{Map, Value};

use crate::api::{Answered, ApiError, ApiResult, Invocation, InvocationBody, Layout};
use crate::app::App;
use crate::auth::Principal;
use crate::operations::{Operation, ResponseKind};

/// The JSON document an operation answered (a refusal kept under an idempotency key is its
/// envelope); `None` for a refusal, a file or no body.
pub fn document(answered: &ApiResult<Answered>) -> Option<Value> {
    serde_json::from_str(answered.as_ref().ok()?.body()?).ok()
}

/// Whether an operation answered with success.
pub fn succeeded(answered: &ApiResult<Answered>) -> bool {
    answered.as_ref().is_ok_and(|answered| (200..300).contains(&answered.status()))
}

/// The message of a refusal: the typed error's, or that of the envelope a kept one was kept as.
pub fn refusal_message(answered: &ApiResult<Answered>) -> Option<String> {
    match answered {
        Err(err) => Some(err.to_string()),
        Ok(_) => document(answered)?["error"]["message"].as_str().map(str::to_string),
    }
}

/// The caller of an MCP request, as the /v1 handlers need it.
#[derive(Clone)]
pub struct Caller<'a> {
    /// Shared state.
    pub app: Arc<App>,
    /// Who calls.
    pub principal: Principal,
    /// The MCP request's id (X-Request-Id), shared with the events it causes.
    pub request_id: &'a str,
}

/// The in-process caller of the /v1 operations: each call goes through the generated dispatch
/// table to the operation's handler, by the same adapter its route uses, below authentication.
#[derive(Default)]
pub struct Dispatcher;

/// A query value as text: arrays become CSV, the API's multi-value form.
fn query_text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Array(items) => items.iter().map(query_text).collect::<Vec<_>>().join(","),
        other => other.to_string(),
    }
}

impl Dispatcher {
    /// Calls an operation with path parameters, query parameters and a JSON body: its answer in
    /// the compact layout, or its typed refusal.
    pub async fn call(
        &self,
        caller: &Caller<'_>,
        op: &'static Operation,
        path: &[(&str, String)],
        query: &Map<String, Value>,
        body: Option<&Map<String, Value>>,
    ) -> ApiResult<Answered> {
        self.invoke(caller, op, path, query, body, None, Layout::Compact).await
    }

    /// The call of a tool: a successful JSON answer comes laid out as the string of its text
    /// ([`Layout::IndentedString`]), and `if_match` is the precondition of a confirmed call (the
    /// version the user confirmed).
    pub async fn call_tool(
        &self,
        caller: &Caller<'_>,
        op: &'static Operation,
        path: &[(&str, String)],
        query: &Map<String, Value>,
        body: Option<&Map<String, Value>>,
        if_match: Option<String>,
    ) -> ApiResult<Answered> {
        // A file is described from its bytes, never shown as text.
        let layout = if op.response == ResponseKind::Json { Layout::IndentedString } else { Layout::Compact };
        self.invoke(caller, op, path, query, body, if_match, layout).await
    }

    #[allow(clippy::too_many_arguments)]
    async fn invoke(
        &self,
        caller: &Caller<'_>,
        op: &'static Operation,
        path: &[(&str, String)],
        query: &Map<String, Value>,
        body: Option<&Map<String, Value>>,
        if_match: Option<String>,
        layout: Layout,
    ) -> ApiResult<Answered> {
        let path = op
            .path_params
            .iter()
            .map(|name| {
                let value = path.iter().find(|(given, _)| given == name).map(|(_, value)| value.clone());
                (*name, value.unwrap_or_default())
            })
            .collect();
        let invocation = Invocation {
            app: caller.app.clone(),
            principal: caller.principal.clone(),
            request_id: caller.request_id,
            path,
            query: query
                .iter()
                .map(|(name, value)| (Cow::Borrowed(name.as_str()), Cow::Owned(query_text(value))))
                .collect(),
            body: InvocationBody::Parsed(body.cloned()),
            idempotency_key: None,
            if_match,
            layout,
        };
        let answered = crate::api::invoke(op, invocation).await;
        // Internal causes go to the log, not the caller (as /v1 writes them).
        if let Err(ApiError::Internal(cause)) = &answered {
            tracing::error!(request_id = caller.request_id, error = %cause, "internal error");
        }
        answered
    }
}
