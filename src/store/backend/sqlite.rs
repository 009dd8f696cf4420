//! SQLite through rusqlite: one writer connection (SQLite takes one writer at a time anyway)
//! and a few readers (WAL lets them read while it writes; `reader.rs`), each with cached prepared
//! statements. There is no hop to another thread per query: a lookup by key (bounded work, a few
//! microseconds on cached pages) runs inline on the async worker that asked for it, and so do a
//! unit of work's writes (it holds the write lock already, and nothing syncs before its batch's
//! COMMIT); a query that may scan, a BEGIN (it may wait for another process) and a COMMIT (it
//! waits for fsync) run on that worker inside `block_in_place`, so the runtime moves the worker's
//! other tasks elsewhere meanwhile. `block_in_place` wakes another thread each time, which costs
//! more than a lookup or a keyed write itself.

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, LazyLock, Mutex};
use std::time::{Duration, Instant};

use rusqlite::types::{ToSqlOutput, Value, ValueRef};
use rusqlite::{Connection, OpenFlags, Statement, TransactionBehavior};
use tokio::runtime::{Handle, RuntimeFlavor};
use tokio::sync::OwnedMutexGuard;

use super::Step;
use crate::store::migrations::{MIGRATIONS, Migration};
use crate::store::value::{Param, Row, RowBytes};
use crate::store::{Outage, StoreError, StoreResult};

mod checkpoint;
mod group;
mod reader;
use checkpoint::Checkpoints;
use group::{Joining, WriterConn};
use reader::Readers;

/// Readers in the pool: enough for the cores this server is meant for.
const READERS: usize = 4;
/// Prepared statements kept per connection (list queries vary with their filters).
const STATEMENT_CACHE: usize = 128;

/// The writer's page cache during a bulk load, in KiB (a negative `cache_size`). Filling a
/// million-row table inserts into half a dozen indexes at random keys; with the default 2 MiB
/// every insert evicted a page that the next one read back. SQLite takes the memory only as
/// pages are touched.
const BULK_CACHE_KIB: i64 = 1024 * 1024;

/// An open SQLite database.
pub struct Sqlite {
    /// Shared with the unit of work that holds it ([`Tx`]) for as long as the unit lasts.
    writer: Arc<tokio::sync::Mutex<WriterConn>>,
    /// Units of work waiting for the writer (group commit: `group.rs`).
    joining: Arc<Joining>,
    /// The longest wait for the writer (held by another request's unit of work) or for
    /// another process's write lock; past it the database is busy (503).
    wait: Duration,
    /// None for an in-memory database, whose connections would each see another database.
    readers: Option<Arc<Readers>>,
    /// The writer's `cache_size` and `synchronous` before a bulk load, restored after it.
    before_bulk: Mutex<Option<(i64, i64)>>,
}

/// Runs blocking database work on this thread without stalling the runtime: on the
/// multi-thread runtime `block_in_place` hands this worker's other tasks to another worker; a
/// current-thread runtime has no other worker (and `block_in_place` would panic), so it runs inline.
fn in_place<R>(work: impl FnOnce() -> R) -> R {
    match Handle::try_current() {
        Ok(handle) if handle.runtime_flavor() == RuntimeFlavor::MultiThread => {
            tokio::task::block_in_place(work)
        }
        _ => work(),
    }
}

fn connect(path: &str, in_memory: bool, wait: Duration) -> StoreResult<Connection> {
    let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
        | OpenFlags::SQLITE_OPEN_CREATE
        | OpenFlags::SQLITE_OPEN_URI
        | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let conn =
        if in_memory { Connection::open_in_memory()? } else { Connection::open_with_flags(path, flags)? };
    conn.busy_timeout(wait)?;
    conn.set_prepared_statement_cache_capacity(STATEMENT_CACHE);
    conn.execute_batch(if in_memory {
        "PRAGMA foreign_keys = ON;"
    } else {
        "PRAGMA foreign_keys = ON; PRAGMA journal_mode = WAL;"
    })?;
    Ok(conn)
}

impl Sqlite {
    /// Opens (creating it, readable by its owner only) and migrates the database at `path`.
    pub async fn open(path: &str, wait: Duration) -> StoreResult<Self> {
        let path = path.split('?').next().unwrap_or(path);
        let in_memory = path.starts_with(":memory:") || path.is_empty();
        if !in_memory {
            let file = Path::new(path);
            if let Some(dir) = file.parent()
                && !dir.as_os_str().is_empty()
            {
                std::fs::create_dir_all(dir)?;
            }
            create_private(file)?;
        }
        let mut writer = connect(path, in_memory, wait)?;
        in_place(|| migrate(&mut writer))?;
        // Table statistics, refreshed where stale (bounded work): without them SQLite takes an
        // organization equality for a selective filter and scans a million rows.
        writer.execute_batch("PRAGMA analysis_limit = 1000; PRAGMA optimize = 0x10002;")?;
        // Each unit's savepoint journals every page it touches (a keyed create, some 30): in a
        // temporary file past 64 KiB, one write(2) a page and a fifth of a create's CPU (perf).
        // In memory it costs no more than the unit itself, and SQLite frees it at each RELEASE.
        // Only the writer: the readers' sorts keep spilling to disk.
        writer.execute_batch("PRAGMA temp_store = MEMORY;")?;
        let (readers, checkpoints) = if in_memory {
            (None, None)
        } else {
            let connections =
                (0..READERS).map(|_| connect(path, false, wait)).collect::<StoreResult<Vec<_>>>()?;
            (
                Some(Readers::new(connections, reader::generation_of(Path::new(path)), wait)),
                Some(Checkpoints::start(&writer, connect(path, false, wait)?)?),
            )
        };
        Ok(Self {
            writer: Arc::new(tokio::sync::Mutex::new(WriterConn::new(writer, checkpoints))),
            joining: Arc::default(),
            wait,
            readers,
            before_bulk: Mutex::new(None),
        })
    }

    /// The writer, waited for at most [`Self::wait`], outside any transaction: an open batch of
    /// units is committed first, and a transaction left open otherwise (a rollback that failed)
    /// is rolled back, so no one writes into another's work.
    async fn writer(&self) -> StoreResult<Writer> {
        let mut writer = self.lock_writer().await?;
        writer.conn.end(self.readers.as_deref());
        if !writer.is_autocommit() {
            writer.execute_batch("ROLLBACK")?;
        }
        Ok(writer)
    }

    /// The writer as its last holder left it, waited for at most [`Self::wait`].
    async fn lock_writer(&self) -> StoreResult<Writer> {
        let asked = Instant::now();
        let conn = match self.writer.clone().try_lock_owned() {
            Ok(conn) => conn,
            Err(_) => {
                // Whoever holds it must not be kept from letting go by its own low priority.
                crate::priority::waiting();
                tokio::time::timeout(self.wait, self.writer.clone().lock_owned())
                    .await
                    .map_err(|_| StoreError::Unavailable(Outage::Busy, "the writer stayed taken".into()))?
            }
        };
        // SQLite's busy handler (another process's write lock) gets what is left of the wait,
        // so the two waits together stay within it.
        conn.conn.busy_timeout(self.wait.saturating_sub(asked.elapsed()))?;
        Ok(Writer { conn, _held: crate::priority::holding() })
    }

    /// Opens a unit of work: a savepoint in the writer's batch (an IMMEDIATE transaction,
    /// begun if none is open), holding the writer until the unit ends (`group.rs`).
    pub async fn begin(&self) -> StoreResult<Tx> {
        let waiting = self.joining.wait();
        let mut conn = self.lock_writer().await?;
        drop(waiting);
        conn.conn.begin_unit(self.readers.as_deref())?;
        Ok(Tx {
            conn: Some(conn),
            writer: self.writer.clone(),
            joining: self.joining.clone(),
            readers: self.readers.clone(),
        })
    }

    /// Sets the writer up for a bulk load (`on`) or back as it was. For the load: a large page
    /// cache, and `synchronous = NORMAL`, which in WAL mode syncs at checkpoints instead of at
    /// every commit (a power cut may lose the last batches, never the database).
    pub async fn bulk_load(&self, on: bool) -> StoreResult<()> {
        let conn = self.writer().await?;
        let mut before = self.before_bulk.lock().map_err(|_| StoreError::Closed)?;
        in_place(|| {
            if on {
                if before.is_none() {
                    let pragma =
                        |name: &str| conn.query_row(&format!("PRAGMA {name}"), [], |r| r.get::<_, i64>(0));
                    *before = Some((pragma("cache_size")?, pragma("synchronous")?));
                }
                conn.execute_batch(&format!(
                    "PRAGMA cache_size = -{BULK_CACHE_KIB}; PRAGMA synchronous = NORMAL;"
                ))?;
            } else if let Some((cache_size, synchronous)) = before.take() {
                conn.execute_batch(&format!(
                    "PRAGMA cache_size = {cache_size}; PRAGMA synchronous = {synchronous}; PRAGMA shrink_memory;"
                ))?;
            }
            Ok(())
        })
    }

    /// The rows of a query, on a reader, inside `block_in_place`.
    pub async fn rows(&self, sql: &str, params: &[Param]) -> StoreResult<Vec<Row>> {
        match &self.readers {
            Some(readers) => {
                readers.with(|reader| in_place(|| query(reader.connection(), sql, params))).await
            }
            None => query(&*self.writer().await?, sql, params),
        }
    }

    /// The row of a lookup by a unique key, on a reader, inline: bounded work. Its text is a
    /// constant, so the reader keeps its statement by the text's address.
    pub async fn find(&self, sql: &'static str, params: &[Param]) -> StoreResult<Option<Row>> {
        match &self.readers {
            Some(readers) => readers.with(|reader| reader.find(sql, params)).await,
            None => Ok(query(&*self.writer().await?, sql, params)?.into_iter().next()),
        }
    }

    /// After the writer ran anything: the readers' snapshots from before it are done.
    fn wrote(&self) {
        if let Some(readers) = &self.readers {
            readers.wrote();
        }
    }

    /// Runs one statement on the writer.
    pub async fn execute(&self, sql: &str, params: &[Param]) -> StoreResult<u64> {
        let mut conn = self.writer().await?;
        let changed = in_place(|| execute(&conn, sql, params));
        conn.conn.committed();
        self.wrote();
        changed
    }

    /// Refreshes the planner's statistics (after a bulk load).
    pub async fn analyze(&self) -> StoreResult<()> {
        let mut conn = self.writer().await?;
        let analyzed = in_place(|| Ok(conn.execute_batch("PRAGMA analysis_limit = 1000; ANALYZE;")?));
        conn.conn.committed();
        self.wrote();
        analyzed
    }

    /// Runs the steps in one IMMEDIATE transaction (the write lock is taken up front, so it
    /// never has to be upgraded midway against another process).
    pub async fn write(&self, steps: &[Step]) -> StoreResult<bool> {
        let mut conn = self.writer().await?;
        let written = in_place(|| {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            if !run_steps(&tx, steps)? {
                // Dropping the transaction rolls it back.
                return Ok(false);
            }
            tx.commit().map_err(commit_failed)?;
            Ok(true)
        });
        conn.conn.committed();
        self.wrote();
        written
    }
}

/// The writer, held; on the background thread it also holds the priority a waiting request may
/// lift (`crate::priority`), until it is let go.
struct Writer {
    conn: OwnedMutexGuard<WriterConn>,
    _held: Option<crate::priority::Held>,
}

impl std::ops::Deref for Writer {
    type Target = Connection;

    fn deref(&self) -> &Connection {
        &self.conn.conn
    }
}

impl std::ops::DerefMut for Writer {
    fn deref_mut(&mut self) -> &mut Connection {
        &mut self.conn.conn
    }
}

/// A unit of work on the writer: a savepoint in the writer's batch, holding the writer (and
/// SQLite's write lock) until the unit ends; dropped, it is rolled back.
pub struct Tx {
    /// Taken when the unit ends.
    conn: Option<Writer>,
    writer: Arc<tokio::sync::Mutex<WriterConn>>,
    joining: Arc<Joining>,
    readers: Option<Arc<Readers>>,
}

impl Tx {
    fn conn(&self) -> StoreResult<&Writer> {
        self.conn.as_ref().ok_or(StoreError::UnitEnded)
    }

    /// The rows of a query, inside the transaction (so it sees the unit's own writes).
    pub fn rows(&self, sql: &str, params: &[Param]) -> StoreResult<Vec<Row>> {
        let conn = self.conn()?;
        in_place(|| query(conn, sql, params))
    }

    /// The row of a lookup by a unique key, inside the transaction, inline: bounded work.
    pub fn find(&self, sql: &str, params: &[Param]) -> StoreResult<Option<Row>> {
        Ok(query(self.conn()?, sql, params)?.into_iter().next())
    }

    /// Runs one statement inside the transaction, inline: the unit holds the write lock
    /// already and nothing syncs before its batch's COMMIT, so a statement is work on cached
    /// pages, which costs less than `block_in_place`'s handover of the worker.
    pub fn execute(&self, sql: &str, params: &[Param]) -> StoreResult<u64> {
        execute(self.conn()?, sql, params)
    }

    /// Runs the steps under a savepoint, inline (as [`Self::execute`]): false, and the steps
    /// undone (the rest of the unit kept), when a `must_change` step changed nothing.
    pub fn write(&mut self, steps: &[Step]) -> StoreResult<bool> {
        let conn = self.conn()?;
        run(conn, BEGIN_STEPS)?;
        let written = run_steps(conn, steps);
        if let Ok(true) = written {
            run(conn, RELEASE_STEPS)?;
        } else {
            // Should undoing them fail, the unit fails: its caller rolls it back whole.
            conn.execute_batch(UNDO_STEPS)?;
        }
        written
    }

    /// Commits the unit: it joins the batch, and this returns once the batch committed.
    pub async fn commit(mut self) -> StoreResult<()> {
        match self.end(true)? {
            Some(done) => group::outcome(done).await,
            None => Err(StoreError::UnitEnded),
        }
    }

    /// Rolls the unit back. When it ran after other units of its batch (and may have read
    /// their writes) this returns once that batch committed, so no answer rests on writes
    /// that are not yet durable.
    pub async fn rollback(mut self) -> StoreResult<()> {
        match self.end(false)? {
            Some(done) => group::outcome(done).await,
            None => Ok(()),
        }
    }

    /// Ends the unit: its savepoint released into the batch (`keep`) or undone. Then the batch
    /// commits at once if no unit waits for the writer; otherwise the writer passes to them,
    /// and the batch's first member queues a flusher behind them. The receiver hears the
    /// batch's outcome when the unit kept its work or the batch holds others' work.
    fn end(&mut self, keep: bool) -> StoreResult<Option<tokio::sync::watch::Receiver<group::Outcome>>> {
        let Some(mut writer) = self.conn.take() else { return Ok(None) };
        let readers = self.readers.as_deref();
        let conn = &mut *writer.conn;
        let mut failed = None;
        if keep && let Err(err) = run(&conn.conn, group::RELEASE_UNIT) {
            failed = Some(StoreError::from(err));
        }
        if (!keep || failed.is_some())
            && !conn.conn.is_autocommit()
            && conn.conn.execute_batch(group::UNDO_UNIT).is_err()
        {
            // The unit's writes cannot be told from the batch's: none of it commits.
            let _ = conn.conn.execute_batch("ROLLBACK");
        }
        if conn.conn.is_autocommit() {
            // SQLite ended the transaction on an error: the batch is gone, and its members
            // hear it.
            conn.end(readers);
            return failed.map_or(Ok(None), Err);
        }
        let Some(batch) = conn.batch.as_mut() else { return failed.map_or(Ok(None), Err) };
        let (done, first) = match (keep && failed.is_none(), batch.members) {
            (true, _) => (Some(batch.join()), batch.members == 1),
            (false, 0) => (None, false),
            (false, _) => (Some(batch.watch()), false),
        };
        let number = batch.number;
        let members = batch.members;
        if members == 0 || !self.joining.any() {
            conn.end(readers);
        } else if first {
            match tokio::runtime::Handle::try_current() {
                Ok(runtime) => {
                    runtime.spawn(flush(self.writer.clone(), number, self.readers.clone()));
                }
                Err(_) => conn.end(readers),
            }
        }
        drop(writer);
        match failed {
            Some(err) => Err(err),
            None => Ok(done),
        }
    }
}

/// Commits batch `number` once the writer is free of the units that joined it, unless it
/// ended already.
async fn flush(writer: Arc<tokio::sync::Mutex<WriterConn>>, number: u64, readers: Option<Arc<Readers>>) {
    let mut conn = writer.lock_owned().await;
    if conn.batch.as_ref().is_some_and(|batch| batch.number == number) {
        conn.end(readers.as_deref());
    }
}

/// What a failed COMMIT means: an I/O failure may come after the commit reached the log (a
/// failed sync), so its outcome is unknown; any other refusal left nothing committed.
pub fn commit_failed(err: rusqlite::Error) -> StoreError {
    match outage(&err) {
        Some(Outage::Unreachable) => StoreError::OutcomeUnknown(Outage::Unreachable, err.to_string()),
        _ => err.into(),
    }
}

impl Drop for Tx {
    fn drop(&mut self) {
        // Nothing of the unit stays; should undoing it fail, the batch is rolled back whole and
        // its members hear it.
        let _ = self.end(false);
    }
}

/// The savepoint a unit's steps run under, inside the unit's own.
const BEGIN_STEPS: &str = "SAVEPOINT steps";
const RELEASE_STEPS: &str = "RELEASE steps";
const UNDO_STEPS: &str = "ROLLBACK TO steps; RELEASE steps";

/// Runs a statement of the transaction's own (a savepoint, BEGIN, COMMIT), its parse kept.
fn run(conn: &Connection, sql: &str) -> rusqlite::Result<()> {
    conn.prepare_cached(sql)?.raw_execute().map(drop)
}

/// Runs the steps in order; false as soon as a `must_change` step changed nothing.
fn run_steps(conn: &Connection, steps: &[Step]) -> StoreResult<bool> {
    for step in steps {
        let mut stmt = conn.prepare_cached(&step.sql)?;
        bind(&mut stmt, &step.params)?;
        if stmt.raw_execute()? == 0 && step.must_change {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Runs one statement; the rows it changed.
fn execute(conn: &Connection, sql: &str, params: &[Param]) -> StoreResult<u64> {
    let mut stmt = conn.prepare_cached(sql)?;
    bind(&mut stmt, params)?;
    Ok(stmt.raw_execute()? as u64)
}

/// Binds `$n` to `params[n - 1]`. SQLite numbers parameters by first appearance, so they are
/// bound by name: `$1` may appear twice, or after `$2`.
fn bind(stmt: &mut Statement<'_>, params: &[Param]) -> StoreResult<()> {
    for index in 1..=stmt.parameter_count() {
        let param = params.get(parameter_index(stmt.parameter_name(index))?).ok_or_else(|| {
            StoreError::Parameter(stmt.parameter_name(index).unwrap_or_default().to_string())
        })?;
        stmt.raw_bind_parameter(index, bind_value(param))?;
    }
    Ok(())
}

/// The index in `params` of the parameter named `$n`: `n - 1`.
fn parameter_index(name: Option<&str>) -> StoreResult<usize> {
    let name = name.unwrap_or_default();
    name.strip_prefix('$')
        .and_then(|n| n.parse::<usize>().ok())
        .and_then(|n| n.checked_sub(1))
        .ok_or_else(|| StoreError::Parameter(name.to_string()))
}

/// A parameter as SQLite takes it.
fn bind_value(param: &Param) -> ToSqlOutput<'_> {
    match param {
        Param::Text(Some(t)) => ToSqlOutput::Borrowed(ValueRef::Text(t.as_bytes())),
        Param::Int(Some(n)) => ToSqlOutput::Owned(Value::Integer(*n)),
        Param::Text(None) | Param::Int(None) => ToSqlOutput::Owned(Value::Null),
    }
}

fn query(conn: &Connection, sql: &str, params: &[Param]) -> StoreResult<Vec<Row>> {
    let mut stmt = conn.prepare_cached(sql)?;
    bind(&mut stmt, params)?;
    let names = column_names(sql, &stmt);
    let mut rows = stmt.raw_query();
    let mut out = Vec::new();
    while let Some(row) = rows.next()? {
        out.push(read_row(row, names.clone())?);
    }
    Ok(out)
}

/// A row's cells, read as they are stored: text, integers and NULL (the schema has no other).
fn read_row(row: &rusqlite::Row<'_>, names: Arc<[String]>) -> StoreResult<Row> {
    let mut cells = RowBytes::with_names(names);
    for i in 0..cells.width() {
        match row.get_ref(i)? {
            ValueRef::Null => cells.push_null(),
            ValueRef::Integer(n) => cells.push_int(n),
            ValueRef::Text(t) => cells.push_text(t),
            ValueRef::Real(_) | ValueRef::Blob(_) => {
                return Err(StoreError::CorruptColumn(cells.name(i).to_string()));
            }
        }
    }
    Ok(cells.finish())
}

/// The column names of a statement, kept per SQL text: building them is a string per column,
/// and the same few statements run on every request. A kept entry is checked against the
/// statement's column count and last name, so that a migration by another process (a column
/// added or dropped under `SELECT *`) renews it; checking every name cost a tenth of a small
/// request's instructions (callgrind, docs/PERFORMANCE.md).
fn column_names(sql: &str, stmt: &Statement<'_>) -> Arc<[String]> {
    // Keyed by our own SQL texts (no one else's input): a fixed fast hash; SipHash over a
    // statement's text was a percent of a lookup.
    type Names = HashMap<String, Arc<[String]>, foldhash::fast::FixedState>;
    static NAMES: LazyLock<Mutex<Names>> = LazyLock::new(Mutex::default);
    /// List queries vary with their filters; past this many texts the map starts again.
    const MAX_TEXTS: usize = 1024;
    let mut names = NAMES.lock().unwrap_or_else(|p| p.into_inner());
    let same = |known: &Arc<[String]>| {
        let count = stmt.column_count();
        known.len() == count
            && (count == 0 || stmt.column_name(count - 1).is_ok_and(|n| known[count - 1] == n))
    };
    if let Some(known) = names.get(sql).filter(|known| same(known)) {
        return known.clone();
    }
    if names.len() >= MAX_TEXTS {
        names.clear();
    }
    let fresh: Arc<[String]> = stmt.column_names().into_iter().map(str::to_string).collect();
    names.insert(sql.to_string(), fresh.clone());
    fresh
}

/// Applies the migrations not yet in `_sqlx_migrations`, each in its own transaction.
fn migrate(conn: &mut Connection) -> StoreResult<()> {
    // sqlx's definition of the table, so databases it migrated read the same.
    conn.execute_batch(
        "CREATE TABLE IF NOT EXISTS _sqlx_migrations (
            version BIGINT PRIMARY KEY,
            description TEXT NOT NULL,
            installed_on TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
            success BOOLEAN NOT NULL,
            checksum BLOB NOT NULL,
            execution_time BIGINT NOT NULL
        );",
    )?;
    let applied: Vec<(i64, bool)> = {
        let mut stmt = conn.prepare("SELECT version, success FROM _sqlx_migrations ORDER BY version")?;
        stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?.collect::<Result<_, _>>()?
    };
    if let Some((version, _)) = applied.iter().find(|(_, ok)| !ok) {
        return Err(StoreError::Migration(format!("migration {version} was left half applied")));
    }
    for m in MIGRATIONS.iter().filter(|m| !applied.iter().any(|(v, _)| *v == m.version)) {
        let started = Instant::now();
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        tx.execute_batch(m.sqlite).map_err(|e| StoreError::Migration(format!("{}: {e}", m.version)))?;
        // In the migration's own transaction: recorded as applied only with its keys filled,
        // which later migrations copy (0004 puts the debtor's onto its charges).
        if m.version == crate::store::migrations::SEARCH_KEYS {
            backfill_search_keys(&tx)?;
        }
        tx.execute(
            "INSERT INTO _sqlx_migrations (version, description, success, checksum, execution_time) \
             VALUES (?1, ?2, TRUE, ?3, ?4)",
            rusqlite::params![
                m.version,
                m.description,
                Migration::checksum(m.sqlite),
                i64::try_from(started.elapsed().as_nanos()).unwrap_or(i64::MAX)
            ],
        )?;
        tx.commit()?;
    }
    Ok(())
}

/// Computes the search keys of rows stored before they existed, in the caller's transaction.
fn backfill_search_keys(tx: &Connection) -> StoreResult<()> {
    use crate::store::search::fold;
    {
        let debtors: Vec<(String, String, String)> = {
            let mut stmt = tx.prepare("SELECT id, name, document FROM debtors")?;
            stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?.collect::<Result<_, _>>()?
        };
        let mut update =
            tx.prepare("UPDATE debtors SET search_name = ?1, search_document = ?2 WHERE id = ?3")?;
        for (id, name, document) in debtors {
            update.execute(rusqlite::params![fold(&name), fold(&document), id])?;
        }
        let charges: Vec<(String, String)> = {
            let mut stmt = tx.prepare("SELECT id, external_id FROM charges WHERE external_id IS NOT NULL")?;
            stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?.collect::<Result<_, _>>()?
        };
        let mut update = tx.prepare("UPDATE charges SET search_external = ?1 WHERE id = ?2")?;
        for (id, external) in charges {
            update.execute(rusqlite::params![fold(&external), id])?;
        }
    }
    Ok(())
}

/// Creates the database file readable by its owner only, if it does not exist: it holds the
/// token hashes and the confirmation keys, and SQLite gives its -wal and -shm files the same mode.
fn create_private(path: &Path) -> std::io::Result<()> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    match options.open(path) {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => tighten(path),
        Err(e) => Err(e),
    }
}

/// A database file created before files were private (or copied with a looser mode) is made
/// owner-only at open, with its -wal and -shm files: the secrets in it are no less secret.
fn tighten(path: &Path) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let name = path.as_os_str().to_string_lossy().into_owned();
        for file in [name.clone(), format!("{name}-wal"), format!("{name}-shm")] {
            let Ok(meta) = std::fs::metadata(&file) else { continue };
            if meta.permissions().mode() & 0o077 != 0 {
                tracing::warn!(file = %file, "the database file was readable by others: making it owner-only");
                std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600))?;
            }
        }
    }
    #[cfg(not(unix))]
    let _ = path;
    Ok(())
}

/// The outage an error means, if it is one: the database cannot take the request now, through
/// no fault of the request (busy past the wait, the disk full, the file read-only or gone).
pub fn outage(err: &rusqlite::Error) -> Option<Outage> {
    use rusqlite::ErrorCode::*;
    let rusqlite::Error::SqliteFailure(e, _) = err else { return None };
    match e.code {
        DatabaseBusy | DatabaseLocked => Some(Outage::Busy),
        DiskFull => Some(Outage::DiskFull),
        ReadOnly => Some(Outage::ReadOnly),
        SystemIoFailure | CannotOpen | NotADatabase | DatabaseCorrupt => Some(Outage::Unreachable),
        _ => None,
    }
}

/// Whether an error is a unique-constraint violation.
pub fn is_unique_violation(err: &rusqlite::Error) -> bool {
    matches!(
        err,
        rusqlite::Error::SqliteFailure(e, _)
            if e.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_UNIQUE
                || e.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_PRIMARYKEY
    )
}
