//! Moving: walks, shifts and the steps of a path, with what each square
//! entered sets off (opportunity attacks, auras, glyphs, hazards).

use super::*;
use crate::encounter::log::emit;
use crate::encounter::state::board::Battlefield;
use crate::map::Side;

/// A walk, checked ([`crate::encounter::check::walk`]): the budget after
/// it is written, and its steps are put up to be taken one by one,
/// pausing for triggered actions (see [`walk_steps`]).
pub(crate) fn walk(
    world: &mut World,
    entity: Entity,
    id: CreatureId,
    path: Vec<Pos>,
    shift: bool,
    budget: TurnBudget,
) {
    set_budget(world, entity, budget);
    world.res_mut::<Resolution>().push(Resume::Walk {
        creature: id,
        path,
        shift,
        asked: false,
        airborne: false,
    });
}

/// Take the steps of a committed move. Before a step that leaves an enemy's
/// reach (not when shifting) the enemies that could make an opportunity
/// attack are asked; after a step that comes adjacent to a creature, those
/// with a "moves adjacent" trigger are. Either pauses the walk, which goes on
/// when the prompts are answered, unless the mover fell or can no longer move.
/// A creature the mover has grabbed is brought along (docs/rules.md#grabbed).
/// A walk taken from the listing of this very moment reads what the
/// listing read of everyone (see [`ListedWalk`]) instead of a first
/// [`walk_scene`].
///
/// Who is where, whom the walker drags along, who carries auras, and
/// whether any glyph is on the board are read once: the walker's own entry
/// goes stale as it walks, and is never read; the others move, grabs end,
/// carriers fall and glyphs are placed only when something acts on a step
/// (a drag, an aura, a glyph; a reaction interrupts the walk, which resumes
/// anew), and then they are read again. Only a creature within a square of
/// the path can be left or come beside as it is walked: the others are
/// dropped once, not looked at on every step.
pub(crate) fn walk_steps(
    world: &mut World,
    id: CreatureId,
    path: Vec<Pos>,
    shift: bool,
    asked: bool,
    airborne: bool,
) {
    let Some(entity) = entity_of(world, id) else {
        return;
    };
    // docs/rules.md#climbing-swimming-jumping-and-flying: squares over a
    // gap (a pit or ledge) that a walker not flying, whose walk began above
    // it, is crossing in a jump. Knocked prone there, or stopped, it falls.
    let (over_gap, flies) = gaps(world, entity, &path);
    let high = airborne || !over_gap.first().copied().unwrap_or(false);
    let jumping = |k: usize| high && !flies && over_gap.get(k).copied().unwrap_or(false);
    // Only a creature within a square of the path (its box first) can be
    // left or come beside as it is walked (see above).
    let (lo, hi) = path_box(&path);
    let (prepared, mut walker) = prepared_walk(world, id, entity, asked);
    let side = walker.map(|w| w.2);
    // Whether a creature at `o` is within a square of the path walked by
    // one of `size`.
    let near = |size: u32, o: Footprint| near_path(&path, (lo, hi), size, o);
    let scene = |world: &World, size: u32| walk_scene(world, id, |o| near(size, o));
    let size = walker.map_or(1, |w| w.1);
    let (mut others, mut held, mut carriers) = match prepared {
        Some(Prepared { mut occupants, .. }) => {
            occupants.retain(|o| near(size, o.space));
            let prepared = (occupants, Vec::new(), super::aura::carriers(world));
            #[cfg(debug_assertions)]
            {
                let fresh = scene(world, size);
                assert!(
                    fresh == prepared,
                    "a walk's prepared scene differs from the world's: {fresh:?} against {prepared:?}"
                );
            }
            prepared
        }
        None => scene(world, size),
    };
    let mut glyphs = super::glyph::any(world);
    let log_walk = |world: &mut World, walked: &[Pos]| log_moved(world, id, walked, shift);
    // The square of the path the world has the walker on: written only
    // before something reads it (a step's askers, a drag, an aura, a
    // glyph, the walk's end), not at every step (0: as the walk found it,
    // its first square).
    let mut placed = 0;
    let mut place = |world: &mut World, k: usize| {
        if placed != k {
            world.comp_mut::<Space>(entity).expect("checked").0.pos = path[k];
            placed = k;
        }
    };
    for i in 0..path.len().saturating_sub(1) {
        let (can_go, size) = walker.map_or((false, 1), |w| (w.0, w.1));
        let fell = jumping(i) && modes_of(world, entity).prone;
        if !can_go || fell {
            // The squares walked so far are the path's first `i + 1`.
            place(world, i);
            log_walk(world, &path[..=i]);
            settle(world, entity, id, &path[..=i]);
            if jumping(i) {
                fall_from_gap(world, entity, id);
            }
            return;
        }
        let (from, to) = (
            Footprint::new(path[i], size),
            Footprint::new(path[i + 1], size),
        );
        let step = Step {
            id,
            path: &path,
            i,
            shift,
            from,
            to,
        };
        // (A resumed walk's first step was asked of already.)
        if !(shift || i == 0 && asked)
            && ask_leaving(world, &step, jumping(i), &others, &held, side, &mut place)
        {
            return;
        }
        if !held.is_empty() || !carriers.is_empty() || glyphs {
            place(world, i + 1);
        }
        let dragged = !held.is_empty() && drag_grabbed(world, id, &held, path[i]);
        if dragged {
            carriers = super::aura::carriers(world);
        }
        let pulsed = super::aura::entered(world, entity, from, to, &carriers);
        let triggered = glyphs && super::glyph::entered(world, id, to);
        if dragged || pulsed || triggered {
            walker = walker_state(world, entity);
            (others, held, carriers) = scene(world, walker.map_or(1, |w| w.1));
            glyphs = super::glyph::any(world);
        }
        if ask_arriving(world, &step, jumping(i + 1), &others, &mut place) {
            return;
        }
    }
    // The whole path was walked: it is logged as it is.
    place(world, path.len().saturating_sub(1));
    if path.len() > 1 {
        emit(
            world,
            LogEntry::Moved {
                creature: id,
                path,
                shift,
            },
        );
    }
    // A hidden creature that ends its move in plain sight is found.
    found_at_walks_end(world, entity, id);
}

/// What the listing of this very moment read of the walk, when the walk
/// was taken from it (it serves the walk's first steps only: a resumed
/// walk reads the world anew), and whether the walker can still go on,
/// its size and its side, read through one kept query: these change only
/// when something acts on a step (and then are read again).
fn prepared_walk(
    world: &mut World,
    id: CreatureId,
    entity: Entity,
    asked: bool,
) -> (Option<Prepared>, Option<WalkerState>) {
    // (The listing's reading serves the walk's first steps only: a resumed
    // walk reads the world anew.)
    let prepared = if asked {
        None
    } else {
        crate::fast::take_handed::<ListedWalk>(world)
            .filter(|l| l.walker == id)
            .and_then(|l| l.prepared)
            .filter(|p| p.walker == id)
    };
    // Whether the walker can still go on, its size and its side, read
    // through one kept query: these change only when something acts on a
    // step (and then are read again).
    let walker = match &prepared {
        Some(p) => {
            debug_assert_eq!(
                Some(p.state),
                walker_state(world, entity),
                "a walk's prepared walker differs from the world's"
            );
            Some(p.state)
        }
        None => walker_state(world, entity),
    };
    (prepared, walker)
}

/// One step of a walk: the path, the step's index in it, whether it is a
/// shift, and the walker's space before and after it.
struct Step<'a> {
    id: CreatureId,
    path: &'a [Pos],
    i: usize,
    shift: bool,
    from: Footprint,
    to: Footprint,
}

/// A walk's squares logged as a move, if it went anywhere.
fn log_moved(world: &mut World, id: CreatureId, walked: &[Pos], shift: bool) {
    if walked.len() > 1 {
        emit(
            world,
            LogEntry::Moved {
                creature: id,
                path: walked.to_vec(),
                shift,
            },
        );
    }
}

/// Before a step that leaves enemies' reach, those that may make an
/// opportunity attack are asked (not those it drags along): then the walk
/// pauses, to go on after the answers (docs/rules.md#opportunity-attacks).
/// Whether it paused.
fn ask_leaving(
    world: &mut World,
    step: &Step,
    airborne: bool,
    others: &[Occupant],
    held: &[(CreatureId, Entity)],
    side: Option<Side>,
    place: &mut impl FnMut(&mut World, usize),
) -> bool {
    let Step {
        id,
        path,
        i,
        shift,
        from,
        to,
    } = *step;
    // Those it drags along don't leave it.
    let leaving = others
        .iter()
        .filter(|o| {
            o.id != id
                && Some(o.side) != side
                && from.distance(o.space) == 1
                && to.distance(o.space) > 1
        })
        .map(|o| o.id)
        .filter(|c| !held.iter().any(|g| g.0 == *c));
    let event = Event {
        kind: TriggerEvent::EnemyLeavesAdjacency,
        actor: id,
        subject: None,
    };
    // (Whoever is asked may read where the walker is.)
    let mut leaving = leaving.peekable();
    if leaving.peek().is_some() {
        place(world, i);
    }
    let askers = react::askers(world, &event, leaving);
    if !askers.is_empty() {
        // The walk goes on after the answers.
        world.res_mut::<Resolution>().push(Resume::Walk {
            creature: id,
            path: path[i..].to_vec(),
            shift,
            asked: true,
            airborne,
        });
        react::ask(world, event, askers);
        log_moved(world, id, &path[..=i], shift);
        return true;
    }
    false
}

/// After a step that comes beside creatures, those with a "moves
/// adjacent" trigger are asked: then the walk pauses, its rest to go on
/// after the answers. Whether it paused.
fn ask_arriving(
    world: &mut World,
    step: &Step,
    airborne: bool,
    others: &[Occupant],
    place: &mut impl FnMut(&mut World, usize),
) -> bool {
    let Step {
        id,
        path,
        i,
        shift,
        from,
        to,
    } = *step;
    let arriving = others
        .iter()
        .filter(|o| o.id != id && from.distance(o.space) > 1 && to.distance(o.space) == 1)
        .map(|o| o.id);
    let event = Event {
        kind: TriggerEvent::CreatureMovesAdjacent,
        actor: id,
        subject: None,
    };
    let mut arriving = arriving.peekable();
    if arriving.peek().is_some() {
        place(world, i + 1);
    }
    let askers = react::askers(world, &event, arriving);
    if !askers.is_empty() {
        let rest = &path[i + 1..];
        if rest.len() > 1 {
            world.res_mut::<Resolution>().push(Resume::Walk {
                creature: id,
                path: rest.to_vec(),
                shift,
                asked: false,
                airborne,
            });
        }
        react::ask(world, event, askers);
        log_moved(world, id, &path[..=i + 1], shift);
        return true;
    }
    false
}

/// Which squares of the path lie over a gap (a pit or ledge) for a walker
/// of its size, and whether it flies.
fn gaps(world: &World, entity: Entity, path: &[Pos]) -> (Vec<bool>, bool) {
    let map = &world.res::<Battlefield>().0;
    let size = world.comp::<Space>(entity).map_or(1, |s| s.0.size);
    let gap: Vec<bool> = path
        .iter()
        .map(|&p| map.touches_low(Footprint::new(p, size)))
        .collect();
    (gap, modes_of(world, entity).flying())
}

/// The box of the path's squares (top-left corners).
fn path_box(path: &[Pos]) -> (Pos, Pos) {
    path.iter().fold(
        (Pos::new(i32::MAX, i32::MAX), Pos::new(i32::MIN, i32::MIN)),
        |(lo, hi), p| {
            (
                Pos::new(lo.x.min(p.x), lo.y.min(p.y)),
                Pos::new(hi.x.max(p.x), hi.y.max(p.y)),
            )
        },
    )
}

/// Whether a creature at `o` is within a square of `path` (its box `lo`
/// to `hi`) walked by one of `size`.
#[inline]
fn near_path(path: &[Pos], (lo, hi): (Pos, Pos), size: u32, o: Footprint) -> bool {
    // The squares the walker covers somewhere on the path all lie in
    // the box from `lo` to `hi` and `size - 1` beyond: a creature more
    // than a square from that is more than a square from each step.
    // (Spaces of no size are left to the exact check; an empty path
    // keeps no one.)
    let gap = |a: i32, b: i64, c: i32, d: i64| (i64::from(c) - b).max(i64::from(a) - d);
    let s = i64::from(size) - 1;
    let (p, n) = (o.pos, i64::from(o.size) - 1);
    (size == 0
        || o.size == 0
        || (gap(lo.x, i64::from(hi.x) + s, p.x, i64::from(p.x) + n) <= 1
            && gap(lo.y, i64::from(hi.y) + s, p.y, i64::from(p.y) + n) <= 1))
        && path
            .iter()
            .any(|&p| Footprint::new(p, size).distance(o) <= 1)
}

/// A hidden creature that ends its move in plain sight is found.
fn found_at_walks_end(world: &mut World, entity: Entity, id: CreatureId) {
    if world.comp::<Stance>(entity).is_some_and(|s| s.hidden) {
        let (space, side) = (
            world.comp::<Space>(entity).map(|s| s.0),
            world.comp::<Creature>(entity).map(|c| c.side),
        );
        if let (Some(space), Some(side)) = (space, side)
            && !unseen(world, id, space, side)
        {
            reveal(world, entity, id);
        }
    }
}

/// Whether the walker can go on (alive and able to act, with some speed
/// left under its conditions, and not stopped by the phased ruleset), its
/// size and its side; `None` for a creature lacking any of these (it goes
/// nowhere).
pub(super) fn walker_state(world: &World, entity: Entity) -> Option<WalkerState> {
    CachedQuery::<WalkerData>::with(world, |q| {
        let (c, space, stamina, movement, cond) = q.get_manual(world, entity).ok()?;
        let can_go = can_act(stamina)
            && movement_limits(cond, movement.speed).speed > 0
            && !crate::encounter::ruleset::of(world).stops_moving(world, cond);
        Some((can_go, space.0.size, c.side))
    })
    .flatten()
}

/// A move that stops early must not leave the mover in another creature's
/// square: it backs up along the squares it walked.
pub(super) fn settle(world: &mut World, entity: Entity, id: CreatureId, walked: &[Pos]) {
    let size = world.comp::<Space>(entity).map_or(1, |s| s.0.size);
    let others: Vec<Occupant> = occupants(world)
        .into_iter()
        .filter(|o| o.id != id)
        .collect();
    for &p in walked.iter().rev() {
        let fp = Footprint::new(p, size);
        if !others.iter().any(|o| o.space.overlaps(fp)) {
            world.comp_mut::<Space>(entity).expect("checked").0.pos = p;
            return;
        }
    }
}
