//! Organizations.

use super::NewEvent;
use super::backend::Step;
use super::events::insert_event;
use super::value::{Row, args};
use super::{Store, StoreError, StoreResult};
use crate::domain::dates::Zone;
use crate::domain::pix_account::PixAccount;

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
    /// The IANA time zone its days are counted in.
    pub timezone: Zone,
    /// Whether this is the `serve --demo` organization.
    pub is_demo: bool,
    /// Where Pix payments go, when the organization set it.
    pub pix_account: Option<PixAccount>,
    /// RFC 3339.
    pub created_at: String,
}

/// The `timezone` column, a zone of the database built in.
pub(super) fn zone_column(row: &Row) -> StoreResult<Zone> {
    Zone::named(&row.text("timezone")?).map_err(|_| StoreError::CorruptColumn("timezone".into()))
}

/// The Pix account columns: all three or none; a stored key that no longer reads is corrupt.
pub(super) fn pix_account_columns(row: &Row) -> StoreResult<Option<PixAccount>> {
    let (Some(key), Some(name), Some(city)) =
        (row.opt_text("pix_key")?, row.opt_text("pix_merchant_name")?, row.opt_text("pix_merchant_city")?)
    else {
        return Ok(None);
    };
    PixAccount::read(&key, &name, &city).map(Some).ok_or_else(|| StoreError::CorruptColumn("pix_key".into()))
}

fn from_row(row: &Row) -> StoreResult<OrganizationRow> {
    Ok(OrganizationRow {
        id: row.text("id")?,
        name: row.text("name")?,
        document: row.opt_text("document")?,
        environment: row.text("environment")?,
        timezone: zone_column(row)?,
        is_demo: row.flag("is_demo")?,
        pix_account: pix_account_columns(row)?,
        created_at: row.text("created_at")?,
    })
}

impl Store {
    /// Inserts an organization.
    pub async fn insert_organization(&self, org: &OrganizationRow) -> StoreResult<()> {
        self.db
            .execute(
                "INSERT INTO organizations (id, name, document, environment, timezone, is_demo, created_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7)",
                &args![
                    &org.id,
                    &org.name,
                    &org.document,
                    &org.environment,
                    org.timezone.name(),
                    org.is_demo,
                    &org.created_at
                ],
            )
            .await?;
        Ok(())
    }

    /// One organization.
    pub async fn organization(&self, id: &str) -> StoreResult<Option<OrganizationRow>> {
        let row = self.db.find("SELECT * FROM organizations WHERE id = $1", &args![id]).await?;
        row.as_ref().map(from_row).transpose()
    }

    /// Whether an organization is a sandbox, whose messages stay in the outbox (also when
    /// it is gone: nothing leaves for an organization that does not exist).
    pub async fn is_sandbox(&self, id: &str) -> StoreResult<bool> {
        Ok(self.organization(id).await?.is_none_or(|o| o.environment == "sandbox"))
    }

    /// Every organization, in id order (the engine's passes walk them).
    pub async fn organizations(&self) -> StoreResult<Vec<OrganizationRow>> {
        let rows = self.db.rows("SELECT * FROM organizations ORDER BY id", &[]).await?;
        rows.iter().map(from_row).collect()
    }

    /// Moves an organization to another time zone; whether it exists.
    pub async fn set_organization_timezone(&self, id: &str, zone: &Zone) -> StoreResult<bool> {
        let changed = self
            .db
            .execute("UPDATE organizations SET timezone = $1 WHERE id = $2", &args![zone.name(), id])
            .await?;
        Ok(changed > 0)
    }

    /// Sets (or, with `None`, removes) an organization's Pix account, with its event; whether
    /// the organization exists.
    pub async fn set_pix_account(
        &self,
        id: &str,
        account: Option<&PixAccount>,
        event: Option<&NewEvent>,
    ) -> StoreResult<bool> {
        let (key, name, city) = match account {
            Some(a) => (Some(a.key.clone()), Some(a.merchant_name.clone()), Some(a.merchant_city.clone())),
            None => (None, None, None),
        };
        let mut steps = vec![Step::must_change(
            "UPDATE organizations SET pix_key = $1, pix_merchant_name = $2, pix_merchant_city = $3 WHERE id = $4",
            args![key, name, city, id],
        )];
        steps.extend(event.map(insert_event));
        self.db.write(&steps).await
    }

    /// The demo organization, if `serve --demo` created it.
    pub async fn demo_organization(&self) -> StoreResult<Option<OrganizationRow>> {
        let row = self
            .db
            .row("SELECT * FROM organizations WHERE is_demo = 1 ORDER BY created_at LIMIT 1", &[])
            .await?;
        row.as_ref().map(from_row).transpose()
    }
}
