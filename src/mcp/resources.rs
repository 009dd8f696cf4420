//! Resources: three fixed documents, the templates generated from the spec's one-object GETs,
//! read in-process through /v1 like a tool, and the tools' views (src/mcp/views.rs).

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use poem::http::StatusCode;
use serde_json::{Map, Value, json};

use super::context::{Context, Outcome, allowed, step_up};
use super::dispatch::{document, refusal_message};
use super::params::Params;
use super::tool_text::json_text;
use super::views;
use super::wire::{INVALID_PARAMS, RESOURCE_NOT_FOUND, RpcError};
use crate::api::{Answered, Rendered};
use crate::auth::visibility;
use crate::operations::{OPERATIONS, Operation, ResponseKind};

/// The guide: how the régua works, statuses, glossary.
const GUIDE: &str = include_str!("guide.md");
const GUIDE_URI: &str = "kobana://dunning/guide";
/// Every webhook event code: the tools that take codes show only their pattern (the catalogue
/// budget), and point here.
pub const EVENT_CODES_URI: &str = "kobana://dunning/event_codes";

/// The event codes document: every code a webhook can take, in the spec's order.
fn event_codes() -> Value {
    let codes: Vec<&str> = crate::types::WebhookEventCode::ALL.iter().map(|code| code.as_str()).collect();
    json!({ "event_codes": codes })
}

fn with_title(ctx: &Context<'_>, mut item: Value, title: &str) -> Value {
    if ctx.era.has_titles() {
        item["title"] = json!(title);
    }
    item
}

/// `resources/list`: the fixed documents: the spec's GETs without path parameters (`me`),
/// filtered by scope, the guide and the event codes (any valid token reads those two), then the
/// views of the tools the caller sees on this path.
pub fn list(ctx: &Context<'_>) -> Outcome {
    let mut resources: Vec<Value> = OPERATIONS
        .iter()
        .filter(|op| allowed(ctx, op))
        .filter_map(|op| {
            let uri = op.resource_uri.filter(|uri| !uri.contains('{'))?;
            Some(with_title(
                ctx,
                json!({ "uri": uri, "name": op.operation_id, "description": op.description, "mimeType": mime(op) }),
                op.title,
            ))
        })
        .collect();
    resources.push(with_title(
        ctx,
        json!({
            "uri": GUIDE_URI,
            "name": "guide",
            "description": "How the régua de cobrança works: statuses, guards, glossary (pt-BR/en).",
            "mimeType": "text/markdown",
            "size": GUIDE.len(),
        }),
        "Kobana Dunning guide",
    ));
    resources.push(with_title(
        ctx,
        json!({
            "uri": EVENT_CODES_URI,
            "name": "event_codes",
            "description": "Every event code a webhook can take (the events argument of the webhook tools).",
            "mimeType": "application/json",
        }),
        "Webhook event codes",
    ));
    resources.extend(views::resources(ctx));
    Outcome::cacheable(json!({ "resources": resources }))
}

fn mime(op: &Operation) -> &'static str {
    match op.response {
        ResponseKind::Binary { content_type, .. } => content_type,
        _ => "application/json",
    }
}

fn templated(op: &Operation) -> Option<&'static str> {
    op.resource_uri.filter(|uri| uri.contains('{'))
}

/// `resources/templates/list`: generated from the spec, filtered by scope.
pub fn templates(ctx: &Context<'_>) -> Outcome {
    let templates: Vec<Value> = OPERATIONS
        .iter()
        .filter(|op| allowed(ctx, op))
        .filter_map(|op| {
            let uri = templated(op)?;
            Some(with_title(
                ctx,
                json!({ "uriTemplate": uri, "name": op.operation_id, "description": op.description, "mimeType": mime(op) }),
                op.title,
            ))
        })
        .collect();
    Outcome::cacheable(json!({ "resourceTemplates": templates }))
}

/// Matches a URI against a template; the path parameters it fills.
pub fn match_template(template: &str, uri: &str) -> Option<Vec<(&'static str, String)>> {
    let template_parts: Vec<&str> = template.split('/').collect();
    let uri_parts: Vec<&str> = uri.split('/').collect();
    if template_parts.len() != uri_parts.len() {
        return None;
    }
    let mut params = Vec::new();
    for (t, u) in template_parts.iter().zip(&uri_parts) {
        match t.strip_prefix('{').and_then(|rest| rest.split_once('}')) {
            Some((name, suffix)) => {
                let value = u.strip_suffix(suffix)?;
                if value.is_empty() {
                    return None;
                }
                let name: &'static str =
                    OPERATIONS.iter().flat_map(|op| op.path_params.iter().copied()).find(|p| *p == name)?;
                params.push((name, value.to_string()));
            }
            None if t == u => {}
            None => return None,
        }
    }
    Some(params)
}

/// The resource-not-found error of the era.
pub fn not_found(ctx: &Context<'_>, uri: &str) -> RpcError {
    let code = if ctx.era.is_stateless() { INVALID_PARAMS } else { RESOURCE_NOT_FOUND };
    RpcError::new(StatusCode::OK, code, format!("Resource not found: {uri}")).with_data(json!({ "uri": uri }))
}

/// Finds the operation and path parameters behind a URI.
pub fn resolve(uri: &str) -> Option<(&'static Operation, Vec<(&'static str, String)>)> {
    OPERATIONS.iter().find_map(|op| {
        let template = op.resource_uri?;
        match_template(template, uri).map(|params| (op, params))
    })
}

/// `resources/read`
pub async fn read(ctx: &Context<'_>, params: &Params) -> Result<Outcome, RpcError> {
    let uri = params
        .get("uri")
        .and_then(Value::as_str)
        .ok_or_else(|| RpcError::invalid_params("params.uri is required"))?;
    if uri == GUIDE_URI {
        return Ok(Outcome::cacheable(
            json!({ "contents": [{ "uri": uri, "mimeType": "text/markdown", "text": GUIDE }] }),
        ));
    }
    if uri == EVENT_CODES_URI {
        let text = json_text(&event_codes());
        return Ok(Outcome::cacheable(
            json!({ "contents": [{ "uri": uri, "mimeType": "application/json", "text": text }] }),
        ));
    }
    if let Some(view) = views::find(uri) {
        return views::read(ctx, view).ok_or_else(|| not_found(ctx, uri));
    }
    let (op, path) = resolve(uri).ok_or_else(|| not_found(ctx, uri))?;
    if !allowed(ctx, op) {
        return Err(step_up(ctx, op));
    }
    // An id of an object the caller could not read names nothing it can see.
    let scopes = &ctx.caller.principal.scopes;
    if path.iter().any(|(_, id)| !visibility::sees_id(scopes, id)) {
        return Err(not_found(ctx, uri));
    }
    let answered = ctx.dispatcher.call(ctx.caller, op, &path, &Map::new(), None).await;
    let status = match &answered {
        Ok(answered) => StatusCode::from_u16(answered.status()).unwrap_or(StatusCode::OK),
        Err(err) => err.status(),
    };
    if status == StatusCode::NOT_FOUND {
        return Err(not_found(ctx, uri));
    }
    if !status.is_success() {
        let message = refusal_message(&answered)
            .unwrap_or_else(|| format!("the resource could not be read ({status})"));
        return Err(RpcError::invalid_params(message).with_data(json!({ "uri": uri })));
    }
    let content = match (op.response, answered) {
        (
            ResponseKind::Binary { content_type, .. },
            Ok(Answered::Rendered(Rendered { file: Some(file), .. })),
        ) => {
            if content_type.starts_with("text/") {
                json!({ "uri": uri, "mimeType": content_type, "text": String::from_utf8_lossy(&file.bytes) })
            } else {
                json!({ "uri": uri, "mimeType": content_type, "blob": STANDARD.encode(&file.bytes) })
            }
        }
        (_, answered) => {
            let body = document(&answered).unwrap_or(Value::Null);
            json!({ "uri": uri, "mimeType": "application/json", "text": json_text(&body) })
        }
    };
    Ok(Outcome::cacheable(json!({ "contents": [content] })))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_match_whole_segments_and_extensions() {
        assert_eq!(
            match_template("kobana://dunning/charges/{id}", "kobana://dunning/charges/chg_1"),
            Some(vec![("id", "chg_1".to_string())])
        );
        assert_eq!(match_template("kobana://dunning/charges/{id}", "kobana://dunning/charges/chg_1/x"), None);
        assert_eq!(match_template("kobana://dunning/charges/{id}", "kobana://dunning/debtors/dbt_1"), None);
        assert_eq!(match_template("kobana://dunning/charges/{id}", "kobana://dunning/charges/"), None);
        assert_eq!(
            match_template(
                "kobana://dunning/debtors/{id}/statement.pdf",
                "kobana://dunning/debtors/dbt_9/statement.pdf"
            ),
            Some(vec![("id", "dbt_9".to_string())])
        );
    }

    #[test]
    fn the_event_codes_are_every_code_and_match_the_tools_pattern() {
        let codes = event_codes();
        let codes = codes["event_codes"].as_array().unwrap();
        assert_eq!(codes.len(), crate::types::WebhookEventCode::ALL.len());
        let webhooks_create: Value =
            serde_json::from_str(crate::operations::ops::WEBHOOKS_CREATE.descriptor).unwrap();
        let items = &webhooks_create["inputSchema"]["properties"]["events"]["items"];
        assert!(items.get("enum").is_none(), "tools show the pattern, not every code: {items}");
        let pattern = jsonschema::validator_for(items).unwrap();
        for code in codes {
            assert!(pattern.is_valid(code), "{code} does not match the tools' pattern {items}");
        }
    }

    #[test]
    fn me_is_a_fixed_resource_of_the_spec() {
        let (op, path) = resolve("kobana://dunning/me").expect("me resolves");
        assert_eq!(op.operation_id, "me");
        assert!(path.is_empty());
    }
}
