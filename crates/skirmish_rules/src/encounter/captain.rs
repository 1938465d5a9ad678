//! docs/rules.md#captains: a minion squad's captain, and what its minions
//! gain while the captain stands.

use bevy_ecs::prelude::*;

use super::state::components::{SquadMember, Squads};
use super::world::entity_of;
use crate::ability::Effect;
use crate::content::CaptainBonus;
use crate::fast::KeyedWorld;
use crate::stats::Stamina;

/// What the creature gains from its squad's captain now: none unless it is
/// a minion of a squad whose captain stands (not dying or dead).
pub fn bonus(world: &World, entity: Entity) -> Option<CaptainBonus> {
    let n = world.comp::<SquadMember>(entity)?.0;
    let pool = world.get_res::<Squads>()?.0.get(&n)?;
    let captain = entity_of(world, pool.captain?)?;
    let standing = world
        .comp::<Stamina>(captain)
        .is_some_and(|s| s.current > 0 && !s.is_dead());
    standing.then_some(pool.with_captain).flatten()
}

/// An edge from the captain on a strike (docs/rules.md#captains).
pub fn edge(world: &World, entity: Entity, strike: bool) -> u32 {
    u32::from(strike && bonus(world, entity).is_some_and(|b| b.edge))
}

/// A strike's effects with the captain's damage added to its first damage.
pub fn add_damage(world: &World, entity: Entity, strike: bool, effects: &mut [Effect]) {
    let Some(b) = bonus(world, entity).filter(|b| strike && b.damage != 0) else {
        return;
    };
    if let Some(Effect::Damage { base, .. }) = effects
        .iter_mut()
        .find(|e| matches!(e, Effect::Damage { .. }))
    {
        *base += b.damage;
    }
}
