//! Payments heard of, and the receivers that hear them. A payment is inserted once per
//! (organization, source, reference): hearing it again inserts nothing, and the caller knows.

use time::OffsetDateTime;

use super::backend::Step;
use super::columns::{enumeration, money, optional_timestamp, timestamp, timestamp_text};
use super::events::{NewEvent, insert_event};
use super::listing::{plain_page, push_in};
use super::value::{Row, Sql, args};
use super::{Store, StoreResult};
use crate::domain::payment_receiver::PaymentReceiver;
use crate::domain::received_payment::{PaymentFacts, ReceivedPayment};
use crate::types::PaymentStatus;

/// The columns a receiver is read from.
macro_rules! receiver_columns {
    () => {
        "id, organization_id, secret_sealed, created_at, created_by_type, created_by_id, retires_at, \
         revoked_at, last_delivery_at, version, updated_at"
    };
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
    /// Its `events` are written with it.
    pub async fn save_payment(&self, p: &ReceivedPayment, events: &[NewEvent]) -> StoreResult<bool> {
        let mut steps = vec![Step::must_change(
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
        )];
        steps.extend(events.iter().map(insert_event));
        self.db.write(&steps).await
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

    /// Registers a receiver found by `token_hash` (the hash of its URL's token), with its events:
    /// the active one, if any, retires at `retires_at`.
    pub async fn insert_payment_receiver(
        &self,
        receiver: &PaymentReceiver,
        token_hash: &str,
        retires_at: OffsetDateTime,
        events: &[NewEvent],
    ) -> StoreResult<()> {
        let now = timestamp_text(&receiver.created_at);
        let retire = Step::new(
            "UPDATE payment_receivers SET retires_at = $1, version = version + 1, updated_at = $2 \
             WHERE organization_id = $3 AND retires_at IS NULL AND revoked_at IS NULL",
            args![timestamp_text(&retires_at), now.clone(), &receiver.organization_id],
        );
        let insert = Step::new(
            "INSERT INTO payment_receivers (id, organization_id, token_hash, secret_sealed, created_at, \
             created_by_type, created_by_id, retires_at, revoked_at, version, updated_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, NULL, NULL, $8, $9)",
            args![
                &receiver.id,
                &receiver.organization_id,
                token_hash,
                &receiver.secret_sealed,
                now.clone(),
                receiver.created_by.0.as_str(),
                &receiver.created_by.1,
                receiver.version,
                now
            ],
        );
        let mut steps = vec![retire, insert];
        steps.extend(events.iter().map(insert_event));
        self.db.write(&steps).await?;
        Ok(())
    }

    /// Saves a revoked receiver if it is still at `expected_version`; false when it moved on.
    pub async fn revoke_payment_receiver(
        &self,
        receiver: &PaymentReceiver,
        expected_version: i64,
        event: &NewEvent,
    ) -> StoreResult<bool> {
        let update = Step::must_change(
            "UPDATE payment_receivers SET revoked_at = $1, version = $2, updated_at = $3 \
             WHERE id = $4 AND organization_id = $5 AND version = $6",
            args![
                receiver.revoked_at.as_ref().map(timestamp_text),
                receiver.version,
                timestamp_text(&receiver.updated_at),
                &receiver.id,
                &receiver.organization_id,
                expected_version
            ],
        );
        self.db.write(&[update, insert_event(event)]).await
    }

    /// Notes that receiver `id` took a signed delivery at `at` (a later one already noted
    /// stays): what tells an organization its payments reach it. Not a change of the receiver:
    /// its version stays.
    pub async fn payment_receiver_delivered(&self, id: &str, at: &OffsetDateTime) -> StoreResult<()> {
        let at = timestamp_text(at);
        self.db
            .execute(
                "UPDATE payment_receivers SET last_delivery_at = $1 \
                 WHERE id = $2 AND (last_delivery_at IS NULL OR last_delivery_at < $1)",
                &args![at, id],
            )
            .await
            .map(drop)
    }

    /// The receiver whose URL token hashes to `token_hash`, whatever its state.
    pub async fn payment_receiver_by_token(&self, token_hash: &str) -> StoreResult<Option<PaymentReceiver>> {
        const ONE: &str =
            concat!("SELECT ", receiver_columns!(), " FROM payment_receivers WHERE token_hash = $1");
        self.db.find(ONE, &args![token_hash]).await?.as_ref().map(receiver_from_row).transpose()
    }

    /// One receiver of an organization.
    pub async fn payment_receiver(&self, org_id: &str, id: &str) -> StoreResult<Option<PaymentReceiver>> {
        const ONE: &str = concat!(
            "SELECT ",
            receiver_columns!(),
            " FROM payment_receivers WHERE organization_id = $1 AND id = $2"
        );
        self.db.find(ONE, &args![org_id, id]).await?.as_ref().map(receiver_from_row).transpose()
    }

    /// The organization's newest receiver that is neither replaced nor revoked.
    pub async fn active_payment_receiver(&self, org_id: &str) -> StoreResult<Option<PaymentReceiver>> {
        const ONE: &str = concat!(
            "SELECT ",
            receiver_columns!(),
            " FROM payment_receivers WHERE organization_id = $1 AND retires_at IS NULL \
             AND revoked_at IS NULL ORDER BY created_at DESC, id DESC LIMIT 1"
        );
        self.db.find(ONE, &args![org_id]).await?.as_ref().map(receiver_from_row).transpose()
    }

    /// A page of an organization's receivers, newest first, and the total count.
    pub async fn payment_receivers(
        &self,
        org_id: &str,
        limit: i64,
        offset: i64,
    ) -> StoreResult<(Vec<PaymentReceiver>, i64)> {
        let filters = |sql: &mut Sql| {
            sql.push(" WHERE organization_id = ").bind(org_id);
        };
        plain_page(
            &self.db,
            "payment_receivers",
            "created_at",
            filters,
            false,
            limit,
            offset,
            receiver_from_row,
        )
        .await
    }
}

fn receiver_from_row(row: &Row) -> StoreResult<PaymentReceiver> {
    Ok(PaymentReceiver {
        id: row.text("id")?,
        organization_id: row.text("organization_id")?,
        secret_sealed: row.text("secret_sealed")?,
        created_at: timestamp(row, "created_at")?,
        created_by: (enumeration(row, "created_by_type")?, row.text("created_by_id")?),
        retires_at: optional_timestamp(row, "retires_at")?,
        revoked_at: optional_timestamp(row, "revoked_at")?,
        last_delivery_at: optional_timestamp(row, "last_delivery_at")?,
        version: row.int("version")?,
        updated_at: timestamp(row, "updated_at")?,
    })
}
