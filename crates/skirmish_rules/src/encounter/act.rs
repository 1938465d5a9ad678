//! Carrying out commands: moving, shifting, using abilities, ending turns.
//! Each rule is a call to a pure function; this module only gathers the
//! facts from the world and writes the results back.

use crate::encounter::keyed::KeyedWorld;
use bevy_app::App;
use bevy_ecs::prelude::*;
use bevy_state::prelude::*;

use super::command::{Command, Placement, Refusal, Who};
use super::components::*;
use super::flow::{Flow, Malice, Phase, Step, can_act};
use super::log::{CombatLog, LogEntry};
use super::react::{self, Event, Reaction, Resolution, Resume};
use crate::ability::{
    Ability, ActionType, Cost, Distance, ForcedKind, Keyword, Relation, TargetKind, TriggerEvent,
    evaluate,
};
use crate::conditions::{
    AbilityFacts, ActiveCondition, Applied, ConditionKind, Conditions, Duration, Party,
    Surroundings, action_limits, movement_limits, roll_modifiers,
};
use crate::content::Content;
use crate::dice::Dice;
use crate::map::forced::{Force, ForcedEvent};
use crate::map::movement::{Mover, is_straight, path_cost};
use crate::map::{
    Footprint, Map, Occupant, Pos, Side, Sight, any_clear_sight, line_of_effect, sight,
};
use crate::power_roll::{RollSpec, resolve_for_target};
use crate::stats::{Characteristics, CreatureId, DamageTraits, DamageType, Health, Stamina};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Resolution>()
        .init_resource::<RaisedWalls>()
        .add_systems(Step::EndOfTurn, walls_crumble.before(super::flow::strain));
}

/// The map the encounter is fought on. Shared: reading it is a cheap
/// clone of the pointer; the rare change (a wall raised, an object broken,
/// treasure taken) copies it first if a snapshot still holds it.
#[derive(Resource, Clone, Debug, PartialEq)]
pub struct Battlefield(pub std::sync::Arc<Map>);

impl Battlefield {
    pub fn new(map: Map) -> Battlefield {
        Battlefield(std::sync::Arc::new(map))
    }

    /// The map to change.
    pub fn map_mut(&mut self) -> &mut Map {
        std::sync::Arc::make_mut(&mut self.0)
    }
}

/// A wall an ability raised, and how long it has left.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RaisedWall {
    pub squares: Vec<Pos>,
    pub owner: CreatureId,
    /// Ends of the owner's turns before it crumbles.
    pub turn_ends_left: u32,
}

/// The walls abilities have raised.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct RaisedWalls(pub Vec<RaisedWall>);

/// End of a turn: the walls of the creatures ending it count down, and
/// crumble at zero.
fn walls_crumble(world: &mut World) {
    // (Most fights raise no wall: nothing to copy then.)
    if world.res::<RaisedWalls>().0.is_empty() {
        return;
    }
    let ended = super::flow::turns_ended(world);
    if ended.is_empty() {
        return;
    }
    // A maker who died has no turns left to end: its walls crumble as this
    // turn ends (else a bridge walled by a fallen elementalist stays shut
    // for good).
    let fallen: Vec<CreatureId> = world
        .res::<RaisedWalls>()
        .0
        .iter()
        .map(|w| w.owner)
        .filter(|&o| {
            entity_of(world, o)
                .and_then(|e| world.comp::<Stamina>(e))
                .is_none_or(|s| !can_act(s))
        })
        .collect();
    let mut gone = Vec::new();
    world.res_mut::<RaisedWalls>().0.retain_mut(|w| {
        if ended.contains(&w.owner) {
            w.turn_ends_left = w.turn_ends_left.saturating_sub(1);
        }
        if fallen.contains(&w.owner) {
            w.turn_ends_left = 0;
        }
        if w.turn_ends_left == 0 {
            gone.push(w.clone());
            false
        } else {
            true
        }
    });
    for w in gone {
        for &p in &w.squares {
            world
                .res_mut::<Battlefield>()
                .map_mut()
                .set_raised_wall(p, false);
        }
        world.res_mut::<CombatLog>().push(LogEntry::WallCrumbled {
            creature: w.owner,
            squares: w.squares,
        });
    }
}

/// Carry out a command: the first part of a step, run by
/// [`super::Encounter`] on the world directly, as Bevy runs an exclusive
/// system (a schedule around this one system cost a random game 2% more
/// instructions, for nothing). The command comes back with the answer (for
/// the replay, or the refusal's report).
///
/// `listed`: the command was taken from the listing of this very moment
/// (`Encounter::perform_listed`, inside the crate): a move's path was then
/// found by the reach search of this state, and its cost is not worked out
/// again (release builds only; debug builds check it and panic on a listed
/// move the walk would refuse). `prepared`: what that listing read of
/// everyone, for the walk of a move or shift taken from it (see
/// [`Prepared`]).
pub(super) fn handle_command(
    world: &mut World,
    cmd: Command,
    listed: bool,
    prepared: Option<Prepared>,
) -> (Result<(), Refusal>, Command) {
    // The phase stays as it is while the step runs (it changes after it).
    let phase = *world.res::<State<Phase>>().get();
    let result = execute(world, &cmd, phase, listed);
    // Whether a prompt is open, as the waiting work left it.
    let mut prompt = None;
    if result.is_ok() {
        // A listed move or shift has just put its walk up, first to run,
        // with nothing changed since the listing but the walker's move
        // spent.
        let prepared = prepared.filter(|p| {
            listed
                && matches!(cmd, Command::Move { creature, .. } | Command::Shift { creature, .. }
                    if creature == p.walker)
        });
        prompt = Some(react::run(world, prepared));
        check_grabs(world);
    }
    if end_fallen_turn(world) != Fallen::Standing {
        // (It dropped what was waiting, the prompt too.)
        prompt = Some(false);
    }
    // A turn started clears a delay; an open prompt is its own phase.
    if matches!(cmd, Command::StartTurn { .. }) && result.is_ok() {
        world.res_mut::<Flow>().delayed = None;
    }
    let prompt = prompt.unwrap_or_else(|| world.res::<Resolution>().prompt.is_some());
    if prompt && phase != Phase::Reacting {
        world.res_mut::<NextState<Phase>>().set(Phase::Reacting);
    } else if !prompt && phase == Phase::Reacting && world.res::<Flow>().active.is_some() {
        world.res_mut::<NextState<Phase>>().set(Phase::Acting);
    }
    (result, cmd)
}

/// What [`end_fallen_turn`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Fallen {
    /// Nothing: no turn under way, or its creature stands.
    Standing,
    /// The squad's turn passed to a minion still standing (what was
    /// waiting dropped).
    Passed,
    /// The turn ended (what was waiting dropped).
    Ended,
}

/// A creature that falls during its own turn (an opportunity attack, a
/// collision, an aura as its turn starts) has its turn ended, and what it
/// was doing with it; a squad's turn passes to a minion still standing.
pub(super) fn end_fallen_turn(world: &mut World) -> Fallen {
    let Some(active) = world.res::<Flow>().active else {
        return Fallen::Standing;
    };
    let standing = |world: &World, id: CreatureId| {
        entity_of(world, id)
            .and_then(|e| world.comp::<Stamina>(e))
            .is_some_and(can_act)
    };
    if standing(world, active) {
        return Fallen::Standing;
    }
    world.res_mut::<Resolution>().clear();
    // A squad's turn goes on while any of its minions stands.
    let next = world
        .res::<Flow>()
        .squad
        .iter()
        .copied()
        .find(|&m| standing(world, m));
    if let Some(m) = next {
        world.res_mut::<Flow>().active = Some(m);
        return Fallen::Passed;
    }
    let mut flow = world.res_mut::<Flow>();
    let done = flow.finish_turn();
    // A turn that ended as it began (its creature died of its slow
    // action's bleeding) has nothing of its start left to do: the dead
    // gain no resource.
    flow.events.ended = done;
    flow.events.started.clear();
    Fallen::Ended
}

/// Find a creature's entity (a keyed read of the index: as cheap as the
/// copy of it each thread once kept for this).
#[inline(always)]
pub fn entity_of(world: &World, id: CreatureId) -> Option<Entity> {
    world.get_res::<super::setup::CreatureIndex>()?.entity(id)
}

/// What [`occupants`] reads of each creature.
pub(super) type OccupantData = (
    &'static Creature,
    &'static Space,
    &'static Stamina,
    &'static Conditions,
    &'static TurnBudget,
);

/// What [`grabbed_by`] reads of each creature.
type GrabData = (
    Entity,
    &'static Creature,
    &'static Conditions,
    &'static Stamina,
);

/// What [`check_grabs`] reads of each creature first.
type ConditionData = (Entity, &'static Conditions);

/// What [`creatures_and_stamina`] and the victory check read of each
/// creature.
pub(super) type StandingData = (&'static Creature, &'static Stamina);

/// What the victory check reads of each creature.
pub(super) type VictoryData = (Entity, &'static Creature, &'static Stamina);

/// What [`super::summon::summons_of`] reads of each summoned creature.
pub(super) type SummonData = (&'static Summoned, &'static Stamina, &'static Creature);

/// What the listing reads of the creature acting.
pub(super) type ActorData = (
    &'static Creature,
    &'static Conditions,
    &'static Movement,
    &'static TurnBudget,
    Option<&'static Space>,
    Option<&'static Abilities>,
    Option<&'static Heroic>,
    Option<&'static Stance>,
    Option<&'static Stamina>,
);

/// What [`hidden_creatures`] reads of each creature.
type StanceData = (&'static Creature, &'static Stance);

/// What [`super::react::offer`] reads of each creature.
pub(super) type TriggerData = (&'static Creature, Option<&'static Abilities>);

/// What [`super::aura`]'s carriers reads of each creature first (a
/// carrier's creature, space and stamina after).
pub(super) type AuraData = (Entity, &'static Auras);

/// A query kept on each thread for the world it was last run on, so that
/// its components are looked up once rather than once per creature per
/// call (the functions using them run for every listing and every move).
///
/// Kept outside the world, with no lock: a query kept in the world as a
/// resource cost a resource read and a lock and an unlock each time, about
/// eight times a command. Each thread keeps its own (`sim --jobs` plays a
/// world on each thread); a read from another world builds the query anew
/// for that world and keeps it instead (a world's id is never reused).
pub(super) struct CachedQuery<D: bevy_ecs::query::QueryData + 'static>(std::marker::PhantomData<D>);

/// Where a [`CachedQuery`] is kept on this thread: the world's id, the
/// query built for it, and the world's archetype generation when the query
/// was last brought up to date with it (none: not since it was built).
pub(super) type QuerySlot<D> = std::cell::RefCell<Option<KeptState<D>>>;

/// A kept query and what it was kept for (see [`QuerySlot`]).
pub(super) struct KeptState<D: bevy_ecs::query::QueryData + 'static> {
    world: bevy_ecs::world::WorldId,
    seen: Option<bevy_ecs::archetype::ArchetypeGeneration>,
    query: QueryState<D>,
}

/// A [`CachedQuery`] with a slot of its own on each thread.
pub(super) trait KeptQuery<D: bevy_ecs::query::QueryData + 'static> {
    fn with_slot<R>(f: impl FnOnce(&QuerySlot<D>) -> R) -> R;
}

/// `KeptQuery` for each query type named, each with its own slot, and
/// `cache_queries`, which builds them all at setup.
macro_rules! kept_queries {
    ($($d:ty),* $(,)?) => {
        $(impl KeptQuery<$d> for CachedQuery<$d> {
            #[inline]
            fn with_slot<R>(f: impl FnOnce(&QuerySlot<$d>) -> R) -> R {
                ::std::thread_local! {
                    static SLOT: QuerySlot<$d> = const { ::std::cell::RefCell::new(None) };
                }
                SLOT.with(f)
            }
        })*

        /// Build the queries the hot paths keep, and register their
        /// components (at setup): each query named above, so none is
        /// left out.
        pub(super) fn cache_queries(world: &mut World) {
            $(CachedQuery::<$d>::prime(world);)*
        }
    };
}

/// A query lent by [`CachedQuery`]: the thread's kept one, or one made for
/// the call.
enum Lent<'s, D: bevy_ecs::query::QueryData + 'static> {
    Kept(std::cell::RefMut<'s, QueryState<D>>),
    /// (Boxed: a query is large, and a lent one is passed around.)
    Own(Box<QueryState<D>>),
}

impl<D: bevy_ecs::query::QueryData + 'static> std::ops::Deref for Lent<'_, D> {
    type Target = QueryState<D>;
    fn deref(&self) -> &QueryState<D> {
        match self {
            Lent::Kept(q) => q,
            Lent::Own(q) => q,
        }
    }
}

impl<D: bevy_ecs::query::QueryData + 'static> std::ops::DerefMut for Lent<'_, D> {
    fn deref_mut(&mut self) -> &mut QueryState<D> {
        match self {
            Lent::Kept(q) => q,
            Lent::Own(q) => q,
        }
    }
}

impl<D: bevy_ecs::query::QueryData + 'static> CachedQuery<D> {
    /// `slot`'s query for `world`, brought up to date with it (built
    /// first if the slot holds another world's). A query already in use
    /// further up this thread's stack lends nothing: the caller gets one of
    /// its own. None while the world lacks the query's components.
    ///
    /// A query is brought up to date only when the world has gained an
    /// archetype since it last was: `QueryState::update_archetypes` does
    /// nothing else for the kept queries' plain component reads (it looks
    /// at the archetypes added since, and a world never loses one), and as
    /// a call it cost about 45 instructions, a million times in 100 random
    /// games.
    #[inline(always)]
    fn lend<'s>(slot: &'s QuerySlot<D>, world: &World) -> Option<Lent<'s, D>> {
        let Ok(mut kept) = slot.try_borrow_mut() else {
            return QueryState::try_new(world).map(|q| Lent::Own(Box::new(q)));
        };
        let id = world.id();
        if kept.as_ref().is_none_or(|k| k.world != id) {
            *kept = Some(KeptState {
                world: id,
                seen: None,
                query: QueryState::try_new(world)?,
            });
        }
        let now = world.archetypes().generation();
        let k = std::cell::RefMut::filter_map(kept, |k| k.as_mut()).ok()?;
        let q = std::cell::RefMut::map(k, |k| {
            if k.seen != Some(now) {
                k.query.update_archetypes(world);
                k.seen = Some(now);
            }
            &mut k.query
        });
        Some(Lent::Kept(q))
    }

    /// Build the query for `world` and keep it on this thread, registering
    /// its components (so that any thread can build it from then on, as
    /// `lend` does, though no creature has them yet: a summoned one).
    fn prime(world: &mut World)
    where
        Self: KeptQuery<D>,
    {
        let query = world.query::<D>();
        let id = world.id();
        Self::with_slot(|slot| {
            if let Ok(mut kept) = slot.try_borrow_mut() {
                *kept = Some(KeptState {
                    world: id,
                    seen: None,
                    query,
                });
            }
        });
    }

    /// Run `f` with the query brought up to date with `world`.
    pub(super) fn with<R>(world: &World, f: impl FnOnce(&mut QueryState<D>) -> R) -> Option<R>
    where
        Self: KeptQuery<D>,
    {
        Self::with_slot(|slot| {
            let mut q = Self::lend(slot, world)?;
            Some(f(&mut q))
        })
    }

    /// [`CachedQuery::with`] for a query that writes: `f` gets the world
    /// too, mutably.
    pub(super) fn with_mut<R>(
        world: &mut World,
        f: impl FnOnce(&mut QueryState<D>, &mut World) -> R,
    ) -> Option<R>
    where
        Self: KeptQuery<D>,
    {
        Self::with_slot(|slot| {
            let mut q = Self::lend(slot, world)?;
            Some(f(&mut q, world))
        })
    }
}

kept_queries!(
    OccupantData,
    SceneData,
    GrabData,
    ConditionData,
    AuraData,
    StandingData,
    VictoryData,
    SummonData,
    ActorData,
    StanceData,
    TriggerData,
    BonusData,
    SnapshotData,
    HeroData,
    WalkerData,
    super::concentration::SustainData,
    super::gather::LooterData,
    &'static mut TurnBudget,
);

/// What a new round changes of each creature's round bonuses.
pub(super) type BonusData = (&'static Creature, &'static mut Bonuses);

/// Every creature still on the map, for the spatial functions.
pub fn occupants(world: &World) -> Vec<Occupant> {
    let surprised = surprised_side(world);
    // Room for a fight's creatures at once; filled by the query's own loop
    // over its tables, which is quicker than stepping it one by one.
    let mut out: Vec<Occupant> = Vec::with_capacity(16);
    CachedQuery::<OccupantData>::with(world, |q| {
        q.iter_manual(world).for_each(|(c, sp, s, cond, b)| {
            if let Some(o) = occupant(c, sp, s, cond, b, surprised) {
                out.push(o);
            }
        })
    });
    // In id order, whatever order the store keeps them in.
    out.sort_unstable_by_key(|o| o.id);
    out
}

/// A creature as [`occupants`] lists it (none if dead).
#[inline]
fn occupant(
    c: &Creature,
    sp: &Space,
    s: &Stamina,
    cond: &Conditions,
    b: &TurnBudget,
    surprised: Option<Side>,
) -> Option<Occupant> {
    (!s.is_dead()).then(|| Occupant {
        id: c.id,
        space: sp.0,
        side: c.side,
        can_react: can_act(s)
            && b.triggered
            && action_limits(cond).triggered_allowed
            && surprised != Some(c.side),
    })
}

/// What a walk and a listing read of everyone at once (see [`walk_scene`]
/// and [`listing_scene`]).
pub(super) type SceneData = (
    Entity,
    &'static Creature,
    &'static Space,
    &'static Stamina,
    &'static Conditions,
    &'static TurnBudget,
    &'static Auras,
    &'static Stance,
);

/// What a listing for `actor` reads of everyone, in one pass over the
/// creatures: [`occupants`], [`hidden_creatures`], and the largest size
/// among those [`grabbed_by`] the actor (for [`halved_by_grab`]).
pub(super) struct Scene {
    pub occupants: Vec<Occupant>,
    pub hidden: Vec<CreatureId>,
    pub largest_held: Option<u32>,
}

/// What the listing of this very moment read of everyone, handed to the
/// walk taken from it (a move or a shift of the listed creature) so that
/// its first [`walk_scene`] and [`walker_state`] are not read again: every
/// living creature, as [`listing_scene`] found them, and the walker's
/// state. Made only when the walker holds no one (most often; whom it
/// holds the walk reads anew). The carriers of auras are read from those
/// known to carry one ([`super::aura::carriers`]). Debug builds, where the
/// tests run, check it against a fresh reading.
pub(crate) struct Prepared {
    pub(super) walker: CreatureId,
    pub(super) state: WalkerState,
    pub(super) occupants: Vec<Occupant>,
}

/// The [`Scene`] for a listing of `actor`'s commands, `surprised` being
/// [`surprised_side`] (the listing has read the turn order already).
pub(super) fn listing_scene(world: &World, actor: CreatureId, surprised: Option<Side>) -> Scene {
    let mut out: Vec<Occupant> = Vec::with_capacity(16);
    let mut hidden = Vec::new();
    let mut largest_held: Option<u32> = None;
    CachedQuery::<SceneData>::with(world, |q| {
        q.iter_manual(world)
            .for_each(|(_, c, sp, s, cond, b, _, stance)| {
                if let Some(o) = occupant(c, sp, s, cond, b, surprised) {
                    out.push(o);
                }
                if stance.hidden {
                    hidden.push(c.id);
                }
                // (Most have no condition: asked first, it spares the
                // rest, 0.3% of a random game's instructions.)
                if !cond.list.is_empty() && held_by(cond, s, actor) {
                    largest_held = largest_held.max(Some(sp.0.size));
                }
            })
    });
    // In id order, whatever order the store keeps them in.
    out.sort_unstable_by_key(|o| o.id);
    Scene {
        occupants: out,
        hidden,
        largest_held,
    }
}

/// [`occupants`] whose space is `near`, [`grabbed_by`] `walker` and
/// [`super::aura::carriers`] in one pass over the creatures, each as its
/// own function gives it (a walk reads all three before its first step and
/// after anything acts on one).
fn walk_scene(
    world: &World,
    walker: CreatureId,
    near: impl Fn(Footprint) -> bool,
) -> (
    Vec<Occupant>,
    Vec<(CreatureId, Entity)>,
    Vec<super::aura::Carrier>,
) {
    let surprised = surprised_side(world);
    // (The walker is always among those near: room for a few at once.)
    let mut others: Vec<Occupant> = Vec::with_capacity(8);
    let mut held: Vec<(CreatureId, Entity)> = Vec::new();
    let mut carriers: Vec<super::aura::Carrier> = Vec::new();
    // (A `for` loop: with `for_each`, each creature was a call of its own,
    // the body too large to inline, and a random game took 1% more
    // instructions; the listing's pass above, smaller, is inlined either
    // way and quicker as it is.)
    CachedQuery::<SceneData>::with(world, |q| {
        for (e, c, sp, s, cond, b, auras, _) in q.iter_manual(world) {
            if near(sp.0)
                && let Some(o) = occupant(c, sp, s, cond, b, surprised)
            {
                others.push(o);
            }
            // (Most have no condition: asked first, it spares the rest.)
            if !cond.list.is_empty() && held_by(cond, s, walker) {
                held.push((c.id, e));
            }
            if let Some(a) = super::aura::carrier(e, c, sp, s, auras) {
                carriers.push(a);
            }
        }
    });
    // In id order, whatever order the store keeps them in.
    others.sort_unstable_by_key(|o| o.id);
    held.sort_unstable_by_key(|h| h.0);
    carriers.sort_by_key(|c| c.1);
    (others, held, carriers)
}

fn execute(world: &mut World, cmd: &Command, phase: Phase, listed: bool) -> Result<(), Refusal> {
    let id = cmd.creature();
    // Whose turn it is, read once: nothing before its checks below changes it.
    let (in_turn, acting, phased_round) = {
        let flow = world.res::<Flow>();
        if flow.outcome.is_some() {
            return Err(Refusal::Over);
        }
        (
            flow.active.is_some(),
            flow.is_acting(id),
            flow.phased.is_some(),
        )
    };
    let entity = entity_of(world, id).ok_or_else(|| Refusal::NoSuchCreature(Who::id(id)))?;
    // A square far off the map is no square of this fight (only a file
    // written by hand names one): refused at the door, so no rule works
    // with coordinates near the integers' limits.
    // (The map is read only for a command that names a square.)
    if cmd.find_square(|_| true).is_some() {
        let map = &world.res::<Battlefield>().0;
        if let Some(p) = cmd.find_square(|p| map.far_off(p)) {
            return Err(Refusal::FarOffMap(p));
        }
    }
    // An open prompt must be answered before anything else happens.
    if let Some(p) = &world.res::<Resolution>().prompt {
        let asked = p.creature;
        return match cmd {
            Command::Answer { reaction, .. } => answer(world, id, reaction.as_ref()),
            _ => Err(Refusal::AwaitingAnswer(Who::of(world, asked))),
        };
    }
    match cmd {
        Command::StartTurn { creature } => return start_turn(world, entity, *creature, phase),
        Command::Delay { creature } if super::phased_flow::rules(world).is_some() => {
            side_to_pick(world, entity, *creature, phase)?;
            return super::phased_flow::delay(world, *creature);
        }
        Command::Delay { creature } => return delay(world, entity, *creature, phase),
        Command::Answer { .. } => return Err(Refusal::NoPrompt),
        _ => {}
    }
    if !in_turn {
        return Err(Refusal::NoTurnInProgress);
    }
    if !acting {
        return Err(Refusal::NotTheirTurn(Who::of(world, id)));
    }
    if world.comp::<Stamina>(entity).is_none_or(|s| !can_act(s))
        && !matches!(cmd, Command::EndTurn { .. })
    {
        return Err(Refusal::Dead(Who::of(world, id)));
    }
    // (The turn order is read again only in a phased round.)
    let round = if phased_round {
        super::phased_flow::round(world)
    } else {
        None
    };
    super::phased_flow::check_command_in(world, round, id, cmd)?;
    match cmd {
        Command::Movement { power, path, .. } => {
            super::phased_flow::movement(world, entity, id, *power, &path.to_vec())
        }
        Command::EndTurn { .. } => {
            let mut flow = world.res_mut::<Flow>();
            let done = flow.finish_turn();
            flow.events.ended = done;
            Ok(())
        }
        Command::Move { path, .. } => {
            let how = Walk {
                shift: false,
                spend_move: true,
                listed,
            };
            walk(world, entity, id, path.to_vec(), how)
        }
        Command::Shift { to, .. } => {
            let from = world
                .comp::<Space>(entity)
                .map(|s| s.0.pos)
                .unwrap_or_default();
            let how = Walk {
                shift: true,
                spend_move: true,
                listed,
            };
            walk(world, entity, id, vec![from, *to], how)
        }
        Command::UseAbility {
            ability,
            targets,
            surges,
            potency_surges,
            spend,
            tier,
            ..
        } => use_ability(
            world,
            entity,
            id,
            AbilityUse {
                ability,
                targets,
                surges: *surges,
                potency_surges,
                spend: *spend,
                tier: *tier,
                placement: None,
            },
        ),
        Command::UseAreaAbility {
            ability,
            placement,
            surges,
            potency_surges,
            spend,
            tier,
            ..
        } => use_ability(
            world,
            entity,
            id,
            AbilityUse {
                ability,
                targets: &[],
                surges: *surges,
                potency_surges,
                spend: *spend,
                tier: *tier,
                placement: Some(placement),
            },
        ),
        Command::FreeStrike { target, .. } => free_strike(world, entity, id, *target),
        Command::Charge {
            path,
            target,
            ability,
            ..
        } => charge(
            world,
            entity,
            id,
            &path.to_vec(),
            *target,
            ability.as_deref(),
        ),
        Command::StandUp { .. } => stand_up(world, entity),
        Command::CatchBreath { .. } => catch_breath(world, entity, id),
        Command::EscapeGrab { .. } => escape_grab(world, entity, id),
        Command::Defend { .. } => defend(world, entity, id),
        Command::Hide { .. } => hide(world, entity, id),
        Command::StartTurn { .. } | Command::Delay { .. } | Command::Answer { .. } => {
            unreachable!("handled above")
        }
    }
}

/// A side lets the other pick first this time. It may not hand the pick
/// straight back to a side that has just delayed, and the other side must
/// have someone left to act.
fn delay(world: &mut World, entity: Entity, id: CreatureId, phase: Phase) -> Result<(), Refusal> {
    let to_act = side_to_pick(world, entity, id, phase)?;
    let other = to_act.other();
    if world.res::<Flow>().delayed == Some(other) {
        return Err(Refusal::CannotDelay("the other side has just delayed"));
    }
    if !super::flow::waiting(world, other) {
        return Err(Refusal::CannotDelay(
            "the other side has nobody left to act",
        ));
    }
    let mut flow = world.res_mut::<Flow>();
    flow.to_act = other;
    flow.delayed = Some(to_act);
    world
        .res_mut::<CombatLog>()
        .push(LogEntry::Delayed { side: to_act });
    Ok(())
}

/// Defend (main action, our ruling): until the start of the creature's next
/// turn, ability rolls against it take the ruleset's `defend_banes`.
fn defend(world: &mut World, entity: Entity, id: CreatureId) -> Result<(), Refusal> {
    spend(world, entity, ActionType::MainAction)?;
    if let Some(mut s) = world.comp_mut::<Stance>(entity) {
        s.defending = true;
    }
    world.res_mut::<CombatLog>().push(LogEntry::AbilityUsed {
        creature: id,
        ability: "defend".into(),
        name: "Defend".into(),
    });
    Ok(())
}

/// Whether every enemy either lacks line of effect to `space` or sees it
/// only with cover: the Hide maneuver's requirement, and what keeps a
/// creature hidden after it moves.
pub(super) fn unseen(world: &mut World, id: CreatureId, space: Footprint, side: Side) -> bool {
    let map = world.res::<Battlefield>().0.clone();
    unseen_among(&map, &occupants(world), id, space, side)
}

/// [`unseen`] among these creatures.
pub(super) fn unseen_among(
    map: &Map,
    creatures: &[Occupant],
    id: CreatureId,
    space: Footprint,
    side: Side,
) -> bool {
    let enemies = || creatures.iter().filter(|o| o.side != side && o.id != id);
    // Adjacency first: it is cheap and settles it without a look.
    enemies().all(|o| o.space.distance(space) > 1)
        && !any_clear_sight(map, enemies().map(|o| o.space), space)
}

/// Hide (maneuver, our ruling): with cover from, or out of line of effect
/// of, every enemy and none adjacent, the creature becomes hidden.
fn hide(world: &mut World, entity: Entity, id: CreatureId) -> Result<(), Refusal> {
    let (Some(space), Some(side)) = (
        world.comp::<Space>(entity).map(|s| s.0),
        world.comp::<Creature>(entity).map(|c| c.side),
    ) else {
        return Err(Refusal::NoSuchCreature(Who::id(id)));
    };
    if world.comp::<Stance>(entity).is_some_and(|s| s.hidden) {
        return Err(Refusal::CannotHide("already hidden"));
    }
    if !unseen(world, id, space, side) {
        return Err(Refusal::CannotHide(
            "an enemy is adjacent or sees this square without cover",
        ));
    }
    spend(world, entity, ActionType::Maneuver)?;
    if let Some(mut s) = world.comp_mut::<Stance>(entity) {
        s.hidden = true;
    }
    world
        .res_mut::<CombatLog>()
        .push(LogEntry::Hidden { creature: id });
    Ok(())
}

/// A hidden creature is found: log it once.
fn reveal(world: &mut World, entity: Entity, id: CreatureId) {
    if let Some(mut s) = world.comp_mut::<Stance>(entity)
        && s.hidden
    {
        s.hidden = false;
        world
            .res_mut::<CombatLog>()
            .push(LogEntry::Revealed { creature: id });
    }
}

/// Whether it is `id`'s side's pick now, with no turn under way (the side
/// to pick, if so).
fn side_to_pick(
    world: &World,
    entity: Entity,
    id: CreatureId,
    phase: Phase,
) -> Result<Side, Refusal> {
    let flow = world.res::<Flow>();
    if phase != Phase::AwaitingTurn || flow.active.is_some() {
        return Err(Refusal::TurnInProgress);
    }
    let side = world.comp::<Creature>(entity).map(|c| c.side);
    if side != Some(flow.to_act) {
        return Err(Refusal::NotTheirTurn(Who::of(world, id)));
    }
    Ok(flow.to_act)
}

fn start_turn(
    world: &mut World,
    entity: Entity,
    id: CreatureId,
    phase: Phase,
) -> Result<(), Refusal> {
    if world.comp::<Summoned>(entity).is_some() {
        return Err(Refusal::SummonActsAlone(Who::of(world, id)));
    }
    // Seed 001: the phases' order, or seizing the initiative.
    // (Read together: nothing below changes them before they are used.)
    let (phased, acted) = {
        let flow = world.res::<Flow>();
        (
            flow.phased.as_ref().map(|p| p.stage),
            flow.acted.contains(&id),
        )
    };
    let seized = match phased {
        Some(_) if phase == Phase::AwaitingTurn => super::phased_flow::check_start(world, id)?,
        _ => false,
    };
    side_to_pick(world, entity, id, phase)?;
    if acted {
        return Err(Refusal::AlreadyActed(Who::of(world, id)));
    }
    if !world.comp::<Stamina>(entity).is_some_and(can_act) {
        return Err(Refusal::Dead(Who::of(world, id)));
    }
    if phased.is_some() {
        super::phased_flow::turn_started(world, id, seized);
    }
    // RULES.md "Minions": a squad "takes one turn together" (in phased
    // rounds each minion goes on its own initiative).
    let squad = squad_of(world, entity).filter(|_| phased.is_none());
    let members: Vec<CreatureId> = match squad {
        Some(n) => {
            let mut q = world.query::<(&Creature, &SquadMember, &Stamina)>();
            let acted = &world.res::<Flow>().acted;
            let mut m: Vec<CreatureId> = q
                .iter(world)
                .filter(|(c, sm, s)| sm.0 == n && can_act(s) && !acted.contains(&c.id))
                .map(|(c, _, _)| c.id)
                .collect();
            m.sort();
            m
        }
        None => Vec::new(),
    };
    let starting = if members.is_empty() {
        vec![id]
    } else {
        members.clone()
    };
    for &m in &starting {
        let name = Who::of(world, m).into_label();
        world
            .res_mut::<CombatLog>()
            .push(LogEntry::TurnStarted { creature: m, name });
    }
    // Seed 002 "Slow Action": it takes effect at the start of the next
    // turn (phased: the next battle turn).
    let movement_turn = phased == Some(crate::phased::Stage::Movement);
    // (Most turns have none: the entity is not moved for nothing.)
    if !movement_turn
        && world.comp::<Casting>(entity).is_some()
        && let Some(casting) = world.entity_mut(entity).take::<Casting>()
    {
        resolve_slow(world, entity, casting);
    }
    // Seed 004 "Summon": its summons act "directly before" it (queued last,
    // so they run first); in phased rounds, before its battle turn.
    let summons = if movement_turn {
        Vec::new()
    } else {
        super::summon::queue_turns(world, id)
    };
    let mut f = world.res_mut::<Flow>();
    f.active = Some(id);
    f.squad = members.clone();
    f.summons = summons;
    f.events.started = if members.is_empty() {
        vec![id]
    } else {
        members
    };
    world.res_mut::<NextState<Phase>>().set(Phase::Acting);
    Ok(())
}

/// Which action an action type spends, converting the main action when the
/// maneuver or move action is gone (RULES.md: "the main action may be spent
/// as a second maneuver or move action").
pub(super) fn spend_action(
    budget: &mut TurnBudget,
    conditions: &Conditions,
    action: ActionType,
) -> Result<(), Refusal> {
    let dazed = action_limits(conditions).one_action_only;
    if dazed && budget.dazed_done {
        return Err(Refusal::Dazed);
    }
    match action {
        ActionType::MainAction | ActionType::SlowAction => {
            if !budget.main {
                return Err(Refusal::MainActionUsed);
            }
            budget.main = false;
        }
        ActionType::Maneuver => {
            if budget.maneuver {
                budget.maneuver = false;
            } else if budget.main {
                budget.main = false;
            } else {
                return Err(Refusal::ManeuverUsed);
            }
        }
        ActionType::MoveAction => {
            if budget.move_action {
                budget.move_action = false;
            } else if budget.main {
                budget.main = false;
            } else {
                return Err(Refusal::MoveActionUsed);
            }
        }
        ActionType::FreeManeuver | ActionType::NoAction => {
            if dazed {
                return Err(Refusal::Dazed);
            }
            return Ok(());
        }
        ActionType::TriggeredAction | ActionType::FreeTriggeredAction => {
            return Err(Refusal::Unsupported(
                "triggered actions answer prompts".into(),
            ));
        }
        ActionType::Passive | ActionType::Episodic => {
            return Err(Refusal::Unsupported(
                "passive and episodic abilities apply when the encounter starts".into(),
            ));
        }
    }
    if dazed {
        budget.dazed_done = true;
    }
    Ok(())
}

/// How a walk is taken: a shift or a move, whether it spends the move
/// action (a charge's run does not), and whether it was taken from the
/// listing of this very moment (see [`handle_command`]).
#[derive(Clone, Copy)]
struct Walk {
    shift: bool,
    spend_move: bool,
    listed: bool,
}

fn walk(
    world: &mut World,
    entity: Entity,
    id: CreatureId,
    path: Vec<Pos>,
    how: Walk,
) -> Result<(), Refusal> {
    let Walk {
        shift,
        spend_move,
        listed,
    } = how;
    let space = world
        .comp::<Space>(entity)
        .ok_or_else(|| Refusal::NoSuchCreature(Who::id(id)))?
        .0;
    // Read in place (a creature with none has none).
    let none = Conditions::default();
    let conditions = world.comp::<Conditions>(entity).unwrap_or(&none);
    if path.first() != Some(&space.pos) {
        return Err(Refusal::BadPath(
            "it must start at the creature's square".into(),
        ));
    }
    if path.len() < 2 {
        return Err(Refusal::BadPath("it has no steps".into()));
    }
    // A listed move's path came from the reach search of this state, by
    // the rules `path_in_reach` checks: in release builds it is not worked
    // out again (4% of a random game's instructions); debug builds, where
    // the tests run, check that the two agree.
    if !listed || cfg!(debug_assertions) {
        let checked = path_in_reach(world, entity, id, space, conditions, &path, shift);
        debug_assert!(
            !listed || checked.is_ok(),
            "a listed move was refused: {checked:?} for {path:?}"
        );
        checked?;
    }
    let mut budget = *world
        .comp::<TurnBudget>(entity)
        .ok_or_else(|| Refusal::NoSuchCreature(Who::id(id)))?;
    if spend_move {
        spend_action(&mut budget, conditions, ActionType::MoveAction)?;
    }
    // Committed from here on: the steps are taken one by one, pausing for
    // triggered actions (see `walk_steps`).
    *world.comp_mut::<TurnBudget>(entity).expect("checked") = budget;
    world.res_mut::<Resolution>().push(Resume::Walk {
        creature: id,
        path,
        shift,
        asked: false,
    });
    Ok(())
}

/// Whether `path` is a walk the creature may take now: a shift where it
/// may shift, within its speed (halved by a heavy creature it drags),
/// every step allowed and ending on no other creature (RULES.md
/// "Movement").
fn path_in_reach(
    world: &World,
    entity: Entity,
    id: CreatureId,
    space: Footprint,
    conditions: &Conditions,
    path: &[Pos],
    shift: bool,
) -> Result<(), Refusal> {
    let movement = *world
        .comp::<Movement>(entity)
        .ok_or_else(|| Refusal::NoSuchCreature(Who::id(id)))?;
    let side = world
        .comp::<Creature>(entity)
        .map(|c| c.side)
        .unwrap_or(Side::Heroes);
    let limits = movement_limits(conditions, speed_with_grab(world, entity, movement.speed));
    if shift && !limits.can_shift {
        return Err(Refusal::CannotShift);
    }
    let speed = if shift { 1 } else { limits.speed };
    if speed == 0 {
        return Err(Refusal::CannotMove);
    }
    let creatures = occupants(world);
    let mover = Mover {
        id,
        space,
        side,
        speed,
        extra_cost: if shift {
            0
        } else {
            limits.extra_cost_per_square
        },
        shifting: shift,
    };
    let map = &world.res::<Battlefield>().0;
    let cost = path_cost(map, &creatures, &mover, path).ok_or_else(|| {
        Refusal::BadPath("a step is blocked, not adjacent, or ends in a creature".into())
    })?;
    if cost > speed {
        return Err(Refusal::TooFar { cost, speed });
    }
    Ok(())
}

/// Take the steps of a committed move. Before a step that leaves an enemy's
/// reach (not when shifting) the enemies that could make an opportunity
/// attack are asked; after a step that comes adjacent to a creature, those
/// with a "moves adjacent" trigger are. Either pauses the walk, which goes on
/// when the prompts are answered, unless the mover fell or can no longer move.
/// A creature the mover has grabbed is brought along (seed 000 "Grabbed").
/// `prepared`: what the listing the walk's command was taken from read of
/// everyone (see [`Prepared`]), read instead of a first [`walk_scene`].
pub(super) fn walk_steps(
    world: &mut World,
    id: CreatureId,
    path: Vec<Pos>,
    shift: bool,
    asked: bool,
    prepared: Option<Prepared>,
) {
    let Some(entity) = entity_of(world, id) else {
        return;
    };
    // Who is where, whom the walker drags along, who carries auras, and
    // whether any glyph is on the board: the walker's own entry goes stale
    // as it walks, and is never read; the others move, grabs end, carriers
    // fall and glyphs are placed only when something acts on a step (a
    // drag, an aura, a glyph; a reaction interrupts the walk, which resumes
    // anew).
    // Only a creature within a square of the path can be left or come
    // beside as it is walked: the others are dropped once, not looked at
    // on every step.
    // The box of the path's squares (top-left corners), to pass over
    // quickly those far from all of it.
    let (lo, hi) = path.iter().fold(
        (Pos::new(i32::MAX, i32::MAX), Pos::new(i32::MIN, i32::MIN)),
        |(lo, hi), p| {
            (
                Pos::new(lo.x.min(p.x), lo.y.min(p.y)),
                Pos::new(hi.x.max(p.x), hi.y.max(p.y)),
            )
        },
    );
    // (The listing's reading serves the walk's first steps only: a resumed
    // walk reads the world anew.)
    let prepared = prepared.filter(|p| p.walker == id && !asked);
    // Whether the walker can still go on, its size and its side, read
    // through one kept query: these change only when something acts on a
    // step (and then are read again).
    let mut walker = match &prepared {
        Some(p) => {
            debug_assert_eq!(
                Some(p.state),
                walker_state(world, entity),
                "a walk's prepared walker differs from the world's"
            );
            Some(p.state)
        }
        None => walker_state(world, entity),
    };
    let side = walker.map(|w| w.2);
    // Whether a creature at `o` is within a square of the path walked by
    // one of `size`.
    let near = |size: u32, o: Footprint| {
        // The squares the walker covers somewhere on the path all lie in
        // the box from `lo` to `hi` and `size - 1` beyond: a creature more
        // than a square from that is more than a square from each step.
        // (Spaces of no size are left to the exact check; an empty path
        // keeps no one.)
        let gap = |a: i32, b: i64, c: i32, d: i64| (i64::from(c) - b).max(i64::from(a) - d);
        let s = i64::from(size) - 1;
        let (p, n) = (o.pos, i64::from(o.size) - 1);
        (size == 0
            || o.size == 0
            || (gap(lo.x, i64::from(hi.x) + s, p.x, i64::from(p.x) + n) <= 1
                && gap(lo.y, i64::from(hi.y) + s, p.y, i64::from(p.y) + n) <= 1))
            && path
                .iter()
                .any(|&p| Footprint::new(p, size).distance(o) <= 1)
    };
    let scene = |world: &World, size: u32| walk_scene(world, id, |o| near(size, o));
    let size = walker.map_or(1, |w| w.1);
    let (mut others, mut held, mut carriers) = match prepared {
        Some(Prepared { mut occupants, .. }) => {
            occupants.retain(|o| near(size, o.space));
            let (held, carriers) = (Vec::new(), super::aura::carriers(world));
            #[cfg(debug_assertions)]
            {
                let fresh = scene(world, size);
                let prepared = (occupants, held, carriers);
                assert!(
                    fresh == prepared,
                    "a walk's prepared scene differs from the world's: {fresh:?} against {prepared:?}"
                );
                prepared
            }
            #[cfg(not(debug_assertions))]
            (occupants, held, carriers)
        }
        None => scene(world, size),
    };
    let mut glyphs = super::glyph::any(world);
    let log_walk = |world: &mut World, walked: &[Pos]| {
        if walked.len() > 1 {
            world.res_mut::<CombatLog>().push(LogEntry::Moved {
                creature: id,
                path: walked.to_vec(),
                shift,
            });
        }
    };
    // The square of the path the world has the walker on: written only
    // before something reads it (a step's askers, a drag, an aura, a
    // glyph, the walk's end), not at every step (0: as the walk found it,
    // its first square).
    let mut placed = 0;
    let mut place = |world: &mut World, k: usize| {
        if placed != k {
            world.comp_mut::<Space>(entity).expect("checked").0.pos = path[k];
            placed = k;
        }
    };
    for i in 0..path.len().saturating_sub(1) {
        let (can_go, size) = walker.map_or((false, 1), |w| (w.0, w.1));
        if !can_go {
            // The squares walked so far are the path's first `i + 1`.
            place(world, i);
            log_walk(world, &path[..=i]);
            settle(world, entity, id, &path[..=i]);
            return;
        }
        let (from, to) = (
            Footprint::new(path[i], size),
            Footprint::new(path[i + 1], size),
        );
        let first_already_asked = i == 0 && asked;
        if !shift && !first_already_asked {
            // Those it drags along don't leave it.
            let leaving = others
                .iter()
                .filter(|o| {
                    o.id != id
                        && Some(o.side) != side
                        && from.distance(o.space) == 1
                        && to.distance(o.space) > 1
                })
                .map(|o| o.id)
                .filter(|c| !held.iter().any(|g| g.0 == *c));
            let event = Event {
                kind: TriggerEvent::EnemyLeavesAdjacency,
                actor: id,
                subject: None,
            };
            // (Whoever is asked may read where the walker is.)
            let mut leaving = leaving.peekable();
            if leaving.peek().is_some() {
                place(world, i);
            }
            let askers = react::askers(world, &event, leaving);
            if !askers.is_empty() {
                // The walk goes on after the answers.
                world.res_mut::<Resolution>().push(Resume::Walk {
                    creature: id,
                    path: path[i..].to_vec(),
                    shift,
                    asked: true,
                });
                react::ask(world, event, askers);
                log_walk(world, &path[..=i]);
                return;
            }
        }
        if !held.is_empty() || !carriers.is_empty() || glyphs {
            place(world, i + 1);
        }
        let dragged = !held.is_empty() && drag_grabbed(world, id, &held, path[i]);
        if dragged {
            carriers = super::aura::carriers(world);
        }
        let pulsed = super::aura::entered(world, entity, from, to, &carriers);
        let triggered = glyphs && super::glyph::entered(world, id, to);
        if dragged || pulsed || triggered {
            walker = walker_state(world, entity);
            (others, held, carriers) = scene(world, walker.map_or(1, |w| w.1));
            glyphs = super::glyph::any(world);
        }
        let arriving = others
            .iter()
            .filter(|o| o.id != id && from.distance(o.space) > 1 && to.distance(o.space) == 1)
            .map(|o| o.id);
        let event = Event {
            kind: TriggerEvent::CreatureMovesAdjacent,
            actor: id,
            subject: None,
        };
        let mut arriving = arriving.peekable();
        if arriving.peek().is_some() {
            place(world, i + 1);
        }
        let askers = react::askers(world, &event, arriving);
        if !askers.is_empty() {
            let rest = &path[i + 1..];
            if rest.len() > 1 {
                world.res_mut::<Resolution>().push(Resume::Walk {
                    creature: id,
                    path: rest.to_vec(),
                    shift,
                    asked: false,
                });
            }
            react::ask(world, event, askers);
            log_walk(world, &path[..=i + 1]);
            return;
        }
    }
    // The whole path was walked: it is logged as it is.
    place(world, path.len().saturating_sub(1));
    if path.len() > 1 {
        world.res_mut::<CombatLog>().push(LogEntry::Moved {
            creature: id,
            path,
            shift,
        });
    }
    // A hidden creature that ends its move in plain sight is found.
    if world.comp::<Stance>(entity).is_some_and(|s| s.hidden) {
        let (space, side) = (
            world.comp::<Space>(entity).map(|s| s.0),
            world.comp::<Creature>(entity).map(|c| c.side),
        );
        if let (Some(space), Some(side)) = (space, side)
            && !unseen(world, id, space, side)
        {
            reveal(world, entity, id);
        }
    }
}

/// What a walk reads of its walker.
pub(super) type WalkerData = (
    &'static Creature,
    &'static Space,
    &'static Stamina,
    &'static Movement,
    &'static Conditions,
);

/// What a walk reads of its walker (see [`walker_state`]): whether it can
/// go on, its size and its side.
pub(super) type WalkerState = (bool, u32, Side);

/// Whether the walker can go on (alive and able to act, with some speed
/// left under its conditions, and not stopped by the phased ruleset), its
/// size and its side; `None` for a creature lacking any of these (it goes
/// nowhere).
fn walker_state(world: &World, entity: Entity) -> Option<WalkerState> {
    CachedQuery::<WalkerData>::with(world, |q| {
        let (c, space, stamina, movement, cond) = q.get_manual(world, entity).ok()?;
        let can_go = can_act(stamina)
            && movement_limits(cond, movement.speed).speed > 0
            && !super::phased_flow::stops_moving(world, cond);
        Some((can_go, space.0.size, c.side))
    })
    .flatten()
}

/// A move that stops early must not leave the mover in another creature's
/// square: it backs up along the squares it walked.
fn settle(world: &mut World, entity: Entity, id: CreatureId, walked: &[Pos]) {
    let size = world.comp::<Space>(entity).map_or(1, |s| s.0.size);
    let others: Vec<Occupant> = occupants(world)
        .into_iter()
        .filter(|o| o.id != id)
        .collect();
    for &p in walked.iter().rev() {
        let fp = Footprint::new(p, size);
        if !others.iter().any(|o| o.space.overlaps(fp)) {
            world.comp_mut::<Space>(entity).expect("checked").0.pos = p;
            return;
        }
    }
}

/// Seed 000 "Grabbed": "If a creature is grabbed by another creature and
/// that creature moves, they bring the grabbed creature with them." The
/// grabbed creature follows into the square the grabber just left; if that
/// square is taken (the grabber passed through an ally), it stays put, and a
/// grab whose two creatures end up apart ends. `held` are those it has
/// grabbed ([`grabbed_by`]); true if there were any.
fn drag_grabbed(
    world: &mut World,
    grabber: CreatureId,
    held: &[(CreatureId, Entity)],
    left: Pos,
) -> bool {
    let Some(ge) = entity_of(world, grabber) else {
        return false;
    };
    let Some(gspace) = world.comp::<Space>(ge).map(|s| s.0) else {
        return false;
    };
    let map = world.res::<Battlefield>().0.clone();
    for &(id, e) in held {
        let others = occupants(world);
        let Some(space) = world.comp::<Space>(e).map(|s| s.0) else {
            continue;
        };
        if space.distance(gspace) <= 1 {
            continue;
        }
        let to = Footprint::new(left, space.size);
        let free = map.footprint_open(to)
            && !others
                .iter()
                .any(|o| o.id != id && o.id != grabber && o.space.overlaps(to))
            && !to.overlaps(gspace);
        if free {
            world.comp_mut::<Space>(e).expect("checked").0.pos = left;
            world.res_mut::<CombatLog>().push(LogEntry::Dragged {
                target: id,
                by: grabber,
                to: left,
            });
        } else {
            release(world, e, id, grabber);
        }
    }
    true
}

/// Seed 000 "Grabbed": "If a creature's size is equal to or less than the
/// size of a creature they have grabbed, their speed is halved while they
/// have that creature grabbed."
pub(super) fn speed_with_grab(world: &World, entity: Entity, speed: u32) -> u32 {
    let Some((id, size)) = world
        .comp::<Creature>(entity)
        .map(|c| c.id)
        .zip(world.comp::<Space>(entity).map(|s| s.0.size))
    else {
        return speed;
    };
    let largest = grabbed_by(world, id)
        .iter()
        .filter_map(|&(_, e)| world.comp::<Space>(e).map(|s| s.0.size))
        .max();
    halved_by_grab(speed, size, largest)
}

/// The rule of [`speed_with_grab`] over plain data: a grabber of `size`
/// whose largest grabbed creature is of size `largest_held` (none: it
/// holds no one).
pub(super) fn halved_by_grab(speed: u32, size: u32, largest_held: Option<u32>) -> u32 {
    if largest_held.is_some_and(|l| l >= size) {
        speed / 2
    } else {
        speed
    }
}

/// The living creatures `grabber` has grabbed.
fn grabbed_by(world: &World, grabber: CreatureId) -> Vec<(CreatureId, Entity)> {
    let mut held: Vec<(CreatureId, Entity)> = Vec::new();
    CachedQuery::<GrabData>::with(world, |q| {
        q.iter_manual(world)
            .filter(|(_, _, cond, s)| held_by(cond, s, grabber))
            .for_each(|(e, c, _, _)| held.push((c.id, e)))
    });
    // In id order, whatever order the store keeps them in.
    held.sort_unstable_by_key(|h| h.0);
    held
}

/// Whether a creature with these conditions and stamina is one of the
/// living creatures `grabber` has grabbed (as [`grabbed_by`] lists them).
#[inline]
fn held_by(cond: &Conditions, s: &Stamina, grabber: CreatureId) -> bool {
    cond.source_of(ConditionKind::Grabbed) == Some(grabber) && !s.is_dead()
}

/// Every creature's entity, in id order (no query state to build: the
/// engine's hot paths call this many times a command).
pub(super) fn all_creatures(world: &World) -> impl Iterator<Item = Entity> + '_ {
    world
        .get_res::<super::setup::CreatureIndex>()
        .into_iter()
        .flat_map(|i| i.iter().map(|(_, e)| e))
}

/// The hidden creatures (any order; most often none).
pub(super) fn hidden_creatures(world: &World) -> Vec<CreatureId> {
    let mut hidden = Vec::new();
    CachedQuery::<StanceData>::with(world, |q| {
        q.iter_manual(world)
            .filter(|(_, s)| s.hidden)
            .for_each(|(c, _)| hidden.push(c.id))
    });
    hidden
}

/// Every creature's identity and stamina, in id order (one pass of a kept query).
pub(super) fn creatures_and_stamina(world: &World) -> impl Iterator<Item = (&Creature, &Stamina)> {
    let mut all: Vec<(&Creature, &Stamina)> = Vec::with_capacity(16);
    CachedQuery::<StandingData>::with(world, |q| q.iter_manual(world).for_each(|x| all.push(x)));
    // In id order, whatever order the store keeps them in.
    all.sort_unstable_by_key(|(c, _)| c.id);
    all.into_iter()
}

/// End a grab.
fn release(world: &mut World, entity: Entity, id: CreatureId, grabber: CreatureId) {
    if let Some(mut c) = world.comp_mut::<Conditions>(entity) {
        c.remove_from_source(ConditionKind::Grabbed, grabber);
    }
    world
        .res_mut::<CombatLog>()
        .push(LogEntry::Released { target: id });
}

/// Seed 000 "Grabbed": "if either the grabbed creature or the creature
/// grabbing them is force moved so that both creatures are not adjacent to
/// each other, that creature is no longer grabbed." Also when either falls.
fn check_grabs(world: &mut World) {
    // Run after every command. Those who may be grabbed are known since the
    // last check (see `Grabs`), most often nobody: only their conditions
    // are read. When they are not known, one pass of the kept query over
    // the creatures' conditions alone finds them.
    if world
        .get_res::<Grabs>()
        .is_some_and(|g| g.0.0.as_ref().is_some_and(|k| k.is_empty()))
    {
        return;
    }
    let known = world.get_res_mut::<Grabs>().and_then(|mut g| g.0.0.take());
    let mut found: smallvec::SmallVec<[(Entity, CreatureId); 4]> = smallvec::SmallVec::new();
    match known {
        Some(known) => {
            for e in known {
                if let Some(g) = world
                    .comp::<Conditions>(e)
                    .and_then(|c| c.source_of(ConditionKind::Grabbed))
                {
                    found.push((e, g));
                }
            }
        }
        None => CachedQuery::<ConditionData>::with(world, |q| {
            q.iter_manual(world).for_each(|(e, cond)| {
                if let Some(g) = cond.source_of(ConditionKind::Grabbed) {
                    found.push((e, g));
                }
            })
        })
        .unwrap_or_default(),
    }
    // The rest of the grabbed is read for those only.
    let mut grabs: smallvec::SmallVec<[(Entity, CreatureId, CreatureId, bool); 4]> =
        smallvec::SmallVec::new();
    // Who is still grabbed after this check (none released may be).
    let mut held = smallvec::SmallVec::<[Entity; 4]>::new();
    for &(e, g) in &found {
        if let (Some(c), Some(s)) = (world.comp::<Creature>(e), world.comp::<Stamina>(e)) {
            grabs.push((e, c.id, g, s.is_dead()));
        } else {
            held.push(e);
        }
    }
    // In id order, whatever order the store keeps them in.
    grabs.sort_unstable_by_key(|g| g.1);
    for (e, id, g, dead) in grabs {
        let Some(space) = world.comp::<Space>(e).map(|s| s.0) else {
            held.push(e);
            continue;
        };
        let apart = match entity_of(world, g) {
            Some(ge) => {
                world.comp::<Stamina>(ge).is_none_or(|s| !can_act(s))
                    || world
                        .comp::<Space>(ge)
                        .is_none_or(|gs| gs.0.distance(space) > 1)
            }
            None => true,
        };
        if apart || dead {
            release(world, e, id, g);
        } else {
            held.push(e);
        }
    }
    if let Some(mut m) = world.get_res_mut::<Grabs>() {
        m.0 = Known(Some(held));
    }
}

/// Creatures a check keeps in mind between its runs (who may be grabbed,
/// see [`Grabs`]; who may carry an aura, see `aura::KnownCarriers`): None
/// when not known, and the check then passes over everyone.
#[derive(Default)]
pub(super) struct Known(pub(super) Option<smallvec::SmallVec<[Entity; 4]>>);

impl Known {
    /// `entity` is one of them now (kept in mind only while they are known).
    pub(super) fn add(&mut self, entity: Entity) {
        if let Some(list) = &mut self.0
            && !list.contains(&entity)
        {
            list.push(entity);
        }
    }
}

/// Who may be grabbed, for [`check_grabs`]: every creature grabbed is in
/// the list (some in it may no longer be: the check reads their conditions
/// and keeps those still grabbed). The check sets it; [`impose`] adds whom
/// it grabs. Not known at the start, after a restore, or after a hand on
/// the world through `Encounter::world_mut` (either may bring grabs of its
/// own). Kept out of snapshots. (Missing, as in a world built without the
/// setup, it counts as not known.)
#[derive(Resource, Default)]
pub(super) struct Grabs(Known);

/// Forget whom the hints kept for the checks name (who may be grabbed;
/// who may carry an aura): after a restore, or a hand on the world, the
/// checks find out again.
pub(super) fn hints_unknown(world: &mut World) {
    if let Some(mut m) = world.get_res_mut::<Grabs>() {
        m.0 = Known::default();
    }
    if let Some(mut k) = world.get_res_mut::<super::aura::KnownCarriers>() {
        k.0 = Known::default();
    }
}

/// Answer the open prompt: let the event pass, or take one of the offered
/// triggered actions. The answer must be one the prompt offered.
fn answer(world: &mut World, id: CreatureId, choice: Option<&Reaction>) -> Result<(), Refusal> {
    let prompt = world
        .res::<Resolution>()
        .prompt
        .clone()
        .ok_or(Refusal::NoPrompt)?;
    if prompt.creature != id {
        return Err(Refusal::NotAsked(Who::of(world, id)));
    }
    if let Some(c) = choice
        && !prompt.options.contains(c)
    {
        return Err(Refusal::NotAnOption(c.ability.clone()));
    }
    world.res_mut::<Resolution>().prompt = None;
    let Some(choice) = choice else {
        world.res_mut::<CombatLog>().push(LogEntry::LetPass {
            creature: id,
            event: prompt.event.kind,
        });
        return Ok(());
    };
    let entity = entity_of(world, id).ok_or_else(|| Refusal::NoSuchCreature(Who::id(id)))?;
    if choice.ability == react::OPPORTUNITY_ATTACK {
        let target = prompt.event.actor;
        opportunity_attack(world, entity, id, target);
        return Ok(());
    }
    let content = world.res::<Content>().clone();
    let ability = content
        .ability(&choice.ability)
        .ok_or_else(|| Refusal::UnknownAbility(choice.ability.clone()))?;
    if ability.action == ActionType::TriggeredAction
        && let Some(mut b) = world.comp_mut::<TurnBudget>(entity)
    {
        b.triggered = false;
    }
    world.res_mut::<CombatLog>().push(LogEntry::Triggered {
        creature: id,
        event: prompt.event.kind,
    });
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
        },
    );
    Ok(())
}

/// An opportunity attack: the enemy uses its triggered action for a melee
/// free strike (RULES.md "Movement"). Free strikes deal the creature's free
/// strike damage; a hero adds the higher of Might and Agility.
fn opportunity_attack(world: &mut World, ae: Entity, attacker: CreatureId, target: CreatureId) {
    let Some(te) = entity_of(world, target) else {
        return;
    };
    if world.comp::<Stamina>(te).is_none_or(|s| s.is_dead()) {
        return;
    }
    if let Some(mut b) = world.comp_mut::<TurnBudget>(ae) {
        b.triggered = false;
    }
    world.res_mut::<CombatLog>().push(LogEntry::AbilityUsed {
        creature: attacker,
        ability: "free_strike".into(),
        name: "Opportunity Attack".into(),
    });
    free_strike_hits(world, ae, attacker, te, target);
    bleed(world, ae);
}

/// Apply damage through immunity and weakness; log it, and log death.
/// `by` is the creature dealing it, as the rules see it (its triggers, the
/// damage reactions answer), and is credited with it in the log.
fn deal_damage(
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
fn deal_damage_credited(
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
        world.res_mut::<CombatLog>().push(LogEntry::Damage {
            target: id,
            amount: taken,
            damage_type: t,
            stamina_left: left,
            absorbed: 0,
            by: credit,
        });
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
    let mut log = world.res_mut::<CombatLog>();
    log.push(LogEntry::Damage {
        target: id,
        amount: taken,
        damage_type: t,
        stamina_left: left,
        absorbed,
        by: credit,
    });
    if after != before {
        match after {
            Health::Dead => log.push(LogEntry::Died { creature: id, name }),
            Health::Dying => log.push(LogEntry::Dying { creature: id, name }),
            _ => {}
        }
    }
    if before != after && matches!(after, Health::Dead | Health::Dying) {
        downed(world, entity, by);
    }
    // Seed 002 "Concentration": a save whenever the concentrator takes damage.
    if taken > 0 {
        super::concentration::damaged(world, id);
    }
}

/// Untyped damage from no attack (for tests of what shields don't stop).
#[cfg(test)]
pub(super) fn deal_damage_for_test(world: &mut World, entity: Entity, id: CreatureId, amount: i32) {
    deal_damage(world, entity, id, amount, DamageType::Untyped, None);
}

/// A creature was reduced to 0 stamina: the dramatic-moment trigger for
/// heroes near it, and the downed-an-enemy trigger for the hero who did it.
fn downed(world: &mut World, entity: Entity, by: Option<CreatureId>) {
    if let Some(space) = world.comp::<Space>(entity).map(|s| s.0) {
        dramatic_moment(world, space);
    }
    // Seed 004 "Summon": removed when "the summoner becomes exhausted".
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
fn ally_hits_marked(world: &mut World, by: CreatureId, target: Entity) {
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

/// A creature's squad, if it is a minion in one.
pub(super) fn squad_of(world: &World, entity: Entity) -> Option<u32> {
    world.comp::<SquadMember>(entity).map(|s| s.0)
}

/// Stamina a minion loses comes off its squad's pool (RULES.md "Minions").
/// Returns what is left of the pool, or `None` for a creature not in a squad.
fn squad_loss(world: &mut World, entity: Entity, amount: i32) -> Option<i32> {
    let n = squad_of(world, entity)?;
    let mut squads = world.res_mut::<Squads>();
    let p = squads.0.get_mut(&n)?;
    p.pool = (p.pool - amount.max(0)).max(0);
    Some(p.pool)
}

/// RULES.md "Minions": "each time the pool loses a minion's stamina, one
/// minion dies": the one that was hit first, then those nearest to it.
fn squad_deaths(world: &mut World, hit: Entity, by: Option<CreatureId>) {
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
        let mut log = world.res_mut::<CombatLog>();
        log.push(LogEntry::Died {
            creature: *id,
            name: name.clone(),
        });
        log.push(LogEntry::SquadLoss {
            squad: n,
            pool_left: p.pool,
        });
        downed(world, *e, by);
    }
}

/// Everything about a creature that resolving an ability reads.
#[derive(Clone, Debug)]
pub(super) struct Snapshot {
    pub entity: Entity,
    pub id: CreatureId,
    pub side: Side,
    pub space: Footprint,
    pub chars: Characteristics,
    pub conditions: Conditions,
    pub stability: u32,
}

/// A living creature's snapshot, by id.
pub(super) fn living_snapshot(world: &World, id: CreatureId) -> Option<Snapshot> {
    let e = entity_of(world, id)?;
    if world.comp::<Stamina>(e).is_none_or(|s| s.is_dead()) {
        return None;
    }
    snapshot(world, e)
}

pub(super) fn snapshot(world: &World, entity: Entity) -> Option<Snapshot> {
    // One lookup of the entity through a kept query, not one a component.
    CachedQuery::<SnapshotData>::with(world, |q| {
        let (c, space, chars, conditions, movement) = q.get_manual(world, entity).ok()?;
        Some(Snapshot {
            entity,
            id: c.id,
            side: c.side,
            space: space.0,
            chars: *chars,
            conditions: conditions.clone(),
            stability: movement.stability,
        })
    })
    .flatten()
}

/// What [`snapshot`] reads of a creature.
pub(super) type SnapshotData = (
    &'static Creature,
    &'static Space,
    &'static Characteristics,
    &'static Conditions,
    &'static Movement,
);

/// What [`heroes_with`] reads of each hero.
pub(super) type HeroData = (
    Entity,
    &'static Heroic,
    &'static Stamina,
    &'static Creature,
    &'static Space,
);

/// Whether a target of `kind` is allowed (seed 000 "Target").
pub(super) fn target_allowed(kinds: &[TargetKind], user: &Snapshot, target: &Snapshot) -> bool {
    TargetKind::any_allows(
        kinds,
        Relation::of(user.id, user.side, target.id, target.side),
    )
}

/// RULES.md "Flanking": an ally on the opposite side or corner of the
/// target, adjacent to it and able to take triggered actions, gives an edge
/// on melee strikes.
fn flanked(user: &Snapshot, target: &Snapshot, creatures: &[Occupant]) -> bool {
    if user.space.distance(target.space) != 1 {
        return false;
    }
    let (tx, ty) = target.space.centre();
    let (ux, uy) = user.space.centre();
    creatures.iter().any(|a| {
        if a.id == user.id
            || a.side != user.side
            || !a.can_react
            || a.space.distance(target.space) != 1
        {
            return false;
        }
        let (ax, ay) = a.space.centre();
        let (dx1, dy1) = (ux - tx, uy - ty);
        let (dx2, dy2) = (ax - tx, ay - ty);
        // Opposite: the two directions point (nearly) straight away from each other.
        let dot = dx1 * dx2 + dy1 * dy2;
        let n = (dx1 * dx1 + dy1 * dy1).sqrt() * (dx2 * dx2 + dy2 * dy2).sqrt();
        n > 0.0 && dot / n <= -0.99
    })
}

/// The choices a command makes when using an ability.
struct AbilityUse<'a> {
    ability: &'a str,
    targets: &'a [CreatureId],
    surges: u32,
    /// Targets whose potency is raised by 1, for 2 surges each.
    potency_surges: &'a [CreatureId],
    /// Heroic resource spent on "Spend X" entries.
    spend: u32,
    tier: Option<crate::power_roll::Tier>,
    placement: Option<&'a Placement>,
}

/// Whether a cost can be paid by a creature with this heroic resource (if
/// any) when the Director has `malice`.
pub(super) fn can_afford(cost: Cost, heroic: Option<&Heroic>, malice: u32) -> bool {
    match cost {
        Cost::Heroic(n) => heroic.is_some_and(|h| h.can_pay(n)),
        Cost::Malice(n) => malice >= n,
        Cost::Free | Cost::Signature => true,
    }
}

/// Whether the creature can pay the ability's cost now (its heroic
/// resource, or the Director's Malice), as using it checks.
fn affordable(world: &World, entity: Entity, ability: &Ability) -> Result<(), Refusal> {
    let heroic = world.comp::<Heroic>(entity);
    let malice = world.res::<Malice>().0;
    if can_afford(ability.cost, heroic, malice) {
        return Ok(());
    }
    match ability.cost {
        Cost::Heroic(n) => Err(Refusal::NotEnoughResource {
            resource: heroic.map_or("heroic resource".into(), |h| h.resource.clone()),
            needed: n,
            has: heroic.map_or(0, |h| h.amount),
        }),
        Cost::Malice(n) => Err(Refusal::NotEnoughResource {
            resource: "malice".into(),
            needed: n,
            has: malice,
        }),
        Cost::Free | Cost::Signature => Ok(()),
    }
}

fn use_ability(
    world: &mut World,
    entity: Entity,
    id: CreatureId,
    u: AbilityUse,
) -> Result<(), Refusal> {
    let AbilityUse {
        ability: ability_id,
        targets: target_ids,
        surges,
        spend,
        tier: chosen_tier,
        placement,
        potency_surges,
    } = u;
    let content = world.res::<Content>().clone();
    let ability: &Ability = content
        .ability(ability_id)
        .ok_or_else(|| Refusal::UnknownAbility(ability_id.to_string()))?;
    if !world
        .comp::<Abilities>(entity)
        .is_some_and(|a| a.0.iter().any(|x| x == ability_id))
    {
        return Err(Refusal::NotTheirAbility(ability_id.to_string()));
    }
    if ability.distance.is_area() != placement.is_some() {
        return Err(Refusal::WrongCommand(if ability.distance.is_area() {
            "an area ability needs a placement (UseAreaAbility)"
        } else {
            "a strike names its targets (UseAbility)"
        }));
    }
    let user = snapshot(world, entity).ok_or_else(|| Refusal::NoSuchCreature(Who::id(id)))?;
    // Seed 004 "Recover and Refresh": a spent ability waits to be recovered.
    if !super::gather::available(world, entity, ability) {
        return Err(Refusal::Spent(ability.name.clone()));
    }
    // Seed 004 "Summon": "If there are no available hexes, the summon
    // ability cannot be used."
    if !super::summon::room_for(world, entity, ability) {
        return Err(Refusal::NoRoomToSummon);
    }
    // The action first: "main action already used" outranks target problems.
    let mut budget = *world
        .comp::<TurnBudget>(entity)
        .ok_or_else(|| Refusal::NoSuchCreature(Who::id(id)))?;
    spend_action(&mut budget, &user.conditions, ability.action)?;
    affordable(world, entity, ability)?;
    let heroic = world.comp::<Heroic>(entity).cloned();
    // "Spend X" entries (seed 000 "Spend Heroic Resource"): on top of the cost.
    let extra = if spend > 0 {
        let cost = match ability.cost {
            Cost::Heroic(n) => n,
            _ => 0,
        };
        let has = heroic.as_ref().map_or(0, |h| h.amount);
        // (Saturating: no creature has anywhere near `u32::MAX` to spend.)
        let needed = cost.saturating_add(spend);
        if !heroic.as_ref().is_some_and(|h| h.can_pay(needed)) {
            return Err(Refusal::NotEnoughResource {
                resource: heroic
                    .as_ref()
                    .map_or("heroic resource".into(), |h| h.resource.clone()),
                needed,
                has,
            });
        }
        crate::ability::spend_effects(&ability.spend, spend)
            .map_err(|why| Refusal::BadSpend(spend, why))?
    } else {
        Vec::new()
    };
    // Seed 000 "Surges": up to 3 for damage; 2 per target for +1 potency.
    let has_surges = heroic.as_ref().map_or(0, |h| h.surges);
    let wanted =
        (potency_surges.len() as u64 * 2 + u64::from(surges)).min(u64::from(u32::MAX)) as u32;
    if wanted > has_surges {
        return Err(Refusal::NotEnoughSurges {
            wanted,
            has: has_surges,
        });
    }
    if surges > 3 {
        return Err(Refusal::BadSurges(
            "at most 3 surges on extra damage".into(),
        ));
    }
    for (i, t) in potency_surges.iter().enumerate() {
        if potency_surges[..i].contains(t) {
            return Err(Refusal::BadSurges(
                "a potency can be raised by 1 only".into(),
            ));
        }
        if placement.is_none() && !target_ids.contains(t) {
            return Err(Refusal::BadSurges(format!(
                "{t} is not a target of the ability"
            )));
        }
    }
    let map = world.res::<Battlefield>().0.clone();
    // An area: its targets are every eligible creature it reaches.
    if let Some(placement) = placement {
        let creatures = occupants(world);
        let (area, source) = place_area(&map, &creatures, user.space, ability.distance, placement)?;
        // Seed 002: a glyphic ability inscribes its glyphs on the area.
        if ability.glyph.is_some() {
            *world.comp_mut::<TurnBudget>(entity).expect("checked") = budget;
            pay(world, entity, id, ability, spend);
            super::glyph::place(world, id, user.side, &ability.id, &area.covered);
            return Ok(());
        }
        if let Distance::Wall { .. } = ability.distance {
            *world.comp_mut::<TurnBudget>(entity).expect("checked") = budget;
            pay(world, entity, id, ability, spend);
            for &p in &area.covered {
                world
                    .res_mut::<Battlefield>()
                    .map_mut()
                    .set_raised_wall(p, true);
            }
            // Our ruling: a raised wall stands until the end of its maker's
            // next turn (so no fight is walled shut for good).
            let own_turn = world.res::<Flow>().is_acting(id);
            world.res_mut::<RaisedWalls>().0.push(RaisedWall {
                squares: area.covered.clone(),
                owner: id,
                turn_ends_left: if own_turn { 2 } else { 1 },
            });
            world.res_mut::<CombatLog>().push(LogEntry::WallRaised {
                creature: id,
                squares: area.covered.clone(),
            });
            return Ok(());
        }
        let mut targets = Vec::new();
        for o in area.creatures(&creatures) {
            let Some(te) = entity_of(world, o.id) else {
                continue;
            };
            let Some(ts) = snapshot(world, te) else {
                continue;
            };
            if target_allowed(&ability.target.kinds, &user, &ts) {
                targets.push(ts);
            }
        }
        if let Some(max) = ability.target.count {
            targets.truncate(max as usize);
        }
        *world.comp_mut::<TurnBudget>(entity).expect("checked") = budget;
        pay(world, entity, id, ability, spend);
        super::aura::start(world, entity, ability);
        let ids: Vec<CreatureId> = targets.iter().map(|t| t.id).collect();
        if ids.len() >= 2 {
            trigger_resource(
                world,
                entity,
                crate::content::ResourceTrigger::AreaHitsSeveral,
            );
        }
        world.res_mut::<CombatLog>().push(LogEntry::AreaPlaced {
            creature: id,
            squares: area.reached.clone(),
            targets: ids.clone(),
        });
        start_ability(
            world,
            entity,
            ability,
            PendingRoll {
                user: id,
                ability: ability.id.clone(),
                targets: ids,
                area: Some(area),
                source: Some(source),
                surges,
                potency_surges: potency_surges.to_vec(),
                tier: chosen_tier,
                extra,
            },
        );
        return Ok(());
    }
    // Targets.
    if target_ids.is_empty() && !ability.target.kinds.contains(&TargetKind::Myself) {
        return Err(Refusal::NoTargets);
    }
    if let Some(max) = ability.target.count
        && target_ids.len() as u32 > max
    {
        return Err(Refusal::TooManyTargets(max));
    }
    let mut targets = Vec::new();
    for &t in target_ids {
        let te = entity_of(world, t).ok_or_else(|| Refusal::NoSuchCreature(Who::id(t)))?;
        if world.comp::<Stamina>(te).is_none_or(|s| s.is_dead()) {
            return Err(Refusal::Dead(Who::of(world, t)));
        }
        let ts = snapshot(world, te).ok_or_else(|| Refusal::NoSuchCreature(Who::id(t)))?;
        if !target_allowed(&ability.target.kinds, &user, &ts) {
            return Err(Refusal::WrongTarget(Who::of(world, t)));
        }
        let reach = match ability.distance {
            Distance::Myself => 0,
            d => d.reach(),
        };
        let distance = user.space.distance(ts.space);
        // Seed 002 "Slow Action": "you may choose targets that are initially
        // invalid (due to being out or range, sight, etc.)": checked when it
        // takes effect.
        let slow = ability.action == ActionType::SlowAction;
        if t != id && !slow && distance > reach {
            return Err(Refusal::OutOfRange {
                target: Who::of(world, t),
                distance,
                reach,
            });
        }
        // Seed 002 "Distances": at a "true" distance "you do not need to be
        // able to see the target".
        if t != id && !slow && !ability.true_distance && !line_of_effect(&map, user.space, ts.space)
        {
            return Err(Refusal::NoLineOfEffect(Who::of(world, t)));
        }
        if t != id
            && ts.side != user.side
            && distance > 1
            && world.comp::<Stance>(te).is_some_and(|s| s.hidden)
        {
            return Err(Refusal::HiddenTarget(Who::of(world, t)));
        }
        targets.push(ts);
    }
    // Committed from here on: spend the action and pay.
    *world.comp_mut::<TurnBudget>(entity).expect("checked") = budget;
    pay(world, entity, id, ability, spend);
    start_ability(
        world,
        entity,
        ability,
        PendingRoll {
            user: id,
            ability: ability.id.clone(),
            targets: targets.iter().map(|t| t.id).collect(),
            area: None,
            source: None,
            surges,
            potency_surges: potency_surges.to_vec(),
            tier: chosen_tier,
            extra,
        },
    );
    Ok(())
}

/// An ability roll waiting to be made: the user, the ability, and the
/// choices made when it was started. Targets are checked again when it is
/// rolled, since triggered actions may have moved or felled them.
#[derive(Clone, Debug)]
pub struct PendingRoll {
    pub user: CreatureId,
    pub ability: String,
    pub targets: Vec<CreatureId>,
    /// An area ability's placed area: its targets are whoever it reaches at
    /// the roll.
    pub area: Option<crate::map::area::Area>,
    /// Where forced movement is measured from (the user, if none).
    pub source: Option<Footprint>,
    pub surges: u32,
    /// Targets whose potency is raised by 1 for 2 surges each.
    pub potency_surges: Vec<CreatureId>,
    pub tier: Option<crate::power_roll::Tier>,
    pub extra: Vec<crate::ability::Effect>,
}

/// Passive and episodic abilities take effect on their users as the
/// encounter starts (seed 002 "Passives", "Episodics").
pub(super) fn encounter_start_abilities(world: &mut World) {
    let content = world.res::<Content>().clone();
    let entities: Vec<Entity> = all_creatures(world).collect();
    for e in entities {
        let Some(list) = world.comp::<Abilities>(e).cloned() else {
            continue;
        };
        for id in list.0.iter() {
            // (Read from the shared content, not copied: most are not.)
            let Some(a) = content.ability(id) else {
                continue;
            };
            if !a.action.at_encounter_start() {
                continue;
            }
            let Some(user) = snapshot(world, e) else {
                continue;
            };
            world.res_mut::<CombatLog>().push(LogEntry::AbilityUsed {
                creature: user.id,
                ability: a.id.clone(),
                name: a.name.clone(),
            });
            let effects = a
                .effect
                .as_ref()
                .map(|t| t.effects.clone())
                .unwrap_or_default();
            let g = apply_outcome(world, e, &user, a, &user, &effects, 0, user.space, &mut 0);
            gain_for_user(world, e, user.id, &g);
        }
    }
}

/// An ability has been started: a slow action waits for the user's next
/// turn (seed 002 "Slow Action"); anything else goes to its roll now.
fn start_ability(world: &mut World, entity: Entity, ability: &Ability, roll: PendingRoll) {
    if ability.action != ActionType::SlowAction {
        begin_roll(world, roll);
        return;
    }
    let from = world
        .comp::<Space>(entity)
        .map(|s| s.0.pos)
        .unwrap_or_default();
    world.res_mut::<CombatLog>().push(LogEntry::SlowStarted {
        creature: roll.user,
        ability: ability.name.clone(),
    });
    // Seed 002 "Triggers": reactions to "starts an ability" come "after the
    // triggering Ability has been started and its targets chosen, but
    // before its Test": for a slow action, now.
    let (user, targets) = (roll.user, roll.targets.clone());
    world.entity_mut(entity).insert(Casting {
        roll: Box::new(roll),
        from,
    });
    offer_start_triggers(world, user, &targets);
}

/// The start of the user's next turn: its slow action takes effect, unless
/// its area was anchored on the square the user has left, or the point it
/// was aimed at is now out of range (seed 002 "Slow Action": "If a Slow
/// Action targets an area, the area will not move if you move, but may
/// instead be considered invalid if you move ... Other Shapes instead target
/// a point within a certain range. For those, so long as that point remains
/// within range and targetable, the Slow Action will not be interrupted.")
fn resolve_slow(world: &mut World, entity: Entity, casting: Casting) {
    let content = world.res::<Content>().clone();
    let Some(ability) = content.ability(&casting.roll.ability) else {
        return;
    };
    let Some(space) = world.comp::<Space>(entity).map(|s| s.0) else {
        return;
    };
    let user = casting.roll.user;
    let why = match ability.distance {
        Distance::Aura(_) | Distance::Burst(_) | Distance::Cone { .. }
            if space.pos != casting.from =>
        {
            Some("its user moved off the square it came from")
        }
        Distance::Cube { within, .. }
        | Distance::Line { within, .. }
        | Distance::Sphere { within, .. }
        | Distance::Cylinder { within, .. }
            if casting
                .roll
                .source
                .is_some_and(|s| space.distance(s) > within) =>
        {
            Some("the point it was aimed at is out of range")
        }
        _ => None,
    };
    match why {
        Some(why) => world.res_mut::<CombatLog>().push(LogEntry::SlowVoid {
            creature: user,
            ability: ability.name.clone(),
            why: why.into(),
        }),
        None => {
            world.res_mut::<CombatLog>().push(LogEntry::SlowResolves {
                creature: user,
                ability: ability.name.clone(),
            });
            queue_roll(world, *casting.roll);
        }
    }
}

/// An ability has been started: queue its roll and what follows, then the
/// triggers that fire before the roll (seed 002: "starts an ability"
/// reactions "resolve before the triggering ability's roll"): a creature
/// starts an ability; each target is targeted, for itself and its allies.
fn begin_roll(world: &mut World, roll: PendingRoll) {
    let (user, targets) = (roll.user, roll.targets.clone());
    queue_roll(world, roll);
    offer_start_triggers(world, user, &targets);
}

/// Queue a roll and what follows it.
fn queue_roll(world: &mut World, roll: PendingRoll) {
    let mut res = world.res_mut::<Resolution>();
    res.push(Resume::After {
        creature: roll.user,
        ability: roll.ability.clone(),
    });
    res.push(Resume::Roll(Box::new(roll)));
}

/// Offer the triggers of an ability being started, before its roll.
fn offer_start_triggers(world: &mut World, user: CreatureId, targets: &[CreatureId]) {
    // Pushed last-asked first.
    for &t in targets.iter().rev() {
        if t == user {
            continue;
        }
        for kind in [TriggerEvent::AllyTargeted, TriggerEvent::SelfTargeted] {
            react::offer(
                world,
                Event {
                    kind,
                    actor: user,
                    subject: Some(t),
                },
            );
        }
    }
    react::offer(
        world,
        Event {
            kind: TriggerEvent::CreatureStartsAbility,
            actor: user,
            subject: None,
        },
    );
}

/// Make a waiting roll: the user must still be standing; strike targets
/// must still be alive, in reach and in line of effect; an area affects
/// whoever it reaches now.
pub(super) fn run_roll(world: &mut World, r: PendingRoll) {
    let Some(entity) = entity_of(world, r.user) else {
        return;
    };
    if world.comp::<Stamina>(entity).is_none_or(|s| !can_act(s)) {
        return;
    }
    let content = world.res::<Content>().clone();
    let Some(ability) = content.ability(&r.ability) else {
        return;
    };
    let Some(user) = snapshot(world, entity) else {
        return;
    };
    let map = world.res::<Battlefield>().0.clone();
    let mut targets = Vec::new();
    // (Who stands where is read for an area only.)
    let candidates: Vec<CreatureId> = match &r.area {
        Some(area) => area
            .creatures(&occupants(world))
            .iter()
            .map(|o| o.id)
            .collect(),
        None => r.targets.clone(),
    };
    for t in candidates {
        let Some(ts) = living_snapshot(world, t) else {
            continue;
        };
        if r.area.is_some() {
            if !target_allowed(&ability.target.kinds, &user, &ts) {
                continue;
            }
        } else if t != r.user {
            let reach = ability.distance.reach();
            if user.space.distance(ts.space) > reach
                || (!ability.true_distance && !line_of_effect(&map, user.space, ts.space))
            {
                world.res_mut::<CombatLog>().push(LogEntry::TargetLost {
                    creature: r.user,
                    target: t,
                });
                continue;
            }
        }
        targets.push(ts);
    }
    if r.area.is_some()
        && let Some(max) = ability.target.count
    {
        targets.truncate(max as usize);
    }
    // Nobody left to roll against (a strike whose targets were all lost).
    if targets.is_empty() && r.area.is_none() {
        return;
    }
    let source = r.source.unwrap_or(user.space);
    resolve_roll(
        world,
        entity,
        &user,
        ability,
        &targets,
        Choices {
            surges: r.surges,
            potency_surges: &r.potency_surges,
            tier: r.tier,
        },
        source,
        &r.extra,
    );
}

/// Pay an ability's cost (and any resource spent on "Spend X") and log its use.
fn pay(world: &mut World, entity: Entity, id: CreatureId, ability: &Ability, spend: u32) {
    let heroic_cost = match ability.cost {
        Cost::Heroic(n) => n,
        _ => 0,
    }
    .saturating_add(spend);
    match ability.cost {
        Cost::Heroic(_) | Cost::Free | Cost::Signature if heroic_cost > 0 => {
            let n = heroic_cost;
            let mut h = world.comp_mut::<Heroic>(entity).expect("checked");
            h.pay(n);
            let (resource, total) = (h.resource.clone(), h.amount);
            world.res_mut::<CombatLog>().push(LogEntry::ResourceSpent {
                creature: id,
                resource,
                amount: n,
                total,
            });
        }
        Cost::Malice(n) => world.res_mut::<Malice>().0 -= n,
        _ => {}
    }
    world.res_mut::<CombatLog>().push(LogEntry::AbilityUsed {
        creature: id,
        ability: ability.id.clone(),
        name: ability.name.clone(),
    });
    super::gather::used(world, entity, id, ability);
    ability_used_triggers(world, entity, ability);
}

/// Whether `hero` has marked `target`: any condition on it comes from the hero
/// (a censor's judgment, a tactician's mark, modelled as their effects).
fn marked_by(world: &World, target: Entity, hero: CreatureId) -> bool {
    world
        .comp::<Conditions>(target)
        .is_some_and(|c| c.list.iter().any(|a| a.source == Some(hero)))
}

/// Heroes of `side`'s opponents, with their entity, id and space.
fn heroes_with(
    world: &World,
    trigger: crate::content::ResourceTrigger,
) -> Vec<(Entity, CreatureId, Footprint)> {
    // Through a kept query (it visits only those with a heroic
    // resource), then in id order, whatever order the store keeps them in.
    let mut out = Vec::new();
    CachedQuery::<HeroData>::with(world, |q| {
        q.iter_manual(world).for_each(|(e, h, s, c, sp)| {
            if h.trigger == trigger && !s.is_dead() {
                out.push((e, c.id, sp.0));
            }
        })
    });
    out.sort_unstable_by_key(|&(_, id, _)| id);
    out
}

/// Class resource triggers that fire when a creature uses an ability
/// (RULES.md "Heroic resources": each class's own trigger, from its class file).
fn ability_used_triggers(world: &mut World, user: Entity, ability: &Ability) {
    use crate::content::ResourceTrigger as T;
    let (Some(side), Some(space)) = (
        world.comp::<Creature>(user).map(|c| c.side),
        world.comp::<Space>(user).map(|s| s.0),
    ) else {
        return;
    };
    // An enemy the hero has marked uses an ability.
    for (he, hid, _) in heroes_with(world, T::MarkedEnemyActs) {
        if world.comp::<Creature>(he).is_some_and(|c| c.side != side) && marked_by(world, user, hid)
        {
            trigger_resource(world, he, T::MarkedEnemyActs);
        }
    }
    // An enemy in the hero's aura uses a main action.
    if ability.action == ActionType::MainAction {
        let map = world.res::<Battlefield>().0.clone();
        for (he, _, hspace) in heroes_with(world, T::EnemyInAuraActs) {
            let inside = world.comp::<Auras>(he).is_some_and(|a| {
                a.0.iter().any(|a| {
                    hspace.distance(space) <= a.radius && line_of_effect(&map, hspace, space)
                })
            });
            if inside && world.comp::<Creature>(he).is_some_and(|c| c.side != side) {
                trigger_resource(world, he, T::EnemyInAuraActs);
            }
        }
    }
}

/// A creature within 10 squares of a hero scored a critical hit or was
/// reduced to 0 stamina: the "dramatic moment" trigger.
fn dramatic_moment(world: &mut World, at: Footprint) {
    use crate::content::ResourceTrigger as T;
    for (he, _, hspace) in heroes_with(world, T::DramaticMoment) {
        if hspace.distance(at) <= 10 {
            trigger_resource(world, he, T::DramaticMoment);
        }
    }
}

/// Where an area lands, and the space its forced movement is measured from.
pub(super) fn place_area(
    map: &Map,
    creatures: &[Occupant],
    user: Footprint,
    distance: Distance,
    placement: &Placement,
) -> Result<(crate::map::area::Area, Footprint), Refusal> {
    use crate::map::area;
    let bad = |e: area::PlacementError| Refusal::BadPlacement(e.to_string());
    let single = Footprint::single;
    Ok(match (distance, placement) {
        (Distance::Aura(r) | Distance::Burst(r), Placement::OnSelf) => {
            (area::burst(map, user, r), user)
        }
        (Distance::Cube { size, within }, Placement::Cube { corner }) => (
            area::cube(map, user, size, within, *corner).map_err(bad)?,
            single(*corner),
        ),
        (
            Distance::Line {
                length,
                width,
                within,
            },
            Placement::Line { start, aim },
        ) => (
            area::line(map, user, length, width, within, *start, *aim).map_err(bad)?,
            single(*start),
        ),
        (Distance::Wall { squares, within }, Placement::Wall { squares: list }) => (
            area::wall(map, user, creatures, squares, within, list).map_err(bad)?,
            user,
        ),
        (Distance::Cone { length }, Placement::Cone { aim }) => {
            (area::cone(map, user, length, *aim).map_err(bad)?, user)
        }
        (Distance::Sphere { radius, within }, Placement::Sphere { centre }) => (
            area::sphere(map, user, radius, within, *centre).map_err(bad)?,
            single(*centre),
        ),
        (Distance::Cylinder { radius, within, .. }, Placement::Sphere { centre }) => (
            area::cylinder(map, user, radius, within, *centre).map_err(bad)?,
            single(*centre),
        ),
        _ => {
            return Err(Refusal::BadPlacement(format!(
                "that placement does not fit a {distance}"
            )));
        }
    })
}

/// Roll once and resolve each target's tier (seed 000 "Roll Against
/// Multiple Creatures"). Forced movement is measured from `source`.
#[allow(clippy::too_many_arguments)]
fn resolve_roll(
    world: &mut World,
    entity: Entity,
    user: &Snapshot,
    ability: &Ability,
    targets: &[Snapshot],
    choices: Choices,
    source: Footprint,
    extra: &[crate::ability::Effect],
) {
    let Choices {
        surges,
        potency_surges,
        tier: chosen_tier,
    } = choices;
    let id = user.id;
    let map = world.res::<Battlefield>().0.clone();
    let always: Vec<crate::ability::Effect> = ability
        .effect
        .as_ref()
        .map(|e| e.effects.clone())
        .unwrap_or_default();
    let Some(power_roll) = ability.power_roll.clone() else {
        // No roll: the effect entry applies to each target as written.
        let mut effects = always;
        effects.extend_from_slice(extra);
        let mut best_gain: Option<Gains> = None;
        for target in targets {
            let gain = apply_outcome(
                world, entity, user, ability, target, &effects, 0, source, &mut 0,
            );
            if best_gain.as_ref().is_none_or(|g| gain.total > g.total) {
                best_gain = Some(gain);
            }
        }
        // What the user gains comes once (as for a roll, below).
        if let Some(g) = best_gain {
            gain_for_user(world, entity, id, &g);
        }
        return;
    };
    // One roll for all targets (seed 000 "Roll Against Multiple Creatures";
    // phased 2d6: its 2d6 and one extra die per target).
    let phased = super::phased_flow::rules(world).is_some();
    let naturals = if phased {
        let mut d = world.res_mut::<Dice>();
        [d.roll(6), d.roll(6)]
    } else {
        world.res_mut::<Dice>().roll_2d10()
    };
    let characteristic = user
        .chars
        .best_of(&power_roll.characteristics)
        .map_or(0, |(_, v)| v);
    if !phased {
        world.res_mut::<CombatLog>().push(LogEntry::Rolled {
            creature: id,
            naturals,
            characteristic,
        });
    }
    let spec = RollSpec {
        characteristic,
        main_action_ability: ability.action == ActionType::MainAction,
        ..Default::default()
    };
    let creatures = occupants(world);
    let (facts, deals_damage) = ability_facts(ability, targets.iter().map(|t| t.id));
    // Seed 002 "Component": a bane per missing component, past 3 a low score.
    let missing = ability
        .components
        .iter()
        .filter(|c| c.missing(&user.conditions))
        .count() as u32;
    let (component_banes, low_score) = crate::ability::component_penalty(missing);
    if missing > 0 {
        world
            .res_mut::<CombatLog>()
            .push(LogEntry::ComponentsMissing {
                creature: id,
                missing,
            });
    }
    let mut critical_logged = false;
    let mut best_gain: Option<Gains> = None;
    let mut surges_left = surges;
    for target in targets {
        let (edges, banes) = edges_and_banes(
            world,
            entity,
            user,
            target,
            &facts,
            &creatures,
            &map,
            deals_damage,
            &|a, b| sight(&map, a, b),
        );
        let banes = banes + component_banes;
        let result = if phased {
            // Seed 001: 2d6 + ATK against DEF; a miss does nothing.
            match super::phased_flow::attack(
                world,
                user,
                target,
                characteristic,
                (edges, banes),
                naturals,
            ) {
                Some(tier) => crate::power_roll::RollResult {
                    tier,
                    ..resolve_for_target(&spec, [1, 1], 0, 0)
                },
                None => continue,
            }
        } else {
            resolve_for_target(&spec, naturals, edges, banes)
        };
        let tier = match chosen_tier {
            _ if low_score => crate::power_roll::Tier::One,
            Some(t) if t < result.tier => t,
            _ => result.tier,
        };
        // (Phased 2d6 logged its attack line instead.)
        if !phased {
            world.res_mut::<CombatLog>().push(LogEntry::TierResult {
                target: target.id,
                total: result.total,
                tier,
                edges,
                banes,
                critical: result.critical,
            });
        }
        if result.critical && !critical_logged {
            critical_logged = true;
            dramatic_moment(world, user.space);
            world.comp_mut::<TurnBudget>(entity).expect("checked").main = true;
            world
                .res_mut::<CombatLog>()
                .push(LogEntry::CriticalHit { creature: id });
        }
        // Seed 000 "Surges": 2 surges raise the potency by 1 for one target.
        let potency_bonus = if potency_surges.contains(&target.id) {
            if let Some(mut h) = world.comp_mut::<Heroic>(entity) {
                h.surges = h.surges.saturating_sub(2);
            }
            1
        } else {
            0
        };
        let mut effects = power_roll.tier(tier).effects.clone();
        effects.extend(always.iter().cloned());
        effects.extend_from_slice(extra);
        // For seed 002's shifted saves: what this target's roll was.
        world.insert_resource(RollFacts {
            tier,
            critical: result.critical,
            fumble: naturals == [1, 1],
        });
        let gain = apply_outcome(
            world,
            entity,
            user,
            ability,
            target,
            &effects,
            potency_bonus,
            source,
            &mut surges_left,
        );
        // Gains go to the user once, not once per target (seed 000 "Abilities
        // With Damage and Effects"): keep the best tier's.
        if best_gain.as_ref().is_none_or(|g| gain.total > g.total) {
            best_gain = Some(gain);
        }
    }
    world.remove_resource::<RollFacts>();
    if let Some(g) = best_gain {
        gain_for_user(world, entity, id, &g);
    }
    // Using an ability on an enemy gives a hidden creature away.
    if targets.iter().any(|t| t.side != user.side) {
        reveal(world, entity, id);
    }
}

/// What an ability is, for the edge and bane rules, and whether cover
/// matters: only when a tier deals damage, and never at a "true" distance
/// (seed 002 "Distances": the target "cannot benefit from taking cover").
pub(super) fn ability_facts(
    ability: &Ability,
    targets: impl IntoIterator<Item = CreatureId>,
) -> (AbilityFacts, bool) {
    let facts = AbilityFacts {
        strike: ability.is_strike(),
        melee: ability.has(Keyword::Melee) || matches!(ability.distance, Distance::Melee(_)),
        ranged: ability.has(Keyword::Ranged) || matches!(ability.distance, Distance::Ranged(_)),
        targets: targets.into_iter().collect(),
    };
    let deals_damage = ability.power_roll.as_ref().is_some_and(|p| {
        [&p.tiers.0, &p.tiers.1, &p.tiers.2].iter().any(|t| {
            t.effects
                .iter()
                .any(|e| matches!(e, crate::ability::Effect::Damage { .. }))
        })
    });
    (facts, deals_damage && !ability.true_distance)
}

/// The edges and banes on one target of a roll: conditions (RULES.md "Edges
/// and banes", seed 000 "Conditions"), flanking, cover, surprise, high
/// ground, and our Defend and Hide rulings. `see` is [`sight`] on `map`
/// (a forecaster hands over the sights it keeps).
#[allow(clippy::too_many_arguments)]
pub(super) fn edges_and_banes(
    world: &World,
    entity: Entity,
    user: &Snapshot,
    target: &Snapshot,
    facts: &AbilityFacts,
    creatures: &[Occupant],
    map: &Map,
    deals_damage: bool,
    see: &dyn Fn(Footprint, Footprint) -> crate::map::Sight,
) -> (u32, u32) {
    let taunter_seen = user
        .conditions
        .source_of(ConditionKind::Taunted)
        .and_then(|t| creatures.iter().find(|o| o.id == t))
        .is_some_and(|o| see(user.space, o.space) != crate::map::Sight::Blocked);
    let around = Surroundings {
        enemy_adjacent_to_attacker: creatures
            .iter()
            .any(|o| o.side != user.side && o.space.distance(user.space) == 1),
        line_of_effect_to_taunter: taunter_seen,
    };
    let mods = roll_modifiers(
        Party {
            id: user.id,
            conditions: &user.conditions,
        },
        Party {
            id: target.id,
            conditions: &target.conditions,
        },
        facts,
        around,
    );
    let mut edges = mods.edge_count();
    let mut banes = mods.bane_count();
    if facts.melee && facts.strike && flanked(user, target, creatures) {
        edges += 1;
    }
    if deals_damage && target.id != user.id && see(user.space, target.space) == Sight::Cover {
        banes += 1;
    }
    // RULES.md "Turns": rolls against surprised creatures gain an edge
    // until the end of round 1.
    if surprised_side(world) == Some(target.side) {
        edges += 1;
    }
    // RULES.md "Flanking": "High ground gives an edge" (the user stands
    // higher than the target).
    if target.id != user.id && map.elevation(user.space) > map.elevation(target.space) {
        edges += 1;
    }
    // Our rulings: a defending target imposes banes; a hidden user gains
    // an edge against enemies.
    if target.id != user.id
        && world
            .comp::<Stance>(target.entity)
            .is_some_and(|s| s.defending)
    {
        banes += world.res::<super::flow::ActiveRuleset>().0.defend_banes;
    }
    if target.side != user.side && world.comp::<Stance>(entity).is_some_and(|s| s.hidden) {
        edges += 1;
    }
    (edges, banes)
}

/// The roll being applied to a target (for seed 002's shifted saves).
#[derive(Resource, Clone, Copy, Debug)]
pub(super) struct RollFacts {
    tier: crate::power_roll::Tier,
    critical: bool,
    /// Both dice showed 1: the seed's "Critical Failure".
    fumble: bool,
}

/// What a command chose about an ability's roll.
struct Choices<'a> {
    surges: u32,
    potency_surges: &'a [CreatureId],
    tier: Option<crate::power_roll::Tier>,
}

/// Apply one target's effects: damage (with surges spent on the first
/// target that takes damage), then forced movement and conditions in the
/// order presented. Returns what the user gains from it.
#[allow(clippy::too_many_arguments)]
pub(super) fn apply_outcome(
    world: &mut World,
    entity: Entity,
    user: &Snapshot,
    ability: &Ability,
    target: &Snapshot,
    effects: &[crate::ability::Effect],
    potency_bonus: i32,
    source: Footprint,
    surges_left: &mut u32,
) -> Gains {
    let mut outcome = evaluate(effects, &user.chars, &target.chars, potency_bonus);
    // Damage of one type is one instance (immunity applies once).
    let mut merged: Vec<(i32, DamageType)> = Vec::new();
    for (amount, t) in outcome.damage.drain(..) {
        match merged.iter_mut().find(|(_, mt)| *mt == t) {
            Some(m) => m.0 += amount,
            None => merged.push((amount, t)),
        }
    }
    outcome.damage = merged;
    // Seed 004 "Shield": an attack's damage (an ability with a power roll)
    // is reduced by the target's shields, once per attack.
    let attack = ability.power_roll.is_some() && target.id != user.id;
    let mut shield = if attack && !outcome.damage.is_empty() {
        shield_against_attack(world, target)
    } else {
        0
    };
    // Seed 000 "Surges": each surge deals extra damage equal to the highest
    // characteristic, to one creature targeted.
    for (i, (amount, t)) in outcome.damage.iter().enumerate() {
        let mut amount = *amount;
        if shield > 0 {
            let stopped = shield.min(amount.max(0));
            amount -= stopped;
            shield -= stopped;
            if stopped > 0 {
                world.res_mut::<CombatLog>().push(LogEntry::Shielded {
                    creature: target.id,
                    prevented: stopped,
                });
            }
        }
        if i == 0 && *surges_left > 0 {
            let n = (*surges_left).min(3);
            amount += n as i32 * user.chars.highest();
            if let Some(mut h) = world.comp_mut::<Heroic>(entity) {
                h.surges = h.surges.saturating_sub(n);
            }
            *surges_left = 0;
            trigger_resource(world, entity, crate::content::ResourceTrigger::SurgeSpent);
        }
        deal_damage(world, target.entity, target.id, amount, *t, Some(user.id));
    }
    // Effects happen after damage, in the order presented, to a target the
    // damage left alive: the dead are moved by nothing (a minion's fall
    // would take more of its squad's pool) and take no conditions or help.
    if world
        .comp::<Stamina>(target.entity)
        .is_some_and(|s| !s.is_dead())
    {
        effects_after_damage(world, user, ability, target, source, &outcome);
    }
    if attack {
        retaliate(world, entity, user.id, target);
    }
    Gains {
        total: outcome.surges + outcome.resources.iter().map(|(_, n)| n).sum::<u32>(),
        surges: outcome.surges,
        resources: outcome.resources,
        summons: outcome.summons,
        loot: outcome.loot,
        recover: outcome.recover,
        refresh: outcome.refresh,
        signals: outcome.signals,
        prepare: outcome.prepare,
    }
}

/// An outcome's forced movement, conditions and help, in that order, on a
/// target the damage left standing.
fn effects_after_damage(
    world: &mut World,
    user: &Snapshot,
    ability: &Ability,
    target: &Snapshot,
    source: Footprint,
    outcome: &crate::ability::TierOutcome,
) {
    for f in outcome.forced.iter().filter(|f| f.applies) {
        force_move(world, user, source, target, f.kind, f.distance, f.vertical);
    }
    for c in &outcome.conditions {
        for &kind in &c.conditions {
            if !c.applies {
                world
                    .res_mut::<CombatLog>()
                    .push(LogEntry::ConditionResisted {
                        target: target.id,
                        condition: kind,
                    });
                continue;
            }
            impose(
                world,
                target.entity,
                target.id,
                user.id,
                &ability.id,
                kind,
                c.duration,
            );
        }
    }
    support(
        world,
        target,
        outcome,
        (user.id, &ability.id, &ability.name),
    );
}

/// The effects that help their target: stamina regained, temporary stamina,
/// surges granted, active bonuses, a shift toward the enemy and a free
/// strike (in that order).
fn support(
    world: &mut World,
    target: &Snapshot,
    outcome: &crate::ability::TierOutcome,
    (user, ability_id, ability_name): (CreatureId, &str, &str),
) {
    let alive = |w: &World| {
        w.comp::<Stamina>(target.entity)
            .is_some_and(|s| !s.is_dead())
    };
    if !alive(world) {
        return;
    }
    if outcome.heal > 0 {
        heal(world, target.entity, target.id, outcome.heal as i32);
    }
    if outcome.temporary > 0
        && let Some(mut st) = world.comp_mut::<Stamina>(target.entity)
    {
        st.gain_temporary(outcome.temporary as i32);
        world
            .res_mut::<CombatLog>()
            .push(LogEntry::TemporaryStamina {
                creature: target.id,
                amount: outcome.temporary as i32,
            });
    }
    if outcome.grant_surges > 0
        && let Some(mut h) = world.comp_mut::<Heroic>(target.entity)
    {
        h.surges += outcome.grant_surges;
        let total = h.surges;
        world.res_mut::<CombatLog>().push(LogEntry::SurgesGained {
            creature: target.id,
            amount: outcome.grant_surges,
            total,
        });
    }
    for spec in &outcome.bonuses {
        let bonus = ActiveBonus {
            kind: spec.kind,
            lasts: spec.lasts,
            uses_left: match spec.lasts {
                crate::ability::BonusLasts::Charges(n) => Some(n),
                _ => None,
            },
            ability: ability_name.to_string(),
            source: Some(user),
            from: ability_id.to_string(),
        };
        match world.comp_mut::<Bonuses>(target.entity) {
            Some(mut b) => b.gain(bonus),
            None => {
                world.entity_mut(target.entity).insert(Bonuses(vec![bonus]));
            }
        }
        world.res_mut::<CombatLog>().push(LogEntry::BonusGained {
            creature: target.id,
            bonus: bonus_text(spec),
        });
    }
    if outcome.shift > 0 {
        granted_shift(world, target.entity, target.id, outcome.shift);
    }
    if outcome.free_strike && alive(world) {
        granted_strike(world, target.entity, target.id);
    }
}

/// The shield a target has against one attack; persistent shields spend a use.
fn shield_against_attack(world: &mut World, target: &Snapshot) -> i32 {
    let Some(mut b) = world.comp_mut::<Bonuses>(target.entity) else {
        return 0;
    };
    let n = b.shield() as i32;
    if n == 0 {
        return 0;
    }
    let ended = b.use_up(|x| matches!(x.kind, crate::ability::BonusKind::Shield(_)));
    for ability in ended {
        world.res_mut::<CombatLog>().push(LogEntry::BonusEnded {
            creature: target.id,
            ability,
        });
    }
    n
}

/// Seed 004 "Retaliate": after the attack, unless the target fell, X damage
/// to the attacker if within the retaliation's range; not an attack.
fn retaliate(world: &mut World, attacker: Entity, attacker_id: CreatureId, target: &Snapshot) {
    let standing = world
        .comp::<Stamina>(target.entity)
        .is_some_and(|s| matches!(s.health(), Health::Healthy | Health::Winded));
    if !standing {
        return;
    }
    let (Some(a), Some(t)) = (
        world.comp::<Space>(attacker).map(|s| s.0),
        world.comp::<Space>(target.entity).map(|s| s.0),
    ) else {
        return;
    };
    let distance = a.distance(t);
    let Some(mut b) = world.comp_mut::<Bonuses>(target.entity) else {
        return;
    };
    let amount = b.retaliation(distance) as i32;
    if amount == 0 {
        return;
    }
    let ended = b.use_up(|x| {
        matches!(x.kind, crate::ability::BonusKind::Retaliate { range, .. } if distance <= range)
    });
    world.res_mut::<CombatLog>().push(LogEntry::Retaliated {
        creature: target.id,
        attacker: attacker_id,
        amount,
    });
    deal_damage(
        world,
        attacker,
        attacker_id,
        amount,
        DamageType::Untyped,
        Some(target.id),
    );
    for ability in ended {
        world.res_mut::<CombatLog>().push(LogEntry::BonusEnded {
            creature: target.id,
            ability,
        });
    }
}

/// A bonus in words, for the log ("shield 2 until the end of the round").
pub fn bonus_text(b: &crate::ability::BonusSpec) -> String {
    use crate::ability::{BonusKind, BonusLasts};
    let what = match b.kind {
        BonusKind::Shield(n) => format!("shield {n}"),
        BonusKind::Retaliate { amount, range: 1 } => format!("retaliate {amount}"),
        BonusKind::Retaliate { amount, range } => format!("retaliate {amount} (range {range})"),
    };
    let how = match b.lasts {
        BonusLasts::Round => " until the end of the round".to_string(),
        BonusLasts::Encounter => String::new(),
        BonusLasts::Charges(n) => format!(" for {n} use{}", if n == 1 { "" } else { "s" }),
    };
    format!("{what}{how}")
}

/// Regain stamina up to the maximum (a dying hero too; not the dead).
pub(super) fn heal(world: &mut World, entity: Entity, id: CreatureId, amount: i32) {
    let Some(mut st) = world.comp_mut::<Stamina>(entity) else {
        return;
    };
    if st.is_dead() {
        return;
    }
    let before = st.current;
    st.heal(amount);
    let (gained, now) = (st.current - before, st.current);
    if gained <= 0 {
        return;
    }
    world.res_mut::<CombatLog>().push(LogEntry::Healed {
        creature: id,
        amount: gained,
        stamina: now,
    });
    ally_healed(world, entity);
    // Seed 002: a locked Stamina point bank is affected "up or down".
    super::concentration::affected(world, id, &[crate::ability::Component::Stamina]);
}

/// A granted shift: up to `n` squares without provoking, to the square
/// nearest an enemy (fewest squares spent on ties). Stays put if no square
/// brings it closer.
fn granted_shift(world: &mut World, entity: Entity, id: CreatureId, n: u32) {
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
    let enemies: Vec<Footprint> = creatures
        .iter()
        .filter(|o| o.side != side)
        .map(|o| o.space)
        .collect();
    if enemies.is_empty() {
        return;
    }
    // Nearest by the grid's distance, then by the straighter line.
    let nearest = |f: Footprint| {
        enemies
            .iter()
            .map(|e| {
                let (dx, dy) = (f.pos.x - e.pos.x, f.pos.y - e.pos.y);
                (f.distance(*e), dx.abs() + dy.abs())
            })
            .min()
            .unwrap_or((0, 0))
    };
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
    world.res_mut::<CombatLog>().push(LogEntry::Moved {
        creature: id,
        path,
        shift: true,
    });
    check_grabs(world);
}

/// A granted free strike: against the adjacent enemy with the least stamina.
fn granted_strike(world: &mut World, entity: Entity, id: CreatureId) {
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
    world.res_mut::<CombatLog>().push(LogEntry::GrantedStrike {
        creature: id,
        target: tid,
    });
    free_strike_hits(world, entity, id, te, tid);
}

/// A free strike lands: its damage less the target's shields (a free strike
/// is an attack, seed 004), then the target's retaliation.
fn free_strike_hits(
    world: &mut World,
    attacker: Entity,
    attacker_id: CreatureId,
    target: Entity,
    target_id: CreatureId,
) {
    // Phased 2d6: a free strike is an attack roll too.
    if !super::phased_flow::free_strike_lands(world, attacker, target) {
        return;
    }
    let mut damage = free_strike_damage(world, attacker);
    let ts = snapshot(world, target);
    if let Some(t) = &ts {
        let shield = shield_against_attack(world, t);
        let stopped = shield.min(damage);
        if stopped > 0 {
            damage -= stopped;
            world.res_mut::<CombatLog>().push(LogEntry::Shielded {
                creature: target_id,
                prevented: stopped,
            });
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

/// The talent's cost: at the end of its turn, 1 damage per point below 0.
pub(super) fn strain(world: &mut World, ended: &[CreatureId]) {
    for &id in ended {
        let Some(e) = entity_of(world, id) else {
            continue;
        };
        let n = world.comp::<Heroic>(e).map_or(0, |h| h.strain) as i32;
        if n > 0 && world.comp::<Stamina>(e).is_some_and(|s| !s.is_dead()) {
            world.res_mut::<CombatLog>().push(LogEntry::Strained {
                creature: id,
                amount: n,
            });
            deal_damage(world, e, id, n, DamageType::Untyped, None);
        }
    }
}

/// What one target's tier gives the user.
pub(super) struct Gains {
    total: u32,
    surges: u32,
    resources: Vec<(String, u32)>,
    /// Seed 004's effects on the user: summons, loot, recover, refresh.
    summons: Vec<String>,
    loot: Option<u32>,
    recover: u32,
    refresh: u32,
    signals: Vec<String>,
    prepare: Vec<(String, crate::ability::Prepared)>,
}

/// Apply an ability's gains to its user: surges, its heroic resource, or
/// the Director's Malice.
fn gain_for_user(world: &mut World, entity: Entity, id: CreatureId, gains: &Gains) {
    let (surges, resources) = (gains.surges, &gains.resources);
    for stat_block in &gains.summons {
        super::summon::summon(world, entity, stat_block);
    }
    if let Some(range) = gains.loot {
        super::gather::loot(world, entity, id, range);
    }
    if gains.recover > 0 {
        super::gather::recover(world, entity, id, gains.recover, false);
    }
    if gains.refresh > 0 {
        super::gather::recover(world, entity, id, gains.refresh, true);
    }
    for command in &gains.signals {
        super::glyph::signal(world, id, command);
    }
    for (ability, lasts) in &gains.prepare {
        super::gather::prepare(world, entity, id, ability, *lasts);
    }
    if surges > 0
        && let Some(mut h) = world.comp_mut::<Heroic>(entity)
    {
        h.surges += surges;
        let total = h.surges;
        world.res_mut::<CombatLog>().push(LogEntry::SurgesGained {
            creature: id,
            amount: surges,
            total,
        });
    }
    for (name, amount) in resources {
        if name == "malice" {
            let mut m = world.res_mut::<Malice>();
            m.0 += amount;
            let total = m.0;
            world.res_mut::<CombatLog>().push(LogEntry::MaliceGained {
                amount: *amount,
                total,
            });
        } else if let Some(mut h) = world
            .comp_mut::<Heroic>(entity)
            .filter(|h| &h.resource == name)
        {
            h.gain(*amount);
            let (resource, total) = (h.resource.clone(), h.amount);
            world.res_mut::<CombatLog>().push(LogEntry::ResourceGained {
                creature: id,
                resource,
                amount: *amount,
                total,
            });
        }
    }
}

fn impose(
    world: &mut World,
    entity: Entity,
    id: CreatureId,
    source: CreatureId,
    ability: &str,
    kind: ConditionKind,
    duration: Duration,
) {
    if world.comp::<Stamina>(entity).is_none_or(|s| s.is_dead()) {
        return;
    }
    if kind == ConditionKind::Grabbed && source != id {
        // Seed 000 "Grabbed": "A creature can grab only creatures of their
        // size or smaller. If a creature's Might score is 2 or higher, they
        // can grab any creature larger than them with a size equal to or less
        // than their Might score." "Unless otherwise indicated, a creature can
        // grab only one creature at a time": grabbing another lets go of the first.
        let Some(se) = entity_of(world, source) else {
            return;
        };
        let size = |e: Entity| world.comp::<Space>(e).map_or(1, |s| s.0.size);
        let might = world.comp::<Characteristics>(se).map_or(0, |c| c.might);
        let (theirs, mine) = (size(entity), size(se));
        if theirs > mine && !(might >= 2 && theirs as i32 <= might) {
            world
                .res_mut::<CombatLog>()
                .push(LogEntry::ConditionResisted {
                    target: id,
                    condition: kind,
                });
            return;
        }
        for (other, oe) in grabbed_by(world, source) {
            if other != id {
                release(world, oe, other, source);
            }
        }
    }
    // Seed 002 "Ability Saves": "[0!] Critical Failure. The target
    // automatically Passes their Save" (nothing is imposed); the other
    // scores shift the saves.
    let shifted = duration == Duration::SaveEnds
        && world
            .res::<Content>()
            .ability(ability)
            .is_some_and(|a| a.shifted_saves);
    let save_shift = match world.get_res::<RollFacts>() {
        Some(f) if shifted => crate::conditions::SaveShift::from_roll(f.tier, f.critical, f.fumble),
        _ => Some(crate::conditions::SaveShift::None),
    };
    let Some(save_shift) = save_shift else {
        world
            .res_mut::<CombatLog>()
            .push(LogEntry::ConditionResisted {
                target: id,
                condition: kind,
            });
        return;
    };
    let Some(mut conditions) = world.comp_mut::<Conditions>(entity) else {
        return;
    };
    let applied = conditions.apply(ActiveCondition {
        kind,
        duration,
        source: Some(source),
        ability: Some(ability.to_string()),
        save_shift,
    });
    if !matches!(applied, Applied::Refused(_)) {
        if kind == ConditionKind::Grabbed
            && let Some(mut g) = world.get_res_mut::<Grabs>()
        {
            g.0.add(entity);
        }
        world
            .res_mut::<CombatLog>()
            .push(LogEntry::ConditionGained {
                target: id,
                condition: kind,
                duration: duration.to_string(),
            });
        // Seed 002 "Component": knocked prone, grabbed or restrained, the
        // creature's lasting abilities that need standing or hands shake.
        if let Some(c) = crate::ability::Component::affected_by(kind) {
            super::concentration::affected(world, id, &[c]);
        }
    }
}

fn force_move(
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
        world.res_mut::<CombatLog>().push(LogEntry::ForceMoved {
            target: target.id,
            path: result.path.clone(),
        });
        trigger_resource(
            world,
            user.entity,
            crate::content::ResourceTrigger::ForceMoves,
        );
    }
    // Collisions and falls: untyped, no dealer as the rules count it, the
    // pusher credited in the log.
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
    for e in &result.events {
        match *e {
            ForcedEvent::CollidedWithCreature { other, damage, .. } => {
                world.res_mut::<CombatLog>().push(LogEntry::Collision {
                    target: target.id,
                    other: Some(other),
                    damage,
                });
                pushed_into(world, target.entity, target.id, damage);
                if let Some(oe) = entity_of(world, other) {
                    pushed_into(world, oe, other, damage);
                }
            }
            ForcedEvent::CollidedWithObstacle { damage, .. }
            | ForcedEvent::BrokeThrough { damage, .. } => {
                world.res_mut::<CombatLog>().push(LogEntry::Collision {
                    target: target.id,
                    other: None,
                    damage,
                });
                pushed_into(world, target.entity, target.id, damage);
            }
            ForcedEvent::Fell { depth, damage, .. } => {
                world.res_mut::<CombatLog>().push(LogEntry::Fell {
                    target: target.id,
                    depth,
                    damage,
                });
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

/// Spend the action for a basic maneuver or main action, or refuse.
fn spend(world: &mut World, entity: Entity, action: ActionType) -> Result<(), Refusal> {
    let conditions = world
        .comp::<Conditions>(entity)
        .cloned()
        .unwrap_or_default();
    let mut budget = *world
        .comp::<TurnBudget>(entity)
        .ok_or(Refusal::NoTurnInProgress)?;
    spend_action(&mut budget, &conditions, action)?;
    *world.comp_mut::<TurnBudget>(entity).expect("checked") = budget;
    Ok(())
}

/// The damage of a creature's free strike: its free strike value, plus the
/// higher of Might and Agility for a hero.
pub(super) fn free_strike_damage(world: &World, entity: Entity) -> i32 {
    let chars = world
        .comp::<Characteristics>(entity)
        .copied()
        .unwrap_or_default();
    let base = world.comp::<FreeStrike>(entity).map_or(2, |f| f.0);
    let hero = world.comp::<Heroic>(entity).is_some();
    base + if hero {
        chars.might.max(chars.agility)
    } else {
        0
    }
}

fn free_strike(
    world: &mut World,
    entity: Entity,
    id: CreatureId,
    target: CreatureId,
) -> Result<(), Refusal> {
    let te = entity_of(world, target).ok_or_else(|| Refusal::NoSuchCreature(Who::id(target)))?;
    if world.comp::<Stamina>(te).is_none_or(|s| s.is_dead()) {
        return Err(Refusal::Dead(Who::of(world, target)));
    }
    if target == id {
        return Err(Refusal::WrongTarget(Who::of(world, target)));
    }
    let (Some(us), Some(ts)) = (
        world.comp::<Space>(entity).map(|s| s.0),
        world.comp::<Space>(te).map(|s| s.0),
    ) else {
        return Err(Refusal::NoSuchCreature(Who::id(target)));
    };
    let distance = us.distance(ts);
    if distance > 1 {
        return Err(Refusal::OutOfRange {
            target: Who::of(world, target),
            distance,
            reach: 1,
        });
    }
    spend(world, entity, ActionType::MainAction)?;
    world.res_mut::<CombatLog>().push(LogEntry::AbilityUsed {
        creature: id,
        ability: "free_strike".into(),
        name: "Free Strike".into(),
    });
    free_strike_hits(world, entity, id, te, target);
    reveal(world, entity, id);
    bleed(world, entity);
    Ok(())
}

/// A glyph's effect on one creature: damage and conditions, from the
/// glyph's maker (or the creature itself, for a map's trap).
pub(super) fn glyph_effect(
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
                world
                    .res_mut::<CombatLog>()
                    .push(LogEntry::ConditionResisted {
                        target: ts.id,
                        condition: kind,
                    });
            }
        }
    }
}

/// A summon's "Attack+0": a melee free strike that spends nothing.
pub(super) fn summon_strike(world: &mut World, entity: Entity, id: CreatureId, target: CreatureId) {
    let Some(te) = entity_of(world, target) else {
        return;
    };
    world.res_mut::<CombatLog>().push(LogEntry::AbilityUsed {
        creature: id,
        ability: "free_strike".into(),
        name: "Free Strike".into(),
    });
    free_strike_hits(world, entity, id, te, target);
}

/// Seed 000 "Prone": "a prone creature can stand up using the Stand Up
/// maneuver"; "Restrained": "can't use the Stand Up maneuver".
fn stand_up(world: &mut World, entity: Entity) -> Result<(), Refusal> {
    let conditions = world
        .comp::<Conditions>(entity)
        .cloned()
        .unwrap_or_default();
    if !conditions.has(ConditionKind::Prone) {
        return Err(Refusal::NotProne);
    }
    if conditions.has(ConditionKind::Restrained) {
        return Err(Refusal::CannotStand("restrained"));
    }
    if conditions.has(ConditionKind::CantStand) {
        return Err(Refusal::CannotStand("can't stand until the effect ends"));
    }
    spend(world, entity, ActionType::Maneuver)?;
    let id = world
        .comp::<Creature>(entity)
        .map(|c| c.id)
        .expect("a creature");
    world
        .comp_mut::<Conditions>(entity)
        .expect("checked")
        .remove(ConditionKind::Prone);
    world.res_mut::<CombatLog>().push(LogEntry::ConditionEnded {
        target: id,
        condition: ConditionKind::Prone,
    });
    Ok(())
}

/// RULES.md "Stamina": "the Catch Breath maneuver spends a recovery to heal
/// [the recovery value]"; a dying hero can't Catch Breath.
fn catch_breath(world: &mut World, entity: Entity, id: CreatureId) -> Result<(), Refusal> {
    let stamina = world
        .comp::<Stamina>(entity)
        .cloned()
        .ok_or_else(|| Refusal::NoSuchCreature(Who::id(id)))?;
    if world.comp::<Heroic>(entity).is_none() {
        return Err(Refusal::CannotCatchBreath("only heroes have recoveries"));
    }
    if stamina.health() == Health::Dying {
        return Err(Refusal::CannotCatchBreath("dying"));
    }
    if stamina.recoveries == 0 {
        return Err(Refusal::CannotCatchBreath("no recoveries left"));
    }
    spend(world, entity, ActionType::Maneuver)?;
    let mut s = world.comp_mut::<Stamina>(entity).expect("checked");
    s.recoveries -= 1;
    let value = s.recovery_value();
    heal(world, entity, id, value);
    Ok(())
}

/// Escape Grab: a power roll with the better of Might and Agility; tier 2
/// or 3 ends the grab (the grabber's free strike on tier 2 is not modelled yet).
fn escape_grab(world: &mut World, entity: Entity, id: CreatureId) -> Result<(), Refusal> {
    let conditions = world
        .comp::<Conditions>(entity)
        .cloned()
        .unwrap_or_default();
    let Some(grabber) = conditions.source_of(ConditionKind::Grabbed) else {
        return Err(Refusal::NotGrabbed);
    };
    spend(world, entity, ActionType::Maneuver)?;
    let chars = world
        .comp::<Characteristics>(entity)
        .copied()
        .unwrap_or_default();
    let naturals = world.res_mut::<Dice>().roll_2d10();
    let characteristic = chars.might.max(chars.agility);
    let result = crate::power_roll::resolve(
        &RollSpec {
            characteristic,
            ..Default::default()
        },
        naturals,
    );
    let mut log = world.res_mut::<CombatLog>();
    log.push(LogEntry::AbilityUsed {
        creature: id,
        ability: "escape_grab".into(),
        name: "Escape Grab".into(),
    });
    log.push(LogEntry::Rolled {
        creature: id,
        naturals,
        characteristic,
    });
    world.res_mut::<CombatLog>().push(LogEntry::TierResult {
        target: id,
        total: result.total,
        tier: result.tier,
        edges: 0,
        banes: 0,
        critical: false,
    });
    // Our ruling, after the published Escape Grab: on tier 2 the grabber may
    // make a free strike against the escaping creature before it gets free;
    // on tier 3 it simply escapes.
    if result.tier == crate::power_roll::Tier::Two
        && let Some(ge) = entity_of(world, grabber)
        && world.comp::<Stamina>(ge).is_some_and(can_act)
    {
        world.res_mut::<CombatLog>().push(LogEntry::AbilityUsed {
            creature: grabber,
            ability: "free_strike".into(),
            name: "Free Strike".into(),
        });
        free_strike_hits(world, ge, grabber, entity, id);
    }
    if result.tier >= crate::power_roll::Tier::Two {
        release(world, entity, id, grabber);
    }
    bleed(world, entity);
    Ok(())
}

/// The side that is wholly surprised, while it still is (round 1).
pub fn surprised_side(world: &World) -> Option<Side> {
    world.res::<Flow>().surprised_now()
}

/// Seed 000 "Bleeding": "whenever they use a main action, use a triggered
/// action, or make a test or ability roll using Might or Agility, they lose
/// Stamina equal to 1d6 + their level after [it] is resolved ... only happens
/// once per action." RULES.md: a dying hero bleeds too.
fn bleed(world: &mut World, entity: Entity) {
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
        world.res_mut::<CombatLog>().push(LogEntry::Bled {
            creature: id,
            amount: loss,
            stamina_left: left,
        });
        squad_deaths(world, entity, None);
        return;
    }
    let mut s = world.comp_mut::<Stamina>(entity).expect("checked");
    let before = s.health();
    s.lose(loss);
    let (after, left) = (s.health(), s.current);
    let mut log = world.res_mut::<CombatLog>();
    log.push(LogEntry::Bled {
        creature: id,
        amount: loss,
        stamina_left: left,
    });
    if after == Health::Dead && before != Health::Dead {
        log.push(LogEntry::Died { creature: id, name });
    }
}

/// Whether an action makes a bleeding creature bleed: a main action, a
/// triggered action, or a roll with Might or Agility.
fn action_bleeds(action: ActionType, characteristics: &[crate::stats::Characteristic]) -> bool {
    use crate::stats::Characteristic as C;
    action == ActionType::MainAction
        || action.is_triggered()
        || characteristics
            .iter()
            .any(|c| matches!(c, C::Might | C::Agility))
}

/// A hero's own resource trigger fires, at most once a round.
fn trigger_resource(world: &mut World, entity: Entity, which: crate::content::ResourceTrigger) {
    let round = world.res::<Flow>().round;
    let Some(id) = world.comp::<Creature>(entity).map(|c| c.id) else {
        return;
    };
    let Some(mut h) = world.comp_mut::<Heroic>(entity) else {
        return;
    };
    if h.trigger != which || h.trigger_round == round {
        return;
    }
    h.trigger_round = round;
    let n = h.trigger_amount;
    h.gain(n);
    let (resource, amount, total) = (h.resource.clone(), h.trigger_amount, h.amount);
    world.res_mut::<CombatLog>().push(LogEntry::ResourceGained {
        creature: id,
        resource,
        amount,
        total,
    });
}

/// A creature regained stamina: heroes whose trigger is an ally within 10
/// squares regaining stamina gain their resource.
fn ally_healed(world: &mut World, healed: Entity) {
    let (Some(side), Some(space)) = (
        world.comp::<Creature>(healed).map(|c| c.side),
        world.comp::<Space>(healed).map(|s| s.0),
    ) else {
        return;
    };
    let mut q = world.query::<(Entity, &Creature, &Space)>();
    let allies: Vec<Entity> = q
        .iter(world)
        .filter(|(e, c, s)| *e != healed && c.side == side && s.0.distance(space) <= 10)
        .map(|(e, _, _)| e)
        .collect();
    for a in allies {
        trigger_resource(world, a, crate::content::ResourceTrigger::AllyHealed);
    }
}

/// What follows any ability: bleeding, if the action makes it.
pub(super) fn after_ability(world: &mut World, id: CreatureId, ability: &str) {
    let Some(entity) = entity_of(world, id) else {
        return;
    };
    let content = world.res::<Content>().clone();
    let Some(ability) = content.ability(ability) else {
        return;
    };
    let characteristics = ability
        .power_roll
        .as_ref()
        .map(|p| p.characteristics.clone())
        .unwrap_or_default();
    if action_bleeds(ability.action, &characteristics) {
        bleed(world, entity);
    }
}

/// RULES.md "Charge" (main action): "move up to your speed in a straight line
/// (no difficult terrain, no shifting) then make a melee free strike or use an
/// ability with the Charge keyword against a creature you reached."
/// Everything that can be checked before moving is checked first, so a
/// refused charge changes nothing.
fn charge(
    world: &mut World,
    entity: Entity,
    id: CreatureId,
    path: &[Pos],
    target: CreatureId,
    ability: Option<&str>,
) -> Result<(), Refusal> {
    let conditions = world
        .comp::<Conditions>(entity)
        .cloned()
        .unwrap_or_default();
    let mut budget = *world
        .comp::<TurnBudget>(entity)
        .ok_or(Refusal::NoTurnInProgress)?;
    spend_action(&mut budget, &conditions, ActionType::MainAction)?;
    let user = snapshot(world, entity).ok_or_else(|| Refusal::NoSuchCreature(Who::id(id)))?;
    if !is_straight(path.iter().copied()) {
        return Err(Refusal::BadPath("a charge moves in a straight line".into()));
    }
    let creatures = occupants(world);
    let map = world.res::<Battlefield>().0.clone();
    let speed = world.comp::<Movement>(entity).map_or(0, |m| m.speed);
    let limits = movement_limits(&conditions, speed_with_grab(world, entity, speed));
    let mover = Mover {
        id,
        space: user.space,
        side: user.side,
        speed: limits.speed,
        extra_cost: limits.extra_cost_per_square,
        shifting: false,
    };
    let steps = path.len().saturating_sub(1) as u32;
    match path_cost(&map, &creatures, &mover, path) {
        None => {
            return Err(Refusal::BadPath(
                "a step is blocked, not adjacent, or ends in a creature".into(),
            ));
        }
        Some(cost) if cost > steps => {
            return Err(Refusal::BadPath(
                "a charge can't cross difficult terrain".into(),
            ));
        }
        Some(cost) if cost > limits.speed => {
            return Err(Refusal::TooFar {
                cost,
                speed: limits.speed,
            });
        }
        _ => {}
    }
    let end = Footprint::new(*path.last().unwrap_or(&user.space.pos), user.space.size);
    let te = entity_of(world, target).ok_or_else(|| Refusal::NoSuchCreature(Who::id(target)))?;
    let ts = snapshot(world, te).ok_or_else(|| Refusal::NoSuchCreature(Who::id(target)))?;
    if world.comp::<Stamina>(te).is_none_or(|s| s.is_dead()) {
        return Err(Refusal::Dead(Who::of(world, target)));
    }
    let reach = match ability {
        None => 1,
        Some(a) => {
            let content = world.res::<Content>().clone();
            let ab = content
                .ability(a)
                .ok_or_else(|| Refusal::UnknownAbility(a.to_string()))?;
            if !world
                .comp::<Abilities>(entity)
                .is_some_and(|l| l.0.iter().any(|x| x == a))
            {
                return Err(Refusal::NotTheirAbility(a.to_string()));
            }
            if !ab.has(Keyword::Charge) {
                return Err(Refusal::WrongCommand(
                    "only abilities with the Charge keyword can end a charge",
                ));
            }
            // What would stop the ability after the run stops the charge
            // before it.
            if !super::gather::available(world, entity, ab) {
                return Err(Refusal::Spent(ab.name.clone()));
            }
            affordable(world, entity, ab)?;
            if !target_allowed(&ab.target.kinds, &user, &ts) {
                return Err(Refusal::WrongTarget(Who::of(world, target)));
            }
            match ab.distance {
                Distance::Melee(r) | Distance::MeleeOrRanged(r, _) => r,
                _ => return Err(Refusal::WrongCommand("a charge ends in a melee attack")),
            }
        }
    };
    let distance = end.distance(ts.space);
    if distance > reach || target == id {
        return Err(Refusal::OutOfRange {
            target: Who::of(world, target),
            distance,
            reach,
        });
    }
    // Committed: move (without spending the move action), then attack with
    // the main action once the move is over.
    let how = Walk {
        shift: false,
        spend_move: false,
        listed: false,
    };
    walk(world, entity, id, path.to_vec(), how)?;
    let mut res = world.res_mut::<Resolution>();
    let steps = res.stack.pop();
    res.push(Resume::FollowUp {
        creature: id,
        target,
        ability: ability.map(str::to_string),
    });
    res.stack.extend(steps);
    Ok(())
}

/// The attack that ends a charge. If the target is out of reach by now (a
/// triggered action moved someone), the charge ends without it, and the main
/// action is spent all the same.
pub(super) fn charge_attack(
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
    let result = match ability {
        None => free_strike(world, entity, id, target),
        Some(a) => use_ability(
            world,
            entity,
            id,
            AbilityUse {
                ability: a,
                targets: &[target],
                surges: 0,
                spend: 0,
                tier: None,
                placement: None,
                potency_surges: &[],
            },
        ),
    };
    if result.is_err() {
        if let Some(mut b) = world.comp_mut::<TurnBudget>(entity) {
            b.main = false;
        }
        world.res_mut::<CombatLog>().push(LogEntry::TargetLost {
            creature: id,
            target,
        });
    }
}
