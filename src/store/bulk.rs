//! Bulk loading (`demo generate`): many debtors and charges in one transaction, without events.
//! For load data, not for changes a user makes.

use std::collections::HashMap;

use super::backend::Step;
use super::search::fold;
use super::value::{Param, Sql, args, placeholders};
use super::{Store, StoreResult, charges, debtors};
use crate::domain::charge::Charge;
use crate::domain::debtor::Debtor;

/// Rows a statement on PostgreSQL, where each statement is a round trip: under its parameter
/// limit (65,535) at 27 columns.
const POSTGRES_ROWS_PER_STATEMENT: usize = 500;

/// Rows a statement on SQLite, which has no round trip to save: one row, its statement
/// prepared once and reused. (Binding a parameter by its `$n` name costs SQLite a scan of the
/// statement's names, so a statement of 13,500 parameters spent most of a load naming them.)
const SQLITE_ROWS_PER_STATEMENT: usize = 1;

/// `INSERT INTO table (columns) VALUES (…), (…), …` for `rows` rows of `width` values.
fn multi_insert(table: &str, columns: &str, width: usize, rows: usize) -> String {
    let values: Vec<String> =
        (0..rows).map(|r| format!("({})", placeholders(r * width + 1, width))).collect();
    format!("INSERT INTO {table} ({columns}) VALUES {}", values.join(", "))
}

/// The insert statements of `items`, `per_statement` rows each.
fn steps<T>(
    items: &[T],
    table: &str,
    columns: &str,
    width: usize,
    per_statement: usize,
    values: impl Fn(&T) -> StoreResult<Vec<Param>>,
) -> StoreResult<Vec<Step>> {
    let mut out = Vec::new();
    for chunk in items.chunks(per_statement) {
        let mut params = Vec::with_capacity(chunk.len() * width);
        for item in chunk {
            params.extend(values(item)?);
        }
        out.push(Step::new(multi_insert(table, columns, width, chunk.len()), params));
    }
    Ok(out)
}

impl Store {
    /// Inserts debtors, then charges, in one transaction (the per-status counts follow, as
    /// for every charge write). Each charge gets its debtor's search keys as values: from the
    /// debtors inserted with it, else read from the store first (a subquery per row would cost
    /// two lookups a row).
    pub async fn insert_many(&self, debtors: &[Debtor], charges: &[Charge]) -> StoreResult<()> {
        let per_statement =
            if self.db.is_postgres() { POSTGRES_ROWS_PER_STATEMENT } else { SQLITE_ROWS_PER_STATEMENT };
        let mut keys: HashMap<String, (String, String)> =
            debtors.iter().map(|d| (d.id.clone(), (fold(&d.name), fold(&d.document)))).collect();
        let mut stored: Vec<&str> =
            charges.iter().map(|c| c.debtor_id.as_str()).filter(|id| !keys.contains_key(*id)).collect();
        stored.sort_unstable();
        stored.dedup();
        for chunk in stored.chunks(POSTGRES_ROWS_PER_STATEMENT) {
            let mut sql = Sql::new("SELECT id, search_name, search_document FROM debtors WHERE id IN (");
            for (i, id) in chunk.iter().enumerate() {
                sql.push(if i == 0 { "" } else { ", " }).bind(*id);
            }
            sql.push(")");
            for row in self.db.rows(&sql.text, &sql.params).await? {
                keys.insert(row.text("id")?, (row.text("search_name")?, row.text("search_document")?));
            }
        }
        let mut all = steps(
            debtors,
            "debtors",
            debtors::INSERT_COLUMNS,
            debtors::INSERT_WIDTH,
            per_statement,
            debtors::insert_values,
        )?;
        all.extend(debtors.iter().flat_map(|d| debtors::word_steps(d, false)));
        all.extend(steps(
            charges,
            "charges",
            charges::INSERT_COLUMNS,
            charges::INSERT_WIDTH + 2,
            per_statement,
            |c| {
                // A debtor that is nowhere: the insert's foreign key refuses the charge.
                let (name, document) = keys.get(&c.debtor_id).cloned().unwrap_or_default();
                let mut values = charges::insert_values(c)?;
                values.extend(args![name, document]);
                Ok(values)
            },
        )?);
        self.db.write(&all).await?;
        Ok(())
    }

    /// Prepares this process's connection for a bulk load (SQLite: a page cache large enough
    /// for the indexes being filled, and no sync at each commit) until [`Store::end_bulk_load`].
    pub async fn begin_bulk_load(&self) -> StoreResult<()> {
        self.db.bulk_load(true).await
    }

    /// Back to the settings of normal service.
    pub async fn end_bulk_load(&self) -> StoreResult<()> {
        self.db.bulk_load(false).await
    }

    /// Refreshes the query planner's statistics: after a bulk load, so lists pick their indexes.
    pub async fn analyze(&self) -> StoreResult<()> {
        self.db.analyze().await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_multi_row_insert_numbers_every_value() {
        assert_eq!(multi_insert("t", "a, b", 2, 2), "INSERT INTO t (a, b) VALUES ($1, $2), ($3, $4)");
    }

    #[test]
    fn a_charge_insert_lists_the_debtor_keys_last() {
        let columns = charges::INSERT_COLUMNS.split(',').map(str::trim).collect::<Vec<_>>();
        assert_eq!(columns.len(), charges::INSERT_WIDTH + 2);
        assert_eq!(columns[charges::INSERT_WIDTH..], ["search_debtor_name", "search_debtor_document"]);
    }
}
