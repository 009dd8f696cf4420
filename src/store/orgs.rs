//! Organizations.

use sqlx::Row;

use super::{Store, StoreResult};

/// An organization as stored.
#[derive(Debug, Clone)]
pub struct OrganizationRow {
    /// `org_…`
    pub id: String,
    /// Legal or trade name.
    pub name: String,
    /// CNPJ, if known.
    pub document: Option<String>,
    /// `sandbox` or `production`.
    pub environment: String,
    /// IANA time zone.
    pub timezone: String,
    /// Whether this is the `serve --demo` organization.
    pub is_demo: bool,
    /// RFC 3339.
    pub created_at: String,
}

fn from_row(row: &sqlx::sqlite::SqliteRow) -> StoreResult<OrganizationRow> {
    Ok(OrganizationRow {
        id: row.try_get("id")?,
        name: row.try_get("name")?,
        document: row.try_get("document")?,
        environment: row.try_get("environment")?,
        timezone: row.try_get("timezone")?,
        is_demo: row.try_get::<i64, _>("is_demo")? != 0,
        created_at: row.try_get("created_at")?,
    })
}

impl Store {
    /// Inserts an organization.
    pub async fn insert_organization(&self, org: &OrganizationRow) -> StoreResult<()> {
        sqlx::query(
            "INSERT INTO organizations (id, name, document, environment, timezone, is_demo, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(&org.id)
        .bind(&org.name)
        .bind(&org.document)
        .bind(&org.environment)
        .bind(&org.timezone)
        .bind(i64::from(org.is_demo))
        .bind(&org.created_at)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// One organization.
    pub async fn organization(&self, id: &str) -> StoreResult<Option<OrganizationRow>> {
        let row = sqlx::query("SELECT * FROM organizations WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        row.as_ref().map(from_row).transpose()
    }

    /// The demo organization, if `serve --demo` created it.
    pub async fn demo_organization(&self) -> StoreResult<Option<OrganizationRow>> {
        let row = sqlx::query("SELECT * FROM organizations WHERE is_demo = 1 ORDER BY created_at LIMIT 1")
            .fetch_optional(&self.pool)
            .await?;
        row.as_ref().map(from_row).transpose()
    }
}
