//! Forecasts of abilities (issue #6: "the exact tier probabilities of 2d10
//! under the roll's edges and banes").

use super::*;
use crate::power_roll::{RollSpec, Tier, tier_probabilities};

#[test]
fn a_preview_gives_exact_tier_chances_and_damage_and_changes_nothing() {
    let mut e = duel();
    let bandit = CreatureId(2);
    e.dice_mut().force([1]);
    start(&mut e, FURY);
    let cmd = Command::use_ability(FURY, "brutal_slam", vec![bandit]);
    let before = (e.creatures(), e.log().to_vec());
    let p = e.preview(&cmd).unwrap();
    assert_eq!(before, (e.creatures(), e.log().to_vec()));
    let t = &p.targets[0];
    // docs/rules.md#forced-movement: Brutal Slam "3 + M damage; push 1" / "6 + M" / "9 + M"; the
    // fury's Might is 2. No edges or banes: 2d10 + 2.
    assert_eq!((t.edges, t.banes), (0, 0));
    let expected = tier_probabilities(&RollSpec {
        characteristic: 2,
        main_action_ability: true,
        ..Default::default()
    });
    assert_eq!(t.chances, expected);
    assert_eq!(t.tiers.clone().map(|o| o.damage), [5, 8, 11]);
    assert_eq!(
        t.tiers[2].forced,
        Some((crate::ability::ForcedKind::Push, 4))
    );
    let mean = expected[0] * 5.0 + expected[1] * 8.0 + expected[2] * 11.0;
    assert!((t.expected_damage - mean).abs() < 1e-9);
    assert_eq!(t.kill_chance, 0.0, "20 stamina");
    // A weakened fury: one bane shifts the chances down.
    impose(
        &mut e,
        FURY,
        ConditionKind::Weakened,
        crate::conditions::Duration::EndOfEncounter,
    );
    let weak = e.preview(&cmd).unwrap();
    assert_eq!(weak.targets[0].banes, 1);
    assert!(weak.targets[0].chances[0] > t.chances[0]);
    // The forecast matches what happens: with the bane, 5 + 5 + 2 - 2 = 10 is tier 1.
    e.dice_mut().force([5, 5]);
    let log = e.apply(cmd).unwrap();
    assert!(log.iter().any(|l| matches!(
        l,
        LogEntry::TierResult {
            tier: Tier::One,
            banes: 1,
            ..
        }
    )));
    assert_eq!(e.creature(bandit).unwrap().stamina.current, 20 - 5);
}

// The forecast counts the choices made before the roll: each surge adds the
// highest characteristic to the first target's damage (docs/rules.md#surges)
// and "Spend X" adds its effects (docs/rules.md#heroic-resources); the roll
// then deals what the forecast's tier said.
#[test]
fn a_preview_counts_surges_and_spend_and_the_roll_agrees() {
    let mut e = duel();
    let bandit = CreatureId(2);
    e.dice_mut().force([1]);
    start(&mut e, FURY);
    {
        let mut h = e.heroic_mut(FURY).unwrap();
        h.amount = 9;
        h.surges = 2;
    }
    let plain = Command::use_ability(FURY, "fury_wrecking_blow", vec![bandit]);
    let base = e.preview(&plain).unwrap().targets[0]
        .tiers
        .clone()
        .map(|t| t.damage);
    let highest = e.creature(FURY).unwrap().characteristics.highest();
    let mut chosen = plain.clone();
    if let Command::UseAbility { surges, spend, .. } = &mut chosen {
        *surges = 2;
        *spend = 3;
    }
    let p = e.preview(&chosen).unwrap();
    let with = p.targets[0].tiers.clone().map(|t| t.damage);
    for i in 0..3 {
        assert_eq!(with[i], base[i] + 2 * highest + 3 * 2, "tier {}", i + 1);
    }
    assert!(p.targets[0].expected_damage > e.preview(&plain).unwrap().targets[0].expected_damage);
    // 1 + 1 + Might is tier 1 whatever else: the bandit takes the forecast.
    let before = e.creature(bandit).unwrap().stamina.current;
    e.dice_mut().force([1, 1]);
    e.apply(chosen).unwrap();
    let after = e.creature(bandit).unwrap().stamina.current;
    assert_eq!(before - after, with[0]);
}
