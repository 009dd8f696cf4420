//! The stored text the documents print, read in pages for `doctor`: organizations' names,
//! debtors' names and addresses, charges' descriptions.

use super::value::{Row, args};
use super::{Store, StoreResult};

/// One stored row's text that a document prints.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PrintedText {
    /// `organizations`, `debtors` or `charges`.
    pub table: &'static str,
    pub id: String,
    /// The organization the row belongs to (its own id for an organization).
    pub organization_id: String,
    /// Each field the documents print, by the name the API gives it, with its text.
    pub fields: Vec<(&'static str, String)>,
}

/// Rows read per query.
const PAGE: i64 = 1_000;

/// The address lines a document prints: their key in the stored JSON, and the field the API
/// names them by.
const ADDRESS_LINES: [(&str, &str); 5] = [
    ("street", "address.street"),
    ("number", "address.number"),
    ("complement", "address.complement"),
    ("neighborhood", "address.neighborhood"),
    ("city", "address.city"),
];

impl Store {
    /// The printed text of up to 1,000 rows of `table` after the id `after` (from the start
    /// when empty), in id order; an empty page ends the table.
    pub async fn printed_text(&self, table: &'static str, after: &str) -> StoreResult<Vec<PrintedText>> {
        let sql = match table {
            "organizations" => {
                "SELECT id, id AS organization_id, name FROM organizations WHERE id > $1 ORDER BY id LIMIT $2"
            }
            "debtors" => {
                "SELECT id, organization_id, name, address FROM debtors WHERE id > $1 ORDER BY id LIMIT $2"
            }
            _ => {
                "SELECT id, organization_id, description FROM charges \
                 WHERE id > $1 AND description IS NOT NULL ORDER BY id LIMIT $2"
            }
        };
        let rows = self.db.rows(sql, &args![after, PAGE]).await?;
        rows.iter().map(|row| printed(table, row)).collect()
    }
}

fn printed(table: &'static str, row: &Row) -> StoreResult<PrintedText> {
    let mut fields = Vec::new();
    match table {
        "charges" => fields.extend(row.opt_text("description")?.map(|d| ("description", d))),
        _ => fields.push(("name", row.text("name")?)),
    }
    if table == "debtors" {
        // The address as stored: a JSON object; only its text lines print.
        let address =
            row.opt_text("address")?.map(|a| serde_json::from_str::<serde_json::Value>(&a)).transpose()?;
        for (key, name) in ADDRESS_LINES {
            if let Some(text) = address.as_ref().and_then(|a| a.get(key)).and_then(|v| v.as_str()) {
                fields.push((name, text.to_owned()));
            }
        }
    }
    Ok(PrintedText { table, id: row.text("id")?, organization_id: row.text("organization_id")?, fields })
}
