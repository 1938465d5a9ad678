//! The nine conditions, their durations and the stacking rules, and the two
//! functions that say what conditions do: to rolls ([`roll_modifiers`]) and
//! to movement ([`movement_limits`]).

use std::fmt;

use bevy_ecs::prelude::*;
use serde::{Deserialize, Serialize};

use crate::stats::CreatureId;

/// The nine conditions of docs/rules.md#conditions, plus "can't stand", the
/// rider some abilities put on prone ("prone and can't stand (save ends)"),
/// tracked the same way because it has a duration of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum ConditionKind {
    Bleeding,
    Dazed,
    Frightened,
    Grabbed,
    Prone,
    Restrained,
    Slowed,
    Taunted,
    Weakened,
    CantStand,
}

impl ConditionKind {
    /// The nine conditions (without the "can't stand" rider).
    pub const NINE: [ConditionKind; 9] = [
        ConditionKind::Bleeding,
        ConditionKind::Dazed,
        ConditionKind::Frightened,
        ConditionKind::Grabbed,
        ConditionKind::Prone,
        ConditionKind::Restrained,
        ConditionKind::Slowed,
        ConditionKind::Taunted,
        ConditionKind::Weakened,
    ];

    /// The word the rules print ("restrained", "can't stand").
    pub fn word(self) -> &'static str {
        match self {
            ConditionKind::Bleeding => "bleeding",
            ConditionKind::Dazed => "dazed",
            ConditionKind::Frightened => "frightened",
            ConditionKind::Grabbed => "grabbed",
            ConditionKind::Prone => "prone",
            ConditionKind::Restrained => "restrained",
            ConditionKind::Slowed => "slowed",
            ConditionKind::Taunted => "taunted",
            ConditionKind::Weakened => "weakened",
            ConditionKind::CantStand => "can't stand",
        }
    }

    pub fn from_word(word: &str) -> Option<ConditionKind> {
        let word = word.replace('’', "'");
        Self::NINE
            .into_iter()
            .chain([ConditionKind::CantStand])
            .find(|k| k.word() == word)
    }
}

impl fmt::Display for ConditionKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

/// How long an effect lasts (docs/rules.md#durations).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Duration {
    /// "(EoT)": until the end of the affected creature's next turn, or its
    /// current turn if imposed during it. Either way that is the next end of
    /// the affected creature's turn, which is when it is removed.
    EndOfTurn,
    /// "(save ends)": a d10 at the end of each of the creature's turns, 6+ ends it.
    SaveEnds,
    /// "(end of encounter)".
    EndOfEncounter,
    /// Until something removes it (standing up, escaping a grab, ...).
    UntilRemoved,
    /// docs/rules.md#durations "(2 rounds)", as an ability writes it: N
    /// rounds, each ending "at the start of the Turn on which it began"
    /// (source 002, Effect Duration). Imposed, it becomes [`Duration::Until`].
    Rounds(u32),
    /// A rounds duration as imposed: it ends at the start of `turn`'s turn
    /// in round `round` (the creature whose turn it began on), or when a
    /// later round starts if that creature takes no turn by then.
    Until { round: u32, turn: CreatureId },
}

impl fmt::Display for Duration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Duration::EndOfTurn => f.write_str("EoT"),
            Duration::SaveEnds => f.write_str("save ends"),
            Duration::EndOfEncounter => f.write_str("end of encounter"),
            Duration::UntilRemoved => f.write_str("until removed"),
            Duration::Rounds(1) => f.write_str("1 round"),
            Duration::Rounds(n) => write!(f, "{n} rounds"),
            Duration::Until { round, .. } => write!(f, "until round {round}"),
        }
    }
}

impl Duration {
    /// A rounds duration, imposed in round `round` on `turn`'s turn; any
    /// other as it is.
    pub fn imposed(self, round: u32, turn: CreatureId) -> Duration {
        match self {
            Duration::Rounds(n) => Duration::Until {
                round: round.saturating_add(n),
                turn,
            },
            d => d,
        }
    }
}

/// The save of "save ends": a d10, 6 or higher ends the effect.
pub const SAVE_TARGET: u32 = 6;

pub fn save_succeeds(d10: u32) -> bool {
    d10 >= SAVE_TARGET
}

/// One condition on a creature.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActiveCondition {
    pub kind: ConditionKind,
    pub duration: Duration,
    /// Who imposed it (the source of fear, the grabber, the taunter).
    pub source: Option<CreatureId>,
    /// The ability that imposed it, for the stacking rules.
    pub ability: Option<String>,
    /// docs/rules.md#ability-saves: how the imposing roll shifts the saves
    /// against it.
    #[serde(default)]
    pub save_shift: SaveShift,
}

/// docs/rules.md#ability-saves: "All Saves are affected by the Score you get on
/// the Ability": a low score gives the target an advantage on its saves, a
/// high one a disadvantage, a critical success makes them fail (and a
/// critical failure lets the target pass at once: nothing is imposed).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum SaveShift {
    #[default]
    None,
    /// Roll twice, keep the higher.
    Advantage,
    /// Roll twice, keep the lower.
    Disadvantage,
    /// Every save fails.
    AlwaysFails,
}

impl SaveShift {
    /// The shift a roll's tier gives, for an ability whose saves it shifts
    /// (tier 1 is the seed's Low, tier 2 Mixed, tier 3 High; a critical hit
    /// its Critical Success). `None`: the seed's Critical Failure.
    pub fn from_roll(
        tier: crate::power_roll::Tier,
        critical: bool,
        fumble: bool,
    ) -> Option<SaveShift> {
        use crate::power_roll::Tier;
        if fumble {
            return None;
        }
        Some(if critical {
            SaveShift::AlwaysFails
        } else {
            match tier {
                Tier::One => SaveShift::Advantage,
                Tier::Two => SaveShift::None,
                Tier::Three => SaveShift::Disadvantage,
            }
        })
    }

    /// A save's d10 result from two rolls (the second used only when shifted).
    pub fn keep(self, first: u32, second: u32) -> u32 {
        match self {
            SaveShift::Advantage => first.max(second),
            SaveShift::Disadvantage => first.min(second),
            _ => first,
        }
    }
}

/// What applying a condition did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Applied {
    /// The creature did not have it and now does.
    Added,
    /// The same ability's earlier use was replaced (its duration now applies).
    Refreshed,
    /// A frightened or taunted condition from another source was replaced.
    Replaced { old_source: Option<CreatureId> },
    /// A second, different effect imposing a condition already there: it is
    /// tracked for its duration but does not impose the condition twice.
    AlsoImposed,
    /// Refused (a grabbed creature can't be grabbed by another creature).
    Refused(&'static str),
}

/// The conditions on one creature: a component.
#[derive(Component, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Conditions {
    pub list: Vec<ActiveCondition>,
}

impl Conditions {
    pub fn has(&self, kind: ConditionKind) -> bool {
        self.list.iter().any(|c| c.kind == kind)
    }

    /// The creature that is the source of `kind` (frightened of, grabbed by, taunted by).
    pub fn source_of(&self, kind: ConditionKind) -> Option<CreatureId> {
        self.list
            .iter()
            .find(|c| c.kind == kind)
            .and_then(|c| c.source)
    }

    /// The kinds present, each once, in a stable order.
    pub fn kinds(&self) -> Vec<ConditionKind> {
        let mut k: Vec<_> = self.list.iter().map(|c| c.kind).collect();
        k.sort();
        k.dedup();
        k
    }

    /// Impose a condition following docs/rules.md#stacking and
    /// the frightened, grabbed and taunted rules of "Conditions".
    pub fn apply(&mut self, new: ActiveCondition) -> Applied {
        let kind = new.kind;
        // "If a creature gains the frightened [taunted] condition from one
        // source while already frightened [taunted] by a different source, the
        // new condition replaces the old one."
        if matches!(kind, ConditionKind::Frightened | ConditionKind::Taunted)
            && let Some(old) = self
                .list
                .iter()
                .find(|c| c.kind == kind && c.source != new.source)
                .map(|c| c.source)
        {
            self.list.retain(|c| c.kind != kind);
            self.list.push(new);
            return Applied::Replaced { old_source: old };
        }
        // "A character who is grabbed by an enemy can't be grabbed again by another enemy."
        if kind == ConditionKind::Grabbed
            && self
                .list
                .iter()
                .any(|c| c.kind == kind && c.source != new.source)
        {
            return Applied::Refused("already grabbed by another creature");
        }
        // "The effects of the same ability used multiple times don't stack ...
        // The most recently used ability applies for determining duration."
        if let Some(existing) = self
            .list
            .iter_mut()
            .find(|c| c.kind == kind && c.ability == new.ability && c.source == new.source)
        {
            *existing = new;
            return Applied::Refreshed;
        }
        let already = self.has(kind);
        self.list.push(new);
        if already {
            Applied::AlsoImposed
        } else {
            Applied::Added
        }
    }

    /// Remove every instance of a condition. Returns whether any was there.
    pub fn remove(&mut self, kind: ConditionKind) -> bool {
        let before = self.list.len();
        self.list.retain(|c| c.kind != kind);
        before != self.list.len()
    }

    /// Remove every condition this creature has because of `source` (used
    /// when a grabber releases, or a source is gone).
    pub fn remove_from_source(&mut self, kind: ConditionKind, source: CreatureId) -> bool {
        let before = self.list.len();
        self.list
            .retain(|c| !(c.kind == kind && c.source == Some(source)));
        before != self.list.len()
    }

    /// docs/rules.md#durations: the rounds durations that end now, at the
    /// start of `turn`'s turn in round `round` (`turn` None: the start of
    /// round `round`, for those whose creature took no turn). Returns the
    /// kinds that ended.
    pub fn rounds_end(&mut self, round: u32, turn: Option<CreatureId>) -> Vec<ConditionKind> {
        let mut ended = Vec::new();
        self.list.retain(|c| {
            let done = match c.duration {
                Duration::Until { round: r, turn: t } => match turn {
                    Some(now) => t == now && r <= round,
                    None => r < round,
                },
                _ => false,
            };
            if done {
                ended.push(c.kind);
            }
            !done
        });
        ended.retain(|k| !self.has(*k));
        ended
    }

    /// End of the affected creature's turn: every EoT condition ends.
    /// Returns the kinds that ended.
    pub fn end_of_turn(&mut self) -> Vec<ConditionKind> {
        let mut ended = Vec::new();
        self.list.retain(|c| {
            let keep = c.duration != Duration::EndOfTurn;
            if !keep {
                ended.push(c.kind);
            }
            keep
        });
        ended.retain(|k| !self.has(*k));
        ended
    }

    /// The indices of save-ends entries, in order, for the end-of-turn saves.
    pub fn save_ends(&self) -> Vec<usize> {
        (0..self.list.len())
            .filter(|&i| self.list[i].duration == Duration::SaveEnds)
            .collect()
    }
}

/// What the engine knows about an ability being used, for the roll rules.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AbilityFacts {
    pub strike: bool,
    pub melee: bool,
    pub ranged: bool,
    /// Everyone the ability targets (for grabbed and taunted).
    pub targets: Vec<CreatureId>,
}

/// One creature's side of a roll: who and what it suffers.
#[derive(Clone, Copy, Debug)]
pub struct Party<'a> {
    pub id: CreatureId,
    pub conditions: &'a Conditions,
}

/// Facts from the battlefield the condition rules need.
#[derive(Clone, Copy, Debug, Default)]
pub struct Surroundings {
    /// An enemy of the attacker is adjacent to it.
    pub enemy_adjacent_to_attacker: bool,
    /// The attacker has line of effect to the creature that taunted it.
    pub line_of_effect_to_taunter: bool,
}

/// Why a roll gets an edge or bane, for the log.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RollReason {
    AttackerFrightenedOfTarget,
    TargetFrightenedOfAttacker,
    AttackerGrabbedTargetingOthers,
    AttackerProneStriking,
    TargetProneMelee,
    AttackerRestrained,
    TargetRestrained,
    AttackerTaunted,
    AttackerWeakened,
    RangedStrikeWithEnemyAdjacent,
}

impl fmt::Display for RollReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            RollReason::AttackerFrightenedOfTarget => "frightened of the target",
            RollReason::TargetFrightenedOfAttacker => "target is frightened of the attacker",
            RollReason::AttackerGrabbedTargetingOthers => "grabbed, not targeting the grabber",
            RollReason::AttackerProneStriking => "striking while prone",
            RollReason::TargetProneMelee => "melee against a prone target",
            RollReason::AttackerRestrained => "restrained",
            RollReason::TargetRestrained => "target is restrained",
            RollReason::AttackerTaunted => "taunted by another creature",
            RollReason::AttackerWeakened => "weakened",
            RollReason::RangedStrikeWithEnemyAdjacent => "ranged strike with an enemy adjacent",
        })
    }
}

/// Edges and banes from conditions and the ranged-adjacent rule, each with its reason.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RollModifiers {
    pub edges: Vec<RollReason>,
    /// A double bane is listed twice.
    pub banes: Vec<RollReason>,
}

impl RollModifiers {
    pub fn edge_count(&self) -> u32 {
        self.edges.len() as u32
    }
    pub fn bane_count(&self) -> u32 {
        self.banes.len() as u32
    }
}

/// The edges and banes conditions give an ability roll by `attacker` against
/// `target` (docs/rules.md#conditions, and "Ranged": the bane for a ranged strike
/// with an enemy adjacent).
pub fn roll_modifiers(
    attacker: Party,
    target: Party,
    ability: &AbilityFacts,
    around: Surroundings,
) -> RollModifiers {
    let mut m = RollModifiers::default();
    let a = attacker.conditions;
    let t = target.conditions;
    // Frightened: "any ability roll they make against the source of their fear
    // takes a bane. If that source is a creature, their ability rolls made
    // against the frightened creature gain an edge."
    if a.source_of(ConditionKind::Frightened) == Some(target.id) {
        m.banes.push(RollReason::AttackerFrightenedOfTarget);
    }
    if t.source_of(ConditionKind::Frightened) == Some(attacker.id) {
        m.edges.push(RollReason::TargetFrightenedOfAttacker);
    }
    // Grabbed: "takes a bane on abilities that don't target the creature ...
    // that has them grabbed".
    if let Some(grabber) = a.source_of(ConditionKind::Grabbed) {
        if !ability.targets.contains(&grabber) {
            m.banes.push(RollReason::AttackerGrabbedTargetingOthers);
        }
    } else if a.has(ConditionKind::Grabbed) {
        m.banes.push(RollReason::AttackerGrabbedTargetingOthers);
    }
    // Prone: "any strike they make takes a bane, and melee abilities used
    // against them gain an edge."
    if a.has(ConditionKind::Prone) && ability.strike {
        m.banes.push(RollReason::AttackerProneStriking);
    }
    if t.has(ConditionKind::Prone) && ability.melee {
        m.edges.push(RollReason::TargetProneMelee);
    }
    // Restrained: "takes a bane on ability rolls ... and abilities used
    // against them gain an edge."
    if a.has(ConditionKind::Restrained) {
        m.banes.push(RollReason::AttackerRestrained);
    }
    if t.has(ConditionKind::Restrained) {
        m.edges.push(RollReason::TargetRestrained);
    }
    // Taunted: "a double bane on ability rolls for any ability that doesn't
    // target the creature who taunted them, as long as they have line of
    // effect to that creature."
    if let Some(taunter) = a.source_of(ConditionKind::Taunted)
        && !ability.targets.contains(&taunter)
        && around.line_of_effect_to_taunter
    {
        m.banes.push(RollReason::AttackerTaunted);
        m.banes.push(RollReason::AttackerTaunted);
    }
    // Weakened: "takes a bane on power rolls."
    if a.has(ConditionKind::Weakened) {
        m.banes.push(RollReason::AttackerWeakened);
    }
    // "If you make a ranged strike while any enemy is adjacent to you ... you
    // have a bane on the strike's power roll."
    if ability.ranged && ability.strike && around.enemy_adjacent_to_attacker {
        m.banes.push(RollReason::RangedStrikeWithEnemyAdjacent);
    }
    m
}

/// What conditions allow a creature to do on its turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActionLimits {
    /// Dazed: "can do only one thing on their turn: use a main action, use a
    /// maneuver, or use a move action."
    pub one_action_only: bool,
    /// Dazed: "can't use triggered actions, free triggered actions, or free maneuvers."
    pub triggered_allowed: bool,
    pub free_maneuvers_allowed: bool,
    /// Restrained: "can't use the Stand Up maneuver"; also "can't stand".
    pub stand_up_allowed: bool,
}

pub fn action_limits(c: &Conditions) -> ActionLimits {
    let dazed = c.has(ConditionKind::Dazed);
    ActionLimits {
        one_action_only: dazed,
        triggered_allowed: !dazed,
        free_maneuvers_allowed: !dazed,
        stand_up_allowed: !c.has(ConditionKind::Restrained) && !c.has(ConditionKind::CantStand),
    }
}

/// What conditions do to movement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MovementLimits {
    pub speed: u32,
    /// The condition that makes the speed 0 (grabbed or restrained), for
    /// a refusal that names it.
    pub halted_by: Option<ConditionKind>,
    pub can_shift: bool,
    /// Extra cost per square moved: prone creatures crawl (+1 per square).
    pub extra_cost_per_square: u32,
    /// Prone: it can't climb, jump, swim or fly (docs/rules.md#prone).
    pub prone: bool,
    /// Restrained: "can't be force moved".
    pub can_be_force_moved: bool,
    /// Grabbed: can be force moved only by the grabber.
    pub force_moved_only_by: Option<CreatureId>,
    /// Frightened: "can't willingly move closer to the source of their fear".
    pub cannot_approach: Option<CreatureId>,
}

/// The movement effects of conditions on a creature with `base_speed`
/// (docs/rules.md#conditions: grabbed and restrained speed 0, slowed speed 2 and
/// no shifting, prone crawling at +1 per square).
pub fn movement_limits(c: &Conditions, base_speed: u32) -> MovementLimits {
    let mut speed = base_speed;
    if c.has(ConditionKind::Slowed) {
        speed = speed.min(2);
    }
    let halted_by = [ConditionKind::Grabbed, ConditionKind::Restrained]
        .into_iter()
        .find(|&k| c.has(k));
    if halted_by.is_some() {
        speed = 0;
    }
    MovementLimits {
        speed,
        halted_by,
        can_shift: !c.has(ConditionKind::Slowed),
        extra_cost_per_square: u32::from(c.has(ConditionKind::Prone)),
        prone: c.has(ConditionKind::Prone),
        can_be_force_moved: !c.has(ConditionKind::Restrained),
        force_moved_only_by: c.source_of(ConditionKind::Grabbed),
        cannot_approach: c.source_of(ConditionKind::Frightened),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: CreatureId = CreatureId(1);
    const T: CreatureId = CreatureId(2);
    const OTHER: CreatureId = CreatureId(3);

    fn cond(kind: ConditionKind, source: Option<CreatureId>, ability: &str) -> ActiveCondition {
        ActiveCondition {
            kind,
            duration: Duration::SaveEnds,
            source,
            ability: Some(ability.into()),
            save_shift: Default::default(),
        }
    }

    fn with(kinds: &[(ConditionKind, Option<CreatureId>)]) -> Conditions {
        let mut c = Conditions::default();
        for (k, s) in kinds {
            c.apply(cond(*k, *s, "x"));
        }
        c
    }

    fn strike(melee: bool, targets: &[CreatureId]) -> AbilityFacts {
        AbilityFacts {
            strike: true,
            melee,
            ranged: !melee,
            targets: targets.to_vec(),
        }
    }

    fn mods(a: &Conditions, t: &Conditions, f: &AbilityFacts, s: Surroundings) -> (u32, u32) {
        let m = roll_modifiers(
            Party {
                id: A,
                conditions: a,
            },
            Party {
                id: T,
                conditions: t,
            },
            f,
            s,
        );
        (m.edge_count(), m.bane_count())
    }

    // docs/rules.md#frightened: bane against the source, and the source gains an edge.
    #[test]
    fn frightened_both_ways() {
        let scared = with(&[(ConditionKind::Frightened, Some(T))]);
        let none = Conditions::default();
        assert_eq!(
            mods(&scared, &none, &strike(true, &[T]), Default::default()),
            (0, 1)
        );
        let target_scared = with(&[(ConditionKind::Frightened, Some(A))]);
        assert_eq!(
            mods(
                &none,
                &target_scared,
                &strike(true, &[T]),
                Default::default()
            ),
            (1, 0)
        );
        let scared_of_other = with(&[(ConditionKind::Frightened, Some(OTHER))]);
        assert_eq!(
            mods(
                &scared_of_other,
                &none,
                &strike(true, &[T]),
                Default::default()
            ),
            (0, 0)
        );
    }

    // docs/rules.md#grabbed: "takes a bane on abilities that don't target the
    // creature ... that has them grabbed".
    #[test]
    fn grabbed_bane_unless_targeting_the_grabber() {
        let grabbed = with(&[(ConditionKind::Grabbed, Some(OTHER))]);
        let none = Conditions::default();
        assert_eq!(
            mods(&grabbed, &none, &strike(true, &[T]), Default::default()),
            (0, 1)
        );
        assert_eq!(
            mods(
                &grabbed,
                &none,
                &strike(true, &[T, OTHER]),
                Default::default()
            ),
            (0, 0)
        );
    }

    // docs/rules.md#prone: strikes made while prone take a bane; melee abilities
    // against a prone creature gain an edge.
    #[test]
    fn prone_both_ways() {
        let prone = with(&[(ConditionKind::Prone, None)]);
        let none = Conditions::default();
        assert_eq!(
            mods(&prone, &none, &strike(true, &[T]), Default::default()),
            (0, 1)
        );
        assert_eq!(
            mods(&none, &prone, &strike(true, &[T]), Default::default()),
            (1, 0)
        );
        // A ranged strike against a prone creature gets no edge.
        assert_eq!(
            mods(&none, &prone, &strike(false, &[T]), Default::default()),
            (0, 0)
        );
        // A prone creature's area ability (not a strike) takes no bane.
        let area = AbilityFacts {
            targets: vec![T],
            ..Default::default()
        };
        assert_eq!(mods(&prone, &none, &area, Default::default()), (0, 0));
    }

    // docs/rules.md#restrained: bane on its ability rolls, edge on abilities against it.
    #[test]
    fn restrained_both_ways() {
        let r = with(&[(ConditionKind::Restrained, None)]);
        let none = Conditions::default();
        assert_eq!(
            mods(&r, &none, &strike(false, &[T]), Default::default()),
            (0, 1)
        );
        assert_eq!(
            mods(&none, &r, &strike(false, &[T]), Default::default()),
            (1, 0)
        );
    }

    // docs/rules.md#taunted: double bane on abilities that don't target the
    // taunter, "as long as they have line of effect to that creature".
    #[test]
    fn taunted_double_bane_with_line_of_effect() {
        let taunted = with(&[(ConditionKind::Taunted, Some(OTHER))]);
        let none = Conditions::default();
        let seen = Surroundings {
            line_of_effect_to_taunter: true,
            ..Default::default()
        };
        assert_eq!(mods(&taunted, &none, &strike(true, &[T]), seen), (0, 2));
        assert_eq!(
            mods(&taunted, &none, &strike(true, &[T]), Default::default()),
            (0, 0)
        );
        assert_eq!(mods(&taunted, &none, &strike(true, &[OTHER]), seen), (0, 0));
    }

    // docs/rules.md#weakened: "takes a bane on power rolls."
    #[test]
    fn weakened_bane() {
        let w = with(&[(ConditionKind::Weakened, None)]);
        assert_eq!(
            mods(
                &w,
                &Conditions::default(),
                &strike(true, &[T]),
                Default::default()
            ),
            (0, 1)
        );
    }

    // docs/rules.md#cover-and-high-ground: "If you make a ranged strike while any enemy is
    // adjacent to you ... you have a bane".
    #[test]
    fn ranged_strike_with_enemy_adjacent() {
        let none = Conditions::default();
        let adj = Surroundings {
            enemy_adjacent_to_attacker: true,
            ..Default::default()
        };
        assert_eq!(mods(&none, &none, &strike(false, &[T]), adj), (0, 1));
        assert_eq!(mods(&none, &none, &strike(true, &[T]), adj), (0, 0));
    }

    // docs/rules.md#stacking: "Different effects that impose the
    // same condition don't stack ... the target isn't weakened twice".
    #[test]
    fn same_condition_does_not_stack() {
        let mut c = Conditions::default();
        assert_eq!(
            c.apply(cond(ConditionKind::Weakened, Some(OTHER), "a")),
            Applied::Added
        );
        assert_eq!(
            c.apply(cond(ConditionKind::Weakened, Some(T), "b")),
            Applied::AlsoImposed
        );
        let m = roll_modifiers(
            Party {
                id: A,
                conditions: &c,
            },
            Party {
                id: T,
                conditions: &Conditions::default(),
            },
            &strike(true, &[T]),
            Default::default(),
        );
        assert_eq!(m.bane_count(), 1);
    }

    // docs/rules.md#stacking: the same ability used again doesn't
    // stack; "The most recently used ability applies for determining duration."
    #[test]
    fn same_ability_refreshes_duration() {
        let mut c = Conditions::default();
        c.apply(ActiveCondition {
            kind: ConditionKind::Slowed,
            duration: Duration::SaveEnds,
            source: Some(T),
            ability: Some("frost".into()),
            save_shift: Default::default(),
        });
        let again = ActiveCondition {
            kind: ConditionKind::Slowed,
            duration: Duration::EndOfTurn,
            source: Some(T),
            ability: Some("frost".into()),
            save_shift: Default::default(),
        };
        assert_eq!(c.apply(again.clone()), Applied::Refreshed);
        assert_eq!(c.list, vec![again]);
    }

    // docs/rules.md#frightened/"Taunted": "If a creature gains the ... condition
    // from one source while already ... by a different source, the new
    // condition replaces the old one."
    #[test]
    fn frightened_and_taunted_replace() {
        for kind in [ConditionKind::Frightened, ConditionKind::Taunted] {
            let mut c = Conditions::default();
            c.apply(cond(kind, Some(T), "a"));
            assert_eq!(
                c.apply(cond(kind, Some(OTHER), "b")),
                Applied::Replaced {
                    old_source: Some(T)
                }
            );
            assert_eq!(c.source_of(kind), Some(OTHER));
            assert_eq!(c.list.len(), 1);
        }
    }

    // docs/rules.md#stacking: "A character who is grabbed by an
    // enemy can't be grabbed again by another enemy."
    #[test]
    fn grabbed_once() {
        let mut c = Conditions::default();
        c.apply(cond(ConditionKind::Grabbed, Some(T), "grab"));
        assert!(matches!(
            c.apply(cond(ConditionKind::Grabbed, Some(OTHER), "grab")),
            Applied::Refused(_)
        ));
        assert_eq!(c.source_of(ConditionKind::Grabbed), Some(T));
    }

    // docs/rules.md#saving-throws "End of Next Turn (EoT)" and "Saving Throw": EoT conditions end
    // at the end of the creature's turn; save ends on a d10 of 6 or higher.
    #[test]
    fn eot_ends_at_end_of_turn_and_saves_on_six() {
        let mut c = Conditions::default();
        c.apply(ActiveCondition {
            kind: ConditionKind::Slowed,
            duration: Duration::EndOfTurn,
            source: None,
            ability: None,
            save_shift: Default::default(),
        });
        c.apply(cond(ConditionKind::Bleeding, None, "x"));
        assert_eq!(c.end_of_turn(), vec![ConditionKind::Slowed]);
        assert!(c.has(ConditionKind::Bleeding));
        assert_eq!(c.save_ends(), vec![0]);
        assert!(!save_succeeds(5));
        assert!(save_succeeds(6));
    }

    // docs/rules.md#dazed, #grabbed, #restrained: what a creature may not do.
    #[test]
    fn action_limits_of_conditions() {
        let dazed = action_limits(&with(&[(ConditionKind::Dazed, None)]));
        assert!(dazed.one_action_only && !dazed.triggered_allowed && !dazed.free_maneuvers_allowed);
        assert!(!action_limits(&with(&[(ConditionKind::Restrained, None)])).stand_up_allowed);
        assert!(!action_limits(&with(&[(ConditionKind::CantStand, None)])).stand_up_allowed);
        assert!(action_limits(&Conditions::default()).stand_up_allowed);
    }

    // docs/rules.md#grabbed/"Restrained": speed 0; "Slowed": speed 2 and can't
    // shift; "Prone": crawling costs 1 additional square.
    #[test]
    fn movement_limits_of_conditions() {
        let none = movement_limits(&Conditions::default(), 5);
        assert_eq!(
            (none.speed, none.can_shift, none.extra_cost_per_square),
            (5, true, 0)
        );
        let slowed = movement_limits(&with(&[(ConditionKind::Slowed, None)]), 5);
        assert_eq!((slowed.speed, slowed.can_shift), (2, false));
        assert_eq!(
            movement_limits(&with(&[(ConditionKind::Slowed, None)]), 1).speed,
            1
        );
        assert_eq!(
            movement_limits(&with(&[(ConditionKind::Grabbed, Some(T))]), 5).speed,
            0
        );
        let r = movement_limits(&with(&[(ConditionKind::Restrained, None)]), 5);
        assert_eq!((r.speed, r.can_be_force_moved), (0, false));
        assert_eq!(
            movement_limits(&with(&[(ConditionKind::Prone, None)]), 5).extra_cost_per_square,
            1
        );
        let f = movement_limits(&with(&[(ConditionKind::Frightened, Some(T))]), 5);
        assert_eq!(f.cannot_approach, Some(T));
    }
}
