//! Seed 002 "Concentration": "Abilities that have a Concentration Component
//! also implicitly have a Health and Vitality Component, meaning you will
//! need to make a Save if ever you take damage"; failing it ends the
//! ability's effect ("you will need to Pass the Save or the effect will
//! immediately end"). "For each Concentration Ability that is active beyond
//! the first, you will gain a stack of the Concentrating Status Condition.
//! This Status Condition adds an additional Disadvantage to Saves for
//! Concentration Abilities."
//!
//! Our rulings (README "Rulings"): a concentration ability is active while
//! any condition, bonus or aura it made lasts; the save is the ruleset's
//! save (a d10, 6 or higher), and each disadvantage rolls one more d10 and
//! keeps the lowest.

use bevy_ecs::prelude::*;

use super::act::{all_creatures, entity_of};
use super::components::{Auras, Bonuses, Creature};
use super::log::{CombatLog, LogEntry};
use crate::conditions::Conditions;
use crate::content::Content;
use crate::dice::Dice;
use crate::stats::{CreatureId, Stamina};

/// The concentration abilities `user` keeps going, in id order.
pub fn active(world: &World, user: CreatureId) -> Vec<String> {
    let content = world.resource::<Content>();
    let mut out: Vec<String> = Vec::new();
    let mut add = |id: &str| {
        if content.ability(id).is_some_and(|a| a.concentration) && !out.iter().any(|x| x == id) {
            out.push(id.to_string());
        }
    };
    for e in all_creatures(world) {
        if let Some(c) = world.get::<Conditions>(e) {
            for a in c.list.iter().filter(|a| a.source == Some(user)) {
                if let Some(id) = &a.ability {
                    add(id);
                }
            }
        }
        if let Some(b) = world.get::<Bonuses>(e) {
            for x in b.0.iter().filter(|x| x.source == Some(user)) {
                add(&x.from);
            }
        }
    }
    if let Some(auras) = entity_of(world, user).and_then(|e| world.get::<Auras>(e)) {
        for a in &auras.0 {
            add(&a.ability);
        }
    }
    out.sort();
    out
}

/// The save against losing concentration: the lowest of 1 + `stacks` d10s.
pub fn save_roll(rolls: &[u32]) -> u32 {
    rolls.iter().copied().min().unwrap_or(0)
}

/// `user` took damage: a save for each concentration ability it keeps up.
pub(super) fn damaged(world: &mut World, user: CreatureId) {
    let Some(e) = entity_of(world, user) else {
        return;
    };
    if world.get::<Stamina>(e).is_none_or(|s| s.is_dead()) {
        return;
    }
    let list = active(world, user);
    if list.is_empty() {
        return;
    }
    let stacks = list.len() - 1;
    let target = world.resource::<super::flow::ActiveRuleset>().0.save_target;
    let content = world.resource::<Content>().clone();
    for id in list {
        let rolls: Vec<u32> = (0..=stacks)
            .map(|_| world.resource_mut::<Dice>().roll(10))
            .collect();
        let roll = save_roll(&rolls);
        let success = roll >= target;
        let name = content.ability(&id).map_or(id.clone(), |a| a.name.clone());
        world
            .resource_mut::<CombatLog>()
            .push(LogEntry::ConcentrationSave {
                creature: user,
                ability: name.clone(),
                roll,
                success,
            });
        if !success {
            end(world, user, &id, &name);
        }
    }
}

/// Concentration lost: everything `ability` of `user`'s made ends now.
fn end(world: &mut World, user: CreatureId, ability: &str, name: &str) {
    let entities: Vec<Entity> = all_creatures(world).collect();
    for e in entities {
        let Some(target) = world.get::<Creature>(e).map(|c| c.id) else {
            continue;
        };
        let mut ended = Vec::new();
        if let Some(mut c) = world.get_mut::<Conditions>(e) {
            let before: Vec<_> = c.list.iter().map(|a| a.kind).collect();
            c.list
                .retain(|a| !(a.source == Some(user) && a.ability.as_deref() == Some(ability)));
            for k in before {
                if !c.has(k) && !ended.contains(&k) {
                    ended.push(k);
                }
            }
        }
        if let Some(mut b) = world.get_mut::<Bonuses>(e) {
            b.0.retain(|x| !(x.source == Some(user) && x.from == ability));
        }
        for condition in ended {
            world
                .resource_mut::<CombatLog>()
                .push(LogEntry::ConditionEnded { target, condition });
        }
    }
    if let Some(e) = entity_of(world, user)
        && let Some(mut a) = world.get_mut::<Auras>(e)
    {
        a.0.retain(|x| x.ability != ability);
    }
    world
        .resource_mut::<CombatLog>()
        .push(LogEntry::ConcentrationLost {
            creature: user,
            ability: name.to_string(),
        });
}
