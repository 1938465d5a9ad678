//! The HUD's words, as pure functions over the engine's view: how
//! stamina, sides, conditions, whose turn it is and the end of a fight are
//! said. Tested here without a window.

use skirmish_rules::conditions::ConditionKind;
use skirmish_rules::encounter::Encounter;
use skirmish_rules::map::Side;
use skirmish_rules::map::{Cell, Material, Terrain};
use skirmish_rules::stats::{CreatureId, Health};

use crate::client::game::Mode;

/// A side as the top bar and the acting card name it.
pub fn side_name(side: Side) -> &'static str {
    match side {
        Side::Heroes => "Heroes",
        Side::Director => "Monsters",
    }
}

/// The top bar's words while `side` picks who acts: a person is told what
/// to do ("Heroes: click one of yours to act"), a brain's pick is described
/// ("Monsters choosing who acts").
pub fn picking(side: &str, person: bool) -> String {
    let how = pick_how(person);
    if person {
        format!("{side}: {how}")
    } else {
        format!("{side} {how}")
    }
}

/// What a person picking who acts is to do, or what a brain is doing.
pub fn pick_how(person: bool) -> &'static str {
    if person {
        "click one of yours to act"
    } else {
        "choosing who acts"
    }
}

/// What the acting card says while a side no one plays at this screen
/// picks its next creature: which side, and in a replay that it is one
/// (it read "The other side is choosing." in a replay and in a demo, where
/// neither side is the viewer's).
pub fn waiting_hint(mode: Mode, side: Option<Side>) -> String {
    let replay = if mode == Mode::Replay {
        "Replay · "
    } else {
        ""
    };
    match side {
        Some(side) => format!("{replay}{} choose who acts next.", side_name(side)),
        None => format!("{replay}The other side is choosing."),
    }
}

/// Stamina as the roster and the acting card show it, with temporary
/// stamina on top when there is any ("21/21 +6").
pub fn stamina_text(s: &skirmish_rules::stats::Stamina) -> String {
    if s.temporary > 0 {
        format!("{}/{} +{}", s.current, s.max, s.temporary)
    } else {
        format!("{}/{}", s.current, s.max)
    }
}

/// The stamina shown for a creature, with its label: a minion's squad's
/// pool (docs/rules.md#minions), anyone else's own with its temporary
/// stamina.
pub fn shown_stamina_text(c: &skirmish_rules::encounter::CreatureView) -> String {
    if c.pool.is_some() {
        let (now, most) = c.shown_stamina();
        format!("squad pool {now}/{most}")
    } else {
        format!("stamina {}", stamina_text(&c.stamina))
    }
}

/// A creature's conditions as words, each once however many effects imposed
/// it ("prone, grabbed"); `None` with none.
pub fn condition_words(c: &skirmish_rules::conditions::Conditions) -> Option<String> {
    let words: Vec<&str> = c.kinds().into_iter().map(|k| k.word()).collect();
    (!words.is_empty()).then(|| words.join(", "))
}

/// The end-of-fight summary: rounds, who fell, damage dealt per side.
pub fn summary(e: &Encounter) -> Vec<String> {
    // As the simulator's report counts it: each damage to whoever the
    // log says dealt it.
    let side_of = |id: CreatureId| e.creature(id).map(|c| c.side);
    let damage = skirmish_rules::sim::damage::DamageTally::of(e.log());
    let dealt = [Side::Heroes, Side::Director].map(|s| damage.dealt_by(s, side_of));
    let fallen = |side: Side| {
        e.creatures()
            .into_iter()
            .filter(|c| {
                c.side == side && matches!(c.stamina.health(), Health::Dead | Health::Dying)
            })
            .count()
    };
    let total = |side: Side| e.creatures().into_iter().filter(|c| c.side == side).count();
    // docs/rules.md#loot: loot and experience, per hero that gathered any.
    let gathered: Vec<String> = e
        .creatures()
        .into_iter()
        .filter(|c| c.side == Side::Heroes && c.summoned.is_none())
        .filter(|c| c.progress.loot > 0 || c.progress.experience > 0)
        .map(|c| {
            format!(
                "{}: {} coins · {} XP",
                c.name, c.progress.loot, c.progress.experience
            )
        })
        .collect();
    let mut lines = vec![
        format!("{} rounds", e.flow().round),
        format!(
            "Heroes: {} of {} fell · dealt {} damage",
            fallen(Side::Heroes),
            total(Side::Heroes),
            dealt[0]
        ),
        format!(
            "Monsters: {} of {} fell · dealt {} damage",
            fallen(Side::Director),
            total(Side::Director),
            dealt[1]
        ),
    ];
    lines.extend(gathered);
    lines
}

/// What a condition does, in a line (docs/rules.md#conditions, as the engine
/// applies them in `skirmish_rules::conditions`).
pub fn condition_meaning(kind: ConditionKind) -> &'static str {
    match kind {
        ConditionKind::Bleeding => {
            "loses 1d6 + level stamina after each main action, triggered action, or Might or Agility roll"
        }
        ConditionKind::Dazed => {
            "one thing a turn (a main action, a maneuver or a move); no triggered actions or free maneuvers"
        }
        ConditionKind::Frightened => {
            "a bane on rolls against its fear's source, whose rolls against it gain an edge"
        }
        ConditionKind::Grabbed => {
            "speed 0; a bane on abilities not aimed at the grabber; no Knockback"
        }
        ConditionKind::Prone => {
            "its strikes take a bane, melee against it gains an edge; moving costs a square more"
        }
        ConditionKind::Restrained => {
            "speed 0, can't stand up or be force moved; a bane on its rolls, an edge on rolls against it"
        }
        ConditionKind::Slowed => "speed 2 at most and can't shift",
        ConditionKind::Taunted => {
            "a double bane on abilities that don't target its taunter, while it can see it"
        }
        ConditionKind::Weakened => "a bane on its power rolls",
        ConditionKind::CantStand => "can't stand up",
    }
}

/// What a square's terrain, object, height and treasure do, a line each
/// (nothing for plain floor).
pub fn terrain_words(cell: Cell) -> Vec<String> {
    let mut out = Vec::new();
    if cell.raised_wall {
        out.push("Raised wall: blocks movement and line of effect".to_string());
    }
    if let Some(o) = cell.object {
        let what = match o.material {
            Material::Wood => "Wooden object",
            Material::Stone => "Stone object",
            Material::Glass => "Glass object",
            Material::Metal => "Metal object",
        };
        out.push(format!(
            "{what}: blocks movement; a creature forced into it takes collision damage and may break it"
        ));
    }
    match cell.terrain {
        Terrain::Floor => {}
        Terrain::Wall => out.push("Wall: blocks movement and line of effect".into()),
        Terrain::Difficult => out.push("Difficult ground: costs 1 extra square to enter".into()),
        Terrain::Pit(d) => out.push(format!(
            "Pit, {d} deep: a creature moved into it falls and takes damage; a narrow one can be jumped, and fliers cross it"
        )),
        Terrain::Ledge(d) => out.push(format!(
            "Ledge, a {d}-square drop: a creature moved off it falls"
        )),
        Terrain::Water => out.push(
            "Deep water: 1 extra square to swim into (none for swimmers and fliers); no crawling in"
                .into(),
        ),
        Terrain::Hazard {
            damage,
            damage_type,
        } => out.push(format!(
            "Hazard: {damage} {} damage to a creature that enters or starts its turn here",
            format!("{damage_type:?}").to_lowercase()
        )),
    }
    if cell.elevation > 0 {
        out.push(format!(
            "High ground ({}): an edge on strikes against creatures below",
            cell.elevation
        ));
    }
    if cell.treasure > 0 {
        out.push(format!(
            "Treasure: {} coins, looted by a hero who ends a turn here",
            cell.treasure
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use skirmish_rules::ai;

    // Temporary stamina was invisible in the roster: a fury at 21/21 with 6
    // temporary took 3 damage and still read 21/21 (the engine's
    // `Stamina::take_damage` spends temporary stamina first).
    #[test]
    fn the_roster_shows_temporary_stamina_until_it_is_spent() {
        use skirmish_rules::stats::{LifeRule, Stamina};
        let mut s = Stamina::new(21, 8, LifeRule::Hero);
        assert_eq!(stamina_text(&s), "21/21");
        s.gain_temporary(6);
        assert_eq!(stamina_text(&s), "21/21 +6");
        s.take_damage(3);
        assert_eq!(stamina_text(&s), "21/21 +3");
        s.take_damage(5);
        assert_eq!(stamina_text(&s), "19/21");
    }

    // Between turns the acting card names the side picking (in a replay or
    // a demo neither side is "the other side").
    #[test]
    fn between_turns_the_card_names_the_side_choosing() {
        assert_eq!(
            waiting_hint(Mode::Replay, Some(Side::Director)),
            "Replay · Monsters choose who acts next."
        );
        assert_eq!(
            waiting_hint(Mode::Demo, Some(Side::Heroes)),
            "Heroes choose who acts next."
        );
        assert_eq!(
            waiting_hint(Mode::Solo, None),
            "The other side is choosing."
        );
    }

    #[test]
    fn the_summary_counts_the_fallen() {
        let (result, e) = crate::client::greedy_keep_breach(3);
        let s = summary(&e);
        assert_eq!(s[0], format!("{} rounds", e.flow().round));
        let loser = match result.winner.unwrap() {
            Side::Heroes => Side::Director,
            Side::Director => Side::Heroes,
        };
        let all = e
            .creatures()
            .into_iter()
            .filter(|c| c.side == loser)
            .count();
        let line = if loser == Side::Heroes { &s[1] } else { &s[2] };
        // docs/rules.md#collisions "Victory": a side wins when every enemy is down.
        assert!(line.contains(&format!("{all} of {all} fell")), "{line}");
    }

    // Issue 51, point 5: "The window's summary, the simulator's report and
    // the log give the same damage for the same game", over a replay of a
    // game of every shipped encounter.
    #[test]
    fn the_summary_the_report_and_the_log_agree_on_damage() {
        use skirmish_rules::encounter::Replay;
        let db = crate::client::shipped_content();
        for id in db.encounters.keys() {
            let (result, played) = skirmish_rules::sim::play_with(
                &db,
                id,
                5,
                ai::by_name("greedy", 1, &db).unwrap(),
                ai::by_name("greedy", 2, &db).unwrap(),
                600,
            )
            .unwrap();
            let replay = Replay::from_ron(&played.replay().to_ron()).unwrap();
            let mut e = replay.play(db.clone()).unwrap();
            // The simulator's report, per side.
            let report = |per: &std::collections::BTreeMap<String, i64>, side: Side| -> i64 {
                per.iter()
                    .filter(|(name, _)| result.sides.get(*name) == Some(&side))
                    .map(|(_, n)| n)
                    .sum()
            };
            // The window's summary, per side.
            let s = summary(&e);
            let shown = |line: &str| -> i64 {
                let n = line.rsplit("dealt ").next().unwrap();
                n.trim_end_matches(" damage").parse().unwrap()
            };
            assert_eq!(
                shown(&s[1]),
                report(&result.dealt, Side::Heroes),
                "{id}: {s:?}"
            );
            assert_eq!(
                shown(&s[2]),
                report(&result.dealt, Side::Director),
                "{id}: {s:?}"
            );
            // The log as printed: "X takes N ... damage", per side taking it.
            let sides: std::collections::BTreeMap<String, Side> = e
                .creatures()
                .into_iter()
                .map(|c| (c.name, c.side))
                .collect();
            let mut logged = [0i64; 2];
            for line in skirmish_rules::scenario::log_lines(&mut e) {
                let Some((who, rest)) = line.split_once(" takes ") else {
                    continue;
                };
                if !rest.contains("damage") {
                    continue;
                }
                let n: i64 = rest.split(' ').next().unwrap().parse().unwrap();
                logged[usize::from(sides[who] == Side::Director)] += n;
            }
            assert_eq!(logged[0], report(&result.taken, Side::Heroes), "{id}");
            assert_eq!(logged[1], report(&result.taken, Side::Director), "{id}");
            assert!(logged[0] + logged[1] > 0, "{id}: no damage at all");
        }
    }

    #[test]
    fn the_roster_names_each_condition_once() {
        use skirmish_rules::conditions::{
            ActiveCondition, ConditionKind as K, Conditions, Duration,
        };
        let on = |kind, ability: &str| ActiveCondition {
            kind,
            duration: Duration::SaveEnds,
            source: None,
            ability: Some(ability.into()),
            save_shift: Default::default(),
        };
        let mut c = Conditions::default();
        assert_eq!(condition_words(&c), None);
        // docs/rules.md#stacking: two effects imposing prone
        // are both tracked; the creature is prone once.
        c.apply(on(K::Prone, "knockback"));
        c.apply(on(K::Grabbed, "grab"));
        c.apply(on(K::Prone, "brutal_slam"));
        assert_eq!(c.list.len(), 3);
        assert_eq!(condition_words(&c).as_deref(), Some("grabbed, prone"));
    }

    // The top bar between turns reads as a sentence either way.
    #[test]
    fn the_pick_line_tells_a_person_what_to_do_and_describes_a_brain() {
        assert_eq!(picking("Heroes", true), "Heroes: click one of yours to act");
        assert_eq!(picking("Monsters", false), "Monsters choosing who acts");
    }

    // Issue 49, point 6: hovering terrain says what it does.
    #[test]
    fn terrain_says_what_it_does() {
        use skirmish_rules::map::MapObject;
        assert!(terrain_words(Cell::default()).is_empty());
        let pit = Cell {
            terrain: Terrain::Pit(2),
            ..Cell::default()
        };
        assert_eq!(
            terrain_words(pit),
            vec![
                "Pit, 2 deep: a creature moved into it falls and takes damage; a narrow one can be jumped, and fliers cross it"
            ]
        );
        let water = Cell {
            terrain: Terrain::Water,
            ..Cell::default()
        };
        assert!(terrain_words(water)[0].starts_with("Deep water: 1 extra square"));
        let crate_on_hill = Cell {
            object: Some(MapObject {
                material: Material::Wood,
                size: 1,
            }),
            elevation: 1,
            treasure: 5,
            ..Cell::default()
        };
        let words = terrain_words(crate_on_hill);
        assert_eq!(words.len(), 3, "{words:?}");
        assert!(words[0].starts_with("Wooden object"));
        assert!(words[1].starts_with("High ground (1)"));
        assert!(words[2].contains("5 coins"));
        let fire = Cell {
            terrain: Terrain::Hazard {
                damage: 3,
                damage_type: skirmish_rules::stats::DamageType::Fire,
            },
            ..Cell::default()
        };
        assert!(terrain_words(fire)[0].contains("3 fire damage"));
    }
}
