//! A payment receiver: where an organization's Kobana webhook delivers payments. Receivers are
//! kept, not replaced in place: a new one retires the active one after [`GRACE`], so payments on
//! their way to the old URL are still heard; a revoked one stops at once.

use time::{Duration, OffsetDateTime};

use super::rules::RuleError;
use crate::types::{ActorType, PaymentReceiverStatus as ReceiverStatus};

/// How long a replaced receiver keeps taking deliveries.
pub const GRACE: Duration = Duration::hours(24);

/// The prefix of a receiver's URL token (stored, like access tokens, only as its hash).
pub const RECEIVER_PREFIX: &str = "kd_rcv_";

/// A receiver, without its URL (only its hash is kept) and with its secret sealed.
#[derive(Debug, Clone)]
pub struct PaymentReceiver {
    /// `rcv_…`.
    pub id: String,
    /// The organization whose payments it hears.
    pub organization_id: String,
    /// The webhook's secret, sealed with the server key.
    pub secret_sealed: String,
    /// When it was registered.
    pub created_at: OffsetDateTime,
    /// Who registered it, and their id.
    pub created_by: (ActorType, String),
    /// When a replaced receiver stops.
    pub retires_at: Option<OffsetDateTime>,
    /// When it was revoked.
    pub revoked_at: Option<OffsetDateTime>,
    /// When it last took a signed delivery (kept by the receiver, not a change of its own).
    pub last_delivery_at: Option<OffsetDateTime>,
    /// Bumped by every change.
    pub version: i64,
    /// The last change.
    pub updated_at: OffsetDateTime,
}

impl PaymentReceiver {
    /// Its status at `now`.
    pub fn status(&self, now: OffsetDateTime) -> ReceiverStatus {
        match (self.revoked_at, self.retires_at) {
            (Some(_), _) => ReceiverStatus::Revoked,
            (None, Some(at)) if at > now => ReceiverStatus::Retiring,
            (None, Some(_)) => ReceiverStatus::Expired,
            (None, None) => ReceiverStatus::Active,
        }
    }

    /// Whether a delivery that arrives at `now` is heard.
    pub fn takes_deliveries(&self, now: OffsetDateTime) -> bool {
        matches!(self.status(now), ReceiverStatus::Active | ReceiverStatus::Retiring)
    }

    /// Stops it at `now`; a revoked receiver stays as it was (revoking is idempotent), an expired
    /// one cannot be revoked (nothing would change).
    pub fn revoke(&mut self, now: OffsetDateTime) -> Result<bool, RuleError> {
        match self.status(now) {
            ReceiverStatus::Revoked => Ok(false),
            ReceiverStatus::Expired => Err(RuleError::InvalidState {
                message: "an expired receiver takes no deliveries: there is nothing to revoke".into(),
                status: "expired",
                allowed: vec!["active", "retiring"],
            }),
            ReceiverStatus::Active | ReceiverStatus::Retiring => {
                self.revoked_at = Some(now);
                self.version += 1;
                self.updated_at = now;
                Ok(true)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use time::macros::datetime;

    use super::*;

    fn receiver() -> PaymentReceiver {
        let at = datetime!(2026-12-01 12:00 UTC);
        PaymentReceiver {
            id: "rcv_1".into(),
            organization_id: "org_1".into(),
            secret_sealed: String::new(),
            created_at: at,
            created_by: (ActorType::User, "usr_1".into()),
            retires_at: None,
            revoked_at: None,
            last_delivery_at: None,
            version: 1,
            updated_at: at,
        }
    }

    #[test]
    fn a_replaced_receiver_hears_payments_until_its_grace_ends() {
        let now = datetime!(2026-12-02 12:00 UTC);
        let mut r = receiver();
        assert_eq!(r.status(now), ReceiverStatus::Active);
        r.retires_at = Some(now + GRACE);
        assert_eq!(r.status(now), ReceiverStatus::Retiring);
        assert!(r.takes_deliveries(now + GRACE - Duration::seconds(1)));
        assert!(!r.takes_deliveries(now + GRACE));
        assert_eq!(r.status(now + GRACE), ReceiverStatus::Expired);
    }

    #[test]
    fn revoking_stops_at_once_and_twice_changes_nothing() {
        let now = datetime!(2026-12-02 12:00 UTC);
        let mut r = receiver();
        assert_eq!(r.revoke(now), Ok(true));
        assert!(!r.takes_deliveries(now));
        assert_eq!((r.version, r.status(now)), (2, ReceiverStatus::Revoked));
        assert_eq!(r.revoke(now), Ok(false));
        assert_eq!(r.version, 2);
        let mut expired = receiver();
        expired.retires_at = Some(now - Duration::seconds(1));
        assert!(expired.revoke(now).is_err());
    }
}
