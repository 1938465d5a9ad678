//! docs/rules.md#concentration: "Abilities that have a Concentration Component
//! also implicitly have a Health and Vitality Component, meaning you will
//! need to make a Save if ever you take damage"; failing it ends the
//! ability's effect ("you will need to Pass the Save or the effect will
//! immediately end"). "For each Concentration Ability that is active beyond
//! the first, you will gain a stack of the Concentrating Status Condition.
//! This Status Condition adds an additional Disadvantage to Saves for
//! Concentration Abilities."
//!
//! Components (docs/rules.md#components): hands, standing and the Stamina
//! point bank; affecting one during the effect forces the same kind of
//! save (see [`affected`]).
//!
//! Our rulings (docs/rulings.md): a concentration ability is active while
//! any condition, bonus or aura it made lasts; the save is the ruleset's
//! save (a d10, 6 or higher), and each disadvantage rolls one more d10 and
//! keeps the lowest.

use crate::encounter::log::emit;
use crate::fast::KeyedWorld;
use bevy_ecs::prelude::*;

use super::log::LogEntry;
use super::state::components::{Auras, Bonuses, Creature, PreparedAbilities};
use super::world::{all_creatures, entity_of};
use crate::ability::Component;
use crate::conditions::Conditions;
use crate::content::Content;
use crate::dice::Dice;
use crate::encounter::state::work::ResourceTouched;
use crate::encounter::world::active;
use crate::encounter::world::sustained;
use crate::stats::{CreatureId, Stamina};

/// docs/rules.md#ending-effects: `user` ends what its `ability` made.
pub(super) fn end_at_will(world: &mut World, user: CreatureId, ability: &str) {
    let name = world
        .res::<Content>()
        .ability(ability)
        .map_or_else(|| ability.to_string(), |a| a.name.clone());
    end(world, user, ability, &name, Ended::AtWill);
}

/// The save against losing concentration: the lowest of 1 + `stacks` d10s.
pub fn save_roll(rolls: &[u32]) -> u32 {
    rolls.iter().copied().min().unwrap_or(0)
}

/// One save with `disadvantages` extra dice, keeping the lowest: the
/// ruleset's save (a d10 against its target; phased 2d6: 2d6 against 7).
fn save(world: &mut World, disadvantages: usize) -> (u32, bool) {
    let rules = super::ruleset::of(world);
    let (target, roll) = (rules.save_target(world), rules.save_dice());
    let mut dice = world.res_mut::<Dice>();
    let rolls: Vec<u32> = (0..=disadvantages).map(|_| roll(&mut dice)).collect();
    let roll = save_roll(&rolls);
    (roll, roll >= target)
}

/// docs/rules.md#point-banks: `user`'s heroic resource went up or down: a
/// save for each lasting ability whose component it is.
pub(super) fn resource_changed(world: &mut World, user: CreatureId) {
    affected(world, user, &[Component::Resource]);
}

/// After the turn-start gains: the saves they call for.
pub(super) fn resource_saves_at_turn_start(world: &mut World) {
    let Some(mut t) = world.get_resource_mut::<ResourceTouched>() else {
        return;
    };
    if t.0.is_empty() {
        return;
    }
    let touched = std::mem::take(&mut t.0);
    for id in touched {
        resource_changed(world, id);
    }
}

/// `user` took damage: a save for each concentration ability it keeps up
/// (and each whose Stamina is a component).
pub(super) fn damaged(world: &mut World, user: CreatureId) {
    affected(world, user, &[Component::Stamina]);
}

/// docs/rules.md#components: "if ever a Component is affected in some way during
/// the Effect Duration, you will need to Pass the Save or the effect will
/// immediately end. If more than one Component is affected, you will roll
/// the Save with a Disadvantage for every Component affected beyond the
/// first." Concentration counts Stamina as a component ("implicitly have a
/// Health and Vitality Component") and adds a disadvantage per extra
/// concentration ability kept up.
pub(super) fn affected(world: &mut World, user: CreatureId, components: &[Component]) {
    let Some(e) = entity_of(world, user) else {
        return;
    };
    if world.comp::<Stamina>(e).is_none_or(|s| s.is_dead()) {
        return;
    }
    let list = sustained(world, user, |a| a.concentration || !a.components.is_empty());
    if list.is_empty() {
        return;
    }
    let stacks = active(world, user).len().saturating_sub(1);
    let content = world.res::<Content>().clone();
    for id in list {
        let Some(ab) = content.ability(&id) else {
            continue;
        };
        let hit: Vec<Component> = components
            .iter()
            .copied()
            .filter(|c| ab.components.contains(c) || (ab.concentration && *c == Component::Stamina))
            .collect();
        if hit.is_empty() {
            continue;
        }
        let extra = if ab.concentration { stacks } else { 0 };
        let (roll, success) = save(world, hit.len() - 1 + extra);
        let name = ab.name.clone();
        let concentrating = ab.concentration && hit == [Component::Stamina];
        emit(
            world,
            if concentrating {
                LogEntry::ConcentrationSave {
                    creature: user,
                    ability: name.clone(),
                    roll,
                    success,
                }
            } else {
                LogEntry::ComponentSave {
                    creature: user,
                    ability: name.clone(),
                    components: hit,
                    roll,
                    success,
                }
            },
        );
        if !success {
            let why = if concentrating {
                Ended::Concentration
            } else {
                Ended::Component
            };
            end(world, user, &id, &name, why);
        }
    }
}

/// Why an ability's effects end all at once.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Ended {
    Concentration,
    Component,
    AtWill,
}

/// Concentration (or a component) lost, or its user's choice: everything
/// `ability` of `user`'s made ends now.
fn end(world: &mut World, user: CreatureId, ability: &str, name: &str, why: Ended) {
    let entities: Vec<Entity> = all_creatures(world).collect();
    for e in entities {
        let Some(target) = world.comp::<Creature>(e).map(|c| c.id) else {
            continue;
        };
        let mut ended = Vec::new();
        if let Some(mut c) = world.comp_mut::<Conditions>(e) {
            let before: Vec<_> = c.list.iter().map(|a| a.kind).collect();
            c.list
                .retain(|a| !(a.source == Some(user) && a.ability.as_deref() == Some(ability)));
            for k in before {
                if !c.has(k) && !ended.contains(&k) {
                    ended.push(k);
                }
            }
        }
        if let Some(mut b) = world.comp_mut::<Bonuses>(e) {
            b.0.retain(|x| !(x.source == Some(user) && x.from == ability));
        }
        for condition in ended {
            emit(world, LogEntry::ConditionEnded { target, condition });
        }
    }
    if let Some(e) = entity_of(world, user) {
        if let Some(mut a) = world.comp_mut::<Auras>(e) {
            a.0.retain(|x| x.ability != ability);
        }
        // Abilities it prepared expire with it ("if you lose Concentration
        // on an Ability").
        let prepared: Vec<String> = world
            .comp::<PreparedAbilities>(e)
            .into_iter()
            .flat_map(|p| &p.0)
            .filter(|p| p.source.as_deref() == Some(ability))
            .map(|p| p.ability.clone())
            .collect();
        for p in prepared {
            super::gather::expire(world, e, user, &p);
        }
    }
    let (creature, ability) = (user, name.to_string());
    emit(
        world,
        match why {
            Ended::Concentration => LogEntry::ConcentrationLost { creature, ability },
            Ended::Component => LogEntry::ComponentLost { creature, ability },
            Ended::AtWill => LogEntry::EffectEnded { creature, ability },
        },
    );
}
