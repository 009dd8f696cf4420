//! Rate limits and overload: a token bucket per access token, shared by REST and MCP (an MCP
//! request counts once, its in-process call does not count again), and a bound on requests in
//! flight, beyond which (and while draining) the answer is 503.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// The limits of a server.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Requests a minute per token.
    pub per_minute: u32,
    /// Bucket size: the burst a token may send at once.
    pub burst: u32,
    /// Requests served at once; more are refused with 503.
    pub max_in_flight: usize,
    /// Requests a minute per client address without a valid token (also the burst).
    pub anonymous_per_minute: u32,
}

impl Default for Limits {
    fn default() -> Self {
        Self { per_minute: 600, burst: 60, max_in_flight: 1024, anonymous_per_minute: 60 }
    }
}

/// A refusal by the rate limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limited {
    /// Seconds until a request would be accepted.
    pub retry_after: u64,
    /// The limit a minute.
    pub limit: u32,
    /// Seconds until the bucket is full again.
    pub reset: u64,
}

impl Limited {
    /// `Retry-After` and the `RateLimit-*` headers of a 429.
    pub fn headers(&self) -> Vec<(&'static str, String)> {
        vec![
            ("Retry-After", self.retry_after.to_string()),
            ("RateLimit-Limit", self.limit.to_string()),
            ("RateLimit-Remaining", "0".to_string()),
            ("RateLimit-Reset", self.reset.to_string()),
        ]
    }
}

struct Bucket {
    tokens: f64,
    at: Instant,
}

/// Token buckets by key: a token id, or a client address (per process: replicas each count
/// their own share).
pub struct RateLimiter {
    per_minute: u32,
    burst: u32,
    buckets: Mutex<foldhash::HashMap<String, Bucket>>,
    pruned: Mutex<Instant>,
}

/// Above this many buckets, full (idle) ones are dropped: they hold nothing a new one would not.
const PRUNE_ABOVE: usize = 10_000;

impl RateLimiter {
    /// A limiter of `per_minute` requests a minute per key, `burst` at once.
    pub fn new(per_minute: u32, burst: u32) -> Self {
        Self {
            per_minute,
            burst,
            buckets: Mutex::new(foldhash::HashMap::default()),
            pruned: Mutex::new(Instant::now()),
        }
    }

    fn rate_per_second(&self) -> f64 {
        f64::from(self.per_minute.max(1)) / 60.0
    }

    /// Counts one request of `key`, or says when to come back.
    pub fn check(&self, key: &str) -> Result<(), Limited> {
        let now = Instant::now();
        let burst = f64::from(self.burst.max(1));
        let rate = self.rate_per_second();
        let mut buckets = self.buckets.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        // Pruning is a full scan: at most once a second, however many buckets there are.
        if buckets.len() > PRUNE_ABOVE {
            let mut pruned = self.pruned.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            if now.duration_since(*pruned).as_secs() >= 1 {
                buckets.retain(|_, b| b.tokens + now.duration_since(b.at).as_secs_f64() * rate < burst);
                *pruned = now;
            }
        }
        // The key is copied only for a new bucket, not on every request.
        if !buckets.contains_key(key) {
            buckets.insert(key.to_string(), Bucket { tokens: burst, at: now });
        }
        let bucket = buckets.get_mut(key).expect("inserted above");
        bucket.tokens = (bucket.tokens + now.duration_since(bucket.at).as_secs_f64() * rate).min(burst);
        bucket.at = now;
        if bucket.tokens >= 1.0 {
            bucket.tokens -= 1.0;
            return Ok(());
        }
        Err(Limited {
            retry_after: ((1.0 - bucket.tokens) / rate).ceil().max(1.0) as u64,
            limit: self.per_minute,
            reset: ((burst - bucket.tokens) / rate).ceil() as u64,
        })
    }
}

/// Requests in flight, and whether the server is draining.
pub struct Load {
    permits: std::sync::Arc<Semaphore>,
    draining: AtomicBool,
}

impl Load {
    /// A bound of `max_in_flight` requests.
    pub fn new(max_in_flight: usize) -> Self {
        Self { permits: std::sync::Arc::new(Semaphore::new(max_in_flight)), draining: AtomicBool::new(false) }
    }

    /// A slot for one request, or `None` when full or draining.
    pub fn admit(&self) -> Option<OwnedSemaphorePermit> {
        if self.draining.load(Ordering::Acquire) {
            return None;
        }
        self.permits.clone().try_acquire_owned().ok()
    }

    /// From now on, new requests are refused while those in flight finish.
    pub fn drain(&self) {
        self.draining.store(true, Ordering::Release);
    }

    /// Whether the server is draining.
    pub fn is_draining(&self) -> bool {
        self.draining.load(Ordering::Acquire)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bucket_allows_its_burst_then_refuses_with_a_retry_time() {
        let limiter = RateLimiter::new(1, 3);
        for _ in 0..3 {
            assert!(limiter.check("a").is_ok());
        }
        let limited = limiter.check("a").unwrap_err();
        assert_eq!(limited.limit, 1);
        assert!((59..=60).contains(&limited.retry_after), "{limited:?}");
        assert!((179..=180).contains(&limited.reset), "the whole bucket refills in 3 minutes: {limited:?}");
        assert!(limiter.check("b").is_ok(), "buckets are per token");
    }

    #[test]
    fn load_refuses_beyond_its_bound_and_while_draining() {
        let load = Load::new(1);
        let first = load.admit();
        assert!(first.is_some());
        assert!(load.admit().is_none());
        drop(first);
        assert!(load.admit().is_some());
        load.drain();
        assert!(load.admit().is_none());
    }
}
