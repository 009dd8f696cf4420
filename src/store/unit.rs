//! Units of work. A write runs in one: every statement of its handler (rows, events, outbox
//! rows) and, for a keyed request, the idempotency claim and the stored answer join one
//! transaction, which commits whole or not at all. A unit dropped before it commits (the
//! request future dropped with its connection, an error, a panic) rolls back; a process that
//! dies mid-unit leaves nothing of it either, since the database never saw a commit.
//!
//! A [`Store`] taken from a unit ([`Unit::store`]) runs its reads and writes inside the unit;
//! the store modules do not know whether they run in one ([`Db`] routes each statement).

use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};

use super::backend::{Backend, Step, Tx};
use super::value::{Param, Row};
use super::{Store, StoreError, StoreResult};

/// Work to start once the unit has committed (a message to hand to an outside provider).
type AfterCommit = Pin<Box<dyn Future<Output = ()> + Send>>;

/// The database as a store module sees it: the backend, or the open transaction of a unit.
#[derive(Clone)]
pub(super) struct Db {
    backend: Arc<Backend>,
    unit: Option<Arc<Shared>>,
}

/// What a unit's store handles share: its transaction (taken out to commit or roll back) and
/// the work to start after its commit.
struct Shared {
    tx: tokio::sync::Mutex<Option<Tx>>,
    after_commit: Mutex<Vec<AfterCommit>>,
}

impl Db {
    /// Outside any unit.
    pub(super) fn new(backend: Backend) -> Self {
        Self { backend: Arc::new(backend), unit: None }
    }

    /// Runs `work` on the unit's transaction; a unit that already ended takes no more work.
    async fn in_unit<R>(
        shared: &Shared,
        work: impl AsyncFnOnce(&mut Tx) -> StoreResult<R>,
    ) -> StoreResult<R> {
        let mut tx = shared.tx.lock().await;
        let tx = tx.as_mut().ok_or(StoreError::UnitEnded)?;
        work(tx).await
    }

    /// The rows of a query.
    pub(super) async fn rows(&self, sql: &str, params: &[Param]) -> StoreResult<Vec<Row>> {
        match &self.unit {
            None => self.backend.rows(sql, params).await,
            Some(shared) => Self::in_unit(shared, async |tx: &mut Tx| tx.rows(sql, params).await).await,
        }
    }

    /// The first row of a query, if any.
    pub(super) async fn row(&self, sql: &str, params: &[Param]) -> StoreResult<Option<Row>> {
        Ok(self.rows(sql, params).await?.into_iter().next())
    }

    /// The row of a lookup by a unique key (see [`Backend::find`]).
    pub(super) async fn find(&self, sql: &'static str, params: &[Param]) -> StoreResult<Option<Row>> {
        match &self.unit {
            None => self.backend.find(sql, params).await,
            Some(shared) => Self::in_unit(shared, async |tx: &mut Tx| tx.find(sql, params).await).await,
        }
    }

    /// Runs one statement; the rows it changed.
    pub(super) async fn execute(&self, sql: &str, params: &[Param]) -> StoreResult<u64> {
        match &self.unit {
            None => self.backend.execute(sql, params).await,
            Some(shared) => Self::in_unit(shared, async |tx: &mut Tx| tx.execute(sql, params).await).await,
        }
    }

    /// Runs the steps together: false, and none of them written, when a `must_change` step
    /// changed nothing. Outside a unit they are a transaction of their own.
    pub(super) async fn write(&self, steps: &[Step]) -> StoreResult<bool> {
        match &self.unit {
            None => self.backend.write(steps).await,
            Some(shared) => Self::in_unit(shared, async |tx: &mut Tx| tx.write(steps).await).await,
        }
    }

    /// Refreshes the planner's statistics.
    pub(super) async fn analyze(&self) -> StoreResult<()> {
        self.backend.analyze().await
    }

    /// Enters or leaves a bulk load.
    pub(super) async fn bulk_load(&self, on: bool) -> StoreResult<()> {
        self.backend.bulk_load(on).await
    }

    /// The revoked-token listener (PostgreSQL).
    pub(super) fn revocations(&self) -> Option<super::backend::Revocations> {
        self.backend.revocations()
    }

    /// Whether this is PostgreSQL.
    pub(super) fn is_postgres(&self) -> bool {
        self.backend.is_postgres()
    }

    /// Whether statements run inside a unit.
    pub(super) fn in_a_unit(&self) -> bool {
        self.unit.is_some()
    }

    /// The same database outside any unit.
    pub(super) fn base(&self) -> Self {
        Self { backend: self.backend.clone(), unit: None }
    }
}

/// An open unit of work: commit it, or drop it to roll it back.
pub struct Unit {
    store: Store,
}

impl Unit {
    /// Opens one on `store`'s database (waiting at most the store's wait for a connection or
    /// the write lock).
    pub(super) async fn begin(store: &Store) -> StoreResult<Self> {
        if store.db.in_a_unit() {
            return Err(StoreError::UnitEnded);
        }
        let tx = store.db.backend.begin().await?;
        let shared =
            Arc::new(Shared { tx: tokio::sync::Mutex::new(Some(tx)), after_commit: Mutex::default() });
        let db = Db { backend: store.db.backend.clone(), unit: Some(shared) };
        Ok(Self { store: Store { db } })
    }

    /// The store whose statements run in this unit.
    pub fn store(&self) -> &Store {
        &self.store
    }

    fn shared(&self) -> &Arc<Shared> {
        self.store.db.unit.as_ref().expect("a unit's store is in the unit")
    }

    /// Undoes everything the unit wrote, and waits until its locks are released.
    pub async fn rollback(self) -> StoreResult<()> {
        let tx = self.shared().tx.lock().await.take();
        match tx {
            Some(tx) => tx.rollback().await,
            None => Ok(()),
        }
    }

    /// Commits everything the unit wrote, then starts the work queued for after the commit.
    pub async fn commit(self) -> StoreResult<()> {
        let shared = self.shared().clone();
        let tx = shared.tx.lock().await.take().ok_or(StoreError::UnitEnded)?;
        tx.commit().await?;
        let after: Vec<AfterCommit> =
            std::mem::take(&mut *shared.after_commit.lock().unwrap_or_else(|p| p.into_inner()));
        for work in after {
            tokio::spawn(work);
        }
        Ok(())
    }
}

impl Drop for Unit {
    fn drop(&mut self) {
        let shared = self.shared();
        // Rolled back now rather than when the last handle goes: the writer (SQLite) or the
        // connection (PostgreSQL) serves others at once. A handle still inside a statement
        // holds the lock; it ends the transaction when it lets go.
        if let Ok(mut tx) = shared.tx.try_lock()
            && let Some(tx) = tx.take()
        {
            tx.abandon();
        }
        shared.after_commit.lock().unwrap_or_else(|p| p.into_inner()).clear();
    }
}

impl Store {
    /// Opens a unit of work on this database.
    pub async fn begin(&self) -> StoreResult<Unit> {
        Unit::begin(self).await
    }

    /// Whether this store runs its statements inside a unit of work.
    pub fn in_unit(&self) -> bool {
        self.db.in_a_unit()
    }

    /// The same database outside any unit (for work that must not wait for one: what runs
    /// after its commit).
    pub fn base(&self) -> Store {
        Store { db: self.db.base() }
    }

    /// Starts `work` once this store's unit has committed, and never if it rolls back; at once
    /// outside a unit.
    pub fn after_commit(&self, work: impl Future<Output = ()> + Send + 'static) {
        match &self.db.unit {
            Some(shared) => {
                shared.after_commit.lock().unwrap_or_else(|p| p.into_inner()).push(Box::pin(work))
            }
            None => {
                tokio::spawn(work);
            }
        }
    }
}
