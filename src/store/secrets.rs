//! The server key and consumed confirmation nonces.

use sqlx::Row;

use super::{Store, StoreResult, is_unique_violation};

impl Store {
    /// The secret called `name`, storing `candidate` first if there is none (the first replica
    /// to start wins; every replica then reads the same value).
    pub async fn secret_or_insert(&self, name: &str, candidate: &str, now: &str) -> StoreResult<String> {
        sqlx::query("INSERT INTO server_secrets (name, value, created_at) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING")
            .bind(name)
            .bind(candidate)
            .bind(now)
            .execute(&self.pool)
            .await?;
        let row = sqlx::query("SELECT value FROM server_secrets WHERE name = $1")
            .bind(name)
            .fetch_one(&self.pool)
            .await?;
        Ok(row.try_get("value")?)
    }

    /// The secret `name` and those called `name:<suffix>` (rotated keys), as (name, value,
    /// created_at), in no particular order.
    pub async fn secrets_named(&self, name: &str) -> StoreResult<Vec<(String, String, String)>> {
        let rows = sqlx::query(
            "SELECT name, value, created_at FROM server_secrets WHERE name = $1 OR substr(name, 1, length($1) + 1) = $1 || ':'",
        )
        .bind(name)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| Ok((row.try_get("name")?, row.try_get("value")?, row.try_get("created_at")?)))
            .collect()
    }

    /// Forgets a secret (a retired key).
    pub async fn delete_secret(&self, name: &str) -> StoreResult<()> {
        sqlx::query("DELETE FROM server_secrets WHERE name = $1").bind(name).execute(&self.pool).await?;
        Ok(())
    }

    /// Marks a nonce consumed; false when it already was.
    pub async fn consume_nonce(&self, nonce: &str, now: &str) -> StoreResult<bool> {
        let result = sqlx::query("INSERT INTO confirmation_nonces (nonce, consumed_at) VALUES ($1, $2)")
            .bind(nonce)
            .bind(now)
            .execute(&self.pool)
            .await;
        match result {
            Ok(_) => Ok(true),
            Err(e) if is_unique_violation(&e) => Ok(false),
            Err(e) => Err(e.into()),
        }
    }

    /// Whether a nonce was consumed.
    pub async fn nonce_consumed(&self, nonce: &str) -> StoreResult<bool> {
        let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM confirmation_nonces WHERE nonce = $1")
            .bind(nonce)
            .fetch_one(&self.pool)
            .await?;
        Ok(n > 0)
    }
}

impl Store {
    /// Forgets confirmation nonces consumed before `cutoff` (a state lives 5 minutes: older
    /// nonces can never be presented again); returns how many went.
    pub async fn purge_nonces_before(&self, cutoff: &str) -> StoreResult<u64> {
        let result = sqlx::query("DELETE FROM confirmation_nonces WHERE consumed_at < $1")
            .bind(cutoff)
            .execute(&self.pool)
            .await?;
        Ok(result.rows_affected())
    }
}
