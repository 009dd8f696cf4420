//! Debtors, with the open and overdue totals of their charges.

use serde_json::Value;
use sqlx::{QueryBuilder, Row, Sqlite};

use super::events::{NewEvent, insert_event};
use super::{Store, StoreError, StoreResult, is_unique_violation};

/// A debtor as stored, with its charge summary.
#[derive(Debug, Clone, PartialEq)]
pub struct DebtorRow {
    pub id: String,
    pub organization_id: String,
    pub external_id: Option<String>,
    pub person_type: String,
    pub name: String,
    pub document: String,
    pub email: Option<String>,
    pub phone: Option<String>,
    pub mobile: Option<String>,
    pub address: Option<Value>,
    pub birth_date: Option<String>,
    pub opt_out_email: bool,
    pub opt_out_sms: bool,
    pub opt_out_whatsapp: bool,
    pub credit_bureau_blocked: bool,
    pub status: String,
    pub archived_at: Option<String>,
    pub tags: Value,
    pub metadata: Value,
    pub version: i64,
    pub created_at: String,
    pub updated_at: String,
    /// Balance of pending and overdue charges, in centavos.
    pub open_cents: i64,
    /// Balance of overdue charges, in centavos.
    pub overdue_cents: i64,
    /// Number of pending and overdue charges.
    pub open_charges: i64,
}

/// Filters of the debtor list.
#[derive(Debug, Default)]
pub struct DebtorFilter {
    pub q: Option<String>,
    pub statuses: Vec<String>,
    pub person_type: Option<String>,
    pub created_from: Option<String>,
    pub created_before: Option<String>,
    /// A column of the whitelist in `sort_column`.
    pub sort_by: String,
    pub descending: bool,
    pub limit: i64,
    pub offset: i64,
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

fn from_row(row: &sqlx::sqlite::SqliteRow) -> StoreResult<DebtorRow> {
    let json =
        |col: &str| -> StoreResult<Value> { Ok(serde_json::from_str(&row.try_get::<String, _>(col)?)?) };
    let address: Option<String> = row.try_get("address")?;
    Ok(DebtorRow {
        id: row.try_get("id")?,
        organization_id: row.try_get("organization_id")?,
        external_id: row.try_get("external_id")?,
        person_type: row.try_get("person_type")?,
        name: row.try_get("name")?,
        document: row.try_get("document")?,
        email: row.try_get("email")?,
        phone: row.try_get("phone")?,
        mobile: row.try_get("mobile")?,
        address: address.map(|a| serde_json::from_str(&a)).transpose()?,
        birth_date: row.try_get("birth_date")?,
        opt_out_email: row.try_get::<i64, _>("opt_out_email")? != 0,
        opt_out_sms: row.try_get::<i64, _>("opt_out_sms")? != 0,
        opt_out_whatsapp: row.try_get::<i64, _>("opt_out_whatsapp")? != 0,
        credit_bureau_blocked: row.try_get::<i64, _>("credit_bureau_blocked")? != 0,
        status: row.try_get("status")?,
        archived_at: row.try_get("archived_at")?,
        tags: json("tags")?,
        metadata: json("metadata")?,
        version: row.try_get("version")?,
        created_at: row.try_get("created_at")?,
        updated_at: row.try_get("updated_at")?,
        open_cents: row.try_get("open_cents")?,
        overdue_cents: row.try_get("overdue_cents")?,
        open_charges: row.try_get("open_charges")?,
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
    pub async fn debtor(&self, org_id: &str, id: &str) -> StoreResult<Option<DebtorRow>> {
        let row =
            sqlx::query(sqlx::AssertSqlSafe(format!("{SELECT} WHERE d.organization_id = $1 AND d.id = $2")))
                .bind(org_id)
                .bind(id)
                .fetch_optional(&self.pool)
                .await?;
        row.as_ref().map(from_row).transpose()
    }

    /// A page of debtors and the total count.
    pub async fn debtors(&self, org_id: &str, filter: &DebtorFilter) -> StoreResult<(Vec<DebtorRow>, i64)> {
        let mut count = QueryBuilder::<Sqlite>::new("SELECT COUNT(*) FROM debtors d");
        push_where(&mut count, org_id, filter);
        let total: i64 = count.build_query_scalar().fetch_one(&self.pool).await?;

        let mut page = QueryBuilder::<Sqlite>::new(SELECT);
        push_where(&mut page, org_id, filter);
        let direction = if filter.descending { "DESC" } else { "ASC" };
        page.push(format!(" ORDER BY {} {direction}, d.id {direction} LIMIT ", sort_column(&filter.sort_by)));
        page.push_bind(filter.limit);
        page.push(" OFFSET ");
        page.push_bind(filter.offset);
        let rows = page.build().fetch_all(&self.pool).await?;
        Ok((rows.iter().map(from_row).collect::<StoreResult<_>>()?, total))
    }

    /// Inserts a debtor and its event.
    pub async fn insert_debtor(&self, d: &DebtorRow, event: &NewEvent) -> StoreResult<()> {
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
        .bind(&d.created_at)
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
        d: &DebtorRow,
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
fn bind_debtor<'q>(query: Query<'q>, d: &'q DebtorRow) -> Query<'q> {
    query
        .bind(&d.external_id)
        .bind(&d.person_type)
        .bind(&d.name)
        .bind(&d.document)
        .bind(&d.email)
        .bind(&d.phone)
        .bind(&d.mobile)
        .bind(d.address.as_ref().map(Value::to_string))
        .bind(&d.birth_date)
        .bind(i64::from(d.opt_out_email))
        .bind(i64::from(d.opt_out_sms))
        .bind(i64::from(d.opt_out_whatsapp))
        .bind(i64::from(d.credit_bureau_blocked))
        .bind(&d.status)
        .bind(&d.archived_at)
        .bind(d.tags.to_string())
        .bind(d.metadata.to_string())
        .bind(d.version)
        .bind(&d.updated_at)
}

fn push_where(q: &mut QueryBuilder<Sqlite>, org_id: &str, f: &DebtorFilter) {
    q.push(" WHERE d.organization_id = ").push_bind(org_id.to_string());
    if let Some(prefix) = &f.q {
        let like = format!("{}%", escape_like(prefix));
        q.push(" AND (d.id LIKE ").push_bind(like.clone()).push(" ESCAPE '\\'");
        q.push(" OR d.name LIKE ").push_bind(like.clone()).push(" ESCAPE '\\'");
        q.push(" OR d.document LIKE ").push_bind(like).push(" ESCAPE '\\')");
    }
    if !f.statuses.is_empty() {
        q.push(" AND d.status IN (");
        let mut list = q.separated(", ");
        for s in &f.statuses {
            list.push_bind(s.clone());
        }
        q.push(")");
    }
    if let Some(t) = &f.person_type {
        q.push(" AND d.person_type = ").push_bind(t.clone());
    }
    if let Some(from) = &f.created_from {
        q.push(" AND d.created_at >= ").push_bind(from.clone());
    }
    if let Some(before) = &f.created_before {
        q.push(" AND d.created_at < ").push_bind(before.clone());
    }
}

/// Escapes LIKE wildcards so a search prefix matches literally.
pub(crate) fn escape_like(text: &str) -> String {
    text.replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_")
}
