//! What the heroes must do to win, and the monsters that arrive later
//! (docs/rules.md#objectives, docs/rules.md#reinforcements).

use bevy_ecs::prelude::*;
use bevy_state::prelude::NextState;

use super::log::{LogEntry, emit};
use super::setup::{join_squad, spawn_monster};
use super::state::board::Battlefield;
use super::state::board::CreatureIndex;
use super::state::components::Creature;
use super::state::turn::{Flow, Phase, can_act};
use super::world::occupants;
use crate::content::Content;
use crate::content::encounter::{Objective, Zone};
use crate::encounter::state::board::{Arrivals, Plan};
use crate::fast::KeyedWorld;
use crate::map::summon_square;
use crate::map::{Footprint, Pos, Side};
use crate::stats::{CreatureId, Stamina};

/// Whether monsters are still to arrive after this round (the heroes
/// have not defeated every monster while more are coming).
pub(super) fn reinforcements_pending(world: &World) -> bool {
    let round = world.res::<Flow>().round;
    world
        .get_res::<Plan>()
        .is_some_and(|p| p.still_to_come(round))
}

/// The side wins: the fight is over.
pub(super) fn declare(world: &mut World, side: Side) {
    let mut flow = world.res_mut::<Flow>();
    flow.outcome = Some(side);
    flow.active = None;
    emit(world, LogEntry::Victory { side });
    world.res_mut::<NextState<Phase>>().set(Phase::Over);
}

/// Each creature able to fight: its side and the squares it covers.
fn standing(world: &World) -> Vec<(Side, Footprint)> {
    let index = world.res::<CreatureIndex>();
    index
        .iter()
        .filter_map(|(_, e)| {
            let c = world.comp::<Creature>(e)?;
            let s = world.comp::<Stamina>(e)?;
            let sp = world.comp::<super::state::components::Space>(e)?;
            can_act(s).then_some((c.side, sp.0))
        })
        .collect()
}

/// docs/rules.md#objectives "Hold": whether the heroes hold `zone` now: a
/// hero able to fight has a square in it and no monster able to does.
pub fn holds(zone: &Zone, creatures: &[(Side, Footprint)]) -> bool {
    let inside = |side: Side| {
        creatures
            .iter()
            .any(|(s, fp)| *s == side && fp.squares().any(|p| zone.contains(p)))
    };
    inside(Side::Heroes) && !inside(Side::Director)
}

/// docs/rules.md#objectives "Escape": whether every hero able to fight
/// (at least one) stands on the exit edge.
pub fn escaped(
    edge: crate::content::encounter::Edge,
    creatures: &[(Side, Footprint)],
    width: i32,
    height: i32,
) -> bool {
    let mut heroes = creatures.iter().filter(|(s, _)| *s == Side::Heroes);
    let mut any = false;
    let all = heroes.all(|(_, fp)| {
        any = true;
        fp.squares().any(|p| edge.holds(p, width, height))
    });
    any && all
}

/// After each command: whether the heroes have just escaped (an Escape
/// objective only).
pub(super) fn check_escape(world: &mut World) -> bool {
    let Some(Objective::Escape { edge }) = world.get_res::<Plan>().map(|p| p.objective.clone())
    else {
        return false;
    };
    let (w, h) = {
        let map = &world.res::<Battlefield>().0;
        (map.width, map.height)
    };
    if escaped(edge, &standing(world), w, h) {
        emit(world, LogEntry::Escaped);
        declare(world, Side::Heroes);
        return true;
    }
    false
}

/// Round `round` ends: a Survive or Hold objective may be met (the
/// heroes win, and true is returned).
pub(super) fn round_ended(world: &mut World, round: u32) -> bool {
    let objective = match world.get_res::<Plan>() {
        Some(p) => p.objective.clone(),
        None => return false,
    };
    match objective {
        Objective::Survive { rounds } if round >= rounds => {
            emit(world, LogEntry::Survived { rounds });
            declare(world, Side::Heroes);
            true
        }
        Objective::Hold { zone, rounds } => {
            if !holds(&zone, &standing(world)) {
                return false;
            }
            let held = {
                let mut flow = world.res_mut::<Flow>();
                flow.held += 1;
                flow.held
            };
            emit(
                world,
                LogEntry::ZoneHeld {
                    held,
                    needed: rounds,
                },
            );
            if held >= rounds {
                declare(world, Side::Heroes);
                return true;
            }
            false
        }
        _ => false,
    }
}

/// Round `round` starts: its reinforcements arrive, each on its square or,
/// with that taken, the nearest open one beside it.
pub(super) fn arrive(world: &mut World, round: u32) {
    let due: Arrivals = match world.get_res::<Plan>() {
        Some(p) => p
            .reinforcements
            .iter()
            .filter(|(r, _)| *r == round)
            .flat_map(|(_, m)| m.iter().cloned())
            .collect(),
        None => return,
    };
    if due.is_empty() {
        return;
    }
    let content = world.res::<Content>().0.clone();
    let basic = world
        .res::<super::state::turn::ActiveRuleset>()
        .0
        .basic_abilities
        .clone();
    for (m, name) in due {
        let block = match (&m.monster, &m.inline) {
            (Some(id), _) => content.monsters.get(id).cloned(),
            (None, Some(b)) => Some(b.clone()),
            _ => None,
        };
        // (Checked at load: a stat block is always there.)
        let Some(block) = block else { continue };
        let name = name.unwrap_or_else(|| block.name.clone());
        let size = block.size.squares();
        let wanted = Footprint::new(Pos::new(m.at.0, m.at.1), size);
        let creatures = occupants(world);
        let at = {
            let map = &world.res::<Battlefield>().0;
            if map.footprint_open(wanted) && !creatures.iter().any(|c| c.space.overlaps(wanted)) {
                Some(wanted.pos)
            } else {
                summon_square(map, &creatures, wanted, Side::Director, size)
            }
        };
        let Some(at) = at else {
            emit(world, LogEntry::NoRoomToArrive { name });
            continue;
        };
        let id = CreatureId(world.res::<CreatureIndex>().len().max(1) as u32);
        let entity = spawn_monster(
            world,
            &block,
            id,
            name.clone(),
            Side::Director,
            Footprint::new(at, size),
            m.squad,
            &basic,
        );
        if let Some(n) = m.squad {
            join_squad(world, entity, n, &block);
        }
        world.res_mut::<CreatureIndex>().set(id, entity);
        emit(
            world,
            LogEntry::Arrived {
                creature: id,
                name,
                at,
            },
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::encounter::Edge;

    fn one(side: Side, x: i32, y: i32) -> (Side, Footprint) {
        (side, Footprint::single(Pos::new(x, y)))
    }

    // docs/rules.md#objectives "Hold": a hero in the zone and no monster.
    #[test]
    fn a_zone_is_held_by_a_hero_alone_in_it() {
        let zone = Zone {
            from: (2, 2),
            to: (3, 3),
        };
        assert!(holds(
            &zone,
            &[one(Side::Heroes, 3, 3), one(Side::Director, 4, 4)]
        ));
        assert!(!holds(
            &zone,
            &[one(Side::Heroes, 3, 3), one(Side::Director, 2, 2)]
        ));
        assert!(!holds(&zone, &[one(Side::Heroes, 1, 1)]));
        // A large monster with one square inside contests it.
        let big = (Side::Director, Footprint::new(Pos::new(3, 0), 3));
        assert!(!holds(&zone, &[one(Side::Heroes, 2, 2), big]));
        // Corners given in any order.
        let flipped = Zone {
            from: (3, 3),
            to: (2, 2),
        };
        assert!(holds(&flipped, &[one(Side::Heroes, 2, 3)]));
    }

    // docs/rules.md#objectives "Escape": every hero still able to fight on the edge.
    #[test]
    fn the_heroes_escape_only_all_together() {
        let on = [one(Side::Heroes, 9, 0), one(Side::Heroes, 9, 5)];
        assert!(escaped(Edge::East, &on, 10, 8));
        assert!(!escaped(Edge::West, &on, 10, 8));
        let one_behind = [one(Side::Heroes, 9, 0), one(Side::Heroes, 8, 5)];
        assert!(!escaped(Edge::East, &one_behind, 10, 8));
        assert!(!escaped(Edge::East, &[one(Side::Director, 9, 0)], 10, 8));
        assert!(escaped(Edge::North, &[one(Side::Heroes, 4, 0)], 10, 8));
        assert!(escaped(Edge::South, &[one(Side::Heroes, 4, 7)], 10, 8));
    }
}
