use std::path::Path;

use super::*;
use crate::ability::Cost;

fn shipped() -> ContentDb {
    ContentDb::load(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets"))
        .unwrap_or_else(|e| panic!("{e}"))
}

/// Costs of the heroic abilities among `ids` (signature and features left
/// out), sorted.
fn heroic_costs(ids: &[String], db: &ContentDb) -> Vec<u32> {
    let mut out: Vec<u32> = ids
        .iter()
        .filter_map(|id| match db.ability(id).map(|a| a.cost) {
            Some(Cost::Heroic(n)) => Some(n),
            _ => None,
        })
        .collect();
    out.sort_unstable();
    out
}

/// docs/rules.md#class-tables: every class at every level knows one ability
/// for each cost of its row's Abilities and subclass columns, its signature
/// abilities and features besides; no ability twice; the table never takes
/// back what a lower level had.
#[test]
fn every_class_at_every_level_follows_its_table() {
    let db = shipped();
    assert_eq!(db.classes.len(), 9);
    for class in db.classes.values() {
        assert!(!class.subclasses.is_empty(), "{} has no subclass", class.id);
        let mut before: Vec<String> = Vec::new();
        for level in 1..=MAX_LEVEL {
            let row = row(class, level).unwrap();
            for sub in &class.subclasses {
                let mut def = HeroDef::new(&class.id, "Test", (0, 0));
                def.level = level;
                def.subclass = Some(sub.id.clone());
                let b = build(&def, &db).unwrap_or_else(|e| panic!("{} {level}: {e}", class.id));
                let mut want: Vec<u32> =
                    row.abilities.iter().chain(&row.subclass).copied().collect();
                want.sort_unstable();
                // Features are known at every level, outside the columns.
                for f in &class.features {
                    assert!(b.abilities.contains(f), "{} {level} lacks {f}", class.id);
                }
                let placed: Vec<String> = b
                    .abilities
                    .iter()
                    .filter(|a| !class.features.contains(a))
                    .cloned()
                    .collect();
                assert_eq!(
                    heroic_costs(&placed, &db),
                    want,
                    "{} level {level} ({})",
                    class.id,
                    sub.id
                );
                let signature = b
                    .abilities
                    .iter()
                    .filter(|id| db.ability(id).unwrap().cost == Cost::Signature)
                    .count();
                assert!(signature >= 1, "{} has no signature ability", class.id);
                let mut unique = b.abilities.clone();
                unique.sort();
                unique.dedup();
                assert_eq!(
                    unique.len(),
                    b.abilities.len(),
                    "{} {level}: an ability twice",
                    class.id
                );
                let sub_costs = heroic_costs(
                    &b.abilities
                        .iter()
                        .filter(|a| sub.abilities.contains(a))
                        .cloned()
                        .collect::<Vec<_>>(),
                    &db,
                );
                let mut want_sub = row.subclass.clone();
                want_sub.sort_unstable();
                assert_eq!(sub_costs, want_sub, "{} {level}: subclass column", class.id);
                if sub.id == class.subclasses[0].id {
                    for a in &before {
                        assert!(b.abilities.contains(a), "{} {level} lost {a}", class.id);
                    }
                    before = b.abilities.clone();
                }
            }
        }
    }
}

/// docs/rules.md#class-tables: the seed's example, a 6th-level censor, has
/// "Signature, 3, 5, 7, 9" and subclass abilities costing 5 and 9.
#[test]
fn a_sixth_level_censor_has_the_seeds_columns() {
    let db = shipped();
    let censor = &db.classes["censor"];
    let r = row(censor, 6).unwrap();
    assert_eq!(r.abilities, vec![3, 5, 7, 9]);
    assert_eq!(r.subclass, vec![5, 9]);
    let mut def = HeroDef::new("censor", "Ansel", (0, 0));
    def.level = 6;
    let b = build(&def, &db).unwrap();
    assert_eq!(heroic_costs(&b.abilities, &db), vec![3, 5, 5, 7, 9, 9]);
}

/// docs/rules.md#class-tables: each class offers at least two abilities at
/// each of the costs 7, 9 and 11.
#[test]
fn each_class_offers_two_abilities_at_7_9_and_11() {
    let db = shipped();
    for class in db.classes.values() {
        let costs = heroic_costs(&class.abilities, &db);
        for c in [7, 9, 11] {
            assert!(
                costs.iter().filter(|&&x| x == c).count() >= 2,
                "{} has fewer than two abilities costing {c}",
                class.id
            );
        }
    }
}

/// docs/rules.md#levels-and-echelons: characteristics rise on entering the
/// second, third and fourth echelons, never past 5; stamina follows the
/// class's starting stamina and its gain a level.
#[test]
fn characteristics_rise_with_the_echelons() {
    let db = shipped();
    let fury = &db.classes["fury"];
    let at = |level| {
        let mut d = HeroDef::new("fury", "K", (0, 0));
        d.level = level;
        build(&d, &db).unwrap()
    };
    let (l1, l3, l4, l7, l10) = (at(1), at(3), at(4), at(7), at(10));
    assert_eq!(l1.characteristics, fury.characteristics);
    assert_eq!(l3.characteristics, l1.characteristics);
    assert_eq!(l4.characteristics.might, l1.characteristics.might + 1);
    assert_eq!(l7.characteristics.reason, l1.characteristics.reason + 1);
    assert_eq!(l7.characteristics.might, l1.characteristics.might + 2);
    assert_eq!(l10.characteristics.might, l1.characteristics.might + 3);
    assert_eq!(
        l10.stamina,
        fury.starting_stamina + 9 * fury.stamina_per_level
    );
    assert!(l10.recoveries > l1.recoveries);
    assert_eq!(
        (echelon(3), echelon(4), echelon(9), echelon(10)),
        (1, 2, 3, 4)
    );
    let mut capped = HeroDef::new("fury", "K", (0, 0));
    capped.level = 10;
    capped.characteristics = Some(crate::stats::Characteristics {
        might: 4,
        ..fury.characteristics
    });
    assert_eq!(
        build(&capped, &db).unwrap().characteristics.might,
        MAX_CHARACTERISTIC
    );
}

/// docs/rules.md#kits: a kit adds its stamina for each echelon, its speed,
/// and its damage and distance to the weapon abilities it fits; magic
/// abilities are untouched.
#[test]
fn a_kit_changes_stamina_speed_and_weapon_abilities() {
    let db = shipped();
    let mut plain = HeroDef::new("fury", "K", (0, 0));
    plain.level = 4;
    let mut kitted = plain.clone();
    kitted.kit = Some("panther".into());
    let (p, k) = (build(&plain, &db).unwrap(), build(&kitted, &db).unwrap());
    let panther = &db.kits["panther"];
    assert_eq!(k.stamina, p.stamina + 2 * panther.stamina);
    assert_eq!(k.speed, p.speed + panther.speed);
    assert!(k.abilities.contains(&"brutal_slam@panther".to_string()));
    let slam = db.ability("brutal_slam@panther").unwrap();
    let first = |a: &Ability, t: usize| {
        let tiers = &a.power_roll.as_ref().unwrap().tiers;
        match &[&tiers.0, &tiers.1, &tiers.2][t].effects[0] {
            Effect::Damage { base, .. } => *base,
            e => panic!("{e:?}"),
        }
    };
    let plain_slam = db.ability("brutal_slam").unwrap();
    for t in 0..3 {
        assert_eq!(first(slam, t), first(plain_slam, t) + 2);
    }
    assert_eq!(
        slam.power_roll.as_ref().unwrap().tiers.2.text,
        "11 + M damage; push 4"
    );
    let mut sniper = HeroDef::new("shadow", "S", (0, 0));
    sniper.kit = Some("sniper".into());
    let s = build(&sniper, &db).unwrap();
    assert!(s.abilities.contains(&"shadow_knives@sniper".to_string()));
    assert_eq!(
        db.ability("shadow_knives@sniper").unwrap().distance,
        Distance::Ranged(11)
    );
    // The melee signature is no ranged weapon ability: the sniper kit leaves it.
    assert!(s.abilities.contains(&"shadow_gut".to_string()));
    let mut caster = HeroDef::new("conduit", "C", (0, 0));
    caster.kit = Some("mountain".into());
    let c = build(&caster, &db).unwrap();
    assert!(c.abilities.contains(&"judgments_hammer".to_string()));
}

/// docs/rules.md#ancestries: each shipped ancestry's trait changes the build.
#[test]
fn each_ancestry_changes_the_build() {
    let db = shipped();
    assert!(db.ancestries.len() >= 6);
    let mut plain = HeroDef::new("null", "N", (0, 0));
    plain.level = 5;
    let p = build(&plain, &db).unwrap();
    for a in db.ancestries.values() {
        let mut d = plain.clone();
        d.ancestry = Some(a.id.clone());
        let b = build(&d, &db).unwrap();
        assert_ne!(b, p, "ancestry {} changes nothing", a.id);
    }
    let mut scaled = plain.clone();
    scaled.ancestry = Some("scaleborn".into());
    let b = build(&scaled, &db).unwrap();
    assert!(
        b.damage
            .immunities
            .contains(&(DamageFilter::Only(DamageType::Fire), Amount::Value(5)))
    );
}

/// Bad choices are refused with what is wrong.
#[test]
fn unknown_choices_are_named() {
    let db = shipped();
    let mut d = HeroDef::new("fury", "K", (0, 0));
    d.subclass = Some("berserker".into());
    assert!(
        build(&d, &db)
            .unwrap_err()
            .contains("no subclass `berserker`")
    );
    d.subclass = None;
    d.kit = Some("bazooka".into());
    assert!(
        build(&d, &db)
            .unwrap_err()
            .contains("unknown kit id `bazooka`")
    );
    d.kit = None;
    d.picks = vec!["fury_apex_predator".into()];
    assert!(build(&d, &db).unwrap_err().contains("fury_apex_predator"));
    d.level = 7;
    let b = build(&d, &db).unwrap();
    assert!(b.abilities.contains(&"fury_apex_predator".to_string()));
    d.level = 11;
    assert!(build(&d, &db).unwrap_err().contains("outside 1 to 10"));
}

/// A pick fills the place of its cost instead of the list's first.
#[test]
fn a_pick_takes_the_place_of_its_cost() {
    let db = shipped();
    let mut d = HeroDef::new("fury", "K", (0, 0));
    let default = build(&d, &db).unwrap();
    assert!(default.abilities.contains(&"fury_cleave".to_string()));
    d.picks = vec!["fury_blood_up".into()];
    let picked = build(&d, &db).unwrap();
    assert!(picked.abilities.contains(&"fury_blood_up".to_string()));
    assert!(!picked.abilities.contains(&"fury_cleave".to_string()));
}

/// docs/rules.md#villain-actions, #captains, #solo-turns: the shipped
/// monsters reach 10th level; every leader and solo has three villain
/// actions, each once an encounter; each echelon has minions that gain from
/// a captain; and the echelons each have an encounter whose heroes are of
/// that echelon.
#[test]
fn monsters_reach_tenth_level_with_captains_and_villain_actions() {
    use crate::ability::ActionType;
    use crate::content::Organization;
    let db = shipped();
    assert!(db.monsters.len() >= 68, "{} stat blocks", db.monsters.len());
    for level in 1..=10 {
        assert!(
            db.monsters.values().any(|m| m.level == level),
            "no monster of level {level}"
        );
    }
    for m in db.monsters.values() {
        let villain: Vec<&str> = m
            .abilities
            .iter()
            .filter(|a| db.ability(a).unwrap().action == ActionType::VillainAction)
            .map(String::as_str)
            .collect();
        let leads = matches!(m.organization, Organization::Leader | Organization::Solo);
        if leads {
            assert_eq!(villain.len(), 3, "{} has villain actions {villain:?}", m.id);
        }
        for v in villain {
            assert_eq!(db.ability(v).unwrap().uses, Some(1), "{v}");
        }
    }
    for ech in 1..=4 {
        assert!(
            db.monsters
                .values()
                .any(|m| m.with_captain.is_some() && crate::content::hero::echelon(m.level) == ech),
            "no captained minion in echelon {ech}"
        );
        assert!(
            db.encounters.values().any(|e| !e.heroes.is_empty()
                && e.heroes.iter().all(|h| echelon(h.level) == ech)
                && e.monsters.iter().any(|m| m.captain.is_some()
                    || m.monster.as_ref().is_some_and(|id| {
                        matches!(db.monsters[id].organization, Organization::Solo)
                    }))),
            "no encounter for echelon {ech} with a captain or a solo"
        );
    }
    assert!(db.monsters.values().any(|m| m.turns > 1));
}
