//! What every list query shares: prefix search, creation range, order, window and an exact
//! total, so each aggregate only says which filters it adds.

use sqlx::sqlite::SqliteRow;
use sqlx::{QueryBuilder, Sqlite, SqlitePool};

use super::StoreResult;

/// Search, creation range, order and window of a list.
#[derive(Debug, Default)]
pub struct ListWindow {
    /// Prefix search (ids, names, documents).
    pub q: Option<String>,
    /// Created at or after (RFC 3339 or a date).
    pub created_from: Option<String>,
    /// Created strictly before.
    pub created_before: Option<String>,
    /// A sort key the aggregate maps to a column.
    pub sort_by: String,
    /// Newest or largest first.
    pub descending: bool,
    /// Page size.
    pub limit: i64,
    /// Rows skipped.
    pub offset: i64,
}

/// Escapes LIKE wildcards so a search prefix matches literally.
fn escape_like(text: &str) -> String {
    text.replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_")
}

/// ` AND (a LIKE 'p%' OR b LIKE 'p%' …)` for a search prefix.
pub(crate) fn push_prefix(q: &mut QueryBuilder<Sqlite>, columns: &[&str], prefix: &str) {
    let like = format!("{}%", escape_like(prefix));
    q.push(" AND (");
    for (i, column) in columns.iter().enumerate() {
        if i > 0 {
            q.push(" OR ");
        }
        q.push(format!("{column} LIKE ")).push_bind(like.clone()).push(" ESCAPE '\\'");
    }
    q.push(")");
}

/// ` AND column IN (…)` when values are given.
pub(crate) fn push_in(q: &mut QueryBuilder<Sqlite>, column: &str, values: &[String]) {
    if values.is_empty() {
        return;
    }
    q.push(format!(" AND {column} IN ("));
    let mut list = q.separated(", ");
    for v in values {
        list.push_bind(v.clone());
    }
    q.push(")");
}

/// ` AND column <op> value` when a value is given.
pub(crate) fn push_cmp(q: &mut QueryBuilder<Sqlite>, column: &str, op: &str, value: Option<&String>) {
    if let Some(v) = value {
        q.push(format!(" AND {column} {op} ")).push_bind(v.clone());
    }
}

/// The organization, search and creation range of a window (`alias` is the table alias).
pub(crate) fn push_window(
    q: &mut QueryBuilder<Sqlite>,
    alias: &str,
    org_id: &str,
    window: &ListWindow,
    search: &[&str],
) {
    q.push(format!(" WHERE {alias}.organization_id = ")).push_bind(org_id.to_string());
    if let Some(prefix) = &window.q {
        push_prefix(q, search, prefix);
    }
    push_cmp(q, &format!("{alias}.created_at"), ">=", window.created_from.as_ref());
    push_cmp(q, &format!("{alias}.created_at"), "<", window.created_before.as_ref());
}

/// One page of rows and the exact total: `from` is the FROM clause (with joins), `select` the
/// full SELECT … FROM of a page, `filters` pushes the WHERE clause, `order` the sort column.
pub(crate) async fn fetch_page<T>(
    pool: &SqlitePool,
    from: &str,
    select: &str,
    filters: impl Fn(&mut QueryBuilder<Sqlite>),
    order: (&str, &str),
    window: &ListWindow,
    from_row: impl Fn(&SqliteRow) -> StoreResult<T>,
) -> StoreResult<(Vec<T>, i64)> {
    let mut count = QueryBuilder::<Sqlite>::new(format!("SELECT COUNT(*) {from}"));
    filters(&mut count);
    let total: i64 = count.build_query_scalar().fetch_one(pool).await?;

    let mut page = QueryBuilder::<Sqlite>::new(select);
    filters(&mut page);
    let (column, id_column) = order;
    let direction = if window.descending { "DESC" } else { "ASC" };
    page.push(format!(" ORDER BY {column} {direction}, {id_column} {direction} LIMIT "));
    page.push_bind(window.limit);
    page.push(" OFFSET ");
    page.push_bind(window.offset);
    let rows = page.build().fetch_all(pool).await?;
    Ok((rows.iter().map(from_row).collect::<StoreResult<_>>()?, total))
}
