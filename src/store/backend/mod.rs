//! The two databases behind one small interface: read rows, execute a statement, or run a list
//! of statements as one transaction. SQL text is shared (`$1`-style placeholders in both); what
//! differs between the dialects lives in the migrations.

mod postgres;
mod sqlite;

use std::borrow::Cow;
use std::time::Duration;

use super::value::{Param, Row};
use super::{StoreError, StoreResult};

/// One statement of a transaction.
#[derive(Debug, Clone)]
pub struct Step {
    /// SQL with `$n` placeholders.
    pub sql: Cow<'static, str>,
    /// Its parameters.
    pub params: Vec<Param>,
    /// When it changes no row, the whole transaction is rolled back and reports `false` (a
    /// version check that failed, a row that is gone).
    pub must_change: bool,
}

impl Step {
    /// A statement that may change nothing.
    pub fn new(sql: impl Into<Cow<'static, str>>, params: impl Into<Vec<Param>>) -> Self {
        Self { sql: sql.into(), params: params.into(), must_change: false }
    }

    /// A statement that must change a row, or the transaction is undone.
    pub fn must_change(sql: impl Into<Cow<'static, str>>, params: impl Into<Vec<Param>>) -> Self {
        Self { sql: sql.into(), params: params.into(), must_change: true }
    }
}

/// An open database. PostgreSQL's statements are awaited boxed: each holds a deadline's timer,
/// and unboxed they would size every call's future, SQLite's included, which the request path
/// then copies as it is polled (about 9,000 instructions a GET, callgrind).
pub enum Backend {
    /// rusqlite, run in place on the async worker.
    Sqlite(Box<sqlite::Sqlite>),
    /// sqlx's PostgreSQL driver.
    Postgres(postgres::Postgres),
}

impl Backend {
    /// Opens and migrates the database at `url` (`sqlite:…` or `postgres://…`); a request
    /// waits at most `wait` for a connection or the write lock.
    pub async fn open(url: &str, wait: Duration, background: bool) -> StoreResult<Self> {
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            let (connections, limit) = if background {
                (postgres::BACKGROUND_CONNECTIONS, postgres::BACKGROUND_STATEMENT_LIMIT)
            } else {
                (postgres::CONNECTIONS, postgres::STATEMENT_LIMIT)
            };
            Ok(Backend::Postgres(postgres::Postgres::open(url, wait, connections, limit).await?))
        } else if let Some(path) = url.strip_prefix("sqlite://").or_else(|| url.strip_prefix("sqlite:")) {
            Ok(Backend::Sqlite(Box::new(sqlite::Sqlite::open(path, wait).await?)))
        } else {
            Err(StoreError::UnsupportedUrl)
        }
    }

    /// The rows of a query.
    pub async fn rows(&self, sql: &str, params: &[Param]) -> StoreResult<Vec<Row>> {
        match self {
            Backend::Sqlite(db) => db.rows(sql, params).await,
            Backend::Postgres(db) => Box::pin(db.rows(sql, params)).await,
        }
    }

    /// The row of a lookup by a unique key (primary key, token hash, idempotency key): at most
    /// one row and bounded work, so SQLite runs it inline on the async worker instead of paying
    /// `block_in_place`'s thread handover. Anything that may scan goes through [`Self::row`].
    /// The text is a constant: SQLite keeps the statement by its address.
    pub async fn find(&self, sql: &'static str, params: &[Param]) -> StoreResult<Option<Row>> {
        match self {
            Backend::Sqlite(db) => db.find(sql, params).await,
            Backend::Postgres(db) => Ok(Box::pin(db.rows(sql, params)).await?.into_iter().next()),
        }
    }

    /// Runs one statement on its own; returns the rows it changed.
    pub async fn execute(&self, sql: &str, params: &[Param]) -> StoreResult<u64> {
        match self {
            Backend::Sqlite(db) => db.execute(sql, params).await,
            Backend::Postgres(db) => Box::pin(db.execute(sql, params)).await,
        }
    }

    /// Runs the steps in one transaction; false (and nothing written) when a `must_change`
    /// step changed nothing.
    pub async fn write(&self, steps: &[Step]) -> StoreResult<bool> {
        match self {
            Backend::Sqlite(db) => db.write(steps).await,
            Backend::Postgres(db) => Box::pin(db.write(steps)).await,
        }
    }

    /// Opens a unit of work: one transaction that every statement run through it joins, until
    /// it commits or is dropped.
    pub async fn begin(&self) -> StoreResult<Tx> {
        match self {
            Backend::Sqlite(db) => Ok(Tx::Sqlite(db.begin().await?)),
            Backend::Postgres(db) => Ok(Tx::Postgres(Box::pin(db.begin()).await?)),
        }
    }

    /// Refreshes the query planner's statistics (`ANALYZE`, in each dialect's form).
    pub async fn analyze(&self) -> StoreResult<()> {
        match self {
            Backend::Sqlite(db) => db.analyze().await,
            Backend::Postgres(db) => db.analyze().await,
        }
    }

    /// Enters (`on`) or leaves the settings of a bulk load on this process's connections.
    pub async fn bulk_load(&self, on: bool) -> StoreResult<()> {
        match self {
            Backend::Sqlite(db) => db.bulk_load(on).await,
            Backend::Postgres(db) => db.bulk_load(on).await,
        }
    }

    /// A listener for tokens revoked by any process, on PostgreSQL; `None` on SQLite, where
    /// one process serves.
    pub fn revocations(&self) -> Option<postgres::Revocations> {
        match self {
            Backend::Sqlite(_) => None,
            Backend::Postgres(db) => Some(db.revocations()),
        }
    }

    /// Whether this is PostgreSQL.
    pub fn is_postgres(&self) -> bool {
        matches!(self, Backend::Postgres(_))
    }
}

/// An open transaction of either database (a unit of work's).
pub enum Tx {
    /// On SQLite's writer.
    Sqlite(sqlite::Tx),
    /// On a PostgreSQL connection of its own.
    Postgres(postgres::Tx),
}

impl Tx {
    /// The rows of a query, inside the transaction.
    pub async fn rows(&mut self, sql: &str, params: &[Param]) -> StoreResult<Vec<Row>> {
        match self {
            Tx::Sqlite(tx) => tx.rows(sql, params),
            Tx::Postgres(tx) => Box::pin(tx.rows(sql, params)).await,
        }
    }

    /// The row of a lookup by a unique key inside the transaction (see [`Backend::find`]).
    pub async fn find(&mut self, sql: &str, params: &[Param]) -> StoreResult<Option<Row>> {
        match self {
            Tx::Sqlite(tx) => tx.find(sql, params),
            Tx::Postgres(tx) => Ok(Box::pin(tx.rows(sql, params)).await?.into_iter().next()),
        }
    }

    /// Runs one statement inside the transaction; the rows it changed.
    pub async fn execute(&mut self, sql: &str, params: &[Param]) -> StoreResult<u64> {
        match self {
            Tx::Sqlite(tx) => tx.execute(sql, params),
            Tx::Postgres(tx) => Box::pin(tx.execute(sql, params)).await,
        }
    }

    /// Runs the steps as one part of the transaction: false, and those steps undone, when a
    /// `must_change` step changed nothing.
    pub async fn write(&mut self, steps: &[Step]) -> StoreResult<bool> {
        match self {
            Tx::Sqlite(tx) => tx.write(steps),
            Tx::Postgres(tx) => Box::pin(tx.write(steps)).await,
        }
    }

    /// Commits.
    pub async fn commit(self) -> StoreResult<()> {
        match self {
            Tx::Sqlite(tx) => tx.commit().await,
            Tx::Postgres(tx) => Box::pin(tx.commit()).await,
        }
    }

    /// Rolls back, without waiting where it cannot (a drop): at once on SQLite; on PostgreSQL
    /// by a task of its own, so the connection's locks go now rather than at its next use.
    pub fn abandon(self) {
        match self {
            Tx::Sqlite(tx) => drop(tx),
            Tx::Postgres(tx) => match tokio::runtime::Handle::try_current() {
                Ok(runtime) => {
                    runtime.spawn(async move {
                        if let Err(e) = tx.rollback().await {
                            tracing::warn!(error = %e, "rolling back an abandoned unit of work failed");
                        }
                    });
                }
                Err(_) => drop(tx),
            },
        }
    }

    /// Rolls back and waits for it.
    pub async fn rollback(self) -> StoreResult<()> {
        match self {
            Tx::Sqlite(tx) => tx.rollback().await,
            Tx::Postgres(tx) => tx.rollback().await,
        }
    }
}

pub use postgres::STATEMENT_LIMIT;
#[cfg(test)]
pub use postgres::commit_failed as postgres_commit_failed;
pub use postgres::is_unique_violation as postgres_unique_violation;
pub use postgres::outage as postgres_outage;
pub use postgres::{Revocation, Revocations};
#[cfg(test)]
pub use sqlite::commit_failed as sqlite_commit_failed;
pub use sqlite::is_unique_violation as sqlite_unique_violation;
pub use sqlite::outage as sqlite_outage;
