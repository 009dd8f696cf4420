//! Credit-bureau reports. The charge's `credit_bureau_status` follows the latest report; the
//! handler saves both in one unit of work.

use super::backend::Step;
use super::columns::{
    date_text, enumeration, money, optional_date, optional_enumeration, optional_timestamp, timestamp,
    timestamp_text,
};
use super::events::{NewEvent, insert_event};
use super::listing::{EscalationFilter, summed_page};
use super::value::{Param, Row, args};
use super::{Store, StoreResult};
use crate::domain::credit_bureau::Report;

/// The row with what its answers show of its charge and debtor (their primary keys, read per
/// row): columns of the outer table stay unqualified, so the list's filters apply unchanged.
macro_rules! select {
    () => {
        concat!(
            "SELECT credit_bureau_reports.*, ",
            "(SELECT d.name FROM debtors d WHERE d.id = credit_bureau_reports.debtor_id) AS debtor_name, ",
            "(SELECT c.description FROM charges c WHERE c.id = credit_bureau_reports.charge_id) ",
            "AS charge_description FROM credit_bureau_reports"
        )
    };
}

pub(super) fn from_row(row: &Row) -> StoreResult<Report> {
    Ok(Report {
        id: row.text("id")?,
        organization_id: row.text("organization_id")?,
        charge_id: row.text("charge_id")?,
        debtor_id: row.text("debtor_id")?,
        debtor_name: row.text("debtor_name")?,
        charge_description: row.opt_text("charge_description")?,
        bureau: enumeration(row, "bureau")?,
        status: enumeration(row, "status")?,
        amount: money(row, "amount_cents")?,
        nature: row.text("nature")?,
        notice_notification_id: row.text("notice_notification_id")?,
        requested_at: timestamp(row, "requested_at")?,
        notice_sent_at: optional_timestamp(row, "notice_sent_at")?,
        included_at: optional_timestamp(row, "included_at")?,
        removal_requested_at: optional_timestamp(row, "removal_requested_at")?,
        removal_due_by: optional_date(row, "removal_due_by")?,
        removed_at: optional_timestamp(row, "removed_at")?,
        canceled_at: optional_timestamp(row, "canceled_at")?,
        remove_reason: optional_enumeration(row, "remove_reason")?,
        failure_reason: row.opt_text("failure_reason")?,
        external_protocol: row.opt_text("external_protocol")?,
        submitted_status: optional_enumeration(row, "submitted_status")?,
        version: row.int("version")?,
        created_at: timestamp(row, "created_at")?,
        updated_at: timestamp(row, "updated_at")?,
    })
}

fn already_under_way(err: super::StoreError, charge_id: &str) -> super::StoreError {
    if err.is_unique_violation() {
        super::StoreError::Duplicate(format!(
            "charge {charge_id} already has a credit-bureau report under way"
        ))
    } else {
        err
    }
}

const INSERT: &str = "INSERT INTO credit_bureau_reports (status, notice_sent_at, included_at, removal_requested_at, \
     removal_due_by, removed_at, canceled_at, remove_reason, failure_reason, external_protocol, version, updated_at, \
     id, organization_id, charge_id, debtor_id, bureau, amount_cents, nature, notice_notification_id, requested_at, \
     created_at) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22)";

const UPDATE: &str = "UPDATE credit_bureau_reports SET status = $1, notice_sent_at = $2, included_at = $3, \
     removal_requested_at = $4, removal_due_by = $5, removed_at = $6, canceled_at = $7, remove_reason = $8, \
     failure_reason = $9, external_protocol = $10, version = $11, updated_at = $12 \
     WHERE id = $13 AND organization_id = $14 AND version = $15";

/// The columns that change after a report is filed, in the order both statements list them.
fn mutable_values(r: &Report) -> Vec<Param> {
    Vec::from(args![
        r.status.as_str(),
        r.notice_sent_at.as_ref().map(timestamp_text),
        r.included_at.as_ref().map(timestamp_text),
        r.removal_requested_at.as_ref().map(timestamp_text),
        r.removal_due_by.map(date_text),
        r.removed_at.as_ref().map(timestamp_text),
        r.canceled_at.as_ref().map(timestamp_text),
        r.remove_reason.map(|reason| reason.as_str().to_string()),
        &r.failure_reason,
        &r.external_protocol,
        r.version,
        timestamp_text(&r.updated_at),
    ])
}

/// The charge's `credit_bureau_status` follows the report.
fn mirror(r: &Report) -> Step {
    super::charges::escalation_status(
        "credit_bureau_status",
        r.status.as_str(),
        &r.charge_id,
        &r.organization_id,
        &r.updated_at,
    )
}

impl Store {
    /// Inserts a report and its event if its charge is still at `charge_version` (false when it
    /// changed meanwhile); a charge with a report under way is a duplicate.
    pub async fn insert_credit_bureau_report(
        &self,
        r: &Report,
        charge_version: i64,
        event: &NewEvent,
    ) -> StoreResult<bool> {
        let mut values = mutable_values(r);
        values.extend(args![
            &r.id,
            &r.organization_id,
            &r.charge_id,
            &r.debtor_id,
            r.bureau.as_str(),
            r.amount.0,
            &r.nature,
            &r.notice_notification_id,
            timestamp_text(&r.requested_at),
            timestamp_text(&r.created_at),
        ]);
        let filed = super::charges::escalation_filed(
            "credit_bureau_status",
            r.status.as_str(),
            &r.charge_id,
            &r.organization_id,
            charge_version,
            &r.updated_at,
        );
        let inserted = self.db.write(&[filed, Step::new(INSERT, values), insert_event(event)]).await;
        inserted.map_err(|e| already_under_way(e, &r.charge_id))
    }

    /// Saves a changed report if it is still at `expected`; false when it moved on.
    pub async fn update_credit_bureau_report(
        &self,
        r: &Report,
        expected: i64,
        event: &NewEvent,
    ) -> StoreResult<bool> {
        let mut params = mutable_values(r);
        params.extend(args![&r.id, &r.organization_id, expected]);
        self.db.write(&[mirror(r), Step::must_change(UPDATE, params), insert_event(event)]).await
    }

    /// One report of an organization.
    pub async fn credit_bureau_report(&self, org_id: &str, id: &str) -> StoreResult<Option<Report>> {
        let row = self
            .db
            .find(concat!(select!(), " WHERE organization_id = $1 AND id = $2"), &args![org_id, id])
            .await?;
        row.as_ref().map(from_row).transpose()
    }

    /// The report of a charge still under way (requested to removal_requested), if any.
    pub async fn live_credit_bureau_report(
        &self,
        org_id: &str,
        charge_id: &str,
    ) -> StoreResult<Option<Report>> {
        let row = self
            .db
            .find(
                concat!(
                    select!(),
                    " WHERE organization_id = $1 AND charge_id = $2 AND status IN ('requested', ",
                    "'notice_sent', 'reported', 'removal_requested')",
                ),
                &args![org_id, charge_id],
            )
            .await?;
        row.as_ref().map(from_row).transpose()
    }

    /// The organization's reports waiting on the bureau's next step (requested, notice_sent,
    /// removal_requested), oldest first.
    pub async fn moving_credit_bureau_reports(&self, org_id: &str) -> StoreResult<Vec<Report>> {
        let rows = self
            .db
            .rows(
                concat!(
                    select!(),
                    " WHERE organization_id = $1 AND status IN ('requested', 'notice_sent', ",
                    "'removal_requested') ORDER BY created_at, id",
                ),
                &args![org_id],
            )
            .await?;
        rows.iter().map(from_row).collect()
    }

    /// A page of reports, the exact total and the sum of their amounts (centavos).
    pub async fn credit_bureau_reports(
        &self,
        org_id: &str,
        f: &EscalationFilter,
    ) -> StoreResult<(Vec<Report>, i64, i64)> {
        summed_page(
            &self.db,
            "credit_bureau_reports",
            Some(select!()),
            "created_at",
            "amount_cents",
            f.filters(org_id),
            f.ascending,
            f.limit,
            f.offset,
            from_row,
        )
        .await
    }

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

    /// The organization's reports whose bureau must still be told something (see
    /// `owed_to_bureau`), oldest first.
    pub async fn owed_credit_bureau_reports(&self, org_id: &str) -> StoreResult<Vec<Report>> {
        let rows = self
            .db
            .rows(
                concat!(
                    select!(),
                    " WHERE organization_id = $1 AND status IN ('requested', 'canceled', ",
                    "'removal_requested') AND (submitted_status IS NULL OR submitted_status <> ",
                    "status) ORDER BY created_at, id",
                ),
                &args![org_id],
            )
            .await?;
        rows.iter().map(from_row).collect()
    }

    /// Records that the bureau was told of status `told` (no new version: the report itself did
    /// not change).
    pub async fn report_submitted(&self, id: &str, told: &str) -> StoreResult<()> {
        let step = Step::new(
            "UPDATE credit_bureau_reports SET submitted_status = $1 WHERE id = $2",
            args![told, id],
        );
        self.db.write(&[step]).await.map(drop)
    }

    /// A report by its id alone, for the bureau's status callbacks (signed by the gateway, which
    /// knows no organization).
    pub async fn report_by_id(&self, id: &str) -> StoreResult<Option<Report>> {
        let row = self.db.find(concat!(select!(), " WHERE id = $1"), &args![id]).await?;
        row.as_ref().map(from_row).transpose()
    }
}
