//! Using an ability: whether it may be used and paid for, its targets and
//! area, slow abilities, and the triggers its use offers.

use super::*;
use crate::encounter::log::emit;

/// Whether a target of `kind` is allowed (docs/rules.md#distances-and-targets).
pub(crate) fn target_allowed(kinds: &[TargetKind], user: &Snapshot, target: &Snapshot) -> bool {
    TargetKind::any_allows(
        kinds,
        Relation::of(user.id, user.side, target.id, target.side),
    )
}

/// docs/rules.md#flanking: an ally on the opposite side or corner of the
/// target, adjacent to it and able to take triggered actions, gives an edge
/// on melee strikes.
pub(crate) fn flanked(user: &Snapshot, target: &Snapshot, creatures: &[Occupant]) -> bool {
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
pub(crate) struct AbilityUse<'a> {
    pub(crate) ability: &'a str,
    pub(crate) targets: &'a [CreatureId],
    pub(crate) surges: u32,
    /// Targets whose potency is raised by 1, for 2 surges each.
    pub(crate) potency_surges: &'a [CreatureId],
    /// Heroic resource spent on "Spend X" entries.
    pub(crate) spend: u32,
    pub(crate) tier: Option<crate::power_roll::Tier>,
    pub(crate) placement: Option<&'a Placement>,
}

/// Whether a cost can be paid by a creature with this heroic resource (if
/// any) when the Director has `malice`.
pub(crate) fn can_afford(cost: Cost, heroic: Option<&Heroic>, malice: u32) -> bool {
    match cost {
        Cost::Heroic(n) => heroic.is_some_and(|h| h.can_pay(n)),
        Cost::Malice(n) => malice >= n,
        Cost::Free | Cost::Signature => true,
    }
}

/// Whether the creature can pay the ability's cost now (its heroic
/// resource, or the Director's Malice), as using it checks.
pub(crate) fn affordable(world: &World, entity: Entity, ability: &Ability) -> Result<(), Refusal> {
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

pub(crate) fn use_ability(
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
    // docs/rules.md#recover-and-refresh: a spent ability waits to be recovered.
    if !crate::encounter::gather::available(world, entity, ability) {
        return Err(Refusal::Spent(ability.name.clone()));
    }
    // docs/rules.md#summons: "If there are no available hexes, the summon
    // ability cannot be used."
    if !crate::encounter::summon::room_for(world, entity, ability) {
        return Err(Refusal::NoRoomToSummon);
    }
    // The action first: "main action already used" outranks target problems.
    let mut budget = *world
        .comp::<TurnBudget>(entity)
        .ok_or_else(|| Refusal::NoSuchCreature(Who::id(id)))?;
    spend_action(&mut budget, &user.conditions, ability.action)?;
    affordable(world, entity, ability)?;
    let heroic = world.comp::<Heroic>(entity).cloned();
    // "Spend X" entries (docs/rules.md#heroic-resources): on top of the cost.
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
    // docs/rules.md#surges: up to 3 for damage; 2 per target for +1 potency.
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
        // docs/rules.md#glyphs: a glyphic ability inscribes its glyphs on the area.
        if ability.glyph.is_some() {
            *world.comp_mut::<TurnBudget>(entity).expect("checked") = budget;
            pay(world, entity, id, ability, spend);
            crate::encounter::glyph::place(world, id, user.side, &ability.id, &area.covered);
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
            emit(
                world,
                LogEntry::WallRaised {
                    creature: id,
                    squares: area.covered.clone(),
                },
            );
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
        crate::encounter::aura::start(world, entity, ability);
        let ids: Vec<CreatureId> = targets.iter().map(|t| t.id).collect();
        if ids.len() >= 2 {
            trigger_resource(
                world,
                entity,
                crate::content::ResourceTrigger::AreaHitsSeveral,
            );
        }
        emit(
            world,
            LogEntry::AreaPlaced {
                creature: id,
                squares: area.reached.clone(),
                targets: ids.clone(),
            },
        );
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
        // docs/rules.md#slow-actions: "you may choose targets that are initially
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
        // docs/rules.md#distances-and-targets: at a "true" distance "you do not need to be
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
/// encounter starts (docs/rules.md#passives "Passives", "Episodics").
pub(crate) fn encounter_start_abilities(world: &mut World) {
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
            emit(
                world,
                LogEntry::AbilityUsed {
                    creature: user.id,
                    ability: a.id.clone(),
                    name: a.name.clone(),
                },
            );
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
/// turn (docs/rules.md#slow-actions); anything else goes to its roll now.
pub(crate) fn start_ability(
    world: &mut World,
    entity: Entity,
    ability: &Ability,
    roll: PendingRoll,
) {
    if ability.action != ActionType::SlowAction {
        begin_roll(world, roll);
        return;
    }
    let from = world
        .comp::<Space>(entity)
        .map(|s| s.0.pos)
        .unwrap_or_default();
    emit(
        world,
        LogEntry::SlowStarted {
            creature: roll.user,
            ability: ability.name.clone(),
        },
    );
    // docs/rules.md#triggered-actions "Triggers": reactions to "starts an ability" come "after the
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
/// was aimed at is now out of range (docs/rules.md#slow-actions: "If a Slow
/// Action targets an area, the area will not move if you move, but may
/// instead be considered invalid if you move ... Other Shapes instead target
/// a point within a certain range. For those, so long as that point remains
/// within range and targetable, the Slow Action will not be interrupted.")
pub(crate) fn resolve_slow(world: &mut World, entity: Entity, casting: Casting) {
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
        Some(why) => emit(
            world,
            LogEntry::SlowVoid {
                creature: user,
                ability: ability.name.clone(),
                why: why.into(),
            },
        ),
        None => {
            emit(
                world,
                LogEntry::SlowResolves {
                    creature: user,
                    ability: ability.name.clone(),
                },
            );
            queue_roll(world, *casting.roll);
        }
    }
}

/// An ability has been started: queue its roll and what follows, then the
/// triggers that fire before the roll (docs/rules.md#triggered-actions "starts an ability"
/// reactions "resolve before the triggering ability's roll"): a creature
/// starts an ability; each target is targeted, for itself and its allies.
pub(crate) fn begin_roll(world: &mut World, roll: PendingRoll) {
    let (user, targets) = (roll.user, roll.targets.clone());
    queue_roll(world, roll);
    offer_start_triggers(world, user, &targets);
}

/// Queue a roll and what follows it.
pub(crate) fn queue_roll(world: &mut World, roll: PendingRoll) {
    let mut res = world.res_mut::<Resolution>();
    res.push(Resume::After {
        creature: roll.user,
        ability: roll.ability.clone(),
    });
    res.push(Resume::Roll(Box::new(roll)));
}

/// Offer the triggers of an ability being started, before its roll.
pub(crate) fn offer_start_triggers(world: &mut World, user: CreatureId, targets: &[CreatureId]) {
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

/// Pay an ability's cost (and any resource spent on "Spend X") and log its use.
pub(crate) fn pay(
    world: &mut World,
    entity: Entity,
    id: CreatureId,
    ability: &Ability,
    spend: u32,
) {
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
            emit(
                world,
                LogEntry::ResourceSpent {
                    creature: id,
                    resource,
                    amount: n,
                    total,
                },
            );
        }
        Cost::Malice(n) => world.res_mut::<Malice>().0 -= n,
        _ => {}
    }
    emit(
        world,
        LogEntry::AbilityUsed {
            creature: id,
            ability: ability.id.clone(),
            name: ability.name.clone(),
        },
    );
    crate::encounter::gather::used(world, entity, id, ability);
    ability_used_triggers(world, entity, ability);
}

/// Whether `hero` has marked `target`: any condition on it comes from the hero
/// (a censor's judgment, a tactician's mark, modelled as their effects).
pub(crate) fn marked_by(world: &World, target: Entity, hero: CreatureId) -> bool {
    world
        .comp::<Conditions>(target)
        .is_some_and(|c| c.list.iter().any(|a| a.source == Some(hero)))
}

/// Heroes of `side`'s opponents, with their entity, id and space.
pub(crate) fn heroes_with(
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
/// (docs/rules.md#heroic-resources: each class's own trigger, from its class file).
pub(crate) fn ability_used_triggers(world: &mut World, user: Entity, ability: &Ability) {
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
pub(crate) fn dramatic_moment(world: &mut World, at: Footprint) {
    use crate::content::ResourceTrigger as T;
    for (he, _, hspace) in heroes_with(world, T::DramaticMoment) {
        if hspace.distance(at) <= 10 {
            trigger_resource(world, he, T::DramaticMoment);
        }
    }
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
        _ => {
            return Err(Refusal::BadPlacement(format!(
                "that placement does not fit a {distance}"
            )));
        }
    })
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

/// What follows any ability: bleeding, if the action makes it.
pub(crate) fn after_ability(world: &mut World, id: CreatureId, ability: &str) {
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
