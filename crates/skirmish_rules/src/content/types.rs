//! The content types other than abilities: rulesets, classes, monsters.

use serde::{Deserialize, Serialize};

use super::HasId;
use crate::ability::{Ability, ActionType, Cost, Distance, Effect, TriggerEvent};
pub use crate::stats::Role;
use crate::stats::{Characteristic, Characteristics, DamageTraits};

/// Which family of rules an encounter uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum RulesetKind {
    /// The core power-roll rules (seeds 000 and 003).
    #[default]
    PowerRoll,
    /// The phased 2d6 variant (docs/rules.md#power-roll).
    Phased2d6,
}

/// A ruleset file: the rule family and the numbers a designer may change.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ruleset {
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub kind: RulesetKind,
    #[serde(default)]
    pub description: String,
    /// The d10 result at which a save succeeds (docs/rules.md#turn-order: 6 or higher).
    #[serde(default = "default_save")]
    pub save_target: u32,
    /// The d10 result at which the heroes choose who goes first (docs/rules.md#surges: 6+).
    #[serde(default = "default_save")]
    pub heroes_choose_on: u32,
    /// Surges spendable on one damage roll (docs/rules.md#surges: up to 3).
    #[serde(default = "default_surge_cap")]
    pub max_surges_per_damage: u32,
    /// The most minions in one squad (docs/rules.md#minions: up to 8).
    #[serde(default = "default_squad")]
    pub max_squad_size: u32,
    /// Abilities every creature has (Knockback, Grab, ...).
    #[serde(default)]
    pub basic_abilities: Vec<String>,
    /// Banes on ability rolls against a creature that took the Defend main
    /// action, until the start of its next turn (our ruling: 2, a double bane).
    #[serde(default = "default_defend")]
    pub defend_banes: u32,
    /// The numbers of the phased 2d6 ruleset (docs/rules.md#phased-2d6); used when `kind`
    /// is `Phased2d6`.
    #[serde(default)]
    pub phased: Option<crate::phased::PhasedRules>,
}

fn default_defend() -> u32 {
    2
}

fn default_save() -> u32 {
    6
}
fn default_surge_cap() -> u32 {
    3
}
fn default_squad() -> u32 {
    8
}

impl Ruleset {
    pub fn problems(&self) -> Vec<(&'static str, String)> {
        let mut p = Vec::new();
        if !(1..=10).contains(&self.save_target) {
            p.push((
                "save_target",
                format!(
                    "save_target {} is not a d10 result (1 to 10)",
                    self.save_target
                ),
            ));
        }
        if !(1..=10).contains(&self.heroes_choose_on) {
            p.push((
                "heroes_choose_on",
                format!(
                    "heroes_choose_on {} is not a d10 result (1 to 10)",
                    self.heroes_choose_on
                ),
            ));
        }
        if self.max_squad_size == 0 {
            p.push(("max_squad_size", "max_squad_size must be at least 1".into()));
        }
        if let Some(ph) = &self.phased {
            p.extend(ph.problems());
        }
        if self.kind == RulesetKind::Phased2d6 && self.phased.is_none() {
            p.push((
                "phased",
                "a Phased2d6 ruleset needs its `phased` numbers".into(),
            ));
        }
        p
    }
}

impl HasId for Ruleset {
    fn id(&self) -> &str {
        &self.id
    }
}

/// How much heroic resource a class gains at the start of each of its turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ResourceGain {
    /// A flat amount.
    Flat(u32),
    /// 1dN.
    Die(u32),
}

/// A class's own extra trigger for gaining its resource (docs/rules.md#triggered-actions "Heroic
/// resources": one each, ours to design).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ResourceTrigger {
    /// The first time each round the hero takes damage.
    FirstDamageTakenEachRound,
    /// The first time each round an enemy the hero judged/marked ... uses an ability.
    MarkedEnemyActs,
    /// The first time each round an ally within 10 regains stamina.
    AllyHealed,
    /// The first time each round the hero hits 2 or more creatures with one area ability.
    AreaHitsSeveral,
    /// The first time each round an enemy in the hero's aura uses a main action.
    EnemyInAuraActs,
    /// The first time each round the hero deals damage with a surge.
    SurgeSpent,
    /// The first time each round an ally deals damage to a target the hero marked.
    AllyHitsMarked,
    /// The first time each round a creature is force moved by the hero.
    ForceMoves,
    /// The first time each round a creature within 10 scores a critical hit or is reduced to 0.
    DramaticMoment,
    /// The first time each round the hero reduces an enemy to 0 stamina.
    EnemyDowned,
}

/// A hero class.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Class {
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub description: String,
    /// The heroic resource's name (wrath, piety, ...).
    pub resource: String,
    pub resource_per_turn: ResourceGain,
    pub resource_trigger: ResourceTrigger,
    /// How much the trigger grants.
    #[serde(default = "one")]
    pub resource_trigger_amount: u32,
    #[serde(default)]
    pub resource_trigger_text: String,
    /// The characteristic the class's potencies come from.
    pub potency_characteristic: Characteristic,
    pub starting_stamina: i32,
    pub stamina_per_level: i32,
    pub recoveries: u32,
    #[serde(default = "five")]
    pub speed: u32,
    #[serde(default)]
    pub stability: u32,
    /// The class's default characteristics at 1st level (a hero may override them).
    pub characteristics: Characteristics,
    /// The class's abilities: its signature abilities, always known, and
    /// the heroic abilities its table's Abilities column chooses from.
    pub abilities: Vec<String>,
    /// docs/rules.md#class-tables: what a hero has at each level, 1 to 10.
    pub progression: Vec<super::hero::LevelRow>,
    /// docs/rules.md#class-tables: class features, known at every level
    /// whatever they cost (the one its resource trigger needs: the null's
    /// Null Field), outside the table's columns.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub features: Vec<String>,
    /// docs/rules.md#subclasses.
    #[serde(default)]
    pub subclasses: Vec<super::hero::Subclass>,
    /// Damage of the free strike (melee or ranged), before the characteristic.
    #[serde(default = "two")]
    pub free_strike: i32,
    /// The class may spend resource it doesn't have, down to -(1 + Reason),
    /// taking 1 damage per point below 0 at the end of each of its turns
    /// (the talent: "use abilities even when they don't have their Heroic
    /// Resource to spare, if they're willing to face the cost", docs/rules.md#phased-2d6).
    #[serde(default)]
    pub strain: bool,
    /// docs/rules.md#potency-adjustments: added to the potencies of its
    /// heroes' abilities against a target they have marked (a censor's
    /// judged target: +1).
    #[serde(default)]
    pub potency_vs_marked: i32,
    /// docs/rules.md#creature-tags: what kind of creature its heroes are.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
}

fn one() -> u32 {
    1
}
fn is_one_turn(n: &u32) -> bool {
    *n == 1
}
fn two() -> i32 {
    2
}
fn five() -> u32 {
    5
}

impl Class {
    /// Maximum stamina at a level.
    pub fn stamina_at(&self, level: u32) -> i32 {
        self.starting_stamina + self.stamina_per_level * (level.max(1) as i32 - 1)
    }

    pub fn problems(&self) -> Vec<(&'static str, String)> {
        let mut p = Vec::new();
        if self.starting_stamina <= 0 {
            p.push((
                "starting_stamina",
                format!(
                    "starting_stamina must be positive, not {}",
                    self.starting_stamina
                ),
            ));
        }
        if self.starting_stamina > MAX_STAMINA {
            p.push((
                "starting_stamina",
                format!("starting_stamina is more than {MAX_STAMINA}"),
            ));
        }
        if self.stamina_per_level > MAX_STAMINA / 10 {
            p.push((
                "stamina_per_level",
                format!("stamina_per_level is more than {}", MAX_STAMINA / 10),
            ));
        }
        if self.stamina_per_level < 0 {
            p.push((
                "stamina_per_level",
                "stamina_per_level can't be negative".into(),
            ));
        }
        if self.recoveries > MAX_RECOVERIES {
            p.push((
                "recoveries",
                format!(
                    "recoveries {} is more than {MAX_RECOVERIES}",
                    self.recoveries
                ),
            ));
        }
        if self.resource.trim().is_empty() {
            p.push(("resource", "the heroic resource needs a name".into()));
        }
        if let ResourceGain::Die(0) = self.resource_per_turn {
            p.push(("resource_per_turn", "a die needs at least 1 side".into()));
        }
        if self.speed == 0 || self.speed > 20 {
            p.push(("speed", format!("speed {} is outside 1 to 20", self.speed)));
        }
        p.extend(free_strike_problem(self.free_strike));
        p.extend(characteristic_problems(&self.characteristics));
        p
    }
}

impl HasId for Class {
    fn id(&self) -> &str {
        &self.id
    }
}

/// How a monster fights alongside others.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Organization {
    /// Acts in squads that share a stamina pool (docs/rules.md#minions).
    Minion,
    #[default]
    Platoon,
    Elite,
    Leader,
    Solo,
}

/// docs/rules.md#captains: what a minion gains while its squad's captain
/// stands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CaptainBonus {
    /// An edge on its strikes.
    #[serde(default)]
    pub edge: bool,
    /// Added to the damage of its strikes (its free strike too).
    #[serde(default)]
    pub damage: i32,
}

impl CaptainBonus {
    /// It in a few words, for the card.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if self.edge {
            parts.push("an edge on strikes".to_string());
        }
        if self.damage != 0 {
            parts.push(format!("{:+} damage on strikes", self.damage));
        }
        parts.join(", ")
    }
}

/// A monster's stat block.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Monster {
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub description: String,
    pub level: u32,
    pub role: Role,
    #[serde(default)]
    pub organization: Organization,
    /// docs/rules.md#size-and-space: `1` (1M), `"1T"`, `"1S"`, `"1L"`, 2 to 4.
    #[serde(default)]
    pub size: crate::stats::Size,
    pub speed: u32,
    /// docs/rules.md#climbing-swimming-jumping-and-flying: the ways it
    /// moves besides walking (`[Fly]`, `[Climb, Swim]`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub movement: Vec<crate::map::movement::MoveMode>,
    #[serde(default)]
    pub stability: u32,
    /// Maximum stamina (for a minion: each individual's stamina).
    pub stamina: i32,
    pub characteristics: Characteristics,
    /// Free strike damage.
    pub free_strike: i32,
    /// docs/rules.md#summons: a summon's range value. Summoned, it strikes the
    /// nearest enemy within this many squares and in its line of effect,
    /// and walks only until one is; 0 (the default) or 1 is melee, an
    /// adjacent enemy. A monster that is not summoned attacks with its
    /// abilities and never reads it.
    #[serde(default)]
    pub range: u32,
    #[serde(default)]
    pub damage: DamageTraits,
    pub abilities: Vec<String>,
    /// docs/rules.md#creature-tags: what kind of creature it is
    /// (`["Undead"]`), for abilities that affect only some kinds.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
    /// The token's icon (a file name under `assets/icons/`), optional.
    #[serde(default)]
    pub icon: Option<String>,
    /// docs/rules.md#solo-turns: turns it takes each round (a solo may take
    /// 2 or 3; every other creature 1).
    #[serde(default = "one", skip_serializing_if = "is_one_turn")]
    pub turns: u32,
    /// docs/rules.md#captains: what each minion of its squad gains while
    /// the squad's captain stands (a minion's stat block only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub with_captain: Option<CaptainBonus>,
    /// Its encounter value, where the rule of docs/rulings.md ("Encounter
    /// budget") would misjudge it; else that rule's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ev: Option<u32>,
}

impl Monster {
    pub fn problems(&self) -> Vec<(&'static str, String)> {
        let mut p = Vec::new();
        if self.stamina <= 0 {
            p.push((
                "stamina",
                format!("stamina must be positive, not {}", self.stamina),
            ));
        }
        if self.stamina > MAX_STAMINA {
            p.push(("stamina", format!("stamina is more than {MAX_STAMINA}")));
        }
        if self.speed > 20 {
            p.push(("speed", format!("speed {} is more than 20", self.speed)));
        }
        if !(1..=10).contains(&self.level) {
            p.push(("level", format!("level {} is outside 1 to 10", self.level)));
        }
        p.extend(free_strike_problem(self.free_strike));
        if self.range > 20 {
            p.push(("range", format!("range {} is more than 20", self.range)));
        }
        if self.organization == Organization::Minion && self.role == Role::Solo {
            p.push(("organization", "a minion can't be a solo".into()));
        }
        if self.turns == 0 || self.turns > 3 {
            p.push(("turns", format!("turns {} is outside 1 to 3", self.turns)));
        } else if self.turns > 1 && self.organization != Organization::Solo {
            p.push((
                "turns",
                "only a solo takes more than one turn a round".into(),
            ));
        }
        if let Some(b) = self.with_captain {
            if self.organization != Organization::Minion {
                p.push(("with_captain", "only a minion gains from a captain".into()));
            }
            if !(0..=20).contains(&b.damage) {
                p.push((
                    "with_captain",
                    format!("damage {} is outside 0 to 20", b.damage),
                ));
            }
            if !b.edge && b.damage == 0 {
                p.push((
                    "with_captain",
                    "a captain's bonus needs an edge or damage".into(),
                ));
            }
        }
        p.extend(characteristic_problems(&self.characteristics));
        p
    }
}

impl HasId for Monster {
    fn id(&self) -> &str {
        &self.id
    }
}

/// A free strike's damage outside 0 to [`MAX_FREE_STRIKE`].
fn free_strike_problem(n: i32) -> Option<(&'static str, String)> {
    (!(0..=MAX_FREE_STRIKE).contains(&n)).then(|| {
        (
            "free_strike",
            format!("free_strike {n} is outside 0 to {MAX_FREE_STRIKE}"),
        )
    })
}

fn characteristic_problems(c: &Characteristics) -> Vec<(&'static str, String)> {
    Characteristic::ALL
        .into_iter()
        .filter(|&ch| !(-5..=6).contains(&c.get(ch)))
        .map(|ch| {
            (
                "characteristics",
                format!("{ch} {} is outside -5 to 6", c.get(ch)),
            )
        })
        .collect()
}

/// The highest heroic resource or Malice cost an ability may have (the
/// class tables go up to 11).
pub const MAX_COST: u32 = 30;

/// The most stamina a stat block may give (a solo monster has hundreds).
pub const MAX_STAMINA: i32 = 100_000;

/// The most damage a free strike may deal.
pub const MAX_FREE_STRIKE: i32 = 1_000;

/// The most squares any distance or area size of an ability may be.
pub const MAX_DISTANCE: u32 = 100;

/// The most recoveries a hero has (the classes have 8 to 12).
pub const MAX_RECOVERIES: u32 = 100;

/// The most targets an ability names (an area's "each" is not counted).
pub const MAX_TARGETS: u32 = 100;

/// Problems with an ability's numbers and shape (not its tier text, which
/// the parser checks). `resources` are the known resource names.
pub fn ability_problems(a: &Ability, resources: &[String]) -> Vec<(&'static str, String)> {
    let mut p = Vec::new();
    if a.name.trim().is_empty() {
        p.push(("name", "the ability needs a name".into()));
    }
    match a.cost {
        Cost::Heroic(0) | Cost::Malice(0) => {
            p.push(("cost", "a cost of 0: use Free or Signature".into()))
        }
        Cost::Heroic(n) | Cost::Malice(n) if n > MAX_COST => {
            p.push(("cost", format!("a cost of {n} is more than {MAX_COST}")))
        }
        _ => {}
    }
    // docs/rules.md#villain-actions: each is used once an encounter.
    if a.action == ActionType::VillainAction && a.uses != Some(1) {
        p.push((
            "action",
            "a villain action is used once an encounter: give it `uses: 1`".into(),
        ));
    }
    glyph_problems(a, &mut p);
    upkeep_problems(a, &mut p);
    trigger_problems(a, &mut p);
    distance_problems(a, &mut p);
    target_problems(a, resources, &mut p);
    p
}

/// A glyphic ability: an area, glyph abilities in reach, effects only
/// damage and conditions (docs/rules.md#glyphs).
fn glyph_problems(a: &Ability, p: &mut Vec<(&'static str, String)>) {
    if let Some(g) = &a.glyph {
        if !a.distance.is_area() {
            p.push((
                "glyph",
                "a glyphic ability needs an area to place its glyphs".into(),
            ));
        }
        if g.abilities.is_empty() {
            p.push(("glyph", "a glyph needs at least one glyph ability".into()));
        }
        for ga in &g.abilities {
            if ga.radius > MAX_DISTANCE {
                p.push((
                    "glyph",
                    format!(
                        "a glyph's radius {} goes beyond {MAX_DISTANCE} squares",
                        ga.radius
                    ),
                ));
            }
            let bad = ga.effect.iter().flat_map(|t| &t.effects).find(|e| {
                !matches!(
                    e,
                    Effect::Damage { .. } | Effect::Condition { .. } | Effect::Text(_)
                )
            });
            if let Some(e) = bad {
                p.push((
                    "glyph",
                    format!("glyph effects deal damage and impose conditions only, not {e:?}"),
                ));
            }
        }
    }
}

/// What it needs kept up: concentration, requirements, conditional
/// experience, uses and items.
fn upkeep_problems(a: &Ability, p: &mut Vec<(&'static str, String)>) {
    let held = a.find_effect(|e| match e {
        Effect::Prepare {
            lasts: crate::ability::Prepared::Concentration,
            ..
        } => Some(()),
        _ => None,
    });
    if held.is_some() && !a.concentration {
        p.push((
            "concentration",
            "`prepare ... (concentration)` needs `concentration: true`".into(),
        ));
    }
    if a.requirements.contains(&crate::ability::Component::Stamina) {
        p.push((
            "requirements",
            "Stamina is a point bank, never missing: a requirement is Hands or Standing".into(),
        ));
    }
    if a.experience_if.is_some() && (a.experience == 0 || a.power_roll.is_none()) {
        p.push((
            "experience_if",
            "a conditional experience needs `experience` above 0 and a power roll \
             (it is judged as each target is rolled against)"
                .into(),
        ));
    }
    if a.uses == Some(0) {
        p.push((
            "uses",
            "0 uses per encounter: leave `uses` out for unlimited".into(),
        ));
    }
    if a.item && a.uses.is_none() {
        p.push((
            "item",
            "an item needs `uses` (what refresh gives back)".into(),
        ));
    }
}

/// A trigger only on a triggered action, and a tag only on a trigger that
/// names the ability used (docs/rules.md#triggered-actions).
fn trigger_problems(a: &Ability, p: &mut Vec<(&'static str, String)>) {
    if let Some(t) = &a.trigger
        && t.tag.is_some()
        && !matches!(
            t.on,
            TriggerEvent::CreatureStartsAbility
                | TriggerEvent::SelfTargeted
                | TriggerEvent::AllyTargeted
        )
    {
        p.push((
            "tag",
            format!(
                "a trigger's tag names the ability being used: it goes with \
                 CreatureStartsAbility, SelfTargeted or AllyTargeted, not {:?}",
                t.on
            ),
        ));
    }
    if a.action.is_triggered() && a.trigger.is_none() {
        p.push(("action", "a triggered ability needs a trigger".into()));
    }
    if !a.action.is_triggered() && a.action != ActionType::NoAction && a.trigger.is_some() {
        p.push(("trigger", "only triggered actions have triggers".into()));
    }
}

/// Its distance: no size of 0, nothing beyond the map, and an aura only of
/// Aura distance.
fn distance_problems(a: &Ability, p: &mut Vec<(&'static str, String)>) {
    let zero = match a.distance {
        Distance::Melee(0) | Distance::Ranged(0) | Distance::Aura(0) | Distance::Burst(0) => true,
        Distance::Cube { size, .. } => size == 0,
        Distance::Line { length, width, .. } => length == 0 || width == 0,
        Distance::Wall { squares, .. } => squares == 0,
        Distance::Cone { length } => length == 0,
        Distance::Sphere { radius, .. } | Distance::Cylinder { radius, .. } => radius == 0,
        Distance::Sweep { reach, .. } => reach == 0,
        _ => false,
    };
    if zero {
        p.push((
            "distance",
            format!("distance `{}` has a size of 0", a.distance),
        ));
    }
    // Nothing on a battle map reaches farther: a larger number is a slip
    // of the keyboard, and an area that size would be millions of squares.
    let numbers: &[u32] = match &a.distance {
        Distance::Melee(n) | Distance::Ranged(n) | Distance::Aura(n) | Distance::Burst(n) => &[*n],
        Distance::MeleeOrRanged(m, r) => &[*m, *r],
        Distance::Cube { size, within } => &[*size, *within],
        Distance::Line {
            length,
            width,
            within,
        } => &[*length, *width, *within],
        Distance::Wall { squares, within } => &[*squares, *within],
        Distance::Cone { length } => &[*length],
        Distance::Sphere { radius, within } => &[*radius, *within],
        Distance::Cylinder {
            radius,
            height,
            within,
        } => &[*radius, *height, *within],
        Distance::Sweep { squares, reach, .. } => &[*squares, *reach],
        Distance::Myself => &[],
    };
    if numbers.iter().any(|&n| n > MAX_DISTANCE) {
        p.push((
            "distance",
            format!(
                "distance `{}` goes beyond {MAX_DISTANCE} squares",
                a.distance
            ),
        ));
    }
    if a.aura.is_some() && !matches!(a.distance, Distance::Aura(_)) {
        p.push((
            "aura",
            format!(
                "only an Aura distance can last; this one is `{}`",
                a.distance
            ),
        ));
    }
}

/// Its targets, power roll, spend entries and the resources its tiers gain.
fn target_problems(a: &Ability, resources: &[String], p: &mut Vec<(&'static str, String)>) {
    if a.target.kinds.is_empty() {
        p.push((
            "target",
            "the target names no kind (creature, enemy, ally, object, self)".into(),
        ));
    }
    if a.target.count == Some(0) {
        p.push(("target", "a target count of 0".into()));
    }
    if let Some(n) = a.target.count
        && n > MAX_TARGETS
    {
        p.push((
            "target",
            format!("a target count of {n}: at most {MAX_TARGETS}"),
        ));
    }
    if let Some(pr) = &a.power_roll
        && pr.characteristics.is_empty()
    {
        p.push(("power_roll", "a power roll needs a characteristic".into()));
    }
    for s in &a.spend {
        if s.amount == 0 {
            p.push(("spend", "a spend entry of 0".into()));
        }
        if s.amount > crate::ability::notation::MAX_NUMBER {
            p.push((
                "spend",
                format!(
                    "a spend of {}: at most {}",
                    s.amount,
                    crate::ability::notation::MAX_NUMBER
                ),
            ));
        }
    }
    if let Some(pr) = &a.power_roll {
        let tiers = [&pr.tiers.0, &pr.tiers.1, &pr.tiers.2];
        for (i, t) in tiers.into_iter().enumerate() {
            if t.text.trim().is_empty() {
                p.push((
                    "power_roll",
                    format!("tier {} is empty: say what it does", i + 1),
                ));
            }
        }
    }
    let mut lines: Vec<&Effect> = Vec::new();
    if let Some(pr) = &a.power_roll {
        for t in [&pr.tiers.0, &pr.tiers.1, &pr.tiers.2] {
            lines.extend(&t.effects);
        }
    }
    for e in lines {
        if let Effect::GainResource { resource, .. } = e
            && !resources.contains(resource)
        {
            p.push((
                "power_roll",
                format!("`gain ... {resource}`: no class has a resource called {resource}"),
            ));
        }
    }
}
