//! How many deliveries each provider took and how many failed, for `/metrics`.

use std::collections::BTreeMap;
use std::sync::Mutex;

/// Deliveries by (provider, outcome), outcome `sent` or `failed`.
#[derive(Debug, Default)]
pub struct DeliveryCounts(Mutex<BTreeMap<(&'static str, &'static str), u64>>);

impl DeliveryCounts {
    /// Counts one delivery by `provider`.
    pub fn count(&self, provider: &'static str, sent: bool) {
        let outcome = if sent { "sent" } else { "failed" };
        let mut counts = self.0.lock().unwrap_or_else(|p| p.into_inner());
        *counts.entry((provider, outcome)).or_default() += 1;
    }

    /// ((provider, outcome), count), in that order.
    pub fn snapshot(&self) -> Vec<((&'static str, &'static str), u64)> {
        self.0.lock().unwrap_or_else(|p| p.into_inner()).iter().map(|(k, n)| (*k, *n)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_by_provider_and_outcome() {
        let counts = DeliveryCounts::default();
        counts.count("gateway", true);
        counts.count("gateway", true);
        counts.count("gateway", false);
        counts.count("outbox", true);
        assert_eq!(
            counts.snapshot(),
            [(("gateway", "failed"), 1), (("gateway", "sent"), 2), (("outbox", "sent"), 1)]
        );
    }
}
