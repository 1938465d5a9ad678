//! Grabs: who holds whom, a grabber's halved speed and its dragging, the
//! check that lets go of those no longer held, and escaping.

use super::*;
use crate::encounter::log::emit;
use crate::encounter::state::board::{Battlefield, Grabs};

/// docs/rules.md#grabbed: "If a creature is grabbed by another creature and
/// that creature moves, they bring the grabbed creature with them." The
/// grabbed creature follows into the square the grabber just left; if that
/// square is taken (the grabber passed through an ally), it stays put, and a
/// grab whose two creatures end up apart ends. `held` are those it has
/// grabbed ([`grabbed_by`]); true if there were any.
pub(crate) fn drag_grabbed(
    world: &mut World,
    grabber: CreatureId,
    held: &[(CreatureId, Entity)],
    left: Pos,
) -> bool {
    let Some(ge) = entity_of(world, grabber) else {
        return false;
    };
    let Some(gspace) = world.comp::<Space>(ge).map(|s| s.0) else {
        return false;
    };
    let map = world.res::<Battlefield>().0.clone();
    for &(id, e) in held {
        let others = occupants(world);
        let Some(space) = world.comp::<Space>(e).map(|s| s.0) else {
            continue;
        };
        if space.distance(gspace) <= 1 {
            continue;
        }
        let to = Footprint::new(left, space.size);
        let free = map.footprint_open(to)
            && !others
                .iter()
                .any(|o| o.id != id && o.id != grabber && o.space.overlaps(to))
            && !to.overlaps(gspace);
        if free {
            world.comp_mut::<Space>(e).expect("checked").0.pos = left;
            emit(
                world,
                LogEntry::Dragged {
                    target: id,
                    by: grabber,
                    to: left,
                },
            );
        } else {
            release(world, e, id, grabber);
        }
    }
    true
}

/// How `entity` gets over water, heights and gaps as things stand
/// (docs/rules.md#climbing-swimming-jumping-and-flying): its ways of
/// moving, none of them while prone.
pub(crate) fn modes_of(world: &World, entity: Entity) -> crate::map::movement::Modes {
    let prone = world
        .comp::<Conditions>(entity)
        .is_some_and(|c| c.has(crate::conditions::ConditionKind::Prone));
    world
        .comp::<Movement>(entity)
        .map_or_else(Default::default, |m| m.modes.crawling(prone))
}

/// End a grab.
pub(crate) fn release(world: &mut World, entity: Entity, id: CreatureId, grabber: CreatureId) {
    if let Some(mut c) = world.comp_mut::<Conditions>(entity) {
        c.remove_from_source(ConditionKind::Grabbed, grabber);
    }
    emit(world, LogEntry::Released { target: id });
}

/// docs/rules.md#grabbed: "if either the grabbed creature or the creature
/// grabbing them is force moved so that both creatures are not adjacent to
/// each other, that creature is no longer grabbed." Also when either falls.
pub(crate) fn check_grabs(world: &mut World) {
    // Run after every command. Those who may be grabbed are known since the
    // last check (see `Grabs`), most often nobody: only their conditions
    // are read. When they are not known, one pass of the kept query over
    // the creatures' conditions alone finds them.
    if world
        .get_res::<Grabs>()
        .is_some_and(|g| g.0.0.as_ref().is_some_and(|k| k.is_empty()))
    {
        return;
    }
    let known = world.get_res_mut::<Grabs>().and_then(|mut g| g.0.0.take());
    let mut found: smallvec::SmallVec<[(Entity, CreatureId); 4]> = smallvec::SmallVec::new();
    match known {
        Some(known) => {
            for e in known {
                if let Some(g) = world
                    .comp::<Conditions>(e)
                    .and_then(|c| c.source_of(ConditionKind::Grabbed))
                {
                    found.push((e, g));
                }
            }
        }
        None => CachedQuery::<ConditionData>::with(world, |q| {
            q.iter_manual(world).for_each(|(e, cond)| {
                if let Some(g) = cond.source_of(ConditionKind::Grabbed) {
                    found.push((e, g));
                }
            })
        })
        .unwrap_or_default(),
    }
    // The rest of the grabbed is read for those only.
    let mut grabs: smallvec::SmallVec<[(Entity, CreatureId, CreatureId, bool); 4]> =
        smallvec::SmallVec::new();
    // Who is still grabbed after this check (none released may be).
    let mut held = smallvec::SmallVec::<[Entity; 4]>::new();
    for &(e, g) in &found {
        if let (Some(c), Some(s)) = (world.comp::<Creature>(e), world.comp::<Stamina>(e)) {
            grabs.push((e, c.id, g, s.is_dead()));
        } else {
            held.push(e);
        }
    }
    // In id order, whatever order the store keeps them in.
    grabs.sort_unstable_by_key(|g| g.1);
    for (e, id, g, dead) in grabs {
        let Some(space) = world.comp::<Space>(e).map(|s| s.0) else {
            held.push(e);
            continue;
        };
        let apart = match entity_of(world, g) {
            Some(ge) => {
                world.comp::<Stamina>(ge).is_none_or(|s| !can_act(s))
                    || world
                        .comp::<Space>(ge)
                        .is_none_or(|gs| gs.0.distance(space) > 1)
            }
            None => true,
        };
        if apart || dead {
            release(world, e, id, g);
        } else {
            held.push(e);
        }
    }
    if let Some(mut m) = world.get_res_mut::<Grabs>() {
        m.0 = Known(Some(held));
    }
}

/// Escape Grab: a power roll with the better of Might and Agility; tier 2
/// or 3 ends the grab (the grabber's free strike on tier 2 is not modelled yet).
pub(crate) fn escape_grab(world: &mut World, entity: Entity, id: CreatureId, budget: TurnBudget) {
    let Some(grabber) = world
        .comp::<Conditions>(entity)
        .and_then(|c| c.source_of(ConditionKind::Grabbed))
    else {
        return;
    };
    set_budget(world, entity, budget);
    let chars = world
        .comp::<Characteristics>(entity)
        .copied()
        .unwrap_or_default();
    let naturals = world.res_mut::<Dice>().roll_2d10();
    let characteristic = chars.might.max(chars.agility);
    let result = crate::power_roll::resolve(
        &RollSpec {
            characteristic,
            ..Default::default()
        },
        naturals,
    );
    let mut log = world.res_mut::<CombatLog>();
    log.emit(LogEntry::AbilityUsed {
        creature: id,
        ability: "escape_grab".into(),
        name: "Escape Grab".into(),
    });
    log.emit(LogEntry::Rolled {
        creature: id,
        naturals,
        characteristic,
    });
    emit(
        world,
        LogEntry::TierResult {
            target: id,
            total: result.total,
            tier: result.tier,
            edges: 0,
            banes: 0,
            critical: false,
        },
    );
    // Our ruling, after the published Escape Grab: on tier 2 the grabber may
    // make a free strike against the escaping creature before it gets free;
    // on tier 3 it simply escapes.
    if result.tier == crate::power_roll::Tier::Two
        && let Some(ge) = entity_of(world, grabber)
        && world.comp::<Stamina>(ge).is_some_and(can_act)
    {
        emit(
            world,
            LogEntry::AbilityUsed {
                creature: grabber,
                ability: "free_strike".into(),
                name: "Free Strike".into(),
            },
        );
        free_strike_hits(world, ge, grabber, entity, id);
    }
    if result.tier >= crate::power_roll::Tier::Two {
        release(world, entity, id, grabber);
    }
    bleed(world, entity);
}
