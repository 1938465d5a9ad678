//! The components a creature in an encounter is made of.

use bevy_ecs::prelude::*;
use serde::{Deserialize, Serialize};

use crate::ability::{Ability, TriggerEvent};
use crate::map::{Footprint, Side};
use crate::stats::CreatureId;

/// Who a creature is.
#[derive(Component, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Creature {
    pub id: CreatureId,
    pub name: String,
    pub side: Side,
    pub level: u32,
    pub kind: CreatureKind,
    /// docs/rules.md#creature-tags: what kind of creature it is ("Undead"),
    /// from its class or stat block.
    #[serde(default)]
    pub tags: Vec<String>,
    /// docs/rules.md#size-and-space: its size (heroes 1M).
    #[serde(default)]
    pub size: crate::stats::Size,
}

impl Creature {
    /// Whether it bears `tag` (letter case aside).
    pub fn has_tag(&self, tag: &str) -> bool {
        self.tags.iter().any(|t| t.eq_ignore_ascii_case(tag))
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CreatureKind {
    Hero {
        class: String,
    },
    Monster {
        stat_block: String,
        squad: Option<u32>,
    },
}

/// The squares a creature occupies.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Space(pub Footprint);

/// Speed, stability and ways of moving.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Movement {
    pub speed: u32,
    pub stability: u32,
    /// How it gets over water, heights and gaps besides walking
    /// (docs/rules.md#climbing-swimming-jumping-and-flying).
    #[serde(default)]
    pub modes: crate::map::movement::Modes,
}

/// The ids of the abilities a creature can use, which trigger events any
/// of them answers, and the abilities themselves as the content had them
/// when the list was made. Change the list through [`Abilities::new`],
/// [`Abilities::push`] and [`Abilities::remove`], which keep the three in
/// step. (Shared: a listing of the creature's commands names its abilities
/// from it, and a snapshot copies it, without copying the ids.)
#[derive(Component, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Abilities(
    pub std::sync::Arc<[String]>,
    pub Triggers,
    #[serde(skip)] pub Resolved,
);

/// Each of a creature's ability ids looked up in the content once, in the
/// ids' order (none for an unknown id), so a listing made before every
/// command need not look each up again. Empty when the list was made with
/// no content at hand (or read back from a file): readers then look the
/// ids up themselves ([`Abilities::looked_up`]). Derived from the ids, it
/// takes no part in comparisons.
#[derive(Clone, Debug, Default)]
pub struct Resolved(pub std::sync::Arc<[Option<std::sync::Arc<crate::ability::Ability>>]>);

impl PartialEq for Resolved {
    fn eq(&self, _: &Resolved) -> bool {
        true
    }
}

impl Eq for Resolved {}

impl Resolved {
    fn of(ids: &[String], content: &crate::content::ContentDb) -> Resolved {
        Resolved(
            ids.iter()
                .map(|id| content.abilities.get(id).cloned())
                .collect(),
        )
    }
}

/// A set of [`TriggerEvent`]s: a bit each. Reactions are looked for after
/// every step and every hit, for every creature: most answer none, and
/// this tells so without looking their abilities up.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Triggers(u16);

impl Triggers {
    /// The events the abilities with these ids answer.
    pub fn of(ids: &[String], content: &crate::content::ContentDb) -> Triggers {
        let mut t = Triggers(0);
        for id in ids {
            let Some(a) = content.ability(id) else {
                continue;
            };
            if let Some(on) = a.trigger.as_ref().map(|t| t.on) {
                t.0 |= Triggers::bit(on);
            }
            // docs/rules.md#villain-actions: offered as any turn ends.
            if a.action == crate::ability::ActionType::VillainAction {
                t.0 |= Triggers::bit(TriggerEvent::TurnEnded);
            }
        }
        t
    }

    fn bit(on: TriggerEvent) -> u16 {
        1 << on as u8
    }

    pub fn contains(self, on: TriggerEvent) -> bool {
        self.0 & Triggers::bit(on) != 0
    }
}

impl Abilities {
    pub fn new(ids: Vec<String>, content: &crate::content::ContentDb) -> Abilities {
        let t = Triggers::of(&ids, content);
        let r = Resolved::of(&ids, content);
        Abilities(ids.into(), t, r)
    }

    pub fn push(&mut self, id: String, content: &crate::content::ContentDb) {
        let mut ids = self.0.to_vec();
        ids.push(id);
        *self = Abilities::new(ids, content);
    }

    pub fn remove(&mut self, id: &str, content: &crate::content::ContentDb) {
        let ids = self.0.iter().filter(|x| *x != id).cloned().collect();
        *self = Abilities::new(ids, content);
    }

    /// The `k`th ability, as [`Resolved`] keeps it or else looked up in
    /// `content` (which must be the content the list was made with, when
    /// it was made with one: the encounter's).
    #[inline]
    pub fn looked_up<'a>(
        &'a self,
        k: usize,
        content: &'a crate::content::ContentDb,
    ) -> Option<&'a crate::ability::Ability> {
        match self.2.0.get(k) {
            Some(a) if self.2.0.len() == self.0.len() => a.as_deref(),
            _ => content.ability(self.0.get(k)?),
        }
    }
}

/// Free strike damage (docs/rules.md#moving: opportunity attacks are melee free strikes).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FreeStrike(pub i32);

/// A hero's heroic resource and surges.
#[derive(Component, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Heroic {
    pub resource: String,
    pub amount: u32,
    pub surges: u32,
    pub potency_from: crate::stats::Characteristic,
    /// The class's own gain trigger (docs/rules.md#heroic-resources).
    pub trigger: crate::content::ResourceTrigger,
    pub trigger_amount: u32,
    /// docs/rules.md#class-tables: resource at the start of each turn
    /// besides the class's gain (from the hero's level).
    #[serde(default)]
    pub per_turn: u32,
    /// The last round the trigger fired ("the first time each round").
    pub trigger_round: u32,
    /// Resource spent that the hero did not have (the talent's strain): it
    /// stands below 0 by this much.
    #[serde(default)]
    pub strain: u32,
    /// How far below 0 the class may go (0: not at all).
    #[serde(default)]
    pub strain_limit: u32,
    /// The class's potency bonus against a target the hero has marked
    /// (docs/rules.md#potency-adjustments: a censor's judged target, +1).
    #[serde(default)]
    pub potency_vs_marked: i32,
}

impl Heroic {
    /// Whether `n` can be spent now: what the hero has, plus for a class
    /// that may strain, down to its limit below 0.
    pub fn can_pay(&self, n: u32) -> bool {
        u64::from(self.amount) + u64::from(self.strain_limit.saturating_sub(self.strain))
            >= u64::from(n)
    }

    /// Spend `n` (checked with [`Heroic::can_pay`]); what is missing is strain.
    pub fn pay(&mut self, n: u32) {
        if self.amount >= n {
            self.amount -= n;
        } else {
            self.strain += n - self.amount;
            self.amount = 0;
        }
    }

    /// Gain `n`: strain is paid back first.
    pub fn gain(&mut self, n: u32) {
        let back = n.min(self.strain);
        self.strain -= back;
        self.amount = self.amount.saturating_add(n - back);
    }

    /// The resource as a signed number (below 0 while strained).
    pub fn value(&self) -> i64 {
        i64::from(self.amount) - i64::from(self.strain)
    }
}

pub use crate::actions::TurnBudget;

/// What a creature's basic actions left it doing (see the README's rulings).
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stance {
    /// Took the Defend main action: rolls against it take banes until the
    /// start of its next turn.
    pub defending: bool,
    /// Hidden: strikes from creatures not adjacent to it can't target it; its
    /// next ability roll against an enemy gains an edge.
    pub hidden: bool,
    /// docs/rules.md#penalties: stacks of Straining and Exhausting, and
    /// whether it used a straining ability this turn.
    #[serde(default)]
    pub straining: u8,
    #[serde(default)]
    pub exhausting: u8,
    #[serde(default)]
    pub strained: bool,
}

impl Stance {
    /// The stacks of a penalty it bears.
    pub fn stacks(&self, p: crate::ability::Penalty) -> u32 {
        match p {
            crate::ability::Penalty::Straining => self.straining as u32,
            crate::ability::Penalty::Exhausting => self.exhausting as u32,
        }
    }

    /// The banes a roll of an ability with these penalties takes: one per
    /// stack of each.
    pub fn penalty_banes(&self, penalties: &[crate::ability::Penalty]) -> u32 {
        penalties.iter().map(|&p| self.stacks(p)).sum()
    }
}

/// A minion's squad number (docs/rules.md#minions).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SquadMember(pub u32);

/// A squad's shared stamina (docs/rules.md#minions: "shares one stamina pool;
/// each time the pool loses a minion's stamina, one minion dies").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SquadPool {
    pub pool: i32,
    pub max: i32,
    /// One minion's stamina.
    pub per_minion: i32,
    /// docs/rules.md#captains: the squad's captain, and what its minions
    /// gain while it stands.
    #[serde(default)]
    pub captain: Option<crate::stats::CreatureId>,
    #[serde(default)]
    pub with_captain: Option<crate::content::CaptainBonus>,
}

/// docs/rules.md#solo-turns: how many turns the creature takes a round
/// (only those with more than one have it).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Turns(pub u32);

/// Every squad's pool, by squad number.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Squads(pub std::collections::BTreeMap<u32, SquadPool>);

/// A lasting aura on its user (docs/rules.md#aura).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActiveAura {
    pub ability: String,
    pub radius: u32,
    pub when: crate::ability::AuraTiming,
    /// Ends of the user's turns left before it ends (`None`: lasts the encounter).
    pub turn_ends_left: Option<u32>,
}

/// The auras a creature carries.
#[derive(Component, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Auras(pub Vec<ActiveAura>);

/// docs/rules.md#aura's active bonuses on a creature: shields and retaliation, each
/// lasting the round, a number of uses, or the encounter.
#[derive(Component, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bonuses(pub Vec<ActiveBonus>);

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActiveBonus {
    pub kind: crate::ability::BonusKind,
    pub lasts: crate::ability::BonusLasts,
    /// Uses left, for a bonus with charges.
    pub uses_left: Option<u32>,
    /// The ability that gave it (its name, for the log).
    pub ability: String,
    /// Who gave it, and the giving ability's id (for docs/rules.md#concentration's
    /// concentration: a lost concentration ends it).
    #[serde(default)]
    pub source: Option<CreatureId>,
    #[serde(default)]
    pub from: String,
    /// The charges that give the giver experience as they are spent
    /// (see [`crate::ability::BonusSpec::xp`]).
    #[serde(default)]
    pub xp: u32,
}

/// What spending bonuses' uses did: the names of the bonuses used up, and
/// the givers owed 1 experience each by a charge spent.
#[derive(Debug, Default)]
pub struct UsedUp {
    pub ended: Vec<String>,
    pub experience: Vec<CreatureId>,
}

impl Bonuses {
    /// Gain a bonus. docs/rules.md#stacking: "the effects of the
    /// same ability used multiple times don't stack. Instead, the most
    /// impactful effect—such as the highest bonus—from each use of the
    /// ability applies. The most recently used ability applies for
    /// determining duration." A bonus of the kind one from the same ability
    /// already gives replaces it, keeping the higher amount and taking the
    /// new one's duration; bonuses of different abilities stack (docs/rules.md#durations:
    /// "Multiple shield bonuses stack with one another").
    pub fn gain(&mut self, new: ActiveBonus) {
        use crate::ability::BonusKind as K;
        let same = self.0.iter_mut().find(|b| {
            b.from == new.from
                && match (b.kind, new.kind) {
                    (K::Shield(_), K::Shield(_)) => true,
                    (K::Retaliate { range: a, .. }, K::Retaliate { range: b, .. }) => a == b,
                    _ => false,
                }
        });
        let Some(old) = same else {
            self.0.push(new);
            return;
        };
        let kind = match (old.kind, new.kind) {
            (K::Shield(a), K::Shield(b)) => K::Shield(a.max(b)),
            (K::Retaliate { amount: a, range }, K::Retaliate { amount: b, .. }) => K::Retaliate {
                amount: a.max(b),
                range,
            },
            (_, k) => k,
        };
        *old = ActiveBonus { kind, ..new };
    }

    /// Total shield against one attack (docs/rules.md#stacking "Multiple shield bonuses stack").
    pub fn shield(&self) -> u32 {
        self.0
            .iter()
            .map(|b| match b.kind {
                crate::ability::BonusKind::Shield(n) => n,
                _ => 0,
            })
            .sum()
    }

    /// Total retaliation against an attacker `distance` squares away.
    pub fn retaliation(&self, distance: u32) -> u32 {
        self.0
            .iter()
            .map(|b| match b.kind {
                crate::ability::BonusKind::Retaliate { amount, range } if distance <= range => {
                    amount
                }
                _ => 0,
            })
            .sum()
    }

    /// Spend a use of every bonus `applies` picks (persistent bonuses "must"
    /// be used when they can).
    pub fn use_up(&mut self, applies: impl Fn(&ActiveBonus) -> bool) -> UsedUp {
        let mut used = UsedUp::default();
        self.0.retain_mut(|b| {
            if !applies(b) {
                return true;
            }
            match &mut b.uses_left {
                Some(n) => {
                    // docs/rules.md#experience: "when that charge of the
                    // bonus is expended".
                    if let crate::ability::BonusLasts::Charges(total) = b.lasts {
                        let k = total.saturating_sub(*n);
                        if k < 32
                            && b.xp & (1 << k) != 0
                            && let Some(giver) = b.source
                        {
                            used.experience.push(giver);
                        }
                    }
                    *n = n.saturating_sub(1);
                    if *n == 0 {
                        used.ended.push(b.ability.clone());
                        false
                    } else {
                        true
                    }
                }
                None => true,
            }
        });
        used
    }

    /// The round ends: round bonuses go; returns their names.
    pub fn end_round(&mut self) -> Vec<String> {
        let mut ended = Vec::new();
        self.0.retain(|b| {
            let keep = b.lasts != crate::ability::BonusLasts::Round;
            if !keep {
                ended.push(b.ability.clone());
            }
            keep
        });
        ended
    }
}

/// What a creature has gathered and used up in this encounter: treasure
/// looted, experience earned (docs/rules.md#loot, #experience), and
/// its limited abilities and items spent (docs/rules.md#recover-and-refresh).
#[derive(Component, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Progress {
    /// Coins picked up from treasure tokens.
    pub loot: u32,
    pub experience: u32,
    /// Ids of limited abilities and items used up, oldest first.
    pub spent: Vec<String>,
    /// docs/rules.md#villain-actions: the round of its last villain action
    /// (0: none yet), for "at most one a round".
    #[serde(default)]
    pub villain_round: u32,
}

/// A summoned creature (docs/rules.md#summons): who summoned it, the round it
/// appeared in (it "never" acts in that round), and its place among its
/// summoner's summons ("they act in the order in which they were summoned").
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Summoned {
    pub owner: CreatureId,
    pub round: u32,
    pub order: u32,
}

/// A slow action waiting for the start of its user's next turn (docs/rules.md#power-roll
/// "Slow Action"): the roll as started, and where the user stood.
#[derive(Component, Clone, Debug)]
pub struct Casting {
    pub roll: Box<super::work::PendingRoll>,
    pub from: crate::map::Pos,
}

/// Abilities a creature has prepared (docs/rules.md#prepared-abilities).
#[derive(Component, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PreparedAbilities(pub Vec<PreparedAbility>);

/// One prepared ability and what makes it expire.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PreparedAbility {
    pub ability: String,
    /// Uses left; `None`: not counted by uses.
    pub uses: Option<u32>,
    /// It expires when the round ends.
    pub round: bool,
    /// The concentration ability that prepared it: it expires when that
    /// concentration ends (docs/rules.md#prepared-abilities).
    pub source: Option<String>,
}

/// How many uses of `ability` the creature has left (`None`: unlimited).
pub fn uses_left(progress: Option<&Progress>, ability: &Ability) -> Option<u32> {
    let max = ability.uses?;
    let used = progress.map_or(0, |p| p.spent.iter().filter(|s| **s == ability.id).count());
    Some(max.saturating_sub(used as u32))
}
