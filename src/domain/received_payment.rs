//! A payment heard of (a Kobana webhook delivery, a row of an imported bank file): what it
//! says, and whether it settled its charge. It is kept once per source and reference, so a
//! delivery or a file read twice settles nothing twice; one that matches no charge, or does not
//! fit it, waits for a person to assign it.

use time::OffsetDateTime;

use super::charge::Charge;
use super::ids::new_id;
use super::money::{Hundredths, format_brl};
use super::rules::RuleError;
use crate::types::{ChargeStatus, PaymentSource, PaymentStatus};

/// What a payment says of itself.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PaymentFacts {
    /// The charge's `external_id`, when the payer's system gave it.
    pub external_id: Option<String>,
    /// The boleto's digitable line (47 digits), when paid by boleto.
    pub line: Option<String>,
    /// The Pix reference, when paid by Pix.
    pub txid: Option<String>,
    /// The amount paid.
    pub amount: Hundredths,
}

/// One payment heard of.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReceivedPayment {
    pub id: String,
    pub organization_id: String,
    pub source: PaymentSource,
    /// What makes it the same payment when heard again: a delivery id, an imported row's key.
    pub reference: String,
    pub facts: PaymentFacts,
    pub paid_at: OffsetDateTime,
    pub status: PaymentStatus,
    /// Why it is unmatched.
    pub reason: Option<String>,
    /// The charge it settled.
    pub charge_id: Option<String>,
    pub created_at: OffsetDateTime,
    /// When it settled its charge.
    pub resolved_at: Option<OffsetDateTime>,
}

impl ReceivedPayment {
    /// A payment just heard of, not yet matched.
    pub fn heard(
        organization_id: &str,
        source: PaymentSource,
        reference: String,
        facts: PaymentFacts,
        paid_at: OffsetDateTime,
        now: OffsetDateTime,
    ) -> Self {
        Self {
            id: new_id("pay"),
            organization_id: organization_id.to_string(),
            source,
            reference,
            facts,
            paid_at,
            status: PaymentStatus::Unmatched,
            reason: None,
            charge_id: None,
            created_at: now,
            resolved_at: None,
        }
    }

    /// It settled `charge_id`.
    pub fn matched(&mut self, charge_id: &str, now: OffsetDateTime) {
        self.status = PaymentStatus::Matched;
        self.reason = None;
        self.charge_id = Some(charge_id.to_string());
        self.resolved_at = Some(now);
    }

    /// It settled nothing, for `reason`; `charge_id` is the charge it named, if any.
    pub fn unmatched(&mut self, reason: String, charge_id: Option<&str>) {
        self.status = PaymentStatus::Unmatched;
        self.reason = Some(reason);
        self.charge_id = charge_id.map(str::to_string);
    }

    /// Why it cannot settle `charge` by itself (a person must decide): the charge is closed, or
    /// the payment is more than its balance.
    pub fn why_not_settle(&self, charge: &Charge) -> Option<String> {
        let (balance, amount) = (charge.balance(), self.facts.amount);
        match charge.status {
            ChargeStatus::Paid => Some("the charge is already paid".into()),
            ChargeStatus::Canceled | ChargeStatus::WrittenOff => {
                Some(format!("the charge is {}", charge.status.as_str().replace('_', " ")))
            }
            _ if amount.0 > balance.0 => Some(format!(
                "{} is more than the charge's balance of {}",
                format_brl(amount.0),
                format_brl(balance.0)
            )),
            _ => None,
        }
    }

    /// A person settled `charge_id` with it: only an unmatched payment can be assigned.
    pub fn assign(&mut self, charge_id: &str, now: OffsetDateTime) -> Result<(), RuleError> {
        if self.status != PaymentStatus::Unmatched {
            return Err(RuleError::InvalidState {
                message: format!("The payment is {}: it already settled its charge.", self.status.as_str()),
                status: self.status.as_str(),
                allowed: vec![PaymentStatus::Unmatched.as_str()],
            });
        }
        self.status = PaymentStatus::Assigned;
        self.reason = None;
        self.charge_id = Some(charge_id.to_string());
        self.resolved_at = Some(now);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn payment() -> ReceivedPayment {
        let now = OffsetDateTime::now_utc();
        let facts = PaymentFacts { amount: Hundredths(12_550), ..PaymentFacts::default() };
        ReceivedPayment::heard("org_1", PaymentSource::Kobana, "d1".into(), facts, now, now)
    }

    #[test]
    fn only_an_unmatched_payment_is_assigned() {
        let now = OffsetDateTime::now_utc();
        let mut p = payment();
        p.unmatched("no charge".into(), None);
        p.assign("chg_1", now).unwrap();
        assert_eq!(
            (p.status, p.charge_id.as_deref(), p.reason.as_deref()),
            (PaymentStatus::Assigned, Some("chg_1"), None)
        );
        assert!(matches!(p.assign("chg_2", now), Err(RuleError::InvalidState { .. })));
        let mut matched = payment();
        matched.matched("chg_1", now);
        assert!(matched.assign("chg_2", now).is_err());
    }
}
