//! Group commit on the single writer. Every unit of work runs under a SAVEPOINT of its own
//! inside the writer's open transaction (the batch); when it ends well the savepoint is released
//! into the batch, and when it fails only the savepoint is rolled back, so one failing unit never
//! undoes another. The batch commits (one fsync, each page written once) as soon as no unit is
//! waiting for the writer; while units wait, the writer passes to them first and the batch's
//! first member queues a flusher behind them, which commits whatever the batch holds once it
//! gets the writer. Every unit's answer waits for the COMMIT of its own batch: `synchronous =
//! FULL` stays, and nothing is acknowledged before it is durable.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use rusqlite::Connection;
use tokio::sync::watch;

use super::checkpoint::Checkpoints;
use super::reader::Readers;
use super::{commit_failed, in_place, run};
use crate::store::{Outage, StoreError, StoreResult};

/// The savepoint each unit of work runs under.
pub const BEGIN_UNIT: &str = "SAVEPOINT unit";
/// A unit that ended well joins the batch.
pub const RELEASE_UNIT: &str = "RELEASE unit";
/// A unit that failed leaves nothing in the batch.
pub const UNDO_UNIT: &str = "ROLLBACK TO unit; RELEASE unit";

/// Why a batch did not commit, for each of its members (a [`StoreError`] is not `Clone`).
#[derive(Debug, Clone)]
pub enum Failure {
    /// The COMMIT may have reached the disk (a failed sync): the outcome is unknown.
    Unknown(Outage, String),
    /// Nothing of the batch committed.
    Undone(Outage, String),
}

impl From<&StoreError> for Failure {
    fn from(err: &StoreError) -> Self {
        match err {
            StoreError::OutcomeUnknown(outage, why) => Failure::Unknown(*outage, why.clone()),
            StoreError::Unavailable(outage, why) => Failure::Undone(*outage, why.clone()),
            other => Failure::Undone(Outage::Unreachable, other.to_string()),
        }
    }
}

impl From<Failure> for StoreError {
    fn from(failure: Failure) -> Self {
        match failure {
            Failure::Unknown(outage, why) => StoreError::OutcomeUnknown(outage, why),
            Failure::Undone(outage, why) => StoreError::Unavailable(outage, why),
        }
    }
}

/// What a batch's members learn once it ended: `None` while it is open.
pub type Outcome = Option<Result<(), Failure>>;

/// The writer's open transaction and the units released into it.
pub struct Batch {
    /// Which batch this is (a flusher commits only the batch it was queued for).
    pub number: u64,
    /// Units released into it, waiting for its COMMIT.
    pub members: usize,
    done: watch::Sender<Outcome>,
}

impl Batch {
    /// A new batch, on a writer whose transaction was just begun.
    pub fn new(number: u64) -> Self {
        Self { number, members: 0, done: watch::channel(None).0 }
    }

    /// Counts one more unit in the batch; its receiver hears the outcome.
    pub fn join(&mut self) -> watch::Receiver<Outcome> {
        self.members += 1;
        self.done.subscribe()
    }

    /// A receiver of the outcome, for a unit that read the batch's members' writes.
    pub fn watch(&self) -> watch::Receiver<Outcome> {
        self.done.subscribe()
    }
}

/// The writer connection and its open batch, if any, held together under the writer's lock.
pub struct WriterConn {
    pub conn: Connection,
    pub batch: Option<Batch>,
    /// The number the next batch takes.
    pub next_batch: u64,
    /// Checkpoints off the writer (`checkpoint.rs`); none in memory.
    checkpoints: Option<Checkpoints>,
}

impl WriterConn {
    pub fn new(conn: Connection, checkpoints: Option<Checkpoints>) -> Self {
        Self { conn, batch: None, next_batch: 0, checkpoints }
    }

    /// After a COMMIT on the writer (a batch's, or a statement's own).
    pub fn committed(&mut self) {
        if let Some(checkpoints) = &mut self.checkpoints {
            checkpoints.committed();
        }
    }

    /// Opens a batch if none is open; the unit then runs under its own savepoint.
    pub fn begin_unit(&mut self, readers: Option<&Readers>) -> StoreResult<()> {
        if self.batch.is_some() && self.conn.is_autocommit() {
            // SQLite undid the whole transaction on an error (a full disk, an I/O failure).
            self.end(readers);
        }
        if self.batch.is_none() {
            if !self.conn.is_autocommit() {
                self.conn.execute_batch("ROLLBACK")?;
            }
            // It may wait for another process's write lock.
            in_place(|| run(&self.conn, "BEGIN IMMEDIATE"))?;
            self.batch = Some(Batch::new(self.next_batch));
            self.next_batch += 1;
        }
        if let Err(err) = run(&self.conn, BEGIN_UNIT) {
            self.end(readers);
            return Err(err.into());
        }
        Ok(())
    }

    /// Ends the open batch, if any: commits it when it has members, rolls it back when it has
    /// none, and tells its members how it went.
    pub fn end(&mut self, readers: Option<&Readers>) {
        let Some(batch) = self.batch.take() else { return };
        let outcome = if self.conn.is_autocommit() {
            // Only a failure ends a batch behind our back, and it undid the transaction.
            Err(Failure::Undone(Outage::Unreachable, "the batch's transaction was rolled back".into()))
        } else if batch.members == 0 {
            self.conn.execute_batch("ROLLBACK").map_err(|e| Failure::from(&StoreError::from(e)))
        } else {
            in_place(|| run(&self.conn, "COMMIT")).map_err(|e| {
                let err = commit_failed(e);
                if !self.conn.is_autocommit() {
                    let _ = self.conn.execute_batch("ROLLBACK");
                }
                Failure::from(&err)
            })
        };
        self.committed();
        if let Some(readers) = readers {
            readers.wrote();
        }
        batch.done.send_replace(Some(outcome));
    }
}

/// Units waiting for the writer to begin: while there are some, a finished unit hands them
/// the writer instead of committing.
#[derive(Default)]
pub struct Joining(AtomicUsize);

impl Joining {
    /// Counts a unit waiting until the returned guard is dropped (it got the writer, or gave up).
    pub fn wait(self: &Arc<Self>) -> JoiningGuard {
        self.0.fetch_add(1, Ordering::AcqRel);
        JoiningGuard(self.clone())
    }

    /// Whether any unit waits for the writer now.
    pub fn any(&self) -> bool {
        self.0.load(Ordering::Acquire) > 0
    }
}

/// One unit counted as waiting for the writer.
pub struct JoiningGuard(Arc<Joining>);

impl Drop for JoiningGuard {
    fn drop(&mut self) {
        self.0.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Waits for the outcome of a batch.
pub async fn outcome(mut done: watch::Receiver<Outcome>) -> StoreResult<()> {
    match done.wait_for(Option::is_some).await {
        Ok(outcome) => outcome.clone().unwrap_or(Ok(())).map_err(StoreError::from),
        // The batch's sender went without a word: only a writer dropped mid-batch (the store
        // closing) does that, and SQLite rolls back what it did not commit.
        Err(_) => Err(StoreError::Unavailable(Outage::Unreachable, "the writer closed".into())),
    }
}
