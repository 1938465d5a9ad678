//! Minion squads (docs/rules.md#minions: "Up to 8 minions form a squad that
//! takes one turn together and shares one stamina pool; each time the pool
//! loses a minion's stamina, one minion dies").

use super::*;

fn lackey(at: (i32, i32)) -> MonsterDef {
    MonsterDef {
        squad: Some(1),
        ..monster("bandit_lackey", at)
    }
}

/// The fury against a squad of three lackeys (4 stamina each).
fn squad_fight() -> Encounter {
    setup(
        vec![hero("fury", "Korva", (5, 3))],
        vec![lackey((6, 3)), lackey((7, 3)), lackey((6, 6))],
        3,
    )
}

fn dead(e: &mut Encounter) -> Vec<CreatureId> {
    e.creatures()
        .iter()
        .filter(|c| c.stamina.is_dead())
        .map(|c| c.id)
        .collect()
}

#[test]
fn a_squad_shares_one_pool_and_loses_a_minion_per_minions_worth() {
    let mut e = squad_fight();
    let (first, near, far) = (CreatureId(2), CreatureId(3), CreatureId(4));
    assert_eq!(
        e.squad(1).map(|p| (p.pool, p.max, p.per_minion)),
        Some((12, 12, 4))
    );
    assert_eq!(e.creature(first).unwrap().squad, Some(1));
    e.dice_mut().force([1]);
    start(&mut e, FURY);
    // Tier 2: 6 + Might 2 = 8 damage: two minions' worth. The one hit dies,
    // then the one nearest to it.
    e.dice_mut().force([6, 6]);
    slam(&mut e, first).unwrap();
    assert_eq!(e.squad(1).unwrap().pool, 4);
    assert_eq!(dead(&mut e), vec![first, near]);
    assert!(!e.creature(far).unwrap().stamina.is_dead());
    let lines = crate::scenario::log_lines(&mut e);
    assert!(
        lines
            .iter()
            .any(|l| l.contains("A minion of squad 1 falls (4 stamina left in the pool)")),
        "{lines:?}"
    );
}

#[test]
fn less_than_a_minions_worth_kills_nobody() {
    let mut e = squad_fight();
    e.dice_mut().force([1]);
    start(&mut e, FURY);
    e.apply(Command::FreeStrike {
        creature: FURY,
        target: CreatureId(2),
    })
    .unwrap();
    // A free strike of 2 + Might 2 = 4: exactly one minion.
    assert_eq!(e.squad(1).unwrap().pool, 8);
    assert_eq!(dead(&mut e), vec![CreatureId(2)]);
}

#[test]
fn a_squad_takes_one_turn_together() {
    let mut e = squad_fight();
    let (a, b, c) = (CreatureId(2), CreatureId(3), CreatureId(4));
    e.dice_mut().force([1]);
    start(&mut e, FURY);
    e.apply(Command::EndTurn { creature: FURY }).unwrap();
    start(&mut e, b);
    assert_eq!(e.flow().squad, vec![a, b, c]);
    // Every member acts in this turn, each with its own actions.
    let legal = e.legal_actions();
    for m in [a, b, c] {
        assert!(
            legal
                .iter()
                .any(|cmd| cmd.creature() == m && matches!(cmd, Command::Move { .. })),
            "{m} can move"
        );
    }
    e.dice_mut().force([3, 3]);
    e.apply(Command::use_ability(a, "lackey_shiv", vec![FURY]))
        .unwrap();
    e.apply(Command::Move {
        creature: c,
        path: vec![Pos::new(6, 6), Pos::new(6, 5), Pos::new(6, 4)].into(),
    })
    .unwrap();
    e.dice_mut().force([3, 3]);
    e.apply(Command::use_ability(c, "lackey_shiv", vec![FURY]))
        .unwrap();
    // One EndTurn ends the squad's turn; all three have acted.
    e.apply(Command::EndTurn { creature: b }).unwrap();
    let ended: Vec<CreatureId> = e
        .log()
        .iter()
        .filter_map(|l| match l {
            LogEntry::TurnEnded { creature, .. } => Some(*creature),
            _ => None,
        })
        .collect();
    assert_eq!(ended, vec![FURY, a, b, c]);
    assert_eq!(e.flow().round, 2, "nobody left: a new round");
}

// Content is checked at load: only minions form squads, at most 8 to one.
#[test]
fn squads_are_checked_at_load() {
    let dir = std::env::temp_dir().join(format!("skirmish-squads-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let assets = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets");
    for sub in ["rulesets", "classes", "abilities", "monsters", "maps"] {
        let to = dir.join(sub);
        std::fs::create_dir_all(&to).unwrap();
        for f in std::fs::read_dir(assets.join(sub)).unwrap() {
            let f = f.unwrap().path();
            std::fs::copy(&f, to.join(f.file_name().unwrap())).unwrap();
        }
    }
    std::fs::create_dir_all(dir.join("encounters")).unwrap();
    let nine: Vec<String> = (1..=9)
        .map(|x| format!("(monster: \"bandit_lackey\", squad: Some(2), at: ({x}, 9))"))
        .collect();
    std::fs::write(
        dir.join("encounters/bad.ron"),
        format!(
            "(id: \"bad\", name: \"Bad\", ruleset: \"power_roll\", map: \"ruined_hall\",
              heroes: [(class: \"fury\", name: \"K\", at: (2, 5))],
              monsters: [(monster: \"bandit\", squad: Some(1), at: (17, 2)), {}])",
            nine.join(", ")
        ),
    )
    .unwrap();
    let err = ContentDb::load(&dir).unwrap_err().to_string();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        err.contains("monster `Bandit` is in squad 1 but is not a minion"),
        "{err}"
    );
    assert!(err.contains("squad 2 has more than 8 minions"), "{err}");
    assert!(err.contains("bad.ron:"), "{err}");
}
