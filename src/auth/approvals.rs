//! Approval links: what the MCP layer asks of stored approvals, beside the nonces of sealed states,
//! so the rule "each decision is used once, whichever replica answers" lives in one place and the
//! MCP layer never reaches the store.

use time::OffsetDateTime;

use super::AuthState;
use crate::domain::approval::{APPROVAL_PREFIX, Approval, ApprovalStatus, Binding, Decision, is_approval_id};
use crate::domain::dates::{Timestamp, format_timestamp};
use crate::domain::ids::new_id;
use crate::error::ApiError;
use crate::store::NewEvent;
use crate::types as wire;

/// What a call that could not confirm in-band may do now.
#[derive(Debug)]
pub enum Redemption {
    /// A user approved exactly this call, and this request used the approval: run it.
    Run,
    /// A user declined exactly this call; this request is the one told so.
    Declined,
    /// Nobody decided yet (or the call differs from every decision): send the user here.
    Ask(Box<Approval>),
}

/// The page of an approval: `<public-url>/approvals/<id>`.
pub fn approval_url(public_url: &str, id: &str) -> String {
    format!("{public_url}/approvals/{id}")
}

/// A new unguessable approval id: `apr_` and 128 random bits in hex (not a UUIDv7, whose
/// leading bits are a timestamp: the id is a link handed to a model).
fn new_approval_id() -> Result<String, ApiError> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|e| ApiError::Internal(e.to_string().into()))?;
    Ok(format!("{APPROVAL_PREFIX}{}", hex::encode(bytes)))
}

/// Uses the decision recorded for this exact call, if any, or finds or makes the approval the
/// user should decide. A decline not yet told wins over an approval (nothing runs when in
/// doubt). A pending approval for the identical call is reused, so retries before the user
/// decides keep sending the same link instead of piling up rows. Losing a race to another
/// request that used the same decision falls through to a fresh approval: the call runs once.
pub async fn redeem_approval<S: AuthState + ?Sized>(
    state: &S,
    binding: Binding,
    object_id: Option<String>,
    question: impl FnOnce() -> String,
    now: OffsetDateTime,
) -> Result<Redemption, ApiError> {
    let store = state.store();
    let live = store.live_approvals(&binding, now).await?;
    for approval in live.iter().filter(|a| a.status == ApprovalStatus::Declined) {
        if store.report_declined_approval(&approval.id, now).await? {
            return Ok(Redemption::Declined);
        }
    }
    for approval in live.iter().filter(|a| a.status == ApprovalStatus::Approved) {
        if store.consume_approval(&approval.id, now).await? {
            return Ok(Redemption::Run);
        }
    }
    if let Some(pending) = live.into_iter().find(|a| a.status == ApprovalStatus::Pending) {
        return Ok(Redemption::Ask(Box::new(pending)));
    }
    let approval = Approval::request(new_approval_id()?, binding, object_id, question(), now);
    store.insert_approval(&approval).await?;
    Ok(Redemption::Ask(Box::new(approval)))
}

/// An approval by id; `None` for anything that is not one (ids are checked before lookup).
pub async fn find_approval<S: AuthState + ?Sized>(state: &S, id: &str) -> Result<Option<Approval>, ApiError> {
    if !is_approval_id(id) {
        return Ok(None);
    }
    Ok(state.store().approval(id).await?)
}

/// Whether a user's decision was recorded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decided {
    /// Recorded, with its event.
    Recorded,
    /// Someone decided first, or it expired: nothing written.
    TooLate,
}

/// Records a user's decision on an approval of their organization, with the event that says who
/// decided what, and when. The caller has checked that the user may decide it (same
/// organization, a role that allows the tool's scopes).
pub async fn decide_approval<S: AuthState + ?Sized>(
    state: &S,
    approval: &Approval,
    user_id: &str,
    decision: Decision,
    request_id: Option<&str>,
    now: OffsetDateTime,
) -> Result<Decided, ApiError> {
    let decided_at = format_timestamp(now);
    let event = NewEvent {
        id: new_id("evt"),
        organization_id: approval.binding.organization_id.clone(),
        code: decision.event_code().to_string(),
        resource_type: "approval",
        resource_id: approval.id.clone(),
        actor_type: "user".to_string(),
        actor_id: user_id.to_string(),
        data: serde_json::to_value(wire::ApprovalEventData {
            approval_id: approval.id.clone(),
            tool: approval.binding.tool.clone(),
            object_id: approval.object_id.clone(),
            object_version: approval.binding.object_version,
            question: approval.question.clone(),
            requested_by: approval.binding.principal.clone(),
            decision: match decision {
                Decision::Approve => wire::ApprovalEventDataDecision::Approve,
                Decision::Decline => wire::ApprovalEventDataDecision::Decline,
            },
            decided_by: user_id.to_string(),
            decided_at: Timestamp(now),
        })
        .unwrap_or_default(),
        request_id: request_id.map(str::to_string),
        occurred_at: decided_at.clone(),
    };
    let recorded = state
        .store()
        .decide_approval(&approval.binding.organization_id, &approval.id, decision, user_id, now, &event)
        .await?;
    Ok(if recorded { Decided::Recorded } else { Decided::TooLate })
}
