//! Straight lines and runs (docs/rules.md#straight-lines): whether a path
//! is straight, and the straight runs a charge may take (docs/rules.md#charge).

use super::*;
/// docs/rules.md#straight-lines: "move the creature one square at a time in a
/// single direction without ever bending back in a direction opposite to
/// where they've already moved." (A path of one square, or none, is
/// straight.)
/// Whether walking `path` (top-left squares of a space of `size`) brings
/// the walker closer to `source` at any step: what a frightened creature
/// may not do willingly (docs/rules.md#frightened).
pub fn nears(path: &[Pos], size: u32, source: Footprint) -> bool {
    path.windows(2).any(|w| {
        Footprint::new(w[1], size).distance(source) < Footprint::new(w[0], size).distance(source)
    })
}

pub fn is_straight(path: impl IntoIterator<Item = Pos>) -> bool {
    let mut squares = path.into_iter();
    let Some(mut at) = squares.next() else {
        return true;
    };
    let mut dir = (0, 0);
    for next in squares {
        let (dx, dy) = (next.x - at.x, next.y - at.y);
        at = next;
        if dx * dir.0 < 0 || dy * dir.1 < 0 {
            return false;
        }
        dir = (
            if dx != 0 { dx } else { dir.0 },
            if dy != 0 { dy } else { dir.1 },
        );
    }
    true
}

/// The straight runs a creature can make from where it stands, for a
/// charge (docs/rules.md#charge: "move up to your speed in a straight line (no
/// difficult terrain, no shifting)"): for each square, the fewest steps of
/// a run there that is straight ([`is_straight`]), crosses no difficult
/// terrain (every step costs one square: an enemy's square counts as
/// difficult, an ally's can be passed) and takes no more steps than the
/// speed. Every straight path keeps to one quadrant around its start (it
/// never moves back along either axis), so one pass over each quadrant,
/// nearest squares first, finds the fewest steps to each square of it from
/// its three neighbours nearer the start. Among runs as short, a diagonal
/// step is kept before one along the row, and that before one along the
/// column.
#[derive(Clone, Debug)]
pub struct Runs {
    origin: Pos,
    /// How far the box reaches each way from the origin.
    radius: i32,
    /// The box's squares, row by row from `origin - radius`.
    cells: Vec<RunCell>,
}

#[derive(Clone, Copy, Debug, Default)]
pub(super) struct RunCell {
    /// Fewest steps of a straight run ending here ([`u16::MAX`]: none).
    steps: u16,
    /// Whether the creature may end its move here.
    can_end: bool,
    /// The step that run arrived by (its `dx`, `dy`).
    from: (i8, i8),
}

impl Runs {
    fn idx(&self, p: Pos) -> Option<usize> {
        let (dx, dy) = (p.x - self.origin.x, p.y - self.origin.y);
        let side = 2 * self.radius + 1;
        (dx.abs() <= self.radius && dy.abs() <= self.radius)
            .then(|| ((dy + self.radius) * side + dx + self.radius) as usize)
    }

    /// The fewest steps of a straight run to `p` that may end there.
    pub fn steps_to(&self, p: Pos) -> Option<u32> {
        let c = self.cells[self.idx(p)?];
        (c.steps != u16::MAX && c.can_end).then_some(u32::from(c.steps))
    }

    /// That run's squares, start first.
    pub fn path_to(&self, p: Pos) -> Option<Path> {
        let steps = self.steps_to(p)?;
        let mut squares = Vec::with_capacity(steps as usize + 1);
        let mut at = p;
        squares.push(at);
        while at != self.origin {
            let (dx, dy) = self.cells[self.idx(at)?].from;
            at = at.offset(-i32::from(dx), -i32::from(dy));
            squares.push(at);
        }
        squares.reverse();
        Some(Path::from(squares))
    }
}

/// The straight runs of `mover` on `map` with these occupants (see
/// [`Runs`]), to the squares of the boxes `toward` (each as its top-left
/// and bottom-right corners): only the squares a run there could cross are
/// looked at.
pub fn straight_runs(
    map: &Map,
    occ: &[Option<(CreatureId, Side)>],
    mover: &Mover,
    toward: &[(Pos, Pos)],
) -> Runs {
    let origin = mover.space.pos;
    let radius = mover
        .speed
        .min(map.width.max(map.height).max(0) as u32)
        .min(u32::from(u16::MAX - 1)) as i32;
    let side = (2 * radius + 1) as usize;
    let none = RunCell {
        steps: u16::MAX,
        ..RunCell::default()
    };
    let mut runs = Runs {
        origin,
        radius,
        cells: vec![none; side * side],
    };
    if !map.in_bounds(origin) {
        return runs;
    }
    let start = runs.idx(origin).expect("the origin is in its box");
    runs.cells[start] = RunCell {
        steps: 0,
        can_end: true,
        from: (0, 0),
    };
    // A one-square creature reads the map's step masks and flags and the
    // grid by index (as the reach search does); a larger one asks of each
    // square of its space.
    match (map.flags(), map.step_masks()) {
        (Some(flags), Some(masks))
            if mover.space.size == 1 && occ.len() == flags.len() && !map.has_relief() =>
        {
            run_quadrants(
                map,
                mover,
                toward,
                &mut runs,
                // Entering the square costs one square of movement
                // whichever step enters it (found once for the square).
                |j| match enter_one(flags, occ, mover, j) {
                    (1, can_end) => Some(can_end),
                    _ => None,
                },
                // The step is on the map, walkable and cuts no corner
                // (the step masks).
                |i, _, _, _, k, can_end| (masks[i] & (1 << k) != 0).then_some(can_end),
            );
        }
        _ => {
            let occupant = in_grid(map, occ);
            let bottom = starts_low(map, mover);
            run_quadrants(
                map,
                mover,
                toward,
                &mut runs,
                // A larger creature's cost depends on the step: each is
                // asked of whole.
                |_| Some(true),
                |_, _, from, to, _, _| {
                    if cuts_corner(map, from, to, mover.space.size) {
                        return None;
                    }
                    match enter_cost(map, occupant, mover, from, to, bottom) {
                        Some((1, can_end)) => Some(can_end),
                        _ => None,
                    }
                },
            );
        }
    }
    runs
}

/// [`straight_runs`]' pass over each quadrant around the start, clipped to
/// the map, the speed and the boxes `toward`. `enter(j)` is `None` when no
/// step may enter the square of index `j` on the map for one square of
/// movement (then no step there is asked of), else what `step` is handed
/// as `e`; `step(i, j, from, to, k, e)` is whether the step from `from`
/// (index `i`) to `to` (index `j`), `Pos::STEPS[k]`, may be taken for one
/// square of movement, and if so whether the mover may end there.
#[inline(always)]
pub(super) fn run_quadrants(
    map: &Map,
    mover: &Mover,
    toward: &[(Pos, Pos)],
    runs: &mut Runs,
    enter: impl Fn(usize) -> Option<bool>,
    step: impl Fn(usize, usize, Pos, Pos, usize, bool) -> Option<bool>,
) {
    let origin = runs.origin;
    let (width, radius) = (map.width as isize, runs.radius);
    let side = (2 * radius + 1) as isize;
    let start = runs.idx(origin).expect("the origin is in its box") as isize;
    let start_map = (origin.y * map.width + origin.x) as isize;
    // `Pos::STEPS`' index of a step.
    let index = |dx: i32, dy: i32| {
        let nine = (dy + 1) * 3 + dx + 1;
        (if nine > 4 { nine - 1 } else { nine }) as usize
    };
    let cells = &mut runs.cells;
    for (sx, sy) in [(1i32, 1i32), (-1, 1), (1, -1), (-1, -1)] {
        // How far this quadrant goes: to the far side of the boxes in it,
        // within the speed and the map (a straight run never comes back to
        // a square it passed along either axis).
        let far = |s: i32, o: i32, lo: i32, hi: i32, size: i32| {
            if s > 0 {
                (hi - o).min(size - 1 - o)
            } else {
                (o - lo).min(o)
            }
            .min(radius)
        };
        let (mut imax, mut jmax) = (-1, -1);
        for &(lo, hi) in toward {
            let (i, j) = (
                far(sx, origin.x, lo.x, hi.x, map.width),
                far(sy, origin.y, lo.y, hi.y, map.height),
            );
            if i >= 0 && j >= 0 {
                (imax, jmax) = (imax.max(i), jmax.max(j));
            }
        }
        // The three steps a square of this quadrant is entered by, nearest
        // the start first: diagonal, along the row, along the column; each
        // as (columns back, rows back, step, box offset, map offset).
        let (bx, by, mx, my) = (
            sx as isize,
            sy as isize * side,
            sx as isize,
            sy as isize * width,
        );
        let preds = [
            (1, 1, index(sx, sy), bx + by, mx + my),
            (1, 0, index(sx, 0), bx, mx),
            (0, 1, index(0, sy), by, my),
        ];
        for j in 0..=jmax {
            for i in 0..=imax {
                if i == 0 && j == 0 {
                    continue;
                }
                let here = start + j as isize * by + i as isize * bx;
                let here_map = start_map + j as isize * my + i as isize * mx;
                let to = Pos::new(origin.x + i * sx, origin.y + j * sy);
                // On the axes, the one step along it (a run on an axis
                // never leaves it); inside the quadrant, all three.
                let candidates = match (i, j) {
                    (0, _) => &preds[2..],
                    (_, 0) => &preds[1..2],
                    _ => &preds[..],
                };
                let Some(e) = enter(here_map as usize) else {
                    continue;
                };
                let mut best: Option<(u16, (i8, i8), bool)> = None;
                for &(di, dj, k, back, back_map) in candidates {
                    let before = cells[(here - back) as usize].steps;
                    if before == u16::MAX || best.is_some_and(|(b, _, _)| b <= before + 1) {
                        continue;
                    }
                    let from = Pos::new(to.x - di * sx, to.y - dj * sy);
                    let from_map = (here_map - back_map) as usize;
                    if let Some(can_end) = step(from_map, here_map as usize, from, to, k, e) {
                        let dir = ((di * sx) as i8, (dj * sy) as i8);
                        best = Some((before + 1, dir, can_end));
                    }
                }
                if let Some((steps, from, can_end)) = best
                    && u32::from(steps) <= mover.speed
                {
                    cells[here as usize] = RunCell {
                        steps,
                        can_end,
                        from,
                    };
                }
            }
        }
    }
}

#[cfg(test)]
/// Every straight path of at most `speed` steps from `start`, by
/// trying each step that keeps it straight (docs/rules.md#straight-lines).
pub(crate) fn every_straight_path(start: Pos, speed: u32) -> Vec<Vec<Pos>> {
    let mut out = Vec::new();
    let mut open = vec![vec![start]];
    while let Some(path) = open.pop() {
        if path.len() > 1 {
            out.push(path.clone());
        }
        if path.len() as u32 > speed {
            continue;
        }
        let last = *path.last().unwrap();
        for next in last.neighbours() {
            let mut longer = path.clone();
            longer.push(next);
            if is_straight(longer.iter().copied()) {
                open.push(longer);
            }
        }
    }
    out
}
