//! Work that runs again and again for as long as the process lives.

use std::time::Duration as StdDuration;

use crate::store::StoreResult;

/// Runs `run` every `period` for as long as the process lives: a run that did something, or took
/// a second or more, logs one line as `what` with its report and duration; one that failed logs
/// why (the next run tries again). A run longer than the period is followed by one period of
/// rest, not a burst.
pub(crate) fn every<R, F, Fut>(period: StdDuration, what: &'static str, run: F) -> tokio::task::JoinHandle<()>
where
    R: std::fmt::Debug + Default + PartialEq + Send,
    F: Fn() -> Fut + Send + 'static,
    Fut: std::future::Future<Output = StoreResult<R>> + Send,
{
    tokio::spawn(async move {
        let mut ticks = tokio::time::interval(period);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            ticks.tick().await;
            let started = std::time::Instant::now();
            let result = run().await;
            let seconds = started.elapsed().as_secs_f64();
            match result {
                Ok(report) if report != R::default() || seconds >= 1.0 => {
                    tracing::info!(?report, seconds, "{what}")
                }
                Ok(_) => {}
                Err(e) => tracing::warn!(error = %e, "{what} failed; the next run tries again"),
            }
        }
    })
}
