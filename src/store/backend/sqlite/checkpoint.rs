//! WAL checkpoints off the writer. SQLite's automatic checkpoint runs inside the COMMIT that
//! takes the log past its threshold, on the writer: every unit queued behind that batch waits
//! while it copies the log into the database and syncs the file. Here the writer only notes the
//! log's length at each commit (a WAL hook, which also turns the automatic checkpoint off), and a
//! thread with a connection of its own copies the log (PASSIVE: it waits for neither the writer
//! nor the readers). Should that thread fall far behind, the writer checkpoints at its commit as
//! SQLite would have.

use std::cell::Cell;
use std::ffi::c_int;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};

use rusqlite::Connection;
use rusqlite::hooks::Wal;

/// Log frames (pages) written since the last checkpoint asked for, past which the thread is
/// asked for another: SQLite's own threshold.
const FRAMES: c_int = 1000;
/// The log's length past which the writer checkpoints itself (the thread being behind).
const WRITER_FRAMES: c_int = 8 * FRAMES;

thread_local! {
    /// The log's length after the last commit on this thread (the hook runs inside COMMIT, on
    /// the committing thread, and the writer reads it right after).
    static LOG_FRAMES: Cell<Option<c_int>> = const { Cell::new(None) };
}

/// The writer's WAL hook.
fn committed(wal: &Wal, frames: c_int) -> rusqlite::Result<()> {
    LOG_FRAMES.set(Some(frames));
    if frames >= WRITER_FRAMES {
        // An error here would fail a COMMIT that took place: a checkpoint that did not run
        // (the thread holds the checkpoint lock) is left to the next commit.
        let _ = wal.checkpoint();
    }
    Ok(())
}

/// The writer's side: asks the thread for a checkpoint as the log grows.
pub struct Checkpoints {
    ask: SyncSender<()>,
    /// The log's length when a checkpoint was last asked for.
    asked_at: c_int,
    /// Checkpoints the thread ran.
    #[cfg(test)]
    done: Arc<AtomicU64>,
}

impl Checkpoints {
    /// Hooks `writer`'s commits and starts the thread, on `checkpointer`, a connection of its own
    /// to the same database.
    pub fn start(writer: &Connection, checkpointer: Connection) -> std::io::Result<Self> {
        let (ask, asked) = sync_channel(1);
        let done = Arc::new(AtomicU64::new(0));
        let counted = done.clone();
        std::thread::Builder::new()
            .name("sqlite-checkpoint".into())
            .spawn(move || run(&checkpointer, &asked, &counted))?;
        writer.wal_hook(Some(committed));
        #[cfg(not(test))]
        drop(done);
        Ok(Self {
            ask,
            asked_at: 0,
            #[cfg(test)]
            done,
        })
    }

    /// After a commit on the writer: asks for a checkpoint when the log grew by [`FRAMES`]
    /// since the last one was asked for.
    pub fn committed(&mut self) {
        let Some(frames) = LOG_FRAMES.take() else { return };
        if frames < self.asked_at {
            // The log started again from its beginning.
            self.asked_at = 0;
        }
        if frames >= self.asked_at + FRAMES {
            // A full channel holds a request already.
            let _ = self.ask.try_send(());
            self.asked_at = frames;
        }
    }

    /// How many checkpoints the thread ran.
    #[cfg(test)]
    pub fn done(&self) -> u64 {
        self.done.load(Ordering::Acquire)
    }
}

/// The thread: a PASSIVE checkpoint for each request, until the writer's side is dropped.
fn run(conn: &Connection, asked: &Receiver<()>, done: &AtomicU64) {
    while asked.recv().is_ok() {
        let checkpoint = conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()));
        if let Err(err) = checkpoint {
            tracing::warn!(error = %err, "a WAL checkpoint failed; the next one copies what it left");
        }
        done.fetch_add(1, Ordering::AcqRel);
    }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use super::*;

    /// The writer never checkpoints a log shorter than [`WRITER_FRAMES`]: a log that starts
    /// again after [`FRAMES`] was copied by the thread.
    #[test]
    fn the_thread_copies_a_long_log_and_the_writer_then_starts_it_again() {
        let path = std::env::temp_dir().join(format!("kd-checkpoint-{}.db", uuid::Uuid::now_v7().simple()));
        let open = || {
            let conn = Connection::open(&path).unwrap();
            conn.execute_batch("PRAGMA journal_mode = WAL; PRAGMA synchronous = OFF;").unwrap();
            conn
        };
        let writer = open();
        let mut checkpoints = Checkpoints::start(&writer, open()).unwrap();
        writer.execute_batch("CREATE TABLE t (x BLOB)").unwrap();
        // Two pages and more a commit, until the thread is asked.
        let mut commits = 0;
        while checkpoints.asked_at == 0 {
            assert!(commits < FRAMES, "no checkpoint asked for after {commits} commits");
            writer.execute_batch("INSERT INTO t VALUES (zeroblob(5000))").unwrap();
            checkpoints.committed();
            commits += 1;
        }
        let asked = Instant::now();
        while checkpoints.done() == 0 {
            assert!(asked.elapsed() < Duration::from_secs(20), "no checkpoint ran");
            std::thread::sleep(Duration::from_millis(5));
        }
        writer.execute_batch("INSERT INTO t VALUES (1)").unwrap();
        checkpoints.committed();
        assert_eq!(checkpoints.asked_at, 0, "the log did not start again");
        drop((checkpoints, writer));
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
        }
    }
}
