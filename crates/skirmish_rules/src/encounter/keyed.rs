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

use std::any::TypeId;
use std::cell::Cell;

use bevy_ecs::component::{ComponentId, Mutable};
use bevy_ecs::prelude::*;
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
        $(impl $crate::encounter::keyed::Keyed for $t {
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

// The resources and components the rules read outside systems.
keyed!(
    crate::content::Content,
    crate::dice::Dice,
    crate::conditions::Conditions,
    crate::stats::Stamina,
    crate::stats::Characteristics,
    crate::stats::DamageTraits,
    super::act::Battlefield,
    super::act::RaisedWalls,
    super::act::RollFacts,
    super::flow::Flow,
    super::flow::Malice,
    super::flow::ActiveRuleset,
    super::glyph::Glyphs,
    super::log::CombatLog,
    super::react::Resolution,
    super::setup::CreatureIndex,
    bevy_state::state::State<super::flow::Phase>,
    bevy_state::state::NextState<super::flow::Phase>,
    super::components::Abilities,
    super::components::Auras,
    super::components::Bonuses,
    super::components::Casting,
    super::components::Creature,
    super::components::FreeStrike,
    super::components::Heroic,
    super::components::Movement,
    super::components::PreparedAbilities,
    super::components::Progress,
    super::components::Space,
    super::components::SquadMember,
    super::components::Squads,
    super::components::Stance,
    super::components::Summoned,
    super::components::TurnBudget,
);

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

impl KeyedWorld for World {
    #[inline]
    fn get_res<T: Resource + Keyed>(&self) -> Option<&T> {
        let id = id_of::<T>(self)?;
        let ptr = self.get_resource_by_id(id)?;
        // SAFETY: `id` names `T` in this world (checked by `id_of`), so the
        // resource stored under it is a `T`.
        Some(unsafe { ptr.deref::<T>() })
    }

    #[inline]
    #[track_caller]
    fn res<T: Resource + Keyed>(&self) -> &T {
        self.get_res::<T>().unwrap_or_else(|| missing::<T>())
    }

    #[inline]
    fn get_res_mut<T: Resource + Component<Mutability = Mutable> + Keyed>(
        &mut self,
    ) -> Option<Mut<'_, T>> {
        let id = id_of::<T>(self)?;
        let ptr = self.get_resource_mut_by_id(id)?;
        // SAFETY: as in `get_res`.
        Some(unsafe { ptr.with_type::<T>() })
    }

    #[inline]
    #[track_caller]
    fn res_mut<T: Resource + Component<Mutability = Mutable> + Keyed>(&mut self) -> Mut<'_, T> {
        self.get_res_mut::<T>().unwrap_or_else(|| missing::<T>())
    }

    #[inline]
    fn comp<T: Component + Keyed>(&self, entity: Entity) -> Option<&T> {
        let id = id_of::<T>(self)?;
        let ptr = self.get_entity(entity).ok()?.get_by_id(id).ok()?;
        // SAFETY: as in `get_res`: the component stored under `id` is a `T`.
        Some(unsafe { ptr.deref::<T>() })
    }

    #[inline]
    fn comp_mut<T: Component<Mutability = Mutable> + Keyed>(
        &mut self,
        entity: Entity,
    ) -> Option<Mut<'_, T>> {
        let id = id_of::<T>(self)?;
        let ptr = self.get_mut_by_id(entity, id)?;
        // SAFETY: as in `comp`.
        Some(unsafe { ptr.with_type::<T>() })
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
}
