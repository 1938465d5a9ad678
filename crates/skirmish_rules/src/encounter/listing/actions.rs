//! What the creature taking the current turn can do now, listed in the
//! order the brains and the window read it: its shifts, the charges, each
//! ability against each valid target or placement, then the basic
//! actions; its moves are kept as the search that found them.

use super::*;
use crate::conditions::{Conditions, MovementLimits};
use crate::map::movement::{Occupancy, Reach};
use crate::map::{Footprint, Map, Occupant};

/// The acting creature as the listing reads it, gathered once.
struct Actor<'w> {
    world: &'w World,
    content: &'w Content,
    entity: Entity,
    id: CreatureId,
    side: Side,
    cond: &'w Conditions,
    /// Its footprint now.
    space: Footprint,
    /// Its speed as its grab leaves it (docs/rules.md#grabbed).
    speed: u32,
    modes: crate::map::movement::Modes,
    kept: Option<&'w Abilities>,
    abilities: &'w [String],
    heroic: Option<&'w Heroic>,
    stamina: Option<&'w Stamina>,
    hidden_now: bool,
    /// docs/rules.md#frightened: no willing step nearer the source of fear.
    afraid: Option<(Footprint, u32)>,
    can_move: bool,
    main_ok: bool,
    maneuver_ok: bool,
    budget: crate::actions::TurnBudget,
    malice: u32,
}

impl Actor<'_> {
    /// Whether its budget allows an action of this kind, as the check has
    /// it (the main action, maneuver and move asked once a listing).
    #[inline]
    fn allows(&self, action: ActionType) -> bool {
        match action {
            ActionType::MainAction | ActionType::SlowAction => self.main_ok,
            ActionType::Maneuver => self.maneuver_ok,
            ActionType::MoveAction => self.can_move,
            other => check::action(&self.budget, self.cond, other).is_ok(),
        }
    }

    /// Its `k`th ability, as its list keeps it (an unknown id is `None`):
    /// read from the list each time rather than copied into a list first
    /// (a list made at every listing cost 1% of a random game's
    /// instructions).
    #[inline]
    fn known(&self, k: usize) -> Option<&crate::ability::Ability> {
        self.kept.and_then(|l| l.looked_up(k, self.content))
    }

    /// Whether it can pay for the ability and nothing it is under bars it
    /// (docs/rules.md#heroic-resources, docs/rules.md#conditions).
    #[inline]
    fn may_use(&self, a: &crate::ability::Ability) -> bool {
        check::can_afford(a.cost, self.heroic, self.malice)
            && a.requirement_missing(self.cond).is_none()
            && a.barred(self.cond).is_none()
            && world::available(self.world, self.entity, a)
    }
}

/// The search of the squares in reach the listing shares between moves,
/// shifts and charges: the limits conditions set, the mover, who stands
/// where, and what it reaches (none at speed 0).
type Moving = (MovementLimits, Mover, Option<Occupancy>, Option<Reach>);

/// What one creature taking the current turn can do now: its moves and
/// shifts, charges, its abilities against each valid target or placement,
/// and the basic actions. `surprised` is the side wholly surprised now
/// ([`Flow::surprised_now`], which the listing has read).
pub(crate) fn creature_actions(
    world: &World,
    active: CreatureId,
    surprised: Option<Side>,
) -> Listing {
    let mut out: Vec<Listed> = Vec::new();
    // The area uses, kept as they are.
    let mut others: Vec<Command> = Vec::new();
    let Some((actor, scene)) = gather(world, active, surprised) else {
        return Listing::default();
    };
    let world::Scene {
        occupants: creatures,
        hidden,
        largest_held,
    } = scene;
    let (space, me_side) = (actor.space, actor.side);
    let field: &Arc<Map> = &world.res::<Battlefield>().0;
    let map: &Map = field;
    // The ids (shared with the listing, which names its uses from them).
    let names: Arc<[String]> = actor.kept.map_or_else(Default::default, |a| a.0.clone());
    // One search of the squares in reach serves moves, shifts and charges
    // (none of which a creature with neither its move nor its main action
    // left can take: then nothing of moving is worked out).
    let mut moving: Option<Moving> =
        (actor.can_move || actor.main_ok).then(|| search_moves(&actor, map, &creatures));
    // For a walk taken from the listing (see `world::Prepared`), when the
    // walker holds no one: there is none without a search of the squares
    // in reach, which it has speed for; it stands (or it would list
    // nothing); its size and side.
    let walk = match &moving {
        Some((_, _, _, Some(_))) if largest_held.is_none() => Some((
            active,
            (
                !ruleset::of(world).stops_moving(world, actor.cond),
                space.size,
                me_side,
            ),
        )),
        _ => None,
    };
    if let (true, Some(moving)) = (actor.can_move, &moving) {
        // Room for the shifts and charges, and an ability on each
        // creature: one allocation, not a doubling as they come.
        out.reserve(16 + actor.abilities.len() * creatures.len());
        shifts(&actor, map, moving, &mut out);
    }
    let listed_charges = match (actor.main_ok, &mut moving) {
        (true, Some(moving)) => charges_from(&actor, &creatures, moving, out.len()),
        _ => None,
    };
    // Distance to each creature, found once for all the abilities.
    // (On the stack for a fight's creatures at once, filled in place: a
    // small vector's collect pushes one by one, each push asking where it
    // keeps its items, which cost 0.7% of a random game's instructions.)
    let mut near_by = [0u32; 16];
    let far_by: Vec<u32>;
    let apart: &[u32] = if let Some(near_by) = near_by.get_mut(..creatures.len()) {
        for (d, o) in near_by.iter_mut().zip(&creatures) {
            *d = space.distance(o.space);
        }
        near_by
    } else {
        far_by = creatures.iter().map(|o| space.distance(o.space)).collect();
        &far_by
    };
    // The commands listed before their check (see `Listing`).
    let mut checks: SmallVec<[Check; 8]> = SmallVec::new();
    let mut lists = Lists {
        out: &mut out,
        others: &mut others,
        checks: &mut checks,
    };
    let near = Near {
        map,
        creatures: &creatures,
        apart,
        hidden: &hidden,
    };
    for k in 0..actor.abilities.len() {
        ability_uses(&actor, &near, k, &mut lists);
    }
    basic_actions(&actor, &near, &mut lists);
    // The moves come first, one for each square reached (each keeps its
    // path as steps, walked out into squares only if something reads it).
    let moves = match (actor.can_move, moving) {
        (true, Some((_, _, _, Some(reach)))) => Some(ListedMoves {
            creature: active,
            count: reach.path_count(),
            reach,
            afraid: actor.afraid,
        }),
        _ => None,
    };
    let scene = (!checks.is_empty() || listed_charges.is_some()).then(|| ListedScene {
        map: field.clone(),
        in_line: smallvec::smallvec![None; creatures.len()],
        user: space,
        id: active,
        side: me_side,
    });
    Listing {
        moves,
        charges: listed_charges,
        rest: out,
        others,
        names,
        checks,
        scene,
        creatures,
        walk,
        side: Some(me_side),
    }
}

/// The acting creature as the listing reads it, and who is where and who
/// is hidden around it (read together: one pass); none for a creature
/// that is gone, or dead.
fn gather(
    world: &World,
    active: CreatureId,
    surprised: Option<Side>,
) -> Option<(Actor<'_>, world::Scene)> {
    let e = world::entity_of(world, active)?;
    // Who is where, and who is hidden (read together: one pass).
    let scene = world::listing_scene(world, active, surprised);
    // Everything of the creature at once, through a kept query.
    let (me, cond, mv, budget, space, abilities, heroic, stance, stamina) =
        world::CachedQuery::<world::ActorData>::with(world, |q| q.get_manual(world, e).ok())
            .flatten()?;
    // The dead (or a creature with no stamina) have nothing to do.
    if stamina.is_none_or(|s| s.is_dead()) {
        return None;
    }
    let (mv, budget) = (*mv, *budget);
    // docs/rules.md#grabbed: halved while holding one as large (a creature
    // with no space holds no one, as `world::speed_with_grab` has it).
    let speed = space.map_or(mv.speed, |_| {
        world::halved_by_grab(mv.speed, me.size, scene.largest_held)
    });
    let space = space
        .map(|s| s.0)
        .unwrap_or(Footprint::single(Default::default()));
    let ask = |action: ActionType| check::action(&budget, cond, action).is_ok();
    let actor = Actor {
        world,
        content: world.res::<Content>(),
        entity: e,
        id: active,
        side: me.side,
        cond,
        space,
        speed,
        modes: mv.modes,
        kept: abilities,
        abilities: abilities.map_or(&[], |a| &a.0),
        heroic,
        stamina,
        hidden_now: stance.is_some_and(|s| s.hidden),
        afraid: check::afraid_of(world, cond).map(|(_, at)| (at, space.size)),
        can_move: ask(ActionType::MoveAction),
        main_ok: ask(ActionType::MainAction),
        maneuver_ok: ask(ActionType::Maneuver),
        budget,
        malice: world.res::<Malice>().0,
    };
    Some((actor, scene))
}

/// The lists a listing fills: its entries, the commands kept as they are,
/// and the entries to check when read.
struct Lists<'a> {
    out: &'a mut Vec<Listed>,
    others: &'a mut Vec<Command>,
    checks: &'a mut SmallVec<[Check; 8]>,
}

impl Lists<'_> {
    /// A command kept as it is.
    #[inline]
    fn other(&mut self, command: Command) {
        self.out.push(Listed::Other(self.others.len() as u32));
        self.others.push(command);
    }

    /// A check of the entry about to be pushed, made when it is read.
    #[inline]
    fn check_next(&mut self, of: u32) {
        self.checks.push(Check {
            at: self.out.len() as u32,
            of,
            known: None,
        });
    }
}

/// Who is around the actor: the map, the living creatures, how far each
/// is, and who is hidden.
struct Near<'a> {
    map: &'a Map,
    creatures: &'a [Occupant],
    apart: &'a [u32],
    hidden: &'a [CreatureId],
}

/// The search of the squares the actor reaches, as its conditions leave
/// its speed and ways of moving (docs/rules.md#moving).
fn search_moves(actor: &Actor, map: &Map, creatures: &[Occupant]) -> Moving {
    let limits = movement_limits(actor.cond, actor.speed);
    let mover = Mover {
        id: actor.id,
        space: actor.space,
        side: actor.side,
        speed: limits.speed,
        extra_cost: limits.extra_cost_per_square,
        shifting: false,
        modes: actor.modes.crawling(limits.prone),
    };
    let occ = crate::map::movement::occupancy(map, creatures);
    let reach = (limits.speed > 0).then(|| crate::map::movement::reachable_with(map, &occ, &mover));
    (limits, mover, Some(occ), reach)
}

/// The shifts: a step of cost 1 ending where it may
/// (docs/rules.md#shift).
fn shifts(actor: &Actor, map: &Map, moving: &Moving, out: &mut Vec<Listed>) {
    let (limits, mover, Some(occ), Some(reach)) = moving else {
        return;
    };
    if !limits.can_shift {
        return;
    }
    let space = actor.space;
    // With no extra cost per square, the search found them already (only
    // a single step reaches a square for 1).
    let found = (mover.extra_cost == 0).then(|| reach.ends_beside_start(1));
    for (k, to) in space.pos.neighbours().enumerate() {
        let shifts = if let Some(found) = found {
            found[k]
        } else {
            let shifter = Mover {
                speed: 1,
                extra_cost: 0,
                shifting: true,
                ..*mover
            };
            crate::map::movement::path_cost_with(map, occ, &shifter, &[space.pos, to])
                .is_some_and(|c| c <= 1)
        };
        let shifts = shifts
            && actor
                .afraid
                .is_none_or(|(at, size)| !crate::map::movement::nears(&[space.pos, to], size, at));
        if shifts {
            out.push(Listed::Shift {
                creature: actor.id,
                to,
            });
        }
    }
}

/// Charges: a straight run ending next to an enemy for a free strike, or
/// within reach of a creature an ability with the Charge keyword may
/// target (docs/rules.md#charge), kept as whom they are against, after
/// the `at` entries listed so far; the runs are searched when one is
/// taken. They take the shared search's occupancy.
fn charges_from(
    actor: &Actor,
    creatures: &[Occupant],
    moving: &mut Moving,
    at: usize,
) -> Option<Box<ListedCharges>> {
    let (_, mover, occ, Some(_)) = moving else {
        return None;
    };
    let mut with: Vec<ChargeWith> = Vec::new();
    for (k, id) in actor.abilities.iter().enumerate() {
        let Some(a) = actor.known(k) else {
            continue;
        };
        let reach = match a.distance {
            Distance::Melee(r) | Distance::MeleeOrRanged(r, _) => r,
            _ => continue,
        };
        // (One that affects only some kinds of creature is not listed as
        // a charge's end: the runs know sides, not tags.)
        if a.has(crate::ability::Keyword::Charge)
            && matches!(a.action, ActionType::MainAction)
            && a.target.tags.is_empty()
            && actor.may_use(a)
        {
            with.push(ChargeWith {
                ability: id,
                reach,
                kinds: &a.target.kinds,
            });
        }
    }
    let areas = run_areas(creatures, *mover, &with);
    if areas.is_empty() {
        return None;
    }
    let slots = charge_slots(creatures, *mover, &with);
    if slots.is_empty() {
        return None;
    }
    let occ = occ.take()?;
    Some(Box::new(ListedCharges {
        creature: actor.id,
        at,
        mover: *mover,
        slots,
        afraid: actor.afraid,
        occ,
        areas,
        found: None,
    }))
}

/// The uses of the actor's `k`th ability: each placement of an area, a
/// strike at each object in reach, and each creature it may target
/// (docs/rules.md#distances-and-targets).
fn ability_uses(actor: &Actor, near: &Near, k: usize, lists: &mut Lists) {
    let (Some(a), named, id) = (actor.known(k), k as u32, &actor.abilities[k]) else {
        return;
    };
    if !actor.allows(a.action)
        || !actor.may_use(a)
        || !world::room_for(actor.world, actor.entity, a)
    {
        return;
    }
    if a.distance.is_area() {
        let placed = match a.distance {
            Distance::Sweep { .. } => sweeps(
                near.map,
                near.creatures,
                actor.space,
                a,
                (actor.id, actor.side),
                actor.cond,
                actor.speed,
                actor.modes,
                actor.afraid,
            ),
            _ => placements(
                near.map,
                near.creatures,
                actor.space,
                a,
                actor.side,
                actor.id,
            ),
        };
        for placement in placed {
            lists.other(Command::UseAreaAbility {
                creature: actor.id,
                ability: id.clone(),
                placement,
                surges: 0,
                potency_surges: Vec::new(),
                spend: 0,
                tier: None,
                links: None,
            });
        }
        return;
    }
    let reach = check::reach_of(a.distance);
    // docs/rules.md#objects: a strike at each object in reach.
    if a.target.kinds.contains(&crate::ability::TargetKind::Object) {
        for at in objects_in_reach(near.map, actor.space, reach, a.true_distance) {
            lists.other(Command::UseOnObject {
                creature: actor.id,
                ability: id.clone(),
                at,
                surges: 0,
                tier: None,
            });
        }
    }
    // The relations the ability may target, found once for all the
    // creatures.
    let allowed = crate::ability::TargetKind::relations(&a.target.kinds);
    for (n, o) in near.creatures.iter().enumerate() {
        // Out of reach (the user itself is always in reach): the cheapest
        // test first.
        let is_user = o.id == actor.id;
        if !check::in_reach(is_user, near.apart[n], reach) {
            continue;
        }
        let relation = crate::ability::Relation::of(actor.id, actor.side, o.id, o.side);
        if allowed & relation.bit() == 0 {
            continue;
        }
        // docs/rules.md#creature-tags (rare: looked up only when named).
        if !a.target.tags.is_empty()
            && !world::entity_of(actor.world, o.id)
                .is_some_and(|oe| check::tags_allow(actor.world, &a.target, oe))
        {
            continue;
        }
        // `creatures` holds only the living.
        let hidden = near.hidden.contains(&o.id);
        if !check::hidden_from(o.side == actor.side, near.apart[n], hidden) {
            // Line of effect to it is checked when the slot is taken or
            // read.
            if check::needs_line_of_effect(is_user, a.true_distance) {
                lists.check_next(n as u32);
            }
            lists.out.push(Listed::Use {
                creature: actor.id,
                ability: named,
                target: o.id,
            });
        }
    }
}

/// The basic actions every creature has, as its budget and conditions
/// allow (docs/rules.md#actions-on-a-turn).
fn basic_actions(actor: &Actor, near: &Near, lists: &mut Lists) {
    let basic = |kind: Basic| Listed::Basic {
        creature: actor.id,
        kind,
    };
    if actor.main_ok {
        // (Free strikes are listed against enemies only: one on an ally is
        // legal, and never wanted.)
        for (o, &apart) in near.creatures.iter().zip(near.apart) {
            if o.side != actor.side && check::free_strike_reaches(apart) {
                lists.out.push(Listed::FreeStrike {
                    creature: actor.id,
                    target: o.id,
                });
            }
        }
        lists.out.push(basic(Basic::Defend));
    }
    if actor.maneuver_ok && !actor.hidden_now {
        // Its cover is checked when the slot is taken or read.
        lists.check_next(HIDE);
        lists.out.push(basic(Basic::Hide));
    }
    // Ending what one's own abilities made: a free maneuver
    // (docs/rules.md#ending-effects), one command per ability.
    for ability in crate::encounter::world::sustained_by(actor.world, actor.id) {
        lists.other(Command::EndEffect {
            creature: actor.id,
            ability,
        });
    }
    // Letting go of a grab takes no action (docs/rules.md#grabbed); looked
    // for only when someone may be grabbed (the grab check's hint).
    let maybe_grabbing = actor
        .world
        .get_res::<crate::encounter::state::board::Grabs>()
        .is_none_or(|g| g.0.0.as_ref().is_none_or(|k| !k.is_empty()));
    if maybe_grabbing && !world::grabbed_by(actor.world, actor.id).is_empty() {
        lists.out.push(basic(Basic::Release));
    }
    if actor.maneuver_ok {
        if check::can_stand(actor.cond).is_ok() {
            lists.out.push(basic(Basic::StandUp));
        }
        if check::can_escape(actor.cond).is_ok() {
            lists.out.push(basic(Basic::EscapeGrab));
        }
        // (Not listed at full stamina: legal, but it heals nothing.)
        if let Some(s) = actor.stamina
            && check::can_catch_breath(s, actor.heroic.is_some()).is_ok()
            && s.current < s.max
        {
            lists.out.push(basic(Basic::CatchBreath));
        }
    }
}
