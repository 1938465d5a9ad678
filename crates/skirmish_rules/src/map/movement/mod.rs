//! Movement (docs/rules.md#moving, docs/rules.md#conditions): the reachable
//! squares and cheapest paths for a creature, the opportunity attacks a path
//! provokes, and teleport destinations.

use super::grid::{Footprint, Map, Occupant, Pos, Side, square};
use super::los::line_of_effect_to_square;
use crate::fast::{Pool, keep, take_kept};
use crate::stats::CreatureId;

mod cost;
mod search;
mod straight;
#[cfg(test)]
mod tests;

pub use cost::{
    PathFault, Provoked, opportunity_attacks, path_cost, path_cost_with, path_fault,
    teleport_destinations,
};
pub use search::{reachable, reachable_with};
#[cfg(test)]
pub(crate) use straight::every_straight_path;
pub use straight::{Runs, is_straight, nears, straight_runs};
// The parts the search, the costs and the straight runs share.
use cost::in_grid;
use search::enter_one;
#[cfg(test)]
use search::search_general;

/// Who is moving and how.
#[derive(Clone, Copy, Debug)]
pub struct Mover {
    pub id: CreatureId,
    pub space: Footprint,
    pub side: Side,
    /// Squares of movement available.
    pub speed: u32,
    /// Extra cost per square (prone creatures crawl: +1).
    pub extra_cost: u32,
    /// A shift ignores opportunity attacks (docs/rules.md#shift).
    pub shifting: bool,
    /// How it gets over water, heights and gaps.
    pub modes: Modes,
}

/// How a creature moves besides walking
/// (docs/rules.md#climbing-swimming-jumping-and-flying): whether it flies,
/// climbs or swims as easily as it walks, how wide a gap it jumps, and
/// whether it is prone (crawling: it can't climb, jump, swim or fly).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub struct Modes {
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub fly: bool,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub climb: bool,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub swim: bool,
    /// The widest gap, in squares, it can jump (its Might or Agility, at
    /// least 1); 0: it doesn't jump.
    #[serde(default)]
    pub jump: u8,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub prone: bool,
}

/// A way of moving a stat block may name (`movement: [Fly]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum MoveMode {
    Fly,
    Climb,
    Swim,
}

impl Modes {
    /// The modes of a creature that moves in `ways` besides walking and
    /// has `might` and `agility`: it jumps a gap as wide as the higher, at
    /// least 1 (our reading: docs/rulings.md, "Jumping").
    pub fn of(ways: &[MoveMode], might: i32, agility: i32) -> Modes {
        Modes {
            fly: ways.contains(&MoveMode::Fly),
            climb: ways.contains(&MoveMode::Climb),
            swim: ways.contains(&MoveMode::Swim),
            jump: might.max(agility).clamp(1, 9) as u8,
            prone: false,
        }
    }

    /// These modes while `prone`: a crawler neither climbs, jumps, swims nor
    /// flies (docs/rules.md#prone: "A creature can't climb, jump, swim, or
    /// fly while prone").
    pub fn crawling(self, prone: bool) -> Modes {
        if prone {
            Modes {
                prone: true,
                ..Modes::default()
            }
        } else {
            self
        }
    }

    /// Whether it moves through the air (flies and isn't prone).
    pub fn flying(self) -> bool {
        self.fly && !self.prone
    }
}

/// Every square reachable this move, with its cost and how to get there.
#[derive(Clone, Debug)]
pub struct Reach {
    origin: Pos,
    /// The box of top-left positions the search may reach: every step
    /// moves one square, so none is farther from the origin than the
    /// speed (clipped to the map). Only this box is set up, not the map.
    corner: Pos,
    width: i32,
    height: i32,
    /// What the search found of each position in the box, in map order
    /// (one array: a step reads and writes one place, not five); empty
    /// when the one-square search found `levels` instead.
    nodes: Vec<Node>,
    /// What the one-square search found: the squares of each cost, as
    /// rows of bits ([`search_levels`]); paths are read back from them
    /// only when asked for.
    levels: Option<Levels>,
}

/// [`search_levels`]'s findings: lists of rows of bits, one row for each
/// row of the reach's box and a free row above and below (row `y + 1` for
/// the box's row `y`; bit `x` for its column `x`).
#[derive(Clone, Debug)]
struct Levels {
    /// Rows in a list.
    rows: usize,
    /// The highest cost found.
    top: usize,
    /// What entering a square costs: `plain`, or `rough` on difficult
    /// ground and enemies' squares.
    plain: usize,
    rough: usize,
    /// From which squares of the box each step may be taken (as the map's
    /// step masks), eight words a row (`[8 * row + k]` for step `k`);
    /// then the lists, one after another: the squares that cost `rough`
    /// to enter, the squares the creature may end on, then the squares
    /// reached at each cost from 0 to `top`.
    bits: Vec<u64>,
    /// Each square's cost in the box's order (`NONE` where unreached),
    /// worked out from the lists the first time a square's cost is asked
    /// for by [`Levels::cost`]: a brain asks for many (the one path a
    /// listing builds looks its cost up in the lists instead).
    costs: std::sync::OnceLock<Vec<u32>>,
}

/// Which of [`Levels::bits`]' lists, after the steps.
const ROUGH: usize = 0;
const ENDS: usize = 1;
const COSTS: usize = 2;

/// The order a path is read back in, from its end: straight steps before
/// diagonal ones (a path reads as its diagonal steps, then its straight).
const BACK: [usize; 8] = [1, 3, 4, 6, 0, 2, 5, 7];

impl Levels {
    fn list(&self, n: usize) -> &[u64] {
        &self.bits[(8 + n) * self.rows..][..self.rows]
    }

    /// Whether list `n` holds the box's column `x`, row `y`.
    fn has(&self, n: usize, x: usize, y: usize) -> bool {
        self.list(n)[y + 1] >> x & 1 != 0
    }

    /// What entering the box's column `x`, row `y` costs.
    fn enter(&self, x: usize, y: usize) -> usize {
        if self.has(ROUGH, x, y) {
            self.rough
        } else {
            self.plain
        }
    }

    /// Every square's cheapest path as [`Path`] keeps its steps (the
    /// steps, and how many: [`TOO_LONG`] past [`MAX_STEPS`]), in the box's
    /// order (`w` by `h`), read back a cost at a time: each square's is
    /// its parent's and the step [`Levels::last_step`] finds.
    fn tree(&self, w: usize, h: usize) -> Vec<(u64, u8)> {
        let mut tree = vec![(0u64, 0u8); w * h];
        for k in 1..=self.top {
            for (x, y) in squares_of(&self.list(COSTS + k)[1..=h]) {
                let Some(d) = self.last_step(x, y, k) else {
                    continue;
                };
                let (dx, dy) = Pos::STEPS[d];
                let parent =
                    ((y as isize - dy as isize) * w as isize + x as isize - dx as isize) as usize;
                let (dirs, n) = tree[parent];
                tree[y * w + x] = if (n as usize) < MAX_STEPS {
                    (dirs | (d as u64) << (3 * n as u64), n + 1)
                } else {
                    (0, TOO_LONG)
                };
            }
        }
        tree
    }

    /// The cost found for the box's column `x`, row `y`, if reached, of a
    /// box `w` wide (from `costs`, worked out at the first call).
    fn cost(&self, x: usize, y: usize, w: usize) -> Option<usize> {
        let costs = self.costs.get_or_init(|| {
            let h = self.rows - 2;
            let mut costs = vec![NONE; w * h];
            for k in 0..=self.top {
                for (x, y) in squares_of(&self.list(COSTS + k)[1..=h]) {
                    costs[y * w + x] = k as u32;
                }
            }
            costs
        });
        let c = *costs.get(y * w + x)?;
        (c != NONE).then_some(c as usize)
    }

    /// [`Levels::cost`] looked up in the lists, for a single square.
    fn cost_of_one(&self, x: usize, y: usize) -> Option<usize> {
        (0..=self.top).find(|&k| self.has(COSTS + k, x, y))
    }

    /// The step (`Pos::STEPS[k]`) of the cheapest path to the box's column
    /// `x`, row `y` (reached at `cost`) from a square one entering cost
    /// cheaper; `None` for the start.
    fn last_step(&self, x: usize, y: usize, cost: usize) -> Option<usize> {
        let rows = self.rows;
        let before = cost.checked_sub(self.enter(x, y))?;
        let level = self.bits.get((8 + COSTS + before) * rows..)?;
        let steps = &self.bits[..8 * rows];
        // The square before, in the lists' rows (the free rows above and
        // below hold nothing): reached at `before`, and the step allowed
        // from it.
        BACK.into_iter().find(|&k| {
            let (dx, dy) = Pos::STEPS[k];
            let px = x.wrapping_add_signed(-dx as isize);
            let row = (y + 1).wrapping_add_signed(-dy as isize);
            px < 64 && (level[row] & steps[8 * row + k]) >> px & 1 != 0
        })
    }
}

/// The squares of a list's rows (bit `x` of row `y` for column `x`, row
/// `y`), row by row.
fn squares_of(rows: &[u64]) -> impl Iterator<Item = (usize, usize)> + '_ {
    rows.iter().enumerate().flat_map(|(y, &row)| {
        let mut bits = row;
        std::iter::from_fn(move || {
            (bits != 0).then(|| {
                let x = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                (x, y)
            })
        })
    })
}

/// What the search found of one square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Node {
    /// The steps of the path to it, as a [`Path`] keeps them (found with
    /// the costs, so listing a move reads them at once).
    dirs: u64,
    /// Cost to reach it, [`NONE`] if unreachable.
    cost: u32,
    /// How many steps that path has ([`TOO_LONG`] past what `dirs` holds).
    steps: u8,
    /// Whether the creature may end its move there.
    can_end: bool,
    /// The step (`Pos::STEPS[last]`) it was reached by ([`NO_STEP`] for
    /// the start and the unreached): a path is walked back by it, so a
    /// node needs no parent square (sixteen bytes, not twenty-four).
    last: u8,
}

impl Node {
    /// Whether the search reached it and the creature may end its move
    /// there (the start too).
    #[inline]
    fn ends_here(&self) -> bool {
        self.cost != NONE && self.can_end
    }

    const UNREACHED: Node = Node {
        dirs: 0,
        cost: NONE,
        steps: 0,
        can_end: false,
        last: NO_STEP,
    };
}

const NONE: u32 = u32::MAX;
const TOO_LONG: u8 = u8::MAX;
const NO_STEP: u8 = u8::MAX;

impl Reach {
    fn idx(&self, p: Pos) -> Option<usize> {
        let (dx, dy) = (p.x - self.corner.x, p.y - self.corner.y);
        if dx < 0 || dy < 0 || dx >= self.width || dy >= self.height {
            return None;
        }
        Some((dy * self.width + dx) as usize)
    }

    /// `p`'s column and row in the box, if in it.
    fn in_box(&self, p: Pos) -> Option<(usize, usize)> {
        let (dx, dy) = (p.x - self.corner.x, p.y - self.corner.y);
        (dx >= 0 && dy >= 0 && dx < self.width && dy < self.height)
            .then_some((dx as usize, dy as usize))
    }

    /// The cost to reach `p` (top-left square of the space) and whether
    /// the creature may end there, if the search reached it.
    fn found(&self, p: Pos) -> Option<(u32, bool)> {
        if let Some(l) = &self.levels {
            let (x, y) = self.in_box(p)?;
            return l
                .cost(x, y, self.width as usize)
                .map(|k| (k as u32, l.has(ENDS, x, y)));
        }
        let n = &self.nodes[self.idx(p)?];
        (n.cost != NONE).then_some((n.cost, n.can_end))
    }

    /// The cost to reach `p` (top-left square of the space), if it can be reached and ended in.
    pub fn cost_to(&self, p: Pos) -> Option<u32> {
        self.found(p).and_then(|(cost, end)| end.then_some(cost))
    }

    /// Whether `p` can be reached for exactly `cost` and ended in (as
    /// `cost_to(p) == Some(cost)`, read off the bits at once).
    pub fn ends_for(&self, p: Pos, cost: u32) -> bool {
        match (&self.levels, self.in_box(p)) {
            (Some(l), Some((x, y))) => {
                (cost as usize) <= l.top && l.has(ENDS, x, y) && l.has(COSTS + cost as usize, x, y)
            }
            (Some(_), None) => false,
            (None, _) => self.cost_to(p) == Some(cost),
        }
    }

    /// [`Reach::ends_for`] with `cost` for each square next to the start,
    /// in [`Pos::neighbours`]' order, read together (a listing asks it of
    /// the eight for the shifts).
    pub fn ends_beside_start(&self, cost: u32) -> [bool; 8] {
        let mut out = [false; 8];
        match &self.levels {
            Some(l) if (cost as usize) <= l.top => {
                let (ends, at) = (l.list(ENDS), l.list(COSTS + cost as usize));
                let (ox, oy) = (self.origin.x - self.corner.x, self.origin.y - self.corner.y);
                for (k, (dx, dy)) in Pos::STEPS.into_iter().enumerate() {
                    let (x, y) = (ox + dx, oy + dy);
                    if x >= 0 && y >= 0 && x < self.width && y < self.height {
                        let row = (y + 1) as usize;
                        out[k] = (ends[row] & at[row]) >> x & 1 != 0;
                    }
                }
            }
            Some(_) => {}
            None => {
                for (k, p) in self.origin.neighbours().enumerate() {
                    out[k] = self.cost_to(p) == Some(cost);
                }
            }
        }
        out
    }

    /// The squares the creature can end its move on, less the start, in
    /// map order.
    pub(crate) fn ends(&self) -> std::vec::IntoIter<Pos> {
        let mut out = Vec::new();
        match &self.levels {
            Some(l) => {
                let ends = &l.list(ENDS)[1..=self.height.max(0) as usize];
                out.reserve(ends.iter().map(|r| r.count_ones() as usize).sum());
                out.extend(squares_of(ends).map(|(x, y)| self.corner.offset(x as i32, y as i32)));
            }
            None => {
                let w = self.width.max(1) as usize;
                for (j, n) in self.nodes.iter().enumerate() {
                    if n.ends_here() {
                        let (x, y) = ((j % w) as i32, (j / w) as i32);
                        out.push(Pos::new(self.corner.x + x, self.corner.y + y));
                    }
                }
            }
        }
        out.retain(|&p| p != self.origin);
        out.into_iter()
    }

    /// Every square the creature can end its move on, with its cost, in map order.
    pub fn destinations(&self) -> Vec<(Pos, u32)> {
        self.ends()
            .filter_map(|p| Some((p, self.cost_to(p)?)))
            .collect()
    }

    /// Every square the creature can end its move on, with the cheapest
    /// path there (as [`Path::in_reach`] gives it), in map order: the
    /// squares of [`Reach::destinations`].
    pub fn paths(&self) -> impl Iterator<Item = (Pos, Path)> + '_ {
        // On rows of bits, every square's path is read back at once, each
        // from its parent's (cheapest first), not each from its end.
        let tree = self
            .levels
            .as_ref()
            .map(|l| l.tree(self.width as usize, self.height as usize));
        self.ends().filter_map(move |p| {
            let Some(tree) = &tree else {
                return Some((p, Path::in_reach(self, p)?));
            };
            let (x, y) = self.in_box(p)?;
            let (dirs, steps) = tree[y * self.width as usize + x];
            if steps as usize > MAX_STEPS {
                return Some((p, Path::from(self.path_to(p)?)));
            }
            Some((p, Path::as_steps(self.origin, p, dirs, steps.into())))
        })
    }

    /// How many items [`Reach::paths`] gives, without building any (every
    /// square ending a move, less the start).
    pub fn path_count(&self) -> usize {
        let (all, start) = match &self.levels {
            Some(l) => (
                l.list(ENDS).iter().map(|r| r.count_ones() as usize).sum(),
                self.in_box(self.origin)
                    .is_some_and(|(x, y)| l.has(ENDS, x, y)),
            ),
            None => (
                self.nodes.iter().filter(|n| n.ends_here()).count(),
                self.cost_to(self.origin).is_some(),
            ),
        };
        all - usize::from(start)
    }

    /// Item `i` of [`Reach::paths`], building no other.
    pub fn nth_path(&self, i: usize) -> Option<(Pos, Path)> {
        let p = self.nth_end(i)?;
        Some((p, Path::in_reach(self, p)?))
    }

    /// Item `i` of [`Reach::ends`]: on rows of bits, counted a row at a
    /// time.
    fn nth_end(&self, mut i: usize) -> Option<Pos> {
        let Some(l) = &self.levels else {
            return self.ends().nth(i);
        };
        let start = self.in_box(self.origin);
        let ends = &l.list(ENDS)[1..=self.height.max(0) as usize];
        for (y, &row) in ends.iter().enumerate() {
            let mut row = row;
            if let Some((x, sy)) = start
                && sy == y
            {
                row &= !(1 << x);
            }
            let n = row.count_ones() as usize;
            if i < n {
                for _ in 0..i {
                    row &= row - 1;
                }
                let x = row.trailing_zeros() as i32;
                return Some(Pos::new(self.corner.x + x, self.corner.y + y as i32));
            }
            i -= n;
        }
        None
    }

    /// The steps of the cheapest path to `p`, last first (none for the
    /// start or a square not reached): on rows of bits, each read back
    /// from the square before, one entering cost cheaper.
    fn steps_back(&self, p: Pos) -> impl Iterator<Item = usize> + '_ {
        let mut at = p;
        let mut cost = self
            .levels
            .as_ref()
            .and_then(|l| self.in_box(p).and_then(|(x, y)| l.cost_of_one(x, y)));
        std::iter::from_fn(move || {
            let k = match &self.levels {
                Some(l) => {
                    let (x, y) = self.in_box(at)?;
                    let c = cost?;
                    let k = l.last_step(x, y, c)?;
                    cost = Some(c - l.enter(x, y));
                    k
                }
                None => {
                    let last = self.nodes[self.idx(at)?].last;
                    (last != NO_STEP).then_some(last as usize)?
                }
            };
            let (dx, dy) = Pos::STEPS[k];
            at = at.offset(-dx, -dy);
            Some(k)
        })
    }

    /// The cheapest path from the start to `p`, both ends included.
    pub fn path_to(&self, p: Pos) -> Option<Vec<Pos>> {
        let cost = self.cost_to(p)?;
        let mut path = Vec::with_capacity(cost as usize + 1);
        path.push(p);
        let mut at = p;
        for k in self.steps_back(p) {
            let (dx, dy) = Pos::STEPS[k];
            at = at.offset(-dx, -dy);
            path.push(at);
        }
        path.reverse();
        Some(path)
    }
}

/// A path of squares, start first, as a move command carries it: owned
/// squares, or a short path kept as its steps (three bits each), walked out
/// into squares only when something reads them. A listing offers a move to
/// every square in reach; a brain takes one, so the others are never built.
/// It reads as a slice of squares either way, compares by its squares, and
/// saves and loads as a plain list.
#[derive(Clone)]
pub struct Path(PathRepr);

#[derive(Clone)]
enum PathRepr {
    Owned(Vec<Pos>),
    Steps { steps: Steps, end: Pos },
}

/// A path of at most [`MAX_STEPS`] steps, as its start and steps.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Steps {
    start: Pos,
    /// Step `i` is `Pos::STEPS[(dirs >> 3 * i) & 7]`.
    dirs: u64,
    len: u32,
}

impl Steps {
    /// The squares, start first, one by one.
    fn squares(self) -> impl Iterator<Item = Pos> {
        let Steps { start, dirs, len } = self;
        let after = (0..u64::from(len)).scan(start, move |at, i| {
            let (dx, dy) = Pos::STEPS[(dirs >> (3 * i) & 7) as usize];
            *at = at.offset(dx, dy);
            Some(*at)
        });
        std::iter::once(start).chain(after)
    }

    fn to_vec(self) -> Vec<Pos> {
        let mut out = Vec::with_capacity(self.len as usize + 1);
        out.extend(self.squares());
        out
    }
}

/// The most steps a path kept as steps holds (three bits each in a `u64`).
const MAX_STEPS: usize = 21;

impl Path {
    /// The cheapest path in `reach` to `to`, if `to` can be reached and
    /// ended in: its steps read back from the search, its squares built
    /// only when read.
    #[inline(always)]
    pub fn in_reach(reach: &Reach, to: Pos) -> Option<Path> {
        let Some(l) = &reach.levels else {
            reach.cost_to(to)?;
            let n = &reach.nodes[reach.idx(to)?];
            if n.steps as usize > MAX_STEPS {
                return reach.path_to(to).map(Path::from);
            }
            return Some(Path::as_steps(reach.origin, to, n.dirs, n.steps.into()));
        };
        // (On rows of bits, the squares to end on are only squares reached.)
        reach.in_box(to).filter(|&(x, y)| l.has(ENDS, x, y))?;
        // Read back from the end, then kept first step first.
        let mut back = [0u8; MAX_STEPS];
        let mut len = 0;
        for k in reach.steps_back(to) {
            if len == MAX_STEPS {
                return reach.path_to(to).map(Path::from);
            }
            back[len] = k as u8;
            len += 1;
        }
        let dirs = back[..len]
            .iter()
            .rev()
            .enumerate()
            .fold(0u64, |d, (i, &k)| d | u64::from(k) << (3 * i));
        Some(Path::as_steps(reach.origin, to, dirs, len as u32))
    }

    /// The path from `start` to `end` kept as its steps (at most
    /// [`MAX_STEPS`]), built into squares only when read.
    #[inline(always)]
    fn as_steps(start: Pos, end: Pos, dirs: u64, len: u32) -> Path {
        Path(PathRepr::Steps {
            steps: Steps { start, dirs, len },
            end,
        })
    }

    /// The path to `to`, one of `reach`'s destinations (for any other
    /// square, the path that stays at the origin).
    #[inline(always)]
    pub fn to_destination(reach: &Reach, to: Pos) -> Path {
        match Path::in_reach(reach, to) {
            Some(p) => p,
            None => Path::from(vec![reach.origin]),
        }
    }

    /// The last square (where the path ends), without building the path.
    pub fn end(&self) -> Option<Pos> {
        match &self.0 {
            PathRepr::Owned(v) => v.last().copied(),
            PathRepr::Steps { end, .. } => Some(*end),
        }
    }

    /// The first square (where the path starts).
    pub fn start(&self) -> Option<Pos> {
        match &self.0 {
            PathRepr::Owned(v) => v.first().copied(),
            PathRepr::Steps { steps, .. } => Some(steps.start),
        }
    }

    /// How many squares, both ends included.
    pub fn len(&self) -> usize {
        match &self.0 {
            PathRepr::Owned(v) => v.len(),
            PathRepr::Steps { steps, .. } => steps.len as usize + 1,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The squares in order, start first.
    pub fn squares(&self) -> impl Iterator<Item = Pos> + '_ {
        let (owned, steps) = match &self.0 {
            PathRepr::Owned(v) => (Some(v), None),
            PathRepr::Steps { steps, .. } => (None, Some(steps.squares())),
        };
        let owned = owned.into_iter().flat_map(|v| v.iter().copied());
        owned.chain(steps.into_iter().flatten())
    }

    /// The squares, as a list of their own.
    pub fn to_vec(&self) -> Vec<Pos> {
        match &self.0 {
            PathRepr::Owned(v) => v.clone(),
            PathRepr::Steps { steps, .. } => steps.to_vec(),
        }
    }

    pub fn into_vec(self) -> Vec<Pos> {
        match self.0 {
            PathRepr::Owned(v) => v,
            PathRepr::Steps { steps, .. } => steps.to_vec(),
        }
    }
}

impl From<Vec<Pos>> for Path {
    fn from(v: Vec<Pos>) -> Path {
        Path(PathRepr::Owned(v))
    }
}

impl FromIterator<Pos> for Path {
    fn from_iter<I: IntoIterator<Item = Pos>>(squares: I) -> Path {
        Path::from(squares.into_iter().collect::<Vec<_>>())
    }
}

impl PartialEq for Path {
    fn eq(&self, other: &Path) -> bool {
        match (&self.0, &other.0) {
            // The same start and steps: the same squares.
            (PathRepr::Steps { steps: a, .. }, PathRepr::Steps { steps: b, .. }) => a == b,
            _ => self.len() == other.len() && self.squares().eq(other.squares()),
        }
    }
}

impl Eq for Path {}

impl std::fmt::Debug for Path {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.squares()).finish()
    }
}

impl serde::Serialize for Path {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.squares())
    }
}

impl<'de> serde::Deserialize<'de> for Path {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Path, D::Error> {
        Vec::<Pos>::deserialize(d).map(Path::from)
    }
}

/// The cost of stepping from the space at `from` into the space at `to`
/// (top-left squares) for a creature of `size`, or `None` if it can't enter
/// ([`square::walkable`]: a creature with a square on the low floor of a
/// pit may walk on along it, if its move began down there: `bottom`).
/// Difficult terrain costs +1 (once per step, if any square entered is
/// difficult); enemies' squares count as difficult terrain; allies can be
/// passed. docs/rules.md#climbing-swimming-jumping-and-flying: water costs
/// +1 unless the mover swims or flies; a step up onto higher ground, or out
/// of a pit, costs +1 a square risen unless it climbs or flies (at most
/// [`MAX_CLIMB`]); a gap no wider than its jump may be jumped, square
/// by square in a straight line, but not stopped in; a flier goes over
/// pits, ledges and water as over floor. A prone mover does none of these.
#[inline(always)]
fn enter_cost(
    map: &Map,
    occupant: impl Fn(Pos) -> Option<(CreatureId, Side)>,
    mover: &Mover,
    from: Pos,
    to: Pos,
    bottom: bool,
) -> Option<(u32, bool)> {
    let fp = Footprint::new(to, mover.space.size);
    let relief = map.has_relief();
    let flying = relief && mover.modes.flying();
    let from_fp = Footprint::new(from, mover.space.size);
    let low = bottom && !flying && map.touches_low(from_fp);
    let mut difficult = false;
    let mut can_end = true;
    let mut lands_low = false;
    for q in fp.squares() {
        if !map.in_bounds(q) {
            return None;
        }
        let f = map.square_flags(q);
        if flying {
            if f & square::SOLID != 0 {
                return None;
            }
        } else if !square::walkable(low, f) {
            if !(relief && f & square::LOW != 0 && jumpable(map, mover, from, to, q)) {
                return None;
            }
            can_end = false;
        }
        lands_low |= f & square::LOW != 0;
        if f & square::DIFFICULT != 0 {
            difficult = true;
        }
        if f & square::WATER != 0 {
            if mover.modes.prone {
                return None;
            }
            difficult |= !(mover.modes.swim || flying);
        }
        if let Some((id, side)) = occupant(q)
            && id != mover.id
        {
            can_end = false;
            if side != mover.side {
                difficult = true;
            }
        }
    }
    let mut climb = 0;
    if relief && !flying {
        let mut rise = i64::from(map.elevation(fp)) - i64::from(map.elevation(from_fp));
        if low && !lands_low {
            rise += map.fall_depth(from_fp).map_or(0, i64::from);
        }
        if rise > 0 {
            if mover.modes.prone {
                return None;
            }
            if !mover.modes.climb {
                climb = (rise as u32).min(MAX_CLIMB);
            }
        }
    }
    Some((1 + u32::from(difficult) + mover.extra_cost + climb, can_end))
}

/// The most a single step's climb costs beyond the step (our reading,
/// docs/rulings.md, "Climbing": a higher face is climbed in the same move,
/// as the grid keeps no creature halfway up a wall).
pub const MAX_CLIMB: u32 = 3;

/// Whether the mover's move begins down in a pit (walking on along its
/// floor, it climbs out only at a cost; docs/rules.md#climbing-swimming-jumping-and-flying).
pub(super) fn starts_low(map: &Map, mover: &Mover) -> bool {
    map.touches_low(mover.space)
}

/// Whether square `q` of the space stepped into at `to` (from `from`) is
/// part of a gap the mover can jump: a straight run of pit or ledge squares
/// along the step, no longer than its jump, with ground to stand on at both
/// ends (docs/rules.md#climbing-swimming-jumping-and-flying).
fn jumpable(map: &Map, mover: &Mover, from: Pos, to: Pos, q: Pos) -> bool {
    let jump = i32::from(mover.modes.jump);
    if jump == 0 || mover.modes.prone {
        return false;
    }
    let (dx, dy) = (to.x - from.x, to.y - from.y);
    let gap = |p: Pos| map.in_bounds(p) && map.square_flags(p) & square::LOW != 0;
    let ground = |p: Pos| map.in_bounds(p) && map.square_flags(p) & square::BLOCKS_WALKING == 0;
    let mut run = 1;
    let mut back = q.offset(-dx, -dy);
    while gap(back) && run <= jump {
        run += 1;
        back = back.offset(-dx, -dy);
    }
    let mut ahead = q.offset(dx, dy);
    while gap(ahead) && run <= jump {
        run += 1;
        ahead = ahead.offset(dx, dy);
    }
    run <= jump && ground(back) && ground(ahead)
}

/// An occupancy grid: which creature is in each square of the map, in map
/// order (it reads as that slice).
///
/// A listing makes one, and a move's walk another. Made, it lists the
/// squares the creatures stand on; the grid itself is written only the
/// first time it is read as a slice (the one-square reach search reads the
/// list alone, and most listings need nothing else). The grid's buffer is
/// kept between uses on this thread, empty, and only the creatures'
/// squares are written in and wiped out again when it is dropped, not the
/// whole map.
pub struct Occupancy {
    /// The map's number of squares: the grid's length.
    len: usize,
    /// The squares (map indices) with a creature, each with who is there.
    set: Vec<(usize, (CreatureId, Side))>,
    /// The grid, once read.
    grid: std::cell::OnceCell<Vec<Option<(CreatureId, Side)>>>,
}

impl Occupancy {
    /// The squares (map indices) holding a creature, with who is there:
    /// each square at least once, and the grid holds the last named.
    pub fn occupied(&self) -> &[(usize, (CreatureId, Side))] {
        &self.set
    }

    /// The grid's length (the map's number of squares), without writing
    /// the grid.
    pub fn squares(&self) -> usize {
        self.len
    }
}

impl std::ops::Deref for Occupancy {
    type Target = [Option<(CreatureId, Side)>];
    fn deref(&self) -> &Self::Target {
        self.grid.get_or_init(|| {
            let mut grid = take_kept(&GRIDS);
            // A kept grid is all empty; one of another map's size is made
            // anew.
            if grid.len() != self.len {
                grid.clear();
                grid.resize(self.len, None);
            }
            for &(i, who) in &self.set {
                grid[i] = Some(who);
            }
            grid
        })
    }
}

impl Drop for Occupancy {
    fn drop(&mut self) {
        let set = std::mem::take(&mut self.set);
        if let Some(mut grid) = self.grid.take() {
            for &(i, _) in &set {
                grid[i] = None;
            }
            keep(&GRIDS, grid);
        }
        keep(&SETS, set);
    }
}

/// The squares of an [`Occupancy`], with who is on each.
type Set = Vec<(usize, (CreatureId, Side))>;

/// An [`Occupancy`]'s grid.
type Grid = Vec<Option<(CreatureId, Side)>>;

thread_local! {
    /// Empty grids, kept between uses (see [`Occupancy`]).
    static GRIDS: Pool<Grid> = const { std::cell::RefCell::new(Vec::new()) };
    /// Lists of squares, kept between uses.
    static SETS: Pool<Set> = const { std::cell::RefCell::new(Vec::new()) };
}

/// An occupancy grid: which creature is in each square.
pub fn occupancy(map: &Map, creatures: &[Occupant]) -> Occupancy {
    let mut set: Set = take_kept(&SETS);
    set.clear();
    let mut put = |q: Pos, c: &Occupant| {
        if map.in_bounds(q) {
            set.push(((q.y * map.width + q.x) as usize, (c.id, c.side)));
        }
    };
    for c in creatures {
        // (One square, the common case, without walking a space.)
        if c.space.size == 1 {
            put(c.space.pos, c);
        } else {
            c.space.squares().for_each(|q| put(q, c));
        }
    }
    Occupancy {
        len: (map.width * map.height).max(0) as usize,
        set,
        grid: std::cell::OnceCell::new(),
    }
}

/// Whether a diagonal step cuts a wall's corner: both orthogonal neighbours'
/// spaces must be free of walls and objects (docs/rules.md#moving).
#[inline(always)]
pub(super) fn cuts_corner(map: &Map, from: Pos, to: Pos, size: u32) -> bool {
    if from.x == to.x || from.y == to.y {
        return false;
    }
    let a = Footprint::new(Pos::new(to.x, from.y), size);
    let b = Footprint::new(Pos::new(from.x, to.y), size);
    let solid = |fp: Footprint| {
        fp.squares()
            .any(|q| map.square_flags(q) & square::SOLID != 0)
    };
    solid(a) || solid(b)
}
