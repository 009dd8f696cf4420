//! The /v1 surface: the caller admitted, then the generated route table, then the operation's
//! handler through the generated dispatch table. One lookup and one boxed future between the
//! connection and the handler: the nested router, its per-route middleware and the rebuilt
//! request URI it used to take cost a tenth of a GET.

use std::sync::Arc;

use percent_encoding::percent_decode_str;
use poem::error::{MethodNotAllowedError, NotFoundError};
use poem::http::Method;
use poem::{Request, Response};

use super::endpoint::Invocation;
use super::invoke;
use super::routes::v1_route;
use crate::app::App;
use crate::auth::{Audience, admit_request, client_address};
use crate::error::error_response;
use crate::operations::HttpMethod;

/// The protected resource /v1 is, as challenges name it.
const RESOURCE_PATH: &str = "/v1";

/// Answers a request under /v1. Authentication comes first, so that a caller without a valid
/// token learns nothing of which paths exist; then a path no operation has is a
/// [`NotFoundError`] and a method the path does not take a [`MethodNotAllowedError`], for the
/// caller to answer in the error envelope. HEAD runs the GET and sends no body.
pub async fn serve(app: &Arc<App>, mut req: Request, request_id: &str) -> poem::Result<Response> {
    let admitted =
        admit_request(app.as_ref(), req.headers(), client_address(&req), RESOURCE_PATH, Audience::Api).await;
    let principal = match admitted {
        Ok(principal) => principal,
        Err(err) => return Ok(error_response(&err, request_id)),
    };
    let head = req.method() == Method::HEAD;
    let method = if head { Method::GET } else { req.method().clone() };
    let route = v1_route(req.uri().path()).ok_or(NotFoundError)?;
    let op =
        *route.operations.iter().find(|op| op.method.as_poem() == method).ok_or(MethodNotAllowedError)?;
    let mut path = Vec::with_capacity(op.path_params.len());
    for (name, raw) in route.names.into_iter().zip(route.params).filter(|(name, _)| !name.is_empty()) {
        // A parameter that is not UTF-8 once decoded names nothing that exists.
        let value = percent_decode_str(raw).decode_utf8().map_err(|_| NotFoundError)?;
        path.push((name, value.into_owned()));
    }
    let invocation = Invocation::from_request(app.clone(), principal, path, &mut req, request_id);
    let mut response = match invoke(op, invocation).await {
        Ok(answered) => answered.into_response(),
        Err(err) => error_response(&err, request_id),
    };
    if head {
        response.set_body(());
    }
    Ok(response)
}

/// The methods a request path takes, as its `Allow` header lists them (RFC 9110 section
/// 10.2.1): those of the operations the route table finds at the path, and HEAD wherever GET
/// is, since GET answers it. Empty for a path no operation has.
pub fn allowed_methods(path: &str) -> Vec<&'static str> {
    let Some(route) = v1_route(path) else {
        return Vec::new();
    };
    let mut allowed = Vec::new();
    for op in route.operations {
        allowed.push(op.method.as_str());
        if op.method == HttpMethod::Get {
            allowed.push("HEAD");
        }
    }
    // A stable order: the order RFC 9110 lists them in.
    const ORDER: [&str; 6] = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"];
    allowed.sort_by_key(|m| ORDER.iter().position(|o| o == m));
    allowed.dedup();
    allowed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::operations::ops;

    #[test]
    fn allowed_methods_follow_the_path_templates() {
        assert_eq!(allowed_methods("/v1/debtors"), ["GET", "HEAD", "POST"]);
        assert_eq!(allowed_methods("/v1/debtors/dbt_1"), ["GET", "HEAD", "PATCH", "DELETE"]);
        assert_eq!(allowed_methods("/v1/charges/x/cancel"), ["POST"]);
        assert!(allowed_methods("/v1/debtors//archive").is_empty());
        assert!(allowed_methods("/v1/debtors/x/y/z").is_empty());
        assert!(allowed_methods("/v1/nowhere").is_empty());
        assert!(allowed_methods("/v1/charges/").is_empty());
        assert!(allowed_methods("/v1/a/b/c/d/e/f/g/h/i").is_empty());
        assert!(allowed_methods("/mcp").is_empty());
    }

    #[test]
    fn the_route_table_finds_every_operation_at_its_own_path() {
        for op in crate::operations::OPERATIONS.iter() {
            let mut sent = op.path.to_string();
            for (i, name) in op.path_params.iter().enumerate() {
                sent = sent.replace(&format!("{{{name}}}"), &format!("v{i}"));
            }
            let route = v1_route(&sent).unwrap_or_else(|| panic!("{} is routed", op.path));
            assert!(
                route.operations.iter().any(|found| found.operation_id == op.operation_id),
                "{} {} finds {}",
                op.method.as_str(),
                sent,
                op.operation_id
            );
            // Each name with the value sent for it, whatever order the spec lists them in.
            for (name, value) in route.names.iter().zip(route.params) {
                if let Some(i) = op.path_params.iter().position(|p| p == name) {
                    assert_eq!(value, format!("v{i}"), "{sent}: {name}");
                }
            }
            let named = route.names.iter().filter(|n| !n.is_empty()).count();
            assert_eq!(named, op.path_params.len(), "{sent}");
        }
        let route = v1_route("/v1/collection_policies/cp_1/steps/st%5F2").expect("a step's path");
        assert_eq!(route.names, ["cp_id", "step_id"]);
        assert_eq!(route.params, ["cp_1", "st%5F2"]);
        assert!(
            route
                .operations
                .iter()
                .any(|op| op.operation_id == ops::COLLECTION_POLICIES_STEPS_GET.operation_id)
        );
    }
}
