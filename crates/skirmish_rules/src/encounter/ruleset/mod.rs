//! The rulesets' seam: what the power-roll rules ([`Standard`]) and the
//! phased 2d6 rules ([`phased::Phased`], docs/rules.md#phased-2d6) do
//! differently, behind one interface, [`Ruleset`]. The encounter's
//! ruleset (its [`ActiveRuleset`], set when the encounter is set up) picks
//! the implementation ([`of`]); resolution and the turn flow call it and
//! never ask which ruleset is played.
//!
//! A new ruleset is a new implementation of [`Ruleset`], named by a new
//! [`RulesetKind`] in [`of`].

pub mod phased;

use crate::conditions::Conditions;
use crate::content::RulesetKind;
use crate::dice::Dice;
use crate::encounter::check::Moving;
use crate::encounter::command::{Command, Refusal};
use crate::encounter::log::{LogEntry, emit};
use crate::encounter::state::components::TurnBudget;
use crate::encounter::state::turn::{ActiveRuleset, Flow, Phase};
use crate::encounter::world::Snapshot;
use crate::fast::KeyedWorld;
use crate::map::{Pos, Side};
use crate::phased::MovementPower;
use crate::power_roll::{RollResult, RollSpec, Tier, resolve_for_target};
use crate::stats::CreatureId;
use bevy_ecs::prelude::*;

/// What a ruleset decides: its rolls, its turn order, its saves and its
/// movement.
pub(crate) trait Ruleset: Sync {
    // Turn order.

    /// Whether `id` may start a turn now by the ruleset's order, past the
    /// checks every ruleset makes (whose side picks, who has acted):
    /// `Ok(true)` when it seizes the initiative.
    fn check_start(&self, world: &World, id: CreatureId, phase: Phase) -> Result<bool, Refusal>;
    /// A turn has started (`seized`: as [`Ruleset::check_start`] said).
    fn turn_started(&self, world: &mut World, id: CreatureId, seized: bool);
    /// Whether a squad of minions takes one turn together.
    fn squads_share_turns(&self, world: &World) -> bool;
    /// Whether the turn under way is a movement turn: nothing of a turn's
    /// start but the move (no slow action lands, no summon acts, no
    /// resource is gained) and nothing of its end.
    fn movement_turn(&self, world: &World) -> bool;
    /// The turn starts a listing offers with no turn under way, if the
    /// ruleset orders turns its own way (else the side to pick picks).
    fn listed_starts(&self, world: &mut World) -> Option<Vec<Command>>;
    /// Whether the ruleset lists the commands of a turn under way its own
    /// way ([`Ruleset::turn_commands`]).
    fn lists_turns(&self, world: &World) -> bool;
    /// What `member` may do in the turn under way, when the ruleset
    /// [lists turns](Ruleset::lists_turns) its own way.
    fn turn_commands(
        &self,
        world: &mut World,
        member: CreatureId,
        surprised: Option<Side>,
    ) -> Vec<Command>;
    /// The budget a turn starts with, given a full turn's: whether the
    /// turn's start gains heroic resources too. (`flow`: the turn flow as
    /// the start-of-turn system holds it.)
    fn start_budget(&self, flow: &Flow, budget: &mut TurnBudget) -> bool;
    /// Whether the creature may delay its turn now.
    fn check_delay(
        &self,
        world: &World,
        entity: Entity,
        id: CreatureId,
        phase: Phase,
    ) -> Result<(), Refusal>;
    /// The creature delays its turn (as checked).
    fn delay(&self, world: &mut World, entity: Entity, id: CreatureId, phase: Phase);
    /// What the ruleset refuses of `id`'s command now, before it is
    /// carried out (the power roll refuses movement powers; the phases
    /// refuse what is not theirs).
    fn check_command(&self, world: &World, id: CreatureId, cmd: &Command) -> Result<(), Refusal>;
    /// Whether the creature may use a movement power
    /// ([`Command::Movement`]) along `path` now.
    fn check_movement(
        &self,
        world: &World,
        entity: Entity,
        id: CreatureId,
        power: MovementPower,
        path: &[Pos],
    ) -> Result<Moving, Refusal>;
    /// A movement power, as checked.
    #[allow(clippy::too_many_arguments)]
    fn movement(
        &self,
        world: &mut World,
        entity: Entity,
        id: CreatureId,
        power: MovementPower,
        path: &[Pos],
        checked: Moving,
    );
    /// With no turn under way: the next round or the next turn to pick.
    fn advance(&self, world: &mut World);

    // Rolls.

    /// The tier an ability's roll comes to against an object
    /// (docs/rules.md#objects): the roll as made, with the user's banes;
    /// an object gives no edge or bane of its own.
    fn object_tier(
        &self,
        spec: &crate::power_roll::RollSpec,
        naturals: [u32; 2],
        banes: u32,
    ) -> crate::power_roll::Tier {
        crate::power_roll::resolve_for_target(spec, naturals, 0, banes).tier
    }

    /// The natural dice of an ability's roll, rolled once for all its
    /// targets, and reported.
    fn roll_naturals(&self, world: &mut World, id: CreatureId, characteristic: i32) -> [u32; 2];
    /// One target's result of that roll, reported; none when it misses
    /// (and nothing happens to that target).
    #[allow(clippy::too_many_arguments)]
    fn roll_against(
        &self,
        world: &mut World,
        user: &Snapshot,
        target: &Snapshot,
        spec: &RollSpec,
        naturals: [u32; 2],
        edges: u32,
        banes: u32,
    ) -> Option<RollResult>;
    /// The tier a target's roll came to (after any lower tier chosen),
    /// reported.
    #[allow(clippy::too_many_arguments)]
    fn tier_reached(
        &self,
        world: &mut World,
        target: CreatureId,
        result: &RollResult,
        tier: Tier,
        edges: u32,
        banes: u32,
    );
    /// The chance of each tier of an ability's roll against `target`, if
    /// the ruleset reckons it its own way (else the power roll's). A
    /// ruleset with odds of its own has rolls that miss: the first chance
    /// is a miss against an enemy (tier 1 against an ally).
    fn roll_odds(
        &self,
        world: &World,
        user: &Snapshot,
        target: &Snapshot,
        characteristic: i32,
        edges: u32,
        banes: u32,
    ) -> Option<[f64; 3]>;
    /// Whether a free strike lands (it may roll to hit).
    fn free_strike_lands(&self, world: &mut World, attacker: Entity, target: Entity) -> bool;
    /// The chance a free strike lands.
    fn free_strike_odds(&self, world: &World, attacker: Entity, target: Entity) -> f64;

    // Saves.

    /// Whether a creature ending a turn saves against its save-ends
    /// conditions then (else the ruleset saves at another time).
    fn saves_at_turn_end(&self, world: &World) -> bool;
    /// What a save must roll, at least, to succeed.
    fn save_target(&self, world: &World) -> u32;
    /// The dice of one save.
    fn save_dice(&self) -> fn(&mut Dice) -> u32;

    // Movement.

    /// Whether a creature with `conditions` stops as soon as it is moving
    /// (its remaining movement lost).
    fn stops_moving(&self, world: &World, conditions: &Conditions) -> bool;
}

/// The encounter's ruleset.
#[inline]
pub(crate) fn of(world: &World) -> &'static dyn Ruleset {
    of_rules(world.res::<ActiveRuleset>())
}

/// The ruleset `active` names (for a system that holds the resource).
#[inline]
pub(crate) fn of_rules(active: &ActiveRuleset) -> &'static dyn Ruleset {
    let r = &active.0;
    match r.kind {
        RulesetKind::Phased2d6 if r.phased.is_some() => &phased::Phased,
        _ => &Standard,
    }
}

/// The power-roll rules: 2d10 plus a characteristic against tiers, sides
/// alternating with the side choosing who acts, saves at the end of a turn.
pub(crate) struct Standard;

impl Ruleset for Standard {
    fn check_start(&self, _: &World, _: CreatureId, _: Phase) -> Result<bool, Refusal> {
        Ok(false)
    }

    fn turn_started(&self, _: &mut World, _: CreatureId, _: bool) {}

    fn squads_share_turns(&self, _: &World) -> bool {
        // docs/rules.md#minions: a squad "takes one turn together".
        true
    }

    fn movement_turn(&self, _: &World) -> bool {
        false
    }

    fn listed_starts(&self, _: &mut World) -> Option<Vec<Command>> {
        None
    }

    fn lists_turns(&self, _: &World) -> bool {
        false
    }

    fn turn_commands(
        &self,
        world: &mut World,
        member: CreatureId,
        surprised: Option<Side>,
    ) -> Vec<Command> {
        crate::encounter::listing::creature_actions(world, member, surprised).into_vec()
    }

    fn start_budget(&self, _: &Flow, _: &mut TurnBudget) -> bool {
        true
    }

    fn check_delay(
        &self,
        world: &World,
        entity: Entity,
        id: CreatureId,
        phase: Phase,
    ) -> Result<(), Refusal> {
        crate::encounter::check::delay(world, entity, id, phase)
    }

    fn delay(&self, world: &mut World, _: Entity, _: CreatureId, _: Phase) {
        crate::encounter::resolve::delay(world);
    }

    fn check_command(&self, _: &World, _: CreatureId, cmd: &Command) -> Result<(), Refusal> {
        match cmd {
            Command::Movement { .. } => Err(Refusal::WrongCommand(
                "movement powers belong to the phased 2d6 ruleset",
            )),
            _ => Ok(()),
        }
    }

    fn check_movement(
        &self,
        _: &World,
        _: Entity,
        _: CreatureId,
        _: MovementPower,
        _: &[Pos],
    ) -> Result<Moving, Refusal> {
        Err(Refusal::WrongCommand(
            "movement powers belong to the phased 2d6 ruleset",
        ))
    }

    fn movement(
        &self,
        _: &mut World,
        _: Entity,
        _: CreatureId,
        _: MovementPower,
        _: &[Pos],
        _: Moving,
    ) {
        // (Refused by its check: the power roll has no movement powers.)
    }

    fn advance(&self, world: &mut World) {
        crate::encounter::flow::side_advance(world);
    }

    fn roll_naturals(&self, world: &mut World, id: CreatureId, characteristic: i32) -> [u32; 2] {
        let naturals = world.res_mut::<Dice>().roll_2d10();
        emit(
            world,
            LogEntry::Rolled {
                creature: id,
                naturals,
                characteristic,
            },
        );
        naturals
    }

    fn roll_against(
        &self,
        _: &mut World,
        _: &Snapshot,
        _: &Snapshot,
        spec: &RollSpec,
        naturals: [u32; 2],
        edges: u32,
        banes: u32,
    ) -> Option<RollResult> {
        Some(resolve_for_target(spec, naturals, edges, banes))
    }

    fn tier_reached(
        &self,
        world: &mut World,
        target: CreatureId,
        result: &RollResult,
        tier: Tier,
        edges: u32,
        banes: u32,
    ) {
        emit(
            world,
            LogEntry::TierResult {
                target,
                total: result.total,
                tier,
                edges,
                banes,
                critical: result.critical,
            },
        );
    }

    fn roll_odds(
        &self,
        _: &World,
        _: &Snapshot,
        _: &Snapshot,
        _: i32,
        _: u32,
        _: u32,
    ) -> Option<[f64; 3]> {
        None
    }

    fn free_strike_lands(&self, _: &mut World, _: Entity, _: Entity) -> bool {
        true
    }

    fn free_strike_odds(&self, _: &World, _: Entity, _: Entity) -> f64 {
        1.0
    }

    fn saves_at_turn_end(&self, _: &World) -> bool {
        true
    }

    fn save_target(&self, world: &World) -> u32 {
        world.res::<ActiveRuleset>().0.save_target
    }

    fn save_dice(&self) -> fn(&mut Dice) -> u32 {
        // docs/rules.md#durations: a d10 against the ruleset's target.
        |d| d.roll(10)
    }

    fn stops_moving(&self, _: &World, _: &Conditions) -> bool {
        false
    }
}
