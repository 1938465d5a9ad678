//! Triggered actions (docs/rules.md#actions-on-a-turn, #moving, docs/rules.md#triggered-actions).
//!
//! Things that happen in an encounter are typed [`Event`]s: a creature
//! leaves an enemy's reach, moves adjacent to another, starts an ability,
//! targets someone, deals damage. When a creature could answer an event with
//! a triggered action, resolution stops at that point with a [`Prompt`]; the
//! rest of the work waits on the work stack (`stack.rs`) until the
//! prompted creature answers with [`Command::Answer`](super::Command::Answer), by a
//! person or by an AI. Events that fire before something (a move's next
//! step, an ability's roll) pause before it; damage events pause after the
//! action that dealt the damage.

use crate::encounter::world;
use crate::fast::KeyedWorld;
use crate::map::Side;
use bevy_ecs::prelude::*;

use super::state::components::*;
use super::state::turn::can_act;
use super::state::work::{Resolution, Resume};
use super::world::{entity_of, surprised_side};
use crate::ability::{ActionType, Cost, Distance, Relation, TargetKind, TriggerEvent};
use crate::conditions::{Conditions, action_limits};
use crate::content::Content;
use crate::encounter::state::work::{Event, OPPORTUNITY_ATTACK, Reaction};
use crate::map::{Footprint, line_of_effect};
use crate::stats::{CreatureId, Stamina};

/// Queue a prompt for every creature that could answer `event` now, in id
/// order. Returns whether anyone could.
pub(super) fn offer(world: &mut World, event: Event) -> bool {
    // Those with an ability answering this kind of event (only an
    // opportunity attack answers without one), from one pass of a kept
    // query: [`each_option`] would turn the rest away.
    let everyone = event.kind == TriggerEvent::EnemyLeavesAdjacency;
    let mut ids: Vec<CreatureId> = Vec::new();
    world::CachedQuery::<world::TriggerData>::with(world, |q| {
        q.iter_manual(world)
            .filter(|(_, a)| everyone || a.is_some_and(|a| a.1.contains(event.kind)))
            .for_each(|(c, _)| ids.push(c.id))
    });
    // In id order, whatever order the store keeps them in.
    ids.sort_unstable();
    offer_to(world, event, ids)
}

/// Queue a prompt for those of `reactors` that could answer `event` now.
pub(super) fn offer_to(world: &mut World, event: Event, reactors: Vec<CreatureId>) -> bool {
    let reactors = askers(world, &event, reactors);
    if reactors.is_empty() {
        return false;
    }
    ask(world, event, reactors);
    true
}

/// Those of `reactors` that could answer `event` now, in the order they are
/// asked (docs/rules.md#reactions: "in turn order").
pub(super) fn askers(
    world: &World,
    event: &Event,
    reactors: impl IntoIterator<Item = CreatureId>,
) -> Vec<CreatureId> {
    let mut reactors: Vec<CreatureId> = reactors
        .into_iter()
        .filter(|&r| has_option(world, r, event))
        .collect();
    // (Most steps of a walk have no one to ask: no order to find.)
    if reactors.len() < 2 {
        return reactors;
    }
    let flow = world.res::<super::state::turn::Flow>();
    reactors.sort_by_key(|&r| turn_order(flow, r));
    reactors
}

/// Queue asking [`askers`]' answer about `event`, first to last.
pub(super) fn ask(world: &mut World, event: Event, reactors: Vec<CreatureId>) {
    world
        .res_mut::<Resolution>()
        .push(Resume::Ask { event, reactors });
}

/// Where a creature stands in the round's turn order (our ruling for the
/// power roll, whose sides alternate with no initiative: those who have
/// taken their turn this round in the order they took it, then the rest by
/// id; phased 2d6: the current phase's initiative order).
pub fn turn_order(flow: &super::state::turn::Flow, id: CreatureId) -> (usize, CreatureId) {
    let place = match &flow.phased {
        Some(p) => p.order().iter().position(|&c| c == id),
        None => flow.acted.iter().position(|&c| c == id),
    };
    (place.unwrap_or(usize::MAX), id)
}

/// Whether a creature can take a triggered action at all now: alive, not
/// dazed (docs/rules.md#dazed: "can't use triggered actions, free triggered
/// actions"), not surprised (docs/rules.md#actions-on-a-turn).
fn may_react(world: &World, e: Entity) -> bool {
    let (Some(c), Some(s), Some(cond)) = (
        world.comp::<Creature>(e),
        world.comp::<Stamina>(e),
        world.comp::<Conditions>(e),
    ) else {
        return false;
    };
    can_act(s) && action_limits(cond).triggered_allowed && surprised_side(world) != Some(c.side)
}

fn alive(world: &World, e: Entity) -> bool {
    world.comp::<Stamina>(e).is_some_and(|s| !s.is_dead())
}

/// What `reactor` could do about `event` now.
pub(super) fn options_for(world: &World, reactor: CreatureId, event: &Event) -> Vec<Reaction> {
    let mut out = Vec::new();
    each_option(world, reactor, event, |ability, target| {
        out.push(Reaction {
            ability: ability.to_string(),
            targets: target.into_iter().collect(),
        });
        true
    });
    out
}

/// Whether `reactor` has any answer to `event` now ([`options_for`] without
/// building them all).
fn has_option(world: &World, reactor: CreatureId, event: &Event) -> bool {
    let mut any = false;
    each_option(world, reactor, event, |_, _| {
        any = true;
        false
    });
    any
}

/// The ability `actor` is starting: the newest roll waiting that is its.
fn started_by(world: &World, actor: CreatureId) -> Option<&str> {
    world
        .res::<Resolution>()
        .stack
        .iter()
        .rev()
        .find_map(|r| match r {
            Resume::Roll(roll) if roll.user == actor => Some(roll.ability.as_str()),
            _ => None,
        })
}

/// Hand each of [`options_for`]'s answers (an ability and its target, if
/// it has one) to `take`, in order, until it returns `false`.
fn each_option(
    world: &World,
    reactor: CreatureId,
    event: &Event,
    mut take: impl FnMut(&str, Option<CreatureId>) -> bool,
) {
    let Some(index) = world.get_res::<super::state::board::CreatureIndex>() else {
        return;
    };
    let Some(re) = index.entity(reactor) else {
        return;
    };
    if matches!(
        event.kind,
        TriggerEvent::CriticalHit | TriggerEvent::StrikeNow | TriggerEvent::TurnEnded
    ) {
        critical_options(world, reactor, re, event, take);
        return;
    }
    // Only an opportunity attack answers an event none of its abilities does.
    let known = world.comp::<Abilities>(re);
    let answers = known.is_some_and(|k| k.1.contains(event.kind));
    debug_assert!(
        known.is_none_or(
            |k| k.1 == super::state::components::Triggers::of(&k.0, &world.res::<Content>().0)
        ),
        "abilities changed without their triggers"
    );
    if !answers && event.kind != TriggerEvent::EnemyLeavesAdjacency {
        return;
    }
    let Some(ae) = index.entity(event.actor) else {
        return;
    };
    let subject = match event.subject {
        Some(s) => match index.entity(s) {
            Some(se) if alive(world, se) => Some((s, se)),
            _ => return,
        },
        None => None,
    };
    if !may_react(world, re) || !alive(world, ae) {
        return;
    }
    let (Some(my_side), Some(my_space), Some(budget), Some(actor_side)) = (
        world.comp::<Creature>(re).map(|c| c.side),
        world.comp::<Space>(re).map(|s| s.0),
        world.comp::<TurnBudget>(re).copied(),
        world.comp::<Creature>(ae).map(|c| c.side),
    ) else {
        return;
    };
    let actor_space = world.comp::<Space>(ae).map(|s| s.0).unwrap_or(my_space);
    if event.kind == TriggerEvent::EnemyLeavesAdjacency
        && budget.triggered
        && actor_side != my_side
        && reactor != event.actor
        && !take(OPPORTUNITY_ATTACK, Some(event.actor))
    {
        return;
    }
    let (true, Some(known)) = (answers, known) else {
        return;
    };
    let content = &world.res::<Content>().0;
    // Only the abilities this event triggers are looked at further.
    // docs/rules.md#ability-tags: a trigger naming a tag answers only an
    // ability with it (the one the actor is starting).
    let tagged = |tag: &str| {
        started_by(world, event.actor)
            .and_then(|id| content.ability(id))
            .is_some_and(|a| a.has_tag(tag))
    };
    let triggered = known.0.iter().filter_map(|id| {
        content
            .ability(id)
            .filter(|a| {
                a.trigger
                    .as_ref()
                    .is_some_and(|t| t.on == event.kind && t.tag.as_deref().is_none_or(&tagged))
            })
            .map(|a| (id, a))
    });
    let heroic = world.comp::<Heroic>(re);
    let malice = world.res::<super::Malice>().0;
    let map = &world.res::<crate::encounter::state::board::Battlefield>().0;
    for (id, a) in triggered {
        if !answerable(a, &budget, heroic, malice) {
            continue;
        }
        let reach = match a.distance {
            Distance::Myself => 1,
            d => d.reach().max(1),
        };
        let me = (reactor, my_side, my_space);
        if !relates(world, event, me, (actor_side, actor_space), subject, reach) {
            continue;
        }
        if a.distance.is_area() {
            if matches!(a.distance, Distance::Aura(_) | Distance::Burst(_)) && !take(id, None) {
                return;
            }
            continue;
        }
        // The actor, the subject and the reactor, each once.
        let candidates = [Some(event.actor), subject.map(|(s, _)| s), Some(reactor)];
        for (i, &c) in candidates.iter().enumerate() {
            let Some(c) = c else {
                continue;
            };
            if !candidates[..i].contains(&Some(c))
                && entity_of(world, c).is_some_and(|ce| may_target(world, map, a, me, (c, ce)))
                && !take(id, Some(c))
            {
                return;
            }
        }
    }
}

/// Whether a triggered ability can answer now: a triggered action with
/// the round's triggered action unspent, or a free triggered action, and
/// its cost payable.
fn answerable(
    a: &crate::ability::Ability,
    budget: &TurnBudget,
    heroic: Option<&Heroic>,
    malice: u32,
) -> bool {
    let action = match a.action {
        ActionType::TriggeredAction => budget.triggered,
        ActionType::FreeTriggeredAction => true,
        _ => false,
    };
    action
        && match a.cost {
            Cost::Heroic(n) => heroic.is_some_and(|h| h.can_pay(n)),
            Cost::Malice(n) => malice >= n,
            Cost::Free | Cost::Signature => true,
        }
}

/// Whether `event` concerns the reactor `me` (its id, side and space) as
/// its trigger asks: itself targeted or damaged, an ally within `reach`, a
/// creature starting an ability within it, an enemy leaving, a creature
/// coming beside (docs/rules.md#triggered-actions).
fn relates(
    world: &World,
    event: &Event,
    (reactor, my_side, my_space): (CreatureId, Side, Footprint),
    (actor_side, actor_space): (Side, Footprint),
    subject: Option<(CreatureId, Entity)>,
    reach: u32,
) -> bool {
    let within = |fp: Footprint| my_space.distance(fp) <= reach;
    match event.kind {
        TriggerEvent::SelfTargeted | TriggerEvent::SelfTakesDamage => {
            subject.is_some_and(|(s, _)| s == reactor)
        }
        TriggerEvent::AllyTargeted => subject.is_some_and(|(s, se)| {
            s != reactor
                && world
                    .comp::<Creature>(se)
                    .is_some_and(|c| c.side == my_side)
                && world.comp::<Space>(se).is_some_and(|sp| within(sp.0))
        }),
        TriggerEvent::CreatureStartsAbility => event.actor != reactor && within(actor_space),
        // docs/rules.md#triggered-actions: Parry's "A creature deals damage to the target":
        // the one damaged is the reactor or an ally within reach.
        TriggerEvent::CreatureDealsDamage => subject.is_some_and(|(s, se)| {
            s == reactor
                || (world
                    .comp::<Creature>(se)
                    .is_some_and(|c| c.side == my_side)
                    && world.comp::<Space>(se).is_some_and(|sp| within(sp.0)))
        }),
        TriggerEvent::EnemyLeavesAdjacency => actor_side != my_side,
        TriggerEvent::CreatureMovesAdjacent => event.actor != reactor,
        // (Answered by `critical_options`, never by a content trigger.)
        TriggerEvent::CriticalHit | TriggerEvent::StrikeNow | TriggerEvent::TurnEnded => false,
    }
}

/// docs/rules.md#critical-hit: the extra main action a critical hit gives
/// off the creature's turn, "even if you are dazed", and the signature
/// ability an ally's Strike Now lets it use (only its signature abilities,
/// then): each of its
/// main-action abilities it can use now (not spent, affordable) against
/// the creature it just struck or any other in reach and line of effect
/// that the ability may target, on itself, or around itself (an aura or
/// burst). Abilities placed elsewhere (a cube, a line) and moves are not
/// offered: a prompt answers with targets (docs/rulings.md). At a turn's
/// end (docs/rules.md#villain-actions) the same is offered of its villain
/// actions instead.
fn critical_options(
    world: &World,
    reactor: CreatureId,
    re: Entity,
    event: &Event,
    mut take: impl FnMut(&str, Option<CreatureId>) -> bool,
) {
    if !alive(world, re) || !world.comp::<Stamina>(re).is_some_and(can_act) {
        return;
    }
    // docs/rules.md#villain-actions: at most one a round, and not while
    // its side is surprised.
    let villain = event.kind == TriggerEvent::TurnEnded;
    if villain {
        let round = world.res::<super::state::turn::Flow>().round;
        let side = world.comp::<Creature>(re).map(|c| c.side);
        if world
            .comp::<Progress>(re)
            .is_some_and(|p| p.villain_round == round)
            || side.is_some_and(|s| surprised_side(world) == Some(s))
        {
            return;
        }
    }
    let (Some(my_side), Some(my_space), Some(known)) = (
        world.comp::<Creature>(re).map(|c| c.side),
        world.comp::<Space>(re).map(|s| s.0),
        world.comp::<Abilities>(re),
    ) else {
        return;
    };
    let content = &world.res::<Content>().0;
    let heroic = world.comp::<Heroic>(re);
    let malice = world.res::<super::Malice>().0;
    let map = &world.res::<crate::encounter::state::board::Battlefield>().0;
    // The creature just struck first, then the rest in id order.
    let mut others: Vec<(CreatureId, Entity)> = Vec::new();
    world::CachedQuery::<world::TriggerData>::with(world, |q| {
        q.iter_manual(world).for_each(|(c, _)| {
            if let Some(e) = entity_of(world, c.id) {
                others.push((c.id, e));
            }
        })
    });
    others.sort_by_key(|&(id, _)| (Some(id) != event.subject, id));
    for id in known.0.iter() {
        let Some(a) = content.ability(id) else {
            continue;
        };
        let wanted = if villain {
            ActionType::VillainAction
        } else {
            ActionType::MainAction
        };
        if a.action != wanted
            || a.trigger.is_some()
            || (event.kind == TriggerEvent::StrikeNow && a.cost != Cost::Signature)
        {
            continue;
        }
        let affordable = match a.cost {
            Cost::Heroic(n) => heroic.as_ref().is_some_and(|h| h.can_pay(n)),
            Cost::Malice(n) => malice >= n,
            Cost::Free | Cost::Signature => true,
        };
        if !affordable || !super::world::available(world, re, a) {
            continue;
        }
        if a.distance.is_area() {
            if matches!(a.distance, Distance::Aura(_) | Distance::Burst(_)) && !take(id, None) {
                return;
            }
            continue;
        }
        if a.distance == Distance::Myself {
            if a.target.kinds.contains(&TargetKind::Myself) && !take(id, Some(reactor)) {
                return;
            }
            continue;
        }
        for &(c, ce) in &others {
            if may_target(world, map, a, (reactor, my_side, my_space), (c, ce))
                && !take(id, Some(c))
            {
                return;
            }
        }
    }
}

/// Whether `reactor` (its side and space) may aim ability `a` at creature
/// `c` now: a kind the ability targets, alive, and itself or in reach and
/// line of effect (none needed at a true distance).
fn may_target(
    world: &World,
    map: &crate::map::Map,
    a: &crate::ability::Ability,
    (reactor, my_side, my_space): (CreatureId, crate::map::Side, Footprint),
    (c, ce): (CreatureId, Entity),
) -> bool {
    let (Some(cc), Some(cs)) = (
        world.comp::<Creature>(ce),
        world.comp::<Space>(ce).map(|s| s.0),
    ) else {
        return false;
    };
    let kind_ok =
        TargetKind::any_allows(&a.target.kinds, Relation::of(reactor, my_side, c, cc.side));
    let in_reach = c == reactor
        || (my_space.distance(cs) <= a.distance.reach()
            && (a.true_distance || line_of_effect(map, my_space, cs)));
    kind_ok
        && in_reach
        && alive(world, ce)
        && crate::encounter::check::tags_allow(world, &a.target, ce)
}
