//! Approvals: rows to and from [`Approval`], and the conditional updates that let exactly one
//! request (on any replica) decide, use, or report each one. One SQL text for both dialects.

use time::OffsetDateTime;

use super::backend::Step;
use super::events::{NewEvent, insert_event};
use super::value::{Row, args};
use super::{Store, StoreError, StoreResult};
use crate::domain::approval::{Approval, ApprovalStatus, Binding, Decision};
use crate::domain::dates::{format_timestamp, parse_timestamp};

fn instant(row: &Row, column: &str) -> StoreResult<OffsetDateTime> {
    parse_timestamp(&row.text(column)?).map_err(|_| StoreError::CorruptColumn(column.to_string()))
}

fn opt_instant(row: &Row, column: &str) -> StoreResult<Option<OffsetDateTime>> {
    row.opt_text(column)?
        .map(|t| parse_timestamp(&t).map_err(|_| StoreError::CorruptColumn(column.to_string())))
        .transpose()
}

fn approval_from_row(row: &Row) -> StoreResult<Approval> {
    Ok(Approval {
        id: row.text("id")?,
        binding: Binding {
            organization_id: row.text("organization_id")?,
            principal: row.text("principal")?,
            tool: row.text("tool")?,
            args_digest: row.text("args_digest")?,
            object_version: row.opt_int("object_version")?,
        },
        object_id: row.opt_text("object_id")?,
        question: row.text("question")?,
        status: ApprovalStatus::parse(&row.text("status")?)
            .ok_or_else(|| StoreError::CorruptColumn("approvals.status".into()))?,
        decided_by: row.opt_text("decided_by")?,
        decided_at: opt_instant(row, "decided_at")?,
        consumed_at: opt_instant(row, "consumed_at")?,
        expires_at: instant(row, "expires_at")?,
        created_at: instant(row, "created_at")?,
    })
}

impl Store {
    /// Stores a new approval.
    pub async fn insert_approval(&self, a: &Approval) -> StoreResult<()> {
        self.db
            .execute(
                "INSERT INTO approvals (id, organization_id, principal, tool, args_digest, object_id, object_version, \
                 question, status, decided_by, decided_at, consumed_at, expires_at, created_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)",
                &args![
                    &a.id,
                    &a.binding.organization_id,
                    &a.binding.principal,
                    &a.binding.tool,
                    &a.binding.args_digest,
                    &a.object_id,
                    a.binding.object_version,
                    &a.question,
                    a.status.as_str(),
                    &a.decided_by,
                    a.decided_at.map(format_timestamp),
                    a.consumed_at.map(format_timestamp),
                    format_timestamp(a.expires_at),
                    format_timestamp(a.created_at),
                ],
            )
            .await?;
        Ok(())
    }

    /// One approval by id, of any organization (the caller checks whose it is).
    pub async fn approval(&self, id: &str) -> StoreResult<Option<Approval>> {
        let row = self.db.find("SELECT * FROM approvals WHERE id = $1", &args![id]).await?;
        row.as_ref().map(approval_from_row).transpose()
    }

    /// The approvals still usable by a call with this binding at `now`, newest first: pending,
    /// approved, or declined and not yet reported. The version is compared here, in Rust, so
    /// the SQL need not spell a NULL-safe comparison in two dialects.
    pub async fn live_approvals(&self, binding: &Binding, now: OffsetDateTime) -> StoreResult<Vec<Approval>> {
        let rows = self
            .db
            .rows(
                "SELECT * FROM approvals WHERE organization_id = $1 AND principal = $2 AND tool = $3 \
                 AND args_digest = $4 AND expires_at > $5 \
                 AND (status IN ('pending', 'approved') OR (status = 'declined' AND consumed_at IS NULL)) \
                 ORDER BY created_at DESC, id",
                &args![
                    &binding.organization_id,
                    &binding.principal,
                    &binding.tool,
                    &binding.args_digest,
                    format_timestamp(now),
                ],
            )
            .await?;
        let approvals = rows.iter().map(approval_from_row).collect::<StoreResult<Vec<_>>>()?;
        Ok(approvals.into_iter().filter(|a| a.binds(binding)).collect())
    }

    /// Uses an approved, unexpired approval; false when another request used it first, or it
    /// expired (one conditional update: the database decides which request wins).
    pub async fn consume_approval(&self, id: &str, now: OffsetDateTime) -> StoreResult<bool> {
        let now = format_timestamp(now);
        let changed = self
            .db
            .execute(
                "UPDATE approvals SET status = 'consumed', consumed_at = $2 \
                 WHERE id = $1 AND status = 'approved' AND expires_at > $2",
                &args![id, &now],
            )
            .await?;
        Ok(changed == 1)
    }

    /// Marks a decline as told to the caller, once; false when another request told it first.
    pub async fn report_declined_approval(&self, id: &str, now: OffsetDateTime) -> StoreResult<bool> {
        let changed = self
            .db
            .execute(
                "UPDATE approvals SET consumed_at = $2 WHERE id = $1 AND status = 'declined' AND consumed_at IS NULL",
                &args![id, format_timestamp(now)],
            )
            .await?;
        Ok(changed == 1)
    }

    /// Records a user's decision on a pending, unexpired approval of the organization, with its
    /// event, in one transaction; false (and nothing written) when it was already decided,
    /// expired, or is not the organization's.
    pub async fn decide_approval(
        &self,
        organization_id: &str,
        id: &str,
        decision: Decision,
        user_id: &str,
        now: OffsetDateTime,
        event: &NewEvent,
    ) -> StoreResult<bool> {
        let now = format_timestamp(now);
        self.db
            .write(&[
                Step::must_change(
                    "UPDATE approvals SET status = $3, decided_by = $4, decided_at = $5 \
                     WHERE id = $1 AND organization_id = $2 AND status = 'pending' AND expires_at > $5",
                    args![id, organization_id, decision.status().as_str(), user_id, &now],
                ),
                insert_event(event),
            ])
            .await
    }

    /// Forgets approvals that expired before `cutoff` (their decisions stay in the events);
    /// returns how many went.
    pub async fn purge_approvals_before(&self, cutoff: OffsetDateTime) -> StoreResult<u64> {
        self.db.execute("DELETE FROM approvals WHERE expires_at < $1", &args![format_timestamp(cutoff)]).await
    }
}
