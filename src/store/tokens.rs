//! Access tokens, stored by hash.

use sqlx::Row;
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use super::{Store, StoreError, StoreResult};

/// A stored, unrevoked token: the layer above makes a principal of it.
#[derive(Debug, Clone)]
pub struct TokenRow {
    /// Row id.
    pub id: String,
    /// Organization.
    pub organization_id: String,
    /// Signed-in user, if any.
    pub user_id: Option<String>,
    /// OAuth client, if any.
    pub client_id: Option<String>,
    /// Scopes.
    pub scopes: Vec<String>,
    /// `api`, `mcp` or `all`.
    pub audience: String,
    /// Expiry.
    pub expires_at: OffsetDateTime,
}

/// A token to store.
#[derive(Debug, Clone)]
pub struct NewToken {
    /// Row id.
    pub id: String,
    /// SHA-256 of the token.
    pub token_hash: String,
    /// Organization.
    pub organization_id: String,
    /// Signed-in user, if any.
    pub user_id: Option<String>,
    /// OAuth client, if any.
    pub client_id: Option<String>,
    /// Scopes.
    pub scopes: Vec<String>,
    /// `api`, `mcp` or `all`.
    pub audience: String,
    /// Expiry (RFC 3339).
    pub expires_at: String,
    /// Creation (RFC 3339).
    pub created_at: String,
}

impl Store {
    /// Stores a token.
    pub async fn insert_token(&self, token: &NewToken) -> StoreResult<()> {
        sqlx::query(
            "INSERT INTO access_tokens (id, token_hash, organization_id, user_id, client_id, scopes, audience, expires_at, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        )
        .bind(&token.id)
        .bind(&token.token_hash)
        .bind(&token.organization_id)
        .bind(&token.user_id)
        .bind(&token.client_id)
        .bind(token.scopes.join(" "))
        .bind(&token.audience)
        .bind(&token.expires_at)
        .bind(&token.created_at)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// A live (not revoked) token, by hash. Expiry is the caller's check.
    pub async fn token_by_hash(&self, hash: &str) -> StoreResult<Option<TokenRow>> {
        let row = sqlx::query(
            "SELECT id, organization_id, user_id, client_id, scopes, audience, expires_at \
             FROM access_tokens WHERE token_hash = $1 AND revoked_at IS NULL",
        )
        .bind(hash)
        .fetch_optional(&self.pool)
        .await?;
        let Some(row) = row else { return Ok(None) };
        let expires_at: String = row.try_get("expires_at")?;
        let expires_at = OffsetDateTime::parse(&expires_at, &Rfc3339)
            .map_err(|e| StoreError::Database(sqlx::Error::Decode(Box::new(e))))?;
        Ok(Some(TokenRow {
            id: row.try_get("id")?,
            organization_id: row.try_get("organization_id")?,
            user_id: row.try_get("user_id")?,
            client_id: row.try_get("client_id")?,
            scopes: row.try_get::<String, _>("scopes")?.split_whitespace().map(str::to_string).collect(),
            audience: row.try_get("audience")?,
            expires_at,
        }))
    }
}
