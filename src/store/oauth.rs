//! The authorization server's records: registered clients, authorization codes, grants and
//! their refresh tokens, browser sessions. Secrets arrive here already hashed.
//!
//! Every exchange that must happen once (a code for a grant, a refresh token for the next) is
//! one transaction whose first statement claims the secret with a conditional update, so two
//! replicas presented the same secret at once cannot both succeed.

use std::sync::LazyLock;

use super::backend::Step;
use super::tokens::{NewToken, insert_token_step};
use super::users::UserRow;
use super::value::{Row, args};
use super::{Store, StoreResult};

/// A client registered through RFC 7591.
#[derive(Debug, Clone)]
pub struct ClientRow {
    /// `cli_…`
    pub id: String,
    /// What the consent page calls it.
    pub client_name: Option<String>,
    /// Its redirect URIs, validated at registration.
    pub redirect_uris: Vec<String>,
    /// RFC 3339.
    pub created_at: String,
}

/// An authorization code as stored (by hash).
#[derive(Debug, Clone)]
pub struct CodeRow {
    pub client_id: String,
    pub client_name: String,
    /// The redirect URI the authorization request named; empty when it named none.
    pub redirect_uri: String,
    /// The PKCE S256 challenge.
    pub code_challenge: String,
    pub user_id: String,
    pub organization_id: String,
    /// Space-separated granted scopes.
    pub scopes: String,
    /// `mcp` or `api`.
    pub audience: String,
    pub expires_at: String,
    /// Set once the code was presented (exchanged, or burnt by a wrong verifier).
    pub used_at: Option<String>,
    /// The grant it was exchanged for.
    pub grant_id: Option<String>,
}

/// A code to store.
#[derive(Debug, Clone)]
pub struct NewCode {
    pub code_hash: String,
    pub row: CodeRow,
    pub created_at: String,
}

/// A grant: what a user allowed a client.
#[derive(Debug, Clone)]
pub struct GrantRow {
    /// `grt_…`
    pub id: String,
    pub organization_id: String,
    pub user_id: String,
    pub client_id: String,
    pub client_name: String,
    /// Space-separated scopes.
    pub scopes: String,
    /// `mcp` or `api`.
    pub audience: String,
    pub created_at: String,
    pub last_used_at: String,
    pub revoked_at: Option<String>,
}

/// A refresh token presented, with its grant.
#[derive(Debug, Clone)]
pub struct RefreshRow {
    pub grant: GrantRow,
    pub expires_at: String,
    /// Set once rotated: presenting it again is reuse.
    pub used_at: Option<String>,
}

/// A refresh token to store.
#[derive(Debug, Clone)]
pub struct NewRefresh {
    pub token_hash: String,
    pub expires_at: String,
}

fn client_from_row(row: &Row) -> StoreResult<ClientRow> {
    let uris = row.text("redirect_uris")?;
    Ok(ClientRow {
        id: row.text("id")?,
        client_name: row.opt_text("client_name")?,
        redirect_uris: serde_json::from_str(&uris)?,
        created_at: row.text("created_at")?,
    })
}

fn grant_from_row(row: &Row) -> StoreResult<GrantRow> {
    Ok(GrantRow {
        id: row.text("id")?,
        organization_id: row.text("organization_id")?,
        user_id: row.text("user_id")?,
        client_id: row.text("client_id")?,
        client_name: row.text("client_name")?,
        scopes: row.text("scopes")?,
        audience: row.text("audience")?,
        created_at: row.text("created_at")?,
        last_used_at: row.text("last_used_at")?,
        revoked_at: row.opt_text("revoked_at")?,
    })
}

const GRANT_COLUMNS: &str = "g.id, g.organization_id, g.user_id, g.client_id, g.client_name, g.scopes, g.audience, \
                             g.created_at, g.last_used_at, g.revoked_at";

fn insert_grant_step(grant: &GrantRow) -> Step {
    Step::new(
        "INSERT INTO oauth_grants (id, organization_id, user_id, client_id, client_name, scopes, audience, created_at, last_used_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        args![
            &grant.id,
            &grant.organization_id,
            &grant.user_id,
            &grant.client_id,
            &grant.client_name,
            &grant.scopes,
            &grant.audience,
            &grant.created_at,
            &grant.last_used_at,
        ],
    )
}

fn insert_refresh_step(grant_id: &str, refresh: &NewRefresh, now: &str) -> Step {
    Step::new(
        "INSERT INTO oauth_refresh_tokens (token_hash, grant_id, expires_at, created_at) VALUES ($1, $2, $3, $4)",
        args![&refresh.token_hash, grant_id, &refresh.expires_at, now],
    )
}

impl Store {
    /// Stores a registered client.
    pub async fn insert_oauth_client(&self, client: &ClientRow) -> StoreResult<()> {
        let uris = serde_json::to_string(&client.redirect_uris)?;
        self.db
            .execute(
                "INSERT INTO oauth_clients (id, client_name, redirect_uris, created_at) VALUES ($1, $2, $3, $4)",
                &args![&client.id, &client.client_name, uris, &client.created_at],
            )
            .await?;
        Ok(())
    }

    /// A registered client.
    pub async fn oauth_client(&self, id: &str) -> StoreResult<Option<ClientRow>> {
        let row = self
            .db
            .find(
                "SELECT id, client_name, redirect_uris, created_at FROM oauth_clients WHERE id = $1",
                &args![id],
            )
            .await?;
        row.as_ref().map(client_from_row).transpose()
    }

    /// Stores an authorization code.
    pub async fn insert_code(&self, code: &NewCode) -> StoreResult<()> {
        let r = &code.row;
        self.db
            .execute(
                "INSERT INTO oauth_codes (code_hash, client_id, client_name, redirect_uri, code_challenge, user_id, \
                 organization_id, scopes, audience, expires_at, created_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
                &args![
                    &code.code_hash,
                    &r.client_id,
                    &r.client_name,
                    &r.redirect_uri,
                    &r.code_challenge,
                    &r.user_id,
                    &r.organization_id,
                    &r.scopes,
                    &r.audience,
                    &r.expires_at,
                    &code.created_at,
                ],
            )
            .await?;
        Ok(())
    }

    /// A code by hash, used or not.
    pub async fn code_by_hash(&self, code_hash: &str) -> StoreResult<Option<CodeRow>> {
        let row = self
            .db
            .find(
                "SELECT client_id, client_name, redirect_uri, code_challenge, user_id, organization_id, scopes, \
                 audience, expires_at, used_at, grant_id FROM oauth_codes WHERE code_hash = $1",
                &args![code_hash],
            )
            .await?;
        row.map(|r| {
            Ok(CodeRow {
                client_id: r.text("client_id")?,
                client_name: r.text("client_name")?,
                redirect_uri: r.text("redirect_uri")?,
                code_challenge: r.text("code_challenge")?,
                user_id: r.text("user_id")?,
                organization_id: r.text("organization_id")?,
                scopes: r.text("scopes")?,
                audience: r.text("audience")?,
                expires_at: r.text("expires_at")?,
                used_at: r.opt_text("used_at")?,
                grant_id: r.opt_text("grant_id")?,
            })
        })
        .transpose()
    }

    /// Marks an unused code used without a grant (a wrong verifier burns it); false when it
    /// was used already.
    pub async fn burn_code(&self, code_hash: &str, at: &str) -> StoreResult<bool> {
        let changed = self
            .db
            .execute(
                "UPDATE oauth_codes SET used_at = $1 WHERE code_hash = $2 AND used_at IS NULL",
                &args![at, code_hash],
            )
            .await?;
        Ok(changed == 1)
    }

    /// Exchanges an unused code for a grant, its first refresh token and an access token, in
    /// one transaction; false (nothing written) when the code was used meanwhile.
    pub async fn exchange_code(
        &self,
        code_hash: &str,
        now: &str,
        grant: &GrantRow,
        refresh: &NewRefresh,
        token: &NewToken,
    ) -> StoreResult<bool> {
        self.db
            .write(&[
                Step::must_change(
                    "UPDATE oauth_codes SET used_at = $1, grant_id = $2 WHERE code_hash = $3 AND used_at IS NULL",
                    args![now, &grant.id, code_hash],
                ),
                insert_grant_step(grant),
                insert_refresh_step(&grant.id, refresh, now),
                insert_token_step(token),
            ])
            .await
    }

    /// A refresh token by hash, with its grant.
    pub async fn refresh_by_hash(&self, token_hash: &str) -> StoreResult<Option<RefreshRow>> {
        let sql = format!(
            "SELECT {GRANT_COLUMNS}, r.expires_at AS refresh_expires_at, r.used_at AS refresh_used_at \
             FROM oauth_refresh_tokens r JOIN oauth_grants g ON g.id = r.grant_id WHERE r.token_hash = $1"
        );
        let row = self.db.row(&sql, &args![token_hash]).await?;
        row.map(|r| {
            Ok(RefreshRow {
                grant: grant_from_row(&r)?,
                expires_at: r.text("refresh_expires_at")?,
                used_at: r.opt_text("refresh_used_at")?,
            })
        })
        .transpose()
    }

    /// Rotates a refresh token: the presented one becomes used, the next one and a new access
    /// token are stored. False (nothing written) when the presented one was used meanwhile or
    /// the grant was revoked.
    pub async fn rotate_refresh(
        &self,
        used_hash: &str,
        grant_id: &str,
        now: &str,
        next: &NewRefresh,
        token: &NewToken,
    ) -> StoreResult<bool> {
        self.db
            .write(&[
                Step::must_change(
                    "UPDATE oauth_refresh_tokens SET used_at = $1 WHERE token_hash = $2 AND used_at IS NULL",
                    args![now, used_hash],
                ),
                Step::must_change(
                    "UPDATE oauth_grants SET last_used_at = $1 WHERE id = $2 AND revoked_at IS NULL",
                    args![now, grant_id],
                ),
                insert_refresh_step(grant_id, next, now),
                insert_token_step(token),
            ])
            .await
    }

    /// Revokes a live grant and every live access token issued through it (on PostgreSQL the
    /// tokens' revocation is announced to every replica, migration 0005); false when the grant
    /// was already revoked or does not exist.
    pub async fn revoke_grant(&self, grant_id: &str, at: &str) -> StoreResult<bool> {
        self.db
            .write(&[
                Step::must_change(
                    "UPDATE oauth_grants SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL",
                    args![at, grant_id],
                ),
                Step::new(
                    "UPDATE access_tokens SET revoked_at = $1 WHERE grant_id = $2 AND revoked_at IS NULL",
                    args![at, grant_id],
                ),
            ])
            .await
    }

    /// One grant.
    pub async fn grant(&self, id: &str) -> StoreResult<Option<GrantRow>> {
        static ONE: LazyLock<String> =
            LazyLock::new(|| format!("SELECT {GRANT_COLUMNS} FROM oauth_grants g WHERE g.id = $1"));
        self.db.find(&ONE, &args![id]).await?.as_ref().map(grant_from_row).transpose()
    }

    /// The name a client was shown under when it was allowed: by `user_id`'s newest grant to
    /// it when a user is given, else by any grant, else by its registration. `None` when none
    /// of them names it (a client ID metadata document is stored only through its grants).
    pub async fn client_name(&self, client_id: &str, user_id: Option<&str>) -> StoreResult<Option<String>> {
        let row = self
            .db
            .row(
                "SELECT client_name FROM oauth_grants WHERE client_id = $1 AND ($2 = '' OR user_id = $2) \
                 ORDER BY created_at DESC, id DESC LIMIT 1",
                &args![client_id, user_id.unwrap_or("")],
            )
            .await?;
        if let Some(row) = row {
            return Ok(Some(row.text("client_name")?));
        }
        Ok(self.oauth_client(client_id).await?.and_then(|c| c.client_name))
    }

    /// A user's live grants, newest first.
    pub async fn live_grants_of_user(&self, user_id: &str) -> StoreResult<Vec<GrantRow>> {
        let sql = format!(
            "SELECT {GRANT_COLUMNS} FROM oauth_grants g WHERE g.user_id = $1 AND g.revoked_at IS NULL \
             ORDER BY g.created_at DESC, g.id DESC LIMIT 200"
        );
        self.db.rows(&sql, &args![user_id]).await?.iter().map(grant_from_row).collect()
    }

    /// An access token's id and the grant it was issued through, by the token's id or hash,
    /// revoked or not.
    pub async fn grant_of_token(&self, id_or_hash: &str) -> StoreResult<Option<(String, Option<String>)>> {
        let row = self
            .db
            .row(
                "SELECT id, grant_id FROM access_tokens WHERE id = $1 OR token_hash = $1",
                &args![id_or_hash],
            )
            .await?;
        row.map(|r| Ok((r.text("id")?, r.opt_text("grant_id")?))).transpose()
    }

    /// Stores a browser session (the cookie's hash).
    pub async fn insert_browser_session(
        &self,
        id_hash: &str,
        user_id: &str,
        expires_at: &str,
        now: &str,
    ) -> StoreResult<()> {
        self.db
            .execute(
                "INSERT INTO browser_sessions (id_hash, user_id, expires_at, created_at) VALUES ($1, $2, $3, $4)",
                &args![id_hash, user_id, expires_at, now],
            )
            .await?;
        Ok(())
    }

    /// The user of a live browser session.
    pub async fn browser_session_user(&self, id_hash: &str, now: &str) -> StoreResult<Option<UserRow>> {
        let row = self
            .db
            .row(
                "SELECT u.id, u.organization_id, u.email, u.password_hash, u.role, u.created_at \
                 FROM browser_sessions s JOIN users u ON u.id = s.user_id WHERE s.id_hash = $1 AND s.expires_at > $2",
                &args![id_hash, now],
            )
            .await?;
        row.map(|r| {
            Ok(UserRow {
                id: r.text("id")?,
                organization_id: r.text("organization_id")?,
                email: r.text("email")?,
                password_hash: r.text("password_hash")?,
                role: r.text("role")?,
                created_at: r.text("created_at")?,
            })
        })
        .transpose()
    }

    /// Ends a browser session.
    pub async fn delete_browser_session(&self, id_hash: &str) -> StoreResult<()> {
        self.db.execute("DELETE FROM browser_sessions WHERE id_hash = $1", &args![id_hash]).await?;
        Ok(())
    }

    /// Forgets what can no longer be used, `cutoff` (RFC 3339) being a retention before now
    /// (housekeeping keeps a day); returns how many rows of each kind went. In this order, so that
    /// no row outlives what it points to:
    /// - codes, browser sessions and sign-in failures that expired (or failed) before `cutoff`;
    /// - refresh tokens that expired before `cutoff`, used or not: a used one is kept until then,
    ///   so presenting it again still revokes its grant for as long as it could otherwise work;
    ///   and every refresh token of a grant revoked before `cutoff`;
    /// - access tokens issued through a grant (OAuth's, never the CLI's, which `tokens list`
    ///   shows until revoked by hand) that expired before `cutoff`, or whose grant goes now;
    /// - grants revoked before `cutoff`, and grants left without a refresh token (the newest
    ///   expired before `cutoff`: nothing can renew them);
    /// - registered clients older than `cutoff` with no grant and no code left: never used, or
    ///   every grant gone. Clients known by a metadata document have no row here: their
    ///   grants follow the grant rules, and the document is fetched again when next used.
    pub async fn purge_oauth_before(&self, cutoff: &str) -> StoreResult<OAuthPurged> {
        const GONE_GRANT: &str = "(revoked_at < $1 OR NOT EXISTS \
             (SELECT 1 FROM oauth_refresh_tokens r WHERE r.grant_id = oauth_grants.id))";
        let run = |sql: String| async move { self.db.execute(&sql, &args![cutoff]).await };
        let codes = run("DELETE FROM oauth_codes WHERE expires_at < $1".into()).await?;
        let sessions = run("DELETE FROM browser_sessions WHERE expires_at < $1".into()).await?;
        let sign_in_failures = run("DELETE FROM sign_in_failures WHERE failed_at < $1".into()).await?;
        let refresh_tokens = run("DELETE FROM oauth_refresh_tokens WHERE expires_at < $1 \
             OR grant_id IN (SELECT id FROM oauth_grants WHERE revoked_at < $1)"
            .into())
        .await?;
        let access_tokens = run(format!(
            "DELETE FROM access_tokens WHERE grant_id IS NOT NULL AND (expires_at < $1 \
             OR grant_id IN (SELECT id FROM oauth_grants WHERE {GONE_GRANT}))"
        ))
        .await?;
        let grants = run(format!("DELETE FROM oauth_grants WHERE {GONE_GRANT}")).await?;
        let clients = run("DELETE FROM oauth_clients WHERE created_at < $1 \
             AND NOT EXISTS (SELECT 1 FROM oauth_grants g WHERE g.client_id = oauth_clients.id) \
             AND NOT EXISTS (SELECT 1 FROM oauth_codes c WHERE c.client_id = oauth_clients.id)"
            .into())
        .await?;
        Ok(OAuthPurged { codes, sessions, sign_in_failures, refresh_tokens, access_tokens, grants, clients })
    }
}

/// What one clean-up of the authorization server's records removed, by kind.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct OAuthPurged {
    pub codes: u64,
    pub sessions: u64,
    pub sign_in_failures: u64,
    pub refresh_tokens: u64,
    /// Access tokens issued through grants.
    pub access_tokens: u64,
    pub grants: u64,
    /// Registered clients.
    pub clients: u64,
}

impl OAuthPurged {
    /// Every row removed.
    pub fn total(&self) -> u64 {
        self.codes
            + self.sessions
            + self.sign_in_failures
            + self.refresh_tokens
            + self.access_tokens
            + self.grants
            + self.clients
    }
}
