//! Reading the engine's resources and components without looking their
//! types up.
//!
//! `World::resource::<T>()` and `World::get::<T>(entity)` find `T`'s
//! component id in a map keyed by type on every call; the rules read a few
//! dozen resources and components a command that way, and the lookups were
//! a tenth of a random game's instructions. Each type here keeps, on each
//! thread, the id it had in the world it was last read from there, and
//! the world's own id: a read from that world again uses it at once (a
//! world's ids never change, and no two worlds share an id); a read from
//! another world looks it up and keeps that one. The results are the same
//! as `World`'s own calls, always.
//!
//! The reads then go straight to the storage the value is kept in, known
//! from its type (`Component::STORAGE_TYPE`: a resource's is always a
//! sparse set, a creature's components are in tables). `World`'s own reads
//! also look the storage type up, and a resource read finds its entity's
//! place in the world as well, which nothing here needs; with those left
//! out, a random game took about 6% fewer instructions (README,
//! "Benchmarks"). The mutable reads make their `Mut` with the same change
//! ticks `World::get_resource_mut` and `World::get_mut` give.

use std::any::TypeId;
use std::cell::Cell;

use bevy_ecs::change_detection::{ComponentTickCells, Tick};
use bevy_ecs::component::{ComponentId, Mutable, StorageType};
use bevy_ecs::prelude::*;
use bevy_ecs::ptr::Ptr;
use bevy_ecs::storage::SparseSetIndex;

/// A type that keeps the component id it was last read by.
pub trait Keyed: 'static {
    /// Run `f` with where the id is kept on this thread: the world's index
    /// plus one in the high 32 bits, the id in the low 32 (0: none yet).
    fn with_slot<R>(f: impl FnOnce(&Cell<u64>) -> R) -> R;
}

/// `Keyed` for each type named, each with its own slot.
macro_rules! keyed {
    ($($t:ty),* $(,)?) => {
        $(impl $crate::fast::keyed::Keyed for $t {
            #[inline]
            fn with_slot<R>(f: impl FnOnce(&::std::cell::Cell<u64>) -> R) -> R {
                ::std::thread_local! {
                    static SLOT: ::std::cell::Cell<u64> =
                        const { ::std::cell::Cell::new(0) };
                }
                SLOT.with(f)
            }
        })*
    };
}
pub(crate) use keyed;

/// The id of `T` in `world`, if it is registered: the kept one when it was
/// kept for this world.
#[inline]
fn id_of<T: Keyed>(world: &World) -> Option<ComponentId> {
    let w = world.id().sparse_set_index() as u64 + 1;
    T::with_slot(|slot| {
        let kept = slot.get();
        if kept >> 32 == w {
            return Some(ComponentId::new((kept & u64::from(u32::MAX)) as usize));
        }
        let id = world.components().get_id(TypeId::of::<T>())?;
        // (A world or an id too large to pack is looked up every time.)
        if w <= u64::from(u32::MAX) && id.index() <= u32::MAX as usize {
            slot.set(w << 32 | id.index() as u64);
        }
        Some(id)
    })
}

/// A `Mut` of the `T` at `ptr`, with its ticks, as the world's own
/// mutable reads make it.
///
/// # Safety
/// `ptr` points to a `T` whose ticks are `ticks`, and nothing else borrows
/// either while the returned `Mut` lives.
#[inline]
unsafe fn unique<'w, T: Component<Mutability = Mutable>>(
    ptr: Ptr<'w>,
    ticks: ComponentTickCells<'w>,
    last_run: Tick,
    this_run: Tick,
) -> Mut<'w, T> {
    // SAFETY: as the caller promises.
    unsafe {
        Mut::new(
            ptr.assert_unique().deref_mut::<T>(),
            &mut *ticks.added.get(),
            &mut *ticks.changed.get(),
            last_run,
            this_run,
            ticks.changed_by.map(|c| &mut *c.get()),
        )
    }
}

/// The panic of a read of a resource the world lacks, as `World`'s own.
#[cold]
#[track_caller]
fn missing<T>() -> ! {
    panic!(
        "Requested resource {} does not exist in the `World`",
        std::any::type_name::<T>()
    )
}

/// `World`'s resource and component reads, through kept ids.
pub trait KeyedWorld {
    /// As `World::get_resource`.
    fn get_res<T: Resource + Keyed>(&self) -> Option<&T>;
    /// As `World::resource`: panics when `T` is missing.
    fn res<T: Resource + Keyed>(&self) -> &T;
    /// As `World::get_resource_mut`.
    fn get_res_mut<T: Resource + Component<Mutability = Mutable> + Keyed>(
        &mut self,
    ) -> Option<Mut<'_, T>>;
    /// As `World::resource_mut`: panics when `T` is missing.
    fn res_mut<T: Resource + Component<Mutability = Mutable> + Keyed>(&mut self) -> Mut<'_, T>;
    /// As `World::get` for a component of `entity`.
    fn comp<T: Component + Keyed>(&self, entity: Entity) -> Option<&T>;
    /// As `World::get_mut` for a component of `entity`.
    fn comp_mut<T: Component<Mutability = Mutable> + Keyed>(
        &mut self,
        entity: Entity,
    ) -> Option<Mut<'_, T>>;
}

// The resource reads and the component writes are inlined at every use:
// short now, their calls cost a random game about 1.5% more instructions.
impl KeyedWorld for World {
    #[inline(always)]
    fn get_res<T: Resource + Keyed>(&self) -> Option<&T> {
        let id = id_of::<T>(self)?;
        let ptr = if T::STORAGE_TYPE == StorageType::SparseSet {
            // Straight to its sparse set: the world's own read would also
            // find the resource entity's place and the storage type.
            let entity = self.resource_entities().get(id)?;
            self.storages().sparse_sets.get(id)?.get(entity)?
        } else {
            self.get_resource_by_id(id)?
        };
        // SAFETY: `id` names `T` in this world (checked by `id_of`), so the
        // resource stored under it is a `T`; `&self` keeps the world from
        // being written while the borrow lives, as `World::get_resource`.
        Some(unsafe { ptr.deref::<T>() })
    }

    #[inline(always)]
    #[track_caller]
    fn res<T: Resource + Keyed>(&self) -> &T {
        self.get_res::<T>().unwrap_or_else(|| missing::<T>())
    }

    #[inline(always)]
    fn get_res_mut<T: Resource + Component<Mutability = Mutable> + Keyed>(
        &mut self,
    ) -> Option<Mut<'_, T>> {
        let id = id_of::<T>(self)?;
        if T::STORAGE_TYPE != StorageType::SparseSet {
            let ptr = self.get_resource_mut_by_id(id)?;
            // SAFETY: as in `get_res`.
            return Some(unsafe { ptr.with_type::<T>() });
        }
        // As `get_res`, with the ticks `World::get_resource_mut` gives.
        let (last_run, this_run) = (self.last_change_tick(), self.change_tick());
        let entity = self.resource_entities().get(id)?;
        let (ptr, ticks) = self
            .storages()
            .sparse_sets
            .get(id)?
            .get_with_ticks(entity)?;
        // SAFETY: the value is a `T` (as in `get_res`), and `&mut self`
        // makes this the only borrow of it and of its ticks while the
        // returned `Mut` lives; `T` is mutable (its bound).
        unsafe { Some(unique::<T>(ptr, ticks, last_run, this_run)) }
    }

    #[inline(always)]
    #[track_caller]
    fn res_mut<T: Resource + Component<Mutability = Mutable> + Keyed>(&mut self) -> Mut<'_, T> {
        self.get_res_mut::<T>().unwrap_or_else(|| missing::<T>())
    }

    // (Called, not inlined: inlined at its hundreds of uses, a random
    // game took 1.5% more instructions.)
    #[inline(never)]
    fn comp<T: Component + Keyed>(&self, entity: Entity) -> Option<&T> {
        let id = id_of::<T>(self)?;
        // Straight to the storage `T` is kept in (its storage type is known
        // here; the world's own read looks it up).
        let location = self.entities().get_spawned(entity).ok()?;
        let ptr = match T::STORAGE_TYPE {
            StorageType::Table => {
                let table = self.storages().tables.get(location.table_id)?;
                // SAFETY: a spawned entity's row is within its table.
                unsafe { table.get_column(id)?.get_data_unchecked(location.table_row) }
            }
            StorageType::SparseSet => self.storages().sparse_sets.get(id)?.get(entity)?,
        };
        // SAFETY: as in `get_res`: the component stored under `id` is a `T`.
        Some(unsafe { ptr.deref::<T>() })
    }

    #[inline(always)]
    fn comp_mut<T: Component<Mutability = Mutable> + Keyed>(
        &mut self,
        entity: Entity,
    ) -> Option<Mut<'_, T>> {
        let id = id_of::<T>(self)?;
        // As `comp`, with the ticks `World::get_mut` gives.
        let (last_run, this_run) = (self.last_change_tick(), self.change_tick());
        let location = self.entities().get_spawned(entity).ok()?;
        let (ptr, ticks) = match T::STORAGE_TYPE {
            StorageType::Table => {
                let column = self
                    .storages()
                    .tables
                    .get(location.table_id)?
                    .get_column(id)?;
                let row = location.table_row;
                // SAFETY: a spawned entity's row is within its table.
                unsafe {
                    (
                        column.get_data_unchecked(row),
                        ComponentTickCells {
                            added: column.get_added_tick_unchecked(row),
                            changed: column.get_changed_tick_unchecked(row),
                            changed_by: column.get_changed_by_unchecked(row),
                        },
                    )
                }
            }
            StorageType::SparseSet => self
                .storages()
                .sparse_sets
                .get(id)?
                .get_with_ticks(entity)?,
        };
        // SAFETY: as in `get_res_mut`.
        unsafe { Some(unique::<T>(ptr, ticks, last_run, this_run)) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Resource, Debug, PartialEq)]
    struct A(u32);
    #[derive(Resource, Debug, PartialEq)]
    struct B(u32);
    #[derive(Component, Debug, PartialEq)]
    struct C(u32);
    keyed!(A, B, C);

    #[test]
    fn reads_match_the_worlds_own_in_worlds_built_in_different_orders() {
        // The first world registers A before B; the second B before A, so
        // the id A kept from the first names B in the second.
        let mut first = World::new();
        first.insert_resource(A(1));
        first.insert_resource(B(2));
        let e1 = first.spawn(C(3)).id();
        let mut second = World::new();
        second.insert_resource(B(20));
        second.insert_resource(A(10));
        let e2 = second.spawn(C(30)).id();
        for _ in 0..2 {
            assert_eq!(first.res::<A>(), &A(1));
            assert_eq!(second.res::<A>(), &A(10));
            assert_eq!(first.res::<B>(), &B(2));
            assert_eq!(second.res::<B>(), &B(20));
            assert_eq!(first.comp::<C>(e1), Some(&C(3)));
            assert_eq!(second.comp::<C>(e2), Some(&C(30)));
        }
        // A component written through the kept id is the world's own.
        first.comp_mut::<C>(e1).expect("spawned with C").0 = 4;
        assert_eq!(first.get::<C>(e1), Some(&C(4)));
        assert_eq!(second.get::<C>(e2), Some(&C(30)));
        let bare = first.spawn_empty().id();
        assert!(first.comp_mut::<C>(bare).is_none());
        second.res_mut::<A>().0 = 11;
        assert_eq!(second.resource::<A>(), &A(11));
        assert_eq!(first.resource::<A>(), &A(1));
        // Another thread keeps its own ids, and reads the same.
        std::thread::scope(|scope| {
            scope.spawn(|| {
                for _ in 0..2 {
                    assert_eq!(second.res::<A>(), &A(11));
                    assert_eq!(first.res::<A>(), &A(1));
                    assert_eq!(second.comp::<C>(e2), Some(&C(30)));
                }
            });
        });
        assert_eq!(second.res::<B>(), &B(20));
        second.remove_resource::<B>();
        assert!(second.get_res::<B>().is_none());
        assert!(second.get_res_mut::<B>().is_none());
        let empty = World::new();
        assert!(empty.get_res::<A>().is_none());
        // A missing resource is a panic naming it, as `World::resource`.
        let e = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            empty.res::<A>();
        }))
        .unwrap_err();
        assert!(
            e.downcast_ref::<String>()
                .is_some_and(|m| m.contains("keyed::tests::A"))
        );
        first.despawn(e1);
        assert_eq!(first.comp::<C>(e1), None);
    }

    #[derive(Component, Debug, PartialEq)]
    #[component(storage = "SparseSet")]
    struct D(u32);
    keyed!(D);

    #[test]
    fn writes_mark_changes_as_the_worlds_own_and_sparse_components_read_the_same() {
        let mut world = World::new();
        world.insert_resource(A(1));
        let e = world.spawn((C(1), D(1))).id();
        let bare = world.spawn(C(2)).id();
        // Later ticks, so a write is told from the insertion.
        world.increment_change_tick();
        world.increment_change_tick();
        let now = world.change_tick();
        assert!(world.get_resource_change_ticks::<A>().unwrap().changed != now);
        world.res_mut::<A>().0 = 2;
        assert_eq!(world.get_resource_change_ticks::<A>().unwrap().changed, now);
        world.comp_mut::<C>(e).unwrap().0 = 3;
        world.comp_mut::<D>(e).unwrap().0 = 4;
        for ticks in [
            world.entity(e).get_change_ticks::<C>().unwrap(),
            world.entity(e).get_change_ticks::<D>().unwrap(),
        ] {
            assert_eq!(ticks.changed, now);
            assert!(ticks.added != now);
        }
        // Taken but not written: not marked, as `World::get_mut`.
        world.increment_change_tick();
        let _ = world.comp_mut::<C>(e).unwrap();
        assert_eq!(
            world.entity(e).get_change_ticks::<C>().unwrap().changed,
            now
        );
        assert_eq!(
            (world.comp::<C>(e), world.comp::<D>(e)),
            (Some(&C(3)), Some(&D(4)))
        );
        assert_eq!(world.comp::<D>(bare), None);
        assert!(world.comp_mut::<D>(bare).is_none());
        world.entity_mut(e).remove::<D>();
        assert_eq!(world.comp::<D>(e), None);
        assert_eq!(world.comp::<C>(e), Some(&C(3)));
        world.despawn(e);
        assert!(world.comp_mut::<C>(e).is_none());
        assert_eq!(world.comp::<C>(bare), Some(&C(2)));
        // A resource taken away and put back is read where it now is.
        world.remove_resource::<A>();
        assert!(world.get_res::<A>().is_none());
        world.insert_resource(A(9));
        assert_eq!(world.res::<A>(), &A(9));
        world.res_mut::<A>().0 = 10;
        assert_eq!(world.resource::<A>(), &A(10));
    }
}
