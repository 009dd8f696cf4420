//! PostgreSQL through sqlx: async all the way (no thread hop), statements prepared once per
//! connection by sqlx's cache. Migrations run under an advisory lock, so replicas starting
//! together apply each exactly once.

use std::sync::Arc;
use std::time::Duration;

use sqlx::postgres::{PgArguments, PgConnectOptions, PgListener, PgPool, PgPoolOptions, PgRow};
use sqlx::{Column, Executor, Row as _, TypeInfo, ValueRef};

use super::Step;
use crate::store::migrations::MIGRATIONS;
use crate::store::value::{Param, Row};
use crate::store::{Outage, StoreError, StoreResult};

/// Connections of a replica's pool for its requests.
pub const CONNECTIONS: u32 = 16;
/// Connections of the pool of a replica's background thread (`engine::background`): its one
/// pass at a time and its webhook attempts.
pub const BACKGROUND_CONNECTIONS: u32 = 8;
/// The channel a revoked or deleted token's hash is announced on (migration 0005's trigger).
const REVOKED_CHANNEL: &str = "kd_token_revoked";
/// The longest wait between two attempts to listen again.
const MAX_RETRY: Duration = Duration::from_secs(5);

/// The longest a request's statement runs: past it PostgreSQL cancels it (57014, a 503).
pub const STATEMENT_LIMIT: Duration = Duration::from_secs(5);
/// The same for the background thread, whose passes and export pages may read many rows.
pub const BACKGROUND_STATEMENT_LIMIT: Duration = Duration::from_secs(300);

/// An open PostgreSQL database.
pub struct Postgres {
    pool: PgPool,
    /// The longest a statement's answer is waited for once sent: its statement limit plus the
    /// request's wait. A server that is frozen (stopped, its host hung) cancels nothing, and
    /// TCP keeps a silent connection open for good, so the client stops waiting itself.
    deadline: Duration,
}

/// Why the database did not answer in time.
fn silent(deadline: Duration) -> StoreError {
    let why = format!("no answer within {} ms", deadline.as_millis());
    StoreError::Unavailable(Outage::Unreachable, why)
}

/// `work`, given up after `deadline`.
async fn bounded<T, E: Into<StoreError>>(
    deadline: Duration,
    work: impl Future<Output = Result<T, E>>,
) -> StoreResult<T> {
    match tokio::time::timeout(deadline, work).await {
        Ok(done) => done.map_err(Into::into),
        Err(_) => Err(silent(deadline)),
    }
}

/// A statement that commits once sent (a COMMIT, or one run on its own), given up after
/// `deadline`. The server's own refusal means it rolled back and keeps its meaning; a
/// connection that failed or fell silent leaves the outcome unknown.
async fn committing<T>(
    deadline: Duration,
    work: impl Future<Output = Result<T, sqlx::Error>>,
) -> StoreResult<T> {
    match tokio::time::timeout(deadline, work).await {
        Ok(Ok(done)) => Ok(done),
        Ok(Err(err)) => Err(commit_failed(err)),
        Err(_) => Err(StoreError::OutcomeUnknown(Outage::Unreachable, silent(deadline).to_string())),
    }
}

/// What a failure of a statement already sent that commits means (see [`committing`]).
pub fn commit_failed(err: sqlx::Error) -> StoreError {
    let refused = matches!(&err, sqlx::Error::Database(db)
        if db.code().is_some_and(|c| !c.starts_with("08") && !c.starts_with("57P")));
    if refused {
        return err.into();
    }
    let outage = outage(&err).unwrap_or(Outage::Unreachable);
    StoreError::OutcomeUnknown(outage, err.to_string())
}

type Query<'q> = sqlx::query::Query<'q, sqlx::Postgres, PgArguments>;

fn prepare<'q>(sql: &str, params: &[Param]) -> Query<'q> {
    let mut query = sqlx::query(sqlx::AssertSqlSafe(sql.to_string()));
    for p in params {
        query = match p {
            Param::Text(v) => query.bind(v.clone()),
            Param::Int(v) => query.bind(*v),
        };
    }
    query
}

fn to_row(row: &PgRow, names: &mut Option<Arc<[String]>>) -> StoreResult<Row> {
    let names =
        names.get_or_insert_with(|| row.columns().iter().map(|c| c.name().to_string()).collect()).clone();
    let mut out = Row::with_names(names);
    for (i, column) in row.columns().iter().enumerate() {
        if row.try_get_raw(i)?.is_null() {
            out.push_null();
            continue;
        }
        match column.type_info().name() {
            "INT8" => out.push_int(row.try_get::<i64, _>(i)?),
            "INT4" => out.push_int(i64::from(row.try_get::<i32, _>(i)?)),
            "INT2" => out.push_int(i64::from(row.try_get::<i16, _>(i)?)),
            "BOOL" => out.push_int(i64::from(row.try_get::<bool, _>(i)?)),
            "TEXT" | "VARCHAR" | "BPCHAR" | "NAME" => out.push_text(row.try_get::<&str, _>(i)?),
            _ => return Err(StoreError::CorruptColumn(column.name().to_string())),
        }
    }
    Ok(out)
}

impl Postgres {
    /// Connects and migrates. A request waits at most `wait` for a connection: past it the
    /// database is unreachable or saturated (503), never a hang.
    pub async fn open(
        url: &str,
        wait: Duration,
        connections: u32,
        statement_limit: Duration,
    ) -> StoreResult<Self> {
        // A statement waits for a row lock (another transaction's write) no longer than for a
        // connection: past it, PostgreSQL cancels it (55P03) and the request is a 503. Nor
        // runs longer than its limit (57014, a 503 too).
        let options = url.parse::<PgConnectOptions>()?.options([
            ("lock_timeout", format!("{}ms", wait.as_millis().max(1))),
            ("statement_timeout", format!("{}ms", statement_limit.as_millis().max(1))),
        ]);
        let pool = PgPoolOptions::new()
            .max_connections(connections)
            .acquire_timeout(wait)
            .connect_with(options)
            .await?;
        migrate(&pool).await?;
        Ok(Self { pool, deadline: statement_limit + wait })
    }

    /// A connection, waited for at most the pool's wait (its acquire timeout).
    async fn connection(&self) -> StoreResult<sqlx::pool::PoolConnection<sqlx::Postgres>> {
        Ok(self.pool.acquire().await?)
    }

    /// The rows of a query.
    pub async fn rows(&self, sql: &str, params: &[Param]) -> StoreResult<Vec<Row>> {
        let mut conn = self.connection().await?;
        let rows = bounded(self.deadline, prepare(sql, params).fetch_all(&mut *conn)).await?;
        let mut names = None;
        rows.iter().map(|r| to_row(r, &mut names)).collect()
    }

    /// Runs one statement: it commits on its own once sent.
    pub async fn execute(&self, sql: &str, params: &[Param]) -> StoreResult<u64> {
        let mut conn = self.connection().await?;
        Ok(committing(self.deadline, prepare(sql, params).execute(&mut *conn)).await?.rows_affected())
    }

    /// Refreshes the planner's statistics (after a bulk load, before autovacuum gets to it).
    /// Not a request's work: a large database takes longer than a statement's limit.
    pub async fn analyze(&self) -> StoreResult<()> {
        let mut conn = self.connection().await?;
        conn.execute("SET statement_timeout = 0").await?;
        let analyzed = conn.execute("ANALYZE").await;
        conn.execute("RESET statement_timeout").await?;
        analyzed?;
        Ok(())
    }

    /// A listener for revoked tokens, on a connection of its own (taken from the pool).
    pub fn revocations(&self) -> Revocations {
        Revocations { pool: self.pool.clone(), listener: None, failures: 0 }
    }

    /// Nothing to set for a bulk load: the statements already carry 500 rows each, and the
    /// server's settings are the operator's.
    pub async fn bulk_load(&self, _on: bool) -> StoreResult<()> {
        Ok(())
    }

    /// Runs the steps in one transaction.
    pub async fn write(&self, steps: &[Step]) -> StoreResult<bool> {
        let mut tx = bounded(self.deadline, self.pool.begin()).await?;
        if !run_steps(&mut tx, self.deadline, steps).await? {
            bounded(self.deadline, tx.rollback()).await?;
            return Ok(false);
        }
        committing(self.deadline, tx.commit()).await?;
        Ok(true)
    }

    /// Opens a unit of work: a transaction on a connection of its own until it commits or is
    /// dropped (sqlx then rolls it back before the connection serves anyone else).
    pub async fn begin(&self) -> StoreResult<Tx> {
        // The pool's acquire timeout bounds the wait for a connection; the deadline, BEGIN.
        let tx = bounded(self.deadline, self.pool.begin()).await?;
        Ok(Tx { tx, deadline: self.deadline, lost: false })
    }
}

/// A unit of work: an open transaction. A statement given up on (see [`Postgres::deadline`])
/// leaves the transaction uncommitted: dropped, sqlx rolls it back before the connection
/// serves anyone else.
pub struct Tx {
    tx: sqlx::Transaction<'static, sqlx::Postgres>,
    deadline: Duration,
    /// Whether its connection failed or fell silent: a rollback would only wait again.
    lost: bool,
}

impl Tx {
    /// Notes a connection that failed or fell silent.
    fn heard<T>(&mut self, result: StoreResult<T>) -> StoreResult<T> {
        if matches!(result, Err(StoreError::Unavailable(Outage::Unreachable, _))) {
            self.lost = true;
        }
        result
    }

    /// The rows of a query, inside the transaction.
    pub async fn rows(&mut self, sql: &str, params: &[Param]) -> StoreResult<Vec<Row>> {
        let rows = bounded(self.deadline, prepare(sql, params).fetch_all(&mut *self.tx)).await;
        let rows = self.heard(rows)?;
        let mut names = None;
        rows.iter().map(|r| to_row(r, &mut names)).collect()
    }

    /// Runs one statement inside the transaction.
    pub async fn execute(&mut self, sql: &str, params: &[Param]) -> StoreResult<u64> {
        let done = bounded(self.deadline, prepare(sql, params).execute(&mut *self.tx)).await;
        Ok(self.heard(done)?.rows_affected())
    }

    /// Runs the steps under a savepoint: false, and the steps undone (the rest of the unit
    /// kept), when a `must_change` step changed nothing.
    pub async fn write(&mut self, steps: &[Step]) -> StoreResult<bool> {
        let done = Self::steps(&mut self.tx, self.deadline, steps).await;
        self.heard(done)
    }

    async fn steps(conn: &mut sqlx::PgConnection, deadline: Duration, steps: &[Step]) -> StoreResult<bool> {
        let mut savepoint = bounded(deadline, sqlx::Connection::begin(&mut *conn)).await?;
        if !run_steps(&mut savepoint, deadline, steps).await? {
            bounded(deadline, savepoint.rollback()).await?;
            return Ok(false);
        }
        bounded(deadline, savepoint.commit()).await?;
        Ok(true)
    }

    /// Commits the unit. Once COMMIT is sent, a connection that fails or falls silent leaves
    /// the outcome unknown ([`StoreError::OutcomeUnknown`]), never "nothing was done".
    pub async fn commit(self) -> StoreResult<()> {
        committing(self.deadline, self.tx.commit()).await
    }

    /// Rolls the unit back now, releasing its locks (a dropped transaction would only queue
    /// its rollback for the connection's next use, and keep its advisory locks until then).
    /// On a lost connection it does not wait: sqlx rolls the transaction back before the
    /// connection serves again, or closes it.
    pub async fn rollback(self) -> StoreResult<()> {
        if self.lost {
            return Ok(());
        }
        bounded(self.deadline, self.tx.rollback()).await
    }
}

/// Runs the steps in order, each given up after `deadline` (a silent database, not a long list:
/// a bulk load writes hundreds of statements in one transaction); false as soon as a
/// `must_change` step changed nothing.
async fn run_steps(conn: &mut sqlx::PgConnection, deadline: Duration, steps: &[Step]) -> StoreResult<bool> {
    for step in steps {
        let done = bounded(deadline, prepare(&step.sql, &step.params).execute(&mut *conn)).await?;
        if done.rows_affected() == 0 && step.must_change {
            return Ok(false);
        }
    }
    Ok(true)
}

/// What a revocation listener hears.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Revocation {
    /// The token with this hash was revoked or deleted (the transaction has committed).
    Revoked(String),
    /// The listener (re)started listening, or lost its connection: whatever was announced
    /// meanwhile is lost, so any token may have been revoked.
    Unknown,
}

/// Hears the tokens revoked by any process on the database (LISTEN kd_token_revoked).
pub struct Revocations {
    pool: PgPool,
    listener: Option<PgListener>,
    failures: u32,
}

impl Revocations {
    /// The next revocation, or [`Revocation::Unknown`] when listening (re)starts or stops.
    /// Reconnects by itself, waiting longer after each failure (up to 5 s); never ends.
    pub async fn next(&mut self) -> Revocation {
        loop {
            if self.pool.is_closed() {
                // The store is shutting down: nothing more will be announced, and retrying
                // would only log every few seconds until the task is dropped.
                return std::future::pending().await;
            }
            let Some(listener) = self.listener.as_mut() else {
                if self.failures > 0 {
                    let wait = Duration::from_millis(100 << self.failures.min(6)).min(MAX_RETRY);
                    tokio::time::sleep(wait).await;
                }
                match self.listen().await {
                    Ok(listener) => {
                        self.listener = Some(listener);
                        self.failures = 0;
                        return Revocation::Unknown;
                    }
                    Err(e) => {
                        self.failures = self.failures.saturating_add(1);
                        tracing::warn!(error = %e, "cannot listen for revoked tokens; retrying");
                        continue;
                    }
                }
            };
            match listener.try_recv().await {
                Ok(Some(notification)) => return Revocation::Revoked(notification.payload().to_string()),
                // The connection dropped and sqlx reconnected and listens again; what was
                // announced in between is lost.
                Ok(None) => return Revocation::Unknown,
                Err(e) => {
                    tracing::warn!(error = %e, "the revoked-token listener lost its connection");
                    self.listener = None;
                    self.failures = 1;
                    return Revocation::Unknown;
                }
            }
        }
    }

    async fn listen(&self) -> Result<PgListener, sqlx::Error> {
        let mut listener = PgListener::connect_with(&self.pool).await?;
        listener.listen(REVOKED_CHANNEL).await?;
        Ok(listener)
    }
}

/// Applies the migrations not yet in `_sqlx_migrations` with sqlx's own migrator (its table,
/// checksums and advisory lock). Versions this binary does not know are left alone, so an
/// older binary still opens a database a newer one migrated.
async fn migrate(pool: &PgPool) -> StoreResult<()> {
    use sqlx::SqlSafeStr;
    use sqlx::migrate::{Migration as SqlxMigration, MigrationType, Migrator};
    let mut migrator = Migrator::with_migrations(
        MIGRATIONS
            .iter()
            .map(|m| {
                let sql = sqlx::AssertSqlSafe(m.postgres).into_sql_str();
                SqlxMigration::new(m.version, m.description.into(), MigrationType::Simple, sql, false)
            })
            .collect(),
    );
    migrator.set_ignore_missing(true);
    let mut conn = pool.acquire().await?;
    // Another replica may hold the lock for as long as its migrations take, and a migration
    // may wait for tables in use or rewrite a large table: no lock or statement timeout here
    // (RESET gives the connection its own back).
    conn.execute("SET lock_timeout = 0; SET statement_timeout = 0").await?;
    let result = migrator.run(&mut *conn).await;
    conn.execute("RESET lock_timeout; RESET statement_timeout").await?;
    // PostgreSQL support came with the search keys (0003), so no stored row lacks them.
    result.map_err(|e| StoreError::Migration(e.to_string()))
}

/// The outage an error means, if it is one: the server cannot be reached or cannot take the
/// request now (shutting down, too many connections, disk full, read-only), through no fault
/// of the request.
pub fn outage(err: &sqlx::Error) -> Option<Outage> {
    match err {
        sqlx::Error::Io(_)
        | sqlx::Error::Tls(_)
        | sqlx::Error::PoolTimedOut
        | sqlx::Error::PoolClosed
        | sqlx::Error::WorkerCrashed => Some(Outage::Unreachable),
        sqlx::Error::Database(db) => {
            let code = db.code()?;
            match code.as_ref() {
                "53100" => Some(Outage::DiskFull),
                "25006" => Some(Outage::ReadOnly),
                "53300" | "55P03" | "57014" => Some(Outage::Busy),
                // Connection exceptions (class 08) and the server shutting down or starting.
                c if c.starts_with("08") || c.starts_with("57P") => Some(Outage::Unreachable),
                _ => None,
            }
        }
        _ => None,
    }
}

/// Whether an error is a unique-constraint violation.
pub fn is_unique_violation(err: &sqlx::Error) -> bool {
    matches!(err, sqlx::Error::Database(db) if db.is_unique_violation())
}
