//! Forced movement as it lands (docs/rules.md#forced-movement): the
//! target moved, objects broken, collisions and falls, and a flier over a
//! gap brought down.

use super::*;
use crate::encounter::log::emit;
use crate::encounter::state::board::Battlefield;

/// Whether `entity` flies up over a gap (a pit or ledge under its space):
/// it hovers there, unless knocked prone
/// (docs/rules.md#climbing-swimming-jumping-and-flying).
pub(super) fn aloft(world: &World, entity: Entity) -> bool {
    let flies = world.comp::<Movement>(entity).is_some_and(|m| m.modes.fly);
    flies && gap_depth(world, entity).is_some()
}

/// How deep the pit or ledge under `entity`'s space is, if any.
fn gap_depth(world: &World, entity: Entity) -> Option<u32> {
    let space = world.comp::<Space>(entity)?.0;
    world.res::<Battlefield>().0.fall_depth(space)
}

/// docs/rules.md#prone: a creature flying or jumping over a gap that is
/// knocked prone (or stops there mid-jump) falls to its floor: the fall's
/// damage by its depth (docs/rules.md#collisions), then prone.
pub(crate) fn fall_from_gap(world: &mut World, entity: Entity, id: CreatureId) {
    let Some(depth) = gap_depth(world, entity) else {
        return;
    };
    let damage = crate::map::forced::fall_damage(depth);
    emit(
        world,
        LogEntry::Fell {
            target: id,
            depth,
            damage,
        },
    );
    deal_damage_credited(world, entity, id, damage, DamageType::Untyped, None, None);
    impose(
        world,
        entity,
        id,
        id,
        "fall",
        ConditionKind::Prone,
        Duration::UntilRemoved,
    );
}

pub(crate) fn force_move(
    world: &mut World,
    user: &Snapshot,
    source: Footprint,
    target: &Snapshot,
    kind: ForcedKind,
    distance: u32,
    vertical: bool,
) {
    let limits = movement_limits(&target.conditions, 0);
    if !limits.can_be_force_moved {
        return;
    }
    if limits.force_moved_only_by.is_some_and(|g| g != user.id) {
        return;
    }
    let creatures = occupants(world);
    let map = world.res::<Battlefield>().0.clone();
    // A slide with no chosen direction slides away from the user.
    let aim = (kind == ForcedKind::Slide).then(|| {
        let d = (
            target.space.pos.x - user.space.pos.x,
            target.space.pos.y - user.space.pos.y,
        );
        target.space.pos.offset(d.0.signum() * 8, d.1.signum() * 8)
    });
    let result = crate::map::forced::resolve(
        &map,
        &creatures,
        &Force {
            kind,
            distance,
            vertical,
            target: target.id,
            target_space: target.space,
            stability: target.stability,
            source,
            aim,
            flies: modes_of(world, target.entity).flying(),
        },
    );
    if result.path.is_empty() && result.events.is_empty() {
        return;
    }
    if let Some(mut s) = world.comp_mut::<Space>(target.entity) {
        s.0.pos = result.end;
    }
    check_grabs(world);
    for p in &result.broken {
        world
            .res_mut::<Battlefield>()
            .map_mut()
            .set_object(*p, None);
    }
    if !result.path.is_empty() {
        emit(
            world,
            LogEntry::ForceMoved {
                target: target.id,
                path: result.path.clone(),
            },
        );
        trigger_resource(
            world,
            user.entity,
            crate::content::ResourceTrigger::ForceMoves,
        );
    }
    forced_events(world, user, target, &result.events);
}

/// What a forced move ran into: collisions and falls, untyped, no dealer as
/// the rules count it, the pusher credited in the log
/// (docs/rules.md#collisions); a fall also knocks prone.
fn forced_events(world: &mut World, user: &Snapshot, target: &Snapshot, events: &[ForcedEvent]) {
    let pushed_into = |world: &mut World, e: Entity, id: CreatureId, damage: i32| {
        deal_damage_credited(
            world,
            e,
            id,
            damage,
            DamageType::Untyped,
            None,
            Some(user.id),
        );
    };
    for e in events {
        match *e {
            ForcedEvent::CollidedWithCreature { other, damage, .. } => {
                emit(
                    world,
                    LogEntry::Collision {
                        target: target.id,
                        other: Some(other),
                        damage,
                    },
                );
                pushed_into(world, target.entity, target.id, damage);
                if let Some(oe) = entity_of(world, other) {
                    pushed_into(world, oe, other, damage);
                }
            }
            ForcedEvent::CollidedWithObstacle { damage, .. }
            | ForcedEvent::BrokeThrough { damage, .. } => {
                emit(
                    world,
                    LogEntry::Collision {
                        target: target.id,
                        other: None,
                        damage,
                    },
                );
                pushed_into(world, target.entity, target.id, damage);
            }
            ForcedEvent::Fell { depth, damage, .. } => {
                emit(
                    world,
                    LogEntry::Fell {
                        target: target.id,
                        depth,
                        damage,
                    },
                );
                pushed_into(world, target.entity, target.id, damage);
                impose(
                    world,
                    target.entity,
                    target.id,
                    user.id,
                    "fall",
                    ConditionKind::Prone,
                    Duration::UntilRemoved,
                );
            }
        }
    }
}
