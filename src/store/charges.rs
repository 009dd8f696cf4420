//! Charges, read with their debtor's name.

use std::sync::LazyLock;

use super::backend::Step;
use super::columns::{
    date, date_text, enumeration, json, json_text, money, optional_timestamp, timestamp, timestamp_text,
};
use super::events::{NewEvent, insert_event};
use super::listing::{ListWindow, Search, fetch_page, prefix_range, push_cmp, push_in, push_window};
use super::search::fold;
use super::value::{Param, Row, Sql, args, placeholders};
use super::{Store, StoreResult};
use crate::domain::charge::Charge;

/// Filters of the charge list.
#[derive(Debug, Default)]
pub struct ChargeFilter {
    /// Search, creation range, order and window.
    pub window: ListWindow,
    /// `status IN (…)`.
    pub statuses: Vec<String>,
    /// `dunning_status IN (…)`.
    pub dunning_statuses: Vec<String>,
    /// `debtor_id IN (…)`.
    pub debtor_ids: Vec<String>,
    /// Due on or after.
    pub due_from: Option<String>,
    /// Due on or before.
    pub due_to: Option<String>,
}

impl ChargeFilter {
    /// Whether only the organization and statuses filter the list, so the per-status counts
    /// give its exact total.
    fn counted_by_status(&self) -> bool {
        let w = &self.window;
        w.q.is_none()
            && w.created_from.is_none()
            && w.created_before.is_none()
            && self.dunning_statuses.is_empty()
            && self.debtor_ids.is_empty()
            && self.due_from.is_none()
            && self.due_to.is_none()
    }
}

const FROM: &str = "FROM charges c JOIN debtors d ON d.id = c.debtor_id";
const SELECT: &str = "SELECT c.*, d.name AS debtor_name FROM charges c JOIN debtors d ON d.id = c.debtor_id";

fn sort_column(sort_by: &str) -> &'static str {
    match sort_by {
        "due_date" => "c.due_date",
        "amount" => "c.amount_cents",
        "updated_at" => "c.updated_at",
        _ => "c.created_at",
    }
}

fn from_row(row: &Row) -> StoreResult<Charge> {
    Ok(Charge {
        id: row.text("id")?,
        organization_id: row.text("organization_id")?,
        debtor_id: row.text("debtor_id")?,
        debtor_name: row.text("debtor_name")?,
        external_id: row.opt_text("external_id")?,
        description: row.opt_text("description")?,
        amount: money(row, "amount_cents")?,
        paid: money(row, "paid_cents")?,
        issue_date: date(row, "issue_date")?,
        due_date: date(row, "due_date")?,
        status: enumeration(row, "status")?,
        dunning_status: enumeration(row, "dunning_status")?,
        payment_method: enumeration(row, "payment_method")?,
        fine: money(row, "fine_hundredths")?,
        interest: money(row, "interest_hundredths")?,
        paid_at: optional_timestamp(row, "paid_at")?,
        canceled_at: optional_timestamp(row, "canceled_at")?,
        cancellation_reason: row.opt_text("cancellation_reason")?,
        written_off_at: optional_timestamp(row, "written_off_at")?,
        agreement_id: row.opt_text("agreement_id")?,
        credit_bureau_status: row.opt_text("credit_bureau_status")?,
        protest_status: row.opt_text("protest_status")?,
        tags: json(row, "tags")?,
        metadata: json(row, "metadata")?,
        version: row.int("version")?,
        created_at: timestamp(row, "created_at")?,
        updated_at: timestamp(row, "updated_at")?,
    })
}

/// The columns an insert writes, in the order of [`insert_values`].
pub(crate) const INSERT_COLUMNS: &str = "external_id, description, amount_cents, paid_cents, issue_date, due_date, \
     status, dunning_status, payment_method, fine_hundredths, interest_hundredths, paid_at, canceled_at, \
     cancellation_reason, written_off_at, agreement_id, credit_bureau_status, protest_status, tags, metadata, \
     version, updated_at, search_external, id, organization_id, debtor_id, created_at";

/// How many values a charge insert binds.
pub(crate) const INSERT_WIDTH: usize = 27;

static INSERT: LazyLock<String> = LazyLock::new(|| {
    format!("INSERT INTO charges ({INSERT_COLUMNS}) VALUES ({})", placeholders(1, INSERT_WIDTH))
});

const UPDATE: &str = "UPDATE charges SET external_id = $1, description = $2, amount_cents = $3, paid_cents = $4, \
     issue_date = $5, due_date = $6, status = $7, dunning_status = $8, payment_method = $9, fine_hundredths = $10, \
     interest_hundredths = $11, paid_at = $12, canceled_at = $13, cancellation_reason = $14, written_off_at = $15, \
     agreement_id = $16, credit_bureau_status = $17, protest_status = $18, tags = $19, metadata = $20, \
     version = $21, updated_at = $22, search_external = $23 \
     WHERE id = $24 AND organization_id = $25 AND version = $26";

impl Store {
    /// One charge of an organization.
    pub async fn charge(&self, org_id: &str, id: &str) -> StoreResult<Option<Charge>> {
        const ONE: &str = "SELECT c.*, d.name AS debtor_name FROM charges c JOIN debtors d ON d.id = c.debtor_id \
             WHERE c.organization_id = $1 AND c.id = $2";
        let row = self.db.find(ONE, &args![org_id, id]).await?;
        row.as_ref().map(from_row).transpose()
    }

    /// A page of charges and the exact total count.
    pub async fn charges(&self, org_id: &str, filter: &ChargeFilter) -> StoreResult<(Vec<Charge>, i64)> {
        let order = (sort_column(&filter.window.sort_by), "c.id");
        let filters = |sql: &mut Sql| push_where(sql, org_id, filter);
        let total = filter.counted_by_status().then(|| {
            let mut sql = Sql::new("SELECT CAST(COALESCE(SUM(n), 0) AS BIGINT) FROM charge_status_counts c WHERE c.organization_id = ");
            sql.bind(org_id);
            push_in(&mut sql, "c.status", &filter.statuses);
            sql
        });
        fetch_page(&self.db, FROM, SELECT, filters, order, &filter.window, total, from_row).await
    }

    /// Up to `limit` pending charges of an organization whose due date is before `before`
    /// (`YYYY-MM-DD`), in (due date, id) order after `after`: the candidates to turn overdue,
    /// read a page at a time on the (organization, status, due date) index.
    pub async fn pending_due_before(
        &self,
        org_id: &str,
        before: &str,
        after: Option<(&str, &str)>,
        limit: i64,
    ) -> StoreResult<Vec<Charge>> {
        let (after_due, after_id) = after.unwrap_or(("", ""));
        let rows = self
            .db
            .rows(
                &format!(
                    "{SELECT} WHERE c.organization_id = $1 AND c.status = 'pending' AND c.due_date < $2 \
                     AND (c.due_date > $3 OR (c.due_date = $3 AND c.id > $4)) \
                     ORDER BY c.due_date, c.id LIMIT $5"
                ),
                &args![org_id, before, after_due, after_id, limit],
            )
            .await?;
        rows.iter().map(from_row).collect()
    }

    /// Inserts a charge and its event.
    pub async fn insert_charge(&self, c: &Charge, event: &NewEvent) -> StoreResult<()> {
        self.db.write(&[Step::new(INSERT.as_str(), insert_values(c)?), insert_event(event)]).await?;
        Ok(())
    }

    /// Saves a changed charge if it is still at `expected_version`; false when it moved on.
    pub async fn update_charge(
        &self,
        c: &Charge,
        expected_version: i64,
        event: &NewEvent,
    ) -> StoreResult<bool> {
        let mut params = mutable_values(c)?;
        params.extend(args![&c.id, &c.organization_id, expected_version]);
        self.db.write(&[Step::must_change(UPDATE, params), insert_event(event)]).await
    }
}

/// The values of every column of an insert, in [`INSERT_COLUMNS`] order.
pub(crate) fn insert_values(c: &Charge) -> StoreResult<Vec<Param>> {
    let mut params = mutable_values(c)?;
    params.extend(args![&c.id, &c.organization_id, &c.debtor_id, timestamp_text(&c.created_at)]);
    Ok(params)
}

/// The mutable columns, in the order both statements list them ($1 to $23).
fn mutable_values(c: &Charge) -> StoreResult<Vec<Param>> {
    Ok(Vec::from(args![
        &c.external_id,
        &c.description,
        c.amount.0,
        c.paid.0,
        date_text(c.issue_date),
        date_text(c.due_date),
        c.status.as_str(),
        c.dunning_status.as_str(),
        c.payment_method.as_str(),
        c.fine.0,
        c.interest.0,
        c.paid_at.as_ref().map(timestamp_text),
        c.canceled_at.as_ref().map(timestamp_text),
        &c.cancellation_reason,
        c.written_off_at.as_ref().map(timestamp_text),
        &c.agreement_id,
        &c.credit_bureau_status,
        &c.protest_status,
        json_text(&c.tags)?,
        json_text(&c.metadata)?,
        c.version,
        timestamp_text(&c.updated_at),
        c.external_id.as_deref().map(fold).unwrap_or_default(),
    ]))
}

fn push_where(sql: &mut Sql, org_id: &str, f: &ChargeFilter) {
    let org = push_window(sql, "c", org_id, &f.window);
    if let Some(q) = &f.window.q {
        push_search(sql, &org, &Search::of(q));
    }
    push_in(sql, "c.status", &f.statuses);
    push_in(sql, "c.dunning_status", &f.dunning_statuses);
    push_in(sql, "c.debtor_id", &f.debtor_ids);
    push_cmp(sql, "c.due_date", ">=", f.due_from.as_ref());
    push_cmp(sql, "c.due_date", "<=", f.due_to.as_ref());
}

/// ` AND c.id IN (…)`: charges whose id, external id, or debtor's name or document starts with
/// the search. A union of index range scans: an OR across tables would make both databases
/// read every charge of the organization.
fn push_search(sql: &mut Sql, org: &str, search: &Search) {
    let by_id = prefix_range(sql, "x.id", &search.id);
    // Ids are unique across organizations, so the id branch needs no organization (the outer
    // query has it) and reads the primary key alone.
    sql.push(&format!(" AND c.id IN (SELECT x.id FROM charges x WHERE {by_id}"));
    if let Some(key) = &search.key {
        let by_external = prefix_range(sql, "x.search_external", key);
        let by_name = prefix_range(sql, "y.search_name", key);
        let by_document = prefix_range(sql, "y.search_document", key);
        sql.push(&format!(
            " UNION SELECT x.id FROM charges x WHERE x.organization_id = {org} AND {by_external} \
             UNION SELECT x.id FROM debtors y JOIN charges x ON x.debtor_id = y.id \
             WHERE y.organization_id = {org} AND ({by_name} OR {by_document})"
        ));
    }
    sql.push(")");
}
