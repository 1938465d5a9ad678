//! Each class's own heroic-resource trigger (docs/rules.md#heroic-resources:
//! "each class also has its own extra trigger for gaining more"), fired by
//! the engine at most once a round. The fury is given each trigger in turn.

use super::triggers::{db_with, open};
use super::*;
use crate::content::ResourceTrigger as T;
use crate::encounter::world;

const BANDIT: CreatureId = CreatureId(2);

/// A fury whose class trigger is `trigger`, against a bandit adjacent to it.
fn fury_with(trigger: T) -> Encounter {
    let mut db = db_with(&[]);
    db.classes.get_mut("fury").unwrap().resource_trigger = trigger;
    let mut e = open(
        db,
        vec![hero("fury", "Korva", (2, 2))],
        vec![monster("bandit", (3, 2))],
    );
    e.dice_mut().force([1]);
    start(&mut e, FURY);
    e
}

fn ferocity(e: &mut Encounter) -> u32 {
    e.creature(FURY).unwrap().heroic.unwrap().amount
}

#[test]
fn forcing_a_creature_to_move() {
    let mut e = fury_with(T::ForceMoves);
    e.dice_mut().force([5, 5]);
    slam(&mut e, BANDIT).unwrap();
    assert_eq!(ferocity(&mut e), 1 + 1, "1d3 at turn start, 1 for the push");
}

#[test]
fn a_critical_hit_nearby_is_a_dramatic_moment() {
    let mut e = fury_with(T::DramaticMoment);
    e.dice_mut().force([10, 10]);
    slam(&mut e, BANDIT).unwrap();
    assert_eq!(ferocity(&mut e), 2);
    // Once a round: a second one (the extra main action) gives nothing.
    e.dice_mut().force([10, 9]);
    let _ = slam(&mut e, BANDIT);
    assert_eq!(ferocity(&mut e), 2);
}

#[test]
fn downing_an_enemy() {
    let mut e = fury_with(T::EnemyDowned);
    let ent = world::entity_of(e.world(), BANDIT).unwrap();
    e.world_mut().get_mut::<Stamina>(ent).unwrap().current = 3;
    e.dice_mut().force([5, 5]);
    slam(&mut e, BANDIT).unwrap();
    assert!(e.creature(BANDIT).unwrap().stamina.is_dead());
    assert_eq!(ferocity(&mut e), 2);
}

#[test]
fn spending_surges_on_damage() {
    let mut e = fury_with(T::SurgeSpent);
    let ent = world::entity_of(e.world(), FURY).unwrap();
    e.world_mut().get_mut::<Heroic>(ent).unwrap().surges = 1;
    e.dice_mut().force([5, 5]);
    e.apply(Command::UseAbility {
        creature: FURY,
        ability: "brutal_slam".into(),
        targets: vec![BANDIT],
        surges: 1,
        potency_surges: Vec::new(),
        spend: 0,
        tier: None,
    })
    .unwrap();
    // Tier 2: 6 + 2, plus one surge of the highest characteristic (2).
    assert_eq!(e.creature(BANDIT).unwrap().stamina.current, 20 - 10);
    assert_eq!(ferocity(&mut e), 2);
}

#[test]
fn a_marked_enemy_acting() {
    let mut e = fury_with(T::MarkedEnemyActs);
    // The fury's grab marks the bandit (a condition from the fury).
    e.dice_mut().force([6, 6]);
    e.apply(Command::use_ability(FURY, "grab", vec![BANDIT]))
        .unwrap();
    assert_eq!(ferocity(&mut e), 1);
    e.apply(Command::EndTurn { creature: FURY }).unwrap();
    start(&mut e, BANDIT);
    e.dice_mut().force([1, 1]);
    e.apply(Command::use_ability(BANDIT, "bandit_cudgel", vec![FURY]))
        .unwrap();
    assert_eq!(ferocity(&mut e), 2);
}
