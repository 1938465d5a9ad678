//! docs/rules.md#charge "Active Bonuses": shields and retaliation, as round bonuses and
//! as persistent bonuses with charges.

use super::triggers::{db_with, open, stamina, with};
use super::*;
use crate::encounter::world;

const GUARD: &str = r#"(
    id: "guard", name: "Guard", keywords: [], action: Maneuver,
    distance: Myself, target: (count: Some(1), kinds: [Myself]),
    effect: Some("shield 2 (round); retaliate 1 (2 charges)"),
)"#;

const FURY_ID: CreatureId = CreatureId(1);
const BANDIT: CreatureId = CreatureId(2);

/// A fury with Guard beside a bandit; the fury guards, then the bandit acts.
fn guarded() -> Encounter {
    let db = db_with(&[GUARD]);
    let mut e = open(
        db,
        vec![with(hero("fury", "Korva", (2, 2)), &["guard"])],
        vec![monster("bandit", (3, 2))],
    );
    e.dice_mut().force([1]);
    start(&mut e, FURY_ID);
    e.apply(Command::use_ability(FURY_ID, "guard", vec![FURY_ID]))
        .unwrap();
    e.apply(Command::EndTurn { creature: FURY_ID }).unwrap();
    start(&mut e, BANDIT);
    e
}

// docs/rules.md#shield: "reduces any incoming attack value by X"; "Retaliate":
// "inflict X points of damage on figures who attack it from an adjacent hex
// for each attack made ... after the attack".
#[test]
fn a_shield_takes_damage_off_an_attack_and_retaliation_answers_it() {
    let mut e = guarded();
    let before = stamina(&mut e, FURY_ID);
    let bandit_before = stamina(&mut e, BANDIT);
    let log = e
        .apply(Command::FreeStrike {
            creature: BANDIT,
            target: FURY_ID,
        })
        .unwrap();
    // The bandit's free strike (its free strike value) less 2.
    let strike = e
        .world()
        .get::<FreeStrike>(world::entity_of(e.world(), BANDIT).unwrap())
        .unwrap()
        .0;
    assert_eq!(stamina(&mut e, FURY_ID), before - (strike - 2).max(0));
    assert!(log.contains(&LogEntry::Shielded {
        creature: FURY_ID,
        prevented: 2.min(strike)
    }));
    assert!(log.contains(&LogEntry::Retaliated {
        creature: FURY_ID,
        attacker: BANDIT,
        amount: 1
    }));
    assert_eq!(stamina(&mut e, BANDIT), bandit_before - 1);
}

// docs/rules.md#shield: "A shield bonus only applies to damage caused by an
// attack" — bleeding, collisions and the like go through.
#[test]
fn a_shield_does_not_stop_damage_that_is_not_an_attack() {
    let mut e = guarded();
    let before = stamina(&mut e, FURY_ID);
    let ent = world::entity_of(e.world(), FURY_ID).unwrap();
    resolve::deal_damage_for_test(e.world_mut(), ent, FURY_ID, 3);
    assert_eq!(stamina(&mut e, FURY_ID), before - 3);
}

// docs/rules.md#charge: round bonuses end with the round; a persistent bonus with
// charges is used up ("When the ability has been used once for each space
// on the card, remove the card").
#[test]
fn round_bonuses_end_with_the_round_and_charges_run_out() {
    let mut e = guarded();
    e.apply(Command::FreeStrike {
        creature: BANDIT,
        target: FURY_ID,
    })
    .unwrap();
    e.apply(Command::EndTurn { creature: BANDIT }).unwrap();
    // Round 2: the shield is gone; the retaliation has one use left.
    assert_eq!(e.flow().round, 2);
    let b = e
        .world()
        .get::<Bonuses>(world::entity_of(e.world(), FURY_ID).unwrap())
        .unwrap()
        .clone();
    assert_eq!(b.shield(), 0);
    assert_eq!(b.retaliation(1), 1);
    assert!(
        e.log()
            .iter()
            .any(|l| matches!(l, LogEntry::BonusEnded { creature, .. } if *creature == FURY_ID))
    );
    // Its last use, then it is gone.
    e.dice_mut().force([1]);
    start(&mut e, FURY_ID);
    e.apply(Command::EndTurn { creature: FURY_ID }).unwrap();
    start(&mut e, BANDIT);
    let log = e
        .apply(Command::FreeStrike {
            creature: BANDIT,
            target: FURY_ID,
        })
        .unwrap();
    assert!(log.iter().any(|l| matches!(l, LogEntry::Retaliated { .. })));
    let b = e
        .world()
        .get::<Bonuses>(world::entity_of(e.world(), FURY_ID).unwrap())
        .unwrap()
        .clone();
    assert!(b.0.is_empty());
}

// docs/rules.md#retaliate: "If the retaliating figure is killed or exhausted by
// the attack, then the retaliate does not activate."
#[test]
fn a_fallen_retaliator_does_not_retaliate() {
    let mut e = guarded();
    let ent = world::entity_of(e.world(), FURY_ID).unwrap();
    e.world_mut().get_mut::<Stamina>(ent).unwrap().current = 1;
    let log = e
        .apply(Command::FreeStrike {
            creature: BANDIT,
            target: FURY_ID,
        })
        .unwrap();
    assert!(!log.iter().any(|l| matches!(l, LogEntry::Retaliated { .. })));
}
