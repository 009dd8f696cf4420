//! Database access, one module per aggregate, over SQLite (rusqlite) or PostgreSQL (sqlx) with
//! the same SQL text. Knows nothing of HTTP; every query is scoped by organization.

mod approvals;
mod backend;
mod bulk;
mod charges;
mod columns;
mod debtors;
mod events;
mod idempotency;
mod listing;
mod migrations;
mod notifications;
mod oauth;
mod orgs;
mod policies;
pub mod search;
mod secrets;
mod tokens;
mod users;
mod value;

#[cfg(test)]
mod upgrade_tests;

use std::sync::Arc;

use backend::Backend;

pub use charges::ChargeFilter;
pub use debtors::DebtorFilter;
pub use events::{EventFilter, EventRow, NewEvent};
pub use idempotency::IdempotencyRecord;
pub use listing::ListWindow;
pub use notifications::{Lease, NotificationFilter};
pub use oauth::{ClientRow, CodeRow, GrantRow, NewCode, NewRefresh, OAuthPurged, RefreshRow};
pub use orgs::OrganizationRow;
pub use policies::PolicyFilter;
pub use tokens::{NewToken, Revocation, Revocations, TokenListing, TokenRow};
pub use users::UserRow;

/// Failures of the store.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// SQLite refused or failed.
    #[error("database error: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// PostgreSQL refused or failed.
    #[error("database error: {0}")]
    Postgres(#[from] sqlx::Error),
    /// The database file or its folder could not be made.
    #[error("database file: {0}")]
    Io(#[from] std::io::Error),
    /// A migration failed.
    #[error("migration failed: {0}")]
    Migration(String),
    /// A statement names a parameter it was not given (a bug in the store).
    #[error("statement parameter {0} has no value")]
    Parameter(String),
    /// The connection pool is gone (the process is stopping).
    #[error("database connections closed")]
    Closed,
    /// A unique value is already taken (the message says which, for the caller).
    #[error("{0}")]
    Duplicate(String),
    /// A stored JSON column does not parse.
    #[error("corrupt stored value: {0}")]
    Corrupt(#[from] serde_json::Error),
    /// A stored column does not read back as its type.
    #[error("corrupt stored value in column {0}")]
    CorruptColumn(String),
    /// The database URL is not supported.
    #[error("unsupported database URL (expected sqlite://… or postgres://…)")]
    UnsupportedUrl,
}

impl StoreError {
    /// Whether this is a unique-constraint violation.
    pub fn is_unique_violation(&self) -> bool {
        match self {
            StoreError::Sqlite(e) => backend::sqlite_unique_violation(e),
            StoreError::Postgres(e) => backend::postgres_unique_violation(e),
            _ => false,
        }
    }
}

/// The result of a store call.
pub type StoreResult<T> = Result<T, StoreError>;

/// A handle on the database (cheap to clone).
#[derive(Clone)]
pub struct Store {
    db: Arc<Backend>,
}

impl Store {
    /// Opens (creating it if needed) and migrates the database at `url`: `sqlite://path`,
    /// `sqlite::memory:` or `postgres://…`.
    pub async fn open(url: &str) -> StoreResult<Self> {
        Ok(Self { db: Arc::new(Backend::open(url).await?) })
    }

    /// Whether the database is PostgreSQL.
    pub fn is_postgres(&self) -> bool {
        self.db.is_postgres()
    }

    /// Runs one SQL statement with text parameters (`$1`, `$2`, …): for tests that store what
    /// the API would refuse today but an older server may have stored.
    pub async fn execute_sql(&self, sql: &str, params: &[&str]) -> StoreResult<u64> {
        let params: Vec<value::Param> = params.iter().map(|p| value::Param::from(*p)).collect();
        self.db.execute(sql, &params).await
    }
}
