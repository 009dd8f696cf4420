//! Building an export's file: the rows of its kind, a page at a time in (created_at, id) order,
//! each shown as the API shows it and written as CSV cells (`domain::export::neutralised`),
//! handed to the store in chunks of about a mebibyte of whole rows, so memory holds one page
//! and one chunk whatever the number of rows.

use serde_json::Value;

use crate::auth::visibility;
use crate::domain::dates::{Offsets, Zone};
use crate::domain::export::{Export, delimiter, neutralised};
use crate::store::{ExportCursor, ExportPage, Lease, Store, StoreError};
use crate::types::ExportKind;
use crate::views::agreement::agreement_view;
use crate::views::charge::charge_event_view;
use crate::views::debtor::debtor_view;
use crate::views::escalation::{protest_view, report_view};
use crate::views::event::event_view;
use crate::views::notification::notification_view;

/// Rows read at a time.
const PAGE: i64 = 1_000;
/// A chunk is handed to the store once it holds this much.
const CHUNK: usize = 1 << 20;

/// Why a file was not built.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    /// The database failed: the export stays leased, and is built again once the lease runs out.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// Another builder took the export over (this one was too slow): its work is dropped.
    #[error("the export was taken over by another builder")]
    LeaseLost,
    /// The rows cannot be written (the export fails with this).
    #[error("the file cannot be written: {0}")]
    Csv(String),
}

/// The columns of each kind: paths into the object as the API shows it.
pub fn columns(kind: ExportKind) -> &'static [&'static str] {
    match kind {
        ExportKind::Charges => &[
            "id",
            "external_id",
            "debtor_id",
            "debtor_name",
            "description",
            "amount",
            "paid_amount",
            "balance",
            "issue_date",
            "due_date",
            "days_overdue",
            "status",
            "dunning_status",
            "payment_method",
            "cp_id",
            "agreement_id",
            "credit_bureau_status",
            "protest_status",
            "paid_at",
            "canceled_at",
            "written_off_at",
            "created_at",
            "updated_at",
        ],
        ExportKind::Debtors => &[
            "id",
            "external_id",
            "name",
            "document",
            "person_type",
            "email",
            "phone",
            "mobile",
            "address.city",
            "address.state",
            "status",
            "summary.open_amount",
            "summary.overdue_amount",
            "summary.open_charges",
            "created_at",
            "updated_at",
        ],
        ExportKind::Notifications => &[
            "id",
            "charge_id",
            "debtor_id",
            "channel",
            "to",
            "subject",
            "status",
            "origin",
            "step_id",
            "skip_reason",
            "failure_reason",
            "attempts",
            "provider",
            "sent_at",
            "failed_at",
            "created_at",
        ],
        ExportKind::Agreements => &[
            "id",
            "debtor_id",
            "status",
            "original_amount",
            "discount_amount",
            "total_amount",
            "down_payment_amount",
            "installments_count",
            "first_due_date",
            "canceled_at",
            "broken_at",
            "completed_at",
            "created_at",
        ],
        ExportKind::CreditBureauReports => &[
            "id",
            "charge_id",
            "debtor_id",
            "bureau",
            "status",
            "amount",
            "nature",
            "requested_at",
            "included_at",
            "removal_due_by",
            "removed_at",
            "canceled_at",
            "failure_reason",
            "created_at",
        ],
        ExportKind::Protests => &[
            "id",
            "charge_id",
            "debtor_id",
            "status",
            "amount",
            "title_type",
            "document_number",
            "protocol_number",
            "requested_at",
            "protested_at",
            "paid_at",
            "withdrawn_at",
            "canceled_at",
            "failure_reason",
            "created_at",
        ],
        ExportKind::Events => &[
            "id",
            "code",
            "resource_type",
            "resource_id",
            "actor.type",
            "actor.id",
            "request_id",
            "occurred_at",
            "data",
        ],
    }
}

/// The text of a cell: the value at `path` (empty when absent or null; nested values as JSON).
/// Amounts (the views' only fractional numbers) get two decimals, after a comma in a
/// semicolon-separated file, as spreadsheets set to Portuguese (Brazil) read numbers.
fn cell(object: &Value, path: &str, decimal_comma: bool) -> String {
    let value = path.split('.').try_fold(object, |v, key| v.get(key));
    match value {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(text)) => neutralised(text).into_owned(),
        Some(Value::Number(n)) if n.is_f64() => {
            let text = format!("{:.2}", n.as_f64().unwrap_or_default());
            if decimal_comma { text.replace('.', ",") } else { text }
        }
        Some(Value::Number(n)) => n.to_string(),
        Some(Value::Bool(b)) => b.to_string(),
        Some(nested) => neutralised(&nested.to_string()).into_owned(),
    }
}

/// The objects of a page as the API shows them, instants in the organization's offset.
fn shown(page: ExportPage, zone: &Zone) -> Result<Vec<Value>, BuildError> {
    let now = time::OffsetDateTime::now_utc();
    let offsets = Offsets::new(zone, now);
    offsets.clone().write(|| shown_at(page, zone.today(now), &offsets))
}

fn shown_at(page: ExportPage, today: time::Date, offsets: &Offsets) -> Result<Vec<Value>, BuildError> {
    let json = |v: Result<Value, serde_json::Error>| v.map_err(|e| BuildError::Csv(e.to_string()));
    match page {
        ExportPage::Charges(rows) => {
            rows.iter().map(|c| json(serde_json::to_value(charge_event_view(c, today)))).collect()
        }
        ExportPage::Debtors(rows) => {
            rows.iter().map(|d| json(serde_json::to_value(debtor_view(d)))).collect()
        }
        ExportPage::Notifications(rows) => {
            rows.iter().map(|n| json(serde_json::to_value(notification_view(n)))).collect()
        }
        ExportPage::Agreements(rows) => {
            rows.iter().map(|a| json(serde_json::to_value(agreement_view(a)))).collect()
        }
        ExportPage::CreditBureauReports(rows) => {
            rows.iter().map(|r| json(serde_json::to_value(report_view(r)))).collect()
        }
        ExportPage::Protests(rows) => {
            rows.iter().map(|p| json(serde_json::to_value(protest_view(p)))).collect()
        }
        ExportPage::Events(rows) => rows
            .into_iter()
            .map(|e| {
                let view = event_view(e, offsets).map_err(|e| BuildError::Csv(e.to_string()))?;
                json(serde_json::to_value(view))
            })
            .collect(),
    }
}

/// How long a builder holds an export without writing a chunk, in real time.
pub const LEASE: time::Duration = time::Duration::minutes(5);

/// Builds the file of `export`, which `holder` leased: its rows and size in bytes. Each chunk
/// written renews the lease.
pub async fn build(
    store: &Store,
    export: &Export,
    holder: &str,
    zone: &Zone,
) -> Result<(i64, i64), BuildError> {
    let columns = columns(export.kind);
    let decimal_comma = export.separator == crate::types::ExportSeparator::Semicolon;
    let new_writer =
        || csv::WriterBuilder::new().delimiter(delimiter(export.separator)).from_writer(Vec::new());
    let mut writer = new_writer();
    let csv_error = |e: csv::Error| BuildError::Csv(e.to_string());
    writer.write_record(columns).map_err(csv_error)?;
    let (mut rows, mut size, mut seq) = (0_i64, 0_i64, 0_i64);
    let mut cursor = ExportCursor::default();
    let scopes = export.shown_for();
    loop {
        let (mut page, next) =
            store.export_page(&export.organization_id, export.kind, &export.filters, &cursor, PAGE).await?;
        let last = page.len() < PAGE as usize;
        if let ExportPage::Events(rows) = &mut page {
            // Only the events the token that queued it could read (no webhook's URL to a token
            // without the webhooks scope).
            rows.retain(|e| visibility::sees_code(&scopes, &e.code));
        }
        for object in shown(page, zone)? {
            let cells = columns.iter().map(|path| cell(&object, path, decimal_comma));
            writer.write_record(cells).map_err(csv_error)?;
            rows += 1;
        }
        cursor = next;
        writer.flush().map_err(|e| BuildError::Csv(e.to_string()))?;
        if writer.get_ref().len() >= CHUNK || last {
            let bytes = std::mem::replace(&mut writer, new_writer())
                .into_inner()
                .map_err(|e| BuildError::Csv(e.to_string()))?;
            size += bytes.len() as i64;
            let text = String::from_utf8(bytes).map_err(|e| BuildError::Csv(e.to_string()))?;
            let lease = Lease { owner: holder.to_owned(), until: time::OffsetDateTime::now_utc() + LEASE };
            if !store.add_export_chunk(&export.id, seq, &text, &lease).await? {
                return Err(BuildError::LeaseLost);
            }
            seq += 1;
        }
        if last {
            return Ok((rows, size));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn cells_follow_paths_and_never_start_a_formula() {
        let object = json!({ "id": "chg_1", "amount": 1250.5, "address": { "city": "São Paulo" },
                             "description": "=HYPERLINK(\"x\")", "tags": ["a"], "paid_at": null });
        assert_eq!(cell(&object, "id", false), "chg_1");
        assert_eq!(cell(&object, "amount", false), "1250.50");
        assert_eq!(cell(&object, "amount", true), "1250,50");
        assert_eq!(cell(&object, "address.city", false), "São Paulo");
        assert_eq!(cell(&object, "description", false), "'=HYPERLINK(\"x\")");
        assert_eq!(cell(&object, "tags", false), "[\"a\"]");
        assert_eq!(cell(&object, "paid_at", false), "");
        assert_eq!(cell(&object, "missing.path", false), "");
    }
}
