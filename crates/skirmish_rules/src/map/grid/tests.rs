// Footprint::distance (docs/rules.md#distances-and-targets counts diagonal steps as 1;
// a space's distance is that of its nearest square) is the least
// distance to any square of the other space, for every pair of sizes
// and placements near each other, including a space of no squares.
#[test]
fn space_distance_is_the_nearest_squares() {
    for (n, m) in (0..=3).flat_map(|n| (0..=3).map(move |m| (n, m))) {
        for (x, y) in (-5..=5).flat_map(|x| (-5..=5).map(move |y| (x, y))) {
            let a = Footprint::new(Pos::new(0, 0), n);
            let b = Footprint::new(Pos::new(x, y), m);
            let nearest = b.squares().map(|q| a.distance_to(q)).min().unwrap_or(0);
            assert_eq!(a.distance(b), nearest, "{a:?} to {b:?}");
        }
    }
}

use super::*;

// docs/rules.md#distances-and-targets counts diagonal steps as 1, and a space's
// distance to a square is that of its nearest square: for each size
// and each square around it, inside it too, the least of its squares'
// distances.
#[test]
fn distance_to_a_square_is_that_of_the_spaces_nearest_square() {
    for n in 1..=4 {
        let a = Footprint::new(Pos::new(2, -1), n);
        for (x, y) in (-5..=9).flat_map(|x| (-8..=6).map(move |y| (x, y))) {
            let q = Pos::new(x, y);
            let nearest = a.squares().map(|p| p.distance(q)).min().unwrap();
            assert_eq!(a.distance_to(q), nearest, "{a:?} to {q:?}");
        }
    }
}

// Issue #3 point 1: maps load from ASCII art plus a legend.
#[test]
fn ascii_with_legend() {
    let def: MapDef = ron::from_str(
        r######"(
            id: "hall",
            name: "Hall",
            legend: { 'P': Pit(4), 'G': Object(Glass, 1), 'H': Hazard(5, Acid) },
            rows: [
                "#####",
                "#.P~#",
                "#G.H#",
                "#####",
            ],
        )"######,
    )
    .unwrap();
    let m = def.build().unwrap();
    assert_eq!((m.width, m.height), (5, 4));
    assert_eq!(m.cell(Pos::new(2, 1)).terrain, Terrain::Pit(4));
    assert_eq!(m.cell(Pos::new(3, 1)).terrain, Terrain::Difficult);
    assert_eq!(
        m.cell(Pos::new(1, 2)).object,
        Some(MapObject {
            material: Material::Glass,
            size: 1
        })
    );
    assert!(matches!(
        m.cell(Pos::new(3, 2)).terrain,
        Terrain::Hazard {
            damage: 5,
            damage_type: DamageType::Acid
        }
    ));
    assert!(m.cell(Pos::new(0, 0)).is_wall());
    assert!(m.cell(Pos::new(-1, 0)).is_wall(), "outside the map is wall");
    assert_eq!(m.to_ascii()[1], "#._~#");
}

#[test]
fn bad_maps_are_errors() {
    let legend = BTreeMap::new();
    let rows = vec!["###".to_string(), "#.".to_string()];
    assert!(matches!(
        Map::from_ascii(&rows, &legend),
        Err(MapError::RaggedRow { row: 1, .. })
    ));
    // The odd row out is blamed, not the rows that agree.
    let rows: Vec<String> = ["###", "###", "####", "###"].map(String::from).into();
    let e = Map::from_ascii(&rows, &legend).unwrap_err();
    assert!(matches!(
        e,
        MapError::RaggedRow {
            row: 2,
            len: 4,
            width: 3,
            ..
        }
    ));
    assert_eq!(
        e.to_string(),
        "map row 3 has 4 squares but the map is 3 wide"
    );
    let rows = vec!["#Q#".to_string()];
    assert_eq!(
        Map::from_ascii(&rows, &legend),
        Err(MapError::UnknownSymbol {
            symbol: 'Q',
            row: 0,
            col: 1
        })
    );
}

// Issue #3 point 1: "Creatures of size 1 to 4 occupy N x N squares."
#[test]
fn footprints() {
    let big = Footprint::new(Pos::new(2, 2), 3);
    assert_eq!(big.squares().count(), 9);
    assert!(big.contains(Pos::new(4, 4)));
    assert!(!big.contains(Pos::new(5, 4)));
    assert_eq!(big.distance_to(Pos::new(5, 4)), 1);
    assert_eq!(big.distance_to(Pos::new(0, 0)), 2);
    assert_eq!(big.distance(Footprint::single(Pos::new(6, 6))), 2);
    assert_eq!(big.corners()[3], Pos::new(5, 5));
}

// Issue #3 point 1 ("size 1 to 4 occupy N x N squares"): a space's
// squares row by row from the top-left, each left to right, and the
// count left always told exactly.
#[test]
fn a_spaces_squares_come_row_by_row() {
    for size in 0..=4u32 {
        // (`new` makes a space of at least one square.)
        let fp = Footprint {
            pos: Pos::new(-1, 3),
            size,
        };
        let mut expected = Vec::new();
        for dy in 0..size as i32 {
            for dx in 0..size as i32 {
                expected.push(Pos::new(-1 + dx, 3 + dy));
            }
        }
        let mut it = fp.squares();
        let mut got = Vec::new();
        loop {
            let left = expected.len() - got.len();
            assert_eq!(it.size_hint(), (left, Some(left)), "size {size}");
            match it.next() {
                Some(p) => got.push(p),
                None => break,
            }
        }
        assert_eq!(got, expected, "size {size}");
        assert!(it.next().is_none());
    }
}

// The per-square flags and the blocker sums follow every change of a
// cell: walls raised and crumbled, objects broken, in any order.
#[test]
fn open_boxes_follow_changes() {
    let mut m = Map::new(7, 5);
    let mut state = 0x2545_f491_4f6c_dd1du64;
    for _ in 0..300 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let p = Pos::new((state % 7) as i32, ((state >> 8) % 5) as i32);
        match (state >> 16) % 3 {
            0 => m.set_raised_wall(p, !m.cell(p).raised_wall),
            1 => m.set_terrain(p, Terrain::Wall),
            _ => m.set_terrain(p, Terrain::Floor),
        }
        for (x0, y0, x1, y1) in [
            (0, 0, 6, 4),
            (1, 1, 3, 2),
            (p.x, p.y, p.x, p.y),
            (2, 0, 6, 3),
        ] {
            let open = (y0..=y1)
                .all(|y| (x0..=x1).all(|x| !m.cell(Pos::new(x, y)).blocks_line_of_effect()));
            assert_eq!(m.open_box(x0, y0, x1, y1), open, "box {x0},{y0}..{x1},{y1}");
        }
        assert_eq!(m.blocks(p.x, p.y), m.cell(p).blocks_line_of_effect());
    }
    // Outside the map counts as blocking.
    assert!(!Map::new(3, 3).open_box(-1, 0, 2, 2));
    assert!(Map::new(3, 3).open_box(0, 0, 2, 2));
}
