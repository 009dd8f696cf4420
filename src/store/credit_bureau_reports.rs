//! Credit-bureau reports: the table's own columns, and the prior notice a report needs. The
//! life they share with protests is stored by `escalations.rs`.

use super::columns::{date_text, enumeration, optional_date, optional_enumeration};
use super::escalations::{Queries, Stored, queries};
use super::value::{Param, Row, args};
use super::{Store, StoreResult};
use crate::domain::credit_bureau::ReportDetails;

impl Stored for ReportDetails {
    const SQL: Queries = queries!(
        "credit_bureau_reports",
        live: "'requested', 'notice_sent', 'reported', 'removal_requested'",
        moving: "'requested', 'notice_sent', 'removal_requested'",
        owed: "'requested', 'canceled', 'removal_requested'",
        insert: "INSERT INTO credit_bureau_reports (status, failure_reason, version, updated_at, notice_sent_at, \
            included_at, removal_requested_at, removed_at, canceled_at, removal_due_by, remove_reason, \
            external_protocol, id, organization_id, charge_id, debtor_id, amount_cents, requested_at, created_at, \
            bureau, nature, notice_notification_id) \
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22)",
        update: "UPDATE credit_bureau_reports SET status = $1, failure_reason = $2, version = $3, updated_at = $4, \
            notice_sent_at = $5, included_at = $6, removal_requested_at = $7, removed_at = $8, canceled_at = $9, \
            removal_due_by = $10, remove_reason = $11, external_protocol = $12 \
            WHERE id = $13 AND organization_id = $14 AND version = $15",
    );
    const MIRROR: &'static str = "credit_bureau_status";
    const NAME: &'static str = "credit-bureau report";

    fn details(row: &Row) -> StoreResult<Self> {
        Ok(Self {
            bureau: enumeration(row, "bureau")?,
            nature: row.text("nature")?,
            notice_notification_id: row.text("notice_notification_id")?,
            removal_due_by: optional_date(row, "removal_due_by")?,
            remove_reason: optional_enumeration(row, "remove_reason")?,
            external_protocol: row.opt_text("external_protocol")?,
        })
    }

    fn changing(&self) -> Vec<Param> {
        Vec::from(args![
            self.removal_due_by.map(date_text),
            self.remove_reason.map(|reason| reason.as_str().to_string()),
            &self.external_protocol,
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
