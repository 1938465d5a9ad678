//! What a given path costs (docs/rules.md#moving), the opportunity attacks
//! it provokes (docs/rules.md#opportunity-attacks), and where a creature
//! may teleport.

use super::*;
/// The cost of walking `path` (start included) for the mover, or `None` if
/// any step is illegal (not adjacent, blocked, cutting a corner, ending in
/// another creature's space). Does not check the speed.
pub fn path_cost(map: &Map, creatures: &[Occupant], mover: &Mover, path: &[Pos]) -> Option<u32> {
    // A path is a few squares: asking the creatures beats building a grid.
    // The last one holding a square, as in [`occupancy`].
    let occupant = |q: Pos| {
        creatures
            .iter()
            .rev()
            .find(|c| c.space.contains(q))
            .map(|c| (c.id, c.side))
    };
    path_cost_by(map, occupant, mover, path)
}

/// [`path_cost`] with a prebuilt occupancy grid.
pub fn path_cost_with(
    map: &Map,
    occ: &[Option<(CreatureId, Side)>],
    mover: &Mover,
    path: &[Pos],
) -> Option<u32> {
    path_cost_by(map, in_grid(map, occ), mover, path)
}

/// Who stands on a square (in bounds) by the occupancy grid.
pub(super) fn in_grid<'a>(
    map: &Map,
    occ: &'a [Option<(CreatureId, Side)>],
) -> impl Fn(Pos) -> Option<(CreatureId, Side)> + Copy + 'a {
    let width = map.width;
    move |q: Pos| occ[(q.y * width + q.x) as usize]
}

pub(super) fn path_cost_by(
    map: &Map,
    occupant: impl Fn(Pos) -> Option<(CreatureId, Side)> + Copy,
    mover: &Mover,
    path: &[Pos],
) -> Option<u32> {
    let mut total = 0;
    let mut last_can_end = true;
    let bottom = path
        .first()
        .is_some_and(|&p| map.touches_low(Footprint::new(p, mover.space.size)));
    for w in path.windows(2) {
        if w[0].distance(w[1]) != 1 || cuts_corner(map, w[0], w[1], mover.space.size) {
            return None;
        }
        let (step, can_end) = enter_cost(map, occupant, mover, w[0], w[1], bottom)?;
        total += step;
        last_can_end = can_end;
    }
    last_can_end.then_some(total)
}

/// Why [`path_cost`] refuses a path: the first step at fault, in the words
/// of the rule that refuses it (docs/rules.md#moving, #prone,
/// #climbing-swimming-jumping-and-flying).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PathFault {
    /// A step to a square not next to the one before.
    NotAdjacent(Pos),
    /// A diagonal step past a wall's corner.
    CutsCorner(Pos),
    OffMap(Pos),
    /// A wall, or terrain this mover has no way to cross.
    Blocked(Pos),
    /// A pit or ledge wider than its jump (or a drop it may not walk into).
    Gap(Pos),
    /// Open to it standing; prone, it can't climb, jump, swim or fly.
    Prone(Pos),
    /// The path ends in another creature's space.
    EndsInCreature(Pos),
    /// The path ends in the air over a gap it was jumping.
    EndsMidJump(Pos),
}

impl std::fmt::Display for PathFault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PathFault::NotAdjacent(p) => write!(f, "the step to {p} is not to an adjacent square"),
            PathFault::CutsCorner(p) => write!(f, "the step to {p} cuts a wall's corner"),
            PathFault::OffMap(p) => write!(f, "{p} is off the map"),
            PathFault::Blocked(p) => write!(f, "{p} is blocked to it"),
            PathFault::Gap(p) => write!(
                f,
                "{p} is a pit or ledge: it can't walk down into it, and the gap is wider than its jump"
            ),
            PathFault::Prone(p) => write!(
                f,
                "prone: it crawls, and can't climb, jump, swim or fly to {p}"
            ),
            PathFault::EndsInCreature(p) => {
                write!(f, "it would end in another creature's space at {p}")
            }
            PathFault::EndsMidJump(p) => write!(f, "it would end mid-jump over {p}"),
        }
    }
}

/// What is wrong with a path [`path_cost`] refuses (`None` if it doesn't):
/// `standing` is the mover's modes were it not prone, to tell a crawler's
/// limits from terrain no one could cross.
pub fn path_fault(
    map: &Map,
    creatures: &[Occupant],
    mover: &Mover,
    standing: Modes,
    path: &[Pos],
) -> Option<PathFault> {
    let occupant = |q: Pos| {
        creatures
            .iter()
            .rev()
            .find(|c| c.space.contains(q))
            .map(|c| (c.id, c.side))
    };
    let bottom = path
        .first()
        .is_some_and(|&p| map.touches_low(Footprint::new(p, mover.space.size)));
    let mut last_can_end = true;
    for w in path.windows(2) {
        if w[0].distance(w[1]) != 1 {
            return Some(PathFault::NotAdjacent(w[1]));
        }
        let fp = Footprint::new(w[1], mover.space.size);
        if let Some(q) = fp.squares().find(|&q| !map.in_bounds(q)) {
            return Some(PathFault::OffMap(q));
        }
        if cuts_corner(map, w[0], w[1], mover.space.size) {
            return Some(PathFault::CutsCorner(w[1]));
        }
        match enter_cost(map, occupant, mover, w[0], w[1], bottom) {
            Some((_, can_end)) => last_can_end = can_end,
            None => {
                let up = Mover {
                    modes: Modes {
                        prone: false,
                        ..standing
                    },
                    ..*mover
                };
                let crawling = mover.modes.prone
                    && enter_cost(map, occupant, &up, w[0], w[1], bottom).is_some();
                let gap = fp.squares().any(|q| map.square_flags(q) & square::LOW != 0);
                return Some(if crawling {
                    PathFault::Prone(w[1])
                } else if gap {
                    PathFault::Gap(w[1])
                } else {
                    PathFault::Blocked(w[1])
                });
            }
        }
    }
    let end = *path.last()?;
    if last_can_end {
        return None;
    }
    let taken = Footprint::new(end, mover.space.size)
        .squares()
        .any(|q| occupant(q).is_some_and(|(id, _)| id != mover.id));
    Some(if taken {
        PathFault::EndsInCreature(end)
    } else {
        PathFault::EndsMidJump(end)
    })
}

/// An opportunity attack a move provokes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Provoked {
    pub by: CreatureId,
    /// Index in the path of the square being left.
    pub leaving: usize,
}

/// The opportunity attacks a path provokes (docs/rules.md#moving): leaving a
/// square adjacent to an enemy that can take triggered actions, to a square
/// not adjacent to it, without shifting. Each enemy at most once.
pub fn opportunity_attacks(
    creatures: &[Occupant],
    mover: &Mover,
    path: impl IntoIterator<Item = Pos>,
) -> Vec<Provoked> {
    if mover.shifting {
        return Vec::new();
    }
    let mut out: Vec<Provoked> = Vec::new();
    let mut squares = path.into_iter();
    let Some(mut last) = squares.next() else {
        return out;
    };
    for (i, next) in squares.enumerate() {
        let from = Footprint::new(last, mover.space.size);
        let to = Footprint::new(next, mover.space.size);
        last = next;
        for e in creatures {
            if e.id == mover.id || e.side == mover.side || !e.can_react {
                continue;
            }
            if from.distance(e.space) == 1
                && to.distance(e.space) > 1
                && !out.iter().any(|p| p.by == e.id)
            {
                out.push(Provoked {
                    by: e.id,
                    leaving: i,
                });
            }
        }
    }
    out
}

/// Teleport destinations: every unoccupied open square within `range` of the
/// creature's space and in its line of effect (docs/rules.md#opportunity-attacks; teleporting never provokes).
pub fn teleport_destinations(
    map: &Map,
    creatures: &[Occupant],
    mover: &Mover,
    range: u32,
) -> Vec<Pos> {
    let occ = occupancy(map, creatures);
    let size = mover.space.size;
    let r = range as i32 + size as i32;
    let mut out = Vec::new();
    for y in mover.space.pos.y - r..=mover.space.pos.y + r {
        for x in mover.space.pos.x - r..=mover.space.pos.x + r {
            let p = Pos::new(x, y);
            let fp = Footprint::new(p, size);
            if p == mover.space.pos || mover.space.distance(fp) > range {
                continue;
            }
            if !map.footprint_open(fp) {
                continue;
            }
            let free = fp.squares().all(|q| {
                occ[(q.y * map.width + q.x) as usize].is_none_or(|(id, _)| id == mover.id)
            });
            if free
                && fp
                    .squares()
                    .all(|q| line_of_effect_to_square(map, mover.space, q))
            {
                out.push(p);
            }
        }
    }
    out
}
