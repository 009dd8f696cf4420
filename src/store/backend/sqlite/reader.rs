//! SQLite's reader connections. Each keeps two things across requests that a plain autocommit
//! read pays for every time (docs/PERFORMANCE.md):
//!
//! - **its read snapshot.** An autocommit read takes a read mark in the `-shm` file and gives it
//!   back: two `fcntl(2)` and the WAL header checks, per query. A reader instead stays in its
//!   read transaction while this process writes nothing and for at most [`SNAPSHOT_AGE`]: every
//!   write of this process's writer bumps a generation, and a reader whose snapshot is older
//!   starts a new one before its next read, so a request always sees what was committed before
//!   it began here. Another process's commit (the CLI) shows at most [`SNAPSHOT_AGE`] late.
//!   Idle readers give their snapshot back [`SNAPSHOT_AGE`] after their last read, so a held
//!   snapshot never keeps the WAL from being checkpointed and restarted for long.
//! - **the statements of its lookups by key,** prepared once, in rusqlite's statement cache,
//!   with the binding of `$n` to the parameters and the column names worked out once (keyed by
//!   the address of their `'static` text).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, LazyLock, Mutex, Weak};
use std::time::{Duration, Instant};

use rusqlite::{Connection, Statement, StatementStatus};
use tokio::sync::Semaphore;

use super::{bind_value, parameter_index, read_row};
use crate::store::value::{Param, Row};
use crate::store::{Outage, StoreError, StoreResult};

/// How long a reader keeps a snapshot while nothing is written here: long enough to serve many
/// requests under load, short enough that another process's commit is seen at once by anyone
/// who could tell.
pub const SNAPSHOT_AGE: Duration = Duration::from_millis(1);

/// The write generation of a database file: bumped after every write this process makes to
/// it, so a snapshot taken before is stale. Shared by every store this process opens on the
/// file (a test's replica), so each sees the others' writes as promptly as its own.
pub fn generation_of(file: &Path) -> Arc<AtomicU64> {
    static FILES: LazyLock<Mutex<HashMap<PathBuf, Weak<AtomicU64>>>> = LazyLock::new(Mutex::default);
    let key = std::fs::canonicalize(file).unwrap_or_else(|_| file.to_path_buf());
    let mut files = FILES.lock().unwrap_or_else(|p| p.into_inner());
    files.retain(|_, generation| generation.strong_count() > 0);
    match files.get(&key).and_then(Weak::upgrade) {
        Some(generation) => generation,
        None => {
            let generation = Arc::new(AtomicU64::new(0));
            files.insert(key, Arc::downgrade(&generation));
            generation
        }
    }
}

/// The pool of reader connections.
pub struct Readers {
    idle: Mutex<Vec<Reader>>,
    permits: Semaphore,
    /// The file's write generation ([`generation_of`]).
    generation: Arc<AtomicU64>,
    /// Whether a release of the idle readers' snapshots is scheduled.
    release_due: AtomicBool,
    /// The runtime the pool was opened on, which runs the releases: the requests' own, never
    /// the background thread's (which may wait long for the CPU, holding a release due).
    runtime: Option<tokio::runtime::Handle>,
    /// The longest wait for an idle reader; past it the database is busy (503).
    wait: Duration,
}

impl Readers {
    /// A pool of the given connections.
    pub fn new(connections: Vec<Connection>, generation: Arc<AtomicU64>, wait: Duration) -> Arc<Self> {
        let count = connections.len();
        Arc::new(Self {
            idle: Mutex::new(connections.into_iter().map(Reader::new).collect()),
            permits: Semaphore::new(count),
            generation,
            release_due: AtomicBool::new(false),
            runtime: tokio::runtime::Handle::try_current().ok(),
            wait,
        })
    }

    /// Runs `work` on an idle reader, in a snapshot no older than this process's last write.
    pub async fn with<R>(
        self: &Arc<Self>,
        work: impl FnOnce(&mut Reader) -> StoreResult<R>,
    ) -> StoreResult<R> {
        let _permit = match self.permits.try_acquire() {
            Ok(permit) => permit,
            Err(_) => {
                crate::priority::waiting();
                tokio::time::timeout(self.wait, self.permits.acquire())
                    .await
                    .map_err(|_| StoreError::Unavailable(Outage::Busy, "every reader stayed taken".into()))?
                    .map_err(|_| StoreError::Closed)?
            }
        };
        let _held = crate::priority::holding();
        // A permit guarantees an idle reader; it goes back even if the query fails.
        let mut reader = self.idle.lock().map_err(|_| StoreError::Closed)?.pop().ok_or(StoreError::Closed)?;
        let result = reader.refresh(self.generation.load(Ordering::Acquire)).and_then(|()| work(&mut reader));
        if result.is_err() {
            // Whatever failed, the next read starts from a fresh snapshot.
            reader.end();
        }
        // Loaded again: a write that finished during the read made this snapshot stale, and it
        // would otherwise hold the WAL until the release.
        if reader.snapshot.is_some_and(|s| s.generation != self.generation.load(Ordering::Acquire)) {
            reader.end();
        }
        let holds = reader.snapshot.is_some();
        self.idle.lock().map_err(|_| StoreError::Closed)?.push(reader);
        if holds {
            self.schedule_release();
        }
        result
    }

    /// After a write by this process: snapshots taken before it must not serve another read.
    pub fn wrote(&self) {
        self.generation.fetch_add(1, Ordering::AcqRel);
        self.release_idle();
    }

    /// Ends the snapshots of the readers that are idle now.
    fn release_idle(&self) {
        // Cleared first: a reader that comes back with a snapshot from here on schedules again.
        self.release_due.store(false, Ordering::Release);
        if let Ok(mut idle) = self.idle.lock() {
            idle.iter_mut().for_each(Reader::end);
        }
    }

    /// Schedules a release of the idle readers' snapshots [`SNAPSHOT_AGE`] from now, unless
    /// one is already due (under load, one every millisecond or so for all the reads).
    fn schedule_release(self: &Arc<Self>) {
        if self.release_due.swap(true, Ordering::AcqRel) {
            return;
        }
        let Some(runtime) = self.runtime.clone().or_else(|| tokio::runtime::Handle::try_current().ok())
        else {
            // No runtime to wait on: give the snapshots back now.
            self.release_idle();
            return;
        };
        let due = ReleaseDue(Arc::downgrade(self));
        runtime.spawn(async move {
            tokio::time::sleep(SNAPSHOT_AGE).await;
            drop(due);
        });
    }
}

/// A scheduled release, run when dropped: at the end of its task's sleep, or sooner if the
/// task ends early (a runtime shutting down), so that a release is never left due forever.
struct ReleaseDue(Weak<Readers>);

impl Drop for ReleaseDue {
    fn drop(&mut self) {
        if let Some(pool) = self.0.upgrade() {
            pool.release_idle();
        }
    }
}

/// When a reader's open snapshot began.
#[derive(Debug, Clone, Copy)]
struct Snapshot {
    /// The pool's write generation read before the snapshot was taken.
    generation: u64,
    since: Instant,
}

/// A reader connection, what it worked out about its lookups, and its open snapshot, if any.
pub struct Reader {
    connection: Connection,
    finds: HashMap<(usize, usize), Lookup, foldhash::fast::FixedState>,
    snapshot: Option<Snapshot>,
}

/// What is worked out once about a lookup's statement (kept in the connection's cache).
struct Lookup {
    /// For each of the statement's parameters, in order, the index of its value in `params`.
    binds: Box<[usize]>,
    names: Arc<[String]>,
    /// The statement's re-prepare count when `names` was read: SQLite prepares a statement
    /// again after a schema change, and `SELECT *` may then have other columns.
    prepared: i32,
}

impl Reader {
    fn new(connection: Connection) -> Self {
        Self { connection, finds: HashMap::default(), snapshot: None }
    }

    /// The connection, for queries that are not kept (lists vary with their filters).
    pub fn connection(&self) -> &Connection {
        &self.connection
    }

    /// The row of a lookup by a unique key, through its cached statement.
    pub fn find(&mut self, sql: &'static str, params: &[Param]) -> StoreResult<Option<Row>> {
        let mut statement = self.connection.prepare_cached(sql)?;
        let lookup = match self.finds.entry((sql.as_ptr() as usize, sql.len())) {
            std::collections::hash_map::Entry::Occupied(entry) => entry.into_mut(),
            std::collections::hash_map::Entry::Vacant(entry) => entry.insert(Lookup::of(&statement)?),
        };
        lookup.run(&mut statement, params)
    }

    /// Starts a new snapshot unless the open one is younger than [`SNAPSHOT_AGE`] and no
    /// write happened here since it began (`generation`).
    fn refresh(&mut self, generation: u64) -> StoreResult<()> {
        let now = Instant::now();
        if let Some(open) = self.snapshot {
            if open.generation == generation && now.duration_since(open.since) < SNAPSHOT_AGE {
                return Ok(());
            }
            self.end();
        }
        // Deferred: the snapshot is taken by the first read, after `generation` was loaded, so
        // it holds every write counted in it.
        self.connection().prepare_cached("BEGIN")?.raw_execute()?;
        self.snapshot = Some(Snapshot { generation, since: now });
        Ok(())
    }

    /// Ends the open snapshot, if any.
    fn end(&mut self) {
        self.snapshot = None;
        let connection = self.connection();
        if !connection.is_autocommit() {
            // A read transaction has nothing to commit; should COMMIT fail, ROLLBACK still
            // gives the read mark back.
            let ended = connection.prepare_cached("COMMIT").and_then(|mut s| s.raw_execute());
            if ended.is_err() {
                let _ = connection.execute_batch("ROLLBACK");
            }
        }
    }
}

impl Lookup {
    fn of(statement: &Statement<'_>) -> StoreResult<Self> {
        let binds = (1..=statement.parameter_count())
            .map(|index| parameter_index(statement.parameter_name(index)))
            .collect::<StoreResult<_>>()?;
        let names = column_names(statement);
        let prepared = statement.get_status(StatementStatus::RePrepare);
        Ok(Self { binds, names, prepared })
    }

    /// Binds `params`, reads the first row and resets the statement (a lookup by a unique
    /// key has at most one; SQLite is not asked for a second).
    fn run(&mut self, statement: &mut Statement<'_>, params: &[Param]) -> StoreResult<Option<Row>> {
        for (position, &index) in self.binds.iter().enumerate() {
            let param = params.get(index).ok_or_else(|| StoreError::Parameter(format!("${}", index + 1)))?;
            statement.raw_bind_parameter(position + 1, bind_value(param))?;
        }
        let mut rows = statement.raw_query();
        let Some(row) = rows.next()? else { return Ok(None) };
        // Stepping prepares the statement again after a schema change (by another process).
        let now = row.as_ref().get_status(StatementStatus::RePrepare);
        if now != self.prepared {
            self.names = column_names(row.as_ref());
            self.prepared = now;
        }
        read_row(row, self.names.clone()).map(Some)
    }
}

fn column_names(statement: &Statement<'_>) -> Arc<[String]> {
    statement.column_names().into_iter().map(str::to_string).collect()
}

#[cfg(test)]
mod tests {
    use super::super::Sqlite;
    use super::*;
    use crate::store::value::args;

    const SECRET: &str = "SELECT * FROM server_secrets WHERE name = $1";

    /// A database file, removed with its WAL and shared memory at the end of the test.
    struct TempDb(std::path::PathBuf);

    impl Drop for TempDb {
        fn drop(&mut self) {
            for suffix in ["", "-wal", "-shm"] {
                let mut name = self.0.clone().into_os_string();
                name.push(suffix);
                let _ = std::fs::remove_file(name);
            }
        }
    }

    async fn open() -> (Sqlite, TempDb) {
        let path = std::env::temp_dir().join(format!("kd-readers-{}.db", uuid::Uuid::now_v7().simple()));
        let db = Sqlite::open(path.to_str().unwrap(), crate::store::DEFAULT_WAIT).await.unwrap();
        db.execute("INSERT INTO server_secrets (name, value, created_at) VALUES ('k', 'one', 'now')", &[])
            .await
            .unwrap();
        (db, TempDb(path))
    }

    /// Another process holds the write lock: a write that first waited for this process's
    /// writer (held by a write waiting on that lock) waits for the lock only what is left of
    /// its wait, so it answers busy within the wait, not twice it.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_write_waits_no_longer_than_the_wait_for_the_writer_and_the_lock_together() {
        let (_, file) = open().await;
        let wait = Duration::from_millis(600);
        let db = Arc::new(Sqlite::open(file.0.to_str().unwrap(), wait).await.unwrap());
        let other = Connection::open(&file.0).unwrap();
        other.execute_batch("BEGIN IMMEDIATE").unwrap();
        let first = {
            let db = db.clone();
            tokio::spawn(async move { db.begin().await.map(drop) })
        };
        tokio::time::sleep(wait / 2).await;
        let started = Instant::now();
        let second = db.begin().await.map(drop);
        let took = started.elapsed();
        assert!(matches!(second, Err(StoreError::Unavailable(Outage::Busy, _))), "{second:?}");
        assert!(took < wait + Duration::from_millis(200), "the second write waited {took:?}");
        assert!(first.await.unwrap().is_err(), "the lock stayed taken");
        other.execute_batch("ROLLBACK").unwrap();
    }

    async fn value(db: &Sqlite) -> Option<String> {
        db.find(SECRET, &args!["k"]).await.unwrap().map(|row| row.text("value").unwrap())
    }

    fn any_snapshot_open(db: &Sqlite) -> bool {
        let readers = db.readers.as_ref().unwrap().idle.lock().unwrap();
        readers.iter().any(|r| r.snapshot.is_some() || !r.connection().is_autocommit())
    }

    #[tokio::test]
    async fn a_write_here_is_seen_by_the_next_read() {
        let (db, _path) = open().await;
        assert_eq!(value(&db).await.as_deref(), Some("one"));
        assert!(any_snapshot_open(&db), "the read keeps its snapshot");
        db.execute("UPDATE server_secrets SET value = 'two' WHERE name = 'k'", &[]).await.unwrap();
        assert!(!any_snapshot_open(&db), "a write ends the idle readers' snapshots");
        assert_eq!(value(&db).await.as_deref(), Some("two"));
        db.write(&[super::super::Step::new("DELETE FROM server_secrets WHERE name = 'k'", vec![])])
            .await
            .unwrap();
        assert_eq!(value(&db).await, None);
    }

    #[tokio::test]
    async fn another_process_commit_is_seen_within_the_snapshot_age() {
        let (db, file) = open().await;
        // No release is scheduled, so only the snapshot's age can end it.
        db.readers.as_ref().unwrap().release_due.store(true, Ordering::Release);
        assert_eq!(value(&db).await.as_deref(), Some("one"));
        let other = Connection::open(&file.0).unwrap();
        other.execute_batch("UPDATE server_secrets SET value = 'two' WHERE name = 'k'").unwrap();
        tokio::time::sleep(SNAPSHOT_AGE * 3).await;
        assert!(any_snapshot_open(&db), "the snapshot is still held");
        assert_eq!(value(&db).await.as_deref(), Some("two"));
    }

    #[tokio::test]
    async fn two_stores_on_one_file_see_each_other_s_writes_at_once() {
        let (db, file) = open().await;
        let replica = Sqlite::open(file.0.to_str().unwrap(), crate::store::DEFAULT_WAIT).await.unwrap();
        assert_eq!(value(&db).await.as_deref(), Some("one"));
        replica.execute("UPDATE server_secrets SET value = 'two' WHERE name = 'k'", &[]).await.unwrap();
        assert_eq!(value(&db).await.as_deref(), Some("two"));
    }

    #[tokio::test]
    async fn a_young_snapshot_is_kept_until_a_write_is_counted() {
        let (db, file) = open().await;
        let readers = db.readers.as_ref().unwrap();
        let mut reader = readers.idle.lock().unwrap().pop().unwrap();
        let read =
            |reader: &mut Reader| reader.find(SECRET, &args!["k"]).unwrap().unwrap().text("value").unwrap();
        let generation = readers.generation.load(Ordering::Acquire);
        reader.refresh(generation).unwrap();
        assert_eq!(read(&mut reader), "one");
        let other = Connection::open(&file.0).unwrap();
        other.execute_batch("UPDATE server_secrets SET value = 'two' WHERE name = 'k'").unwrap();
        // However long the steps above took, the snapshot counts as young here.
        reader.snapshot =
            reader.snapshot.map(|s| Snapshot { since: Instant::now() + SNAPSHOT_AGE * 1000, ..s });
        reader.refresh(generation).unwrap();
        assert_eq!(read(&mut reader), "one", "a young snapshot of the same generation is kept");
        reader.refresh(generation + 1).unwrap();
        assert_eq!(read(&mut reader), "two", "a write counted since it began ends it");
        readers.idle.lock().unwrap().push(reader);
    }

    #[tokio::test]
    async fn idle_readers_give_their_snapshot_back() {
        let (db, file) = open().await;
        assert_eq!(value(&db).await.as_deref(), Some("one"));
        assert!(any_snapshot_open(&db));
        // The release runs SNAPSHOT_AGE after the read; the timer's granularity is a millisecond.
        let deadline = Instant::now() + Duration::from_secs(2);
        while any_snapshot_open(&db) && Instant::now() < deadline {
            tokio::time::sleep(SNAPSHOT_AGE).await;
        }
        assert!(!any_snapshot_open(&db), "an idle reader still holds its snapshot");
        // With no reader holding the WAL, another process can checkpoint it whole and restart it.
        let other = Connection::open(&file.0).unwrap();
        other.execute_batch("UPDATE server_secrets SET value = 'two' WHERE name = 'k'").unwrap();
        let (busy, _, _): (i64, i64, i64) = other
            .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .unwrap();
        assert_eq!(busy, 0);
    }

    #[tokio::test]
    async fn a_kept_select_star_follows_a_schema_change() {
        // The pool hands back the reader that came back last: both finds use one kept statement.
        let (db, file) = open().await;
        let before = db.find(SECRET, &args!["k"]).await.unwrap().unwrap();
        assert!(before.opt_text("note").is_err(), "no such column yet");
        let other = Connection::open(&file.0).unwrap();
        other.execute_batch("ALTER TABLE server_secrets ADD COLUMN note TEXT DEFAULT 'added'").unwrap();
        tokio::time::sleep(SNAPSHOT_AGE * 3).await;
        let after = db.find(SECRET, &args!["k"]).await.unwrap().unwrap();
        assert_eq!(after.text("note").unwrap(), "added");
        assert_eq!(after.text("value").unwrap(), "one");
    }

    #[tokio::test]
    async fn a_missing_parameter_is_an_error_and_the_reader_goes_back() {
        let (db, _path) = open().await;
        for _ in 0..READERS_IN_TEST {
            let err = db.find(SECRET, &[]).await.unwrap_err();
            assert!(matches!(err, StoreError::Parameter(ref p) if p == "$1"), "{err:?}");
        }
        assert_eq!(value(&db).await.as_deref(), Some("one"));
    }

    /// More failures than the pool has readers: each must come back.
    const READERS_IN_TEST: usize = 8;
}
