//! The power roll of an ability: its edges and banes, the roll itself, and
//! each target's tier.

use super::*;
use crate::encounter::log::emit;
use crate::encounter::state::board::Battlefield;
use crate::encounter::state::work::{PendingRoll, RollFacts};

/// Make a waiting roll: the user must still be standing; strike targets
/// must still be alive, in reach and in line of effect; an area affects
/// whoever it reaches now.
pub(crate) fn run_roll(world: &mut World, r: PendingRoll) {
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
            if !target_allowed(world, &ability.target, &user, &ts) {
                continue;
            }
        } else if t != r.user {
            let reach = ability.distance.reach();
            if user.space.distance(ts.space) > reach
                || (!ability.true_distance && !line_of_effect(&map, user.space, ts.space))
            {
                emit(
                    world,
                    LogEntry::TargetLost {
                        creature: r.user,
                        target: t,
                    },
                );
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
    // docs/rules.md#objects: the objects it strikes, still standing, or
    // those its area reaches, for an ability that may target objects.
    let objects: Vec<Pos> = if !ability
        .target
        .kinds
        .contains(&crate::ability::TargetKind::Object)
    {
        Vec::new()
    } else {
        match &r.area {
            // (An object is solid: the area reaches it if it covers it and
            // its origin has a line of effect to its square.)
            Some(area) => {
                let from = r.source.unwrap_or(user.space);
                area.covered
                    .iter()
                    .copied()
                    .filter(|&p| {
                        map.cell(p).object.is_some()
                            && (area.reaches(p)
                                || from.contains(p)
                                || crate::map::los::line_of_effect_to_square(&map, from, p))
                    })
                    .collect()
            }
            None => r
                .objects
                .iter()
                .copied()
                .filter(|&p| map.cell(p).object.is_some())
                .collect(),
        }
    };
    // Nobody left to roll against (a strike whose targets were all lost).
    if targets.is_empty() && r.area.is_none() && objects.is_empty() {
        return;
    }
    // docs/rulings.md "Forced movement from an area": a push or pull is
    // measured from the user, wherever the area was placed.
    let source = user.space;
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
            spend: r.spend,
        },
        source,
        &r.extra,
        &objects,
    );
}

/// One target's share of a use: the effects its tier gives, the potency
/// bonus on them, and the roll that chose them (for the saves they shift).
struct Share<'a> {
    target: &'a Snapshot,
    effects: Vec<crate::ability::Effect>,
    potency: i32,
    facts: Option<RollFacts>,
}

/// Resolve one use against its targets, in the order of
/// docs/rules.md#damage-then-effects: one roll for every target
/// (docs/rules.md#multiple-targets), its damage dealt to all of them, then
/// each target's effects in the order presented, then objects and what the
/// user gains. Forced movement is measured from `source`.
#[allow(clippy::too_many_arguments)]
pub(super) fn resolve_roll(
    world: &mut World,
    entity: Entity,
    user: &Snapshot,
    ability: &Ability,
    targets: &[Snapshot],
    choices: Choices,
    source: Footprint,
    extra: &[crate::ability::Effect],
    objects: &[Pos],
) {
    // What landed through potencies, for "Spending Resources on Potencies".
    let mut landed = Landed {
        watch: ability.only_by_potency()
            || (choices.spend > 0 && crate::ability::only_by_potency(extra)),
        ..Landed::default()
    };
    let always: Vec<crate::ability::Effect> = ability
        .effect
        .as_ref()
        .map(|e| e.effects.clone())
        .unwrap_or_default();
    // (Surges add to rolled damage only: docs/rules.md#surges.)
    let mut surges_left = if ability.power_roll.is_some() {
        choices.surges
    } else {
        0
    };
    let (shares, roll, earned) = match &ability.power_roll {
        // No roll: the effect entry applies to each target as written.
        None => {
            let mut effects = always.clone();
            effects.extend_from_slice(extra);
            let shares = targets
                .iter()
                .map(|target| Share {
                    target,
                    effects: effects.clone(),
                    potency: potency_adjustment(world, user, target),
                    facts: None,
                })
                .collect();
            (shares, None, false)
        }
        Some(power_roll) => {
            let roll = RollSetup::new(world, entity, user, ability, targets);
            let (shares, earned) = roll.shares(
                world, entity, user, ability, targets, power_roll, &always, extra, &choices,
            );
            (shares, Some(roll), earned)
        }
    };
    // Every target's damage first...
    let mut outcomes = Vec::with_capacity(shares.len());
    for share in &shares {
        landed.see(&share.effects, extra, user, share.target, share.potency);
        let outcome = deal_outcome_damage(
            world,
            entity,
            user,
            ability,
            share.target,
            &share.effects,
            share.potency,
            &mut surges_left,
        );
        if roll.is_some() {
            shatter_glass_between(world, ability, user, share.target);
        }
        outcomes.push(outcome);
    }
    // ...then each target's effects, on those the damage left standing.
    let mut best_gain: Option<Gains> = None;
    for (share, outcome) in shares.iter().zip(outcomes) {
        match share.facts {
            Some(facts) => world.insert_resource(facts),
            None => {
                world.remove_resource::<RollFacts>();
            }
        }
        let gain = finish_outcome(world, entity, user, ability, share.target, source, outcome);
        // Gains go to the user once, not once per target (docs/rules.md#surges "Abilities
        // With Damage and Effects"): keep the best tier's.
        if best_gain.as_ref().is_none_or(|g| gain.total > g.total) {
            best_gain = Some(gain);
        }
    }
    world.remove_resource::<RollFacts>();
    if let (Some(roll), Some(power_roll)) = (&roll, &ability.power_roll)
        && !objects.is_empty()
    {
        let mut effects = power_roll
            .tier(roll.object_tier(choices.tier))
            .effects
            .clone();
        effects.extend(always.iter().cloned());
        effects.extend_from_slice(extra);
        strike_objects(world, entity, user, &effects, objects, &mut surges_left);
    }
    if earned {
        crate::encounter::gather::gain_experience(world, user.id, ability.experience);
    }
    if let Some(g) = best_gain {
        gain_for_user(world, entity, user.id, &g);
    }
    keep_what_was_resisted(world, entity, user, ability, choices.spend, extra, &landed);
    // Using an ability on an enemy gives a hidden creature away.
    if roll.is_some() && targets.iter().any(|t| t.side != user.side) {
        reveal(world, entity, user.id);
    }
}

/// What one power roll is for every target: the dice, what the ability is
/// for the edge and bane rules, and the banes that come from the user.
struct RollSetup {
    rules: &'static dyn crate::encounter::ruleset::Ruleset,
    spec: RollSpec,
    naturals: [u32; 2],
    facts: AbilityFacts,
    deals_damage: bool,
    creatures: Vec<Occupant>,
    /// Banes from missing components and the user's penalties.
    banes: u32,
    /// docs/rules.md#components: past 3 missing components, a low score.
    low_score: bool,
}

impl RollSetup {
    fn new(
        world: &mut World,
        entity: Entity,
        user: &Snapshot,
        ability: &Ability,
        targets: &[Snapshot],
    ) -> Self {
        let power_roll = ability.power_roll.as_ref().expect("a power roll");
        // One roll for all targets (docs/rules.md#multiple-targets;
        // phased 2d6: its 2d6 and one extra die per target).
        let rules = crate::encounter::ruleset::of(world);
        let characteristic = user
            .chars
            .best_of(&power_roll.characteristics)
            .map_or(0, |(_, v)| v);
        let naturals = rules.roll_naturals(world, user.id, characteristic);
        let spec = RollSpec {
            characteristic,
            main_action_ability: ability.action == ActionType::MainAction,
            ..Default::default()
        };
        let (facts, deals_damage) = ability_facts(ability, targets.iter().map(|t| t.id));
        // docs/rules.md#components: a bane per missing component, past 3 a low score.
        let missing = ability
            .components
            .iter()
            .filter(|c| c.missing(&user.conditions))
            .count() as u32;
        let (component_banes, low_score) = crate::ability::component_penalty(missing);
        if missing > 0 {
            emit(
                world,
                LogEntry::ComponentsMissing {
                    creature: user.id,
                    missing,
                },
            );
        }
        // docs/rules.md#penalties: a bane per stack of the ability's penalties.
        let penalty_banes = world
            .comp::<Stance>(entity)
            .map_or(0, |s| s.penalty_banes(&ability.penalties));
        RollSetup {
            rules,
            spec,
            naturals,
            facts,
            deals_damage,
            creatures: occupants(world),
            banes: component_banes + penalty_banes,
            low_score,
        }
    }

    /// The tier a roll gives, lowered to the one the user chose.
    fn chosen(
        &self,
        rolled: crate::power_roll::Tier,
        chosen: Option<crate::power_roll::Tier>,
    ) -> crate::power_roll::Tier {
        match chosen {
            _ if self.low_score => crate::power_roll::Tier::One,
            Some(t) if t < rolled => t,
            _ => rolled,
        }
    }

    /// The tier the roll gives against objects (no target's edges or banes).
    fn object_tier(&self, chosen: Option<crate::power_roll::Tier>) -> crate::power_roll::Tier {
        self.chosen(
            self.rules
                .object_tier(&self.spec, self.naturals, self.banes),
            chosen,
        )
    }

    /// Each target's tier and the effects it gives them, and whether the
    /// ability's conditional experience was earned (docs/rules.md#experience:
    /// once, if it holds for any target as it is rolled against).
    #[allow(clippy::too_many_arguments)]
    fn shares<'a>(
        &self,
        world: &mut World,
        entity: Entity,
        user: &Snapshot,
        ability: &Ability,
        targets: &'a [Snapshot],
        power_roll: &crate::ability::PowerRoll,
        always: &[crate::ability::Effect],
        extra: &[crate::ability::Effect],
        choices: &Choices,
    ) -> (Vec<Share<'a>>, bool) {
        let map = world.res::<Battlefield>().0.clone();
        let mut critical_logged = false;
        let mut earned = false;
        let mut shares = Vec::with_capacity(targets.len());
        for target in targets {
            let (edges, banes) = edges_and_banes(
                world,
                entity,
                user,
                target,
                &self.facts,
                &self.creatures,
                &map,
                self.deals_damage,
                &|a, b| sight(&map, a, b),
            );
            let banes = banes + self.banes;
            let Some(result) = self.rules.roll_against(
                world,
                user,
                target,
                &self.spec,
                self.naturals,
                edges,
                banes,
            ) else {
                continue;
            };
            earned |= ability
                .experience_if
                .is_some_and(|x| x.holds(user.id, user.side, target.space, &self.creatures));
            let tier = self.chosen(result.tier, choices.tier);
            self.rules
                .tier_reached(world, target.id, &result, tier, edges, banes);
            if result.critical && !critical_logged {
                critical_logged = true;
                critical_hit(world, entity, user, target.id);
            }
            // docs/rules.md#surges: 2 surges raise the potency by 1 for one target.
            let potency = if choices.potency_surges.contains(&target.id) {
                if let Some(mut h) = world.comp_mut::<Heroic>(entity) {
                    h.surges = h.surges.saturating_sub(2);
                }
                1
            } else {
                0
            } + potency_adjustment(world, user, target);
            let mut effects = power_roll.tier(tier).effects.clone();
            crate::encounter::captain::add_damage(world, entity, self.facts.strike, &mut effects);
            effects.extend(always.iter().cloned());
            effects.extend_from_slice(extra);
            shares.push(Share {
                target,
                effects,
                potency,
                facts: Some(RollFacts {
                    tier,
                    critical: result.critical,
                    fumble: self.naturals == [1, 1],
                }),
            });
        }
        (shares, earned)
    }
}

/// docs/rules.md#critical-hit: the user gains a main action; "at once,
/// whether or not it's your turn": off its turn (an opportunity attack, a
/// triggered ability) the creature is asked now, once this roll is done.
fn critical_hit(world: &mut World, entity: Entity, user: &Snapshot, target: CreatureId) {
    dramatic_moment(world, user.space);
    if let Some(mut budget) = world.comp_mut::<TurnBudget>(entity) {
        crate::actions::grant_critical_main(&mut budget);
    }
    emit(world, LogEntry::CriticalHit { creature: user.id });
    if !world
        .res::<crate::encounter::state::turn::Flow>()
        .is_acting(user.id)
    {
        crate::encounter::react::ask(
            world,
            crate::encounter::state::work::Event {
                kind: crate::ability::TriggerEvent::CriticalHit,
                actor: user.id,
                subject: Some(target),
            },
            vec![user.id],
        );
    }
}

/// What an ability is, for the edge and bane rules, and whether cover
/// matters: only when a tier deals damage, and never at a "true" distance
/// (docs/rules.md#distances-and-targets: the target "cannot benefit from taking cover").
pub(crate) fn ability_facts(
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

/// The edges and banes on one target of a roll: conditions (docs/rules.md#flanking "Edges
/// and banes", docs/rules.md#conditions), flanking, cover, surprise, high
/// ground, and our Defend and Hide rulings. `see` is [`sight`] on `map`
/// (a forecaster hands over the sights it keeps).
#[allow(clippy::too_many_arguments)]
pub(crate) fn edges_and_banes(
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
    // docs/rules.md#actions-on-a-turn: rolls against surprised creatures gain an edge
    // until the end of round 1.
    if surprised_side(world) == Some(target.side) {
        edges += 1;
    }
    // docs/rules.md#flanking: "High ground gives an edge" (the user stands
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
        banes += world
            .res::<crate::encounter::state::turn::ActiveRuleset>()
            .0
            .defend_banes;
    }
    if target.side != user.side && world.comp::<Stance>(entity).is_some_and(|s| s.hidden) {
        edges += 1;
    }
    edges += crate::encounter::captain::edge(world, entity, facts.strike);
    (edges, banes)
}

/// What a command chose about an ability's roll.
pub(super) struct Choices<'a> {
    pub(super) surges: u32,
    pub(super) potency_surges: &'a [CreatureId],
    pub(crate) tier: Option<crate::power_roll::Tier>,
    /// Heroic resource spent on the ability's "Spend X" (its `extra`).
    pub(super) spend: u32,
}

/// What reached the targets of one use through potencies.
#[derive(Default)]
struct Landed {
    /// Whether anything can come back (the ability or its Spend acts only
    /// through potencies): if not, what landed is not worked out, as most
    /// rolls need not evaluate their effects twice.
    watch: bool,
    /// Targets the outcome was checked on.
    targets: u32,
    /// Some potency-gated effect took hold on some target.
    any: bool,
    /// Some effect of the "Spend X" entries took hold.
    spend: bool,
}

impl Landed {
    /// Note what `effects` (of which `extra` is the "Spend X" part) do to
    /// `target`, with the potency raised by `bonus`.
    fn see(
        &mut self,
        effects: &[crate::ability::Effect],
        extra: &[crate::ability::Effect],
        user: &Snapshot,
        target: &Snapshot,
        bonus: i32,
    ) {
        let took = |effects: &[crate::ability::Effect]| {
            let o = crate::ability::evaluate(effects, &user.chars, &target.chars, bonus);
            o.conditions.iter().any(|c| c.applies) || o.forced.iter().any(|f| f.applies)
        };
        self.targets += 1;
        if !self.watch {
            return;
        }
        self.any |= took(effects);
        if !extra.is_empty() {
            self.spend |= took(extra);
        }
    }
}

/// docs/rules.md#potency ("Spending Resources on Potencies"): a heroic
/// resource or Malice spent on what acts only through potencies is not
/// spent when every target resists. The ability's own cost comes back if
/// the whole ability is such; the "Spend X" amount if its entries are.
fn keep_what_was_resisted(
    world: &mut World,
    entity: Entity,
    user: &Snapshot,
    ability: &Ability,
    spend: u32,
    extra: &[crate::ability::Effect],
    landed: &Landed,
) {
    if landed.targets == 0 {
        return;
    }
    let whole = ability.only_by_potency() && !landed.any;
    let (cost_heroic, cost_malice) = match ability.cost {
        Cost::Heroic(n) if whole => (n, 0),
        Cost::Malice(n) if whole => (0, n),
        _ => (0, 0),
    };
    let spent_back =
        if spend > 0 && (whole || (crate::ability::only_by_potency(extra) && !landed.spend)) {
            spend
        } else {
            0
        };
    let heroic = cost_heroic + spent_back;
    if heroic > 0
        && let Some(mut h) = world.comp_mut::<Heroic>(entity)
    {
        h.gain(heroic);
        let (resource, total) = (h.resource.clone(), h.amount);
        emit(
            world,
            LogEntry::ResourceKept {
                creature: user.id,
                resource,
                amount: heroic,
                total,
            },
        );
        crate::encounter::concentration::resource_changed(world, user.id);
    }
    if cost_malice > 0 {
        let total = {
            let mut m = world.res_mut::<Malice>();
            m.0 += cost_malice;
            m.0
        };
        emit(
            world,
            LogEntry::ResourceKept {
                creature: user.id,
                resource: "Malice".into(),
                amount: cost_malice,
                total,
            },
        );
    }
}

/// docs/rules.md#objects: each of `objects` takes the damage of `effects`
/// (none of their other effects: "objects are immune to an ability's other
/// effects"), the first with the surges left for damage
/// (docs/rules.md#surges: "extra damage to one creature or object").
fn strike_objects(
    world: &mut World,
    entity: Entity,
    user: &Snapshot,
    effects: &[crate::ability::Effect],
    objects: &[Pos],
    surges_left: &mut u32,
) {
    let out = evaluate(effects, &user.chars, &Characteristics::default(), 0);
    let mut amount = crate::stats::object_damage(&out.damage);
    if amount > 0 {
        amount += spend_damage_surges(world, entity, user, surges_left);
    }
    for &at in objects {
        damage_object(world, user.id, at, amount);
        // (The surges' damage went to the first.)
        amount = crate::stats::object_damage(&out.damage);
    }
}

/// docs/rules.md#line-of-effect: glass and other "flimsy or fragile
/// obstructions ... might be automatically broken or torn by strikes or
/// other abilities used through them". Our ruling (docs/rulings.md): a
/// strike breaks each glass object its line crosses, centre to centre.
fn shatter_glass_between(world: &mut World, ability: &Ability, user: &Snapshot, target: &Snapshot) {
    if !ability.has(crate::ability::Keyword::Strike) || ability.distance.is_area() {
        return;
    }
    let map = &world.res::<Battlefield>().0;
    let glass: Vec<Pos> = crate::map::squares_between(user.space.pos, target.space.pos)
        .into_iter()
        .filter(|&p| {
            map.cell(p)
                .object
                .is_some_and(|o| o.material == crate::map::grid::Material::Glass)
        })
        .collect();
    for at in glass {
        world
            .res_mut::<Battlefield>()
            .map_mut()
            .set_object(at, None);
        emit(world, LogEntry::GlassShattered { by: user.id, at });
    }
}
