//! Database access, one module per aggregate, over SQLite (rusqlite) or PostgreSQL (sqlx) with
//! the same SQL text. Knows nothing of HTTP; every query is scoped by organization.

mod agreements;
mod approvals;
mod backend;
mod bulk;
mod charges;
mod columns;
mod credit_bureau_reports;
mod debtors;
mod escalations;
mod events;
mod exports;
mod idempotency;
mod listing;
mod migrations;
mod notifications;
mod oauth;
mod orgs;
mod payments;
mod policies;
mod portfolio;
mod printed;
mod protests;
mod readiness;
pub mod search;
mod secrets;
mod tokens;
mod unit;
mod users;
mod value;
mod webhooks;

#[cfg(test)]
mod group_commit_tests;
#[cfg(test)]
mod upgrade_tests;

use std::time::Duration;

use backend::Backend;
use unit::Db;

pub use agreements::AgreementFilter;
/// The longest a request's statement runs on PostgreSQL.
pub use backend::STATEMENT_LIMIT;
pub use charges::ChargeFilter;
pub use debtors::DebtorFilter;
pub use escalations::{Stored, taken_back};
pub use events::{EventFilter, EventRow, NewEvent};
pub use exports::{ExportCursor, ExportPage};
pub use idempotency::{IDEMPOTENCY_RETENTION, IdempotencyRecord};
pub use listing::{EscalationFilter, ListWindow};
pub use notifications::{Lease, NotificationFilter, NotificationPage};
pub use oauth::{ClientRow, CodeRow, GrantRow, NewCode, NewRefresh, OAuthPurged, RefreshRow};
pub use orgs::OrganizationRow;
pub use policies::PolicyFilter;
pub use portfolio::{PortfolioBounds, PortfolioFigures, Tally};
pub use printed::PrintedText;
pub use readiness::Readiness;
pub use tokens::{NewToken, Revocation, Revocations, TokenListing, TokenRow};
pub use unit::Unit;
pub use users::UserRow;
pub use webhooks::DeliveryFilter;

/// The longest a request waits for a database connection or the write lock, by default.
pub const DEFAULT_WAIT: Duration = Duration::from_secs(2);

/// Why the database cannot take a request now, through no fault of the request: answered
/// `503 UNAVAILABLE` with this as the reason, and retried later by the caller.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outage {
    /// It cannot be reached (down, restarting, the network or the file gone).
    Unreachable,
    /// It is taken by other work for longer than a request waits.
    Busy,
    /// Its disk is full: nothing can be written.
    DiskFull,
    /// It takes no writes (a read-only file or a standby server).
    ReadOnly,
}

impl Outage {
    /// The reason as the error's details name it.
    pub fn reason(self) -> &'static str {
        match self {
            Outage::Unreachable => "database_unreachable",
            Outage::Busy => "database_busy",
            Outage::DiskFull => "disk_full",
            Outage::ReadOnly => "read_only",
        }
    }

    /// Seconds a caller should wait before retrying.
    pub fn retry_after(self) -> u32 {
        match self {
            Outage::Unreachable | Outage::Busy => 2,
            Outage::DiskFull | Outage::ReadOnly => 30,
        }
    }
}

/// Failures of the store.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// SQLite refused or failed.
    #[error("database error: {0}")]
    Sqlite(rusqlite::Error),
    /// PostgreSQL refused or failed.
    #[error("database error: {0}")]
    Postgres(sqlx::Error),
    /// The database cannot take the request now (the cause is for the log).
    #[error("database unavailable ({reason}): {1}", reason = .0.reason())]
    Unavailable(Outage, String),
    /// The database failed after a commit was sent: the transaction may or may not have
    /// committed (the cause is for the log).
    #[error("database unavailable ({reason}) after the commit was sent: {1}", reason = .0.reason())]
    OutcomeUnknown(Outage, String),
    /// A unit of work was used after it ended, or opened inside another (a bug in the caller).
    #[error("the unit of work has ended")]
    UnitEnded,
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

impl From<rusqlite::Error> for StoreError {
    fn from(err: rusqlite::Error) -> Self {
        match backend::sqlite_outage(&err) {
            Some(outage) => StoreError::Unavailable(outage, err.to_string()),
            None => StoreError::Sqlite(err),
        }
    }
}

impl From<sqlx::Error> for StoreError {
    fn from(err: sqlx::Error) -> Self {
        match backend::postgres_outage(&err) {
            Some(outage) => StoreError::Unavailable(outage, err.to_string()),
            None => StoreError::Postgres(err),
        }
    }
}

impl StoreError {
    /// The outage this failure is, if it is one.
    pub fn outage(&self) -> Option<Outage> {
        match self {
            StoreError::Unavailable(outage, _) | StoreError::OutcomeUnknown(outage, _) => Some(*outage),
            _ => None,
        }
    }

    /// Whether the database undid the transaction because it ran against another (a deadlock,
    /// or a serialization failure): nothing was written, and the request can be retried.
    pub fn is_contention(&self) -> bool {
        match self {
            StoreError::Postgres(sqlx::Error::Database(db)) => {
                matches!(db.code().as_deref(), Some("40P01") | Some("40001"))
            }
            _ => false,
        }
    }

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

/// A handle on the database (cheap to clone), or on a unit of work's transaction
/// ([`Store::begin`]).
#[derive(Clone)]
pub struct Store {
    db: Db,
}

impl Store {
    /// Opens (creating it if needed) and migrates the database at `url`: `sqlite://path`,
    /// `sqlite::memory:` or `postgres://…`.
    pub async fn open(url: &str) -> StoreResult<Self> {
        Self::open_with(url, DEFAULT_WAIT).await
    }

    /// [`Store::open`], a request waiting at most `wait` for a connection or the write lock.
    pub async fn open_with(url: &str, wait: Duration) -> StoreResult<Self> {
        Ok(Self { db: Db::new(Backend::open(url, wait, false).await?) })
    }

    /// [`Store::open_with`] for the background thread (`engine::background`): on PostgreSQL a
    /// smaller pool of its own.
    pub async fn open_for_background(url: &str, wait: Duration) -> StoreResult<Self> {
        Ok(Self { db: Db::new(Backend::open(url, wait, true).await?) })
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ApiError;

    fn sqlite_failure(code: std::ffi::c_int) -> StoreError {
        rusqlite::Error::SqliteFailure(rusqlite::ffi::Error::new(code), None).into()
    }

    #[test]
    fn outages_are_told_from_the_requests_own_failures() {
        use rusqlite::ffi::*;
        assert_eq!(sqlite_failure(SQLITE_FULL).outage(), Some(Outage::DiskFull));
        assert_eq!(sqlite_failure(SQLITE_READONLY).outage(), Some(Outage::ReadOnly));
        assert_eq!(sqlite_failure(SQLITE_BUSY).outage(), Some(Outage::Busy));
        assert_eq!(sqlite_failure(SQLITE_IOERR).outage(), Some(Outage::Unreachable));
        assert_eq!(sqlite_failure(SQLITE_CONSTRAINT_UNIQUE).outage(), None);
        assert!(sqlite_failure(SQLITE_CONSTRAINT_UNIQUE).is_unique_violation());
        assert_eq!(StoreError::from(sqlx::Error::PoolTimedOut).outage(), Some(Outage::Unreachable));
        // The pool closes while the server shuts down: a retry reaches another replica.
        assert_eq!(StoreError::from(sqlx::Error::PoolClosed).outage(), Some(Outage::Unreachable));
        let refused = std::io::Error::from(std::io::ErrorKind::ConnectionRefused);
        assert_eq!(StoreError::from(sqlx::Error::Io(refused)).outage(), Some(Outage::Unreachable));
        assert_eq!(StoreError::from(sqlx::Error::RowNotFound).outage(), None);
    }

    #[test]
    fn an_outage_is_a_503_that_names_its_reason_and_when_to_retry() {
        let err = ApiError::from(sqlite_failure(rusqlite::ffi::SQLITE_FULL));
        assert_eq!(err.status().as_u16(), 503);
        assert_eq!(err.code(), "UNAVAILABLE");
        assert_eq!(err.details(), serde_json::json!({ "reason": "disk_full", "retry_after": 30 }));
        assert_eq!(err.headers(), vec![("Retry-After", "30".to_string())]);
        assert!(!err.kept_under_key(), "nothing committed: the retry runs the request");
        // The cause is for the log; the caller reads no internals.
        let body = err.body("req_1").to_string();
        assert!(!body.contains("database or disk is full"), "{body}");
        let internal = ApiError::from(sqlite_failure(rusqlite::ffi::SQLITE_MISMATCH));
        assert_eq!(internal.status().as_u16(), 500);
    }

    #[test]
    fn a_connection_lost_after_commit_was_sent_is_an_unknown_outcome_not_nothing_done() {
        let lost = || sqlx::Error::Io(std::io::Error::from(std::io::ErrorKind::ConnectionReset));
        // Before the commit: nothing was done, and the words say so.
        let before = ApiError::from(StoreError::from(lost()));
        assert!(before.to_string().contains("nothing was done"), "{before}");
        // After it was sent: the unit may have committed.
        let after = ApiError::from(backend::postgres_commit_failed(lost()));
        assert_eq!((after.status().as_u16(), after.code()), (503, "UNAVAILABLE"));
        let message = after.to_string();
        assert!(!message.contains("nothing was done"), "{message}");
        assert!(message.contains("unknown") && message.contains("same Idempotency-Key"), "{message}");
        assert_eq!(
            after.details(),
            serde_json::json!({ "reason": "database_unreachable", "retry_after": 2, "outcome": "unknown" })
        );
        assert_eq!(after.headers(), vec![("Retry-After", "2".to_string())]);
        assert!(!after.kept_under_key(), "the retry finds what committed, or runs it");
        // An I/O failure of SQLite's COMMIT (a failed sync) may follow the commit too.
        let synced =
            rusqlite::Error::SqliteFailure(rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_IOERR), None);
        assert!(matches!(backend::sqlite_commit_failed(synced), StoreError::OutcomeUnknown(..)));
        let busy =
            rusqlite::Error::SqliteFailure(rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_BUSY), None);
        assert!(matches!(backend::sqlite_commit_failed(busy), StoreError::Unavailable(Outage::Busy, _)));
    }
}
