//! Webhooks and their deliveries. A webhook's event codes are kept twice: as the list it
//! answers with, and as one `webhook_events` row each, which the `events_to_webhooks` trigger
//! (migration 0027) joins to give every new event its delivery rows in the event's own
//! transaction. Deliveries are leased for each attempt, in real time, like notifications.

use time::OffsetDateTime;

use super::backend::Step;
use super::columns::{enumeration, json, json_text, optional_timestamp, timestamp, timestamp_text};
use super::events::{EventRow, NewEvent, insert_event};
use super::listing::{plain_page, push_in};
use super::notifications::Lease;
use super::value::{Row, Sql, args};
use super::{Store, StoreResult};
use crate::domain::webhook::{Delivery, Webhook};
use crate::types::WebhookDeliveryStatus;

fn webhook_from_row(row: &Row) -> StoreResult<Webhook> {
    Ok(Webhook {
        id: row.text("id")?,
        organization_id: row.text("organization_id")?,
        name: row.opt_text("name")?,
        url: row.text("url")?,
        events: json(row, "events")?,
        active: row.flag("active")?,
        secret_sealed: row.text("secret_sealed")?,
        version: row.int("version")?,
        created_at: timestamp(row, "created_at")?,
        updated_at: timestamp(row, "updated_at")?,
    })
}

fn delivery_from_row(row: &Row) -> StoreResult<Delivery> {
    let optional_json = |column: &str| -> StoreResult<Option<String>> { row.opt_text(column) };
    Ok(Delivery {
        webhook_id: row.text("webhook_id")?,
        id: row.text("id")?,
        organization_id: row.text("organization_id")?,
        event_id: row.opt_text("event_id")?,
        event_code: row.text("event_code")?,
        status: enumeration(row, "status")?,
        attempts: row.int("attempts")?,
        next_attempt_at: optional_timestamp(row, "next_attempt_at")?,
        request: optional_json("request")?.map(|t| serde_json::from_str(&t)).transpose()?,
        response: optional_json("response")?.map(|t| serde_json::from_str(&t)).transpose()?,
        error: row.opt_text("error")?,
        duration_ms: row.opt_int("duration_ms")?,
        first_try_at: optional_timestamp(row, "first_try_at")?,
        delivered_at: optional_timestamp(row, "delivered_at")?,
        failed_at: optional_timestamp(row, "failed_at")?,
        version: row.int("version")?,
        created_at: timestamp(row, "created_at")?,
        updated_at: timestamp(row, "updated_at")?,
    })
}

/// The `webhook_events` rows of a webhook: first its old ones go.
fn subscriptions(w: &Webhook) -> Vec<Step> {
    let mut steps = vec![Step::new("DELETE FROM webhook_events WHERE webhook_id = $1", args![&w.id])];
    steps.extend(w.events.iter().map(|code| {
        Step::new(
            "INSERT INTO webhook_events (organization_id, code, webhook_id) VALUES ($1, $2, $3)",
            args![&w.organization_id, code.as_str(), &w.id],
        )
    }));
    steps
}

/// Which deliveries a list shows.
#[derive(Debug, Default)]
pub struct DeliveryFilter {
    pub status: Option<WebhookDeliveryStatus>,
    pub event_code: Option<String>,
    pub limit: i64,
    pub offset: i64,
}

impl Store {
    /// Inserts a webhook with its event.
    pub async fn insert_webhook(&self, w: &Webhook, event: &NewEvent) -> StoreResult<()> {
        let mut steps = vec![Step::new(
            "INSERT INTO webhooks (id, organization_id, name, url, events, active, secret_sealed, version, \
             created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
            args![
                &w.id,
                &w.organization_id,
                &w.name,
                &w.url,
                json_text(&w.events)?,
                w.active,
                &w.secret_sealed,
                w.version,
                timestamp_text(&w.created_at),
                timestamp_text(&w.updated_at),
            ],
        )];
        steps.extend(subscriptions(w));
        steps.push(insert_event(event));
        self.db.write(&steps).await.map(drop)
    }

    /// Saves a changed webhook if it is still at `expected`, with its event; false when it
    /// changed or went meanwhile.
    pub async fn update_webhook(&self, w: &Webhook, expected: i64, event: &NewEvent) -> StoreResult<bool> {
        let mut steps = vec![Step::must_change(
            "UPDATE webhooks SET name = $1, url = $2, events = $3, active = $4, secret_sealed = $5, \
             version = $6, updated_at = $7 WHERE organization_id = $8 AND id = $9 AND version = $10",
            args![
                &w.name,
                &w.url,
                json_text(&w.events)?,
                w.active,
                &w.secret_sealed,
                w.version,
                timestamp_text(&w.updated_at),
                &w.organization_id,
                &w.id,
                expected,
            ],
        )];
        steps.extend(subscriptions(w));
        steps.push(insert_event(event));
        self.db.write(&steps).await
    }

    /// Deletes a webhook with its deliveries, and writes its event; false when it was gone.
    pub async fn delete_webhook(&self, org_id: &str, id: &str, event: &NewEvent) -> StoreResult<bool> {
        self.db
            .write(&[
                Step::new(
                    "DELETE FROM webhook_events WHERE organization_id = $1 AND webhook_id = $2",
                    args![org_id, id],
                ),
                Step::new(
                    "DELETE FROM webhook_deliveries WHERE organization_id = $1 AND webhook_id = $2",
                    args![org_id, id],
                ),
                Step::must_change(
                    "DELETE FROM webhooks WHERE organization_id = $1 AND id = $2",
                    args![org_id, id],
                ),
                insert_event(event),
            ])
            .await
    }

    /// One webhook of an organization.
    pub async fn webhook(&self, org_id: &str, id: &str) -> StoreResult<Option<Webhook>> {
        let row = self
            .db
            .find("SELECT * FROM webhooks WHERE organization_id = $1 AND id = $2", &args![org_id, id])
            .await?;
        row.as_ref().map(webhook_from_row).transpose()
    }

    /// A page of an organization's webhooks, newest first, and how many there are.
    pub async fn webhooks(&self, org_id: &str, limit: i64, offset: i64) -> StoreResult<(Vec<Webhook>, i64)> {
        let filters = |sql: &mut Sql| {
            sql.push(" WHERE organization_id = ").bind(org_id);
        };
        plain_page(&self.db, "webhooks", "created_at", filters, false, limit, offset, webhook_from_row).await
    }

    /// One delivery of a webhook of an organization.
    pub async fn webhook_delivery(
        &self,
        org_id: &str,
        webhook_id: &str,
        id: &str,
    ) -> StoreResult<Option<Delivery>> {
        let row = self
            .db
            .find(
                "SELECT * FROM webhook_deliveries WHERE organization_id = $1 AND webhook_id = $2 AND id = $3",
                &args![org_id, webhook_id, id],
            )
            .await?;
        row.as_ref().map(delivery_from_row).transpose()
    }

    /// A page of a webhook's deliveries, newest first, and how many match.
    pub async fn webhook_deliveries(
        &self,
        org_id: &str,
        webhook_id: &str,
        filter: &DeliveryFilter,
    ) -> StoreResult<(Vec<Delivery>, i64)> {
        let statuses: Vec<String> = filter.status.iter().map(|s| s.as_str().to_owned()).collect();
        let filters = |sql: &mut Sql| {
            sql.push(" WHERE organization_id = ").bind(org_id);
            sql.push(" AND webhook_id = ").bind(webhook_id);
            push_in(sql, "status", &statuses);
            if let Some(code) = &filter.event_code {
                sql.push(" AND event_code = ").bind(code);
            }
        };
        plain_page(
            &self.db,
            "webhook_deliveries",
            "created_at",
            filters,
            false,
            filter.limit,
            filter.offset,
            delivery_from_row,
        )
        .await
    }

    /// Pending deliveries of active webhooks whose attempt is due at `now` and whose lease is
    /// free or ran out, oldest due first: what the sender takes. An inactive webhook's wait until
    /// it is active again.
    pub async fn due_webhook_deliveries(
        &self,
        now: OffsetDateTime,
        limit: i64,
    ) -> StoreResult<Vec<Delivery>> {
        let rows = self
            .db
            .rows(
                // `pending` written out, not bound: the partial index `webhook_deliveries_due`
                // serves only a query whose condition says its own.
                "SELECT d.* FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id \
                 WHERE d.status = 'pending' AND d.next_attempt_at <= $1 AND w.active = 1 \
                 AND (d.lease_until IS NULL OR d.lease_until < $2) ORDER BY d.next_attempt_at, d.id LIMIT $3",
                &args![timestamp_text(&now), timestamp_text(&OffsetDateTime::now_utc()), limit],
            )
            .await?;
        rows.iter().map(delivery_from_row).collect()
    }

    /// Leases a delivery still at `d.version` whose lease is free or ran out; its version moves
    /// on, so a reader of the old one can neither take it nor save it. False when another sender
    /// took it or it changed.
    pub async fn lease_webhook_delivery(&self, d: &Delivery, lease: &Lease) -> StoreResult<bool> {
        let changed = self
            .db
            .execute(
                "UPDATE webhook_deliveries SET lease_owner = $1, lease_until = $2, version = version + 1 \
                 WHERE webhook_id = $3 AND id = $4 AND version = $5 \
                 AND (lease_until IS NULL OR lease_until < $6)",
                &args![
                    &lease.owner,
                    timestamp_text(&lease.until),
                    &d.webhook_id,
                    &d.id,
                    d.version,
                    timestamp_text(&OffsetDateTime::now_utc()),
                ],
            )
            .await?;
        Ok(changed == 1)
    }

    /// Counts an attempt of a delivery `holder` leased (at `d.version`) before it is sent, so an
    /// attempt cut short (the process killed mid-request) still counts toward the limit. The
    /// version stays: the attempt's own save expects it. False when the lease was lost.
    pub async fn count_webhook_attempt(&self, d: &Delivery, holder: &str) -> StoreResult<bool> {
        let changed = self
            .db
            .execute(
                "UPDATE webhook_deliveries SET attempts = attempts + 1 \
                 WHERE webhook_id = $1 AND id = $2 AND version = $3 AND lease_owner = $4",
                &args![&d.webhook_id, &d.id, d.version, holder],
            )
            .await?;
        Ok(changed == 1)
    }

    /// Saves a delivery a person asked for again (`Delivery::requeue`), leased to `lease`, if it
    /// is still at `expected` and no sender holds it; false otherwise.
    pub async fn requeue_webhook_delivery(
        &self,
        d: &Delivery,
        expected: i64,
        lease: &Lease,
    ) -> StoreResult<bool> {
        let changed = self
            .db
            .execute(
                "UPDATE webhook_deliveries SET status = $1, next_attempt_at = $2, failed_at = NULL, version = $3, \
                 updated_at = $4, lease_owner = $5, lease_until = $6 WHERE webhook_id = $7 AND id = $8 \
                 AND version = $9 AND (lease_until IS NULL OR lease_until < $10)",
                &args![
                    d.status.as_str(),
                    d.next_attempt_at.as_ref().map(timestamp_text),
                    d.version,
                    timestamp_text(&d.updated_at),
                    &lease.owner,
                    timestamp_text(&lease.until),
                    &d.webhook_id,
                    &d.id,
                    expected,
                    timestamp_text(&OffsetDateTime::now_utc()),
                ],
            )
            .await?;
        Ok(changed == 1)
    }

    /// Forgets a delivery whose webhook is gone (deleted while its event was being written).
    pub async fn forget_webhook_delivery(&self, webhook_id: &str, id: &str) -> StoreResult<()> {
        self.db
            .execute(
                "DELETE FROM webhook_deliveries WHERE webhook_id = $1 AND id = $2",
                &args![webhook_id, id],
            )
            .await
            .map(drop)
    }

    /// Inserts a ping's delivery, leased to `lease` for its attempt.
    pub async fn insert_ping(&self, d: &Delivery, lease: &Lease) -> StoreResult<()> {
        self.db
            .execute(
                "INSERT INTO webhook_deliveries (webhook_id, id, organization_id, event_id, event_code, status, \
                 attempts, next_attempt_at, lease_owner, lease_until, version, created_at, updated_at) \
                 VALUES ($1, $2, $3, NULL, $4, $5, 0, $6, $7, $8, $9, $10, $11)",
                &args![
                    &d.webhook_id,
                    &d.id,
                    &d.organization_id,
                    &d.event_code,
                    d.status.as_str(),
                    d.next_attempt_at.as_ref().map(timestamp_text),
                    &lease.owner,
                    timestamp_text(&lease.until),
                    d.version,
                    timestamp_text(&d.created_at),
                    timestamp_text(&d.updated_at),
                ],
            )
            .await
            .map(drop)
    }

    /// Saves what an attempt gave if `holder` still holds the lease at `expected`, and frees the
    /// lease; false when the lease was lost (it ran out and another sender took it).
    pub async fn save_webhook_attempt(&self, d: &Delivery, expected: i64, holder: &str) -> StoreResult<bool> {
        let request = d.request.as_ref().map(json_text).transpose()?;
        let response = d.response.as_ref().map(json_text).transpose()?;
        self.db
            .write(&[Step::must_change(
                "UPDATE webhook_deliveries SET status = $1, attempts = $2, next_attempt_at = $3, request = $4, \
                 response = $5, error = $6, duration_ms = $7, first_try_at = $8, delivered_at = $9, \
                 failed_at = $10, version = $11, updated_at = $12, lease_owner = NULL, lease_until = NULL \
                 WHERE webhook_id = $13 AND id = $14 AND version = $15 AND lease_owner = $16",
                args![
                    d.status.as_str(),
                    d.attempts,
                    d.next_attempt_at.as_ref().map(timestamp_text),
                    request,
                    response,
                    &d.error,
                    d.duration_ms,
                    d.first_try_at.as_ref().map(timestamp_text),
                    d.delivered_at.as_ref().map(timestamp_text),
                    d.failed_at.as_ref().map(timestamp_text),
                    d.version,
                    timestamp_text(&d.updated_at),
                    &d.webhook_id,
                    &d.id,
                    expected,
                    holder,
                ],
            )])
            .await
    }

    /// The event a delivery carries.
    pub async fn delivery_event(&self, d: &Delivery) -> StoreResult<Option<EventRow>> {
        match &d.event_id {
            Some(id) => self.event(&d.organization_id, id).await,
            None => Ok(None),
        }
    }
}
