//! The basic actions' checks: stand up, catch breath, escape a grab, hide,
//! free strikes. Each rule is a function of plain data the listing asks
//! too; the world-reading check adds the action's budget.

use super::*;
use crate::conditions::ConditionKind;
use crate::stats::Health;

/// docs/rules.md#prone: "a prone creature can stand up using the Stand Up
/// maneuver"; "Restrained": "can't use the Stand Up maneuver".
pub(crate) fn can_stand(conditions: &Conditions) -> Result<(), Refusal> {
    if !conditions.has(ConditionKind::Prone) {
        return Err(Refusal::NotProne);
    }
    if conditions.has(ConditionKind::Restrained) {
        return Err(Refusal::CannotStand("restrained"));
    }
    if conditions.has(ConditionKind::CantStand) {
        return Err(Refusal::CannotStand("can't stand until the effect ends"));
    }
    Ok(())
}

/// [`can_stand`], and the maneuver's budget.
pub(crate) fn stand_up(world: &World, entity: Entity) -> Result<TurnBudget, Refusal> {
    let none = Conditions::default();
    can_stand(world.comp::<Conditions>(entity).unwrap_or(&none))?;
    spend(world, entity, ActionType::Maneuver)
}

/// docs/rules.md#stamina: "the Catch Breath maneuver spends a recovery to
/// heal [the recovery value]"; only heroes have recoveries, and a dying
/// hero can't Catch Breath.
pub(crate) fn can_catch_breath(stamina: &Stamina, hero: bool) -> Result<(), Refusal> {
    if !hero {
        return Err(Refusal::CannotCatchBreath("only heroes have recoveries"));
    }
    if stamina.health() == Health::Dying {
        return Err(Refusal::CannotCatchBreath("dying"));
    }
    if stamina.recoveries == 0 {
        return Err(Refusal::CannotCatchBreath("no recoveries left"));
    }
    Ok(())
}

/// [`can_catch_breath`], and the maneuver's budget.
pub(crate) fn catch_breath(
    world: &World,
    entity: Entity,
    id: CreatureId,
) -> Result<TurnBudget, Refusal> {
    let stamina = world
        .comp::<Stamina>(entity)
        .ok_or_else(|| Refusal::NoSuchCreature(Who::id(id)))?;
    can_catch_breath(stamina, world.comp::<Heroic>(entity).is_some())?;
    spend(world, entity, ActionType::Maneuver)
}

/// docs/rules.md#grabbed: a grabbed creature may try to escape (its
/// grabber, if so).
pub(crate) fn can_escape(conditions: &Conditions) -> Result<CreatureId, Refusal> {
    conditions
        .source_of(ConditionKind::Grabbed)
        .ok_or(Refusal::NotGrabbed)
}

/// [`can_escape`], and the maneuver's budget.
pub(crate) fn escape_grab(world: &World, entity: Entity) -> Result<TurnBudget, Refusal> {
    let none = Conditions::default();
    can_escape(world.comp::<Conditions>(entity).unwrap_or(&none))?;
    spend(world, entity, ActionType::Maneuver)
}

/// Release (no action): the creature must have grabbed someone
/// (docs/rules.md#grabbed). Its budget is unchanged.
pub(crate) fn release(
    world: &World,
    entity: Entity,
    id: CreatureId,
) -> Result<TurnBudget, Refusal> {
    if crate::encounter::world::grabbed_by(world, id).is_empty() {
        return Err(Refusal::NothingToRelease(Who::of(world, id)));
    }
    world
        .comp::<TurnBudget>(entity)
        .copied()
        .ok_or(Refusal::NoSuchCreature(Who::id(id)))
}

/// Hide (maneuver, our ruling): with cover from, or out of line of effect
/// of, every enemy and none adjacent, the creature becomes hidden.
pub(crate) fn hide(world: &World, entity: Entity, id: CreatureId) -> Result<TurnBudget, Refusal> {
    let (Some(space), Some(side)) = (
        world.comp::<Space>(entity).map(|s| s.0),
        world.comp::<Creature>(entity).map(|c| c.side),
    ) else {
        return Err(Refusal::NoSuchCreature(Who::id(id)));
    };
    if world.comp::<Stance>(entity).is_some_and(|s| s.hidden) {
        return Err(Refusal::CannotHide("already hidden"));
    }
    if !crate::encounter::world::unseen(world, id, space, side) {
        return Err(Refusal::CannotHide(
            "an enemy is adjacent or sees this square without cover",
        ));
    }
    spend(world, entity, ActionType::Maneuver)
}

/// docs/rules.md#free-strikes: a free strike is a melee attack against an
/// adjacent creature (not the striker itself).
pub(crate) fn free_strike_reaches(distance: u32) -> bool {
    distance <= 1
}

/// Whether the creature may make a free strike on `target` now: its
/// entity, and the budget after the main action.
pub(crate) fn free_strike(
    world: &World,
    entity: Entity,
    id: CreatureId,
    target: CreatureId,
) -> Result<(Entity, TurnBudget), Refusal> {
    let te = entity_of(world, target).ok_or_else(|| Refusal::NoSuchCreature(Who::id(target)))?;
    if world.comp::<Stamina>(te).is_none_or(|s| s.is_dead()) {
        return Err(Refusal::Dead(Who::of(world, target)));
    }
    if target == id {
        return Err(Refusal::WrongTarget(Who::of(world, target)));
    }
    let (Some(us), Some(ts)) = (
        world.comp::<Space>(entity).map(|s| s.0),
        world.comp::<Space>(te).map(|s| s.0),
    ) else {
        return Err(Refusal::NoSuchCreature(Who::id(target)));
    };
    let distance = us.distance(ts);
    if !free_strike_reaches(distance) {
        return Err(Refusal::OutOfRange {
            target: Who::of(world, target),
            distance,
            reach: 1,
        });
    }
    Ok((te, spend(world, entity, ActionType::MainAction)?))
}
