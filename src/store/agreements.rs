//! Agreements and the list of their installment charges.

use super::backend::Step;
use super::columns::{
    date, date_text, enumeration, json, json_text, money, optional_date, optional_timestamp, timestamp,
    timestamp_text,
};
use super::events::{NewEvent, insert_event};
use super::listing::{push_in, summed_page};
use super::value::{Row, Sql, args};
use super::{Store, StoreResult};
use crate::domain::agreement::Agreement;

/// Filters of the agreement list.
#[derive(Debug, Default)]
pub struct AgreementFilter {
    pub debtor_ids: Vec<String>,
    pub statuses: Vec<String>,
    /// Oldest first.
    pub ascending: bool,
    pub limit: i64,
    pub offset: i64,
}

pub(super) fn from_row(row: &Row) -> StoreResult<Agreement> {
    Ok(Agreement {
        id: row.text("id")?,
        organization_id: row.text("organization_id")?,
        debtor_id: row.text("debtor_id")?,
        charge_ids: json(row, "charge_ids")?,
        source_balances: json::<Vec<i64>>(row, "source_balances")?
            .into_iter()
            .map(crate::domain::money::Hundredths)
            .collect(),
        status: enumeration(row, "status")?,
        original_amount: money(row, "original_cents")?,
        fine_amount: money(row, "fine_cents")?,
        interest_amount: money(row, "interest_cents")?,
        discount_amount: money(row, "discount_cents")?,
        total_amount: money(row, "total_cents")?,
        fine_waived: row.flag("fine_waived")?,
        interest_waived: row.flag("interest_waived")?,
        down_payment_amount: row.opt_int("down_payment_cents")?.map(crate::domain::money::Hundredths),
        down_payment_due_date: optional_date(row, "down_payment_due_date")?,
        installments_count: u32::try_from(row.int("installments_count")?).unwrap_or(0),
        first_due_date: date(row, "first_due_date")?,
        grace_days_before_broken: row.int("grace_days")?,
        canceled_at: optional_timestamp(row, "canceled_at")?,
        cancellation_reason: row.opt_text("cancellation_reason")?,
        broken_at: optional_timestamp(row, "broken_at")?,
        completed_at: optional_timestamp(row, "completed_at")?,
        version: row.int("version")?,
        created_at: timestamp(row, "created_at")?,
        updated_at: timestamp(row, "updated_at")?,
    })
}

const INSERT: &str = "INSERT INTO agreements (status, canceled_at, cancellation_reason, broken_at, completed_at, version, \
     updated_at, id, organization_id, debtor_id, charge_ids, source_balances, original_cents, fine_cents, interest_cents, \
     discount_cents, total_cents, fine_waived, interest_waived, down_payment_cents, down_payment_due_date, \
     installments_count, first_due_date, grace_days, created_at) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25)";

const UPDATE: &str = "UPDATE agreements SET status = $1, canceled_at = $2, cancellation_reason = $3, broken_at = $4, \
     completed_at = $5, version = $6, updated_at = $7 WHERE id = $8 AND organization_id = $9 AND version = $10";

/// The columns that change after an agreement is made, in the order both statements list them.
fn mutable_values(a: &Agreement) -> Vec<super::value::Param> {
    Vec::from(args![
        a.status.as_str(),
        a.canceled_at.as_ref().map(timestamp_text),
        &a.cancellation_reason,
        a.broken_at.as_ref().map(timestamp_text),
        a.completed_at.as_ref().map(timestamp_text),
        a.version,
        timestamp_text(&a.updated_at),
    ])
}

impl Store {
    /// Inserts an agreement, the list of its installment charges (already inserted, by
    /// number: 0 for the down payment) and its event.
    pub async fn insert_agreement(
        &self,
        a: &Agreement,
        installments: &[(u32, &str)],
        event: &NewEvent,
    ) -> StoreResult<()> {
        let mut values = mutable_values(a);
        values.extend(args![
            &a.id,
            &a.organization_id,
            &a.debtor_id,
            json_text(&a.charge_ids)?,
            json_text(&a.source_balances.iter().map(|b| b.0).collect::<Vec<i64>>())?,
            a.original_amount.0,
            a.fine_amount.0,
            a.interest_amount.0,
            a.discount_amount.0,
            a.total_amount.0,
            a.fine_waived,
            a.interest_waived,
            a.down_payment_amount.map(|d| d.0),
            a.down_payment_due_date.map(date_text),
            i64::from(a.installments_count),
            date_text(a.first_due_date),
            a.grace_days_before_broken,
            timestamp_text(&a.created_at),
        ]);
        let mut steps = vec![Step::new(INSERT, values)];
        for (number, charge_id) in installments {
            steps.push(Step::new(
                "INSERT INTO agreement_installments (agreement_id, number, charge_id) VALUES ($1, $2, $3)",
                args![&a.id, i64::from(*number), *charge_id],
            ));
        }
        steps.push(insert_event(event));
        self.db.write(&steps).await?;
        Ok(())
    }

    /// Saves a changed agreement if it is still at `expected`; false when it moved on.
    pub async fn update_agreement(
        &self,
        a: &Agreement,
        expected: i64,
        event: &NewEvent,
    ) -> StoreResult<bool> {
        let mut params = mutable_values(a);
        params.extend(args![&a.id, &a.organization_id, expected]);
        self.db.write(&[Step::must_change(UPDATE, params), insert_event(event)]).await
    }

    /// One agreement of an organization.
    pub async fn agreement(&self, org_id: &str, id: &str) -> StoreResult<Option<Agreement>> {
        let row = self
            .db
            .find("SELECT * FROM agreements WHERE organization_id = $1 AND id = $2", &args![org_id, id])
            .await?;
        row.as_ref().map(from_row).transpose()
    }

    /// The organization's agreements still running (awaiting the down payment, or active).
    pub async fn live_agreements(&self, org_id: &str) -> StoreResult<Vec<Agreement>> {
        let rows = self
            .db
            .rows(
                "SELECT * FROM agreements WHERE organization_id = $1 \
                 AND status IN ('awaiting_down_payment', 'active') ORDER BY created_at, id",
                &args![org_id],
            )
            .await?;
        rows.iter().map(from_row).collect()
    }

    /// A page of agreements, the exact total and the sum of their totals (centavos).
    pub async fn agreements(
        &self,
        org_id: &str,
        f: &AgreementFilter,
    ) -> StoreResult<(Vec<Agreement>, i64, i64)> {
        let filters = |sql: &mut Sql| {
            sql.push(" WHERE organization_id = ").bind(org_id);
            push_in(sql, "debtor_id", &f.debtor_ids);
            push_in(sql, "status", &f.statuses);
        };
        summed_page(
            &self.db,
            "agreements",
            None,
            "created_at",
            "total_cents",
            filters,
            f.ascending,
            f.limit,
            f.offset,
            from_row,
        )
        .await
    }

    /// The charges of an agreement's down payment (number 0) and installments, in order.
    pub async fn agreement_installments(&self, agreement_id: &str) -> StoreResult<Vec<(u32, String)>> {
        let rows = self
            .db
            .rows(
                "SELECT number, charge_id FROM agreement_installments WHERE agreement_id = $1 ORDER BY number",
                &args![agreement_id],
            )
            .await?;
        rows.iter()
            .map(|r| Ok((u32::try_from(r.int("number")?).unwrap_or(0), r.text("charge_id")?)))
            .collect()
    }
}
