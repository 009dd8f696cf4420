//! Payments heard of, and the receivers that hear them. A payment is inserted once per
//! (organization, source, reference): hearing it again inserts nothing, and the caller knows.

use time::OffsetDateTime;

use super::backend::Step;
use super::columns::{enumeration, money, optional_timestamp, timestamp, timestamp_text};
use super::events::{NewEvent, insert_event};
use super::listing::{plain_page, push_in};
use super::value::{Row, Sql, args};
use super::{Store, StoreResult};
use crate::domain::received_payment::{PaymentFacts, ReceivedPayment};
use crate::types::PaymentStatus;

/// A registered receiver: its organization and its sealed secret.
#[derive(Debug, Clone)]
pub struct ReceiverRow {
    pub organization_id: String,
    pub secret_sealed: String,
}

fn from_row(row: &Row) -> StoreResult<ReceivedPayment> {
    Ok(ReceivedPayment {
        id: row.text("id")?,
        organization_id: row.text("organization_id")?,
        source: enumeration(row, "source")?,
        reference: row.text("reference")?,
        facts: PaymentFacts {
            external_id: row.opt_text("external_id")?,
            line: row.opt_text("line")?,
            txid: row.opt_text("txid")?,
            amount: money(row, "amount_cents")?,
        },
        paid_at: timestamp(row, "paid_at")?,
        status: enumeration(row, "status")?,
        reason: row.opt_text("reason")?,
        charge_id: row.opt_text("charge_id")?,
        created_at: timestamp(row, "created_at")?,
        resolved_at: optional_timestamp(row, "resolved_at")?,
    })
}

impl Store {
    /// Keeps a payment heard of; false when one with its source and reference is kept already.
    pub async fn insert_payment(&self, p: &ReceivedPayment) -> StoreResult<bool> {
        let inserted = self
            .db
            .execute(
                "INSERT INTO payments (id, organization_id, source, reference, external_id, line, txid, \
                 amount_cents, paid_at, status, reason, charge_id, created_at, resolved_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) \
                 ON CONFLICT (organization_id, source, reference) DO NOTHING",
                &args![
                    &p.id,
                    &p.organization_id,
                    p.source.as_str(),
                    &p.reference,
                    &p.facts.external_id,
                    &p.facts.line,
                    &p.facts.txid,
                    p.facts.amount.0,
                    timestamp_text(&p.paid_at),
                    p.status.as_str(),
                    &p.reason,
                    &p.charge_id,
                    timestamp_text(&p.created_at),
                    p.resolved_at.as_ref().map(timestamp_text),
                ],
            )
            .await?;
        Ok(inserted > 0)
    }

    /// Saves a payment's outcome (status, reason, charge, resolution) if it is still unmatched,
    /// the only state a payment leaves: false when another call resolved it first (two people
    /// assigning one payment settle one charge, on either database).
    pub async fn save_payment(&self, p: &ReceivedPayment) -> StoreResult<bool> {
        self.db
            .write(&[Step::must_change(
                "UPDATE payments SET status = $1, reason = $2, charge_id = $3, resolved_at = $4 \
                 WHERE organization_id = $5 AND id = $6 AND status = $7",
                args![
                    p.status.as_str(),
                    &p.reason,
                    &p.charge_id,
                    p.resolved_at.as_ref().map(timestamp_text),
                    &p.organization_id,
                    &p.id,
                    PaymentStatus::Unmatched.as_str()
                ],
            )])
            .await
    }

    /// One payment of an organization.
    pub async fn payment(&self, org_id: &str, id: &str) -> StoreResult<Option<ReceivedPayment>> {
        let row = self
            .db
            .find("SELECT * FROM payments WHERE organization_id = $1 AND id = $2", &args![org_id, id])
            .await?;
        row.as_ref().map(from_row).transpose()
    }

    /// A page of an organization's payments, newest first, and how many match.
    pub async fn payments(
        &self,
        org_id: &str,
        statuses: &[String],
        limit: i64,
        offset: i64,
    ) -> StoreResult<(Vec<ReceivedPayment>, i64)> {
        let filters = |sql: &mut Sql| {
            sql.push(" WHERE organization_id = ").bind(org_id);
            push_in(sql, "status", statuses);
        };
        plain_page(&self.db, "payments", "created_at", filters, false, limit, offset, from_row).await
    }

    /// Registers (or replaces) an organization's receiver, with its event.
    pub async fn set_payment_receiver(
        &self,
        org_id: &str,
        token_hash: &str,
        secret_sealed: &str,
        now: OffsetDateTime,
        event: &NewEvent,
    ) -> StoreResult<()> {
        let upsert = Step::new(
            "INSERT INTO payment_receivers (organization_id, token_hash, secret_sealed, created_at) \
             VALUES ($1, $2, $3, $4) ON CONFLICT (organization_id) DO UPDATE SET \
             token_hash = excluded.token_hash, secret_sealed = excluded.secret_sealed, created_at = excluded.created_at",
            args![org_id, token_hash, secret_sealed, timestamp_text(&now)],
        );
        self.db.write(&[upsert, insert_event(event)]).await?;
        Ok(())
    }

    /// The receiver whose URL token hashes to `token_hash`.
    pub async fn payment_receiver(&self, token_hash: &str) -> StoreResult<Option<ReceiverRow>> {
        let row = self
            .db
            .find(
                "SELECT organization_id, secret_sealed FROM payment_receivers WHERE token_hash = $1",
                &args![token_hash],
            )
            .await?;
        row.map(|r| {
            Ok(ReceiverRow {
                organization_id: r.text("organization_id")?,
                secret_sealed: r.text("secret_sealed")?,
            })
        })
        .transpose()
    }
}
