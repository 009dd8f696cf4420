//! Debtors, with the open and overdue totals of their charges.

use sqlx::{QueryBuilder, Row, Sqlite};

use super::columns::{
    date_text, enumeration, json, money, optional_date, optional_timestamp, timestamp, timestamp_text,
};
use super::events::{NewEvent, insert_event};
use super::listing::{ListWindow, fetch_page, push_cmp, push_in, push_window};
use super::{Store, StoreError, StoreResult, is_unique_violation};
use crate::domain::debtor::{Balance, Debtor, OptOut};

/// Filters of the debtor list.
#[derive(Debug, Default)]
pub struct DebtorFilter {
    /// Search, creation range, order and window.
    pub window: ListWindow,
    /// `status IN (…)`.
    pub statuses: Vec<String>,
    /// `natural` or `legal`.
    pub person_type: Option<String>,
}

const SELECT: &str = "SELECT d.*, \
    COALESCE((SELECT SUM(c.amount_cents - c.paid_cents) FROM charges c WHERE c.debtor_id = d.id AND c.status IN ('pending', 'overdue')), 0) AS open_cents, \
    COALESCE((SELECT SUM(c.amount_cents - c.paid_cents) FROM charges c WHERE c.debtor_id = d.id AND c.status = 'overdue'), 0) AS overdue_cents, \
    (SELECT COUNT(*) FROM charges c WHERE c.debtor_id = d.id AND c.status IN ('pending', 'overdue')) AS open_charges \
    FROM debtors d";

fn sort_column(sort_by: &str) -> &'static str {
    match sort_by {
        "name" => "d.name",
        "updated_at" => "d.updated_at",
        _ => "d.created_at",
    }
}

fn from_row(row: &sqlx::sqlite::SqliteRow) -> StoreResult<Debtor> {
    let flag = |col: &str| -> StoreResult<bool> { Ok(row.try_get::<i64, _>(col)? != 0) };
    let address: Option<String> = row.try_get("address")?;
    Ok(Debtor {
        id: row.try_get("id")?,
        organization_id: row.try_get("organization_id")?,
        external_id: row.try_get("external_id")?,
        person_type: enumeration(row, "person_type")?,
        name: row.try_get("name")?,
        document: row.try_get("document")?,
        email: row.try_get("email")?,
        phone: row.try_get("phone")?,
        mobile: row.try_get("mobile")?,
        address: address.map(|a| serde_json::from_str(&a)).transpose()?,
        birth_date: optional_date(row, "birth_date")?,
        opt_out: OptOut {
            email: flag("opt_out_email")?,
            sms: flag("opt_out_sms")?,
            whatsapp: flag("opt_out_whatsapp")?,
        },
        credit_bureau_blocked: flag("credit_bureau_blocked")?,
        status: enumeration(row, "status")?,
        archived_at: optional_timestamp(row, "archived_at")?,
        tags: json(row, "tags")?,
        metadata: json(row, "metadata")?,
        version: row.try_get("version")?,
        created_at: timestamp(row, "created_at")?,
        updated_at: timestamp(row, "updated_at")?,
        balance: Balance {
            open: money(row, "open_cents")?,
            overdue: money(row, "overdue_cents")?,
            open_charges: row.try_get("open_charges")?,
        },
    })
}

fn duplicate_document(err: sqlx::Error) -> StoreError {
    if is_unique_violation(&err) {
        StoreError::Duplicate("a debtor with this document already exists".into())
    } else {
        err.into()
    }
}

impl Store {
    /// One debtor of an organization.
    pub async fn debtor(&self, org_id: &str, id: &str) -> StoreResult<Option<Debtor>> {
        let row =
            sqlx::query(sqlx::AssertSqlSafe(format!("{SELECT} WHERE d.organization_id = $1 AND d.id = $2")))
                .bind(org_id)
                .bind(id)
                .fetch_optional(&self.pool)
                .await?;
        row.as_ref().map(from_row).transpose()
    }

    /// A page of debtors and the total count.
    pub async fn debtors(&self, org_id: &str, filter: &DebtorFilter) -> StoreResult<(Vec<Debtor>, i64)> {
        let order = (sort_column(&filter.window.sort_by), "d.id");
        let filters = |q: &mut QueryBuilder<Sqlite>| push_where(q, org_id, filter);
        fetch_page(&self.pool, "FROM debtors d", SELECT, filters, order, &filter.window, from_row).await
    }

    /// Inserts a debtor and its event.
    pub async fn insert_debtor(&self, d: &Debtor, event: &NewEvent) -> StoreResult<()> {
        let mut tx = self.pool.begin().await?;
        bind_debtor(
            sqlx::query(
                "INSERT INTO debtors (external_id, person_type, name, document, email, phone, mobile, address, birth_date, \
                 opt_out_email, opt_out_sms, opt_out_whatsapp, credit_bureau_blocked, status, archived_at, tags, metadata, \
                 version, updated_at, id, organization_id, created_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22)",
            ),
            d,
        )
        .bind(&d.id)
        .bind(&d.organization_id)
        .bind(timestamp_text(&d.created_at))
        .execute(&mut *tx)
        .await
        .map_err(duplicate_document)?;
        insert_event(&mut tx, event).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Saves a changed debtor if it is still at `expected_version`; false when it moved on.
    pub async fn update_debtor(
        &self,
        d: &Debtor,
        expected_version: i64,
        event: &NewEvent,
    ) -> StoreResult<bool> {
        let mut tx = self.pool.begin().await?;
        let result = bind_debtor(
            sqlx::query(
                "UPDATE debtors SET external_id = $1, person_type = $2, name = $3, document = $4, email = $5, phone = $6, \
                 mobile = $7, address = $8, birth_date = $9, opt_out_email = $10, opt_out_sms = $11, opt_out_whatsapp = $12, \
                 credit_bureau_blocked = $13, status = $14, archived_at = $15, tags = $16, metadata = $17, version = $18, \
                 updated_at = $19 WHERE id = $20 AND organization_id = $21 AND version = $22",
            ),
            d,
        )
        .bind(&d.id)
        .bind(&d.organization_id)
        .bind(expected_version)
        .execute(&mut *tx)
        .await
        .map_err(duplicate_document)?;
        if result.rows_affected() == 0 {
            return Ok(false);
        }
        insert_event(&mut tx, event).await?;
        tx.commit().await?;
        Ok(true)
    }

    /// Deletes a debtor without charges; false when it has charges or changed meanwhile.
    pub async fn delete_debtor(
        &self,
        org_id: &str,
        id: &str,
        expected_version: i64,
        event: &NewEvent,
    ) -> StoreResult<bool> {
        let mut tx = self.pool.begin().await?;
        let result = sqlx::query(
            "DELETE FROM debtors WHERE organization_id = $1 AND id = $2 AND version = $3 \
             AND NOT EXISTS (SELECT 1 FROM charges c WHERE c.debtor_id = debtors.id)",
        )
        .bind(org_id)
        .bind(id)
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

    /// Whether a debtor has any charge.
    pub async fn debtor_has_charges(&self, org_id: &str, id: &str) -> StoreResult<bool> {
        let n: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM charges WHERE organization_id = $1 AND debtor_id = $2")
                .bind(org_id)
                .bind(id)
                .fetch_one(&self.pool)
                .await?;
        Ok(n > 0)
    }
}

type Query<'q> = sqlx::query::Query<'q, Sqlite, sqlx::sqlite::SqliteArguments>;

/// Binds the mutable columns, in the order both statements list them ($1 to $19).
fn bind_debtor<'q>(query: Query<'q>, d: &'q Debtor) -> Query<'q> {
    query
        .bind(&d.external_id)
        .bind(d.person_type.as_str())
        .bind(&d.name)
        .bind(&d.document)
        .bind(&d.email)
        .bind(&d.phone)
        .bind(&d.mobile)
        .bind(d.address.as_ref().and_then(|a| serde_json::to_string(a).ok()))
        .bind(d.birth_date.map(date_text))
        .bind(i64::from(d.opt_out.email))
        .bind(i64::from(d.opt_out.sms))
        .bind(i64::from(d.opt_out.whatsapp))
        .bind(i64::from(d.credit_bureau_blocked))
        .bind(d.status.as_str())
        .bind(d.archived_at.as_ref().map(timestamp_text))
        .bind(serde_json::to_string(&d.tags).unwrap_or_default())
        .bind(serde_json::to_string(&d.metadata).unwrap_or_default())
        .bind(d.version)
        .bind(timestamp_text(&d.updated_at))
}

fn push_where(q: &mut QueryBuilder<Sqlite>, org_id: &str, f: &DebtorFilter) {
    push_window(q, "d", org_id, &f.window, &["d.id", "d.name", "d.document"]);
    push_in(q, "d.status", &f.statuses);
    push_cmp(q, "d.person_type", "=", f.person_type.as_ref());
}
