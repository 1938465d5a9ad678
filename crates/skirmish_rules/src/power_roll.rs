//! Power rolls: 2d10 + characteristic + flat bonuses, read against tier bands.
//!
//! Pure functions over plain numbers; the engine rolls the dice through
//! [`crate::dice::Dice`] and passes the naturals in here.

use serde::{Deserialize, Serialize};

/// A power roll's outcome tier.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Tier {
    One = 1,
    Two = 2,
    Three = 3,
}

impl Tier {
    /// The tier band of a total: 11 or lower, 12 to 16, 17 or higher
    /// (docs/rules.md#power-roll and docs/rules.md#power-roll).
    pub fn from_total(total: i32) -> Tier {
        match total {
            i32::MIN..=11 => Tier::One,
            12..=16 => Tier::Two,
            _ => Tier::Three,
        }
    }

    /// 1, 2 or 3.
    pub fn number(self) -> u8 {
        self as u8
    }

    /// 0, 1 or 2: the index of this tier's entry in an ability's tier list.
    pub fn index(self) -> usize {
        self as usize - 1
    }

    /// The tier moved `steps` up (positive) or down (negative), kept within 1 to 3.
    pub fn shifted(self, steps: i32) -> Tier {
        match (self as i32 + steps).clamp(1, 3) {
            1 => Tier::One,
            2 => Tier::Two,
            _ => Tier::Three,
        }
    }

    pub fn from_number(n: u8) -> Option<Tier> {
        match n {
            1 => Some(Tier::One),
            2 => Some(Tier::Two),
            3 => Some(Tier::Three),
            _ => None,
        }
    }
}

/// What edges and banes come to once they have cancelled each other.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum EdgeBane {
    DoubleBane,
    Bane,
    None,
    Edge,
    DoubleEdge,
}

impl EdgeBane {
    /// Resolve any number of edges and banes.
    ///
    /// docs/rules.md#edges-and-banes: two or more edges are a double edge, two or
    /// more banes a double bane; an edge and a bane cancel; a double edge and a
    /// bane leave one edge; a double bane and an edge leave one bane; double
    /// and double cancel. Counting each side at most 2 and subtracting gives
    /// exactly those results.
    pub fn resolve(edges: u32, banes: u32) -> EdgeBane {
        match edges.min(2) as i32 - banes.min(2) as i32 {
            -2 => EdgeBane::DoubleBane,
            -1 => EdgeBane::Bane,
            0 => EdgeBane::None,
            1 => EdgeBane::Edge,
            _ => EdgeBane::DoubleEdge,
        }
    }

    /// The flat modifier to the total: +2 for a single edge, -2 for a single bane.
    pub fn modifier(self) -> i32 {
        match self {
            EdgeBane::Edge => 2,
            EdgeBane::Bane => -2,
            _ => 0,
        }
    }

    /// Tier steps: +1 for a double edge, -1 for a double bane.
    pub fn tier_shift(self) -> i32 {
        match self {
            EdgeBane::DoubleEdge => 1,
            EdgeBane::DoubleBane => -1,
            _ => 0,
        }
    }
}

/// Everything a power roll needs besides the dice.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RollSpec {
    /// The characteristic score added to the roll.
    pub characteristic: i32,
    /// Flat bonuses and penalties, added before edges and banes are judged.
    pub bonus: i32,
    pub edges: u32,
    pub banes: u32,
    /// An effect that sets the outcome without rolling ("automatically tier 3").
    pub automatic: Option<Tier>,
    /// True for an ability roll made as a main action: only those can crit.
    pub main_action_ability: bool,
}

/// The outcome of one power roll against one target.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RollResult {
    /// The two d10s (both 0 for an automatic outcome).
    pub naturals: [u32; 2],
    pub natural: u32,
    /// 2d10 + characteristic + bonus + the single edge or bane modifier.
    pub total: i32,
    pub edge_bane: EdgeBane,
    pub tier: Tier,
    /// A natural 19 or 20 on a main-action ability roll.
    pub critical: bool,
    pub automatic: bool,
}

/// Resolve a power roll from its two d10s.
///
/// docs/rules.md#edges-and-banes and docs/rules.md#critical-hit: the total is
/// 2d10 + characteristic + flat bonuses, +2 for an edge or -2 for a bane; a
/// double edge or bane moves the tier one step; a natural 19 or 20 is always
/// tier 3 (docs/rules.md#natural-19-and-20), and a critical hit only on a main-action ability roll.
pub fn resolve(spec: &RollSpec, naturals: [u32; 2]) -> RollResult {
    let edge_bane = EdgeBane::resolve(spec.edges, spec.banes);
    if let Some(tier) = spec.automatic {
        return RollResult {
            naturals: [0, 0],
            natural: 0,
            total: 0,
            edge_bane,
            tier,
            critical: false,
            automatic: true,
        };
    }
    let natural = naturals[0] + naturals[1];
    let total = natural as i32 + spec.characteristic + spec.bonus + edge_bane.modifier();
    let natural_high = natural >= 19;
    let tier = if natural_high {
        Tier::Three
    } else {
        Tier::from_total(total).shifted(edge_bane.tier_shift())
    };
    RollResult {
        naturals,
        natural,
        total,
        edge_bane,
        tier,
        critical: natural_high && spec.main_action_ability,
        automatic: false,
    }
}

/// Re-read one roll for a target with different edges and banes.
///
/// docs/rules.md#multiple-targets: one roll for all targets, but
/// per-target edges and banes can put targets on different tiers.
pub fn resolve_for_target(
    spec: &RollSpec,
    naturals: [u32; 2],
    edges: u32,
    banes: u32,
) -> RollResult {
    let spec = RollSpec {
        edges: spec.edges + edges,
        banes: spec.banes + banes,
        ..spec.clone()
    };
    resolve(&spec, naturals)
}

/// A roller may always choose a lower tier (docs/rules.md#edges-and-banes).
/// Returns the tier to apply, or `None` if `wanted` is higher than the roll.
pub fn choose_tier(rolled: Tier, wanted: Option<Tier>) -> Option<Tier> {
    match wanted {
        None => Some(rolled),
        Some(w) if w <= rolled => Some(w),
        Some(_) => None,
    }
}

/// The exact chance of each tier (index 0 = tier 1) for a roll of 2d10 with
/// these numbers, counting all 100 outcomes. Used by the AI for expected value.
pub fn tier_probabilities(spec: &RollSpec) -> [f64; 3] {
    let mut counts = [0u32; 3];
    for a in 1..=10 {
        for b in 1..=10 {
            counts[resolve(spec, [a, b]).tier.index()] += 1;
        }
    }
    counts.map(|c| c as f64 / 100.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn spec(ch: i32, edges: u32, banes: u32) -> RollSpec {
        RollSpec {
            characteristic: ch,
            edges,
            banes,
            main_action_ability: true,
            ..Default::default()
        }
    }

    // docs/rules.md#power-roll "tier bands 11-/12-16/17+".
    #[test]
    fn tier_bands() {
        assert_eq!(Tier::from_total(-3), Tier::One);
        assert_eq!(Tier::from_total(11), Tier::One);
        assert_eq!(Tier::from_total(12), Tier::Two);
        assert_eq!(Tier::from_total(16), Tier::Two);
        assert_eq!(Tier::from_total(17), Tier::Three);
        assert_eq!(Tier::from_total(30), Tier::Three);
    }

    // docs/rules.md#power-roll "power roll 2d10 + characteristic".
    #[test]
    fn total_is_two_d10_plus_characteristic_plus_bonus() {
        let r = resolve(
            &RollSpec {
                characteristic: 2,
                bonus: 1,
                ..Default::default()
            },
            [4, 5],
        );
        assert_eq!(r.total, 12);
        assert_eq!(r.tier, Tier::Two);
    }

    // docs/rules.md#edges-and-banes: one edge +2, one bane -2.
    #[test]
    fn single_edge_and_bane_move_the_total_by_two() {
        assert_eq!(resolve(&spec(0, 1, 0), [5, 5]).total, 12);
        assert_eq!(resolve(&spec(0, 0, 1), [6, 6]).total, 10);
        assert_eq!(resolve(&spec(0, 0, 1), [6, 6]).tier, Tier::One);
    }

    // docs/rules.md#edges-and-banes: "Two or more edges (a double edge): no bonus, but the result
    // moves one tier up (never past 3). Double bane: one tier down."
    #[test]
    fn double_edge_and_double_bane_move_the_tier() {
        let up = resolve(&spec(0, 2, 0), [5, 5]);
        assert_eq!((up.total, up.tier), (10, Tier::Two));
        let top = resolve(&spec(0, 3, 0), [9, 8]);
        assert_eq!(top.tier, Tier::Three);
        let down = resolve(&spec(0, 0, 2), [6, 7]);
        assert_eq!((down.total, down.tier), (13, Tier::One));
        let bottom = resolve(&spec(0, 0, 2), [1, 1]);
        assert_eq!(bottom.tier, Tier::One);
    }

    // docs/rules.md#edges-and-banes: "An edge and a bane cancel; a double edge and a bane leave one
    // edge; a double bane and an edge leave one bane; double and double cancel."
    #[test]
    fn cancel_rules() {
        assert_eq!(EdgeBane::resolve(1, 1), EdgeBane::None);
        assert_eq!(EdgeBane::resolve(2, 1), EdgeBane::Edge);
        assert_eq!(EdgeBane::resolve(1, 2), EdgeBane::Bane);
        assert_eq!(EdgeBane::resolve(2, 2), EdgeBane::None);
        assert_eq!(EdgeBane::resolve(5, 3), EdgeBane::None);
        assert_eq!(EdgeBane::resolve(3, 0), EdgeBane::DoubleEdge);
        assert_eq!(EdgeBane::resolve(0, 4), EdgeBane::DoubleBane);
    }

    // docs/rules.md#edges-and-banes: "Flat bonuses and penalties are added before edges and banes
    // are judged": a double bane moves the tier reached with the bonus.
    #[test]
    fn flat_bonus_counts_before_tier_shift() {
        let r = resolve(
            &RollSpec {
                characteristic: 2,
                bonus: 1,
                banes: 2,
                ..Default::default()
            },
            [7, 7],
        );
        assert_eq!(r.total, 17);
        assert_eq!(r.tier, Tier::Two);
    }

    // docs/rules.md#critical-hit: "A natural 19 or 20 on the 2d10 is always tier 3; on a
    // main-action ability roll it is also a critical hit".
    #[test]
    fn natural_nineteen_is_tier_three_and_crits_only_on_main_actions() {
        let crit = resolve(&spec(-5, 0, 2), [10, 9]);
        assert_eq!(crit.tier, Tier::Three);
        assert!(crit.critical);
        let maneuver = resolve(
            &RollSpec {
                main_action_ability: false,
                ..spec(0, 0, 0)
            },
            [10, 10],
        );
        assert_eq!(maneuver.tier, Tier::Three);
        assert!(!maneuver.critical);
        assert!(!resolve(&spec(5, 0, 0), [9, 9]).critical);
    }

    // docs/rules.md#multiple-targets: total 11, an edge against one
    // target makes it 13, tier 2 for that target only.
    #[test]
    fn one_roll_different_tiers_per_target() {
        let base = spec(0, 0, 0);
        let plain = resolve_for_target(&base, [5, 6], 0, 0);
        let edged = resolve_for_target(&base, [5, 6], 1, 0);
        assert_eq!((plain.total, plain.tier), (11, Tier::One));
        assert_eq!((edged.total, edged.tier), (13, Tier::Two));
    }

    #[test]
    fn automatic_tier_skips_the_dice() {
        let r = resolve(
            &RollSpec {
                automatic: Some(Tier::Three),
                main_action_ability: true,
                ..Default::default()
            },
            [1, 1],
        );
        assert_eq!(r.tier, Tier::Three);
        assert!(r.automatic);
        assert!(!r.critical);
    }

    // docs/rules.md#power-roll
    #[test]
    fn choosing_a_lower_tier() {
        assert_eq!(choose_tier(Tier::Three, Some(Tier::One)), Some(Tier::One));
        assert_eq!(choose_tier(Tier::Two, None), Some(Tier::Two));
        assert_eq!(choose_tier(Tier::One, Some(Tier::Two)), None);
    }

    #[test]
    fn tier_probabilities_sum_to_one_and_match_counts() {
        let p = tier_probabilities(&spec(0, 0, 0));
        assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        // 2d10 totals of 11 or less: 55 of 100; 17+: 3+2+1 plus naturals 17/18 ... count directly.
        let t1 = (1..=10)
            .flat_map(|a| (1..=10).map(move |b| a + b))
            .filter(|t| *t <= 11)
            .count();
        assert!((p[0] - t1 as f64 / 100.0).abs() < 1e-9);
    }

    proptest! {
        // Tiers are always 1 to 3, whatever the numbers.
        #[test]
        fn tier_always_in_range(a in 1u32..=10, b in 1u32..=10, ch in -10i32..10, bonus in -10i32..10, e in 0u32..6, bn in 0u32..6) {
            let r = resolve(&RollSpec { characteristic: ch, bonus, edges: e, banes: bn, ..Default::default() }, [a, b]);
            prop_assert!((1..=3).contains(&r.tier.number()));
        }

        // docs/rules.md#edges-and-banes: an edge and a bane cancel, whatever the roll.
        #[test]
        fn an_edge_and_a_bane_cancel(a in 1u32..=10, b in 1u32..=10, ch in -5i32..6, e in 0u32..3, bn in 0u32..3) {
            let base = RollSpec { characteristic: ch, edges: e, banes: bn, ..Default::default() };
            let plus_both = RollSpec { edges: e + 1, banes: bn + 1, ..base.clone() };
            // Adding one of each to a pool with at most one of either leaves it unchanged.
            if e <= 1 && bn <= 1 {
                prop_assert_eq!(resolve(&base, [a, b]).tier, resolve(&plus_both, [a, b]).tier);
            }
            let one_each = RollSpec { edges: 1, banes: 1, ..base.clone() };
            let none = RollSpec { edges: 0, banes: 0, ..base };
            prop_assert_eq!(resolve(&one_each, [a, b]), resolve(&none, [a, b]));
        }

        // Edges never lower the tier and banes never raise it.
        #[test]
        fn edges_monotone(a in 1u32..=10, b in 1u32..=10, ch in -5i32..6, e in 0u32..4) {
            let lo = resolve(&RollSpec { characteristic: ch, edges: e, ..Default::default() }, [a, b]).tier;
            let hi = resolve(&RollSpec { characteristic: ch, edges: e + 1, ..Default::default() }, [a, b]).tier;
            prop_assert!(hi >= lo);
            let b1 = resolve(&RollSpec { characteristic: ch, banes: e, ..Default::default() }, [a, b]).tier;
            let b2 = resolve(&RollSpec { characteristic: ch, banes: e + 1, ..Default::default() }, [a, b]).tier;
            prop_assert!(b2 <= b1);
        }
    }
}
