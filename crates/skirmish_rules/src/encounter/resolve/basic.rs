//! The basic actions and maneuvers: delay, defend, hide, stand up, catch
//! breath, free strikes, and answering a prompt (opportunity attacks).

use super::*;
use crate::encounter::log::emit;
use crate::encounter::state::board::Battlefield;
use crate::encounter::state::work::PendingRoll;

/// A side lets the other pick first this time (the power roll's delay,
/// checked: [`crate::encounter::check::delay`]).
pub(crate) fn delay(world: &mut World) {
    let mut flow = world.res_mut::<Flow>();
    let to_act = flow.to_act;
    flow.to_act = to_act.other();
    flow.delayed = Some(to_act);
    emit(world, LogEntry::Delayed { side: to_act });
}

/// Defend (main action, our ruling): until the start of the creature's next
/// turn, ability rolls against it take the ruleset's `defend_banes`.
pub(crate) fn defend(world: &mut World, entity: Entity, id: CreatureId, budget: TurnBudget) {
    set_budget(world, entity, budget);
    if let Some(mut s) = world.comp_mut::<Stance>(entity) {
        s.defending = true;
    }
    emit(
        world,
        LogEntry::AbilityUsed {
            creature: id,
            ability: "defend".into(),
            name: "Defend".into(),
        },
    );
}

/// Hide (maneuver, our ruling), checked
/// ([`crate::encounter::check::hide`]): the creature becomes hidden.
pub(crate) fn hide(world: &mut World, entity: Entity, id: CreatureId, budget: TurnBudget) {
    set_budget(world, entity, budget);
    if let Some(mut s) = world.comp_mut::<Stance>(entity) {
        s.hidden = true;
    }
    emit(world, LogEntry::Hidden { creature: id });
}

/// A hidden creature is found: log it once.
pub(crate) fn reveal(world: &mut World, entity: Entity, id: CreatureId) {
    if let Some(mut s) = world.comp_mut::<Stance>(entity)
        && s.hidden
    {
        s.hidden = false;
        emit(world, LogEntry::Revealed { creature: id });
    }
}

/// Answer the open prompt: let the event pass, or take one of the offered
/// triggered actions (checked: [`crate::encounter::check::answer`]).
pub(crate) fn answer(world: &mut World, id: CreatureId, choice: Option<&Reaction>) {
    let Some(prompt) = world.res_mut::<Resolution>().prompt.take() else {
        return;
    };
    // The extra main action off the creature's turn is taken now or not
    // at all (docs/rules.md#critical-hit).
    let critical = prompt.event.kind == crate::ability::TriggerEvent::CriticalHit;
    if critical
        && let Some(e) = entity_of(world, id)
        && let Some(mut b) = world.comp_mut::<TurnBudget>(e)
    {
        crate::actions::critical_main_lapses(&mut b);
    }
    let Some(choice) = choice else {
        emit(
            world,
            LogEntry::LetPass {
                creature: id,
                event: prompt.event.kind,
            },
        );
        return;
    };
    let Some(entity) = entity_of(world, id) else {
        return;
    };
    if choice.ability == crate::encounter::state::work::OPPORTUNITY_ATTACK {
        let target = prompt.event.actor;
        opportunity_attack(world, entity, id, target);
        return;
    }
    let content = world.res::<Content>().clone();
    let Some(ability) = content.ability(&choice.ability) else {
        return;
    };
    if ability.action == ActionType::TriggeredAction
        && !critical
        && let Some(mut b) = world.comp_mut::<TurnBudget>(entity)
    {
        b.triggered = false;
    }
    emit(
        world,
        LogEntry::Triggered {
            creature: id,
            event: prompt.event.kind,
        },
    );
    if ability.action == ActionType::VillainAction {
        let round = world.res::<crate::encounter::state::turn::Flow>().round;
        if let Some(mut p) = world.comp_mut::<Progress>(entity) {
            p.villain_round = round;
        }
    }
    pay(world, entity, id, ability, 0);
    super::aura::start(world, entity, ability);
    let space = world.comp::<Space>(entity).map(|s| s.0);
    let area = match (ability.distance, space) {
        (Distance::Aura(_) | Distance::Burst(_), Some(space)) => {
            let map = world.res::<Battlefield>().0.clone();
            let creatures = occupants(world);
            place_area(
                &map,
                &creatures,
                space,
                ability.distance,
                &Placement::OnSelf,
            )
            .ok()
            .map(|(a, _)| a)
        }
        _ => None,
    };
    begin_roll(
        world,
        PendingRoll {
            user: id,
            ability: ability.id.clone(),
            targets: choice.targets.clone(),
            area,
            source: None,
            surges: 0,
            potency_surges: Vec::new(),
            tier: None,
            extra: Vec::new(),
            spend: 0,
            objects: Vec::new(),
        },
    );
}

/// An opportunity attack: the enemy uses its triggered action for a melee
/// free strike (docs/rules.md#moving). Free strikes deal the creature's free
/// strike damage; a hero adds the higher of Might and Agility.
pub(super) fn opportunity_attack(
    world: &mut World,
    ae: Entity,
    attacker: CreatureId,
    target: CreatureId,
) {
    let Some(te) = entity_of(world, target) else {
        return;
    };
    if world.comp::<Stamina>(te).is_none_or(|s| s.is_dead()) {
        return;
    }
    if let Some(mut b) = world.comp_mut::<TurnBudget>(ae) {
        b.triggered = false;
    }
    emit(
        world,
        LogEntry::AbilityUsed {
            creature: attacker,
            ability: "free_strike".into(),
            name: "Opportunity Attack".into(),
        },
    );
    free_strike_hits(world, ae, attacker, te, target);
    bleed(world, ae);
}

/// A granted shift: up to `n` squares without provoking, to the square
/// nearest an enemy (fewest squares spent on ties). Stays put if no square
/// brings it closer.
pub(crate) fn granted_shift(world: &mut World, entity: Entity, id: CreatureId, n: u32) {
    let (Some(space), Some(side)) = (
        world.comp::<Space>(entity).map(|s| s.0),
        world.comp::<Creature>(entity).map(|c| c.side),
    ) else {
        return;
    };
    let conditions = world
        .comp::<Conditions>(entity)
        .cloned()
        .unwrap_or_default();
    let limits = movement_limits(&conditions, n);
    if limits.speed == 0 || !limits.can_shift {
        return;
    }
    let creatures = occupants(world);
    let enemies = enemy_spaces(&creatures, side);
    if enemies.is_empty() {
        return;
    }
    let nearest = |f: Footprint| nearest_enemy(&enemies, f);
    let map = world.res::<Battlefield>().0.clone();
    let reach = crate::map::movement::reachable(
        &map,
        &creatures,
        &crate::map::movement::Mover {
            id,
            space,
            side,
            speed: limits.speed.min(n),
            extra_cost: limits.extra_cost_per_square,
            shifting: true,
            modes: modes_of(world, entity),
        },
    );
    let here = nearest(space);
    let best = reach
        .destinations()
        .into_iter()
        .map(|(p, cost)| (nearest(Footprint::new(p, space.size)), cost, p))
        .filter(|(d, _, _)| *d < here)
        .min();
    let Some((_, _, to)) = best else {
        return;
    };
    let Some(path) = reach.path_to(to) else {
        return;
    };
    if let Some(mut s) = world.comp_mut::<Space>(entity) {
        s.0.pos = to;
    }
    emit(
        world,
        LogEntry::Moved {
            creature: id,
            path,
            shift: true,
        },
    );
    check_grabs(world);
}

/// Where the creatures not of `side` stand.
fn enemy_spaces(creatures: &[crate::map::Occupant], side: crate::map::Side) -> Vec<Footprint> {
    creatures
        .iter()
        .filter(|o| o.side != side)
        .map(|o| o.space)
        .collect()
}

/// How near `f` is to the nearest of `enemies`: by the grid's distance,
/// then by the straighter line.
fn nearest_enemy(enemies: &[Footprint], f: Footprint) -> (u32, i32) {
    enemies
        .iter()
        .map(|e| {
            let (dx, dy) = (f.pos.x - e.pos.x, f.pos.y - e.pos.y);
            (f.distance(*e), dx.abs() + dy.abs())
        })
        .min()
        .unwrap_or((0, 0))
}

/// docs/rules.md#teleport: up to `n` squares, with no path between: to the
/// open square in reach and line of effect that is nearest an enemy (our
/// ruling, as for a granted shift), if one is nearer than where it stands.
/// Teleporting ends being grabbed and being restrained (source 000).
pub(super) fn granted_teleport(world: &mut World, entity: Entity, id: CreatureId, n: u32) {
    let (Some(space), Some(side)) = (
        world.comp::<Space>(entity).map(|s| s.0),
        world.comp::<Creature>(entity).map(|c| c.side),
    ) else {
        return;
    };
    let creatures = occupants(world);
    let enemies = enemy_spaces(&creatures, side);
    if enemies.is_empty() {
        return;
    }
    let nearest = |f: Footprint| nearest_enemy(&enemies, f);
    let map = world.res::<Battlefield>().0.clone();
    let here = nearest(space);
    let best = map
        .squares()
        .map(|p| Footprint::new(p, space.size))
        .filter(|fp| fp.pos != space.pos && space.distance(*fp) <= n)
        .filter(|fp| map.footprint_open(*fp))
        .filter(|fp| {
            !creatures
                .iter()
                .any(|o| o.id != id && o.space.overlaps(*fp))
        })
        .filter(|fp| crate::map::line_of_effect(&map, space, *fp))
        .map(|fp| (nearest(fp), space.distance(fp), fp.pos))
        .filter(|(d, _, _)| *d < here)
        .min();
    let Some((_, _, to)) = best else {
        return;
    };
    if let Some(mut s) = world.comp_mut::<Space>(entity) {
        s.0.pos = to;
    }
    emit(
        world,
        LogEntry::Teleported {
            creature: id,
            from: space.pos,
            to,
        },
    );
    // "If a grabbed creature teleports ... that creature is no longer
    // grabbed"; "If a creature teleports while restrained, that condition
    // ends" (source 000).
    let mut ended = Vec::new();
    if let Some(mut c) = world.comp_mut::<Conditions>(entity) {
        for kind in [ConditionKind::Grabbed, ConditionKind::Restrained] {
            if c.has(kind) {
                c.list.retain(|a| a.kind != kind);
                ended.push(kind);
            }
        }
    }
    for condition in ended {
        emit(
            world,
            LogEntry::ConditionEnded {
                target: id,
                condition,
            },
        );
    }
    check_grabs(world);
}

/// A granted free strike: against the adjacent enemy with the least stamina.
pub(crate) fn granted_strike(world: &mut World, entity: Entity, id: CreatureId) {
    let (Some(space), Some(side)) = (
        world.comp::<Space>(entity).map(|s| s.0),
        world.comp::<Creature>(entity).map(|c| c.side),
    ) else {
        return;
    };
    let target = occupants(world)
        .into_iter()
        .filter(|o| o.side != side && o.space.distance(space) <= 1)
        .filter_map(|o| {
            let e = entity_of(world, o.id)?;
            Some((world.comp::<Stamina>(e)?.current, o.id, e))
        })
        .min();
    let Some((_, tid, te)) = target else {
        return;
    };
    emit(
        world,
        LogEntry::GrantedStrike {
            creature: id,
            target: tid,
        },
    );
    free_strike_hits(world, entity, id, te, tid);
}

/// A free strike lands: its damage less the target's shields (a free strike
/// is an attack, docs/rules.md#free-strikes), then the target's retaliation.
pub(crate) fn free_strike_hits(
    world: &mut World,
    attacker: Entity,
    attacker_id: CreatureId,
    target: Entity,
    target_id: CreatureId,
) {
    // Phased 2d6: a free strike is an attack roll too.
    if !crate::encounter::ruleset::of(world).free_strike_lands(world, attacker, target) {
        return;
    }
    let mut damage = free_strike_damage(world, attacker);
    let ts = snapshot(world, target);
    if let Some(t) = &ts {
        let shield = shield_against_attack(world, t);
        let stopped = shield.min(damage);
        if stopped > 0 {
            damage -= stopped;
            emit(
                world,
                LogEntry::Shielded {
                    creature: target_id,
                    prevented: stopped,
                },
            );
        }
    }
    deal_damage(
        world,
        target,
        target_id,
        damage,
        DamageType::Untyped,
        Some(attacker_id),
    );
    if let Some(t) = &ts {
        retaliate(world, attacker, attacker_id, t);
    }
}

/// The damage of a creature's free strike: its free strike value, plus the
/// higher of Might and Agility for a hero, plus a captain's damage for a
/// minion (docs/rules.md#captains).
pub(crate) fn free_strike_damage(world: &World, entity: Entity) -> i32 {
    let captain = crate::encounter::captain::bonus(world, entity).map_or(0, |b| b.damage);
    let chars = world
        .comp::<Characteristics>(entity)
        .copied()
        .unwrap_or_default();
    let base = world.comp::<FreeStrike>(entity).map_or(2, |f| f.0);
    let hero = world.comp::<Heroic>(entity).is_some();
    base + captain
        + if hero {
            chars.might.max(chars.agility)
        } else {
            0
        }
}

pub(crate) fn free_strike(
    world: &mut World,
    entity: Entity,
    id: CreatureId,
    te: Entity,
    target: CreatureId,
    budget: TurnBudget,
) {
    set_budget(world, entity, budget);
    free_strike_used(world, id);
    free_strike_hits(world, entity, id, te, target);
    reveal(world, entity, id);
    bleed(world, entity);
}

/// The log's line for a free strike `id` makes.
fn free_strike_used(world: &mut World, id: CreatureId) {
    emit(
        world,
        LogEntry::AbilityUsed {
            creature: id,
            ability: "free_strike".into(),
            name: "Free Strike".into(),
        },
    );
}

/// A glyph's effect on one creature: damage and conditions, from the
/// glyph's maker (or the creature itself, for a map's trap).
pub(crate) fn glyph_effect(
    world: &mut World,
    target: CreatureId,
    effects: &[crate::ability::Effect],
    maker: Option<CreatureId>,
    glyph: &str,
) {
    let Some(ts) = living_snapshot(world, target) else {
        return;
    };
    let outcome = evaluate(effects, &Characteristics::default(), &ts.chars, 0);
    for (amount, t) in &outcome.damage {
        deal_damage(world, ts.entity, ts.id, *amount, *t, maker);
    }
    for c in &outcome.conditions {
        for &kind in &c.conditions {
            if c.applies {
                let source = maker.unwrap_or(ts.id);
                impose(world, ts.entity, ts.id, source, glyph, kind, c.duration);
            } else {
                emit(
                    world,
                    LogEntry::ConditionResisted {
                        target: ts.id,
                        condition: kind,
                    },
                );
            }
        }
    }
}

/// A summon's "Attack+0": a melee free strike that spends nothing.
pub(crate) fn summon_strike(world: &mut World, entity: Entity, id: CreatureId, target: CreatureId) {
    let Some(te) = entity_of(world, target) else {
        return;
    };
    free_strike_used(world, id);
    free_strike_hits(world, entity, id, te, target);
}

/// docs/rules.md#prone: the creature stands up (checked:
/// [`crate::encounter::check::stand_up`]).
pub(crate) fn stand_up(world: &mut World, entity: Entity, budget: TurnBudget) {
    set_budget(world, entity, budget);
    let Some(id) = world.comp::<Creature>(entity).map(|c| c.id) else {
        return;
    };
    if let Some(mut c) = world.comp_mut::<Conditions>(entity) {
        c.remove(ConditionKind::Prone);
    }
    emit(
        world,
        LogEntry::ConditionEnded {
            target: id,
            condition: ConditionKind::Prone,
        },
    );
}

/// docs/rules.md#recoveries: Catch Breath spends a recovery to heal its value
/// (checked: [`crate::encounter::check::catch_breath`]).
pub(crate) fn catch_breath(world: &mut World, entity: Entity, id: CreatureId, budget: TurnBudget) {
    set_budget(world, entity, budget);
    let Some(mut s) = world.comp_mut::<Stamina>(entity) else {
        return;
    };
    s.recoveries -= 1;
    let value = s.recovery_value();
    heal(world, entity, id, value);
}
