//! World access: how the rules read the encounter's world. The creature
//! index ([`entity_of`]), the kept queries ([`CachedQuery`]) and what each
//! reads, the occupants and scenes the pure rules take, snapshots of a
//! creature, and the battlefield.

// The kept queries are the speed machinery's (`crate::fast`); world access
// names which are kept, and the rules reach them through here.
use crate::ability::Ability;
use crate::conditions::{ConditionKind, Conditions, action_limits};
use crate::content::Content;
use crate::encounter::state::board::Battlefield;
use crate::encounter::state::components::uses_left;
use crate::encounter::state::components::*;
use crate::encounter::state::turn::{Flow, can_act};
use crate::fast::KeyedWorld;
pub(crate) use crate::fast::kept::kept_queries;
pub(crate) use crate::fast::{CachedQuery, KeptQuery, QuerySlot};
use crate::map::{Footprint, Map, Occupant, Side, any_clear_sight, summon_square};
use crate::stats::{Characteristics, CreatureId, Stamina};
use bevy_ecs::prelude::*;

/// Find a creature's entity (a keyed read of the index: as cheap as the
/// copy of it each thread once kept for this).
#[inline(always)]
pub fn entity_of(world: &World, id: CreatureId) -> Option<Entity> {
    world
        .get_res::<crate::encounter::state::board::CreatureIndex>()?
        .entity(id)
}

/// What [`occupants`] reads of each creature.
pub(super) type OccupantData = (
    &'static Creature,
    &'static Space,
    &'static Stamina,
    &'static Conditions,
    &'static TurnBudget,
);

/// What [`check_grabs`] reads of each creature first.
pub(super) type ConditionData = (Entity, &'static Conditions);

/// What [`creatures_and_stamina`] and the victory check read of each
/// creature.
pub(super) type StandingData = (&'static Creature, &'static Stamina);

/// What the victory check reads of each creature.
pub(super) type VictoryData = (Entity, &'static Creature, &'static Stamina);

/// What [`crate::encounter::resolve::summon::summons_of`] reads of each summoned creature.
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
pub(super) type StanceData = (&'static Creature, &'static Stance);

/// What [`crate::encounter::react::offer`] reads of each creature.
pub(super) type TriggerData = (&'static Creature, Option<&'static Abilities>);

/// What [`crate::encounter::aura`]'s carriers reads of each creature first (a
/// carrier's creature, space and stamina after).
pub(super) type AuraData = (Entity, &'static Auras);

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
    crate::encounter::world::SustainData,
    crate::encounter::world::LooterData,
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
pub(super) fn occupant(
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
    pub largest_held: Option<crate::stats::Size>,
}

// A handoff between the listing and the walk, not a part of the fight's
// state (`state` declares those).
crate::fast::keyed::keyed!(crate::fast::Handoff<ListedWalk>);

/// A move or shift taken from the listing of this very moment, with
/// nothing done to the encounter since: the facade hands it to the walk
/// through [`crate::fast::hand_over`] (`Encounter::perform_listed`). Its
/// path was found by the reach search of this state, so its cost is not
/// worked out again (release builds only; debug builds check it, and panic
/// on a listed move the walk would refuse); `prepared` is what the listing
/// read of everyone, for the walk's first steps.
pub(super) struct ListedWalk {
    pub(super) walker: CreatureId,
    pub(super) prepared: Option<Prepared>,
}

/// What the listing of this very moment read of everyone, handed to the
/// walk taken from it (a move or a shift of the listed creature) so that
/// its first [`walk_scene`] and [`walker_state`] are not read again: every
/// living creature, as [`listing_scene`] found them, and the walker's
/// state. Made only when the walker holds no one (most often; whom it
/// holds the walk reads anew). The carriers of auras are read from those
/// known to carry one ([`crate::encounter::resolve::aura::carriers`]). Debug builds, where the
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
/// [`crate::encounter::resolve::aura::carriers`] in one pass over the creatures, each as its
/// own function gives it (a walk reads all three before its first step and
/// after anything acts on one).
pub(super) fn walk_scene(
    world: &World,
    walker: CreatureId,
    near: impl Fn(Footprint) -> bool,
) -> (
    Vec<Occupant>,
    Vec<(CreatureId, Entity)>,
    Vec<crate::encounter::world::Carrier>,
) {
    let surprised = surprised_side(world);
    // (The walker is always among those near: room for a few at once.)
    let mut others: Vec<Occupant> = Vec::with_capacity(8);
    let mut held: Vec<(CreatureId, Entity)> = Vec::new();
    let mut carriers: Vec<crate::encounter::world::Carrier> = Vec::new();
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
            if let Some(a) = crate::encounter::world::carrier(e, c, sp, s, auras) {
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
pub(super) fn all_creatures(world: &World) -> impl Iterator<Item = Entity> + '_ {
    world
        .get_res::<crate::encounter::state::board::CreatureIndex>()
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

/// A creature's squad, if it is a minion in one.
pub(super) fn squad_of(world: &World, entity: Entity) -> Option<u32> {
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

/// The side that is wholly surprised, while it still is (round 1:
/// docs/rules.md#surprise).
pub fn surprised_side(world: &World) -> Option<Side> {
    world.res::<Flow>().surprised_now()
}

/// What [`crate::encounter::world::grabbed_by`] reads of each creature.
pub(super) type GrabData = (
    Entity,
    &'static Creature,
    &'static Conditions,
    &'static Stamina,
);

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

/// Whether a creature with these conditions and stamina is one of the
/// living creatures `grabber` has grabbed (as [`crate::encounter::world::grabbed_by`] lists them).
#[inline]
pub(super) fn held_by(cond: &Conditions, s: &Stamina, grabber: CreatureId) -> bool {
    cond.source_of(ConditionKind::Grabbed) == Some(grabber) && !s.is_dead()
}

/// A creature carrying auras: its entity, id, space and auras.
pub(super) type Carrier = (Entity, CreatureId, Footprint, Vec<ActiveAura>);

/// A creature as [`carriers`] lists it: one still able to act that
/// carries an aura.
#[inline]
pub(super) fn carrier(
    e: Entity,
    c: &Creature,
    sp: &Space,
    s: &crate::stats::Stamina,
    auras: &Auras,
) -> Option<Carrier> {
    (!auras.0.is_empty() && can_act(s)).then(|| (e, c.id, sp.0, auras.0.clone()))
}

/// What [`sustained`] reads of each creature: the conditions and bonuses
/// others may have made.
pub(super) type SustainData = (
    &'static Creature,
    Option<&'static Conditions>,
    Option<&'static Bonuses>,
);

/// What [`end_of_turn`] reads of the creature whose turn ended: whether it
/// is a hero (with a heroic resource, not summoned), where it stands, and
/// its stamina.
pub(super) type LooterData = (
    Has<Heroic>,
    Has<Summoned>,
    Option<&'static Space>,
    Option<&'static crate::stats::Stamina>,
);

/// Whether every enemy either lacks line of effect to `space` or sees it
/// only with cover: the Hide maneuver's requirement, and what keeps a
/// creature hidden after it moves.
pub(super) fn unseen(world: &World, id: CreatureId, space: Footprint, side: Side) -> bool {
    unseen_among(
        &world.res::<Battlefield>().0,
        &occupants(world),
        id,
        space,
        side,
    )
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

/// docs/rules.md#grabbed: "If a creature's size is equal to or less than the
/// size of a creature they have grabbed, their speed is halved while they
/// have that creature grabbed."
pub(super) fn speed_with_grab(world: &World, entity: Entity, speed: u32) -> u32 {
    let Some((id, size)) = world.comp::<Creature>(entity).map(|c| (c.id, c.size)) else {
        return speed;
    };
    let largest = grabbed_by(world, id)
        .iter()
        .filter_map(|&(_, e)| world.comp::<Creature>(e).map(|c| c.size))
        .max();
    halved_by_grab(speed, size, largest)
}

/// The rule of [`speed_with_grab`] over plain data: a grabber of `size`
/// whose largest grabbed creature is of size `largest_held` (none: it
/// holds no one).
pub(super) fn halved_by_grab(
    speed: u32,
    size: crate::stats::Size,
    largest_held: Option<crate::stats::Size>,
) -> u32 {
    if largest_held.is_some_and(|l| l >= size) {
        speed / 2
    } else {
        speed
    }
}

/// The living creatures `grabber` has grabbed.
pub(super) fn grabbed_by(world: &World, grabber: CreatureId) -> Vec<(CreatureId, Entity)> {
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

/// Whether `side` has a creature that can still take a turn this round.
pub(super) fn waiting(world: &World, side: Side) -> bool {
    let flow = world.res::<Flow>();
    // Any will do: the creatures are neither gathered nor put in order.
    CachedQuery::<StandingData>::with(world, |q| {
        q.iter_manual(world)
            .any(|(c, s)| still_to_act(flow, side, c, s))
    })
    .unwrap_or(false)
}

/// The creatures of the side to pick that can still take a turn this
/// round, in id order, and whether the other side has any ([`waiting`]),
/// found in one pass (a listing asks both at every pick).
pub(super) fn picks(world: &World, flow: &Flow) -> (Vec<CreatureId>, bool) {
    let (side, other) = (flow.to_act, flow.to_act.other());
    // (Room for a side at once, not grown as they come.)
    let mut out = Vec::with_capacity(16);
    let mut other_waiting = false;
    CachedQuery::<StandingData>::with(world, |q| {
        q.iter_manual(world).for_each(|(c, s)| {
            if still_to_act(flow, side, c, s) {
                out.push(c.id);
            } else if still_to_act(flow, other, c, s) {
                other_waiting = true;
            }
        })
    });
    out.sort_unstable();
    (out, other_waiting)
}

/// Whether this creature of `side` can still take a turn this round.
pub(super) fn still_to_act(flow: &Flow, side: Side, c: &Creature, s: &Stamina) -> bool {
    c.side == side && can_act(s) && !flow.acted.contains(&c.id)
}

/// Whether `owner` has room for each creature `ability` would summon.
#[inline(always)]
pub(super) fn room_for(world: &World, owner: Entity, ability: &crate::ability::Ability) -> bool {
    // The quick test first, where it is asked: the legal-action listing
    // asks this of every ability, and gathering the stat blocks for one
    // that summons nobody cost random games 4% more instructions.
    !ability.summons() || room_for_summons(world, owner, ability)
}

/// [`room_for`] an ability that summons.
fn room_for_summons(world: &World, owner: Entity, ability: &crate::ability::Ability) -> bool {
    let stat_blocks = ability.summoned_stat_blocks();
    if stat_blocks.is_empty() {
        return true;
    }
    let (Some(space), Some(c)) = (
        world.comp::<Space>(owner).map(|s| s.0),
        world.comp::<Creature>(owner),
    ) else {
        return false;
    };
    let content = world.res::<Content>();
    let map = &world.res::<Battlefield>().0;
    let creatures = occupants(world);
    stat_blocks.iter().all(|id| {
        content.monsters.get(id).is_some_and(|b| {
            summon_square(map, &creatures, space, c.side, b.size.squares()).is_some()
        })
    })
}

/// Whether the creature may use `ability` now (it is not spent).
pub(super) fn available(world: &World, entity: Entity, ability: &Ability) -> bool {
    // Most abilities have no limit: no need to read what was spent.
    ability.uses.is_none() || uses_left(world.comp::<Progress>(entity), ability) != Some(0)
}

/// Every ability of `user`'s whose effects still last (conditions it
/// imposed, bonuses it gave, its aura), in id order: what it may end at
/// will (docs/rules.md#ending-effects).
pub fn sustained_by(world: &World, user: CreatureId) -> Vec<String> {
    sustained(world, user, |_| true)
}

/// The abilities whose lasting effects (conditions, bonuses, an aura) made
/// by `user` still hold and that `keep` picks, in id order.
pub(super) fn sustained(
    world: &World,
    user: CreatureId,
    keep: impl Fn(&crate::ability::Ability) -> bool,
) -> Vec<String> {
    let content = world.res::<Content>();
    let mut out: Vec<String> = Vec::new();
    let mut add = |id: &str| {
        if content.ability(id).is_some_and(&keep) && !out.iter().any(|x| x == id) {
            out.push(id.to_string());
        }
    };
    // Every creature's conditions and bonuses, through a kept query (each
    // time a creature takes damage or heals: 0.3% fewer instructions a
    // random game than two lookups a creature). Any order: the list is
    // sorted below.
    CachedQuery::<SustainData>::with(world, |q| {
        q.iter_manual(world).for_each(|(_, c, b)| {
            for a in c.into_iter().flat_map(|c| &c.list) {
                if a.source == Some(user)
                    && let Some(id) = &a.ability
                {
                    add(id);
                }
            }
            for x in b.into_iter().flat_map(|b| &b.0) {
                if x.source == Some(user) {
                    add(&x.from);
                }
            }
        })
    });
    if let Some(e) = entity_of(world, user) {
        for a in world.comp::<Auras>(e).into_iter().flat_map(|a| &a.0) {
            add(&a.ability);
        }
        // docs/rules.md#prepared-abilities: an ability prepared under
        // concentration is one of its lasting effects.
        let prepared = world.comp::<PreparedAbilities>(e).into_iter();
        for p in prepared.flat_map(|p| &p.0) {
            if let Some(source) = &p.source {
                add(source);
            }
        }
    }
    out.sort();
    out
}

/// The concentration abilities `user` keeps going, in id order.
pub fn active(world: &World, user: CreatureId) -> Vec<String> {
    sustained(world, user, |a| a.concentration)
}
