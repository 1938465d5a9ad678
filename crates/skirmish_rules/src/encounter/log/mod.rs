//! The combat log: structured entries for floating text and the log panel,
//! each with a readable line.

use bevy_ecs::prelude::*;
use serde::{Deserialize, Serialize};

use crate::ability::TriggerEvent;
use crate::conditions::ConditionKind;
use crate::map::{Pos, Side};
use crate::power_roll::Tier;
use crate::stats::{CreatureId, DamageType};

mod text;

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
    pub(super) fn emit(&mut self, e: LogEntry) {
        self.entries.push(e);
    }

    /// Every entry so far, oldest first.
    pub fn entries(&self) -> &[LogEntry] {
        &self.entries
    }

    /// Take over a scratch log's entries (saves rolled aside, in order).
    pub(super) fn emit_all(&mut self, other: &mut CombatLog) {
        self.entries.append(&mut other.entries);
    }

    /// Drop what came after the first `len` entries (a snapshot restored).
    pub(super) fn rewind(&mut self, len: usize) {
        self.entries.truncate(len);
    }
}

/// [`CombatLog::emit`] for code that holds the world.
#[inline]
pub(super) fn emit(world: &mut World, e: LogEntry) {
    use crate::fast::KeyedWorld;
    world.res_mut::<CombatLog>().emit(e);
}
