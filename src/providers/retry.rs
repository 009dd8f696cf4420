//! When a failed delivery is tried again. A transient failure waits 1 minute, then 5, then 30,
//! then 2 hours; the fifth failed attempt, or any permanent failure, ends the notification as
//! `failed` with the error as its reason (about two and a half hours after the first attempt).

use std::time::Duration;

use super::ProviderError;

/// Attempts a notification gets in all, the first included.
pub const MAX_ATTEMPTS: u32 = 5;

const DELAYS: [Duration; 4] = [
    Duration::from_secs(60),
    Duration::from_secs(5 * 60),
    Duration::from_secs(30 * 60),
    Duration::from_secs(2 * 60 * 60),
];

/// The wait after the `attempt`-th attempt failed (1 for the first) before the next one:
/// 1 min, 5 min, 30 min, then 2 h for every later one. Zero for `attempt` 0 (nothing tried yet).
pub fn retry_delay(attempt: u32) -> Duration {
    match attempt {
        0 => Duration::ZERO,
        n => DELAYS[(n as usize - 1).min(DELAYS.len() - 1)],
    }
}

/// After the `attempt`-th attempt failed with `error`: how long to wait before the next, or
/// `None` to give up (a permanent error, or that was attempt [`MAX_ATTEMPTS`]).
pub fn next_retry(attempt: u32, error: &ProviderError) -> Option<Duration> {
    (error.is_transient() && attempt < MAX_ATTEMPTS).then(|| retry_delay(attempt))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delays_grow_then_hold() {
        let minutes = |n: u32| retry_delay(n).as_secs() / 60;
        assert_eq!(retry_delay(0), Duration::ZERO);
        assert_eq!([1, 2, 3, 4, 5, 100].map(minutes), [1, 5, 30, 120, 120, 120]);
        assert_eq!(retry_delay(u32::MAX), Duration::from_secs(7200));
    }

    #[test]
    fn retries_stop_at_the_last_attempt_or_a_permanent_error() {
        let transient = ProviderError::Transient("smtp: 451 try later".into());
        let permanent = ProviderError::Permanent("smtp: 550 no such mailbox".into());
        let schedule: Vec<_> = (1..=MAX_ATTEMPTS).map(|n| next_retry(n, &transient)).collect();
        assert_eq!(
            schedule,
            [
                Some(Duration::from_secs(60)),
                Some(Duration::from_secs(300)),
                Some(Duration::from_secs(1800)),
                Some(Duration::from_secs(7200)),
                None
            ]
        );
        assert_eq!(next_retry(1, &permanent), None);
    }
}
