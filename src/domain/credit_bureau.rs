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
use super::ids::new_id;
use super::money::Hundredths;
use super::rules::RuleError;
use crate::types::{
    CreditBureau, CreditBureauRemoveReason as RemoveReason, CreditBureauReportStatus as Status,
};

/// The bureau a report goes to when none is chosen (the spec's default).
pub const DEFAULT_BUREAU: CreditBureau = CreditBureau::Serasa;
/// The nature of the debt a report records when none is given (the spec's default).
pub const DEFAULT_NATURE: &str = "duplicata";

/// Business days the bureau takes to mail its own notice after a request (sandbox).
pub const SANDBOX_NOTICE_DAYS: u32 = 1;
/// Days the debtor has to pay or contest after the bureau's notice before the inclusion
/// (sandbox; the bureaus give 10).
pub const SANDBOX_NOTICE_PERIOD_DAYS: i64 = 10;
/// Business days the bureau takes to remove a record once asked (sandbox).
pub const SANDBOX_REMOVAL_DAYS: u32 = 1;
/// The business days a removal is due within after the debt ends (STJ Súmula 548).
pub const REMOVAL_DUE_DAYS: u32 = 5;

/// The statuses in which a report stands against the debtor or is on its way there: a second
/// one for the same charge is refused.
pub const LIVE: &[Status] =
    &[Status::Requested, Status::NoticeSent, Status::Reported, Status::RemovalRequested];

/// One report of one charge.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    pub id: String,
    pub organization_id: String,
    pub charge_id: String,
    pub debtor_id: String,
    /// The debtor's name and the charge's description, as they are now: read with the row (the
    /// store joins them), never stored on it, so that a list names what it shows.
    pub debtor_name: String,
    pub charge_description: Option<String>,
    pub bureau: CreditBureau,
    pub status: Status,
    /// The charge's balance when it was reported.
    pub amount: Hundredths,
    /// The nature of the debt as the bureau records it (e.g. "duplicata").
    pub nature: String,
    /// The `letter` notification that gave the prior written notice.
    pub notice_notification_id: String,
    pub requested_at: OffsetDateTime,
    /// When the bureau mailed its own notice.
    pub notice_sent_at: Option<OffsetDateTime>,
    /// When the debtor was included in the bureau's records.
    pub included_at: Option<OffsetDateTime>,
    pub removal_requested_at: Option<OffsetDateTime>,
    /// The last day the removal may take (5 business days after the debt ended).
    pub removal_due_by: Option<Date>,
    pub removed_at: Option<OffsetDateTime>,
    pub canceled_at: Option<OffsetDateTime>,
    pub remove_reason: Option<RemoveReason>,
    pub failure_reason: Option<String>,
    /// The bureau's protocol for the inclusion.
    pub external_protocol: Option<String>,
    /// The last status the bureau was told of or told us (production, through the gateway).
    pub submitted_status: Option<Status>,
    pub version: i64,
    pub created_at: OffsetDateTime,
    pub updated_at: OffsetDateTime,
}

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
        if debtor.address.is_none() {
            return Err(refusal(
                "A report needs the debtor's full address: add it to the debtor first.",
                "address_missing",
                "address_complete",
            ));
        }
        let Some(notice_id) = notice_id else {
            return Err(refusal(
                "A report needs a prior written notice mailed to the debtor: send a letter notification for this charge first.",
                "no_prior_notice",
                "letter_sent",
            ));
        };
        Ok(Self {
            id: new_id("cbr"),
            organization_id: charge.organization_id.clone(),
            charge_id: charge.id.clone(),
            debtor_id: charge.debtor_id.clone(),
            debtor_name: debtor.name.clone(),
            charge_description: charge.description.clone(),
            bureau,
            status: Status::Requested,
            amount: charge.balance(),
            nature,
            notice_notification_id: notice_id.to_string(),
            requested_at: now,
            notice_sent_at: None,
            included_at: None,
            removal_requested_at: None,
            removal_due_by: None,
            removed_at: None,
            canceled_at: None,
            remove_reason: None,
            failure_reason: None,
            external_protocol: None,
            submitted_status: None,
            version: 1,
            created_at: now,
            updated_at: now,
        })
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
            Status::Requested | Status::NoticeSent => {
                self.status = Status::Canceled;
                self.canceled_at = Some(now);
            }
            Status::Reported => {
                self.status = Status::RemovalRequested;
                self.removal_requested_at = Some(now);
                self.removal_due_by = Some(calendar::add_business_days(today, REMOVAL_DUE_DAYS));
            }
            Status::RemovalRequested | Status::Removed | Status::Canceled => return Ok(Outcome::Unchanged),
            Status::Failed => {
                return Err(RuleError::InvalidState {
                    message: "a failed report is not in the bureau's records and cannot be removed".into(),
                    status: self.status.as_str(),
                    allowed: LIVE
                        .iter()
                        .chain(&[Status::Removed, Status::Canceled])
                        .map(|s| s.as_str())
                        .collect(),
                });
            }
        }
        self.remove_reason = Some(reason);
        self.touch(now);
        Ok(Outcome::Changed)
    }

    /// The debt behind the report ended on `day`: the report is withdrawn as [`Report::remove`]
    /// does, its removal due 5 business days after that day. Whether it changed.
    pub fn debt_ended(&mut self, ending: Ending, day: Date, now: OffsetDateTime) -> bool {
        let reason = match ending {
            Ending::Paid => RemoveReason::Paid,
            Ending::Canceled => RemoveReason::Canceled,
            Ending::Agreement => RemoveReason::Agreement,
        };
        matches!(self.remove(reason, day, now), Ok(Outcome::Changed))
    }

    /// The bureau's next step as the sandbox plays it on `today`: the notice a business day after
    /// the request, the inclusion 10 days after the notice, the removal a business day after it
    /// was asked. Whether it changed.
    pub fn advance_sandbox(&mut self, today: Date, now: OffsetDateTime, zone: &super::dates::Zone) -> bool {
        let day = |t: OffsetDateTime| zone.today(t);
        match self.status {
            Status::Requested
                if calendar::add_business_days(day(self.requested_at), SANDBOX_NOTICE_DAYS) <= today =>
            {
                self.status = Status::NoticeSent;
                self.notice_sent_at = Some(now);
            }
            Status::NoticeSent
                if self
                    .notice_sent_at
                    .is_some_and(|t| day(t) + time::Duration::days(SANDBOX_NOTICE_PERIOD_DAYS) <= today) =>
            {
                self.status = Status::Reported;
                self.included_at = Some(now);
                self.external_protocol = Some(format!("SBX-{}", self.id.trim_start_matches("cbr_")));
            }
            Status::RemovalRequested
                if self
                    .removal_requested_at
                    .is_some_and(|t| calendar::add_business_days(day(t), SANDBOX_REMOVAL_DAYS) <= today) =>
            {
                self.status = Status::Removed;
                self.removed_at = Some(now);
            }
            _ => return false,
        }
        self.touch(now);
        true
    }

    /// What the bureau must still be told (the gateway request's kind), if anything: a new
    /// report, or the removal of one it knows of.
    pub fn owed_to_bureau(&self) -> Option<&'static str> {
        match (self.status, self.submitted_status) {
            (now, Some(told)) if now == told => None,
            (Status::Requested, None) => Some("credit_bureau_report.add"),
            (Status::Canceled, Some(Status::Requested | Status::NoticeSent)) => {
                Some("credit_bureau_report.remove")
            }
            (Status::RemovalRequested, _) => Some("credit_bureau_report.remove"),
            _ => None,
        }
    }

    /// A step the bureau reports (a status callback): its notice, the inclusion, a refusal, the
    /// removal done. The same status again changes nothing; a step the report cannot take from
    /// where it is is refused. A report taken back before the bureau heard of it is still
    /// taken back: included anyway, its removal is requested (due 5 business days from
    /// `today`); a notice or refusal changes nothing; a removal closes it.
    pub fn bureau_says(
        &mut self,
        status: Status,
        protocol: Option<String>,
        failure_reason: Option<String>,
        today: Date,
        now: OffsetDateTime,
    ) -> Result<Outcome, RuleError> {
        if status == self.status {
            return Ok(Outcome::Unchanged);
        }
        let next = match (self.status, status) {
            (Status::Requested, Status::NoticeSent) => {
                self.notice_sent_at = Some(now);
                status
            }
            (Status::Requested | Status::NoticeSent, Status::Reported) => {
                self.included_at = Some(now);
                self.external_protocol = protocol.or(self.external_protocol.take());
                status
            }
            (Status::Requested | Status::NoticeSent, Status::Failed) => {
                self.failure_reason = Some(failure_reason.unwrap_or_else(|| "refused by the bureau".into()));
                status
            }
            (Status::RemovalRequested | Status::Canceled, Status::Removed) => {
                self.removed_at = Some(now);
                status
            }
            (Status::Canceled, Status::Reported) => {
                self.included_at = Some(now);
                self.external_protocol = protocol.or(self.external_protocol.take());
                self.removal_requested_at = Some(now);
                self.removal_due_by = Some(calendar::add_business_days(today, REMOVAL_DUE_DAYS));
                Status::RemovalRequested
            }
            (Status::Canceled, Status::NoticeSent | Status::Failed) => return Ok(Outcome::Unchanged),
            _ => {
                return Err(RuleError::InvalidState {
                    message: format!("a {} report cannot become {}", self.status.as_str(), status.as_str()),
                    status: self.status.as_str(),
                    allowed: match self.status {
                        Status::Requested => vec!["notice_sent", "reported", "failed"],
                        Status::NoticeSent => vec!["reported", "failed"],
                        Status::RemovalRequested => vec!["removed"],
                        Status::Canceled => vec!["notice_sent", "reported", "failed", "removed"],
                        _ => Vec::new(),
                    },
                });
            }
        };
        self.status = next;
        self.submitted_status = Some(status);
        self.touch(now);
        Ok(Outcome::Changed)
    }

    /// The event code of the step the report just took.
    pub fn event_code(&self) -> &'static str {
        match self.status {
            Status::Requested => "credit_bureau_report.add.requested",
            Status::NoticeSent => "credit_bureau_report.notice_sent",
            Status::Reported => "credit_bureau_report.add.confirmed",
            Status::Failed => "credit_bureau_report.add.failed",
            Status::Canceled => "credit_bureau_report.canceled",
            Status::RemovalRequested => "credit_bureau_report.remove.requested",
            Status::Removed => "credit_bureau_report.remove.confirmed",
        }
    }

    /// Marks a saved change.
    pub fn touch(&mut self, now: OffsetDateTime) {
        self.version += 1;
        self.updated_at = now;
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

    fn refused_status(err: RuleError) -> &'static str {
        match err {
            RuleError::InvalidState { status, .. } => status,
            other => panic!("not a state refusal: {other:?}"),
        }
    }

    fn filed() -> Report {
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
        assert!(!report.advance_sandbox(
            date!(2026 - 12 - 03),
            noon(date!(2026 - 12 - 03)),
            &Zone::default_zone()
        ));
        assert!(report.advance_sandbox(
            date!(2026 - 12 - 04),
            noon(date!(2026 - 12 - 04)),
            &Zone::default_zone()
        ));
        assert_eq!(report.status, Status::NoticeSent);
        assert!(!report.advance_sandbox(
            date!(2026 - 12 - 13),
            noon(date!(2026 - 12 - 13)),
            &Zone::default_zone()
        ));
        assert!(report.advance_sandbox(
            date!(2026 - 12 - 14),
            noon(date!(2026 - 12 - 14)),
            &Zone::default_zone()
        ));
        assert_eq!(report.status, Status::Reported);
        // Paid on Friday 2026-12-18: due by the fifth business day after it, Christmas skipped.
        assert!(report.debt_ended(Ending::Paid, date!(2026 - 12 - 18), noon(date!(2026 - 12 - 18))));
        assert_eq!(
            (report.status, report.remove_reason, report.removal_due_by),
            (Status::RemovalRequested, Some(RemoveReason::Paid), Some(date!(2026 - 12 - 28)))
        );
        assert!(!report.debt_ended(Ending::Canceled, date!(2026 - 12 - 18), NOW), "already being removed");
        assert!(
            !report.advance_sandbox(
                date!(2026 - 12 - 20),
                noon(date!(2026 - 12 - 20)),
                &Zone::default_zone()
            ),
            "a Sunday"
        );
        assert!(
            report.advance_sandbox(date!(2026 - 12 - 21), noon(date!(2026 - 12 - 21)), &Zone::default_zone()),
            "the next business day"
        );
        assert_eq!(report.status, Status::Removed);
        assert!(
            !report.advance_sandbox(
                date!(2027 - 06 - 01),
                noon(date!(2027 - 06 - 01)),
                &Zone::default_zone()
            ),
            "removed is the end"
        );
        assert_eq!(report.version, 5);
    }

    #[test]
    fn removal_cancels_before_the_inclusion_and_refuses_a_failed_report() {
        let mut report = filed();
        assert_eq!(report.remove(RemoveReason::Contested, date!(2026 - 12 - 03), NOW), Ok(Outcome::Changed));
        assert_eq!((report.status, report.removal_due_by), (Status::Canceled, None));
        assert_eq!(report.remove(RemoveReason::Manual, date!(2026 - 12 - 03), NOW), Ok(Outcome::Unchanged));
        let mut failed = filed();
        failed.status = Status::Failed;
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
}
