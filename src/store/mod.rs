//! Database access (sqlx, runtime queries, portable SQL), one module per aggregate. Knows
//! nothing of HTTP; every query is scoped by organization.

mod charges;
mod columns;
mod debtors;
mod events;
mod idempotency;
mod listing;
mod orgs;
mod secrets;
mod tokens;

use std::str::FromStr;
use std::time::Duration;

use sqlx::SqlitePool;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions};

pub use charges::ChargeFilter;
pub use debtors::DebtorFilter;
pub use events::NewEvent;
pub use idempotency::IdempotencyRecord;
pub use listing::ListWindow;
pub use orgs::OrganizationRow;
pub use tokens::{NewToken, TokenRow};

/// Failures of the store.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database refused or failed.
    #[error("database error: {0}")]
    Database(#[from] sqlx::Error),
    /// A migration failed.
    #[error("migration failed: {0}")]
    Migration(#[from] sqlx::migrate::MigrateError),
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
    #[error("unsupported database URL (expected sqlite://…)")]
    UnsupportedUrl,
}

/// The result of a store call.
pub type StoreResult<T> = Result<T, StoreError>;

/// A handle on the database (cheap to clone).
#[derive(Clone)]
pub struct Store {
    pool: SqlitePool,
}

impl Store {
    /// Opens (creating it if needed) and migrates the database at `url`.
    pub async fn open(url: &str) -> StoreResult<Self> {
        let path = url
            .strip_prefix("sqlite://")
            .or_else(|| url.strip_prefix("sqlite:"))
            .ok_or(StoreError::UnsupportedUrl)?;
        let in_memory = path.starts_with(":memory:");
        if !in_memory
            && let Some(dir) = std::path::Path::new(path.split('?').next().unwrap_or(path)).parent()
            && !dir.as_os_str().is_empty()
        {
            std::fs::create_dir_all(dir).map_err(|e| StoreError::Database(sqlx::Error::Io(e)))?;
        }
        if !in_memory {
            create_private(std::path::Path::new(path.split('?').next().unwrap_or(path)))
                .map_err(|e| StoreError::Database(sqlx::Error::Io(e)))?;
        }
        let options = SqliteConnectOptions::from_str(url)?
            .create_if_missing(true)
            .foreign_keys(true)
            .journal_mode(if in_memory { SqliteJournalMode::Memory } else { SqliteJournalMode::Wal })
            .busy_timeout(Duration::from_secs(10));
        let pool = SqlitePoolOptions::new()
            .max_connections(if in_memory { 1 } else { 8 })
            .connect_with(options)
            .await?;
        sqlx::migrate!("migrations/sqlite").run(&pool).await?;
        Ok(Self { pool })
    }
}

/// Creates the database file readable by its owner only, if it does not exist: it holds the
/// token hashes and the confirmation keys, and SQLite gives its -wal and -shm files the same mode.
fn create_private(path: &std::path::Path) -> std::io::Result<()> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    match options.open(path) {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(e),
    }
}

/// Whether an error is a unique-constraint violation.
fn is_unique_violation(err: &sqlx::Error) -> bool {
    matches!(err, sqlx::Error::Database(db) if db.is_unique_violation())
}
