//! Carrying out commands, one file per family: walking ([`walk`]), grabs
//! ([`grab`]), the basic actions ([`basic`]), abilities ([`ability`]) and
//! their rolls ([`roll`]), outcomes ([`outcome`]) and damage ([`damage`]),
//! charges ([`charge`]). This file dispatches a command to them and runs the
//! turn's start. Each rule is a call to a pure function; these modules only
//! gather the facts from the world (through [`crate::encounter::world`])
//! and write the results back.

use crate::encounter::log::emit;
mod ability;
pub(super) mod aura;
mod basic;
mod charge;
mod damage;
mod forced;
pub(super) mod glyph;
mod grab;
mod outcome;
mod roll;
pub(super) mod summon;
mod walk;

pub(crate) use ability::{
    AbilityUse, after_ability, begin_roll, bonus_text, dramatic_moment, encounter_start_abilities,
    flanked, heroes_with, marked_by, pay, resolve_slow, sweep_roll, use_ability,
};
pub(super) use basic::{
    answer, catch_breath, defend, delay, free_strike, free_strike_damage, free_strike_hits,
    glyph_effect, granted_shift, granted_strike, hide, reveal, stand_up, summon_strike,
};
pub(crate) use charge::{charge, charge_attack};
#[cfg(test)]
pub(crate) use damage::deal_damage_for_test;
pub(crate) use damage::{action_bleeds, bleed, damage_object, deal_damage, deal_damage_credited};
pub(crate) use forced::{fall_from_gap, force_move};
pub(crate) use grab::{check_grabs, drag_grabbed, escape_grab, modes_of, release};
pub(super) use outcome::{
    Gains, apply_outcome, deal_outcome_damage, finish_outcome, gain_for_user, heal, impose,
    potency_adjustment, retaliate, shield_against_attack, spend_damage_surges, strain,
    trigger_resource,
};
pub(crate) use roll::{ability_facts, edges_and_banes, run_roll};
pub(crate) use walk::{walk, walk_steps};

use crate::ability::{
    Ability, ActionType, Cost, Distance, ForcedKind, Keyword, TriggerEvent, evaluate,
};
use crate::conditions::{
    AbilityFacts, ActiveCondition, Applied, ConditionKind, Conditions, Duration, Party,
    Surroundings, movement_limits, roll_modifiers,
};
use crate::content::Content;
use crate::dice::Dice;
use crate::encounter::check::{Checked, Plan, place_area, target_allowed};
use crate::encounter::command::{Command, Placement, Refusal, Who};
use crate::encounter::log::{CombatLog, LogEntry};
use crate::encounter::react::{self};
use crate::encounter::state::board::{
    Battlefield, Grabs, Known, ObjectWear, RaisedWalls, RoundsInPlay,
};
use crate::encounter::state::components::*;
use crate::encounter::state::turn::{Flow, Malice, Phase, can_act};
use crate::encounter::state::work::{Event, Reaction};
use crate::encounter::state::work::{Resolution, Resume};
use crate::encounter::world::*;
use crate::fast::KeyedWorld;
use crate::map::forced::{Force, ForcedEvent};
use crate::map::{Footprint, Map, Occupant, Pos, Sight, line_of_effect, sight};
use crate::power_roll::RollSpec;
use crate::stats::{Characteristics, CreatureId, DamageTraits, DamageType, Health, Stamina};
use bevy_app::App;
use bevy_ecs::prelude::*;
use bevy_state::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Resolution>()
        .init_resource::<RaisedWalls>()
        .init_resource::<ObjectWear>()
        .init_resource::<crate::fast::Handoff<ListedWalk>>();
}

/// End of a turn: the walls of the creatures ending it count down, and
/// crumble at zero.
pub(super) fn walls_crumble(world: &mut World) {
    // (Most fights raise no wall: nothing to copy then.)
    if world.res::<RaisedWalls>().0.is_empty() {
        return;
    }
    let ended = crate::encounter::state::turn::turns_ended(world);
    if ended.is_empty() {
        return;
    }
    // A maker who died has no turns left to end: its walls crumble as this
    // turn ends (else a bridge walled by a fallen elementalist stays shut
    // for good).
    let fallen: Vec<CreatureId> = world
        .res::<RaisedWalls>()
        .0
        .iter()
        .map(|w| w.owner)
        .filter(|&o| {
            entity_of(world, o)
                .and_then(|e| world.comp::<Stamina>(e))
                .is_none_or(|s| !can_act(s))
        })
        .collect();
    let mut gone = Vec::new();
    world.res_mut::<RaisedWalls>().0.retain_mut(|w| {
        if ended.contains(&w.owner) {
            w.turn_ends_left = w.turn_ends_left.saturating_sub(1);
        }
        if fallen.contains(&w.owner) {
            w.turn_ends_left = 0;
        }
        if w.turn_ends_left == 0 {
            gone.push(w.clone());
            false
        } else {
            true
        }
    });
    for w in gone {
        for &p in &w.squares {
            world
                .res_mut::<Battlefield>()
                .map_mut()
                .set_raised_wall(p, false);
        }
        emit(
            world,
            LogEntry::WallCrumbled {
                creature: w.owner,
                squares: w.squares,
            },
        );
    }
}

/// Carry out a command: [`crate::encounter::check::command`] decides
/// whether it is refused; what it found is carried out as it stands.
pub(super) fn execute(world: &mut World, cmd: &Command, phase: Phase) -> Result<(), Refusal> {
    let Checked { entity, plan } = crate::encounter::check::command(world, cmd, phase)?;
    let id = cmd.creature();
    match (plan, cmd) {
        (Plan::Answer, Command::Answer { reaction, .. }) => answer(world, id, reaction.as_ref()),
        (Plan::StartTurn { seized }, _) => start_turn(world, entity, id, seized),
        (Plan::Delay, _) => crate::encounter::ruleset::of(world).delay(world, entity, id, phase),
        (Plan::EndTurn, _) => {
            // docs/rules.md#villain-actions: offered as the turn ends; the
            // turn is over once they are answered.
            world.res_mut::<Resolution>().push(Resume::FinishTurn);
            react::offer(
                world,
                crate::encounter::state::work::Event {
                    kind: crate::ability::TriggerEvent::TurnEnded,
                    actor: id,
                    subject: None,
                },
            );
        }
        (Plan::Movement(moving), Command::Movement { power, path, .. }) => {
            crate::encounter::ruleset::of(world).movement(
                world,
                entity,
                id,
                *power,
                &path.to_vec(),
                moving,
            );
        }
        (Plan::Walk { budget }, Command::Move { path, .. }) => {
            walk(world, entity, id, path.to_vec(), false, budget)
        }
        (Plan::Walk { budget }, Command::Shift { to, .. }) => {
            let from = world
                .comp::<Space>(entity)
                .map(|s| s.0.pos)
                .unwrap_or_default();
            walk(world, entity, id, vec![from, *to], true, budget)
        }
        (Plan::Ability(plan), _) => {
            let how = AbilityUse::of(cmd).expect("the check plans only an ability's use so");
            use_ability(world, entity, id, how, *plan)
        }
        (Plan::FreeStrike { target, budget }, Command::FreeStrike { target: tid, .. }) => {
            free_strike(world, entity, id, target, *tid, budget)
        }
        (
            Plan::Charge,
            Command::Charge {
                path,
                target,
                ability,
                ..
            },
        ) => charge(world, id, &path.to_vec(), *target, ability.as_deref()),
        (Plan::Basic { budget }, Command::StandUp { .. }) => stand_up(world, entity, budget),
        (Plan::Basic { budget }, Command::CatchBreath { .. }) => {
            catch_breath(world, entity, id, budget)
        }
        (Plan::Basic { budget }, Command::EscapeGrab { .. }) => {
            escape_grab(world, entity, id, budget)
        }
        (Plan::Basic { budget }, Command::Defend { .. }) => defend(world, entity, id, budget),
        (Plan::Basic { budget }, Command::Hide { .. }) => hide(world, entity, id, budget),
        (Plan::Basic { .. }, Command::EndEffect { ability, .. }) => {
            crate::encounter::concentration::end_at_will(world, id, ability);
        }
        (Plan::Basic { .. }, Command::Release { .. }) => {
            for (held, at) in grabbed_by(world, id) {
                release(world, at, held, id);
            }
        }
        _ => unreachable!("the check plans each command as its own kind"),
    }
    Ok(())
}

/// The current turn ends: everyone taking it has acted.
pub(super) fn finish_turn(world: &mut World) {
    let mut flow = world.res_mut::<Flow>();
    if flow.active.is_none() {
        return;
    }
    let done = flow.finish_turn();
    flow.events.ended = done;
}

/// A creature's turn starts (checked: [`crate::encounter::check::start_turn`];
/// `seized`: ahead of its place in the ruleset's order).
pub(super) fn start_turn(world: &mut World, entity: Entity, id: CreatureId, seized: bool) {
    let rules = crate::encounter::ruleset::of(world);
    rules.turn_started(world, id, seized);
    // docs/rules.md#minions: a squad "takes one turn together" (where the
    // ruleset has it so).
    let squad = squad_of(world, entity).filter(|_| rules.squads_share_turns(world));
    let members: Vec<CreatureId> = match squad {
        Some(n) => {
            let mut q = world.query::<(&Creature, &SquadMember, &Stamina)>();
            let acted = &world.res::<Flow>().acted;
            let mut m: Vec<CreatureId> = q
                .iter(world)
                .filter(|(c, sm, s)| sm.0 == n && can_act(s) && !acted.contains(&c.id))
                .map(|(c, _, _)| c.id)
                .collect();
            m.sort();
            m
        }
        None => Vec::new(),
    };
    let starting = if members.is_empty() {
        vec![id]
    } else {
        members.clone()
    };
    for &m in &starting {
        let name = Who::of(world, m).into_label();
        emit(world, LogEntry::TurnStarted { creature: m, name });
    }
    let round = world.res::<Flow>().round;
    end_rounds(world, round, Some(id));
    // docs/rules.md#slow-actions: it takes effect at the start of the next
    // turn (phased: the next battle turn).
    let movement_turn = rules.movement_turn(world);
    // (Most turns have none: the entity is not moved for nothing.)
    if !movement_turn
        && world.comp::<Casting>(entity).is_some()
        && let Some(casting) = world.entity_mut(entity).take::<Casting>()
    {
        resolve_slow(world, entity, casting);
    }
    // docs/rules.md#summons: its summons act "directly before" it (queued last,
    // so they run first); in phased rounds, before its battle turn.
    let summons = if movement_turn {
        Vec::new()
    } else {
        summon::queue_turns(world, id)
    };
    let mut f = world.res_mut::<Flow>();
    f.active = Some(id);
    f.squad = members.clone();
    f.summons = summons;
    f.events.started = if members.is_empty() {
        vec![id]
    } else {
        members
    };
    world.res_mut::<NextState<Phase>>().set(Phase::Acting);
}

/// docs/rules.md#durations: end the rounds durations due now, at the start
/// of `turn`'s turn in `round` (None: the start of `round`), logged in
/// creature order.
pub(super) fn end_rounds(world: &mut World, round: u32, turn: Option<CreatureId>) {
    if world.get_resource::<RoundsInPlay>().is_none() {
        return;
    }
    let mut ended = Vec::new();
    let mut q = world.query::<(&Creature, &mut Conditions)>();
    for (c, mut conds) in q.iter_mut(world) {
        if conds
            .list
            .iter()
            .any(|x| matches!(x.duration, Duration::Until { .. }))
        {
            for kind in conds.rounds_end(round, turn) {
                ended.push((c.id, kind));
            }
        }
    }
    ended.sort();
    for (target, condition) in ended {
        emit(world, LogEntry::ConditionEnded { target, condition });
    }
}

/// Write the budget a check found after the command's action.
pub(super) fn set_budget(world: &mut World, entity: Entity, budget: TurnBudget) {
    if let Some(mut b) = world.comp_mut::<TurnBudget>(entity) {
        *b = budget;
    }
}

/// Forget whom the hints kept for the checks name (who may be grabbed;
/// who may carry an aura): after a restore, or a hand on the world, the
/// checks find out again.
pub(super) fn hints_unknown(world: &mut World) {
    if let Some(mut m) = world.get_res_mut::<Grabs>() {
        m.0 = Known::default();
    }
    if let Some(mut k) = world.get_res_mut::<crate::encounter::state::board::KnownCarriers>() {
        k.0 = Known::default();
    }
}
