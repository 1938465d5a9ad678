//! Turn flow (docs/rules.md#actions-on-a-turn): who goes first, sides alternating with the
//! side choosing which creature acts, a side that runs out letting the other
//! finish, rounds, and the start and end of turns and rounds.
//!
//! The phase is a Bevy state. Each command is carried out
//! (`stack::handle_command`); then, when it ended or started a turn or left
//! none under way, the turn boundary's [`Step`] schedules run, in order, each
//! that has something to do (`Boundary`); then [`check_outcome`] looks for
//! a victory.

use crate::encounter::log::emit;
use crate::fast::KeyedWorld;
use bevy_app::App;
use bevy_ecs::prelude::*;
use bevy_ecs::schedule::ScheduleLabel;
use bevy_state::prelude::*;

use super::log::{CombatLog, LogEntry};
use super::state::board::CreatureIndex;
use super::state::components::*;
use super::world::{BonusData, CachedQuery, SummonData, VictoryData};
use crate::conditions::Conditions;
use crate::content::Content;
use crate::dice::Dice;
use crate::encounter::state::turn::{
    ActiveRuleset, Flow, Malice, Phase, Standing, Step, can_act, turns_ended,
};
use crate::encounter::world::waiting;
use crate::map::Side;
use crate::stats::{CreatureId, Stamina};

pub(super) fn plugin(app: &mut App) {
    app.init_state::<Phase>()
        .init_resource::<Flow>()
        .init_resource::<CombatLog>()
        .init_resource::<Malice>()
        .init_resource::<ActiveRuleset>()
        .init_resource::<Squads>();
    // Each stage is a handful of small, ordered systems: the multi-threaded
    // executor (which Bevy's `multi_threaded` feature makes the default when
    // the client is in the build) would only add thread hand-offs.
    for stage in Step::ALL {
        app.init_schedule(stage);
        app.edit_schedule(stage, |s| {
            s.set_executor(bevy_ecs::schedule::SingleThreadedExecutor::new());
        });
    }
    // The end of a turn in a fixed order (raised walls crumble, then the
    // talent's strain, then auras' end-of-turn effects, then EoT conditions
    // and saves), the order one schedule over all three stages had come to;
    // a stage's own schedule would pick another.
    app.add_systems(
        Step::EndOfTurn,
        (
            super::resolve::walls_crumble,
            strain,
            super::resolve::aura::at_turn_end,
            end_of_turn,
        )
            .chain(),
    )
    .add_systems(Step::Advance, (advance, glyph_round).chain())
    .init_resource::<super::state::work::ResourceTouched>()
    .add_systems(
        Step::StartOfTurn,
        (
            super::resolve::aura::at_turn_start,
            start_of_turn,
            super::concentration::resource_saves_at_turn_start,
        )
            .chain(),
    );
}

/// Whether the turn order must move on: no turn under way, and no side has
/// won.
fn must_advance(f: &Flow) -> bool {
    f.active.is_none() && f.outcome.is_none()
}

/// Whether the step's command left a turn boundary for [`Boundary`] to
/// handle: a turn ended or started, or none is under way. Most commands
/// (a move, an ability) leave none, and their step runs no stage of it.
pub(super) fn at_boundary(flow: &Flow) -> bool {
    !flow.events.ended.is_empty() || !flow.events.started.is_empty() || must_advance(flow)
}

/// The turn boundary's three stages, taken out of the world's schedules
/// and run directly (a step skips looking them up by label). Each runs only
/// when it has something to do, checked as the one before it finishes:
/// end-of-turn effects when a turn ended, advancing when no turn is under
/// way and no side has won, start-of-turn effects when a turn started. (As
/// one schedule with a run condition on each stage, the executor's pass
/// over every system and condition cost a random game about 3% of its
/// instructions, most steps at a boundary needing one stage.)
pub(super) struct Boundary {
    stages: [Schedule; 3],
}

impl Boundary {
    /// Take the stages out of `world`'s schedules. A stage with no run
    /// condition on any of its systems or sets (all of them, as shipped)
    /// runs them in order ([`crate::fast::run_in_order`]).
    pub(super) fn take(world: &mut World) -> Boundary {
        let mut schedules = world.resource_mut::<bevy_ecs::schedule::Schedules>();
        let stages = Step::ALL.map(|stage| {
            let mut schedule = schedules
                .remove(stage.intern())
                .expect("the flow plugin adds the turn boundary's stages");
            crate::fast::run_in_order(&mut schedule);
            schedule
        });
        Boundary { stages }
    }

    /// Run the stages that have something to do, in order.
    pub(super) fn run(&mut self, world: &mut World) {
        let [end, advance, start] = &mut self.stages;
        if !world.res::<Flow>().events.ended.is_empty() {
            end.run(world);
        }
        if must_advance(world.res::<Flow>()) {
            advance.run(world);
        }
        if !world.res::<Flow>().events.started.is_empty() {
            start.run(world);
        }
    }
}

/// A new round: abilities prepared for the last one expire, and glyph
/// commands sent last round arrive (docs/rules.md#glyphs: "At the
/// start of the next Round ... all connected Glyphs, and the glyph itself,
/// will receive the Glyph Command").
fn glyph_round(world: &mut World) {
    let round = world.res::<Flow>().round;
    let Some(mut g) = world.get_res_mut::<super::state::board::Glyphs>() else {
        return;
    };
    if g.round >= round {
        return;
    }
    g.round = round;
    // docs/rules.md#prepared-abilities prepared for the round expire with it.
    if round > 1 {
        super::gather::end_round(world);
    }
    super::resolve::glyph::round_started(world);
}

/// The talent's strain hurts at the end of its turn (before saves).
pub(super) fn strain(world: &mut World) {
    if super::ruleset::of(world).movement_turn(world) {
        return;
    }
    let ended = turns_ended(world);
    super::resolve::strain(world, &ended);
    super::gather::end_of_turn(world, &ended);
}

/// A save for each save-ends condition, in order; a success removes that
/// entry (docs/rules.md#durations; docs/rules.md#ability-saves may have
/// shifted it). `roll` is the ruleset's save roll.
pub(super) fn roll_saves(
    id: CreatureId,
    conditions: &mut Conditions,
    dice: &mut Dice,
    log: &mut CombatLog,
    roll: &dyn Fn(&mut Dice) -> u32,
    save_target: u32,
) {
    let mut i = 0;
    while i < conditions.list.len() {
        if conditions.list[i].duration != crate::conditions::Duration::SaveEnds {
            i += 1;
            continue;
        }
        let kind = conditions.list[i].kind;
        // docs/rules.md#ability-saves: the imposing roll may have shifted
        // this save (roll twice, keep the higher or lower; or no save).
        let shift = conditions.list[i].save_shift;
        let (total, success) = crate::saves::shifted_save(shift, dice, roll, save_target);
        log.emit(LogEntry::Saved {
            creature: id,
            roll: total,
            condition: kind,
            success,
        });
        if success {
            conditions.list.remove(i);
            if !conditions.has(kind) {
                log.emit(LogEntry::ConditionEnded {
                    target: id,
                    condition: kind,
                });
            }
        } else {
            i += 1;
        }
    }
}

/// End of the creature's turn: EoT conditions end, then a save for each
/// save-ends condition (docs/rules.md#durations), as the ruleset has it
/// (phased 2d6: a movement turn ends nothing; a battle turn ends EoT
/// conditions, and saves wait for the end phase).
pub(super) fn end_of_turn(world: &mut World) {
    let ended = std::mem::take(&mut world.res_mut::<Flow>().events.ended);
    let rules = super::ruleset::of(world);
    let (movement_turn, saves_now) = (rules.movement_turn(world), rules.saves_at_turn_end(world));
    let (save_target, save_dice) = (rules.save_target(world), rules.save_dice());
    // (An exclusive system, reading through the keyed reads, each once: as
    // a function system, with the fetches of its five resources, a random
    // game took 0.4% more instructions. `start_of_turn`, tried the same
    // way, took more as an exclusive system, and stays a function system.)
    // In the order the turns ended (a squad's members in their order):
    // saves take dice.
    for id in each_once(&ended) {
        let Some(e) = super::world::entity_of(world, id) else {
            continue;
        };
        let Some(name) = world.comp::<Creature>(e).map(|c| c.name.clone()) else {
            continue;
        };
        let Some(mut conditions) = world.comp_mut::<Conditions>(e) else {
            continue;
        };
        let gone = if movement_turn {
            Vec::new()
        } else {
            conditions.end_of_turn()
        };
        // (The conditions are taken out while the dice roll, and put back.)
        let saving = (!movement_turn
            && saves_now
            && conditions
                .list
                .iter()
                .any(|a| a.duration == crate::conditions::Duration::SaveEnds))
        .then(|| std::mem::take(&mut *conditions));
        let mut saves = CombatLog::default();
        if let Some(mut conditions) = saving {
            roll_saves(
                id,
                &mut conditions,
                &mut world.res_mut::<Dice>(),
                &mut saves,
                &save_dice,
                save_target,
            );
            if let Some(mut c) = world.comp_mut::<Conditions>(e) {
                *c = conditions;
            }
        }
        // docs/rules.md#penalties: a turn without a straining ability eases
        // the strain (our ruling).
        let eased = world.comp_mut::<Stance>(e).is_some_and(|mut s| {
            let eased = s.straining > 0 && !s.strained;
            if eased {
                s.straining = 0;
            }
            s.strained = false;
            eased
        });
        let mut log = world.res_mut::<CombatLog>();
        if eased {
            log.emit(LogEntry::StrainEased { creature: id });
        }
        for kind in gone {
            log.emit(LogEntry::ConditionEnded {
                target: id,
                condition: kind,
            });
        }
        log.emit_all(&mut saves);
        log.emit(LogEntry::TurnEnded { creature: id, name });
    }
}

/// The entities of the `listed` creatures, each once, in the list's order
/// rather than the store's: where dice are rolled for each, the store's
/// order is no rule. (Found through the index: a turn's end or start lists
/// a creature or a squad, not worth a pass over everyone.)
fn in_list_order<'a>(
    index: &'a CreatureIndex,
    listed: &'a [CreatureId],
) -> impl Iterator<Item = Entity> + 'a {
    each_once(listed).filter_map(|id| index.entity(id))
}

/// The `listed` creatures, each once, in the list's order.
fn each_once(listed: &[CreatureId]) -> impl Iterator<Item = CreatureId> + '_ {
    listed
        .iter()
        .enumerate()
        .filter(|&(i, id)| !listed[..i].contains(id))
        .map(|(_, &id)| id)
}

/// Choose who acts next: the other side if it has anyone left to act, else
/// the same side; with nobody left, the round ends and the next begins.
/// Under the phased ruleset, the phased flow's order decides instead.
fn advance(world: &mut World) {
    // The phase this step leaves the encounter in: a turn that started
    // this step (the phase about to become Acting) and ended in it too (its
    // creature died as it began) is over, and the next pick must be made;
    // a step that started no turn while a side was picking (a delay, a
    // refused start) leaves that pick as it was.
    let phase = match *world.res::<NextState<Phase>>() {
        NextState::Pending(p) | NextState::PendingIfNeq(p) => p,
        NextState::Unchanged => *world.res::<State<Phase>>().get(),
    };
    let flow = world.res::<Flow>();
    if phase == Phase::Over || flow.outcome.is_some() || flow.active.is_some() {
        return;
    }
    if phase == Phase::AwaitingTurn && flow.round > 0 {
        return;
    }
    super::ruleset::of(world).advance(world);
    // (The round's end can meet an objective: the fight is over.)
    if world.res::<Flow>().outcome.is_some() {
        return;
    }
    world.res_mut::<NextState<Phase>>().set(Phase::AwaitingTurn);
}

/// docs/rules.md#actions-on-a-turn: the sides alternate, a side that runs out lets the
/// other finish.
pub(super) fn side_advance(world: &mut World) {
    let (round, to_act) = {
        let f = world.res::<Flow>();
        (f.round, f.to_act)
    };
    let other = to_act.other();
    if round > 0 && waiting(world, other) {
        world.res_mut::<Flow>().to_act = other;
    } else if round == 0 || !waiting(world, to_act) {
        new_round(world);
        let mut f = world.res_mut::<Flow>();
        f.to_act = f.first;
        let first = f.to_act;
        if !waiting(world, first) {
            world.res_mut::<Flow>().to_act = first.other();
        }
    }
}

/// The round ends (round bonuses with it) and a new one begins: nobody has
/// acted, triggered actions are back, and Malice grows.
pub(super) fn new_round(world: &mut World) {
    let round = world.res::<Flow>().round;
    // docs/rules.md#objectives: surviving or holding is counted as a
    // round ends.
    if round > 0 && super::objective::round_ended(world, round) {
        return;
    }
    if round > 0 {
        emit(world, LogEntry::RoundEnded { round });
        // docs/rules.md#round-bonuses: active "until the end of the round".
        let mut ended = Vec::new();
        CachedQuery::<BonusData>::with_mut(world, |q, world| {
            for (c, mut b) in q.iter_mut(world) {
                for ability in b.end_round() {
                    ended.push((c.id, ability));
                }
            }
        });
        // Logged in creature order, not the store's.
        ended.sort_by_key(|(id, _)| *id);
        let ended = ended
            .into_iter()
            .map(|(creature, ability)| LogEntry::BonusEnded { creature, ability });
        let mut log = world.res_mut::<CombatLog>();
        for e in ended {
            log.emit(e);
        }
        // Rounds durations whose creature took no turn in their last round.
        super::resolve::end_rounds(world, round + 1, None);
    }
    // Summons never pick a turn of their own (docs/rules.md#summons).
    let mut summons: Vec<CreatureId> = Vec::new();
    CachedQuery::<SummonData>::with(world, |q| {
        q.iter_manual(world)
            .for_each(|(_, _, c)| summons.push(c.id));
    });
    // docs/rules.md#actions-on-a-turn: "one triggered action per round".
    CachedQuery::<&mut TurnBudget>::with_mut(world, |q, world| {
        q.iter_mut(world).for_each(|mut b| b.triggered = true);
    });
    let heroes = super::world::creatures_and_stamina(world)
        .filter(|(c, s)| c.side == Side::Heroes && !s.is_dead())
        .count() as u32;
    // docs/rules.md#solo-turns: a solo's turns beyond its first.
    let mut spare: Vec<CreatureId> = Vec::new();
    let mut q = world.query::<(&Creature, &Turns)>();
    for (c, t) in q.iter(world) {
        spare.extend(std::iter::repeat_n(c.id, t.0.saturating_sub(1) as usize));
    }
    spare.sort_unstable();
    let mut flow = world.res_mut::<Flow>();
    flow.round += 1;
    flow.acted = summons;
    flow.spare = spare;
    if flow.round == 2 {
        flow.surprised = None;
    }
    let round = flow.round;
    // docs/rules.md#malice: each round, the number of heroes present plus the round number.
    let gain = heroes + round;
    let total = {
        let mut m = world.res_mut::<Malice>();
        m.0 += gain;
        m.0
    };
    let mut log = world.res_mut::<CombatLog>();
    log.emit(LogEntry::RoundStarted { round });
    log.emit(LogEntry::MaliceGained {
        amount: gain,
        total,
    });
    // docs/rules.md#reinforcements: they arrive as their round starts.
    super::objective::arrive(world, round);
}

/// What [`start_of_turn`] reads and writes of each creature.
type TurnStartData = (
    Entity,
    &'static Creature,
    &'static mut TurnBudget,
    &'static mut Stance,
    Option<&'static mut Heroic>,
    &'static Stamina,
);

/// Start of a turn: the budget resets and heroes gain their resource
/// (docs/rules.md#heroic-resources: 1d3 for most, a flat amount for some).
pub(super) fn start_of_turn(
    mut flow: ResMut<Flow>,
    mut creatures: Query<TurnStartData>,
    mut dice: ResMut<Dice>,
    mut log: ResMut<CombatLog>,
    (content, index, plugged): (
        Res<Content>,
        Res<CreatureIndex>,
        Res<super::ruleset::Plugged>,
    ),
    mut touched: ResMut<super::state::work::ResourceTouched>,
) {
    let started = std::mem::take(&mut flow.events.started);
    let rules = plugged.0;
    // In the order the turns started: resource dice are rolled here.
    for e in in_list_order(&index, &started) {
        let Ok((_, c, mut budget, mut stance, heroic, stamina)) = creatures.get_mut(e) else {
            continue;
        };
        // A creature felled as its turn began (an aura's pulse) has no
        // turn to take: the step ends it, and the dead gain nothing.
        if !can_act(stamina) {
            continue;
        }
        let id = c.id;
        // Defend lasts until the start of the creature's next turn.
        stance.defending = false;
        let triggered = budget.triggered;
        *budget = TurnBudget {
            triggered,
            ..Default::default()
        };
        if !rules.start_budget(&flow, &mut budget) {
            continue;
        }
        if let (Some(mut h), CreatureKind::Hero { class }) = (heroic, &c.kind) {
            let gain = match content.classes.get(class).map(|k| k.resource_per_turn) {
                Some(crate::content::ResourceGain::Flat(n)) => n,
                Some(crate::content::ResourceGain::Die(n)) => dice.roll(n),
                None => 0,
            } + h.per_turn;
            h.gain(gain);
            if gain > 0 {
                touched.0.push(id);
            }
            log.emit(LogEntry::ResourceGained {
                creature: id,
                resource: h.resource.clone(),
                amount: gain,
                total: h.amount,
            });
        }
    }
}

/// Victory: a side with no creature able to fight loses. (Called while
/// no side has won yet.)
pub(super) fn check_outcome(world: &mut World) {
    if super::objective::check_escape(world) {
        return;
    }
    // Most commands fell no one: the two found standing last time still
    // stand, and that settles it without a pass over everyone.
    if let Some(&Standing([Some(h), Some(d)])) = world.get_res::<Standing>()
        && world.comp::<Stamina>(h).is_some_and(can_act)
        && world.comp::<Stamina>(d).is_some_and(can_act)
    {
        return;
    }
    let mut found: [Option<Entity>; 2] = [None, None];
    // (Done once a creature of each side is found standing.)
    CachedQuery::<VictoryData>::with(world, |q| {
        for (e, c, s) in q.iter_manual(world) {
            if can_act(s) {
                let k = match c.side {
                    Side::Heroes => 0,
                    Side::Director => 1,
                };
                found[k] = found[k].or(Some(e));
                if found[0].is_some() && found[1].is_some() {
                    break;
                }
            }
        }
    });
    if let Some(mut s) = world.get_res_mut::<Standing>() {
        s.0 = found;
    }
    let winner = match found.map(|f| f.is_some()) {
        // docs/rules.md#reinforcements: not while more monsters are coming.
        [true, false] if !super::objective::reinforcements_pending(world) => Some(Side::Heroes),
        [false, _] => Some(Side::Director),
        _ => None,
    };
    if let Some(side) = winner {
        super::objective::declare(world, side);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_turn_stages_run_in_order() {
        // The shipped stages, with every plugin's systems in them, have no
        // run condition: `Boundary::take` gives each the in-order executor.
        let mut app = App::new();
        app.add_plugins((bevy_state::app::StatesPlugin, crate::RulesPlugin));
        let schedules = app.world().resource::<bevy_ecs::schedule::Schedules>();
        for stage in Step::ALL {
            assert!(crate::fast::unconditional(
                schedules.get(stage).expect("added")
            ));
        }
    }

    #[test]
    fn a_boundarys_creatures_come_in_the_lists_order_each_once() {
        // Saves and resource dice are rolled in the order the turns ended
        // or started, whatever order the index keeps; a creature named
        // twice is still handled once, and an id with no entity is passed.
        let mut world = World::new();
        let (a, b, c) = (
            world.spawn_empty().id(),
            world.spawn_empty().id(),
            world.spawn_empty().id(),
        );
        let mut index = CreatureIndex::default();
        index.set(CreatureId(0), a);
        index.set(CreatureId(1), b);
        index.set(CreatureId(2), c);
        let listed = [
            CreatureId(2),
            CreatureId(0),
            CreatureId(2),
            CreatureId(7),
            CreatureId(1),
        ];
        let order: Vec<Entity> = in_list_order(&index, &listed).collect();
        assert_eq!(order, vec![c, a, b]);
        assert_eq!(in_list_order(&index, &[]).count(), 0);
    }
}
