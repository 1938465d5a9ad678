//! What an ability would do, before it is used: for each target, the edges
//! and banes, the exact chance of each tier on 2d10 (docs/rules.md#forced-movement "Edges and
//! banes"), and each tier's damage after immunity and weakness, conditions
//! that would stick past potency, and forced movement. The AI weighs
//! commands with it; the client shows it in tooltips. Nothing is rolled and
//! nothing changes.

use crate::encounter::world;
use crate::fast::KeyedWorld;
use std::cell::RefCell;
use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::Encounter;
use super::command::Command;
use super::resolve::{self, edges_and_banes};
use super::state::board::Battlefield;
use super::state::components::*;
use super::world::{entity_of, occupants, snapshot};
use crate::ability::{ActionType, ForcedKind, evaluate};
use crate::conditions::ConditionKind;
use crate::content::Content;
use crate::map::{Footprint, Sight, sight};
use crate::power_roll::{RollSpec, tier_probabilities};
use crate::stats::{CreatureId, DamageTraits, DamageType, Stamina};

/// One tier's outcome on one target.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TierOutcome {
    /// Damage after the target's immunities and weaknesses.
    pub damage: i32,
    /// Conditions that would take hold (potency already checked).
    pub conditions: Vec<ConditionKind>,
    /// Conditions the target would resist.
    pub resisted: Vec<ConditionKind>,
    /// Conditions the target saves against as they land
    /// (docs/rules.md#ability-saves): they take hold if it fails.
    #[serde(default)]
    pub saved: Vec<ConditionKind>,
    pub forced: Option<(ForcedKind, u32)>,
    /// Help for the target: stamina regained, temporary stamina, surges
    /// granted, squares of shift, and whether it makes a free strike.
    #[serde(default)]
    pub heal: u32,
    #[serde(default)]
    pub temporary: u32,
    #[serde(default)]
    pub grant_surges: u32,
    #[serde(default)]
    pub shift: u32,
    /// Squares the target teleports.
    #[serde(default)]
    pub teleport: u32,
    #[serde(default)]
    pub free_strike: bool,
    /// The target uses a signature ability at once (Strike Now).
    #[serde(default)]
    pub signature_strike: bool,
    /// docs/rules.md#shield bonuses gained: shield and retaliation per attack.
    #[serde(default)]
    pub shield: u32,
    #[serde(default)]
    pub retaliate: u32,
    /// Creatures summoned next to the user.
    #[serde(default)]
    pub summons: u32,
    /// Surges the user gains.
    #[serde(default)]
    pub surges: u32,
}

/// One target's forecast.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TargetPreview {
    pub target: CreatureId,
    pub edges: u32,
    pub banes: u32,
    /// The chance of tier 1, 2 and 3 (1.0 in total; no roll: tier 1 certain).
    pub chances: [f64; 3],
    pub tiers: [TierOutcome; 3],
    /// Damage on average over the tiers.
    pub expected_damage: f64,
    /// The chance that the damage takes the target to 0 or below.
    pub kill_chance: f64,
}

/// A forecast for one command (see [`Encounter::preview`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Preview {
    pub ability: String,
    pub targets: Vec<TargetPreview>,
    /// A lasting aura: the targets are the creatures in it now, and their
    /// outcomes what the aura does each time it acts on them.
    #[serde(default)]
    pub aura: bool,
}

impl Preview {
    pub fn expected_damage(&self) -> f64 {
        self.targets.iter().map(|t| t.expected_damage).sum()
    }
}

impl Encounter {
    /// Where an area ability would land if placed so: the squares it covers
    /// and those its effect reaches (for drawing the template), or why it
    /// can't go there. `placement`'s creature is the user.
    pub fn area_of(
        &self,
        creature: CreatureId,
        ability: &str,
        placement: &super::command::Placement,
    ) -> Result<crate::map::area::Area, super::Refusal> {
        let world = self.world();
        let content = world.res::<Content>().clone();
        let ab = content
            .ability(ability)
            .ok_or_else(|| super::Refusal::UnknownAbility(ability.to_string()))?;
        let user = entity_of(world, creature)
            .and_then(|e| world.comp::<Space>(e))
            .map(|s| s.0)
            .ok_or(super::Refusal::NoSuchCreature(super::command::Who::id(
                creature,
            )))?;
        let map = &world.res::<Battlefield>().0;
        super::check::place_area(map, &occupants(world), user, ab.distance, placement)
            .map(|(a, _)| a)
    }

    /// Forecast a `UseAbility`, `UseAreaAbility`, `FreeStrike` or `Charge`
    /// command as things stand (a charge as if from its last square). `None`
    /// for other commands or ones that name nothing usable.
    pub fn preview(&self, cmd: &Command) -> Option<Preview> {
        self.preview_from(cmd, None)
    }

    /// [`preview`](Encounter::preview) as if the user stood at `from` (to
    /// weigh a move by what could be done after it).
    pub fn preview_from(&self, cmd: &Command, from: Option<crate::map::Pos>) -> Option<Preview> {
        self.forecaster().preview_from(cmd, from)
    }

    /// A [`Forecaster`] for many forecasts of the encounter as it stands.
    pub fn forecaster(&self) -> Forecaster<'_> {
        let world = self.world();
        Forecaster {
            world,
            content: world.res::<Content>().0.clone(),
            map: world.res::<Battlefield>().0.clone(),
            creatures: occupants(world),
            creature: Default::default(),
            sights: Default::default(),
            tiers: Default::default(),
        }
    }
}

/// Forecasts of one moment of an encounter, many at a time: the AI weighs
/// dozens of commands a decision, and each move by the attacks it would
/// lead to from where it ends. What those share is worked out once and
/// kept: who stands where, each creature as a roll reads it, how each space
/// sees another, and each ability's tiers against each target (which
/// depend on neither one's place). The forecasts are those of
/// [`Encounter::preview_from`], which makes one for each.
pub struct Forecaster<'a> {
    world: &'a bevy_ecs::world::World,
    content: std::sync::Arc<crate::content::ContentDb>,
    map: std::sync::Arc<crate::map::Map>,
    creatures: Vec<crate::map::Occupant>,
    /// Each creature as a roll reads it, and the stamina it has left to lose.
    creature: RefCell<Kept<CreatureId, Option<(world::Snapshot, i32)>>>,
    sights: RefCell<Kept<(Footprint, Footprint), Sight>>,
    /// Each ability's tiers by user and target.
    tiers: RefCell<Kept<(CreatureId, CreatureId), AbilityTiers>>,
}

/// Abilities' three tiers on one target, by ability id.
type AbilityTiers = Vec<(String, [TierOutcome; 3])>;

/// What a forecaster keeps, by a quick hash of small keys.
type Kept<K, V> = HashMap<K, V, foldhash::fast::FixedState>;

impl Forecaster<'_> {
    /// A creature as a roll reads it, and what it has left to lose.
    fn creature(&self, id: CreatureId) -> Option<(world::Snapshot, i32)> {
        self.creature
            .borrow_mut()
            .entry(id)
            .or_insert_with(|| {
                let e = entity_of(self.world, id)?;
                Some((snapshot(self.world, e)?, stamina_left(self.world, e)))
            })
            .clone()
    }

    /// How `from` sees `to` ([`sight`]).
    fn sight(&self, from: Footprint, to: Footprint) -> Sight {
        *self
            .sights
            .borrow_mut()
            .entry((from, to))
            .or_insert_with(|| sight(&self.map, from, to))
    }

    /// [`Encounter::preview`].
    pub fn preview(&self, cmd: &Command) -> Option<Preview> {
        self.preview_from(cmd, None)
    }

    /// [`Encounter::preview_from`].
    pub fn preview_from(&self, cmd: &Command, from: Option<crate::map::Pos>) -> Option<Preview> {
        let world = self.world;
        let Asked {
            user: user_id,
            ability: ability_id,
            targets,
            placement,
            at,
            surges,
            potency_surges,
            spend,
        } = match Asked::of(cmd)? {
            Ok(asked) => asked,
            Err((creature, target, at)) => {
                return free_strike_preview(world, creature, target, at);
            }
        };
        let ability = self.content.ability(ability_id)?;
        let extra = if spend > 0 {
            crate::ability::spend_effects(&ability.spend, spend).unwrap_or_default()
        } else {
            Vec::new()
        };
        let (mut user, _) = self.creature(user_id)?;
        if let Some(p) = at.or(from) {
            user.space.pos = p;
        }
        let (map, creatures) = (&*self.map, &self.creatures[..]);
        let target_ids = match placement {
            Some(p) => self.area_targets(&user, ability, p)?,
            None => targets.to_vec(),
        };
        let mut snaps = Vec::with_capacity(target_ids.len());
        for t in &target_ids {
            snaps.push(self.creature(*t)?);
        }
        let (facts, deals_damage) = resolve::ability_facts(ability, target_ids.iter().copied());
        let characteristic = ability.power_roll.as_ref().map_or(0, |p| {
            user.chars.best_of(&p.characteristics).map_or(0, |(_, v)| v)
        });
        let spec = RollSpec {
            characteristic,
            main_action_ability: ability.action == ActionType::MainAction,
            ..Default::default()
        };
        let see = |a: Footprint, b: Footprint| self.sight(a, b);
        let own_banes = own_banes(world, &user, ability);
        let mut out = Vec::new();
        for (ts, left) in &snaps {
            if placement.is_none()
                && ts.id != user.id
                && (user.space.distance(ts.space) > ability.distance.reach()
                    || see(user.space, ts.space) == Sight::Blocked)
            {
                continue;
            }
            let (edges, banes) = edges_and_banes(
                world,
                user.entity,
                &user,
                ts,
                &facts,
                creatures,
                map,
                deals_damage,
                &see,
            );
            let banes = banes + own_banes;
            // The ruleset's own odds, if it has them (phased 2d6: a miss,
            // tier 2 and tier 3).
            let own = ability.power_roll.as_ref().and_then(|_| {
                super::ruleset::of(world).roll_odds(
                    world,
                    &user,
                    ts,
                    spec.characteristic,
                    edges,
                    banes,
                )
            });
            let chances = match (&ability.power_roll, own) {
                (Some(_), Some(odds)) => odds,
                (Some(_), None) => tier_probabilities(&RollSpec {
                    edges,
                    banes,
                    ..spec.clone()
                }),
                (None, _) => [1.0, 0.0, 0.0],
            };
            // (Odds of its own mean a roll that can miss: its lowest
            // result against an enemy does nothing.)
            let missed = own.is_some() && ts.side != user.side;
            // Surges add to the first target's damage, as the roll adds them.
            let chosen = Chosen {
                extra: &extra,
                // docs/rules.md#potency-adjustments, as the roll adds them.
                potency_bonus: i32::from(potency_surges.contains(&ts.id))
                    + resolve::potency_adjustment(world, &user, ts),
                surge: if out.is_empty() {
                    surges.min(3) as i32 * user.chars.highest()
                } else {
                    0
                },
            };
            let tiers = if chosen.is_none() {
                self.tiers_on(ability, &user, ts, missed)
            } else {
                tier_outcomes(world, ability, &user, ts, missed, &chosen)
            };
            out.push(target_preview(ts.id, *left, edges, banes, chances, tiers));
        }
        Some(Preview {
            aura: ability.aura.is_some(),
            ability: ability_id.to_string(),
            targets: out,
        })
    }

    /// Whom an area placed at `placement` would target now, as the use
    /// would (`None` if it can't go there).
    fn area_targets(
        &self,
        user: &crate::encounter::world::Snapshot,
        ability: &crate::ability::Ability,
        placement: &super::command::Placement,
    ) -> Option<Vec<CreatureId>> {
        let (map, creatures) = (&*self.map, &self.creatures[..]);
        let (area, _) =
            super::check::place_area(map, creatures, user.space, ability.distance, placement)
                .ok()?;
        let mut ids: Vec<CreatureId> = Vec::new();
        for o in area.creatures(creatures) {
            let (ts, _) = self.creature(o.id)?;
            if super::check::target_allowed(self.world, &ability.target, user, &ts) {
                ids.push(o.id);
            }
        }
        if let Some(max) = ability.target.count {
            ids.truncate(max as usize);
        }
        Some(ids)
    }

    /// What each tier of `ability` does to `target` (`missed`: a phased
    /// tier 1 is a miss, and does nothing), kept by user and target.
    fn tiers_on(
        &self,
        ability: &crate::ability::Ability,
        user: &world::Snapshot,
        ts: &world::Snapshot,
        missed: bool,
    ) -> [TierOutcome; 3] {
        let mut kept = self.tiers.borrow_mut();
        let list = kept.entry((user.id, ts.id)).or_default();
        if let Some((_, t)) = list.iter().find(|(id, _)| *id == ability.id) {
            return t.clone();
        }
        let tiers = tier_outcomes(self.world, ability, user, ts, missed, &Chosen::default());
        list.push((ability.id.clone(), tiers.clone()));
        tiers
    }
}

/// The choices before a roll that change what it does to one target.
#[derive(Default)]
struct Chosen<'a> {
    /// The effects of "Spend X".
    extra: &'a [crate::ability::Effect],
    /// 1 when two surges raise this target's potency.
    potency_bonus: i32,
    /// Surge damage added to this target's first damage.
    surge: i32,
}

impl Chosen<'_> {
    fn is_none(&self) -> bool {
        self.extra.is_empty() && self.potency_bonus == 0 && self.surge == 0
    }
}

/// What each tier of `ability` does to `ts`, before any roll: damage after
/// its immunities and weaknesses, conditions past potency, forced movement,
/// help and bonuses (an aura's effect is what it does each time it acts).
fn tier_outcomes(
    world: &bevy_ecs::world::World,
    ability: &crate::ability::Ability,
    user: &world::Snapshot,
    ts: &world::Snapshot,
    missed: bool,
    chosen: &Chosen,
) -> [TierOutcome; 3] {
    // An aura acts later, on whoever is in it: what it does then.
    let always: Vec<crate::ability::Effect> = ability
        .effect
        .iter()
        .chain(ability.aura.as_ref().map(|a| &a.effect))
        .flat_map(|e| e.effects.iter().cloned())
        .collect();
    let traits = world
        .comp::<DamageTraits>(ts.entity)
        .cloned()
        .unwrap_or_default();
    [
        crate::power_roll::Tier::One,
        crate::power_roll::Tier::Two,
        crate::power_roll::Tier::Three,
    ]
    .map(|tier| {
        // A phased miss does nothing.
        if missed && tier == crate::power_roll::Tier::One {
            return TierOutcome::default();
        }
        let mut effects = match &ability.power_roll {
            Some(p) => p.tier(tier).effects.clone(),
            None => Vec::new(),
        };
        crate::encounter::captain::add_damage(
            world,
            user.entity,
            ability.is_strike(),
            &mut effects,
        );
        effects.extend(always.iter().cloned());
        effects.extend(chosen.extra.iter().cloned());
        let o = evaluate(&effects, &user.chars, &ts.chars, chosen.potency_bonus);
        let mut merged: Vec<(i32, DamageType)> = Vec::new();
        for (a, t) in o.damage {
            match merged.iter_mut().find(|(_, mt)| *mt == t) {
                Some(m) => m.0 += a,
                None => merged.push((a, t)),
            }
        }
        if let Some(first) = merged.first_mut() {
            first.0 += chosen.surge;
        }
        TierOutcome {
            damage: merged.iter().map(|(a, t)| traits.apply(*a, *t)).sum(),
            conditions: o
                .conditions
                .iter()
                .filter(|c| c.applies && !c.save)
                .flat_map(|c| c.conditions.clone())
                .collect(),
            saved: o
                .conditions
                .iter()
                .filter(|c| c.applies && c.save)
                .flat_map(|c| c.conditions.clone())
                .collect(),
            resisted: o
                .conditions
                .iter()
                .filter(|c| !c.applies)
                .flat_map(|c| c.conditions.clone())
                .collect(),
            forced: o
                .forced
                .iter()
                .find(|f| f.applies)
                .map(|f| (f.kind, f.distance)),
            heal: o.heal,
            temporary: o.temporary,
            grant_surges: o.grant_surges,
            shift: o.shift,
            teleport: o.teleport,
            free_strike: o.free_strike,
            signature_strike: o.signature_strike,
            shield: o
                .bonuses
                .iter()
                .map(|b| match b.kind {
                    crate::ability::BonusKind::Shield(n) => n,
                    _ => 0,
                })
                .sum(),
            retaliate: o
                .bonuses
                .iter()
                .map(|b| match b.kind {
                    crate::ability::BonusKind::Retaliate { amount, .. } => amount,
                    _ => 0,
                })
                .sum(),
            summons: o.summons.len() as u32,
            surges: o.surges,
        }
    })
}

/// The stamina a creature has left to lose before it drops: its own and
/// temporary, or for a minion what is left of its share of the squad's pool.
fn stamina_left(world: &bevy_ecs::world::World, entity: bevy_ecs::entity::Entity) -> i32 {
    let left = world
        .comp::<Stamina>(entity)
        .map_or(0, |s| s.current + s.temporary);
    // A minion dies when its squad's pool loses a minion's worth.
    match world.comp::<SquadMember>(entity) {
        Some(m) => world.res::<Squads>().0.get(&m.0).map_or(left, |p| {
            let m = p.per_minion.max(1);
            m - (p.max - p.pool) % m
        }),
        None => left,
    }
}

fn target_preview(
    id: CreatureId,
    left: i32,
    edges: u32,
    banes: u32,
    chances: [f64; 3],
    tiers: [TierOutcome; 3],
) -> TargetPreview {
    let expected_damage = (0..3).map(|i| chances[i] * tiers[i].damage as f64).sum();
    let kill_chance = (0..3)
        .filter(|&i| tiers[i].damage >= left && left > 0)
        .map(|i| chances[i])
        .sum();
    TargetPreview {
        target: id,
        edges,
        banes,
        chances,
        tiers,
        expected_damage,
        kill_chance,
    }
}

/// A free strike's forecast: its damage is certain (no roll).
fn free_strike_preview(
    world: &bevy_ecs::world::World,
    user: CreatureId,
    target: CreatureId,
    _from: Option<crate::map::Pos>,
) -> Option<Preview> {
    let ue = entity_of(world, user)?;
    let te = entity_of(world, target)?;
    let damage = resolve::free_strike_damage(world, ue);
    let traits = world.comp::<DamageTraits>(te).cloned().unwrap_or_default();
    let outcome = TierOutcome {
        damage: traits.apply(damage, DamageType::Untyped),
        ..Default::default()
    };
    let tiers = [outcome.clone(), outcome.clone(), outcome];
    // The strike may have to hit (phased 2d6: a miss is "tier 1", doing
    // nothing).
    let hit = super::ruleset::of(world).free_strike_odds(world, ue, te);
    let (tiers, chances) = if hit < 1.0 {
        let [_, two, three] = tiers;
        ([TierOutcome::default(), two, three], [1.0 - hit, hit, 0.0])
    } else {
        (tiers, [1.0, 0.0, 0.0])
    };
    Some(Preview {
        ability: "free_strike".into(),
        targets: vec![target_preview(
            target,
            stamina_left(world, te),
            0,
            0,
            chances,
            tiers,
        )],
        aura: false,
    })
}

/// What a command asks the forecast about: who uses which ability, at whom
/// or where (and from where, for a charge), and the choices made before the
/// roll: surges on damage and potency, and "Spend X"
/// (docs/rules.md#surges, docs/rules.md#heroic-resources).
struct Asked<'a> {
    user: CreatureId,
    ability: &'a str,
    targets: &'a [CreatureId],
    placement: Option<&'a super::command::Placement>,
    at: Option<crate::map::Pos>,
    surges: u32,
    potency_surges: &'a [CreatureId],
    spend: u32,
}

impl<'a> Asked<'a> {
    /// The ability use `cmd` asks about, or a free strike's user, target
    /// and the square it strikes from (`Err`), or `None` for a command
    /// with no forecast.
    #[allow(clippy::type_complexity)]
    fn of(
        cmd: &'a Command,
    ) -> Option<Result<Asked<'a>, (CreatureId, CreatureId, Option<crate::map::Pos>)>> {
        let plain = |user, ability: &'a String, targets, placement, at| Asked {
            user,
            ability: ability.as_str(),
            targets,
            placement,
            at,
            surges: 0,
            potency_surges: &[],
            spend: 0,
        };
        Some(Ok(match cmd {
            Command::UseAbility {
                creature,
                ability,
                targets,
                surges,
                potency_surges,
                spend,
                ..
            } => Asked {
                surges: *surges,
                potency_surges,
                spend: *spend,
                ..plain(*creature, ability, targets.as_slice(), None, None)
            },
            Command::UseAreaAbility {
                creature,
                ability,
                placement,
                surges,
                potency_surges,
                spend,
                ..
            } => Asked {
                surges: *surges,
                potency_surges,
                spend: *spend,
                ..plain(*creature, ability, &[], Some(placement), None)
            },
            Command::FreeStrike { creature, target } => {
                return Some(Err((*creature, *target, None)));
            }
            Command::Charge {
                creature,
                target,
                ability: None,
                path,
            } => return Some(Err((*creature, *target, path.end()))),
            Command::Charge {
                creature,
                target,
                ability: Some(a),
                path,
            } => plain(*creature, a, std::slice::from_ref(target), None, path.end()),
            _ => return None,
        }))
    }
}

/// The banes the user brings to its own roll, as the roll has them: one per
/// missing component (docs/rules.md#components) and per stack of the
/// ability's penalties (docs/rules.md#penalties).
fn own_banes(
    world: &bevy_ecs::world::World,
    user: &crate::encounter::world::Snapshot,
    ability: &crate::ability::Ability,
) -> u32 {
    let missing = ability
        .components
        .iter()
        .filter(|c| c.missing(&user.conditions))
        .count() as u32;
    crate::ability::component_penalty(missing).0
        + world
            .comp::<Stance>(user.entity)
            .map_or(0, |s| s.penalty_banes(&ability.penalties))
}
