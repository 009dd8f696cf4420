//! The portfolio's figures: one grouped read per figure, each on an index that starts with the
//! organization, nothing loaded row by row.

use std::collections::BTreeMap;

use super::value::{Row, Sql};
use super::{Store, StoreResult};

/// How many charges, and their amounts and payments, in centavos.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Tally {
    pub count: i64,
    pub amount: i64,
    pub paid: i64,
}

impl Tally {
    fn of(row: &Row) -> StoreResult<Self> {
        Ok(Self { count: row.int("n")?, amount: row.int("a")?, paid: row.int("p")? })
    }
}

/// The instants and days that bound the portfolio's figures, as stored (`YYYY-MM-DD` days,
/// instants as `format_timestamp` writes them).
#[derive(Debug)]
pub struct PortfolioBounds {
    /// The first due date of each age but the oldest, youngest first (due on or after the
    /// first is not due yet; before the last, the oldest age).
    pub age_starts: Vec<String>,
    /// The first instants of last month, this month and next month.
    pub months: [String; 3],
    /// The first instant of this week.
    pub week: String,
}

/// The portfolio's figures, in centavos.
#[derive(Debug, Default)]
pub struct PortfolioFigures {
    /// Every charge, by status.
    pub by_status: BTreeMap<String, Tally>,
    /// Every charge, by dunning status.
    pub by_dunning_status: BTreeMap<String, Tally>,
    /// Open charges by age, youngest first (one more than `age_starts`).
    pub by_age: Vec<Tally>,
    /// Charges paid this month and last month.
    pub recovered: [Tally; 2],
    /// Messages by channel: (sent, failed) this week.
    pub messages: BTreeMap<String, (i64, i64)>,
}

const SUMS: &str = "CAST(COALESCE(SUM(c.amount_cents), 0) AS BIGINT) AS a, \
     CAST(COALESCE(SUM(c.paid_cents), 0) AS BIGINT) AS p";

impl Store {
    /// An organization's portfolio within `bounds`: five grouped reads, run together.
    pub async fn portfolio(&self, org_id: &str, bounds: &PortfolioBounds) -> StoreResult<PortfolioFigures> {
        // The per-status counts and sums the triggers keep: what charges_list's meta reads.
        let mut status = Sql::new(
            "SELECT c.status AS k, CAST(COALESCE(SUM(c.n), 0) AS BIGINT) AS n, \
             CAST(COALESCE(SUM(c.amount_cents), 0) AS BIGINT) AS a, \
             CAST(COALESCE(SUM(c.paid_cents), 0) AS BIGINT) AS p \
             FROM charge_status_counts c WHERE c.organization_id = ",
        );
        status.bind(org_id).push(" GROUP BY c.status");

        let mut dunning = Sql::new(&format!(
            "SELECT c.dunning_status AS k, CAST(COUNT(*) AS BIGINT) AS n, {SUMS} FROM charges c WHERE c.organization_id = "
        ));
        dunning.bind(org_id).push(" GROUP BY c.dunning_status");

        // Open charges on (organization, status, due date): the age is the first start its
        // due date reaches, youngest first.
        let mut ages = Sql::new("SELECT CASE");
        for (i, start) in bounds.age_starts.iter().enumerate() {
            let at = ages.param(start.as_str());
            ages.push(&format!(" WHEN c.due_date >= {at} THEN {i}"));
        }
        ages.push(&format!(
            " ELSE {} END AS k, CAST(COUNT(*) AS BIGINT) AS n, {SUMS} FROM charges c WHERE c.organization_id = ",
            bounds.age_starts.len()
        ));
        ages.bind(org_id).push(" AND c.status IN ('pending', 'overdue') GROUP BY 1");

        // Paid charges on (organization, status): 0 this month, 1 last month.
        let [last, this, next] = &bounds.months;
        let mut recovered = Sql::new("SELECT CASE WHEN c.paid_at >= ");
        recovered.bind(this.as_str());
        recovered.push(&format!(" THEN 0 ELSE 1 END AS k, CAST(COUNT(*) AS BIGINT) AS n, {SUMS} FROM charges c WHERE c.organization_id = "));
        recovered.bind(org_id).push(" AND c.status = 'paid' AND c.paid_at >= ");
        recovered.bind(last.as_str()).push(" AND c.paid_at < ").bind(next.as_str()).push(" GROUP BY 1");

        // Messages on (organization, created_at): sent or failed since the week began.
        let mut messages = Sql::new("SELECT channel AS k");
        let week = messages.param(bounds.week.as_str());
        messages.push(&format!(
            ", CAST(COALESCE(SUM(CASE WHEN sent_at >= {week} THEN 1 ELSE 0 END), 0) AS BIGINT) AS sent, \
             CAST(COALESCE(SUM(CASE WHEN failed_at >= {week} THEN 1 ELSE 0 END), 0) AS BIGINT) AS failed \
             FROM notifications WHERE organization_id = "
        ));
        messages
            .bind(org_id)
            .push(&format!(" AND (sent_at >= {week} OR failed_at >= {week}) GROUP BY channel"));

        let (status, dunning, ages, recovered, messages) = tokio::try_join!(
            self.db.rows(&status.text, &status.params),
            self.db.rows(&dunning.text, &dunning.params),
            self.db.rows(&ages.text, &ages.params),
            self.db.rows(&recovered.text, &recovered.params),
            self.db.rows(&messages.text, &messages.params),
        )?;
        let mut figures = PortfolioFigures {
            by_age: vec![Tally::default(); bounds.age_starts.len() + 1],
            ..Default::default()
        };
        for row in &status {
            figures.by_status.insert(row.text("k")?, Tally::of(row)?);
        }
        for row in &dunning {
            figures.by_dunning_status.insert(row.text("k")?, Tally::of(row)?);
        }
        for row in &ages {
            if let Some(slot) = usize::try_from(row.int("k")?).ok().and_then(|k| figures.by_age.get_mut(k)) {
                *slot = Tally::of(row)?;
            }
        }
        for row in &recovered {
            if let Some(slot) = usize::try_from(row.int("k")?).ok().and_then(|k| figures.recovered.get_mut(k))
            {
                *slot = Tally::of(row)?;
            }
        }
        for row in &messages {
            figures.messages.insert(row.text("k")?, (row.int("sent")?, row.int("failed")?));
        }
        Ok(figures)
    }
}
