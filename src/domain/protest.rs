//! A protest of an overdue charge at a notary (protesto em cartório, Lei 9.492/1997), and its
//! life: `requested → sent` (apontado) `→ intimated`; from there `paid` at the notary,
//! `protested` when the 3 days after the intimação pass, or `withdrawn` (the creditor's
//! desistência); `protested → cancellation_requested → canceled` (carta de anuência); and
//! `requested|sent → rejected` when the notary refuses the title.
//!
//! A protest needs the debtor's CPF or CNPJ and full address, and a title backed by a debt
//! document (a boleto alone is not protestable): its type and number.

use time::{Date, OffsetDateTime};

use super::charge::{Charge, Ending, Outcome};
use super::debtor::Debtor;
use super::escalation::{Escalation, Heard, Kind, Step, Wait, address, all_but};
use super::money::Hundredths;
use super::rules::RuleError;
use crate::types::{ProtestStatus as Status, ProtestTitleType as TitleType};

/// The notary that takes the title: the protest office of the debtor's city.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notary {
    pub name: String,
    pub city: String,
    pub state: String,
}

/// What a protest is beyond the life every escalation shares.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProtestDetails {
    pub title_type: TitleType,
    /// The number of the debt document behind the title.
    pub document_number: String,
    pub notary: Notary,
    /// What the notary charges, once known (paid by the debtor, or by the creditor who withdraws).
    pub costs_amount: Option<Hundredths>,
}

/// One protest of one charge.
pub type Protest = Escalation<ProtestDetails>;

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
        let address = address::<ProtestDetails>(debtor)?;
        let details = ProtestDetails {
            title_type,
            document_number,
            notary: Notary {
                name: format!("Tabelionato de Protesto de {}", address.city),
                city: address.city.clone(),
                state: address.state.as_str().to_string(),
            },
            costs_amount: None,
        };
        Ok(Self::new(charge, debtor, details, now))
    }

    /// The creditor takes the protest back: a title not yet protested is withdrawn (desistência),
    /// a protested one gets its cancellation requested (carta de anuência). One already on its
    /// way out is unchanged; a paid or rejected one cannot be canceled.
    pub fn cancel(&mut self, now: OffsetDateTime) -> Result<Outcome, RuleError> {
        match self.status {
            Status::Requested | Status::Sent | Status::Intimated => self.reach(Status::Withdrawn, now),
            Status::Protested => self.reach(Status::CancellationRequested, now),
            Status::Withdrawn | Status::CancellationRequested | Status::Canceled => {
                return Ok(Outcome::Unchanged);
            }
            Status::Paid | Status::Rejected => {
                return Err(RuleError::InvalidState {
                    message: format!("a {} protest cannot be canceled", self.status.as_str()),
                    status: self.status.as_str(),
                    allowed: all_but(&[Status::Paid, Status::Rejected]),
                });
            }
        }
        self.touch(now);
        Ok(Outcome::Changed)
    }
}

impl Kind for ProtestDetails {
    type Status = Status;
    const PREFIX: &'static str = "prt";
    const NOUN: &'static str = "protest";
    /// The title, confirmed when taken in; the cancellation of a drawn protest (anuência).
    const ANSWERED: &'static [(&'static str, Status, Status)] = &[
        ("protest.send", Status::Requested, Status::Sent),
        ("protest.cancel", Status::CancellationRequested, Status::Canceled),
    ];
    /// Withdrawn before it was drawn, the title is taken back from a notary that heard of it.
    const RECALLED: (Status, &'static [Status], &'static str) =
        (Status::Withdrawn, &[Status::Requested, Status::Sent, Status::Intimated], "protest.withdraw");
    const REFUSED: Status = Status::Rejected;

    /// The title taken in, refused, the debtor served, paid at the notary, the protest drawn,
    /// its cancellation done; with the notary's protocol and costs when it gives them. A title
    /// withdrawn before the notary heard of it is still taken back: drawn anyway, its
    /// cancellation is requested; paid at the notary, it is paid; taken in, served or refused,
    /// it stays withdrawn.
    fn take(p: &mut Protest, heard: Heard<Status>, _now: OffsetDateTime) -> Step<Status> {
        let Heard { status, protocol, failure_reason, costs, .. } = heard;
        let next = match (p.status, status) {
            (Status::Requested, Status::Sent)
            | (Status::Sent, Status::Intimated)
            | (Status::Intimated | Status::Withdrawn, Status::Paid)
            | (Status::Intimated, Status::Protested)
            | (Status::CancellationRequested, Status::Canceled) => status,
            (Status::Requested | Status::Sent, Status::Rejected) => {
                p.failure_reason = Some(failure_reason.unwrap_or_else(|| "refused by the notary".into()));
                status
            }
            (Status::Withdrawn, Status::Protested) => Status::CancellationRequested,
            (Status::Withdrawn, Status::Sent | Status::Intimated | Status::Rejected) => return Step::Ignored,
            (from, _) => {
                return Step::Refused(match from {
                    Status::Requested => &["sent", "rejected"],
                    Status::Sent => &["intimated", "rejected"],
                    Status::Intimated => &["paid", "protested"],
                    Status::Withdrawn => &["sent", "intimated", "rejected", "paid", "protested"],
                    Status::CancellationRequested => &["canceled"],
                    _ => &[],
                });
            }
        };
        p.protocol = protocol.or(p.protocol.take());
        if costs.is_some() {
            p.costs_amount = costs;
        }
        Step::To(next)
    }

    /// The apontamento a business day after the request, the intimação a business day later,
    /// the protest drawn when the 3 business days the debtor has after the intimação pass (Lei
    /// 9.492 art. 12), a cancellation done 2 business days after the anuência.
    const SANDBOX: &'static [(Status, Wait, Status)] = &[
        (Status::Requested, Wait::BusinessDays(1), Status::Sent),
        (Status::Sent, Wait::BusinessDays(1), Status::Intimated),
        (Status::Intimated, Wait::BusinessDays(3), Status::Protested),
        (Status::CancellationRequested, Wait::BusinessDays(2), Status::Canceled),
    ];

    /// The debt behind the title ended, however: the creditor withdraws a title not yet
    /// protested and asks a protested one to be canceled.
    fn take_back(p: &mut Protest, _: Ending, _: Date, now: OffsetDateTime) -> Result<Outcome, RuleError> {
        p.cancel(now)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use time::macros::date;

    use super::*;
    use crate::domain::credit_bureau::tests::{NOW, debtor_and_charge, noon, play};

    pub(crate) fn filed() -> Protest {
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
        // Requested on Thursday the 3rd: taken in on Friday (with the notary's protocol), served
        // on Monday, drawn 3 business days after the intimação.
        let (taken_in, served) =
            ((date!(2026 - 12 - 04), Some(Status::Sent)), (date!(2026 - 12 - 07), Some(Status::Intimated)));
        play(&mut protest, &[(date!(2026 - 12 - 03), None), taken_in, (date!(2026 - 12 - 06), None), served]);
        assert!(protest.protocol.is_some());
        play(
            &mut protest,
            &[(date!(2026 - 12 - 09), None), (date!(2026 - 12 - 10), Some(Status::Protested))],
        );
        // The debt ended: the cancellation is asked (anuência) and done 2 business days later.
        let paid = date!(2026 - 12 - 11);
        assert!(protest.debt_ended(Ending::Paid, paid, noon(paid)));
        assert_eq!(protest.status, Status::CancellationRequested);
        play(&mut protest, &[(date!(2026 - 12 - 14), None), (date!(2026 - 12 - 15), Some(Status::Canceled))]);
        assert_eq!(protest.cancel(NOW), Ok(Outcome::Unchanged));
    }

    #[test]
    fn cancel_withdraws_a_title_not_yet_drawn_and_refuses_a_paid_or_rejected_one() {
        for status in [Status::Requested, Status::Sent, Status::Intimated] {
            let mut protest = filed();
            protest.status = status;
            assert_eq!(protest.cancel(NOW), Ok(Outcome::Changed));
            assert_eq!(protest.status, Status::Withdrawn, "{status:?}");
            assert!(protest.at(Status::Withdrawn).is_some());
        }
        for status in [Status::Paid, Status::Rejected] {
            let mut protest = filed();
            protest.status = status;
            let code = if status == Status::Paid { "protest.paid" } else { "protest.send.failed" };
            assert_eq!(protest.event_code(), code);
            let err = protest.cancel(NOW).unwrap_err();
            let RuleError::InvalidState { allowed, .. } = err else { panic!("{err:?}") };
            assert!(allowed.contains(&"protested") && !allowed.contains(&status.as_str()), "{allowed:?}");
        }
    }

    #[test]
    fn every_status_has_an_event_the_spec_declares() {
        // event_code derives each code from a rule; one the spec lacks would be unreachable!.
        for &status in <Status as super::super::escalation::Status>::ALL {
            let mut protest = filed();
            protest.status = status;
            assert!(protest.event_code().starts_with("protest."), "{status:?}");
        }
    }
}
