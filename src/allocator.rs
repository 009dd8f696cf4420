//! The process's allocator: mimalloc (under load, glibc's malloc and free were 8 % of a
//! request's CPU, docs/PERFORMANCE.md), asked for plain blocks wherever their natural alignment
//! is enough. The `mimalloc` crate sends every request through mimalloc's aligned entry points,
//! whose extra checks and slower paths cost about 2,000 instructions of a GET's 80 allocations
//! (callgrind, issue 8).

use std::alloc::{GlobalAlloc, Layout};
use std::ffi::c_void;

use libmimalloc_sys::{
    mi_free, mi_malloc, mi_malloc_aligned, mi_realloc, mi_realloc_aligned, mi_zalloc, mi_zalloc_aligned,
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

#[cfg(test)]
mod tests {
    use super::*;

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
