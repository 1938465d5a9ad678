//! Cheap snapshots of an encounter, for search: everything that changes in
//! a fight (each creature's changing components and the encounter's
//! resources, as [`super::state`] declares them), copied out and written
//! back. Creatures summoned after a snapshot are despawned when it is
//! restored.

use crate::fast::KeyedWorld;
use bevy_ecs::prelude::*;
use bevy_state::prelude::*;

use super::log::CombatLog;
use super::state::board::{Battlefield, CreatureIndex};
use super::state::turn::{Flow, Phase, TurnEvents};
use super::state::{SavedCreature, SavedResources};
use super::{Encounter, replay};

/// An encounter's state at one moment (see [`Encounter::snapshot`]).
#[derive(Clone, Debug)]
pub struct Snapshot {
    creatures: Vec<(Entity, SavedCreature)>,
    saved: SavedResources,
    /// The map (walls raised and objects worn are saved resources; the map
    /// itself changes only when a restore puts an older one back).
    map: std::sync::Arc<crate::map::Map>,
    log_len: usize,
    phase: Phase,
    commands: usize,
    /// How many creature slots existed (summons made later are removed).
    creatures_len: usize,
}

impl Snapshot {
    /// Copy out `w`'s state; `commands` is how many commands the replay
    /// holds at this point.
    pub(super) fn take(w: &World, commands: usize) -> Snapshot {
        let creatures = w
            .res::<CreatureIndex>()
            .iter()
            .filter_map(|(_, e)| Some((e, SavedCreature::take(w, e)?)))
            .collect();
        Snapshot {
            creatures,
            saved: SavedResources::take(w),
            map: w.res::<Battlefield>().0.clone(),
            log_len: w.res::<CombatLog>().entries().len(),
            phase: *w.res::<State<Phase>>().get(),
            commands,
            creatures_len: w.res::<CreatureIndex>().len(),
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
        for (entity, c) in &s.creatures {
            let Ok(mut e) = w.get_entity_mut(*entity) else {
                continue;
            };
            c.put(&mut e);
        }
        s.saved.put(w);
        w.res_mut::<Battlefield>().0 = s.map.clone();
        w.res_mut::<CombatLog>().rewind(s.log_len);
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
