//! Access tokens, stored by hash.

use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use super::backend::Step;
use super::value::args;
use super::{Store, StoreError, StoreResult};

pub use super::backend::{Revocation, Revocations};

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
    /// The organization's time zone.
    pub zone: crate::domain::dates::Zone,
    /// The organization's Pix account, if it set one.
    pub pix_account: Option<crate::domain::pix_account::PixAccount>,
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
    /// The OAuth grant it was issued through, if any (revoking the grant revokes it).
    pub grant_id: Option<String>,
}

/// The statement that stores a token, to run alone or inside a transaction.
pub(super) fn insert_token_step(token: &NewToken) -> Step {
    Step::new(
        "INSERT INTO access_tokens (id, token_hash, organization_id, user_id, client_id, scopes, audience, expires_at, created_at, grant_id) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
        args![
            &token.id,
            &token.token_hash,
            &token.organization_id,
            &token.user_id,
            &token.client_id,
            token.scopes.join(" "),
            &token.audience,
            &token.expires_at,
            &token.created_at,
            &token.grant_id,
        ],
    )
}

/// A token as `tokens list` shows it: everything but the secret (only its hash is stored).
#[derive(Debug, Clone)]
pub struct TokenListing {
    /// `tok_…`
    pub id: String,
    /// Organization.
    pub organization_id: String,
    /// Signed-in user, if any.
    pub user_id: Option<String>,
    /// OAuth client, if any.
    pub client_id: Option<String>,
    /// `api`, `mcp` or `all`.
    pub audience: String,
    /// Space-separated scopes.
    pub scopes: String,
    /// Expiry (RFC 3339).
    pub expires_at: String,
    /// Revocation (RFC 3339), if revoked.
    pub revoked_at: Option<String>,
    /// The OAuth grant it was issued through (`grt_…`), if any.
    pub grant_id: Option<String>,
}

impl Store {
    /// Stores a token.
    pub async fn insert_token(&self, token: &NewToken) -> StoreResult<()> {
        let step = insert_token_step(token);
        self.db.execute(&step.sql, &step.params).await?;
        Ok(())
    }

    /// Every token, of one organization or of all, oldest first.
    pub async fn list_tokens(&self, organization_id: Option<&str>) -> StoreResult<Vec<TokenListing>> {
        let rows = self
            .db
            .rows(
                "SELECT id, organization_id, user_id, client_id, audience, scopes, expires_at, revoked_at, grant_id \
                 FROM access_tokens WHERE ($1 = '' OR organization_id = $1) ORDER BY created_at, id",
                &args![organization_id.unwrap_or("")],
            )
            .await?;
        rows.iter()
            .map(|row| {
                Ok(TokenListing {
                    id: row.text("id")?,
                    organization_id: row.text("organization_id")?,
                    user_id: row.opt_text("user_id")?,
                    client_id: row.opt_text("client_id")?,
                    audience: row.text("audience")?,
                    scopes: row.text("scopes")?,
                    expires_at: row.text("expires_at")?,
                    revoked_at: row.opt_text("revoked_at")?,
                    grant_id: row.opt_text("grant_id")?,
                })
            })
            .collect()
    }

    /// A live (not revoked) token, by hash. Expiry is the caller's check.
    pub async fn token_by_hash(&self, hash: &str) -> StoreResult<Option<TokenRow>> {
        let row = self
            .db
            .find(
                "SELECT t.id, t.organization_id, t.user_id, t.client_id, t.scopes, t.audience, t.expires_at, \
                 o.timezone, o.pix_key, o.pix_merchant_name, o.pix_merchant_city FROM access_tokens t JOIN organizations o ON o.id = t.organization_id \
                 WHERE t.token_hash = $1 AND t.revoked_at IS NULL",
                &args![hash],
            )
            .await?;
        let Some(row) = row else { return Ok(None) };
        let expires_at = OffsetDateTime::parse(&row.text("expires_at")?, &Rfc3339)
            .map_err(|_| StoreError::CorruptColumn("expires_at".into()))?;
        Ok(Some(TokenRow {
            id: row.text("id")?,
            organization_id: row.text("organization_id")?,
            user_id: row.opt_text("user_id")?,
            client_id: row.opt_text("client_id")?,
            scopes: row.text("scopes")?.split_whitespace().map(str::to_string).collect(),
            audience: row.text("audience")?,
            expires_at,
            zone: super::orgs::zone_column(&row)?,
            pix_account: super::orgs::pix_account_columns(&row)?,
        }))
    }

    /// Revokes a live token given by its id or its hash, at `at` (RFC 3339); returns its hash,
    /// or `None` when no live token has that id or hash. On PostgreSQL the revocation is
    /// announced to every process (migration 0005) when it commits.
    pub async fn revoke_token(&self, id_or_hash: &str, at: &str) -> StoreResult<Option<String>> {
        let row = self
            .db
            .row(
                "SELECT token_hash FROM access_tokens WHERE (id = $1 OR token_hash = $1) AND revoked_at IS NULL",
                &args![id_or_hash],
            )
            .await?;
        let Some(row) = row else { return Ok(None) };
        let hash = row.text("token_hash")?;
        let revoke = Step::must_change(
            "UPDATE access_tokens SET revoked_at = $1 WHERE token_hash = $2 AND revoked_at IS NULL",
            args![at, &hash],
        );
        // Revoked meanwhile by someone else: not this call's revocation.
        Ok(self.db.write(&[revoke]).await?.then_some(hash))
    }

    /// A listener for tokens revoked by any process (PostgreSQL); `None` on SQLite, where one
    /// process serves and evicts what it revokes itself.
    pub fn token_revocations(&self) -> Option<Revocations> {
        self.db.revocations()
    }
}
