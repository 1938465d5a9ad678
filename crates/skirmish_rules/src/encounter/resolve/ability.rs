//! Using an ability: whether it may be used and paid for, its targets and
//! area, slow abilities, and the triggers its use offers.

use super::*;
use crate::encounter::log::emit;
use crate::encounter::state::board::{Battlefield, RaisedWall, RaisedWalls};
use crate::encounter::state::work::PendingRoll;

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

/// The choices a command makes when using an ability that its check
/// left to the use.
pub(crate) struct AbilityUse<'a> {
    pub(super) ability: &'a str,
    pub(super) surges: u32,
    /// Targets whose potency is raised by 1, for 2 surges each.
    pub(super) potency_surges: &'a [CreatureId],
    /// Heroic resource spent on "Spend X" entries.
    pub(super) spend: u32,
    pub(crate) tier: Option<crate::power_roll::Tier>,
    /// A glyphic ability's chosen connections (docs/rules.md#glyphs).
    pub(super) links: Option<&'a [crate::map::Pos]>,
    /// The way an ability used during a move goes (docs/rules.md#during-the-move).
    pub(super) path: Option<Vec<Pos>>,
}

impl<'a> AbilityUse<'a> {
    /// The choices of a command using an ability (none for another).
    pub(super) fn of(cmd: &'a Command) -> Option<AbilityUse<'a>> {
        Some(match cmd {
            Command::UseAbility {
                ability,
                surges,
                potency_surges,
                spend,
                tier,
                ..
            } => AbilityUse {
                ability,
                surges: *surges,
                potency_surges,
                spend: *spend,
                tier: *tier,
                links: None,
                path: None,
            },
            Command::UseAreaAbility {
                ability,
                placement,
                surges,
                potency_surges,
                spend,
                tier,
                links,
                ..
            } => AbilityUse {
                ability,
                surges: *surges,
                potency_surges,
                spend: *spend,
                tier: *tier,
                links: links.as_deref(),
                path: match placement {
                    Placement::Path { path } => Some(path.to_vec()),
                    _ => None,
                },
            },
            Command::UseOnObject {
                ability,
                surges,
                tier,
                ..
            } => AbilityUse {
                ability,
                surges: *surges,
                potency_surges: &[],
                spend: 0,
                tier: *tier,
                links: None,
                path: None,
            },
            _ => return None,
        })
    }
}

/// An area's targets: each creature of `creatures` it reaches that the
/// ability may target (at most its count), announced in the log; two or
/// more set off the user's resource trigger for it.
fn area_targets(
    world: &mut World,
    entity: Entity,
    user: &Snapshot,
    ability: &Ability,
    area: &crate::map::area::Area,
    creatures: &[Occupant],
) -> Vec<CreatureId> {
    let mut ids: Vec<CreatureId> = Vec::new();
    for o in area.creatures(creatures) {
        if let Some(ts) = entity_of(world, o.id).and_then(|te| snapshot(world, te))
            && target_allowed(world, &ability.target, user, &ts)
        {
            ids.push(ts.id);
        }
    }
    if let Some(max) = ability.target.count {
        ids.truncate(max as usize);
    }
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
            creature: user.id,
            squares: area.reached.clone(),
            targets: ids.clone(),
        },
    );
    ids
}

/// Use an ability, as checked ([`crate::encounter::check::use_ability`]):
/// spend the action and pay, then an area's glyphs, wall or targets, or a
/// strike's targets, go to the roll.
pub(crate) fn use_ability(
    world: &mut World,
    entity: Entity,
    id: CreatureId,
    u: AbilityUse,
    plan: crate::encounter::check::UsePlan,
) {
    let AbilityUse {
        ability: ability_id,
        surges,
        spend,
        tier: chosen_tier,
        potency_surges,
        links,
        path,
    } = u;
    let crate::encounter::check::UsePlan {
        budget,
        user,
        extra,
        targets,
        area,
        occupants: creatures,
        objects,
    } = plan;
    let content = world.res::<Content>().clone();
    let Some(ability) = content.ability(ability_id) else {
        return;
    };
    set_budget(world, entity, budget);
    pay(world, entity, id, ability, spend);
    let roll = PendingRoll {
        user: id,
        ability: ability.id.clone(),
        targets: Vec::new(),
        area: None,
        source: None,
        surges,
        potency_surges: potency_surges.to_vec(),
        tier: chosen_tier,
        extra,
        spend,
        objects: Vec::new(),
    };
    // A strike: its targets go to the roll.
    let Some((area, source)) = area else {
        let targets = targets.iter().map(|t| t.id).collect();
        start_ability(
            world,
            entity,
            ability,
            PendingRoll {
                targets,
                objects,
                ..roll
            },
        );
        return;
    };
    // docs/rules.md#during-the-move: the move first (spending no move
    // action), then the roll against those it passed.
    if let (Distance::Sweep { shift, reach, .. }, Some(path)) = (ability.distance, path) {
        let walks = path.len() > 1;
        let roll = PendingRoll {
            area: Some(area),
            source: Some(source),
            ..roll
        };
        let mut res = world.res_mut::<Resolution>();
        res.push(Resume::Sweep {
            roll: Box::new(roll),
            path: path.clone(),
            reach,
        });
        if walks {
            res.push(Resume::Walk {
                creature: id,
                path,
                shift,
                asked: false,
                airborne: false,
            });
        }
        return;
    }
    // docs/rules.md#glyphs: a glyphic ability inscribes its glyphs on the area.
    if ability.glyph.is_some() {
        super::glyph::place(world, id, user.side, &ability.id, &area.covered, links);
        impose_penalties(world, entity, id, ability);
        return;
    }
    if let Distance::Wall { .. } = ability.distance {
        raise_wall(world, id, &area.covered);
        impose_penalties(world, entity, id, ability);
        return;
    }
    // An area: its targets are every eligible creature it reaches.
    super::aura::start(world, entity, ability);
    let targets = area_targets(world, entity, &user, ability, &area, &creatures);
    start_ability(
        world,
        entity,
        ability,
        PendingRoll {
            targets,
            area: Some(area),
            source: Some(source),
            ..roll
        },
    );
}

/// A wall ability raises its squares. Our ruling: a raised wall stands
/// until the end of its maker's next turn (so no fight is walled shut for
/// good).
fn raise_wall(world: &mut World, id: CreatureId, squares: &[Pos]) {
    for &p in squares {
        world
            .res_mut::<Battlefield>()
            .map_mut()
            .set_raised_wall(p, true);
    }
    let own_turn = world.res::<Flow>().is_acting(id);
    world.res_mut::<RaisedWalls>().0.push(RaisedWall {
        squares: squares.to_vec(),
        owner: id,
        turn_ends_left: if own_turn { 2 } else { 1 },
    });
    emit(
        world,
        LogEntry::WallRaised {
            creature: id,
            squares: squares.to_vec(),
        },
    );
}

/// docs/rules.md#during-the-move: the move of an ability used during one
/// is over (or was cut short): the roll goes against each creature it may
/// target within `reach` of the user somewhere on the way it went, "the
/// space you first leave" to "the last space you move into". A user moved
/// off its way by something else (a reaction's push) went no farther on it
/// than its first square (our ruling, docs/rulings.md).
pub(crate) fn sweep_roll(world: &mut World, mut roll: PendingRoll, path: &[Pos], reach: u32) {
    let Some(entity) = entity_of(world, roll.user) else {
        return;
    };
    if world.comp::<Stamina>(entity).is_none_or(|s| !can_act(s)) {
        return;
    }
    let Some(user) = snapshot(world, entity) else {
        return;
    };
    let content = world.res::<Content>().clone();
    let Some(ability) = content.ability(&roll.ability) else {
        return;
    };
    let went = path
        .iter()
        .rposition(|&p| p == user.space.pos)
        .map_or(&path[..path.len().min(1)], |i| &path[..=i]);
    let area = crate::map::area::sweep(&world.res::<Battlefield>().0, user.space.size, went, reach);
    let creatures = occupants(world);
    roll.targets = area_targets(world, entity, &user, ability, &area, &creatures);
    roll.area = Some(area);
    roll.source = Some(user.space);
    start_ability(world, entity, ability, roll);
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
pub(super) fn start_ability(
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
pub(super) fn queue_roll(world: &mut World, roll: PendingRoll) {
    let mut res = world.res_mut::<Resolution>();
    res.push(Resume::After {
        creature: roll.user,
        ability: roll.ability.clone(),
    });
    res.push(Resume::Roll(Box::new(roll)));
}

/// Offer the triggers of an ability being started, before its roll.
pub(super) fn offer_start_triggers(world: &mut World, user: CreatureId, targets: &[CreatureId]) {
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
            crate::encounter::concentration::resource_changed(world, id);
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
pub(super) fn ability_used_triggers(world: &mut World, user: Entity, ability: &Ability) {
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
    impose_penalties(world, entity, id, ability);
}

/// docs/rules.md#penalties: once an ability with a penalty has taken
/// effect, its user bears one more stack of each (a straining one also
/// marks the turn as strained).
fn impose_penalties(world: &mut World, entity: Entity, id: CreatureId, ability: &Ability) {
    if ability.penalties.is_empty() {
        return;
    }
    let Some(mut stance) = world.comp_mut::<Stance>(entity) else {
        return;
    };
    let mut stacks = Vec::new();
    for &p in &ability.penalties {
        let n = match p {
            crate::ability::Penalty::Straining => {
                stance.strained = true;
                &mut stance.straining
            }
            crate::ability::Penalty::Exhausting => &mut stance.exhausting,
        };
        *n = n.saturating_add(1);
        stacks.push((p, *n as u32));
    }
    for (penalty, stacks) in stacks {
        emit(
            world,
            LogEntry::PenaltyStack {
                creature: id,
                penalty,
                stacks,
            },
        );
    }
}
