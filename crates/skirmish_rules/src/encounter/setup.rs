//! Spawning an encounter's creatures as entities.

use crate::fast::KeyedWorld;
use bevy_ecs::prelude::*;

use super::state::components::*;
use crate::conditions::Conditions;
use crate::content::ContentDb;
use crate::content::encounter::EncounterDef;
use crate::encounter::state::board::CreatureIndex;
use crate::map::{Footprint, Pos, Side};
use crate::stats::{CreatureId, LifeRule, Stamina};

/// Why an encounter could not be set up.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// With the ids there are, so that a typo is answered with the right one.
    #[error("no encounter `{id}` (known: {})", .known.join(", "))]
    UnknownEncounter { id: String, known: Vec<String> },
    #[error("encounter `{encounter}`: {problem}")]
    Invalid { encounter: String, problem: String },
}

/// Spawn every creature of `def` into `world`. Content was validated at
/// load, so unknown ids here mean a caller built content by hand.
pub fn spawn_creatures(
    world: &mut World,
    content: &ContentDb,
    def: &EncounterDef,
) -> Result<(), SetupError> {
    let invalid = |problem: String| SetupError::Invalid {
        encounter: def.id.clone(),
        problem,
    };
    let basic: Vec<String> = content
        .rulesets
        .get(&def.ruleset)
        .map(|r| r.basic_abilities.clone())
        .unwrap_or_default();
    let mut next = 1u32;
    for h in &def.heroes {
        let class = content
            .classes
            .get(&h.class)
            .ok_or_else(|| invalid(format!("unknown class `{}`", h.class)))?;
        // docs/rules.md#class-tables: level, subclass, kit and ancestry.
        let build = crate::content::hero::build(h, content)
            .map_err(|m| invalid(format!("hero `{}`: {m}", h.name)))?;
        spawn_hero(world, content, h, class, build, CreatureId(next), &basic);
        next += 1;
    }
    let mut names = monster_names(def, content).into_iter();
    for (m, name) in def.monsters.iter().zip(names.by_ref()) {
        let block = match (&m.monster, &m.inline) {
            (Some(id), _) => content
                .monsters
                .get(id)
                .cloned()
                .ok_or_else(|| invalid(format!("unknown monster `{id}`")))?,
            (None, Some(inline)) => inline.clone(),
            (None, None) => return Err(invalid("a monster entry names no stat block".into())),
        };
        let name = name.unwrap_or_else(|| block.name.clone());
        let at = Footprint::new(Pos::new(m.at.0, m.at.1), block.size.squares());
        let entity = spawn_monster(
            world,
            &block,
            CreatureId(next),
            name,
            Side::Director,
            at,
            m.squad,
            &basic,
        );
        if let Some(n) = m.squad {
            join_squad(world, entity, n, &block);
        }
        next += 1;
    }
    // docs/rules.md#captains: a squad's captain.
    for (i, m) in def.monsters.iter().enumerate() {
        if let Some(n) = m.captain
            && let Some(mut squads) = world.get_resource_mut::<Squads>()
            && let Some(p) = squads.0.get_mut(&n)
        {
            p.captain = Some(CreatureId(def.heroes.len() as u32 + 1 + i as u32));
        }
    }
    let mut index = CreatureIndex::default();
    let mut q = world.query::<(Entity, &Creature)>();
    for (e, c) in q.iter(world) {
        index.set(c.id, e);
    }
    world.insert_resource(index);
    // (Made here, after the creatures: in Bevy 0.19 a resource is an
    // entity, and one made before them had the kept queries pass over the
    // monsters' table before the heroes', out of id order, which cost the
    // listing's sort about 1% of a random game's instructions.)
    world.init_resource::<super::state::turn::Standing>();
    world.init_resource::<super::state::board::Grabs>();
    world.init_resource::<super::state::board::KnownCarriers>();
    let arrivals: Vec<Vec<_>> = def
        .reinforcements
        .iter()
        .map(|r| {
            r.monsters
                .iter()
                .zip(names.by_ref())
                .map(|(m, n)| (m.clone(), n))
                .collect()
        })
        .collect();
    world.insert_resource(super::state::board::Plan {
        objective: def.objective.clone(),
        reinforcements: def
            .reinforcements
            .iter()
            .map(|r| r.round)
            .zip(arrivals)
            .collect(),
    });
    super::world::cache_queries(world);
    Ok(())
}

/// A hero as its class and build make it, with the ruleset's basic
/// abilities (docs/rules.md#class-tables).
fn spawn_hero(
    world: &mut World,
    content: &ContentDb,
    h: &crate::content::encounter::HeroDef,
    class: &crate::content::Class,
    build: crate::content::hero::HeroBuild,
    id: CreatureId,
    basic: &[String],
) {
    let characteristics = build.characteristics;
    world.spawn((
        Creature {
            id,
            name: h.name.clone(),
            side: Side::Heroes,
            level: h.level,
            kind: CreatureKind::Hero {
                class: class.id.clone(),
            },
            tags: build.tags,
            size: build.size,
        },
        Space(Footprint::new(
            Pos::new(h.at.0, h.at.1),
            build.size.squares(),
        )),
        Movement {
            speed: build.speed,
            stability: build.stability,
            modes: crate::map::movement::Modes::of(
                &build.movement,
                characteristics.might,
                characteristics.agility,
            ),
        },
        characteristics,
        Stamina::new(build.stamina, build.recoveries, LifeRule::Hero),
        Conditions::default(),
        build.damage,
        Abilities::new(with_basic(build.abilities, basic), content),
        FreeStrike(build.free_strike),
        Heroic {
            resource: class.resource.clone(),
            amount: build.starting_resource,
            surges: 0,
            potency_from: class.potency_characteristic,
            trigger: class.resource_trigger,
            trigger_amount: build.trigger_amount,
            per_turn: build.resource_per_turn,
            trigger_round: 0,
            strain: 0,
            // The talent's cost (docs/rulings.md): down to -(1 + Reason).
            strain_limit: if class.strain {
                (1 + characteristics.reason).max(0) as u32
            } else {
                0
            },
            potency_vs_marked: class.potency_vs_marked,
        },
        TurnBudget::default(),
        Stance::default(),
        (Auras::default(), Bonuses::default(), Progress::default()),
    ));
}

/// A creature's own abilities, then the ruleset's basic ones it lacks.
fn with_basic(mut list: Vec<String>, basic: &[String]) -> Vec<String> {
    for b in basic {
        if !list.contains(b) {
            list.push(b.clone());
        }
    }
    list
}

/// A minion joins squad `n`, its stamina added to the squad's pool
/// (docs/rules.md#minions).
pub(super) fn join_squad(
    world: &mut World,
    entity: Entity,
    n: u32,
    block: &crate::content::Monster,
) {
    let stamina = block.stamina;
    world.entity_mut(entity).insert(SquadMember(n));
    let mut squads = world.get_resource_or_insert_with(Squads::default);
    let p = squads.0.entry(n).or_insert(SquadPool {
        pool: 0,
        max: 0,
        per_minion: stamina,
        captain: None,
        with_captain: block.with_captain,
    });
    p.pool += stamina;
    p.max += stamina;
}

/// Spawn one creature from a monster stat block (at setup, or summoned in
/// play on either side).
#[allow(clippy::too_many_arguments)]
pub(super) fn spawn_monster(
    world: &mut World,
    block: &crate::content::Monster,
    id: CreatureId,
    name: String,
    side: Side,
    at: Footprint,
    squad: Option<u32>,
    basic: &[String],
) -> Entity {
    let mut abilities = block.abilities.clone();
    for b in basic {
        if !abilities.contains(b) {
            abilities.push(b.clone());
        }
    }
    let abilities = match world.get_res::<crate::content::Content>() {
        Some(c) => Abilities::new(abilities, &c.0),
        None => Abilities(abilities.into(), Triggers::default(), Default::default()),
    };
    let mut spawned = world.spawn((
        Creature {
            id,
            name,
            side,
            level: block.level,
            kind: CreatureKind::Monster {
                stat_block: block.id.clone(),
                squad,
            },
            tags: block.tags.clone(),
            size: block.size,
        },
        Space(at),
        Movement {
            speed: block.speed,
            stability: block.stability,
            modes: crate::map::movement::Modes::of(
                &block.movement,
                block.characteristics.might,
                block.characteristics.agility,
            ),
        },
        block.characteristics,
        Stamina::new(block.stamina, 0, LifeRule::Director),
        Conditions::default(),
        block.damage.clone(),
        abilities,
        FreeStrike(block.free_strike),
        TurnBudget::default(),
        Stance::default(),
        (Auras::default(), Bonuses::default(), Progress::default()),
    ));
    if block.turns > 1 {
        spawned.insert(Turns(block.turns));
    }
    spawned.id()
}

/// Each monster's name, where it can be told: its own, or its stat block's;
/// monsters left unnamed that share a block's name are numbered in the
/// order listed ("Wolf 1", "Wolf 2"), so the log, the tokens and the
/// simulator's report tell them apart. (An unknown stat block is reported
/// where the monster is spawned.)
/// (Reinforcements are numbered with the rest, after them.)
fn monster_names(def: &EncounterDef, content: &ContentDb) -> Vec<Option<String>> {
    let given: Vec<(bool, Option<String>)> = def
        .monsters
        .iter()
        .chain(def.reinforcements.iter().flat_map(|r| &r.monsters))
        .map(|m| match (&m.name, &m.monster, &m.inline) {
            (Some(n), _, _) => (false, Some(n.clone())),
            (None, Some(id), _) => (true, content.monsters.get(id).map(|b| b.name.clone())),
            (None, None, Some(inline)) => (true, Some(inline.name.clone())),
            (None, None, None) => (true, None),
        })
        .collect();
    let shared = |n: &str| {
        given
            .iter()
            .filter(|(unnamed, g)| *unnamed && g.as_deref() == Some(n))
            .count()
            > 1
    };
    let mut counts: std::collections::HashMap<String, u32> = Default::default();
    given
        .iter()
        .map(|(unnamed, g)| match g {
            Some(n) if *unnamed && shared(n) => {
                let k = counts.entry(n.clone()).or_insert(0);
                *k += 1;
                Some(format!("{n} {k}"))
            }
            g => g.clone(),
        })
        .collect()
}
