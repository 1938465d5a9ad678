//! Squares and footprints: where things are on the grid, and how far.

use super::*;

/// A square on the map: `x` grows to the right, `y` grows downward, (0, 0)
/// is the top-left square. A square spans `[x, x+1] x [y, y+1]`, so its
/// corners are the lattice points at integer coordinates.
///
/// In RON and JSON a square is written `(x, y)`.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[serde(from = "(i32, i32)", into = "(i32, i32)")]
pub struct Pos {
    pub x: i32,
    pub y: i32,
}

impl From<(i32, i32)> for Pos {
    fn from((x, y): (i32, i32)) -> Pos {
        Pos { x, y }
    }
}

impl From<Pos> for (i32, i32) {
    fn from(p: Pos) -> (i32, i32) {
        (p.x, p.y)
    }
}

impl Pos {
    pub const fn new(x: i32, y: i32) -> Pos {
        Pos { x, y }
    }

    /// Distance counting diagonal steps as 1 (docs/rules.md#distances-and-targets).
    pub fn distance(self, o: Pos) -> u32 {
        (self.x - o.x)
            .unsigned_abs()
            .max((self.y - o.y).unsigned_abs())
    }

    pub fn offset(self, dx: i32, dy: i32) -> Pos {
        Pos::new(self.x + dx, self.y + dy)
    }

    /// The steps to the eight neighbours, in the order [`Pos::neighbours`]
    /// gives them (rows top to bottom, each left to right).
    pub const STEPS: [(i32, i32); 8] = [
        (-1, -1),
        (0, -1),
        (1, -1),
        (-1, 0),
        (1, 0),
        (-1, 1),
        (0, 1),
        (1, 1),
    ];

    /// The eight neighbours.
    pub fn neighbours(self) -> impl Iterator<Item = Pos> {
        Pos::STEPS
            .into_iter()
            .map(move |(dx, dy)| self.offset(dx, dy))
    }
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

/// The space a creature occupies: an N x N block whose top-left square is `pos`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Footprint {
    pub pos: Pos,
    pub size: u32,
}

impl Footprint {
    pub fn new(pos: Pos, size: u32) -> Self {
        Footprint {
            pos,
            size: size.max(1),
        }
    }

    pub fn single(pos: Pos) -> Self {
        Footprint { pos, size: 1 }
    }

    /// Every square of the footprint.
    pub fn squares(self) -> impl Iterator<Item = Pos> {
        Squares {
            origin: self.pos,
            n: self.size.min(i32::MAX as u32) as i32,
            dx: 0,
            dy: 0,
        }
    }

    /// The squares next to the footprint, outside it: the ring one square
    /// wide around it (where a creature stands to be adjacent).
    pub fn around(self) -> impl Iterator<Item = Pos> {
        Footprint::new(self.pos.offset(-1, -1), self.size + 2)
            .squares()
            .filter(move |&q| !self.contains(q))
    }

    pub fn contains(self, q: Pos) -> bool {
        let n = self.size as i32;
        q.x >= self.pos.x && q.x < self.pos.x + n && q.y >= self.pos.y && q.y < self.pos.y + n
    }

    /// The four corners (lattice points) of the space.
    pub fn corners(self) -> [Pos; 4] {
        let n = self.size as i32;
        let p = self.pos;
        [p, p.offset(n, 0), p.offset(0, n), p.offset(n, n)]
    }

    /// Distance from this space to a square (0 inside it, 1 adjacent).
    pub fn distance_to(self, q: Pos) -> u32 {
        let n = self.size as i32;
        // The gap before the space's first square or past its last, each
        // way (at most one of them positive; none inside it), found as a
        // maximum rather than by asking which side `q` is on: where
        // creatures stand is as good as random to the processor, and each
        // such question a guess it often gets wrong.
        let gap = |p: i32, q: i32| (p - q).max(q - (p + n - 1)).max(0);
        gap(self.pos.x, q.x).max(gap(self.pos.y, q.y)) as u32
    }

    /// Distance between two spaces (1 when adjacent): the least distance
    /// from this space to a square of `o`. Across and down are apart, so
    /// that square is the one of `o` nearest this space in each (the
    /// sides' gaps, found without walking `o`'s squares).
    pub fn distance(self, o: Footprint) -> u32 {
        match o.size {
            0 => return 0,
            1 => return self.distance_to(o.pos),
            _ => {}
        }
        let (n, m) = (self.size as i32, o.size as i32);
        let nearest = |a: i32, lo: i32| {
            let hi = lo + m - 1;
            if hi < a {
                hi
            } else if lo > a + n - 1 {
                lo
            } else {
                lo.max(a)
            }
        };
        self.distance_to(Pos::new(
            nearest(self.pos.x, o.pos.x),
            nearest(self.pos.y, o.pos.y),
        ))
    }

    pub fn overlaps(self, o: Footprint) -> bool {
        o.squares().any(|q| self.contains(q))
    }

    /// Centre point, in squares (for directions of forced movement).
    pub fn centre(self) -> (f64, f64) {
        let h = self.size as f64 / 2.0;
        (self.pos.x as f64 + h, self.pos.y as f64 + h)
    }
}

/// [`Footprint::squares`]: row by row from the top-left, each left to
/// right. (Counted out by hand: nested ranges flattened cost more at each
/// walk over a space, and the rules walk spaces many times a command.)
struct Squares {
    origin: Pos,
    n: i32,
    dx: i32,
    dy: i32,
}

impl Iterator for Squares {
    type Item = Pos;

    #[inline]
    fn next(&mut self) -> Option<Pos> {
        if self.dy >= self.n {
            return None;
        }
        let p = self.origin.offset(self.dx, self.dy);
        self.dx += 1;
        if self.dx == self.n {
            self.dx = 0;
            self.dy += 1;
        }
        Some(p)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = if self.dy >= self.n {
            0
        } else {
            let (n, dx, dy) = (self.n as usize, self.dx as usize, self.dy as usize);
            n * (n - dy) - dx
        };
        (left, Some(left))
    }
}
