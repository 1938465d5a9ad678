//! The phased ruleset's attacks: 2d6 + ATK against DEF, with the
//! advantage die from every source of edges and banes
//! (docs/rules.md#phased-attacks).

use super::*;

/// The sources of advantage and disadvantage on one attack: the power-roll
/// edges and banes (conditions, flanking, cover, ...) count one each, then
/// the round's (seizing, hustle, charge, disengage) and the creatures' tier
/// difference (docs/rules.md#phased-attacks).
pub(super) fn sources(
    world: &World,
    user: &Snapshot,
    target: &Snapshot,
    edges: u32,
    banes: u32,
) -> (u32, u32) {
    let (Some(rules), Some(p)) = (rules(world), round(world)) else {
        return (edges, banes);
    };
    let round_no = world.res::<Flow>().round;
    let level = |e: Entity| world.comp::<Creature>(e).map_or(1, |c| c.level);
    let mut s = p.attack_sources(user.id, target.id, round_no, rules);
    if target.side != user.side {
        s += tier_difference(
            rules.creature_tier(level(user.entity)),
            rules.creature_tier(level(target.entity)),
        );
    }
    (edges + s.max(0) as u32, banes + (-s).max(0) as u32)
}

/// DEF: the ruleset's base plus the target's Agility. An ability rolled on
/// the user or an ally meets the bare base (our ruling: it is not dodged).
pub(super) fn defense(rules: &PhasedRules, user: &Snapshot, target: &Snapshot) -> i32 {
    if target.side == user.side {
        rules.defense_base
    } else {
        rules.defense_base + target.chars.agility
    }
}

/// docs/rules.md#phased-attacks: "roll 2d6 + attack (ATK) modifier. If the result is
/// greater than or equal to the targets defense (DEF), the attack is a
/// success", with the extra die for its sources. `dice` is the roll's 2d6
/// (one for every target); the extra die is rolled per target. Returns the
/// tier the hit lands at; `None` is a miss. On the user's own side a miss
/// still lands at tier 1 (our ruling).
pub(super) fn attack(
    world: &mut World,
    user: &Snapshot,
    target: &Snapshot,
    attack: i32,
    (edges, banes): (u32, u32),
    dice: [u32; 2],
) -> Option<Tier> {
    let rules = rules(world)?.clone();
    let (adv, dis) = sources(world, user, target, edges, banes);
    let extra = extra_die(adv, dis, rules.sources_cancel);
    let rolled = extra.map(|(sides, keep)| (sides, world.res_mut::<Dice>().roll(sides), keep));
    let total = keep_two(dice, rolled.map(|(_, v, k)| (v, k))) as i32 + attack;
    let defense = defense(&rules, user, target);
    let mut tier = attack_tier(total, defense, &rules).and_then(Tier::from_number);
    if tier.is_none() && target.side == user.side {
        tier = Some(Tier::One);
    }
    emit(
        world,
        LogEntry::Attack2d6 {
            target: target.id,
            dice,
            extra: rolled,
            attack,
            total,
            defense,
            tier,
        },
    );
    tier
}

/// The chance of a miss (tier 1 on one's own side), tier 2 and tier 3 for
/// [`attack`], for previews and the AI.
pub(super) fn odds(
    world: &World,
    user: &Snapshot,
    target: &Snapshot,
    attack: i32,
    (edges, banes): (u32, u32),
) -> Option<[f64; 3]> {
    let rules = rules(world)?;
    let (adv, dis) = sources(world, user, target, edges, banes);
    let extra = extra_die(adv, dis, rules.sources_cancel);
    Some(tier_odds(
        attack,
        defense(rules, user, target),
        extra,
        rules,
    ))
}

/// A free strike (or opportunity attack) is an attack too: 2d6 + the better
/// of the ruleset's `free_strike_attack` characteristics. `true` on a hit.
pub(super) fn free_strike_lands(world: &mut World, attacker: Entity, target: Entity) -> bool {
    let Some(rules) = rules(world).cloned() else {
        return true;
    };
    let (Some(user), Some(t)) = (
        world::snapshot(world, attacker),
        world::snapshot(world, target),
    ) else {
        return false;
    };
    let atk = user
        .chars
        .best_of(&rules.free_strike_attack)
        .map_or(0, |(_, v)| v);
    let dice = {
        let mut d = world.res_mut::<Dice>();
        [d.roll(6), d.roll(6)]
    };
    attack(world, &user, &t, atk, (0, 0), dice).is_some()
}

/// The chance a free strike lands (1 outside the phased ruleset).
pub(super) fn free_strike_odds(world: &World, attacker: Entity, target: Entity) -> f64 {
    let Some(rules) = rules(world) else {
        return 1.0;
    };
    let (Some(user), Some(t)) = (
        world::snapshot(world, attacker),
        world::snapshot(world, target),
    ) else {
        return 0.0;
    };
    let atk = user
        .chars
        .best_of(&rules.free_strike_attack)
        .map_or(0, |(_, v)| v);
    odds(world, &user, &t, atk, (0, 0)).map_or(1.0, |o| 1.0 - o[0])
}
