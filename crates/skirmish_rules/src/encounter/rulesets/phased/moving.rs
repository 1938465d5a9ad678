//! The phased ruleset's movement phase: what a creature may do in it,
//! its movement powers, and the commands it lists (docs/rules.md#movement-phase).

use super::*;
use crate::conditions::MovementLimits;
use crate::map::Footprint;

/// What the phases allow, before a command is carried out: only movement
/// powers in the movement phase; in the battle phase one battle action and
/// no attack after a run; and no power-roll movement commands at all.
pub(super) fn check_command(world: &World, id: CreatureId, cmd: &Command) -> Result<(), Refusal> {
    check_command_in(world, round(world), id, cmd)
}

/// [`check_command`] with the round's phased state already read.
pub(super) fn check_command_in(
    world: &World,
    round: Option<&PhasedRound>,
    id: CreatureId,
    cmd: &Command,
) -> Result<(), Refusal> {
    let Some(p) = round else {
        return match cmd {
            Command::Movement { .. } => Err(Refusal::WrongCommand(
                "movement powers belong to the phased 2d6 ruleset",
            )),
            _ => Ok(()),
        };
    };
    match cmd {
        Command::Move { .. } | Command::Shift { .. } | Command::Charge { .. } => {
            return Err(Refusal::WrongCommand(
                "the phased 2d6 ruleset moves with movement powers (Movement)",
            ));
        }
        Command::EndTurn { .. } | Command::Movement { .. } => return Ok(()),
        _ => {}
    }
    if p.stage == Stage::Movement {
        return Err(Refusal::Phased(
            "the movement phase takes only movement powers; act in the battle phase".into(),
        ));
    }
    let attacks = match cmd {
        Command::FreeStrike { .. } => true,
        Command::UseAbility { ability, .. } | Command::UseAreaAbility { ability, .. } => world
            .res::<crate::content::Content>()
            .ability(ability)
            .is_some_and(|a| a.power_roll.is_some()),
        _ => false,
    };
    if attacks && p.power_of(id) == Some(MovementPower::Run) {
        return Err(Refusal::Phased(
            "it ran this round: no attack until the next round".into(),
        ));
    }
    Ok(())
}

/// docs/rules.md#movement-powers: whether the creature has `power`: the
/// six every creature has, or one its class (a hero's calling) or stat
/// block's role is given by the ruleset.
pub(super) fn has_power(
    world: &World,
    entity: Entity,
    power: MovementPower,
    rules: &crate::phased::PhasedRules,
) -> bool {
    if !MovementPower::EXTRA.contains(&power) {
        return true;
    }
    let Some(c) = world.comp::<Creature>(entity) else {
        return false;
    };
    match &c.kind {
        CreatureKind::Hero { class } => rules
            .class_powers
            .get(class)
            .is_some_and(|p| p.contains(&power)),
        CreatureKind::Monster { stat_block, .. } => world
            .res::<crate::content::Content>()
            .monsters
            .get(stat_block)
            .and_then(|m| rules.role_powers.get(&m.role))
            .is_some_and(|p| p.contains(&power)),
    }
}

/// docs/rules.md#movement-powers's movement powers: one a turn in the movement phase (and
/// Disengage as the battle action). Slowed creatures can't move ("you lose
/// all remaining squares of movement"); a charge runs straight to an enemy.
pub(super) fn check_movement(
    world: &World,
    entity: Entity,
    id: CreatureId,
    power: MovementPower,
    path: &[Pos],
) -> Result<crate::encounter::ruleset::Moving, Refusal> {
    let rules = rules(world).cloned().ok_or(Refusal::WrongCommand(
        "movement powers belong to the phased 2d6 ruleset",
    ))?;
    let stage = stage(world).unwrap_or_default();
    if !has_power(world, entity, power, &rules) {
        return Err(Refusal::Phased(format!(
            "{} is a power of some callings and roles only (the ruleset's \
             class_powers and role_powers)",
            power.name()
        )));
    }
    if stage == Stage::Battle && power != MovementPower::Disengage {
        return Err(Refusal::Phased(
            "only Disengage moves in the battle phase".into(),
        ));
    }
    let space = world
        .comp::<Space>(entity)
        .ok_or_else(|| Refusal::NoSuchCreature(Who::id(id)))?
        .0;
    let speed = world.comp::<Movement>(entity).map_or(0, |m| m.speed);
    let conditions = world
        .comp::<Conditions>(entity)
        .cloned()
        .unwrap_or_default();
    if conditions.has(ConditionKind::Slowed) {
        return Err(Refusal::Phased(
            "slowed: it loses all its movement this round".into(),
        ));
    }
    let side = side_of(world, id).unwrap_or(Side::Heroes);
    let limits = movement_limits(&conditions, world::speed_with_grab(world, entity, speed));
    if limits.speed == 0 {
        return Err(Refusal::CannotMove(limits.halted_by));
    }
    let m = crate::phased::movement(power, limits.speed, &rules);
    if !m.provokes && !limits.can_shift {
        return Err(Refusal::CannotShift);
    }
    if path.first() != Some(&space.pos) {
        return Err(Refusal::BadPath(
            "it must start at the creature's square".into(),
        ));
    }
    if path.len() < 2 {
        return Err(Refusal::BadPath("it has no steps".into()));
    }
    let creatures = occupants(world);
    let mover = Mover {
        id,
        space,
        side,
        speed: m.squares,
        extra_cost: if m.provokes {
            limits.extra_cost_per_square
        } else {
            0
        },
        shifting: !m.provokes,
        modes: resolve::modes_of(world, entity),
    };
    let cost = path_cost(
        &world.res::<crate::encounter::state::board::Battlefield>().0,
        &creatures,
        &mover,
        path,
    )
    .ok_or_else(|| crate::encounter::check::bad_path(world, entity, &creatures, &mover, path))?;
    if cost > m.squares {
        return Err(Refusal::TooFar {
            cost,
            speed: m.squares,
        });
    }
    if m.straight {
        let end = crate::map::Footprint::new(*path.last().expect("two squares"), space.size);
        let next_to_enemy = creatures
            .iter()
            .any(|o| o.side != side && o.space.distance(end) == 1);
        if !is_straight(path.iter().copied()) || cost != path.len() as u32 - 1 || !next_to_enemy {
            return Err(Refusal::BadPath(
                "a charge moves in a straight line over plain ground and ends next to an enemy"
                    .into(),
            ));
        }
    }
    let budget = *world
        .comp::<TurnBudget>(entity)
        .ok_or_else(|| Refusal::NoSuchCreature(Who::id(id)))?;
    let action = match stage {
        Stage::Movement => crate::ability::ActionType::MoveAction,
        Stage::Battle => crate::ability::ActionType::MainAction,
    };
    let budget = crate::encounter::check::action(&budget, &conditions, action)?;
    Ok(crate::encounter::ruleset::Moving {
        budget,
        shift: !m.provokes,
    })
}

/// A movement power, checked by [`check_movement`]: the budget after it,
/// the power kept for the round, and the walk put up.
pub(super) fn movement(
    world: &mut World,
    entity: Entity,
    id: CreatureId,
    power: MovementPower,
    path: &[Pos],
    checked: crate::encounter::ruleset::Moving,
) {
    resolve::set_budget(world, entity, checked.budget);
    let mut flow = world.res_mut::<Flow>();
    let round = flow.round;
    if let Some(p) = flow.phased.as_mut() {
        p.powers.retain(|(c, _)| *c != id);
        p.powers.push((id, power));
        if power == MovementPower::Disengage {
            // "Your attacks are at a disadvantage until the end of the next round."
            p.disengaged.push((id, round + 1));
        }
    }
    emit(
        world,
        LogEntry::Power {
            creature: id,
            power,
        },
    );
    world.res_mut::<Resolution>().push(Resume::Walk {
        creature: id,
        path: path.to_vec(),
        shift: checked.shift,
        asked: false,
        airborne: false,
    });
}

/// docs/rules.md#movement-phase: "If you are Slowed at any point during
/// your movement, you lose all remaining squares of movement".
pub(super) fn stops_moving(world: &World, conditions: &Conditions) -> bool {
    conditions.has(ConditionKind::Slowed) && rules(world).is_some()
}

/// The phased commands a creature taking its turn can give: in the
/// movement phase one movement power to each square it reaches (the least
/// power that gets there: shift, walk, hustle, run), disengage when an
/// enemy is adjacent and charges; in the battle phase, disengage.
pub(super) fn movement_commands(world: &mut World, id: CreatureId) -> Vec<Command> {
    let mut out = Vec::new();
    let Some((rules, stage, e, space, side, limits)) = able_to_move(world, id) else {
        return out;
    };
    let creatures = occupants(world);
    let map = world
        .res::<crate::encounter::state::board::Battlefield>()
        .0
        .clone();
    let squares = |p: MovementPower| crate::phased::movement(p, limits.speed, &rules).squares;
    let push = |out: &mut Vec<Command>, power, path| {
        out.push(Command::Movement {
            creature: id,
            power,
            path,
        })
    };
    let adjacent_enemy = creatures
        .iter()
        .any(|o| o.side != side && o.space.distance(space) == 1);
    if limits.can_shift && adjacent_enemy {
        let shifter = Mover {
            id,
            space,
            side,
            speed: squares(MovementPower::Disengage),
            extra_cost: 0,
            shifting: true,
            modes: resolve::modes_of(world, e),
        };
        // (A destination is never the start: every path has a step.)
        let reach = crate::map::movement::reachable(&map, &creatures, &shifter);
        for (_, path) in reach.paths() {
            push(&mut out, MovementPower::Disengage, path);
        }
    }
    if stage == Stage::Battle {
        return out;
    }
    let mover = Mover {
        id,
        space,
        side,
        speed: squares(MovementPower::Run)
            .max(squares(MovementPower::Hustle))
            .max(limits.speed),
        extra_cost: limits.extra_cost_per_square,
        shifting: false,
        modes: resolve::modes_of(world, e),
    };
    let reach = crate::map::movement::reachable(&map, &creatures, &mover);
    // Every destination's path read off at once, in the same order.
    for (dest, path) in reach.paths() {
        let Some(cost) = reach.cost_to(dest) else {
            continue;
        };
        let power = if cost <= squares(MovementPower::Walk) {
            MovementPower::Walk
        } else if cost <= squares(MovementPower::Hustle) {
            MovementPower::Hustle
        } else {
            MovementPower::Run
        };
        if cost <= squares(power) {
            push(&mut out, power, path);
        }
    }
    // docs/rules.md#movement-powers: a tumble, for those given it: up to
    // half speed without provoking, wherever an enemy stands.
    if limits.can_shift && has_power(world, e, MovementPower::Tumble, &rules) {
        let tumbler = Mover {
            speed: squares(MovementPower::Tumble),
            shifting: true,
            ..mover
        };
        let reach = crate::map::movement::reachable(&map, &creatures, &tumbler);
        for (_, path) in reach.paths() {
            push(&mut out, MovementPower::Tumble, path);
        }
    }
    if limits.can_shift && adjacent_enemy {
        let shifter = Mover {
            speed: squares(MovementPower::Shift),
            extra_cost: 0,
            shifting: true,
            ..mover
        };
        for path in shifts(&map, &creatures, &shifter) {
            push(&mut out, MovementPower::Shift, path.into());
        }
    }
    let walker = Mover {
        speed: limits.speed,
        ..mover
    };
    for path in charge_runs(&map, &creatures, walker) {
        if !out.iter().any(|o| matches!(o, Command::Movement { power: MovementPower::Charge, path: p, .. } if *p == path)) {
            push(&mut out, MovementPower::Charge, path);
        }
    }
    out
}

/// What a creature that can still move in this phase moves with: the
/// phased numbers, the stage, its entity, space and side, and the limits
/// its conditions set; none when its action is spent, it is dazed and has
/// acted, it is slowed (docs/rules.md#movement-phase) or it has no speed.
#[allow(clippy::type_complexity)]
fn able_to_move(
    world: &World,
    id: CreatureId,
) -> Option<(PhasedRules, Stage, Entity, Footprint, Side, MovementLimits)> {
    let (Some(rules), Some(stage)) = (rules(world).cloned(), stage(world)) else {
        return None;
    };
    let e = entity_of(world, id)?;
    let (Some(space), Some(side), Some(budget), Some(cond)) = (
        world.comp::<Space>(e).map(|s| s.0),
        side_of(world, id),
        world.comp::<TurnBudget>(e).copied(),
        world.comp::<Conditions>(e).cloned(),
    ) else {
        return None;
    };
    let spendable = match stage {
        Stage::Movement => budget.move_action,
        Stage::Battle => budget.main,
    };
    let dazed_spent = cond.has(ConditionKind::Dazed) && budget.dazed_done;
    if !spendable || dazed_spent || cond.has(ConditionKind::Slowed) {
        return None;
    }
    let speed = world.comp::<Movement>(e).map_or(0, |m| m.speed);
    let limits = movement_limits(&cond, world::speed_with_grab(world, e, speed));
    if limits.speed == 0 {
        return None;
    }
    Some((rules, stage, e, space, side, limits))
}

/// The one-square shifts `shifter` can take, each a path of one step
/// (docs/rules.md#movement-powers).
fn shifts(
    map: &crate::map::Map,
    creatures: &[crate::map::Occupant],
    shifter: &Mover,
) -> Vec<Vec<Pos>> {
    let from = shifter.space.pos;
    from.neighbours()
        .map(|to| vec![from, to])
        .filter(|path| path_cost(map, creatures, shifter, path).is_some_and(|c| c <= shifter.speed))
        .collect()
}

/// The straight runs a charge may take, ending beside a creature to strike
/// (docs/rules.md#movement-powers, docs/rules.md#charge).
fn charge_runs(
    map: &crate::map::Map,
    creatures: &[crate::map::Occupant],
    walker: Mover,
) -> Vec<crate::map::movement::Path> {
    let occ = crate::map::movement::occupancy(map, creatures);
    let areas = crate::encounter::listing::run_areas(creatures, walker, &[]);
    let runs = crate::map::movement::straight_runs(map, &occ, &walker, &areas);
    crate::encounter::listing::charges(creatures, walker, &runs, &[])
        .into_iter()
        .filter_map(|c| match c {
            Command::Charge { path, .. } => Some(path),
            _ => None,
        })
        .collect()
}

/// Whose phased turn can start: the next in the phase's order; in the
/// movement phase also any other of that side's creatures still to move
/// (seizing the initiative); in the battle phase, delaying.
pub(super) fn phased_starts(
    world: &mut World,
    flow: &Flow,
    stage: crate::phased::Stage,
) -> Vec<Command> {
    let Some(next) = next_up(world) else {
        return Vec::new();
    };
    if let Some(window) = seize_window(world) {
        // The other side's window to seize the initiative: any of its
        // creatures still to move, or let the order stand.
        let mut q = world.query_filtered::<(&Creature, &Stamina), Without<Summoned>>();
        let mut seizers: Vec<CreatureId> = q
            .iter(world)
            .filter(|(c, s)| c.side == window && can_act(s) && !flow.acted.contains(&c.id))
            .map(|(c, _)| c.id)
            .collect();
        seizers.sort();
        let mut out: Vec<Command> = seizers
            .iter()
            .map(|&c| Command::StartTurn { creature: c })
            .collect();
        if let Some(&first) = seizers.first() {
            out.push(Command::Delay { creature: first });
        }
        return out;
    }
    let mut out = vec![Command::StartTurn { creature: next }];
    if stage == crate::phased::Stage::Movement {
        let mut q = world.query_filtered::<(&Creature, &Stamina), Without<Summoned>>();
        let mut seizers: Vec<CreatureId> = q
            .iter(world)
            .filter(|(c, s)| {
                c.side == flow.to_act && c.id != next && can_act(s) && !flow.acted.contains(&c.id)
            })
            .map(|(c, _)| c.id)
            .collect();
        seizers.sort();
        out.extend(
            seizers
                .into_iter()
                .map(|c| Command::StartTurn { creature: c }),
        );
    } else {
        let order = flow
            .phased
            .as_ref()
            .map(|p| p.battle_order.clone())
            .unwrap_or_default();
        let at = order.iter().position(|&c| c == next).unwrap_or(order.len());
        let someone_after = order.iter().skip(at + 1).any(|&c| {
            !flow.acted.contains(&c)
                && entity_of(world, c)
                    .and_then(|e| world.comp::<Stamina>(e))
                    .is_some_and(can_act)
        });
        let delayed = flow
            .phased
            .as_ref()
            .is_some_and(|p| p.delayed.contains(&next));
        if someone_after && !delayed {
            out.push(Command::Delay { creature: next });
        }
    }
    out
}
