//! docs/rules.md#summons, #loot, #recover-and-refresh, through the engine
//! and as pure functions.

use super::*;
use crate::encounter::gather::loot_squares;
use crate::encounter::world;
use crate::map::summon_square;
use crate::map::{Footprint, Map, Occupant, Side};

fn occupant(id: u32, x: i32, y: i32, side: Side) -> Occupant {
    Occupant {
        id: CreatureId(id),
        space: Footprint::single(Pos::new(x, y)),
        side,
        can_react: true,
    }
}

// docs/rules.md#summons: "placed in an empty hex adjacent to the figure
// performing the summon. If there are no available hexes, the summon
// ability cannot be used."
#[test]
fn a_summon_goes_next_to_its_summoner_toward_the_enemy_or_nowhere() {
    let map = Map::new(7, 5);
    let owner = occupant(1, 2, 2, Side::Heroes);
    let enemy = occupant(2, 6, 2, Side::Director);
    let at = summon_square(&map, &[owner, enemy], owner.space, Side::Heroes, 1);
    assert_eq!(at, Some(Pos::new(3, 2)));
    // The enemy on the other side: the summon goes that way.
    let enemy = occupant(2, 0, 2, Side::Director);
    let at = summon_square(&map, &[owner, enemy], owner.space, Side::Heroes, 1);
    assert_eq!(at, Some(Pos::new(1, 2)));
    // Boxed in by creatures on every side: no room.
    let mut crowd = vec![owner];
    let mut n = 10;
    for y in 1..=3 {
        for x in 1..=3 {
            if (x, y) != (2, 2) {
                crowd.push(occupant(n, x, y, Side::Heroes));
                n += 1;
            }
        }
    }
    assert_eq!(
        summon_square(&map, &crowd, owner.space, Side::Heroes, 1),
        None
    );
}

// docs/rules.md#loot: "pick up every money token and treasure tile within
// range X ... considered a ranged ability for the purposes of line-of-sight".
#[test]
fn loot_reaches_tokens_in_range_and_in_sight() {
    let rows: Vec<String> = ["$....", ".#...", "$#.$.", ".#..$"]
        .iter()
        .map(|r| r.to_string())
        .collect();
    let map = Map::from_ascii(&rows, &Default::default()).unwrap();
    let looter = Footprint::single(Pos::new(2, 2));
    let mut got = loot_squares(&map, looter, 2);
    got.sort_by_key(|p| (p.y, p.x));
    // (0, 0) is 2 away in sight; (0, 2) is behind the wall; (3, 2) is
    // next door; (4, 3) is 2 away.
    assert_eq!(got, vec![Pos::new(0, 0), Pos::new(3, 2), Pos::new(4, 3)]);
    assert!(loot_squares(&map, looter, 0).is_empty());
}

const CALL: &str = r#"(
    id: "call", name: "Call", keywords: [], action: Maneuver,
    distance: Myself, target: (kinds: [Myself]),
    effect: Some("summon spirit_wolf"),
)"#;

// Snapshots serve search: a summon made after a snapshot is gone once the
// snapshot is restored, and the fight replays the same.
#[test]
fn restoring_a_snapshot_removes_later_summons() {
    let db = super::triggers::db_with(&[CALL]);
    let mut e = super::triggers::open(
        db,
        vec![super::triggers::with(
            hero("null", "Ren", (2, 2)),
            &["call"],
        )],
        vec![monster("bandit", (6, 2))],
    );
    start(&mut e, CreatureId(1));
    let before = e.snapshot();
    let count = e.creatures().len();
    e.apply(Command::use_ability(
        CreatureId(1),
        "call",
        vec![CreatureId(1)],
    ))
    .unwrap();
    assert_eq!(e.creatures().len(), count + 1);
    let wolf = e.creatures().last().cloned().unwrap();
    assert_eq!(wolf.summoned.map(|s| s.owner), Some(CreatureId(1)));
    assert_eq!(wolf.side, Side::Heroes);
    // The entity lookup follows the index through the restore and the
    // summon again.
    let first = world::entity_of(e.world(), wolf.id).unwrap();
    e.restore(&before);
    assert_eq!(e.creatures().len(), count);
    assert_eq!(world::entity_of(e.world(), wolf.id), None);
    // Summoning again gives the same id and square.
    e.apply(Command::use_ability(
        CreatureId(1),
        "call",
        vec![CreatureId(1)],
    ))
    .unwrap();
    let again = e.creatures().last().cloned().unwrap();
    assert_eq!((again.id, again.space), (wolf.id, wolf.space));
    let now = world::entity_of(e.world(), wolf.id).unwrap();
    assert_eq!(
        Some(now),
        e.world()
            .res::<state::board::CreatureIndex>()
            .entity(wolf.id)
    );
    assert_ne!(now, first);
}

// docs/rules.md#distances-and-targets: "Swinging Distance | Spitting Distance | Throwing
// Distance | Shooting Distance | Sniping Distance: 1 | 4 | 8 | 16 | 200".
#[test]
fn named_distances_read_as_squares() {
    use crate::ability::Distance;
    for (name, d) in [
        ("Swinging", Distance::Melee(1)),
        ("Spitting", Distance::Ranged(4)),
        ("Throwing", Distance::Ranged(8)),
        ("Shooting", Distance::Ranged(16)),
        ("Sniping", Distance::Ranged(200)),
        ("Ranged(5)", Distance::Ranged(5)),
    ] {
        let got: Distance = ron::from_str(name).unwrap();
        assert_eq!(got, d, "{name}");
    }
    assert!(ron::from_str::<Distance>("Yelling").is_err());
}

// docs/rules.md#moving: a glyph "should be connected to any other Glyph within
// Swinging Distance of it" (1 square); our ruling keeps networks to one side.
#[test]
fn glyphs_connect_to_their_side_within_one_square() {
    use crate::encounter::resolve::glyph::connected;
    use crate::encounter::state::board::Glyph;
    let g = |x: i32, y: i32, side: Side| Glyph {
        at: Pos::new(x, y),
        from: "fire_glyph".into(),
        name: "Fire Glyph".into(),
        side,
        maker: None,
        beat_round: 0,
        disabled_until: 0,
        dismissed: false,
        revealed: false,
        links: None,
    };
    let mut list = vec![
        g(1, 1, Side::Director),
        g(2, 2, Side::Director),
        g(3, 1, Side::Director),
        g(2, 1, Side::Heroes),
    ];
    assert_eq!(connected(&list, 0), vec![1]);
    assert_eq!(connected(&list, 1), vec![0, 2]);
    list[1].dismissed = true;
    assert!(connected(&list, 0).is_empty());
}

// A map's glyph network is the Director's from the start, unseen.
#[test]
fn the_glyph_vault_starts_with_its_trap() {
    let db = content();
    let e = Encounter::new(std::sync::Arc::new(db), "glyph_vault", 3).unwrap();
    let g = e.glyphs();
    assert_eq!(g.list.len(), 10);
    assert!(
        g.list
            .iter()
            .all(|x| x.side == Side::Director && !x.revealed)
    );
}
