//! Issue 54, point 5: an encounter built through the builder's own
//! commands, saved, loaded back as the content folder's are, and played.

use std::sync::Arc;

use skirmish_rules::content::ContentDb;
use skirmish_rules::content::builder::{BuildCommand, BuildError, Builder, SaveError, Who};
use skirmish_rules::content::encounter::{Objective as Goal, Zone};
use skirmish_rules::encounter::Encounter;
use skirmish_rules::sim::{SimConfig, simulate};

fn assets() -> std::path::PathBuf {
    concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets").into()
}

fn temp(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("skirmish-builder-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

#[test]
fn a_built_encounter_saves_reloads_and_plays() {
    let db = ContentDb::load(assets()).unwrap();
    let mut b = Builder::new(&db, "Crypt Ambush", "bone_crypt");
    use BuildCommand::*;
    for cmd in [
        AddHero {
            class: "censor".into(),
            name: "Dame Ysolde".into(),
        },
        AddHero {
            class: "shadow".into(),
            name: "Vex".into(),
        },
        AddHero {
            class: "talent".into(),
            name: "Mira".into(),
        },
        AddHero {
            class: "tactician".into(),
            name: "Captain Orr".into(),
        },
        AddMonster {
            monster: "bandit".into(),
            squad: None,
        },
        AddMonster {
            monster: "bandit_lackey".into(),
            squad: Some(1),
        },
        AddMonster {
            monster: "bandit_lackey".into(),
            squad: Some(1),
        },
        Objective(Goal::Survive { rounds: 4 }),
        AddReinforcement {
            round: 2,
            monster: "bandit_archer".into(),
            at: (0, 0),
        },
    ] {
        // (A reinforcement on a wall is refused; placed below.)
        let _ = b.apply(&db, cmd);
    }
    assert_eq!(b.def.heroes.len(), 4);
    assert_eq!(b.def.monsters.len(), 3);
    assert!(
        b.def.reinforcements.is_empty(),
        "a wall square was accepted"
    );
    // The builder places on open squares only, and never two on one.
    let map = &db.maps["bone_crypt"].map;
    let open = (0..map.height)
        .flat_map(|y| (0..map.width).map(move |x| (x, y)))
        .find(|&(x, y)| {
            map.footprint_open(skirmish_rules::map::Footprint::single(
                skirmish_rules::map::Pos::new(x, y),
            )) && !b.def.heroes.iter().any(|h| h.at == (x, y))
                && !b.def.monsters.iter().any(|m| m.at == (x, y))
        })
        .unwrap();
    b.apply(
        &db,
        AddReinforcement {
            round: 2,
            monster: "bandit_archer".into(),
            at: open,
        },
    )
    .unwrap();
    let hero_square = b.def.heroes[0].at;
    assert!(matches!(
        b.apply(&db, Place(Who::Monster(0), hero_square)),
        Err(BuildError::Taken(_))
    ));
    assert!(matches!(
        b.apply(
            &db,
            AddHero {
                class: "wizard".into(),
                name: "X".into()
            }
        ),
        Err(BuildError::Unknown { what: "class", .. })
    ));
    assert!(
        b.apply(
            &db,
            AddMonster {
                monster: "bandit".into(),
                squad: Some(2)
            }
        )
        .is_err()
    );
    assert!(
        b.apply(
            &db,
            Objective(Goal::Hold {
                zone: Zone {
                    from: (0, 0),
                    to: (99, 99)
                },
                rounds: 2
            })
        )
        .is_err()
    );

    // Saved under the user's folder, in the shipped format.
    let dir = temp("save");
    let file = b.save(&db, &dir, false).unwrap();
    assert_eq!(file, dir.join("crypt_ambush.ron"));
    // Never over an existing file without asking; with asking, yes.
    assert!(matches!(
        b.save(&db, &dir, false),
        Err(SaveError::Exists(_))
    ));
    b.save(&db, &dir, true).unwrap();
    // Never a shipped encounter's id.
    let mut shadow = b.clone();
    shadow.apply(&db, Name("First Blood".into())).unwrap();
    assert!(matches!(
        shadow.save(&db, &dir, true),
        Err(SaveError::Shipped(_))
    ));

    // Loaded back as the folder's encounters are: the same encounter.
    let mut db = db;
    let id = db
        .add_encounter_file(&file)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(id, "crypt_ambush");
    assert_eq!(db.encounters[&id], b.def);

    // And played, greedy against greedy, to its end.
    let db = Arc::new(db);
    Encounter::new(db.clone(), &id, 1).unwrap();
    let mut cfg = SimConfig::new(&id, "greedy", "greedy", 6, 1);
    cfg.jobs = 2;
    let report = simulate(db, &cfg, &|_, _| {}).unwrap();
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    assert_eq!(report.draws, 0, "every game ended");
    assert!(report.rounds_max <= 4, "Survive 4 rounds ends by round 4");
    if std::env::var_os("KEEP").is_none() {
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn a_draft_with_nobody_is_not_saved() {
    let db = ContentDb::load(assets()).unwrap();
    let b = Builder::new(&db, "Empty", "tavern");
    let dir = temp("empty");
    assert!(matches!(
        b.save(&db, &dir, false),
        Err(SaveError::NotReady(_))
    ));
    assert!(!dir.join("empty.ron").exists());
}

/// Issue 56, point 1: a hero's level, subclass, kit and ancestry are set in
/// the builder, checked against the content (docs/rules.md#class-tables,
/// #kits, #ancestries), saved and read back.
#[test]
fn the_builder_sets_a_heros_level_subclass_kit_and_ancestry() {
    use skirmish_rules::content::builder::HeroChoice;
    let db = ContentDb::load(assets()).unwrap();
    let mut b = Builder::new(&db, "Wyrm Hunt", "wyrm_lair");
    use BuildCommand::*;
    b.apply(
        &db,
        AddHero {
            class: "fury".into(),
            name: "Korva".into(),
        },
    )
    .unwrap();
    b.apply(
        &db,
        AddMonster {
            monster: "cinder_wyrm".into(),
            squad: None,
        },
    )
    .unwrap();
    for choice in [
        HeroChoice::Level(8),
        HeroChoice::Subclass(Some("reaver".into())),
        HeroChoice::Kit(Some("panther".into())),
        HeroChoice::Ancestry(Some("hillkin".into())),
        HeroChoice::Victories(5),
    ] {
        b.apply(&db, Hero(0, choice)).unwrap();
    }
    for (bad, why) in [
        (HeroChoice::Level(11), "outside 1 to 10"),
        (HeroChoice::Level(0), "outside 1 to 10"),
        (
            HeroChoice::Subclass(Some("berserker".into())),
            "no subclass",
        ),
        (HeroChoice::Kit(Some("bazooka".into())), "unknown kit"),
        (
            HeroChoice::Ancestry(Some("martian".into())),
            "unknown ancestry",
        ),
    ] {
        let err = b.apply(&db, Hero(0, bad)).unwrap_err();
        assert!(
            matches!(&err, BuildError::Invalid(m) if m.contains(why)),
            "{err}"
        );
    }
    assert!(b.apply(&db, Hero(3, HeroChoice::Level(2))).is_err());
    let h = &b.def.heroes[0];
    assert_eq!(
        (
            h.level,
            h.subclass.as_deref(),
            h.kit.as_deref(),
            h.ancestry.as_deref()
        ),
        (8, Some("reaver"), Some("panther"), Some("hillkin"))
    );
    let dir = temp("levels");
    let file = b.save(&db, &dir, false).unwrap();
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(
        text.contains("level: 8") && text.contains("kit: \"panther\""),
        "{text}"
    );
    let mut db2 = db.clone();
    let id = db2.add_encounter_file(&file).unwrap();
    assert_eq!(db2.encounters[&id].heroes[0], b.def.heroes[0]);
    let _ = std::fs::remove_dir_all(&dir);
}
