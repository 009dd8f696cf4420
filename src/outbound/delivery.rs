//! Sending a notification, the same way for a person's request and for the engine. Recording it
//! is part of the caller's unit of work (with the charge's change and the events): a message
//! the outbox takes is recorded delivered at once, since no one outside has to be called; one
//! for an outside provider is recorded queued and leased to this sender, and handed to the
//! provider after the unit commits, with its id as the idempotency key (the gateway's
//! `Idempotency-Key` and `X-Kobana-Notification-Id`, the e-mail's `Message-ID`), and what the provider said saved with its event by the
//! lease's holder. A crash between the provider and the save leaves it queued, leased; once the
//! lease runs out the engine sends it again: at least once, never lost. A queued one whose
//! attempt is due is taken over the same way.

use time::{Duration, OffsetDateTime};

use crate::domain::dates::format_timestamp;
use crate::domain::ids::new_id;
use crate::domain::notification::{Attempt, Notification};
use crate::providers::{Outgoing, ProviderError, Providers, Sent};
use crate::store::{Lease, NewEvent, Store, StoreResult};
use crate::types as wire;
use crate::views::event_data::{ObjectPayload, Payload, to_data};
use crate::views::notification::notification_view;

/// How long whoever inserts or takes over a notification holds it, in real time: well past the
/// longest provider call (the gateway gives up after 10 s, SMTP after 120 s in all).
pub const LEASE: Duration = Duration::minutes(5);

/// This process, among the senders that may share a database: a lease names its holder.
pub(crate) static PROCESS: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| new_id("proc"));

/// Who acts, for the events.
#[derive(Debug, Clone)]
pub struct Actor {
    pub kind: String,
    pub id: String,
    pub request_id: Option<String>,
}

impl Actor {
    /// The engine.
    pub fn engine() -> Self {
        Self { kind: "system".into(), id: "engine".into(), request_id: None }
    }

    /// An event of this actor about a notification.
    pub fn event(
        &self,
        code: &str,
        before: Option<&Notification>,
        after: &Notification,
        at: OffsetDateTime,
    ) -> NewEvent {
        let data =
            wire::NotificationEventData::of(before.map(notification_view).as_ref(), notification_view(after));
        NewEvent {
            id: new_id("evt"),
            organization_id: after.organization_id.clone(),
            code: code.to_string(),
            resource_type: <wire::NotificationEventData as Payload>::RESOURCE,
            resource_id: after.id.clone(),
            actor_type: self.kind.clone(),
            actor_id: self.id.clone(),
            data: to_data(&data),
            request_id: self.request_id.clone(),
            occurred_at: format_timestamp(at),
        }
    }
}

/// What sending needs.
pub struct Courier<'a> {
    pub store: &'a Store,
    pub providers: &'a Providers,
    pub actor: Actor,
}

/// A notification recorded by [`Courier::record`], and what is left to do with it.
pub enum Recorded {
    /// Nothing: it was delivered to the outbox or skipped as it was recorded.
    Done(Notification),
    /// It waits, queued and leased, for [`Courier::deliver`] once the record commits.
    Deliver(Pending),
}

impl Recorded {
    /// The notification as recorded.
    pub fn notification(&self) -> &Notification {
        match self {
            Recorded::Done(n) => n,
            Recorded::Deliver(pending) => &pending.n,
        }
    }
}

/// A recorded notification that an outside provider still has to take.
pub struct Pending {
    n: Notification,
    lease: Lease,
    sandbox: bool,
}

impl Courier<'_> {
    /// Records a new notification (with `extra` events), in the store's unit of work when it
    /// has one. `None` when its (charge, step) pair already had one.
    pub async fn record(
        &self,
        n: Notification,
        sandbox: bool,
        extra: Vec<NewEvent>,
        now: OffsetDateTime,
    ) -> StoreResult<Option<Recorded>> {
        let mut events = vec![self.actor.event("notification.db.created", None, &n, now)];
        let local = if n.is_pending() { self.providers.local(sandbox, &outgoing(&n)) } else { None };
        let (recorded, lease) = match local {
            Some(result) => {
                let after = attempted(&n, result, now);
                events.push(self.actor.event(attempt_code(&after), Some(&n), &after, now));
                (Recorded::Done(after), None)
            }
            None if n.is_pending() => {
                let lease = self.lease();
                (Recorded::Deliver(Pending { n: n.clone(), lease: lease.clone(), sandbox }), Some(lease))
            }
            None => (Recorded::Done(n.clone()), None),
        };
        events.extend(extra);
        let inserted =
            self.store.insert_notification(recorded.notification(), lease.as_ref(), &events).await?;
        Ok(inserted.then_some(recorded))
    }

    /// Hands a recorded notification to its provider (after its record committed).
    pub async fn deliver(&self, pending: Pending, now: OffsetDateTime) -> StoreResult<Notification> {
        let Pending { n, lease, sandbox } = pending;
        self.send(n, &lease, sandbox, now).await
    }

    /// Takes over a queued notification whose attempt is due and sends it; `None` when someone
    /// else holds it.
    pub async fn retry(
        &self,
        mut n: Notification,
        sandbox: bool,
        now: OffsetDateTime,
    ) -> StoreResult<Option<Notification>> {
        let lease = self.lease();
        if !self.store.lease_notification(&n.id, n.version, &lease, now).await? {
            return Ok(None);
        }
        n.version += 1;
        self.send(n, &lease, sandbox, now).await.map(Some)
    }

    fn lease(&self) -> Lease {
        Lease {
            owner: format!("{}:{}:{}", self.actor.kind, self.actor.id, *PROCESS),
            until: OffsetDateTime::now_utc() + LEASE,
        }
    }

    /// One attempt with the provider, saved with its outcome by the lease's holder.
    async fn send(
        &self,
        before: Notification,
        lease: &Lease,
        sandbox: bool,
        now: OffsetDateTime,
    ) -> StoreResult<Notification> {
        let result = self.providers.deliver(sandbox, &outgoing(&before)).await;
        let after = attempted(&before, result, now);
        let event = self.actor.event(attempt_code(&after), Some(&before), &after, now);
        // Not saved only when the lease ran out mid-call and another sender took over: that
        // sender's attempt is the one recorded.
        if !self.store.save_delivery(&after, before.version, &lease.owner, &[event]).await? {
            return Ok(before);
        }
        Ok(after)
    }
}

/// The message a provider gets.
fn outgoing(n: &Notification) -> Outgoing<'_> {
    Outgoing {
        id: &n.id,
        organization_id: &n.organization_id,
        charge_id: &n.charge_id,
        channel: n.channel,
        to: n.to.as_deref().unwrap_or_default(),
        subject: n.subject.as_deref(),
        body: &n.body,
    }
}

/// `before` after a provider's answer.
fn attempted(
    before: &Notification,
    result: Result<Sent, ProviderError>,
    now: OffsetDateTime,
) -> Notification {
    let attempt = match result {
        Ok(sent) => Attempt::Sent {
            provider: sent.provider.to_string(),
            provider_message_id: sent.provider_message_id,
        },
        Err(ProviderError::Transient(reason)) => Attempt::Failed { reason, permanent: false },
        Err(ProviderError::Permanent(reason)) => Attempt::Failed { reason, permanent: true },
    };
    let mut after = before.clone();
    after.record(attempt, now);
    after
}

/// The event of an attempt's outcome.
fn attempt_code(after: &Notification) -> &'static str {
    match after.status {
        crate::types::NotificationStatus::Sent => "notification.sent",
        crate::types::NotificationStatus::Failed => "notification.failed",
        _ => "notification.retry_scheduled",
    }
}
