//! In-process dispatch to the /v1 handlers (docs/ARCHITECTURE.md, "One spec, two surfaces, one
//! implementation"): a tool's arguments become the same invocation a /v1 request becomes, handed to
//! the operation's handler through the generated dispatch table, below authentication. No socket,
//! no HTTP request built and parsed again, no second implementation.

use std::sync::Arc;

use std::borrow::Cow;

use poem::http::StatusCode;
use serde_json::{Map, Value};

use crate::api::{AnswerForm, Answered, Invocation, InvocationBody, error_response};
use crate::app::App;
use crate::auth::Principal;
use crate::operations::{Operation, ResponseKind};

/// What the endpoint answered.
#[derive(Debug)]
pub struct Answer {
    /// HTTP status.
    pub status: StatusCode,
    /// The body bytes.
    pub body: Vec<u8>,
    /// Retry-After, for 503.
    pub retry_after: Option<String>,
    /// Whether `body` is already the JSON string literal of a tool's text item
    /// ([`AnswerForm::ToolText`]), rather than the endpoint's JSON.
    pub tool_text: bool,
}

impl Answer {
    /// The body as JSON, when it is JSON.
    pub fn json(&self) -> Option<Value> {
        serde_json::from_slice(&self.body).ok()
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
    /// Calls an operation with path parameters, query parameters and a JSON body.
    pub async fn call(
        &self,
        caller: &Caller<'_>,
        op: &'static Operation,
        path: &[(&str, String)],
        query: &Map<String, Value>,
        body: Option<&Map<String, Value>>,
    ) -> Answer {
        self.invoke(caller, op, path, query, body, None, AnswerForm::Rest).await
    }

    /// The call of a tool: a successful JSON answer comes as the tool's text
    /// ([`AnswerForm::ToolText`]), and `if_match` is the precondition of a confirmed call (the
    /// version the user confirmed).
    pub async fn call_tool(
        &self,
        caller: &Caller<'_>,
        op: &'static Operation,
        path: &[(&str, String)],
        query: &Map<String, Value>,
        body: Option<&Map<String, Value>>,
        if_match: Option<String>,
    ) -> Answer {
        // A file is described from its bytes, never shown as text.
        let form = if op.response == ResponseKind::Json { AnswerForm::ToolText } else { AnswerForm::Rest };
        self.invoke(caller, op, path, query, body, if_match, form).await
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
        form: AnswerForm,
    ) -> Answer {
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
            form,
        };
        let response = match crate::api::invoke(op, invocation).await {
            // The handler's own answer is read as it is: no response built and read back.
            Ok(Answered::Rendered(rendered)) => {
                let status = StatusCode::from_u16(rendered.status).unwrap_or(StatusCode::OK);
                return Answer {
                    status,
                    body: match (rendered.body, rendered.file) {
                        (Some(body), _) => body.into_bytes(),
                        (None, Some(file)) => file.bytes,
                        (None, None) => Vec::new(),
                    },
                    retry_after: None,
                    tool_text: rendered.form == AnswerForm::ToolText,
                };
            }
            Ok(stored) => stored.into_response(),
            Err(err) => error_response(&err, caller.request_id),
        };
        let status = response.status();
        let retry_after =
            response.headers().get("retry-after").and_then(|v| v.to_str().ok()).map(str::to_string);
        let body = response.into_body().into_vec().await.unwrap_or_default();
        // A stored answer and an error are /v1 JSON, whatever form was asked for.
        Answer { status, body, retry_after, tool_text: false }
    }
}
