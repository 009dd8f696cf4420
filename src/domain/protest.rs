//! A protest of an overdue charge at a notary (protesto em cartório, Lei 9.492/1997), and its
//! life: `requested → sent` (apontado) `→ intimated`; from there `paid` at the notary,
//! `protested` when the 3 days after the intimação pass, or `withdrawn` (the creditor's
//! desistência); `protested → cancellation_requested → canceled` (carta de anuência); and
//! `requested|sent → rejected` when the notary refuses the title.
//!
//! A protest needs the debtor's CPF or CNPJ and full address, and a title backed by a debt
//! document (a boleto alone is not protestable): its type and number.

use time::{Date, OffsetDateTime};

use super::calendar;
use super::charge::{Charge, Ending, Outcome};
use super::debtor::Debtor;
use super::ids::new_id;
use super::money::Hundredths;
use super::rules::RuleError;
use crate::types::{ProtestStatus as Status, ProtestTitleType as TitleType};

/// Business days the notary takes to take the title in (apontamento) after a request (sandbox).
pub const SANDBOX_SEND_DAYS: u32 = 1;
/// Business days from the apontamento to the intimação (sandbox).
pub const SANDBOX_INTIMATION_DAYS: u32 = 1;
/// Business days the debtor has after the intimação before the protest is drawn (Lei 9.492
/// art. 12).
pub const PAYMENT_DAYS: u32 = 3;
/// Business days the notary takes to cancel a protest once the anuência arrives (sandbox).
pub const SANDBOX_CANCELLATION_DAYS: u32 = 2;

/// The statuses of a protest under way or standing: a second one for the same charge is refused.
pub const LIVE: &[Status] =
    &[Status::Requested, Status::Sent, Status::Intimated, Status::Protested, Status::CancellationRequested];

/// The notary that takes the title: the protest office of the debtor's city.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notary {
    pub name: String,
    pub city: String,
    pub state: String,
}

/// One protest of one charge.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Protest {
    pub id: String,
    pub organization_id: String,
    pub charge_id: String,
    pub debtor_id: String,
    /// The debtor's name and the charge's description, as they are now: read with the row (the
    /// store joins them), never stored on it, so that a list names what it shows.
    pub debtor_name: String,
    pub charge_description: Option<String>,
    pub status: Status,
    /// The charge's balance when the title was sent.
    pub amount: Hundredths,
    pub title_type: TitleType,
    /// The number of the debt document behind the title.
    pub document_number: String,
    pub notary: Notary,
    /// The notary's protocol, once the title is taken in.
    pub protocol_number: Option<String>,
    pub requested_at: OffsetDateTime,
    pub sent_at: Option<OffsetDateTime>,
    pub intimated_at: Option<OffsetDateTime>,
    pub protested_at: Option<OffsetDateTime>,
    pub paid_at: Option<OffsetDateTime>,
    pub withdrawn_at: Option<OffsetDateTime>,
    pub cancellation_requested_at: Option<OffsetDateTime>,
    pub canceled_at: Option<OffsetDateTime>,
    /// What the notary charges, once known (paid by the debtor, or by the creditor who withdraws).
    pub costs_amount: Option<Hundredths>,
    pub failure_reason: Option<String>,
    /// The last status the notary was told of or told us (production, through the gateway).
    pub submitted_status: Option<Status>,
    pub version: i64,
    pub created_at: OffsetDateTime,
    pub updated_at: OffsetDateTime,
}

impl Protest {
    /// A protest of `charge` (overdue, its own: not an agreement's installment) on the title
    /// `title_type` number `document_number`.
    pub fn file(
        charge: &Charge,
        debtor: &Debtor,
        title_type: TitleType,
        document_number: String,
        now: OffsetDateTime,
    ) -> Result<Self, RuleError> {
        charge.check_escalation("protested")?;
        let Some(address) = &debtor.address else {
            return Err(RuleError::InvalidState {
                message: "A protest needs the debtor's full address: add it to the debtor first.".into(),
                status: "address_missing",
                allowed: vec!["address_complete"],
            });
        };
        Ok(Self {
            id: new_id("prt"),
            organization_id: charge.organization_id.clone(),
            charge_id: charge.id.clone(),
            debtor_id: charge.debtor_id.clone(),
            debtor_name: debtor.name.clone(),
            charge_description: charge.description.clone(),
            status: Status::Requested,
            amount: charge.balance(),
            title_type,
            document_number,
            notary: Notary {
                name: format!("Tabelionato de Protesto de {}", address.city),
                city: address.city.clone(),
                state: address.state.as_str().to_string(),
            },
            protocol_number: None,
            requested_at: now,
            sent_at: None,
            intimated_at: None,
            protested_at: None,
            paid_at: None,
            withdrawn_at: None,
            cancellation_requested_at: None,
            canceled_at: None,
            costs_amount: None,
            failure_reason: None,
            submitted_status: None,
            version: 1,
            created_at: now,
            updated_at: now,
        })
    }

    /// The creditor takes the protest back: a title not yet protested is withdrawn (desistência),
    /// a protested one gets its cancellation requested (carta de anuência). One already on its
    /// way out is unchanged; a paid or rejected one cannot be canceled.
    pub fn cancel(&mut self, now: OffsetDateTime) -> Result<Outcome, RuleError> {
        match self.status {
            Status::Requested | Status::Sent | Status::Intimated => {
                self.status = Status::Withdrawn;
                self.withdrawn_at = Some(now);
            }
            Status::Protested => {
                self.status = Status::CancellationRequested;
                self.cancellation_requested_at = Some(now);
            }
            Status::Withdrawn | Status::CancellationRequested | Status::Canceled => {
                return Ok(Outcome::Unchanged);
            }
            Status::Paid | Status::Rejected => {
                return Err(RuleError::InvalidState {
                    message: format!("a {} protest cannot be canceled", self.status.as_str()),
                    status: self.status.as_str(),
                    allowed: [
                        Status::Requested,
                        Status::Sent,
                        Status::Intimated,
                        Status::Protested,
                        Status::Withdrawn,
                        Status::CancellationRequested,
                        Status::Canceled,
                    ]
                    .iter()
                    .map(|s| s.as_str())
                    .collect(),
                });
            }
        }
        self.touch(now);
        Ok(Outcome::Changed)
    }

    /// The debt behind the title ended (paid, canceled, renegotiated): the creditor withdraws
    /// a title not yet protested and asks a protested one to be canceled. Whether it changed.
    pub fn debt_ended(&mut self, _ending: Ending, now: OffsetDateTime) -> bool {
        matches!(self.cancel(now), Ok(Outcome::Changed))
    }

    /// The notary's next step as the sandbox plays it on `today`: the apontamento a business
    /// day after the request, the intimação a business day later, the protest drawn 3 business
    /// days after the intimação, a cancellation done 2 business days after the anuência.
    /// Whether it changed.
    pub fn advance_sandbox(&mut self, today: Date, now: OffsetDateTime, zone: &super::dates::Zone) -> bool {
        let after = |t: Option<OffsetDateTime>, days: u32| {
            t.is_some_and(|t| calendar::add_business_days(zone.today(t), days) <= today)
        };
        match self.status {
            Status::Requested if after(Some(self.requested_at), SANDBOX_SEND_DAYS) => {
                self.status = Status::Sent;
                self.sent_at = Some(now);
                self.protocol_number = Some(format!("SBX-{}", self.id.trim_start_matches("prt_")));
            }
            Status::Sent if after(self.sent_at, SANDBOX_INTIMATION_DAYS) => {
                self.status = Status::Intimated;
                self.intimated_at = Some(now);
            }
            Status::Intimated if after(self.intimated_at, PAYMENT_DAYS) => {
                self.status = Status::Protested;
                self.protested_at = Some(now);
            }
            Status::CancellationRequested
                if after(self.cancellation_requested_at, SANDBOX_CANCELLATION_DAYS) =>
            {
                self.status = Status::Canceled;
                self.canceled_at = Some(now);
            }
            _ => return false,
        }
        self.touch(now);
        true
    }

    /// What the notary must still be told (the gateway request's kind), if anything: a new
    /// title, the withdrawal of one it holds, the anuência for a drawn one.
    pub fn owed_to_notary(&self) -> Option<&'static str> {
        match (self.status, self.submitted_status) {
            (now, Some(told)) if now == told => None,
            (Status::Requested, None) => Some("protest.send"),
            (Status::Withdrawn, Some(Status::Requested | Status::Sent | Status::Intimated)) => {
                Some("protest.withdraw")
            }
            (Status::CancellationRequested, _) => Some("protest.cancel"),
            _ => None,
        }
    }

    /// A step the notary reports (a status callback): the title taken in, refused, the debtor
    /// served, paid at the notary, the protest drawn, its cancellation done; with the notary's
    /// protocol and costs when it gives them. The same status again changes nothing; a step the
    /// protest cannot take from where it is is refused. A title withdrawn before the notary
    /// heard of it is still taken back: drawn anyway, its cancellation is requested; paid at the
    /// notary, it is paid; taken in, served or refused, it stays withdrawn.
    pub fn notary_says(
        &mut self,
        status: Status,
        protocol: Option<String>,
        failure_reason: Option<String>,
        costs: Option<Hundredths>,
        now: OffsetDateTime,
    ) -> Result<Outcome, RuleError> {
        if status == self.status {
            return Ok(Outcome::Unchanged);
        }
        let next = match (self.status, status) {
            (Status::Requested, Status::Sent) => {
                self.sent_at = Some(now);
                status
            }
            (Status::Requested | Status::Sent, Status::Rejected) => {
                self.failure_reason = Some(failure_reason.unwrap_or_else(|| "refused by the notary".into()));
                status
            }
            (Status::Sent, Status::Intimated) => {
                self.intimated_at = Some(now);
                status
            }
            (Status::Intimated | Status::Withdrawn, Status::Paid) => {
                self.paid_at = Some(now);
                status
            }
            (Status::Intimated, Status::Protested) => {
                self.protested_at = Some(now);
                status
            }
            (Status::Withdrawn, Status::Protested) => {
                self.protested_at = Some(now);
                self.cancellation_requested_at = Some(now);
                Status::CancellationRequested
            }
            (Status::CancellationRequested, Status::Canceled) => {
                self.canceled_at = Some(now);
                status
            }
            (Status::Withdrawn, Status::Sent | Status::Intimated | Status::Rejected) => {
                return Ok(Outcome::Unchanged);
            }
            _ => {
                return Err(RuleError::InvalidState {
                    message: format!("a {} protest cannot become {}", self.status.as_str(), status.as_str()),
                    status: self.status.as_str(),
                    allowed: match self.status {
                        Status::Requested => vec!["sent", "rejected"],
                        Status::Sent => vec!["intimated", "rejected"],
                        Status::Intimated => vec!["paid", "protested"],
                        Status::Withdrawn => vec!["sent", "intimated", "rejected", "paid", "protested"],
                        Status::CancellationRequested => vec!["canceled"],
                        _ => Vec::new(),
                    },
                });
            }
        };
        if protocol.is_some() {
            self.protocol_number = protocol;
        }
        if costs.is_some() {
            self.costs_amount = costs;
        }
        self.status = next;
        self.submitted_status = Some(status);
        self.touch(now);
        Ok(Outcome::Changed)
    }

    /// The event code of the step the protest just took.
    pub fn event_code(&self) -> &'static str {
        match self.status {
            Status::Requested => "protest.send.requested",
            Status::Sent => "protest.send.confirmed",
            Status::Rejected => "protest.send.failed",
            Status::Intimated => "protest.intimated",
            Status::Paid => "protest.paid",
            Status::Protested => "protest.protested",
            Status::Withdrawn => "protest.withdrawn",
            Status::CancellationRequested => "protest.cancel.requested",
            Status::Canceled => "protest.cancel.confirmed",
        }
    }

    /// Marks a saved change.
    pub fn touch(&mut self, now: OffsetDateTime) {
        self.version += 1;
        self.updated_at = now;
    }
}

#[cfg(test)]
mod tests {
    use crate::domain::dates::Zone;
    use time::macros::date;

    use super::*;
    use crate::domain::credit_bureau::tests::{NOW, debtor_and_charge, noon};

    fn filed() -> Protest {
        let (debtor, charge) = debtor_and_charge(true, date!(2026 - 10 - 01));
        Protest::file(&charge, &debtor, TitleType::Ds, "NF-1".into(), NOW).unwrap()
    }

    #[test]
    fn a_protest_needs_an_overdue_charge_and_a_full_address() {
        let (debtor, pending) = debtor_and_charge(true, date!(2027 - 01 - 10));
        let err = Protest::file(&pending, &debtor, TitleType::Dm, "1".into(), NOW).unwrap_err();
        assert!(matches!(err, RuleError::InvalidState { status: "pending", .. }), "{err:?}");
        let (unaddressed, overdue) = debtor_and_charge(false, date!(2026 - 10 - 01));
        let err = Protest::file(&overdue, &unaddressed, TitleType::Dm, "1".into(), NOW).unwrap_err();
        assert!(matches!(err, RuleError::InvalidState { status: "address_missing", .. }), "{err:?}");
        let protest = filed();
        assert_eq!(
            (protest.status, protest.notary.city.as_str(), protest.notary.state.as_str()),
            (Status::Requested, "São Paulo", "SP")
        );
    }

    #[test]
    fn the_sandbox_notary_takes_serves_and_draws_on_its_days() {
        let mut protest = filed();
        let advance = |p: &mut Protest, day: Date| p.advance_sandbox(day, noon(day), &Zone::default_zone());
        // Requested on Thursday the 3rd: taken in on Friday, served on Monday, drawn 3 business
        // days after the intimação.
        assert!(!advance(&mut protest, date!(2026 - 12 - 03)));
        assert!(advance(&mut protest, date!(2026 - 12 - 04)));
        assert_eq!(protest.status, Status::Sent);
        assert!(protest.protocol_number.is_some());
        assert!(!advance(&mut protest, date!(2026 - 12 - 06)));
        assert!(advance(&mut protest, date!(2026 - 12 - 07)));
        assert_eq!(protest.status, Status::Intimated);
        assert!(!advance(&mut protest, date!(2026 - 12 - 09)));
        assert!(advance(&mut protest, date!(2026 - 12 - 10)));
        assert_eq!(protest.status, Status::Protested);
        // The debt ended: the cancellation is asked (anuência) and done 2 business days later.
        assert!(protest.debt_ended(Ending::Paid, noon(date!(2026 - 12 - 11))));
        assert_eq!(protest.status, Status::CancellationRequested);
        assert!(!advance(&mut protest, date!(2026 - 12 - 14)));
        assert!(advance(&mut protest, date!(2026 - 12 - 15)));
        assert_eq!(protest.status, Status::Canceled);
        assert_eq!(protest.cancel(NOW), Ok(Outcome::Unchanged));
    }

    #[test]
    fn cancel_withdraws_a_title_not_yet_drawn_and_refuses_a_paid_or_rejected_one() {
        for status in [Status::Requested, Status::Sent, Status::Intimated] {
            let mut protest = filed();
            protest.status = status;
            assert_eq!(protest.cancel(NOW), Ok(Outcome::Changed));
            assert_eq!(protest.status, Status::Withdrawn, "{status:?}");
            assert!(protest.withdrawn_at.is_some());
        }
        for status in [Status::Paid, Status::Rejected] {
            let mut protest = filed();
            protest.status = status;
            let err = protest.cancel(NOW).unwrap_err();
            let RuleError::InvalidState { allowed, .. } = err else { panic!("{err:?}") };
            assert!(allowed.contains(&"protested") && !allowed.contains(&status.as_str()), "{allowed:?}");
        }
    }
}
