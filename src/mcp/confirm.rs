//! Confirmation of destructive tools, generated from `x-mcp.confirm`.
//!
//! A 2026-07-28 client with form elicitation gets `input_required` with a pt-BR question and a
//! sealed `requestState` binding organization, principal, tool, arguments, the target's version
//! and an expiry; the retry runs the tool only when everything still matches and the user
//! accepted. Every answered state is consumed once. Other clients confirm through an approval
//! page (`approval.rs`).

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use time::OffsetDateTime;

use super::approval;
use super::arguments::Split;
use super::context::{Context, Kind, Outcome, step_up};
use super::dispatch::{document, succeeded};
use super::era::Era;
use super::gate::{Gate, digest, internal, principal_id};
use super::lookups;
use super::params::Params;
use super::question::{Facts, question};
use super::tool_result::{endpoint_result, error_result};
use super::wire::RpcError;
use crate::api::{ApiError, etag};
use crate::auth::{consume_nonce, nonce_consumed};
use crate::operations::{Operation, by_operation_id};

/// How long a confirmation question stays answerable.
const VALIDITY_SECONDS: i64 = 5 * 60;
/// The key of the one input request.
const INPUT_KEY: &str = "confirm";

/// What a sealed state binds.
#[derive(Debug, Serialize, Deserialize, PartialEq)]
struct State {
    org: String,
    principal: String,
    tool: String,
    args: String,
    version: Option<i64>,
    exp: i64,
    nonce: String,
}

/// Whether the client declared form elicitation (an empty elicitation object means form).
fn can_confirm(era: &Era) -> bool {
    let Era::Stateless { capabilities } = era else { return false };
    match capabilities.get("elicitation").and_then(Value::as_object) {
        Some(e) => e.is_empty() || e.get("form").is_some_and(Value::is_object),
        None => false,
    }
}

/// Checks a call to a destructive tool and decides whether it runs.
pub async fn gate(
    ctx: &Context<'_>,
    op: &'static Operation,
    args: &Map<String, Value>,
    split: &Split,
    params: &Params,
) -> Result<Gate, RpcError> {
    let confirm = op.confirm.expect("gate is only called for operations with x-mcp.confirm");

    // The object acted on, read through its GET before anything is asked or refused: a call on
    // an object that is not there fails now. Its fields fill the question, its version binds the
    // state (a change in between invalidates the confirmation).
    let target = match confirm.target.and_then(by_operation_id) {
        Some(target_op) => {
            // The question shows the object, so the caller must be able to GET it. Running the
            // tool already needs dunning.read; this keeps it true whatever the target's scope.
            if !ctx.caller.principal.may_run(target_op) {
                return Err(step_up(ctx, target_op));
            }
            // The object named by an argument (a create about it) or by the path.
            let named: Vec<(&'static str, String)> = confirm
                .target_id
                .and_then(|arg| args.get(arg))
                .and_then(Value::as_str)
                .map(|id| vec![("id", id.to_string())])
                .unwrap_or_default();
            let path = if confirm.target_id.is_some() { &named } else { &split.path };
            let answered = ctx.dispatcher.call(ctx.caller, target_op, path, &Map::new(), None).await;
            if !succeeded(&answered) {
                return endpoint_result(ctx, target_op, split, answered).map(Gate::Answer);
            }
            document(&answered).map(|j| j["data"].clone()).unwrap_or(Value::Null)
        }
        None => Value::Null,
    };
    let version = target.get("version").and_then(Value::as_i64);
    // The other objects the question shows (the simulated agreement, the debtor a message goes
    // to...), read now too: what is asked is what will be done.
    let reads = match lookups::gather(ctx, &confirm, args, &target).await? {
        Ok(reads) => reads,
        Err(gate) => return Ok(gate),
    };
    let zone = ctx.caller.principal.zone.clone();
    let facts = Facts { target, reads, now: OffsetDateTime::now_utc(), zone };
    if !can_confirm(ctx.era) {
        // Confirmed out of band instead: an approval page, as a link or a URL-mode elicitation.
        return approval::gate(ctx, op, args, split, params, &facts).await;
    }
    let expected = State {
        org: ctx.caller.principal.organization_id.clone(),
        principal: principal_id(ctx),
        tool: op.tool_name.to_string(),
        args: digest(op.tool_name, args),
        version,
        exp: 0,
        nonce: String::new(),
    };

    let now = OffsetDateTime::now_utc();
    let presented: Option<State> =
        params.get("requestState").and_then(Value::as_str).and_then(|s| ctx.caller.app.key.open(s));
    if let Some(state) = presented {
        let matches = state.org == expected.org
            && state.principal == expected.principal
            && state.tool == expected.tool
            && state.args == expected.args
            && state.version == expected.version
            && state.exp > now.unix_timestamp();
        let app = ctx.caller.app.as_ref();
        let response = params.get("inputResponses").and_then(|r| r.get(INPUT_KEY));
        if matches
            && !nonce_consumed(app, &state.nonce).await.map_err(internal)?
            && let Some(response) = response
        {
            let accepted = response.get("action").and_then(Value::as_str) == Some("accept")
                && response.pointer("/content/confirm").and_then(Value::as_bool) == Some(true);
            // Consumed whatever the answer; losing the race to another retry means this
            // presentation did not get it.
            if consume_nonce(app, &state.nonce, now).await.map_err(internal)? {
                if accepted {
                    return Ok(Gate::Proceed(version.map(etag)));
                }
                return Ok(Gate::Answer(error_result(
                    ctx,
                    &ApiError::ConfirmationDeclined { tool: op.tool_name },
                )));
            }
        }
    }

    // A fresh question (also for a missing, tampered, expired, consumed or mismatched state).
    let mut nonce = [0u8; 16];
    getrandom::fill(&mut nonce).map_err(|e| internal(std::io::Error::other(e.to_string())))?;
    let state = State { exp: now.unix_timestamp() + VALIDITY_SECONDS, nonce: hex::encode(nonce), ..expected };
    let message = question(op, args, split, &facts);
    let sealed = ctx.caller.app.key.seal(&state).map_err(internal)?;
    let result = json!({
        "inputRequests": {
            INPUT_KEY: {
                "method": "elicitation/create",
                "params": {
                    "mode": "form",
                    "message": message,
                    "requestedSchema": {
                        "type": "object",
                        "properties": {
                            "confirm": {
                                "type": "boolean",
                                "title": "Confirmar",
                                "description": "Marque para confirmar a operação.",
                            }
                        },
                        "required": ["confirm"],
                    },
                },
            }
        },
        "requestState": sealed,
    });
    let Value::Object(result) = result else { unreachable!("a JSON object literal") };
    Ok(Gate::Answer(Outcome { result, kind: Kind::InputRequired, written: None }))
}
