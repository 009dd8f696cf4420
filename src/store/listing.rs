//! What every list query shares: prefix search on the folded keys, creation range, order,
//! window and an exact total, so each aggregate only says which filters it adds.

use super::StoreResult;
use super::search::{fold, id_prefix, prefix_end};
use super::unit::Db;
use super::value::{Row, Sql};

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

/// Filters of the credit-bureau report and protest lists.
#[derive(Debug, Default)]
pub struct EscalationFilter {
    pub charge_ids: Vec<String>,
    pub debtor_ids: Vec<String>,
    pub statuses: Vec<String>,
    /// Oldest first.
    pub ascending: bool,
    pub limit: i64,
    pub offset: i64,
}

impl EscalationFilter {
    /// The WHERE clause of the organization's rows these filters keep.
    pub(crate) fn filters<'a>(&'a self, org_id: &'a str) -> impl Fn(&mut Sql) + 'a {
        move |sql: &mut Sql| {
            sql.push(" WHERE organization_id = ").bind(org_id);
            push_in(sql, "charge_id", &self.charge_ids);
            push_in(sql, "debtor_id", &self.debtor_ids);
            push_in(sql, "status", &self.statuses);
        }
    }
}

/// The two forms of a search: the id prefix (only case folded; `None` unless the text looks
/// like a pasted id) and the folded key prefix (`None` when nothing searchable is left, e.g.
/// `q=%`).
pub(crate) struct Search {
    pub id: Option<String>,
    pub key: Option<String>,
}

/// Characters of an id a search must have after its type prefix (`chg_`) to be taken for one:
/// every id of a type starts alike, and the first hex digits are the creation time, so `q=c`
/// (someone typing "Carla") or `q=chg_01` would otherwise match every object of the type.
const ID_SEARCH_MIN: usize = 8;

impl Search {
    pub fn of(q: &str) -> Self {
        let key = fold(q);
        let id = id_prefix(q);
        let looks_like_id = id.split_once('_').is_some_and(|(_, rest)| rest.len() >= ID_SEARCH_MIN);
        Self { id: looks_like_id.then_some(id), key: (!key.is_empty()).then_some(key) }
    }
}

/// `column >= $a AND column < $b`: a prefix as a range, which a B-tree index answers.
pub(crate) fn prefix_range(sql: &mut Sql, column: &str, prefix: &str) -> String {
    let from = sql.param(prefix);
    let to = sql.param(prefix_end(prefix));
    format!("({column} >= {from} AND {column} < {to})")
}

/// ` AND column IN (…)` when values are given.
pub(crate) fn push_in(sql: &mut Sql, column: &str, values: &[String]) {
    if values.is_empty() {
        return;
    }
    sql.push(&format!(" AND {column} IN ("));
    for (i, v) in values.iter().enumerate() {
        if i > 0 {
            sql.push(", ");
        }
        sql.bind(v);
    }
    sql.push(")");
}

/// ` AND column <op> value` when a value is given.
pub(crate) fn push_cmp(sql: &mut Sql, column: &str, op: &str, value: Option<&String>) {
    if let Some(v) = value {
        sql.push(&format!(" AND {column} {op} ")).bind(v);
    }
}

/// ` WHERE alias.organization_id = $1` and the creation range; returns the placeholder of the
/// organization, for subqueries.
pub(crate) fn push_window(sql: &mut Sql, alias: &str, org_id: &str, window: &ListWindow) -> String {
    let org = sql.param(org_id);
    sql.push(&format!(" WHERE {alias}.organization_id = {org}"));
    push_cmp(sql, &format!("{alias}.created_at"), ">=", window.created_from.as_ref());
    push_cmp(sql, &format!("{alias}.created_at"), "<", window.created_before.as_ref());
    org
}

/// One page of rows and the exact total. `select` is the SELECT … FROM of a page, `from` the
/// FROM of its count, `filters` pushes the WHERE clause, `order` the sort and tie-break
/// columns; `total`, when given, is a total known without counting.
#[allow(clippy::too_many_arguments)]
pub(crate) async fn fetch_page<T>(
    db: &Db,
    from: &str,
    select: &str,
    filters: impl Fn(&mut Sql),
    order: (&str, &str),
    window: &ListWindow,
    total: Option<Sql>,
    from_row: impl Fn(&Row) -> StoreResult<T>,
) -> StoreResult<(Vec<T>, i64)> {
    let count = total.unwrap_or_else(|| {
        let mut count = Sql::new(&format!("SELECT COUNT(*) {from}"));
        filters(&mut count);
        count
    });
    let mut page = Sql::new(select);
    filters(&mut page);
    let (column, id_column) = order;
    let direction = if window.descending { "DESC" } else { "ASC" };
    page.push(&format!(" ORDER BY {column} {direction}, {id_column} {direction} LIMIT "));
    page.bind(window.limit);
    page.push(" OFFSET ");
    page.bind(window.offset);
    // Both at once: on PostgreSQL that is one round trip's wait instead of two.
    let (counted, rows) =
        tokio::try_join!(db.row(&count.text, &count.params), db.rows(&page.text, &page.params))?;
    let total = match counted {
        Some(row) => row.first_int()?,
        None => 0,
    };
    Ok((rows.iter().map(from_row).collect::<StoreResult<_>>()?, total))
}

/// A page of `table`'s rows in (`order`, id) order and the exact total, for lists whose filters
/// are plain column tests: `filters` pushes the ` WHERE …` that both queries share.
#[allow(clippy::too_many_arguments)]
pub(crate) async fn plain_page<T>(
    db: &Db,
    table: &str,
    order: &str,
    filters: impl Fn(&mut Sql),
    ascending: bool,
    limit: i64,
    offset: i64,
    from_row: impl Fn(&Row) -> StoreResult<T>,
) -> StoreResult<(Vec<T>, i64)> {
    let (rows, total, _) =
        page_and_totals(db, table, None, order, None, filters, ascending, limit, offset, from_row).await?;
    Ok((rows, total))
}

/// [`plain_page`] and the sum of `sum` (an integer column) over every row the filters keep,
/// counted in the same read. `select`, when given, is the SELECT … FROM of the page (the table's
/// row with columns of its own: the count reads the table alone).
#[allow(clippy::too_many_arguments)]
pub(crate) async fn summed_page<T>(
    db: &Db,
    table: &str,
    select: Option<&str>,
    order: &str,
    sum: &str,
    filters: impl Fn(&mut Sql),
    ascending: bool,
    limit: i64,
    offset: i64,
    from_row: impl Fn(&Row) -> StoreResult<T>,
) -> StoreResult<(Vec<T>, i64, i64)> {
    page_and_totals(db, table, select, order, Some(sum), filters, ascending, limit, offset, from_row).await
}

/// The page, the count and, when a column is named, its sum (0 otherwise, summing nothing).
#[allow(clippy::too_many_arguments)]
async fn page_and_totals<T>(
    db: &Db,
    table: &str,
    select: Option<&str>,
    order: &str,
    sum: Option<&str>,
    filters: impl Fn(&mut Sql),
    ascending: bool,
    limit: i64,
    offset: i64,
    from_row: impl Fn(&Row) -> StoreResult<T>,
) -> StoreResult<(Vec<T>, i64, i64)> {
    // SUM of BIGINT is NUMERIC in PostgreSQL: cast back so both read an integer.
    let summed = sum.map_or_else(
        || "CAST(0 AS BIGINT)".to_string(),
        |c| format!("CAST(COALESCE(SUM({c}), 0) AS BIGINT)"),
    );
    let mut count = Sql::new(&format!("SELECT COUNT(*) AS n, {summed} AS total_sum FROM {table}"));
    filters(&mut count);
    let mut page = match select {
        Some(select) => Sql::new(select),
        None => Sql::new(&format!("SELECT * FROM {table}")),
    };
    filters(&mut page);
    let direction = if ascending { "ASC" } else { "DESC" };
    page.push(&format!(" ORDER BY {order} {direction}, id {direction} LIMIT "));
    page.bind(limit).push(" OFFSET ").bind(offset);
    let (counted, rows) =
        tokio::try_join!(db.row(&count.text, &count.params), db.rows(&page.text, &page.params))?;
    let (total, summed) = match counted {
        Some(row) => (row.int("n")?, row.int("total_sum")?),
        None => (0, 0),
    };
    Ok((rows.iter().map(from_row).collect::<StoreResult<_>>()?, total, summed))
}
