//! Exports, their files (chunks of whole rows, in order), and the pages a builder reads: an
//! organization's rows of one kind in (created_at, id) order after a cursor, so that reading the
//! millionth row costs what reading the first did.

use time::OffsetDateTime;

use super::backend::Step;
use super::columns::{enumeration, json, json_text, optional_timestamp, timestamp, timestamp_text};
use super::events::{NewEvent, insert_event};
use super::listing::{plain_page, push_in};
use super::notifications::Lease;
use super::value::{Row, Sql, args};
use super::{Store, StoreResult};
use crate::domain::agreement::Agreement;
use crate::domain::charge::Charge;
use crate::domain::credit_bureau::Report;
use crate::domain::debtor::Debtor;
use crate::domain::export::Export;
use crate::domain::notification::Notification;
use crate::domain::protest::Protest;
use crate::types::{ExportFilters, ExportKind, ExportStatus};

use super::events::EventRow;

fn from_row(row: &Row) -> StoreResult<Export> {
    Ok(Export {
        id: row.text("id")?,
        organization_id: row.text("organization_id")?,
        kind: enumeration(row, "kind")?,
        filters: json(row, "filters")?,
        separator: enumeration(row, "separator")?,
        status: enumeration(row, "status")?,
        rows: row.opt_int("rows_count")?,
        size_bytes: row.opt_int("size_bytes")?,
        error: row.opt_text("error")?,
        version: row.int("version")?,
        created_at: timestamp(row, "created_at")?,
        started_at: optional_timestamp(row, "started_at")?,
        processed_at: optional_timestamp(row, "processed_at")?,
        failed_at: optional_timestamp(row, "failed_at")?,
        expires_at: optional_timestamp(row, "expires_at")?,
        updated_at: timestamp(row, "updated_at")?,
        scopes: row.opt_text("scopes")?.map(|s| s.split(' ').map(str::to_string).collect()),
        attempts: row.int("attempts")?,
    })
}

/// Where a builder is: the last row written, by (created_at, id).
#[derive(Debug, Clone, Default)]
pub struct ExportCursor(pub Option<(String, String)>);

/// One page of rows an export holds.
pub enum ExportPage {
    Charges(Vec<Charge>),
    Debtors(Vec<Debtor>),
    Notifications(Vec<Notification>),
    Agreements(Vec<Agreement>),
    CreditBureauReports(Vec<Report>),
    Protests(Vec<Protest>),
    Events(Vec<EventRow>),
}

impl ExportPage {
    pub fn len(&self) -> usize {
        match self {
            Self::Charges(r) => r.len(),
            Self::Debtors(r) => r.len(),
            Self::Notifications(r) => r.len(),
            Self::Agreements(r) => r.len(),
            Self::CreditBureauReports(r) => r.len(),
            Self::Protests(r) => r.len(),
            Self::Events(r) => r.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// How a kind's rows are read (charges carry their debtor's name, debtors their sums), the alias of its table and
/// its time column.
fn source(kind: ExportKind) -> (String, &'static str, &'static str) {
    let table = |name: &str| format!("SELECT * FROM {name} t");
    match kind {
        ExportKind::Charges => (super::charges::SELECT.to_owned(), "c", "created_at"),
        ExportKind::Debtors => (super::debtors::SELECT.to_owned(), "d", "created_at"),
        ExportKind::Notifications => (table("notifications"), "t", "created_at"),
        ExportKind::Agreements => (table("agreements"), "t", "created_at"),
        ExportKind::CreditBureauReports => (table("credit_bureau_reports"), "t", "created_at"),
        ExportKind::Protests => (table("protests"), "t", "created_at"),
        ExportKind::Events => (table("events"), "t", "occurred_at"),
    }
}

impl Store {
    /// Inserts a queued export with its event.
    pub async fn insert_export(&self, e: &Export, event: &NewEvent) -> StoreResult<()> {
        self.db
            .write(&[
                Step::new(
                    "INSERT INTO exports (id, organization_id, kind, filters, separator, status, version, created_at, \
                     updated_at, scopes) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
                    args![
                        &e.id,
                        &e.organization_id,
                        e.kind.as_str(),
                        json_text(&e.filters)?,
                        e.separator.as_str(),
                        e.status.as_str(),
                        e.version,
                        timestamp_text(&e.created_at),
                        timestamp_text(&e.updated_at),
                        e.scopes.as_ref().map(|s| s.join(" ")),
                    ],
                ),
                insert_event(event),
            ])
            .await
            .map(drop)
    }

    /// One export of an organization.
    pub async fn export(&self, org_id: &str, id: &str) -> StoreResult<Option<Export>> {
        let row = self
            .db
            .find("SELECT * FROM exports WHERE organization_id = $1 AND id = $2", &args![org_id, id])
            .await?;
        row.as_ref().map(from_row).transpose()
    }

    /// A page of an organization's exports, newest first, and how many match.
    pub async fn exports(
        &self,
        org_id: &str,
        status: Option<ExportStatus>,
        limit: i64,
        offset: i64,
    ) -> StoreResult<(Vec<Export>, i64)> {
        let statuses: Vec<String> = status.iter().map(|s| s.as_str().to_owned()).collect();
        let filters = |sql: &mut Sql| {
            sql.push(" WHERE organization_id = ").bind(org_id);
            push_in(sql, "status", &statuses);
        };
        plain_page(&self.db, "exports", "created_at", filters, false, limit, offset, from_row).await
    }

    /// The oldest export waiting for a builder (queued, or processing under a lease that ran
    /// out), taken for `lease`: it is started and its old chunks go. `None` when there is none
    /// or another builder took it first.
    pub async fn take_export(&self, lease: &Lease, now: OffsetDateTime) -> StoreResult<Option<Export>> {
        let real_now = timestamp_text(&OffsetDateTime::now_utc());
        let Some(row) = self
            .db
            .rows(
                // Statuses written out, not bound: the partial index `exports_waiting` serves only
                // a query whose condition says its own.
                "SELECT * FROM exports WHERE status IN ('queued', 'processing') \
                 AND (lease_until IS NULL OR lease_until < $1) ORDER BY created_at, id LIMIT 1",
                &args![&real_now],
            )
            .await?
            .into_iter()
            .next()
        else {
            return Ok(None);
        };
        let mut export = from_row(&row)?;
        let expected = export.version;
        export.start(now);
        let taken = self
            .db
            .write(&[
                Step::must_change(
                    "UPDATE exports SET status = $1, started_at = $2, version = $3, updated_at = $4, \
                     lease_owner = $5, lease_until = $6, attempts = $7 WHERE id = $8 AND version = $9",
                    args![
                        export.status.as_str(),
                        export.started_at.as_ref().map(timestamp_text),
                        export.version,
                        timestamp_text(&export.updated_at),
                        &lease.owner,
                        timestamp_text(&lease.until),
                        export.attempts,
                        &export.id,
                        expected,
                    ],
                ),
                Step::new("DELETE FROM export_chunks WHERE export_id = $1", args![&export.id]),
            ])
            .await?;
        Ok(taken.then_some(export))
    }

    /// Adds a chunk of the file of an export `lease` holds, and renews the lease; false when it
    /// was lost (another builder started the export again).
    pub async fn add_export_chunk(
        &self,
        export_id: &str,
        seq: i64,
        body: &str,
        lease: &Lease,
    ) -> StoreResult<bool> {
        self.db
            .write(&[
                Step::must_change(
                    "UPDATE exports SET lease_until = $1 WHERE id = $2 AND lease_owner = $3",
                    args![timestamp_text(&lease.until), export_id, &lease.owner],
                ),
                Step::new(
                    "INSERT INTO export_chunks (export_id, seq, body) VALUES ($1, $2, $3)",
                    args![export_id, seq, body],
                ),
            ])
            .await
    }

    /// Saves an export's outcome (processed, failed) with its event if `holder` still holds it,
    /// freeing the lease.
    pub async fn finish_export(&self, e: &Export, holder: &str, event: &NewEvent) -> StoreResult<bool> {
        let mut steps = vec![
            Step::must_change(
                "UPDATE exports SET status = $1, rows_count = $2, size_bytes = $3, error = $4, processed_at = $5, \
                     failed_at = $6, expires_at = $7, version = $8, updated_at = $9, lease_owner = NULL, \
                     lease_until = NULL WHERE id = $10 AND lease_owner = $11",
                args![
                    e.status.as_str(),
                    e.rows,
                    e.size_bytes,
                    &e.error,
                    e.processed_at.as_ref().map(timestamp_text),
                    e.failed_at.as_ref().map(timestamp_text),
                    e.expires_at.as_ref().map(timestamp_text),
                    e.version,
                    timestamp_text(&e.updated_at),
                    &e.id,
                    holder,
                ],
            ),
            insert_event(event),
        ];
        // A failed export keeps no part of its file.
        if e.status == ExportStatus::Failed {
            steps.push(Step::new("DELETE FROM export_chunks WHERE export_id = $1", args![&e.id]));
        }
        self.db.write(&steps).await
    }

    /// Processed exports whose file is due to go at `now`.
    pub async fn expiring_exports(&self, now: OffsetDateTime, limit: i64) -> StoreResult<Vec<Export>> {
        let rows = self
            .db
            .rows(
                // Written out for the partial index `exports_expiring`, as above.
                "SELECT * FROM exports WHERE status = 'processed' AND expires_at <= $1 ORDER BY expires_at LIMIT $2",
                &args![timestamp_text(&now), limit],
            )
            .await?;
        rows.iter().map(from_row).collect()
    }

    /// Marks an export expired, removing its file, with its event; false when it changed.
    pub async fn expire_export(&self, e: &Export, expected: i64, event: &NewEvent) -> StoreResult<bool> {
        self.db
            .write(&[
                Step::must_change(
                    "UPDATE exports SET status = $1, version = $2, updated_at = $3 WHERE id = $4 AND version = $5",
                    args![e.status.as_str(), e.version, timestamp_text(&e.updated_at), &e.id, expected],
                ),
                Step::new("DELETE FROM export_chunks WHERE export_id = $1", args![&e.id]),
                insert_event(event),
            ])
            .await
    }

    /// The file of an export, chunk by chunk in order, handed to `each`.
    pub async fn export_chunks(&self, export_id: &str, mut each: impl FnMut(String)) -> StoreResult<()> {
        let mut seq = 0;
        loop {
            let rows = self
                .db
                .rows(
                    "SELECT seq, body FROM export_chunks WHERE export_id = $1 AND seq >= $2 ORDER BY seq LIMIT 16",
                    &args![export_id, seq],
                )
                .await?;
            if rows.is_empty() {
                return Ok(());
            }
            for row in &rows {
                seq = row.int("seq")? + 1;
                each(row.text("body")?);
            }
        }
    }

    /// The next page of what an export holds after `cursor`, oldest first, and the cursor after
    /// it.
    pub async fn export_page(
        &self,
        org_id: &str,
        kind: ExportKind,
        filters: &ExportFilters,
        cursor: &ExportCursor,
        limit: i64,
    ) -> StoreResult<(ExportPage, ExportCursor)> {
        let (select, t, time) = source(kind);
        let mut sql = Sql::new(&format!("{select} WHERE {t}.organization_id = "));
        sql.bind(org_id);
        if let Some((at, id)) = &cursor.0 {
            // A row value, which both databases read as a range of the (…, created_at, id) index.
            sql.push(&format!(" AND ({t}.{time}, {t}.id) > (")).bind(at.as_str());
            sql.push(", ").bind(id.as_str());
            sql.push(")");
        }
        if let Some(from) = &filters.created_from {
            sql.push(&format!(" AND {t}.{time} >= ")).bind(timestamp_text(&from.0));
        }
        if let Some(to) = &filters.created_to {
            sql.push(&format!(" AND {t}.{time} < ")).bind(timestamp_text(&to.0));
        }
        for (column, value) in [
            ("status", &filters.status),
            ("debtor_id", &filters.debtor_id),
            ("charge_id", &filters.charge_id),
            ("code", &filters.code),
            ("resource_id", &filters.resource_id),
        ] {
            if let Some(value) = value {
                sql.push(&format!(" AND {t}.{column} = ")).bind(value.as_str());
            }
        }
        sql.push(&format!(" ORDER BY {t}.{time}, {t}.id LIMIT ")).bind(limit);
        let rows = self.db.rows(&sql.text, &sql.params).await?;
        let next = match rows.last() {
            Some(last) => ExportCursor(Some((last.text(time)?, last.text("id")?))),
            None => cursor.clone(),
        };
        let page = match kind {
            ExportKind::Charges => ExportPage::Charges(collect(&rows, super::charges::from_row)?),
            ExportKind::Debtors => ExportPage::Debtors(collect(&rows, super::debtors::from_row)?),
            ExportKind::Notifications => {
                ExportPage::Notifications(collect(&rows, super::notifications::from_row)?)
            }
            ExportKind::Agreements => ExportPage::Agreements(collect(&rows, super::agreements::from_row)?),
            ExportKind::CreditBureauReports => {
                ExportPage::CreditBureauReports(collect(&rows, super::escalations::from_row)?)
            }
            ExportKind::Protests => ExportPage::Protests(collect(&rows, super::escalations::from_row)?),
            ExportKind::Events => ExportPage::Events(collect(&rows, super::events::event_from_row)?),
        };
        Ok((page, next))
    }
}

fn collect<T>(rows: &[Row], from_row: fn(&Row) -> StoreResult<T>) -> StoreResult<Vec<T>> {
    rows.iter().map(from_row).collect()
}
