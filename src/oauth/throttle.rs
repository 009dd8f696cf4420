//! Sign-in throttling against password guessing: 5 failures for one e-mail within 15 minutes
//! refuse every further attempt for that e-mail, the right password included, until the oldest
//! of them is 15 minutes old. Failures are rows in the database, so every replica counts the
//! same ones; a successful sign-in clears them.

use time::{Duration, OffsetDateTime};

use super::error::OAuthResult;
use crate::domain::dates::format_timestamp;
use crate::store::Store;

/// Failures allowed within [`WINDOW`].
pub const MAX_FAILURES: i64 = 5;
/// The window failures are counted over.
pub const WINDOW: Duration = Duration::minutes(15);

/// Whether `failures` within the window lock the e-mail.
pub fn locked(failures: i64) -> bool {
    failures >= MAX_FAILURES
}

/// Whether sign-in is refused for an e-mail at `now`.
pub async fn is_locked(store: &Store, email: &str, now: OffsetDateTime) -> OAuthResult<bool> {
    let failures = store.sign_in_failures_since(email, &format_timestamp(now - WINDOW)).await?;
    Ok(locked(failures))
}

/// Records a failure for an e-mail at `now`.
pub async fn record_failure(store: &Store, email: &str, now: OffsetDateTime) -> OAuthResult<()> {
    Ok(store.record_sign_in_failure(email, &format_timestamp(now), &format_timestamp(now - WINDOW)).await?)
}

/// Forgets an e-mail's failures (it signed in).
pub async fn clear(store: &Store, email: &str) -> OAuthResult<()> {
    Ok(store.clear_sign_in_failures(email).await?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn five_failures_in_the_window_lock_and_old_ones_do_not_count() {
        let path = std::env::temp_dir().join(format!("kd-throttle-{}.db", uuid::Uuid::now_v7().simple()));
        let store = Store::open(&format!("sqlite://{}", path.display())).await.unwrap();
        let now = OffsetDateTime::now_utc();
        let email = "ana@example.com";
        for minutes in [40, 30, 20, 16, 15] {
            record_failure(&store, email, now - Duration::minutes(minutes) - Duration::seconds(1))
                .await
                .unwrap();
        }
        assert!(!is_locked(&store, email, now).await.unwrap(), "failures older than 15 minutes do not count");
        for _ in 0..4 {
            record_failure(&store, email, now).await.unwrap();
        }
        assert!(!is_locked(&store, email, now).await.unwrap(), "four failures leave a fifth attempt");
        record_failure(&store, email, now).await.unwrap();
        assert!(is_locked(&store, email, now).await.unwrap(), "the sixth attempt is refused");
        assert!(!is_locked(&store, "other@example.com", now).await.unwrap(), "per e-mail");
        assert!(
            !is_locked(&store, email, now + WINDOW + Duration::seconds(1)).await.unwrap(),
            "the window passes"
        );
        clear(&store, email).await.unwrap();
        assert!(!is_locked(&store, email, now).await.unwrap());
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
        }
    }
}
