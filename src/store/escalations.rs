//! Credit-bureau reports and protests: one table each, read and written the same way. The
//! charge's `credit_bureau_status` or `protest_status` follows the latest one, saved with it in
//! the same write. Each kind's file (`credit_bureau_reports.rs`, `protests.rs`) maps its own
//! columns and names its queries.

use super::backend::Step;
use super::columns::{
    enumeration, money, optional_enumeration, optional_timestamp, timestamp, timestamp_text,
};
use super::events::{NewEvent, insert_event};
use super::listing::{EscalationFilter, summed_page};
use super::value::{Param, Row, args};
use super::{Store, StoreError, StoreResult};
use crate::domain::charge::Ending;
use crate::domain::escalation::{Escalation, Kind, Status, moment, stamped};

/// The queries of one kind's table (see [`queries`]).
pub struct Queries {
    pub table: &'static str,
    /// The row with what its answers show of its charge and debtor.
    pub select: &'static str,
    pub of_organization: &'static str,
    pub by_id: &'static str,
    /// The one of a charge under way or standing.
    pub live: &'static str,
    /// An organization's waiting on the outside's next step, oldest first.
    pub moving: &'static str,
    /// An organization's whose outside must still be told something, oldest first.
    pub owed: &'static str,
    pub submitted: &'static str,
    /// The charge's column that mirrors its status, the outside's protocol's, and the kind's
    /// own columns that change after filing and are fixed at it (as its `changing` and `fixed`
    /// give them).
    pub mirror: &'static str,
    pub protocol: &'static str,
    pub changing: &'static [&'static str],
    pub fixed: &'static [&'static str],
}

/// The [`Stored::SQL`] of `$table`, whose rows under way, moving and owed have the statuses
/// listed (SQL lists of quoted names), and its [`Stored::written`]. A row reads its debtor's
/// name and charge's description by their primary keys, the outer table's columns unqualified,
/// so a list's filters apply unchanged.
macro_rules! queries {
    ($table:literal, live: $live:literal, moving: $moving:literal, owed: $owed:literal, mirror: $mirror:literal,
     protocol: $protocol:literal, changing: [$($changing:literal),*], fixed: [$($fixed:literal),*] $(,)?) => {
        const SQL: $crate::store::escalations::Queries = $crate::store::escalations::Queries {
            table: $table,
            select: queries!(@select $table),
            of_organization: concat!(queries!(@select $table), " WHERE organization_id = $1 AND id = $2"),
            by_id: concat!(queries!(@select $table), " WHERE id = $1"),
            live: concat!(
                queries!(@select $table),
                " WHERE organization_id = $1 AND charge_id = $2 AND status IN (", $live, ")"
            ),
            moving: concat!(
                queries!(@select $table),
                " WHERE organization_id = $1 AND status IN (", $moving, ") ORDER BY created_at, id"
            ),
            owed: concat!(
                queries!(@select $table),
                " WHERE organization_id = $1 AND status IN (", $owed, ") AND (submitted_status IS NULL ",
                "OR submitted_status <> status) ORDER BY created_at, id"
            ),
            submitted: concat!("UPDATE ", $table, " SET submitted_status = $1 WHERE id = $2"),
            mirror: $mirror,
            protocol: $protocol,
            changing: &[$($changing),*],
            fixed: &[$($fixed),*],
        };

        fn written() -> &'static $crate::store::escalations::Written {
            static WRITTEN: std::sync::OnceLock<$crate::store::escalations::Written> = std::sync::OnceLock::new();
            WRITTEN.get_or_init($crate::store::escalations::Written::of::<Self>)
        }
    };
    (@select $table:literal) => {
        concat!(
            "SELECT ", $table, ".*, (SELECT d.name FROM debtors d WHERE d.id = ", $table,
            ".debtor_id) AS debtor_name, (SELECT c.description FROM charges c WHERE c.id = ", $table,
            ".charge_id) AS charge_description FROM ", $table
        )
    };
}
pub(super) use queries;

/// A kind's statements that name every column, worked out once from its columns: the moments'
/// (in the order of `escalation::stamped`), the INSERT of the changing columns (the shared ones,
/// the moments, the protocol, the kind's own) and the fixed ones, the UPDATE of the changing ones.
pub struct Written {
    moments: Vec<String>,
    insert: String,
    update: String,
}

impl Written {
    pub fn of<K: Stored>() -> Self {
        let moments: Vec<String> = stamped::<K>().map(moment::<K>).collect();
        let mut changing = vec!["status", "failure_reason", "version", "updated_at"];
        changing.extend(
            moments
                .iter()
                .map(String::as_str)
                .chain([K::SQL.protocol])
                .chain(K::SQL.changing.iter().copied()),
        );
        let fixed =
            ["id", "organization_id", "charge_id", "debtor_id", "amount_cents", "requested_at", "created_at"];
        let columns = [&changing[..], &fixed, K::SQL.fixed].concat();
        let values: Vec<String> = (1..=columns.len()).map(|n| format!("${n}")).collect();
        let set: Vec<String> = changing.iter().zip(&values).map(|(c, n)| format!("{c} = {n}")).collect();
        let (table, set, columns) = (K::SQL.table, set.join(", "), columns.join(", "));
        let (id, org, version) =
            (&values[changing.len()], &values[changing.len() + 1], &values[changing.len() + 2]);
        Self {
            insert: format!("INSERT INTO {table} ({columns}) VALUES ({})", values.join(", ")),
            update: format!(
                "UPDATE {table} SET {set} WHERE id = {id} AND organization_id = {org} AND version = {version}"
            ),
            moments,
        }
    }
}

/// How one kind is stored.
pub trait Stored: Kind {
    /// Its queries, made by [`queries`] with [`Stored::written`].
    const SQL: Queries;
    /// What a duplicate calls it.
    const NAME: &'static str;

    /// Its statements that name every column.
    fn written() -> &'static Written;
    /// The kind's own fields of a row.
    fn details(row: &Row) -> StoreResult<Self>;
    /// The kind's columns that change after filing, in the order `SQL.changing` lists them.
    fn changing(&self) -> Vec<Param>;
    /// The kind's columns fixed at filing, in the order `SQL.fixed` lists them.
    fn fixed(&self) -> Vec<Param>;
}

pub(super) fn from_row<K: Stored>(row: &Row) -> StoreResult<Escalation<K>> {
    Ok(Escalation {
        id: row.text("id")?,
        organization_id: row.text("organization_id")?,
        charge_id: row.text("charge_id")?,
        debtor_id: row.text("debtor_id")?,
        debtor_name: row.text("debtor_name")?,
        charge_description: row.opt_text("charge_description")?,
        status: enumeration(row, "status")?,
        amount: money(row, "amount_cents")?,
        requested_at: timestamp(row, "requested_at")?,
        stamps: K::written()
            .moments
            .iter()
            .map(|c| optional_timestamp(row, c))
            .collect::<StoreResult<_>>()?,
        failure_reason: row.opt_text("failure_reason")?,
        protocol: row.opt_text(K::SQL.protocol)?,
        submitted_status: optional_enumeration(row, "submitted_status")?,
        version: row.int("version")?,
        created_at: timestamp(row, "created_at")?,
        updated_at: timestamp(row, "updated_at")?,
        details: K::details(row)?,
    })
}

/// The columns that change after filing: the shared ones, the moments (in the order of
/// `escalation::stamped`), the protocol, the kind's own.
fn changing<K: Stored>(e: &Escalation<K>) -> Vec<Param> {
    let mut values =
        Vec::from(args![e.status.name(), &e.failure_reason, e.version, timestamp_text(&e.updated_at)]);
    values.extend(e.stamps.iter().map(|at| Param::from(at.as_ref().map(timestamp_text))));
    values.push(Param::from(&e.protocol));
    values.extend(e.details.changing());
    values
}

impl Store {
    /// Inserts one and its event if its charge is still at `charge_version` (false when it
    /// changed meanwhile); a charge with one of its kind under way is a duplicate.
    pub async fn insert_escalation<K: Stored>(
        &self,
        e: &Escalation<K>,
        charge_version: i64,
        event: &NewEvent,
    ) -> StoreResult<bool> {
        let mut values = changing(e);
        values.extend(args![
            &e.id,
            &e.organization_id,
            &e.charge_id,
            &e.debtor_id,
            e.amount.0,
            timestamp_text(&e.requested_at),
            timestamp_text(&e.created_at),
        ]);
        values.extend(e.details.fixed());
        let (status, at) = (e.status.name(), &e.updated_at);
        let filed = super::charges::escalation_filed(
            K::SQL.mirror,
            status,
            &e.charge_id,
            &e.organization_id,
            charge_version,
            at,
        );
        let inserted = self
            .db
            .write(&[filed, Step::new(K::written().insert.as_str(), values), insert_event(event)])
            .await;
        inserted.map_err(|err| {
            if err.is_unique_violation() {
                StoreError::Duplicate(format!("charge {} already has a {} under way", e.charge_id, K::NAME))
            } else {
                err
            }
        })
    }

    /// Saves a changed one if it is still at `expected`, the charge's status following it; false
    /// when it moved on.
    pub async fn update_escalation<K: Stored>(
        &self,
        e: &Escalation<K>,
        expected: i64,
        event: &NewEvent,
    ) -> StoreResult<bool> {
        let mirror = super::charges::escalation_status(
            K::SQL.mirror,
            e.status.name(),
            &e.charge_id,
            &e.organization_id,
            &e.updated_at,
        );
        let mut params = changing(e);
        params.extend(args![&e.id, &e.organization_id, expected]);
        self.db
            .write(&[mirror, Step::must_change(K::written().update.as_str(), params), insert_event(event)])
            .await
    }

    /// One of an organization.
    pub async fn escalation<K: Stored>(&self, org_id: &str, id: &str) -> StoreResult<Option<Escalation<K>>> {
        let row = self.db.find(K::SQL.of_organization, &args![org_id, id]).await?;
        row.as_ref().map(from_row).transpose()
    }

    /// The one of a charge under way or standing, if any.
    pub async fn live_escalation<K: Stored>(
        &self,
        org_id: &str,
        charge_id: &str,
    ) -> StoreResult<Option<Escalation<K>>> {
        let row = self.db.find(K::SQL.live, &args![org_id, charge_id]).await?;
        row.as_ref().map(from_row).transpose()
    }

    /// The organization's waiting on the outside's next step, oldest first.
    pub async fn moving_escalations<K: Stored>(&self, org_id: &str) -> StoreResult<Vec<Escalation<K>>> {
        self.db.rows(K::SQL.moving, &args![org_id]).await?.iter().map(from_row).collect()
    }

    /// A page, the exact total and the sum of their amounts (centavos).
    pub async fn escalations<K: Stored>(
        &self,
        org_id: &str,
        f: &EscalationFilter,
    ) -> StoreResult<(Vec<Escalation<K>>, i64, i64)> {
        summed_page(
            &self.db,
            K::SQL.table,
            Some(K::SQL.select),
            "created_at",
            "amount_cents",
            f.filters(org_id),
            f.ascending,
            f.limit,
            f.offset,
            from_row,
        )
        .await
    }

    /// The organization's whose outside must still be told something (see
    /// `Escalation::owed`), oldest first.
    pub async fn owed_escalations<K: Stored>(&self, org_id: &str) -> StoreResult<Vec<Escalation<K>>> {
        self.db.rows(K::SQL.owed, &args![org_id]).await?.iter().map(from_row).collect()
    }

    /// Records that the outside was told of status `told` (no new version: the escalation
    /// itself did not change).
    pub async fn escalation_submitted<K: Stored>(&self, id: &str, told: K::Status) -> StoreResult<()> {
        self.db.write(&[Step::new(K::SQL.submitted, args![told.name(), id])]).await.map(drop)
    }

    /// One by its id alone, for the outside's status callbacks (signed by the gateway, which
    /// knows no organization).
    pub async fn escalation_by_id<K: Stored>(&self, id: &str) -> StoreResult<Option<Escalation<K>>> {
        let row = self.db.find(K::SQL.by_id, &args![id]).await?;
        row.as_ref().map(from_row).transpose()
    }
}

/// The one of a charge that stands, taken back because the debt ended on `day` (before it,
/// after it), if that changed it.
pub async fn taken_back<K: Stored>(
    store: &Store,
    org_id: &str,
    charge_id: &str,
    ending: Ending,
    day: time::Date,
    now: time::OffsetDateTime,
) -> StoreResult<Option<(Escalation<K>, Escalation<K>)>> {
    let Some(live) = store.live_escalation::<K>(org_id, charge_id).await? else { return Ok(None) };
    let mut after = live.clone();
    Ok(after.debt_ended(ending, day, now).then_some((live, after)))
}
