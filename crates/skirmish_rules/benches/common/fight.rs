//! The benchmarks' fight, shared by `benches/engine.rs` and
//! `examples/profile.rs` (each includes this file): 4 heroes against 6
//! monsters on an open 20 x 20 map with a few walls, built here so content
//! changes don't move the figures.

use std::sync::Arc;

use skirmish_rules::content::encounter::{EncounterDef, FirstSide, HeroDef, MonsterDef};
use skirmish_rules::content::{ContentDb, LoadedMap};

/// The shipped content with the fight added as encounter `bench`.
pub fn content() -> Arc<ContentDb> {
    let mut db =
        ContentDb::load(concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets")).expect("content");
    let mut rows = vec![".".repeat(20); 20];
    for (y, x) in [
        (6, 6),
        (6, 7),
        (6, 12),
        (6, 13),
        (13, 6),
        (13, 7),
        (13, 12),
        (13, 13),
    ] {
        rows[y].replace_range(x..x + 1, "#");
    }
    let rows: Vec<String> = rows;
    db.maps.insert(
        "bench20".into(),
        LoadedMap {
            id: "bench20".into(),
            name: "Bench".into(),
            description: String::new(),
            map: skirmish_rules::map::Map::from_ascii(&rows, &Default::default()).unwrap(),
        },
    );
    let hero = |class: &str, name: &str, x: i32| HeroDef::new(class, name, (x, 2));
    let monster = |id: &str, x: i32, y: i32| MonsterDef::of(id, (x, y));
    db.encounters.insert(
        "bench".into(),
        EncounterDef {
            id: "bench".into(),
            name: "Bench".into(),
            briefing: String::new(),
            ruleset: "power_roll".into(),
            map: "bench20".into(),
            heroes: vec![
                hero("fury", "Fury A", 7),
                hero("conduit", "Conduit A", 9),
                hero("fury", "Fury B", 11),
                hero("conduit", "Conduit B", 13),
            ],
            monsters: vec![
                monster("bandit", 5, 17),
                monster("bandit", 8, 17),
                monster("bandit", 11, 17),
                monster("bandit", 14, 17),
                monster("bandit_archer", 7, 19),
                monster("bandit_archer", 12, 19),
            ],
            first: FirstSide::Roll,
            objective: Default::default(),
            reinforcements: Vec::new(),
            heroes_win: None,
        },
    );
    Arc::new(db)
}
