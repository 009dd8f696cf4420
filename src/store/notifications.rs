//! Notifications. The régua's exactly-once lives here: an insert that would give a (charge,
//! step) pair a second notification changes nothing (the unique index), and whoever inserts or
//! takes over a queued notification holds a lease on it until it saves the outcome: taking a
//! lease needs the version read and moves it, the outcome is saved only by the lease's holder,
//! and nobody cancels or skips a notification while its lease runs. A crashed sender's work is
//! taken over once its lease runs out. Leases count in real time, whatever instant a pass runs
//! as.

use std::collections::BTreeMap;

use time::OffsetDateTime;

use super::backend::Step as Statement;
use super::columns::{enumeration, optional_timestamp, timestamp, timestamp_text};
use super::events::{NewEvent, insert_event};
use super::listing::{push_cmp, push_in};
use super::value::{Param, Row, Sql, args};
use super::{Store, StoreResult};
use crate::domain::notification::Notification;

/// Which notifications a list shows.
#[derive(Debug, Default)]
pub struct NotificationFilter {
    pub charge_ids: Vec<String>,
    pub debtor_ids: Vec<String>,
    pub statuses: Vec<String>,
    pub channels: Vec<String>,
    /// Created at or after, strictly before (RFC 3339).
    pub created: (Option<String>, Option<String>),
    /// Sent at or after, strictly before (RFC 3339).
    pub sent: (Option<String>, Option<String>),
    /// Oldest first.
    pub ascending: bool,
    pub limit: i64,
    pub offset: i64,
}

/// One page of notifications, with the total and the counts by channel and by status of every
/// notification the filters keep.
#[derive(Debug, Default)]
pub struct NotificationPage {
    pub rows: Vec<Notification>,
    pub total: i64,
    pub by_channel: BTreeMap<String, i64>,
    pub by_status: BTreeMap<String, i64>,
}

pub(super) fn from_row(row: &Row) -> StoreResult<Notification> {
    Ok(Notification {
        id: row.text("id")?,
        organization_id: row.text("organization_id")?,
        charge_id: row.text("charge_id")?,
        debtor_id: row.text("debtor_id")?,
        cp_id: row.opt_text("cp_id")?,
        step_id: row.opt_text("step_id")?,
        origin: enumeration(row, "origin")?,
        resend_of_id: row.opt_text("resend_of_id")?,
        channel: enumeration(row, "channel")?,
        to: row.opt_text("recipient")?,
        subject: row.opt_text("subject")?,
        body: row.text("body")?,
        status: enumeration(row, "status")?,
        skip_reason: row.opt_text("skip_reason")?,
        failure_reason: row.opt_text("failure_reason")?,
        attempts: row.int("attempts")?,
        next_attempt_at: optional_timestamp(row, "next_attempt_at")?,
        provider: row.opt_text("provider")?,
        provider_message_id: row.opt_text("provider_message_id")?,
        scheduled_for: timestamp(row, "scheduled_for")?,
        sent_at: optional_timestamp(row, "sent_at")?,
        failed_at: optional_timestamp(row, "failed_at")?,
        canceled_at: optional_timestamp(row, "canceled_at")?,
        version: row.int("version")?,
        created_at: timestamp(row, "created_at")?,
        updated_at: timestamp(row, "updated_at")?,
    })
}

fn stamp(t: &Option<OffsetDateTime>) -> Option<String> {
    t.as_ref().map(timestamp_text)
}

/// The mutable columns ($1 to $13).
fn mutable_values(n: &Notification) -> Vec<Param> {
    Vec::from(args![
        n.status.as_str(),
        &n.skip_reason,
        &n.failure_reason,
        n.attempts,
        stamp(&n.next_attempt_at),
        &n.provider,
        &n.provider_message_id,
        stamp(&n.sent_at),
        stamp(&n.failed_at),
        stamp(&n.canceled_at),
        n.version,
        timestamp_text(&n.updated_at),
        &n.to,
    ])
}

const INSERT: &str = "INSERT INTO notifications (status, skip_reason, failure_reason, attempts, next_attempt_at, \
     provider, provider_message_id, sent_at, failed_at, canceled_at, version, updated_at, recipient, \
     id, organization_id, charge_id, debtor_id, cp_id, step_id, origin, resend_of_id, channel, subject, body, \
     scheduled_for, created_at, lease_owner, lease_until) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, \
     $23, $24, $25, $26, $27, $28) ON CONFLICT DO NOTHING";

/// Who holds a notification, and until when.
#[derive(Debug, Clone)]
pub struct Lease {
    pub owner: String,
    pub until: OffsetDateTime,
}

impl Store {
    /// Inserts a notification, leased to `lease` while it is delivered (none when it needs no
    /// delivery), with its events; false (and nothing written) when its (charge, step) pair
    /// already has one.
    pub async fn insert_notification(
        &self,
        n: &Notification,
        lease: Option<&Lease>,
        events: &[NewEvent],
    ) -> StoreResult<bool> {
        let mut params = mutable_values(n);
        params.extend(args![
            &n.id,
            &n.organization_id,
            &n.charge_id,
            &n.debtor_id,
            &n.cp_id,
            &n.step_id,
            n.origin.as_str(),
            &n.resend_of_id,
            n.channel.as_str(),
            &n.subject,
            &n.body,
            timestamp_text(&n.scheduled_for),
            timestamp_text(&n.created_at),
            lease.map(|l| l.owner.clone()),
            lease.map(|l| timestamp_text(&l.until)),
        ]);
        let mut statements = vec![Statement::must_change(INSERT, params)];
        statements.extend(events.iter().map(insert_event));
        self.db.write(&statements).await
    }

    /// Takes over a queued notification still at `expected` whose attempt is due at `due_by`
    /// and whose lease is free or ran out; its version moves to `expected + 1`, so that a
    /// reader of the old version can neither take it nor change it.
    pub async fn lease_notification(
        &self,
        id: &str,
        expected: i64,
        lease: &Lease,
        due_by: OffsetDateTime,
    ) -> StoreResult<bool> {
        let changed = self
            .db
            .execute(
                "UPDATE notifications SET lease_owner = $1, lease_until = $2, version = version + 1 \
                 WHERE id = $3 AND version = $4 AND status = 'queued' AND next_attempt_at <= $5 \
                 AND (lease_until IS NULL OR lease_until < $6)",
                &args![
                    &lease.owner,
                    timestamp_text(&lease.until),
                    id,
                    expected,
                    timestamp_text(&due_by),
                    timestamp_text(&OffsetDateTime::now_utc()),
                ],
            )
            .await?;
        Ok(changed == 1)
    }

    /// Saves what a delivery attempt gave, if `holder` still holds the lease at `expected`,
    /// and frees the lease.
    pub async fn save_delivery(
        &self,
        n: &Notification,
        expected: i64,
        holder: &str,
        events: &[NewEvent],
    ) -> StoreResult<bool> {
        self.save_notification(n, expected, "lease_owner = $17", holder.into(), events).await
    }

    /// Saves a change to a notification still at `expected` that nobody is sending now (a
    /// cancel, a skip).
    pub async fn update_notification(
        &self,
        n: &Notification,
        expected: i64,
        events: &[NewEvent],
    ) -> StoreResult<bool> {
        let now = timestamp_text(&OffsetDateTime::now_utc());
        self.save_notification(n, expected, "(lease_until IS NULL OR lease_until < $17)", now.into(), events)
            .await
    }

    async fn save_notification(
        &self,
        n: &Notification,
        expected: i64,
        guard: &str,
        guard_value: Param,
        events: &[NewEvent],
    ) -> StoreResult<bool> {
        let mut params = mutable_values(n);
        params.extend(args![&n.id, &n.organization_id, expected]);
        params.push(guard_value);
        let mut statements = vec![Statement::must_change(
            format!(
                "UPDATE notifications SET status = $1, skip_reason = $2, failure_reason = $3, attempts = $4, \
                 next_attempt_at = $5, provider = $6, provider_message_id = $7, sent_at = $8, failed_at = $9, \
                 canceled_at = $10, version = $11, updated_at = $12, recipient = $13, lease_owner = NULL, \
                 lease_until = NULL WHERE id = $14 AND organization_id = $15 AND version = $16 AND {guard}"
            ),
            params,
        )];
        statements.extend(events.iter().map(insert_event));
        self.db.write(&statements).await
    }

    /// One notification of an organization.
    pub async fn notification(&self, org_id: &str, id: &str) -> StoreResult<Option<Notification>> {
        let row = self
            .db
            .find("SELECT * FROM notifications WHERE organization_id = $1 AND id = $2", &args![org_id, id])
            .await?;
        row.as_ref().map(from_row).transpose()
    }

    /// A page of notifications and the exact total.
    pub async fn notifications(&self, org_id: &str, f: &NotificationFilter) -> StoreResult<NotificationPage> {
        let filters = |sql: &mut Sql| {
            sql.push(" WHERE organization_id = ").bind(org_id);
            push_in(sql, "charge_id", &f.charge_ids);
            push_in(sql, "debtor_id", &f.debtor_ids);
            push_in(sql, "status", &f.statuses);
            push_in(sql, "channel", &f.channels);
            push_cmp(sql, "created_at", ">=", f.created.0.as_ref());
            push_cmp(sql, "created_at", "<", f.created.1.as_ref());
            push_cmp(sql, "sent_at", ">=", f.sent.0.as_ref());
            push_cmp(sql, "sent_at", "<", f.sent.1.as_ref());
        };
        // The counts by channel and status of every row the filters keep, in one grouped read
        // beside the page's: their sum is the total, so nothing is counted twice.
        let mut counts = Sql::new("SELECT channel, status, CAST(COUNT(*) AS BIGINT) AS n FROM notifications");
        filters(&mut counts);
        counts.push(" GROUP BY channel, status");
        let mut page = Sql::new("SELECT * FROM notifications");
        filters(&mut page);
        let direction = if f.ascending { "ASC" } else { "DESC" };
        page.push(&format!(" ORDER BY created_at {direction}, id {direction} LIMIT "));
        page.bind(f.limit).push(" OFFSET ").bind(f.offset);
        let (groups, rows) = tokio::try_join!(
            self.db.rows(&counts.text, &counts.params),
            self.db.rows(&page.text, &page.params)
        )?;
        let mut listed = NotificationPage {
            rows: rows.iter().map(from_row).collect::<StoreResult<_>>()?,
            ..NotificationPage::default()
        };
        for group in &groups {
            let n = group.int("n")?;
            listed.total += n;
            *listed.by_channel.entry(group.text("channel")?).or_default() += n;
            *listed.by_status.entry(group.text("status")?).or_default() += n;
        }
        Ok(listed)
    }

    /// Up to `limit` queued notifications, of any organization, whose next attempt is due at
    /// `now` and whose lease is free or ran out: what the engine delivers or retries.
    pub async fn due_notifications(&self, now: OffsetDateTime, limit: i64) -> StoreResult<Vec<Notification>> {
        let rows = self
            .db
            .rows(
                "SELECT * FROM notifications WHERE status = 'queued' AND next_attempt_at <= $1 \
                 AND (lease_until IS NULL OR lease_until < $2) ORDER BY next_attempt_at, id LIMIT $3",
                &args![timestamp_text(&now), timestamp_text(&OffsetDateTime::now_utc()), limit],
            )
            .await?;
        rows.iter().map(from_row).collect()
    }
}
