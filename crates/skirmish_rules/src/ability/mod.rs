//! The ability data model (docs/rules.md#ability-anatomy), loadable from RON, and the
//! pure evaluation of a tier outcome for one user and one target.

mod distance;
pub mod lasting;
pub mod notation;
pub mod upkeep;

use serde::{Deserialize, Serialize};

pub use distance::{
    Distance, Relation, SHOOTING, SNIPING, SPITTING, SWINGING, THROWING, Target, TargetKind,
};
pub use lasting::{
    AuraLasts, AuraSpec, AuraTiming, GlyphAbility, GlyphAfter, GlyphSpec, GlyphTrigger,
};
pub use notation::{
    BonusKind, BonusLasts, BonusSpec, Effect, ForcedKind, NotationError, PotencyCheck,
    PotencyValue, Prepared,
};
pub use upkeep::{Component, ExperienceIf, Penalty, component_penalty};

use crate::conditions::{ConditionKind, Duration};
use crate::power_roll::Tier;
use crate::stats::{Characteristic, Characteristics, DamageType, potency_applies, potency_value};

/// docs/rules.md#ability-anatomy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Keyword {
    Area,
    Charge,
    Magic,
    Melee,
    Psionic,
    Ranged,
    Strike,
    Weapon,
}

/// docs/rules.md#ability-anatomy "Type": the action an ability takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ActionType {
    MainAction,
    Maneuver,
    MoveAction,
    /// docs/rules.md#triggered-actions's "Reaction" is written `Reaction` or `TriggeredAction`.
    #[serde(alias = "Reaction")]
    TriggeredAction,
    /// docs/rules.md#triggered-actions's "Free Reaction".
    #[serde(alias = "FreeReaction")]
    FreeTriggeredAction,
    FreeManeuver,
    /// docs/rules.md#free-actions: "can only be used on your Turn, but does
    /// not cost a Beat"; its score is found and it takes effect at once.
    FreeAction,
    NoAction,
    /// docs/rules.md#slow-actions: started with the main action, targets chosen
    /// then; it takes effect at the start of the user's next turn.
    SlowAction,
    /// docs/rules.md#passives: "always in effect": its effect is applied to the
    /// user when the encounter starts and lasts.
    Passive,
    /// docs/rules.md#passives "Episodics": "performed at the start of a new Episode": its
    /// effect is applied to the user when the encounter starts.
    Episodic,
    /// docs/rules.md#villain-actions: a leader's or solo's, used at the end
    /// of any creature's turn, at most one a round, each once an encounter
    /// (`uses: 1`).
    VillainAction,
}

impl ActionType {
    /// Passives and episodics are never used on a turn: they apply at the
    /// start of the encounter.
    pub fn at_encounter_start(self) -> bool {
        matches!(self, ActionType::Passive | ActionType::Episodic)
    }

    pub fn is_triggered(self) -> bool {
        matches!(
            self,
            ActionType::TriggeredAction | ActionType::FreeTriggeredAction
        )
    }
}

/// The typed events a triggered ability can listen for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TriggerEvent {
    /// A creature deals damage to the target (the tactician's Parry).
    CreatureDealsDamage,
    /// An ally within distance is targeted by an ability.
    AllyTargeted,
    /// The user is targeted by an ability.
    SelfTargeted,
    /// A creature moves into a square adjacent to the user.
    CreatureMovesAdjacent,
    /// A creature within distance starts using an ability.
    CreatureStartsAbility,
    /// An enemy adjacent to the user leaves adjacency without shifting.
    EnemyLeavesAdjacency,
    /// The user takes damage.
    SelfTakesDamage,
    /// The engine's own: a critical hit off the creature's turn gives its
    /// extra main action at once (docs/rules.md#critical-hit). The prompt
    /// offers its main-action abilities; no content ability answers it.
    CriticalHit,
    /// The engine's own: an ally's `signature strike` lets the creature
    /// use a signature ability at once, as a free triggered action.
    StrikeNow,
    /// The engine's own: a creature's turn ends, and a leader or solo may
    /// use a villain action (docs/rules.md#villain-actions). The prompt
    /// offers its villain actions; no content trigger names it.
    TurnEnded,
}

/// docs/rules.md#triggered-actions: when a triggered ability can be used.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Trigger {
    pub on: TriggerEvent,
    /// The trigger as printed, for the tooltip.
    #[serde(default)]
    pub text: String,
    /// docs/rules.md#ability-tags: only an ability with this tag sets it off
    /// ("When a creature uses a Healing Effect Ability"); with
    /// `CreatureStartsAbility` and the targeted events.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tag: Option<String>,
}

/// What using the ability costs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Cost {
    /// No cost and not a signature ability (basic and monster abilities).
    #[default]
    Free,
    /// A signature ability: no cost (docs/rules.md#phased-2d6 "Signature Abilities").
    Signature,
    /// A heroic ability costing this much of the class's resource.
    Heroic(u32),
    /// A Director creature's ability costing Malice.
    Malice(u32),
}

/// A tier line: the text as written and, once validated, its effects.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "String", into = "String")]
pub struct TierLine {
    pub text: String,
    pub effects: Vec<Effect>,
}

impl From<String> for TierLine {
    fn from(text: String) -> Self {
        TierLine {
            text,
            effects: Vec::new(),
        }
    }
}

impl From<TierLine> for String {
    fn from(t: TierLine) -> Self {
        t.text
    }
}

impl TierLine {
    /// Parse the text into effects.
    pub fn parse(&mut self) -> Result<(), NotationError> {
        self.effects = notation::parse_tier(&self.text)?;
        Ok(())
    }

    /// A tier line parsed at once (for code and tests).
    pub fn parsed(text: &str) -> Result<TierLine, NotationError> {
        let mut t = TierLine::from(text.to_string());
        t.parse()?;
        Ok(t)
    }
}

/// docs/rules.md#power-roll: the characteristics that may be added and the three tiers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PowerRoll {
    pub characteristics: Vec<Characteristic>,
    pub tiers: (TierLine, TierLine, TierLine),
}

impl PowerRoll {
    pub fn tier(&self, tier: Tier) -> &TierLine {
        match tier {
            Tier::One => &self.tiers.0,
            Tier::Two => &self.tiers.1,
            Tier::Three => &self.tiers.2,
        }
    }

    pub fn tiers_mut(&mut self) -> [&mut TierLine; 3] {
        [&mut self.tiers.0, &mut self.tiers.1, &mut self.tiers.2]
    }
}

/// docs/rules.md#heroic-resources: a "Spend X" or "Spend X+" entry.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Spend {
    pub amount: u32,
    /// "Spend X+": may be spent in multiples of X.
    #[serde(default)]
    pub repeatable: bool,
    pub text: String,
    /// The typed effect of each X spent, in tier notation (optional).
    #[serde(default)]
    pub effects: Option<TierLine>,
}

/// One ability, as content files write it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ability {
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub flavor: String,
    /// The icon the client draws for it (a Game Icons name, docs/art.md);
    /// without one, the client picks one by its damage type and keywords.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub icon: Option<String>,
    #[serde(default)]
    pub keywords: Vec<Keyword>,
    /// docs/rules.md#ability-tags: what kinds of effect it has, as its
    /// header lists them ("Healing"), for triggers that name one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
    pub action: ActionType,
    #[serde(default)]
    pub trigger: Option<Trigger>,
    pub distance: Distance,
    pub target: Target,
    #[serde(default)]
    pub cost: Cost,
    #[serde(default)]
    pub power_roll: Option<PowerRoll>,
    /// The effect entry: free text, and typed effects in tier notation.
    #[serde(default)]
    pub effect: Option<TierLine>,
    #[serde(default)]
    pub spend: Vec<Spend>,
    /// For an aura: what it does while it lasts (docs/rules.md#aura: it
    /// "moves with you for the duration of the ability that created it").
    #[serde(default)]
    pub aura: Option<AuraSpec>,
    /// Experience its user gains each time it is used (docs/rules.md#aura "Gaining
    /// Experience": "When that action is taken, the character gains the
    /// number of experience specified").
    #[serde(default)]
    pub experience: u32,
    /// docs/rules.md#experience: "sometimes the action specifies that
    /// experience is only earned under certain conditions": then
    /// `experience` is gained only when this holds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub experience_if: Option<ExperienceIf>,
    /// Uses per encounter; once spent it can't be used until recovered or
    /// refreshed (docs/rules.md#recover-and-refresh). `None`: unlimited.
    #[serde(default)]
    pub uses: Option<u32>,
    /// An item rather than an ability: `refresh` brings it back, `recover`
    /// does not.
    #[serde(default)]
    pub item: bool,
    /// docs/rules.md#distances-and-targets: a "true" distance needs no line of effect to
    /// the target and the target "cannot benefit from taking cover".
    #[serde(default)]
    pub true_distance: bool,
    /// A glyphic ability (docs/rules.md#glyphs): its area
    /// places an invisible glyph with these glyph abilities on each open
    /// square it covers, instead of affecting creatures.
    #[serde(default)]
    pub glyph: Option<GlyphSpec>,
    /// docs/rules.md#ability-saves: the roll's result shifts the saves against
    /// the "save ends" conditions it imposes (see [`crate::conditions::SaveShift`]).
    #[serde(default)]
    pub shifted_saves: bool,
    /// docs/rules.md#concentration: its lasting effects (conditions, bonuses,
    /// aura) hold only while its user keeps concentrating.
    #[serde(default)]
    pub concentration: bool,
    /// docs/rules.md#requirements: what must hold to start it (free hands,
    /// standing); without it the ability can't be used.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub requirements: Vec<Component>,
    /// Conditions under which it can't be used at all (docs/rules.md#grabbed:
    /// a grabbed creature "can't use the Knockback maneuver").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub barred_by: Vec<crate::conditions::ConditionKind>,
    /// docs/rules.md#penalties: Straining and Exhausting, each imposing a
    /// stack on the user that hinders later uses of abilities with it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub penalties: Vec<Penalty>,
    /// docs/rules.md#components: what the ability needs while it is used and
    /// while its effect lasts (concentration is kept apart, above).
    #[serde(default)]
    pub components: Vec<Component>,
    /// Whether any line of it summons, worked out the first time it is
    /// asked ([`Ability::summons`]) and kept.
    #[serde(skip)]
    summons: Memo,
}

/// A fact about an ability worked out from its lines once, when first
/// asked, and kept with it. Content is read-only once shared, so the lines
/// it was worked out from do not change under it. Two abilities are equal
/// whether or not either has worked it out yet.
#[derive(Clone, Debug, Default)]
struct Memo(std::sync::OnceLock<bool>);

impl PartialEq for Memo {
    fn eq(&self, _: &Memo) -> bool {
        true
    }
}

impl Eq for Memo {}

impl Ability {
    /// Whether it lists `tag` among its tags (letter case aside).
    pub fn has_tag(&self, tag: &str) -> bool {
        self.tags.iter().any(|t| t.eq_ignore_ascii_case(tag))
    }

    pub fn has(&self, k: Keyword) -> bool {
        self.keywords.contains(&k)
    }

    pub fn is_strike(&self) -> bool {
        self.has(Keyword::Strike)
    }

    /// The first answer `f` gives for the effects its lines hold (tiers,
    /// effect entry, spend entries, aura, glyph abilities, in that order).
    /// Plain loops: one chain of iterators over all of it made the greedy
    /// brain's decisions a sixth slower.
    pub fn find_effect<R>(&self, mut f: impl FnMut(&Effect) -> Option<R>) -> Option<R> {
        let mut in_line = |l: &TierLine| l.effects.iter().find_map(&mut f);
        if let Some(pr) = &self.power_roll {
            for l in [&pr.tiers.0, &pr.tiers.1, &pr.tiers.2] {
                if let Some(r) = in_line(l) {
                    return Some(r);
                }
            }
        }
        let spends = self.spend.iter().filter_map(|s| s.effects.as_ref());
        let glyphs = self
            .glyph
            .iter()
            .flat_map(|g| g.abilities.iter().filter_map(|ga| ga.effect.as_ref()));
        for l in self
            .effect
            .iter()
            .chain(spends)
            .chain(self.aura.as_ref().map(|a| &a.effect))
            .chain(glyphs)
        {
            if let Some(r) = in_line(l) {
                return Some(r);
            }
        }
        None
    }

    /// Whether any of its effects is one `f` picks out.
    pub fn has_effect(&self, mut f: impl FnMut(&Effect) -> bool) -> bool {
        self.find_effect(|e| f(e).then_some(())).is_some()
    }

    /// The stat blocks any line of the ability summons, each once.
    pub fn summoned_stat_blocks(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        // Every effect is visited: the search is never answered.
        self.find_effect(|e| {
            if let Effect::Summon(id) = e
                && !out.contains(id)
            {
                out.push(id.clone());
            }
            None::<()>
        });
        out
    }

    /// Whether any line of the ability summons (docs/rules.md#summons): the
    /// legal-action listing asks it of every ability, every command, so it
    /// is worked out once and kept.
    #[inline]
    pub fn summons(&self) -> bool {
        *self
            .summons
            .0
            .get_or_init(|| self.has_effect(|e| matches!(e, Effect::Summon(_))))
    }

    /// Every tier line of the ability, with a label for error messages.
    pub fn lines_mut(&mut self) -> Vec<(String, &mut TierLine)> {
        let mut out: Vec<(String, &mut TierLine)> = Vec::new();
        if let Some(pr) = &mut self.power_roll {
            for (i, t) in pr.tiers_mut().into_iter().enumerate() {
                out.push((format!("tier {}", i + 1), t));
            }
        }
        if let Some(e) = &mut self.effect {
            out.push(("effect".into(), e));
        }
        for (i, s) in self.spend.iter_mut().enumerate() {
            if let Some(e) = &mut s.effects {
                out.push((format!("spend entry {}", i + 1), e));
            }
        }
        if let Some(a) = &mut self.aura {
            out.push(("aura effect".into(), &mut a.effect));
        }
        if let Some(g) = &mut self.glyph {
            for (i, ga) in g.abilities.iter_mut().enumerate() {
                if let Some(e) = &mut ga.effect {
                    out.push((format!("glyph ability {}", i + 1), e));
                }
            }
        }
        out
    }

    /// Parse every tier line. Returns the errors with the line each came from.
    pub fn parse_lines(&mut self) -> Vec<(String, String, NotationError)> {
        let mut errors = Vec::new();
        for (label, line) in self.lines_mut() {
            if let Err(e) = line.parse() {
                errors.push((label, line.text.clone(), e));
            }
        }
        errors
    }
}

/// The extra effects of spending `amount` heroic resource on an ability's
/// "Spend X" entries (docs/rules.md#heroic-resources: "If an entry reads
/// 'Spend X+', you can spend as much ... as you like in multiples of X").
/// Entries are taken in order; a plain entry once if affordable, a "+" entry
/// as many times as what is left allows. The whole amount must be used.
/// Whether `effects` act on a target only through potencies: at least one
/// effect, and every one a condition or forced movement gated by a potency.
/// A target that resists them is then unaffected, and what was spent on
/// them is not spent (docs/rules.md#potency, "Spending Resources on
/// Potencies").
pub fn only_by_potency<'a>(effects: impl IntoIterator<Item = &'a Effect>) -> bool {
    let mut any = false;
    for e in effects {
        match e {
            Effect::Condition {
                potency: Some(_), ..
            }
            | Effect::ForcedMove {
                potency: Some(_), ..
            } => any = true,
            _ => return false,
        }
    }
    any
}

impl Ability {
    /// Whether every outcome of this ability acts on its targets only
    /// through potencies ([`only_by_potency`]): each tier with the effect
    /// entry, or the effect entry alone. An aura acts later, so never.
    pub fn only_by_potency(&self) -> bool {
        if self.aura.is_some() {
            return false;
        }
        let always: Vec<&Effect> = self.effect.iter().flat_map(|e| e.effects.iter()).collect();
        match &self.power_roll {
            Some(p) => [Tier::One, Tier::Two, Tier::Three]
                .into_iter()
                .all(|t| only_by_potency(p.tier(t).effects.iter().chain(always.iter().copied()))),
            None => only_by_potency(always),
        }
    }
}

pub fn spend_effects(entries: &[Spend], amount: u32) -> Result<Vec<Effect>, String> {
    if entries.is_empty() {
        return Err("the ability has no Spend entries".into());
    }
    let mut left = amount;
    let mut out = Vec::new();
    for e in entries {
        if e.amount == 0 || left < e.amount {
            continue;
        }
        let times = if e.repeatable { left / e.amount } else { 1 };
        left -= times * e.amount;
        let effects = e
            .effects
            .as_ref()
            .map(|t| t.effects.clone())
            .unwrap_or_default();
        for _ in 0..times {
            out.extend(effects.iter().cloned());
        }
    }
    if left > 0 {
        let sizes: Vec<String> = entries
            .iter()
            .map(|e| format!("{}{}", e.amount, if e.repeatable { "+" } else { "" }))
            .collect();
        return Err(format!(
            "{left} left over (entries: Spend {})",
            sizes.join(", ")
        ));
    }
    Ok(out)
}

/// A condition that a tier outcome imposes or that the target resisted.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConditionOutcome {
    pub conditions: Vec<ConditionKind>,
    pub duration: Duration,
    /// False when the target's characteristic beat the potency.
    pub applies: bool,
    /// The target saves against it as it lands (docs/rules.md#ability-saves).
    pub save: bool,
}

/// A forced movement a tier outcome makes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ForcedOutcome {
    pub kind: ForcedKind,
    pub distance: u32,
    pub vertical: bool,
    pub applies: bool,
}

/// What one tier of an ability does to one target, before the battlefield
/// (forced movement paths) and the target's immunities are considered.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TierOutcome {
    pub damage: Vec<(i32, DamageType)>,
    pub forced: Vec<ForcedOutcome>,
    pub conditions: Vec<ConditionOutcome>,
    pub surges: u32,
    pub resources: Vec<(String, u32)>,
    pub text: Vec<String>,
    /// Stamina the target regains.
    pub heal: u32,
    /// Temporary stamina the target gains.
    pub temporary: u32,
    /// Surges the target gains.
    pub grant_surges: u32,
    /// Squares the target may shift.
    pub shift: u32,
    /// Squares the target may teleport.
    pub teleport: u32,
    /// The target makes a free strike.
    pub free_strike: bool,
    /// The target uses a signature ability at once (`signature strike`).
    pub signature_strike: bool,
    /// Active bonuses the target gains (docs/rules.md#free-strikes).
    pub bonuses: Vec<BonusSpec>,
    /// Stat blocks summoned next to the user (docs/rules.md#summons).
    pub summons: Vec<String>,
    /// The user loots treasure within this range (docs/rules.md#cover-and-high-ground "Loot X").
    pub loot: Option<u32>,
    /// Spent abilities the user recovers and spent items it refreshes.
    pub recover: u32,
    pub refresh: u32,
    /// Glyph commands the user sends to its glyphs (docs/rules.md#cover-and-high-ground).
    pub signals: Vec<String>,
    /// Abilities the user prepares (docs/rules.md#glyphs).
    pub prepare: Vec<(String, Prepared)>,
}

impl TierOutcome {
    pub fn total_damage(&self) -> i32 {
        self.damage.iter().map(|(d, _)| d).sum()
    }
}

/// Evaluate a tier's effects for a user and a target.
///
/// docs/rules.md#potency "Characteristics and Damage" (damage is the base plus the user's
/// characteristic, the best of "M or A") and "Potencies" (an effect with a
/// potency applies only if the target's score is less than the potency value,
/// from the user's highest characteristic; `potency_bonus` adds +1 for 2
/// surges or other adjustments).
pub fn evaluate(
    effects: &[Effect],
    user: &Characteristics,
    target: &Characteristics,
    potency_bonus: i32,
) -> TierOutcome {
    let check = |p: &Option<PotencyCheck>| -> bool {
        match p {
            None => true,
            Some(p) => {
                let value = match p.value {
                    PotencyValue::Strength(s) => potency_value(user.highest(), s, potency_bonus),
                    PotencyValue::Fixed(v) => v + potency_bonus,
                };
                potency_applies(target.get(p.characteristic), value)
            }
        }
    };
    let mut out = TierOutcome::default();
    for e in effects {
        match e {
            Effect::Damage {
                base,
                characteristics,
                damage_type,
            } => {
                let add = user.best_of(characteristics).map_or(0, |(_, v)| v);
                out.damage.push(((base + add).max(0), *damage_type));
            }
            Effect::ForcedMove {
                kind,
                distance,
                vertical,
                potency,
            } => out.forced.push(ForcedOutcome {
                kind: *kind,
                distance: *distance,
                vertical: *vertical,
                applies: check(potency),
            }),
            Effect::Condition {
                potency,
                conditions,
                duration,
                save,
            } => out.conditions.push(ConditionOutcome {
                conditions: conditions.clone(),
                duration: *duration,
                applies: check(potency),
                save: *save,
            }),
            Effect::GainSurges(n) => out.surges += n,
            Effect::GainResource { amount, resource } => {
                out.resources.push((resource.clone(), *amount))
            }
            Effect::Text(t) => out.text.push(t.clone()),
            Effect::Heal(n) => out.heal += n,
            Effect::TemporaryStamina(n) => out.temporary = out.temporary.max(*n),
            Effect::GrantSurges(n) => out.grant_surges += n,
            Effect::Shift(n) => out.shift = out.shift.max(*n),
            Effect::Teleport(n) => out.teleport = out.teleport.max(*n),
            Effect::FreeStrike => out.free_strike = true,
            Effect::SignatureStrike => out.signature_strike = true,
            Effect::Bonus(b) => out.bonuses.push(*b),
            Effect::Summon(id) => out.summons.push(id.clone()),
            Effect::Loot(n) => out.loot = Some(out.loot.unwrap_or(0).max(*n)),
            Effect::Recover(n) => out.recover += n,
            Effect::Refresh(n) => out.refresh += n,
            Effect::Signal(c) => out.signals.push(c.clone()),
            Effect::Prepare { ability, lasts } => out.prepare.push((ability.clone(), *lasts)),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    // docs/rules.md#distances-and-targets: "You aren't an eligible creature target for your
    // own abilities unless those abilities also have "self" as a target";
    // "If an ability targets one or more enemies, it can affect only
    // creatures who are hostile"; "You aren't an eligible target for your
    // own abilities that target allies unless those abilities also have
    // "self" as a target"; "If an ability targets "self," it can affect
    // only the creature using the ability."
    #[test]
    fn target_kinds_allow_whom_seed_000_says() {
        use crate::map::Side;
        use crate::stats::CreatureId;
        let (me, friend, foe) = (CreatureId(1), CreatureId(2), CreatureId(3));
        let rel = |other, side| Relation::of(me, Side::Heroes, other, side);
        assert_eq!(rel(me, Side::Heroes), Relation::Myself);
        assert_eq!(rel(friend, Side::Heroes), Relation::Ally);
        assert_eq!(rel(foe, Side::Director), Relation::Enemy);
        use Relation::*;
        let allowed = |k: TargetKind| [Myself, Ally, Enemy].map(|r| k.allows(r));
        assert_eq!(allowed(TargetKind::Creature), [false, true, true]);
        assert_eq!(allowed(TargetKind::Enemy), [false, false, true]);
        assert_eq!(allowed(TargetKind::Ally), [false, true, false]);
        assert_eq!(allowed(TargetKind::Myself), [true, false, false]);
        assert_eq!(allowed(TargetKind::Object), [false, false, false]);
        // Several kinds allow what any of them does, as bits for a loop.
        let kinds = [TargetKind::Ally, TargetKind::Myself];
        assert!(TargetKind::any_allows(&kinds, Myself));
        assert!(!TargetKind::any_allows(&kinds, Enemy));
        assert_eq!(TargetKind::relations(&kinds), Myself.bit() | Ally.bit());
        assert_eq!(TargetKind::relations(&[]), 0);
    }

    // docs/rules.md#components: "a Disadvantage for every Component that is
    // missing ... beyond the maximum number of 3 Disadvantages for a roll,
    // the Ability gets an automatic Low Score"; our rulings: prone lacks
    // standing, grabbed or restrained lacks hands.
    #[test]
    fn missing_components_give_banes_then_a_low_score() {
        assert_eq!(component_penalty(0), (0, false));
        assert_eq!(component_penalty(2), (2, false));
        assert_eq!(component_penalty(3), (3, false));
        assert_eq!(component_penalty(4), (3, true));
        let mut c = crate::conditions::Conditions::default();
        assert!(!Component::Standing.missing(&c));
        c.apply(crate::conditions::ActiveCondition {
            kind: ConditionKind::Prone,
            duration: Duration::EndOfEncounter,
            source: None,
            ability: None,
            save_shift: Default::default(),
        });
        assert!(Component::Standing.missing(&c));
        assert!(!Component::Hands.missing(&c));
        assert!(!Component::Stamina.missing(&c));
        assert_eq!(
            Component::affected_by(ConditionKind::Restrained),
            Some(Component::Hands)
        );
        assert_eq!(Component::affected_by(ConditionKind::Slowed), None);
    }

    fn brutal_slam() -> Ability {
        let mut a: Ability = ron::from_str(
            r#"(
                id: "brutal_slam",
                name: "Brutal Slam",
                flavor: "The heavy impact of your weapon attack drives your foe back.",
                keywords: [Melee, Strike, Weapon],
                action: MainAction,
                distance: Melee(1),
                target: (count: Some(1), kinds: [Creature]),
                cost: Signature,
                power_roll: Some((
                    characteristics: [Might],
                    tiers: ("3 + M damage; push 1", "6 + M damage; push 2", "9 + M damage; push 4"),
                )),
            )"#,
        )
        .unwrap();
        assert!(a.parse_lines().is_empty());
        a
    }

    // docs/rules.md#power-roll / "Characteristics and Damage": "For a fury with
    // a Might of 2 ... ≤11: 5, 12-16: 8, 17+: 11", pushing 1, 2 and 4 squares.
    #[test]
    fn brutal_slam_worked_example() {
        let a = brutal_slam();
        let fury = Characteristics {
            might: 2,
            agility: 1,
            ..Default::default()
        };
        let target = Characteristics::default();
        let pr = a.power_roll.as_ref().unwrap();
        let expect = [(Tier::One, 5, 1), (Tier::Two, 8, 2), (Tier::Three, 11, 4)];
        for (tier, damage, push) in expect {
            let o = evaluate(&pr.tier(tier).effects, &fury, &target, 0);
            assert_eq!(o.damage, vec![(damage, DamageType::Untyped)], "{tier:?}");
            assert_eq!(o.forced.len(), 1);
            assert_eq!(o.forced[0].kind, ForcedKind::Push);
            assert_eq!(o.forced[0].distance, push);
            assert!(o.forced[0].applies);
        }
    }

    // docs/rules.md#potency: Judgment's Hammer from a conduit with Intuition 2
    // against a bandit with Agility 0: "5 holy damage ... the bandit resists";
    // "8 holy damage ... knocked prone"; "11 holy damage and is knocked flat
    // and left struggling to stand".
    #[test]
    fn judgments_hammer_worked_example() {
        let mut a: Ability = ron::from_str(
            r#"(
                id: "judgments_hammer",
                name: "Judgment's Hammer",
                keywords: [Magic, Ranged, Strike],
                action: MainAction,
                distance: Ranged(10),
                target: (count: Some(1), kinds: [Creature]),
                power_roll: Some((
                    characteristics: [Intuition],
                    tiers: (
                        "3 + I holy damage; A < WEAK, prone",
                        "6 + I holy damage; A < AVERAGE, prone",
                        "9 + I holy damage; A < STRONG, prone and can't stand (save ends)",
                    ),
                )),
            )"#,
        )
        .unwrap();
        assert!(a.parse_lines().is_empty());
        let conduit = Characteristics {
            intuition: 2,
            ..Default::default()
        };
        let bandit = Characteristics {
            agility: 0,
            might: 1,
            ..Default::default()
        };
        let pr = a.power_roll.as_ref().unwrap();
        let t1 = evaluate(&pr.tier(Tier::One).effects, &conduit, &bandit, 0);
        assert_eq!(t1.damage, vec![(5, DamageType::Holy)]);
        assert!(!t1.conditions[0].applies, "tier 1: the bandit resists");
        let t2 = evaluate(&pr.tier(Tier::Two).effects, &conduit, &bandit, 0);
        assert_eq!(t2.damage, vec![(8, DamageType::Holy)]);
        assert!(t2.conditions[0].applies);
        assert_eq!(t2.conditions[0].conditions, vec![ConditionKind::Prone]);
        let t3 = evaluate(&pr.tier(Tier::Three).effects, &conduit, &bandit, 0);
        assert_eq!(t3.damage, vec![(11, DamageType::Holy)]);
        assert!(t3.conditions[0].applies);
        assert_eq!(
            t3.conditions[0].conditions,
            vec![ConditionKind::Prone, ConditionKind::CantStand]
        );
        assert_eq!(t3.conditions[0].duration, Duration::SaveEnds);
        // "If the bandit had Agility 1 or higher, they would have ... stayed standing."
        let nimble = Characteristics {
            agility: 1,
            ..Default::default()
        };
        assert!(!evaluate(&pr.tier(Tier::Two).effects, &conduit, &nimble, 0).conditions[0].applies);
        // docs/rules.md#surges: 2 surges raise the potency by 1 for one target.
        assert!(evaluate(&pr.tier(Tier::Two).effects, &conduit, &nimble, 1).conditions[0].applies);
    }

    // docs/rules.md#power-roll: "7 + M or A damage, indicating that you can add your Might or your Agility".
    #[test]
    fn best_characteristic_of_a_choice() {
        let e = notation::parse_tier("7 + M or A damage").unwrap();
        let shadow = Characteristics {
            might: 0,
            agility: 2,
            ..Default::default()
        };
        assert_eq!(
            evaluate(&e, &shadow, &Characteristics::default(), 0).total_damage(),
            9
        );
    }

    // docs/rules.md#heroic-resources: "Spend X" once; "Spend X+" in multiples of X.
    #[test]
    fn spend_entries() {
        let plain = Spend {
            amount: 2,
            repeatable: false,
            text: "The target is also slowed.".into(),
            effects: Some(TierLine::parsed("slowed (EoT)").unwrap()),
        };
        let plus = Spend {
            amount: 1,
            repeatable: true,
            text: "2 extra damage per piety spent.".into(),
            effects: Some(TierLine::parsed("2 holy damage").unwrap()),
        };
        assert_eq!(
            spend_effects(std::slice::from_ref(&plain), 2)
                .unwrap()
                .len(),
            1
        );
        assert!(
            spend_effects(std::slice::from_ref(&plain), 3)
                .unwrap_err()
                .contains("1 left over")
        );
        assert!(spend_effects(&[], 1).is_err());
        let both = spend_effects(&[plain, plus], 5).unwrap();
        assert_eq!(both.len(), 1 + 3);
    }

    #[test]
    fn area_distances_are_areas() {
        assert!(Distance::Burst(2).is_area());
        assert!(
            Distance::Line {
                length: 5,
                width: 1,
                within: 1
            }
            .is_area()
        );
        assert!(!Distance::MeleeOrRanged(1, 5).is_area());
        assert_eq!(Distance::MeleeOrRanged(1, 5).reach(), 5);
        assert_eq!(
            Distance::Cube {
                size: 3,
                within: 10
            }
            .to_string(),
            "3 cube within 10"
        );
    }
}
