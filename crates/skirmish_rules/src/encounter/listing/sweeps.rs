//! The uses a listing offers beyond a creature for a target: an ability
//! used during a move (docs/rules.md#during-the-move), a way to each square
//! the move can end on where the creatures it passes include one it may
//! target; and a strike at each object in reach (docs/rules.md#objects).

use super::*;

/// The ways to list for an ability of distance [`Distance::Sweep`] used
/// by a creature standing in `space` under `cond`, at its `speed` (as its
/// grab leaves it), moving as `modes`: staying put, then the cheapest way
/// to each square in reach, each kept if it passes one the ability may
/// target and, for a frightened creature, nears not the source of its fear.
#[allow(clippy::too_many_arguments)]
pub(crate) fn sweeps(
    map: &crate::map::Map,
    creatures: &[crate::map::Occupant],
    space: crate::map::Footprint,
    a: &crate::ability::Ability,
    (me, side): (CreatureId, Side),
    cond: &crate::conditions::Conditions,
    speed: u32,
    modes: crate::map::movement::Modes,
    afraid: Option<(crate::map::Footprint, u32)>,
) -> Vec<command::Placement> {
    let Distance::Sweep {
        squares,
        reach,
        shift,
    } = a.distance
    else {
        return Vec::new();
    };
    let limits = movement_limits(cond, speed);
    let mut ways: Vec<crate::map::movement::Path> = vec![vec![space.pos].into()];
    if limits.speed > 0 && (!shift || limits.can_shift) && squares > 0 {
        let mover = Mover {
            id: me,
            space,
            side,
            speed: squares,
            extra_cost: if shift {
                0
            } else {
                limits.extra_cost_per_square
            },
            shifting: shift,
            modes: modes.crawling(limits.prone),
        };
        let found = crate::map::movement::reachable(map, creatures, &mover);
        ways.extend(found.paths().map(|(_, p)| p));
    }
    // The squares of those it may target, and for each square a way
    // passes through, whether a burst of its reach from there reaches any
    // of them: worked out once a square, as the ways share most squares
    // (the sweep's area is those bursts together: docs/rules.md#during-the-move).
    let marks: Vec<crate::map::Pos> = creatures
        .iter()
        .filter(|o| eligible(&a.target.kinds, side, me, o))
        .flat_map(|o| o.space.squares())
        .collect();
    if marks.is_empty() {
        return Vec::new();
    }
    let mut hot: std::collections::HashMap<crate::map::Pos, bool> =
        std::collections::HashMap::new();
    let mut passes = |p: crate::map::Pos| {
        *hot.entry(p).or_insert_with(|| {
            let from = crate::map::Footprint::new(p, space.size);
            // (Only those within reach can be reached: asked first.)
            marks.iter().any(|&q| from.distance_to(q) <= reach)
                && crate::map::area::burst_reaches_any(map, from, reach, marks.iter().copied())
        })
    };
    ways.into_iter()
        .filter(|way| {
            if let Some((at, size)) = afraid
                && way.len() > 1
                && crate::map::movement::nears(&way.to_vec(), size, at)
            {
                return false;
            }
            // The end's own space is not in the area: it is in the others'.
            way.squares().any(&mut passes)
        })
        .map(|path| command::Placement::Path { path })
        .collect()
}

/// docs/rules.md#objects: the squares of the objects within `reach` of
/// `space`, each in line of effect (unless the ability works at a true
/// distance), nearest first.
pub(crate) fn objects_in_reach(
    map: &crate::map::Map,
    space: crate::map::Footprint,
    reach: u32,
    true_distance: bool,
) -> Vec<crate::map::Pos> {
    let r = reach as i32;
    let n = space.size as i32;
    let mut out: Vec<crate::map::Pos> = Vec::new();
    for y in space.pos.y - r..space.pos.y + n + r {
        for x in space.pos.x - r..space.pos.x + n + r {
            let p = crate::map::Pos::new(x, y);
            // (Most squares hold none: asked before the check, which
            // words its refusals.)
            if map.in_bounds(p)
                && map.cell(p).object.is_some()
                && check::object_in_reach(map, space, p, reach, true_distance).is_ok()
            {
                out.push(p);
            }
        }
    }
    out.sort_by_key(|&p| (space.distance_to(p), p.y, p.x));
    out
}
