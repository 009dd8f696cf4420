//! Sign-in throttling against password guessing: at most 5 attempts for one e-mail within 15
//! minutes are judged; every further attempt for that e-mail is refused, the right password
//! included, until fewer than 5 attempts remain in the window. An attempt is recorded (a row
//! in the database, so every replica counts the same ones) before its password is checked,
//! and counted with the attempts before it, one e-mail's attempts one after another: of
//! attempts made at once exactly 5 are judged. A successful sign-in clears the e-mail's attempts.

use time::{Duration, OffsetDateTime};

use super::error::OAuthResult;
use crate::domain::dates::format_timestamp;
use crate::store::Store;

/// Attempts judged within [`WINDOW`].
pub const MAX_ATTEMPTS: i64 = 5;
/// The window attempts are counted over.
pub const WINDOW: Duration = Duration::minutes(15);

/// Whether an attempt that is the `attempts`-th within the window is refused unjudged.
pub fn over_limit(attempts: i64) -> bool {
    attempts > MAX_ATTEMPTS
}

/// Records a sign-in attempt for an e-mail at `now`; whether its password may be checked
/// (false: too many attempts for this e-mail in the window, this one refused).
pub async fn admit(store: &Store, email: &str, now: OffsetDateTime) -> OAuthResult<bool> {
    let attempts =
        store.record_sign_in_attempt(email, &format_timestamp(now), &format_timestamp(now - WINDOW)).await?;
    Ok(!over_limit(attempts))
}

/// Forgets an e-mail's attempts (it signed in).
pub async fn clear(store: &Store, email: &str) -> OAuthResult<()> {
    Ok(store.clear_sign_in_failures(email).await?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_store_path() -> std::path::PathBuf {
        std::env::temp_dir().join(format!("kd-throttle-{}.db", uuid::Uuid::now_v7().simple()))
    }

    fn remove(path: &std::path::Path) {
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
        }
    }

    #[tokio::test]
    async fn five_attempts_in_the_window_are_judged_and_old_ones_do_not_count() {
        let path = temp_store_path();
        let store = Store::open(&format!("sqlite://{}", path.display())).await.unwrap();
        let now = OffsetDateTime::now_utc();
        let email = "ana@example.com";
        for minutes in [40, 30, 20, 16, 15] {
            let old = now - Duration::minutes(minutes) - Duration::seconds(1);
            assert!(admit(&store, email, old).await.unwrap());
        }
        for attempt in 1..=5 {
            assert!(admit(&store, email, now).await.unwrap(), "attempt {attempt}: older ones do not count");
        }
        assert!(!admit(&store, email, now).await.unwrap(), "the sixth attempt is refused");
        assert!(admit(&store, "other@example.com", now).await.unwrap(), "per e-mail");
        clear(&store, email).await.unwrap();
        assert!(admit(&store, email, now).await.unwrap(), "a sign-in clears the attempts");
        while admit(&store, email, now).await.unwrap() {}
        assert!(
            admit(&store, email, now + WINDOW + Duration::seconds(1)).await.unwrap(),
            "the window passes"
        );
        remove(&path);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn attempts_at_once_are_judged_at_most_five() {
        let path = temp_store_path();
        let store = std::sync::Arc::new(Store::open(&format!("sqlite://{}", path.display())).await.unwrap());
        let now = OffsetDateTime::now_utc();
        let mut set = tokio::task::JoinSet::new();
        for _ in 0..20 {
            let store = store.clone();
            set.spawn(async move { admit(&store, "ana@example.com", now).await.unwrap() });
        }
        let admitted = set.join_all().await.into_iter().filter(|a| *a).count();
        assert_eq!(admitted, MAX_ATTEMPTS as usize);
        remove(&path);
    }
}
