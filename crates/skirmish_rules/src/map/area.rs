//! Areas of effect (docs/rules.md#burst, docs/rules.md#shapes).
//!
//! Each area gives the squares it covers and, separately, the squares the
//! effect reaches from its origin: "area abilities don't pass through solid
//! barriers such as walls or ceilings, and they don't spread around corners",
//! so a covered square is reached only with line of effect from the origin.

use super::grid::{Footprint, Map, Occupant, Pos};
use super::los::{line_of_effect_to_square, squares_in_line_of_effect};

/// A placed area.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Area {
    /// Every square the area covers.
    pub covered: Vec<Pos>,
    /// The covered squares the effect reaches from the origin.
    pub reached: Vec<Pos>,
}

impl Area {
    pub fn reaches(&self, p: Pos) -> bool {
        self.reached.contains(&p)
    }

    /// The creatures the area reaches: any of their squares reached.
    pub fn creatures<'a>(&self, creatures: &'a [Occupant]) -> Vec<&'a Occupant> {
        creatures
            .iter()
            .filter(|c| c.space.squares().any(|q| self.reaches(q)))
            .collect()
    }

    /// The squares holding objects that the area reaches.
    pub fn objects(&self, map: &Map) -> Vec<Pos> {
        self.reached
            .iter()
            .copied()
            .filter(|&p| map.cell(p).object.is_some())
            .collect()
    }
}

/// Why an area can't be placed where asked.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlacementError {
    #[error("no square of the area is within {0} squares")]
    OutOfRange(u32),
    #[error("no line of effect to the area's origin")]
    NoLineOfEffect,
    #[error("a wall's squares must each share a side with another")]
    NotConnected,
    #[error("a wall must have exactly {0} squares")]
    WrongSize(u32),
    #[error("a wall can't be placed in an occupied square or a wall")]
    Occupied,
    #[error("the area must be aimed in some direction")]
    NoDirection,
}

/// Fill `reached` from the covered squares: a square is reached if its
/// square is not solid and the origin space has line of effect to it.
fn finish(map: &Map, origin: Footprint, covered: Vec<Pos>) -> Area {
    let covered: Vec<Pos> = covered.into_iter().filter(|&p| map.in_bounds(p)).collect();
    let open: Vec<Pos> = covered
        .iter()
        .copied()
        .filter(|&p| !map.blocks(p.x, p.y))
        .collect();
    let seen = squares_in_line_of_effect(map, origin, &open);
    let reached = open
        .into_iter()
        .zip(seen)
        .filter_map(|(p, s)| s.then_some(p))
        .collect();
    Area { covered, reached }
}

/// Aura or burst X: every square within X of the creature's space, diagonal
/// steps counting 1 (docs/rules.md#aura, #burst); the creature's own squares excluded.
pub fn burst(map: &Map, user: Footprint, radius: u32) -> Area {
    let r = radius as i32;
    let n = user.size as i32;
    let mut covered = Vec::new();
    for y in user.pos.y - r..user.pos.y + n + r {
        for x in user.pos.x - r..user.pos.x + n + r {
            let p = Pos::new(x, y);
            if !user.contains(p) {
                covered.push(p);
            }
        }
    }
    finish(map, user, covered)
}

/// docs/rules.md#during-the-move: the squares within `reach` of a creature
/// of `size` somewhere along `path`, from the square it first leaves to the
/// last it enters (a burst around each of its spaces on the way, each
/// reached in line of effect from that space), less the space it ends in.
pub fn sweep(map: &Map, size: u32, path: &[Pos], reach: u32) -> Area {
    let mut out = Area::default();
    for &p in path {
        let step = burst(map, Footprint::new(p, size), reach);
        for q in step.covered {
            if !out.covered.contains(&q) {
                out.covered.push(q);
            }
        }
        for q in step.reached {
            if !out.reached.contains(&q) {
                out.reached.push(q);
            }
        }
    }
    if let Some(&end) = path.last() {
        let end = Footprint::new(end, size);
        out.covered.retain(|&q| !end.contains(q));
        out.reached.retain(|&q| !end.contains(q));
    }
    out
}

/// Whether a burst (or aura) of `radius` around `user` reaches any of
/// `squares`: the same as asking [`burst`]'s area of each, without working
/// out the whole area (a listing asks only whether it would catch anyone).
pub fn burst_reaches_any(
    map: &Map,
    user: Footprint,
    radius: u32,
    squares: impl IntoIterator<Item = Pos>,
) -> bool {
    // Covered (within the radius, not the user's own), then as `finish`
    // keeps them: on the map, open, in line of effect from the user.
    let open: Vec<Pos> = squares
        .into_iter()
        .filter(|&q| {
            !user.contains(q)
                && user.distance_to(q) <= radius
                && map.in_bounds(q)
                && !map.blocks(q.x, q.y)
        })
        .collect();
    squares_in_line_of_effect(map, user, &open)
        .into_iter()
        .any(|seen| seen)
}

/// The origin square of an area placed away from the user: the nearest of
/// `candidates` within `within` and in line of effect (docs/rules.md#moving: "one square
/// of the area of effect must be within that distance, and must also be
/// within your line of effect").
fn origin_square(
    map: &Map,
    user: Footprint,
    within: u32,
    candidates: &[Pos],
) -> Result<Pos, PlacementError> {
    let mut in_range: Vec<Pos> = candidates
        .iter()
        .copied()
        .filter(|&p| map.in_bounds(p) && user.distance_to(p) <= within)
        .collect();
    if in_range.is_empty() {
        return Err(PlacementError::OutOfRange(within));
    }
    in_range.sort_by_key(|&p| (user.distance_to(p), p));
    in_range
        .into_iter()
        .find(|&p| !map.blocks(p.x, p.y) && line_of_effect_to_square(map, user, p))
        .ok_or(PlacementError::NoLineOfEffect)
}

/// Cube X within Y, with `corner` its top-left square (docs/rules.md#cube).
pub fn cube(
    map: &Map,
    user: Footprint,
    size: u32,
    within: u32,
    corner: Pos,
) -> Result<Area, PlacementError> {
    let covered: Vec<Pos> = Footprint::new(corner, size).squares().collect();
    let origin = origin_square(map, user, within, &covered)?;
    Ok(finish(map, Footprint::single(origin), covered))
}

/// The squares of a straight line from `start` toward `aim`, `length` long:
/// the standard rasterisation (each step moves one square along the major
/// axis and as the slope says along the other), so it never bends back
/// (docs/rules.md#straight-lines).
pub fn straight_line(start: Pos, aim: Pos, length: u32) -> Vec<Pos> {
    let dx = aim.x - start.x;
    let dy = aim.y - start.y;
    let major = dx.abs().max(dy.abs());
    if major == 0 {
        return vec![start];
    }
    (0..length as i32)
        .map(|i| {
            // Round half away from zero, symmetric in every direction.
            let t = |d: i32| {
                let num = 2 * i * d;
                let den = 2 * major;
                (num + num.signum() * major) / den
            };
            Pos::new(start.x + t(dx), start.y + t(dy))
        })
        .collect()
}

/// Line A x B within Y (docs/rules.md#line): starts at `start` (within Y of the
/// user and in line of effect), runs toward `aim` for A squares, B wide.
pub fn line(
    map: &Map,
    user: Footprint,
    length: u32,
    width: u32,
    within: u32,
    start: Pos,
    aim: Pos,
) -> Result<Area, PlacementError> {
    if aim == start {
        return Err(PlacementError::NoDirection);
    }
    let centre = straight_line(start, aim, length);
    let origin = origin_square(map, user, within, &[start])?;
    let dx = aim.x - start.x;
    let dy = aim.y - start.y;
    // Widen across the minor axis.
    let across = if dx.abs() >= dy.abs() { (0, 1) } else { (1, 0) };
    let lo = -((width as i32 - 1) / 2);
    let hi = width as i32 / 2;
    let mut covered = Vec::new();
    for p in centre {
        for k in lo..=hi {
            let q = p.offset(across.0 * k, across.1 * k);
            if !covered.contains(&q) {
                covered.push(q);
            }
        }
    }
    // The effect flows from the start along the line: a square is reached
    // if the start sees it.
    Ok(finish(map, Footprint::single(origin), covered))
}

/// Wall X within Y (docs/rules.md#wall): exactly X squares, each sharing a side
/// with another, none occupied or already solid, one within Y and in line of
/// effect. A placed wall blocks movement and line of effect
/// ([`super::grid::Map::set_raised_wall`]).
pub fn wall(
    map: &Map,
    user: Footprint,
    creatures: &[Occupant],
    count: u32,
    within: u32,
    squares: &[Pos],
) -> Result<Area, PlacementError> {
    let mut unique = squares.to_vec();
    unique.sort();
    unique.dedup();
    if unique.len() != count as usize || unique.len() != squares.len() {
        return Err(PlacementError::WrongSize(count));
    }
    for &p in &unique {
        let c = map.cell(p);
        if !map.in_bounds(p)
            || c.is_wall()
            || c.object.is_some()
            || creatures.iter().any(|o| o.space.contains(p))
        {
            return Err(PlacementError::Occupied);
        }
    }
    // Connected through shared sides.
    let mut seen = vec![unique[0]];
    let mut i = 0;
    while i < seen.len() {
        let p = seen[i];
        for q in [
            p.offset(1, 0),
            p.offset(-1, 0),
            p.offset(0, 1),
            p.offset(0, -1),
        ] {
            if unique.contains(&q) && !seen.contains(&q) {
                seen.push(q);
            }
        }
        i += 1;
    }
    if seen.len() != unique.len() {
        return Err(PlacementError::NotConnected);
    }
    origin_square(map, user, within, &unique)?;
    Ok(Area {
        covered: unique.clone(),
        reached: unique,
    })
}

/// Cone of `length` from the user toward `aim` (docs/rules.md#edges-and-banes "Cone Shape"): the
/// cone's width at a point equals that point's distance from the origin. A
/// square is in the cone if its centre is at most `length` along the aim
/// (measured from the edge of the user's space) and at most half that
/// distance to either side of the axis, edge included. The origin is not
/// included.
pub fn cone(map: &Map, user: Footprint, length: u32, aim: Pos) -> Result<Area, PlacementError> {
    let (cx, cy) = user.centre();
    let ax = aim.x as f64 + 0.5 - cx;
    let ay = aim.y as f64 + 0.5 - cy;
    let norm = (ax * ax + ay * ay).sqrt();
    if norm < 1e-9 {
        return Err(PlacementError::NoDirection);
    }
    let (ux, uy) = (ax / norm, ay / norm);
    let half = user.size as f64 / 2.0;
    let reach = length as i32 + user.size as i32;
    let mut covered = Vec::new();
    for y in user.pos.y - reach..=user.pos.y + reach {
        for x in user.pos.x - reach..=user.pos.x + reach {
            let p = Pos::new(x, y);
            if user.contains(p) {
                continue;
            }
            let vx = x as f64 + 0.5 - cx;
            let vy = y as f64 + 0.5 - cy;
            // Measured from the edge of the user's space.
            let along = vx * ux + vy * uy - half + 0.5;
            let side = (vx * uy - vy * ux).abs();
            if along > 0.0 && along <= length as f64 + 1e-9 && side <= along / 2.0 + 1e-9 {
                covered.push(p);
            }
        }
    }
    Ok(finish(map, user, covered))
}

/// Sphere of `radius` around a point within `within` (docs/rules.md#shapes):
/// every square whose centre is within the radius (Euclidean, measured from
/// the centre of the origin square, plus half a square); the origin included.
pub fn sphere(
    map: &Map,
    user: Footprint,
    radius: u32,
    within: u32,
    centre: Pos,
) -> Result<Area, PlacementError> {
    let origin = origin_square(map, user, within, &[centre])?;
    let r = radius as i32;
    let limit = (radius as f64 + 0.5).powi(2);
    let mut covered = Vec::new();
    for y in centre.y - r..=centre.y + r {
        for x in centre.x - r..=centre.x + r {
            let d = ((x - centre.x).pow(2) + (y - centre.y).pow(2)) as f64;
            if d <= limit {
                covered.push(Pos::new(x, y));
            }
        }
    }
    Ok(finish(map, Footprint::single(origin), covered))
}

/// Cylinder (docs/rules.md#cover-and-high-ground "Cylinder Shape"): on a flat map its base is the
/// sphere's footprint; the height reaches creatures flying above it, which a
/// 2D map does not model, so it covers the same squares.
pub fn cylinder(
    map: &Map,
    user: Footprint,
    radius: u32,
    within: u32,
    centre: Pos,
) -> Result<Area, PlacementError> {
    sphere(map, user, radius, within, centre)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::grid::ascii;
    use crate::map::line_of_effect;

    fn sq(x: i32, y: i32) -> Footprint {
        Footprint::single(Pos::new(x, y))
    }

    fn render(map: &Map, a: &Area) -> Vec<String> {
        (0..map.height)
            .map(|y| {
                (0..map.width)
                    .map(|x| {
                        let p = Pos::new(x, y);
                        if a.reaches(p) {
                            'X'
                        } else if a.covered.contains(&p) {
                            'x'
                        } else {
                            map.to_ascii()[y as usize].chars().nth(x as usize).unwrap()
                        }
                    })
                    .collect()
            })
            .collect()
    }

    // docs/rules.md#during-the-move: "the move begins in the space you
    // first leave ... and ends in the last space you move into": the
    // squares beside the first and the last count, the end's own square
    // does not, and a wall beside the way is not reached.
    #[test]
    fn sweep_reaches_beside_the_whole_way_and_not_through_walls() {
        let m = ascii(
            "
            ........
            ........
            .....#..
            ........",
        );
        let way = [
            Pos::new(1, 1),
            Pos::new(2, 1),
            Pos::new(3, 1),
            Pos::new(4, 1),
        ];
        let a = sweep(&m, 1, &way, 1);
        let picture = render(&m, &a).join("\n");
        // Beside the square first left, and beside the last entered.
        assert!(a.reaches(Pos::new(0, 0)), "{picture}");
        // A wall beside the way is covered, never reached.
        assert!(a.covered.contains(&Pos::new(5, 2)) && !a.reaches(Pos::new(5, 2)));
        assert!(a.reaches(Pos::new(5, 0)), "{picture}");
        // The squares walked before the end count; the end's own does not.
        assert!(a.reaches(Pos::new(1, 1)), "{picture}");
        assert!(!a.reaches(Pos::new(4, 1)), "{picture}");
        // Two away from every square of the way: not reached.
        assert!(!a.reaches(Pos::new(6, 1)), "{picture}");
        assert!(!a.reaches(Pos::new(2, 3)), "{picture}");
        // Staying put is a burst around the square.
        let still = sweep(&m, 1, &way[..1], 1);
        assert_eq!(still.reached, burst(&m, sq(1, 1), 1).reached);
    }

    // docs/rules.md#burst: "A creature or object must be within X squares of you";
    // areas "don't pass through solid barriers ... and don't spread around corners".
    #[test]
    fn burst_stops_at_walls() {
        let m = ascii(
            "
            .......
            .......
            ..###..
            .......
            .......
            .......",
        );
        let a = burst(&m, sq(3, 3), 2);
        let picture = render(&m, &a).join("\n");
        // 5 x 5 around the creature, less its own square.
        assert_eq!(a.covered.len(), 24, "{picture}");
        // The squares right behind the wall are covered but not reached.
        for x in 2..=4 {
            assert!(a.covered.contains(&Pos::new(x, 1)), "{picture}");
            assert!(!a.reaches(Pos::new(x, 1)), "{picture}");
            assert!(!a.reaches(Pos::new(x, 2)), "the wall itself\n{picture}");
        }
        // Beside and below the wall it spreads freely.
        for p in [
            Pos::new(1, 2),
            Pos::new(5, 2),
            Pos::new(1, 5),
            Pos::new(5, 5),
            Pos::new(3, 4),
        ] {
            assert!(a.reaches(p), "{p}\n{picture}");
        }
    }

    proptest::proptest! {
        #![proptest_config(crate::map::fixed_proptest())]
        // The listing's quick question, whether a burst catches any of some
        // squares, has the answer the burst's whole area gives (docs/rules.md#moving
        // "Burst": within X squares, not through walls or around corners).
        #[test]
        fn burst_reaches_any_agrees_with_the_area(
            walls in proptest::collection::vec(0u8..5, 64),
            (x, y, size) in (0i32..8, 0i32..8, 1u32..3),
            radius in 1u32..4,
            squares in proptest::collection::vec((-1i32..9, -1i32..9), 0..5),
        ) {
            let mut m = Map::new(8, 8);
            for (i, w) in walls.iter().enumerate() {
                let p = Pos::new(i as i32 % 8, i as i32 / 8);
                match w {
                    0 => m.set_terrain(p, crate::map::grid::Terrain::Wall),
                    1 => m.set_object(p, Some(crate::map::grid::MapObject {
                        material: crate::map::grid::Material::Stone,
                        size: 1,
                    })),
                    _ => {}
                }
            }
            let user = Footprint::new(Pos::new(x, y), size);
            let squares: Vec<Pos> = squares.into_iter().map(Pos::from).collect();
            let area = burst(&m, user, radius);
            proptest::prop_assert_eq!(
                burst_reaches_any(&m, user, radius, squares.iter().copied()),
                squares.iter().any(|&q| area.reaches(q)),
            );
        }
    }

    #[test]
    fn aura_of_a_large_creature() {
        let m = ascii(".....\n.....\n.....\n.....");
        let a = burst(&m, Footprint::new(Pos::new(1, 1), 2), 1);
        assert_eq!(a.covered.len(), 12);
        assert!(!a.covered.contains(&Pos::new(1, 1)));
    }

    // docs/rules.md#cube: "an X by X region"; "one square of the area of effect
    // must be within that distance, and must also be within your line of effect".
    #[test]
    fn cube_placement() {
        let m = ascii(
            "
            ..........
            ..........
            ......#...
            ......#...
            ......#...",
        );
        // The origin is the cube's nearest square in range: (5,2).
        let a = cube(&m, sq(0, 2), 3, 5, Pos::new(5, 2)).unwrap();
        assert_eq!(a.covered.len(), 9);
        assert!(!a.reaches(Pos::new(6, 3)), "the wall itself");
        assert!(
            !a.reaches(Pos::new(7, 3)),
            "behind the wall from the origin"
        );
        assert!(
            !a.reaches(Pos::new(7, 4)),
            "behind the wall from the origin"
        );
        assert!(a.reaches(Pos::new(7, 2)), "along the wall's open top edge");
        assert!(a.reaches(Pos::new(5, 4)));
        assert_eq!(
            cube(&m, sq(0, 2), 3, 4, Pos::new(6, 2)),
            Err(PlacementError::OutOfRange(4))
        );
    }

    // docs/rules.md#straight-lines: "each square in the line's length must move
    // in the same direction without bending back".
    #[test]
    fn straight_lines_never_bend_back() {
        let l = straight_line(Pos::new(0, 0), Pos::new(5, 2), 6);
        assert_eq!(
            l,
            vec![
                Pos::new(0, 0),
                Pos::new(1, 0),
                Pos::new(2, 1),
                Pos::new(3, 1),
                Pos::new(4, 2),
                Pos::new(5, 2)
            ]
        );
        for w in l.windows(2) {
            assert!(w[1].x >= w[0].x && w[1].y >= w[0].y);
        }
    }

    // docs/rules.md#line: "A x B line": A long, B wide.
    #[test]
    fn line_area() {
        let m = ascii(
            "
            ........
            ........
            ........
            ....#...",
        );
        let a = line(&m, sq(0, 1), 5, 1, 1, Pos::new(1, 1), Pos::new(7, 1)).unwrap();
        assert_eq!(
            a.covered,
            (1..=5).map(|x| Pos::new(x, 1)).collect::<Vec<_>>()
        );
        let wide = line(&m, sq(0, 1), 4, 3, 1, Pos::new(1, 1), Pos::new(7, 1)).unwrap();
        assert_eq!(wide.covered.len(), 12);
        assert!(wide.covered.contains(&Pos::new(4, 0)) && wide.covered.contains(&Pos::new(4, 2)));
        assert!(line(&m, sq(0, 1), 4, 1, 1, Pos::new(3, 1), Pos::new(7, 1)).is_err());
    }

    // docs/rules.md#wall: "each square must share at least one side ... with
    // another square", "can't be placed in occupied squares".
    #[test]
    fn wall_placement() {
        let m = ascii(".......\n.......\n.......");
        let user = sq(0, 1);
        let ok = wall(
            &m,
            user,
            &[],
            3,
            5,
            &[Pos::new(3, 0), Pos::new(3, 1), Pos::new(3, 2)],
        );
        assert!(ok.is_ok());
        assert_eq!(
            wall(&m, user, &[], 2, 5, &[Pos::new(3, 0), Pos::new(4, 1)]),
            Err(PlacementError::NotConnected)
        );
        assert_eq!(
            wall(&m, user, &[], 3, 5, &[Pos::new(3, 0), Pos::new(3, 1)]),
            Err(PlacementError::WrongSize(3))
        );
        let goblin = Occupant {
            id: crate::stats::CreatureId(9),
            space: sq(3, 1),
            side: crate::map::grid::Side::Director,
            can_react: true,
        };
        assert_eq!(
            wall(&m, user, &[goblin], 1, 5, &[Pos::new(3, 1)]),
            Err(PlacementError::Occupied)
        );
        // A raised wall blocks line of effect.
        let mut m2 = m.clone();
        for p in ok.unwrap().covered {
            m2.set_raised_wall(p, true);
        }
        assert!(!line_of_effect(&m2, sq(0, 1), sq(6, 1)));
    }

    // docs/rules.md#shapes "Cone Shape": "The cone's width at a given point along its
    // length is equal to that point's distance from the Origin."
    #[test]
    fn cone_widens_with_distance() {
        let m = ascii(&".........\n".repeat(9));
        let a = cone(&m, sq(0, 4), 4, Pos::new(8, 4)).unwrap();
        let width_at = |x: i32| a.covered.iter().filter(|p| p.x == x).count();
        // Squares whose centres are inside or on the cone's edge: at distance
        // d the cone is d wide, so d/2 to either side of its axis.
        assert_eq!(
            [width_at(1), width_at(2), width_at(3), width_at(4)],
            [1, 3, 3, 5]
        );
        assert_eq!(width_at(5), 0);
        assert!(
            !a.covered.contains(&Pos::new(0, 4)),
            "the origin is not included"
        );
    }

    // docs/rules.md#shapes: a point within a distance, extending by a radius; origin included.
    #[test]
    fn sphere_is_round_and_placed_in_range() {
        let m = ascii(&"...........\n".repeat(11));
        let a = sphere(&m, sq(0, 5), 2, 10, Pos::new(7, 5)).unwrap();
        assert!(a.covered.contains(&Pos::new(7, 5)));
        assert!(a.covered.contains(&Pos::new(9, 5)));
        assert!(!a.covered.contains(&Pos::new(9, 7)), "corners are cut off");
        assert_eq!(a.covered.len(), 21);
        assert_eq!(
            sphere(&m, sq(0, 5), 2, 3, Pos::new(7, 5)),
            Err(PlacementError::OutOfRange(3))
        );
        assert_eq!(cylinder(&m, sq(0, 5), 2, 10, Pos::new(7, 5)).unwrap(), a);
    }
}
