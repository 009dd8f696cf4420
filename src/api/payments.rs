//! The `payments` tag: payments heard of (the Kobana receiver, imported files), the receiver's
//! registration, and a person assigning a payment that matched nothing. Every payment settles
//! its charge through `changes::settle`, the path of `charges_settle` (a payment heard of, in
//! `changes::take`).

use super::{ApiError, ApiResult, Call, ListArgs, Reply};
use crate::auth::{Role, mint_secret};
use crate::changes::{payment_of, settle};
use crate::domain::dates::Timestamp;
use crate::domain::ids::new_id;
use crate::domain::payment_receiver::{GRACE, PaymentReceiver, RECEIVER_PREFIX};
use crate::types::{self as wire, ChargeStatus};
use crate::views::event_data::ObjectPayload;
use crate::views::payment::payment_view;

/// The handlers of the `payments` tag.
pub struct Payments;

/// The path under which receivers listen; the token follows.
pub const RECEIVER_PATH: &str = "/receivers/kobana/";

/// The role a signed-in user needs to set or revoke a receiver.
const RECEIVER_ROLE: Role = Role::Admin;

/// The admin role when a user signed in (the spec's `x-mcp.scope` adds `dunning.notify`, checked
/// before any handler runs): a receiver decides which payments settle charges.
async fn require_receiver_rights(call: &Call) -> ApiResult<()> {
    let Some(user_id) = &call.principal.user_id else { return Ok(()) };
    let user = call.store.user(user_id).await?;
    match user.and_then(|u| Role::parse(&u.role)) {
        Some(role) if role == RECEIVER_ROLE => Ok(()),
        _ => Err(ApiError::RoleRequired(RECEIVER_ROLE.as_str())),
    }
}

async fn load_receiver(call: &Call, id: &str) -> ApiResult<PaymentReceiver> {
    call.store.payment_receiver(call.org_id(), id).await?.ok_or(ApiError::NotFound("payment receiver"))
}

/// A receiver as the API shows it; the URL only in the answer that made it.
pub(crate) fn receiver_view(
    receiver: &PaymentReceiver,
    url: Option<String>,
    now: time::OffsetDateTime,
) -> wire::PaymentReceiver {
    wire::PaymentReceiver {
        id: receiver.id.clone(),
        status: receiver.status(now),
        url,
        created_at: Timestamp(receiver.created_at),
        created_by: wire::Actor { r#type: receiver.created_by.0, id: receiver.created_by.1.clone() },
        retires_at: receiver.retires_at.map(Timestamp),
        revoked_at: receiver.revoked_at.map(Timestamp),
        last_delivery_at: receiver.last_delivery_at.map(Timestamp),
    }
}

impl super::handlers::PaymentsApi for Payments {
    /// A new URL and secret each time; the receiver it replaces keeps hearing payments for
    /// [`GRACE`], so none on their way is lost. Where payments are heard from is as sensitive as
    /// where Pix goes: it needs `dunning.notify` too, and an admin when a user signed in.
    async fn payment_receiver_create(
        call: Call,
        input: wire::PaymentReceiverCreateInput,
    ) -> ApiResult<Reply<wire::PaymentReceiverEnvelope>> {
        require_receiver_rights(&call).await?;
        let internal = |e: String| ApiError::Internal(e.into());
        let (token, hash) = mint_secret(RECEIVER_PREFIX).map_err(|e| internal(e.to_string()))?;
        let sealed = call.app.key.seal(&input.secret.to_string()).map_err(|e| internal(e.to_string()))?;
        let replaced = call.store.active_payment_receiver(call.org_id()).await?;
        let (actor_type, actor_id) = call.principal.actor();
        let actor_type = actor_type
            .parse()
            .map_err(|_| ApiError::Internal(format!("{actor_type} is not an actor type").into()))?;
        let receiver = PaymentReceiver {
            id: new_id("rcv"),
            organization_id: call.org_id().to_string(),
            secret_sealed: sealed,
            created_at: call.now,
            created_by: (actor_type, actor_id.to_string()),
            retires_at: None,
            revoked_at: None,
            last_delivery_at: None,
            version: 1,
            updated_at: call.now,
        };
        let retires_at = call.now + GRACE;
        // Who set where payments are heard from is kept; the URL and the secret are not.
        let data = wire::PaymentReceiverEventData {
            id: receiver.id.clone(),
            created_at: Timestamp(call.now),
            replaced_id: replaced.as_ref().map(|r| r.id.clone()),
            retires_at: replaced.as_ref().map(|_| Timestamp(retires_at)),
            revoked_at: None,
        };
        let evt = super::event(&call, "payment_receiver.created", &receiver.id, &data);
        call.store.insert_payment_receiver(&receiver, &hash, retires_at, &[evt]).await?;
        let url = format!("{}{RECEIVER_PATH}{token}", call.app.public_url.trim_end_matches('/'));
        // The URL's token is the receiver's key: a replay shows it only to this token.
        let data = receiver_view(&receiver, Some(url), call.now);
        Ok(Reply::new(wire::PaymentReceiverEnvelope { data }).secret_for("url", &call.principal.token_id))
    }

    async fn payment_receivers_list(
        call: Call,
        input: wire::PaymentReceiversListInput,
    ) -> ApiResult<Reply<wire::PaymentReceiverList>> {
        let (window, pager) = ListArgs::plain(input.page, input.per_page, None).page(call.zone());
        let (rows, total) = call.store.payment_receivers(call.org_id(), window.limit, window.offset).await?;
        Ok(Reply::new(wire::PaymentReceiverList {
            data: rows.iter().map(|r| receiver_view(r, None, call.now)).collect(),
            meta: pager.meta(total),
        }))
    }

    async fn payment_receivers_get(
        call: Call,
        input: wire::PaymentReceiversGetInput,
    ) -> ApiResult<Reply<wire::PaymentReceiverEnvelope>> {
        let receiver = load_receiver(&call, &input.id).await?;
        Ok(Reply::new(wire::PaymentReceiverEnvelope { data: receiver_view(&receiver, None, call.now) }))
    }

    /// Stops a receiver at once; a revoked one is answered as it is.
    async fn payment_receivers_revoke(
        call: Call,
        input: wire::PaymentReceiversRevokeInput,
    ) -> ApiResult<Reply<wire::PaymentReceiverEnvelope>> {
        require_receiver_rights(&call).await?;
        let before = load_receiver(&call, &input.id).await?;
        call.check_if_match(before.version)?;
        let mut after = before.clone();
        if after.revoke(call.now)? {
            let data = wire::PaymentReceiverEventData {
                id: after.id.clone(),
                created_at: Timestamp(after.created_at),
                replaced_id: None,
                retires_at: after.retires_at.map(Timestamp),
                revoked_at: after.revoked_at.map(Timestamp),
            };
            let evt = super::event(&call, "payment_receiver.revoked", &after.id, &data);
            if !call.store.revoke_payment_receiver(&after, before.version, &evt).await? {
                return Err(ApiError::Concurrent("payment receiver"));
            }
        }
        Ok(Reply::new(wire::PaymentReceiverEnvelope { data: receiver_view(&after, None, call.now) }))
    }

    async fn payments_list(
        call: Call,
        input: wire::PaymentsListInput,
    ) -> ApiResult<Reply<wire::PaymentList>> {
        let (window, pager) = ListArgs::plain(input.page, input.per_page, None).page(call.zone());
        let statuses: Vec<String> = input.status.iter().map(|s| s.as_str().to_string()).collect();
        let (rows, total) =
            call.store.payments(call.org_id(), &statuses, window.limit, window.offset).await?;
        Ok(Reply::new(wire::PaymentList {
            data: rows.into_iter().map(payment_view).collect(),
            meta: pager.meta(total),
        }))
    }

    async fn payments_assign(
        call: Call,
        input: wire::PaymentsAssignInput,
    ) -> ApiResult<Reply<wire::PaymentEnvelope>> {
        let mut payment =
            call.store.payment(call.org_id(), &input.id).await?.ok_or(ApiError::NotFound("payment"))?;
        let charge = call
            .store
            .charge(call.org_id(), &input.charge_id)
            .await?
            .ok_or_else(|| ApiError::field("charge_id", "no charge with this id exists"))?;
        let before = payment_view(payment.clone());
        payment.assign(&charge.id, call.now)?;
        if charge.status == ChargeStatus::Paid {
            return Err(ApiError::field("charge_id", "the charge is already paid"));
        }
        settle(&call.acting(), charge, payment_of(&payment, None)).await.map_err(|e| match e {
            // The amount is the payment's, not an argument of this call.
            ApiError::Validation(_) => {
                ApiError::field("id", "the payment's amount is more than the charge's balance")
            }
            other => other,
        })?;
        let data = wire::PaymentEventData::of(Some(&before), payment_view(payment.clone()));
        let assigned = super::event(&call, "payment.assigned", &payment.id, &data);
        if !call.store.save_payment(&payment, &[assigned]).await? {
            return Err(ApiError::Concurrent("payment"));
        }
        Ok(Reply::new(wire::PaymentEnvelope { data: payment_view(payment) }))
    }
}
