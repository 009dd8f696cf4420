//! Charges, read with their debtor's name.

use std::sync::LazyLock;

use super::backend::Step;
use super::columns::{
    date, date_text, enumeration, json, json_text, money, optional_date, optional_enumeration,
    optional_timestamp, timestamp, timestamp_text,
};
use super::events::{NewEvent, insert_event};
use super::listing::{ListWindow, Search, fetch_page, prefix_range, push_cmp, push_in, push_window};
use super::search::fold;
use super::value::{Param, Row, Sql, args, placeholders};
use super::{Store, StoreError, StoreResult};
use crate::domain::charge::Charge;
use crate::domain::payment_codes::{Boleto, Pix};
use crate::types::ChargeStatus;

/// A page of the charge list and what its `meta` says of every page.
#[derive(Debug)]
pub struct ChargePage {
    pub rows: Vec<Charge>,
    pub total: i64,
    pub sums: Sums,
}

/// Sums over the charges a list matches, in centavos.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Sums {
    pub amount: i64,
    pub paid: i64,
}

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
    /// `credit_bureau_status IN (…)`.
    pub credit_bureau_statuses: Vec<String>,
    /// `protest_status IN (…)`.
    pub protest_statuses: Vec<String>,
}

impl ChargeFilter {
    /// Whether only the organization and statuses filter the list, so the per-status counts
    /// give its exact total.
    fn counted_by_status(&self) -> bool {
        self.window.q.is_none() && self.filtered_by_status_alone()
    }

    /// Whether nothing but the statuses (and the search) filters the list.
    fn filtered_by_status_alone(&self) -> bool {
        let w = &self.window;
        w.created_from.is_none()
            && w.created_before.is_none()
            && self.dunning_statuses.is_empty()
            && self.debtor_ids.is_empty()
            && self.due_from.is_none()
            && self.due_to.is_none()
            && self.credit_bureau_statuses.is_empty()
            && self.protest_statuses.is_empty()
    }
}

// Counts need no debtor: every charge has one (a foreign key).
const FROM: &str = "FROM charges c";
/// The columns [`from_row`] reads, in the order it reads them (each lookup by name then finds
/// its column first), and not the search keys, which only filters use; a literal for `concat!`.
macro_rules! columns {
    () => {
        "c.id, c.organization_id, c.debtor_id, d.name AS debtor_name, c.cp_id, c.external_id, \
         c.description, c.amount_cents, c.paid_cents, c.issue_date, c.due_date, c.status, c.dunning_status, \
         c.payment_method, c.fine_hundredths, c.interest_hundredths, c.paid_at, c.canceled_at, \
         c.cancellation_reason, c.written_off_at, c.agreement_id, c.credit_bureau_status, c.protest_status, \
         c.tags, c.metadata, c.version, c.created_at, c.updated_at, c.write_off_reason, c.decision, c.origin, \
         c.current_step_id, c.pending_decision, c.next_action_at, c.paused_until, c.boleto_barcode, \
         c.boleto_url, c.pix_emv"
    };
}
pub(super) const SELECT: &str =
    concat!("SELECT ", columns!(), " FROM charges c JOIN debtors d ON d.id = c.debtor_id");

fn sort_column(sort_by: &str) -> &'static str {
    match sort_by {
        "due_date" => "c.due_date",
        "amount" => "c.amount_cents",
        "updated_at" => "c.updated_at",
        _ => "c.created_at",
    }
}

pub(super) fn from_row(row: &Row) -> StoreResult<Charge> {
    Ok(Charge {
        id: row.text("id")?,
        organization_id: row.text("organization_id")?,
        debtor_id: row.text("debtor_id")?,
        debtor_name: row.text("debtor_name")?,
        cp_id: row.opt_text("cp_id")?,
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
        credit_bureau_status: optional_enumeration(row, "credit_bureau_status")?,
        protest_status: optional_enumeration(row, "protest_status")?,
        tags: json(row, "tags")?,
        metadata: json(row, "metadata")?,
        version: row.int("version")?,
        created_at: timestamp(row, "created_at")?,
        updated_at: timestamp(row, "updated_at")?,
        write_off_reason: row.opt_text("write_off_reason")?,
        decision: row.opt_text("decision")?.map(|d| serde_json::from_str(&d)).transpose()?,
        origin: enumeration(row, "origin")?,
        current_step_id: row.opt_text("current_step_id")?,
        pending_decision: row.opt_text("pending_decision")?.map(|p| serde_json::from_str(&p)).transpose()?,
        next_action_at: optional_timestamp(row, "next_action_at")?,
        paused_until: optional_date(row, "paused_until")?,
        boleto: match row.opt_text("boleto_barcode")? {
            Some(barcode) => Some(
                Boleto::read(&barcode, row.opt_text("boleto_url")?)
                    .map_err(|_| StoreError::CorruptColumn("boleto_barcode".into()))?,
            ),
            None => None,
        },
        pix: match row.opt_text("pix_emv")? {
            Some(emv) => Some(Pix::read(emv).map_err(|_| StoreError::CorruptColumn("pix_emv".into()))?),
            None => None,
        },
    })
}

/// The columns an insert writes: the values of [`insert_values`], then the debtor's search
/// keys ([`insert_row`] reads them from the debtor's row; a bulk load passes them).
pub(crate) const INSERT_COLUMNS: &str = "external_id, description, amount_cents, paid_cents, issue_date, due_date, \
     status, dunning_status, payment_method, fine_hundredths, interest_hundredths, paid_at, canceled_at, \
     cancellation_reason, written_off_at, agreement_id, credit_bureau_status, protest_status, tags, metadata, \
     version, updated_at, search_external, cp_id, write_off_reason, decision, current_step_id, next_action_at, \
     paused_until, boleto_barcode, boleto_url, pix_emv, pix_txid, pending_decision, id, organization_id, debtor_id, \
     created_at, origin, search_debtor_name, search_debtor_document";

/// How many values a charge insert binds.
pub(crate) const INSERT_WIDTH: usize = 39;

/// The position of `debtor_id` among the values.
const DEBTOR_ID: usize = 37;

/// One row of an insert whose values start at `$first`: the values, then the debtor's search
/// keys read from its row (so they are the keys the debtor has, whoever inserts).
fn insert_row(first: usize) -> String {
    let debtor = first + DEBTOR_ID - 1;
    format!(
        "({}, (SELECT d.search_name FROM debtors d WHERE d.id = ${debtor}), \
         (SELECT d.search_document FROM debtors d WHERE d.id = ${debtor}))",
        placeholders(first, INSERT_WIDTH)
    )
}

static INSERT: LazyLock<String> =
    LazyLock::new(|| format!("INSERT INTO charges ({INSERT_COLUMNS}) VALUES {}", insert_row(1)));

const UPDATE: &str = "UPDATE charges SET external_id = $1, description = $2, amount_cents = $3, paid_cents = $4, \
     issue_date = $5, due_date = $6, status = $7, dunning_status = $8, payment_method = $9, fine_hundredths = $10, \
     interest_hundredths = $11, paid_at = $12, canceled_at = $13, cancellation_reason = $14, written_off_at = $15, \
     agreement_id = $16, credit_bureau_status = $17, protest_status = $18, tags = $19, metadata = $20, \
     version = $21, updated_at = $22, search_external = $23, cp_id = $24, write_off_reason = $25, decision = $26, \
     current_step_id = $27, next_action_at = $28, paused_until = $29, boleto_barcode = $30, boleto_url = $31, \
     pix_emv = $32, pix_txid = $33, pending_decision = $34 WHERE id = $35 AND organization_id = $36 AND version = $37";

impl Store {
    /// One charge of an organization.
    pub async fn charge(&self, org_id: &str, id: &str) -> StoreResult<Option<Charge>> {
        const ONE: &str = concat!(
            "SELECT ",
            columns!(),
            " FROM charges c JOIN debtors d ON d.id = c.debtor_id WHERE c.organization_id = $1 AND c.id = $2"
        );
        let row = self.db.find(ONE, &args![org_id, id]).await?;
        row.as_ref().map(from_row).transpose()
    }

    /// The charges a payment names, at most two (two is one too many): by `external_id`, else
    /// by boleto barcode, else by Pix txid, their own or one made for them (the first 25
    /// hexadecimal digits of the charge's id).
    pub async fn charges_paid_by(
        &self,
        org_id: &str,
        external_id: Option<&str>,
        barcode: Option<&str>,
        txid: Option<&str>,
    ) -> StoreResult<Vec<Charge>> {
        const BY: &str = concat!(
            "SELECT ",
            columns!(),
            " FROM charges c JOIN debtors d ON d.id = c.debtor_id WHERE c.organization_id = $1 AND "
        );
        let generated = txid
            .filter(|t| {
                t.len() == crate::domain::charge::GENERATED_TXID_LEN
                    && t.bytes().all(|b| b.is_ascii_hexdigit())
            })
            .map(|t| format!("chg_{}", t.to_ascii_lowercase()));
        let lookups = [
            external_id.map(|v| ("c.external_id = $2 ORDER BY c.id LIMIT 2", v.to_string(), None)),
            barcode.map(|v| ("c.boleto_barcode = $2 ORDER BY c.id LIMIT 2", v.to_string(), None)),
            txid.map(|v| ("c.pix_txid = $2 ORDER BY c.id LIMIT 2", v.to_string(), None)),
            // Ids are `chg_` and 32 hexadecimal digits: those starting with the txid sort from
            // it up to it followed by `g`.
            generated
                .map(|v| ("c.id > $2 AND c.id < $3 ORDER BY c.id LIMIT 2", v.clone(), Some(format!("{v}g")))),
        ];
        for (condition, value, upper) in lookups.into_iter().flatten() {
            let sql = format!("{BY}{condition}");
            let rows = match upper {
                Some(upper) => self.db.rows(&sql, &args![org_id, value, upper]).await?,
                None => self.db.rows(&sql, &args![org_id, value]).await?,
            };
            if !rows.is_empty() {
                return rows.iter().map(from_row).collect();
            }
        }
        Ok(Vec::new())
    }

    /// A debtor's charges by due date, at most `limit` (a statement lists them all).
    pub async fn debtor_charges(
        &self,
        org_id: &str,
        debtor_id: &str,
        limit: i64,
    ) -> StoreResult<Vec<Charge>> {
        let rows = self
            .db
            .rows(
                &format!(
                    "{SELECT} WHERE c.organization_id = $1 AND c.debtor_id = $2 \
                     ORDER BY c.due_date, c.id LIMIT $3"
                ),
                &args![org_id, debtor_id, limit],
            )
            .await?;
        rows.iter().map(from_row).collect()
    }

    /// A page of charges, the exact total and the sums over every charge the filter matches.
    pub async fn charges(&self, org_id: &str, filter: &ChargeFilter) -> StoreResult<ChargePage> {
        if let Some(q) = &filter.window.q {
            return self.search_charges(org_id, filter, &Search::of(q)).await;
        }
        let order = (sort_column(&filter.window.sort_by), "c.id");
        let filters = |sql: &mut Sql| push_where(sql, org_id, filter);
        let total = filter.counted_by_status().then(|| {
            let mut sql = Sql::new("SELECT CAST(COALESCE(SUM(n), 0) AS BIGINT) FROM charge_status_counts c WHERE c.organization_id = ");
            sql.bind(org_id);
            push_in(&mut sql, "c.status", &filter.statuses);
            sql
        });
        let ((rows, total), sums) = tokio::try_join!(
            fetch_page(&self.db, FROM, SELECT, filters, order, &filter.window, total, from_row),
            self.charge_sums(org_id, filter)
        )?;
        Ok(ChargePage { rows, total, sums })
    }

    /// The sums over every charge a filter without search matches: from the per-status counts
    /// when only statuses filter, else summed.
    async fn charge_sums(&self, org_id: &str, filter: &ChargeFilter) -> StoreResult<Sums> {
        let mut sql = Sql::new(concat!(
            "SELECT CAST(COALESCE(SUM(c.amount_cents), 0) AS BIGINT) AS amount, ",
            "CAST(COALESCE(SUM(c.paid_cents), 0) AS BIGINT) AS paid "
        ));
        if filter.counted_by_status() {
            sql.push("FROM charge_status_counts c WHERE c.organization_id = ").bind(org_id);
            push_in(&mut sql, "c.status", &filter.statuses);
        } else {
            sql.push(FROM);
            push_where(&mut sql, org_id, filter);
        }
        let row = self.db.row(&sql.text, &sql.params).await?;
        row.map_or(Ok(Sums::default()), |row| Ok(Sums { amount: row.int("amount")?, paid: row.int("paid")? }))
    }

    /// Up to `limit` pending charges of an organization whose due date is before `before`
    /// (`YYYY-MM-DD`), in (due date, id) order after `after`: the candidates to turn overdue,
    /// read a page at a time on the (organization, status, due date, id) index.
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
                     AND (c.due_date, c.id) > ($3, $4) ORDER BY c.due_date, c.id LIMIT $5"
                ),
                &args![org_id, before, after_due, after_id, limit],
            )
            .await?;
        rows.iter().map(from_row).collect()
    }

    /// Up to `limit` charges of an organization whose pause ends on or before `today`
    /// (`YYYY-MM-DD`): the régua resumes for them.
    pub async fn pauses_ending(&self, org_id: &str, today: &str, limit: i64) -> StoreResult<Vec<Charge>> {
        let rows = self
            .db
            .rows(
                &format!(
                    "{SELECT} WHERE c.organization_id = $1 AND c.dunning_status = 'paused' \
                     AND c.paused_until IS NOT NULL AND c.paused_until <= $2 ORDER BY c.paused_until, c.id LIMIT $3"
                ),
                &args![org_id, today, limit],
            )
            .await?;
        rows.iter().map(from_row).collect()
    }

    /// Up to `limit` charges in `status` that follow policy `cp_id` (`default`: also those that
    /// name none), in (due date, id) order after `after`, read on the (organization, status, due
    /// date, id) index.
    pub async fn charges_following(
        &self,
        org_id: &str,
        (cp_id, default): (&str, bool),
        status: ChargeStatus,
        (after_due, after_id): (&str, &str),
        limit: i64,
    ) -> StoreResult<Vec<Charge>> {
        let rows = self
            .db
            .rows(
                &format!(
                    "{SELECT} WHERE c.organization_id = $1 AND c.status = $2 AND (c.due_date, c.id) > ($3, $4) \
                     AND (c.cp_id = $5 OR (c.cp_id IS NULL AND $6 = 1)) ORDER BY c.due_date, c.id LIMIT $7"
                ),
                &args![org_id, status.as_str(), after_due, after_id, cp_id, default, limit],
            )
            .await?;
        rows.iter().map(from_row).collect()
    }

    /// Up to `limit` charges of an organization whose next action came before `before` (an
    /// instant), in that order: steps the engine no longer sends, read on the (organization,
    /// next action) index.
    pub async fn actions_missed(&self, org_id: &str, before: &str, limit: i64) -> StoreResult<Vec<Charge>> {
        let rows = self
            .db
            .rows(
                &format!(
                    "{SELECT} WHERE c.organization_id = $1 AND c.next_action_at < $2 \
                     ORDER BY c.next_action_at, c.id LIMIT $3"
                ),
                &args![org_id, before, limit],
            )
            .await?;
        rows.iter().map(from_row).collect()
    }

    /// Sets the next action of each charge still at the version read, in one transaction: the
    /// engine's schedule, computed again after its policy changed. A charge changed meanwhile
    /// got its own from the policy as it is now.
    pub async fn reschedule_charges(
        &self,
        charges: &[(&Charge, Option<time::OffsetDateTime>)],
    ) -> StoreResult<()> {
        let steps: Vec<Step> = charges
            .iter()
            .map(|(c, next)| {
                Step::new(
                    "UPDATE charges SET next_action_at = $1 WHERE id = $2 AND version = $3",
                    args![next.as_ref().map(timestamp_text), &c.id, c.version],
                )
            })
            .collect();
        if steps.is_empty() {
            return Ok(());
        }
        self.db.write(&steps).await.map(drop)
    }

    /// The open charges that follow policy `cp_id` (`default`: also those that name none),
    /// whose dunning runs and whose next action came by `now` (an instant), due from `due_from`
    /// to `due_to` (`YYYY-MM-DD`), and that have no notification or escalation of `step_id`
    /// yet: the candidates of one step on one pass, in due order, read on the (organization,
    /// next action) index so that a pass reads only what is due.
    pub async fn charges_for_step(
        &self,
        org_id: &str,
        (cp_id, default): (&str, bool),
        (due_from, due_to): (&str, &str),
        step_id: &str,
        now: &str,
    ) -> StoreResult<Vec<Charge>> {
        // SQLite's planner, without histograms, prefers the due-date range (every charge due in
        // the catch-up days, mostly done); the next action's index reads only what is due.
        let from = if self.db.is_postgres() { "" } else { " INDEXED BY charges_org_next_action" };
        let rows = self
            .db
            .rows(
                &format!(
                    "SELECT {} FROM charges c{from} JOIN debtors d ON d.id = c.debtor_id \
                     WHERE c.organization_id = $1 AND c.next_action_at <= $7 \
                     AND c.status IN ('pending', 'overdue') \
                     AND c.dunning_status IN ('not_started', 'active') AND c.due_date >= $2 AND c.due_date <= $3 \
                     AND (c.cp_id = $4 OR (c.cp_id IS NULL AND $5 = 1)) \
                     AND NOT EXISTS (SELECT 1 FROM notifications n WHERE n.charge_id = c.id AND n.step_id = $6) \
                     AND NOT EXISTS (SELECT 1 FROM escalations e WHERE e.charge_id = c.id AND e.step_id = $6) \
                     ORDER BY c.due_date, c.id",
                    columns!()
                ),
                &args![org_id, due_from, due_to, cp_id, default, step_id, now],
            )
            .await?;
        rows.iter().map(from_row).collect()
    }

    /// The charges of the organization among `ids`, held by this unit until it ends: on
    /// PostgreSQL those another transaction holds are left out (`SKIP LOCKED`: a second engine
    /// takes the next batch rather than wait for this one); SQLite's unit is the only writer
    /// already.
    pub async fn claim_charges(&self, org_id: &str, ids: &[&str]) -> StoreResult<Vec<Charge>> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let lock = if self.db.is_postgres() { " FOR UPDATE OF c SKIP LOCKED" } else { "" };
        let sql = format!(
            "{SELECT} WHERE c.organization_id = $1 AND c.id IN ({}){lock}",
            placeholders(2, ids.len())
        );
        let mut params = Vec::from(args![org_id]);
        params.extend(ids.iter().map(|id| Param::from(*id)));
        let rows = self.db.rows(&sql, &params).await?;
        rows.iter().map(from_row).collect()
    }

    /// Saves a charge that an escalation step stopped for a human, if it is still at
    /// `expected` and `step_id` never escalated it before; false otherwise.
    pub async fn escalate_charge(
        &self,
        c: &Charge,
        expected: i64,
        step_id: &str,
        event: &NewEvent,
    ) -> StoreResult<bool> {
        let mut params = mutable_values(c)?;
        params.extend(args![&c.id, &c.organization_id, expected]);
        let run = escalation_run(&c.id, step_id, &c.organization_id, &event.occurred_at);
        self.db.write(&[run, Step::must_change(UPDATE, params), insert_event(event)]).await
    }

    /// Records that escalation step `step_id` ran for a charge; false when it already had.
    pub async fn record_escalation(
        &self,
        charge_id: &str,
        step_id: &str,
        org_id: &str,
        occurred_at: &str,
    ) -> StoreResult<bool> {
        self.db.write(&[escalation_run(charge_id, step_id, org_id, occurred_at)]).await
    }

    /// Inserts a charge and its event.
    pub async fn insert_charge(&self, c: &Charge, event: &NewEvent) -> StoreResult<()> {
        let mut steps = Vec::with_capacity(3);
        if self.db.is_postgres() {
            // The charge copies its debtor's search keys: hold the debtor's row so that a rename
            // committing meanwhile either comes first (and the copy reads the new keys) or waits
            // for this charge (and rewrites its keys). SQLite runs one writer at a time.
            steps.push(Step::new("SELECT 1 FROM debtors WHERE id = $1 FOR SHARE", args![&c.debtor_id]));
        }
        steps.push(Step::new(INSERT.as_str(), insert_values(c)?));
        steps.push(insert_event(event));
        self.db.write(&steps).await?;
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
    params.extend(args![
        &c.id,
        &c.organization_id,
        &c.debtor_id,
        timestamp_text(&c.created_at),
        c.origin.as_str()
    ]);
    Ok(params)
}

/// The mutable columns, in the order both statements list them ($1 to $34).
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
        c.credit_bureau_status.map(|s| s.as_str().to_string()),
        c.protest_status.map(|s| s.as_str().to_string()),
        json_text(&c.tags)?,
        json_text(&c.metadata)?,
        c.version,
        timestamp_text(&c.updated_at),
        c.external_id.as_deref().map(fold).unwrap_or_default(),
        &c.cp_id,
        &c.write_off_reason,
        c.decision.as_ref().map(json_text).transpose()?,
        &c.current_step_id,
        c.next_action_at.as_ref().map(timestamp_text),
        c.paused_until.map(date_text),
        c.boleto.as_ref().map(|b| b.barcode.digits().to_string()),
        c.boleto.as_ref().and_then(|b| b.url.clone()),
        c.pix.as_ref().map(|p| p.emv.clone()),
        c.pix.as_ref().and_then(|p| p.txid().map(str::to_string)),
        c.pending_decision.as_ref().map(json_text).transpose()?,
    ]))
}

fn push_where(sql: &mut Sql, org_id: &str, f: &ChargeFilter) {
    push_window(sql, "c", org_id, &f.window);
    push_filters(sql, "c", f);
}

/// ` AND …` for every filter but the organization, the creation range and the search, on the
/// charges aliased `a`.
fn push_filters(sql: &mut Sql, a: &str, f: &ChargeFilter) {
    push_in(sql, &format!("{a}.status"), &f.statuses);
    push_in(sql, &format!("{a}.dunning_status"), &f.dunning_statuses);
    push_in(sql, &format!("{a}.debtor_id"), &f.debtor_ids);
    push_cmp(sql, &format!("{a}.due_date"), ">=", f.due_from.as_ref());
    push_cmp(sql, &format!("{a}.due_date"), "<=", f.due_to.as_ref());
    push_in(sql, &format!("{a}.credit_bureau_status"), &f.credit_bureau_statuses);
    push_in(sql, &format!("{a}.protest_status"), &f.protest_statuses);
}

/// One way a charge matches a search: its id, external id, or debtor's name or document
/// starts with it. Each is a prefix range of a column that an index of the organization's
/// charges leads with (`(organization_id, column, status)`; the id's own index for the id).
struct Range {
    column: &'static str,
    prefix: String,
    /// The organization searched (the later-word range's subquery names it, so that it is
    /// read once, not per charge).
    org_id: String,
}

impl Range {
    /// The ranges of a search: the id when the text looks like one, the folded keys when
    /// something is left to fold.
    fn of(search: &Search, org_id: &str) -> Vec<Range> {
        let mut out: Vec<Range> = search
            .id
            .iter()
            .map(|id| Range { column: "id", prefix: id.clone(), org_id: org_id.to_string() })
            .collect();
        if let Some(key) = &search.key {
            for column in ["search_external", "search_debtor_name", "search_debtor_document", LATER_WORD] {
                out.push(Range { column, prefix: key.clone(), org_id: org_id.to_string() });
            }
        }
        out
    }

    /// `a.column >= $x AND a.column < $y`, which the column's index answers.
    fn indexed(&self, sql: &mut Sql, a: &str) -> String {
        if self.column == LATER_WORD {
            return later_word(sql, &format!("{a}.debtor_id"), &self.org_id, &self.prefix);
        }
        prefix_range(sql, &format!("{a}.{}", self.column), &self.prefix)
    }

    /// The same test written so that no index answers it ([`unindexed`]).
    fn unindexed(&self, sql: &mut Sql, a: &str) -> String {
        if self.column == LATER_WORD {
            // The words' own index still answers the inside, read once.
            return later_word(sql, &unindexed(&format!("{a}.debtor_id")), &self.org_id, &self.prefix);
        }
        prefix_range(sql, &unindexed(&format!("{a}.{}", self.column)), &self.prefix)
    }

    /// Pushes `SELECT {TOTALS} FROM …`: the count and sums of the organization's charges in
    /// this range that pass the filters and are in none of the `earlier` ranges.
    fn push_totals(&self, sql: &mut Sql, org: &str, f: &ChargeFilter, earlier: &[Range]) {
        if self.column == LATER_WORD && earlier.is_empty() && f.filtered_by_status_alone() {
            // The words carry their debtor's totals per status: one range of their index, not
            // a probe of each matching debtor's charges.
            let words = prefix_range(sql, "x.word", &self.prefix);
            let again = prefix_range(sql, "x.prev", &self.prefix);
            sql.push(&format!(
                "SELECT {WORD_TOTALS} FROM debtor_word_totals x \
                 WHERE x.organization_id = {org} AND {words} AND NOT {again}"
            ));
            push_in(sql, "x.status", &f.statuses);
            return;
        }
        sql.push(&format!("SELECT {TOTALS} "));
        self.push_from(sql, org, f);
        push_none_of(sql, earlier);
    }

    /// Pushes `FROM charges x WHERE …`: the organization's charges in this range that pass
    /// the filters, read from this range's index.
    fn push_from(&self, sql: &mut Sql, org: &str, f: &ChargeFilter) {
        let range = self.indexed(sql, "x");
        match self.column {
            // The id's index does not start with the organization: an organization test the
            // planner could use would draw it to an organization-wide index instead.
            "id" => sql.push(&format!(
                "FROM charges x WHERE {} = {org} AND {range}",
                unindexed("x.organization_id")
            )),
            // The words are the organization's, and a charge's debtor is of its organization:
            // no test of the charge row, so its debtor index alone counts and sums the range.
            LATER_WORD => sql.push(&format!("FROM charges x WHERE {range}")),
            _ => sql.push(&format!("FROM charges x WHERE x.organization_id = {org} AND {range}")),
        };
        push_created(sql, "x", &f.window);
        push_filters(sql, "x", f);
    }
}

/// The count and sums of the charges `x` of a range, which its index holds.
const TOTALS: &str = "COUNT(*) AS n, CAST(COALESCE(SUM(x.amount_cents), 0) AS BIGINT) AS a, \
     CAST(COALESCE(SUM(x.paid_cents), 0) AS BIGINT) AS p";

/// [`TOTALS`] from the debtors' word rows, which hold counts and sums.
const WORD_TOTALS: &str = "CAST(COALESCE(SUM(x.n), 0) AS BIGINT) AS n, \
     CAST(COALESCE(SUM(x.amount_cents), 0) AS BIGINT) AS a, \
     CAST(COALESCE(SUM(x.paid_cents), 0) AS BIGINT) AS p";

/// ` AND NOT …` for each of `earlier`: a charge an earlier range already counted is left out,
/// so ranges add up without gathering ids.
fn push_none_of<'a>(sql: &mut Sql, earlier: impl IntoIterator<Item = &'a Range>) {
    for range in earlier {
        let test = range.unindexed(sql, "x");
        sql.push(&format!(" AND NOT {test}"));
    }
}

/// The range of a later word of the debtor's name (`debtor_words`): "Ribeiro" in "Mariana
/// Costa Ribeiro".
const LATER_WORD: &str = "debtor_words";

/// `debtor IN (debtors with a later name word starting with prefix)`.
fn later_word(sql: &mut Sql, debtor: &str, org_id: &str, prefix: &str) -> String {
    let org = sql.param(org_id);
    let words = prefix_range(sql, "w.word", prefix);
    format!(
        "{debtor} IN (SELECT w.debtor_id FROM debtor_words w WHERE w.organization_id = {org} AND {words})"
    )
}

/// `(expr || '')`: the same text, compared the same way, but an expression no index of either
/// database answers. For a test that must be checked row by row while the query walks an
/// index in the order of the page (SQLite's planner, with statistics sampled on a million
/// rows, would otherwise pick a search index and sort every match).
fn unindexed(expr: &str) -> String {
    format!("({expr} || '')")
}

/// ` AND a.created_at …` for the creation range.
fn push_created(sql: &mut Sql, a: &str, window: &ListWindow) {
    push_cmp(sql, &format!("{a}.created_at"), ">=", window.created_from.as_ref());
    push_cmp(sql, &format!("{a}.created_at"), "<", window.created_before.as_ref());
}

impl Store {
    /// The charge list with `q`: counted from the search indexes, then the page read in
    /// whichever way reads fewer rows.
    ///
    /// 1. Each range is counted and summed from its index (which holds `status` and the
    ///    amounts, so a status filter is counted there too), next to the number of charges the
    ///    status filter leaves (the per-status counts). A charge may be in several ranges (an
    ///    external id that starts like its debtor's name): then the total and the sums take
    ///    the largest range, and each smaller one without what the ranges before it hold.
    /// 2. Many matches (`ana`: 30,000 of 1,000,000): the page walks the index of its sort
    ///    order and tests each charge, expecting a match every `charges / matches` rows, and
    ///    stops when the page is full. Few matches: the page gathers them from the range
    ///    indexes and sorts them. Whichever reads fewer rows.
    async fn search_charges(
        &self,
        org_id: &str,
        filter: &ChargeFilter,
        search: &Search,
    ) -> StoreResult<ChargePage> {
        let ranges = Range::of(search, org_id);
        let mut sql = Sql::new("");
        let org = sql.param(org_id);
        for (i, range) in ranges.iter().enumerate() {
            sql.push(&format!("SELECT {i} AS r, n, a, p FROM ("));
            range.push_totals(&mut sql, &org, filter, &[]);
            sql.push(&format!(") t{i} UNION ALL "));
        }
        sql.push(&format!(
            "SELECT -1 AS r, CAST(COALESCE(SUM(s.n), 0) AS BIGINT) AS n, 0 AS a, 0 AS p \
             FROM charge_status_counts s WHERE s.organization_id = {org}"
        ));
        push_in(&mut sql, "s.status", &filter.statuses);
        let mut population = 0;
        let mut counted = Vec::new();
        let mut ranges: Vec<Option<Range>> = ranges.into_iter().map(Some).collect();
        for row in self.db.rows(&sql.text, &sql.params).await? {
            let (r, n) = (row.int("r")?, row.int("n")?);
            let sums = Sums { amount: row.int("a")?, paid: row.int("p")? };
            match usize::try_from(r).ok().and_then(|i| ranges.get_mut(i)?.take()) {
                Some(range) if n > 0 => counted.push((n, sums, range)),
                Some(_) => {}
                None => population = n,
            }
        }
        // Largest first: only the rows of the smaller ranges are checked against the others.
        counted.sort_by_key(|(n, _, _)| std::cmp::Reverse(*n));
        let alone = match counted.as_slice() {
            [] => return Ok(ChargePage { rows: Vec::new(), total: 0, sums: Sums::default() }),
            [(n, sums, _)] => Some((*n, *sums)),
            _ => None,
        };
        let ranges: Vec<Range> = counted.into_iter().map(|(_, _, range)| range).collect();
        let (total, sums) = match alone {
            Some(totals) => totals,
            None => self.union_totals(org_id, filter, &ranges).await?,
        };
        let rows = self.search_page(org_id, filter, &ranges, total, population).await?;
        Ok(ChargePage { rows, total, sums })
    }

    /// The page of a search with `total` matches among `population` charges.
    async fn search_page(
        &self,
        org_id: &str,
        filter: &ChargeFilter,
        ranges: &[Range],
        total: i64,
        population: i64,
    ) -> StoreResult<Vec<Charge>> {
        let window = &filter.window;
        let (limit, offset) = (window.limit.max(0), window.offset.max(0));
        if total <= offset || limit == 0 {
            return Ok(Vec::new());
        }
        // Rows each way reads: walking the sort order meets a match every population / total
        // rows (the per-status counts leave out the other filters, which only makes the walk
        // look longer than it is); gathering reads every match.
        let population = population.max(total);
        let walk = i128::from(offset + limit) * i128::from(population) / i128::from(total);
        if walk <= i128::from(total) {
            self.charges_walking(org_id, filter, ranges).await
        } else {
            self.charges_gathering(org_id, filter, ranges).await
        }
    }

    /// The number of charges in any of the ranges (largest first) and their sums: each range
    /// counted and summed from its own index, less the charges an earlier range already holds,
    /// so no set of ids is gathered and joined back.
    async fn union_totals(
        &self,
        org_id: &str,
        filter: &ChargeFilter,
        ranges: &[Range],
    ) -> StoreResult<(i64, Sums)> {
        let mut sql = Sql::new(concat!(
            "SELECT CAST(COALESCE(SUM(n), 0) AS BIGINT) AS n, CAST(COALESCE(SUM(a), 0) AS BIGINT) AS amount, ",
            "CAST(COALESCE(SUM(p), 0) AS BIGINT) AS paid FROM ("
        ));
        let org = sql.param(org_id);
        for (i, range) in ranges.iter().enumerate() {
            sql.push(if i > 0 { " UNION ALL " } else { "" });
            range.push_totals(&mut sql, &org, filter, &ranges[..i]);
        }
        sql.push(") s");
        let Some(row) = self.db.row(&sql.text, &sql.params).await? else {
            return Ok((0, Sums::default()));
        };
        Ok((row.int("n")?, Sums { amount: row.int("amount")?, paid: row.int("paid")? }))
    }

    /// The page, walking the index of its sort order and testing each charge.
    async fn charges_walking(
        &self,
        org_id: &str,
        filter: &ChargeFilter,
        ranges: &[Range],
    ) -> StoreResult<Vec<Charge>> {
        let mut sql = Sql::new(SELECT);
        push_where(&mut sql, org_id, filter);
        let tests: Vec<String> = ranges.iter().map(|r| r.unindexed(&mut sql, "c")).collect();
        sql.push(&format!(" AND ({})", tests.join(" OR ")));
        self.charge_page(sql, &filter.window).await
    }

    /// The page, gathering the matches from the range indexes and sorting them.
    async fn charges_gathering(
        &self,
        org_id: &str,
        filter: &ChargeFilter,
        ranges: &[Range],
    ) -> StoreResult<Vec<Charge>> {
        let mut sql = Sql::new(concat!("SELECT ", columns!(), " FROM ("));
        let org = sql.param(org_id);
        for (i, range) in ranges.iter().enumerate() {
            if i > 0 {
                sql.push(" UNION ");
            }
            sql.push("SELECT x.id ");
            range.push_from(&mut sql, &org, filter);
        }
        // CROSS JOIN keeps the matches the outer loop in SQLite (PostgreSQL plans it as a join).
        sql.push(") m CROSS JOIN charges c JOIN debtors d ON d.id = c.debtor_id WHERE c.id = m.id");
        self.charge_page(sql, &filter.window).await
    }

    /// Orders, windows and reads a page whose `SELECT … WHERE …` is `sql`.
    async fn charge_page(&self, mut sql: Sql, window: &ListWindow) -> StoreResult<Vec<Charge>> {
        let direction = if window.descending { "DESC" } else { "ASC" };
        sql.push(&format!(" ORDER BY {} {direction}, c.id {direction} LIMIT ", sort_column(&window.sort_by)));
        sql.bind(window.limit);
        sql.push(" OFFSET ");
        sql.bind(window.offset);
        self.db.rows(&sql.text, &sql.params).await?.iter().map(from_row).collect()
    }
}

/// The step that keeps a charge's `column` (`credit_bureau_status` or `protest_status`) at
/// `status`, in the transaction that changes the report or protest; the charge's version and
/// time move only when the status does.
///
/// It comes before the report's or protest's own write, so every path locks the charge row
/// before theirs (as a charge's change does before it takes them back): two transactions never
/// wait on each other in opposite orders.
pub(super) fn escalation_status(
    column: &'static str,
    status: &str,
    charge_id: &str,
    org_id: &str,
    at: &time::OffsetDateTime,
) -> Step {
    Step::new(
        format!(
            "UPDATE charges SET {column} = $1, version = version + 1, updated_at = $2 \
             WHERE id = $3 AND organization_id = $4 AND ({column} IS NULL OR {column} <> $1)"
        ),
        args![status, timestamp_text(at), charge_id, org_id],
    )
}

/// The step that sets a charge's `column` to a new report's or protest's first status, only if
/// the charge is still at version `expected` (as read when the new one was checked against
/// it): a charge paid, canceled or renegotiated meanwhile gets no report or protest.
pub(super) fn escalation_filed(
    column: &'static str,
    status: &str,
    charge_id: &str,
    org_id: &str,
    expected: i64,
    at: &time::OffsetDateTime,
) -> Step {
    Step::must_change(
        format!(
            "UPDATE charges SET {column} = $1, version = version + 1, updated_at = $2 \
             WHERE id = $3 AND organization_id = $4 AND version = $5"
        ),
        args![status, timestamp_text(at), charge_id, org_id, expected],
    )
}

/// The row that says an escalation step ran for a charge: at most one per (charge, step).
fn escalation_run(charge_id: &str, step_id: &str, org_id: &str, occurred_at: &str) -> Step {
    Step::must_change(
        "INSERT INTO escalations (charge_id, step_id, organization_id, occurred_at) VALUES ($1, $2, $3, $4) \
         ON CONFLICT DO NOTHING",
        args![charge_id, step_id, org_id, occurred_at],
    )
}
