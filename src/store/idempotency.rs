//! Idempotency keys, per organization.

use time::{Duration, OffsetDateTime};

use super::value::args;
use super::{Store, StoreResult};
use crate::domain::dates::format_timestamp;

/// How long a key is remembered: the API replays its answer for this long, housekeeping purges
/// it after.
pub const IDEMPOTENCY_RETENTION: Duration = Duration::hours(24);

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
    /// Claims a key; false when it is already taken (by this replica or another: the claim is
    /// one conditional insert, decided by the database).
    pub async fn idempotency_start(
        &self,
        org_id: &str,
        key: &str,
        operation_id: &str,
        fingerprint: &str,
        now: OffsetDateTime,
    ) -> StoreResult<bool> {
        let inserted = self
            .db
            .execute(
                "INSERT INTO idempotency_keys (organization_id, key, operation_id, fingerprint, created_at) \
                 VALUES ($1, $2, $3, $4, $5) ON CONFLICT (organization_id, key) DO NOTHING",
                &args![org_id, key, operation_id, fingerprint, format_timestamp(now)],
            )
            .await?;
        Ok(inserted == 1)
    }

    /// A stored key.
    pub async fn idempotency_get(&self, org_id: &str, key: &str) -> StoreResult<Option<IdempotencyRecord>> {
        let row = self
            .db
            .find(
                "SELECT operation_id, fingerprint, response FROM idempotency_keys WHERE organization_id = $1 AND key = $2",
                &args![org_id, key],
            )
            .await?;
        row.map(|r| {
            Ok(IdempotencyRecord {
                fingerprint: r.text("fingerprint")?,
                operation_id: r.text("operation_id")?,
                response: r.opt_text("response")?,
            })
        })
        .transpose()
    }

    /// Holds the key until this unit of work ends, against other processes' units: false when
    /// one holds it now. On SQLite the unit holds the database's only write lock, so no other
    /// unit can be claiming.
    pub async fn idempotency_lock(&self, org_id: &str, key: &str) -> StoreResult<bool> {
        if !self.db.is_postgres() {
            return Ok(true);
        }
        let row = self
            .db
            .row(
                "SELECT pg_try_advisory_xact_lock(hashtextextended($1 || ':' || $2, 0)) AS locked",
                &args![org_id, key],
            )
            .await?;
        Ok(row.map(|r| r.int("locked")).transpose()?.unwrap_or(0) == 1)
    }

    /// Records the answer of a claimed key.
    pub async fn idempotency_finish(&self, org_id: &str, key: &str, response: &str) -> StoreResult<()> {
        self.db
            .execute(
                "UPDATE idempotency_keys SET response = $1 WHERE organization_id = $2 AND key = $3",
                &args![response, org_id, key],
            )
            .await?;
        Ok(())
    }

    /// Forgets a key claimed before `expired`, or left without an answer (only a server
    /// older than units of work committed a claim before its answer).
    pub async fn idempotency_forget_stale(
        &self,
        org_id: &str,
        key: &str,
        expired: OffsetDateTime,
    ) -> StoreResult<()> {
        self.db
            .execute(
                "DELETE FROM idempotency_keys WHERE organization_id = $1 AND key = $2 \
                 AND (created_at < $3 OR response IS NULL)",
                &args![org_id, key, format_timestamp(expired)],
            )
            .await?;
        Ok(())
    }
}

impl Store {
    /// Forgets every idempotency key claimed before `cutoff`; returns how many went.
    pub async fn purge_idempotency_before(&self, cutoff: OffsetDateTime) -> StoreResult<u64> {
        self.db
            .execute("DELETE FROM idempotency_keys WHERE created_at < $1", &args![format_timestamp(cutoff)])
            .await
    }
}
