//! Moving's checks: a walk's path and budget, and a charge's run and
//! attack (docs/rules.md#moving, docs/rules.md#charge).

use super::*;
use crate::ability::{Distance, Keyword};
use crate::conditions::movement_limits;
use crate::content::Content;
use crate::encounter::state::board::Battlefield;
use crate::encounter::world::speed_with_grab;
use crate::map::movement::{Mover, is_straight, nears, path_cost};
use crate::map::{Footprint, Pos};

/// Whether the creature may walk `path` now (a shift, if `shift`): the
/// budget after it (the move action spent, if `spend_move`; a charge's run
/// spends none).
pub(crate) fn walk(
    world: &World,
    entity: Entity,
    id: CreatureId,
    path: &[Pos],
    shift: bool,
    spend_move: bool,
) -> Result<TurnBudget, Refusal> {
    let space = world
        .comp::<Space>(entity)
        .ok_or_else(|| Refusal::NoSuchCreature(Who::id(id)))?
        .0;
    // Read in place (a creature with none has none).
    let none = Conditions::default();
    let conditions = world.comp::<Conditions>(entity).unwrap_or(&none);
    if path.first() != Some(&space.pos) {
        return Err(Refusal::BadPath(
            "it must start at the creature's square".into(),
        ));
    }
    if path.len() < 2 {
        return Err(Refusal::BadPath("it has no steps".into()));
    }
    // A listed move's path came from the reach search of this state, by
    // the rules `path_in_reach` checks: in release builds it is not worked
    // out again (4% of a random game's instructions); debug builds, where
    // the tests run, check that the two agree. (The listing hands the
    // walk over, see [`ListedWalk`]; only a move or shift is handed.)
    let listed = crate::fast::handed::<ListedWalk>(world).is_some_and(|l| l.walker == id);
    if !listed || cfg!(debug_assertions) {
        let checked = path_in_reach(world, entity, id, space, conditions, path, shift, None);
        debug_assert!(
            !listed || checked.is_ok(),
            "a listed move was refused: {checked:?} for {path:?}"
        );
        checked?;
    }
    let budget = world
        .comp::<TurnBudget>(entity)
        .ok_or_else(|| Refusal::NoSuchCreature(Who::id(id)))?;
    if spend_move {
        action(budget, conditions, ActionType::MoveAction)
    } else {
        Ok(*budget)
    }
}

/// Whether `path` is a walk the creature may take now: a shift where it
/// may shift, within its speed (halved by a heavy creature it drags), or
/// within the `squares` an ability moves it (docs/rules.md#during-the-move),
/// every step allowed and ending on no other creature (docs/rules.md#shift
/// "Movement").
#[allow(clippy::too_many_arguments)]
pub(super) fn path_in_reach(
    world: &World,
    entity: Entity,
    id: CreatureId,
    space: Footprint,
    conditions: &Conditions,
    path: &[Pos],
    shift: bool,
    squares: Option<u32>,
) -> Result<(), Refusal> {
    let movement = *world
        .comp::<Movement>(entity)
        .ok_or_else(|| Refusal::NoSuchCreature(Who::id(id)))?;
    let side = world
        .comp::<Creature>(entity)
        .map(|c| c.side)
        .unwrap_or(Side::Heroes);
    let limits = movement_limits(conditions, speed_with_grab(world, entity, movement.speed));
    if shift && !limits.can_shift {
        return Err(Refusal::CannotShift);
    }
    let speed = match squares {
        Some(n) => n,
        None if shift => 1,
        None => limits.speed,
    };
    // (An ability's move is a move all the same: not for one that can't.)
    if speed == 0 || (squares.is_some() && limits.speed == 0) {
        return Err(Refusal::CannotMove(limits.halted_by));
    }
    let creatures = occupants(world);
    let mover = Mover {
        id,
        space,
        side,
        speed,
        extra_cost: if shift {
            0
        } else {
            limits.extra_cost_per_square
        },
        shifting: shift,
        modes: movement.modes.crawling(limits.prone),
    };
    let map = &world.res::<Battlefield>().0;
    let cost = path_cost(map, &creatures, &mover, path)
        .ok_or_else(|| bad_path(world, entity, &creatures, &mover, path))?;
    if cost > speed {
        return Err(Refusal::TooFar { cost, speed });
    }
    if let Some((source, at)) = afraid_of(world, conditions)
        && nears(path, space.size, at)
    {
        return Err(Refusal::Afraid(Who::of(world, source)));
    }
    Ok(())
}

/// The refusal of a path [`path_cost`] turned down, in the words of the
/// rule at fault (a prone creature's climb: "prone: it crawls, ...").
pub(crate) fn bad_path(
    world: &World,
    entity: Entity,
    creatures: &[crate::map::Occupant],
    mover: &Mover,
    path: &[Pos],
) -> Refusal {
    let standing = world
        .comp::<Movement>(entity)
        .map_or(mover.modes, |m| m.modes);
    let map = &world.res::<Battlefield>().0;
    Refusal::BadPath(
        crate::map::movement::path_fault(map, creatures, mover, standing, path)
            .map_or_else(|| "it can't take that path".into(), |f| f.to_string()),
    )
}

/// The source of a creature's fear and where it stands, if it is frightened
/// of one still on the board (docs/rules.md#frightened: "it can't willingly
/// move closer to the source").
pub(crate) fn afraid_of(world: &World, conditions: &Conditions) -> Option<(CreatureId, Footprint)> {
    let source = movement_limits(conditions, 0).cannot_approach?;
    let e = entity_of(world, source)?;
    if world.comp::<Stamina>(e).is_none_or(|s| s.is_dead()) {
        return None;
    }
    Some((source, world.comp::<Space>(e)?.0))
}

/// docs/rules.md#charge (main action): "move up to your speed in a
/// straight line (no difficult terrain, no shifting) then make a melee free
/// strike or use an ability with the Charge keyword against a creature you
/// reached." Everything that can be checked before moving is checked here,
/// so a refused charge changes nothing.
pub(crate) fn charge(
    world: &World,
    entity: Entity,
    id: CreatureId,
    path: &[Pos],
    target: CreatureId,
    ability: Option<&str>,
) -> Result<(), Refusal> {
    let none = Conditions::default();
    let conditions = world.comp::<Conditions>(entity).unwrap_or(&none);
    let budget = world
        .comp::<TurnBudget>(entity)
        .ok_or(Refusal::NoTurnInProgress)?;
    action(budget, conditions, ActionType::MainAction)?;
    let user = snapshot(world, entity).ok_or_else(|| Refusal::NoSuchCreature(Who::id(id)))?;
    if !is_straight(path.iter().copied()) {
        return Err(Refusal::BadPath("a charge moves in a straight line".into()));
    }
    let creatures = occupants(world);
    let map = &world.res::<Battlefield>().0;
    let speed = world.comp::<Movement>(entity).map_or(0, |m| m.speed);
    let limits = movement_limits(conditions, speed_with_grab(world, entity, speed));
    let mover = Mover {
        id,
        space: user.space,
        side: user.side,
        speed: limits.speed,
        extra_cost: limits.extra_cost_per_square,
        shifting: false,
        modes: world
            .comp::<Movement>(entity)
            .map_or_else(Default::default, |m| m.modes.crawling(limits.prone)),
    };
    let steps = path.len().saturating_sub(1) as u32;
    match path_cost(map, &creatures, &mover, path) {
        None => return Err(bad_path(world, entity, &creatures, &mover, path)),
        Some(cost) if cost > steps => {
            return Err(Refusal::BadPath(
                "a charge can't cross difficult terrain".into(),
            ));
        }
        Some(cost) if cost > limits.speed => {
            return Err(Refusal::TooFar {
                cost,
                speed: limits.speed,
            });
        }
        _ => {}
    }
    if let Some((source, at)) = afraid_of(world, conditions)
        && nears(path, user.space.size, at)
    {
        return Err(Refusal::Afraid(Who::of(world, source)));
    }
    let end = Footprint::new(*path.last().unwrap_or(&user.space.pos), user.space.size);
    let te = entity_of(world, target).ok_or_else(|| Refusal::NoSuchCreature(Who::id(target)))?;
    let ts = snapshot(world, te).ok_or_else(|| Refusal::NoSuchCreature(Who::id(target)))?;
    if world.comp::<Stamina>(te).is_none_or(|s| s.is_dead()) {
        return Err(Refusal::Dead(Who::of(world, target)));
    }
    let reach = match ability {
        None => 1,
        Some(a) => {
            let content = world.res::<Content>();
            let ab = content
                .ability(a)
                .ok_or_else(|| Refusal::UnknownAbility(a.to_string()))?;
            if !world
                .comp::<Abilities>(entity)
                .is_some_and(|l| l.0.iter().any(|x| x == a))
            {
                return Err(Refusal::NotTheirAbility(a.to_string()));
            }
            if !ab.has(Keyword::Charge) {
                return Err(Refusal::WrongCommand(
                    "only abilities with the Charge keyword can end a charge",
                ));
            }
            // What would stop the ability after the run stops the charge
            // before it.
            if !crate::encounter::world::available(world, entity, ab) {
                return Err(Refusal::Spent(ab.name.clone()));
            }
            affordable(world, entity, ab)?;
            if !target_allowed(world, &ab.target, &user, &ts) {
                return Err(Refusal::WrongTarget(Who::of(world, target)));
            }
            match ab.distance {
                Distance::Melee(r) | Distance::MeleeOrRanged(r, _) => r,
                _ => return Err(Refusal::WrongCommand("a charge ends in a melee attack")),
            }
        }
    };
    let distance = end.distance(ts.space);
    if distance > reach || target == id {
        return Err(Refusal::OutOfRange {
            target: Who::of(world, target),
            distance,
            reach,
        });
    }
    // The run itself, as a walk that spends no move action.
    walk(world, entity, id, path, false, false)?;
    Ok(())
}
