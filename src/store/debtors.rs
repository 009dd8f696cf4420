//! Debtors, with the open and overdue totals of their charges.

use std::sync::LazyLock;

use super::backend::Step;
use super::columns::{
    date_text, enumeration, json, json_text, money, optional_date, optional_timestamp, timestamp,
    timestamp_text,
};
use super::events::{NewEvent, insert_event};
use super::listing::{ListWindow, Search, fetch_page, prefix_range, push_cmp, push_in, push_window};
use super::search::fold;
use super::value::{Param, Row, Sql, args, placeholders};
use super::{Store, StoreError, StoreResult};
use crate::domain::debtor::{Balance, Debtor, OptOut};

/// Filters of the debtor list.
#[derive(Debug, Default)]
pub struct DebtorFilter {
    /// Search, creation range, order and window.
    pub window: ListWindow,
    /// `status IN (…)`.
    pub statuses: Vec<String>,
    /// `natural` or `legal`.
    pub person_type: Option<String>,
}

// SUM of BIGINT is NUMERIC in PostgreSQL: cast back so both read an integer.
pub(super) const SELECT: &str = "SELECT d.*, \
    CAST(COALESCE((SELECT SUM(c.amount_cents - c.paid_cents) FROM charges c WHERE c.debtor_id = d.id AND c.status IN ('pending', 'overdue')), 0) AS BIGINT) AS open_cents, \
    CAST(COALESCE((SELECT SUM(c.amount_cents - c.paid_cents) FROM charges c WHERE c.debtor_id = d.id AND c.status = 'overdue'), 0) AS BIGINT) AS overdue_cents, \
    (SELECT COUNT(*) FROM charges c WHERE c.debtor_id = d.id AND c.status IN ('pending', 'overdue')) AS open_charges, \
    (SELECT COUNT(*) FROM charges c WHERE c.debtor_id = d.id AND c.status = 'overdue') AS overdue_charges \
    FROM debtors d";

static ONE: LazyLock<String> =
    LazyLock::new(|| format!("{SELECT} WHERE d.organization_id = $1 AND d.id = $2"));

/// One debtor's row without the sums of its charges, which cost as many rows as it has charges.
const ONE_UNSUMMED: &str = "SELECT d.*, 0 AS open_cents, 0 AS overdue_cents, 0 AS open_charges, 0 AS overdue_charges \
    FROM debtors d WHERE d.organization_id = $1 AND d.id = $2";

fn sort_column(sort_by: &str) -> &'static str {
    match sort_by {
        // The folded name (src/store/search.rs): accents and case do not change the order.
        "name" => "d.search_name",
        "updated_at" => "d.updated_at",
        // The sums the page selects (what the debtor owes), by their names.
        "open_amount" => "open_cents",
        "overdue_amount" => "overdue_cents",
        _ => "d.created_at",
    }
}

pub(super) fn from_row(row: &Row) -> StoreResult<Debtor> {
    Ok(Debtor {
        id: row.text("id")?,
        organization_id: row.text("organization_id")?,
        external_id: row.opt_text("external_id")?,
        person_type: enumeration(row, "person_type")?,
        name: row.text("name")?,
        document: row.text("document")?,
        email: row.opt_text("email")?,
        phone: row.opt_text("phone")?,
        mobile: row.opt_text("mobile")?,
        address: row.opt_text("address")?.map(|a| serde_json::from_str(&a)).transpose()?,
        birth_date: optional_date(row, "birth_date")?,
        opt_out: OptOut {
            email: row.flag("opt_out_email")?,
            sms: row.flag("opt_out_sms")?,
            whatsapp: row.flag("opt_out_whatsapp")?,
        },
        credit_bureau_blocked: row.flag("credit_bureau_blocked")?,
        status: enumeration(row, "status")?,
        archived_at: optional_timestamp(row, "archived_at")?,
        default_cp_id: row.opt_text("default_cp_id")?,
        tags: json(row, "tags")?,
        metadata: json(row, "metadata")?,
        version: row.int("version")?,
        created_at: timestamp(row, "created_at")?,
        updated_at: timestamp(row, "updated_at")?,
        balance: Balance {
            open: money(row, "open_cents")?,
            overdue: money(row, "overdue_cents")?,
            open_charges: row.int("open_charges")?,
            overdue_charges: row.int("overdue_charges")?,
        },
    })
}

fn duplicate_document(err: StoreError) -> StoreError {
    if err.is_unique_violation() {
        StoreError::Duplicate("a debtor with this document already exists".into())
    } else {
        err
    }
}

/// The columns an insert writes, in the order of [`insert_values`].
pub(crate) const INSERT_COLUMNS: &str = "external_id, person_type, name, document, email, phone, mobile, address, \
     birth_date, opt_out_email, opt_out_sms, opt_out_whatsapp, credit_bureau_blocked, status, archived_at, tags, \
     metadata, version, updated_at, search_name, search_document, default_cp_id, id, organization_id, created_at";

/// How many values a debtor insert binds.
pub(crate) const INSERT_WIDTH: usize = 25;

static INSERT: LazyLock<String> = LazyLock::new(|| {
    format!("INSERT INTO debtors ({INSERT_COLUMNS}) VALUES ({})", placeholders(1, INSERT_WIDTH))
});

const UPDATE: &str = "UPDATE debtors SET external_id = $1, person_type = $2, name = $3, document = $4, email = $5, \
     phone = $6, mobile = $7, address = $8, birth_date = $9, opt_out_email = $10, opt_out_sms = $11, \
     opt_out_whatsapp = $12, credit_bureau_blocked = $13, status = $14, archived_at = $15, tags = $16, \
     metadata = $17, version = $18, updated_at = $19, search_name = $20, search_document = $21, \
     default_cp_id = $22 WHERE id = $23 AND organization_id = $24 AND version = $25";

impl Store {
    /// One debtor of an organization.
    pub async fn debtor(&self, org_id: &str, id: &str) -> StoreResult<Option<Debtor>> {
        // Not `find`: the debtor's summary sums its open charges, which may be many.
        let row = self.db.row(&ONE, &args![org_id, id]).await?;
        row.as_ref().map(from_row).transpose()
    }

    /// One debtor of an organization with its balance left at zero: for a write that needs the
    /// debtor but not what it owes (a new charge), whose cost must not grow with the debtor's
    /// history.
    pub async fn debtor_without_balance(&self, org_id: &str, id: &str) -> StoreResult<Option<Debtor>> {
        let row = self.db.find(ONE_UNSUMMED, &args![org_id, id]).await?;
        row.as_ref().map(from_row).transpose()
    }

    /// A page of debtors and the total count.
    pub async fn debtors(&self, org_id: &str, filter: &DebtorFilter) -> StoreResult<(Vec<Debtor>, i64)> {
        let order = (sort_column(&filter.window.sort_by), "d.id");
        let filters = |sql: &mut Sql| push_where(sql, org_id, filter);
        let total = search_count(org_id, filter);
        fetch_page(&self.db, "FROM debtors d", SELECT, filters, order, &filter.window, total, from_row).await
    }

    /// Inserts a debtor and its event.
    pub async fn insert_debtor(&self, d: &Debtor, event: &NewEvent) -> StoreResult<()> {
        let mut steps = vec![Step::new(INSERT.as_str(), insert_values(d)?)];
        steps.extend(word_steps(d, false));
        steps.push(insert_event(event));
        self.db.write(&steps).await.map_err(duplicate_document)?;
        Ok(())
    }

    /// Saves a changed debtor if it is still at `expected_version`; false when it moved on.
    pub async fn update_debtor(
        &self,
        d: &Debtor,
        expected_version: i64,
        event: &NewEvent,
    ) -> StoreResult<bool> {
        let mut params = mutable_values(d)?;
        params.extend(args![&d.id, &d.organization_id, expected_version]);
        // Its charges carry copies of its search keys (charge search): rewritten in the same
        // transaction, and only where they changed.
        let keys = Step::new(
            "UPDATE charges SET search_debtor_name = $1, search_debtor_document = $2 \
             WHERE debtor_id = $3 AND (search_debtor_name <> $1 OR search_debtor_document <> $2)",
            args![fold(&d.name), fold(&d.document), &d.id],
        );
        let mut steps = vec![Step::must_change(UPDATE, params), keys];
        steps.extend(word_steps(d, true));
        steps.push(insert_event(event));
        self.db.write(&steps).await.map_err(duplicate_document)
    }

    /// Deletes a debtor without charges; false when it has charges or changed meanwhile.
    pub async fn delete_debtor(
        &self,
        org_id: &str,
        id: &str,
        expected_version: i64,
        event: &NewEvent,
    ) -> StoreResult<bool> {
        let delete = Step::must_change(
            "DELETE FROM debtors WHERE organization_id = $1 AND id = $2 AND version = $3 \
             AND NOT EXISTS (SELECT 1 FROM charges c WHERE c.debtor_id = debtors.id)",
            args![org_id, id, expected_version],
        );
        self.db.write(&[delete, insert_event(event)]).await
    }

    /// Whether a debtor has any charge.
    pub async fn debtor_has_charges(&self, org_id: &str, id: &str) -> StoreResult<bool> {
        let row = self
            .db
            .row(
                "SELECT 1 AS found FROM charges WHERE organization_id = $1 AND debtor_id = $2 LIMIT 1",
                &args![org_id, id],
            )
            .await?;
        Ok(row.is_some())
    }
}

/// The steps that keep a debtor's later name words (`debtor_words`, what finds "Ribeiro" in
/// "Mariana Costa Ribeiro"): those of a changed debtor are written again.
pub(crate) fn word_steps(d: &Debtor, replace: bool) -> Vec<Step> {
    let mut steps = Vec::new();
    if replace {
        steps.push(Step::new("DELETE FROM debtor_words WHERE debtor_id = $1", args![&d.id]));
    }
    let name = fold(&d.name);
    let words = super::search::later_words(&name);
    if !words.is_empty() {
        let mut sql = Sql::new("INSERT INTO debtor_words (organization_id, word, debtor_id, prev) VALUES ");
        // The words come sorted: each row names the one before it (migration 0024 says why).
        let prevs = std::iter::once("").chain(words.iter().copied());
        for (i, (word, prev)) in words.iter().zip(prevs).enumerate() {
            sql.push(if i == 0 { "(" } else { ", (" });
            sql.bind(&d.organization_id).push(", ").bind(*word).push(", ").bind(&d.id);
            sql.push(", ").bind(prev).push(")");
        }
        steps.push(Step::new(sql.text, sql.params));
    }
    steps
}

/// The values of every column of an insert, in [`INSERT_COLUMNS`] order.
pub(crate) fn insert_values(d: &Debtor) -> StoreResult<Vec<Param>> {
    let mut params = mutable_values(d)?;
    params.extend(args![&d.id, &d.organization_id, timestamp_text(&d.created_at)]);
    Ok(params)
}

/// The mutable columns, in the order both statements list them ($1 to $22).
fn mutable_values(d: &Debtor) -> StoreResult<Vec<Param>> {
    let address = d.address.as_ref().map(json_text).transpose()?;
    Ok(Vec::from(args![
        &d.external_id,
        d.person_type.as_str(),
        &d.name,
        &d.document,
        &d.email,
        &d.phone,
        &d.mobile,
        address,
        d.birth_date.map(date_text),
        d.opt_out.email,
        d.opt_out.sms,
        d.opt_out.whatsapp,
        d.credit_bureau_blocked,
        d.status.as_str(),
        d.archived_at.as_ref().map(timestamp_text),
        json_text(&d.tags)?,
        json_text(&d.metadata)?,
        d.version,
        timestamp_text(&d.updated_at),
        fold(&d.name),
        fold(&d.document),
        &d.default_cp_id,
    ]))
}

/// The count of a list that only searches: the union of the ids each range's index holds
/// (a later word's index holds its debtor's id), so no debtor row is read to count it.
fn search_count(org_id: &str, f: &DebtorFilter) -> Option<Sql> {
    let w = &f.window;
    let only_search = w.created_from.is_none() && w.created_before.is_none() && f.statuses.is_empty();
    let search = Search::of(w.q.as_ref().filter(|_| only_search && f.person_type.is_none())?);
    let mut sql = Sql::new("SELECT COUNT(*) FROM (");
    let org = sql.param(org_id);
    let mut ranges: Vec<String> = Vec::new();
    if let Some(id) = &search.id {
        let range = prefix_range(&mut sql, "d.id", id);
        ranges.push(format!("SELECT d.id FROM debtors d WHERE d.organization_id = {org} AND {range}"));
    }
    if let Some(key) = &search.key {
        for column in ["d.search_name", "d.search_document"] {
            let range = prefix_range(&mut sql, column, key);
            ranges.push(format!("SELECT d.id FROM debtors d WHERE d.organization_id = {org} AND {range}"));
        }
        let range = prefix_range(&mut sql, "w.word", key);
        ranges.push(format!(
            "SELECT w.debtor_id FROM debtor_words w WHERE w.organization_id = {org} AND {range}"
        ));
    }
    if ranges.is_empty() {
        return None;
    }
    sql.push(&ranges.join(" UNION "));
    sql.push(") m");
    Some(sql)
}

fn push_where(sql: &mut Sql, org_id: &str, f: &DebtorFilter) {
    push_window(sql, "d", org_id, &f.window);
    if let Some(q) = &f.window.q {
        let search = Search::of(q);
        let mut any: Vec<String> = search.id.iter().map(|id| prefix_range(sql, "d.id", id)).collect();
        if let Some(key) = &search.key {
            any.push(prefix_range(sql, "d.search_name", key));
            any.push(prefix_range(sql, "d.search_document", key));
            let org = sql.param(org_id);
            let words = prefix_range(sql, "w.word", key);
            any.push(format!(
                "d.id IN (SELECT w.debtor_id FROM debtor_words w WHERE w.organization_id = {org} AND {words})"
            ));
        }
        if any.is_empty() {
            // Nothing searchable in the text: nothing matches.
            any.push("1 = 0".into());
        }
        sql.push(&format!(" AND ({})", any.join(" OR ")));
    }
    push_in(sql, "d.status", &f.statuses);
    push_cmp(sql, "d.person_type", "=", f.person_type.as_ref());
}
