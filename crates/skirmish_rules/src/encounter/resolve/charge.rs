//! The charge: a straight run that ends in a melee free strike or ability.

use super::*;
use crate::encounter::log::emit;

/// docs/rules.md#charge (main action), checked
/// ([`crate::encounter::check::charge`]): the run (without spending the
/// move action), then the attack with the main action once the move is
/// over.
pub(crate) fn charge(
    world: &mut World,
    id: CreatureId,
    path: &[Pos],
    target: CreatureId,
    ability: Option<&str>,
) {
    let mut res = world.res_mut::<Resolution>();
    res.push(Resume::Walk {
        creature: id,
        path: path.to_vec(),
        shift: false,
        asked: false,
        airborne: false,
    });
    let steps = res.stack.pop();
    res.push(Resume::FollowUp {
        creature: id,
        target,
        ability: ability.map(str::to_string),
    });
    res.stack.extend(steps);
}

/// The attack that ends a charge. If the target is out of reach by now (a
/// triggered action moved someone), the charge ends without it, and the main
/// action is spent all the same.
pub(crate) fn charge_attack(
    world: &mut World,
    id: CreatureId,
    target: CreatureId,
    ability: Option<&str>,
) {
    let Some(entity) = entity_of(world, id) else {
        return;
    };
    if world.comp::<Stamina>(entity).is_none_or(|s| !can_act(s)) {
        return;
    }
    // Checked now, as it stands after the run.
    let result = match ability {
        None => crate::encounter::check::free_strike(world, entity, id, target)
            .map(|(te, budget)| free_strike(world, entity, id, te, target, budget)),
        Some(a) => crate::encounter::check::use_ability(
            world,
            entity,
            id,
            crate::encounter::check::AbilityChoices {
                ability: a,
                targets: &[target],
                surges: 0,
                potency_surges: &[],
                spend: 0,
                placement: None,
                links: None,
                object: None,
            },
        )
        .map(|plan| {
            let how = AbilityUse {
                ability: a,
                surges: 0,
                spend: 0,
                tier: None,
                potency_surges: &[],
                links: None,
                path: None,
            };
            use_ability(world, entity, id, how, plan)
        }),
    };
    if result.is_err() {
        if let Some(mut b) = world.comp_mut::<TurnBudget>(entity) {
            b.main = false;
        }
        emit(
            world,
            LogEntry::TargetLost {
                creature: id,
                target,
            },
        );
    }
}
