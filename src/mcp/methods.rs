//! The MCP methods of each era, routed to the file that implements each.

use std::future::Future;
use std::pin::Pin;

use poem::http::StatusCode;
use serde_json::{Value, json};

use super::context::{Context, Outcome, server_info};
use super::era::SUPPORTED;
use super::params::Params;
use super::wire::{METHOD_NOT_FOUND, RpcError};
use super::{completion, instructions, prompts, resources, tools, views};

/// Runs a method of the request's era. `raw` is the JSON-RPC body as received: tools/call
/// judges the decimals of its numbers as written, before f64 rounds them.
pub async fn handle(
    ctx: &Context<'_>,
    method: &str,
    params: &Params,
    raw: &[u8],
) -> Result<Outcome, RpcError> {
    // tools/call is most of the traffic; the other methods run behind a box, polled out of line,
    // so their code and their state stay out of the call's path (that path did not fit
    // in the instruction cache).
    if method == "tools/call" {
        return tools::call(ctx, params, raw).await;
    }
    // Bounded before any method looks at the members one by one (tools/call checks its own,
    // to answer a tool's arguments as a tool's error).
    if let Err(fault) = params.check_shape() {
        return Err(RpcError::invalid_params(format!("Invalid params: {} {fault}", fault.path())));
    }
    let other: Pin<Box<dyn Future<Output = Result<Outcome, RpcError>> + Send + '_>> =
        Box::pin(other_method(ctx, method, params));
    other.await
}

/// Every method but tools/call.
async fn other_method(ctx: &Context<'_>, method: &str, params: &Params) -> Result<Outcome, RpcError> {
    let stateless = ctx.era.is_stateless();
    // Nothing is paginated (every list is under 100 items), so any cursor is a bad cursor.
    let is_list =
        matches!(method, "tools/list" | "resources/list" | "resources/templates/list" | "prompts/list");
    if is_list && params.get("cursor").is_some_and(|c| !c.is_null()) {
        return Err(RpcError::invalid_params("Invalid cursor: this list has a single page"));
    }
    match method {
        "server/discover" if stateless => Ok(discover(ctx)),
        "initialize" if !stateless => Ok(initialize(ctx)),
        "ping" if !stateless => Ok(Outcome::complete(json!({}))),
        "tools/list" => Ok(tools::list(ctx)),
        "resources/list" => Ok(resources::list(ctx)),
        "resources/templates/list" => Ok(resources::templates(ctx)),
        "resources/read" => resources::read(ctx, params).await,
        "prompts/list" => Ok(prompts::list(ctx)),
        "prompts/get" => prompts::get(ctx, params).await,
        "completion/complete" => completion::complete(ctx, params).await,
        other => {
            // 2026-07-28 answers unknown methods with 404; the 2025 era in a 200.
            let status = if stateless { StatusCode::NOT_FOUND } else { StatusCode::OK };
            Err(RpcError::new(status, METHOD_NOT_FOUND, format!("Method not found: {other}")))
        }
    }
}

fn capabilities_2026() -> Value {
    json!({
        "tools": {},
        "resources": {},
        "prompts": {},
        "completions": {},
        "extensions": views::capability(),
    })
}

fn discover(ctx: &Context<'_>) -> Outcome {
    Outcome::cacheable(json!({
        "supportedVersions": SUPPORTED,
        "capabilities": capabilities_2026(),
        "instructions": instructions::for_caller(&ctx.caller.principal, &ctx.tools, ctx.resource_path),
    }))
}

fn initialize(ctx: &Context<'_>) -> Outcome {
    let mut capabilities = json!({
        "tools": { "listChanged": false },
        "resources": { "subscribe": false, "listChanged": false },
        "prompts": { "listChanged": false },
        "completions": {},
    });
    // Where tools can link their views (src/mcp/views.rs).
    if views::era_has_meta(ctx.era) {
        capabilities["extensions"] = views::capability();
    }
    Outcome::complete(json!({
        "protocolVersion": ctx.era.version(),
        "capabilities": capabilities,
        "serverInfo": server_info(ctx.era),
        "instructions": instructions::for_caller(&ctx.caller.principal, &ctx.tools, ctx.resource_path),
    }))
}
