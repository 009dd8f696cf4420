//! The process's allocator: mimalloc (under load, glibc's malloc and free were 8 % of a
//! request's CPU, docs/PERFORMANCE.md), asked for plain blocks wherever their natural alignment
//! is enough. The `mimalloc` crate sends every request through mimalloc's aligned entry points,
//! whose extra checks and slower paths cost about 2,000 instructions of a GET's 80 allocations
//! (callgrind).

// The allocator calls mimalloc through its C interface: unsafe by nature.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout};
use std::ffi::c_void;

use libmimalloc_sys::{
    mi_free, mi_malloc, mi_malloc_aligned, mi_option_set, mi_option_t, mi_realloc, mi_realloc_aligned,
    mi_zalloc, mi_zalloc_aligned,
};

/// Every mimalloc block is aligned to a machine word at least; a layout asking for no more can
/// take a plain block.
const WORD: usize = std::mem::size_of::<usize>();

/// mimalloc as the global allocator (`#[global_allocator]` in the binary).
#[derive(Debug, Clone, Copy, Default)]
pub struct Allocator;

// SAFETY: every pointer handed out comes from mimalloc with at least the layout's size and
// alignment (plain blocks only where a word's alignment suffices), and is given back to
// mimalloc, which frees and resizes blocks of either kind.
unsafe impl GlobalAlloc for Allocator {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: mimalloc's allocation functions take any size and a power-of-two alignment.
        unsafe {
            if layout.align() <= WORD {
                mi_malloc(layout.size()).cast()
            } else {
                mi_malloc_aligned(layout.size(), layout.align()).cast()
            }
        }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as in `alloc`.
        unsafe {
            if layout.align() <= WORD {
                mi_zalloc(layout.size()).cast()
            } else {
                mi_zalloc_aligned(layout.size(), layout.align()).cast()
            }
        }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
        // SAFETY: `ptr` came from this allocator, so from mimalloc.
        unsafe { mi_free(ptr.cast::<c_void>()) }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: `ptr` came from this allocator with `layout`; the new block keeps its alignment.
        unsafe {
            if layout.align() <= WORD {
                mi_realloc(ptr.cast::<c_void>(), new_size).cast()
            } else {
                mi_realloc_aligned(ptr.cast::<c_void>(), new_size, layout.align()).cast()
            }
        }
    }
}

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

    #[test]
    fn blocks_keep_their_alignment_and_contents() {
        let allocator = Allocator;
        for (size, align) in [(1, 1), (24, 8), (24, 16), (100, 32), (4096, 4096), (3, 2)] {
            let layout = Layout::from_size_align(size, align).unwrap();
            // SAFETY: the layouts have a non-zero size; each block is written within its size,
            // resized and freed once, with the layout it was allocated with.
            unsafe {
                let block = allocator.alloc_zeroed(layout);
                assert!(!block.is_null() && block.addr().is_multiple_of(align), "{size} {align}");
                assert!((0..size).all(|i| *block.add(i) == 0));
                block.write_bytes(7, size);
                let grown = allocator.realloc(block, layout, size * 3);
                assert!(!grown.is_null() && grown.addr().is_multiple_of(align), "{size} {align}");
                assert!((0..size).all(|i| *grown.add(i) == 7));
                allocator.dealloc(grown, Layout::from_size_align(size * 3, align).unwrap());
            }
        }
    }
}
