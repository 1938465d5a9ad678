//! The rulesets' seam: what the power-roll rules and the phased 2d6 rules
//! (docs/rules.md#phased-2d6) do differently, behind one interface,
//! [`Ruleset`]. The implementations live above the stages that call them
//! (`super::rulesets`); the one the encounter plays by is plugged in at
//! setup ([`Plugged`]) and found with [`of`]. The checks, resolution and
//! the turn flow call it and never ask which ruleset is played, and this
//! file imports none of them.
//!
//! A new ruleset is a new implementation of [`Ruleset`] in
//! `super::rulesets`, named by a new `RulesetKind` there.

use crate::conditions::Conditions;
use crate::dice::Dice;
use crate::encounter::command::{Command, Refusal};
use crate::encounter::state::components::TurnBudget;
use crate::encounter::state::turn::{Flow, Phase};
use crate::encounter::world::Snapshot;
use crate::fast::KeyedWorld;
use crate::map::{Pos, Side};
use crate::phased::MovementPower;
use crate::power_roll::{RollResult, RollSpec, Tier};
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

/// The encounter's ruleset: the implementation plugged in at setup.
#[inline]
pub(super) fn of(world: &World) -> &'static dyn Ruleset {
    world.res::<Plugged>().0
}

/// The implementation of [`Ruleset`] the encounter plays by, plugged in
/// as it is set up (the power-roll rules unless its ruleset says
/// otherwise; `rulesets::for_rules` picks it).
#[derive(Resource, Clone, Copy)]
pub(crate) struct Plugged(pub(crate) &'static dyn Ruleset);

// Read by key, as the fight's state is (`state` declares that; this is
// the seam's, not a part of the fight).
crate::fast::keyed::keyed!(Plugged);

/// What a movement power needs carried out: the budget after it, and
/// whether it moves without provoking.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Moving {
    pub(super) budget: TurnBudget,
    pub(super) shift: bool,
}
