//! The speed machinery, fenced off from the rules: what makes a random
//! game take two milliseconds instead of twenty, and nothing a rule
//! depends on for its meaning. Every result is the same as Bevy's own
//! calls would give (each part has a test that checks it against them).
//!
//! - [`KeyedWorld`] (`keyed`): reads of resources and components with
//!   their ids kept per thread, instead of looked up by type each time.
//! - [`CachedQuery`] (`kept`): queries built once per thread and world.
//!   World access (`encounter/world.rs`) is the one place that names the
//!   queries kept; the rules read the world through it.
//! - `in_order` ([`run_in_order`]): the executor of the turn boundary's
//!   stages, their systems one after another without Bevy's bookkeeping.
//! - `pool` ([`take_kept`], [`keep`]): buffers kept per thread between
//!   uses (the movement search's occupancy grids).
//! - `handoff` ([`hand_over`]): what a listing worked out, handed to the
//!   resolution of the command taken from it (a listed move's path is not
//!   searched again; its walk reads who is where from the listing).
//! - `alloc` (feature `mimalloc`): the allocator glue for the binary and
//!   the benchmarks.
//!
//! The entry for rules code is `KeyedWorld` (`world.res::<T>()`,
//! `world.comp::<T>(e)`) and the world-access functions built on
//! `CachedQuery`; nothing here knows a rule.

#[cfg(feature = "mimalloc")]
pub mod alloc;
mod handoff;
mod in_order;
pub(super) mod kept;
pub mod keyed;
mod pool;

pub(crate) use handoff::{Handoff, clear_handed, hand_over, handed, take_handed};
pub(crate) use in_order::run_in_order;
#[cfg(test)]
pub(crate) use in_order::unconditional;
pub(crate) use kept::{CachedQuery, KeptQuery, QuerySlot};
pub use keyed::KeyedWorld;
pub(crate) use pool::{Pool, keep, take_kept};
