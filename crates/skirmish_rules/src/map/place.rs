//! Where a creature appears beside another: a summon beside its summoner,
//! a reinforcement beside its square (docs/rules.md#summons).

use super::{Footprint, Map, Occupant, Pos, Side};

/// The empty square next to `owner` where a creature of `size` appears:
/// the one nearest an enemy of `side` (then top-left first). `None`: no room,
/// and the summon "cannot be used".
pub fn summon_square(
    map: &Map,
    creatures: &[Occupant],
    owner: Footprint,
    side: Side,
    size: u32,
) -> Option<Pos> {
    let s = size as i32;
    let o = owner.size as i32;
    let mut best: Option<((u32, i32, i32, i32), Pos)> = None;
    for y in (owner.pos.y - s)..=(owner.pos.y + o) {
        for x in (owner.pos.x - s)..=(owner.pos.x + o) {
            let fp = Footprint::new(Pos::new(x, y), size);
            if fp.overlaps(owner) || fp.distance(owner) != 1 || !map.footprint_open(fp) {
                continue;
            }
            if creatures.iter().any(|c| c.space.overlaps(fp)) {
                continue;
            }
            let near = creatures
                .iter()
                .filter(|c| c.side != side)
                .map(|c| c.space.distance(fp))
                .min()
                .unwrap_or(u32::MAX);
            // Nearest by the grid's distance, then the straighter way.
            let straight = creatures
                .iter()
                .filter(|c| c.side != side)
                .map(|c| (c.space.pos.x - x).abs() + (c.space.pos.y - y).abs())
                .min()
                .unwrap_or(0);
            let key = (near, straight, y, x);
            if best.is_none_or(|b| key < b.0) {
                best = Some((key, fp.pos));
            }
        }
    }
    best.map(|b| b.1)
}
