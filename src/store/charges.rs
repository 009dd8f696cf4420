//! Charges, read with their debtor's name.

use sqlx::{QueryBuilder, Row, Sqlite};

use super::columns::{
    date, date_text, enumeration, json, money, optional_timestamp, timestamp, timestamp_text,
};
use super::events::{NewEvent, insert_event};
use super::listing::{ListWindow, fetch_page, push_cmp, push_in, push_window};
use super::{Store, StoreResult};
use crate::domain::charge::Charge;

/// Filters of the charge list.
#[derive(Debug, Default)]
pub struct ChargeFilter {
    /// Search, creation range, order and window.
    pub window: ListWindow,
    /// `status IN (…)`.
    pub statuses: Vec<String>,
    /// `dunning_status IN (…)`.
    pub dunning_statuses: Vec<String>,
    /// `debtor_id IN (…)`.
    pub debtor_ids: Vec<String>,
    /// Due on or after.
    pub due_from: Option<String>,
    /// Due on or before.
    pub due_to: Option<String>,
}

const SELECT: &str = "SELECT c.*, d.name AS debtor_name FROM charges c JOIN debtors d ON d.id = c.debtor_id";

fn sort_column(sort_by: &str) -> &'static str {
    match sort_by {
        "due_date" => "c.due_date",
        "amount" => "c.amount_cents",
        "updated_at" => "c.updated_at",
        _ => "c.created_at",
    }
}

fn from_row(row: &sqlx::sqlite::SqliteRow) -> StoreResult<Charge> {
    Ok(Charge {
        id: row.try_get("id")?,
        organization_id: row.try_get("organization_id")?,
        debtor_id: row.try_get("debtor_id")?,
        debtor_name: row.try_get("debtor_name")?,
        external_id: row.try_get("external_id")?,
        description: row.try_get("description")?,
        amount: money(row, "amount_cents")?,
        paid: money(row, "paid_cents")?,
        issue_date: date(row, "issue_date")?,
        due_date: date(row, "due_date")?,
        status: enumeration(row, "status")?,
        dunning_status: enumeration(row, "dunning_status")?,
        payment_method: enumeration(row, "payment_method")?,
        fine: money(row, "fine_hundredths")?,
        interest: money(row, "interest_hundredths")?,
        paid_at: optional_timestamp(row, "paid_at")?,
        canceled_at: optional_timestamp(row, "canceled_at")?,
        cancellation_reason: row.try_get("cancellation_reason")?,
        written_off_at: optional_timestamp(row, "written_off_at")?,
        agreement_id: row.try_get("agreement_id")?,
        credit_bureau_status: row.try_get("credit_bureau_status")?,
        protest_status: row.try_get("protest_status")?,
        tags: json(row, "tags")?,
        metadata: json(row, "metadata")?,
        version: row.try_get("version")?,
        created_at: timestamp(row, "created_at")?,
        updated_at: timestamp(row, "updated_at")?,
    })
}

impl Store {
    /// One charge of an organization.
    pub async fn charge(&self, org_id: &str, id: &str) -> StoreResult<Option<Charge>> {
        let row =
            sqlx::query(sqlx::AssertSqlSafe(format!("{SELECT} WHERE c.organization_id = $1 AND c.id = $2")))
                .bind(org_id)
                .bind(id)
                .fetch_optional(&self.pool)
                .await?;
        row.as_ref().map(from_row).transpose()
    }

    /// A page of charges and the total count.
    pub async fn charges(&self, org_id: &str, filter: &ChargeFilter) -> StoreResult<(Vec<Charge>, i64)> {
        let order = (sort_column(&filter.window.sort_by), "c.id");
        let filters = |q: &mut QueryBuilder<Sqlite>| push_where(q, org_id, filter);
        let from = "FROM charges c JOIN debtors d ON d.id = c.debtor_id";
        fetch_page(&self.pool, from, SELECT, filters, order, &filter.window, from_row).await
    }

    /// Inserts a charge and its event.
    pub async fn insert_charge(&self, c: &Charge, event: &NewEvent) -> StoreResult<()> {
        let mut tx = self.pool.begin().await?;
        bind_charge(
            sqlx::query(
                "INSERT INTO charges (external_id, description, amount_cents, paid_cents, issue_date, due_date, status, \
                 dunning_status, payment_method, fine_hundredths, interest_hundredths, paid_at, canceled_at, \
                 cancellation_reason, written_off_at, agreement_id, credit_bureau_status, protest_status, tags, metadata, \
                 version, updated_at, id, organization_id, debtor_id, created_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, \
                 $23, $24, $25, $26)",
            ),
            c,
        )
        .bind(&c.id)
        .bind(&c.organization_id)
        .bind(&c.debtor_id)
        .bind(timestamp_text(&c.created_at))
        .execute(&mut *tx)
        .await?;
        insert_event(&mut tx, event).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Saves a changed charge if it is still at `expected_version`; false when it moved on.
    pub async fn update_charge(
        &self,
        c: &Charge,
        expected_version: i64,
        event: &NewEvent,
    ) -> StoreResult<bool> {
        let mut tx = self.pool.begin().await?;
        let result = bind_charge(
            sqlx::query(
                "UPDATE charges SET external_id = $1, description = $2, amount_cents = $3, paid_cents = $4, issue_date = $5, \
                 due_date = $6, status = $7, dunning_status = $8, payment_method = $9, fine_hundredths = $10, \
                 interest_hundredths = $11, paid_at = $12, canceled_at = $13, cancellation_reason = $14, written_off_at = $15, \
                 agreement_id = $16, credit_bureau_status = $17, protest_status = $18, tags = $19, metadata = $20, \
                 version = $21, updated_at = $22 WHERE id = $23 AND organization_id = $24 AND version = $25",
            ),
            c,
        )
        .bind(&c.id)
        .bind(&c.organization_id)
        .bind(expected_version)
        .execute(&mut *tx)
        .await?;
        if result.rows_affected() == 0 {
            return Ok(false);
        }
        insert_event(&mut tx, event).await?;
        tx.commit().await?;
        Ok(true)
    }
}

type Query<'q> = sqlx::query::Query<'q, Sqlite, sqlx::sqlite::SqliteArguments>;

/// Binds the mutable columns, in the order both statements list them ($1 to $22).
fn bind_charge<'q>(query: Query<'q>, c: &'q Charge) -> Query<'q> {
    query
        .bind(&c.external_id)
        .bind(&c.description)
        .bind(c.amount.0)
        .bind(c.paid.0)
        .bind(date_text(c.issue_date))
        .bind(date_text(c.due_date))
        .bind(c.status.as_str())
        .bind(c.dunning_status.as_str())
        .bind(c.payment_method.as_str())
        .bind(c.fine.0)
        .bind(c.interest.0)
        .bind(c.paid_at.as_ref().map(timestamp_text))
        .bind(c.canceled_at.as_ref().map(timestamp_text))
        .bind(&c.cancellation_reason)
        .bind(c.written_off_at.as_ref().map(timestamp_text))
        .bind(&c.agreement_id)
        .bind(&c.credit_bureau_status)
        .bind(&c.protest_status)
        .bind(serde_json::to_string(&c.tags).unwrap_or_default())
        .bind(serde_json::to_string(&c.metadata).unwrap_or_default())
        .bind(c.version)
        .bind(timestamp_text(&c.updated_at))
}

fn push_where(q: &mut QueryBuilder<Sqlite>, org_id: &str, f: &ChargeFilter) {
    push_window(q, "c", org_id, &f.window, &["c.id", "c.external_id", "d.name", "d.document"]);
    push_in(q, "c.status", &f.statuses);
    push_in(q, "c.dunning_status", &f.dunning_statuses);
    push_in(q, "c.debtor_id", &f.debtor_ids);
    push_cmp(q, "c.due_date", ">=", f.due_from.as_ref());
    push_cmp(q, "c.due_date", "<=", f.due_to.as_ref());
}
