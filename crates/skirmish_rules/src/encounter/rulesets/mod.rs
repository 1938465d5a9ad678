//! The two rulesets behind the seam (`super::ruleset::Ruleset`): the
//! power-roll rules ([`Standard`]) and the phased 2d6 rules
//! ([`phased::Phased`], docs/rules.md#phased-2d6). They sit above the
//! stages they call (the checks, resolution, the turn flow, the listing);
//! the encounter plugs one in at setup ([`for_rules`]).

pub mod phased;

use crate::conditions::Conditions;
use crate::content::RulesetKind;
use crate::dice::Dice;
use crate::encounter::command::{Command, Refusal};
use crate::encounter::log::{LogEntry, emit};
use crate::encounter::ruleset::{Moving, Ruleset};
use crate::encounter::state::components::TurnBudget;
use crate::encounter::state::turn::{ActiveRuleset, Flow, Phase};
use crate::encounter::world::Snapshot;
use crate::fast::KeyedWorld;
use crate::map::{Pos, Side};
use crate::phased::MovementPower;
use crate::power_roll::{RollResult, RollSpec, Tier, resolve_for_target};
use crate::stats::CreatureId;
use bevy_ecs::prelude::*;

/// The implementation of the rules `r` names.
pub(super) fn for_rules(r: &crate::content::Ruleset) -> &'static dyn Ruleset {
    match r.kind {
        RulesetKind::Phased2d6 if r.phased.is_some() => &phased::Phased,
        _ => &Standard,
    }
}

/// The power-roll rules: 2d10 plus a characteristic against tiers, sides
/// alternating with the side choosing who acts, saves at the end of a turn.
pub(super) struct Standard;

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
