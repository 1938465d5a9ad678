//! The reach search: every square a mover can reach this move and the
//! cheapest path there (docs/rules.md#moving).

use super::*;
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
        && !map.relief_in(x0, y0, x1, y1)
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
pub(super) fn search_general(
    map: &Map,
    occ: &[Option<(CreatureId, Side)>],
    mover: &Mover,
    reach: &mut Reach,
) {
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
    let bottom = starts_low(map, mover);
    // (A larger creature's space reaches `size - 1` past the box of its
    // top-left squares.)
    let more = mover.space.size.max(1) as i32 - 1;
    let relief = map.relief_in(
        reach.corner.x,
        reach.corner.y,
        reach.corner.x + reach.width - 1 + more,
        reach.corner.y + reach.height - 1 + more,
    );
    search(width, mover, reach, relief, on_map, |here, next| {
        let (here, next) = (pos(here), pos(next));
        if cuts_corner(map, here, next, mover.space.size) {
            return None;
        }
        enter_cost(map, in_grid(map, occ), mover, here, next, bottom)
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
pub(super) fn search_levels(
    map: &Map,
    occ: &Occupancy,
    mover: &Mover,
    reach: &Reach,
) -> Option<Levels> {
    let (w, h) = (reach.width as usize, reach.height as usize);
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
    load_box(&mut bits, map, occ, mover, reach, full)?;
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

/// The box's step masks, its rough squares and the squares to end on, in
/// `bits` (rows of `reach`'s box with a row more above and below):
/// another creature's square is no place to end, and an enemy's costs as
/// difficult ground does. `None` if a row is off the map's masks.
fn load_box(
    bits: &mut [u64],
    map: &Map,
    occ: &Occupancy,
    mover: &Mover,
    reach: &Reach,
    full: u64,
) -> Option<()> {
    let (w, h) = (reach.width as usize, reach.height as usize);
    let (x0, y0) = (reach.corner.x as usize, reach.corner.y as usize);
    let rows = h + 2;
    let map_width = map.width as usize;
    for y in 0..h {
        let my = y0 + y;
        let map_row = map.step_row(my)?;
        for (k, bits) in bits[8 * (y + 1)..][..8].iter_mut().enumerate() {
            *bits = map_row[k] >> x0 & full;
        }
        bits[(8 + ROUGH) * rows + y + 1] = map_row[8] >> x0 & full;
        bits[(8 + ENDS) * rows + y + 1] = full;
    }
    // (Read off the squares the grid holds creatures on, not every square
    // of the box: from the last named, as a square named twice holds the
    // last in the grid, each square once.)
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
    Some(())
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
pub(super) fn enter_one(
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
pub(super) struct Queued {
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
pub(super) fn search(
    width: i32,
    mover: &Mover,
    reach: &mut Reach,
    relief: bool,
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
    // (On a map with relief a step's cost depends on where it is taken
    // from: a square reached may yet be reached more cheaply, so each is
    // looked at.)
    let bits = reach.width <= 62 && !relief;
    // The lists of the last search on this thread, emptied: a game runs
    // hundreds of searches, and each made its six lists anew.
    // Every step costs less than `nb` (difficult ground and a climb at most).
    let nb = 3 + mover.extra_cost as usize + if relief { MAX_CLIMB as usize } else { 0 };
    let Scratch {
        mut reached,
        mut buckets,
        mut work,
    } = Scratch::ready(reach, mover, bits, nb, start_node, start_map);
    let mut current = 0u32;
    let mut pending = 1usize;
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
                mask &= !seen_around(&reached, x, y);
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
                    *there = Node::after(here_dirs, here_steps, k, total, can_end);
                    let (nx, ny) = box_step(x, y, k);
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
    Scratch {
        reached,
        buckets,
        work,
    }
    .keep();
}

/// The neighbours of box square (`x`, `y`) already reached, as a mask of
/// `Pos::STEPS`: the rows above and below give steps 0-2 and 5-7, this
/// row's sides steps 3 and 4 (`reached` as [`search`] keeps it).
#[inline(always)]
fn seen_around(reached: &[u64], x: usize, y: usize) -> u8 {
    let row = |r: usize| (reached[r] >> x) & 7;
    let beside = row(y + 1);
    (row(y) | (beside & 1) << 3 | (beside & 4) << 2 | row(y + 2) << 5) as u8
}

/// The box square a step `Pos::STEPS[k]` from (`x`, `y`) lands on.
#[inline(always)]
fn box_step(x: usize, y: usize, k: usize) -> (usize, usize) {
    let (dx, dy) = Pos::STEPS[k];
    (
        x.wrapping_add_signed(dx as isize),
        y.wrapping_add_signed(dy as isize),
    )
}

impl Node {
    /// The node reached from one with the path `dirs` of `steps` steps by
    /// the step `Pos::STEPS[k]`, at `cost`: the parent's steps and this one
    /// (see `Path`).
    #[inline(always)]
    fn after(dirs: u64, steps: u8, k: usize, cost: u32, can_end: bool) -> Node {
        let (dirs, steps) = if (steps as usize) < MAX_STEPS {
            (dirs | (k as u64) << (3 * steps as u64), steps + 1)
        } else {
            (0, TOO_LONG)
        };
        Node {
            dirs,
            cost,
            steps,
            can_end,
            last: k as u8,
        }
    }
}

/// [`search`]'s working lists, kept between searches (see there).
#[derive(Default)]
pub(super) struct Scratch {
    reached: Vec<u64>,
    buckets: Vec<Vec<Queued>>,
    work: Vec<Queued>,
}

impl Scratch {
    /// Kept for the next search on this thread.
    fn keep(self) {
        SCRATCH.set(self);
    }

    /// The lists of the last search on this thread, emptied and set for a
    /// search from `start_node` (`start_map` on the map): a game runs
    /// hundreds of searches, and each made its lists anew. `bits`: whether
    /// the squares reached are kept as rows of bits (see [`search`]); `nb`
    /// buckets, each with room for a wide frontier at once.
    fn ready(
        reach: &Reach,
        mover: &Mover,
        bits: bool,
        nb: usize,
        start_node: usize,
        start_map: usize,
    ) -> Scratch {
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
        work.clear();
        work.reserve(room);
        Scratch {
            reached,
            buckets,
            work,
        }
    }
}

thread_local! {
    static SCRATCH: std::cell::Cell<Scratch> = std::cell::Cell::new(Scratch::default());
}
