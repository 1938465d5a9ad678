//! The charge: a straight run that ends in a melee free strike or ability.

use super::*;
use crate::encounter::log::emit;

/// docs/rules.md#charge (main action): "move up to your speed in a straight line
/// (no difficult terrain, no shifting) then make a melee free strike or use an
/// ability with the Charge keyword against a creature you reached."
/// Everything that can be checked before moving is checked first, so a
/// refused charge changes nothing.
pub(crate) fn charge(
    world: &mut World,
    entity: Entity,
    id: CreatureId,
    path: &[Pos],
    target: CreatureId,
    ability: Option<&str>,
) -> Result<(), Refusal> {
    let conditions = world
        .comp::<Conditions>(entity)
        .cloned()
        .unwrap_or_default();
    let mut budget = *world
        .comp::<TurnBudget>(entity)
        .ok_or(Refusal::NoTurnInProgress)?;
    spend_action(&mut budget, &conditions, ActionType::MainAction)?;
    let user = snapshot(world, entity).ok_or_else(|| Refusal::NoSuchCreature(Who::id(id)))?;
    if !is_straight(path.iter().copied()) {
        return Err(Refusal::BadPath("a charge moves in a straight line".into()));
    }
    let creatures = occupants(world);
    let map = world.res::<Battlefield>().0.clone();
    let speed = world.comp::<Movement>(entity).map_or(0, |m| m.speed);
    let limits = movement_limits(&conditions, speed_with_grab(world, entity, speed));
    let mover = Mover {
        id,
        space: user.space,
        side: user.side,
        speed: limits.speed,
        extra_cost: limits.extra_cost_per_square,
        shifting: false,
    };
    let steps = path.len().saturating_sub(1) as u32;
    match path_cost(&map, &creatures, &mover, path) {
        None => {
            return Err(Refusal::BadPath(
                "a step is blocked, not adjacent, or ends in a creature".into(),
            ));
        }
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
    let end = Footprint::new(*path.last().unwrap_or(&user.space.pos), user.space.size);
    let te = entity_of(world, target).ok_or_else(|| Refusal::NoSuchCreature(Who::id(target)))?;
    let ts = snapshot(world, te).ok_or_else(|| Refusal::NoSuchCreature(Who::id(target)))?;
    if world.comp::<Stamina>(te).is_none_or(|s| s.is_dead()) {
        return Err(Refusal::Dead(Who::of(world, target)));
    }
    let reach = match ability {
        None => 1,
        Some(a) => {
            let content = world.res::<Content>().clone();
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
            if !crate::encounter::gather::available(world, entity, ab) {
                return Err(Refusal::Spent(ab.name.clone()));
            }
            affordable(world, entity, ab)?;
            if !target_allowed(&ab.target.kinds, &user, &ts) {
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
    // Committed: move (without spending the move action), then attack with
    // the main action once the move is over.
    let how = Walk {
        shift: false,
        spend_move: false,
    };
    walk(world, entity, id, path.to_vec(), how)?;
    let mut res = world.res_mut::<Resolution>();
    let steps = res.stack.pop();
    res.push(Resume::FollowUp {
        creature: id,
        target,
        ability: ability.map(str::to_string),
    });
    res.stack.extend(steps);
    Ok(())
}

/// The attack that ends a charge. If the target is out of reach by now (a
/// triggered action moved someone), the charge ends without it, and the main
/// action is spent all the same.
pub(crate) fn charge_attack(
    world: &mut World,
    id: CreatureId,
    target: CreatureId,
    ability: Option<&str>,
) {
    let Some(entity) = entity_of(world, id) else {
        return;
    };
    if world.comp::<Stamina>(entity).is_none_or(|s| !can_act(s)) {
        return;
    }
    let result = match ability {
        None => free_strike(world, entity, id, target),
        Some(a) => use_ability(
            world,
            entity,
            id,
            AbilityUse {
                ability: a,
                targets: &[target],
                surges: 0,
                spend: 0,
                tier: None,
                placement: None,
                potency_surges: &[],
            },
        ),
    };
    if result.is_err() {
        if let Some(mut b) = world.comp_mut::<TurnBudget>(entity) {
            b.main = false;
        }
        emit(
            world,
            LogEntry::TargetLost {
                creature: id,
                target,
            },
        );
    }
}
