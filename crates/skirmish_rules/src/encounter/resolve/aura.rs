//! Lasting auras (docs/rules.md#aura: an aura "always originates from you and
//! moves with you for the duration of the ability that created it. A
//! creature or object must be within X squares of you to be targeted").
//!
//! An aura ability with an `aura` entry leaves an [`ActiveAura`] on its user
//! when used. The systems here make it act when its ability says: on
//! creatures starting or ending their turns in it, on everyone in it at the
//! start or end of the user's turn, or on a creature moving into it.

use crate::encounter::log::emit;
use crate::encounter::world;
use crate::fast::KeyedWorld;
use bevy_ecs::prelude::*;

use super::super::check::target_allowed;
use super::super::log::LogEntry;
use super::super::state::board::Battlefield;
use super::super::state::components::*;
use super::super::state::turn::can_act;
use super::super::state::work::Resolution;
use super::super::world::{entity_of, snapshot};
use super::apply_outcome;
use crate::ability::{Ability, AuraLasts, AuraTiming, Distance};
use crate::content::Content;
use crate::encounter::state::board::KnownCarriers;
use crate::encounter::world::{Carrier, carrier};
use crate::map::{Footprint, line_of_effect};
use crate::stats::CreatureId;

/// A creature used an ability: if it is a lasting aura, it now carries it
/// (using it again replaces the old one).
pub(crate) fn start(world: &mut World, entity: Entity, ability: &Ability) {
    let (Some(spec), Distance::Aura(radius)) = (&ability.aura, ability.distance) else {
        return;
    };
    let own_turn = world
        .comp::<Creature>(entity)
        .is_some_and(|c| world.res::<super::super::Flow>().is_acting(c.id));
    let aura = ActiveAura {
        ability: ability.id.clone(),
        radius,
        when: spec.when,
        turn_ends_left: match spec.lasts {
            AuraLasts::EndOfEncounter => None,
            AuraLasts::UntilEndOfNextTurn => Some(if own_turn { 2 } else { 1 }),
        },
    };
    if let Some(mut a) = world.comp_mut::<Auras>(entity) {
        a.0.retain(|x| x.ability != ability.id);
        a.0.push(aura);
    }
    if let Some(mut k) = world.get_res_mut::<KnownCarriers>() {
        k.0.add(entity);
    }
}

/// Whether an aura around `owner` reaches `fp`: within its radius and in
/// line of effect of its user (it doesn't pass through walls).
fn reaches(map: &crate::map::Map, owner: Footprint, radius: u32, fp: Footprint) -> bool {
    owner.distance(fp) <= radius && line_of_effect(map, owner, fp)
}

/// Every living carrier of a lasting aura, with its auras.
/// In id order (the order the creatures are listed in, and auras act in).
/// Read through a query kept for the encounter's life: it runs for every
/// walk and turn boundary, and almost no one carries an aura, so it reads
/// only the auras of each creature, the rest of a carrier's after.
pub(super) fn carriers(world: &World) -> Vec<Carrier> {
    // Only those known to have carried one are read (see `KnownCarriers`):
    // most often nobody. Not known, everyone's auras are looked at.
    with_known(world, |known| {
        let mut out = Vec::new();
        for &e in known {
            if let (Some(a), Some(c), Some(sp), Some(s)) = (
                world.comp::<Auras>(e),
                world.comp::<Creature>(e),
                world.comp::<Space>(e),
                world.comp::<crate::stats::Stamina>(e),
            ) {
                out.extend(carrier(e, c, sp, s, a));
            }
        }
        out.sort_by_key(|c| c.1);
        out
    })
}

/// `f` of the creatures known to have carried an aura (see
/// [`KnownCarriers`]), or, where that is not known, of those carrying one
/// now.
fn with_known<R>(world: &World, f: impl FnOnce(&[Entity]) -> R) -> R {
    match world
        .get_res::<KnownCarriers>()
        .and_then(|k| k.0.0.as_ref())
    {
        Some(known) => f(known),
        None => f(&carrying(world)),
    }
}

/// The creatures whose auras are not empty, in one pass over everyone's.
fn carrying(world: &World) -> smallvec::SmallVec<[Entity; 4]> {
    let mut known = smallvec::SmallVec::new();
    world::CachedQuery::<world::AuraData>::with(world, |q| {
        q.iter_manual(world)
            .filter(|(_, a)| !a.0.is_empty())
            .for_each(|(e, _)| known.push(e))
    });
    known
}

/// Learn who may carry an aura, if that is not known (see [`KnownCarriers`]).
fn learn_carriers(world: &mut World) {
    if world
        .get_res::<KnownCarriers>()
        .is_none_or(|k| k.0.0.is_some())
    {
        return;
    }
    let known = carrying(world);
    world.res_mut::<KnownCarriers>().0 = crate::encounter::state::board::Known(Some(known));
}

/// Every living creature's id and space.
fn everyone(world: &mut World) -> Vec<(CreatureId, Footprint)> {
    world::occupants(world)
        .into_iter()
        .map(|o| (o.id, o.space))
        .collect()
}

/// The aura acts on `targets` (those of them it may affect).
fn pulse(world: &mut World, owner: Entity, aura: &ActiveAura, targets: &[CreatureId]) {
    let content = world.res::<Content>().clone();
    let Some(ability) = content.ability(&aura.ability).cloned() else {
        return;
    };
    let Some(spec) = ability.aura.clone() else {
        return;
    };
    let Some(user) = snapshot(world, owner) else {
        return;
    };
    let mut logged = false;
    for &t in targets {
        let Some(ts) = world::living_snapshot(world, t) else {
            continue;
        };
        if !target_allowed(world, &ability.target, &user, &ts) {
            continue;
        }
        if !logged {
            logged = true;
            emit(
                world,
                LogEntry::AuraPulse {
                    creature: user.id,
                    ability: ability.id.clone(),
                    name: ability.name.clone(),
                },
            );
        }
        // An aura acting is not an action: its damage triggers nothing.
        let before = world.res::<Resolution>().damage.len();
        let potency = super::potency_adjustment(world, &user, &ts);
        apply_outcome(
            world,
            owner,
            &user,
            &ability,
            &ts,
            &spec.effect.effects,
            potency,
            user.space,
            &mut 0,
        );
        world.res_mut::<Resolution>().damage.truncate(before);
    }
}

/// Auras whose timing is `inside` act on `who` if it is in them; auras of
/// `who` itself whose timing is `own` act on everyone in them.
fn turn_boundary(world: &mut World, who: &[CreatureId], inside: AuraTiming, own: AuraTiming) {
    if who.is_empty() {
        return;
    }
    learn_carriers(world);
    let carriers = carriers(world);
    if carriers.is_empty() {
        return;
    }
    let map = world.res::<Battlefield>().0.clone();
    for (owner, owner_id, space, auras) in carriers {
        for aura in auras {
            let all = everyone(world);
            let hit: Vec<CreatureId> = if aura.when == own && who.contains(&owner_id) {
                all.iter()
                    .filter(|(_, fp)| reaches(&map, space, aura.radius, *fp))
                    .map(|(id, _)| *id)
                    .collect()
            } else if aura.when == inside {
                all.iter()
                    .filter(|(id, fp)| who.contains(id) && reaches(&map, space, aura.radius, *fp))
                    .map(|(id, _)| *id)
                    .collect()
            } else {
                continue;
            };
            pulse(world, owner, &aura, &hit);
        }
    }
}

pub(crate) fn at_turn_start(world: &mut World) {
    let started = super::super::state::turn::turns_started(world);
    turn_boundary(
        world,
        &started,
        AuraTiming::StartOfTurnInside,
        AuraTiming::UserTurnStart,
    );
}

/// End of a turn: auras act, then those of the creatures ending their turn
/// count down (an aura "until the end of your next turn" ends).
pub(crate) fn at_turn_end(world: &mut World) {
    let ended = super::super::state::turn::turns_ended(world);
    turn_boundary(
        world,
        &ended,
        AuraTiming::EndOfTurnInside,
        AuraTiming::UserTurnEnd,
    );
    for id in ended {
        let Some(e) = entity_of(world, id) else {
            continue;
        };
        // Most creatures carry no aura that counts down: nothing to write.
        let counting = world
            .comp::<Auras>(e)
            .is_some_and(|a| a.0.iter().any(|x| x.turn_ends_left.is_some()));
        if !counting {
            continue;
        }
        let mut gone = Vec::new();
        if let Some(mut auras) = world.comp_mut::<Auras>(e) {
            for a in auras.0.iter_mut() {
                if let Some(n) = a.turn_ends_left.as_mut() {
                    *n = n.saturating_sub(1);
                    if *n == 0 {
                        gone.push(a.ability.clone());
                    }
                }
            }
            auras.0.retain(|a| a.turn_ends_left != Some(0));
        }
        if gone.is_empty() {
            continue;
        }
        let content = world.res::<Content>().clone();
        for ability in gone {
            let name = content
                .ability(&ability)
                .map_or(ability.clone(), |a| a.name.clone());
            emit(
                world,
                LogEntry::AuraEnded {
                    creature: id,
                    ability: name,
                },
            );
        }
    }
}

/// A creature stepped from `from` to `to`: auras with the `Enters` timing
/// that now reach it and did not before act on it. True if any did.
/// `carriers` are the aura carriers as [`carriers`] found them (a walk
/// finds them once, and again only after something acted on a step).
pub(super) fn entered(
    world: &mut World,
    mover: Entity,
    from: Footprint,
    to: Footprint,
    carriers: &[Carrier],
) -> bool {
    // Asked at every step of every walk: most often nobody carries an aura.
    if carriers.is_empty() {
        return false;
    }
    let Some(id) = world.comp::<Creature>(mover).map(|c| c.id) else {
        return false;
    };
    let map = world.res::<Battlefield>().0.clone();
    let mut pulsed = false;
    for (owner, owner_id, space, auras) in carriers {
        if *owner_id == id {
            continue;
        }
        for aura in auras.iter().filter(|a| a.when == AuraTiming::Enters) {
            if reaches(&map, *space, aura.radius, to) && !reaches(&map, *space, aura.radius, from) {
                pulse(world, *owner, aura, &[id]);
                pulsed = true;
            }
        }
    }
    pulsed
}

/// docs/rules.md#potency-adjustments: what the auras around `user` add to
/// the potencies of its abilities: each enemy's aura with an
/// `enemy_potency` that reaches it.
pub(super) fn potency_from_auras(
    world: &World,
    user: CreatureId,
    side: crate::map::Side,
    at: Footprint,
) -> i32 {
    // The known carriers' auras read where they are (this runs for every
    // target of every roll and preview: no copy of anyone's auras).
    with_known(world, |known| {
        if known.is_empty() {
            return 0;
        }
        let content = world.res::<crate::content::Content>();
        let map = &world.res::<crate::encounter::state::board::Battlefield>().0;
        let mut total = 0;
        for &e in known {
            let (Some(auras), Some(c), Some(space), Some(s)) = (
                world.comp::<Auras>(e),
                world.comp::<Creature>(e),
                world.comp::<Space>(e),
                world.comp::<crate::stats::Stamina>(e),
            ) else {
                continue;
            };
            if c.id == user || c.side == side || !can_act(s) {
                continue;
            }
            let space = space.0;
            for a in &auras.0 {
                let adjust = content
                    .ability(&a.ability)
                    .and_then(|x| x.aura.as_ref())
                    .map_or(0, |s| s.enemy_potency);
                if adjust != 0 && reaches(map, space, a.radius, at) {
                    total += adjust;
                }
            }
        }
        total
    })
}
