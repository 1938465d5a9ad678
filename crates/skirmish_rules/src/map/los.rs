//! Line of effect (docs/rules.md#line-of-effect): "imagine drawing a straight
//! line from any corner of the space you occupy ... to any corner of a space
//! the target occupies. If one or more corners of your space connect to any
//! corner of the target's space with no obstruction in between, you have line
//! of effect."
//!
//! Squares span `[x, x+1] x [y, y+1]`; corners are lattice points. A segment
//! between two corners is **blocked** when:
//!
//! 1. it passes through the open interior of a blocking square (wall, raised
//!    wall, or a solid object; glass is flimsy and does not block);
//! 2. it runs along a grid edge whose squares on *both* sides block (the
//!    seam inside a solid mass of wall). A line along the open edge of a
//!    wall, with open ground on the other side, is **not** blocked;
//! 3. it passes through a lattice point where two blocking squares meet
//!    diagonally (a "pinch"): squeezing through the single point where two
//!    walls touch is blocked. At the segment's own ends the pinch blocks when
//!    the line leaves the side its space is on (a creature boxed in by walls
//!    on two sides can't see out through the corner between them), and two
//!    squares touching only at a pinch corner don't see each other.
//!
//! Touching a blocking square's boundary otherwise (grazing a corner, ending
//! on a wall's side) does not block.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU8, Ordering};

use super::grid::{Footprint, Map, Pos};

/// What was found of the lines between each pair of single squares of a
/// map, kept as it is first found (a map holds it; see `Map`'s field):
/// whether there is line of effect, and whether the sight is clear, each
/// kept apart, as each is found by its own walk (which stops at its first
/// answer). A cloned or changed map starts with nothing kept; a map of
/// more than [`SightMemo::MAX_SQUARES`] squares keeps nothing. The answers
/// are those of the lines walked, always: keeping them saves only the
/// walking.
#[derive(Default)]
pub struct SightMemo(OnceLock<Box<[AtomicU8]>>);

/// [`SightMemo`]'s bits for one pair: each answer, and whether it is known.
const LINE_KNOWN: u8 = 1;
const LINE: u8 = 2;
const CLEAR_KNOWN: u8 = 4;
const CLEAR: u8 = 8;

impl SightMemo {
    /// The largest map that keeps its sights: one byte for each ordered
    /// pair of squares (48 x 48 squares: 5.3 MB; the shipped maps are at
    /// most 22 x 32).
    pub const MAX_SQUARES: usize = 48 * 48;

    /// The slot of the pair from square `a` to square `b` of `map`, if it
    /// keeps one.
    #[inline]
    fn slot(&self, map: &Map, a: Pos, b: Pos) -> Option<&AtomicU8> {
        let n = (map.width.max(0) * map.height.max(0)) as usize;
        if n > Self::MAX_SQUARES || !map.in_bounds(a) || !map.in_bounds(b) {
            return None;
        }
        let kept = self
            .0
            .get_or_init(|| (0..n * n).map(|_| AtomicU8::new(0)).collect());
        let index = |p: Pos| (p.y * map.width + p.x) as usize;
        Some(&kept[index(a) * n + index(b)])
    }

    /// One answer for the pair (`known` and `value` its bits): the kept
    /// one, or `walk`'s, kept for next time.
    #[inline]
    fn answer(
        &self,
        map: &Map,
        (a, b): (Pos, Pos),
        (known, value): (u8, u8),
        walk: impl FnOnce() -> bool,
    ) -> bool {
        let Some(slot) = self.slot(map, a, b) else {
            return walk();
        };
        let kept = slot.load(Ordering::Relaxed);
        if kept & known != 0 {
            return kept & value != 0;
        }
        let found = walk();
        slot.fetch_or(known | if found { value } else { 0 }, Ordering::Relaxed);
        found
    }
}

/// A copy keeps nothing: it is made to be changed (a wall raised).
impl Clone for SightMemo {
    fn clone(&self) -> Self {
        SightMemo::default()
    }
}

/// What is kept is only ever what the lines would show: maps equal in
/// their squares are equal whatever each has kept.
impl PartialEq for SightMemo {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl std::fmt::Debug for SightMemo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SightMemo({} kept)", self.0.get().map_or(0, |k| k.len()))
    }
}

/// Both spaces' squares, when each is a single square (the pairs kept).
#[inline]
fn single_squares(from: Footprint, to: Footprint) -> Option<(Pos, Pos)> {
    (from.size == 1 && to.size == 1).then_some((from.pos, to.pos))
}

/// One answer past open ground (`walk` finds it; `bits` are where it is
/// kept): kept for single squares, walked for larger spaces.
#[inline]
fn kept(
    map: &Map,
    (from, to): (Footprint, Footprint),
    bits: (u8, u8),
    walk: fn(&Map, Footprint, Footprint) -> bool,
) -> bool {
    match single_squares(from, to) {
        Some(pair) => map
            .sight_memo
            .answer(map, pair, bits, || walk(map, from, to)),
        None => walk(map, from, to),
    }
}

/// Line of effect past open ground.
#[inline]
fn kept_line_of_effect(map: &Map, from: Footprint, to: Footprint) -> bool {
    kept(map, (from, to), (LINE_KNOWN, LINE), walked_line_of_effect)
}

/// Clear sight past open ground.
#[inline]
fn kept_clear_sight(map: &Map, from: Footprint, to: Footprint) -> bool {
    kept(map, (from, to), (CLEAR_KNOWN, CLEAR), walked_clear_sight)
}

/// [`sight`] past open ground, from the two kept answers: clear sight is
/// [`Sight::Clear`], no line of effect [`Sight::Blocked`], and line of
/// effect without clear sight [`Sight::Cover`].
#[inline]
fn kept_sight(map: &Map, from: Footprint, to: Footprint) -> Sight {
    if single_squares(from, to).is_none() {
        return walked_sight(map, from, to);
    }
    if kept_clear_sight(map, from, to) {
        Sight::Clear
    } else if kept_line_of_effect(map, from, to) {
        Sight::Cover
    } else {
        Sight::Blocked
    }
}

/// Whether the lattice point (px, py) is a pinch: two blocking squares meet
/// there diagonally (NW with SE, or NE with SW).
#[inline]
fn pinch(map: &Map, px: i32, py: i32) -> bool {
    let nw = map.blocks(px - 1, py - 1);
    let se = map.blocks(px, py);
    let ne = map.blocks(px, py - 1);
    let sw = map.blocks(px - 1, py);
    (nw && se) || (ne && sw)
}

fn gcd(mut a: i32, mut b: i32) -> i32 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// Which quadrant around a corner a space lies in: (+1, +1) is south-east.
pub type Quadrant = (i32, i32);

/// Whether a direction leaving a corner stays on its space's side: no
/// component points away from the quadrant.
#[inline]
fn stays_on_side(q: Quadrant, sx: i32, sy: i32) -> bool {
    sx * q.0 >= 0 && sy * q.1 >= 0
}

/// Whether the segment between corner `a` of a space lying in quadrant `qa`
/// and corner `b` of a space in quadrant `qb` is free of obstruction.
pub fn segment_clear(map: &Map, a: Pos, qa: Quadrant, b: Pos, qb: Quadrant) -> bool {
    if a == b {
        return qa == qb || !pinch(map, a.x, a.y);
    }
    segment_clear_from(map, a, qa, b) && end_clear(map, a, b, qb)
}

/// The far end's part of [`segment_clear`]: a pinch at `b` blocks unless the
/// line arrives on the side its space is on. (`a != b`.)
#[inline]
fn end_clear(map: &Map, a: Pos, b: Pos, qb: Quadrant) -> bool {
    !pinch(map, b.x, b.y) || stays_on_side(qb, -(b.x - a.x).signum(), -(b.y - a.y).signum())
}

/// Everything in [`segment_clear`] but the far end's pinch, which depends
/// on the target space: shared by all the squares meeting at corner `b`.
fn segment_clear_from(map: &Map, a: Pos, qa: Quadrant, b: Pos) -> bool {
    let dx = b.x - a.x;
    let dy = b.y - a.y;
    let g = gcd(dx.abs(), dy.abs());
    let sx = dx / g;
    let sy = dy / g;
    if pinch(map, a.x, a.y) && !stays_on_side(qa, sx, sy) {
        return false;
    }
    // Walk the lattice points on the segment; between consecutive ones the
    // open sub-segment crosses no lattice point.
    let mut p = a;
    for k in 0..g {
        if k > 0 && pinch(map, p.x, p.y) {
            return false;
        }
        if !step_clear(map, p, sx, sy) {
            return false;
        }
        p = p.offset(sx, sy);
    }
    true
}

/// A segment between two bare points (both treated as lying in the
/// direction of the other), for tests and tools.
pub fn points_clear(map: &Map, a: Pos, b: Pos) -> bool {
    let q = ((b.x - a.x).signum(), (b.y - a.y).signum());
    segment_clear(map, a, q, b, (-q.0, -q.1))
}

/// A space's corners, each with the quadrant the space lies in from it.
fn corners(fp: Footprint) -> [(Pos, Quadrant); 4] {
    let c = fp.corners();
    [
        (c[0], (1, 1)),
        (c[1], (-1, 1)),
        (c[2], (1, -1)),
        (c[3], (-1, -1)),
    ]
}

/// The open sub-segment from lattice point `p` to `p + (sx, sy)`, with
/// gcd(|sx|, |sy|) = 1.
#[inline]
fn step_clear(map: &Map, p: Pos, sx: i32, sy: i32) -> bool {
    if sx == 0 {
        // Vertical, along the edge between columns p.x-1 and p.x.
        let y = if sy > 0 { p.y } else { p.y - 1 };
        return !(map.blocks(p.x - 1, y) && map.blocks(p.x, y));
    }
    if sy == 0 {
        let x = if sx > 0 { p.x } else { p.x - 1 };
        return !(map.blocks(x, p.y - 1) && map.blocks(x, p.y));
    }
    // Diagonal-ish: it crosses the interiors of |sx| + |sy| - 1 squares in
    // the box between the two points. Column i of the box spans the line's
    // y from i*h/w to (i+1)*h/w.
    let w = sx.abs();
    let h = sy.abs();
    for i in 0..w {
        let j0 = (i * h) / w;
        let j1 = ((i + 1) * h + w - 1) / w - 1;
        let x = if sx > 0 { p.x + i } else { p.x - 1 - i };
        for j in j0..=j1 {
            let y = if sy > 0 { p.y + j } else { p.y - 1 - j };
            if map.blocks(x, y) {
                return false;
            }
        }
    }
    true
}

/// Whether nothing blocks in the box of squares spanning both spaces: then
/// every corner-to-corner line between them is clear and none needs
/// walking. (A line can only leave the box along its outer edge, where an
/// edge or a pinch needs a blocking square inside it too.)
fn open_between(map: &Map, from: Footprint, to: Footprint) -> bool {
    let n = to.size as i32 - 1;
    open_around(map, from, to.pos, to.pos.offset(n, n))
}

/// Whether nothing blocks in the box spanning `from` and the squares from
/// `lo` to `hi` (see [`open_between`]).
fn open_around(map: &Map, from: Footprint, lo: Pos, hi: Pos) -> bool {
    let n = from.size as i32 - 1;
    map.open_box(
        lo.x.min(from.pos.x),
        lo.y.min(from.pos.y),
        hi.x.max(from.pos.x + n),
        hi.y.max(from.pos.y + n),
    )
}

/// Line of effect between two spaces: any corner to any corner.
pub fn line_of_effect(map: &Map, from: Footprint, to: Footprint) -> bool {
    open_between(map, from, to) || kept_line_of_effect(map, from, to)
}

/// [`line_of_effect`] found by walking the corner lines.
fn walked_line_of_effect(map: &Map, from: Footprint, to: Footprint) -> bool {
    let tc = corners(to);
    corners(from)
        .iter()
        .any(|&(a, qa)| tc.iter().any(|&(b, qb)| segment_clear(map, a, qa, b, qb)))
}

/// For each of `squares`, whether `from` has line of effect to it: the same
/// answer as [`line_of_effect_to_square`], but each corner-to-corner segment
/// is walked once, since neighbouring squares share corners. Used to find
/// which squares of an area its effect reaches.
pub fn squares_in_line_of_effect(map: &Map, from: Footprint, squares: &[Pos]) -> Vec<bool> {
    let Some(x0) = squares.iter().map(|p| p.x).min() else {
        return Vec::new();
    };
    let x1 = squares.iter().map(|p| p.x).max().unwrap_or(x0) + 1;
    let y0 = squares.iter().map(|p| p.y).min().unwrap_or(0);
    let y1 = squares.iter().map(|p| p.y).max().unwrap_or(y0) + 1;
    // Open ground over the whole box (the source's squares and every
    // square's): every line is clear.
    if open_around(map, from, Pos::new(x0, y0), Pos::new(x1 - 1, y1 - 1)) {
        return vec![true; squares.len()];
    }
    let w = (x1 - x0 + 1) as usize;
    let h = (y1 - y0 + 1) as usize;
    // Per source corner, per lattice point: 0 unknown, 1 blocked, 2 clear.
    let sources = corners(from);
    let mut memo = vec![0u8; 4 * w * h];
    squares
        .iter()
        .map(|&p| {
            let targets = corners(Footprint::single(p));
            sources.iter().enumerate().any(|(si, &(a, qa))| {
                targets.iter().any(|&(b, qb)| {
                    if a == b {
                        return segment_clear(map, a, qa, b, qb);
                    }
                    let cell = si * w * h + (b.y - y0) as usize * w + (b.x - x0) as usize;
                    if memo[cell] == 0 {
                        memo[cell] = if segment_clear_from(map, a, qa, b) {
                            2
                        } else {
                            1
                        };
                    }
                    memo[cell] == 2 && end_clear(map, a, b, qb)
                })
            })
        })
        .collect()
}

/// Line of effect from a space to a square (for area origins and walls).
pub fn line_of_effect_to_square(map: &Map, from: Footprint, square: Pos) -> bool {
    line_of_effect(map, from, Footprint::single(square))
}

/// How well a source sees a target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sight {
    /// Every corner line from the best source corner is clear.
    Clear,
    /// Line of effect, but some of the best corner's lines are blocked: the
    /// target is partly behind an obstacle (docs/rules.md#cover-and-high-ground).
    Cover,
    /// No line of effect.
    Blocked,
}

/// Line of effect and cover: the source picks its best corner; if all lines
/// from it to the target's corners are clear there is no cover, if some are
/// there is cover, and if no corner has any clear line there is no line of effect.
pub fn sight(map: &Map, from: Footprint, to: Footprint) -> Sight {
    if open_between(map, from, to) {
        Sight::Clear
    } else {
        kept_sight(map, from, to)
    }
}

/// Whether [`sight`] is [`Sight::Clear`], without telling cover from
/// blocked: a corner of `from` with every line to `to` clear, each corner
/// given up at its first blocked line.
pub fn clear_sight(map: &Map, from: Footprint, to: Footprint) -> bool {
    open_between(map, from, to) || kept_clear_sight(map, from, to)
}

/// Whether any of `from` has [`clear_sight`] of `to`. The open-ground
/// check, which walks no line, is asked of every one first: one seeing
/// across open ground settles it before any line is walked.
pub fn any_clear_sight<I>(map: &Map, mut from: I, to: Footprint) -> bool
where
    I: Iterator<Item = Footprint> + Clone,
{
    from.clone().any(|f| open_between(map, f, to)) || from.any(|f| kept_clear_sight(map, f, to))
}

/// [`clear_sight`] found by walking the corner lines.
fn walked_clear_sight(map: &Map, from: Footprint, to: Footprint) -> bool {
    let tc = corners(to);
    corners(from)
        .iter()
        .any(|&(a, qa)| tc.iter().all(|&(b, qb)| segment_clear(map, a, qa, b, qb)))
}

/// [`sight`] found by walking the corner lines.
fn walked_sight(map: &Map, from: Footprint, to: Footprint) -> Sight {
    let tc = corners(to);
    let mut best = 0;
    for (a, qa) in corners(from) {
        let clear = tc
            .iter()
            .filter(|&&(b, qb)| segment_clear(map, a, qa, b, qb))
            .count();
        if clear == tc.len() {
            return Sight::Clear;
        }
        best = best.max(clear);
    }
    if best == 0 {
        Sight::Blocked
    } else {
        Sight::Cover
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::grid::ascii;
    use proptest::prelude::*;

    fn sq(x: i32, y: i32) -> Footprint {
        Footprint::single(Pos::new(x, y))
    }

    // docs/rules.md#line-of-effect: a wall completely between blocks it.
    #[test]
    fn a_wall_blocks() {
        let m = ascii(
            "
            .....
            ..#..
            ..#..
            ..#..
            .....",
        );
        assert!(!line_of_effect(&m, sq(0, 2), sq(4, 2)));
        // Over the top of the wall there is a line.
        assert!(line_of_effect(&m, sq(0, 0), sq(4, 0)));
        assert!(line_of_effect(&m, sq(1, 1), sq(3, 0)));
    }

    // Ruling 3: "a line through the single point where two walls touch
    // diagonally is blocked".
    #[test]
    fn diagonal_pinch_blocks() {
        let m = ascii(
            "
            ...
            .#.
            ..#
            ...",
        );
        // A at (2,1) and B at (1,2) share only the corner (2,2), the pinch.
        assert!(!line_of_effect(&m, sq(2, 1), sq(1, 2)));
        // The same squares without the second wall: clear.
        let open = ascii(
            "
            ...
            .#.
            ...
            ...",
        );
        assert!(line_of_effect(&open, sq(2, 1), sq(1, 2)));
        // A line crossing the pinch point in the middle is blocked too.
        assert!(!points_clear(&m, Pos::new(1, 3), Pos::new(3, 1)));
        // But a creature in a pinch corner still sees out along its own side.
        assert!(line_of_effect(&m, sq(2, 1), sq(2, 0)));
    }

    // A square walled in on all four sides still has line of effect to itself
    // and to its own corners' sides, but not out past the walls.
    #[test]
    fn walled_in_square() {
        let m = ascii(
            "
            .#.
            #.#
            .#.",
        );
        assert!(line_of_effect(&m, sq(1, 1), sq(1, 1)));
        assert!(!line_of_effect(&m, sq(1, 1), sq(0, 0)));
        assert!(!line_of_effect(&m, sq(1, 1), sq(2, 2)));
    }

    // Ruling 2: "a line running along the open edge of a wall is not blocked".
    #[test]
    fn along_the_open_edge_of_a_wall() {
        let m = ascii(
            "
            .....
            .###.
            .....",
        );
        // From (0,0) to (4,0): the bottom corners run along the wall's top edge.
        assert!(points_clear(&m, Pos::new(0, 1), Pos::new(5, 1)));
        // A seam between two rows of wall is inside solid wall.
        let thick = ascii(
            "
            .....
            .###.
            .###.
            .....",
        );
        assert!(!points_clear(&thick, Pos::new(0, 2), Pos::new(5, 2)));
        // Grazing a wall's corner is not blocked; cutting through it is.
        let pillar = ascii("...\n.#.\n...");
        assert!(points_clear(&pillar, Pos::new(0, 2), Pos::new(2, 0)));
        assert!(!points_clear(&pillar, Pos::new(0, 0), Pos::new(2, 2)));
        assert!(!points_clear(&m, Pos::new(0, 0), Pos::new(3, 2)));
    }

    // docs/rules.md#cover-and-high-ground: "If one or more corners of your space connect to any corner of
    // the target's space", so a pillar hides a target only when every corner
    // pair is blocked; partial blocking is cover (docs/rules.md#cover-and-high-ground).
    #[test]
    fn cover_when_some_lines_are_blocked() {
        let m = ascii(
            "
            .......
            ...#...
            .......",
        );
        assert_eq!(sight(&m, sq(0, 1), sq(6, 1)), Sight::Cover);
        assert_eq!(sight(&m, sq(0, 0), sq(6, 0)), Sight::Clear);
        let wall = ascii(
            "
            ...#...
            ...#...
            ...#...",
        );
        assert_eq!(sight(&wall, sq(0, 1), sq(6, 1)), Sight::Blocked);
    }

    // docs/rules.md#line-of-effect: glass "doesn't block line of effect"; solid objects do.
    #[test]
    fn glass_does_not_block_wood_does() {
        let glass = ascii("...\n.g.\n...");
        let wood = ascii("###\n.w.\n###");
        assert!(line_of_effect(&glass, sq(0, 1), sq(2, 1)));
        assert!(!line_of_effect(&wood, sq(0, 1), sq(2, 1)));
    }

    #[test]
    fn big_creatures_see_from_any_corner() {
        let m = ascii(
            "
            ......
            ..#...
            ..#...
            ......",
        );
        let big = Footprint::new(Pos::new(0, 1), 2);
        assert!(line_of_effect(&m, big, sq(4, 2)));
        assert!(line_of_effect_to_square(&m, big, Pos::new(5, 3)));
    }

    fn arb_map() -> impl Strategy<Value = Map> {
        proptest::collection::vec(proptest::bool::weighted(0.25), 64).prop_map(|walls| {
            let mut m = Map::new(8, 8);
            for (i, w) in walls.into_iter().enumerate() {
                if w {
                    m.set_terrain(
                        Pos::new(i as i32 % 8, i as i32 / 8),
                        crate::map::grid::Terrain::Wall,
                    );
                }
            }
            m
        })
    }

    // The shortcut through open ground (nothing blocks in the box the corner
    // lines could touch) gives the answer walking the lines gives: every
    // placing of one or two walls on a 5 x 5 map, between every pair of
    // spaces of size 1 and 2, from each space to every square at once, and
    // from several spaces at once to each.
    #[test]
    fn open_ground_shortcut_agrees_everywhere() {
        let squares: Vec<Pos> = (0..25).map(|i| Pos::new(i % 5, i / 5)).collect();
        let spaces: Vec<Footprint> = squares
            .iter()
            .flat_map(|&p| [Footprint::new(p, 1), Footprint::new(p, 2)])
            .filter(|f| f.pos.x + f.size as i32 <= 5 && f.pos.y + f.size as i32 <= 5)
            .collect();
        let mut shortcuts = 0;
        for i in 0..25 {
            for j in i..25 {
                let mut m = Map::new(5, 5);
                m.set_terrain(squares[i], crate::map::grid::Terrain::Wall);
                m.set_terrain(squares[j], crate::map::grid::Terrain::Wall);
                for &from in &spaces {
                    for &to in &spaces {
                        shortcuts += usize::from(open_between(&m, from, to));
                        assert_eq!(
                            line_of_effect(&m, from, to),
                            walked_line_of_effect(&m, from, to),
                            "walls {:?} {:?}, {from:?} to {to:?}",
                            squares[i],
                            squares[j]
                        );
                        assert_eq!(sight(&m, from, to), walked_sight(&m, from, to));
                        // Line of effect is sight that isn't blocked (a
                        // forecast reads both off one look).
                        assert_eq!(
                            line_of_effect(&m, from, to),
                            sight(&m, from, to) != Sight::Blocked
                        );
                        assert_eq!(
                            clear_sight(&m, from, to),
                            walked_sight(&m, from, to) == Sight::Clear
                        );
                    }
                    // And for the squares of an area, all at once.
                    let batch = squares_in_line_of_effect(&m, from, &squares);
                    for (p, got) in squares.iter().zip(batch) {
                        assert_eq!(got, walked_line_of_effect(&m, from, Footprint::single(*p)));
                    }
                }
                // And for several lookers at once (Hide's "does any enemy
                // see it clearly"), in groups of three.
                for &to in &spaces {
                    for group in spaces.chunks(3) {
                        assert_eq!(
                            any_clear_sight(&m, group.iter().copied(), to),
                            group
                                .iter()
                                .any(|&f| walked_sight(&m, f, to) == Sight::Clear),
                            "walls {:?} {:?}, {group:?} to {to:?}",
                            squares[i],
                            squares[j]
                        );
                    }
                }
            }
        }
        assert!(shortcuts > 1000, "the shortcut was taken {shortcuts} times");
    }

    // The kept sights follow the map: docs/rules.md#line-of-effect ("a wall
    // completely between blocks it") holds after a wall is raised between
    // two squares whose sight was already kept, and after it falls again;
    // a copy changed on its own leaves the original's answers alone.
    #[test]
    fn kept_sights_follow_walls_raised_and_fallen() {
        // Two squares with a wall off to one side, so the answer is walked
        // and kept rather than read off open ground.
        let mut m = ascii(
            "
            .......
            .......
            ...#...
            .......
            ",
        );
        let (a, b) = (sq(0, 0), sq(6, 2));
        assert!(!open_between(&m, a, b), "the test means a walked answer");
        let seen = sight(&m, a, b);
        assert_ne!(seen, Sight::Blocked);
        assert_eq!(seen, walked_sight(&m, a, b));
        let before = m.clone();
        for y in 0..4 {
            m.set_raised_wall(Pos::new(3, y), true);
        }
        assert_eq!(sight(&m, a, b), Sight::Blocked);
        assert!(!line_of_effect(&m, a, b));
        assert_eq!(sight(&before, a, b), seen, "the copy is unchanged");
        for y in 0..4 {
            m.set_raised_wall(Pos::new(3, y), false);
        }
        assert_eq!(sight(&m, a, b), seen);
        assert!(line_of_effect(&m, a, b));
        // A square off the map is answered by walking, never kept.
        assert_eq!(sight(&m, a, sq(9, 9)), walked_sight(&m, a, sq(9, 9)));
    }

    proptest! {
        #![proptest_config(crate::map::fixed_proptest())]
        // Issue #3 point 7: line of effect between two single squares is symmetric.
        #[test]
        fn symmetric(m in arb_map(), a in (0i32..8, 0i32..8), b in (0i32..8, 0i32..8)) {
            prop_assert_eq!(
                line_of_effect(&m, sq(a.0, a.1), sq(b.0, b.1)),
                line_of_effect(&m, sq(b.0, b.1), sq(a.0, a.1))
            );
        }

        // The batch answer for an area equals asking square by square.
        #[test]
        fn batch_matches_single(m in arb_map(), a in (0i32..8, 0i32..8)) {
            let from = sq(a.0, a.1);
            let all: Vec<Pos> = m.squares().collect();
            let batch = squares_in_line_of_effect(&m, from, &all);
            for (p, got) in all.iter().zip(batch) {
                prop_assert_eq!(got, line_of_effect_to_square(&m, from, *p), "{}", p);
            }
        }

        // An open square always has line of effect to itself, even walled in.
        #[test]
        fn a_square_always_sees_itself(m in arb_map(), a in (0i32..8, 0i32..8)) {
            let s = sq(a.0, a.1);
            if !m.blocks(a.0, a.1) {
                prop_assert!(line_of_effect(&m, s, s));
            }
        }
    }
}

/// The squares the straight line from the centre of `a` to the centre of
/// `b` passes over, in order, neither end included (a point on a square's
/// edge counts for the square below and to the right of it). For
/// docs/rules.md#line-of-effect's "broken or torn by strikes ... used
/// through them".
pub fn squares_between(a: Pos, b: Pos) -> Vec<Pos> {
    let (dx, dy) = (
        i64::from(b.x) - i64::from(a.x),
        i64::from(b.y) - i64::from(a.y),
    );
    // Samples at each quarter square of the longer axis catch every
    // square the centre line crosses (it crosses at most two a step).
    let steps = 4 * dx.abs().max(dy.abs());
    let mut out: Vec<Pos> = Vec::new();
    for k in 1..steps {
        let at = |a: i32, d: i64| {
            // (2a + 1) / 2 + d k / steps, floored, in integers.
            let num = (2 * i64::from(a) + 1) * steps + 2 * d * k;
            num.div_euclid(2 * steps) as i32
        };
        let p = Pos::new(at(a.x, dx), at(a.y, dy));
        if p != a && p != b && out.last() != Some(&p) {
            out.push(p);
        }
    }
    out
}

#[cfg(test)]
mod squares_between_tests {
    use super::*;

    // docs/rules.md#line-of-effect: the squares a strike's line crosses.
    #[test]
    fn a_straight_or_diagonal_line_crosses_the_squares_between() {
        assert_eq!(
            squares_between(Pos::new(0, 0), Pos::new(3, 0)),
            vec![Pos::new(1, 0), Pos::new(2, 0)]
        );
        assert_eq!(
            squares_between(Pos::new(0, 0), Pos::new(2, 2)),
            vec![Pos::new(1, 1)]
        );
        assert!(squares_between(Pos::new(0, 0), Pos::new(1, 0)).is_empty());
        // A knight's move crosses the two squares beside its middle.
        let knight = squares_between(Pos::new(0, 0), Pos::new(2, 1));
        assert!(knight.contains(&Pos::new(1, 0)) || knight.contains(&Pos::new(1, 1)));
        assert!(knight.iter().all(|p| p.x == 1));
        // Symmetric in the squares it names.
        let mut back = squares_between(Pos::new(5, 3), Pos::new(0, 0));
        back.reverse();
        let fwd = squares_between(Pos::new(0, 0), Pos::new(5, 3));
        assert_eq!(back.len(), fwd.len());
    }
}
