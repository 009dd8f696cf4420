//! A CSV export: what it holds (a kind of object and the list filters), its life (`queued ->
//! processing -> processed`, `failed`, `expired` seven days after it was built), and the cell
//! rule that keeps a spreadsheet from reading data as a formula.

use std::borrow::Cow;
use std::str::FromStr;

use time::{Duration, OffsetDateTime};

use super::ids::new_id;
use super::rules::{RuleError, Violations};
use crate::types::{
    AgreementStatus, ChargeStatus, CreditBureauReportStatus, ExportFilters, ExportKind, ExportSeparator,
    ExportStatus, NotificationStatus, ProtestStatus,
};

/// How long a built file can be downloaded.
pub const RETENTION: Duration = Duration::days(7);

/// How many times a builder may take an export before it fails with its reason.
pub const MAX_BUILD_ATTEMPTS: i64 = 3;

/// Why an export failed when its builds kept failing: what the organization may read (the
/// database's own words are logged, not shown).
pub fn gave_up() -> String {
    format!("the file could not be built after {MAX_BUILD_ATTEMPTS} attempts; create a new export")
}

/// One export.
#[derive(Debug, Clone, PartialEq)]
pub struct Export {
    /// `exp_…`
    pub id: String,
    pub organization_id: String,
    pub kind: ExportKind,
    pub filters: ExportFilters,
    pub separator: ExportSeparator,
    pub status: ExportStatus,
    /// Rows written (the header not counted), once processed.
    pub rows: Option<i64>,
    pub size_bytes: Option<i64>,
    pub error: Option<String>,
    pub version: i64,
    pub created_at: OffsetDateTime,
    pub started_at: Option<OffsetDateTime>,
    pub processed_at: Option<OffsetDateTime>,
    pub failed_at: Option<OffsetDateTime>,
    pub expires_at: Option<OffsetDateTime>,
    pub updated_at: OffsetDateTime,
    /// The scopes of the token that queued it: its rows are what that token could read. `None`
    /// when queued before they were recorded.
    pub scopes: Option<Vec<String>>,
    /// How many times a builder took it.
    pub attempts: i64,
}

/// No filter: every row of the kind.
pub fn no_filters() -> ExportFilters {
    ExportFilters {
        created_from: None,
        created_to: None,
        status: None,
        debtor_id: None,
        charge_id: None,
        code: None,
        resource_id: None,
    }
}

/// Which filters a kind has: the fields its objects carry.
fn applies(kind: ExportKind, filter: &str) -> bool {
    use ExportKind::*;
    match filter {
        "created_from" | "created_to" => true,
        "status" => kind != Events,
        "debtor_id" => !matches!(kind, Debtors | Events),
        "charge_id" => matches!(kind, Notifications | CreditBureauReports | Protests),
        "code" | "resource_id" => kind == Events,
        _ => false,
    }
}

/// Whether `status` is one of the kind's statuses.
fn is_status_of(kind: ExportKind, status: &str) -> bool {
    use ExportKind::*;
    match kind {
        Charges => ChargeStatus::from_str(status).is_ok(),
        Debtors => matches!(status, "active" | "archived"),
        Notifications => NotificationStatus::from_str(status).is_ok(),
        Agreements => AgreementStatus::from_str(status).is_ok(),
        CreditBureauReports => CreditBureauReportStatus::from_str(status).is_ok(),
        Protests => ProtestStatus::from_str(status).is_ok(),
        Events => false,
    }
}

/// The scopes an export queued before they were recorded is built for: what queuing one needs.
const SCOPES_OF_OLD_EXPORTS: [&str; 2] = ["dunning.read", "dunning.exports"];

impl Export {
    /// The scopes its rows are shown for.
    pub fn shown_for(&self) -> Vec<String> {
        match &self.scopes {
            Some(scopes) => scopes.clone(),
            None => SCOPES_OF_OLD_EXPORTS.iter().map(|s| s.to_string()).collect(),
        }
    }

    /// A new export, queued: every filter given must apply to its kind.
    pub fn queue(
        organization_id: &str,
        kind: ExportKind,
        filters: ExportFilters,
        separator: ExportSeparator,
        now: OffsetDateTime,
    ) -> Result<Self, RuleError> {
        let mut violations = Violations::default();
        let given = [
            ("created_from", filters.created_from.is_some()),
            ("created_to", filters.created_to.is_some()),
            ("status", filters.status.is_some()),
            ("debtor_id", filters.debtor_id.is_some()),
            ("charge_id", filters.charge_id.is_some()),
            ("code", filters.code.is_some()),
            ("resource_id", filters.resource_id.is_some()),
        ];
        for (name, _) in given.iter().filter(|(name, set)| *set && !applies(kind, name)) {
            violations.push(
                &format!("filters.{name}"),
                format!("does not apply to an export of {}", kind.as_str()),
            );
        }
        if let Some(status) = &filters.status
            && applies(kind, "status")
            && !is_status_of(kind, status)
        {
            violations.push("filters.status", format!("is not a status of {}", kind.as_str()));
        }
        if let (Some(from), Some(to)) = (&filters.created_from, &filters.created_to)
            && from.0 >= to.0
        {
            violations.push("filters.created_to", "must be after created_from");
        }
        violations.finish()?;
        Ok(Export {
            id: new_id("exp"),
            organization_id: organization_id.to_owned(),
            kind,
            filters,
            separator,
            status: ExportStatus::Queued,
            rows: None,
            size_bytes: None,
            error: None,
            version: 1,
            created_at: now,
            started_at: None,
            processed_at: None,
            failed_at: None,
            expires_at: None,
            scopes: None,
            attempts: 0,
            updated_at: now,
        })
    }

    /// A builder took it (again, when the one before died or the database failed it).
    pub fn start(&mut self, now: OffsetDateTime) {
        self.status = ExportStatus::Processing;
        self.started_at = Some(now);
        self.attempts += 1;
        self.touch(now);
    }

    /// Whether this attempt is past the last one allowed: it fails rather than builds again.
    pub fn out_of_attempts(&self) -> bool {
        self.attempts > MAX_BUILD_ATTEMPTS
    }

    /// Whether this attempt is the last one allowed.
    pub fn on_last_attempt(&self) -> bool {
        self.attempts >= MAX_BUILD_ATTEMPTS
    }

    /// Its file is whole.
    pub fn finish(&mut self, rows: i64, size_bytes: i64, now: OffsetDateTime) {
        self.status = ExportStatus::Processed;
        self.rows = Some(rows);
        self.size_bytes = Some(size_bytes);
        self.processed_at = Some(now);
        self.expires_at = Some(now + RETENTION);
        self.touch(now);
    }

    /// It could not be built.
    pub fn fail(&mut self, error: String, now: OffsetDateTime) {
        self.status = ExportStatus::Failed;
        self.error = Some(error);
        self.failed_at = Some(now);
        self.touch(now);
    }

    /// Its file is gone: it expired.
    pub fn expire(&mut self, now: OffsetDateTime) {
        self.status = ExportStatus::Expired;
        self.touch(now);
    }

    /// Only a processed export has a file to download.
    pub fn check_downloadable(&self) -> Result<(), RuleError> {
        if self.status == ExportStatus::Processed {
            return Ok(());
        }
        let message = match self.status {
            ExportStatus::Queued | ExportStatus::Processing => {
                "The export is not built yet; try again shortly."
            }
            ExportStatus::Expired => "The export expired and its file was removed; create a new one.",
            _ => "The export failed; create a new one.",
        };
        Err(RuleError::InvalidState {
            message: message.into(),
            status: self.status.as_str(),
            allowed: vec![ExportStatus::Processed.as_str()],
        })
    }

    fn touch(&mut self, now: OffsetDateTime) {
        self.version += 1;
        self.updated_at = now.max(self.updated_at);
    }
}

/// The separator's byte.
pub fn delimiter(separator: ExportSeparator) -> u8 {
    match separator {
        ExportSeparator::Comma => b',',
        ExportSeparator::Semicolon => b';',
    }
}

/// A cell as written: one a spreadsheet would take for a formula (starting with `=`, `+`, `-`,
/// `@`, a tab or a carriage return) gets an apostrophe first, which spreadsheets show as text.
pub fn neutralised(cell: &str) -> Cow<'_, str> {
    match cell.as_bytes().first() {
        Some(b'=' | b'+' | b'-' | b'@' | b'\t' | b'\r') => Cow::Owned(format!("'{cell}")),
        _ => Cow::Borrowed(cell),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::dates::Timestamp;
    use time::macros::datetime;

    const NOW: OffsetDateTime = datetime!(2027-01-04 12:00 UTC);

    fn filters() -> ExportFilters {
        no_filters()
    }

    #[test]
    fn formulas_are_shown_as_text() {
        for cell in ["=1+1", "+55 11", "-2", "@SUM(A1)", "\tx", "\rx"] {
            assert_eq!(neutralised(cell), format!("'{cell}"));
        }
        for cell in ["Maria", "1250.00", "", "a=b"] {
            assert_eq!(neutralised(cell), cell);
        }
    }

    #[test]
    fn filters_must_apply_to_the_kind() {
        let f = ExportFilters { charge_id: Some("chg_1".into()), ..filters() };
        let Err(RuleError::Invalid(v)) =
            Export::queue("org_1", ExportKind::Debtors, f, ExportSeparator::Comma, NOW)
        else {
            panic!("a debtor has no charge_id");
        };
        assert_eq!(v[0].field, "filters.charge_id");
        let f = ExportFilters { status: Some("overdue".into()), ..filters() };
        assert!(Export::queue("org_1", ExportKind::Charges, f.clone(), ExportSeparator::Comma, NOW).is_ok());
        assert!(Export::queue("org_1", ExportKind::Protests, f, ExportSeparator::Comma, NOW).is_err());
        let f = ExportFilters {
            created_from: Some(Timestamp(NOW)),
            created_to: Some(Timestamp(NOW - Duration::days(1))),
            ..filters()
        };
        assert!(Export::queue("org_1", ExportKind::Events, f, ExportSeparator::Comma, NOW).is_err());
    }

    #[test]
    fn only_a_processed_export_downloads_and_it_expires_after_seven_days() {
        let mut e =
            Export::queue("org_1", ExportKind::Charges, filters(), ExportSeparator::Semicolon, NOW).unwrap();
        assert!(matches!(e.check_downloadable(), Err(RuleError::InvalidState { status: "queued", .. })));
        e.start(NOW);
        e.finish(10, 1000, NOW);
        assert!(e.check_downloadable().is_ok());
        assert_eq!(e.expires_at, Some(NOW + Duration::days(7)));
        e.expire(NOW + Duration::days(7));
        assert!(matches!(e.check_downloadable(), Err(RuleError::InvalidState { status: "expired", .. })));
        assert_eq!(e.version, 4);
    }
}
