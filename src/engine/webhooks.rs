//! The webhook sender, beside the engine in `serve`: every second it attempts the deliveries
//! that are due (new events, and retries whose wait has passed), so a receiver hears of an event
//! about a second after it is written. `engine run-once` runs it once after the pass.

use std::sync::Arc;
use std::time::Duration;

use time::OffsetDateTime;

use crate::app::App;
use crate::outbound::webhook_delivery::Sender;
use crate::store::Store;

/// How often `serve` looks for due deliveries.
pub const PERIOD: Duration = Duration::from_secs(1);

/// Runs the sender on `store` until the process ends.
pub fn spawn(app: Arc<App>, store: Store) -> tokio::task::JoinHandle<()> {
    super::every(PERIOD, "webhook deliveries", move || {
        let app = app.clone();
        let store = store.clone();
        async move {
            let sender = Sender { store: &store, providers: &app.providers, key: &app.key };
            sender.send_due(OffsetDateTime::now_utc()).await
        }
    })
}
