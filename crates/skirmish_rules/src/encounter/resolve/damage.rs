//! Damage and what it sets off: stamina lost (a squad's shared pool),
//! creatures downed, bleeding.

use super::*;
use crate::encounter::log::emit;
use crate::encounter::state::board::{Battlefield, ObjectWear};

/// Apply damage through immunity and weakness; log it, and log death.
/// `by` is the creature dealing it, as the rules see it (its triggers, the
/// damage reactions answer), and is credited with it in the log.
pub(crate) fn deal_damage(
    world: &mut World,
    entity: Entity,
    id: CreatureId,
    amount: i32,
    t: DamageType,
    by: Option<CreatureId>,
) {
    deal_damage_credited(world, entity, id, amount, t, by, by);
}

/// [`deal_damage`], crediting `credit` with it in the log: the creature
/// whose forced movement made a collision or fall is credited, though the
/// rules don't count it as dealing that damage (no trigger answers it).
pub(crate) fn deal_damage_credited(
    world: &mut World,
    entity: Entity,
    id: CreatureId,
    amount: i32,
    t: DamageType,
    by: Option<CreatureId>,
    credit: Option<CreatureId>,
) {
    let traits = world
        .comp::<DamageTraits>(entity)
        .cloned()
        .unwrap_or_default();
    let taken = traits.apply(amount, t);
    if taken > 0 {
        if let Some(by) = by {
            world.res_mut::<Resolution>().damage.push((by, id));
            ally_hits_marked(world, by, entity);
        }
        trigger_resource(
            world,
            entity,
            crate::content::ResourceTrigger::FirstDamageTakenEachRound,
        );
    }
    if let Some(left) = squad_loss(world, entity, taken) {
        emit(
            world,
            LogEntry::Damage {
                target: id,
                amount: taken,
                damage_type: t,
                stamina_left: left,
                absorbed: 0,
                by: credit,
            },
        );
        squad_deaths(world, entity, by);
        return;
    }
    let Some(mut stamina) = world.comp_mut::<Stamina>(entity) else {
        return;
    };
    let before = stamina.health();
    let absorbed = taken - stamina.take_damage(taken);
    let (after, left) = (stamina.health(), stamina.current);
    let name = world
        .comp::<Creature>(entity)
        .map(|c| c.name.clone())
        .unwrap_or_default();
    let kill_for = kill_credit(world, credit);
    let mut log = world.res_mut::<CombatLog>();
    log.emit(LogEntry::Damage {
        target: id,
        amount: taken,
        damage_type: t,
        stamina_left: left,
        absorbed,
        by: credit,
    });
    if after != before {
        match after {
            Health::Dead => log.emit(LogEntry::Died {
                creature: id,
                name,
                by: credit,
                kill_for,
            }),
            Health::Dying => log.emit(LogEntry::Dying { creature: id, name }),
            _ => {}
        }
    }
    if before != after && matches!(after, Health::Dead | Health::Dying) {
        downed(world, entity, by);
    }
    // docs/rules.md#concentration: a save whenever the concentrator takes damage.
    if taken > 0 {
        crate::encounter::concentration::damaged(world, id);
    }
}

/// Who is credited with a kill by `by`: `by` itself, or a summon's owner
/// (source 004: "Summon kills are credited to the owner of the summon").
fn kill_credit(world: &World, by: Option<CreatureId>) -> Option<CreatureId> {
    let by = by?;
    let owner = entity_of(world, by)
        .and_then(|e| world.comp::<Summoned>(e))
        .map(|s| s.owner);
    Some(owner.unwrap_or(by))
}

/// Untyped damage from no attack (for tests of what shields don't stop).
#[cfg(test)]
pub(crate) fn deal_damage_for_test(world: &mut World, entity: Entity, id: CreatureId, amount: i32) {
    deal_damage(world, entity, id, amount, DamageType::Untyped, None);
}

/// A creature was reduced to 0 stamina: the dramatic-moment trigger for
/// heroes near it, and the downed-an-enemy trigger for the hero who did it.
pub(super) fn downed(world: &mut World, entity: Entity, by: Option<CreatureId>) {
    if let Some(space) = world.comp::<Space>(entity).map(|s| s.0) {
        dramatic_moment(world, space);
    }
    // docs/rules.md#summons: removed when "the summoner becomes exhausted".
    if let Some(id) = world.comp::<Creature>(entity).map(|c| c.id) {
        super::summon::vanish(world, id);
    }
    let side = world.comp::<Creature>(entity).map(|c| c.side);
    if let Some(be) = by.and_then(|b| entity_of(world, b))
        && world
            .comp::<Creature>(be)
            .is_some_and(|c| Some(c.side) != side)
    {
        trigger_resource(world, be, crate::content::ResourceTrigger::EnemyDowned);
    }
}

/// An ally of a hero dealt damage to a creature that hero has marked.
pub(super) fn ally_hits_marked(world: &mut World, by: CreatureId, target: Entity) {
    use crate::content::ResourceTrigger as T;
    let Some(side) = entity_of(world, by).and_then(|e| world.comp::<Creature>(e).map(|c| c.side))
    else {
        return;
    };
    for (he, hid, _) in heroes_with(world, T::AllyHitsMarked) {
        let ally = hid != by && world.comp::<Creature>(he).is_some_and(|c| c.side == side);
        if ally && marked_by(world, target, hid) {
            trigger_resource(world, he, T::AllyHitsMarked);
        }
    }
}

/// Stamina a minion loses comes off its squad's pool (docs/rules.md#minions).
/// Returns what is left of the pool, or `None` for a creature not in a squad.
pub(super) fn squad_loss(world: &mut World, entity: Entity, amount: i32) -> Option<i32> {
    let n = squad_of(world, entity)?;
    let mut squads = world.res_mut::<Squads>();
    let p = squads.0.get_mut(&n)?;
    p.pool = (p.pool - amount.max(0)).max(0);
    Some(p.pool)
}

/// docs/rules.md#minions: "each time the pool loses a minion's stamina, one
/// minion dies": the one that was hit first, then those nearest to it.
pub(super) fn squad_deaths(world: &mut World, hit: Entity, by: Option<CreatureId>) {
    let Some(n) = squad_of(world, hit) else {
        return;
    };
    let Some(p) = world.res::<Squads>().0.get(&n).copied() else {
        return;
    };
    let hit_space = world.comp::<Space>(hit).map(|s| s.0);
    let mut q = world.query::<(Entity, &Creature, &SquadMember, &Stamina, &Space)>();
    let all: Vec<(Entity, CreatureId, String, bool, u32)> = q
        .iter(world)
        .filter(|(_, _, m, _, _)| m.0 == n)
        .map(|(e, c, _, s, sp)| {
            let d = hit_space.map_or(0, |h| h.distance(sp.0));
            (e, c.id, c.name.clone(), s.is_dead(), d)
        })
        .collect();
    let dead = all.iter().filter(|m| m.3).count();
    let lost = if p.pool <= 0 {
        all.len()
    } else {
        ((p.max - p.pool) / p.per_minion.max(1)) as usize
    };
    let mut living: Vec<&(Entity, CreatureId, String, bool, u32)> =
        all.iter().filter(|m| !m.3).collect();
    living.sort_by_key(|m| (m.0 != hit, m.4, m.1));
    for (e, id, name, _, _) in living.into_iter().take(lost.saturating_sub(dead)) {
        if let Some(mut s) = world.comp_mut::<Stamina>(*e) {
            let all = s.current + s.temporary;
            s.take_damage(all.max(1));
        }
        let kill_for = kill_credit(world, by);
        let mut log = world.res_mut::<CombatLog>();
        log.emit(LogEntry::Died {
            creature: *id,
            name: name.clone(),
            by,
            kill_for,
        });
        log.emit(LogEntry::SquadLoss {
            squad: n,
            pool_left: p.pool,
        });
        downed(world, *e, by);
    }
}

/// docs/rules.md#bleeding: "whenever they use a main action, use a triggered
/// action, or make a test or ability roll using Might or Agility, they lose
/// Stamina equal to 1d6 + their level after [it] is resolved ... only happens
/// once per action." docs/rules.md#stamina: a dying hero bleeds too.
pub(crate) fn bleed(world: &mut World, entity: Entity) {
    let Some(stamina) = world.comp::<Stamina>(entity) else {
        return;
    };
    if stamina.is_dead() {
        return;
    }
    let dying = world.comp::<Heroic>(entity).is_some() && stamina.health() == Health::Dying;
    let bleeding = world
        .comp::<Conditions>(entity)
        .is_some_and(|c| c.has(ConditionKind::Bleeding));
    if !(dying || bleeding) {
        return;
    }
    let (id, level, name) = match world.comp::<Creature>(entity) {
        Some(c) => (c.id, c.level, c.name.clone()),
        None => return,
    };
    let loss = world.res_mut::<Dice>().roll(6) as i32 + level as i32;
    if let Some(left) = squad_loss(world, entity, loss) {
        emit(
            world,
            LogEntry::Bled {
                creature: id,
                amount: loss,
                stamina_left: left,
            },
        );
        squad_deaths(world, entity, None);
        return;
    }
    let mut s = world.comp_mut::<Stamina>(entity).expect("checked");
    let before = s.health();
    s.lose(loss);
    let (after, left) = (s.health(), s.current);
    let mut log = world.res_mut::<CombatLog>();
    log.emit(LogEntry::Bled {
        creature: id,
        amount: loss,
        stamina_left: left,
    });
    if after == Health::Dead && before != Health::Dead {
        log.emit(LogEntry::Died {
            creature: id,
            name,
            by: None,
            kill_for: None,
        });
    }
}

/// Whether an action makes a bleeding creature bleed: a main action, a
/// triggered action, or a roll with Might or Agility.
pub(crate) fn action_bleeds(
    action: ActionType,
    characteristics: &[crate::stats::Characteristic],
) -> bool {
    use crate::stats::Characteristic as C;
    action == ActionType::MainAction
        || action.is_triggered()
        || characteristics
            .iter()
            .any(|c| matches!(c, C::Might | C::Agility))
}

/// docs/rules.md#objects: the object on `at` takes `amount` damage from
/// `by`'s ability; at its stamina (its material's a square, times its size:
/// docs/rulings.md) it is destroyed and its square is clear.
pub(crate) fn damage_object(world: &mut World, by: CreatureId, at: Pos, amount: i32) {
    let Some(object) = world.res::<Battlefield>().0.cell(at).object else {
        return;
    };
    let stamina = object.stamina();
    let mut wear = world.res_mut::<ObjectWear>();
    let taken = wear.taken(at) + amount.max(0);
    wear.0.retain(|(p, _)| *p != at);
    if taken >= stamina {
        world
            .res_mut::<Battlefield>()
            .map_mut()
            .set_object(at, None);
        emit(world, LogEntry::ObjectDestroyed { by, at });
    } else {
        if taken > 0 {
            world.res_mut::<ObjectWear>().0.push((at, taken));
        }
        emit(
            world,
            LogEntry::ObjectDamaged {
                by,
                at,
                damage: amount.max(0),
                left: stamina - taken,
            },
        );
    }
}
