//! Reading the engine's resources and components without looking their
//! types up.
//!
//! `World::resource::<T>()` and `World::get::<T>(entity)` find `T`'s
//! component id in a map keyed by type on every call; the rules read a few
//! dozen resources and components a command that way, and the lookups were
//! a tenth of a random game's instructions. Each type here keeps the id it
//! had the last time it was read, and a read checks that the id still names
//! that type in the world at hand (one array read and a compare) before
//! using it; a world where it names another (one built in another order)
//! looks it up and keeps the new one. The results are the same as
//! `World`'s own calls, always.

use std::any::TypeId;
use std::sync::atomic::{AtomicUsize, Ordering};

use bevy_ecs::component::{ComponentId, Mutable};
use bevy_ecs::prelude::*;

/// A type that keeps the component id it was last read by.
pub trait Keyed: 'static {
    /// Where the id is kept (`usize::MAX`: none yet).
    fn slot() -> &'static AtomicUsize;
}

/// `Keyed` for each type named, each with its own slot.
macro_rules! keyed {
    ($($t:ty),* $(,)?) => {
        $(impl $crate::encounter::keyed::Keyed for $t {
            fn slot() -> &'static ::std::sync::atomic::AtomicUsize {
                static SLOT: ::std::sync::atomic::AtomicUsize =
                    ::std::sync::atomic::AtomicUsize::new(usize::MAX);
                &SLOT
            }
        })*
    };
}
pub(crate) use keyed;

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
    super::flow::TurnEvents,
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

/// The id of `T` in `world`, if it is registered: the kept one when it still
/// names `T` there.
#[inline]
fn id_of<T: Keyed>(world: &World) -> Option<ComponentId> {
    let kept = T::slot().load(Ordering::Relaxed);
    if kept != usize::MAX {
        let id = ComponentId::new(kept);
        if world
            .components()
            .get_info(id)
            .and_then(|i| i.type_id())
            .is_some_and(|t| t == TypeId::of::<T>())
        {
            return Some(id);
        }
    }
    let id = world.components().get_id(TypeId::of::<T>())?;
    T::slot().store(id.index(), Ordering::Relaxed);
    Some(id)
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
        second.res_mut::<A>().0 = 11;
        assert_eq!(second.resource::<A>(), &A(11));
        assert_eq!(first.resource::<A>(), &A(1));
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
