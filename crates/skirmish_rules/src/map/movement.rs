//! Movement (docs/rules.md#moving, docs/rules.md#conditions): the reachable
//! squares and cheapest paths for a creature, the opportunity attacks a path
//! provokes, and teleport destinations.

use super::grid::{Footprint, Map, Occupant, Pos, Side, square};
use super::los::line_of_effect_to_square;
use crate::stats::CreatureId;

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
    fn ends(&self) -> std::vec::IntoIter<Pos> {
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
/// pit may walk on along it). Difficult terrain costs +1 (once per step, if
/// any square entered is difficult); enemies' squares count as difficult
/// terrain; allies can be passed.
#[inline(always)]
fn enter_cost(
    map: &Map,
    occupant: impl Fn(Pos) -> Option<(CreatureId, Side)>,
    mover: &Mover,
    from: Pos,
    to: Pos,
) -> Option<(u32, bool)> {
    let fp = Footprint::new(to, mover.space.size);
    let low = Footprint::new(from, mover.space.size)
        .squares()
        .any(|q| map.square_flags(q) & square::LOW != 0);
    let mut difficult = false;
    let mut can_end = true;
    for q in fp.squares() {
        if !map.in_bounds(q) {
            return None;
        }
        let f = map.square_flags(q);
        if !square::walkable(low, f) {
            return None;
        }
        if f & square::DIFFICULT != 0 {
            difficult = true;
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
    Some((1 + u32::from(difficult) + mover.extra_cost, can_end))
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

/// Kept buffers of one kind, on each thread (see [`Occupancy`]).
type Kept<T> = std::thread::LocalKey<std::cell::RefCell<Vec<T>>>;

/// A buffer kept in `pool`, or a new one.
fn take_kept<T: Default>(pool: &'static Kept<T>) -> T {
    pool.try_with(|p| p.try_borrow_mut().ok().and_then(|mut p| p.pop()))
        .ok()
        .flatten()
        .unwrap_or_default()
}

/// Keep `item` in `pool` for the next use. A few may be alive at once (an
/// AI scoring during a listing); more than that are let go.
fn keep<T>(pool: &'static Kept<T>, item: T) {
    let _ = pool.try_with(|p| {
        if let Ok(mut p) = p.try_borrow_mut()
            && p.len() < 4
        {
            p.push(item);
        }
    });
}

/// The squares of an [`Occupancy`], with who is on each.
type Set = Vec<(usize, (CreatureId, Side))>;

/// An [`Occupancy`]'s grid.
type Grid = Vec<Option<(CreatureId, Side)>>;

thread_local! {
    /// Empty grids, kept between uses (see [`Occupancy`]).
    static GRIDS: std::cell::RefCell<Vec<Grid>> = const { std::cell::RefCell::new(Vec::new()) };
    /// Lists of squares, kept between uses.
    static SETS: std::cell::RefCell<Vec<Set>> = const { std::cell::RefCell::new(Vec::new()) };
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

/// All squares reachable with the mover's speed, by cheapest path.
pub fn reachable(map: &Map, creatures: &[Occupant], mover: &Mover) -> Reach {
    let occ = occupancy(map, creatures);
    reachable_with(map, &occ, mover)
}

/// [`reachable`] with a prebuilt occupancy grid.
pub fn reachable_with(map: &Map, occ: &Occupancy, mover: &Mover) -> Reach {
    let o = mover.space.pos;
    let r = mover.speed.min(i32::MAX as u32) as i32;
    let (x0, x1) = (
        o.x.saturating_sub(r).max(0),
        o.x.saturating_add(r).min(map.width - 1),
    );
    let (y0, y1) = (
        o.y.saturating_sub(r).max(0),
        o.y.saturating_add(r).min(map.height - 1),
    );
    let (width, height) = ((x1 - x0 + 1).max(0), (y1 - y0 + 1).max(0));
    let mut reach = Reach {
        origin: o,
        corner: Pos::new(x0, y0),
        width,
        height,
        nodes: Vec::new(),
        levels: None,
    };
    if mover.space.size == 1
        && width <= 64
        && reach.in_box(o).is_some()
        && occ.squares() == (map.width * map.height) as usize
        && let Some(levels) = search_levels(map, occ, mover, &reach)
    {
        reach.levels = Some(levels);
        return reach;
    }
    reach.nodes = vec![Node::UNREACHED; (width * height) as usize];
    let Some(start) = reach.idx(mover.space.pos) else {
        return reach;
    };
    reach.nodes[start].cost = 0;
    reach.nodes[start].can_end = true;
    search_general(map, occ, mover, &mut reach);
    reach
}

/// [`reachable_with`]'s search for a creature of any size.
fn search_general(map: &Map, occ: &[Option<(CreatureId, Side)>], mover: &Mover, reach: &mut Reach) {
    let (width, height) = (map.width, map.height);
    // Squares by their place on the map (the search hands over indices).
    let pos = |j: usize| Pos::new(j as i32 % width, j as i32 / width);
    let on_map = |j: usize| {
        let here = pos(j);
        let mut mask = 0;
        for (k, (dx, dy)) in Pos::STEPS.into_iter().enumerate() {
            let next = here.offset(dx, dy);
            if next.x >= 0 && next.y >= 0 && next.x < width && next.y < height {
                mask |= 1 << k;
            }
        }
        mask
    };
    search(width, mover, reach, on_map, |here, next| {
        let (here, next) = (pos(here), pos(next));
        if cuts_corner(map, here, next, mover.space.size) {
            return None;
        }
        enter_cost(map, in_grid(map, occ), mover, here, next)
    });
}

/// [`reachable_with`]'s search for a creature of one square (in a box at
/// most 64 squares wide), the common case, on rows of bits: the squares of
/// each cost are found all at once, from the squares one entering cost
/// cheaper (entering a square costs the same whatever the step: 1 and the
/// mover's extra cost, one more for difficult ground or an enemy's square,
/// as [`enter_one`]), each step taken only from where the map's step masks
/// allow it ([`Map::step_row`]). The same costs and squares to end on as
/// the general search; a path is read back only when asked for
/// ([`Levels::last_step`]), and among paths as cheap may be another.
fn search_levels(map: &Map, occ: &Occupancy, mover: &Mover, reach: &Reach) -> Option<Levels> {
    let (w, h) = (reach.width as usize, reach.height as usize);
    let (x0, y0) = (reach.corner.x as usize, reach.corner.y as usize);
    let map_width = map.width as usize;
    let full = if w >= 64 { u64::MAX } else { (1u64 << w) - 1 };
    let rows = h + 2;
    let plain = (mover.extra_cost as usize).saturating_add(1);
    let rough = plain.saturating_add(1);
    // (The search below keeps a step from the squares `plain` cheaper as
    // the step from those `rough` cheaper a round later.)
    debug_assert_eq!(rough, plain + 1);
    // No cheapest path costs more than entering every square of the box.
    let speed = (mover.speed as usize).min((w * h).saturating_mul(rough));
    // The steps and the lists of `Levels`, the squares of each cost added
    // as they are found (room kept for a few), in the last dropped
    // `Levels`' buffer if there is one (see `SPARE_BITS`).
    let mut bits = SPARE_BITS
        .try_with(std::cell::Cell::take)
        .unwrap_or_default();
    bits.clear();
    bits.resize(rows * (8 + COSTS + 1 + speed.min(12)), 0);
    for y in 0..h {
        let my = y0 + y;
        let map_row = map.step_row(my)?;
        for (k, bits) in bits[8 * (y + 1)..][..8].iter_mut().enumerate() {
            *bits = map_row[k] >> x0 & full;
        }
        bits[(8 + ROUGH) * rows + y + 1] = map_row[8] >> x0 & full;
        bits[(8 + ENDS) * rows + y + 1] = full;
    }
    // Another creature's square: no place to end; an enemy's costs as
    // difficult ground does. (Read off the squares the grid holds
    // creatures on, not every square of the box: from the last named, as a
    // square named twice holds the last in the grid, each square once.)
    let mut seen: smallvec::SmallVec<[u64; 16]> = smallvec::smallvec![0; h];
    for &(i, (id, side)) in occ.occupied().iter().rev() {
        let (x, y) = (i % map_width, i / map_width);
        if let (Some(x), Some(y)) = (x.checked_sub(x0), y.checked_sub(y0))
            && x < w
            && y < h
            && seen[y] & 1 << x == 0
        {
            seen[y] |= 1 << x;
            if id != mover.id {
                bits[(8 + ENDS) * rows + y + 1] &= !(1 << x);
                bits[(8 + ROUGH) * rows + y + 1] |= u64::from(side != mover.side) << x;
            }
        }
    }
    let (sx, sy) = (
        (mover.space.pos.x - reach.corner.x) as usize,
        (mover.space.pos.y - reach.corner.y) as usize,
    );
    bits[(8 + COSTS) * rows + sy + 1] = 1 << sx;
    // The search's own lists, kept between searches: the squares reached
    // so far, and those a step from the squares `plain` and `rough`
    // cheaper reaches this round.
    let mut work = WORK.take();
    work.clear();
    work.resize(3 * rows, 0);
    let (reached, rest) = work.split_at_mut(rows);
    let (mut from_plain, mut from_rough) = rest.split_at_mut(rows);
    reached[sy + 1] = 1 << sx;
    let mut top = 0usize;
    let levels = (8 + COSTS) * rows;
    // Whether `from_rough` holds any square (see below).
    let mut rough_any = false;
    for k in 1..=speed {
        if k > top.saturating_add(rough) {
            break;
        }
        if bits.len() < levels + (k + 1) * rows {
            bits.resize(levels + (k + 1) * rows, 0);
        }
        let (head, kept) = bits.split_at_mut(levels);
        let (before, this) = kept.split_at_mut(k * rows);
        let this = &mut this[..rows];
        let steps = &head[..8 * rows];
        let dear = &head[(8 + ROUGH) * rows..][..rows];
        // Every step costs at least 1 and moves at most a row: the squares
        // of cost `k` or less lie within `k` rows of the start, and only
        // those rows are looked at.
        let band = sy.saturating_sub(k) + 1..=(sy + 1 + k).min(h);
        // A step from the squares `rough` cheaper: entering costs `rough`
        // one more than `plain`, so those are last round's squares a step
        // from the squares `plain` cheaper, kept rather than found again.
        std::mem::swap(&mut from_plain, &mut from_rough);
        from_plain.fill(0);
        let mut plain_any = false;
        if let Some(level) = k.checked_sub(plain) {
            let level = &before[level * rows..][..rows];
            for y in band.clone() {
                let at = level[y];
                if at == 0 {
                    continue;
                }
                plain_any = true;
                let s: &[u64; 8] = steps[8 * y..][..8].try_into().expect("eight steps");
                from_plain[y - 1] |= (at & s[0]) >> 1 | at & s[1] | (at & s[2]) << 1;
                from_plain[y] |= (at & s[3]) >> 1 | (at & s[4]) << 1;
                from_plain[y + 1] |= (at & s[5]) >> 1 | at & s[6] | (at & s[7]) << 1;
            }
        }
        let any = plain_any || rough_any;
        rough_any = plain_any;
        if !any {
            continue;
        }
        for y in band {
            let new = (from_plain[y] & !dear[y] | from_rough[y] & dear[y]) & full & !reached[y];
            if new != 0 {
                reached[y] |= new;
                this[y] = new;
                top = k;
            }
        }
    }
    bits.truncate(levels + (top + 1) * rows);
    // The squares to end on: those reached that no other creature holds,
    // and the start (where it stands already).
    for (end, seen) in bits[(8 + ENDS) * rows..][..rows]
        .iter_mut()
        .zip(reached.iter())
    {
        *end &= seen;
    }
    bits[(8 + ENDS) * rows + sy + 1] |= 1 << sx;
    WORK.set(work);
    Some(Levels {
        rows,
        top,
        plain,
        rough,
        bits,
        costs: Default::default(),
    })
}

thread_local! {
    /// [`search_levels`]'s own lists, kept between searches (a game runs
    /// hundreds).
    static WORK: std::cell::Cell<Vec<u64>> = const { std::cell::Cell::new(Vec::new()) };
    /// The buffer of the last [`Levels`] dropped on this thread, for the
    /// next search to fill (a listing's search is dropped before the next
    /// listing's: one kept buffer saves each an allocation).
    static SPARE_BITS: std::cell::Cell<Vec<u64>> = const { std::cell::Cell::new(Vec::new()) };
}

impl Drop for Levels {
    fn drop(&mut self) {
        let bits = std::mem::take(&mut self.bits);
        // (A thread going away keeps none.)
        let _ = SPARE_BITS.try_with(|spare| spare.set(bits));
    }
}

/// [`enter_cost`] for a creature of one square stepping onto square `j`
/// (a step its step masks allow): the flags and the occupants read by
/// index.
#[inline(always)]
fn enter_one(
    flags: &[u8],
    occ: &[Option<(CreatureId, Side)>],
    mover: &Mover,
    j: usize,
) -> (u32, bool) {
    let mut difficult = flags[j] & square::DIFFICULT != 0;
    let mut can_end = true;
    if let Some((id, side)) = occ[j]
        && id != mover.id
    {
        can_end = false;
        difficult |= side != mover.side;
    }
    (1 + u32::from(difficult) + mover.extra_cost, can_end)
}

/// A square waiting its turn in [`search`]: its index on the map and its
/// column and row in the reach's box.
#[derive(Clone, Copy)]
struct Queued {
    map: u32,
    x: u16,
    y: u16,
}

/// The general search's cheapest-first search, from the reach's start (cost 0).
/// Squares are handed over by their index on the map: `candidates(here)`
/// are the steps worth a look from `here` (bit `k` for `Pos::STEPS[k]`,
/// each onto the map); `step(here, next)` is the cost of stepping from
/// `here` to the neighbour `next` and whether the mover may end there, or
/// `None` if it can't step there. Costs are small integers: a bucket queue
/// (Dial's algorithm); no step lands in the bucket being emptied (every
/// step costs 1 to `nb - 1`), so each bucket is taken whole and worked in
/// order.
#[inline(always)]
fn search(
    width: i32,
    mover: &Mover,
    reach: &mut Reach,
    candidates: impl Fn(usize) -> u8,
    mut step: impl FnMut(usize, usize) -> Option<(u32, bool)>,
) {
    // Each square is kept as its index in the reach's box and on the map:
    // a step adds the same to each, whatever the square (a step explored
    // is never outside the box: only a square nearer than the speed is
    // looked beyond). No square is worked out from its coordinates.
    let box_width = reach.width as isize;
    let in_box = Pos::STEPS.map(|(dx, dy)| dy as isize * box_width + dx as isize);
    let on_map = Pos::STEPS.map(|(dx, dy)| dy as isize * width as isize + dx as isize);
    let start = mover.space.pos;
    let (Some(start_node), true) = (reach.idx(start), start.x >= 0 && start.y >= 0) else {
        return;
    };
    let start_map = (start.y * width + start.x) as usize;
    // The squares reached, a row of bits for each row of the box (bit
    // `x + 1` for column `x`, with a row more above and below), so a
    // square's eight neighbours already reached are read at once and not
    // looked at one by one: a square reached keeps its cost (a step's cost
    // is that of the square entered, and squares are taken cheapest first),
    // so only the others are worth a look. A box wider than the bits (a
    // speed over 30) looks at each.
    let bits = reach.width <= 62;
    // The lists of the last search on this thread, emptied: a game runs
    // hundreds of searches, and each made its six lists anew.
    let Scratch {
        mut reached,
        mut buckets,
        mut work,
    } = SCRATCH.take();
    reached.clear();
    reached.resize(if bits { reach.height as usize + 2 } else { 0 }, u64::MAX);
    for row in reached.iter_mut().skip(1).take(reach.height as usize) {
        *row = !(((1u64 << reach.width) - 1) << 1);
    }
    let (start_x, start_y) = (
        start_node % reach.width as usize,
        start_node / reach.width as usize,
    );
    if bits {
        reached[start_y + 1] |= 1 << (start_x + 1);
    }
    let nb = 3 + mover.extra_cost as usize;
    // Room in each bucket for a wide frontier at once, rather than growing
    // each step by step.
    let room = 8 * (mover.speed.min(16) as usize + 1);
    buckets.resize_with(nb, Vec::new);
    for b in &mut buckets {
        b.clear();
        b.reserve(room);
    }
    buckets[0].push(Queued {
        map: start_map as u32,
        x: start_x as u16,
        y: start_y as u16,
    });
    let mut current = 0u32;
    let mut pending = 1usize;
    work.clear();
    work.reserve(room);
    let nodes = &mut reach.nodes[..];
    while pending > 0 && current <= mover.speed {
        let b = current as usize % nb;
        std::mem::swap(&mut work, &mut buckets[b]);
        for &Queued {
            map: here_map,
            x,
            y,
        } in &work
        {
            pending -= 1;
            let (x, y) = (x as usize, y as usize);
            let (here, here_map) = (y * box_width as usize + x, here_map as usize);
            let Node {
                cost: here_cost,
                dirs: here_dirs,
                steps: here_steps,
                ..
            } = nodes[here];
            if here_cost != current {
                continue;
            }
            // No step costs less than this: a square already reached as
            // cheaply, or beyond the speed, needs no closer look.
            let least = current + 1 + mover.extra_cost;
            if least > mover.speed {
                continue;
            }
            // The candidates in order of `Pos::STEPS` (ties keep the first),
            // less those reached: the rows above and below give steps 0-2
            // and 5-7, this row's sides steps 3 and 4.
            let mut mask = candidates(here_map);
            if bits {
                let row = |r: usize| (reached[r] >> x) & 7;
                let beside = row(y + 1);
                let seen = row(y) | (beside & 1) << 3 | (beside & 4) << 2 | row(y + 2) << 5;
                mask &= !(seen as u8);
            }
            while mask != 0 {
                let k = mask.trailing_zeros() as usize;
                mask &= mask - 1;
                let next = here.wrapping_add_signed(in_box[k]);
                let there = &mut nodes[next];
                if there.cost <= least {
                    continue;
                }
                let next_map = here_map.wrapping_add_signed(on_map[k]);
                let Some((cost, can_end)) = step(here_map, next_map) else {
                    continue;
                };
                let total = current + cost;
                if total > mover.speed {
                    continue;
                }
                if total < there.cost {
                    // The parent's steps and this one (see `Path`).
                    let n = here_steps;
                    let (dirs, steps) = if (n as usize) < MAX_STEPS {
                        (here_dirs | (k as u64) << (3 * n as u64), n + 1)
                    } else {
                        (0, TOO_LONG)
                    };
                    *there = Node {
                        dirs,
                        cost: total,
                        steps,
                        can_end,
                        last: k as u8,
                    };
                    let (dx, dy) = Pos::STEPS[k];
                    let (nx, ny) = (
                        x.wrapping_add_signed(dx as isize),
                        y.wrapping_add_signed(dy as isize),
                    );
                    if bits {
                        reached[ny + 1] |= 1 << (nx + 1);
                    }
                    buckets[total as usize % nb].push(Queued {
                        map: next_map as u32,
                        x: nx as u16,
                        y: ny as u16,
                    });
                    pending += 1;
                }
            }
        }
        work.clear();
        current += 1;
    }
    SCRATCH.set(Scratch {
        reached,
        buckets,
        work,
    });
}

/// [`search`]'s working lists, kept between searches (see there).
#[derive(Default)]
struct Scratch {
    reached: Vec<u64>,
    buckets: Vec<Vec<Queued>>,
    work: Vec<Queued>,
}

thread_local! {
    static SCRATCH: std::cell::Cell<Scratch> = std::cell::Cell::new(Scratch::default());
}

/// docs/rules.md#straight-lines: "move the creature one square at a time in a
/// single direction without ever bending back in a direction opposite to
/// where they've already moved." (A path of one square, or none, is
/// straight.)
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
struct RunCell {
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
        (Some(flags), Some(masks)) if mover.space.size == 1 && occ.len() == flags.len() => {
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
                    match enter_cost(map, occupant, mover, from, to) {
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
fn run_quadrants(
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
fn in_grid<'a>(
    map: &Map,
    occ: &'a [Option<(CreatureId, Side)>],
) -> impl Fn(Pos) -> Option<(CreatureId, Side)> + Copy + 'a {
    let width = map.width;
    move |q: Pos| occ[(q.y * width + q.x) as usize]
}

fn path_cost_by(
    map: &Map,
    occupant: impl Fn(Pos) -> Option<(CreatureId, Side)> + Copy,
    mover: &Mover,
    path: &[Pos],
) -> Option<u32> {
    let mut total = 0;
    let mut last_can_end = true;
    for w in path.windows(2) {
        if w[0].distance(w[1]) != 1 || cuts_corner(map, w[0], w[1], mover.space.size) {
            return None;
        }
        let (step, can_end) = enter_cost(map, occupant, mover, w[0], w[1])?;
        total += step;
        last_can_end = can_end;
    }
    last_can_end.then_some(total)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::grid::{Terrain, ascii};
    use proptest::prelude::*;

    fn hero(x: i32, y: i32, speed: u32) -> Mover {
        Mover {
            id: CreatureId(1),
            space: Footprint::single(Pos::new(x, y)),
            side: Side::Heroes,
            speed,
            extra_cost: 0,
            shifting: false,
        }
    }

    fn occ(id: u32, x: i32, y: i32, side: Side) -> Occupant {
        Occupant {
            id: CreatureId(id),
            space: Footprint::single(Pos::new(x, y)),
            side,
            can_react: true,
        }
    }

    // docs/rules.md#moving: "Every step to an adjacent square costs 1, diagonals included".
    #[test]
    fn diagonal_steps_cost_one() {
        let m = ascii(".....\n.....\n.....\n.....\n.....");
        let r = reachable(&m, &[], &hero(0, 0, 4));
        assert_eq!(r.cost_to(Pos::new(4, 4)), Some(4));
        assert_eq!(r.cost_to(Pos::new(3, 0)), Some(3));
        assert_eq!(r.path_to(Pos::new(2, 2)).unwrap().len(), 3);
    }

    // A move's path as a listing offers it (kept as steps): it reads as the
    // search's path; two are equal only if their squares are (kept as steps
    // or owned); it saves and loads as the plain list of squares; a path
    // too long to keep as steps is kept as squares, and reads the same.
    #[test]
    fn a_listed_path_compares_and_saves_as_its_squares() {
        let m = ascii(".....\n.#...\n.....\n.....\n.....");
        let reach = reachable(&m, &[], &hero(0, 0, 4));
        let a = Path::in_reach(&reach, Pos::new(2, 2)).unwrap();
        let b = Path::in_reach(&reach, Pos::new(3, 2)).unwrap();
        let squares = reach.path_to(Pos::new(2, 2)).unwrap();
        assert_eq!(a.end(), Some(Pos::new(2, 2)));
        assert_eq!(a.to_vec(), squares);
        assert_eq!(b.to_vec(), reach.path_to(Pos::new(3, 2)).unwrap());
        assert_ne!(a, b);
        assert_eq!(a, Path::in_reach(&reach, Pos::new(2, 2)).unwrap());
        assert_eq!(a, Path::from(squares.clone()));
        assert_eq!(Path::from(squares.clone()), a);
        assert_ne!(b, Path::from(squares.clone()));
        assert_eq!(
            ron::to_string(&a).unwrap(),
            ron::to_string(&squares).unwrap()
        );
        let loaded: Path = ron::from_str(&ron::to_string(&b).unwrap()).unwrap();
        assert_eq!(loaded, b);
        assert_eq!(a.clone().into_vec(), squares);
        // Nowhere to end: no path.
        assert!(Path::in_reach(&reach, Pos::new(1, 1)).is_none());
        assert!(Path::in_reach(&reach, Pos::new(4, 0)).is_some());
        assert!(Path::in_reach(&reach, Pos::new(9, 9)).is_none());
        // Every direction, and a path longer than a `u64` of steps holds.
        let m = ascii(&[".".repeat(40), ".".repeat(40), ".".repeat(40)].join("\n"));
        let reach = reachable(&m, &[], &hero(1, 1, 30));
        for to in
            Pos::new(1, 1)
                .neighbours()
                .chain([Pos::new(22, 1), Pos::new(23, 1), Pos::new(31, 0)])
        {
            let path = Path::in_reach(&reach, to).unwrap();
            let want = reach.path_to(to).unwrap();
            // Read one by one, as a list, and by its ends and length.
            assert_eq!(path.squares().collect::<Vec<_>>(), want);
            assert_eq!(path.to_vec(), want);
            assert_eq!(
                (path.len(), path.start()),
                (want.len(), want.first().copied())
            );
            assert_eq!(path.end(), Some(to));
            assert_eq!(path.into_vec(), want);
        }
        assert_eq!(reach.path_to(Pos::new(31, 0)).unwrap().len(), 31);
        // A box wider than the search's rows of bits (a speed over 30):
        // every square in reach at its distance, by a path that costs it.
        let m = ascii(&[".".repeat(80), ".".repeat(80), ".".repeat(80)].join("\n"));
        let mover = hero(1, 1, 70);
        let reach = reachable(&m, &[], &mover);
        let listed: Vec<(Pos, Path)> = reach.paths().collect();
        assert_eq!(listed.len(), 3 * 72 - 1);
        for (to, path) in listed {
            let cost = Pos::new(1, 1).distance(to);
            assert_eq!(reach.cost_to(to), Some(cost));
            assert_eq!(path_cost(&m, &[], &mover, &path.to_vec()), Some(cost));
            assert_eq!(path.end(), Some(to));
        }
    }

    // docs/rules.md#moving "Difficult terrain costs 1 extra per square."
    #[test]
    fn difficult_terrain_costs_one_more() {
        let m = ascii(
            "
            .~~..
            .~~..",
        );
        let r = reachable(&m, &[], &hero(0, 0, 5));
        assert_eq!(r.cost_to(Pos::new(1, 0)), Some(2));
        assert_eq!(r.cost_to(Pos::new(2, 0)), Some(4));
        // Around is no cheaper here: through costs 2 + 2 + 1.
        assert_eq!(r.cost_to(Pos::new(3, 0)), Some(5));
    }

    // docs/rules.md#prone: crawling "costs 1 additional square of movement for every square crawled".
    #[test]
    fn crawling_costs_one_more() {
        let m = ascii("......");
        let mut prone = hero(0, 0, 5);
        prone.extra_cost = 1;
        let r = reachable(&m, &[], &prone);
        assert_eq!(r.cost_to(Pos::new(2, 0)), Some(4));
        assert_eq!(r.cost_to(Pos::new(3, 0)), None);
    }

    // docs/rules.md#moving.
    #[test]
    fn no_cutting_wall_corners() {
        let m = ascii(
            "
            .#.
            ...",
        );
        let r = reachable(&m, &[], &hero(0, 0, 5));
        // The diagonal (0,0) -> (1,1) passes the wall's corner, so it is
        // down then across; (2,0) is down, across, across, up.
        assert_eq!(r.cost_to(Pos::new(1, 1)), Some(2));
        assert_eq!(r.cost_to(Pos::new(2, 0)), Some(4));
        assert_eq!(r.cost_to(Pos::new(2, 1)), Some(3));
        // Diagonals that pass no wall corner still cost 1.
        assert_eq!(r.cost_to(Pos::new(1, 1)).map(|c| c - 1), Some(1));
    }

    // docs/rules.md#moving: "Enemy creatures' squares are difficult terrain; a creature
    // can't end its move in another creature's square." Allies can be passed.
    #[test]
    fn enemies_are_difficult_allies_passable_neither_ends() {
        let m = ascii(
            "
            #####
            .....
            #####",
        );
        let enemy = [occ(2, 2, 1, Side::Director)];
        let r = reachable(&m, &enemy, &hero(0, 1, 5));
        assert_eq!(
            r.cost_to(Pos::new(2, 1)),
            None,
            "can't end in the enemy's square"
        );
        assert_eq!(
            r.cost_to(Pos::new(3, 1)),
            Some(4),
            "1 + 2 through the enemy + 1"
        );
        let ally = [occ(2, 2, 1, Side::Heroes)];
        let r = reachable(&m, &ally, &hero(0, 1, 5));
        assert_eq!(r.cost_to(Pos::new(2, 1)), None);
        assert_eq!(r.cost_to(Pos::new(3, 1)), Some(3));
    }

    // Issue #3 point 4: size N footprints.
    #[test]
    fn big_creatures_need_room() {
        let m = ascii(
            "
            ......
            ......
            ..#...
            ......",
        );
        let mut ogre = hero(0, 0, 6);
        ogre.space = Footprint::new(Pos::new(0, 0), 2);
        let r = reachable(&m, &[], &ogre);
        assert_eq!(r.cost_to(Pos::new(1, 1)), None, "would overlap the wall");
        assert_eq!(r.cost_to(Pos::new(4, 0)), Some(4));
        // Its first diagonal would overlap the wall and the diagonal from
        // (2,0) would cut the wall's corner with its lower-left square.
        assert_eq!(r.cost_to(Pos::new(3, 2)), Some(5));
    }

    // docs/rules.md#opportunity-attacks: "Leaving a square adjacent to an enemy without shifting
    // provokes an opportunity attack"; a shift does not.
    #[test]
    fn opportunity_attacks_on_leaving_adjacency() {
        let m = ascii(".....\n.....\n.....");
        let goblin = occ(2, 1, 1, Side::Director);
        let mut stunned = occ(3, 3, 0, Side::Director);
        stunned.can_react = false;
        let creatures = [goblin, stunned];
        let path = [
            Pos::new(0, 1),
            Pos::new(0, 2),
            Pos::new(1, 2),
            Pos::new(2, 2),
            Pos::new(3, 2),
            Pos::new(4, 2),
        ];
        let mover = hero(0, 1, 6);
        assert_eq!(path_cost(&m, &creatures, &mover, &path), Some(5));
        let p = opportunity_attacks(&creatures, &mover, path.iter().copied());
        // Moving around the goblin stays adjacent until (2,2) -> (3,2).
        assert_eq!(
            p,
            vec![Provoked {
                by: CreatureId(2),
                leaving: 3
            }]
        );
        let shift = Mover {
            shifting: true,
            ..mover
        };
        assert!(opportunity_attacks(&creatures, &shift, path.iter().copied()).is_empty());
    }

    // docs/rules.md#moving: teleport to "any unoccupied square within range and in line of effect".
    #[test]
    fn teleport_needs_line_of_effect_and_an_empty_square() {
        let m = ascii(
            "
            ...#...
            ...#...
            ...#...",
        );
        let creatures = [occ(2, 1, 1, Side::Director)];
        let d = teleport_destinations(&m, &creatures, &hero(0, 1, 5), 6);
        assert!(d.contains(&Pos::new(2, 2)));
        assert!(!d.contains(&Pos::new(1, 1)), "occupied");
        assert!(!d.contains(&Pos::new(5, 1)), "behind the wall");
    }

    // docs/rules.md#straight-lines: a straight line "doesn't have to take the
    // form of a straight series of squares on the grid. Simply move the
    // creature one square at a time in a single direction without ever
    // bending back in a direction opposite to where they've already moved."
    #[test]
    fn a_straight_line_never_bends_back() {
        let p = |x, y| Pos::new(x, y);
        assert!(is_straight([p(0, 0), p(1, 1), p(2, 1), p(3, 2)]));
        assert!(is_straight([p(0, 0), p(1, 0), p(2, 0), p(2, 1), p(2, 2)]));
        assert!(is_straight([p(3, 3)]));
        assert!(!is_straight([p(0, 0), p(1, 1), p(2, 0)]));
        assert!(!is_straight([p(2, 2), p(1, 2), p(2, 2)]));
        assert!(!is_straight([p(0, 0), p(0, 1), p(1, 1), p(1, 0)]));
    }

    // docs/rules.md#forced-movement: "A target moved over a pit or ledge
    // falls". Our ruling (docs/rulings.md): nobody walks into a pit from
    // the ground, but a creature down in one walks its floor and climbs out
    // onto open ground, so a fall never leaves it unable to move.
    #[test]
    fn a_creature_down_in_a_pit_walks_its_floor_and_climbs_out() {
        let m = ascii(
            "
            .....
            .___.
            .___.
            .___.
            .....",
        );
        let down = reachable(&m, &[], &hero(2, 2, 5));
        assert_eq!(down.cost_to(Pos::new(1, 1)), Some(1));
        assert_eq!(down.cost_to(Pos::new(2, 4)), Some(2));
        assert_eq!(down.cost_to(Pos::new(0, 0)), Some(2));
        let up = reachable(&m, &[], &hero(0, 0, 5));
        assert_eq!(up.cost_to(Pos::new(1, 1)), None);
        assert_eq!(up.cost_to(Pos::new(4, 1)), Some(4));
        // The same for a walk checked step by step, and for a larger
        // creature with a square down there.
        let walk = [(2, 2), (1, 1), (0, 0)].map(|(x, y)| Pos::new(x, y));
        assert_eq!(path_cost(&m, &[], &hero(2, 2, 5), &walk), Some(2));
        let back = [(0, 0), (1, 1)].map(|(x, y)| Pos::new(x, y));
        assert_eq!(path_cost(&m, &[], &hero(0, 0, 5), &back), None);
        let ogre = Mover {
            space: Footprint::new(Pos::new(2, 2), 2),
            ..hero(2, 2, 5)
        };
        let climb = [(2, 2), (2, 3)].map(|(x, y)| Pos::new(x, y));
        assert_eq!(path_cost(&m, &[], &ogre, &climb), Some(1));
    }

    // docs/rules.md#charge: "move up to your speed in a straight line (no
    // difficult terrain, no shifting)". With the diagonal blocked, the
    // shortest straight run to (3, 1) goes along the row and turns; it
    // never crosses difficult ground or an enemy, passes an ally, and ends
    // on no creature.
    #[test]
    fn straight_runs_go_round_and_keep_off_difficult_ground() {
        let m = ascii(
            "
            .....
            .##..
            ...~.
            .....",
        );
        let mover = hero(0, 0, 5);
        let everywhere = [(Pos::new(0, 0), Pos::new(4, 3))];
        let runs = straight_runs(&m, &occupancy(&m, &[]), &mover, &everywhere);
        assert_eq!(runs.steps_to(Pos::new(3, 1)), Some(4));
        assert_eq!(
            runs.path_to(Pos::new(3, 1)).unwrap().to_vec(),
            [(0, 0), (1, 0), (2, 0), (3, 0), (3, 1)].map(|(x, y)| Pos::new(x, y))
        );
        // Difficult ground ends a run; beyond it only a way round it, of
        // six steps (no diagonal past the walls' corners): more than the
        // speed.
        assert_eq!(runs.steps_to(Pos::new(3, 2)), None);
        assert_eq!(runs.steps_to(Pos::new(4, 3)), None);
        let quick = straight_runs(&m, &occupancy(&m, &[]), &hero(0, 0, 6), &everywhere);
        assert_eq!(quick.steps_to(Pos::new(4, 3)), Some(6));
        // The start is no run; the speed bounds them.
        assert_eq!(runs.steps_to(Pos::new(0, 0)), Some(0));
        let slow = straight_runs(&m, &occupancy(&m, &[]), &hero(0, 0, 3), &everywhere);
        assert_eq!(slow.steps_to(Pos::new(3, 1)), None);
        assert_eq!(slow.steps_to(Pos::new(3, 0)), Some(3));
        // An enemy blocks the row; an ally there can be passed, not ended on.
        let foe = [occ(2, 1, 0, Side::Director)];
        let runs = straight_runs(&m, &occupancy(&m, &foe), &mover, &everywhere);
        assert_eq!(runs.steps_to(Pos::new(3, 0)), None);
        let friend = [occ(2, 1, 0, Side::Heroes)];
        let runs = straight_runs(&m, &occupancy(&m, &friend), &mover, &everywhere);
        assert_eq!(runs.steps_to(Pos::new(3, 0)), Some(3));
        assert_eq!(runs.steps_to(Pos::new(1, 0)), None);
        // Only the squares toward the boxes are looked at.
        let east = [(Pos::new(3, 0), Pos::new(4, 0))];
        let runs = straight_runs(&m, &occupancy(&m, &[]), &mover, &east);
        assert_eq!(runs.steps_to(Pos::new(4, 0)), Some(4));
        assert_eq!(runs.steps_to(Pos::new(0, 3)), None);
    }

    /// [`reachable_with`]'s one-square search against the general search
    /// over the whole map, on `rough_ground` (see the proptests).
    fn one_square_matches(
        tiles: &[u8],
        who: &[(i32, i32, bool)],
        at: (i32, i32),
        speed: u32,
        crawl: bool,
    ) -> Result<(), TestCaseError> {
        let (m, creatures) = rough_ground(tiles, who);
        let mover = Mover {
            extra_cost: u32::from(crawl),
            ..hero(at.0, at.1, speed)
        };
        // The step masks, kept in step with each change, are those
        // found afresh.
        let mut afresh = m.clone();
        afresh.rebuild_blockers();
        prop_assert_eq!(afresh.step_masks(), m.step_masks());
        let grid = occupancy(&m, &creatures);
        let fast = reachable_with(&m, &grid, &mover);
        // The general search over the whole map, not a box.
        let mut slow = Reach {
            origin: mover.space.pos,
            corner: Pos::new(0, 0),
            width: m.width,
            height: 8,
            nodes: vec![Node::UNREACHED; (m.width * 8) as usize],
            levels: None,
        };
        if m.in_bounds(mover.space.pos) {
            let start = (at.1 * m.width + at.0) as usize;
            slow.nodes[start].cost = 0;
            slow.nodes[start].can_end = true;
            search_general(&m, &grid, &mover, &mut slow);
        }
        // The squares beside the start to end on for each cost, read
        // together, are those found one by one.
        for cost in 0..4 {
            let beside: Vec<bool> = mover
                .space
                .pos
                .neighbours()
                .map(|p| slow.ends_for(p, cost))
                .collect();
            prop_assert_eq!(
                &fast.ends_beside_start(cost)[..],
                &beside[..],
                "cost {}",
                cost
            );
            prop_assert_eq!(
                &slow.ends_beside_start(cost)[..],
                &beside[..],
                "cost {}",
                cost
            );
        }
        // Square by square the same costs and places to end, nothing
        // reached outside the fast search's box, and each path read
        // back a walk by the map's rules for its cost, from the start.
        for (i, want) in slow.nodes.iter().enumerate() {
            let p = Pos::new(i as i32 % m.width, i as i32 / m.width);
            let want = (want.cost != NONE).then_some((want.cost, want.can_end));
            let got = fast.found(p);
            prop_assert_eq!(got, want, "at {:?}", p);
            let Some((cost, _)) = got else {
                continue;
            };
            let mut path = vec![p];
            for k in fast.steps_back(p) {
                let (dx, dy) = Pos::STEPS[k];
                path.push(path[path.len() - 1].offset(-dx, -dy));
                prop_assert!(path.len() <= 1024, "a path back to the start");
            }
            path.reverse();
            prop_assert_eq!(path[0], mover.space.pos);
            let mut walked = 0;
            for w in path.windows(2) {
                prop_assert!(!cuts_corner(&m, w[0], w[1], 1));
                let step = enter_cost(&m, in_grid(&m, &grid), &mover, w[0], w[1]);
                prop_assert!(step.is_some(), "{:?} to {:?}", w[0], w[1]);
                walked += step.map_or(0, |s| s.0);
            }
            prop_assert_eq!(walked, cost, "to {:?}", p);
        }
        prop_assert!(fast.found(mover.space.pos).is_some() == m.in_bounds(mover.space.pos));
        // A shift (one square, for a cost of 1, ending where it may) is
        // where a search with some speed got for 1, when squares cost
        // no extra: the listing reads shifts off the search.
        if !crawl && speed > 0 && m.in_bounds(mover.space.pos) {
            let shifter = Mover {
                speed: 1,
                shifting: true,
                ..mover
            };
            for to in mover.space.pos.neighbours() {
                let step = [mover.space.pos, to];
                let shifts = m.in_bounds(to)
                    && path_cost_with(&m, &grid, &shifter, &step).is_some_and(|c| c <= 1);
                prop_assert_eq!(fast.cost_to(to) == Some(1), shifts, "shift to {:?}", to);
            }
        }
        // Whether a square is ended in for a cost, read off at once, is
        // what its cost says.
        for i in 0..m.width * 8 {
            let p = Pos::new(i % m.width, i / m.width);
            for cost in 0..=speed + 2 {
                prop_assert_eq!(fast.ends_for(p, cost), fast.cost_to(p) == Some(cost));
            }
        }
        // A reach whose every path was read back first (the tree) gives
        // the costs found: its table of costs, made when first asked, is
        // the same.
        let first_paths = reachable_with(&m, &grid, &mover);
        first_paths.paths().count();
        for i in 0..m.width * 8 {
            let p = Pos::new(i % m.width, i / m.width);
            prop_assert_eq!(first_paths.found(p), fast.found(p), "at {:?}", p);
        }
        // The listing's paths are the destinations' paths, in order.
        let listed: Vec<(Pos, Path)> = fast.paths().collect();
        let each: Vec<(Pos, Path)> = fast
            .destinations()
            .into_iter()
            .map(|(dest, _)| (dest, Path::to_destination(&fast, dest)))
            .collect();
        prop_assert_eq!(listed, each);
        // A listed move's path, walked out when read, is the path
        // found: it ends where it says and equals its squares owned.
        for (dest, _) in fast.destinations() {
            let path = Path::to_destination(&fast, dest);
            prop_assert_eq!(Some(path.clone()), Path::in_reach(&fast, dest));
            prop_assert_eq!(path.end(), Some(dest));
            let want = fast.path_to(dest).expect("a destination has a path");
            prop_assert_eq!(path.to_vec(), want.clone());
            prop_assert_eq!(&path, &Path::from(want));
        }
        Ok(())
    }

    /// A map of 8 rows (as wide as `tiles` make them) from `tiles` (0 a wall, 1 difficult ground, 2 a pit,
    /// 3 a wooden crate, the rest open ground) and creatures at `who` (each
    /// a foe of the heroes' mover or a friend), for the property tests.
    fn rough_ground(tiles: &[u8], who: &[(i32, i32, bool)]) -> (Map, Vec<Occupant>) {
        let width = (tiles.len() / 8) as i32;
        let mut m = Map::new(width, 8);
        for (i, &t) in tiles.iter().enumerate() {
            let p = Pos::new(i as i32 % width, i as i32 / width);
            match t {
                0 => m.set_terrain(p, Terrain::Wall),
                1 => m.set_terrain(p, Terrain::Difficult),
                2 => m.set_terrain(p, Terrain::Pit(2)),
                3 => m.set_object(
                    p,
                    Some(crate::map::grid::MapObject {
                        material: crate::map::grid::Material::Wood,
                        size: 1,
                    }),
                ),
                _ => {}
            }
        }
        let creatures = who
            .iter()
            .enumerate()
            .map(|(i, &(x, y, foe))| {
                let side = if foe { Side::Director } else { Side::Heroes };
                occ(i as u32 + 2, x, y, side)
            })
            .collect();
        (m, creatures)
    }

    proptest! {
        #![proptest_config(crate::map::fixed_proptest())]
        // The straight runs are the straight paths that cost one square a
        // step (no difficult terrain, no enemy crossed) and end where the
        // creature may stand: on maps of walls, difficult ground, pits,
        // objects and creatures of both sides, for creatures of one square
        // and of two, the fewest steps to each square are those of the
        // shortest such path found by trying every straight path, and the
        // run read back is such a path (docs/rules.md#charge).
        #[test]
        fn straight_runs_are_the_shortest_clean_straight_paths(
            tiles in proptest::collection::vec(0u8..8, 64),
            who in proptest::collection::vec((0i32..8, 0i32..8, any::<bool>()), 0..6),
            at in (0i32..8, 0i32..8),
            speed in 0u32..6,
            size in 1u32..3,
        ) {
            let (m, creatures) = rough_ground(&tiles, &who);
            let mover = Mover {
                space: Footprint::new(Pos::new(at.0, at.1), size),
                ..hero(at.0, at.1, speed)
            };
            let grid = occupancy(&m, &creatures);
            let runs = straight_runs(&m, &grid, &mover, &[(Pos::new(0, 0), Pos::new(7, 7))]);
            let mut fewest = std::collections::HashMap::new();
            for path in every_straight_path(mover.space.pos, speed) {
                let steps = path.len() as u32 - 1;
                if path_cost_with(&m, &grid, &mover, &path) == Some(steps) {
                    let end = *path.last().unwrap();
                    let best = fewest.entry(end).or_insert(steps);
                    *best = (*best).min(steps);
                }
            }
            for y in -1..9 {
                for x in -1..9 {
                    let p = Pos::new(x, y);
                    if p == mover.space.pos {
                        continue;
                    }
                    prop_assert_eq!(runs.steps_to(p), fewest.get(&p).copied(), "to {:?}", p);
                    if let Some(path) = runs.path_to(p) {
                        let path = path.to_vec();
                        prop_assert!(is_straight(path.iter().copied()));
                        prop_assert_eq!(path.first(), Some(&mover.space.pos));
                        prop_assert_eq!(path.last(), Some(&p));
                        let steps = path.len() as u32 - 1;
                        prop_assert_eq!(Some(steps), runs.steps_to(p));
                        prop_assert_eq!(path_cost_with(&m, &grid, &mover, &path), Some(steps));
                    }
                }
            }
        }

        // The one-square search is the general search made quicker: on maps
        // of walls, difficult ground, pits, objects and creatures of both
        // sides, crawling or not, it finds the same costs, the same paths
        // and the same squares to end on (docs/rules.md#moving).
        #[test]
        fn one_square_search_matches_the_general_one(
            tiles in proptest::collection::vec(0u8..8, 64),
            who in proptest::collection::vec((0i32..8, 0i32..8, any::<bool>()), 0..6),
            at in (0i32..8, 0i32..8),
            speed in 0u32..9,
            crawl in any::<bool>(),
        ) {
            one_square_matches(&tiles, &who, at, speed, crawl)?;
        }

        // The same on maps as wide as a row of bits holds (64 squares),
        // with speeds up to past its width, and on a map wider than that
        // (where the one-square search is the general one).
        #[test]
        fn one_square_search_matches_the_general_one_on_wide_maps(
            wide in any::<bool>(),
            tiles in proptest::collection::vec(0u8..10, 80 * 8),
            who in proptest::collection::vec((0i32..80, 0i32..8, any::<bool>()), 0..16),
            at in (0i32..80, 0i32..8),
            speed in prop_oneof![0u32..12, 28u32..40],
            crawl in any::<bool>(),
        ) {
            let width = if wide { 80 } else { 64 };
            let tiles: Vec<u8> = tiles.chunks(80).flat_map(|r| r[..width].to_vec()).collect();
            one_square_matches(&tiles, &who, at, speed, crawl)?;
        }

        // Issue #3 point 7: a path never costs more than the speed it was found for.
        #[test]
        fn paths_within_speed(walls in proptest::collection::vec(0u8..10, 100), speed in 1u32..8) {
            let mut m = crate::map::grid::Map::new(10, 10);
            for (i, w) in walls.iter().enumerate() {
                let p = Pos::new(i as i32 % 10, i as i32 / 10);
                match w {
                    0 => m.set_terrain(p, Terrain::Wall),
                    1 => m.set_terrain(p, Terrain::Difficult),
                    _ => {}
                }
            }
            m.set_terrain(Pos::new(5, 5), Terrain::Floor);
            let creatures = [occ(2, 6, 6, Side::Director), occ(3, 4, 5, Side::Heroes)];
            let mover = hero(5, 5, speed);
            let r = reachable(&m, &creatures, &mover);
            for (dest, cost) in r.destinations() {
                prop_assert!(cost <= speed);
                let path = r.path_to(dest).unwrap();
                prop_assert_eq!(path_cost(&m, &creatures, &mover, &path), Some(cost));
            }
        }
    }
}
