//! Protests. The charge's `protest_status` follows the latest protest; the handler saves both
//! in one unit of work.

use super::backend::Step;
use super::columns::{
    enumeration, money, optional_enumeration, optional_timestamp, timestamp, timestamp_text,
};
use super::events::{NewEvent, insert_event};
use super::listing::{EscalationFilter, summed_page};
use super::value::{Param, Row, args};
use super::{Store, StoreError, StoreResult};
use crate::domain::money::Hundredths;
use crate::domain::protest::{Notary, Protest};

/// The row with what its answers show of its charge and debtor (their primary keys, read per
/// row): columns of the outer table stay unqualified, so the list's filters apply unchanged.
macro_rules! select {
    () => {
        concat!(
            "SELECT protests.*, ",
            "(SELECT d.name FROM debtors d WHERE d.id = protests.debtor_id) AS debtor_name, ",
            "(SELECT c.description FROM charges c WHERE c.id = protests.charge_id) ",
            "AS charge_description FROM protests"
        )
    };
}

pub(super) fn from_row(row: &Row) -> StoreResult<Protest> {
    Ok(Protest {
        id: row.text("id")?,
        organization_id: row.text("organization_id")?,
        charge_id: row.text("charge_id")?,
        debtor_id: row.text("debtor_id")?,
        debtor_name: row.text("debtor_name")?,
        charge_description: row.opt_text("charge_description")?,
        status: enumeration(row, "status")?,
        amount: money(row, "amount_cents")?,
        title_type: enumeration(row, "title_type")?,
        document_number: row.text("document_number")?,
        notary: Notary {
            name: row.text("notary_name")?,
            city: row.text("notary_city")?,
            state: row.text("notary_state")?,
        },
        protocol_number: row.opt_text("protocol_number")?,
        requested_at: timestamp(row, "requested_at")?,
        sent_at: optional_timestamp(row, "sent_at")?,
        intimated_at: optional_timestamp(row, "intimated_at")?,
        protested_at: optional_timestamp(row, "protested_at")?,
        paid_at: optional_timestamp(row, "paid_at")?,
        withdrawn_at: optional_timestamp(row, "withdrawn_at")?,
        cancellation_requested_at: optional_timestamp(row, "cancellation_requested_at")?,
        canceled_at: optional_timestamp(row, "canceled_at")?,
        costs_amount: row.opt_int("costs_cents")?.map(Hundredths),
        failure_reason: row.opt_text("failure_reason")?,
        submitted_status: optional_enumeration(row, "submitted_status")?,
        version: row.int("version")?,
        created_at: timestamp(row, "created_at")?,
        updated_at: timestamp(row, "updated_at")?,
    })
}

fn already_under_way(err: StoreError, charge_id: &str) -> StoreError {
    if err.is_unique_violation() {
        StoreError::Duplicate(format!("charge {charge_id} already has a protest under way"))
    } else {
        err
    }
}

const INSERT: &str = "INSERT INTO protests (status, protocol_number, sent_at, intimated_at, protested_at, paid_at, \
     withdrawn_at, cancellation_requested_at, canceled_at, costs_cents, failure_reason, version, updated_at, id, \
     organization_id, charge_id, debtor_id, amount_cents, title_type, document_number, notary_name, notary_city, \
     notary_state, requested_at, created_at) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, \
     $24, $25)";

const UPDATE: &str = "UPDATE protests SET status = $1, protocol_number = $2, sent_at = $3, intimated_at = $4, \
     protested_at = $5, paid_at = $6, withdrawn_at = $7, cancellation_requested_at = $8, canceled_at = $9, \
     costs_cents = $10, failure_reason = $11, version = $12, updated_at = $13 \
     WHERE id = $14 AND organization_id = $15 AND version = $16";

/// The columns that change after a protest is filed, in the order both statements list them.
fn mutable_values(p: &Protest) -> Vec<Param> {
    let at = |t: &Option<time::OffsetDateTime>| t.as_ref().map(timestamp_text);
    Vec::from(args![
        p.status.as_str(),
        &p.protocol_number,
        at(&p.sent_at),
        at(&p.intimated_at),
        at(&p.protested_at),
        at(&p.paid_at),
        at(&p.withdrawn_at),
        at(&p.cancellation_requested_at),
        at(&p.canceled_at),
        p.costs_amount.map(|c| c.0),
        &p.failure_reason,
        p.version,
        timestamp_text(&p.updated_at),
    ])
}

/// The charge's `protest_status` follows the protest.
fn mirror(p: &Protest) -> Step {
    super::charges::escalation_status(
        "protest_status",
        p.status.as_str(),
        &p.charge_id,
        &p.organization_id,
        &p.updated_at,
    )
}

impl Store {
    /// Inserts a protest and its event if its charge is still at `charge_version` (false when it
    /// changed meanwhile); a charge with a protest under way is a duplicate.
    pub async fn insert_protest(
        &self,
        p: &Protest,
        charge_version: i64,
        event: &NewEvent,
    ) -> StoreResult<bool> {
        let mut values = mutable_values(p);
        values.extend(args![
            &p.id,
            &p.organization_id,
            &p.charge_id,
            &p.debtor_id,
            p.amount.0,
            p.title_type.as_str(),
            &p.document_number,
            &p.notary.name,
            &p.notary.city,
            &p.notary.state,
            timestamp_text(&p.requested_at),
            timestamp_text(&p.created_at),
        ]);
        let filed = super::charges::escalation_filed(
            "protest_status",
            p.status.as_str(),
            &p.charge_id,
            &p.organization_id,
            charge_version,
            &p.updated_at,
        );
        let inserted = self.db.write(&[filed, Step::new(INSERT, values), insert_event(event)]).await;
        inserted.map_err(|e| already_under_way(e, &p.charge_id))
    }

    /// Saves a changed protest if it is still at `expected`; false when it moved on.
    pub async fn update_protest(&self, p: &Protest, expected: i64, event: &NewEvent) -> StoreResult<bool> {
        let mut params = mutable_values(p);
        params.extend(args![&p.id, &p.organization_id, expected]);
        self.db.write(&[mirror(p), Step::must_change(UPDATE, params), insert_event(event)]).await
    }

    /// One protest of an organization.
    pub async fn protest(&self, org_id: &str, id: &str) -> StoreResult<Option<Protest>> {
        let row = self
            .db
            .find(concat!(select!(), " WHERE organization_id = $1 AND id = $2"), &args![org_id, id])
            .await?;
        row.as_ref().map(from_row).transpose()
    }

    /// The protest of a charge still under way or standing, if any.
    pub async fn live_protest(&self, org_id: &str, charge_id: &str) -> StoreResult<Option<Protest>> {
        let row = self
            .db
            .find(
                concat!(
                    select!(),
                    " WHERE organization_id = $1 AND charge_id = $2 AND status IN ('requested', ",
                    "'sent', 'intimated', 'protested', 'cancellation_requested')",
                ),
                &args![org_id, charge_id],
            )
            .await?;
        row.as_ref().map(from_row).transpose()
    }

    /// The organization's protests waiting on the notary's next step, oldest first.
    pub async fn moving_protests(&self, org_id: &str) -> StoreResult<Vec<Protest>> {
        let rows = self
            .db
            .rows(
                concat!(
                    select!(),
                    " WHERE organization_id = $1 AND status IN ('requested', 'sent', 'intimated', ",
                    "'cancellation_requested') ORDER BY created_at, id",
                ),
                &args![org_id],
            )
            .await?;
        rows.iter().map(from_row).collect()
    }

    /// A page of protests, the exact total and the sum of their amounts (centavos).
    pub async fn protests(
        &self,
        org_id: &str,
        f: &EscalationFilter,
    ) -> StoreResult<(Vec<Protest>, i64, i64)> {
        summed_page(
            &self.db,
            "protests",
            Some(select!()),
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

    /// The organization's protests whose notary must still be told something (see
    /// `owed_to_notary`), oldest first.
    pub async fn owed_protests(&self, org_id: &str) -> StoreResult<Vec<Protest>> {
        let rows = self
            .db
            .rows(
                concat!(
                    select!(),
                    " WHERE organization_id = $1 AND status IN ('requested', 'withdrawn', ",
                    "'cancellation_requested') AND (submitted_status IS NULL OR submitted_status <> ",
                    "status) ORDER BY created_at, id",
                ),
                &args![org_id],
            )
            .await?;
        rows.iter().map(from_row).collect()
    }

    /// Records that the notary was told of status `told` (no new version: the protest itself did
    /// not change).
    pub async fn protest_submitted(&self, id: &str, told: &str) -> StoreResult<()> {
        let step = Step::new("UPDATE protests SET submitted_status = $1 WHERE id = $2", args![told, id]);
        self.db.write(&[step]).await.map(drop)
    }

    /// A protest by its id alone, for the notary's status callbacks (signed by the gateway, which
    /// knows no organization).
    pub async fn protest_by_id(&self, id: &str) -> StoreResult<Option<Protest>> {
        let row = self.db.find(concat!(select!(), " WHERE id = $1"), &args![id]).await?;
        row.as_ref().map(from_row).transpose()
    }
}
