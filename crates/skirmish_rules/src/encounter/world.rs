//! World access: how the rules read the encounter's world. The creature
//! index ([`entity_of`]), the kept queries ([`CachedQuery`]) and what each
//! reads, the occupants and scenes the pure rules take, snapshots of a
//! creature, and the battlefield.

// The kept queries are the speed machinery's (`crate::fast`); world access
// names which are kept, and the rules reach them through here.
use crate::conditions::{ConditionKind, Conditions, action_limits};
use crate::encounter::components::*;
use crate::encounter::flow::{Flow, can_act};
use crate::fast::KeyedWorld;
pub(crate) use crate::fast::kept::kept_queries;
pub(crate) use crate::fast::{CachedQuery, KeptQuery, QuerySlot};
use crate::map::{Footprint, Map, Occupant, Side};
use crate::stats::{Characteristics, CreatureId, Stamina};
use bevy_ecs::prelude::*;

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

/// Find a creature's entity (a keyed read of the index: as cheap as the
/// copy of it each thread once kept for this).
#[inline(always)]
pub fn entity_of(world: &World, id: CreatureId) -> Option<Entity> {
    world
        .get_res::<crate::encounter::setup::CreatureIndex>()?
        .entity(id)
}

/// What [`occupants`] reads of each creature.
pub(crate) type OccupantData = (
    &'static Creature,
    &'static Space,
    &'static Stamina,
    &'static Conditions,
    &'static TurnBudget,
);

/// What [`check_grabs`] reads of each creature first.
pub(crate) type ConditionData = (Entity, &'static Conditions);

/// What [`creatures_and_stamina`] and the victory check read of each
/// creature.
pub(crate) type StandingData = (&'static Creature, &'static Stamina);

/// What the victory check reads of each creature.
pub(crate) type VictoryData = (Entity, &'static Creature, &'static Stamina);

/// What [`crate::encounter::summon::summons_of`] reads of each summoned creature.
pub(crate) type SummonData = (&'static Summoned, &'static Stamina, &'static Creature);

/// What the listing reads of the creature acting.
pub(crate) type ActorData = (
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
pub(crate) type StanceData = (&'static Creature, &'static Stance);

/// What [`crate::encounter::react::offer`] reads of each creature.
pub(crate) type TriggerData = (&'static Creature, Option<&'static Abilities>);

/// What [`crate::encounter::aura`]'s carriers reads of each creature first (a
/// carrier's creature, space and stamina after).
pub(crate) type AuraData = (Entity, &'static Auras);

// The resources and components the rules read outside systems.
crate::fast::keyed::keyed!(
    crate::content::Content,
    crate::dice::Dice,
    crate::conditions::Conditions,
    crate::stats::Stamina,
    crate::stats::Characteristics,
    crate::stats::DamageTraits,
    crate::encounter::world::Battlefield,
    crate::encounter::resolve::RaisedWalls,
    crate::encounter::resolve::ObjectWear,
    crate::encounter::resolve::RollFacts,
    crate::encounter::resolve::Grabs,
    crate::encounter::aura::KnownCarriers,
    crate::encounter::flow::Flow,
    crate::encounter::flow::Malice,
    crate::encounter::flow::ActiveRuleset,
    crate::encounter::flow::Standing,
    crate::encounter::objective::Plan,
    crate::encounter::glyph::Glyphs,
    crate::encounter::log::CombatLog,
    crate::fast::Handoff<crate::encounter::world::ListedWalk>,
    crate::encounter::stack::Resolution,
    crate::encounter::setup::CreatureIndex,
    bevy_state::state::State<crate::encounter::flow::Phase>,
    bevy_state::state::NextState<crate::encounter::flow::Phase>,
    crate::encounter::components::Abilities,
    crate::encounter::components::Auras,
    crate::encounter::components::Bonuses,
    crate::encounter::components::Casting,
    crate::encounter::components::Creature,
    crate::encounter::components::FreeStrike,
    crate::encounter::components::Heroic,
    crate::encounter::components::Movement,
    crate::encounter::components::PreparedAbilities,
    crate::encounter::components::Progress,
    crate::encounter::components::Space,
    crate::encounter::components::SquadMember,
    crate::encounter::components::Squads,
    crate::encounter::components::Stance,
    crate::encounter::components::Summoned,
    crate::encounter::components::TurnBudget,
);

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
    crate::encounter::concentration::SustainData,
    crate::encounter::gather::LooterData,
    &'static mut TurnBudget,
);

/// What a new round changes of each creature's round bonuses.
pub(crate) type BonusData = (&'static Creature, &'static mut Bonuses);

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
pub(crate) fn occupant(
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
pub(crate) type SceneData = (
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
pub(crate) struct Scene {
    pub occupants: Vec<Occupant>,
    pub hidden: Vec<CreatureId>,
    pub largest_held: Option<crate::stats::Size>,
}

/// A move or shift taken from the listing of this very moment, with
/// nothing done to the encounter since: the facade hands it to the walk
/// through [`crate::fast::hand_over`] (`Encounter::perform_listed`). Its
/// path was found by the reach search of this state, so its cost is not
/// worked out again (release builds only; debug builds check it, and panic
/// on a listed move the walk would refuse); `prepared` is what the listing
/// read of everyone, for the walk's first steps.
pub(crate) struct ListedWalk {
    pub(crate) walker: CreatureId,
    pub(crate) prepared: Option<Prepared>,
}

/// What the listing of this very moment read of everyone, handed to the
/// walk taken from it (a move or a shift of the listed creature) so that
/// its first [`walk_scene`] and [`walker_state`] are not read again: every
/// living creature, as [`listing_scene`] found them, and the walker's
/// state. Made only when the walker holds no one (most often; whom it
/// holds the walk reads anew). The carriers of auras are read from those
/// known to carry one ([`crate::encounter::aura::carriers`]). Debug builds, where the
/// tests run, check it against a fresh reading.
pub(crate) struct Prepared {
    pub(super) walker: CreatureId,
    pub(super) state: WalkerState,
    pub(super) occupants: Vec<Occupant>,
}

/// The [`Scene`] for a listing of `actor`'s commands, `surprised` being
/// [`surprised_side`] (the listing has read the turn order already).
pub(crate) fn listing_scene(world: &World, actor: CreatureId, surprised: Option<Side>) -> Scene {
    let mut out: Vec<Occupant> = Vec::with_capacity(16);
    let mut hidden = Vec::new();
    let mut largest_held: Option<crate::stats::Size> = None;
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
                    largest_held = largest_held.max(Some(c.size));
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
/// [`crate::encounter::aura::carriers`] in one pass over the creatures, each as its
/// own function gives it (a walk reads all three before its first step and
/// after anything acts on one).
pub(crate) fn walk_scene(
    world: &World,
    walker: CreatureId,
    near: impl Fn(Footprint) -> bool,
) -> (
    Vec<Occupant>,
    Vec<(CreatureId, Entity)>,
    Vec<crate::encounter::aura::Carrier>,
) {
    let surprised = surprised_side(world);
    // (The walker is always among those near: room for a few at once.)
    let mut others: Vec<Occupant> = Vec::with_capacity(8);
    let mut held: Vec<(CreatureId, Entity)> = Vec::new();
    let mut carriers: Vec<crate::encounter::aura::Carrier> = Vec::new();
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
            if let Some(a) = crate::encounter::aura::carrier(e, c, sp, s, auras) {
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

/// Every creature's entity, in id order (no query state to build: the
/// engine's hot paths call this many times a command).
pub(crate) fn all_creatures(world: &World) -> impl Iterator<Item = Entity> + '_ {
    world
        .get_res::<crate::encounter::setup::CreatureIndex>()
        .into_iter()
        .flat_map(|i| i.iter().map(|(_, e)| e))
}

/// The hidden creatures (any order; most often none).
pub(crate) fn hidden_creatures(world: &World) -> Vec<CreatureId> {
    let mut hidden = Vec::new();
    CachedQuery::<StanceData>::with(world, |q| {
        q.iter_manual(world)
            .filter(|(_, s)| s.hidden)
            .for_each(|(c, _)| hidden.push(c.id))
    });
    hidden
}

/// Every creature's identity and stamina, in id order (one pass of a kept query).
pub(crate) fn creatures_and_stamina(world: &World) -> impl Iterator<Item = (&Creature, &Stamina)> {
    let mut all: Vec<(&Creature, &Stamina)> = Vec::with_capacity(16);
    CachedQuery::<StandingData>::with(world, |q| q.iter_manual(world).for_each(|x| all.push(x)));
    // In id order, whatever order the store keeps them in.
    all.sort_unstable_by_key(|(c, _)| c.id);
    all.into_iter()
}

/// A creature's squad, if it is a minion in one.
pub(crate) fn squad_of(world: &World, entity: Entity) -> Option<u32> {
    world.comp::<SquadMember>(entity).map(|s| s.0)
}

/// Everything about a creature that resolving an ability reads.
#[derive(Clone, Debug)]
pub(crate) struct Snapshot {
    pub entity: Entity,
    pub id: CreatureId,
    pub side: Side,
    pub space: Footprint,
    pub chars: Characteristics,
    pub conditions: Conditions,
    pub stability: u32,
}

/// A living creature's snapshot, by id.
pub(crate) fn living_snapshot(world: &World, id: CreatureId) -> Option<Snapshot> {
    let e = entity_of(world, id)?;
    if world.comp::<Stamina>(e).is_none_or(|s| s.is_dead()) {
        return None;
    }
    snapshot(world, e)
}

pub(crate) fn snapshot(world: &World, entity: Entity) -> Option<Snapshot> {
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
pub(crate) type SnapshotData = (
    &'static Creature,
    &'static Space,
    &'static Characteristics,
    &'static Conditions,
    &'static Movement,
);

/// What [`heroes_with`] reads of each hero.
pub(crate) type HeroData = (
    Entity,
    &'static Heroic,
    &'static Stamina,
    &'static Creature,
    &'static Space,
);

/// The side that is wholly surprised, while it still is (round 1).
pub fn surprised_side(world: &World) -> Option<Side> {
    world.res::<Flow>().surprised_now()
}

/// What [`crate::encounter::resolve::grabbed_by`] reads of each creature.
pub(crate) type GrabData = (
    Entity,
    &'static Creature,
    &'static Conditions,
    &'static Stamina,
);

/// What a walk reads of its walker.
pub(crate) type WalkerData = (
    &'static Creature,
    &'static Space,
    &'static Stamina,
    &'static Movement,
    &'static Conditions,
);

/// What a walk reads of its walker (see [`walker_state`]): whether it can
/// go on, its size and its side.
pub(crate) type WalkerState = (bool, u32, Side);

/// Whether a creature with these conditions and stamina is one of the
/// living creatures `grabber` has grabbed (as [`crate::encounter::resolve::grabbed_by`] lists them).
#[inline]
pub(crate) fn held_by(cond: &Conditions, s: &Stamina, grabber: CreatureId) -> bool {
    cond.source_of(ConditionKind::Grabbed) == Some(grabber) && !s.is_dead()
}
