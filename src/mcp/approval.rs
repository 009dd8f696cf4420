//! Confirmation through an approval page, for clients that cannot confirm in-band: every 2025
//! client, and 2026-07-28 clients without form elicitation.
//!
//! The first call is refused, as the contract says: `CONFIRMATION_REQUIRED` with
//! `details.approval_url`, or, for a 2026-07-28 client that declared `elicitation.url`, an
//! `input_required` URL-mode elicitation of the same page. A signed-in user decides there. The
//! next identical call (same principal, tool, arguments and object version, within 10 minutes)
//! runs once if approved and is told `CONFIRMATION_DECLINED` if declined; anything else gets the
//! link again. No `requestState` is sent: the decision is found by what the call binds.

use serde_json::{Map, Value, json};
use time::OffsetDateTime;

use super::arguments::Split;
use super::context::{Context, Kind, Outcome};
use super::era::Era;
use super::gate::{Gate, digest, internal, principal_id};
use super::params::Params;
use super::question::{Facts, question};
use super::tool_result::error_result;
use super::wire::RpcError;
use crate::api::{ApiError, etag};
use crate::auth::{AuthState, Redemption, approval_url, redeem_approval};
use crate::domain::approval::Binding;
use crate::operations::Operation;

/// The key of the one input request (the same as the form confirmation's).
const INPUT_KEY: &str = "confirm";

/// Whether a 2026-07-28 client declared URL-mode elicitation (it did not declare form, or it
/// would confirm in-band).
fn wants_url(era: &Era) -> bool {
    let Era::Stateless { capabilities } = era else { return false };
    capabilities.get("elicitation").and_then(|e| e.get("url")).is_some_and(Value::is_object)
}

/// Decides a destructive call of a client that cannot confirm in-band.
pub async fn gate(
    ctx: &Context<'_>,
    op: &'static Operation,
    args: &Map<String, Value>,
    split: &Split,
    params: &Params,
    facts: &Facts,
) -> Result<Gate, RpcError> {
    let target = &facts.target;
    let url_mode = wants_url(ctx.era);
    // The user's answer to the URL elicitation: declining to open the page stops here.
    let answered = params.get("inputResponses").and_then(|r| r.get(INPUT_KEY));
    if url_mode
        && let Some(action) = answered.and_then(|r| r.get("action")).and_then(Value::as_str)
        && action != "accept"
    {
        return Ok(Gate::Answer(error_result(ctx, &ApiError::ConfirmationDeclined { tool: op.tool_name })));
    }

    let version = target.get("version").and_then(Value::as_i64);
    let binding = Binding {
        organization_id: ctx.caller.principal.organization_id.clone(),
        principal: principal_id(ctx),
        tool: op.tool_name.to_string(),
        args_digest: digest(op.tool_name, args),
        object_version: version,
    };
    let object_id = target.get("id").and_then(Value::as_str).map(str::to_string);
    let app = ctx.caller.app.as_ref();
    let now = OffsetDateTime::now_utc();
    let redemption = redeem_approval(app, binding, object_id, || question(op, args, split, facts), now)
        .await
        .map_err(internal)?;
    let approval = match redemption {
        Redemption::Run => return Ok(Gate::Proceed(version.map(etag))),
        Redemption::Declined => {
            return Ok(Gate::Answer(error_result(
                ctx,
                &ApiError::ConfirmationDeclined { tool: op.tool_name },
            )));
        }
        Redemption::Ask(approval) => approval,
    };
    let url = approval_url(app.public_url(), &approval.id);
    if url_mode {
        return Ok(Gate::Answer(url_elicitation(&url, &approval.id, &approval.question)));
    }
    let message = refusal_message(op.tool_name, &url, &approval.question);
    Ok(Gate::Answer(error_result(ctx, &ApiError::ConfirmationRequired { message, approval_url: Some(url) })))
}

/// `input_required` with one URL-mode `elicitation/create`: the client shows the page to its
/// user, then retries the call; the elicitation id is the approval's.
fn url_elicitation(url: &str, id: &str, question: &str) -> Outcome {
    let result = json!({
        "inputRequests": {
            INPUT_KEY: {
                "method": "elicitation/create",
                "params": {
                    "mode": "url",
                    "message": format!(
                        "Abra a página de aprovação do Kobana Dunning e aprove ou recuse: {question} \
                         Depois, volte aqui para continuar."
                    ),
                    "url": url,
                    "elicitationId": id,
                },
            }
        },
    });
    let Value::Object(result) = result else { unreachable!("a JSON object literal") };
    Outcome { result, kind: Kind::InputRequired, written: None }
}

/// The refusal read by the model, which must explain it to a person: what to ask the user,
/// where, and what to do after. Plain words: no protocol terms the person would not know.
fn refusal_message(tool: &str, url: &str, question: &str) -> String {
    let minutes = crate::domain::approval::APPROVAL_VALIDITY.whole_minutes();
    format!(
        "Nothing was changed yet: {tool} needs the user's approval first. Ask the user to open this \
         link, sign in to Kobana Dunning and approve: {url} (they will see: {question}). Once they \
         have approved, call {tool} again with exactly the same arguments: that call does it, once. \
         The approval lasts {minutes} minutes. If the user declines, the call answers \
         CONFIRMATION_DECLINED and nothing is done."
    )
}
