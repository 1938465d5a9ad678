//! Buffers kept on each thread between uses: a buffer given back with
//! [`keep`] is handed out again by [`take_kept`] instead of a new
//! allocation. The pools themselves are `thread_local!` statics of type
//! [`Pool`] declared where their buffers are used (the movement search's
//! occupancy grids); what they hold must be emptied by its user before it
//! is kept, or cleared after it is taken.

use std::cell::RefCell;

/// A pool's contents, behind a `thread_local!`.
pub(crate) type Pool<T> = RefCell<Vec<T>>;

/// A pool on each thread.
type Kept<T> = std::thread::LocalKey<Pool<T>>;

/// How many buffers of one kind a pool keeps: a few may be alive at once
/// (an AI scoring during a listing); more than that are let go.
const KEPT: usize = 4;

/// A buffer kept in `pool`, or a new one. (A pool already borrowed, or a
/// thread being torn down, gives a new one.)
pub(crate) fn take_kept<T: Default>(pool: &'static Kept<T>) -> T {
    pool.try_with(|p| p.try_borrow_mut().ok().and_then(|mut p| p.pop()))
        .ok()
        .flatten()
        .unwrap_or_default()
}

/// Keep `item` in `pool` for the next use, unless it holds enough.
pub(crate) fn keep<T>(pool: &'static Kept<T>, item: T) {
    let _ = pool.try_with(|p| {
        if let Ok(mut p) = p.try_borrow_mut()
            && p.len() < KEPT
        {
            p.push(item);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    thread_local! {
        static BUFFERS: Pool<Vec<u32>> = const { RefCell::new(Vec::new()) };
    }

    #[test]
    fn a_kept_buffer_is_handed_out_again_and_the_pool_stays_small() {
        // Empty at first: a new buffer.
        let mut a: Vec<u32> = take_kept(&BUFFERS);
        assert_eq!(a.capacity(), 0);
        a.reserve(64);
        let at = a.as_ptr();
        keep(&BUFFERS, a);
        // The same allocation comes back.
        let b = take_kept(&BUFFERS);
        assert_eq!(b.as_ptr(), at);
        assert!(b.capacity() >= 64);
        // No more than `KEPT` are kept.
        for _ in 0..KEPT + 3 {
            keep(&BUFFERS, Vec::with_capacity(8));
        }
        assert_eq!(BUFFERS.with(|p| p.borrow().len()), KEPT);
        // While the pool is borrowed (a use inside another), taking gives
        // a new buffer and keeping lets it go, without a panic.
        BUFFERS.with(|p| {
            let _held = p.borrow_mut();
            assert_eq!(take_kept(&BUFFERS).capacity(), 0);
            keep(&BUFFERS, vec![1]);
        });
        assert_eq!(BUFFERS.with(|p| p.borrow().len()), KEPT);
    }
}
