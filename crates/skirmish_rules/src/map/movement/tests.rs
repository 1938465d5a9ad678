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
        modes: Default::default(),
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
    for to in Pos::new(1, 1)
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
        modes: Default::default(),
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
// onto open ground, so a fall never leaves it unable to move. Climbing
// out costs 1 extra a square of depth (docs/rules.md#climbing-swimming-jumping-and-flying),
// at most MAX_CLIMB.
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
    assert_eq!(down.cost_to(Pos::new(2, 4)), Some(2 + 3));
    assert_eq!(down.cost_to(Pos::new(0, 0)), Some(2 + 3));
    let up = reachable(&m, &[], &hero(0, 0, 5));
    assert_eq!(up.cost_to(Pos::new(1, 1)), None);
    assert_eq!(up.cost_to(Pos::new(4, 1)), Some(4));
    // The same for a walk checked step by step, and for a larger
    // creature with a square down there.
    let walk = [(2, 2), (1, 1), (0, 0)].map(|(x, y)| Pos::new(x, y));
    assert_eq!(path_cost(&m, &[], &hero(2, 2, 5), &walk), Some(2 + 3));
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
            let step = enter_cost(
                &m,
                in_grid(&m, &grid),
                &mover,
                w[0],
                w[1],
                starts_low(&m, &mover),
            );
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
            modes: Default::default(),
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

/// A walker with these ways of moving (jump as given).
fn moving(x: i32, y: i32, speed: u32, modes: Modes) -> Mover {
    Mover {
        modes,
        ..hero(x, y, speed)
    }
}

fn cells(s: &str) -> Vec<Pos> {
    s.split(' ')
        .map(|xy| {
            let (x, y) = xy.split_once(',').expect("x,y");
            Pos::new(x.parse().expect("x"), y.parse().expect("y"))
        })
        .collect()
}

// docs/rules.md#climbing-swimming-jumping-and-flying: deep water costs a
// square more to swim through unless the creature swims (or flies); "A
// creature can't climb, jump, swim, or fly while prone" (source 000,
// Prone), so a crawler stays out of it.
#[test]
fn water_is_swum_at_a_cost_and_not_crawled_into() {
    let m = ascii(
        "
        .=.
        ...",
    );
    let through = cells("0,0 1,0 2,0");
    let walker = moving(0, 0, 5, Modes::default());
    assert_eq!(path_cost(&m, &[], &walker, &through), Some(3));
    let swimmer = Modes {
        swim: true,
        ..Modes::default()
    };
    assert_eq!(
        path_cost(&m, &[], &moving(0, 0, 5, swimmer), &through),
        Some(2)
    );
    let flier = Modes {
        fly: true,
        ..Modes::default()
    };
    assert_eq!(
        path_cost(&m, &[], &moving(0, 0, 5, flier), &through),
        Some(2)
    );
    let crawler = Mover {
        extra_cost: 1,
        ..moving(0, 0, 5, swimmer.crawling(true))
    };
    assert_eq!(path_cost(&m, &[], &crawler, &through), None);
    // The search agrees: round the water for 2, through it for 3.
    assert_eq!(reachable(&m, &[], &walker).cost_to(Pos::new(1, 0)), Some(2));
    assert_eq!(
        reachable(&m, &[], &moving(0, 0, 5, swimmer)).cost_to(Pos::new(1, 0)),
        Some(1)
    );
}

// docs/rules.md#climbing-swimming-jumping-and-flying: a step up onto
// higher ground is climbed, a square more for each square risen (at most
// MAX_CLIMB), unless the creature climbs or flies; going down costs
// nothing extra; a prone creature can't climb.
#[test]
fn higher_ground_is_climbed() {
    let mut m = ascii(
        "
        ....
        ....",
    );
    m.set_heights(&["..2.".to_string(), "..2.".to_string()])
        .expect("heights");
    let up = cells("1,0 2,0");
    let over = cells("1,0 2,0 3,0");
    let walker = moving(1, 0, 6, Modes::default());
    assert_eq!(path_cost(&m, &[], &walker, &up), Some(3));
    assert_eq!(path_cost(&m, &[], &walker, &over), Some(4));
    let climber = Modes {
        climb: true,
        ..Modes::default()
    };
    assert_eq!(path_cost(&m, &[], &moving(1, 0, 6, climber), &up), Some(1));
    let flier = Modes {
        fly: true,
        ..Modes::default()
    };
    assert_eq!(path_cost(&m, &[], &moving(1, 0, 6, flier), &up), Some(1));
    let crawler = Mover {
        extra_cost: 1,
        ..moving(1, 0, 6, climber.crawling(true))
    };
    assert_eq!(path_cost(&m, &[], &crawler, &up), None);
    assert_eq!(reachable(&m, &[], &walker).cost_to(Pos::new(2, 1)), Some(3));
    assert_eq!(reachable(&m, &[], &crawler).cost_to(Pos::new(2, 1)), None);
}

// docs/rules.md#climbing-swimming-jumping-and-flying: a gap (pit or
// ledge squares) no wider than the creature's jump is jumped in a
// straight line, a square of movement a square, with no stop over it;
// a wider gap, a run along a trench, or a prone creature's jump is not.
#[test]
fn narrow_gaps_are_jumped_in_a_straight_line() {
    let m = ascii(
        "
        ..__..
        ..__..
        ......",
    );
    let across = cells("1,0 2,0 3,0 4,0");
    let jump = |n: u8| Modes {
        jump: n,
        ..Modes::default()
    };
    assert_eq!(
        path_cost(&m, &[], &moving(1, 0, 5, jump(2)), &across),
        Some(3)
    );
    assert_eq!(path_cost(&m, &[], &moving(1, 0, 5, jump(1)), &across), None);
    assert_eq!(path_cost(&m, &[], &moving(1, 0, 5, jump(0)), &across), None);
    let crawler = Mover {
        extra_cost: 1,
        ..moving(1, 0, 5, jump(2).crawling(true))
    };
    assert_eq!(path_cost(&m, &[], &crawler, &across), None);
    // No stop over the gap, and no turning along it.
    let stop = cells("1,0 2,0");
    assert_eq!(path_cost(&m, &[], &moving(1, 0, 5, jump(2)), &stop), None);
    let along = cells("1,0 2,0 2,1 1,2");
    assert_eq!(path_cost(&m, &[], &moving(1, 0, 5, jump(2)), &along), None);
    // The search finds the jump: straight across for 3, where round the
    // gap's end is 4.
    let reach = reachable(&m, &[], &moving(1, 0, 5, jump(2)));
    assert_eq!(reach.cost_to(Pos::new(4, 0)), Some(3));
    assert_eq!(reach.cost_to(Pos::new(2, 0)), None);
    assert_eq!(
        reachable(&m, &[], &moving(1, 0, 5, jump(1))).cost_to(Pos::new(4, 0)),
        Some(4)
    );
}

// docs/rules.md#climbing-swimming-jumping-and-flying: a flier goes over
// pits and ledges as over floor and may stop above them; walls and
// objects still stop it; prone, it flies no more.
#[test]
fn fliers_cross_pits_and_hover_over_them() {
    let m = ascii(
        "
        .___#
        .___.",
    );
    let flier = Modes {
        fly: true,
        ..Modes::default()
    };
    let reach = reachable(&m, &[], &moving(0, 0, 5, flier));
    assert_eq!(reach.cost_to(Pos::new(2, 0)), Some(2));
    assert_eq!(reach.cost_to(Pos::new(4, 1)), Some(4));
    assert_eq!(reach.cost_to(Pos::new(4, 0)), None);
    let walker = reachable(&m, &[], &moving(0, 0, 5, Modes::default()));
    assert_eq!(walker.cost_to(Pos::new(2, 0)), None);
    let grounded = Mover {
        extra_cost: 1,
        ..moving(0, 0, 5, flier.crawling(true))
    };
    assert_eq!(reachable(&m, &[], &grounded).cost_to(Pos::new(1, 0)), None);
}

// A search whose box holds no relief is the one-square search, whatever
// the rest of the map holds; one whose box holds some finds the jump
// (docs/rules.md#climbing-swimming-jumping-and-flying).
#[test]
fn relief_is_looked_for_in_the_search_box_only() {
    let m = ascii(
        "
        ..........
        ..........
        .......__.
        ..........",
    );
    assert!(m.has_relief());
    assert!(!m.relief_in(0, 0, 6, 3));
    assert!(m.relief_in(0, 0, 7, 3));
    assert!(m.relief_in(8, 2, 8, 2));
    assert!(!m.relief_in(9, 0, 20, 1));
    let far = reachable(&m, &[], &hero(0, 0, 3));
    assert!(far.levels.is_some());
    let jump = Modes {
        jump: 2,
        ..Modes::default()
    };
    let near = reachable(&m, &[], &moving(6, 2, 3, jump));
    assert!(near.levels.is_none());
    assert_eq!(near.cost_to(Pos::new(9, 2)), Some(3));
}
