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
//! - `alloc` (feature `mimalloc`): the allocator glue for the binary and
//!   the benchmarks.
//!
//! The entry for rules code is `KeyedWorld` (`world.res::<T>()`,
//! `world.comp::<T>(e)`) and the world-access functions built on
//! `CachedQuery`; nothing here knows a rule.

#[cfg(feature = "mimalloc")]
pub mod alloc;
pub(crate) mod kept;
pub mod keyed;

pub(crate) use kept::{CachedQuery, KeptQuery, QuerySlot};
pub use keyed::KeyedWorld;
