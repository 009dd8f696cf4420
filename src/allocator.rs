//! The process's allocator is mimalloc (`mimalloc::MiMalloc` in `main.rs`): under load,
//! glibc's malloc and free were 8 % of a request's CPU (docs/PERFORMANCE.md). This module sets
//! the one option the crate does not name.

// mimalloc's options are set through its C interface: unsafe by nature.
#![allow(unsafe_code)]

use libmimalloc_sys::{mi_option_set, mi_option_t};

/// `mi_option_page_full_retain` of the vendored mimalloc 3 (`mimalloc.h`; the crate names only
/// the older options). How many full pages a size class keeps among its candidate pages.
const PAGE_FULL_RETAIN: mi_option_t = 36;

/// The environment variable that overrides [`PAGE_FULL_RETAIN`], as mimalloc reads it.
const PAGE_FULL_RETAIN_VAR: &str = "MIMALLOC_PAGE_FULL_RETAIN";

/// Sets mimalloc's options for a server; call once, first thing in `main`, before any thread is
/// started: a thread's heap reads the option when it is made, so the runtime's workers, which
/// answer the requests, take it, and the main thread's heap, made before `main`, keeps mimalloc's
/// default.
///
/// Full pages are not kept among a size class's candidates. With the default (2), a size class
/// whose page is full of long-lived blocks and whose one request-long block sits alone on a
/// second page frees that second page whenever the block is freed (it is not the class's only
/// page, so it is not kept), and takes a fresh page from the arena for the next request: the
/// 2 KiB tool text did that on every tools/call, about 2 % of the call's CPU in the profile
/// (docs/PERFORMANCE.md). A full page then waits in the full queue until a block of it
/// is freed, as mimalloc 2 did.
pub fn configure() {
    // mimalloc reads its variables whatever their case.
    let overridden = std::env::vars_os().any(|(name, _)| name.eq_ignore_ascii_case(PAGE_FULL_RETAIN_VAR));
    if !overridden {
        // SAFETY: setting an option is thread-safe and takes any value.
        unsafe { mi_option_set(PAGE_FULL_RETAIN, 0) }
    }
}

#[cfg(test)]
mod tests {
    use libmimalloc_sys::mi_option_get;

    use super::*;

    #[test]
    fn the_option_numbers_are_those_of_the_vendored_header() {
        if std::env::vars_os()
            .any(|(name, _)| name.to_string_lossy().to_ascii_uppercase().starts_with("MIMALLOC_"))
        {
            return; // the defaults below are not what an environment that sets options sees
        }
        // `page_full_retain` and its neighbours hold their documented defaults (`options.c`):
        // the enum has the layout the constant was read from (`generic_collect` 34,
        // `page_full_retain` 36, `page_max_candidates` 37). Only this test sets an option.
        // SAFETY: reading an option has no precondition.
        let defaults = unsafe { (mi_option_get(34), mi_option_get(PAGE_FULL_RETAIN), mi_option_get(37)) };
        assert_eq!(defaults, (10_000, 2, 4));
        configure();
        // SAFETY: as above.
        assert_eq!(unsafe { mi_option_get(PAGE_FULL_RETAIN) }, 0);
    }
}
