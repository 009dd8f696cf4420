//! The connection cap must fit the process's file descriptors: past them `accept` fails
//! (EMFILE) before the cap is reached, and the database could not open files either.

// getrlimit and setrlimit have no safe wrapper in std.
#![allow(unsafe_code)]

/// Descriptors kept for everything that is not a connection (database, logs, listeners).
const RESERVED: u64 = 64;

/// `wanted` connections, after raising the soft descriptor limit as far as the hard one allows;
/// fewer, with a warning, when the hard limit is lower.
pub fn fit(wanted: usize) -> usize {
    let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: getrlimit and setrlimit only read and write the struct passed to them.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } != 0 {
        return wanted;
    }
    let needed = wanted as u64 + RESERVED;
    if limit.rlim_cur < needed {
        let raised = libc::rlimit { rlim_cur: needed.min(limit.rlim_max), rlim_max: limit.rlim_max };
        // SAFETY: as above.
        if unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &raised) } == 0 {
            limit.rlim_cur = raised.rlim_cur;
        }
    }
    let fits = limit.rlim_cur.saturating_sub(RESERVED) as usize;
    if fits < wanted {
        tracing::warn!(wanted, fits, "fewer file descriptors than --max-connections: capping connections");
    }
    wanted.min(fits.max(1))
}
