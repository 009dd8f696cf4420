//! The `webhooks` tag: where an organization's events go, their secrets, and the deliveries
//! made to them. Sending is `outbound/webhook_delivery.rs`; which events a webhook gets is
//! decided when each event is written (the store).

use super::{ApiError, ApiResult, Call, ListArgs, NoContent, Reply, event};
use crate::auth::mint_secret;
use crate::domain::dates::Timestamp;
use crate::domain::ids::new_id;
use crate::domain::webhook::{Delivery, Webhook, WebhookChange, distinct};
use crate::outbound::webhook_delivery::{attempt_after_commit, delivery_view, lease};
use crate::providers::check_webhook_url;
use crate::store::DeliveryFilter;
use crate::types::{self as wire, WebhookDeliveryEnvelope, WebhookEnvelope, WebhookSecretEnvelope};
use crate::views::event_data::ObjectPayload;

/// The handlers of the `webhooks` tag.
pub struct Webhooks;

/// The prefix of a webhook's signing secret.
const SECRET_PREFIX: &str = "whsec_";

fn webhook_view(w: &Webhook) -> wire::Webhook {
    wire::Webhook {
        id: w.id.clone(),
        name: w.name.clone(),
        url: w.url.clone(),
        events: w.events.clone(),
        active: w.active,
        version: w.version,
        created_at: Timestamp(w.created_at),
        updated_at: Timestamp(w.updated_at),
    }
}

/// The webhook with its new secret, shown to the calling token only (a replay to another token
/// of the organization shows it without).
fn with_secret(call: &Call, w: &Webhook, secret: String) -> Reply<WebhookSecretEnvelope> {
    let v = webhook_view(w);
    let data = wire::WebhookWithSecret {
        id: v.id,
        name: v.name,
        url: v.url,
        events: v.events,
        active: v.active,
        version: v.version,
        created_at: v.created_at,
        updated_at: v.updated_at,
        secret: Some(secret),
        secret_note: None,
    };
    Reply::versioned(WebhookSecretEnvelope { data }, w.version).secret_for("secret", &call.principal.token_id)
}

fn reply(w: &Webhook) -> Reply<WebhookEnvelope> {
    Reply::versioned(WebhookEnvelope { data: webhook_view(w) }, w.version)
}

async fn load(call: &Call, id: &str) -> ApiResult<Webhook> {
    call.store.webhook(call.org_id(), id).await?.ok_or(ApiError::NotFound("webhook"))
}

/// The URL as given, if the target rules allow it (a name is looked up now).
async fn checked_url(call: &Call, url: String) -> ApiResult<String> {
    check_webhook_url(&url, call.app.providers.allows_insecure_targets())
        .await
        .map_err(|why| ApiError::field("url", why))?;
    Ok(url)
}

/// A new secret and its sealed form.
fn new_secret(call: &Call) -> ApiResult<(String, String)> {
    let internal = |e: String| ApiError::Internal(e.into());
    let (secret, _) = mint_secret(SECRET_PREFIX).map_err(|e| internal(e.to_string()))?;
    let sealed = call.app.key.seal(&secret).map_err(|e| internal(e.to_string()))?;
    Ok((secret, sealed))
}

/// Saves a changed webhook with its `webhook.db.updated` event.
async fn save(call: &Call, before: &Webhook, after: &Webhook) -> ApiResult<()> {
    let data = wire::WebhookEventData::of(Some(&webhook_view(before)), webhook_view(after));
    let evt = event(call, "webhook.db.updated", &after.id, &data);
    if !call.store.update_webhook(after, before.version, &evt).await? {
        return Err(ApiError::Concurrent("webhook"));
    }
    Ok(())
}

async fn load_delivery(call: &Call, webhook_id: &str, id: &str) -> ApiResult<Delivery> {
    call.store
        .webhook_delivery(call.org_id(), webhook_id, id)
        .await?
        .ok_or(ApiError::NotFound("webhook delivery"))
}

impl super::handlers::WebhooksApi for Webhooks {
    async fn webhooks_list(
        call: Call,
        input: wire::WebhooksListInput,
    ) -> ApiResult<Reply<wire::WebhookList>> {
        let (window, pager) = ListArgs::plain(input.page, input.per_page, None).page(call.zone());
        let (rows, total) = call.store.webhooks(call.org_id(), window.limit, window.offset).await?;
        Ok(Reply::new(wire::WebhookList {
            data: rows.iter().map(webhook_view).collect(),
            meta: pager.meta(total),
        }))
    }

    async fn webhooks_create(
        call: Call,
        input: wire::WebhooksCreateInput,
    ) -> ApiResult<Reply<WebhookSecretEnvelope>> {
        let url = checked_url(&call, input.url.into()).await?;
        let (secret, sealed) = new_secret(&call)?;
        let w = Webhook {
            id: new_id("whk"),
            organization_id: call.org_id().to_owned(),
            name: input.name.map(Into::into),
            url,
            events: distinct(input.events),
            active: input.active.unwrap_or(true),
            secret_sealed: sealed,
            version: 1,
            created_at: call.now,
            updated_at: call.now,
        };
        let evt =
            event(&call, "webhook.db.created", &w.id, &wire::WebhookEventData::of(None, webhook_view(&w)));
        call.store.insert_webhook(&w, &evt).await?;
        Ok(with_secret(&call, &w, secret))
    }

    async fn webhooks_get(call: Call, input: wire::WebhooksGetInput) -> ApiResult<Reply<WebhookEnvelope>> {
        Ok(reply(&load(&call, &input.id).await?))
    }

    async fn webhooks_update(
        call: Call,
        input: wire::WebhooksUpdateInput,
    ) -> ApiResult<Reply<WebhookEnvelope>> {
        let before = load(&call, &input.id).await?;
        call.check_if_match(before.version)?;
        let change = WebhookChange {
            url: match input.url {
                Some(u) => Some(checked_url(&call, u.into()).await?),
                None => None,
            },
            events: input.events,
            name: input.name.map(|n| n.map(Into::into)),
            active: input.active,
        };
        let mut after = before.clone();
        if !after.change(change, call.now) {
            return Ok(reply(&before));
        }
        save(&call, &before, &after).await?;
        Ok(reply(&after))
    }

    async fn webhooks_delete(call: Call, input: wire::WebhooksDeleteInput) -> ApiResult<NoContent> {
        let w = load(&call, &input.id).await?;
        let evt =
            event(&call, "webhook.db.deleted", &w.id, &wire::WebhookEventData::of(None, webhook_view(&w)));
        if !call.store.delete_webhook(call.org_id(), &w.id, &evt).await? {
            return Err(ApiError::NotFound("webhook"));
        }
        Ok(NoContent)
    }

    /// The ping is recorded and leased here, and sent once the call's unit commits.
    async fn webhooks_test(
        call: Call,
        input: wire::WebhooksTestInput,
    ) -> ApiResult<Reply<WebhookDeliveryEnvelope>> {
        let w = load(&call, &input.id).await?;
        let ping = Delivery::ping(&w, new_id("dlv"), call.now);
        let lease = lease();
        call.store.insert_ping(&ping, &lease).await?;
        let answer = Reply::new(WebhookDeliveryEnvelope { data: delivery_view(&ping) });
        attempt_after_commit(&call.app, &call.store, ping, lease.owner);
        Ok(answer)
    }

    /// Every delivery from now on is signed with the new secret, retries included.
    async fn webhooks_rotate_secret(
        call: Call,
        input: wire::WebhooksRotateSecretInput,
    ) -> ApiResult<Reply<WebhookSecretEnvelope>> {
        let before = load(&call, &input.id).await?;
        let (secret, sealed) = new_secret(&call)?;
        let mut after = before.clone();
        after.rotate(sealed, call.now);
        save(&call, &before, &after).await?;
        Ok(with_secret(&call, &after, secret))
    }

    async fn webhooks_deliveries_list(
        call: Call,
        input: wire::WebhooksDeliveriesListInput,
    ) -> ApiResult<Reply<wire::WebhookDeliveryList>> {
        let w = load(&call, &input.id).await?;
        let (window, pager) = ListArgs::plain(input.page, input.per_page, None).page(call.zone());
        let filter = DeliveryFilter {
            status: input.status,
            event_code: input.event_code.map(Into::into),
            limit: window.limit,
            offset: window.offset,
        };
        let (rows, total) = call.store.webhook_deliveries(call.org_id(), &w.id, &filter).await?;
        Ok(Reply::new(wire::WebhookDeliveryList {
            data: rows.iter().map(delivery_view).collect(),
            meta: pager.meta(total),
        }))
    }

    async fn webhooks_deliveries_get(
        call: Call,
        input: wire::WebhooksDeliveriesGetInput,
    ) -> ApiResult<Reply<WebhookDeliveryEnvelope>> {
        let d = load_delivery(&call, &input.id, &input.delivery_id).await?;
        Ok(Reply::new(WebhookDeliveryEnvelope { data: delivery_view(&d) }))
    }

    /// Put back in the queue here, whatever its status, leased, and attempted once the call's
    /// unit commits, to the webhook's current URL with its current secret (a crash before that
    /// leaves it to the sender).
    async fn webhooks_deliveries_retry(
        call: Call,
        input: wire::WebhooksDeliveriesRetryInput,
    ) -> ApiResult<Reply<WebhookDeliveryEnvelope>> {
        let mut d = load_delivery(&call, &input.id, &input.delivery_id).await?;
        let lease = lease();
        let expected = d.version;
        d.requeue(call.now);
        if !call.store.requeue_webhook_delivery(&d, expected, &lease).await? {
            return Err(ApiError::Conflict(
                "the delivery is being sent at this moment; try again in a minute".into(),
            ));
        }
        let answer = Reply::new(WebhookDeliveryEnvelope { data: delivery_view(&d) });
        attempt_after_commit(&call.app, &call.store, d, lease.owner);
        Ok(answer)
    }
}
