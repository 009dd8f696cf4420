//! Webhooks and their deliveries. A webhook names an https URL and the event codes it takes;
//! every event with one of those codes, written while the webhook is active, becomes a delivery
//! (the store writes it with the event). A delivery is attempted until the receiver answers 2xx,
//! retried with growing intervals on 5xx, timeouts and connection or TLS errors up to
//! [`MAX_ATTEMPTS`], and given up at once on any other answer (Kobana's protocol: no retry on
//! 4xx, no redirect followed) or a refused target.

use sha2::{Digest, Sha256};
use time::{Duration, OffsetDateTime};

use crate::types::{WebhookDeliveryStatus, WebhookEventCode};

/// The event code of a test ping.
pub const PING: &str = "ping";

/// Attempts the server makes of one delivery.
pub const MAX_ATTEMPTS: i64 = 7;

/// The wait after each failed attempt, the n-th after the n-th: 9 h 6 min from the first
/// attempt to the seventh, Kobana's "about 9 h".
const BACKOFF: [Duration; 6] = [
    Duration::minutes(1),
    Duration::minutes(5),
    Duration::minutes(15),
    Duration::minutes(45),
    Duration::hours(2),
    Duration::hours(6),
];

/// Where an organization's events go.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Webhook {
    /// `whk_…`
    pub id: String,
    pub organization_id: String,
    pub name: Option<String>,
    pub url: String,
    /// The codes it takes, in the order given, without repeats.
    pub events: Vec<WebhookEventCode>,
    pub active: bool,
    /// The signing secret, sealed with the server key.
    pub secret_sealed: String,
    pub version: i64,
    pub created_at: OffsetDateTime,
    pub updated_at: OffsetDateTime,
}

/// The fields a change may set; `None` keeps the field.
#[derive(Debug, Default)]
pub struct WebhookChange {
    pub url: Option<String>,
    pub events: Option<Vec<WebhookEventCode>>,
    /// `Some(None)` removes the name.
    pub name: Option<Option<String>>,
    pub active: Option<bool>,
}

impl Webhook {
    /// Applies `change`; whether anything changed (the version moves only then).
    pub fn change(&mut self, change: WebhookChange, now: OffsetDateTime) -> bool {
        let before = self.clone();
        if let Some(url) = change.url {
            self.url = url;
        }
        if let Some(events) = change.events {
            self.events = distinct(events);
        }
        if let Some(name) = change.name {
            self.name = name;
        }
        if let Some(active) = change.active {
            self.active = active;
        }
        let changed = *self != before;
        if changed {
            self.touch(now);
        }
        changed
    }

    /// A new signing secret (sealed).
    pub fn rotate(&mut self, secret_sealed: String, now: OffsetDateTime) {
        self.secret_sealed = secret_sealed;
        self.touch(now);
    }

    fn touch(&mut self, now: OffsetDateTime) {
        self.version += 1;
        self.updated_at = now.max(self.updated_at);
    }
}

/// The codes in their first order, each once.
pub fn distinct(codes: Vec<WebhookEventCode>) -> Vec<WebhookEventCode> {
    let mut out: Vec<WebhookEventCode> = Vec::with_capacity(codes.len());
    for code in codes {
        if !out.contains(&code) {
            out.push(code);
        }
    }
    out
}

/// The request of an attempt, as sent.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SentRequest {
    pub url: String,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

/// The answer to an attempt.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Answered {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

/// What an attempt gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Attempted {
    /// The receiver answered, whatever the status.
    Answered(Answered),
    /// No answer: no connection, a TLS error, none in time (worth another attempt).
    NoAnswer(String),
    /// Not sent: the URL, or the address its host resolves to, is refused.
    Refused(String),
}

/// One event sent (or to send) to one webhook.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Delivery {
    pub webhook_id: String,
    /// `dlv_…`: the hex of its event's id, or a new one for a ping.
    pub id: String,
    pub organization_id: String,
    /// `None` for a ping.
    pub event_id: Option<String>,
    pub event_code: String,
    pub status: WebhookDeliveryStatus,
    pub attempts: i64,
    pub next_attempt_at: Option<OffsetDateTime>,
    pub request: Option<SentRequest>,
    pub response: Option<Answered>,
    pub error: Option<String>,
    pub duration_ms: Option<i64>,
    pub first_try_at: Option<OffsetDateTime>,
    pub delivered_at: Option<OffsetDateTime>,
    pub failed_at: Option<OffsetDateTime>,
    pub version: i64,
    pub created_at: OffsetDateTime,
    pub updated_at: OffsetDateTime,
}

/// Who asked for an attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Trigger {
    /// The sender, because it is due.
    Schedule,
    /// A person (`webhooks_deliveries_retry`).
    Person,
}

impl Delivery {
    /// A test ping of `webhook`, about to be attempted.
    pub fn ping(webhook: &Webhook, id: String, now: OffsetDateTime) -> Self {
        Delivery {
            webhook_id: webhook.id.clone(),
            id,
            organization_id: webhook.organization_id.clone(),
            event_id: None,
            event_code: PING.to_owned(),
            status: WebhookDeliveryStatus::Pending,
            attempts: 0,
            next_attempt_at: Some(now),
            request: None,
            response: None,
            error: None,
            duration_ms: None,
            first_try_at: None,
            delivered_at: None,
            failed_at: None,
            version: 1,
            created_at: now,
            updated_at: now,
        }
    }

    /// A person asks for it again, whatever its status: it is due now, and attempted like any
    /// pending delivery (a crash before the attempt leaves it for the sender).
    pub fn requeue(&mut self, now: OffsetDateTime) {
        self.status = WebhookDeliveryStatus::Pending;
        self.next_attempt_at = Some(now);
        self.failed_at = None;
        self.bump(now);
    }

    pub fn is_ping(&self) -> bool {
        self.event_id.is_none()
    }

    /// `X-Kobana-Delivery-Id`: a UUID from the webhook's and the delivery's ids, so every
    /// attempt carries the same one and two webhooks never share one.
    pub fn uid(&self) -> uuid::Uuid {
        let digest = Sha256::digest(format!("{}:{}", self.webhook_id, self.id).as_bytes());
        let mut bytes = [0u8; 16];
        bytes.copy_from_slice(&digest[..16]);
        uuid::Builder::from_custom_bytes(bytes).into_uuid()
    }

    /// Records what an attempt gave, and what comes next: delivered on 2xx; another attempt
    /// after the backoff on 5xx, no answer or a connection or TLS error while attempts remain
    /// (never for a ping, nor for a person's retry of a delivery that had settled); failed
    /// otherwise.
    pub fn record(
        &mut self,
        request: SentRequest,
        attempted: Attempted,
        duration: std::time::Duration,
        by: Trigger,
        now: OffsetDateTime,
    ) {
        let was_pending = self.status == WebhookDeliveryStatus::Pending;
        self.attempts += 1;
        self.first_try_at.get_or_insert(now);
        self.request = Some(request);
        self.duration_ms = Some(i64::try_from(duration.as_millis()).unwrap_or(i64::MAX));
        let retry = match attempted {
            Attempted::Answered(answer) => {
                let status = answer.status;
                self.response = Some(answer);
                if (200..300).contains(&status) {
                    self.error = None;
                    self.settle(WebhookDeliveryStatus::Delivered, now);
                    return;
                }
                self.error = Some(match status {
                    300..=399 => format!("the receiver answered {status}; redirects are not followed"),
                    _ => format!("the receiver answered {status}"),
                });
                (500..600).contains(&status)
            }
            Attempted::NoAnswer(reason) => {
                self.response = None;
                self.error = Some(reason);
                true
            }
            Attempted::Refused(reason) => {
                self.response = None;
                self.error = Some(reason);
                false
            }
        };
        let may_retry = retry && !self.is_ping() && (by == Trigger::Schedule || was_pending);
        match BACKOFF.get(usize::try_from(self.attempts - 1).unwrap_or(usize::MAX)) {
            Some(wait) if may_retry && self.attempts < MAX_ATTEMPTS => {
                self.status = WebhookDeliveryStatus::Pending;
                self.next_attempt_at = Some(now + *wait);
                self.failed_at = None;
                self.bump(now);
            }
            _ => self.settle(WebhookDeliveryStatus::Failed, now),
        }
    }

    /// Whether every attempt was already made (counted before sending, so including ones cut
    /// short by a crash): nothing more is sent.
    pub fn attempts_spent(&self) -> bool {
        self.attempts >= MAX_ATTEMPTS
    }

    /// Ends a delivery whose attempts are spent without another one.
    pub fn give_up(&mut self, reason: String, now: OffsetDateTime) {
        self.response = None;
        self.error = Some(reason);
        self.settle(WebhookDeliveryStatus::Failed, now);
    }

    fn settle(&mut self, status: WebhookDeliveryStatus, now: OffsetDateTime) {
        self.status = status;
        self.next_attempt_at = None;
        match status {
            WebhookDeliveryStatus::Delivered => {
                self.delivered_at = Some(now);
                self.failed_at = None;
            }
            _ => self.failed_at = Some(now),
        }
        self.bump(now);
    }

    fn bump(&mut self, now: OffsetDateTime) {
        self.version += 1;
        self.updated_at = now.max(self.updated_at);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    const QUICK: std::time::Duration = std::time::Duration::from_millis(12);

    fn delivery() -> Delivery {
        let now = datetime!(2027-01-04 12:00 UTC);
        let mut d = Delivery::ping(&webhook(), "dlv_1".into(), now);
        d.event_id = Some("evt_1".into());
        d.event_code = "charge.paid".into();
        d
    }

    fn webhook() -> Webhook {
        let now = datetime!(2027-01-04 12:00 UTC);
        Webhook {
            id: "whk_1".into(),
            organization_id: "org_1".into(),
            name: None,
            url: "https://erp.example.com/hook".into(),
            events: vec![WebhookEventCode::ChargePaid],
            active: true,
            secret_sealed: "sealed".into(),
            version: 1,
            created_at: now,
            updated_at: now,
        }
    }

    fn request() -> SentRequest {
        SentRequest { url: "https://erp.example.com/hook".into(), headers: vec![], body: "{}".into() }
    }

    fn answered(status: u16) -> Attempted {
        Attempted::Answered(Answered { status, headers: vec![], body: String::new() })
    }

    fn broken() -> Attempted {
        Attempted::NoAnswer("webhook: no answer within 5 s".into())
    }

    #[test]
    fn failures_are_retried_with_growing_waits_up_to_seven_attempts() {
        let mut d = delivery();
        let mut now = datetime!(2027-01-04 12:00 UTC);
        let mut waits = Vec::new();
        for attempt in 1..=MAX_ATTEMPTS {
            let attempted = if attempt % 2 == 0 { broken() } else { answered(503) };
            d.record(request(), attempted, QUICK, Trigger::Schedule, now);
            assert_eq!(d.attempts, attempt);
            match d.next_attempt_at {
                Some(next) => {
                    waits.push(next - now);
                    now = next;
                }
                None => break,
            }
        }
        assert_eq!(d.status, WebhookDeliveryStatus::Failed);
        assert_eq!(d.attempts, MAX_ATTEMPTS);
        assert!(waits.windows(2).all(|w| w[0] < w[1]), "{waits:?}");
        let total: Duration = waits.iter().copied().sum();
        assert!(total > Duration::hours(8) && total < Duration::hours(10), "{total}");
    }

    #[test]
    fn a_4xx_a_redirect_or_a_refused_target_fails_at_once_and_2xx_delivers() {
        let now = datetime!(2027-01-04 12:00 UTC);
        for attempted in [answered(400), answered(404), answered(429), answered(301)] {
            let mut d = delivery();
            d.record(request(), attempted, QUICK, Trigger::Schedule, now);
            assert_eq!((d.status, d.attempts, d.next_attempt_at), (WebhookDeliveryStatus::Failed, 1, None));
        }
        let mut d = delivery();
        let refused = Attempted::Refused("webhook: 10.0.0.1 is a private address".into());
        d.record(request(), refused, QUICK, Trigger::Schedule, now);
        assert_eq!(d.status, WebhookDeliveryStatus::Failed);
        let mut d = delivery();
        d.record(request(), answered(204), QUICK, Trigger::Schedule, now);
        assert_eq!((d.status, d.delivered_at), (WebhookDeliveryStatus::Delivered, Some(now)));
    }

    #[test]
    fn pings_and_retries_by_hand_of_settled_deliveries_are_not_retried() {
        let now = datetime!(2027-01-04 12:00 UTC);
        let mut ping = Delivery::ping(&webhook(), "dlv_2".into(), now);
        ping.record(request(), answered(500), QUICK, Trigger::Person, now);
        assert_eq!(ping.status, WebhookDeliveryStatus::Failed);
        let mut d = delivery();
        d.record(request(), answered(400), QUICK, Trigger::Schedule, now);
        d.record(request(), answered(500), QUICK, Trigger::Person, now);
        assert_eq!((d.status, d.attempts), (WebhookDeliveryStatus::Failed, 2));
        d.record(request(), answered(200), QUICK, Trigger::Person, now);
        assert_eq!((d.status, d.failed_at), (WebhookDeliveryStatus::Delivered, None));
    }

    #[test]
    fn the_delivery_id_header_is_stable_and_differs_between_webhooks() {
        let d = delivery();
        assert_eq!(d.uid(), d.clone().uid());
        let mut other = d.clone();
        other.webhook_id = "whk_2".into();
        assert_ne!(d.uid(), other.uid());
    }

    #[test]
    fn a_change_moves_the_version_only_when_something_changed() {
        let mut w = webhook();
        let later = datetime!(2027-01-05 12:00 UTC);
        assert!(!w.change(WebhookChange { active: Some(true), ..Default::default() }, later));
        assert_eq!(w.version, 1);
        let events =
            vec![WebhookEventCode::ChargePaid, WebhookEventCode::ChargeOverdue, WebhookEventCode::ChargePaid];
        assert!(w.change(WebhookChange { events: Some(events), ..Default::default() }, later));
        assert_eq!(w.events, [WebhookEventCode::ChargePaid, WebhookEventCode::ChargeOverdue]);
        assert_eq!((w.version, w.updated_at), (2, later));
    }
}
