//! Forced movement (docs/rules.md#forced-movement, docs/rules.md#straight-lines).
//!
//! Push moves the target straight away from the source, pull straight toward
//! it, slide in any straight line the mover chooses. Stability reduces the
//! distance. The result lists every square moved through and every
//! collision and fall, so the client can animate them.

use super::area::straight_line;
use super::grid::{Footprint, Map, Material, Occupant, Pos, Side};
use super::movement::{cuts_corner, occupancy};
use crate::stats::CreatureId;
use serde::{Deserialize, Serialize};

/// Push, pull or slide.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ForcedKind {
    Push,
    Pull,
    Slide,
}

impl ForcedKind {
    pub fn word(self) -> &'static str {
        match self {
            ForcedKind::Push => "push",
            ForcedKind::Pull => "pull",
            ForcedKind::Slide => "slide",
        }
    }
}

/// A forced movement to resolve.
#[derive(Clone, Copy, Debug)]
pub struct Force {
    pub kind: ForcedKind,
    pub distance: u32,
    pub vertical: bool,
    /// Who is moved and from where.
    pub target: CreatureId,
    pub target_space: Footprint,
    pub stability: u32,
    /// The space the movement is measured from (the user, or an area's origin).
    pub source: Footprint,
    /// For a slide: the square to slide toward.
    pub aim: Option<Pos>,
    /// The target flies and isn't prone: moved over a pit or ledge, or up
    /// in the air, it stays aloft and doesn't fall
    /// (docs/rules.md#climbing-swimming-jumping-and-flying).
    pub flies: bool,
}

/// Something that happened on the way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ForcedEvent {
    /// Stopped by another creature: both take `damage`.
    CollidedWithCreature {
        other: CreatureId,
        at: Pos,
        damage: i32,
    },
    /// Stopped by a wall or an object it could not break: takes `damage`.
    CollidedWithObstacle { at: Pos, damage: i32 },
    /// Hurled through an object, which breaks: takes `damage`.
    BrokeThrough {
        at: Pos,
        material: super::grid::Material,
        damage: i32,
    },
    /// Fell `depth` squares: takes `damage` and is knocked prone.
    Fell { at: Pos, depth: u32, damage: i32 },
}

/// The outcome of a forced movement.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ForcedResult {
    /// The squares moved through (top-left of the space), start excluded.
    pub path: Vec<Pos>,
    pub end: Pos,
    pub events: Vec<ForcedEvent>,
    /// Squares the movement was reduced by stability.
    pub reduced_by: u32,
    /// The objects destroyed on the way.
    pub broken: Vec<Pos>,
}

impl ForcedResult {
    /// All the damage the moved creature takes.
    pub fn damage_to_target(&self) -> i32 {
        self.events
            .iter()
            .map(|e| match e {
                ForcedEvent::CollidedWithCreature { damage, .. }
                | ForcedEvent::CollidedWithObstacle { damage, .. }
                | ForcedEvent::BrokeThrough { damage, .. }
                | ForcedEvent::Fell { damage, .. } => *damage,
            })
            .sum()
    }

    pub fn fell(&self) -> bool {
        self.events
            .iter()
            .any(|e| matches!(e, ForcedEvent::Fell { .. }))
    }
}

/// Fall damage: 2 per square fallen from 2 or more squares, at most 50 (docs/rules.md#collisions).
pub fn fall_damage(depth: u32) -> i32 {
    if depth < 2 {
        0
    } else {
        // (At most 50 from 25 squares down: deeper is 50 too, and no
        // overflow however deep the map says.)
        2 * depth.min(25) as i32
    }
}

/// Resolve a forced movement on the map.
///
/// The direction: a push follows the straight line from the source's centre
/// through the target's, continued beyond; a pull the reverse, toward the
/// source; a slide toward `aim`. Each step is one square along that line,
/// never bending back, nor cutting a wall's or an object's corner (which
/// stops it as a wall does). Entering a creature's space stops the movement and
/// both take 1 damage per square left; a wall stops it with 2 + 1 per square
/// left; an object is broken through if enough squares are left (glass 1,
/// wood 3, stone 6, metal 9, dealing 3/5/8/11) and otherwise stops it like a
/// wall; a pit or ledge ends it with a fall. A vertical push, pull or slide
/// lifts the target off the ground along the same line: it passes over pits
/// and then falls its distance where it lands.
pub fn resolve(map: &Map, creatures: &[Occupant], force: &Force) -> ForcedResult {
    let distance = force.distance.saturating_sub(force.stability);
    let mut result = ForcedResult {
        end: force.target_space.pos,
        reduced_by: force.distance - distance,
        ..Default::default()
    };
    if distance == 0 {
        return result;
    }
    let size = force.target_space.size;
    let start = force.target_space.pos;
    let Some(aim) = aim(force).filter(|&a| a != start) else {
        return result;
    };
    let line = straight_line(start, aim, distance + 1);
    let occ = occupancy(map, creatures);
    let mut moved = 0u32;
    let mut i = 1;
    while i < line.len() {
        let next = line[i];
        let left = distance - moved;
        let fp = Footprint::new(next, size);
        // A pull stops when it reaches the source.
        if force.kind == ForcedKind::Pull && fp.overlaps(force.source) {
            break;
        }
        let blocker = match step_into(map, &occ, force, &result, line[i - 1], next, left) {
            Step::Stopped(event) => {
                result.events.push(event);
                break;
            }
            Step::Through(at, material) => {
                result.events.push(ForcedEvent::BrokeThrough {
                    at,
                    material,
                    damage: material.break_damage(),
                });
                result.broken.push(at);
                moved += material.break_cost();
                result.path.push(next);
                result.end = next;
                if moved >= distance {
                    break;
                }
                i += 1;
                continue;
            }
            Step::Open { blocker } => blocker,
        };
        moved += 1;
        result.path.push(next);
        result.end = next;
        // Falling into a pit or off a ledge ends the movement (a vertical
        // movement lands only at its end, and not on another creature).
        if !force.flies
            && (!force.vertical || (moved == distance && !blocker))
            && let Some(depth) = map.fall_depth(fp)
        {
            result.events.push(ForcedEvent::Fell {
                at: next,
                depth,
                damage: fall_damage(depth),
            });
            return result;
        }
        if moved >= distance {
            break;
        }
        i += 1;
    }
    if force.vertical && !result.fell() && moved > 0 {
        land(map, &occ, force, &mut result, moved);
    }
    result
}

/// Where the movement heads: a push along the straight line from the
/// source's centre through the target's, continued beyond; a pull the
/// reverse; a slide toward its aim. A far-away point, so the rasterised
/// line is straight; `None` if source and target share a centre.
fn aim(force: &Force) -> Option<Pos> {
    let start = force.target_space.pos;
    let (sx, sy) = force.source.centre();
    let (tx, ty) = force.target_space.centre();
    let far = |dx: f64, dy: f64| -> Option<Pos> {
        let m = dx.abs().max(dy.abs());
        if m < 1e-9 {
            return None;
        }
        let k = 64.0 / m;
        Some(Pos::new(
            start.x + (dx * k).round() as i32,
            start.y + (dy * k).round() as i32,
        ))
    };
    match force.kind {
        ForcedKind::Push => far(tx - sx, ty - sy),
        ForcedKind::Pull => far(sx - tx, sy - ty),
        ForcedKind::Slide => force.aim,
    }
}

/// What one square of forced movement meets.
enum Step {
    /// A collision that ends the movement.
    Stopped(ForcedEvent),
    /// An object of this material at this square, broken through.
    Through(Pos, Material),
    /// Open: moved into (`blocker`: a creature there a vertical movement
    /// passes over).
    Open { blocker: bool },
}

/// The step from `from` to `next` with `left` squares to go: a cut corner,
/// a creature, a wall or the map's edge, or an object (hurled through if
/// enough squares are left) stops it; otherwise it moves on.
fn step_into(
    map: &Map,
    occ: &[Option<(CreatureId, Side)>],
    force: &Force,
    result: &ForcedResult,
    from: Pos,
    next: Pos,
    left: u32,
) -> Step {
    let fp = Footprint::new(next, force.target_space.size);
    let obstacle = Step::Stopped(ForcedEvent::CollidedWithObstacle {
        at: next,
        damage: 2 + left as i32,
    });
    // A diagonal step past a wall's or an object's corner: forced
    // movement cuts no corner either (docs/rules.md#moving), and stops
    // there as at a wall (else a push could squeeze a creature between
    // two trees into a pocket it can never walk out of).
    if cuts_corner(map, from, next, fp.size) {
        return obstacle;
    }
    // Creatures in the way.
    let blocker = fp.squares().find_map(|q| {
        if !map.in_bounds(q) {
            return None;
        }
        occ[(q.y * map.width + q.x) as usize].filter(|(id, _)| *id != force.target)
    });
    if let Some((other, _)) = blocker
        && !force.vertical
    {
        return Step::Stopped(ForcedEvent::CollidedWithCreature {
            other,
            at: next,
            damage: left as i32,
        });
    }
    // Walls (and the map's edge).
    if fp.squares().any(|q| map.cell(q).is_wall()) {
        return obstacle;
    }
    // Objects: hurled through or stopped.
    let object = fp
        .squares()
        .filter(|q| !result.broken.contains(q))
        .find_map(|q| map.cell(q).object.map(|o| (q, o)));
    if let Some((at, o)) = object {
        if left >= o.material.break_cost() {
            return Step::Through(at, o.material);
        }
        return obstacle;
    }
    Step::Open {
        blocker: blocker.is_some(),
    }
}

/// A vertical movement ends in the air: the target falls back down (a
/// flier stays aloft). Either way it can't end in another creature's
/// space: it steps back along the path.
fn land(
    map: &Map,
    occ: &[Option<(CreatureId, Side)>],
    force: &Force,
    result: &mut ForcedResult,
    moved: u32,
) {
    let start = force.target_space.pos;
    while let Some(&last) = result.path.last() {
        let fp = Footprint::new(last, force.target_space.size);
        let taken = fp.squares().any(|q| {
            occ[(q.y * map.width + q.x) as usize].is_some_and(|(id, _)| id != force.target)
        });
        if !taken {
            break;
        }
        result.path.pop();
        result.end = result.path.last().copied().unwrap_or(start);
    }
    if !force.flies {
        result.events.push(ForcedEvent::Fell {
            at: result.end,
            depth: moved,
            damage: fall_damage(moved),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::grid::{Side, ascii};
    use proptest::prelude::*;

    const T: CreatureId = CreatureId(1);

    fn push(kind: ForcedKind, distance: u32, source: (i32, i32), target: (i32, i32)) -> Force {
        Force {
            kind,
            distance,
            vertical: false,
            target: T,
            target_space: Footprint::single(Pos::new(target.0, target.1)),
            stability: 0,
            source: Footprint::single(Pos::new(source.0, source.1)),
            aim: None,
            flies: false,
        }
    }

    fn creature(id: u32, x: i32, y: i32) -> Occupant {
        Occupant {
            id: CreatureId(id),
            space: Footprint::single(Pos::new(x, y)),
            side: Side::Director,
            can_react: true,
        }
    }

    // docs/rules.md#forced-movement "Push: each square moves the target straight away from the source."
    #[test]
    fn push_straight_away() {
        let m = ascii(&"........\n".repeat(6));
        let r = resolve(&m, &[], &push(ForcedKind::Push, 3, (0, 1), (1, 1)));
        assert_eq!(r.path, vec![Pos::new(2, 1), Pos::new(3, 1), Pos::new(4, 1)]);
        assert!(r.events.is_empty());
        // Diagonally away.
        let r = resolve(&m, &[], &push(ForcedKind::Push, 2, (0, 0), (1, 1)));
        assert_eq!(r.path, vec![Pos::new(2, 2), Pos::new(3, 3)]);
        // At a slant, it never bends back toward the source.
        let r = resolve(&m, &[], &push(ForcedKind::Push, 4, (0, 0), (2, 1)));
        for w in r.path.windows(2) {
            assert!(w[1].x >= w[0].x && w[1].y >= w[0].y, "{:?}", r.path);
        }
    }

    // docs/rules.md#forced-movement "Pull: straight toward it."
    #[test]
    fn pull_toward_and_stop_at_the_source() {
        let m = ascii("........");
        let r = resolve(&m, &[], &push(ForcedKind::Pull, 10, (0, 0), (5, 0)));
        assert_eq!(r.end, Pos::new(1, 0));
        assert!(r.events.is_empty());
    }

    // docs/rules.md#forced-movement "Slide: any direction, in a straight line."
    #[test]
    fn slide_toward_the_aim() {
        let m = ascii(".....\n.....\n.....\n.....");
        let mut f = push(ForcedKind::Slide, 2, (0, 0), (2, 0));
        f.aim = Some(Pos::new(2, 3));
        assert_eq!(
            resolve(&m, &[], &f).path,
            vec![Pos::new(2, 1), Pos::new(2, 2)]
        );
    }

    // docs/rules.md#forced-movement "A target's stability reduces the distance."
    #[test]
    fn stability_reduces_distance() {
        let m = ascii("........");
        let mut f = push(ForcedKind::Push, 3, (0, 0), (1, 0));
        f.stability = 2;
        let r = resolve(&m, &[], &f);
        assert_eq!((r.path.len(), r.reduced_by), (1, 2));
        f.stability = 5;
        assert!(resolve(&m, &[], &f).path.is_empty());
    }

    // docs/rules.md#collisions: "If the target would enter a creature's square, the movement
    // stops and both take 1 damage per square left."
    #[test]
    fn collision_with_a_creature() {
        let m = ascii("........");
        let r = resolve(
            &m,
            &[creature(2, 4, 0)],
            &push(ForcedKind::Push, 4, (0, 0), (1, 0)),
        );
        assert_eq!(r.end, Pos::new(3, 0));
        assert_eq!(
            r.events,
            vec![ForcedEvent::CollidedWithCreature {
                other: CreatureId(2),
                at: Pos::new(4, 0),
                damage: 2
            }]
        );
    }

    // docs/rules.md#collisions: "If it would enter an object or wall at least its size, it
    // stops and takes 2 + 1 per square left."
    #[test]
    fn collision_with_a_wall() {
        let m = ascii("....#...");
        let r = resolve(&m, &[], &push(ForcedKind::Push, 5, (0, 0), (1, 0)));
        assert_eq!(r.end, Pos::new(3, 0));
        assert_eq!(r.damage_to_target(), 2 + 3);
    }

    // Issue #3 point 5: hurling through glass/wood/stone/metal costs 1/3/6/9
    // of the remaining squares and deals 3/5/8/11 damage.
    #[test]
    fn hurled_through_objects() {
        let m = ascii("..g.....");
        let r = resolve(&m, &[], &push(ForcedKind::Push, 4, (0, 0), (1, 0)));
        assert_eq!(r.broken, vec![Pos::new(2, 0)]);
        // Breaking through glass costs 1 square (the one entering it), then 3 more.
        assert_eq!(r.end, Pos::new(5, 0));
        assert_eq!(r.damage_to_target(), 3);

        let m = ascii("..w.....");
        let r = resolve(&m, &[], &push(ForcedKind::Push, 3, (0, 0), (1, 0)));
        assert_eq!((r.end, r.damage_to_target()), (Pos::new(2, 0), 5));
        // Not enough squares left to break stone: it's a wall.
        let m = ascii("..s.....");
        let r = resolve(&m, &[], &push(ForcedKind::Push, 5, (0, 0), (1, 0)));
        assert_eq!((r.end, r.damage_to_target()), (Pos::new(1, 0), 7));
        assert!(r.broken.is_empty());
        let m = ascii("..m...........");
        let r = resolve(&m, &[], &push(ForcedKind::Push, 10, (0, 0), (1, 0)));
        assert_eq!((r.end, r.damage_to_target()), (Pos::new(3, 0), 11));
    }

    // docs/rules.md#collisions: "A target moved over a pit or ledge falls: 2 damage per square
    // fallen (at most 50) from 2 or more squares, then prone."
    #[test]
    fn falling_into_a_pit() {
        let m = ascii("...____.");
        let r = resolve(&m, &[], &push(ForcedKind::Push, 5, (0, 0), (1, 0)));
        assert_eq!(r.end, Pos::new(3, 0));
        assert_eq!(
            r.events,
            vec![ForcedEvent::Fell {
                at: Pos::new(3, 0),
                depth: 3,
                damage: 6
            }]
        );
        assert_eq!(fall_damage(1), 0);
        assert_eq!(fall_damage(24), 48);
        assert_eq!(fall_damage(25), 50);
        assert_eq!(fall_damage(40), 50);
        // A map may say a pit is any depth: still at most 50, no overflow.
        assert_eq!(fall_damage(u32::MAX), 50);
    }

    #[test]
    fn vertical_push_lifts_over_pits_and_falls() {
        let m = ascii("..__....");
        let mut f = push(ForcedKind::Push, 4, (0, 0), (1, 0));
        f.vertical = true;
        let r = resolve(&m, &[], &f);
        assert_eq!(r.end, Pos::new(5, 0));
        assert_eq!(
            r.events,
            vec![ForcedEvent::Fell {
                at: Pos::new(5, 0),
                depth: 4,
                damage: 8
            }]
        );
    }

    // Found by the property below: a vertical push whose end is a pit with
    // a creature in it lands short of it instead of inside that creature.
    #[test]
    fn a_vertical_push_does_not_land_in_an_occupied_pit() {
        let mut m = Map::new(10, 10);
        m.set_terrain(Pos::new(7, 7), crate::map::grid::Terrain::Pit(2));
        let others = [creature(3, 7, 7)];
        let mut f = push(ForcedKind::Push, 3, (7, 0), (7, 4));
        f.vertical = true;
        let r = resolve(&m, &others, &f);
        assert_eq!(r.end, Pos::new(7, 6));
    }

    proptest! {
        #![proptest_config(crate::map::fixed_proptest())]
        // Issue #3 point 7: forced movement never ends inside a wall or another creature.
        #[test]
        fn never_ends_inside(walls in proptest::collection::vec(0u8..8, 100), d in 1u32..8, kind in 0u8..3, tx in 1i32..9, ty in 1i32..9, sx in 0i32..10, sy in 0i32..10, vertical: bool, flies: bool) {
            let mut m = Map::new(10, 10);
            for (i, w) in walls.iter().enumerate() {
                let p = Pos::new(i as i32 % 10, i as i32 / 10);
                match w {
                    0 => m.set_terrain(p, crate::map::grid::Terrain::Wall),
                    1 => m.set_object(p, Some(crate::map::grid::MapObject { material: crate::map::grid::Material::Wood, size: 1 })),
                    2 => m.set_terrain(p, crate::map::grid::Terrain::Pit(2)),
                    _ => {}
                }
            }
            let target = Pos::new(tx, ty);
            prop_assume!(Pos::new(sx, sy) != target);
            m.set_terrain(target, crate::map::grid::Terrain::Floor);
            m.set_object(target, None);
            let others = [creature(2, (tx + 2) % 10, ty), creature(3, tx, (ty + 3) % 10)];
            prop_assume!(others.iter().all(|o| o.space.pos != target));
            let kind = [ForcedKind::Push, ForcedKind::Pull, ForcedKind::Slide][kind as usize];
            let mut f = push(kind, d, (sx, sy), (tx, ty));
            f.vertical = vertical;
            // (A flier pushed up and over a creature was left on its square:
            // issue 56's hellgate found it.)
            f.flies = flies;
            f.aim = Some(Pos::new(sx, sy));
            let r = resolve(&m, &others, &f);
            let cell = m.cell(r.end);
            prop_assert!(!cell.is_wall());
            prop_assert!(cell.object.is_none() || r.broken.contains(&r.end));
            prop_assert!(others.iter().all(|o| !o.space.contains(r.end)));
            prop_assert!(r.path.len() as u32 <= d);
        }
    }
}
