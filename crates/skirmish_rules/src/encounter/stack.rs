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
            Resume::SummonTurn { creature } => super::summon::take_turn(world, creature),
            Resume::FinishTurn => resolve::finish_turn(world),
            Resume::SummonStrike { creature } => super::summon::strike(world, creature),
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
