//! Whether a command is refused, and why: the one place that decides it.
//! [`command`] checks a command against the encounter as it stands and
//! hands back what it found ([`Checked`]); `resolve` carries that out and
//! refuses nothing. A refused command changes nothing: nothing here writes
//! to the world.
//!
//! The listing asks the same rules for what it lists ([`action`],
//! [`can_afford`], [`in_reach`], [`hidden_from`], [`can_stand`],
//! [`can_catch_breath`], [`can_escape`], [`place_area`], ...), so the two
//! never decide twice (a test checks that the check accepts all it lists).
//! What the ruleset refuses of its own (a phase's commands, movement
//! powers, a phased delay) it decides through the seam
//! ([`crate::encounter::ruleset::Ruleset`]), called from here.
//!
//! One file per family, as in `resolve/`: moving and charging
//! ([`moving`]), abilities ([`ability`]), the basic actions ([`basic`]).

mod ability;
mod basic;
mod moving;

pub(crate) use ability::{
    AbilityChoices, UsePlan, hidden_from, in_reach, needs_line_of_effect, object_in_reach,
    place_area, reach_of, tags_allow, target_allowed, use_ability,
};
pub(super) use basic::{
    can_catch_breath, can_escape, can_stand, catch_breath, escape_grab, free_strike,
    free_strike_reaches, hide, release, stand_up,
};
pub(crate) use moving::{afraid_of, bad_path, charge, walk};

use crate::ability::{ActionType, Cost};
use crate::conditions::Conditions;
use crate::encounter::command::{Command, Refusal, Who};
use crate::encounter::ruleset::Moving;
use crate::encounter::state::board::Battlefield;
use crate::encounter::state::components::*;
use crate::encounter::state::turn::{Flow, Malice, Phase, can_act};
use crate::encounter::state::work::Resolution;
use crate::encounter::world::*;
use crate::fast::KeyedWorld;
use crate::map::Side;
use crate::stats::{CreatureId, Stamina};
use bevy_ecs::prelude::*;

/// A command that passed its checks: its creature, and what carrying it
/// out needs of what the checks found.
pub(super) struct Checked {
    pub(super) entity: Entity,
    pub(super) plan: Plan,
}

/// What each kind of command carries out, as checked.
pub(super) enum Plan {
    /// Answer the open prompt (the answer is one it offered).
    Answer,
    /// Start the turn (`seized`: ahead of its place in the ruleset's order).
    StartTurn {
        seized: bool,
    },
    /// Delay, as the ruleset has it.
    Delay,
    EndTurn,
    /// A movement power of the ruleset, with the budget after it.
    Movement(Moving),
    /// A move or shift, with the budget after it.
    Walk {
        budget: TurnBudget,
    },
    /// An ability's use.
    Ability(Box<UsePlan>),
    /// A free strike against this target, with the budget after it.
    FreeStrike {
        target: Entity,
        budget: TurnBudget,
    },
    /// A charge: the run is checked; the main action is spent by its attack.
    Charge,
    /// A basic maneuver or main action, with the budget after it.
    Basic {
        budget: TurnBudget,
    },
}

/// Check `cmd` against the encounter as it stands in `phase`.
pub(super) fn command(world: &World, cmd: &Command, phase: Phase) -> Result<Checked, Refusal> {
    let id = cmd.creature();
    // Whose turn it is, read once: nothing before its checks below changes it.
    let (in_turn, acting) = {
        let flow = world.res::<Flow>();
        if flow.outcome.is_some() {
            return Err(Refusal::Over);
        }
        (flow.active.is_some(), flow.is_acting(id))
    };
    let entity = entity_of(world, id).ok_or_else(|| Refusal::NoSuchCreature(Who::id(id)))?;
    let checked = |plan| Ok(Checked { entity, plan });
    // A square far off the map is no square of this fight (only a file
    // written by hand names one): refused at the door, so no rule works
    // with coordinates near the integers' limits.
    // (The map is read only for a command that names a square.)
    if cmd.find_square(|_| true).is_some() {
        let map = &world.res::<Battlefield>().0;
        if let Some(p) = cmd.find_square(|p| map.far_off(p)) {
            return Err(Refusal::FarOffMap(p));
        }
    }
    // docs/rules.md#grabbed: a grabber lets go "at any time ... (no action
    // required)": whenever the engine waits for its side, on any turn and
    // with a prompt open (letting go puts no work on the stack).
    if let Command::Release { .. } = cmd {
        let waited_for = waiting_side(world);
        let side = world.comp::<Creature>(entity).map(|c| c.side);
        if world.comp::<Stamina>(entity).is_none_or(|s| !can_act(s)) {
            return Err(Refusal::Dead(Who::of(world, id)));
        }
        if side != Some(waited_for) {
            return Err(Refusal::NotTheirTurn(Who::of(world, id)));
        }
        return checked(Plan::Basic {
            budget: release(world, entity, id)?,
        });
    }
    // An open prompt must be answered before anything else happens.
    if let Some(p) = &world.res::<Resolution>().prompt {
        let asked = p.creature;
        return match cmd {
            Command::Answer { reaction, .. } => {
                answer(world, id, reaction.as_ref())?;
                checked(Plan::Answer)
            }
            _ => Err(Refusal::AwaitingAnswer(Who::of(world, asked))),
        };
    }
    let rules = crate::encounter::ruleset::of(world);
    match cmd {
        Command::StartTurn { .. } => {
            let seized = start_turn(world, entity, id, phase)?;
            return checked(Plan::StartTurn { seized });
        }
        Command::Delay { .. } => {
            rules.check_delay(world, entity, id, phase)?;
            return checked(Plan::Delay);
        }
        Command::Answer { .. } => return Err(Refusal::NoPrompt),
        _ => {}
    }
    if !in_turn {
        return Err(Refusal::NoTurnInProgress);
    }
    if !acting {
        return Err(Refusal::NotTheirTurn(Who::of(world, id)));
    }
    if world.comp::<Stamina>(entity).is_none_or(|s| !can_act(s))
        && !matches!(cmd, Command::EndTurn { .. })
    {
        return Err(Refusal::Dead(Who::of(world, id)));
    }
    rules.check_command(world, id, cmd)?;
    checked(turn_plan(world, entity, id, cmd)?)
}

/// What a command of the turn under way would do, checked: a creature's
/// move, ability, strike or basic action (the turn, the prompt and the
/// ruleset checked already).
fn turn_plan(
    world: &World,
    entity: Entity,
    id: CreatureId,
    cmd: &Command,
) -> Result<Plan, Refusal> {
    let rules = crate::encounter::ruleset::of(world);
    Ok(match cmd {
        Command::Movement { power, path, .. } => {
            Plan::Movement(rules.check_movement(world, entity, id, *power, &path.to_vec())?)
        }
        Command::EndTurn { .. } => Plan::EndTurn,
        Command::Move { path, .. } => Plan::Walk {
            budget: walk(world, entity, id, &path.to_vec(), false, true)?,
        },
        Command::Shift { to, .. } => {
            let from = world
                .comp::<Space>(entity)
                .map(|s| s.0.pos)
                .unwrap_or_default();
            Plan::Walk {
                budget: walk(world, entity, id, &[from, *to], true, true)?,
            }
        }
        Command::UseAbility { .. }
        | Command::UseAreaAbility { .. }
        | Command::UseOnObject { .. } => {
            let choices = AbilityChoices::of(cmd).expect("an ability's use");
            Plan::Ability(Box::new(use_ability(world, entity, id, choices)?))
        }
        Command::FreeStrike { target, .. } => {
            let (target, budget) = free_strike(world, entity, id, *target)?;
            Plan::FreeStrike { target, budget }
        }
        Command::Charge {
            path,
            target,
            ability,
            ..
        } => {
            charge(
                world,
                entity,
                id,
                &path.to_vec(),
                *target,
                ability.as_deref(),
            )?;
            Plan::Charge
        }
        Command::StandUp { .. } => Plan::Basic {
            budget: stand_up(world, entity)?,
        },
        Command::CatchBreath { .. } => Plan::Basic {
            budget: catch_breath(world, entity, id)?,
        },
        Command::EscapeGrab { .. } => Plan::Basic {
            budget: escape_grab(world, entity)?,
        },
        Command::Defend { .. } => Plan::Basic {
            budget: spend(world, entity, ActionType::MainAction)?,
        },
        // A free maneuver: it must have made something that lasts.
        Command::EndEffect { ability, .. } => {
            if !crate::encounter::world::sustained_by(world, id).contains(ability) {
                return Err(Refusal::NoEffectToEnd(Who::of(world, id), ability.clone()));
            }
            Plan::Basic {
                budget: world
                    .comp::<TurnBudget>(entity)
                    .copied()
                    .ok_or(Refusal::NoSuchCreature(Who::id(id)))?,
            }
        }
        Command::Release { .. } => Plan::Basic {
            budget: release(world, entity, id)?,
        },
        Command::Hide { .. } => Plan::Basic {
            budget: hide(world, entity, id)?,
        },
        Command::StartTurn { .. } | Command::Delay { .. } | Command::Answer { .. } => {
            return Err(Refusal::WrongCommand("not a command of a turn"));
        }
    })
}

/// The side the engine waits on for its next command: the prompted
/// creature's, the acting creature's, or the side to pick who goes next.
fn waiting_side(world: &World) -> Side {
    let asked = world
        .res::<Resolution>()
        .prompt
        .as_ref()
        .map(|p| p.creature);
    let flow = world.res::<Flow>();
    asked
        .or(flow.active)
        .and_then(|id| entity_of(world, id))
        .and_then(|e| world.comp::<Creature>(e))
        .map_or(flow.to_act, |c| c.side)
}

/// Whether it is `id`'s side's pick now, with no turn under way (the side
/// to pick, if so).
pub(super) fn side_to_pick(
    world: &World,
    entity: Entity,
    id: CreatureId,
    phase: Phase,
) -> Result<Side, Refusal> {
    let flow = world.res::<Flow>();
    if phase != Phase::AwaitingTurn || flow.active.is_some() {
        return Err(Refusal::TurnInProgress);
    }
    let side = world.comp::<Creature>(entity).map(|c| c.side);
    if side != Some(flow.to_act) {
        return Err(Refusal::NotTheirTurn(Who::of(world, id)));
    }
    Ok(flow.to_act)
}

/// Whether `id` may start its turn now: whether it seizes the initiative,
/// if so (docs/rules.md#turn-order).
pub(super) fn start_turn(
    world: &World,
    entity: Entity,
    id: CreatureId,
    phase: Phase,
) -> Result<bool, Refusal> {
    if world.comp::<Summoned>(entity).is_some() {
        return Err(Refusal::SummonActsAlone(Who::of(world, id)));
    }
    // The ruleset's order (the phases' order, or seizing the initiative).
    let seized = crate::encounter::ruleset::of(world).check_start(world, id, phase)?;
    side_to_pick(world, entity, id, phase)?;
    if world.res::<Flow>().acted.contains(&id) {
        return Err(Refusal::AlreadyActed(Who::of(world, id)));
    }
    if !world.comp::<Stamina>(entity).is_some_and(can_act) {
        return Err(Refusal::Dead(Who::of(world, id)));
    }
    Ok(seized)
}

/// A side lets the other pick first this time (the power roll's delay).
/// It may not hand the pick straight back to a side that has just
/// delayed, and the other side must have someone left to act.
pub(super) fn delay(
    world: &World,
    entity: Entity,
    id: CreatureId,
    phase: Phase,
) -> Result<(), Refusal> {
    let to_act = side_to_pick(world, entity, id, phase)?;
    let other = to_act.other();
    if world.res::<Flow>().delayed == Some(other) {
        return Err(Refusal::CannotDelay("the other side has just delayed"));
    }
    if !crate::encounter::world::waiting(world, other) {
        return Err(Refusal::CannotDelay(
            "the other side has nobody left to act",
        ));
    }
    Ok(())
}

/// Whether `choice` answers the open prompt: it asked `id`, and offered it.
pub(super) fn answer(
    world: &World,
    id: CreatureId,
    choice: Option<&crate::encounter::state::work::Reaction>,
) -> Result<(), Refusal> {
    let prompt = world
        .res::<Resolution>()
        .prompt
        .as_ref()
        .ok_or(Refusal::NoPrompt)?;
    if prompt.creature != id {
        return Err(Refusal::NotAsked(Who::of(world, id)));
    }
    if let Some(c) = choice
        && !prompt.options.contains(c)
    {
        return Err(Refusal::NotAnOption(c.ability.clone()));
    }
    if let Some(c) = choice
        && c.ability != crate::encounter::state::work::OPPORTUNITY_ATTACK
        && world
            .res::<crate::content::Content>()
            .ability(&c.ability)
            .is_none()
    {
        return Err(Refusal::UnknownAbility(c.ability.clone()));
    }
    Ok(())
}

/// The budget after spending the action `action` takes, or the refusal
/// (the rule: [`crate::actions::spend`]). The listing asks it of every
/// ability it lists.
pub(super) fn action(
    budget: &TurnBudget,
    conditions: &Conditions,
    action: ActionType,
) -> Result<TurnBudget, Refusal> {
    Ok(crate::actions::spend(budget, conditions, action)?)
}

/// [`action`] for the creature's own budget and conditions.
pub(super) fn spend(
    world: &World,
    entity: Entity,
    spent: ActionType,
) -> Result<TurnBudget, Refusal> {
    let none = Conditions::default();
    let conditions = world.comp::<Conditions>(entity).unwrap_or(&none);
    let budget = world
        .comp::<TurnBudget>(entity)
        .ok_or(Refusal::NoTurnInProgress)?;
    action(budget, conditions, spent)
}

/// Whether a cost can be paid by a creature with this heroic resource (if
/// any) when the Director has `malice`.
pub(super) fn can_afford(cost: Cost, heroic: Option<&Heroic>, malice: u32) -> bool {
    match cost {
        Cost::Heroic(n) => heroic.is_some_and(|h| h.can_pay(n)),
        Cost::Malice(n) => malice >= n,
        Cost::Free | Cost::Signature => true,
    }
}

/// Whether the creature can pay the ability's cost now (its heroic
/// resource, or the Director's Malice), and what it lacks if not.
pub(super) fn affordable(
    world: &World,
    entity: Entity,
    ability: &crate::ability::Ability,
) -> Result<(), Refusal> {
    let heroic = world.comp::<Heroic>(entity);
    let malice = world.res::<Malice>().0;
    if can_afford(ability.cost, heroic, malice) {
        return Ok(());
    }
    match ability.cost {
        Cost::Heroic(n) => Err(Refusal::NotEnoughResource {
            resource: heroic.map_or("heroic resource".into(), |h| h.resource.clone()),
            needed: n,
            has: heroic.map_or(0, |h| h.amount),
        }),
        Cost::Malice(n) => Err(Refusal::NotEnoughResource {
            resource: "malice".into(),
            needed: n,
            has: malice,
        }),
        Cost::Free | Cost::Signature => Ok(()),
    }
}

#[cfg(test)]
mod tests;
