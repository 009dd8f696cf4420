//! A credit-bureau report (negativação) of an overdue charge, and its life:
//! `requested → notice_sent → reported → removal_requested → removed`, with `canceled` (paid or
//! withdrawn before inclusion) and `failed` (refused by the bureau).
//!
//! The rules are the CDC's and the STJ's: a prior written notice mailed to the debtor (a `letter`
//! notification sent) before the report; the debtor's document and full address; nothing for a
//! debtor blocked from the bureaus; and, once the debt ends (paid, canceled, renegotiated), a
//! removal requested at once and due within 5 business days (STJ Súmula 548).

use time::{Date, OffsetDateTime};

use super::calendar;
use super::charge::{Charge, Ending, Outcome};
use super::debtor::Debtor;
use super::escalation::{Escalation, Heard, Kind, Step, Wait, address, all_but};
#[cfg(test)]
use super::money::Hundredths;
use super::rules::RuleError;
use crate::types::{
    CreditBureau, CreditBureauRemoveReason as RemoveReason, CreditBureauReportStatus as Status,
};

/// The bureau a report goes to when none is chosen (the spec's default).
pub const DEFAULT_BUREAU: CreditBureau = CreditBureau::Serasa;
/// The nature of the debt a report records when none is given (the spec's default).
pub const DEFAULT_NATURE: &str = "duplicata";

/// Days the debtor has to pay or contest after the bureau's notice before the inclusion
/// (sandbox; the bureaus give 10).
pub const SANDBOX_NOTICE_PERIOD_DAYS: i64 = 10;
/// The business days a removal is due within after the debt ends (STJ Súmula 548).
pub const REMOVAL_DUE_DAYS: u32 = 5;

/// What a report is beyond the life every escalation shares.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReportDetails {
    pub bureau: CreditBureau,
    /// The nature of the debt as the bureau records it (e.g. "duplicata").
    pub nature: String,
    /// The `letter` notification that gave the prior written notice.
    pub notice_notification_id: String,
    /// The last day the removal may take (5 business days after the debt ended).
    pub removal_due_by: Option<Date>,
    pub remove_reason: Option<RemoveReason>,
}

/// One report of one charge.
pub type Report = Escalation<ReportDetails>;

/// Why a report cannot be filed: each a state of the charge or debtor that a person can fix.
fn refusal(message: &str, status: &'static str, allowed: &'static str) -> RuleError {
    RuleError::InvalidState { message: message.to_string(), status, allowed: vec![allowed] }
}

impl Report {
    /// A report of `charge` (overdue, its own: not an agreement's installment) to `bureau`,
    /// after the prior notice `notice_id` (a `letter` notification sent for the charge).
    pub fn file(
        charge: &Charge,
        debtor: &Debtor,
        notice_id: Option<&str>,
        bureau: CreditBureau,
        nature: String,
        now: OffsetDateTime,
    ) -> Result<Self, RuleError> {
        charge.check_escalation("reported to a credit bureau")?;
        if debtor.credit_bureau_blocked {
            return Err(refusal(
                "The debtor is blocked from credit-bureau reports (credit_bureau_blocked): unblock them first.",
                "credit_bureau_blocked",
                "not_blocked",
            ));
        }
        address::<ReportDetails>(debtor)?;
        let Some(notice_id) = notice_id else {
            return Err(refusal(
                "A report needs a prior written notice mailed to the debtor: send a letter notification for this charge first.",
                "no_prior_notice",
                "letter_sent",
            ));
        };
        let details = ReportDetails {
            bureau,
            nature,
            notice_notification_id: notice_id.to_string(),
            removal_due_by: None,
            remove_reason: None,
        };
        Ok(Self::new(charge, debtor, details, now))
    }

    /// Takes the report back: before the inclusion it is canceled, once included its removal is
    /// requested, due within 5 business days of `today`. A report already on its way out is
    /// unchanged; a failed one cannot be removed.
    pub fn remove(
        &mut self,
        reason: RemoveReason,
        today: Date,
        now: OffsetDateTime,
    ) -> Result<Outcome, RuleError> {
        match self.status {
            Status::Requested | Status::NoticeSent => self.reach(Status::Canceled, now),
            Status::Reported => self.removal_requested(today, now),
            Status::RemovalRequested | Status::Removed | Status::Canceled => return Ok(Outcome::Unchanged),
            Status::Failed => {
                return Err(RuleError::InvalidState {
                    message: "a failed report is not in the bureau's records and cannot be removed".into(),
                    status: self.status.as_str(),
                    allowed: all_but(&[Status::Failed]),
                });
            }
        }
        self.remove_reason = Some(reason);
        self.touch(now);
        Ok(Outcome::Changed)
    }

    /// The removal asked `now`, due 5 business days after `today`.
    fn removal_requested(&mut self, today: Date, now: OffsetDateTime) {
        self.reach(Status::RemovalRequested, now);
        self.removal_due_by = Some(calendar::add_business_days(today, REMOVAL_DUE_DAYS));
    }
}

impl Kind for ReportDetails {
    type Status = Status;
    const PREFIX: &'static str = "cbr";
    const NOUN: &'static str = "report";
    /// Its moment of inclusion in the bureau's records.
    const MOMENTS: &'static [(Status, &'static str)] = &[(Status::Reported, "included_at")];
    /// The report, confirmed by the inclusion; its removal.
    const ANSWERED: &'static [(&'static str, Status, Status)] = &[
        ("credit_bureau_report.add", Status::Requested, Status::Reported),
        ("credit_bureau_report.remove", Status::RemovalRequested, Status::Removed),
    ];
    /// Canceled before the inclusion, it is removed from a bureau that heard of it.
    const RECALLED: (Status, &'static [Status], &'static str) =
        (Status::Canceled, &[Status::Requested, Status::NoticeSent], "credit_bureau_report.remove");
    const REFUSED: Status = Status::Failed;

    /// The bureau's notice, the inclusion, a refusal, the removal done. A report taken back
    /// before the bureau heard of it is still taken back: included anyway, its removal is
    /// requested (due 5 business days from the day heard); a notice or refusal changes
    /// nothing; a removal closes it.
    fn take(r: &mut Report, heard: Heard<Status>, now: OffsetDateTime) -> Step<Status> {
        let Heard { status, protocol, failure_reason, today, .. } = heard;
        match (r.status, status) {
            (Status::Requested, Status::NoticeSent)
            | (Status::RemovalRequested | Status::Canceled, Status::Removed) => {}
            (Status::Requested | Status::NoticeSent | Status::Canceled, Status::Reported) => {
                r.protocol = protocol.or(r.protocol.take());
                if r.status == Status::Canceled {
                    r.removal_requested(today, now);
                    return Step::To(Status::RemovalRequested);
                }
            }
            (Status::Requested | Status::NoticeSent, Status::Failed) => {
                r.failure_reason = Some(failure_reason.unwrap_or_else(|| "refused by the bureau".into()));
            }
            (Status::Canceled, Status::NoticeSent | Status::Failed) => return Step::Ignored,
            (from, _) => {
                return Step::Refused(match from {
                    Status::Requested => &["notice_sent", "reported", "failed"],
                    Status::NoticeSent => &["reported", "failed"],
                    Status::RemovalRequested => &["removed"],
                    Status::Canceled => &["notice_sent", "reported", "failed", "removed"],
                    _ => &[],
                });
            }
        }
        Step::To(status)
    }

    /// The notice a business day after the request, the inclusion 10 days after the notice,
    /// the removal a business day after it was asked.
    const SANDBOX: &'static [(Status, Wait, Status)] = &[
        (Status::Requested, Wait::BusinessDays(1), Status::NoticeSent),
        (Status::NoticeSent, Wait::Days(SANDBOX_NOTICE_PERIOD_DAYS), Status::Reported),
        (Status::RemovalRequested, Wait::BusinessDays(1), Status::Removed),
    ];

    /// Withdrawn as [`Report::remove`] does, the removal due 5 business days after `day`.
    fn take_back(r: &mut Report, end: Ending, day: Date, now: OffsetDateTime) -> Result<Outcome, RuleError> {
        let reason = match end {
            Ending::Paid => RemoveReason::Paid,
            Ending::Canceled => RemoveReason::Canceled,
            Ending::Agreement => RemoveReason::Agreement,
        };
        r.remove(reason, day, now)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use crate::domain::dates::Zone;
    use time::macros::{date, datetime};

    use super::*;
    use crate::domain::charge::NewCharge;
    use crate::domain::debtor::DebtorEdit;
    use crate::types::{Address, AddressState};

    pub(crate) const NOW: OffsetDateTime = datetime!(2026-12-03 15:00 UTC);

    /// A debtor (with a full address or not) and a charge of R$ 1.250,00 due on `due`.
    pub(crate) fn debtor_and_charge(addressed: bool, due: Date) -> (Debtor, Charge) {
        let address = addressed.then(|| Address {
            zipcode: "01310100".into(),
            street: "Av. Paulista".into(),
            number: "1000".into(),
            complement: None,
            neighborhood: "Bela Vista".into(),
            city: "São Paulo".into(),
            state: AddressState::Sp,
            country: None,
        });
        let edit =
            DebtorEdit {
                name: Some("João Conceição".into()), address: Some(address), ..Default::default()
            };
        let debtor = Debtor::register("org_1", "52998224725", edit, NOW, &Zone::default_zone()).unwrap();
        let new = NewCharge::due(Hundredths(125_000), due);
        let charge = Charge::open(&debtor, new, NOW, &Zone::default_zone()).unwrap();
        (debtor, charge)
    }

    /// Mid-afternoon of `day` in São Paulo, as a pass's clock.
    pub(crate) fn noon(day: Date) -> OffsetDateTime {
        day.with_time(time::macros::time!(15:00)).assume_utc()
    }

    /// Plays the sandbox's outside on each of `days`: the status it moves `e` to that day, if any.
    pub(crate) fn play<K: Kind>(e: &mut Escalation<K>, days: &[(Date, Option<K::Status>)]) {
        for &(day, to) in days {
            let moved = e.advance_sandbox(day, noon(day), &Zone::default_zone());
            assert_eq!(moved.then_some(e.status), to, "{day}");
        }
    }

    fn refused_status(err: RuleError) -> &'static str {
        match err {
            RuleError::InvalidState { status, .. } => status,
            other => panic!("not a state refusal: {other:?}"),
        }
    }

    pub(crate) fn filed() -> Report {
        let (debtor, charge) = debtor_and_charge(true, date!(2026 - 10 - 01));
        Report::file(&charge, &debtor, Some("ntf_1"), DEFAULT_BUREAU, DEFAULT_NATURE.into(), NOW).unwrap()
    }

    #[test]
    fn a_report_needs_an_overdue_charge_an_address_no_block_and_a_letter() {
        let (debtor, pending) = debtor_and_charge(true, date!(2027 - 01 - 10));
        let file = |c: &Charge, d: &Debtor, notice: Option<&str>| {
            Report::file(c, d, notice, DEFAULT_BUREAU, DEFAULT_NATURE.into(), NOW).map(|r| r.status)
        };
        assert_eq!(refused_status(file(&pending, &debtor, Some("ntf_1")).unwrap_err()), "pending");
        let (unaddressed, overdue) = debtor_and_charge(false, date!(2026 - 10 - 01));
        assert_eq!(
            refused_status(file(&overdue, &unaddressed, Some("ntf_1")).unwrap_err()),
            "address_missing"
        );
        assert_eq!(refused_status(file(&overdue, &debtor, None).unwrap_err()), "no_prior_notice");
        let mut blocked = debtor.clone();
        blocked.credit_bureau_blocked = true;
        assert_eq!(
            refused_status(file(&overdue, &blocked, Some("ntf_1")).unwrap_err()),
            "credit_bureau_blocked"
        );
        assert_eq!(file(&overdue, &debtor, Some("ntf_1")), Ok(Status::Requested));
    }

    #[test]
    fn the_sandbox_bureau_notifies_includes_and_removes_on_its_days() {
        let mut report = filed();
        // 2026-12-03 is a Thursday: the notice on Friday, the inclusion ten days later.
        let (notice, inclusion) = (Some(Status::NoticeSent), Some(Status::Reported));
        let days =
            [date!(2026 - 12 - 03), date!(2026 - 12 - 04), date!(2026 - 12 - 13), date!(2026 - 12 - 14)];
        play(&mut report, &[(days[0], None), (days[1], notice), (days[2], None), (days[3], inclusion)]);
        // Paid on Friday 2026-12-18: due by the fifth business day after it, Christmas skipped.
        assert!(report.debt_ended(Ending::Paid, date!(2026 - 12 - 18), noon(date!(2026 - 12 - 18))));
        assert_eq!(
            (report.status, report.remove_reason, report.removal_due_by),
            (Status::RemovalRequested, Some(RemoveReason::Paid), Some(date!(2026 - 12 - 28)))
        );
        assert!(!report.debt_ended(Ending::Canceled, date!(2026 - 12 - 18), NOW), "already being removed");
        // Not on the Sunday, on the next business day; removed is the end.
        let removed = Some(Status::Removed);
        play(&mut report, &[(date!(2026 - 12 - 20), None), (date!(2026 - 12 - 21), removed)]);
        play(&mut report, &[(date!(2027 - 06 - 01), None)]);
        assert_eq!(report.version, 5);
    }

    #[test]
    fn removal_cancels_before_the_inclusion_and_refuses_a_failed_report() {
        let mut report = filed();
        assert_eq!(report.remove(RemoveReason::Contested, date!(2026 - 12 - 03), NOW), Ok(Outcome::Changed));
        assert_eq!((report.status, report.removal_due_by), (Status::Canceled, None));
        assert_eq!(report.event_code(), "credit_bureau_report.canceled");
        assert_eq!(report.remove(RemoveReason::Manual, date!(2026 - 12 - 03), NOW), Ok(Outcome::Unchanged));
        let mut failed = filed();
        failed.status = Status::Failed;
        assert_eq!(failed.event_code(), "credit_bureau_report.add.failed");
        let err = failed.remove(RemoveReason::Manual, date!(2026 - 12 - 03), NOW).unwrap_err();
        let RuleError::InvalidState { allowed, .. } = err else { panic!("{err:?}") };
        assert!(allowed.contains(&"reported") && !allowed.contains(&"failed"), "{allowed:?}");
    }

    #[test]
    fn a_reported_charge_is_neither_canceled_nor_written_off() {
        let (_, mut charge) = debtor_and_charge(true, date!(2026 - 10 - 01));
        charge.credit_bureau_status = Some(Status::Reported);
        let err = charge.clone().cancel(None, NOW).unwrap_err();
        assert_eq!(refused_status(err), "credit_bureau_reported");
        let err = charge.clone().write_off("x".into(), NOW).unwrap_err();
        assert_eq!(refused_status(err), "credit_bureau_reported");
        charge.credit_bureau_status = Some(Status::RemovalRequested);
        assert_eq!(charge.clone().cancel(None, NOW), Ok(Outcome::Changed));
    }

    #[test]
    fn every_status_has_an_event_the_spec_declares() {
        // event_code derives each code from a rule; one the spec lacks would be unreachable!.
        for &status in <Status as super::super::escalation::Status>::ALL {
            let mut report = filed();
            report.status = status;
            assert!(report.event_code().starts_with("credit_bureau_report."), "{status:?}");
        }
    }
}
