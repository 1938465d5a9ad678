//! A tier's outcome on its target: damage, conditions, forced movement,
//! shields, retaliation, healing and the resources gained.

use super::forced::aloft;
use super::*;
use crate::encounter::log::emit;
use crate::encounter::state::board::Grabs;
use crate::encounter::state::work::RollFacts;

/// Apply one target's outcome whole: its damage, then its effects
/// (a use with one target; several go through `resolve_roll`, all damage
/// first). Returns what the user gains from it.
#[allow(clippy::too_many_arguments)]
pub(crate) fn apply_outcome(
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
    let outcome = deal_outcome_damage(
        world,
        entity,
        user,
        ability,
        target,
        effects,
        potency_bonus,
        surges_left,
    );
    finish_outcome(world, entity, user, ability, target, source, outcome)
}

/// A target's outcome worked out and its damage dealt (with surges spent
/// on the first target that takes damage); its effects wait for the other
/// targets' damage (docs/rules.md#damage-then-effects).
#[allow(clippy::too_many_arguments)]
pub(crate) fn deal_outcome_damage(
    world: &mut World,
    entity: Entity,
    user: &Snapshot,
    ability: &Ability,
    target: &Snapshot,
    effects: &[crate::ability::Effect],
    potency_bonus: i32,
    surges_left: &mut u32,
) -> crate::ability::TierOutcome {
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
    // docs/rules.md#shield: an attack's damage (an ability with a power roll)
    // is reduced by the target's shields, once per attack.
    let attack = ability.power_roll.is_some() && target.id != user.id;
    let mut shield = if attack && !outcome.damage.is_empty() {
        shield_against_attack(world, target)
    } else {
        0
    };
    // docs/rules.md#surges: each surge deals extra damage equal to the highest
    // characteristic, to one creature targeted.
    for (i, (amount, t)) in outcome.damage.iter().enumerate() {
        let mut amount = *amount;
        if shield > 0 {
            let stopped = shield.min(amount.max(0));
            amount -= stopped;
            shield -= stopped;
            if stopped > 0 {
                emit(
                    world,
                    LogEntry::Shielded {
                        creature: target.id,
                        prevented: stopped,
                    },
                );
            }
        }
        if i == 0 {
            amount += spend_damage_surges(world, entity, user, surges_left);
        }
        deal_damage(world, target.entity, target.id, amount, *t, Some(user.id));
    }
    outcome
}

/// A target's effects once the damage is dealt: in the order presented, to
/// a target the damage left alive (the dead are moved by nothing, since a
/// minion's fall would take more of its squad's pool, and take no
/// conditions or help); then its retaliation. Returns what the user gains.
pub(crate) fn finish_outcome(
    world: &mut World,
    entity: Entity,
    user: &Snapshot,
    ability: &Ability,
    target: &Snapshot,
    source: Footprint,
    outcome: crate::ability::TierOutcome,
) -> Gains {
    if world
        .comp::<Stamina>(target.entity)
        .is_some_and(|s| !s.is_dead())
    {
        effects_after_damage(world, user, ability, target, source, &outcome);
    }
    if ability.power_roll.is_some() && target.id != user.id {
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
        // Prepared by a concentration ability: it expires with it.
        prepare: outcome
            .prepare
            .into_iter()
            .map(|(a, lasts)| (a, lasts, ability.concentration.then(|| ability.id.clone())))
            .collect(),
    }
}

/// An outcome's forced movement, conditions and help, in that order, on a
/// target the damage left standing.
pub(super) fn effects_after_damage(
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
        if c.applies && c.save && !saved_as_it_lands(world, target, &c.conditions) {
            continue;
        }
        for &kind in &c.conditions {
            if !c.applies {
                emit(
                    world,
                    LogEntry::ConditionResisted {
                        target: target.id,
                        condition: kind,
                    },
                );
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

/// docs/rules.md#ability-saves: the target of `save, ...` saves as the
/// effect lands, the ability's score shifting the save ("[..6] Low. The
/// target gets an Advantage on their Save ... [10!] Critical Success. The
/// target automatically Fails"; "[0!] Critical Failure. The target
/// automatically Passes"). An ability with no roll is a Mixed score: a
/// plain save. Returns whether the conditions take hold.
fn saved_as_it_lands(world: &mut World, target: &Snapshot, kinds: &[ConditionKind]) -> bool {
    if world
        .comp::<Stamina>(target.entity)
        .is_none_or(|s| s.is_dead())
    {
        return false;
    }
    let shift = match world.get_res::<RollFacts>() {
        Some(f) => crate::conditions::SaveShift::from_roll(f.tier, f.critical, f.fumble),
        None => Some(crate::conditions::SaveShift::None),
    };
    let condition = kinds.first().copied().unwrap_or(ConditionKind::Dazed);
    let Some(shift) = shift else {
        emit(
            world,
            LogEntry::SavedAsItLands {
                creature: target.id,
                roll: None,
                condition,
                success: true,
            },
        );
        return false;
    };
    let rules = crate::encounter::ruleset::of(world);
    let (save_target, roll) = (rules.save_target(world), rules.save_dice());
    let (total, success) = {
        let mut dice = world.res_mut::<crate::dice::Dice>();
        crate::saves::shifted_save(shift, &mut dice, &roll, save_target)
    };
    emit(
        world,
        LogEntry::SavedAsItLands {
            creature: target.id,
            roll: Some(total),
            condition,
            success,
        },
    );
    !success
}

/// The effects that help their target: stamina regained, temporary stamina,
/// surges granted, active bonuses, a shift toward the enemy and a free
/// strike (in that order).
pub(super) fn support(
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
        emit(
            world,
            LogEntry::TemporaryStamina {
                creature: target.id,
                amount: outcome.temporary as i32,
            },
        );
    }
    if outcome.grant_surges > 0
        && let Some(mut h) = world.comp_mut::<Heroic>(target.entity)
    {
        h.surges += outcome.grant_surges;
        let total = h.surges;
        emit(
            world,
            LogEntry::SurgesGained {
                creature: target.id,
                amount: outcome.grant_surges,
                total,
            },
        );
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
            xp: spec.xp,
        };
        match world.comp_mut::<Bonuses>(target.entity) {
            Some(mut b) => b.gain(bonus),
            None => {
                world.entity_mut(target.entity).insert(Bonuses(vec![bonus]));
            }
        }
        emit(
            world,
            LogEntry::BonusGained {
                creature: target.id,
                bonus: bonus_text(spec),
            },
        );
    }
    if outcome.shift > 0 {
        granted_shift(world, target.entity, target.id, outcome.shift);
    }
    if outcome.teleport > 0 && alive(world) {
        super::basic::granted_teleport(world, target.entity, target.id, outcome.teleport);
    }
    if outcome.free_strike && alive(world) {
        granted_strike(world, target.entity, target.id);
    }
    // docs/rules.md#critical-hit: "a signature ability used as a free
    // triggered action with the assistance of the tactician's Strike Now":
    // the target is asked at once which, and at whom.
    if outcome.signature_strike && alive(world) {
        crate::encounter::react::ask(
            world,
            crate::encounter::state::work::Event {
                kind: crate::ability::TriggerEvent::StrikeNow,
                actor: user,
                subject: Some(target.id),
            },
            vec![target.id],
        );
    }
}

/// The shield a target has against one attack; persistent shields spend a use.
pub(crate) fn shield_against_attack(world: &mut World, target: &Snapshot) -> i32 {
    let Some(mut b) = world.comp_mut::<Bonuses>(target.entity) else {
        return 0;
    };
    let n = b.shield() as i32;
    if n == 0 {
        return 0;
    }
    let used = b.use_up(|x| matches!(x.kind, crate::ability::BonusKind::Shield(_)));
    for giver in used.experience {
        crate::encounter::gather::gain_experience(world, giver, 1);
    }
    for ability in used.ended {
        emit(
            world,
            LogEntry::BonusEnded {
                creature: target.id,
                ability,
            },
        );
    }
    n
}

/// docs/rules.md#retaliate: after the attack, unless the target fell, X damage
/// to the attacker if within the retaliation's range; not an attack.
pub(crate) fn retaliate(
    world: &mut World,
    attacker: Entity,
    attacker_id: CreatureId,
    target: &Snapshot,
) {
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
    let used = b.use_up(|x| {
        matches!(x.kind, crate::ability::BonusKind::Retaliate { range, .. } if distance <= range)
    });
    emit(
        world,
        LogEntry::Retaliated {
            creature: target.id,
            attacker: attacker_id,
            amount,
        },
    );
    deal_damage(
        world,
        attacker,
        attacker_id,
        amount,
        DamageType::Untyped,
        Some(target.id),
    );
    for giver in used.experience {
        crate::encounter::gather::gain_experience(world, giver, 1);
    }
    for ability in used.ended {
        emit(
            world,
            LogEntry::BonusEnded {
                creature: target.id,
                ability,
            },
        );
    }
}

/// Regain stamina up to the maximum (a dying hero too; not the dead): the
/// "Heal X" effect (docs/rules.md#heal) and every other healing.
pub(crate) fn heal(world: &mut World, entity: Entity, id: CreatureId, amount: i32) {
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
    emit(
        world,
        LogEntry::Healed {
            creature: id,
            amount: gained,
            stamina: now,
        },
    );
    ally_healed(world, entity);
    // docs/rules.md#stamina: a locked Stamina point bank is affected "up or down".
    crate::encounter::concentration::affected(world, id, &[crate::ability::Component::Stamina]);
}

/// The talent's cost: at the end of its turn, 1 damage per point below 0.
pub(crate) fn strain(world: &mut World, ended: &[CreatureId]) {
    for &id in ended {
        let Some(e) = entity_of(world, id) else {
            continue;
        };
        let n = world.comp::<Heroic>(e).map_or(0, |h| h.strain) as i32;
        if n > 0 && world.comp::<Stamina>(e).is_some_and(|s| !s.is_dead()) {
            emit(
                world,
                LogEntry::Strained {
                    creature: id,
                    amount: n,
                },
            );
            deal_damage(world, e, id, n, DamageType::Untyped, None);
        }
    }
}

/// What one target's tier gives the user.
pub(crate) struct Gains {
    pub(super) total: u32,
    pub(super) surges: u32,
    pub(super) resources: Vec<(String, u32)>,
    /// docs/rules.md#cover-and-high-ground's effects on the user: summons, loot, recover, refresh.
    pub(super) summons: Vec<String>,
    pub(super) loot: Option<u32>,
    pub(super) recover: u32,
    pub(super) refresh: u32,
    pub(super) signals: Vec<String>,
    /// Abilities prepared, how long, and the concentration ability that
    /// prepared them.
    pub(super) prepare: Vec<(String, crate::ability::Prepared, Option<String>)>,
}

/// Apply an ability's gains to its user: surges, its heroic resource, or
/// the Director's Malice.
pub(crate) fn gain_for_user(world: &mut World, entity: Entity, id: CreatureId, gains: &Gains) {
    let (surges, resources) = (gains.surges, &gains.resources);
    for stat_block in &gains.summons {
        super::summon::summon(world, entity, stat_block);
    }
    if let Some(range) = gains.loot {
        crate::encounter::gather::loot(world, entity, id, range);
    }
    if gains.recover > 0 {
        crate::encounter::gather::recover(world, entity, id, gains.recover, false);
    }
    if gains.refresh > 0 {
        crate::encounter::gather::recover(world, entity, id, gains.refresh, true);
    }
    for command in &gains.signals {
        super::glyph::signal(world, id, command);
    }
    for (ability, lasts, source) in &gains.prepare {
        crate::encounter::gather::prepare(world, entity, id, ability, *lasts, source.clone());
    }
    if surges > 0
        && let Some(mut h) = world.comp_mut::<Heroic>(entity)
    {
        h.surges += surges;
        let total = h.surges;
        emit(
            world,
            LogEntry::SurgesGained {
                creature: id,
                amount: surges,
                total,
            },
        );
    }
    for (name, amount) in resources {
        if name == "malice" {
            let mut m = world.res_mut::<Malice>();
            m.0 += amount;
            let total = m.0;
            emit(
                world,
                LogEntry::MaliceGained {
                    amount: *amount,
                    total,
                },
            );
        } else if let Some(mut h) = world
            .comp_mut::<Heroic>(entity)
            .filter(|h| &h.resource == name)
        {
            h.gain(*amount);
            let (resource, total) = (h.resource.clone(), h.amount);
            emit(
                world,
                LogEntry::ResourceGained {
                    creature: id,
                    resource,
                    amount: *amount,
                    total,
                },
            );
            if *amount > 0 {
                crate::encounter::concentration::resource_changed(world, id);
            }
        }
    }
}

pub(crate) fn impose(
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
        // docs/rules.md#grabbed: "A creature can grab only creatures of their
        // size or smaller. If a creature's Might score is 2 or higher, they
        // can grab any creature larger than them with a size equal to or less
        // than their Might score." "Unless otherwise indicated, a creature can
        // grab only one creature at a time": grabbing another lets go of the first.
        let Some(se) = entity_of(world, source) else {
            return;
        };
        // docs/rules.md#size-and-space: sizes as 1T < 1S < 1M < 1L < 2.
        let size = |e: Entity| {
            world
                .comp::<Creature>(e)
                .map_or_else(Default::default, |c| c.size)
        };
        let might = world.comp::<Characteristics>(se).map_or(0, |c| c.might);
        if !crate::stats::may_grab(size(se), might, size(entity)) {
            emit(
                world,
                LogEntry::ConditionResisted {
                    target: id,
                    condition: kind,
                },
            );
            return;
        }
        for (other, oe) in grabbed_by(world, source) {
            if other != id {
                release(world, oe, other, source);
            }
        }
    }
    // docs/rules.md#ability-saves: "[0!] Critical Failure. The target
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
        emit(
            world,
            LogEntry::ConditionResisted {
                target: id,
                condition: kind,
            },
        );
        return;
    };
    // docs/rules.md#durations: "(N rounds)" ends at the start of the turn
    // it began on, N rounds on.
    let duration = if let Duration::Rounds(_) = duration {
        let flow = world.res::<Flow>();
        let d = duration.imposed(flow.round, flow.active.unwrap_or(source));
        world.insert_resource(crate::encounter::state::board::RoundsInPlay);
        d
    } else {
        duration
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
        emit(
            world,
            LogEntry::ConditionGained {
                target: id,
                condition: kind,
                duration: duration.to_string(),
            },
        );
        // docs/rules.md#prone: "If they are climbing, flying, or jumping
        // when knocked prone, they fall": a flier up over a pit or ledge.
        if kind == ConditionKind::Prone && ability != "fall" && aloft(world, entity) {
            fall_from_gap(world, entity, id);
        }
        // docs/rules.md#components: knocked prone, grabbed or restrained, the
        // creature's lasting abilities that need standing or hands shake.
        if let Some(c) = crate::ability::Component::affected_by(kind) {
            crate::encounter::concentration::affected(world, id, &[c]);
        }
    }
}

/// A hero's own resource trigger fires, at most once a round.
pub(crate) fn trigger_resource(
    world: &mut World,
    entity: Entity,
    which: crate::content::ResourceTrigger,
) {
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
    emit(
        world,
        LogEntry::ResourceGained {
            creature: id,
            resource,
            amount,
            total,
        },
    );
    if amount > 0 {
        crate::encounter::concentration::resource_changed(world, id);
    }
}

/// A creature regained stamina: heroes whose trigger is an ally within 10
/// squares regaining stamina gain their resource.
pub(super) fn ally_healed(world: &mut World, healed: Entity) {
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

/// docs/rules.md#potency-adjustments: what abilities and features add to
/// the potencies of `user`'s abilities against `target`: its class's bonus
/// against a creature it has marked (the censor's judged target), and the
/// enemies' auras around it (a null's field).
pub(crate) fn potency_adjustment(world: &World, user: &Snapshot, target: &Snapshot) -> i32 {
    let mut n = 0;
    let bonus = world
        .comp::<Heroic>(user.entity)
        .map_or(0, |h| h.potency_vs_marked);
    if bonus != 0 && target.id != user.id && super::marked_by(world, target.entity, user.id) {
        n += bonus;
    }
    n + super::aura::potency_from_auras(world, user.id, user.side, user.space)
}

/// docs/rules.md#surges: "spend up to 3 surges to deal extra damage to one
/// creature or object targeted by the ability", each the user's highest
/// characteristic: the surges left for damage, spent now (none are left
/// after), setting off the user's trigger for spending one. The extra
/// damage (0 with none left).
pub(crate) fn spend_damage_surges(
    world: &mut World,
    entity: Entity,
    user: &Snapshot,
    surges_left: &mut u32,
) -> i32 {
    if *surges_left == 0 {
        return 0;
    }
    let n = (*surges_left).min(3);
    if let Some(mut h) = world.comp_mut::<Heroic>(entity) {
        h.surges = h.surges.saturating_sub(n);
    }
    *surges_left = 0;
    trigger_resource(world, entity, crate::content::ResourceTrigger::SurgeSpent);
    n as i32 * user.chars.highest()
}
