//! The portfolio's figures, read from the counts the charge triggers keep (migration 0035 and
//! charge_status_counts): each read is a few rows per due date, stage or hour of the
//! organization, never a scan of its charges.

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

    fn add(&mut self, other: Tally) {
        self.count += other.count;
        self.amount += other.amount;
        self.paid += other.paid;
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

/// The charges whose régua stands at one step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StepTally {
    pub step_id: String,
    /// The step's name and offset, unless it was removed since.
    pub name: Option<String>,
    pub offset_days: Option<i64>,
    pub tally: Tally,
}

/// The portfolio's figures, in centavos.
#[derive(Debug, Default)]
pub struct PortfolioFigures {
    /// Every charge, by status.
    pub by_status: BTreeMap<String, Tally>,
    /// Every charge, by dunning status.
    pub by_dunning_status: BTreeMap<String, Tally>,
    /// The charges whose régua is not closed, by the step that acted last, in the order of the
    /// policies' steps (charges no step has reached are not here).
    pub by_step: Vec<StepTally>,
    /// Open charges by age, youngest first (one more than `age_starts`).
    pub by_age: Vec<Tally>,
    /// Charges paid this month and last month.
    pub recovered: [Tally; 2],
    /// Messages by channel: (sent, failed) this week.
    pub messages: BTreeMap<String, (i64, i64)>,
}

/// A stored instant's UTC hour (`2026-12-07T14`, the key of `charge_paid_hours`) and whether
/// the instant is that hour's first.
fn hour_of(instant: &str) -> (&str, bool) {
    match (instant.get(..13), instant.get(13..)) {
        (Some(hour), Some(rest)) => (hour, rest == ":00:00.000000Z"),
        _ => (instant, false),
    }
}

impl Store {
    /// An organization's portfolio within `bounds`: four reads of counts (a fifth for the
    /// edges of an hour a month starts inside) and one of the week's messages, run together.
    pub async fn portfolio(&self, org_id: &str, bounds: &PortfolioBounds) -> StoreResult<PortfolioFigures> {
        // What charges_list's meta reads for a status.
        let mut status = Sql::new(
            "SELECT c.status AS k, CAST(COALESCE(SUM(c.n), 0) AS BIGINT) AS n, \
             CAST(COALESCE(SUM(c.amount_cents), 0) AS BIGINT) AS a, \
             CAST(COALESCE(SUM(c.paid_cents), 0) AS BIGINT) AS p \
             FROM charge_status_counts c WHERE c.organization_id = ",
        );
        status.bind(org_id).push(" GROUP BY c.status");

        // Stages and steps: a row per (dunning status, step) with the step's name.
        let mut stages = Sql::new(
            "SELECT c.dunning_status AS k, c.step_id AS step, s.name AS name, s.offset_days AS offset_days, \
             s.cp_id AS cp, s.position AS position, c.n AS n, c.amount_cents AS a, c.paid_cents AS p \
             FROM charge_stage_counts c LEFT JOIN collection_policy_steps s \
             ON s.id = c.step_id AND s.organization_id = c.organization_id WHERE c.organization_id = ",
        );
        stages.bind(org_id).push(" AND c.n <> 0");

        // Open charges per due date: the age is the first start its due date reaches,
        // youngest first.
        let mut ages = Sql::new("SELECT CASE");
        for (i, start) in bounds.age_starts.iter().enumerate() {
            let at = ages.param(start.as_str());
            ages.push(&format!(" WHEN c.due_date >= {at} THEN {i}"));
        }
        ages.push(&format!(
            " ELSE {} END AS k, CAST(COALESCE(SUM(c.n), 0) AS BIGINT) AS n, \
             CAST(COALESCE(SUM(c.amount_cents), 0) AS BIGINT) AS a, \
             CAST(COALESCE(SUM(c.paid_cents), 0) AS BIGINT) AS p \
             FROM open_charge_due_counts c WHERE c.organization_id = ",
            bounds.age_starts.len()
        ));
        ages.bind(org_id).push(" GROUP BY 1");

        // Paid charges per hour of payment, 0 this month and 1 last month. An hour a month
        // starts inside (a zone off the whole hour) is read from the paid charges instead.
        let [last, this, next] = &bounds.months;
        let split: Vec<&str> =
            bounds.months.iter().map(|m| hour_of(m)).filter(|(_, whole)| !whole).map(|(h, _)| h).collect();
        let mut hours = Sql::new("SELECT CASE WHEN c.hour >= ");
        hours.bind(hour_of(this).0);
        hours.push(
            " THEN 0 ELSE 1 END AS k, CAST(COALESCE(SUM(c.n), 0) AS BIGINT) AS n, 0 AS a, \
             CAST(COALESCE(SUM(c.paid_cents), 0) AS BIGINT) AS p FROM charge_paid_hours c WHERE c.organization_id = ",
        );
        hours.bind(org_id).push(" AND c.hour >= ").bind(hour_of(last).0);
        hours.push(" AND c.hour < ").bind(hour_of(next).0);
        for hour in &split {
            hours.push(" AND c.hour <> ").bind(*hour);
        }
        hours.push(" GROUP BY 1");
        let mut edges = Sql::new("SELECT CASE WHEN c.paid_at >= ");
        edges.bind(this.as_str());
        edges.push(
            " THEN 0 ELSE 1 END AS k, CAST(COUNT(*) AS BIGINT) AS n, 0 AS a, \
             CAST(COALESCE(SUM(c.paid_cents), 0) AS BIGINT) AS p FROM charges c WHERE c.organization_id = ",
        );
        edges.bind(org_id).push(" AND c.status = 'paid' AND c.paid_at >= ").bind(last.as_str());
        edges.push(" AND c.paid_at < ").bind(next.as_str()).push(" AND (");
        for (i, hour) in split.iter().enumerate() {
            // The instants of one hour: its 13 characters, then ':' (';' sorts right after).
            edges.push(if i == 0 { "(c.paid_at >= " } else { " OR (c.paid_at >= " });
            edges.bind(format!("{hour}:")).push(" AND c.paid_at < ").bind(format!("{hour};")).push(")");
        }
        edges.push(") GROUP BY 1");

        // Messages on (organization, sent_at) and (organization, failed_at): sent or failed
        // since the week began.
        let mut messages = Sql::new(
            "SELECT channel AS k, CAST(COUNT(*) AS BIGINT) AS sent, 0 AS failed FROM notifications WHERE organization_id = ",
        );
        messages.bind(org_id).push(" AND sent_at >= ").bind(bounds.week.as_str());
        messages.push(" GROUP BY channel UNION ALL SELECT channel AS k, 0 AS sent, CAST(COUNT(*) AS BIGINT) AS failed FROM notifications WHERE organization_id = ");
        messages.bind(org_id).push(" AND failed_at >= ").bind(bounds.week.as_str()).push(" GROUP BY channel");

        let edges_read = async {
            if split.is_empty() { Ok(Vec::new()) } else { self.db.rows(&edges.text, &edges.params).await }
        };
        let (status, stages, ages, hours, edges, messages) = tokio::try_join!(
            self.db.rows(&status.text, &status.params),
            self.db.rows(&stages.text, &stages.params),
            self.db.rows(&ages.text, &ages.params),
            self.db.rows(&hours.text, &hours.params),
            edges_read,
            self.db.rows(&messages.text, &messages.params),
        )?;
        let mut figures = PortfolioFigures {
            by_age: vec![Tally::default(); bounds.age_starts.len() + 1],
            ..Default::default()
        };
        for row in &status {
            figures.by_status.insert(row.text("k")?, Tally::of(row)?);
        }
        // Steps in their policy's order: (policy, offset, position, id); removed ones last.
        let mut steps: BTreeMap<(bool, String, i64, i64, String), StepTally> = BTreeMap::new();
        for row in &stages {
            let stage = row.text("k")?;
            let tally = Tally::of(row)?;
            figures.by_dunning_status.entry(stage.clone()).or_default().add(tally);
            let step_id = row.text("step")?;
            if step_id.is_empty() || stage == "closed" {
                continue;
            }
            let offset_days = row.opt_int("offset_days")?;
            let key = (
                offset_days.is_none(),
                row.opt_text("cp")?.unwrap_or_default(),
                offset_days.unwrap_or_default(),
                row.opt_int("position")?.unwrap_or_default(),
                step_id.clone(),
            );
            let name = row.opt_text("name")?;
            steps
                .entry(key)
                .or_insert_with(|| StepTally { step_id, name, offset_days, tally: Tally::default() })
                .tally
                .add(tally);
        }
        figures.by_step = steps.into_values().filter(|s| s.tally.count != 0).collect();
        for row in &ages {
            if let Some(slot) = usize::try_from(row.int("k")?).ok().and_then(|k| figures.by_age.get_mut(k)) {
                *slot = Tally::of(row)?;
            }
        }
        for row in hours.iter().chain(&edges) {
            if let Some(slot) = usize::try_from(row.int("k")?).ok().and_then(|k| figures.recovered.get_mut(k))
            {
                slot.add(Tally::of(row)?);
            }
        }
        for row in &messages {
            let (sent, failed) = figures.messages.entry(row.text("k")?).or_default();
            *sent += row.int("sent")?;
            *failed += row.int("failed")?;
        }
        Ok(figures)
    }
}

#[cfg(test)]
mod tests {
    use super::hour_of;

    #[test]
    fn an_instant_names_its_utc_hour_and_whether_it_starts_it() {
        assert_eq!(hour_of("2026-12-01T03:00:00.000000Z"), ("2026-12-01T03", true));
        assert_eq!(hour_of("2026-12-01T18:30:00.000000Z"), ("2026-12-01T18", false));
        assert_eq!(hour_of("2026-12-01T03:00:00.000001Z"), ("2026-12-01T03", false));
    }
}
