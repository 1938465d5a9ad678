//! The combat log: structured entries for floating text and the log panel,
//! each with a readable line.

use bevy_ecs::prelude::*;
use serde::{Deserialize, Serialize};

use crate::ability::TriggerEvent;
use crate::conditions::ConditionKind;
use crate::map::{Pos, Side};
use crate::power_roll::Tier;
use crate::stats::{CreatureId, DamageType};

/// One thing that happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LogEntry {
    RoundStarted {
        round: u32,
    },
    RoundEnded {
        round: u32,
    },
    TurnStarted {
        creature: CreatureId,
        name: String,
    },
    TurnEnded {
        creature: CreatureId,
        name: String,
    },
    Moved {
        creature: CreatureId,
        path: Vec<Pos>,
        shift: bool,
    },
    /// docs/rules.md#teleport: from one square to another, no path between.
    Teleported {
        creature: CreatureId,
        from: Pos,
        to: Pos,
    },
    AbilityUsed {
        creature: CreatureId,
        ability: String,
        name: String,
    },
    AreaPlaced {
        creature: CreatureId,
        squares: Vec<Pos>,
        targets: Vec<CreatureId>,
    },
    Rolled {
        creature: CreatureId,
        naturals: [u32; 2],
        characteristic: i32,
    },
    TierResult {
        target: CreatureId,
        total: i32,
        tier: Tier,
        edges: u32,
        banes: u32,
        critical: bool,
    },
    Damage {
        target: CreatureId,
        amount: i32,
        damage_type: DamageType,
        stamina_left: i32,
        /// How much of `amount` temporary stamina took.
        #[serde(default)]
        absorbed: i32,
        /// Who dealt it: an ability's or aura's user, a glyph's maker, the
        /// creature whose forced movement caused a collision or fall; none
        /// for damage with no dealer (strain, a glyph nobody made).
        #[serde(default)]
        by: Option<CreatureId>,
    },
    ConditionGained {
        target: CreatureId,
        condition: ConditionKind,
        duration: String,
    },
    ConditionResisted {
        target: CreatureId,
        condition: ConditionKind,
    },
    ConditionEnded {
        target: CreatureId,
        condition: ConditionKind,
    },
    ForceMoved {
        target: CreatureId,
        path: Vec<Pos>,
    },
    Collision {
        target: CreatureId,
        other: Option<CreatureId>,
        damage: i32,
    },
    Fell {
        target: CreatureId,
        depth: u32,
        damage: i32,
    },
    Saved {
        creature: CreatureId,
        roll: u32,
        condition: ConditionKind,
        success: bool,
    },
    /// docs/rules.md#ability-saves: a save as an effect lands (`roll`:
    /// `None` when the ability's critical failure passed it outright, 0
    /// when its critical success failed it).
    SavedAsItLands {
        creature: CreatureId,
        roll: Option<u32>,
        condition: ConditionKind,
        success: bool,
    },
    ResourceGained {
        creature: CreatureId,
        resource: String,
        amount: u32,
        total: u32,
    },
    ResourceSpent {
        creature: CreatureId,
        resource: String,
        amount: u32,
        total: u32,
    },
    /// What was spent on effects every target resisted comes back
    /// (docs/rules.md#potency, "Spending Resources on Potencies").
    ResourceKept {
        creature: CreatureId,
        resource: String,
        amount: u32,
        total: u32,
    },
    SurgesGained {
        creature: CreatureId,
        amount: u32,
        total: u32,
    },
    MaliceGained {
        amount: u32,
        total: u32,
    },
    CriticalHit {
        creature: CreatureId,
    },
    Healed {
        creature: CreatureId,
        amount: i32,
        stamina: i32,
    },
    Bled {
        creature: CreatureId,
        amount: i32,
        stamina_left: i32,
    },
    /// A hero below 0 of its resource pays for it at the end of its turn.
    Strained {
        creature: CreatureId,
        amount: i32,
    },
    /// A creature gains temporary stamina.
    TemporaryStamina {
        creature: CreatureId,
        amount: i32,
    },
    /// A creature gains an active bonus (docs/rules.md#persistent-bonuses).
    BonusGained {
        creature: CreatureId,
        bonus: String,
    },
    /// A shield takes damage off an attack.
    Shielded {
        creature: CreatureId,
        prevented: i32,
    },
    /// A creature's retaliation hits its attacker.
    Retaliated {
        creature: CreatureId,
        attacker: CreatureId,
        amount: i32,
    },
    /// A bonus runs out (its ability's name).
    BonusEnded {
        creature: CreatureId,
        ability: String,
    },
    /// docs/rules.md#concentration: a save on taking damage.
    ConcentrationSave {
        creature: CreatureId,
        ability: String,
        roll: u32,
        success: bool,
    },
    /// Concentration lost: the ability's effects end.
    ConcentrationLost {
        creature: CreatureId,
        ability: String,
    },
    /// docs/rules.md#prepared-abilities: gained for a while.
    AbilityPrepared {
        creature: CreatureId,
        ability: String,
    },
    /// A prepared ability expires.
    PreparedExpired {
        creature: CreatureId,
        ability: String,
    },
    /// docs/rules.md#glyphs glyphs: placed by a glyphic ability.
    GlyphPlaced {
        creature: CreatureId,
        name: String,
        squares: Vec<Pos>,
    },
    /// A glyph reacts (to a creature entering, or to a command).
    GlyphTriggered {
        name: String,
        at: Pos,
        creature: Option<CreatureId>,
    },
    /// A glyph shines and sends a command to the glyphs connected to it.
    GlyphCommand {
        name: String,
        at: Pos,
        command: String,
    },
    /// A glyph is dismissed, or disabled for some rounds.
    GlyphGone {
        name: String,
        at: Pos,
        rounds: Option<u32>,
    },
    /// docs/rules.md#slow-actions: started now, takes effect next turn.
    SlowStarted {
        creature: CreatureId,
        ability: String,
    },
    /// A slow action takes effect at the start of its user's turn.
    SlowResolves {
        creature: CreatureId,
        ability: String,
    },
    /// A slow action comes to nothing.
    SlowVoid {
        creature: CreatureId,
        ability: String,
        why: String,
    },
    /// docs/rules.md#summons: a creature appears next to its summoner.
    Summoned {
        creature: CreatureId,
        owner: CreatureId,
        name: String,
        at: Pos,
    },
    /// No empty square next to the summoner: the summon fails.
    SummonFailed {
        creature: CreatureId,
        name: String,
    },
    /// The summoner fell: its summon leaves the board.
    SummonVanished {
        creature: CreatureId,
    },
    /// A summon takes its automatic turn before its summoner's.
    SummonActs {
        creature: CreatureId,
    },
    /// docs/rules.md#loot: treasure picked up (coins, from these squares).
    Looted {
        creature: CreatureId,
        coins: u32,
        squares: Vec<Pos>,
        total: u32,
    },
    /// docs/rules.md#objects: an object took damage and stands.
    ObjectDamaged {
        by: CreatureId,
        at: crate::map::Pos,
        damage: i32,
        left: i32,
    },
    /// docs/rules.md#objects: an object took its stamina in damage: gone.
    ObjectDestroyed {
        by: CreatureId,
        at: crate::map::Pos,
    },
    /// docs/rules.md#line-of-effect: a strike through glass breaks it.
    GlassShattered {
        by: CreatureId,
        at: crate::map::Pos,
    },
    /// docs/rules.md#loot: a treasure tile's item, now the looter's.
    ItemFound {
        creature: CreatureId,
        item: String,
    },
    /// docs/rules.md#loot: an item the looter already had, sold.
    ItemSold {
        creature: CreatureId,
        item: String,
        coins: u32,
    },
    /// docs/rules.md#penalties: a creature bears another stack.
    PenaltyStack {
        creature: CreatureId,
        penalty: crate::ability::Penalty,
        stacks: u32,
    },
    /// docs/rules.md#penalties: its Straining stacks fall away.
    StrainEased {
        creature: CreatureId,
    },
    /// docs/rules.md#experience.
    ExperienceGained {
        creature: CreatureId,
        amount: u32,
        total: u32,
    },
    /// A limited ability or item is used up (docs/rules.md#recover-and-refresh).
    AbilitySpent {
        creature: CreatureId,
        ability: String,
    },
    /// A spent ability recovered or item refreshed.
    AbilityRecovered {
        creature: CreatureId,
        ability: String,
        item: bool,
    },
    /// An ability lets another creature make a free strike.
    GrantedStrike {
        creature: CreatureId,
        target: CreatureId,
    },
    Died {
        creature: CreatureId,
        name: String,
        /// Whose damage felled it, if anyone's.
        #[serde(default)]
        by: Option<CreatureId>,
        /// Who is credited with the kill: `by`, or for a summon its owner
        /// (source 004: "Summon kills are credited to the owner of the
        /// summon").
        #[serde(default)]
        kill_for: Option<CreatureId>,
    },
    Dying {
        creature: CreatureId,
        name: String,
    },
    Victory {
        side: Side,
    },
    /// docs/rules.md#reinforcements: a monster arrives.
    Arrived {
        creature: CreatureId,
        name: String,
        at: Pos,
    },
    /// A reinforcement found no open square on or beside its own.
    NoRoomToArrive {
        name: String,
    },
    /// docs/rules.md#objectives: the heroes end a round holding the zone.
    ZoneHeld {
        held: u32,
        needed: u32,
    },
    /// docs/rules.md#objectives: the heroes lasted the rounds they had to.
    Survived {
        rounds: u32,
    },
    /// docs/rules.md#objectives: every hero able to fight reached the exit.
    Escaped,
    /// A target is gone, out of reach or out of line of effect by the time
    /// the ability rolls.
    TargetLost {
        creature: CreatureId,
        target: CreatureId,
    },
    /// A creature takes a triggered action in answer to an event.
    Triggered {
        creature: CreatureId,
        event: TriggerEvent,
    },
    /// A prompted creature lets the event pass.
    LetPass {
        creature: CreatureId,
        event: TriggerEvent,
    },
    Delayed {
        side: Side,
    },
    /// Phased 2d6: a side lets the movement order stand rather than seize
    /// the initiative (docs/rules.md#movement-phase).
    OrderStands {
        side: Side,
    },
    Hidden {
        creature: CreatureId,
    },
    Revealed {
        creature: CreatureId,
    },
    /// A grabbed creature is brought along by its grabber.
    Dragged {
        target: CreatureId,
        by: CreatureId,
        to: Pos,
    },
    /// A grab ends (released, escaped, or the two were separated).
    Released {
        target: CreatureId,
    },
    /// A minion of a squad dies as the squad's pool drops.
    SquadLoss {
        squad: u32,
        pool_left: i32,
    },
    /// An ability raised a wall.
    WallRaised {
        creature: CreatureId,
        squares: Vec<Pos>,
    },
    /// A raised wall crumbles away.
    WallCrumbled {
        creature: CreatureId,
        squares: Vec<Pos>,
    },
    /// A lasting aura runs out (`ability` is its name).
    AuraEnded {
        creature: CreatureId,
        ability: String,
    },
    /// An aura's effect at the start or end of a turn.
    AuraPulse {
        creature: CreatureId,
        ability: String,
        name: String,
    },
    /// Phased 2d6: each creature's initiative, lowest (first to move) first.
    Initiative {
        order: Vec<(CreatureId, i32)>,
    },
    /// Phased 2d6: a phase of the round begins.
    StageStarted {
        stage: crate::phased::Stage,
    },
    /// Phased 2d6: a creature moves ahead of its place in the order.
    Seized {
        creature: CreatureId,
    },
    /// Phased 2d6: the movement power a creature uses.
    Power {
        creature: CreatureId,
        power: crate::phased::MovementPower,
    },
    /// Phased 2d6: an attack's 2d6 (and extra die) + ATK against DEF.
    Attack2d6 {
        target: CreatureId,
        dice: [u32; 2],
        /// The extra die: its sides, what it showed, which two were kept.
        #[serde(default)]
        extra: Option<(u32, u32, crate::phased::Keep)>,
        attack: i32,
        total: i32,
        defense: i32,
        /// The tier a hit lands at; `None` is a miss.
        tier: Option<Tier>,
    },
    /// Phased 2d6: the end phase's saves.
    EndPhase,
    /// docs/rules.md#components: a component of a lasting ability is affected:
    /// a save, or the effect ends.
    ComponentSave {
        creature: CreatureId,
        ability: String,
        components: Vec<crate::ability::Component>,
        roll: u32,
        success: bool,
    },
    /// docs/rules.md#components: the ability is rolled lacking components.
    ComponentsMissing {
        creature: CreatureId,
        missing: u32,
    },
    /// A failed component save: the ability's effects end.
    ComponentLost {
        creature: CreatureId,
        ability: String,
    },
    /// A creature ends its own ability's lasting effects
    /// (docs/rules.md#ending-effects).
    EffectEnded {
        creature: CreatureId,
        ability: String,
    },
    /// Phased 2d6: a creature delays its battle action behind another.
    DelayedTurn {
        creature: CreatureId,
        behind: CreatureId,
    },
}

/// A trigger in a few words, for log lines and prompts.
pub fn trigger_text(e: TriggerEvent) -> &'static str {
    match e {
        TriggerEvent::CreatureDealsDamage => "a creature deals damage",
        TriggerEvent::AllyTargeted => "an ally is targeted",
        TriggerEvent::SelfTargeted => "targeted",
        TriggerEvent::CreatureMovesAdjacent => "a creature moves adjacent",
        TriggerEvent::CreatureStartsAbility => "a creature starts an ability",
        TriggerEvent::EnemyLeavesAdjacency => "an enemy leaves its reach",
        TriggerEvent::SelfTakesDamage => "takes damage",
        TriggerEvent::CriticalHit => "a critical hit's extra main action",
        TriggerEvent::StrikeNow => "an ally's call to strike now",
        TriggerEvent::TurnEnded => "a villain action at a turn's end",
    }
}

/// The whole log of an encounter. Read-only outside this module: every
/// entry comes in through the one emitter, [`CombatLog::emit`] (or
/// [`emit`], the same door for code that holds the world).
#[derive(Resource, Clone, Debug, Default, Serialize, Deserialize)]
pub struct CombatLog {
    entries: Vec<LogEntry>,
}

impl CombatLog {
    /// The one emitter: resolution, the turn flow and the add-ons report
    /// what happened here, and nowhere else.
    pub(crate) fn emit(&mut self, e: LogEntry) {
        self.entries.push(e);
    }

    /// Every entry so far, oldest first.
    pub fn entries(&self) -> &[LogEntry] {
        &self.entries
    }

    /// Take over a scratch log's entries (saves rolled aside, in order).
    pub(crate) fn emit_all(&mut self, other: &mut CombatLog) {
        self.entries.append(&mut other.entries);
    }

    /// Drop what came after the first `len` entries (a snapshot restored).
    pub(crate) fn rewind(&mut self, len: usize) {
        self.entries.truncate(len);
    }
}

/// [`CombatLog::emit`] for code that holds the world.
#[inline]
pub(crate) fn emit(world: &mut World, e: LogEntry) {
    use crate::fast::KeyedWorld;
    world.res_mut::<CombatLog>().emit(e);
}

impl LogEntry {
    /// A readable line, naming creatures with `name`.
    pub fn line(&self, name: &dyn Fn(CreatureId) -> String) -> String {
        match self {
            LogEntry::RoundStarted { round } => format!("Round {round} begins."),
            LogEntry::RoundEnded { round } => format!("Round {round} ends."),
            LogEntry::TargetLost { creature, target } => format!(
                "{}'s ability finds no mark: {} is out of reach.",
                name(*creature),
                name(*target)
            ),
            LogEntry::Triggered { creature, event } => {
                format!("{} reacts ({}).", name(*creature), trigger_text(*event))
            }
            LogEntry::LetPass { creature, event } => format!(
                "{} lets it pass ({}).",
                name(*creature),
                trigger_text(*event)
            ),
            LogEntry::Initiative { order } => {
                let list: Vec<String> = order
                    .iter()
                    .map(|(c, n)| format!("{} {n}", name(*c)))
                    .collect();
                format!("Initiative (lowest moves first): {}.", list.join(", "))
            }
            LogEntry::StageStarted { stage } => match stage {
                crate::phased::Stage::Movement => {
                    "Movement phase: the lowest initiative moves first.".into()
                }
                crate::phased::Stage::Battle => {
                    "Battle phase: the highest initiative acts first.".into()
                }
            },
            LogEntry::Seized { creature } => format!(
                "{} seizes the initiative: it acts last in battle, and attacks against it gain advantage this round.",
                name(*creature)
            ),
            LogEntry::Power { creature, power } => {
                format!("{} uses {}.", name(*creature), power.name())
            }
            LogEntry::Attack2d6 {
                target,
                dice,
                extra,
                attack,
                total,
                defense,
                tier,
            } => {
                let extra = match extra {
                    Some((sides, value, keep)) => format!(
                        " and d{sides} {value} (keep the two {})",
                        match keep {
                            crate::phased::Keep::Highest => "highest",
                            crate::phased::Keep::Lowest => "lowest",
                        }
                    ),
                    None => String::new(),
                };
                let result = match tier {
                    Some(t) => format!("hit, tier {}", t.number()),
                    None => "miss".into(),
                };
                format!(
                    "Against {}: 2d6 {}+{}{extra}, ATK {attack:+}: {total} vs DEF {defense}: {result}.",
                    name(*target),
                    dice[0],
                    dice[1]
                )
            }
            LogEntry::EndPhase => "End phase: saves on 2d6.".into(),
            LogEntry::ComponentSave {
                creature,
                ability,
                components,
                roll,
                success,
            } => {
                let what: Vec<&str> = components.iter().map(|c| c.name()).collect();
                format!(
                    "{}'s {ability} is shaken ({}): save {roll}, {}.",
                    name(*creature),
                    what.join(", "),
                    if *success { "it holds" } else { "it fails" }
                )
            }
            LogEntry::ComponentsMissing { creature, missing } => format!(
                "{} lacks {missing} component{}: a bane each.",
                name(*creature),
                if *missing == 1 { "" } else { "s" }
            ),
            LogEntry::ComponentLost { creature, ability } => {
                format!("{}'s {ability} ends: a component broke.", name(*creature))
            }
            LogEntry::EffectEnded { creature, ability } => {
                format!("{} ends {ability}'s effects.", name(*creature))
            }
            LogEntry::DelayedTurn { creature, behind } => {
                format!("{} delays until after {}.", name(*creature), name(*behind))
            }
            LogEntry::OrderStands { side } => format!(
                "The {} let the order stand: nobody seizes the initiative.",
                side_words(*side)
            ),
            LogEntry::Delayed { side } => format!(
                "The {} delay: the other side picks first.",
                side_words(*side)
            ),
            LogEntry::Hidden { creature } => format!("{} hides.", name(*creature)),
            LogEntry::Revealed { creature } => format!("{} is no longer hidden.", name(*creature)),
            LogEntry::Dragged { target, by, to } => {
                format!("{} drags {} along to {to}.", name(*by), name(*target))
            }
            LogEntry::Released { target } => format!("{} is no longer grabbed.", name(*target)),
            LogEntry::SquadLoss { squad, pool_left } => {
                format!("A minion of squad {squad} falls ({pool_left} stamina left in the pool).")
            }
            LogEntry::WallRaised { creature, squares } => format!(
                "{} raises a wall of {} squares.",
                name(*creature),
                squares.len()
            ),
            LogEntry::WallCrumbled { creature, .. } => {
                format!("{}'s wall crumbles.", name(*creature))
            }
            LogEntry::AuraEnded { creature, ability } => {
                format!("{}'s {ability} fades.", name(*creature))
            }
            LogEntry::AuraPulse {
                creature,
                name: ability,
                ..
            } => {
                format!(
                    "{}'s {ability} washes over its surroundings.",
                    name(*creature)
                )
            }
            LogEntry::TurnStarted { name, .. } => format!("{name}'s turn."),
            LogEntry::Teleported { creature, to, .. } => {
                format!("{} teleports to {to}.", name(*creature))
            }
            LogEntry::TurnEnded { name, .. } => format!("{name} ends their turn."),
            LogEntry::Moved {
                creature,
                path,
                shift,
            } => format!(
                "{} {} {} square{} to {}.",
                name(*creature),
                if *shift { "shifts" } else { "moves" },
                path.len().saturating_sub(1),
                if path.len() == 2 { "" } else { "s" },
                path.last().copied().unwrap_or_default()
            ),
            LogEntry::AbilityUsed {
                creature,
                name: ability,
                ..
            } => {
                format!("{} uses {ability}.", name(*creature))
            }
            LogEntry::AreaPlaced {
                creature, targets, ..
            } => format!(
                "{}'s area reaches {} creature{}.",
                name(*creature),
                targets.len(),
                if targets.len() == 1 { "" } else { "s" }
            ),
            LogEntry::Rolled {
                creature,
                naturals,
                characteristic,
            } => format!(
                "{} rolls {} + {} ({characteristic:+}).",
                name(*creature),
                naturals[0],
                naturals[1]
            ),
            LogEntry::TierResult {
                target,
                total,
                tier,
                edges,
                banes,
                critical,
            } => {
                let mut s = format!("Against {}: {total}, tier {}", name(*target), tier.number());
                if *edges > 0 {
                    s += &format!(", {edges} edge{}", if *edges > 1 { "s" } else { "" });
                }
                if *banes > 0 {
                    s += &format!(", {banes} bane{}", if *banes > 1 { "s" } else { "" });
                }
                if *critical {
                    s += ", critical hit";
                }
                s + "."
            }
            LogEntry::Damage {
                target,
                amount,
                damage_type,
                stamina_left,
                absorbed,
                by,
            } => {
                let t = damage_type.word();
                let t = if t.is_empty() {
                    String::new()
                } else {
                    format!("{t} ")
                };
                let from = match by {
                    Some(b) if b != target => format!(" from {}", name(*b)),
                    _ => String::new(),
                };
                let soaked = match *absorbed {
                    0 => String::new(),
                    a if a >= *amount => "all of it off temporary stamina; ".to_string(),
                    a => format!("{a} of it off temporary stamina; "),
                };
                format!(
                    "{} takes {amount} {t}damage{from} ({soaked}{stamina_left} stamina left).",
                    name(*target)
                )
            }
            LogEntry::ConditionGained {
                target,
                condition,
                duration,
            } => {
                format!("{} is {condition} ({duration}).", name(*target))
            }
            LogEntry::ConditionResisted { target, condition } => {
                format!("{} resists being {condition}.", name(*target))
            }
            LogEntry::ConditionEnded { target, condition } => {
                format!("{} is no longer {condition}.", name(*target))
            }
            LogEntry::ForceMoved { target, path } => format!(
                "{} is moved {} square{} to {}.",
                name(*target),
                path.len(),
                if path.len() == 1 { "" } else { "s" },
                path.last().copied().unwrap_or_default()
            ),
            LogEntry::Collision {
                target,
                other,
                damage,
            } => match other {
                Some(o) => format!(
                    "{} slams into {} ({damage} damage each).",
                    name(*target),
                    name(*o)
                ),
                None => format!(
                    "{} slams into an obstacle ({damage} damage).",
                    name(*target)
                ),
            },
            LogEntry::Fell {
                target,
                depth,
                damage,
            } => {
                format!(
                    "{} falls {depth} squares ({damage} damage) and is prone.",
                    name(*target)
                )
            }
            LogEntry::Saved {
                creature,
                roll,
                condition,
                success,
            } => {
                if *roll == 0 {
                    format!(
                        "{} can't shake off {condition}: a critical hit imposed it.",
                        name(*creature)
                    )
                } else {
                    format!(
                        "{} saves against {condition}: {roll}, {}.",
                        name(*creature),
                        if *success { "success" } else { "failure" }
                    )
                }
            }
            LogEntry::SavedAsItLands {
                creature,
                roll,
                condition,
                success,
            } => match roll {
                None => format!(
                    "{} shrugs off {condition}: the roll was a critical failure.",
                    name(*creature)
                ),
                Some(0) => format!(
                    "{} can't save against {condition}: a critical hit.",
                    name(*creature)
                ),
                Some(roll) => format!(
                    "{} saves against {condition} as it lands: {roll}, {}.",
                    name(*creature),
                    if *success { "success" } else { "failure" }
                ),
            },
            LogEntry::ResourceGained {
                creature,
                resource,
                amount,
                total,
            } => {
                format!("{} gains {amount} {resource} ({total}).", name(*creature))
            }
            LogEntry::ResourceSpent {
                creature,
                resource,
                amount,
                total,
            } => {
                format!(
                    "{} spends {amount} {resource} ({total} left).",
                    name(*creature)
                )
            }
            LogEntry::SurgesGained {
                creature,
                amount,
                total,
            } => {
                format!(
                    "{} gains {amount} surge{} ({total}).",
                    name(*creature),
                    if *amount == 1 { "" } else { "s" }
                )
            }
            LogEntry::ResourceKept {
                creature,
                resource,
                amount,
                total,
            } => format!(
                "{} keeps {amount} {resource}: every target resisted ({total}).",
                name(*creature)
            ),
            LogEntry::MaliceGained { amount, total } => {
                format!("The Director gains {amount} Malice ({total}).")
            }
            LogEntry::CriticalHit { creature } => {
                format!(
                    "Critical hit! {} takes another main action.",
                    name(*creature)
                )
            }
            LogEntry::Healed {
                creature,
                amount,
                stamina,
            } => format!("{} regains {amount} stamina ({stamina}).", name(*creature)),
            LogEntry::Strained { creature, amount } => {
                format!("{} pays for the strain: {amount} damage.", name(*creature))
            }
            LogEntry::TemporaryStamina { creature, amount } => {
                format!("{} has {amount} temporary stamina.", name(*creature))
            }
            LogEntry::BonusGained { creature, bonus } => {
                format!("{} gains {bonus}.", name(*creature))
            }
            LogEntry::Shielded {
                creature,
                prevented,
            } => format!("{}'s shield stops {prevented} damage.", name(*creature)),
            LogEntry::Retaliated {
                creature,
                attacker,
                amount,
            } => format!(
                "{} retaliates against {} for {amount}.",
                name(*creature),
                name(*attacker)
            ),
            LogEntry::ObjectDamaged {
                by,
                at,
                damage,
                left,
            } => format!(
                "{} deals {damage} damage to the object at {at} ({left} stamina left).",
                name(*by)
            ),
            LogEntry::ObjectDestroyed { by, at } => {
                format!("{} destroys the object at {at}.", name(*by))
            }
            LogEntry::GlassShattered { by, at } => {
                format!("{}'s strike shatters the glass at {at}.", name(*by))
            }
            LogEntry::ItemFound { creature, item } => {
                format!("{} finds {item} in the treasure.", name(*creature))
            }
            LogEntry::ItemSold {
                creature,
                item,
                coins,
            } => format!(
                "{} finds another {item} and sells it for {coins} coins.",
                name(*creature)
            ),
            LogEntry::PenaltyStack {
                creature,
                penalty,
                stacks,
            } => format!(
                "{} is {} ({stacks} stack{}).",
                name(*creature),
                penalty.name(),
                if *stacks == 1 { "" } else { "s" }
            ),
            LogEntry::StrainEased { creature } => {
                format!("{} is no longer straining.", name(*creature))
            }
            LogEntry::BonusEnded { creature, ability } => {
                format!("{}'s {ability} runs out.", name(*creature))
            }
            LogEntry::ConcentrationSave {
                creature,
                ability,
                roll,
                success,
            } => format!(
                "{} keeps concentrating on {ability}? {roll}, {}.",
                name(*creature),
                if *success { "yes" } else { "no" }
            ),
            LogEntry::ConcentrationLost { creature, ability } => {
                format!("{} loses concentration: {ability} ends.", name(*creature))
            }
            LogEntry::AbilityPrepared { creature, ability } => {
                format!("{} prepares {ability}.", name(*creature))
            }
            LogEntry::PreparedExpired { creature, ability } => {
                format!("{}'s prepared {ability} expires.", name(*creature))
            }
            LogEntry::GlyphPlaced {
                creature,
                name: glyph,
                squares,
            } => format!(
                "{} inscribes {} {glyph} glyph{}.",
                name(*creature),
                squares.len(),
                if squares.len() == 1 { "" } else { "s" }
            ),
            LogEntry::GlyphTriggered {
                name: glyph,
                at,
                creature,
            } => match creature {
                Some(c) => format!("A {glyph} glyph at {at} flares under {}.", name(*c)),
                None => format!("A {glyph} glyph at {at} flares."),
            },
            LogEntry::GlyphCommand {
                name: glyph,
                at,
                command,
            } => format!("The {glyph} glyph at {at} shines: it sends \"{command}\"."),
            LogEntry::GlyphGone {
                name: glyph,
                at,
                rounds,
            } => match rounds {
                None => format!("The {glyph} glyph at {at} is dismissed."),
                Some(n) => format!("The {glyph} glyph at {at} goes dark for {n} round(s)."),
            },
            LogEntry::SlowStarted { creature, ability } => format!(
                "{} begins {ability}: it takes effect at the start of their next turn.",
                name(*creature)
            ),
            LogEntry::SlowResolves { creature, ability } => {
                format!("{}'s {ability} takes effect.", name(*creature))
            }
            LogEntry::SlowVoid {
                creature,
                ability,
                why,
            } => format!("{}'s {ability} fails: {why}.", name(*creature)),
            LogEntry::Summoned { name, at, .. } => format!("{name} appears at {at}."),
            LogEntry::SummonFailed {
                creature,
                name: what,
            } => format!("{} has no room to summon a {what}.", name(*creature)),
            LogEntry::SummonVanished { creature } => {
                format!("{} vanishes with its summoner.", name(*creature))
            }
            LogEntry::SummonActs { creature } => {
                format!("{} acts on its own.", name(*creature))
            }
            LogEntry::Looted {
                creature,
                coins,
                total,
                ..
            } => format!(
                "{} loots {coins} coin{} ({total} in all).",
                name(*creature),
                if *coins == 1 { "" } else { "s" }
            ),
            LogEntry::ExperienceGained {
                creature,
                amount,
                total,
            } => format!(
                "{} gains {amount} experience ({total} in all).",
                name(*creature)
            ),
            LogEntry::AbilitySpent { creature, ability } => {
                format!("{}'s {ability} is spent.", name(*creature))
            }
            LogEntry::AbilityRecovered {
                creature,
                ability,
                item,
            } => format!(
                "{} {} {ability}.",
                name(*creature),
                if *item { "refreshes" } else { "recovers" }
            ),
            LogEntry::GrantedStrike { creature, target } => format!(
                "{} makes a free strike against {}.",
                name(*creature),
                name(*target)
            ),
            LogEntry::Bled {
                creature,
                amount,
                stamina_left,
            } => format!(
                "{} bleeds for {amount} ({stamina_left} stamina left).",
                name(*creature)
            ),
            LogEntry::Died {
                name: who,
                by: Some(by),
                kill_for: Some(owner),
                ..
            } if by != owner => format!(
                "{who} dies: felled by {}, a kill for {}.",
                name(*by),
                name(*owner)
            ),
            LogEntry::Died { name, .. } => format!("{name} dies."),
            LogEntry::Dying { name, .. } => format!("{name} is dying."),
            LogEntry::Arrived { name, at, .. } => format!("{name} arrives at {at}."),
            LogEntry::NoRoomToArrive { name } => {
                format!("{name} finds no room to arrive.")
            }
            LogEntry::ZoneHeld { held, needed } => {
                format!("The heroes hold the zone ({held} of {needed} rounds).")
            }
            LogEntry::Survived { rounds } => format!("The heroes survived {rounds} rounds."),
            LogEntry::Escaped => "The heroes escape.".to_string(),
            LogEntry::Victory { side } => match side {
                Side::Heroes => "The heroes are victorious.".to_string(),
                Side::Director => "The heroes are defeated.".to_string(),
            },
        }
    }
}

/// A side as the log's sentences name it: "heroes", "Director's creatures".
fn side_words(side: Side) -> &'static str {
    match side {
        Side::Heroes => "heroes",
        Side::Director => "Director's creatures",
    }
}
