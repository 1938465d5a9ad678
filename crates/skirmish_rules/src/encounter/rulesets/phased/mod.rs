//! docs/rules.md#phased-2d6's phased rounds, run when the encounter's ruleset is of kind
//! `Phased2d6`: an initiative phase (INT + AGI, d6 tie-breaks), a movement
//! phase lowest initiative first where a creature may seize the initiative,
//! a battle phase highest first, and an end phase of 2d6 saves. Attacks are
//! 2d6 + ATK against DEF with the advantage die. The rules themselves are
//! the pure functions of [`crate::phased`]; this module calls them.
//!
//! Our rulings where the seed is silent are commented in
//! `assets/rulesets/phased_2d6.ron`.

use crate::encounter::log::emit;
use crate::encounter::world;
use crate::fast::KeyedWorld;
use bevy_ecs::prelude::*;

use crate::conditions::{ConditionKind, Conditions, movement_limits};
use crate::content::RulesetKind;
use crate::dice::Dice;
use crate::encounter::command::{Command, Refusal, Who};
use crate::encounter::log::{CombatLog, LogEntry};
use crate::encounter::resolve;
use crate::encounter::state::components::*;
use crate::encounter::state::turn::{ActiveRuleset, Flow, can_act};
use crate::encounter::state::work::{Resolution, Resume};
use crate::encounter::world::{Snapshot, entity_of, occupants};
use crate::map::movement::{Mover, is_straight, path_cost};
use crate::map::{Pos, Side};
use crate::phased::{
    MovementPower, PhasedRound, PhasedRules, Stage, attack_tier, battle_order, extra_die,
    initiative_order, keep_two, tier_difference, tier_odds,
};
use crate::power_roll::Tier;
use crate::stats::{Characteristics, CreatureId, Stamina};

mod attacks;
mod moving;

use attacks::{attack, free_strike_lands, free_strike_odds, odds};
use moving::{
    check_command, check_movement, movement, movement_commands, phased_starts, stops_moving,
};

/// The phased numbers, when the encounter plays the phased 2d6 ruleset.
pub fn rules(world: &World) -> Option<&PhasedRules> {
    let r = &world.res::<ActiveRuleset>().0;
    if r.kind == RulesetKind::Phased2d6 {
        r.phased.as_ref()
    } else {
        None
    }
}

/// The round's phased state.
pub fn round(world: &World) -> Option<&PhasedRound> {
    world.res::<Flow>().phased.as_ref()
}

fn stage(world: &World) -> Option<Stage> {
    round(world).map(|p| p.stage)
}

/// Whether the phased flow is in its movement phase.
pub fn in_movement(world: &World) -> bool {
    stage(world) == Some(Stage::Movement)
}

fn summons(world: &mut World) -> Vec<CreatureId> {
    let mut q = world.query_filtered::<&Creature, With<Summoned>>();
    q.iter(world).map(|c| c.id).collect()
}

/// Next to go in the current phase: the first in its order who has not
/// gone and can act.
pub fn next_up(world: &World) -> Option<CreatureId> {
    let flow = world.res::<Flow>();
    let p = flow.phased.as_ref()?;
    p.order().iter().copied().find(|&id| {
        !flow.acted.contains(&id)
            && entity_of(world, id).is_some_and(|e| {
                world.comp::<Stamina>(e).is_some_and(can_act) && world.comp::<Summoned>(e).is_none()
            })
    })
}

/// The side whose creatures may seize the initiative ahead of everyone now
/// (docs/rules.md#movement-phase: "an adventurer or monster may seize the
/// initiative and move first"): at the movement phase, until it lets the
/// order stand, the side other than the next mover's, if any of its
/// creatures can still move. (The next mover's own side seizes by starting
/// another of its creatures, at its pick.)
pub fn seize_window(world: &World) -> Option<Side> {
    let flow = world.res::<Flow>();
    let p = flow.phased.as_ref()?;
    if p.stage != Stage::Movement || p.seize_offered {
        return None;
    }
    let other = side_of(world, next_up(world)?)?.other();
    let mut q = world.try_query_filtered::<(&Creature, &Stamina), Without<Summoned>>()?;
    q.iter(world)
        .any(|(c, s)| c.side == other && can_act(s) && !flow.acted.contains(&c.id))
        .then_some(other)
}

fn side_of(world: &World, id: CreatureId) -> Option<Side> {
    entity_of(world, id)
        .and_then(|e| world.comp::<Creature>(e))
        .map(|c| c.side)
}

/// Choose who goes next; a finished movement phase gives way to the battle
/// phase, a finished battle phase to the end phase and a new round.
pub(super) fn advance(world: &mut World) {
    if world.res::<Flow>().round == 0 {
        begin_round(world);
    }
    // At most: the rest of this phase, battle, end and a fresh movement.
    for _ in 0..3 {
        if let Some(next) = next_up(world) {
            if let Some(side) = seize_window(world).or_else(|| side_of(world, next)) {
                world.res_mut::<Flow>().to_act = side;
            }
            return;
        }
        match stage(world) {
            Some(Stage::Movement) => start_battle(world),
            _ => {
                end_phase(world);
                begin_round(world);
            }
        }
    }
}

/// docs/rules.md#initiative-phase: "Each player rolls INT + AGI", lowest moves
/// first, "In the event of a tie, roll a d6 until a winner is determined."
fn begin_round(world: &mut World) {
    crate::encounter::flow::new_round(world);
    // (The round's end met an objective: no new round.)
    if world.res::<Flow>().outcome.is_some() {
        return;
    }
    let Some(rules) = rules(world).cloned() else {
        return;
    };
    let mut q =
        world.query_filtered::<(&Creature, &Characteristics, &Stamina), Without<Summoned>>();
    let mut scores: Vec<(CreatureId, i32)> = q
        .iter(world)
        .filter(|(_, _, s)| can_act(s))
        .map(|(c, ch, _)| (c.id, rules.initiative.iter().map(|&k| ch.get(k)).sum()))
        .collect();
    scores.sort();
    let order = {
        let mut dice = world.res_mut::<Dice>();
        initiative_order(&scores, &mut || dice.roll(6))
    };
    let initiative: Vec<(CreatureId, i32)> = order
        .iter()
        .map(|id| (*id, scores.iter().find(|s| s.0 == *id).map_or(0, |s| s.1)))
        .collect();
    let mut flow = world.res_mut::<Flow>();
    // docs/rules.md#solo-turns: one turn a phase for everyone here.
    flow.spare.clear();
    let round = flow.round;
    let disengaged = flow
        .phased
        .take()
        .map(|p| p.disengaged)
        .unwrap_or_default()
        .into_iter()
        .filter(|&(_, until)| until >= round)
        .collect();
    flow.phased = Some(PhasedRound {
        stage: Stage::Movement,
        initiative: initiative.clone(),
        movement_order: order,
        disengaged,
        ..Default::default()
    });
    let mut log = world.res_mut::<CombatLog>();
    log.emit(LogEntry::Initiative { order: initiative });
    log.emit(LogEntry::StageStarted {
        stage: Stage::Movement,
    });
}

/// docs/rules.md#battle-phase "High rolls BATTLE first"; those who seized act last.
fn start_battle(world: &mut World) {
    let acted = summons(world);
    let mut flow = world.res_mut::<Flow>();
    flow.acted = acted;
    if let Some(p) = flow.phased.as_mut() {
        p.battle_order = battle_order(&p.movement_order, &p.seized);
        p.stage = Stage::Battle;
    }
    emit(
        world,
        LogEntry::StageStarted {
            stage: Stage::Battle,
        },
    );
}

/// docs/rules.md#end-phase: "roll 2d6 for each effect. A 7 or higher
/// ends/sustains the effect."
fn end_phase(world: &mut World) {
    let Some(target) = rules(world).map(|r| r.save_target) else {
        return;
    };
    emit(world, LogEntry::EndPhase);
    let mut ids: Vec<(CreatureId, Entity)> = {
        let mut q = world.query::<(Entity, &Creature)>();
        q.iter(world).map(|(e, c)| (c.id, e)).collect()
    };
    ids.sort();
    for (id, e) in ids {
        let Some(mut conditions) = world.comp::<Conditions>(e).cloned() else {
            continue;
        };
        if !world.comp::<Stamina>(e).is_some_and(can_act) {
            continue;
        }
        world.resource_scope(|world, mut dice: Mut<Dice>| {
            let mut log = world.res_mut::<CombatLog>();
            crate::encounter::flow::roll_saves(
                id,
                &mut conditions,
                &mut dice,
                &mut log,
                &|d: &mut Dice| d.roll(6) + d.roll(6),
                target,
            );
        });
        if let Some(mut c) = world.comp_mut::<Conditions>(e) {
            *c = conditions;
        }
    }
}

/// A turn may start: `Ok(true)` when it seizes the initiative (moving ahead
/// of its place), `Ok(false)` when it is next.
pub(super) fn check_start(world: &World, id: CreatureId) -> Result<bool, Refusal> {
    let next =
        next_up(world).ok_or_else(|| Refusal::Phased("nobody is left to go this phase".into()))?;
    if next == id {
        return Ok(false);
    }
    if world.res::<Flow>().acted.contains(&id) {
        return Err(Refusal::AlreadyActed(Who::of(world, id)));
    }
    if let Some(window) = seize_window(world) {
        // The other side's window: its creatures seize, the next mover's
        // wait until it lets the order stand.
        return if side_of(world, id) == Some(window) {
            Ok(true)
        } else {
            Err(Refusal::NotTheirTurn(Who::of(world, id)))
        };
    }
    match stage(world) {
        Some(Stage::Movement) if side_of(world, id) == side_of(world, next) => Ok(true),
        Some(Stage::Movement) => Err(Refusal::NotTheirTurn(Who::of(world, id))),
        _ => Err(Refusal::Phased(format!(
            "{} acts next: the battle phase goes from the highest initiative down",
            Who::of(world, next)
        ))),
    }
}

/// A turn starts: a seizer is recorded; the budget is the phase's (a move
/// in the movement phase, one battle action in the battle phase).
pub(super) fn turn_started(world: &mut World, id: CreatureId, seized: bool) {
    if seized {
        if let Some(p) = world.res_mut::<Flow>().phased.as_mut() {
            p.seized.push(id);
        }
        emit(world, LogEntry::Seized { creature: id });
    }
}

/// The budget of a phased turn, set when it starts.
pub(crate) fn budget(stage: Stage, budget: &mut TurnBudget) {
    match stage {
        Stage::Movement => {
            budget.main = false;
            budget.maneuver = false;
            budget.move_action = true;
        }
        Stage::Battle => {
            budget.main = true;
            budget.maneuver = false;
            budget.move_action = false;
        }
    }
}

/// docs/rules.md#defend-and-delay: "Delay your action until after the GM or another
/// player has finished their turn": the creature moves behind the next one
/// in the battle order.
pub(super) fn check_delay(world: &World, id: CreatureId) -> Result<Delaying, Refusal> {
    if let Some(window) = seize_window(world) {
        return if side_of(world, id) == Some(window) {
            Ok(Delaying::LetOrderStand(window))
        } else {
            Err(Refusal::NotTheirTurn(Who::of(world, id)))
        };
    }
    if stage(world) != Some(Stage::Battle) {
        return Err(Refusal::CannotDelay("delay is a battle action"));
    }
    if next_up(world) != Some(id) {
        return Err(Refusal::NotTheirTurn(Who::of(world, id)));
    }
    if round(world).is_some_and(|p| p.delayed.contains(&id)) {
        return Err(Refusal::CannotDelay("it has delayed once this round"));
    }
    let flow = world.res::<Flow>();
    let order = flow
        .phased
        .as_ref()
        .map(|p| p.battle_order.as_slice())
        .unwrap_or_default();
    let at = order.iter().position(|&c| c == id).unwrap_or(0);
    order[at + 1..]
        .iter()
        .copied()
        .find(|&c| {
            !flow.acted.contains(&c)
                && entity_of(world, c)
                    .is_some_and(|e| world.comp::<Stamina>(e).is_some_and(can_act))
        })
        .map(Delaying::Behind)
        .ok_or(Refusal::CannotDelay("nobody acts after it"))
}

/// What a phased delay does: a battle turn goes behind the next creature;
/// in the seize window, the side lets the movement order stand.
#[derive(Clone, Copy)]
pub(super) enum Delaying {
    Behind(CreatureId),
    LetOrderStand(Side),
}

/// The delay, checked by [`check_delay`].
fn delay(world: &mut World, id: CreatureId, delaying: Delaying) {
    let behind = match delaying {
        Delaying::Behind(b) => b,
        Delaying::LetOrderStand(side) => {
            if let Some(p) = world.res_mut::<Flow>().phased.as_mut() {
                p.seize_offered = true;
            }
            if let Some(next) = next_up(world).and_then(|n| side_of(world, n)) {
                world.res_mut::<Flow>().to_act = next;
            }
            emit(world, LogEntry::OrderStands { side });
            return;
        }
    };
    if let Some(p) = world.res_mut::<Flow>().phased.as_mut() {
        p.battle_order.retain(|&c| c != id);
        let to = p
            .battle_order
            .iter()
            .position(|&c| c == behind)
            .map_or(0, |i| i + 1);
        p.battle_order.insert(to, id);
        p.delayed.push(id);
    }
    if let Some(side) = next_up(world).and_then(|n| side_of(world, n)) {
        world.res_mut::<Flow>().to_act = side;
    }
    emit(
        world,
        LogEntry::DelayedTurn {
            creature: id,
            behind,
        },
    );
}

/// The phased 2d6 rules (docs/rules.md#phased-2d6), through the seam.
pub(super) struct Phased;

impl super::Ruleset for Phased {
    fn check_start(
        &self,
        world: &World,
        id: CreatureId,
        phase: crate::encounter::state::turn::Phase,
    ) -> Result<bool, Refusal> {
        // docs/rules.md#turn-order: the phases' order, or seizing the
        // initiative.
        if round(world).is_some() && phase == crate::encounter::state::turn::Phase::AwaitingTurn {
            check_start(world, id)
        } else {
            Ok(false)
        }
    }

    fn turn_started(&self, world: &mut World, id: CreatureId, seized: bool) {
        if round(world).is_some() {
            turn_started(world, id, seized);
        }
    }

    fn squads_share_turns(&self, world: &World) -> bool {
        // Each minion goes on its own initiative.
        round(world).is_none()
    }

    fn movement_turn(&self, world: &World) -> bool {
        in_movement(world)
    }

    fn listed_starts(&self, world: &mut World) -> Option<Vec<Command>> {
        let stage = round(world)?.stage;
        let flow = world.res::<Flow>().clone();
        Some(phased_starts(world, &flow, stage))
    }

    fn lists_turns(&self, world: &World) -> bool {
        round(world).is_some()
    }

    fn turn_commands(
        &self,
        world: &mut World,
        member: CreatureId,
        surprised: Option<Side>,
    ) -> Vec<Command> {
        // docs/rules.md#phased-2d6: the phase decides what a turn may do.
        let mut out = movement_commands(world, member);
        let allowed: Vec<Command> =
            crate::encounter::listing::creature_actions(world, member, surprised)
                .into_vec()
                .into_iter()
                .filter(|c| check_command(world, member, c).is_ok())
                .collect();
        out.extend(allowed);
        out
    }

    fn start_budget(&self, flow: &Flow, b: &mut TurnBudget) -> bool {
        match &flow.phased {
            Some(p) => {
                budget(p.stage, b);
                // Heroic resource comes with the battle turn.
                p.stage != Stage::Movement
            }
            None => true,
        }
    }

    fn check_delay(
        &self,
        world: &World,
        entity: Entity,
        id: CreatureId,
        phase: crate::encounter::state::turn::Phase,
    ) -> Result<(), Refusal> {
        crate::encounter::check::side_to_pick(world, entity, id, phase)?;
        check_delay(world, id).map(|_| ())
    }

    fn delay(
        &self,
        world: &mut World,
        _: Entity,
        id: CreatureId,
        _: crate::encounter::state::turn::Phase,
    ) {
        // (Found again as checked: nothing has changed since.)
        if let Ok(delaying) = check_delay(world, id) {
            delay(world, id, delaying);
        }
    }

    fn check_command(&self, world: &World, id: CreatureId, cmd: &Command) -> Result<(), Refusal> {
        check_command(world, id, cmd)
    }

    fn check_movement(
        &self,
        world: &World,
        entity: Entity,
        id: CreatureId,
        power: MovementPower,
        path: &[Pos],
    ) -> Result<crate::encounter::ruleset::Moving, Refusal> {
        check_movement(world, entity, id, power, path)
    }

    fn movement(
        &self,
        world: &mut World,
        entity: Entity,
        id: CreatureId,
        power: MovementPower,
        path: &[Pos],
        checked: crate::encounter::ruleset::Moving,
    ) {
        movement(world, entity, id, power, path, checked);
    }

    fn advance(&self, world: &mut World) {
        advance(world);
    }

    /// docs/rules.md#objects: an object has no defence to roll its dice
    /// against: it takes the weakest result (our ruling, docs/rulings.md).
    fn object_tier(
        &self,
        _: &crate::power_roll::RollSpec,
        _: [u32; 2],
        _: u32,
    ) -> crate::power_roll::Tier {
        crate::power_roll::Tier::One
    }

    fn roll_naturals(&self, world: &mut World, _: CreatureId, _: i32) -> [u32; 2] {
        // Its 2d6 (one extra die per target comes with each attack).
        let mut d = world.res_mut::<Dice>();
        [d.roll(6), d.roll(6)]
    }

    fn roll_against(
        &self,
        world: &mut World,
        user: &Snapshot,
        target: &Snapshot,
        spec: &crate::power_roll::RollSpec,
        naturals: [u32; 2],
        edges: u32,
        banes: u32,
    ) -> Option<crate::power_roll::RollResult> {
        // docs/rules.md#edges-and-banes: 2d6 + ATK against DEF; a miss does
        // nothing.
        let tier = attack(
            world,
            user,
            target,
            spec.characteristic,
            (edges, banes),
            naturals,
        )?;
        Some(crate::power_roll::RollResult {
            tier,
            ..crate::power_roll::resolve_for_target(spec, [1, 1], 0, 0)
        })
    }

    fn tier_reached(
        &self,
        _: &mut World,
        _: CreatureId,
        _: &crate::power_roll::RollResult,
        _: Tier,
        _: u32,
        _: u32,
    ) {
        // (The attack's line said it.)
    }

    fn roll_odds(
        &self,
        world: &World,
        user: &Snapshot,
        target: &Snapshot,
        characteristic: i32,
        edges: u32,
        banes: u32,
    ) -> Option<[f64; 3]> {
        odds(world, user, target, characteristic, (edges, banes))
    }

    fn free_strike_lands(&self, world: &mut World, attacker: Entity, target: Entity) -> bool {
        free_strike_lands(world, attacker, target)
    }

    fn free_strike_odds(&self, world: &World, attacker: Entity, target: Entity) -> f64 {
        free_strike_odds(world, attacker, target)
    }

    fn saves_at_turn_end(&self, world: &World) -> bool {
        // Saves wait for the end phase.
        round(world).is_none()
    }

    fn save_target(&self, world: &World) -> u32 {
        rules(world).map_or(world.res::<ActiveRuleset>().0.save_target, |r| {
            r.save_target
        })
    }

    fn save_dice(&self) -> fn(&mut Dice) -> u32 {
        // docs/rules.md#end-phase: 2d6.
        |d| d.roll(6) + d.roll(6)
    }

    fn stops_moving(&self, world: &World, conditions: &Conditions) -> bool {
        stops_moving(world, conditions)
    }
}
