use std::path::{Path, PathBuf};

use super::*;
use crate::scratch::Scratch;

fn shipped_assets() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets")
}

/// A fresh content folder under the system temp dir with the given files
/// (removed when the test is done with it).
fn content_dir(name: &str, files: &[(&str, &str)]) -> Scratch {
    let dir = Scratch::new(&format!("content-{name}"));
    for (path, text) in files {
        let p = dir.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    dir
}

/// The error whose message holds `needle`, of `errors`, which must number
/// `count` (each printed if not).
fn error_about<'a>(errors: &'a [ContentError], count: usize, needle: &str) -> &'a ContentError {
    let text: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
    assert_eq!(errors.len(), count, "{text:#?}");
    errors
        .iter()
        .find(|e| e.message.contains(needle))
        .unwrap_or_else(|| panic!("no error about {needle}: {text:#?}"))
}

const GOOD_ABILITY: &str = r#"[
    (
        id: "slam",
        name: "Slam",
        keywords: [Melee, Strike],
        action: MainAction,
        distance: Melee(1),
        target: (count: 1, kinds: [Creature]),
        power_roll: (characteristics: [Might], tiers: ("2 damage", "4 damage", "6 damage; push 1")),
    ),
]"#;

const GOOD_MONSTER: &str = r#"(
    id: "brute",
    name: "Brute",
    level: 1,
    role: Brute,
    speed: 5,
    stamina: 20,
    characteristics: (might: 2),
    free_strike: 3,
    abilities: ["slam"],
)"#;

#[test]
fn shipped_content_loads() {
    let db = ContentDb::load(shipped_assets()).unwrap_or_else(|e| panic!("{e}"));
    assert!(db.abilities.contains_key("brutal_slam"));
    assert!(db.abilities.contains_key("judgments_hammer"));
    assert!(db.classes.contains_key("fury"));
    assert!(db.rulesets.contains_key("power_roll"));
    // Tier lines were parsed at load.
    let slam = &db.abilities["brutal_slam"];
    assert_eq!(slam.power_roll.as_ref().unwrap().tiers.2.effects.len(), 2);
}

#[test]
fn a_valid_folder_loads_with_counts() {
    let dir = content_dir(
        "valid",
        &[
            ("abilities/a.ron", GOOD_ABILITY),
            ("monsters/m.ron", GOOD_MONSTER),
            (
                "maps/small.ron",
                "(id: \"small\", name: \"Small\", rows: [\"..\", \".#\"])",
            ),
        ],
    );
    let db = ContentDb::load(&dir).unwrap();
    assert_eq!(
        db.counts(),
        vec![
            (Kind::Ruleset, 0),
            (Kind::Class, 0),
            (Kind::Ability, 1),
            (Kind::Monster, 1),
            (Kind::Kit, 0),
            (Kind::Ancestry, 0),
            (Kind::Map, 1),
            (Kind::Encounter, 0)
        ]
    );
    assert!(
        db.maps["small"]
            .map
            .cell(crate::map::Pos::new(1, 1))
            .is_wall()
    );
}

// Issue #2 point 8: "unknown ids, bad numbers, duplicates and unreadable tier
// lines are all reported in one pass, each with file:line:column".
#[test]
fn every_problem_reported_in_one_pass_with_positions() {
    let monsters = r#"[
    (
        id: "brute",
        name: "Brute",
        level: 1,
        role: Brute,
        speed: 5,
        stamina: 0,
        characteristics: (might: 2),
        free_strike: 3,
        abilities: ["slam", "no_such_ability"],
    ),
]"#;
    let abilities = r#"[
    (
        id: "slam",
        name: "Slam",
        action: MainAction,
        distance: Melee(1),
        target: (count: 1, kinds: [Creature]),
        power_roll: (characteristics: [Might], tiers: ("2 damage", "4 + Q damage", "6 damage")),
    ),
]"#;
    let duplicate = r#"(
    id: "slam",
    name: "Another Slam",
    action: MainAction,
    distance: Melee(1),
    target: (count: 1, kinds: [Creature]),
)"#;
    let dir = content_dir(
        "broken",
        &[
            ("abilities/a.ron", abilities),
            ("abilities/b.ron", duplicate),
            ("monsters/m.ron", monsters),
        ],
    );
    let errors = ContentDb::load(&dir).unwrap_err().0;
    let find = |needle: &str| error_about(&errors, 4, needle);
    // The bad tier line points at the `Q`.
    let tier = find("Q damage");
    assert!(tier.file.ends_with("abilities/a.ron"));
    let line8 = abilities.lines().nth(7).unwrap();
    assert_eq!(
        (tier.line, tier.column),
        (8, line8.find("Q damage").unwrap() + 1)
    );
    // The duplicate names both places.
    let dup = find("duplicate ability id `slam`");
    assert!(dup.file.ends_with("abilities/b.ron"));
    assert_eq!(dup.line, 2);
    assert!(dup.message.contains("a.ron:3:"));
    // The unknown id points at the reference.
    let unknown = find("unknown ability id `no_such_ability`");
    assert_eq!(unknown.line, 11);
    let line11 = monsters.lines().nth(10).unwrap();
    assert_eq!(unknown.column, line11.find("no_such_ability").unwrap() + 1);
    // The bad number points at its field.
    let stamina = find("stamina must be positive");
    assert_eq!((stamina.line, stamina.column), (8, 9));
}

// Developers' guide: "the program does not panic on any content", and bad
// input "gets a clear error". Numbers far beyond any fight (a slip of the
// keyboard) are errors at load, each at its place: before, a burst of two
// billion squares asked for gigabytes, a push as long overflowed, and so did
// a heal of a stat block with two billion stamina.
#[test]
fn numbers_beyond_any_fight_are_errors_at_load() {
    let abilities = r#"[
    (
        id: "slam",
        name: "Slam",
        action: MainAction,
        distance: Melee(1),
        target: (count: 1, kinds: [Creature]),
        power_roll: (characteristics: [Might], tiers: ("2 damage", "4 damage", "6 damage; push 2147483647")),
    ),
    (
        id: "quake",
        name: "Quake",
        action: MainAction,
        distance: Burst(2147483647),
        target: (kinds: [Enemy]),
        effect: "2 damage",
    ),
]"#;
    let monsters = r#"(
    id: "brute",
    name: "Brute",
    level: 1,
    role: Brute,
    speed: 5,
    stamina: 2147483647,
    characteristics: (might: 2),
    free_strike: 3000,
    abilities: ["slam", "quake"],
)"#;
    let dir = content_dir(
        "huge",
        &[("abilities/a.ron", abilities), ("monsters/m.ron", monsters)],
    );
    let errors = ContentDb::load(&dir).unwrap_err().0;
    let find = |needle: &str| error_about(&errors, 4, needle);
    // The push's number, in its tier line.
    let push = find("up to 999");
    let line8 = abilities.lines().nth(7).unwrap();
    assert_eq!(
        (push.line, push.column),
        (8, line8.find("2147483647").unwrap() + 1),
        "{push}"
    );
    let burst = find("goes beyond 100 squares");
    assert!(burst.file.ends_with("abilities/a.ron"));
    assert_eq!(burst.line, 14);
    let stamina = find("stamina is more than 100000");
    assert_eq!(stamina.line, 7);
    let strike = find("free_strike 3000 is outside 0 to 1000");
    assert_eq!(strike.line, 9);
}

// Developers' guide: "a broken RON file names the file, line, column and what
// was expected".
#[test]
fn syntax_errors_name_file_line_column_and_what_was_expected() {
    let broken = "[\n    (\n        id: \"slam\",\n        name: \"Slam\"\n        action: MainAction,\n    ),\n]";
    let dir = content_dir(
        "syntax",
        &[
            ("abilities/a.ron", broken),
            ("monsters/m.ron", GOOD_MONSTER),
        ],
    );
    let errors = ContentDb::load(&dir).unwrap_err().0;
    // The broken file is reported and the monster's reference to the ability
    // that could not be read is reported too, in the same pass.
    let syntax = errors.iter().find(|e| e.file.ends_with("a.ron")).unwrap();
    assert_eq!(syntax.line, 5, "{syntax}");
    assert!(
        syntax.message.to_lowercase().contains("expected"),
        "{syntax}"
    );
    assert!(
        errors
            .iter()
            .any(|e| e.message.contains("unknown ability id `slam`"))
    );
}

#[test]
fn unknown_enum_values_say_what_was_expected() {
    let bad = GOOD_MONSTER.replace("role: Brute", "role: Bruiser");
    let dir = content_dir(
        "enum",
        &[("abilities/a.ron", GOOD_ABILITY), ("monsters/m.ron", &bad)],
    );
    let errors = ContentDb::load(&dir).unwrap_err().0;
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].line, 5);
    assert!(errors[0].message.contains("Bruiser"), "{}", errors[0]);
    assert!(errors[0].message.contains("Brute"), "{}", errors[0]);
}

#[test]
fn a_missing_folder_is_an_error_not_a_panic() {
    let errors = ContentDb::load("/no/such/folder").unwrap_err();
    assert_eq!(errors.0.len(), 1);
}

#[test]
fn a_bad_map_symbol_points_at_its_row_and_column() {
    let map = "(\n    id: \"m\",\n    name: \"M\",\n    rows: [\n        \"....\",\n        \"..Q.\",\n    ],\n)";
    let dir = content_dir("badmap", &[("maps/m.ron", map)]);
    let errors = ContentDb::load(&dir).unwrap_err().0;
    assert_eq!(errors.len(), 1);
    let e = &errors[0];
    assert_eq!((e.line, e.column), (6, 12), "{e}");
    assert!(e.message.contains("`Q`"), "{e}");
}

#[test]
fn shipped_maps_include_a_tiled_one() {
    let db = ContentDb::load(shipped_assets()).unwrap_or_else(|e| panic!("{e}"));
    let keep = &db.maps["ruined_hall"];
    let tmx = db
        .maps
        .get("ruined_hall_tiled")
        .expect("the .tmx twin of the ruined hall");
    assert_eq!(
        keep.map.to_ascii(),
        tmx.map.to_ascii(),
        "the Tiled twin matches the RON map"
    );
}

#[test]
fn shipped_encounters_validate() {
    let db = ContentDb::load(shipped_assets()).unwrap_or_else(|e| panic!("{e}"));
    let e = &db.encounters["first_blood"];
    assert_eq!(e.map, "ruined_hall");
    assert!(!e.heroes.is_empty() && !e.monsters.is_empty());
}

// Developers' guide: "Unknown ability or monster ids are errors at load time, not at use."
#[test]
fn encounter_references_and_squares_are_checked_at_load() {
    let map = "(id: \"room\", name: \"Room\", rows: [\"#####\", \"#...#\", \"#####\"])";
    let encounter = r#"(
    id: "e",
    name: "E",
    ruleset: "power_roll",
    map: "room",
    heroes: [
        (class: "wizard", name: "Zed", at: (1, 1)),
        (class: "wizard", name: "Ada", at: (0, 0)),
    ],
    monsters: [
        (monster: "brute", at: (1, 1)),
        (monster: "dragon", at: (3, 1)),
    ],
)"#;
    let ruleset = "(id: \"power_roll\", name: \"P\")";
    let dir = content_dir(
        "encounter",
        &[
            ("abilities/a.ron", GOOD_ABILITY),
            ("monsters/m.ron", GOOD_MONSTER),
            ("maps/room.ron", map),
            ("rulesets/r.ron", ruleset),
            ("encounters/e.ron", encounter),
        ],
    );
    let errors = ContentDb::load(&dir).unwrap_err().0;
    let text: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
    let find = |needle: &str| {
        errors
            .iter()
            .find(|e| e.message.contains(needle))
            .unwrap_or_else(|| panic!("no error about {needle}: {text:#?}"))
    };
    assert_eq!(find("unknown class id `wizard`").line, 7);
    assert_eq!(find("unknown monster id `dragon`").line, 12);
    let wall = find("hero `Ada` at (0, 0) is not on open ground");
    assert_eq!((wall.line, wall.column), (8, 40));
    let overlap = find("monster `Brute` at (1, 1) overlaps hero `Zed`");
    assert_eq!(overlap.line, 11);
}

/// Issue #7 point 1, checked on the shipped classes: the nine classes of
/// docs/rules.md#forced-movement with their resources, each with two signature abilities and
/// heroic abilities costing 3 and 5, and between them every area type,
/// condition, forced movement kind, potency strength, surges, "Spend X",
/// triggered actions and an aura.
#[test]
fn the_nine_classes_cover_the_rules() {
    use crate::ability::ForcedKind;
    use crate::ability::{Cost, Distance, Effect, PotencyValue};
    use crate::conditions::ConditionKind;
    use crate::stats::PotencyStrength;
    use std::collections::{BTreeSet, HashSet};

    let db = ContentDb::load(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets")).unwrap();
    // docs/rules.md#heroic-resources: each class's resource by name.
    let resources = [
        ("censor", "wrath"),
        ("conduit", "piety"),
        ("elementalist", "essence"),
        ("fury", "ferocity"),
        ("null", "discipline"),
        ("shadow", "insight"),
        ("tactician", "focus"),
        ("talent", "clarity"),
        ("troubadour", "drama"),
    ];
    let mut triggers = BTreeSet::new();
    let (mut areas, mut conditions, mut forced) = (HashSet::new(), BTreeSet::new(), HashSet::new());
    let (mut strengths, mut vertical, mut surges, mut spend, mut triggered, mut aura) =
        (BTreeSet::new(), false, false, false, false, false);
    for (id, resource) in resources {
        let class = db
            .classes
            .get(id)
            .unwrap_or_else(|| panic!("no class {id}"));
        assert_eq!(class.resource, resource, "{id}");
        triggers.insert(format!("{:?}", class.resource_trigger));
        // (docs/rules.md#class-tables: with its subclasses' abilities.)
        let abilities: Vec<_> = class
            .abilities
            .iter()
            .chain(class.subclasses.iter().flat_map(|s| &s.abilities))
            .chain(&class.features)
            .map(|a| {
                db.ability(a)
                    .unwrap_or_else(|| panic!("{id}: no ability {a}"))
            })
            .collect();
        let count = |c: Cost| abilities.iter().filter(|a| a.cost == c).count();
        assert!(count(Cost::Signature) >= 2, "{id}: two signature abilities");
        assert!(
            count(Cost::Heroic(3)) >= 2,
            "{id}: two heroic abilities costing 3"
        );
        assert!(
            count(Cost::Heroic(5)) >= 2,
            "{id}: two heroic abilities costing 5"
        );
        for a in abilities {
            if a.distance.is_area() {
                areas.insert(std::mem::discriminant(&a.distance));
            }
            triggered |= a.trigger.is_some();
            aura |= a.aura.is_some();
            spend |= !a.spend.is_empty();
            let mut lines = Vec::new();
            if let Some(p) = &a.power_roll {
                lines.extend([&p.tiers.0, &p.tiers.1, &p.tiers.2]);
            }
            lines.extend(a.effect.iter());
            lines.extend(a.aura.iter().map(|x| &x.effect));
            lines.extend(a.spend.iter().filter_map(|s| s.effects.as_ref()));
            for e in lines.iter().flat_map(|l| l.effects.iter()) {
                match e {
                    Effect::Condition {
                        potency,
                        conditions: cs,
                        ..
                    } => {
                        conditions.extend(cs.iter().copied());
                        if let Some(p) = potency
                            && let PotencyValue::Strength(s) = p.value
                        {
                            strengths.insert(format!("{s:?}"));
                        }
                    }
                    Effect::ForcedMove {
                        kind, vertical: v, ..
                    } => {
                        forced.insert(*kind);
                        vertical |= *v;
                    }
                    Effect::GainSurges(_) | Effect::GrantSurges(_) => surges = true,
                    _ => {}
                }
            }
        }
    }
    assert_eq!(
        triggers.len(),
        9,
        "a gain trigger of its own each: {triggers:?}"
    );
    for d in [
        Distance::Aura(1),
        Distance::Burst(1),
        Distance::Cube { size: 1, within: 1 },
        Distance::Line {
            length: 1,
            width: 1,
            within: 1,
        },
        Distance::Wall {
            squares: 1,
            within: 1,
        },
        Distance::Cone { length: 1 },
        Distance::Sphere {
            radius: 1,
            within: 1,
        },
        Distance::Cylinder {
            radius: 1,
            height: 1,
            within: 1,
        },
    ] {
        assert!(
            areas.contains(&std::mem::discriminant(&d)),
            "no class uses {d}"
        );
    }
    for c in [
        ConditionKind::Bleeding,
        ConditionKind::Dazed,
        ConditionKind::Frightened,
        ConditionKind::Grabbed,
        ConditionKind::Prone,
        ConditionKind::Restrained,
        ConditionKind::Slowed,
        ConditionKind::Taunted,
        ConditionKind::Weakened,
    ] {
        assert!(conditions.contains(&c), "no class imposes {c}");
    }
    for k in [ForcedKind::Push, ForcedKind::Pull, ForcedKind::Slide] {
        assert!(forced.contains(&k), "no class uses {k:?}");
    }
    assert!(vertical, "no vertical forced movement");
    for s in [
        PotencyStrength::Weak,
        PotencyStrength::Average,
        PotencyStrength::Strong,
    ] {
        assert!(strengths.contains(&format!("{s:?}")), "no potency {s:?}");
    }
    assert!(surges && spend && triggered && aura);
}

/// Every class ability works in play: across the shipped encounters, random
/// legal play uses each of them at least once (the engine accepts them).
#[test]
fn every_class_ability_is_used_in_play() {
    use std::sync::Arc;
    let mut db =
        ContentDb::load(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets")).unwrap();
    // Every hero can afford any of its abilities from its first turn (the
    // costliest is 11), so random play reaches the costly ones too.
    for e in db.encounters.values_mut() {
        for h in &mut e.heroes {
            h.victories = h.victories.max(11);
        }
    }
    let db = Arc::new(db);
    // Every class ability the heroes could use (triggered ones answer
    // others and are checked elsewhere), by name, with its class.
    let mut missing: std::collections::BTreeMap<String, String> = Default::default();
    for class in db.classes.values() {
        let subclasses = class.subclasses.iter().flat_map(|s| &s.abilities);
        for a in class
            .abilities
            .iter()
            .chain(subclasses)
            .chain(&class.features)
        {
            let ab = db.ability(a).unwrap();
            if ab.trigger.is_none() {
                missing.insert(ab.name.clone(), class.id.clone());
            }
        }
    }
    // Seeded random games, a round of every encounter a seed, until each of
    // them has been used (the cost follows the abilities, not the number
    // of encounters). The costliest abilities are known only from 7th
    // level, in a few fights: those are played longer.
    'games: for seed in 1..=64 {
        for (enc, def) in &db.encounters {
            if seed > 24 && !def.heroes.iter().any(|h| h.level >= 7) {
                continue;
            }
            let heroes = crate::ai::by_name("random", seed, &db).unwrap();
            let monsters = crate::ai::by_name("random", seed + 100, &db).unwrap();
            let (g, _) = crate::sim::play_with(&db, enc, seed, heroes, monsters, 20_000).unwrap();
            assert!(g.errors.is_empty(), "{enc} {seed}: {:?}", g.errors);
            for name in g.abilities.keys() {
                missing.remove(name);
            }
            if missing.is_empty() {
                break 'games;
            }
        }
    }
    let missing: Vec<String> = missing
        .into_iter()
        .map(|(name, class)| format!("{name} ({class})"))
        .collect();
    assert!(missing.is_empty(), "never used: {missing:?}");
}

// Issue 51, point 3: content loading reads only regular files, of bounded
// size; never follows a link out of the content folder or round a loop;
// and refuses maps too large to make, before making them.
#[cfg(unix)]
#[test]
fn loading_reads_only_regular_bounded_files_inside_the_folder() {
    use std::os::unix::fs::symlink;
    let map = "(\n    id: \"m\",\n    name: \"M\",\n    rows: [\"....\", \"....\"],\n)";
    let outside = content_dir("outside", &[("maps/far.ron", "not read")]);
    let dir = content_dir("guarded", &[("maps/m.ron", map)]);
    let maps = dir.join("maps");
    // Two links back to the folder itself (a loop), one to a device and
    // one to a file outside the content folder: all passed over.
    symlink(".", maps.join("loop_a")).unwrap();
    symlink("..", maps.join("loop_b")).unwrap();
    symlink("/dev/zero", maps.join("zero.ron")).unwrap();
    symlink(outside.join("maps/far.ron"), maps.join("far.ron")).unwrap();
    let db = ContentDb::load(&dir).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(db.maps.len(), 1, "only m.ron");
    // A named pipe is no regular file: an error naming it, not a hang.
    let fifo = maps.join("pipe.ron");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if made.is_ok_and(|s| s.success()) {
        let errors = ContentDb::load(&dir).unwrap_err().0;
        let e = error_about(&errors, 1, "not a regular file");
        assert_eq!(e.file, fifo);
        std::fs::remove_file(&fifo).unwrap();
    }
    // A file past the size limit is an error naming the limit.
    let big = maps.join("big.ron");
    let f = std::fs::File::create(&big).unwrap();
    f.set_len(MAX_FILE_BYTES + 1).unwrap();
    let errors = ContentDb::load(&dir).unwrap_err().0;
    let e = error_about(&errors, 1, "at most");
    assert_eq!(e.file, big);
}

#[test]
fn maps_too_large_to_make_are_errors() {
    // A .tmx declaring 200,000 squares a side, in a few hundred bytes.
    let tmx = r#"<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" renderorder="right-down" width="200000" height="200000" tilewidth="64" tileheight="64" infinite="0" nextlayerid="2" nextobjectid="1">
 <layer id="1" name="ground" width="200000" height="200000">
  <data encoding="base64" compression="zlib">eJwDAAAAAAE=</data>
 </layer>
</map>"#;
    let dir = content_dir("hugetmx", &[("maps/huge.tmx", tmx)]);
    let errors = ContentDb::load(&dir).unwrap_err().0;
    let e = error_about(&errors, 1, "at most 256 on a side");
    assert!(e.message.contains("200000 x 200000"), "{e}");
    // A RON map one square too wide.
    let row = format!("\"{}\"", ".".repeat(crate::map::MAX_MAP_SIDE + 1));
    let map = format!("(\n    id: \"w\",\n    name: \"W\",\n    rows: [{row}],\n)");
    let dir = content_dir("widemap", &[("maps/w.ron", &map)]);
    let errors = ContentDb::load(&dir).unwrap_err().0;
    error_about(&errors, 1, "257 x 1 squares");
}

// Issue 51, point 1: an error is reported however an item's id is
// written (a raw string, an escape, a comment before it), at the best
// place known, and never dropped.
#[test]
fn errors_are_reported_however_an_id_is_written() {
    let monster = GOOD_MONSTER
        .replace("id: \"brute\"", "id: r\"brute\"")
        .replace("stamina: 20", "stamina: -5");
    let ability = GOOD_ABILITY
        .replace("id: \"slam\"", "id: /* the slam */ \"sl\\u{61}m\"")
        .replace("\"2 damage\"", "\"99999 + M damage; push 5000\"");
    let map = "(\n    id: r\"m\",\n    name: \"M\",\n    rows: [\"....\", \"..\"],\n)";
    let dir = content_dir(
        "ids",
        &[
            ("monsters/brute.ron", &monster),
            ("abilities/slam.ron", &ability),
            ("maps/m.ron", map),
        ],
    );
    let errors = ContentDb::load(&dir).unwrap_err().0;
    let text: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
    for (needle, file) in [
        ("monster `brute`", "monsters/brute.ron"),
        ("ability `slam`", "abilities/slam.ron"),
        ("map `m`", "maps/m.ron"),
    ] {
        let e = errors
            .iter()
            .find(|e| e.message.contains(needle))
            .unwrap_or_else(|| panic!("no error about {needle}: {text:#?}"));
        assert!(e.file.ends_with(file), "{e}");
        assert!(e.line >= 1 && e.column >= 1, "{e}");
    }
}

// Issue 51, point 1: NaN or infinite AI weights are errors (a tactical
// brain scoring with NaN played games that never ended).
#[test]
fn weights_that_are_not_finite_numbers_are_errors() {
    let weights = "(\n    damage: 1.0,\n    kill: NaN,\n    approach: -inf,\n)";
    let dir = content_dir(
        "nan",
        &[
            ("ai/tactical.ron", weights),
            ("abilities/a.ron", GOOD_ABILITY),
        ],
    );
    let errors = ContentDb::load(&dir).unwrap_err().0;
    let text: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
    for (name, line) in [("kill", 3), ("approach", 4)] {
        let e = errors
            .iter()
            .find(|e| {
                e.message
                    .contains(&format!("`{name}` is not a finite number"))
            })
            .unwrap_or_else(|| panic!("no error about {name}: {text:#?}"));
        assert_eq!(
            (e.file.file_name().unwrap(), e.line),
            ("tactical.ron".as_ref(), line),
            "{e}"
        );
    }
}

// Issue 51, point 1: an encounter file given to the simulator is
// validated as the content folder's are, with its errors located.
#[test]
fn an_encounter_file_from_outside_is_validated_as_the_folders_are() {
    let mut db = ContentDb::load(shipped_assets()).unwrap_or_else(|e| panic!("{e}"));
    let shipped =
        std::fs::read_to_string(shipped_assets().join("encounters/first_blood.ron")).unwrap();
    // The shipped file, as a copy elsewhere: accepted, replacing its twin.
    let dir = content_dir("outside-encounter", &[("same.ron", &shipped)]);
    assert_eq!(
        db.add_encounter_file(&dir.join("same.ron")).unwrap(),
        "first_blood"
    );
    // Overlapping creatures, one off the map, a hero of level 0 and an
    // unknown ruleset.
    let broken = shipped
        .replace("at: (1, 7)", "at: (2, 5), level: 0")
        .replace("at: (18, 9)", "at: (-2147483648, -2147483648)")
        .replace("\"power_roll\"", "\"no_such_rules\"");
    let dir = content_dir("broken-encounter", &[("broken.ron", &broken)]);
    let file = dir.join("broken.ron");
    let errors = db.add_encounter_file(&file).unwrap_err().0;
    let text: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
    for needle in [
        "overlaps",
        "level 0",
        "is not on open ground",
        "unknown ruleset id `no_such_rules`",
    ] {
        let e = errors
            .iter()
            .find(|e| e.message.contains(needle))
            .unwrap_or_else(|| panic!("no error about {needle}: {text:#?}"));
        assert_eq!(e.file, file, "{e}");
        assert!(e.line > 1, "located: {e}");
    }
}

/// A fury against the brute on the map `small`.
const SMALL_ENCOUNTER: &str = r#"(id: "e", name: "E", map: "small",
    heroes: [(class: "fury", name: "F", at: (0, 0))],
    monsters: [(monster: "brute", at: (1, 0))])"#;

#[test]
fn a_failed_file_is_reported_before_the_ids_it_would_have_defined() {
    let dir = content_dir(
        "root-first",
        &[
            ("abilities/a.ron", GOOD_ABILITY),
            ("monsters/m.ron", GOOD_MONSTER),
            // Truncated: the map `small` is lost.
            (
                "maps/small.ron",
                "(id: \"small\", name: \"Small\", rows: [\"..\"",
            ),
            ("encounters/e.ron", SMALL_ENCOUNTER),
        ],
    );
    let errors = ContentDb::load(&dir).unwrap_err().0;
    // The parse error, in a file sorting after the encounter, comes first.
    assert!(errors[0].file.ends_with("maps/small.ron"), "{errors:#?}");
    let unknown = errors
        .iter()
        .find(|e| {
            e.message
                .starts_with("encounter `e`: unknown map id `small`")
        })
        .unwrap_or_else(|| panic!("{errors:#?}"));
    assert!(
        unknown
            .message
            .contains("maps/small.ron, which failed to load"),
        "{}",
        unknown.message
    );
}

#[test]
fn a_byte_order_mark_is_not_content() {
    let dir = content_dir(
        "bom",
        &[
            ("abilities/a.ron", &format!("\u{feff}{GOOD_ABILITY}")),
            ("monsters/m.ron", &format!("\u{feff}{GOOD_MONSTER}")),
        ],
    );
    let db = ContentDb::load(&dir).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(db.monsters["brute"].abilities, ["slam"]);
}

#[test]
fn an_empty_folder_is_no_content() {
    let dir = content_dir("empty", &[("README.txt", "nothing here")]);
    let errors = ContentDb::load(&dir).unwrap_err().0;
    let e = error_about(&errors, 1, "no content found");
    assert!(e.message.contains("monsters/"), "{e}");
}

#[test]
fn a_folder_that_cannot_be_read_is_named_as_the_cause() {
    // `monsters` is a file where a folder was expected: it can't be listed
    // (as root, a folder without permissions still can).
    let dir = content_dir(
        "unreadable",
        &[
            ("abilities/a.ron", GOOD_ABILITY),
            ("monsters", "not a folder"),
            (
                "maps/small.ron",
                "(id: \"small\", name: \"Small\", rows: [\"..\", \"..\"])",
            ),
            ("encounters/e.ron", SMALL_ENCOUNTER),
        ],
    );
    let errors = ContentDb::load(&dir).unwrap_err().0;
    assert!(errors[0].file.ends_with("monsters"), "{errors:#?}");
    assert!(
        errors[0].message.contains("cannot read the folder"),
        "{errors:#?}"
    );
    let unknown = errors
        .iter()
        .find(|e| e.message.contains("unknown monster id `brute`"))
        .unwrap_or_else(|| panic!("{errors:#?}"));
    assert!(
        unknown.message.contains("monsters, which failed"),
        "{unknown}"
    );
}

#[test]
fn a_ragged_row_is_pointed_at_in_its_own_line() {
    let dir = content_dir(
        "ragged",
        &[(
            "maps/m.ron",
            "(\n  id: \"m\",\n  name: \"M\",\n  rows: [\n    \"...\",\n    \"...\",\n    \"....\",\n    \"...\",\n  ],\n)",
        )],
    );
    let errors = ContentDb::load(&dir).unwrap_err().0;
    let e = error_about(&errors, 1, "map row 3 has 4 squares");
    assert_eq!((e.line, e.column), (7, 6), "{e}");
}

// docs/rules.md#prepared-abilities: an ability "prepared" until
// concentration ends needs a concentration ability to prepare it; without
// one it would never expire. An error at load, at the field.
#[test]
fn preparing_for_concentration_needs_a_concentration_ability() {
    let abilities = r#"[
    (
        id: "focus",
        name: "Focus",
        action: Maneuver,
        distance: Myself,
        target: (kinds: [Myself]),
        effect: "prepare parry (concentration)",
    ),
    (
        id: "parry",
        name: "Parry",
        action: Maneuver,
        distance: Myself,
        target: (kinds: [Myself]),
    ),
]"#;
    let dir = content_dir("prepare", &[("abilities/a.ron", abilities)]);
    let errors = ContentDb::load(&dir).unwrap_err().0;
    let e = error_about(&errors, 1, "needs `concentration: true`");
    assert!(e.file.ends_with("abilities/a.ron"));
    assert_eq!(
        e.line, 3,
        "at the ability's id: it has no `concentration` field"
    );
    let fixed = abilities.replace(
        "        effect: \"prepare parry",
        "        concentration: true,\n        effect: \"prepare parry",
    );
    let dir = content_dir("prepare_ok", &[("abilities/a.ron", &fixed)]);
    if let Err(e) = ContentDb::load(&dir) {
        panic!("{:?}", e.0);
    }
}

// docs/rules.md#ability-tags: a trigger naming a tag no ability has would
// never fire (a slip of the keyboard), and a tag on a trigger that is not
// about an ability being used means nothing: both are errors at load.
#[test]
fn a_trigger_tag_must_name_a_tag_and_go_with_an_ability_being_used() {
    let ability = |id: &str, extra: &str| {
        format!(
            r#"(
        id: "{id}",
        name: "{id}",
        action: FreeReaction,
        distance: Ranged(5),
        target: (count: 1, kinds: [Enemy]),
        effect: "1 damage",
        {extra}
    ),"#
        )
    };
    let text = format!(
        "[\n    {}\n    {}\n    {}\n]",
        ability(
            "mend",
            r#"tags: ["Healing"], trigger: (on: SelfTargeted, tag: "Healing"),"#
        ),
        ability(
            "typo",
            r#"trigger: (on: CreatureStartsAbility, tag: "Healng"),"#
        ),
        ability(
            "moved",
            r#"trigger: (on: CreatureMovesAdjacent, tag: "Healing"),"#
        ),
    );
    let dir = content_dir("tags", &[("abilities/a.ron", &text)]);
    let errors = ContentDb::load(&dir).unwrap_err().0;
    let typo = error_about(
        &errors,
        2,
        "the tag `Healng`, which no ability has (tags: healing)",
    );
    let line = text.lines().position(|l| l.contains("\"Healng\"")).unwrap() + 1;
    assert_eq!(typo.line, line);
    error_about(&errors, 2, "not CreatureMovesAdjacent");
}

// docs/rules.md#loot: a map's treasure tile names the item it yields. An
// unknown id, an ability that is not an item, a tile off open ground and
// two tiles on one square are each an error at load, at its place.
#[test]
fn a_maps_treasure_items_are_checked_at_load() {
    let abilities = r#"[
    (
        id: "draught",
        name: "Draught",
        action: Maneuver,
        distance: Myself,
        target: (kinds: [Myself]),
        effect: "heal 3",
        uses: 1,
        item: true,
    ),
    (
        id: "jab",
        name: "Jab",
        action: MainAction,
        distance: Melee(1),
        target: (count: 1, kinds: [Enemy]),
        effect: "1 damage",
    ),
]"#;
    let map = r#"(
    id: "m",
    name: "M",
    rows: ["....", ".#.."],
    treasure: [
        (at: (0, 0), item: "draught"),
        (at: (1, 0), item: "jab"),
        (at: (2, 0), item: "no_such_item"),
        (at: (1, 1), item: "draught"),
        (at: (0, 0), item: "draught"),
    ],
)"#;
    let dir = content_dir(
        "treasure",
        &[("abilities/a.ron", abilities), ("maps/m.ron", map)],
    );
    let errors = ContentDb::load(&dir).unwrap_err().0;
    let line = |needle: &str| map.lines().position(|l| l.contains(needle)).unwrap() + 1;
    let not_item = error_about(&errors, 4, "`jab` is not an item");
    assert_eq!(not_item.line, line("\"jab\""));
    let unknown = error_about(&errors, 4, "unknown ability id `no_such_item`");
    assert_eq!(unknown.line, line("no_such_item"));
    error_about(&errors, 4, "treasure at (1, 1) is not on open ground");
    error_about(&errors, 4, "two treasure tiles at (0, 0)");
    // The good one alone loads, and the map holds it.
    let good = map
        .lines()
        .filter(|l| !l.contains("(at: (") || l.contains("(at: (0, 0), item: \"draught\"),"))
        .collect::<Vec<_>>();
    let mut seen = false;
    let good: String = good
        .into_iter()
        .filter(|l| {
            let dup = l.contains("(0, 0)") && seen;
            seen |= l.contains("(0, 0)");
            !dup
        })
        .collect::<Vec<_>>()
        .join("\n");
    let dir = content_dir(
        "treasure_ok",
        &[("abilities/a.ron", abilities), ("maps/m.ron", &good)],
    );
    let db = ContentDb::load(&dir).unwrap_or_else(|e| panic!("{e}"));
    let m = &db.maps["m"].map;
    assert_eq!(m.item_at(crate::map::Pos::new(0, 0)), Some("draught"));
    assert!(m.has_treasure(crate::map::Pos::new(0, 0)));
    assert!(!m.has_treasure(crate::map::Pos::new(1, 0)));
}

// docs/rules.md#creature-tags, #requirements: a target tag no class or
// monster bears would make the ability useless (a typo), and Stamina can't
// be a requirement (it is never missing): errors at load, at their place.
#[test]
fn target_tags_must_be_borne_and_requirements_can_be_missing() {
    let abilities = r#"[
    (
        id: "turn",
        name: "Turn",
        action: MainAction,
        distance: Burst(2),
        target: (kinds: [Enemy], tags: ["Undaed"]),
        effect: "1 damage",
    ),
    (
        id: "chop",
        name: "Chop",
        action: MainAction,
        distance: Melee(1),
        target: (count: 1, kinds: [Enemy]),
        requirements: [Hands, Stamina],
        effect: "1 damage",
    ),
]"#;
    let monsters = r#"[
    (
        id: "zombie",
        name: "Zombie",
        tags: ["Undead"],
        level: 1,
        role: Brute,
        speed: 5,
        stamina: 10,
        characteristics: (might: 1),
        free_strike: 2,
        abilities: ["chop"],
    ),
]"#;
    let dir = content_dir(
        "kinds",
        &[("abilities/a.ron", abilities), ("monsters/m.ron", monsters)],
    );
    let errors = ContentDb::load(&dir).unwrap_err().0;
    let typo = error_about(
        &errors,
        2,
        "tagged `Undaed`, which no class or monster is (tags: undead)",
    );
    let line = abilities
        .lines()
        .position(|l| l.contains("Undaed"))
        .unwrap()
        + 1;
    assert_eq!(typo.line, line);
    let stamina = error_about(&errors, 2, "a requirement is Hands or Standing");
    let line = abilities
        .lines()
        .position(|l| l.contains("requirements"))
        .unwrap()
        + 1;
    assert_eq!(stamina.line, line);
}

// docs/rules.md#objectives, docs/rules.md#reinforcements: an objective off
// the map, a reinforcement of an unknown stat block or on a wall, and a
// win-rate band that is no band are errors at load, located in the file.
#[test]
fn objectives_and_reinforcements_are_checked_at_load() {
    let mut db = ContentDb::load(shipped_assets()).unwrap_or_else(|e| panic!("{e}"));
    // (Its own band left out: the broken one gives another.)
    let shipped: String =
        std::fs::read_to_string(shipped_assets().join("encounters/first_blood.ron"))
            .unwrap()
            .lines()
            .filter(|l| !l.contains("heroes_win"))
            .map(|l| format!("{l}\n"))
            .collect();
    let end = shipped.rfind(')').unwrap();
    let broken = format!(
        "{}    objective: Hold(zone: (from: (2, 2), to: (40, 3)), rounds: 2),\n    \
         reinforcements: [(round: 2, monsters: [\n        (monster: \"no_such_beast\", at: (3, 3)),\n        \
         (monster: \"bandit\", at: (0, 0)),\n    ])],\n    heroes_win: (80, 20),\n)\n",
        &shipped[..end]
    );
    let dir = content_dir("broken-plan", &[("plan.ron", &broken)]);
    let file = dir.join("plan.ron");
    let errors = db.add_encounter_file(&file).unwrap_err().0;
    let text: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
    for needle in [
        "the zone's corner (40, 3) is off map",
        "unknown monster id `no_such_beast`",
        "reinforcement `Bandit` at (0, 0) is not on open ground",
        "heroes_win (80, 20)",
    ] {
        let e = errors
            .iter()
            .find(|e| e.message.contains(needle))
            .unwrap_or_else(|| panic!("no error about {needle}: {text:#?}"));
        assert!(e.line > 20, "located after the monsters: {e}");
    }
    // Survive for no rounds is no objective.
    let zero = shipped[..end].to_string() + "    objective: Survive(rounds: 0),\n)\n";
    let dir = content_dir("zero-rounds", &[("zero.ron", &zero)]);
    let errors = db.add_encounter_file(&dir.join("zero.ron")).unwrap_err().0;
    assert!(
        errors
            .iter()
            .any(|e| e.message.contains("at least 1 round")),
        "{errors:?}"
    );
}
