//! The webhook sender, beside the engine in `serve`: every second it attempts the deliveries
//! that are due (new events, and retries whose wait has passed), so a receiver hears of an event
//! about a second after it is written. `engine run-once` runs it once after the pass.

use std::sync::Arc;
use std::time::Duration;

use time::OffsetDateTime;

use crate::api::webhook_delivery::{SendReport, Sender};
use crate::app::App;

/// How often `serve` looks for due deliveries.
pub const PERIOD: Duration = Duration::from_secs(1);

/// Runs the sender until the process ends.
pub fn spawn(app: Arc<App>) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut ticks = tokio::time::interval(PERIOD);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            ticks.tick().await;
            let sender = Sender { store: &app.store, providers: &app.providers, key: &app.key };
            match sender.send_due(OffsetDateTime::now_utc()).await {
                Ok(report) if report != SendReport::default() => tracing::info!(
                    delivered = report.delivered,
                    retrying = report.retrying,
                    failed = report.failed,
                    "webhook deliveries"
                ),
                Ok(_) => {}
                Err(e) => tracing::warn!(error = %e, "webhook deliveries failed; the next run tries again"),
            }
        }
    })
}
