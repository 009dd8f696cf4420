//! Prometheus metrics (`GET /metrics`, text format 0.0.4): requests by surface, method and
//! status, and their durations; the engine's passes and the messages they left for the next
//! send window; deliveries by provider. Kept in process and rendered on demand; small enough
//! not to need an exporter crate.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::sync::Mutex;
use std::time::Duration;

use crate::providers::DeliveryCounts;

/// Upper bounds of the duration histogram, in seconds.
const BUCKETS: [f64; 10] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0, 5.0];

#[derive(Default)]
struct Histogram {
    counts: [u64; BUCKETS.len()],
    count: u64,
    sum: f64,
}

/// The counters of one process.
#[derive(Default)]
pub struct Metrics {
    requests: Mutex<BTreeMap<(&'static str, &'static str, u16), u64>>,
    durations: Mutex<BTreeMap<&'static str, Histogram>>,
    passes: Mutex<Passes>,
}

/// The engine's passes in this process.
#[derive(Default)]
struct Passes {
    count: u64,
    seconds: f64,
    last_seconds: f64,
    /// Messages due that the last pass left for the next send window.
    backlog: u64,
}

/// Which surface a path belongs to (a fixed set, so labels stay bounded).
pub fn surface(path: &str) -> &'static str {
    match path {
        "/mcp" | "/" => "mcp",
        p if p.starts_with("/mcp/") => "mcp",
        p if p.starts_with("/v1/") || p == "/v1" => "v1",
        p if p.starts_with("/.well-known/") => "metadata",
        _ => "other",
    }
}

impl Metrics {
    /// Records one answered request.
    pub fn record(&self, path: &str, method: &str, status: u16, elapsed: Duration) {
        let surface = surface(path);
        // Only standard methods become labels; anything else is counted as OTHER.
        let method = match method {
            "GET" => "GET",
            "POST" => "POST",
            "PATCH" => "PATCH",
            "PUT" => "PUT",
            "DELETE" => "DELETE",
            "OPTIONS" => "OPTIONS",
            "HEAD" => "HEAD",
            _ => "OTHER",
        };
        let mut requests = self.requests.lock().unwrap_or_else(|p| p.into_inner());
        *requests.entry((surface, method, status)).or_default() += 1;
        drop(requests);
        let seconds = elapsed.as_secs_f64();
        let mut durations = self.durations.lock().unwrap_or_else(|p| p.into_inner());
        let histogram = durations.entry(surface).or_default();
        for (i, bound) in BUCKETS.iter().enumerate() {
            if seconds <= *bound {
                histogram.counts[i] += 1;
            }
        }
        histogram.count += 1;
        histogram.sum += seconds;
    }

    /// Records one engine pass: how long it took and how many due messages it left for the
    /// next send window.
    pub fn record_pass(&self, elapsed: Duration, carried_over: u64) {
        let mut passes = self.passes.lock().unwrap_or_else(|p| p.into_inner());
        passes.count += 1;
        passes.seconds += elapsed.as_secs_f64();
        passes.last_seconds = elapsed.as_secs_f64();
        passes.backlog = carried_over;
    }

    /// The Prometheus text exposition, with the providers' `deliveries`.
    pub fn render(&self, deliveries: &DeliveryCounts) -> String {
        let mut out = String::new();
        self.render_requests(&mut out);
        let passes = self.passes.lock().unwrap_or_else(|p| p.into_inner());
        out.push_str("# HELP kobana_dunning_engine_pass_seconds Time the engine's passes took.\n");
        out.push_str("# TYPE kobana_dunning_engine_pass_seconds summary\n");
        let _ = writeln!(out, "kobana_dunning_engine_pass_seconds_sum {}", passes.seconds);
        let _ = writeln!(out, "kobana_dunning_engine_pass_seconds_count {}", passes.count);
        out.push_str("# HELP kobana_dunning_engine_last_pass_seconds Time the last pass took.\n");
        out.push_str("# TYPE kobana_dunning_engine_last_pass_seconds gauge\n");
        let _ = writeln!(out, "kobana_dunning_engine_last_pass_seconds {}", passes.last_seconds);
        out.push_str(
            "# HELP kobana_dunning_engine_due_backlog Messages due that the last pass left for the next send window.\n",
        );
        out.push_str("# TYPE kobana_dunning_engine_due_backlog gauge\n");
        let _ = writeln!(out, "kobana_dunning_engine_due_backlog {}", passes.backlog);
        drop(passes);
        out.push_str("# HELP kobana_dunning_deliveries_total Deliveries by provider and outcome.\n");
        out.push_str("# TYPE kobana_dunning_deliveries_total counter\n");
        for ((provider, outcome), n) in deliveries.snapshot() {
            let _ = writeln!(
                out,
                "kobana_dunning_deliveries_total{{provider=\"{provider}\",outcome=\"{outcome}\"}} {n}"
            );
        }
        out
    }

    /// The requests' counters and histograms.
    fn render_requests(&self, out: &mut String) {
        out.push_str(
            "# HELP kobana_dunning_http_requests_total Requests answered, by surface, method and status.\n",
        );
        out.push_str("# TYPE kobana_dunning_http_requests_total counter\n");
        for ((surface, method, status), n) in self.requests.lock().unwrap_or_else(|p| p.into_inner()).iter() {
            let _ = writeln!(
                out,
                "kobana_dunning_http_requests_total{{surface=\"{surface}\",method=\"{method}\",status=\"{status}\"}} {n}"
            );
        }
        out.push_str("# HELP kobana_dunning_http_request_duration_seconds Time to answer a request.\n");
        out.push_str("# TYPE kobana_dunning_http_request_duration_seconds histogram\n");
        for (surface, h) in self.durations.lock().unwrap_or_else(|p| p.into_inner()).iter() {
            for (bound, count) in BUCKETS.iter().zip(h.counts) {
                let _ = writeln!(
                    out,
                    "kobana_dunning_http_request_duration_seconds_bucket{{surface=\"{surface}\",le=\"{bound}\"}} {count}"
                );
            }
            let _ = writeln!(
                out,
                "kobana_dunning_http_request_duration_seconds_bucket{{surface=\"{surface}\",le=\"+Inf\"}} {}",
                h.count
            );
            let _ = writeln!(
                out,
                "kobana_dunning_http_request_duration_seconds_sum{{surface=\"{surface}\"}} {}",
                h.sum
            );
            let _ = writeln!(
                out,
                "kobana_dunning_http_request_duration_seconds_count{{surface=\"{surface}\"}} {}",
                h.count
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_histograms_render_in_prometheus_text() {
        let m = Metrics::default();
        m.record("/v1/charges", "GET", 200, Duration::from_millis(3));
        m.record("/v1/charges/chg_1", "GET", 200, Duration::from_millis(30));
        m.record("/mcp", "BREW", 405, Duration::from_millis(1));
        // A narrower MCP path is the MCP surface: no label per path.
        m.record("/mcp/x/charges,debtors", "BREW", 405, Duration::from_millis(1));
        let deliveries = DeliveryCounts::default();
        deliveries.count("gateway", true);
        m.record_pass(Duration::from_millis(1500), 7);
        let text = m.render(&deliveries);
        assert!(text.contains("kobana_dunning_engine_pass_seconds_count 1\n"), "{text}");
        assert!(text.contains("kobana_dunning_engine_last_pass_seconds 1.5\n"), "{text}");
        assert!(text.contains("kobana_dunning_engine_due_backlog 7\n"), "{text}");
        assert!(text.contains("kobana_dunning_deliveries_total{provider=\"gateway\",outcome=\"sent\"} 1\n"));
        assert!(
            text.contains(
                "kobana_dunning_http_requests_total{surface=\"v1\",method=\"GET\",status=\"200\"} 2"
            ),
            "{text}"
        );
        assert!(text.contains(
            "kobana_dunning_http_requests_total{surface=\"mcp\",method=\"OTHER\",status=\"405\"} 2"
        ));
        assert!(text.contains("duration_seconds_bucket{surface=\"v1\",le=\"0.005\"} 1"), "{text}");
        assert!(text.contains("duration_seconds_bucket{surface=\"v1\",le=\"0.05\"} 2"), "{text}");
        assert!(text.contains("duration_seconds_count{surface=\"v1\"} 2"));
    }
}
