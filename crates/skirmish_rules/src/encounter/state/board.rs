//! The board's state: the map, the walls raised and objects worn, the
//! glyphs, the plan of objective and reinforcements, each creature's entity
//! by id, and the hints the checks keep (who may grab, who may carry an
//! aura).

use bevy_ecs::prelude::*;
use serde::{Deserialize, Serialize};

use crate::content::encounter::{MonsterDef, Objective};
use crate::map::{Map, Pos, Side};
use crate::stats::CreatureId;

/// The map the encounter is fought on. Shared: reading it is a cheap
/// clone of the pointer; the rare change (a wall raised, an object broken,
/// treasure taken) copies it first if a snapshot still holds it.
#[derive(Resource, Clone, Debug, PartialEq)]
pub struct Battlefield(pub std::sync::Arc<Map>);

impl Battlefield {
    pub fn new(map: Map) -> Battlefield {
        Battlefield(std::sync::Arc::new(map))
    }

    /// The map to change.
    pub fn map_mut(&mut self) -> &mut Map {
        std::sync::Arc::make_mut(&mut self.0)
    }
}

/// A wall an ability raised, and how long it has left.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RaisedWall {
    pub squares: Vec<Pos>,
    pub owner: CreatureId,
    /// Ends of the owner's turns before it crumbles.
    pub turn_ends_left: u32,
}

/// The walls abilities have raised.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct RaisedWalls(pub Vec<RaisedWall>);

/// docs/rules.md#objects: the damage each object on the map has taken
/// (by its square), until it is destroyed.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct ObjectWear(pub Vec<(Pos, i32)>);

impl ObjectWear {
    /// The damage the object on `at` has taken so far.
    pub fn taken(&self, at: Pos) -> i32 {
        self.0.iter().find(|(p, _)| *p == at).map_or(0, |w| w.1)
    }
}

/// One glyph on the board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Glyph {
    pub at: Pos,
    /// The glyphic ability it came from (its glyph abilities are there).
    pub from: String,
    pub name: String,
    pub side: Side,
    pub maker: Option<CreatureId>,
    /// The round its Beat was last spent.
    pub beat_round: u32,
    /// Disabled until this round begins.
    pub disabled_until: u32,
    pub dismissed: bool,
    /// It has shone (sent a command or reacted): it is no longer unseen.
    pub revealed: bool,
    /// The squares of the glyphs its maker chose to connect it to; `None`:
    /// every glyph of its side within 1 square (docs/rules.md#glyphs).
    #[serde(default)]
    pub links: Option<Vec<Pos>>,
}

/// Every glyph, and the commands on their way (delivered at the start of
/// the round named).
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Glyphs {
    pub list: Vec<Glyph>,
    pub pending: Vec<(u32, usize, String)>,
    /// The last round whose commands were delivered.
    pub round: u32,
}

impl Glyphs {
    /// Whether a glyph (not dismissed) lies on `p`: a square takes one.
    pub fn taken(&self, p: Pos) -> bool {
        self.list.iter().any(|g| !g.dismissed && g.at == p)
    }

    /// Whether glyph `i` can act in `round`.
    pub fn ready(&self, i: usize, round: u32) -> bool {
        let g = &self.list[i];
        !g.dismissed && g.disabled_until <= round && g.beat_round != round
    }
}

/// Monsters arriving together, each with its name.
pub type Arrivals = Vec<(MonsterDef, Option<String>)>;

/// The encounter's objective and its reinforcements, as its file gives
/// them (fixed for the fight: what changes is in [`Flow`]).
#[derive(Resource, Clone, Debug, Default)]
pub struct Plan {
    pub objective: Objective,
    /// Each arrival's round and its monsters with their names (numbered
    /// with the encounter's own at setup).
    pub reinforcements: Vec<(u32, Arrivals)>,
}

impl Plan {
    /// Whether monsters are still to arrive after round `round`.
    pub fn still_to_come(&self, round: u32) -> bool {
        self.reinforcements
            .iter()
            .any(|(r, m)| *r > round && !m.is_empty())
    }
}

/// Each creature's entity by id (creatures are never despawned: the dead stay
/// for the log and the summary). Written only at setup ([`CreatureIndex::set`]),
/// by a summon (a new id) and by a restore, which takes back the summons
/// made since its snapshot and despawns them ([`CreatureIndex::truncate`]):
/// so an id's entity never changes while that entity lives.
#[derive(Resource, Clone, Debug, Default)]
pub struct CreatureIndex(Vec<Option<Entity>>);

impl CreatureIndex {
    /// The creature's entity. Loops over creatures fetch the index once and
    /// ask it, rather than [`entity_of`](super::world::entity_of) each time.
    pub fn entity(&self, id: CreatureId) -> Option<Entity> {
        self.0.get(id.0 as usize).copied().flatten()
    }

    /// One more than the highest id it holds (0 when empty).
    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Every creature's id and entity, in id order.
    pub fn iter(&self) -> impl Iterator<Item = (CreatureId, Entity)> + '_ {
        self.0
            .iter()
            .enumerate()
            .filter_map(|(i, e)| Some((CreatureId(i as u32), (*e)?)))
    }

    /// Give `id` its entity (at setup, or a summon's new id).
    pub(crate) fn set(&mut self, id: CreatureId, entity: Entity) {
        let i = id.0 as usize;
        if self.0.len() <= i {
            self.0.resize(i + 1, None);
        }
        self.0[i] = Some(entity);
    }

    /// Drop the ids from `len` on, handing back their entities (for the
    /// caller to despawn: a restore taking back later summons).
    pub(crate) fn truncate(&mut self, len: usize) -> Vec<Entity> {
        let len = len.min(self.0.len());
        self.0.drain(len..).flatten().collect()
    }
}

/// Creatures a check keeps in mind between its runs (who may be grabbed,
/// see [`Grabs`]; who may carry an aura, see `aura::KnownCarriers`): None
/// when not known, and the check then passes over everyone.
#[derive(Default)]
pub(crate) struct Known(pub(crate) Option<smallvec::SmallVec<[Entity; 4]>>);

impl Known {
    /// `entity` is one of them now (kept in mind only while they are known).
    pub(crate) fn add(&mut self, entity: Entity) {
        if let Some(list) = &mut self.0
            && !list.contains(&entity)
        {
            list.push(entity);
        }
    }
}

/// Who may be grabbed, for [`check_grabs`]: every creature grabbed is in
/// the list (some in it may no longer be: the check reads their conditions
/// and keeps those still grabbed). The check sets it; [`impose`] adds whom
/// it grabs. Not known at the start, after a restore, or after a hand on
/// the world through `Encounter::world_mut` (either may bring grabs of its
/// own). Kept out of snapshots. (Missing, as in a world built without the
/// setup, it counts as not known.)
#[derive(Resource, Default)]
pub(crate) struct Grabs(pub(crate) Known);

/// The creatures that may carry an aura, for [`carriers`]: every creature
/// whose auras are not empty is in the list (it may hold some that no
/// longer carry one). [`start`] adds to it; a turn's boundary, the first
/// to run while it is not known, learns it with a pass over everyone. Not
/// known at the start, after a restore, after a hand on the world through
/// `Encounter::world_mut` (either may bring auras of its own); [`carriers`]
/// then passes over everyone. Kept out of snapshots. (Missing, as in a
/// world built without the setup, it counts as not known.)
#[derive(Resource, Default)]
pub(crate) struct KnownCarriers(pub(crate) Known);

/// Set once a rounds duration is imposed (docs/rules.md#durations): until
/// then no turn start looks for one to end.
#[derive(Resource, Clone, Copy, Debug, Default)]
pub(crate) struct RoundsInPlay;
