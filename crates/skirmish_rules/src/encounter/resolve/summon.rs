//! docs/rules.md#summons: creatures an ability brings to the board. They appear
//! "in an empty hex adjacent to the figure performing the summon", act
//! "directly before the character who summoned it", "never take a turn in
//! the round they are summoned", follow "Move+0, Attack+0" on their own, and
//! are removed when their summoner falls.
//!
//! Our rulings (docs/rulings.md): a summon's turn is run by the engine when
//! its summoner starts its turn; it walks toward the nearest enemy, stopping
//! as soon as it can strike one (so it never provokes), then makes a free
//! strike against the nearest enemy it can. A summon strikes an adjacent
//! enemy, or with its stat block's `range` (docs/rules.md#opportunity-attacks: summons have a "range
//! value") one within that range in its line of effect. Its start- and
//! end-of-turn effects happen with its summoner's.

use crate::encounter::log::emit;
use crate::encounter::world;
use crate::fast::KeyedWorld;
use bevy_ecs::prelude::*;

use super::super::log::LogEntry;
use super::super::setup::spawn_monster;
use super::super::state::board::Battlefield;
use super::super::state::board::CreatureIndex;
use super::super::state::components::*;
use super::super::state::turn::{Flow, can_act};
use super::super::state::work::{Resolution, Resume};
use super::super::world::{entity_of, occupants};
use crate::content::Content;
use crate::map::movement::{Mover, reachable};
use crate::map::{Footprint, Map, Occupant, Pos, Side, line_of_effect, summon_square};
use crate::stats::{CreatureId, Stamina};

/// Bring a creature of `stat_block` to the board next to `owner`.
pub(super) fn summon(world: &mut World, owner: Entity, stat_block: &str) {
    let content = world.res::<Content>().clone();
    let Some(block) = content.monsters.get(stat_block).cloned() else {
        return;
    };
    let (Some(space), Some(c)) = (
        world.comp::<Space>(owner).map(|s| s.0),
        world.comp::<Creature>(owner).cloned(),
    ) else {
        return;
    };
    let creatures = occupants(world);
    let Some(at) = summon_square(
        &world.res::<Battlefield>().0,
        &creatures,
        space,
        c.side,
        block.size.squares(),
    ) else {
        emit(
            world,
            LogEntry::SummonFailed {
                creature: c.id,
                name: block.name.clone(),
            },
        );
        return;
    };
    let id = CreatureId(world.res::<CreatureIndex>().len().max(1) as u32);
    let order = summons_of(world, c.id).len() as u32;
    let name = if order == 0 {
        format!("{}'s {}", c.name, block.name)
    } else {
        format!("{}'s {} {}", c.name, block.name, order + 1)
    };
    let basic = world
        .res::<super::super::state::turn::ActiveRuleset>()
        .0
        .basic_abilities
        .clone();
    let entity = spawn_monster(
        world,
        &block,
        id,
        name.clone(),
        c.side,
        Footprint::new(at, block.size.squares()),
        None,
        &basic,
    );
    let round = world.res::<Flow>().round;
    world.entity_mut(entity).insert(Summoned {
        owner: c.id,
        round,
        order,
    });
    world.res_mut::<CreatureIndex>().set(id, entity);
    // It takes no turn of its own: the side's turn order passes it by.
    world.res_mut::<Flow>().acted.push(id);
    emit(
        world,
        LogEntry::Summoned {
            creature: id,
            owner: c.id,
            name,
            at,
        },
    );
}

/// A creature's living summons, in the order they were summoned.
pub(super) fn summons_of(world: &World, owner: CreatureId) -> Vec<(CreatureId, Summoned)> {
    // Every turn start asks: a kept query of the summoned finds them
    // without a look at every creature.
    let mut out: Vec<(CreatureId, Summoned)> = Vec::new();
    world::CachedQuery::<world::SummonData>::with(world, |q| {
        q.iter_manual(world)
            .filter(|(s, st, _)| s.owner == owner && !st.is_dead())
            .for_each(|(s, _, c)| out.push((c.id, *s)))
    });
    out.sort_unstable_by_key(|(id, s)| (s.order, *id));
    out
}

/// The summoner fell: its summons are removed from the board.
pub(super) fn vanish(world: &mut World, owner: CreatureId) {
    for (id, _) in summons_of(world, owner) {
        let Some(e) = entity_of(world, id) else {
            continue;
        };
        if let Some(mut s) = world.comp_mut::<Stamina>(e) {
            s.current = s.current.min(0);
        }
        emit(world, LogEntry::SummonVanished { creature: id });
    }
}

/// The summoner starts its turn: queue its summons' turns (those summoned
/// before this round), first-summoned first. Returns their ids, whose
/// start- and end-of-turn effects go with the summoner's.
pub(super) fn queue_turns(world: &mut World, owner: CreatureId) -> Vec<CreatureId> {
    let summons = summons_of(world, owner);
    // (Most creatures have none: the round and the resolution are left
    // unread.)
    if summons.is_empty() {
        return Vec::new();
    }
    let round = world.res::<Flow>().round;
    let ready: Vec<CreatureId> = summons
        .into_iter()
        .filter(|(_, s)| s.round < round)
        .map(|(id, _)| id)
        .collect();
    let mut res = world.res_mut::<Resolution>();
    for &id in ready.iter().rev() {
        res.push(Resume::SummonTurn { creature: id });
    }
    ready
}

/// What a summon's "Attack+0" can reach from where it stands: an adjacent
/// enemy, or with a range value above 1, an enemy within that range in its
/// line of effect and not hidden from it.
struct Strikes<'a> {
    map: &'a Map,
    side: Side,
    range: u32,
    hidden: Vec<CreatureId>,
}

impl Strikes<'_> {
    fn reaches(&self, at: Footprint, o: &Occupant) -> bool {
        let d = at.distance(o.space);
        o.side != self.side
            && (d <= 1
                || (d <= self.range
                    && !self.hidden.contains(&o.id)
                    && line_of_effect(self.map, at, o.space)))
    }
}

/// Its range is its stat block's (summons are always of one).
fn strikes<'a>(world: &World, map: &'a Map, e: Entity, side: Side) -> Strikes<'a> {
    let range = match world.comp::<Creature>(e).map(|c| &c.kind) {
        Some(CreatureKind::Monster { stat_block, .. }) => world
            .res::<Content>()
            .monsters
            .get(stat_block)
            .map_or(0, |m| m.range),
        _ => 0,
    };
    Strikes {
        map,
        side,
        range,
        hidden: world::hidden_creatures(world),
    }
}

/// A summon's focus (docs/rulings.md, "Summons": the seed's automated
/// "Move+0, Attack+0" read with Gloomhaven's focus rules): the enemy it
/// can get to strike with the least movement, then the nearest, then the
/// earliest in the turn order (the lowest id: the order creatures were
/// set up and summoned). With the squares of movement that takes.
fn focus(
    map: &Map,
    creatures: &[Occupant],
    me: &Occupant,
    strikes: &Strikes,
    extra_cost: u32,
    modes: crate::map::movement::Modes,
) -> Option<(Occupant, Option<Pos>)> {
    let enemies: Vec<Occupant> = creatures
        .iter()
        .filter(|o| o.side != me.side)
        .copied()
        .collect();
    // Where it could stand, however far (a bound of the board's size).
    let mover = Mover {
        id: me.id,
        space: me.space,
        side: me.side,
        speed: (map.width + map.height).max(1) as u32 * 2,
        extra_cost,
        shifting: false,
        modes,
    };
    let reach = reachable(map, creatures, &mover);
    let mut spots: Vec<(Pos, u32)> = reach.destinations();
    spots.push((me.space.pos, 0));
    let size = me.space.size;
    enemies
        .iter()
        .map(|t| {
            // The cheapest square to strike it from (`None`: it can't be
            // reached at all, and comes after every one that can).
            let best = spots
                .iter()
                .filter(|(p, _)| strikes.reaches(Footprint::new(*p, size), t))
                .min_by_key(|(p, cost)| {
                    // Of equal cost, the straighter line to it.
                    let straight = (t.space.pos.x - p.x).abs() + (t.space.pos.y - p.y).abs();
                    (*cost, straight, p.y, p.x)
                })
                .copied();
            (t, best)
        })
        .min_by_key(|(t, best)| {
            (
                best.map_or(u32::MAX, |(_, c)| c),
                t.space.distance(me.space),
                t.id,
            )
        })
        .map(|(t, best)| (*t, best.map(|(p, _)| p)))
}

/// "Move+0": move toward its focus ([`focus`]), along the cheapest way to
/// a square it can strike the focus from, as far as its speed goes,
/// stopping as soon as it can strike the focus.
pub(crate) fn take_turn(world: &mut World, id: CreatureId) {
    let Some(e) = entity_of(world, id) else {
        return;
    };
    if world.comp::<Stamina>(e).is_none_or(|s| !can_act(s)) {
        return;
    }
    emit(world, LogEntry::SummonActs { creature: id });
    let creatures = occupants(world);
    let Some(me) = creatures.iter().find(|o| o.id == id).copied() else {
        return;
    };
    // "Attack+0" comes after the move.
    world
        .res_mut::<Resolution>()
        .push(Resume::SummonStrike { creature: id });
    let map = world.res::<Battlefield>().0.clone();
    let strikes = strikes(world, &map, e, me.side);
    let conditions = world
        .comp::<crate::conditions::Conditions>(e)
        .cloned()
        .unwrap_or_default();
    let speed = world.comp::<Movement>(e).map_or(0, |m| m.speed);
    let limits = crate::conditions::movement_limits(&conditions, speed);
    let Some((target, spot)) = focus(
        &map,
        &creatures,
        &me,
        &strikes,
        limits.extra_cost_per_square,
        crate::encounter::resolve::modes_of(world, e),
    ) else {
        return;
    };
    if strikes.reaches(me.space, &target) || limits.speed == 0 {
        return;
    }
    let size = me.space.size;
    // The way to the square to strike from (or, if none can be reached,
    // toward the focus as near as it gets).
    let far = Mover {
        id,
        space: me.space,
        side: me.side,
        speed: (map.width + map.height).max(1) as u32 * 2,
        extra_cost: limits.extra_cost_per_square,
        shifting: false,
        modes: crate::encounter::resolve::modes_of(world, e),
    };
    let whole = reachable(&map, &creatures, &far);
    let goal = spot.or_else(|| {
        whole
            .destinations()
            .into_iter()
            .min_by_key(|(p, cost)| (target.space.distance(Footprint::new(*p, size)), *cost))
            .map(|(p, _)| p)
    });
    let Some(way) = goal.and_then(|g| whole.path_to(g)) else {
        return;
    };
    // As far along it as this move's speed reaches, onto a free square,
    // stopping where it can strike the focus.
    let mover = Mover {
        speed: limits.speed,
        ..far
    };
    let reach = reachable(&map, &creatures, &mover);
    let free = |p: Pos| {
        !creatures
            .iter()
            .any(|o| o.id != id && o.space.overlaps(Footprint::new(p, size)))
    };
    let mut stop = None;
    for (i, p) in way.iter().enumerate().skip(1) {
        if reach.cost_to(*p).is_none() {
            break;
        }
        if free(*p) {
            stop = Some(i);
            if strikes.reaches(Footprint::new(*p, size), &target) {
                break;
            }
        }
    }
    let Some(stop) = stop else {
        return;
    };
    let Some(path) = reach.path_to(way[stop]) else {
        return;
    };
    super::walk_steps(world, id, path, false, false, false);
}

/// "Attack+0": a free strike on the nearest enemy it reaches (then the
/// lowest id): adjacent, or within its range value in line of effect.
pub(crate) fn strike(world: &mut World, id: CreatureId) {
    let Some(e) = entity_of(world, id) else {
        return;
    };
    if world.comp::<Stamina>(e).is_none_or(|s| !can_act(s)) {
        return;
    }
    let creatures = occupants(world);
    let Some(me) = creatures.iter().find(|o| o.id == id).copied() else {
        return;
    };
    let map = world.res::<Battlefield>().0.clone();
    let strikes = strikes(world, &map, e, me.side);
    // Its focus if it reaches it, else the nearest enemy it reaches.
    let extra = world
        .comp::<crate::conditions::Conditions>(e)
        .map_or(0, |c| {
            crate::conditions::movement_limits(c, 0).extra_cost_per_square
        });
    let modes = crate::encounter::resolve::modes_of(world, e);
    let focused = focus(&map, &creatures, &me, &strikes, extra, modes)
        .map(|(t, _)| t)
        .filter(|t| strikes.reaches(me.space, t));
    let target = focused.or_else(|| {
        creatures
            .iter()
            .filter(|o| strikes.reaches(me.space, o))
            .min_by_key(|o| (o.space.distance(me.space), o.id))
            .copied()
    });
    if let Some(t) = target {
        super::summon_strike(world, e, id, t.id);
    }
}
