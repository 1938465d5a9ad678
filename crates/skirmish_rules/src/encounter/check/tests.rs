//! The check's rules, and its agreement with the listing: whatever the
//! listing offers, the check accepts.

use super::*;
use crate::conditions::{ActiveCondition, ConditionKind, Duration};
use crate::content::ContentDb;
use crate::encounter::Encounter;
use std::sync::Arc;

fn with(kinds: &[ConditionKind]) -> Conditions {
    let mut c = Conditions::default();
    for &kind in kinds {
        c.list.push(ActiveCondition {
            kind,
            duration: Duration::EndOfTurn,
            source: Some(CreatureId(9)),
            ability: None,
            save_shift: Default::default(),
        });
    }
    c
}

fn full() -> TurnBudget {
    TurnBudget {
        main: true,
        maneuver: true,
        move_action: true,
        ..Default::default()
    }
}

// docs/rules.md#actions-on-a-turn: one main action, one maneuver and one
// move action; the main action may be spent as a second maneuver or move.
#[test]
fn the_main_action_stands_in_for_a_second_maneuver_or_move() {
    let none = Conditions::default();
    let b = action(&full(), &none, ActionType::Maneuver).unwrap();
    assert!(!b.maneuver && b.main);
    let b = action(&b, &none, ActionType::Maneuver).unwrap();
    assert!(!b.main, "the second maneuver takes the main action");
    assert_eq!(
        action(&b, &none, ActionType::Maneuver),
        Err(Refusal::ManeuverUsed)
    );
    assert_eq!(
        action(&b, &none, ActionType::MainAction),
        Err(Refusal::MainActionUsed)
    );
    let b = action(&b, &none, ActionType::MoveAction).unwrap();
    assert_eq!(
        action(&b, &none, ActionType::MoveAction),
        Err(Refusal::MoveActionUsed)
    );
    // Triggered, passive and episodic abilities are not taken as actions.
    for kind in [
        ActionType::TriggeredAction,
        ActionType::Passive,
        ActionType::Episodic,
    ] {
        assert!(matches!(
            action(&full(), &none, kind),
            Err(Refusal::Unsupported(_))
        ));
    }
}

// docs/rules.md#conditions: a dazed creature takes one action a turn.
#[test]
fn a_dazed_creature_takes_one_action() {
    let dazed = with(&[ConditionKind::Dazed]);
    let b = action(&full(), &dazed, ActionType::MoveAction).unwrap();
    assert!(b.dazed_done);
    for kind in [
        ActionType::MainAction,
        ActionType::Maneuver,
        ActionType::MoveAction,
    ] {
        assert_eq!(action(&b, &dazed, kind), Err(Refusal::Dazed));
    }
}

// docs/rules.md#conditions "Dazed": "can't use ... free maneuvers", its one
// thing taken or not; what takes no action is not its one thing.
#[test]
fn a_dazed_creature_uses_no_free_maneuver_but_what_takes_no_action() {
    let dazed = with(&[ConditionKind::Dazed]);
    let none = with(&[]);
    let used = action(&full(), &dazed, ActionType::MainAction).unwrap();
    for b in [full(), used] {
        assert_eq!(
            action(&b, &dazed, ActionType::FreeManeuver),
            Err(Refusal::DazedFreeManeuver)
        );
        for kind in [ActionType::NoAction, ActionType::FreeAction] {
            assert_eq!(action(&b, &dazed, kind), Ok(b));
        }
    }
    assert_eq!(action(&full(), &none, ActionType::FreeManeuver), Ok(full()));
}

// docs/rules.md#free-actions: "A 'Free Action' can only be used on your
// Turn, but does not cost a Beat": the budget is untouched, however often.
#[test]
fn a_free_action_costs_nothing() {
    let none = with(&[]);
    let mut b = full();
    for _ in 0..3 {
        b = action(&b, &none, ActionType::FreeAction).unwrap();
    }
    assert_eq!(b, full());
    let spent = action(&full(), &none, ActionType::MainAction).unwrap();
    assert_eq!(action(&spent, &none, ActionType::FreeAction), Ok(spent));
}

// docs/rules.md#critical-hit: the extra main action comes "even if you are
// dazed", and does not count as the dazed creature's one thing; spent as
// a maneuver instead, it is gone.
#[test]
fn a_critical_hit_s_main_action_is_taken_even_dazed() {
    let dazed = with(&[ConditionKind::Dazed]);
    let used = action(&full(), &dazed, ActionType::MainAction).unwrap();
    assert_eq!(
        action(&used, &dazed, ActionType::MainAction),
        Err(Refusal::Dazed)
    );
    let crit = TurnBudget {
        main: true,
        critical_main: true,
        ..used
    };
    let after = action(&crit, &dazed, ActionType::MainAction).unwrap();
    assert!(!after.main && !after.critical_main);
    assert_eq!(
        action(&after, &dazed, ActionType::MainAction),
        Err(Refusal::Dazed)
    );
    // Not dazed: the extra main action spent as a second maneuver is gone.
    let none = Conditions::default();
    let crit = TurnBudget {
        main: true,
        maneuver: false,
        critical_main: true,
        ..full()
    };
    let converted = action(&crit, &none, ActionType::Maneuver).unwrap();
    assert!(!converted.main && !converted.critical_main);
    assert_eq!(
        action(&converted, &none, ActionType::MainAction),
        Err(Refusal::MainActionUsed)
    );
}

// docs/rules.md#basic-actions: stand up (not when restrained), catch
// breath (heroes with recoveries, not dying), escape a grab.
#[test]
fn the_basic_maneuvers_ask_for_their_conditions() {
    assert_eq!(can_stand(&Conditions::default()), Err(Refusal::NotProne));
    assert_eq!(can_stand(&with(&[ConditionKind::Prone])), Ok(()));
    assert!(matches!(
        can_stand(&with(&[ConditionKind::Prone, ConditionKind::Restrained])),
        Err(Refusal::CannotStand(_))
    ));
    assert!(matches!(
        can_stand(&with(&[ConditionKind::Prone, ConditionKind::CantStand])),
        Err(Refusal::CannotStand(_))
    ));
    assert_eq!(
        can_escape(&with(&[ConditionKind::Grabbed])),
        Ok(CreatureId(9))
    );
    assert_eq!(can_escape(&Conditions::default()), Err(Refusal::NotGrabbed));
    let mut s = Stamina::new(20, 5, crate::stats::LifeRule::Hero);
    s.current = 10;
    assert_eq!(can_catch_breath(&s, true), Ok(()));
    assert!(can_catch_breath(&s, false).is_err(), "only heroes");
    s.recoveries = 0;
    assert!(can_catch_breath(&s, true).is_err(), "no recoveries left");
    s.recoveries = 2;
    s.current = -1;
    assert!(can_catch_breath(&s, true).is_err(), "dying");
}

// docs/rules.md#distances-and-targets: within reach (the user always is),
// a line of effect but at a true distance; docs/rules.md#basic-actions: a
// hidden enemy is targeted only from beside it.
#[test]
fn targets_are_within_reach_in_sight_and_not_hidden() {
    assert!(in_reach(false, 3, 3) && !in_reach(false, 4, 3));
    assert!(in_reach(true, 9, 0));
    assert!(needs_line_of_effect(false, false));
    assert!(!needs_line_of_effect(false, true) && !needs_line_of_effect(true, false));
    assert!(hidden_from(false, 2, true));
    assert!(!hidden_from(false, 1, true), "found from beside it");
    assert!(!hidden_from(true, 5, true), "allies see it");
    assert!(!hidden_from(false, 5, false));
    assert_eq!(reach_of(crate::ability::Distance::Myself), 0);
    assert!(free_strike_reaches(1) && !free_strike_reaches(2));
}

/// A small generator for the picks below (the encounter's own dice stay
/// the encounter's).
fn next(state: &mut u64) -> u64 {
    *state = state
        .wrapping_mul(6_364_136_223_846_793_005)
        .wrapping_add(1_442_695_040_888_963_407);
    *state >> 33
}

// The listing and the check share their rules: every command listed at
// every step of random games on every shipped encounter passes the check.
#[test]
fn the_check_accepts_everything_the_listing_offers() {
    let db = Arc::new(
        ContentDb::load(concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets")).expect("content"),
    );
    let mut checked = 0usize;
    for id in db.encounters.keys() {
        for seed in [3u64, 4] {
            let mut e = Encounter::new(db.clone(), id, seed).expect("a shipped encounter");
            let mut pick = seed;
            for _ in 0..400 {
                if e.outcome().is_some() {
                    break;
                }
                let legal = e.legal_actions();
                if legal.is_empty() {
                    break;
                }
                let phase = *e
                    .world()
                    .resource::<bevy_state::state::State<Phase>>()
                    .get();
                for cmd in &legal {
                    let r = command(e.world(), cmd, phase);
                    assert!(
                        r.is_ok(),
                        "{id} seed {seed}: listed {cmd:?} refused: {:?}",
                        r.err()
                    );
                    checked += 1;
                }
                let cmd = legal[next(&mut pick) as usize % legal.len()].clone();
                e.perform(cmd).expect("a listed command is carried out");
            }
        }
    }
    assert!(checked > 10_000, "only {checked} commands checked");
}
