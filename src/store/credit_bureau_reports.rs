//! Credit-bureau reports: the table's own columns, and the prior notice a report needs. The
//! life they share with protests is stored by `escalations.rs`.

use super::columns::{date_text, enumeration, optional_date, optional_enumeration};
use super::escalations::{Stored, queries};
use super::value::{Param, Row, args};
use super::{Store, StoreResult};
use crate::domain::credit_bureau::ReportDetails;

impl Stored for ReportDetails {
    queries!(
        "credit_bureau_reports",
        live: "'requested', 'notice_sent', 'reported', 'removal_requested'",
        moving: "'requested', 'notice_sent', 'removal_requested'",
        owed: "'requested', 'canceled', 'removal_requested'",
        mirror: "credit_bureau_status",
        protocol: "external_protocol",
        changing: ["removal_due_by", "remove_reason"],
        fixed: ["bureau", "nature", "notice_notification_id"],
    );
    const NAME: &'static str = "credit-bureau report";

    fn details(row: &Row) -> StoreResult<Self> {
        Ok(Self {
            bureau: enumeration(row, "bureau")?,
            nature: row.text("nature")?,
            notice_notification_id: row.text("notice_notification_id")?,
            removal_due_by: optional_date(row, "removal_due_by")?,
            remove_reason: optional_enumeration(row, "remove_reason")?,
        })
    }

    fn changing(&self) -> Vec<Param> {
        Vec::from(args![
            self.removal_due_by.map(date_text),
            self.remove_reason.map(|reason| reason.as_str().to_string()),
        ])
    }

    fn fixed(&self) -> Vec<Param> {
        Vec::from(args![self.bureau.as_str(), &self.nature, &self.notice_notification_id])
    }
}

impl Store {
    /// The `letter` notification sent for a charge first: the prior written notice a report
    /// needs.
    pub async fn letter_notice(&self, org_id: &str, charge_id: &str) -> StoreResult<Option<String>> {
        let row = self
            .db
            .find(
                "SELECT id FROM notifications WHERE organization_id = $1 AND charge_id = $2 AND channel = 'letter' \
                 AND status IN ('sent', 'delivered', 'read', 'clicked') ORDER BY sent_at, id LIMIT 1",
                &args![org_id, charge_id],
            )
            .await?;
        row.map(|r| r.text("id")).transpose()
    }
}
