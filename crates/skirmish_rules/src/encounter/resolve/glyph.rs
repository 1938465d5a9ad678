//! docs/rules.md#glyphs: invisible glyphs with glyph
//! abilities that react to creatures entering their square and to glyph
//! commands, connected to the glyphs within 1 square (swinging distance),
//! passing commands on at one glyph per round; a map may start with a
//! glyph network as a trap.
//!
//! Our rulings (docs/rulings.md): a glyph works against the creatures not
//! of its maker's side (a map's glyphs belong to the Director); every glyph
//! within 1 square of another of the same side is connected to it; a
//! command sent in a round is received by the sender and the glyphs
//! connected to it at the start of the next round; a glyph's one Beat a
//! round covers one glyph ability.

use crate::encounter::log::emit;
use crate::encounter::world;
use crate::fast::KeyedWorld;
use bevy_ecs::prelude::*;

use super::super::log::LogEntry;
use super::super::state::components::Space;
use super::super::state::turn::Flow;
use super::super::world::entity_of;
use crate::ability::{GlyphAfter, GlyphSpec, GlyphTrigger};
use crate::content::Content;
use crate::encounter::state::board::{Glyph, Glyphs};
use crate::map::{Footprint, Pos, Side};
use crate::stats::CreatureId;

/// The glyphs connected to glyph `i`: every glyph of its side within 1
/// square of it (docs/rules.md#moving: "connected to any other Glyph within Swinging
/// Distance of it").
pub fn connected(list: &[Glyph], i: usize) -> Vec<usize> {
    let me = &list[i];
    // A glyph whose connections were chosen connects only to those; both
    // ends must agree.
    let agrees = |a: &Glyph, b: &Glyph| a.links.as_ref().is_none_or(|l| l.contains(&b.at));
    list.iter()
        .enumerate()
        .filter(|(j, g)| {
            *j != i
                && !g.dismissed
                && g.side == me.side
                && g.at.distance(me.at) <= 1
                && agrees(me, g)
                && agrees(g, me)
        })
        .map(|(j, _)| j)
        .collect()
}

/// Glyphs the map starts with, for the Director.
pub(crate) fn setup(world: &mut World) {
    let content = world.res::<Content>().clone();
    let placed = world
        .res::<crate::encounter::state::board::Battlefield>()
        .0
        .glyphs
        .clone();
    let mut glyphs = Glyphs::default();
    for (at, from) in placed {
        if let Some(spec) = content.ability(&from).and_then(|a| a.glyph.clone()) {
            glyphs
                .list
                .push(new_glyph(at, &from, &spec, Side::Director, None));
        }
    }
    world.insert_resource(glyphs);
}

fn new_glyph(
    at: Pos,
    from: &str,
    spec: &GlyphSpec,
    side: Side,
    maker: Option<CreatureId>,
) -> Glyph {
    Glyph {
        at,
        from: from.to_string(),
        name: spec.name.clone(),
        side,
        maker,
        beat_round: 0,
        disabled_until: 0,
        dismissed: false,
        revealed: false,
        links: None,
    }
}

/// A glyphic ability places its glyph on each open square of its area
/// without a glyph already.
pub(super) fn place(
    world: &mut World,
    maker: CreatureId,
    side: Side,
    ability: &str,
    squares: &[Pos],
    links: Option<&[Pos]>,
) {
    let content = world.res::<Content>().clone();
    let Some(spec) = content.ability(ability).and_then(|a| a.glyph.clone()) else {
        return;
    };
    let map = world
        .res::<crate::encounter::state::board::Battlefield>()
        .0
        .clone();
    let mut placed = Vec::new();
    {
        let mut glyphs = world.res_mut::<Glyphs>();
        for &p in squares {
            if glyphs.taken(p) || !map.footprint_open(Footprint::single(p)) {
                continue;
            }
            glyphs
                .list
                .push(new_glyph(p, ability, &spec, side, Some(maker)));
            placed.push(p);
        }
        // docs/rules.md#glyphs: connections as chosen: to the glyphs named,
        // and to those of this same casting.
        if let Some(links) = links {
            let chosen: Vec<Pos> = links.iter().chain(&placed).copied().collect();
            let n = glyphs.list.len();
            for g in &mut glyphs.list[n - placed.len()..] {
                g.links = Some(chosen.clone());
            }
        }
    }
    emit(
        world,
        LogEntry::GlyphPlaced {
            creature: maker,
            name: spec.name.clone(),
            squares: placed,
        },
    );
}

/// Whether any glyph is on the board (most fights have none: a walk asks
/// once, not at every step, and again only after something acted on a
/// step, which is what can place one).
pub(super) fn any(world: &World) -> bool {
    !world.res::<Glyphs>().list.is_empty()
}

/// A creature has stepped into `to`: glyphs there that work against it
/// react with their "enters" abilities. True if any did.
pub(super) fn entered(world: &mut World, id: CreatureId, to: Footprint) -> bool {
    if !any(world) {
        return false;
    }
    let Some(e) = entity_of(world, id) else {
        return false;
    };
    let Some(side) = world
        .comp::<super::super::state::components::Creature>(e)
        .map(|c| c.side)
    else {
        return false;
    };
    let round = world.res::<Flow>().round;
    let hits: Vec<usize> = {
        let g = world.res::<Glyphs>();
        (0..g.list.len())
            .filter(|&i| g.list[i].side != side && to.squares().any(|p| p == g.list[i].at))
            .filter(|&i| g.ready(i, round))
            .collect()
    };
    let fired = !hits.is_empty();
    for i in hits {
        react(world, i, &GlyphTrigger::Enters, Some(id));
    }
    fired
}

/// The round starts: deliver the commands due, and let the glyphs react.
pub(crate) fn round_started(world: &mut World) {
    let round = world.res::<Flow>().round;
    let due: Vec<(usize, String)> = {
        let mut g = world.res_mut::<Glyphs>();
        let (now, later): (Vec<_>, Vec<_>) = g.pending.drain(..).partition(|(r, _, _)| *r <= round);
        g.pending = later;
        now.into_iter().map(|(_, i, c)| (i, c)).collect()
    };
    for (i, command) in due {
        let ready = world.res::<Glyphs>().ready(i, round);
        if ready {
            react(world, i, &GlyphTrigger::Command(command), None);
        }
    }
}

/// Glyph `i` reacts to `trigger` with its first glyph ability for it.
fn react(world: &mut World, i: usize, trigger: &GlyphTrigger, entering: Option<CreatureId>) {
    let content = world.res::<Content>().clone();
    let glyph = world.res::<Glyphs>().list[i].clone();
    let Some(spec) = content.ability(&glyph.from).and_then(|a| a.glyph.clone()) else {
        return;
    };
    let Some(ga) = spec.abilities.iter().find(|ga| &ga.on == trigger).cloned() else {
        return;
    };
    let round = world.res::<Flow>().round;
    {
        let mut g = world.res_mut::<Glyphs>();
        g.list[i].beat_round = round;
        g.list[i].revealed = true;
    }
    emit(
        world,
        LogEntry::GlyphTriggered {
            name: glyph.name.clone(),
            at: glyph.at,
            creature: entering,
        },
    );
    // Its targets: the creature that entered, or every creature it works
    // against within its radius.
    let targets: Vec<CreatureId> = match (entering, ga.radius) {
        (Some(id), 0) => vec![id],
        _ => world::occupants(world)
            .into_iter()
            .filter(|o| {
                o.side != glyph.side && o.space.distance(Footprint::single(glyph.at)) <= ga.radius
            })
            .map(|o| o.id)
            .collect(),
    };
    if let Some(effect) = &ga.effect {
        for t in targets {
            super::glyph_effect(world, t, &effect.effects, glyph.maker, &glyph.name);
        }
    }
    if let Some(command) = &ga.send {
        {
            let mut g = world.res_mut::<Glyphs>();
            let mut to = connected(&g.list, i);
            to.insert(0, i);
            for j in to {
                g.pending.push((round + 1, j, command.clone()));
            }
        }
        emit(
            world,
            LogEntry::GlyphCommand {
                name: glyph.name.clone(),
                at: glyph.at,
                command: command.clone(),
            },
        );
    }
    match ga.then {
        GlyphAfter::Stays => {}
        GlyphAfter::Dismissed => {
            world.res_mut::<Glyphs>().list[i].dismissed = true;
            emit(
                world,
                LogEntry::GlyphGone {
                    name: glyph.name,
                    at: glyph.at,
                    rounds: None,
                },
            );
        }
        GlyphAfter::Disabled(n) => {
            world.res_mut::<Glyphs>().list[i].disabled_until =
                round.saturating_add(n).saturating_add(1);
            emit(
                world,
                LogEntry::GlyphGone {
                    name: glyph.name,
                    at: glyph.at,
                    rounds: Some(n),
                },
            );
        }
    }
}

/// `signal X`: the user's side's glyphs within 8 squares of it receive
/// command X at the start of the next round.
pub(super) fn signal(world: &mut World, user: CreatureId, command: &str) {
    let Some(e) = entity_of(world, user) else {
        return;
    };
    let (Some(space), Some(side)) = (
        world.comp::<Space>(e).map(|s| s.0),
        world
            .comp::<super::super::state::components::Creature>(e)
            .map(|c| c.side),
    ) else {
        return;
    };
    let round = world.res::<Flow>().round;
    let mut g = world.res_mut::<Glyphs>();
    let to: Vec<usize> = (0..g.list.len())
        .filter(|&i| {
            let gl = &g.list[i];
            !gl.dismissed
                && gl.side == side
                && space.distance(Footprint::single(gl.at)) <= crate::ability::THROWING
        })
        .collect();
    for i in to {
        g.pending.push((round + 1, i, command.to_string()));
    }
}
