//! What a listing worked out, handed to the resolution of the command
//! taken from it: the encounter's facade puts it in
//! a [`Handoff`] just before it carries out that command and clears it
//! just after, so rules code never takes a flag or an argument that only
//! saves time. A rule that can use it asks [`handed`] or [`take_handed`];
//! one that does not find it works everything out again, with the same
//! result.

use super::keyed::{Keyed, KeyedWorld};
use bevy_ecs::prelude::*;

/// What was handed over for the command under way, if anything.
#[derive(Resource)]
pub(crate) struct Handoff<T: Send + Sync + 'static>(Option<T>);

impl<T: Send + Sync + 'static> Default for Handoff<T> {
    fn default() -> Self {
        Handoff(None)
    }
}

/// Hand `item` to the command about to be carried out (replacing anything
/// left of an earlier one).
pub(crate) fn hand_over<T: Send + Sync + 'static>(world: &mut World, item: T)
where
    Handoff<T>: Keyed,
{
    match world.get_res_mut::<Handoff<T>>() {
        Some(mut h) => h.0 = Some(item),
        None => world.insert_resource(Handoff(Some(item))),
    }
}

/// What was handed over, to read.
pub(crate) fn handed<T: Send + Sync + 'static>(world: &World) -> Option<&T>
where
    Handoff<T>: Keyed,
{
    world.get_res::<Handoff<T>>()?.0.as_ref()
}

/// What was handed over, taken (it serves once).
pub(crate) fn take_handed<T: Send + Sync + 'static>(world: &mut World) -> Option<T>
where
    Handoff<T>: Keyed,
{
    world.get_res_mut::<Handoff<T>>()?.0.take()
}

/// Drop whatever is left of a hand-off (the command is done).
pub(crate) fn clear_handed<T: Send + Sync + 'static>(world: &mut World)
where
    Handoff<T>: Keyed,
{
    if let Some(mut h) = world.get_res_mut::<Handoff<T>>()
        && h.0.is_some()
    {
        h.0 = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    crate::fast::keyed::keyed!(Handoff<u32>, Handoff<u64>);

    #[test]
    fn a_handoff_serves_once_and_is_cleared() {
        let mut world = World::new();
        // Nothing handed: nothing found, and clearing is harmless.
        assert_eq!(handed::<u32>(&world), None);
        clear_handed::<u32>(&mut world);
        hand_over(&mut world, 7u32);
        assert_eq!(handed::<u32>(&world), Some(&7));
        // Another kind is not confused with it.
        assert_eq!(handed::<u64>(&world), None);
        assert_eq!(take_handed::<u32>(&mut world), Some(7));
        assert_eq!(take_handed::<u32>(&mut world), None);
        hand_over(&mut world, 8u32);
        hand_over(&mut world, 9u32);
        clear_handed::<u32>(&mut world);
        assert_eq!(handed::<u32>(&world), None);
    }
}
