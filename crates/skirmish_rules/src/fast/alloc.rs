//! The allocator of the `skirmish` binary, the benchmarks and the examples:
//! mimalloc, asked for plain blocks whenever a plain block will do.
//!
//! A simulation allocates and drops some twenty small lists a command
//! (paths, listings, who stands where). The `mimalloc` crate's allocator
//! asks mimalloc for an aligned block every time, whatever the alignment;
//! for blocks of more than a kilobyte, or whenever its small-block page is
//! empty, that takes mimalloc's generic aligned path, which allocates
//! extra and aligns within it. mimalloc's blocks are always aligned to a
//! word (their sizes are whole words, their pages start on 16 bytes), so
//! for a type aligned to a word or less a plain `mi_malloc` is the same
//! block by the short road. Wider alignments still go the aligned way.
//! (This is what the standard library's own allocator does with `malloc`.)

use core::alloc::{GlobalAlloc, Layout};
use core::ffi::c_void;

use libmimalloc_sys as mi;

/// The alignment every mimalloc block has.
const WORD: usize = core::mem::size_of::<usize>();

/// mimalloc as the global allocator:
/// `#[global_allocator] static A: skirmish_rules::fast::alloc::MiMalloc = skirmish_rules::fast::alloc::MiMalloc;`
pub struct MiMalloc;

// SAFETY: each call hands mimalloc's own blocks in and out: `mi_malloc`,
// `mi_zalloc` and `mi_realloc` return word-aligned blocks of at least the
// size asked (or null), which meets any layout aligned to a word or less;
// the others go to mimalloc's aligned calls; `mi_free` takes a block from
// any of them.
unsafe impl GlobalAlloc for MiMalloc {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: see the impl.
        unsafe {
            if layout.align() <= WORD {
                mi::mi_malloc(layout.size()) as *mut u8
            } else {
                mi::mi_malloc_aligned(layout.size(), layout.align()) as *mut u8
            }
        }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: see the impl.
        unsafe {
            if layout.align() <= WORD {
                mi::mi_zalloc(layout.size()) as *mut u8
            } else {
                mi::mi_zalloc_aligned(layout.size(), layout.align()) as *mut u8
            }
        }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
        // SAFETY: `ptr` came from one of the calls above.
        unsafe { mi::mi_free(ptr as *mut c_void) }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: see the impl; `ptr` came from one of the calls above.
        unsafe {
            if layout.align() <= WORD {
                mi::mi_realloc(ptr as *mut c_void, new_size) as *mut u8
            } else {
                mi::mi_realloc_aligned(ptr as *mut c_void, new_size, layout.align()) as *mut u8
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Blocks of every alignment from a byte to a page, of sizes around
    // mimalloc's small-block limit, come back aligned, keep what was
    // written in them through a growth and a shrink, and zeroed ones are
    // zero.
    #[test]
    fn blocks_are_aligned_and_keep_their_bytes() {
        let a = MiMalloc;
        for align in [1, 2, 4, 8, 16, 32, 64, 4096] {
            for size in [1usize, 7, 8, 24, 100, 1000, 1024, 1100, 5000, 70_000] {
                let size = size.next_multiple_of(align);
                let layout = Layout::from_size_align(size, align).unwrap();
                // SAFETY: a layout of non-zero size; every block is freed
                // with the layout it has.
                unsafe {
                    let p = a.alloc(layout);
                    assert!(!p.is_null());
                    assert_eq!(p as usize % align, 0, "size {size}, align {align}");
                    for i in 0..size {
                        *p.add(i) = (i % 251) as u8;
                    }
                    let grown = a.realloc(p, layout, size * 3);
                    assert_eq!(grown as usize % align, 0);
                    assert!((0..size).all(|i| *grown.add(i) == (i % 251) as u8));
                    let big = Layout::from_size_align(size * 3, align).unwrap();
                    let shrunk = a.realloc(grown, big, size.div_ceil(2));
                    assert_eq!(shrunk as usize % align, 0);
                    assert!((0..size.div_ceil(2)).all(|i| *shrunk.add(i) == (i % 251) as u8));
                    a.dealloc(
                        shrunk,
                        Layout::from_size_align(size.div_ceil(2), align).unwrap(),
                    );
                    let z = a.alloc_zeroed(layout);
                    assert_eq!(z as usize % align, 0);
                    assert!((0..size).all(|i| *z.add(i) == 0));
                    a.dealloc(z, layout);
                }
            }
        }
    }
}
