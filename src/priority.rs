//! The CPU priority of the thread that does the work no request waits for (the engine's passes,
//! webhook deliveries, exports: `engine::background`). It runs at the lowest priority the system
//! has (`SCHED_IDLE` on Linux), so requests keep the core. While it holds something a request
//! may wait for (SQLite's writer, a reader), a request that finds it taken lifts the thread to
//! the usual priority until it lets go: a request never waits behind work the scheduler holds
//! back (priority inheritance, by hand, since these locks are tokio's and not the kernel's).
//!
//! Elsewhere than Linux every call here does nothing: the work runs at the usual priority.

use std::cell::Cell;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// The background thread, once there is one.
static BACKGROUND: OnceLock<os::Thread> = OnceLock::new();
/// Locks the background thread holds that a request may wait for.
static HOLDING: AtomicUsize = AtomicUsize::new(0);
/// Whether a waiting request lifted the background thread.
static LIFTED: AtomicBool = AtomicBool::new(false);

thread_local! {
    static ON_BACKGROUND: Cell<bool> = const { Cell::new(false) };
}

/// Makes the calling thread the process's background thread, at the lowest priority, if this
/// process can lift it back ([`can_lift`]); else it keeps the usual priority, since a request
/// could wait for it with nothing to hurry it, and says so. Threads it starts from now on
/// inherit its priority (not its role). True when it was lowered.
pub fn become_background() -> bool {
    if !can_lift() {
        tracing::info!(
            "the background work runs at the usual CPU priority: a thread at the lowest one could \
             not be lifted back while a request waits for it (that needs CAP_SYS_NICE, or an \
             RLIMIT_NICE of 20: systemd's LimitNICE=20)"
        );
        return false;
    }
    if BACKGROUND.set(os::current()).is_ok() {
        ON_BACKGROUND.set(true);
    }
    lower_current();
    true
}

/// Whether this process may lift a thread back from the lowest priority: Linux lets a thread
/// leave `SCHED_IDLE` only with `CAP_SYS_NICE` or an `RLIMIT_NICE` that allows nice 0. Tried on a
/// thread of its own.
pub fn can_lift() -> bool {
    std::thread::spawn(|| os::lower(os::current()).is_ok() && os::raise(os::current()).is_ok())
        .join()
        .unwrap_or(false)
}

/// Puts the calling thread at the lowest priority; where the system refuses, it says so and
/// the thread keeps its priority.
pub fn lower_current() {
    if let Err(why) = os::lower(os::current()) {
        tracing::warn!(%why, "the background work runs at the usual CPU priority");
    }
}

/// A lock the background thread holds; letting it go drops the lift a request gave.
pub struct Held(());

impl Drop for Held {
    fn drop(&mut self) {
        if HOLDING.fetch_sub(1, Ordering::AcqRel) == 1 && LIFTED.swap(false, Ordering::AcqRel) {
            lower_current();
        }
    }
}

/// Called as a lock requests may wait for is taken: on the background thread, a [`Held`] to keep
/// with it; elsewhere nothing.
pub fn holding() -> Option<Held> {
    ON_BACKGROUND.get().then(|| {
        HOLDING.fetch_add(1, Ordering::AcqRel);
        Held(())
    })
}

/// Called before waiting for a lock someone holds: if the background thread holds one, it runs
/// at the usual priority until it lets go of its locks. (A lift that comes just after it let go
/// lasts until it next does: at most one unit of its work.)
pub fn waiting() {
    if ON_BACKGROUND.get() || HOLDING.load(Ordering::Acquire) == 0 || LIFTED.swap(true, Ordering::AcqRel) {
        return;
    }
    if let Some(thread) = BACKGROUND.get()
        && let Err(why) = os::raise(*thread)
    {
        tracing::warn!(%why, "a request waits for the background work at its lowest CPU priority");
    }
}

#[cfg(target_os = "linux")]
mod os {
    use thread_priority::{
        NormalThreadSchedulePolicy, ThreadPriority, ThreadPriorityValue, ThreadSchedulePolicy,
    };

    pub type Thread = thread_priority::ThreadId;

    pub fn current() -> Thread {
        thread_priority::thread_native_id()
    }

    /// `SCHED_IDLE`.
    pub fn lower(thread: Thread) -> Result<(), String> {
        set(thread, NormalThreadSchedulePolicy::Idle, ThreadPriority::Min)
    }

    /// `SCHED_OTHER`, the usual policy. The crate then sets the *calling* thread's nice value
    /// from the priority given: 48 on its 0–99 scale is nice 0, a request thread's own.
    pub fn raise(thread: Thread) -> Result<(), String> {
        let usual = ThreadPriorityValue::try_from(48u8).map_err(|e| e.to_string())?;
        set(thread, NormalThreadSchedulePolicy::Other, ThreadPriority::Crossplatform(usual))
    }

    /// Sets `thread`'s policy. What the crate says of the nice value it sets next (which a
    /// process started under `nice` may not be allowed to) matters only if the policy did not
    /// take.
    fn set(
        thread: Thread,
        policy: NormalThreadSchedulePolicy,
        priority: ThreadPriority,
    ) -> Result<(), String> {
        let wanted = ThreadSchedulePolicy::Normal(policy);
        let set = thread_priority::set_thread_priority_and_policy(thread, priority, wanted);
        match thread_priority::thread_schedule_policy_param(thread) {
            Ok((now, _)) if now == wanted => Ok(()),
            _ => Err(format!("{set:?}")),
        }
    }
}

#[cfg(not(target_os = "linux"))]
mod os {
    pub type Thread = ();

    pub fn current() -> Thread {}

    pub fn lower(_: Thread) -> Result<(), String> {
        Ok(())
    }

    pub fn raise(_: Thread) -> Result<(), String> {
        Ok(())
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use std::sync::mpsc;

    use thread_priority::{NormalThreadSchedulePolicy, ThreadSchedulePolicy};

    use super::*;

    fn policy() -> ThreadSchedulePolicy {
        thread_priority::thread_schedule_policy().expect("the thread's policy")
    }

    const IDLE: ThreadSchedulePolicy = ThreadSchedulePolicy::Normal(NormalThreadSchedulePolicy::Idle);
    const USUAL: ThreadSchedulePolicy = ThreadSchedulePolicy::Normal(NormalThreadSchedulePolicy::Other);

    fn root() -> bool {
        let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
        status.lines().any(|l| l.split_whitespace().collect::<Vec<_>>().get(..2) == Some(&["Uid:", "0"]))
    }

    #[test]
    fn a_waiting_request_lifts_the_background_thread_until_it_lets_go() {
        assert!(can_lift() || !root(), "root may always lift a thread");
        if !can_lift() {
            return;
        }
        let (holds, held) = mpsc::channel();
        let (waited, wait_done) = mpsc::channel::<()>();
        let background = std::thread::spawn(move || {
            assert!(become_background());
            assert_eq!(policy(), IDLE);
            let lock = holding().expect("the background thread's lock is counted");
            holds.send(()).unwrap();
            wait_done.recv().unwrap();
            assert_eq!(policy(), USUAL, "lifted while it holds the lock");
            drop(lock);
            assert_eq!(policy(), IDLE, "back down once it let go");
        });
        held.recv().unwrap();
        assert!(holding().is_none(), "a request's lock is not counted");
        waiting();
        assert_eq!(policy(), USUAL, "the request keeps its own priority");
        waited.send(()).unwrap();
        background.join().unwrap();
    }
}
