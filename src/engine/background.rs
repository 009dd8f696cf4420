//! Where the work no request waits for runs: the engine's passes, the webhook sender and the
//! export builder. In `serve` they share one thread of their own, with a single-threaded runtime,
//! at the lowest CPU priority the system has (`SCHED_IDLE` on Linux): it runs when nothing else
//! on the core wants to, and gives way at once to a request's thread that wakes. A pass on a busy
//! core then takes what the requests leave, and the API's latency holds while it runs
//! (docs/PERFORMANCE.md: the p99 of a read during a pass). A request that waits
//! for a lock the thread holds lifts it until it lets go (`crate::priority`); where the system
//! allows no lift, the thread keeps the usual priority. `engine run-once --background` lowers
//! its own thread the same way.
//!
//! On PostgreSQL the thread opens a pool of its own: a pool's sockets wake the runtime that
//! opened them, and a request must never wait for this thread to be scheduled. SQLite's
//! connections are plain files and locks, shared with the requests.

use std::sync::Arc;
use std::time::Duration;

use crate::app::App;
use crate::store::{Store, StoreError};

/// The name of the background thread (and of any its runtime starts), as `ps -L` shows it.
pub const THREAD: &str = "engine";

/// Why the background thread could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error("cannot start the engine's thread: {0}")]
    Thread(#[from] std::io::Error),
    #[error("the engine's database connections: {0}")]
    Store(#[from] StoreError),
    #[error("the engine's thread ended before it started its work")]
    Gone,
}

/// Starts the engine, the webhook sender and the export builder of `serve` on their thread,
/// `database` being the URL `app.store` was opened with (waiting at most `wait` for a
/// connection, like the requests). Returns once their store is open, so a database the thread
/// cannot reach fails the start rather than silently leaving the régua stopped.
pub async fn start(app: Arc<App>, database: String, wait: Duration) -> Result<(), StartError> {
    let (opened, started) = tokio::sync::oneshot::channel();
    std::thread::Builder::new().name(THREAD.into()).spawn(move || {
        crate::priority::become_background();
        let runtime =
            match tokio::runtime::Builder::new_current_thread().thread_name(THREAD).enable_all().build() {
                Ok(runtime) => runtime,
                Err(e) => {
                    let _ = opened.send(Err(StartError::Thread(e)));
                    return;
                }
            };
        runtime.block_on(async move {
            let store = if app.store.is_postgres() {
                match Store::open_for_background(&database, wait).await {
                    Ok(store) => store,
                    Err(e) => {
                        let _ = opened.send(Err(e.into()));
                        return;
                    }
                }
            } else {
                app.store.clone()
            };
            let jobs = [
                super::spawn(app.clone(), store.clone()),
                super::webhooks::spawn(app.clone(), store.clone()),
                super::exports::spawn(store),
            ];
            let _ = opened.send(Ok(()));
            for job in jobs {
                if let Err(e) = job.await {
                    tracing::error!(error = %e, "a background job stopped");
                }
            }
        });
    })?;
    started.await.map_err(|_| StartError::Gone)?
}
