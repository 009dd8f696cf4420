//! Users who sign in to the authorization server.

use std::sync::LazyLock;

use super::value::{Row, args};
use super::{Store, StoreError, StoreResult};

/// A user as stored.
#[derive(Debug, Clone)]
pub struct UserRow {
    /// `usr_…`
    pub id: String,
    /// The organization the user acts for.
    pub organization_id: String,
    /// Case-folded e-mail.
    pub email: String,
    /// argon2id PHC string.
    pub password_hash: String,
    /// `admin`, `operator` or `viewer`.
    pub role: String,
    /// RFC 3339.
    pub created_at: String,
}

fn from_row(row: &Row) -> StoreResult<UserRow> {
    Ok(UserRow {
        id: row.text("id")?,
        organization_id: row.text("organization_id")?,
        email: row.text("email")?,
        password_hash: row.text("password_hash")?,
        role: row.text("role")?,
        created_at: row.text("created_at")?,
    })
}

const COLUMNS: &str = "id, organization_id, email, password_hash, role, created_at";

impl Store {
    /// Inserts a user; `Duplicate` when the e-mail is taken.
    pub async fn insert_user(&self, user: &UserRow) -> StoreResult<()> {
        let inserted = self
            .db
            .execute(
                "INSERT INTO users (id, organization_id, email, password_hash, role, created_at) \
                 VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (email) DO NOTHING",
                &args![
                    &user.id,
                    &user.organization_id,
                    &user.email,
                    &user.password_hash,
                    &user.role,
                    &user.created_at
                ],
            )
            .await?;
        if inserted == 0 {
            return Err(StoreError::Duplicate(format!("a user with the e-mail {} exists", user.email)));
        }
        Ok(())
    }

    /// The user with a (case-folded) e-mail.
    pub async fn user_by_email(&self, email: &str) -> StoreResult<Option<UserRow>> {
        static BY_EMAIL: LazyLock<String> =
            LazyLock::new(|| format!("SELECT {COLUMNS} FROM users WHERE email = $1"));
        self.db.find(&BY_EMAIL, &args![email]).await?.as_ref().map(from_row).transpose()
    }

    /// One user.
    pub async fn user(&self, id: &str) -> StoreResult<Option<UserRow>> {
        static ONE: LazyLock<String> = LazyLock::new(|| format!("SELECT {COLUMNS} FROM users WHERE id = $1"));
        self.db.find(&ONE, &args![id]).await?.as_ref().map(from_row).transpose()
    }

    /// Sets a user's password hash (the demo user gets a fresh password at every start).
    pub async fn set_user_password(&self, id: &str, password_hash: &str) -> StoreResult<bool> {
        Ok(self
            .db
            .execute("UPDATE users SET password_hash = $1 WHERE id = $2", &args![password_hash, id])
            .await?
            == 1)
    }

    /// Records a sign-in attempt for an e-mail at `at` (forgetting that e-mail's attempts older
    /// than `since`), then counts its attempts since `since` (RFC 3339), this one included.
    ///
    /// Recorded and counted in one unit of work, one e-mail's attempts one after another (the
    /// single writer on SQLite, a lock on the e-mail on PostgreSQL, where concurrent transactions
    /// do not see each other's rows): of attempts racing for one e-mail the n-th counts exactly
    /// n, so no more than the limit see a count within it, and none of the first ones is
    /// refused for attempts that came after it.
    pub async fn record_sign_in_attempt(&self, email: &str, at: &str, since: &str) -> StoreResult<i64> {
        use super::backend::Step;
        let unit = self.begin().await?;
        let db = &unit.store().db;
        if self.db.is_postgres() {
            db.row("SELECT 1 FROM (SELECT pg_advisory_xact_lock(hashtext($1))) AS locked", &args![email])
                .await?;
        }
        db.write(&[
            Step::new(
                "DELETE FROM sign_in_failures WHERE email = $1 AND failed_at < $2",
                args![email, since],
            ),
            Step::new("INSERT INTO sign_in_failures (email, failed_at) VALUES ($1, $2)", args![email, at]),
        ])
        .await?;
        let attempts = db
            .row(
                "SELECT COUNT(*) AS n FROM sign_in_failures WHERE email = $1 AND failed_at >= $2",
                &args![email, since],
            )
            .await?
            .map_or(Ok(0), |r| r.first_int())?;
        unit.commit().await?;
        Ok(attempts)
    }

    /// Forgets an e-mail's attempts (after a successful sign-in).
    pub async fn clear_sign_in_failures(&self, email: &str) -> StoreResult<()> {
        self.db.execute("DELETE FROM sign_in_failures WHERE email = $1", &args![email]).await?;
        Ok(())
    }
}
