//! The server key and consumed confirmation nonces.

use super::value::args;
use super::{Store, StoreResult};

impl Store {
    /// The secret called `name`, storing `candidate` first if there is none (the first replica
    /// to start wins; every replica then reads the same value).
    pub async fn secret_or_insert(&self, name: &str, candidate: &str, now: &str) -> StoreResult<String> {
        self.db
            .execute(
                "INSERT INTO server_secrets (name, value, created_at) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING",
                &args![name, candidate, now],
            )
            .await?;
        let row = self.db.find("SELECT value FROM server_secrets WHERE name = $1", &args![name]).await?;
        row.ok_or_else(|| super::StoreError::CorruptColumn("server_secrets.value".into()))?.text("value")
    }

    /// The secret `name` and those called `name:<suffix>` (rotated keys), as (name, value,
    /// created_at), in no particular order.
    pub async fn secrets_named(&self, name: &str) -> StoreResult<Vec<(String, String, String)>> {
        let rows = self
            .db
            .rows(
                "SELECT name, value, created_at FROM server_secrets WHERE name = $1 OR substr(name, 1, length($1) + 1) = $1 || ':'",
                &args![name],
            )
            .await?;
        rows.iter().map(|row| Ok((row.text("name")?, row.text("value")?, row.text("created_at")?))).collect()
    }

    /// Forgets a secret (a retired key).
    pub async fn delete_secret(&self, name: &str) -> StoreResult<()> {
        self.db.execute("DELETE FROM server_secrets WHERE name = $1", &args![name]).await?;
        Ok(())
    }

    /// Marks a nonce consumed; false when it already was, here or on another replica (a
    /// conditional insert: the database decides which request wins).
    pub async fn consume_nonce(&self, nonce: &str, now: &str) -> StoreResult<bool> {
        let inserted = self
            .db
            .execute(
                "INSERT INTO confirmation_nonces (nonce, consumed_at) VALUES ($1, $2) ON CONFLICT (nonce) DO NOTHING",
                &args![nonce, now],
            )
            .await?;
        Ok(inserted == 1)
    }

    /// Whether a nonce was consumed.
    pub async fn nonce_consumed(&self, nonce: &str) -> StoreResult<bool> {
        Ok(self
            .db
            .find("SELECT 1 AS found FROM confirmation_nonces WHERE nonce = $1", &args![nonce])
            .await?
            .is_some())
    }
}

impl Store {
    /// Forgets confirmation nonces consumed before `cutoff` (a state lives 5 minutes: older
    /// nonces can never be presented again); returns how many went.
    pub async fn purge_nonces_before(&self, cutoff: &str) -> StoreResult<u64> {
        self.db.execute("DELETE FROM confirmation_nonces WHERE consumed_at < $1", &args![cutoff]).await
    }
}
