//! The "phased 2d6" ruleset of docs/rules.md#phased-2d6, as pure functions over plain data:
//! the advantage die, attack rolls against defense, tier-difference
//! sources, initiative order with d6 tie-breaks, the movement powers and the
//! end phase's saves. The numbers the seed leaves open come from the
//! ruleset file ([`PhasedRules`], `assets/rulesets/phased_2d6.ron`).
//!
//! The encounter flow that runs them (phases, seizing the initiative, the
//! movement powers and battle actions as commands) is
//! `encounter::ruleset::phased`; the round's state is [`PhasedRound`].

use serde::{Deserialize, Serialize};

use crate::stats::CreatureId;

/// Which two of the three dice are kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Keep {
    Highest,
    Lowest,
}

/// The numbers of the phased 2d6 ruleset that the seed leaves open
/// (docs/rules.md#phased-saves "Phased 2d6 ruleset, decisions left to us").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PhasedRules {
    /// End phase: a save succeeds on 2d6 at or above this (docs/rules.md#phased-saves: 7).
    pub save_target: u32,
    /// Squares a shift moves, without provoking.
    pub shift_squares: u32,
    /// Extra squares a hustle adds to speed (and a disadvantage on this
    /// round's attacks).
    pub hustle_bonus: u32,
    /// A run moves speed times this, with no attack this round.
    pub run_multiplier: u32,
    /// Squares a disengage shifts (docs/rules.md#movement-powers: 2).
    pub disengage_squares: u32,
    /// A source of advantage and one of disadvantage cancel (docs/rules.md#advantage-dice is
    /// silent; our default).
    pub sources_cancel: bool,
    /// Defense: this base plus the target's Agility.
    pub defense_base: i32,
    /// A creature's tier from its level: tier 1 up to the first number,
    /// tier 2 up to the second, tier 3 above.
    pub tier_levels: (u32, u32),
    /// An attack that beats defense by this much or more lands at tier 3;
    /// any other hit is tier 2; a miss is tier 1 with no damage.
    pub tier_three_margin: i32,
    /// docs/rules.md#initiative-phase's "INT + AGI": the characteristics summed for initiative.
    #[serde(default = "initiative_default")]
    pub initiative: Vec<crate::stats::Characteristic>,
    /// Characteristics a free strike (and an opportunity attack) adds as
    /// its ATK: the best of them.
    #[serde(default = "strike_default")]
    pub free_strike_attack: Vec<crate::stats::Characteristic>,
    /// docs/rules.md#movement-powers: "additional powers usable during the
    /// movement phase available to them from their calling or role": the
    /// extra powers each monster role has ...
    #[serde(default)]
    pub role_powers: std::collections::BTreeMap<crate::stats::Role, Vec<MovementPower>>,
    /// ... and each class (a hero's calling), by class id.
    #[serde(default)]
    pub class_powers: std::collections::BTreeMap<String, Vec<MovementPower>>,
}

fn initiative_default() -> Vec<crate::stats::Characteristic> {
    vec![
        crate::stats::Characteristic::Reason,
        crate::stats::Characteristic::Agility,
    ]
}

fn strike_default() -> Vec<crate::stats::Characteristic> {
    vec![
        crate::stats::Characteristic::Might,
        crate::stats::Characteristic::Agility,
    ]
}

impl Default for PhasedRules {
    fn default() -> Self {
        PhasedRules {
            save_target: 7,
            shift_squares: 1,
            hustle_bonus: 2,
            run_multiplier: 2,
            disengage_squares: 2,
            sources_cancel: true,
            defense_base: 7,
            tier_levels: (3, 6),
            tier_three_margin: 4,
            initiative: initiative_default(),
            free_strike_attack: strike_default(),
            role_powers: Default::default(),
            class_powers: Default::default(),
        }
    }
}

impl PhasedRules {
    pub fn problems(&self) -> Vec<(&'static str, String)> {
        let mut p = Vec::new();
        if !(2..=12).contains(&self.save_target) {
            p.push((
                "save_target",
                format!(
                    "save_target {} is not a 2d6 total (2 to 12)",
                    self.save_target
                ),
            ));
        }
        if self.tier_levels.0 >= self.tier_levels.1 {
            p.push((
                "tier_levels",
                "the tier 2 level limit must be above the tier 1 limit".into(),
            ));
        }
        if self.run_multiplier == 0 {
            p.push((
                "run_multiplier",
                "a run must move at least speed x 1".into(),
            ));
        }
        // Numbers far beyond a 2d6 fight are slips (and would overflow).
        let squares = [
            ("shift_squares", self.shift_squares),
            ("hustle_bonus", self.hustle_bonus),
            ("disengage_squares", self.disengage_squares),
            ("run_multiplier", self.run_multiplier),
        ];
        for (field, n) in squares {
            if n > 20 {
                p.push((field, format!("{field} {n} is more than 20")));
            }
        }
        let totals = [
            ("defense_base", self.defense_base),
            ("tier_three_margin", self.tier_three_margin),
        ];
        for (field, n) in totals {
            if !(-30..=30).contains(&n) {
                p.push((field, format!("{field} {n} is outside -30 to 30")));
            }
        }
        p
    }

    /// A creature's tier (docs/rules.md#phased-attacks "Battle Actions": "Tier 1 vs Tier 2").
    pub fn creature_tier(&self, level: u32) -> u32 {
        if level <= self.tier_levels.0 {
            1
        } else if level <= self.tier_levels.1 {
            2
        } else {
            3
        }
    }
}

/// docs/rules.md#advantage-dice "Advantage / Disadvantage": the extra die for `advantage` and
/// `disadvantage` sources. "The additional die starts at d6 and increases by
/// one step to a maximum of d12 for each source of advantage"; for
/// disadvantage it "starts at d12 and decreases by one step to a minimum of
/// d6". With `cancel`, sources of each kind cancel one for one first.
pub fn extra_die(advantage: u32, disadvantage: u32, cancel: bool) -> Option<(u32, Keep)> {
    let (adv, dis) = if cancel {
        let n = advantage.min(disadvantage);
        (advantage - n, disadvantage - n)
    } else {
        (advantage, disadvantage)
    };
    let step = |n: u32| 2 * (n.min(4) - 1);
    match (adv, dis) {
        (0, 0) => None,
        // Both left standing (cancel off): they meet as no extra die.
        (a, d) if a > 0 && d > 0 => None,
        (a, 0) => Some((6 + step(a), Keep::Highest)),
        (_, d) => Some((12 - step(d), Keep::Lowest)),
    }
}

/// "Roll an additional die, keep the two highest rolls" (or lowest): the
/// total of the two dice kept.
pub fn keep_two(dice: [u32; 2], extra: Option<(u32, Keep)>) -> u32 {
    let Some((value, keep)) = extra else {
        return dice[0] + dice[1];
    };
    let mut all = [dice[0], dice[1], value];
    all.sort_unstable();
    match keep {
        Keep::Highest => all[1] + all[2],
        Keep::Lowest => all[0] + all[1],
    }
}

/// docs/rules.md#phased-attacks: "roll 2d6 + attack (ATK) modifier. If the result is
/// greater than or equal to the targets defense (DEF), the attack is a
/// success." Returns the power-roll tier the hit lands at (docs/rulings.md:
/// a miss is `None`; a hit by `tier_three_margin` or more is tier 3).
pub fn attack_tier(total: i32, defense: i32, rules: &PhasedRules) -> Option<u8> {
    if total < defense {
        None
    } else if total - defense >= rules.tier_three_margin {
        Some(3)
    } else {
        Some(2)
    }
}

/// docs/rules.md#phased-attacks: "Attackers gain advantage/suffer disadvantage for each tier of
/// difference between them and the target." Positive: sources of
/// advantage; negative: of disadvantage.
pub fn tier_difference(attacker_tier: u32, target_tier: u32) -> i32 {
    attacker_tier as i32 - target_tier as i32
}

/// docs/rules.md#end-phase: "roll 2d6 for each effect. A 7 or higher
/// ends/sustains the effect."
pub fn save_succeeds(total: u32, rules: &PhasedRules) -> bool {
    total >= rules.save_target
}

/// docs/rules.md#initiative-phase: each creature's INT + AGI, with "In the
/// event of a tie, roll a d6 until a winner is determined." Returns the
/// movement order (lowest first); the battle order is its reverse. `d6` is
/// the encounter's generator.
pub fn initiative_order(
    scores: &[(CreatureId, i32)],
    d6: &mut dyn FnMut() -> u32,
) -> Vec<CreatureId> {
    let mut groups: std::collections::BTreeMap<i32, Vec<CreatureId>> = Default::default();
    for &(id, s) in scores {
        groups.entry(s).or_default().push(id);
    }
    let mut out = Vec::new();
    for (_, mut tied) in groups {
        tied.sort();
        out.extend(break_ties(tied, d6));
    }
    out
}

/// Order tied creatures by d6 rolls, rolling again among any still tied
/// (lowest first, like the movement phase).
fn break_ties(tied: Vec<CreatureId>, d6: &mut dyn FnMut() -> u32) -> Vec<CreatureId> {
    if tied.len() <= 1 {
        return tied;
    }
    let mut rolled: std::collections::BTreeMap<u32, Vec<CreatureId>> = Default::default();
    for id in tied {
        rolled.entry(d6()).or_default().push(id);
    }
    let mut out = Vec::new();
    for (_, group) in rolled {
        out.extend(break_ties(group, d6));
    }
    out
}

/// docs/rules.md#movement-powers's movement powers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum MovementPower {
    Shift,
    Walk,
    Hustle,
    Run,
    Charge,
    Disengage,
    /// docs/rules.md#movement-powers: a power from a calling or role (the
    /// ruleset's `role_powers` and `class_powers` say whose): up to half
    /// speed, rounded up, without provoking.
    Tumble,
}

impl MovementPower {
    /// The powers only some callings and roles have.
    pub const EXTRA: [MovementPower; 1] = [MovementPower::Tumble];

    pub const ALL: [MovementPower; 6] = [
        MovementPower::Shift,
        MovementPower::Walk,
        MovementPower::Hustle,
        MovementPower::Run,
        MovementPower::Charge,
        MovementPower::Disengage,
    ];

    pub fn name(self) -> &'static str {
        match self {
            MovementPower::Shift => "Shift",
            MovementPower::Walk => "Walk",
            MovementPower::Hustle => "Hustle",
            MovementPower::Run => "Run",
            MovementPower::Charge => "Charge",
            MovementPower::Disengage => "Disengage",
            MovementPower::Tumble => "Tumble",
        }
    }
}

/// What a movement power allows: squares, whether leaving a threatened
/// square provokes, and what it does to the mover's attacks this round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Movement {
    pub squares: u32,
    pub provokes: bool,
    /// Straight line only (a charge).
    pub straight: bool,
    /// Sources of advantage (+) or disadvantage (-) on its attacks.
    pub attack_sources: i32,
    /// It may not attack this round (a run).
    pub no_attack: bool,
}

/// docs/rules.md#phased-2d6: "walk = speed, hustle = speed + 2 with a
/// bane on this round's attacks, run = speed x 2 and no attack this round,
/// shift = 1 square without provoking, charge = move in a line then an
/// attack with an edge, disengage = shift 2 without provoking and attacks at
/// a disadvantage until the end of next round".
pub fn movement(power: MovementPower, speed: u32, rules: &PhasedRules) -> Movement {
    let base = Movement {
        squares: speed,
        provokes: true,
        straight: false,
        attack_sources: 0,
        no_attack: false,
    };
    match power {
        MovementPower::Walk => base,
        MovementPower::Shift => Movement {
            squares: rules.shift_squares,
            provokes: false,
            ..base
        },
        MovementPower::Hustle => Movement {
            squares: speed + rules.hustle_bonus,
            attack_sources: -1,
            ..base
        },
        MovementPower::Run => Movement {
            squares: speed * rules.run_multiplier,
            no_attack: true,
            ..base
        },
        MovementPower::Charge => Movement {
            straight: true,
            attack_sources: 1,
            ..base
        },
        MovementPower::Disengage => Movement {
            squares: rules.disengage_squares,
            provokes: false,
            attack_sources: -1,
            ..base
        },
        MovementPower::Tumble => Movement {
            squares: speed.div_ceil(2),
            provokes: false,
            ..base
        },
    }
}

/// docs/rules.md#phased-attacks: the chance that `2d6` (two of three dice kept when
/// `extra` is some) plus `attack` misses, lands at tier 2, or at tier 3
/// against `defense`, counted exactly over every face.
pub fn tier_odds(
    attack: i32,
    defense: i32,
    extra: Option<(u32, Keep)>,
    rules: &PhasedRules,
) -> [f64; 3] {
    // Every face counted by the total it keeps: the tier depends on that
    // alone, so each total is judged once, with its count.
    let mut counts = [0u32; 3];
    let mut all = 0u32;
    let mut judge = |kept: u32, n: u32| {
        let i = match attack_tier(kept as i32 + attack, defense, rules) {
            None => 0,
            Some(t) => t as usize - 1,
        };
        counts[i] += n;
        all += n;
    };
    match kept_totals(extra) {
        Some(table) => {
            for (kept, &n) in table.iter().enumerate().filter(|(_, n)| **n > 0) {
                judge(kept as u32, n);
            }
        }
        None => each_face(extra, |kept| judge(kept, 1)),
    }
    counts.map(|c| c as f64 / all as f64)
}

/// Every face of 2d6 and the extra die, as the total it keeps.
fn each_face(extra: Option<(u32, Keep)>, mut f: impl FnMut(u32)) {
    let faces = extra.map_or(1, |(s, _)| s);
    for a in 1..=6 {
        for b in 1..=6 {
            for x in 1..=faces {
                f(keep_two([a, b], extra.map(|(_, k)| (x, k))));
            }
        }
    }
}

/// The most a kept total can be with an extra die of up to this many faces.
const TABLED_FACES: u32 = 12;

/// How many faces keep each total, for no extra die or one of up to
/// [`TABLED_FACES`] faces: counted once and kept (the AI asks the odds of
/// every attack from every square it weighs). `None` for a larger die.
fn kept_totals(extra: Option<(u32, Keep)>) -> Option<&'static [u32]> {
    type Table = [u32; 6 + TABLED_FACES as usize + 1];
    static TABLES: std::sync::OnceLock<Vec<Table>> = std::sync::OnceLock::new();
    let index = match extra {
        None => 0,
        Some((s, _)) if s == 0 || s > TABLED_FACES => return None,
        Some((s, Keep::Highest)) => s as usize,
        Some((s, Keep::Lowest)) => (TABLED_FACES + s) as usize,
    };
    let tables = TABLES.get_or_init(|| {
        let die = |i: usize| match i as u32 {
            0 => None,
            s if s <= TABLED_FACES => Some((s, Keep::Highest)),
            s => Some((s - TABLED_FACES, Keep::Lowest)),
        };
        (0..=2 * TABLED_FACES as usize)
            .map(|i| {
                let mut t: Table = [0; 6 + TABLED_FACES as usize + 1];
                each_face(die(i), |kept| t[kept as usize] += 1);
                t
            })
            .collect()
    });
    Some(&tables[index])
}

/// Where a phased round is (docs/rules.md#phased-2d6 "Combat Round": initiative, movement,
/// battle, end; the initiative and end phases take no turns).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Stage {
    #[default]
    Movement,
    Battle,
}

/// One phased round's state, kept in the encounter's turn order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PhasedRound {
    pub stage: Stage,
    /// Each creature's INT + AGI (Reason + Agility).
    pub initiative: Vec<(CreatureId, i32)>,
    /// Lowest initiative first, ties broken by d6.
    pub movement_order: Vec<CreatureId>,
    /// Highest first, those who seized the initiative last; delays move a
    /// creature back.
    pub battle_order: Vec<CreatureId>,
    /// Moved ahead of their place this round: they act last in battle and
    /// attacks against them gain a source of advantage until the round ends.
    pub seized: Vec<CreatureId>,
    /// The movement power each creature used this round.
    pub powers: Vec<(CreatureId, MovementPower)>,
    /// Disengaged: attacks at a disadvantage through this round number.
    pub disengaged: Vec<(CreatureId, u32)>,
    /// Delayed this round (once each, so two can't trade places forever).
    #[serde(default)]
    pub delayed: Vec<CreatureId>,
    /// The side other than the lowest initiative's has let the movement
    /// order stand this round: its window to seize the initiative ahead of
    /// everyone is closed (docs/rulings.md, "Seizing the initiative").
    #[serde(default)]
    pub seize_offered: bool,
}

impl PhasedRound {
    /// The power `id` used this round, if any.
    pub fn power_of(&self, id: CreatureId) -> Option<MovementPower> {
        self.powers.iter().find(|(c, _)| *c == id).map(|(_, p)| *p)
    }

    /// The order of the current stage.
    pub fn order(&self) -> &[CreatureId] {
        match self.stage {
            Stage::Movement => &self.movement_order,
            Stage::Battle => &self.battle_order,
        }
    }

    /// docs/rules.md#phased-attacks: the sources of advantage (+) or disadvantage (-)
    /// an attack by `attacker` on `target` gains from the round: the
    /// attacker's movement power (hustle, charge), a disengage until the
    /// end of the next round, and a target that seized the initiative
    /// ("grant advantage to any attackers until the end of the round").
    pub fn attack_sources(
        &self,
        attacker: CreatureId,
        target: CreatureId,
        round: u32,
        rules: &PhasedRules,
    ) -> i32 {
        let mut s = 0;
        if let Some(p) = self.power_of(attacker)
            && p != MovementPower::Disengage
        {
            s += movement(p, 0, rules).attack_sources;
        }
        if self
            .disengaged
            .iter()
            .any(|&(c, until)| c == attacker && round <= until)
        {
            s -= 1;
        }
        if self.seized.contains(&target) {
            s += 1;
        }
        s
    }
}

/// docs/rules.md#movement-phase: "Low rolls MOVE first / High rolls BATTLE first", and one who
/// seized the initiative is "forced to act last during the Battle Phase".
pub fn battle_order(movement_order: &[CreatureId], seized: &[CreatureId]) -> Vec<CreatureId> {
    let high_first = movement_order.iter().rev().copied();
    let (last, first): (Vec<_>, Vec<_>) = high_first.partition(|c| seized.contains(c));
    first.into_iter().chain(last).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    // docs/rules.md#advantage-dice: "1 Source = 1d6, 2 Sources = 1d8, 3 Sources = 1d10, 4
    // Sources = 1d12"; disadvantage "1 Source = 1d12 ... 4 Sources = 1d6".
    #[test]
    fn the_extra_die_steps_with_sources() {
        let adv: Vec<_> = (1..=5).map(|n| extra_die(n, 0, true)).collect();
        assert_eq!(
            adv,
            [6, 8, 10, 12, 12]
                .map(|s| Some((s, Keep::Highest)))
                .to_vec()
        );
        let dis: Vec<_> = (1..=5).map(|n| extra_die(0, n, true)).collect();
        assert_eq!(
            dis,
            [12, 10, 8, 6, 6].map(|s| Some((s, Keep::Lowest))).to_vec()
        );
        assert_eq!(extra_die(0, 0, true), None);
        // Our default: one of each cancels, leaving one source of advantage.
        assert_eq!(extra_die(2, 1, true), Some((6, Keep::Highest)));
        assert_eq!(extra_die(2, 1, false), None);
    }

    // docs/rules.md#advantage-dice: "Roll an additional die, keep the two highest rolls" / "keep
    // the two lowest rolls".
    #[test]
    fn two_of_three_dice_are_kept() {
        assert_eq!(keep_two([2, 5], None), 7);
        assert_eq!(keep_two([2, 5], Some((6, Keep::Highest))), 11);
        assert_eq!(keep_two([2, 5], Some((1, Keep::Highest))), 7);
        assert_eq!(keep_two([2, 5], Some((1, Keep::Lowest))), 3);
        assert_eq!(keep_two([2, 5], Some((12, Keep::Lowest))), 7);
    }

    // docs/rules.md#phased-attacks: "If the result is greater than or equal to the
    // targets defense (DEF), the attack is a success."
    #[test]
    fn attacks_hit_at_defense_or_more() {
        let r = PhasedRules::default();
        assert_eq!(attack_tier(9, 10, &r), None);
        assert_eq!(attack_tier(10, 10, &r), Some(2));
        assert_eq!(attack_tier(13, 10, &r), Some(2));
        assert_eq!(attack_tier(14, 10, &r), Some(3));
    }

    // docs/rules.md#phased-attacks: "Tier 1 vs Tier 2 = 1 source of disadvantage ... Tier 3 vs
    // Tier 1 = 2 sources of advantage".
    #[test]
    fn tier_difference_gives_sources() {
        assert_eq!(tier_difference(1, 1), 0);
        assert_eq!(tier_difference(1, 2), -1);
        assert_eq!(tier_difference(1, 3), -2);
        assert_eq!(tier_difference(2, 1), 1);
        assert_eq!(tier_difference(3, 1), 2);
        let r = PhasedRules::default();
        assert_eq!(
            [1, 3, 4, 6, 7, 10].map(|l| r.creature_tier(l)),
            [1, 1, 2, 2, 3, 3]
        );
    }

    // docs/rules.md#end-phase: "A 7 or higher ends/sustains the effect."
    #[test]
    fn saves_succeed_on_seven() {
        let r = PhasedRules::default();
        assert!(!save_succeeds(6, &r));
        assert!(save_succeeds(7, &r));
        assert!(save_succeeds(12, &r));
    }

    // docs/rules.md#initiative-phase: "Low rolls MOVE first ... In the event of
    // a tie, roll a d6 until a winner is determined."
    #[test]
    fn initiative_orders_low_first_and_breaks_ties_with_d6() {
        let ids = [CreatureId(1), CreatureId(2), CreatureId(3), CreatureId(4)];
        // 2 and 3 tie at 3: they roll 4 and 4 (tied again), then 5 and 2.
        let mut rolls = vec![4, 4, 5, 2].into_iter();
        let mut d6 = || rolls.next().expect("enough rolls");
        let order = initiative_order(
            &[(ids[0], 5), (ids[1], 3), (ids[2], 3), (ids[3], -1)],
            &mut d6,
        );
        assert_eq!(order, vec![ids[3], ids[2], ids[1], ids[0]]);
        assert!(rolls.next().is_none(), "every tie-break roll used");
    }

    // docs/rules.md#phased-attacks: 2d6 + ATK >= DEF hits. With ATK 0 against DEF 7:
    // 21 of the 36 faces reach 7; 3 of them (11 and 12) beat it by 4.
    #[test]
    fn tier_odds_count_every_face() {
        let r = PhasedRules::default();
        let [miss, two, three] = tier_odds(0, 7, None, &r);
        assert!((miss - 15.0 / 36.0).abs() < 1e-12);
        assert!((two - 18.0 / 36.0).abs() < 1e-12);
        assert!((three - 3.0 / 36.0).abs() < 1e-12);
        // Advantage only helps, disadvantage only hurts.
        let adv = tier_odds(0, 7, extra_die(1, 0, true), &r);
        let dis = tier_odds(0, 7, extra_die(0, 1, true), &r);
        assert!(adv[0] < miss && dis[0] > miss);
        assert!((adv.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    }

    // The odds read off the kept totals' table are those of counting every
    // face one by one, for every extra die the table holds and one it doesn't.
    #[test]
    fn tier_odds_from_the_table_match_every_face_counted() {
        let r = PhasedRules::default();
        let counted = |attack: i32, defense: i32, extra: Option<(u32, Keep)>| {
            let mut counts = [0u32; 3];
            each_face(extra, |kept| {
                let i =
                    attack_tier(kept as i32 + attack, defense, &r).map_or(0, |t| t as usize - 1);
                counts[i] += 1;
            });
            let all: u32 = counts.iter().sum();
            counts.map(|c| c as f64 / all as f64)
        };
        let mut extras = vec![None, Some((20, Keep::Highest)), Some((14, Keep::Lowest))];
        for s in 1..=TABLED_FACES {
            extras.extend([Some((s, Keep::Highest)), Some((s, Keep::Lowest))]);
        }
        for extra in extras {
            for attack in -3..=5 {
                for defense in 5..=12 {
                    assert_eq!(
                        tier_odds(attack, defense, extra, &r),
                        counted(attack, defense, extra),
                        "{attack} v {defense} with {extra:?}"
                    );
                }
            }
        }
    }

    // docs/rules.md#initiative-phase: "High rolls BATTLE first"; "Movement
    // Phase": one who seizes the initiative is "forced to act last during
    // the Battle Phase".
    #[test]
    fn battle_order_is_high_first_with_seizers_last() {
        let ids = [CreatureId(1), CreatureId(2), CreatureId(3), CreatureId(4)];
        assert_eq!(
            battle_order(&ids, &[]),
            vec![ids[3], ids[2], ids[1], ids[0]]
        );
        assert_eq!(
            battle_order(&ids, &[ids[3], ids[1]]),
            vec![ids[2], ids[0], ids[3], ids[1]]
        );
    }

    // docs/rules.md#movement-phase: seizing grants "advantage to any attackers until the end
    // of the round"; docs/rules.md#movement-powers: hustle "with a bane on this round's
    // attacks", charge "an attack with an edge", disengage "attacks at a
    // disadvantage until the end of next round".
    #[test]
    fn round_sources_of_advantage() {
        let r = PhasedRules::default();
        let (a, b) = (CreatureId(1), CreatureId(2));
        let mut round = PhasedRound::default();
        assert_eq!(round.attack_sources(a, b, 1, &r), 0);
        round.seized.push(b);
        assert_eq!(round.attack_sources(a, b, 1, &r), 1);
        round.powers.push((a, MovementPower::Hustle));
        assert_eq!(round.attack_sources(a, b, 1, &r), 0);
        round.powers[0].1 = MovementPower::Charge;
        assert_eq!(round.attack_sources(a, b, 1, &r), 2);
        round.disengaged.push((a, 2));
        assert_eq!(round.attack_sources(a, b, 2, &r), 1);
        assert_eq!(round.attack_sources(a, b, 3, &r), 2);
    }

    // docs/rules.md#phased-2d6: the movement powers' numbers.
    #[test]
    fn movement_powers_follow_the_ruleset() {
        let r = PhasedRules::default();
        let m = |p| movement(p, 5, &r);
        assert_eq!(m(MovementPower::Walk).squares, 5);
        assert_eq!(
            (
                m(MovementPower::Hustle).squares,
                m(MovementPower::Hustle).attack_sources
            ),
            (7, -1)
        );
        assert!(m(MovementPower::Run).no_attack);
        assert_eq!(m(MovementPower::Run).squares, 10);
        assert_eq!(
            (
                m(MovementPower::Shift).squares,
                m(MovementPower::Shift).provokes
            ),
            (1, false)
        );
        let d = m(MovementPower::Disengage);
        assert_eq!((d.squares, d.provokes, d.attack_sources), (2, false, -1));
        let c = m(MovementPower::Charge);
        assert!(c.straight && c.attack_sources == 1);
    }
}
