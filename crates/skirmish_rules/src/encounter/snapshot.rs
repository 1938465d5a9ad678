//! Cheap snapshots of an encounter, for search: everything that changes in
//! a fight (each creature's changing components and the encounter's
//! resources), copied out and written back. Creatures summoned after a
//! snapshot are despawned when it is restored.

use crate::fast::KeyedWorld;
use bevy_ecs::prelude::*;
use bevy_state::prelude::*;

use super::components::*;
use super::flow::{Flow, Malice, Phase, TurnEvents};
use super::log::CombatLog;
use super::setup::CreatureIndex;
use super::stack::Resolution;
use super::world::Battlefield;
use super::{Encounter, replay};
use crate::conditions::Conditions;
use crate::dice::Dice;
use crate::stats::Stamina;

/// One creature's changing components.
#[derive(Clone, Debug)]
struct CreatureState {
    entity: Entity,
    space: Space,
    stamina: Stamina,
    conditions: Conditions,
    heroic: Option<Heroic>,
    budget: TurnBudget,
    stance: Stance,
    auras: Auras,
    bonuses: Bonuses,
    progress: Progress,
    casting: Option<Casting>,
    abilities: Abilities,
    prepared: Option<PreparedAbilities>,
}

/// An encounter's state at one moment (see [`Encounter::snapshot`]).
#[derive(Clone, Debug)]
pub struct Snapshot {
    creatures: Vec<CreatureState>,
    flow: Flow,
    malice: Malice,
    dice: Dice,
    map: std::sync::Arc<crate::map::Map>,
    walls: super::resolve::RaisedWalls,
    wear: super::resolve::ObjectWear,
    log_len: usize,
    squads: Squads,
    resolution: Resolution,
    phase: Phase,
    commands: usize,
    /// How many creature slots existed (summons made later are removed).
    creatures_len: usize,
    glyphs: super::glyph::Glyphs,
}

impl Snapshot {
    /// Copy out `w`'s state; `commands` is how many commands the replay
    /// holds at this point.
    pub(super) fn take(w: &World, commands: usize) -> Snapshot {
        let creatures = w
            .res::<CreatureIndex>()
            .iter()
            .filter_map(|(_, e)| {
                Some(CreatureState {
                    entity: e,
                    space: *w.comp::<Space>(e)?,
                    stamina: w.comp::<Stamina>(e)?.clone(),
                    conditions: w.comp::<Conditions>(e)?.clone(),
                    heroic: w.comp::<Heroic>(e).cloned(),
                    budget: *w.comp::<TurnBudget>(e)?,
                    stance: *w.comp::<Stance>(e)?,
                    auras: w.comp::<Auras>(e)?.clone(),
                    bonuses: w.comp::<Bonuses>(e).cloned().unwrap_or_default(),
                    progress: w.comp::<Progress>(e).cloned().unwrap_or_default(),
                    casting: w.comp::<Casting>(e).cloned(),
                    abilities: w.comp::<Abilities>(e).cloned().unwrap_or_default(),
                    prepared: w.comp::<PreparedAbilities>(e).cloned(),
                })
            })
            .collect();
        Snapshot {
            creatures,
            flow: w.res::<Flow>().clone(),
            malice: *w.res::<Malice>(),
            dice: w.res::<Dice>().clone(),
            map: w.res::<Battlefield>().0.clone(),
            walls: w.res::<super::resolve::RaisedWalls>().clone(),
            wear: w.res::<super::resolve::ObjectWear>().clone(),
            log_len: w.res::<CombatLog>().entries().len(),
            squads: w.res::<Squads>().clone(),
            resolution: w.res::<Resolution>().clone(),
            phase: *w.res::<State<Phase>>().get(),
            commands,
            creatures_len: w.res::<CreatureIndex>().len(),
            glyphs: w.res::<super::glyph::Glyphs>().clone(),
        }
    }
}

impl Encounter {
    /// Copy out the state, to [`restore`](Encounter::restore) later. Restoring
    /// rewinds the log and the replay to this point too.
    pub fn snapshot(&self) -> Snapshot {
        Snapshot::take(self.app.world(), self.record.commands.len())
    }

    /// Put the encounter back as it was when `s` was taken (a snapshot of
    /// this encounter, taken at or before now).
    pub fn restore(&mut self, s: &Snapshot) {
        let w = self.app.world_mut();
        // Creatures summoned since the snapshot leave the board.
        let extra: Vec<Entity> = w.res_mut::<CreatureIndex>().truncate(s.creatures_len);
        for e in extra {
            w.despawn(e);
        }
        for c in &s.creatures {
            let Ok(mut e) = w.get_entity_mut(c.entity) else {
                continue;
            };
            e.insert((
                c.space,
                c.stamina.clone(),
                c.conditions.clone(),
                c.budget,
                c.stance,
                c.auras.clone(),
                (c.bonuses.clone(), c.progress.clone()),
            ));
            if let Some(h) = &c.heroic {
                e.insert(h.clone());
            }
            e.insert(c.abilities.clone());
            match &c.prepared {
                Some(p) => {
                    e.insert(p.clone());
                }
                None => {
                    e.remove::<PreparedAbilities>();
                }
            }
            match &c.casting {
                Some(k) => {
                    e.insert(k.clone());
                }
                None => {
                    e.remove::<Casting>();
                }
            }
        }
        *w.res_mut::<Flow>() = s.flow.clone();
        *w.res_mut::<Malice>() = s.malice;
        *w.res_mut::<Dice>() = s.dice.clone();
        w.res_mut::<Battlefield>().0 = s.map.clone();
        *w.res_mut::<super::resolve::RaisedWalls>() = s.walls.clone();
        *w.res_mut::<super::resolve::ObjectWear>() = s.wear.clone();
        w.res_mut::<CombatLog>().rewind(s.log_len);
        *w.res_mut::<Squads>() = s.squads.clone();
        *w.res_mut::<super::glyph::Glyphs>() = s.glyphs.clone();
        *w.res_mut::<Resolution>() = s.resolution.clone();
        w.res_mut::<Flow>().events = TurnEvents::default();
        // The restored creatures may hold grabs and carry auras again.
        super::resolve::hints_unknown(w);
        super::set_phase(w, s.phase);
        self.record.commands.truncate(s.commands);
    }

    /// A copy of the encounter with its own app, made by replaying this one's
    /// commands (slower than a snapshot; for handing a fight to another thread).
    pub fn fork(&self) -> Result<Encounter, replay::ReplayError> {
        self.record.play(self.content().clone())
    }
}
