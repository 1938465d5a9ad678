//! The work stack: the engine's one loop (docs/architecture.md#the-encounters-pipeline).
//!
//! Resolving a command pushes work here (a walk's remaining steps, a
//! roll waiting to be made, what follows an ability, a prompt's askers)
//! and [`run`] pops and carries it out, last in first out, until the
//! stack is empty or a [`Prompt`] opens: then the rest waits until the
//! prompted creature answers ([`Command::Answer`](super::Command::Answer)).
//! Damage dealt since the last item is asked about first
//! (docs/rules.md#triggered-actions).

use bevy_ecs::prelude::*;
use bevy_state::prelude::*;

use super::command::{Command, Refusal};
use super::resolve::{check_grabs, execute};
use super::state::turn::{Flow, Phase, can_act};
use super::world::entity_of;
use crate::stats::{CreatureId, Stamina};

use super::react::{offer, options_for};
use super::resolve::{self};
use super::state::work::{Event, Prompt};
use super::world;
use crate::ability::TriggerEvent;
use crate::encounter::state::work::{Resolution, Resume};
use crate::fast::KeyedWorld;

/// Run waiting work until it is done or a prompt opens. Returns whether a
/// prompt is open. The first item of work may read what the listing
/// handed over, if it is a listed walk (see [`world::ListedWalk`]).
pub(super) fn run(world: &mut World) -> bool {
    let mut first = true;
    loop {
        // (Only the first item may read it: anything run changes the world.)
        if !std::mem::replace(&mut first, false)
            && crate::fast::handed::<world::ListedWalk>(world).is_some()
        {
            crate::fast::clear_handed::<world::ListedWalk>(world);
        }
        // The prompt, the damage to ask about and the next item, read with
        // one lookup of the resolution.
        let mut res = world.res_mut::<Resolution>();
        if res.prompt.is_some() {
            return true;
        }
        let damage = std::mem::take(&mut res.damage);
        let item = if damage.is_empty() {
            res.stack.pop()
        } else {
            None
        };
        if !damage.is_empty() {
            // Pushed in reverse so the first damage is asked about first.
            for (by, to) in damage.into_iter().rev() {
                for kind in [
                    TriggerEvent::SelfTakesDamage,
                    TriggerEvent::CreatureDealsDamage,
                ] {
                    offer(
                        world,
                        Event {
                            kind,
                            actor: by,
                            subject: Some(to),
                        },
                    );
                }
            }
            continue;
        }
        let Some(item) = item else {
            return false;
        };
        match item {
            Resume::Walk {
                creature,
                path,
                shift,
                asked,
                airborne,
            } => resolve::walk_steps(world, creature, path, shift, asked, airborne),
            Resume::Roll(r) => resolve::run_roll(world, *r),
            Resume::After { creature, ability } => {
                resolve::after_ability(world, creature, &ability)
            }
            Resume::FollowUp {
                creature,
                target,
                ability,
            } => resolve::charge_attack(world, creature, target, ability.as_deref()),
            Resume::Sweep { roll, path, reach } => resolve::sweep_roll(world, *roll, &path, reach),
            Resume::SummonTurn { creature } => super::resolve::summon::take_turn(world, creature),
            Resume::FinishTurn => resolve::finish_turn(world),
            Resume::SummonStrike { creature } => super::resolve::summon::strike(world, creature),
            Resume::Ask {
                event,
                mut reactors,
            } => {
                while !reactors.is_empty() {
                    let r = reactors.remove(0);
                    let options = options_for(world, r, &event);
                    if !options.is_empty() {
                        let mut res = world.res_mut::<Resolution>();
                        res.push(Resume::Ask { event, reactors });
                        res.prompt = Some(Prompt {
                            creature: r,
                            event,
                            options,
                        });
                        break;
                    }
                }
            }
        }
    }
}

/// Carry out a command: the first part of a step, run by
/// [`crate::encounter::Encounter`] on the world directly, as Bevy runs an exclusive
/// system (a schedule around this one system cost a random game 2% more
/// instructions, for nothing). The command comes back with the answer (for
/// the replay, or the refusal's report).
pub(super) fn handle_command(world: &mut World, cmd: Command) -> (Result<(), Refusal>, Command) {
    // The phase stays as it is while the step runs (it changes after it).
    let phase = *world.res::<State<Phase>>().get();
    let result = execute(world, &cmd, phase);
    // Whether a prompt is open, as the waiting work left it.
    let mut prompt = None;
    if result.is_ok() {
        // (A listed move or shift has just put its walk up, first to run,
        // with nothing changed since the listing but the walker's move
        // spent: it may read what the listing handed over.)
        prompt = Some(run(world));
        check_grabs(world);
    }
    if end_fallen_turn(world) != Fallen::Standing {
        // (It dropped what was waiting, the prompt too.)
        prompt = Some(false);
    }
    // A turn started clears a delay; an open prompt is its own phase.
    if matches!(cmd, Command::StartTurn { .. }) && result.is_ok() {
        world.res_mut::<Flow>().delayed = None;
    }
    let prompt = prompt.unwrap_or_else(|| world.res::<Resolution>().prompt.is_some());
    if prompt && phase != Phase::Reacting {
        world.res_mut::<NextState<Phase>>().set(Phase::Reacting);
    } else if !prompt && phase == Phase::Reacting && world.res::<Flow>().active.is_some() {
        world.res_mut::<NextState<Phase>>().set(Phase::Acting);
    }
    (result, cmd)
}

/// What [`end_fallen_turn`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Fallen {
    /// Nothing: no turn under way, or its creature stands.
    Standing,
    /// The squad's turn passed to a minion still standing (what was
    /// waiting dropped).
    Passed,
    /// The turn ended (what was waiting dropped).
    Ended,
}

/// A creature that falls during its own turn (an opportunity attack, a
/// collision, an aura as its turn starts) has its turn ended, and what it
/// was doing with it; a squad's turn passes to a minion still standing.
pub(super) fn end_fallen_turn(world: &mut World) -> Fallen {
    let Some(active) = world.res::<Flow>().active else {
        return Fallen::Standing;
    };
    let standing = |world: &World, id: CreatureId| {
        entity_of(world, id)
            .and_then(|e| world.comp::<Stamina>(e))
            .is_some_and(can_act)
    };
    if standing(world, active) {
        return Fallen::Standing;
    }
    world.res_mut::<Resolution>().clear();
    // A squad's turn goes on while any of its minions stands.
    let next = world
        .res::<Flow>()
        .squad
        .iter()
        .copied()
        .find(|&m| standing(world, m));
    if let Some(m) = next {
        world.res_mut::<Flow>().active = Some(m);
        return Fallen::Passed;
    }
    let mut flow = world.res_mut::<Flow>();
    let done = flow.finish_turn();
    // A turn that ended as it began (its creature died of its slow
    // action's bleeding) has nothing of its start left to do: the dead
    // gain no resource.
    flow.events.ended = done;
    flow.events.started.clear();
    Fallen::Ended
}
