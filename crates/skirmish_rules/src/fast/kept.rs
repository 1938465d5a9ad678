//! Kept queries: a query built once per thread for the world it last ran
//! on, instead of once per call ([`CachedQuery`]). World access
//! (`encounter/world.rs`) names the queries kept, with [`kept_queries!`].

use bevy_ecs::prelude::*;

/// A query kept on each thread for the world it was last run on, so that
/// its components are looked up once rather than once per creature per
/// call (the functions using them run for every listing and every move).
///
/// Kept outside the world, with no lock: a query kept in the world as a
/// resource cost a resource read and a lock and an unlock each time, about
/// eight times a command. Each thread keeps its own (`sim --jobs` plays a
/// world on each thread); a read from another world builds the query anew
/// for that world and keeps it instead (a world's id is never reused).
pub(crate) struct CachedQuery<D: bevy_ecs::query::QueryData + 'static>(
    pub(crate) std::marker::PhantomData<D>,
);

/// Where a [`CachedQuery`] is kept on this thread: the world's id, the
/// query built for it, and the world's archetype generation when the query
/// was last brought up to date with it (none: not since it was built).
pub(crate) type QuerySlot<D> = std::cell::RefCell<Option<KeptState<D>>>;

/// A kept query and what it was kept for (see [`QuerySlot`]).
pub(crate) struct KeptState<D: bevy_ecs::query::QueryData + 'static> {
    pub(super) world: bevy_ecs::world::WorldId,
    pub(super) seen: Option<bevy_ecs::archetype::ArchetypeGeneration>,
    pub(super) query: QueryState<D>,
}

/// A [`CachedQuery`] with a slot of its own on each thread.
pub(crate) trait KeptQuery<D: bevy_ecs::query::QueryData + 'static> {
    fn with_slot<R>(f: impl FnOnce(&QuerySlot<D>) -> R) -> R;
}

/// `KeptQuery` for each query type named, each with its own slot, and
/// `cache_queries`, which builds them all at setup.
macro_rules! kept_queries {
    ($($d:ty),* $(,)?) => {
        $(impl KeptQuery<$d> for CachedQuery<$d> {
            #[inline]
            fn with_slot<R>(f: impl FnOnce(&QuerySlot<$d>) -> R) -> R {
                ::std::thread_local! {
                    static SLOT: QuerySlot<$d> = const { ::std::cell::RefCell::new(None) };
                }
                SLOT.with(f)
            }
        })*

        /// Build the queries the hot paths keep, and register their
        /// components (at setup): each query named above, so none is
        /// left out.
        pub(super) fn cache_queries(world: &mut World) {
            $(CachedQuery::<$d>::prime(world);)*
        }
    };
}

/// A query lent by [`CachedQuery`]: the thread's kept one, or one made for
/// the call.
pub(super) enum Lent<'s, D: bevy_ecs::query::QueryData + 'static> {
    Kept(std::cell::RefMut<'s, QueryState<D>>),
    /// (Boxed: a query is large, and a lent one is passed around.)
    Own(Box<QueryState<D>>),
}

impl<D: bevy_ecs::query::QueryData + 'static> std::ops::Deref for Lent<'_, D> {
    type Target = QueryState<D>;
    fn deref(&self) -> &QueryState<D> {
        match self {
            Lent::Kept(q) => q,
            Lent::Own(q) => q,
        }
    }
}

impl<D: bevy_ecs::query::QueryData + 'static> std::ops::DerefMut for Lent<'_, D> {
    fn deref_mut(&mut self) -> &mut QueryState<D> {
        match self {
            Lent::Kept(q) => q,
            Lent::Own(q) => q,
        }
    }
}

impl<D: bevy_ecs::query::QueryData + 'static> CachedQuery<D> {
    /// `slot`'s query for `world`, brought up to date with it (built
    /// first if the slot holds another world's). A query already in use
    /// further up this thread's stack lends nothing: the caller gets one of
    /// its own. None while the world lacks the query's components.
    ///
    /// A query is brought up to date only when the world has gained an
    /// archetype since it last was: `QueryState::update_archetypes` does
    /// nothing else for the kept queries' plain component reads (it looks
    /// at the archetypes added since, and a world never loses one), and as
    /// a call it cost about 45 instructions, a million times in 100 random
    /// games.
    #[inline(always)]
    fn lend<'s>(slot: &'s QuerySlot<D>, world: &World) -> Option<Lent<'s, D>> {
        let Ok(mut kept) = slot.try_borrow_mut() else {
            return QueryState::try_new(world).map(|q| Lent::Own(Box::new(q)));
        };
        let id = world.id();
        if kept.as_ref().is_none_or(|k| k.world != id) {
            *kept = Some(KeptState {
                world: id,
                seen: None,
                query: QueryState::try_new(world)?,
            });
        }
        let now = world.archetypes().generation();
        let k = std::cell::RefMut::filter_map(kept, |k| k.as_mut()).ok()?;
        let q = std::cell::RefMut::map(k, |k| {
            if k.seen != Some(now) {
                k.query.update_archetypes(world);
                k.seen = Some(now);
            }
            &mut k.query
        });
        Some(Lent::Kept(q))
    }

    /// Build the query for `world` and keep it on this thread, registering
    /// its components (so that any thread can build it from then on, as
    /// `lend` does, though no creature has them yet: a summoned one).
    pub(crate) fn prime(world: &mut World)
    where
        Self: KeptQuery<D>,
    {
        let query = world.query::<D>();
        let id = world.id();
        Self::with_slot(|slot| {
            if let Ok(mut kept) = slot.try_borrow_mut() {
                *kept = Some(KeptState {
                    world: id,
                    seen: None,
                    query,
                });
            }
        });
    }

    /// Run `f` with the query brought up to date with `world`.
    pub(crate) fn with<R>(world: &World, f: impl FnOnce(&mut QueryState<D>) -> R) -> Option<R>
    where
        Self: KeptQuery<D>,
    {
        Self::with_slot(|slot| {
            let mut q = Self::lend(slot, world)?;
            Some(f(&mut q))
        })
    }

    /// [`CachedQuery::with`] for a query that writes: `f` gets the world
    /// too, mutably.
    pub(crate) fn with_mut<R>(
        world: &mut World,
        f: impl FnOnce(&mut QueryState<D>, &mut World) -> R,
    ) -> Option<R>
    where
        Self: KeptQuery<D>,
    {
        Self::with_slot(|slot| {
            let mut q = Self::lend(slot, world)?;
            Some(f(&mut q, world))
        })
    }
}

pub(crate) use kept_queries;
