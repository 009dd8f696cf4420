//! Bulk loading (`demo generate`): many debtors and charges in one transaction, several
//! hundred rows a statement, without events. For load data, not for changes a user makes.

use super::backend::Step;
use super::value::{Param, placeholders};
use super::{Store, StoreResult, charges, debtors};
use crate::domain::charge::Charge;
use crate::domain::debtor::Debtor;

/// Rows a statement: under both databases' parameter limits (SQLite 32,766, PostgreSQL 65,535)
/// at 27 columns.
const ROWS_PER_STATEMENT: usize = 500;

/// `INSERT INTO table (columns) VALUES (…), (…), …` for `rows` rows of `width` values.
fn multi_insert(table: &str, columns: &str, width: usize, rows: usize) -> String {
    let values: Vec<String> =
        (0..rows).map(|r| format!("({})", placeholders(r * width + 1, width))).collect();
    format!("INSERT INTO {table} ({columns}) VALUES {}", values.join(", "))
}

fn steps<T>(
    items: &[T],
    table: &str,
    columns: &str,
    width: usize,
    values: impl Fn(&T) -> StoreResult<Vec<Param>>,
) -> StoreResult<Vec<Step>> {
    let mut out = Vec::new();
    for chunk in items.chunks(ROWS_PER_STATEMENT) {
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
    /// for every charge write).
    pub async fn insert_many(&self, debtors: &[Debtor], charges: &[Charge]) -> StoreResult<()> {
        let mut all = steps(
            debtors,
            "debtors",
            debtors::INSERT_COLUMNS,
            debtors::INSERT_WIDTH,
            debtors::insert_values,
        )?;
        all.extend(steps(
            charges,
            "charges",
            charges::INSERT_COLUMNS,
            charges::INSERT_WIDTH,
            charges::insert_values,
        )?);
        self.db.write(&all).await?;
        Ok(())
    }
}

impl Store {
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
}
