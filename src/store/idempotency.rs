//! Idempotency keys, per organization.

use sqlx::Row;
use time::OffsetDateTime;

use super::{Store, StoreResult, is_unique_violation};
use crate::domain::dates::format_timestamp;

/// A key as stored.
pub struct IdempotencyRecord {
    /// Digest of the first request.
    pub fingerprint: String,
    /// Operation of the first request.
    pub operation_id: String,
    /// The stored answer; `None` while the first request runs.
    pub response: Option<String>,
}

impl Store {
    /// Claims a key; false when it is already taken.
    pub async fn idempotency_start(
        &self,
        org_id: &str,
        key: &str,
        operation_id: &str,
        fingerprint: &str,
        now: OffsetDateTime,
    ) -> StoreResult<bool> {
        let result = sqlx::query(
            "INSERT INTO idempotency_keys (organization_id, key, operation_id, fingerprint, created_at) VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(org_id)
        .bind(key)
        .bind(operation_id)
        .bind(fingerprint)
        .bind(format_timestamp(now))
        .execute(&self.pool)
        .await;
        match result {
            Ok(_) => Ok(true),
            Err(e) if is_unique_violation(&e) => Ok(false),
            Err(e) => Err(e.into()),
        }
    }

    /// A stored key.
    pub async fn idempotency_get(&self, org_id: &str, key: &str) -> StoreResult<Option<IdempotencyRecord>> {
        let row = sqlx::query("SELECT operation_id, fingerprint, response FROM idempotency_keys WHERE organization_id = $1 AND key = $2")
            .bind(org_id)
            .bind(key)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| {
            Ok(IdempotencyRecord {
                fingerprint: r.try_get("fingerprint")?,
                operation_id: r.try_get("operation_id")?,
                response: r.try_get("response")?,
            })
        })
        .transpose()
    }

    /// Releases a claimed key whose request stored no answer, so that it can be used again.
    pub async fn idempotency_release(&self, org_id: &str, key: &str) -> StoreResult<()> {
        sqlx::query(
            "DELETE FROM idempotency_keys WHERE organization_id = $1 AND key = $2 AND response IS NULL",
        )
        .bind(org_id)
        .bind(key)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Records the answer of a claimed key.
    pub async fn idempotency_finish(&self, org_id: &str, key: &str, response: &str) -> StoreResult<()> {
        sqlx::query("UPDATE idempotency_keys SET response = $1 WHERE organization_id = $2 AND key = $3")
            .bind(response)
            .bind(org_id)
            .bind(key)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Forgets a key claimed before `expired`, or still unanswered since before `abandoned` (its
    /// request died without finishing: a crash, or a client gone while it ran).
    pub async fn idempotency_forget_stale(
        &self,
        org_id: &str,
        key: &str,
        expired: OffsetDateTime,
        abandoned: OffsetDateTime,
    ) -> StoreResult<()> {
        sqlx::query(
            "DELETE FROM idempotency_keys WHERE organization_id = $1 AND key = $2 \
             AND (created_at < $3 OR (response IS NULL AND created_at < $4))",
        )
        .bind(org_id)
        .bind(key)
        .bind(format_timestamp(expired))
        .bind(format_timestamp(abandoned))
        .execute(&self.pool)
        .await?;
        Ok(())
    }
}

impl Store {
    /// Forgets every idempotency key claimed before `cutoff`; returns how many went.
    pub async fn purge_idempotency_before(&self, cutoff: OffsetDateTime) -> StoreResult<u64> {
        let result = sqlx::query("DELETE FROM idempotency_keys WHERE created_at < $1")
            .bind(format_timestamp(cutoff))
            .execute(&self.pool)
            .await?;
        Ok(result.rows_affected())
    }
}
