//! An ability's checks: whether it may be used and paid for now, and its
//! targets or its area's placement (docs/rules.md#distances-and-targets).

use super::*;
use crate::ability::{Ability, Distance, Relation, TargetKind};
use crate::content::Content;
use crate::encounter::command::Placement;
use crate::encounter::state::board::Battlefield;
use crate::map::area::Area;
use crate::map::{Footprint, Map, Occupant, line_of_effect};

/// The choices a command makes when using an ability.
pub(crate) struct AbilityChoices<'a> {
    pub(crate) ability: &'a str,
    pub(crate) targets: &'a [CreatureId],
    pub(crate) surges: u32,
    /// Targets whose potency is raised by 1, for 2 surges each.
    pub(crate) potency_surges: &'a [CreatureId],
    /// Heroic resource spent on "Spend X" entries.
    pub(crate) spend: u32,
    pub(crate) placement: Option<&'a Placement>,
    /// A glyphic ability's chosen connections (docs/rules.md#glyphs).
    pub(crate) links: Option<&'a [crate::map::Pos]>,
    /// The square of the object a strike targets (docs/rules.md#objects).
    pub(crate) object: Option<crate::map::Pos>,
}

impl<'a> AbilityChoices<'a> {
    /// The choices of a use of an ability (none for another command).
    pub(super) fn of(cmd: &'a Command) -> Option<AbilityChoices<'a>> {
        match cmd {
            Command::UseAbility {
                ability,
                targets,
                surges,
                potency_surges,
                spend,
                ..
            } => Some(AbilityChoices {
                ability,
                targets,
                surges: *surges,
                potency_surges,
                spend: *spend,
                placement: None,
                links: None,
                object: None,
            }),
            Command::UseOnObject {
                ability,
                at,
                surges,
                ..
            } => Some(AbilityChoices {
                ability,
                targets: &[],
                surges: *surges,
                potency_surges: &[],
                spend: 0,
                placement: None,
                links: None,
                object: Some(*at),
            }),
            Command::UseAreaAbility {
                ability,
                placement,
                surges,
                potency_surges,
                spend,
                links,
                ..
            } => Some(AbilityChoices {
                ability,
                targets: &[],
                surges: *surges,
                potency_surges,
                spend: *spend,
                placement: Some(placement),
                links: links.as_deref(),
                object: None,
            }),
            _ => None,
        }
    }
}

/// What an ability's use needs carried out, as checked.
pub(crate) struct UsePlan {
    /// The budget after the ability's action.
    pub(crate) budget: TurnBudget,
    /// The user as it stands.
    pub(crate) user: Snapshot,
    /// The effects bought with "Spend X".
    pub(crate) extra: Vec<crate::ability::Effect>,
    /// A strike's targets, as they stand (none for an area).
    pub(crate) targets: Vec<Snapshot>,
    /// An area's placed area, and where its forced movement is measured
    /// from.
    pub(crate) area: Option<(Area, Footprint)>,
    /// Who was where as the area was placed (for an area: whom it reaches).
    pub(crate) occupants: Vec<Occupant>,
    /// The squares of the objects a strike targets (docs/rules.md#objects).
    pub(crate) objects: Vec<crate::map::Pos>,
}

/// Whether a target is allowed (docs/rules.md#distances-and-targets): of
/// one of the kinds, and bearing one of the tags if any are named
/// (docs/rules.md#creature-tags).
pub(crate) fn target_allowed(
    world: &World,
    allowed: &crate::ability::Target,
    user: &Snapshot,
    target: &Snapshot,
) -> bool {
    TargetKind::any_allows(
        &allowed.kinds,
        Relation::of(user.id, user.side, target.id, target.side),
    ) && tags_allow(world, allowed, target.entity)
}

/// docs/rules.md#creature-tags: whether the creature bears one of the
/// tags `allowed` names (any creature, if it names none).
pub(crate) fn tags_allow(world: &World, allowed: &crate::ability::Target, entity: Entity) -> bool {
    allowed.tags.is_empty()
        || world
            .comp::<crate::encounter::state::components::Creature>(entity)
            .is_some_and(|c| allowed.tags_allow(&c.tags))
}

/// docs/rules.md#objects: whether an ability reaching `reach` from `space`
/// can strike the object on `at`: one stands there, within its reach and
/// (unless the ability works at a true distance) in line of effect; why
/// not, if not.
pub(crate) fn object_in_reach(
    map: &Map,
    space: Footprint,
    at: crate::map::Pos,
    reach: u32,
    true_distance: bool,
) -> Result<(), String> {
    if !map.in_bounds(at) || map.cell(at).object.is_none() {
        return Err(format!("there is no object at {at}"));
    }
    let distance = space.distance_to(at);
    if distance > reach {
        return Err(format!(
            "the object at {at} is {distance} squares away; the ability reaches {reach}"
        ));
    }
    if !true_distance && !crate::map::los::line_of_effect_to_square(map, space, at) {
        return Err(format!("no line of effect to the object at {at}"));
    }
    Ok(())
}

/// How far an ability reaches for its targets (the user itself: 0).
pub(crate) fn reach_of(distance: Distance) -> u32 {
    match distance {
        Distance::Myself => 0,
        d => d.reach(),
    }
}

/// Whether a creature `distance` squares away is within `reach` (the user
/// itself always is).
pub(crate) fn in_reach(is_user: bool, distance: u32, reach: u32) -> bool {
    is_user || distance <= reach
}

/// Whether a target needs a line of effect from the user: any but the
/// user itself, unless the ability works at a "true" distance ("you do not
/// need to be able to see the target").
pub(crate) fn needs_line_of_effect(is_user: bool, true_distance: bool) -> bool {
    !is_user && !true_distance
}

/// docs/rules.md#basic-actions (Hide; our ruling, docs/rulings.md): a
/// hidden creature can be targeted by its enemies only from an adjacent
/// square.
pub(crate) fn hidden_from(same_side: bool, distance: u32, hidden: bool) -> bool {
    !same_side && distance > 1 && hidden
}

/// Whether the creature may use the ability now as `u` chooses: its own,
/// available, its action left, paid for, its surges and spending possible,
/// and its targets or placement allowed.
pub(crate) fn use_ability(
    world: &World,
    entity: Entity,
    id: CreatureId,
    u: AbilityChoices,
) -> Result<UsePlan, Refusal> {
    let AbilityChoices {
        ability: ability_id,
        targets: target_ids,
        surges,
        spend,
        placement,
        potency_surges,
        links,
        object,
    } = u;
    let content = world.res::<Content>();
    let ability: &Ability = content
        .ability(ability_id)
        .ok_or_else(|| Refusal::UnknownAbility(ability_id.to_string()))?;
    if !world
        .comp::<Abilities>(entity)
        .is_some_and(|a| a.0.iter().any(|x| x == ability_id))
    {
        return Err(Refusal::NotTheirAbility(ability_id.to_string()));
    }
    if let Some(links) = links {
        glyph_links(world, entity, ability, links)?;
    }
    if ability.distance.is_area() != placement.is_some() {
        return Err(Refusal::WrongCommand(if ability.distance.is_area() {
            "an area ability needs a placement (UseAreaAbility)"
        } else {
            "a strike names its targets (UseAbility)"
        }));
    }
    let user = snapshot(world, entity).ok_or_else(|| Refusal::NoSuchCreature(Who::id(id)))?;
    usable(world, entity, ability, &user.conditions)?;
    // The action first: "main action already used" outranks target problems.
    let budget = world
        .comp::<TurnBudget>(entity)
        .ok_or_else(|| Refusal::NoSuchCreature(Who::id(id)))?;
    let budget = action(budget, &user.conditions, ability.action)?;
    affordable(world, entity, ability)?;
    let heroic = world.comp::<Heroic>(entity);
    // "Spend X" entries (docs/rules.md#heroic-resources): on top of the cost.
    let extra = if spend > 0 {
        spent_effects(heroic, ability, spend)?
    } else {
        Vec::new()
    };
    surges_allowed(
        heroic,
        surges,
        potency_surges,
        placement.is_none(),
        target_ids,
    )?;
    let map = &world.res::<Battlefield>().0;
    // An area: its targets are every eligible creature it reaches, found
    // as it is carried out.
    if let Some(placement) = placement {
        let creatures = occupants(world);
        let area = place_area(map, &creatures, user.space, ability.distance, placement)?;
        sweep_path(world, entity, id, &user, ability, placement)?;
        return Ok(UsePlan {
            budget,
            user,
            extra,
            targets: Vec::new(),
            area: Some(area),
            occupants: creatures,
            objects: Vec::new(),
        });
    }
    // docs/rules.md#objects: a strike at an object, in reach and in line
    // of effect of its square.
    if let Some(at) = object {
        if !ability.target.kinds.contains(&TargetKind::Object) {
            return Err(Refusal::WrongCommand("that ability can't target objects"));
        }
        object_in_reach(
            map,
            user.space,
            at,
            reach_of(ability.distance),
            ability.true_distance,
        )
        .map_err(Refusal::BadPlacement)?;
        return Ok(UsePlan {
            budget,
            user,
            extra,
            targets: Vec::new(),
            area: None,
            occupants: Vec::new(),
            objects: vec![at],
        });
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
    let targets = strike_targets(world, id, &user, ability, target_ids)?;
    Ok(UsePlan {
        budget,
        user,
        extra,
        targets,
        area: None,
        occupants: Vec::new(),
        objects: Vec::new(),
    })
}

/// docs/rules.md#during-the-move: the move itself, as a walk (a shift) of
/// up to its squares that spends no move action.
fn sweep_path(
    world: &World,
    entity: Entity,
    id: CreatureId,
    user: &Snapshot,
    ability: &Ability,
    placement: &Placement,
) -> Result<(), Refusal> {
    if let (Distance::Sweep { squares, shift, .. }, Placement::Path { path }) =
        (ability.distance, placement)
        && path.len() > 1
    {
        let path = path.to_vec();
        super::moving::path_in_reach(
            world,
            entity,
            id,
            user.space,
            &user.conditions,
            &path,
            shift,
            Some(squares),
        )?;
    }
    Ok(())
}

/// docs/rules.md#glyphs: "you can specify that a Glyph should be
/// connected to any other Glyph within Swinging Distance of it": the
/// chosen glyphs must be there, and the user's side's.
fn glyph_links(
    world: &World,
    entity: Entity,
    ability: &Ability,
    links: &[crate::map::Pos],
) -> Result<(), Refusal> {
    if ability.glyph.is_none() {
        return Err(Refusal::WrongCommand(
            "only a glyphic ability chooses glyph connections",
        ));
    }
    let side = world
        .comp::<crate::encounter::state::components::Creature>(entity)
        .map(|c| c.side);
    let glyphs = world.res::<crate::encounter::state::board::Glyphs>();
    if let Some(p) = links.iter().find(|&&p| {
        !glyphs
            .list
            .iter()
            .any(|g| !g.dismissed && g.at == p && Some(g.side) == side)
    }) {
        return Err(Refusal::BadPlacement(format!(
            "no glyph of its side at {p} to connect to"
        )));
    }
    Ok(())
}

/// Whether nothing stands in the way of using the ability now: not spent,
/// its requirement met, no condition barring it, room for what it summons.
fn usable(
    world: &World,
    entity: Entity,
    ability: &Ability,
    conditions: &crate::conditions::Conditions,
) -> Result<(), Refusal> {
    // docs/rules.md#recover-and-refresh: a spent ability waits to be recovered.
    if !crate::encounter::world::available(world, entity, ability) {
        return Err(Refusal::Spent(ability.name.clone()));
    }
    // docs/rules.md#requirements: "Conditions that must be met to start an
    // Ability".
    if let Some(r) = ability.requirement_missing(conditions) {
        return Err(Refusal::Requirement(r.name()));
    }
    // docs/rules.md#grabbed: "can't use the Knockback maneuver".
    if let Some(condition) = ability.barred(conditions) {
        return Err(Refusal::Barred {
            condition,
            ability: ability.name.clone(),
        });
    }
    // docs/rules.md#summons: "If there are no available hexes, the summon
    // ability cannot be used."
    if !crate::encounter::world::room_for(world, entity, ability) {
        return Err(Refusal::NoRoomToSummon);
    }
    Ok(())
}

/// The effects of spending `spend` more of the Heroic Resource on the
/// ability's "Spend X" entries, if its user has that much beyond the cost.
fn spent_effects(
    heroic: Option<&Heroic>,
    ability: &Ability,
    spend: u32,
) -> Result<Vec<crate::ability::Effect>, Refusal> {
    let cost = match ability.cost {
        Cost::Heroic(n) => n,
        _ => 0,
    };
    let has = heroic.map_or(0, |h| h.amount);
    // (Saturating: no creature has anywhere near `u32::MAX` to spend.)
    let needed = cost.saturating_add(spend);
    if !heroic.is_some_and(|h| h.can_pay(needed)) {
        return Err(Refusal::NotEnoughResource {
            resource: heroic.map_or("heroic resource".into(), |h| h.resource.clone()),
            needed,
            has,
        });
    }
    crate::ability::spend_effects(&ability.spend, spend)
        .map_err(|why| Refusal::BadSpend(spend, why))
}

/// docs/rules.md#surges: up to 3 for damage; 2 per target for +1 potency,
/// once a target, on a target the strike names (`strike`: it names them).
fn surges_allowed(
    heroic: Option<&Heroic>,
    surges: u32,
    potency_surges: &[CreatureId],
    strike: bool,
    target_ids: &[CreatureId],
) -> Result<(), Refusal> {
    let has_surges = heroic.map_or(0, |h| h.surges);
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
        if strike && !target_ids.contains(t) {
            return Err(Refusal::BadSurges(format!(
                "{t} is not a target of the ability"
            )));
        }
    }
    Ok(())
}

/// The creatures a strike names, each alive, a kind it may target, in
/// reach, in line of effect and not hidden from the user; a slow action's
/// may be out of reach or sight for now (docs/rules.md#slow-actions).
fn strike_targets(
    world: &World,
    id: CreatureId,
    user: &Snapshot,
    ability: &Ability,
    target_ids: &[CreatureId],
) -> Result<Vec<Snapshot>, Refusal> {
    let map = &world.res::<Battlefield>().0;
    let reach = reach_of(ability.distance);
    // docs/rules.md#slow-actions: "you may choose targets that are
    // initially invalid (due to being out or range, sight, etc.)": checked
    // when it takes effect.
    let slow = ability.action == ActionType::SlowAction;
    let mut targets = Vec::new();
    for &t in target_ids {
        let te = entity_of(world, t).ok_or_else(|| Refusal::NoSuchCreature(Who::id(t)))?;
        if world.comp::<Stamina>(te).is_none_or(|s| s.is_dead()) {
            return Err(Refusal::Dead(Who::of(world, t)));
        }
        let ts = snapshot(world, te).ok_or_else(|| Refusal::NoSuchCreature(Who::id(t)))?;
        if !target_allowed(world, &ability.target, user, &ts) {
            return Err(Refusal::WrongTarget(Who::of(world, t)));
        }
        let is_user = t == id;
        let distance = user.space.distance(ts.space);
        if !slow && !in_reach(is_user, distance, reach) {
            return Err(Refusal::OutOfRange {
                target: Who::of(world, t),
                distance,
                reach,
            });
        }
        if !slow
            && needs_line_of_effect(is_user, ability.true_distance)
            && !line_of_effect(map, user.space, ts.space)
        {
            return Err(Refusal::NoLineOfEffect(Who::of(world, t)));
        }
        let hidden = world.comp::<Stance>(te).is_some_and(|s| s.hidden);
        if hidden_from(ts.side == user.side, distance, hidden) {
            return Err(Refusal::HiddenTarget(Who::of(world, t)));
        }
        targets.push(ts);
    }
    Ok(targets)
}

/// Where an area lands, and the space its forced movement is measured from.
pub(crate) fn place_area(
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
        (Distance::Sweep { squares, reach, .. }, Placement::Path { path }) => {
            // (A way longer than its squares can't be walked: refused
            // before its area is worked out, however long it is.)
            if path.len() > squares as usize + 1 {
                return Err(Refusal::TooFar {
                    cost: path.len().saturating_sub(1).min(u32::MAX as usize) as u32,
                    speed: squares,
                });
            }
            let path = path.to_vec();
            if path.first() != Some(&user.pos) {
                return Err(Refusal::BadPath(
                    "it must start at the creature's square".into(),
                ));
            }
            if path.windows(2).any(|w| w[0].distance(w[1]) != 1) {
                return Err(Refusal::BadPath(
                    "each square must touch the one before it".into(),
                ));
            }
            let end = Footprint::new(*path.last().unwrap_or(&user.pos), user.size);
            (area::sweep(map, user.size, &path, reach), end)
        }
        _ => {
            return Err(Refusal::BadPlacement(format!(
                "that placement does not fit a {distance}"
            )));
        }
    })
}
