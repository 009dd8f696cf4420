//! The engine's committed writes, counted for the crash tests.

/// Counts a write the engine committed; aborts the process after the N-th when
/// `KOBANA_DUNNING_ABORT_AFTER_WRITES=N` is set (crash tests: whatever the pass had left to do
/// is then left undone, as after a crash at that point).
pub(super) fn committed() {
    use std::sync::LazyLock;
    use std::sync::atomic::{AtomicU64, Ordering};
    static LIMIT: LazyLock<Option<u64>> = LazyLock::new(|| {
        std::env::var("KOBANA_DUNNING_ABORT_AFTER_WRITES").ok().and_then(|n| n.parse().ok())
    });
    static WRITES: AtomicU64 = AtomicU64::new(0);
    if let Some(limit) = *LIMIT
        && WRITES.fetch_add(1, Ordering::SeqCst) + 1 >= limit
    {
        std::process::abort();
    }
}
