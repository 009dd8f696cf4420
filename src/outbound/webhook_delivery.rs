//! Sending webhook deliveries, the same way for the sender that runs beside the engine and for a
//! person's ping or retry. A delivery row is written with its event (the store's trigger), so
//! nothing here can lose one: each attempt leases the row (several processes on one database
//! never attempt it twice at once), builds the body from the event and the webhook as they are
//! now (its current URL and secret), posts it, and saves what happened, freeing the lease. A
//! crash mid-attempt leaves the row leased, the attempt counted (it is counted before it is
//! sent); once the lease runs out it is attempted again: at least once, with the same
//! `X-Kobana-Delivery-Id` for the receiver to deduplicate on.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

use futures_util::StreamExt;
use serde_json::{Map, Value};
use time::{Duration, OffsetDateTime};
use tokio::sync::Semaphore;

use crate::app::App;
use crate::auth::ServerKey;
use crate::domain::dates::{Offsets, Timestamp, Zone, parse_timestamp};
use crate::domain::webhook::{Attempted, Delivery, SentRequest, Trigger, Webhook};
use crate::providers::{Providers, WebhookPost};
use crate::store::{Lease, Store, StoreResult};
use crate::types as wire;

/// How long an attempt holds its delivery, in real time: well past the 5 s an attempt may take.
pub const LEASE: Duration = Duration::minutes(1);
/// Deliveries read at a time.
const BATCH: i64 = 200;
/// Attempts in flight at once, over all webhooks.
const IN_FLIGHT: usize = 32;
/// Attempts in flight at once to one webhook: the most connections its receiver gets from a
/// sender; a slow receiver holds only these, the others' go on.
pub const PER_WEBHOOK: usize = 8;

/// What a run of the sender did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct SendReport {
    /// Answered 2xx.
    pub delivered: u64,
    /// Failed, another attempt due later.
    pub retrying: u64,
    /// Failed for good (4xx, a refused target, the last attempt).
    pub failed: u64,
}

/// What sending needs.
#[derive(Clone, Copy)]
pub struct Sender<'a> {
    pub store: &'a Store,
    pub providers: &'a Providers,
    pub key: &'a ServerKey,
}

/// The lease this process takes for one attempt.
pub fn lease() -> Lease {
    Lease {
        owner: format!("webhooks:{}", *super::delivery::PROCESS),
        until: OffsetDateTime::now_utc() + LEASE,
    }
}

/// `items` (oldest first) taken one `key` at a time in turn, each key's in their order: the
/// attempts in flight spread over the webhooks rather than fill up with one receiver's.
fn by_turns<T>(items: Vec<T>, key: impl Fn(&T) -> &str) -> Vec<T> {
    let mut queues: Vec<VecDeque<T>> = Vec::new();
    let mut queue_of: HashMap<String, usize> = HashMap::new();
    for item in items {
        let next = queues.len();
        let i = *queue_of.entry(key(&item).to_owned()).or_insert(next);
        if i == next {
            queues.push(VecDeque::new());
        }
        queues[i].push_back(item);
    }
    let mut turns = Vec::new();
    while !queues.is_empty() {
        turns.extend(queues.iter_mut().filter_map(VecDeque::pop_front));
        queues.retain(|queue| !queue.is_empty());
    }
    turns
}

impl Sender<'_> {
    /// Attempts every delivery due at `now` whose lease is free, a few at a time.
    pub async fn send_due(&self, now: OffsetDateTime) -> StoreResult<SendReport> {
        let mut report = SendReport::default();
        loop {
            let due = self.store.due_webhook_deliveries(now, BATCH).await?;
            let full = due.len() as i64 == BATCH;
            let slots: HashMap<String, Arc<Semaphore>> =
                due.iter().map(|d| (d.webhook_id.clone(), Arc::new(Semaphore::new(PER_WEBHOOK)))).collect();
            let outcomes: Vec<StoreResult<Option<Delivery>>> =
                futures_util::stream::iter(by_turns(due, |d| &d.webhook_id))
                    .map(|d| {
                        let slot = slots[&d.webhook_id].clone();
                        async move {
                            let _taken = slot.acquire_owned().await;
                            self.take_and_attempt(d, now).await
                        }
                    })
                    .buffer_unordered(IN_FLIGHT)
                    .collect()
                    .await;
            let mut progressed = false;
            for outcome in outcomes {
                let Some(d) = outcome? else { continue };
                progressed = true;
                match d.status {
                    wire::WebhookDeliveryStatus::Delivered => report.delivered += 1,
                    wire::WebhookDeliveryStatus::Pending => report.retrying += 1,
                    wire::WebhookDeliveryStatus::Failed => report.failed += 1,
                }
            }
            // Each attempt moved its delivery out of the due set (or another sender holds it).
            if !full || !progressed {
                return Ok(report);
            }
        }
    }

    /// Leases `d` and attempts it; `None` when another sender took it first.
    async fn take_and_attempt(&self, mut d: Delivery, now: OffsetDateTime) -> StoreResult<Option<Delivery>> {
        let lease = lease();
        if !self.store.lease_webhook_delivery(&d, &lease).await? {
            return Ok(None);
        }
        d.version += 1;
        self.attempt(d, &lease.owner, Trigger::Schedule, now).await
    }

    /// One attempt of a delivery this process leased (at `d.version`), saved; `None` when the
    /// webhook is gone or the lease was lost meanwhile.
    pub async fn attempt(
        &self,
        mut d: Delivery,
        holder: &str,
        by: Trigger,
        now: OffsetDateTime,
    ) -> StoreResult<Option<Delivery>> {
        let Some(webhook) = self.store.webhook(&d.organization_id, &d.webhook_id).await? else {
            self.store.forget_webhook_delivery(&d.webhook_id, &d.id).await?;
            return Ok(None);
        };
        let first_try = d.attempts == 0;
        let org = self.store.organization(&d.organization_id).await?;
        let offsets =
            Offsets::new(&org.as_ref().map_or_else(Zone::default_zone, |o| o.timezone.clone()), now);
        let body = match self.body(&d, &webhook, first_try, &offsets).await? {
            Ok(body) => body,
            Err(why) => {
                let request =
                    SentRequest { url: webhook.url.clone(), headers: Vec::new(), body: String::new() };
                d.record(request, Attempted::Refused(why), std::time::Duration::ZERO, by, now);
                return self.save(d, holder).await;
            }
        };
        let secret: Option<String> = self.key.open(&webhook.secret_sealed);
        let Some(secret) = secret else {
            // This process has other keys than the one that sealed it (a `--secret-key-file`
            // missing here): no attempt is counted, and a process with the key takes it over
            // once the lease runs out.
            tracing::error!(webhook = %webhook.id, "a webhook's secret cannot be opened with this process's server key");
            return Ok(None);
        };
        // As `Store::is_sandbox`: an organization gone sends nothing real.
        let sandbox = org.is_none_or(|o| o.environment == "sandbox");
        if d.attempts_spent() {
            // The last attempts were cut short (the process died mid-request): they counted.
            d.give_up("the last attempt was interrupted".to_owned(), now);
            return self.save(d, holder).await;
        }
        // Counted before it is sent: an attempt a crash cuts short counts too.
        if !self.store.count_webhook_attempt(&d, holder).await? {
            tracing::warn!(delivery = %d.id, "a webhook delivery's lease ran out before its attempt");
            return Ok(None);
        }
        let uid = d.uid().to_string();
        let exchange = self
            .providers
            .post_webhook(&WebhookPost {
                url: &webhook.url,
                secret: secret.as_bytes(),
                event_code: &d.event_code,
                delivery_uid: &uid,
                sandbox,
                body: body.as_bytes(),
            })
            .await;
        let attempted = match exchange.answer {
            Ok(a) => Attempted::Answered(crate::domain::webhook::Answered {
                status: a.status,
                headers: a.headers,
                body: a.body,
            }),
            Err(e) if e.is_transient() => Attempted::NoAnswer(e.reason().to_owned()),
            Err(e) => Attempted::Refused(e.reason().to_owned()),
        };
        let request = SentRequest { url: webhook.url.clone(), headers: exchange.request_headers, body };
        d.record(request, attempted, exchange.duration, by, now);
        self.save(d, holder).await
    }

    async fn save(&self, d: Delivery, holder: &str) -> StoreResult<Option<Delivery>> {
        let leased = d.version - 1;
        if self.store.save_webhook_attempt(&d, leased, holder).await? {
            Ok(Some(d))
        } else {
            tracing::warn!(delivery = %d.id, "a webhook delivery's lease ran out during its attempt");
            Ok(None)
        }
    }

    /// The JSON body of an attempt: the event's data (`x-event-payloads`) with its code, id and
    /// time and the webhook (Kobana's `{object, changes, event_code, webhook: {id, url,
    /// first_try}}`), or the ping; its instants at the organization's `offsets`, as the API
    /// writes them (the signature is of these bytes). The error says why there is none (the
    /// event is gone).
    async fn body(
        &self,
        d: &Delivery,
        webhook: &Webhook,
        first_try: bool,
        offsets: &Offsets,
    ) -> StoreResult<Result<String, String>> {
        let about = wire::WebhookAbout { id: webhook.id.clone(), url: webhook.url.clone(), first_try };
        let Some(event_id) = &d.event_id else {
            let ping = wire::WebhookPing {
                ping: wire::WebhookPingPing::Pong,
                event_code: wire::WebhookPingEventCode::Ping,
                webhook: about,
            };
            return Ok(serde_json::to_string(&ping).map_err(|e| e.to_string()));
        };
        let Some(event) = self.store.event(&d.organization_id, event_id).await? else {
            return Ok(Err(format!("the event {event_id} is gone")));
        };
        let mut data = match event.data {
            Value::Object(map) => map,
            _ => Map::new(),
        };
        crate::views::event_instants::write_at(&event.code, &mut data, offsets);
        let occurred_at = match parse_timestamp(&event.occurred_at) {
            Ok(at) => offsets.format(at),
            Err(_) => event.occurred_at.clone(),
        };
        let body = EventBody {
            data,
            event_code: &event.code,
            event_id: &event.id,
            occurred_at: &occurred_at,
            webhook: about,
        };
        Ok(serde_json::to_string(&body).map_err(|e| e.to_string()))
    }
}

/// What a delivery of an event sends.
#[derive(serde::Serialize)]
struct EventBody<'a> {
    #[serde(flatten)]
    data: Map<String, Value>,
    event_code: &'a str,
    event_id: &'a str,
    occurred_at: &'a str,
    webhook: wire::WebhookAbout,
}

/// Attempts `d`, which the caller's unit of work leased to `holder`, once the unit commits: a
/// person's ping or retry is answered at once and sent right after.
pub fn attempt_after_commit(app: &Arc<App>, store: &Store, d: Delivery, holder: String) {
    let app = app.clone();
    store.after_commit(async move {
        let sender = Sender { store: &app.store, providers: &app.providers, key: &app.key };
        if let Err(e) = sender.attempt(d, &holder, Trigger::Person, OffsetDateTime::now_utc()).await {
            // Left leased: the sender attempts it again once the lease runs out.
            tracing::warn!(error = %e, "a webhook delivery could not be attempted");
        }
    });
}

/// The public view of a delivery.
pub fn delivery_view(d: &Delivery) -> wire::WebhookDelivery {
    let headers = |pairs: &[(String, String)]| pairs.iter().cloned().collect();
    wire::WebhookDelivery {
        id: d.id.clone(),
        uid: d.uid().to_string(),
        webhook_id: d.webhook_id.clone(),
        event_id: d.event_id.clone(),
        event_code: d.event_code.clone(),
        status: d.status,
        attempts: d.attempts,
        next_attempt_at: d.next_attempt_at.map(Timestamp),
        request: d.request.as_ref().map(|r| wire::WebhookRequest {
            url: r.url.clone(),
            headers: headers(&r.headers),
            body: r.body.clone(),
        }),
        response: d.response.as_ref().map(|r| wire::WebhookResponse {
            status: i64::from(r.status),
            headers: headers(&r.headers),
            body: r.body.clone(),
        }),
        error: d.error.clone(),
        duration_ms: d.duration_ms,
        first_try_at: d.first_try_at.map(Timestamp),
        delivered_at: d.delivered_at.map(Timestamp),
        failed_at: d.failed_at.map(Timestamp),
        created_at: Timestamp(d.created_at),
        updated_at: Timestamp(d.updated_at),
    }
}

#[cfg(test)]
mod tests {
    use super::by_turns;

    #[test]
    fn each_webhook_takes_its_turn_in_its_own_order() {
        let due = vec!["a1", "a2", "a3", "b1", "a4", "c1", "b2"];
        let turns = by_turns(due, |d: &&str| &d[..1]);
        assert_eq!(turns, ["a1", "b1", "c1", "a2", "b2", "a3", "a4"]);
        assert!(by_turns(Vec::<&str>::new(), |d| d).is_empty());
    }
}
