//! The greedy brain's choices (issue #6 point 2: "one step ahead on
//! expected value ... focus the weakest reachable enemy, use areas to hit
//! several, avoid provoking opportunity attacks, keep ranged creatures out
//! of adjacency"), on encounters built here.

use super::triggers::{db_with, open, with};
use super::*;
use crate::ai::score::{Scorer, Weights, choose};
use crate::map::{Footprint, Side};

const BANDIT: CreatureId = CreatureId(2);
const OTHER_BANDIT: CreatureId = CreatureId(3);

fn greedy_score(e: &Encounter, cmd: &Command) -> f64 {
    Scorer::new(e, &Weights::greedy(), Side::Heroes).score(cmd)
}

fn wound(e: &mut Encounter, id: CreatureId, to: i32) {
    let ent = act::entity_of(e.world_mut(), id).unwrap();
    e.world_mut().get_mut::<Stamina>(ent).unwrap().current = to;
}

#[test]
fn greedy_strikes_the_weakest_enemy_in_reach() {
    // Two bandits next to the fury, the one to the west nearly down.
    for wounded in [BANDIT, OTHER_BANDIT] {
        let mut e = open(
            db_with(&[]),
            vec![hero("fury", "Korva", (4, 2))],
            vec![monster("bandit", (5, 2)), monster("bandit", (3, 2))],
        );
        wound(&mut e, wounded, 6);
        start(&mut e, FURY);
        let legal = e.legal_actions();
        let chosen = choose(&e, &legal, &Weights::greedy());
        let target = match &chosen {
            Command::UseAbility { targets, .. } => targets.first().copied(),
            Command::FreeStrike { target, .. } => Some(*target),
            _ => None,
        };
        assert_eq!(target, Some(wounded), "{chosen:?}");
    }
}

const STAB: &str = r#"(id: "stab", name: "Stab", keywords: [Melee, Strike, Weapon],
    action: MainAction, distance: Melee(1), target: (count: Some(1), kinds: [Enemy]),
    power_roll: Some((characteristics: [Might], tiers: ("5 damage", "5 damage", "5 damage"))))"#;

const SWEEP: &str = r#"(id: "sweep", name: "Sweep", keywords: [Area, Melee, Weapon],
    action: MainAction, distance: Burst(1), target: (kinds: [Enemy]),
    power_roll: Some((characteristics: [Might], tiers: ("3 damage", "3 damage", "3 damage"))))"#;

fn sweep() -> Command {
    Command::UseAreaAbility {
        creature: FURY,
        ability: "sweep".into(),
        placement: command::Placement::OnSelf,
        surges: 0,
        potency_surges: Vec::new(),
        spend: 0,
        tier: None,
    }
}

#[test]
fn greedy_prefers_an_area_that_hits_several_to_a_single_strike() {
    // Three bandits around the fury: 3 damage to each beats 5 to one.
    let mut e = open(
        db_with(&[STAB, SWEEP]),
        vec![with(hero("fury", "Korva", (4, 2)), &["stab", "sweep"])],
        vec![
            monster("bandit", (5, 2)),
            monster("bandit", (3, 2)),
            monster("bandit", (4, 3)),
        ],
    );
    start(&mut e, FURY);
    let stab = Command::use_ability(FURY, "stab", vec![BANDIT]);
    assert!(greedy_score(&e, &sweep()) > greedy_score(&e, &stab));
    // With one bandit in the burst, the strike is better.
    let mut e = open(
        db_with(&[STAB, SWEEP]),
        vec![with(hero("fury", "Korva", (4, 2)), &["stab", "sweep"])],
        vec![monster("bandit", (5, 2))],
    );
    start(&mut e, FURY);
    assert!(greedy_score(&e, &sweep()) < greedy_score(&e, &stab));
}

// RULES.md "Movement": leaving an enemy's reach by moving provokes an
// opportunity attack; shifting does not.
#[test]
fn greedy_shifts_rather_than_walks_away_from_an_enemy() {
    let mut e = open(
        db_with(&[]),
        vec![hero("fury", "Korva", (4, 2))],
        vec![monster("bandit", (5, 2))],
    );
    start(&mut e, FURY);
    let to = Pos::new(3, 2);
    let walk = Command::Move {
        creature: FURY,
        path: vec![Pos::new(4, 2), to].into(),
    };
    let shift = Command::Shift { creature: FURY, to };
    assert!(e.legal_actions().contains(&shift));
    assert!(
        greedy_score(&e, &shift) > greedy_score(&e, &walk) + 1.0,
        "the walk provokes the bandit's free strike"
    );
}

#[test]
fn greedy_keeps_a_ranged_creature_out_of_adjacency() {
    // The elementalist's ranged spells reach 10: next to the bandit is
    // worse for it than three squares off.
    let e = open(
        db_with(&[]),
        vec![hero("elementalist", "Ash", (2, 2))],
        vec![monster("bandit", (6, 2))],
    );
    let w = Weights::greedy();
    let scorer = Scorer::new(&e, &w, Side::Heroes);
    let me = e.creature(FURY).unwrap();
    let adjacent = scorer.position(&me, Footprint::single(Pos::new(5, 2)));
    let apart = scorer.position(&me, Footprint::single(Pos::new(3, 2)));
    assert!(apart > adjacent, "{apart} against {adjacent}");
}

// Seed 000 "Conditions": "Different effects that impose the same condition
// ... don't stack to impose the condition twice ... A character who is
// grabbed by an enemy can't be grabbed again by another enemy." A grab of
// an enemy already grabbed gains nothing.
#[test]
fn a_condition_the_target_already_has_is_worth_nothing() {
    let mut e = open(
        db_with(&[]),
        vec![hero("fury", "Korva", (2, 2))],
        vec![monster("bandit", (3, 2))],
    );
    e.dice_mut().force([1]);
    start(&mut e, FURY);
    let grab = Command::use_ability(FURY, "grab", vec![BANDIT]);
    assert!(
        greedy_score(&e, &grab) > 0.0,
        "a free bandit is worth grabbing"
    );
    e.dice_mut().force([6, 6]);
    e.apply(grab.clone()).unwrap();
    assert!(
        e.creature(BANDIT)
            .unwrap()
            .conditions
            .has(ConditionKind::Grabbed)
    );
    assert!(
        greedy_score(&e, &grab) <= 0.0,
        "{}",
        greedy_score(&e, &grab)
    );
}
