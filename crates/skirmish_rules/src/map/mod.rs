//! Everything spatial, as pure functions over one map type: the grid, line
//! of effect, areas, movement and forced movement. Used alike by the
//! encounter engine, the client's previews and the AI.

pub mod area;
pub mod forced;
pub mod grid;
pub mod los;
pub mod movement;
pub mod tiled;

pub use grid::{
    Cell, Footprint, Map, MapDef, MapError, MapObject, Material, Occupant, Pos, Side, Terrain, Tile,
};
pub use los::{Sight, line_of_effect, sight};
