//! The map model: a rectangular grid of squares with terrain and objects,
//! loaded from RON written as ASCII art plus a legend.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::stats::{CreatureId, DamageType};

mod pos;
mod text;

pub use pos::{Footprint, Pos};
pub use text::{
    MAX_DEPTH, MAX_MAP_SIDE, MAX_OBJECT_SIZE, MAX_TILE_NUMBER, MapDef, MapError, MapGlyph,
    MapTreasure, Tile, ascii, check_size, default_tile,
};

/// What an object is made of (docs/rules.md#forced-movement / docs/rules.md#forced-movement).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Material {
    Glass,
    Wood,
    Stone,
    Metal,
}

impl Material {
    /// Squares of forced movement it costs to hurl a creature through it.
    pub fn break_cost(self) -> u32 {
        match self {
            Material::Glass => 1,
            Material::Wood => 3,
            Material::Stone => 6,
            Material::Metal => 9,
        }
    }

    /// docs/rules.md#objects: the stamina of a square of it (our ruling,
    /// docs/rulings.md: the same numbers as its breaking cost).
    pub fn stamina(self) -> i32 {
        self.break_cost() as i32
    }

    /// Damage a creature takes being hurled through it.
    pub fn break_damage(self) -> i32 {
        match self {
            Material::Glass => 3,
            Material::Wood => 5,
            Material::Stone => 8,
            Material::Metal => 11,
        }
    }

    /// Glass is "flimsy or fragile" (docs/rules.md#line-of-effect) and does not block line of effect.
    pub fn blocks_line_of_effect(self) -> bool {
        self != Material::Glass
    }
}

/// An object standing in a square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct MapObject {
    pub material: Material,
    pub size: u32,
}

impl MapObject {
    /// docs/rules.md#objects: its stamina, its material's a square times
    /// its size (docs/rulings.md).
    pub fn stamina(self) -> i32 {
        self.material.stamina() * self.size.max(1) as i32
    }
}

/// The terrain of a square (docs/rules.md#terrain).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Terrain {
    #[default]
    Floor,
    Wall,
    /// Costs 1 extra square to enter.
    Difficult,
    /// A hole `depth` squares deep.
    Pit(u32),
    /// A drop of `depth` squares.
    Ledge(u32),
    /// Harmful ground: damage to a creature that enters or starts its turn there.
    Hazard {
        damage: i32,
        damage_type: DamageType,
    },
    /// Deep water, swum (docs/rules.md#climbing-swimming-jumping-and-flying):
    /// 1 extra square to enter unless the creature swims or flies; a prone
    /// creature can't swim into it.
    Water,
}

impl Terrain {
    /// The depth a creature falls if moved into this square.
    pub fn fall_depth(self) -> Option<u32> {
        match self {
            Terrain::Pit(d) | Terrain::Ledge(d) => Some(d),
            _ => None,
        }
    }
}

/// One square's contents.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cell {
    pub terrain: Terrain,
    pub object: Option<MapObject>,
    /// A wall raised by an ability (docs/rules.md#wall): blocks movement and line of effect.
    #[serde(default)]
    pub raised_wall: bool,
    /// Height above the ground in squares (docs/rules.md#flanking: high ground
    /// gives an edge).
    #[serde(default)]
    pub elevation: u8,
    /// Coins on a treasure token here (docs/rules.md#loot); 0 for none.
    #[serde(default)]
    pub treasure: u32,
}

impl Cell {
    /// Walls, raised walls and solid (non-glass) objects block line of effect.
    pub fn blocks_line_of_effect(&self) -> bool {
        self.terrain == Terrain::Wall
            || self.raised_wall
            || self
                .object
                .is_some_and(|o| o.material.blocks_line_of_effect())
    }

    /// Walls, raised walls and objects block movement; pits and ledges can't be walked into.
    pub fn blocks_walking(&self) -> bool {
        self.terrain == Terrain::Wall
            || self.raised_wall
            || self.object.is_some()
            || self.terrain.fall_depth().is_some()
    }

    pub fn is_wall(&self) -> bool {
        self.terrain == Terrain::Wall || self.raised_wall
    }
}

/// One byte per square summing up its cell for the hot loops.
pub mod square {
    use super::{Cell, Terrain};

    /// [`Cell::blocks_line_of_effect`].
    pub const BLOCKS_EFFECT: u8 = 1;
    /// [`Cell::blocks_walking`].
    pub const BLOCKS_WALKING: u8 = 2;
    /// Difficult terrain.
    pub const DIFFICULT: u8 = 4;
    /// A wall or an object: no cutting its corner.
    pub const SOLID: u8 = 8;
    /// The open floor of a pit or the ground below a ledge: not walked
    /// into from above, but walked along by a creature already down there
    /// ([`walkable`]).
    pub const LOW: u8 = 16;
    /// Deep water ([`Terrain::Water`]).
    pub const WATER: u8 = 32;
    /// Anything that makes a step's cost depend on where it is taken from
    /// (docs/rules.md#climbing-swimming-jumping-and-flying): a pit or ledge
    /// (jumped, flown over, climbed out of), water, or ground above the
    /// floor (climbed). A map with none is searched a square at a time.
    pub const RELIEF: u8 = 64;

    /// Whether a creature may walk onto a square with flags `to` (our
    /// ruling on pits and ledges, docs/rules.md#forced-movement: a creature
    /// moved over one falls): onto any square that doesn't block walking,
    /// and, from the low floor of a pit or below a ledge (`from_low`), onto
    /// more of it: a creature that fell walks the bottom and climbs out
    /// onto open ground, and is never left unable to move.
    #[inline(always)]
    pub fn walkable(from_low: bool, to: u8) -> bool {
        to & BLOCKS_WALKING == 0 || (from_low && to & LOW != 0)
    }

    pub fn of(c: &Cell) -> u8 {
        let mut f = 0;
        if c.blocks_line_of_effect() {
            f |= BLOCKS_EFFECT;
        }
        if c.blocks_walking() {
            f |= BLOCKS_WALKING;
        }
        if c.terrain == Terrain::Difficult {
            f |= DIFFICULT;
        }
        if c.is_wall() || c.object.is_some() {
            f |= SOLID;
        }
        if c.terrain.fall_depth().is_some() && !c.raised_wall && c.object.is_none() {
            f |= LOW;
        }
        if c.terrain == Terrain::Water {
            f |= WATER;
        }
        if c.terrain.fall_depth().is_some() || c.terrain == Terrain::Water || c.elevation > 0 {
            f |= RELIEF;
        }
        f
    }
}

/// A map: a grid of cells.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Map {
    pub width: i32,
    pub height: i32,
    cells: Vec<Cell>,
    /// What each square does to line of effect and walking ([`square`]
    /// flags), kept in step with `cells`: the hot loops (line of effect,
    /// reach) read one byte instead of a cell.
    #[serde(skip)]
    flags: Vec<u8>,
    /// For each square, which of [`Pos::STEPS`] a one-square creature may
    /// take from it (bit `k` for step `k`): onto the map, onto a square it
    /// can walk, not cutting a solid corner. Kept in step with `flags`.
    #[serde(skip)]
    step_masks: Vec<u8>,
    /// The step masks and the difficult squares again, a row at a time as
    /// bits (bit `x` for column `x`), for the reach search: for each row,
    /// from which of its squares each step may be taken (`[k]` for step
    /// `k`), and which are difficult (`[8]`). Kept in step with
    /// `step_masks`, on a map up to 64 squares wide (empty on a wider one).
    #[serde(skip)]
    step_rows: Vec<[u64; 9]>,
    /// Summed-area table of line-of-effect blockers, `(width + 1) *
    /// (height + 1)`: how many block in any box, in four reads.
    #[serde(skip)]
    blocker_sums: Vec<u32>,
    /// The sight found between pairs of single squares, kept as each is
    /// first asked for (line of effect walks up to sixteen corner lines,
    /// and a fight asks about the same pairs over and over); emptied when
    /// a square starts or stops blocking.
    #[serde(skip)]
    pub(super) sight_memo: super::los::SightMemo,
    /// Whether any square has [`square::RELIEF`] (kept with `flags`; a
    /// square never loses it in a fight, so it is only ever set).
    #[serde(skip)]
    relief: bool,
    /// The squares with [`square::RELIEF`], a row of bits for each row (bit
    /// `x` for column `x`), on a map up to 64 squares wide (empty on a
    /// wider one): a search whose box holds none is a square at a time.
    #[serde(skip)]
    relief_rows: Vec<u64>,
    /// Glyphs the map starts with, as a trap (docs/rules.md#moving: glyph networks):
    /// each square and the id of the glyphic ability whose glyph it is.
    #[serde(default)]
    pub glyphs: Vec<(Pos, String)>,
    /// Treasure tiles holding an item (docs/rules.md#loot: "If a treasure
    /// tile is looted, immediately refer to the ... treasure index"): each
    /// square and the id of the item it yields, until taken.
    #[serde(default)]
    pub items: Vec<(Pos, String)>,
}

impl Map {
    /// An open map of floor.
    pub fn new(width: i32, height: i32) -> Map {
        let n = (width.max(0) * height.max(0)) as usize;
        let mut map = Map {
            width,
            height,
            cells: vec![Cell::default(); n],
            flags: vec![0; n],
            step_masks: Vec::new(),
            step_rows: Vec::new(),
            blocker_sums: vec![0; ((width.max(0) + 1) * (height.max(0) + 1)) as usize],
            sight_memo: Default::default(),
            relief: false,
            relief_rows: if width <= 64 {
                vec![0; height.max(0) as usize]
            } else {
                Vec::new()
            },
            glyphs: Vec::new(),
            items: Vec::new(),
        };
        map.step_masks = (0..n).map(|i| map.step_mask(i)).collect();
        map.rebuild_step_rows();
        map
    }

    /// Whether `p` lies more than [`Map::MARGIN`] squares beyond the map
    /// on any side: no rule has a use for such a square (an area aimed off
    /// the map's edge is aimed a few squares off it), and the rules'
    /// arithmetic stays far from the integers' limits without it.
    pub fn far_off(&self, p: Pos) -> bool {
        p.x < -Self::MARGIN
            || p.y < -Self::MARGIN
            || p.x >= self.width.saturating_add(Self::MARGIN)
            || p.y >= self.height.saturating_add(Self::MARGIN)
    }

    /// How far beyond the map a command may name a square ([`Map::far_off`]).
    pub const MARGIN: i32 = 64;

    pub fn in_bounds(&self, p: Pos) -> bool {
        p.x >= 0 && p.y >= 0 && p.x < self.width && p.y < self.height
    }

    fn index(&self, p: Pos) -> usize {
        (p.y * self.width + p.x) as usize
    }

    /// Every cell, a row at a time (`y * width + x`).
    pub fn cells(&self) -> &[Cell] {
        &self.cells
    }

    /// The cell at `p`; outside the map reads as wall.
    pub fn cell(&self, p: Pos) -> Cell {
        if self.in_bounds(p) {
            self.cells[self.index(p)]
        } else {
            Cell {
                terrain: Terrain::Wall,
                ..Default::default()
            }
        }
    }

    pub fn set(&mut self, p: Pos, cell: Cell) {
        if self.in_bounds(p) {
            let i = self.index(p);
            self.cells[i] = cell;
            if self.flags.len() != self.cells.len() {
                self.rebuild_blockers();
            }
            let was = self.flags[i] & square::BLOCKS_EFFECT != 0;
            self.flags[i] = square::of(&cell);
            if self.flags[i] & square::RELIEF != 0 {
                self.relief = true;
                let (x, y) = (p.x as usize, p.y as usize);
                if let Some(row) = self.relief_rows.get_mut(y) {
                    *row |= 1 << x;
                }
            }
            let now = self.flags[i] & square::BLOCKS_EFFECT != 0;
            if was != now {
                self.count_blocker(p, now);
                self.sight_memo = Default::default();
            }
            // The steps from the square and its neighbours (onto it, or
            // past its corner) may have changed.
            for q in std::iter::once(p).chain(p.neighbours()) {
                if self.in_bounds(q) {
                    let j = self.index(q);
                    self.step_masks[j] = self.step_mask(j);
                    self.put_step_row(j);
                }
            }
        }
    }

    pub fn set_terrain(&mut self, p: Pos, terrain: Terrain) {
        let mut c = self.cell(p);
        c.terrain = terrain;
        self.set(p, c);
    }

    pub fn set_object(&mut self, p: Pos, object: Option<MapObject>) {
        let mut c = self.cell(p);
        c.object = object;
        self.set(p, c);
    }

    /// Take the treasure on a square: its coins (0 for none).
    pub fn take_treasure(&mut self, p: Pos) -> u32 {
        if !self.in_bounds(p) {
            return 0;
        }
        let mut c = self.cell(p);
        let coins = std::mem::take(&mut c.treasure);
        if coins > 0 {
            self.set(p, c);
        }
        coins
    }

    /// Every square with a treasure token, and its coins (0 for a tile
    /// holding only an item).
    pub fn treasures(&self) -> Vec<(Pos, u32)> {
        let mut out = Vec::new();
        for y in 0..self.height {
            for x in 0..self.width {
                let p = Pos::new(x, y);
                let t = self.cell(p).treasure;
                if t > 0 || self.item_at(p).is_some() {
                    out.push((p, t));
                }
            }
        }
        out
    }

    /// The item a treasure tile on `p` holds, if any.
    pub fn item_at(&self, p: Pos) -> Option<&str> {
        self.items
            .iter()
            .find(|(at, _)| *at == p)
            .map(|(_, id)| id.as_str())
    }

    /// Whether `p` holds anything to loot.
    pub fn has_treasure(&self, p: Pos) -> bool {
        self.in_bounds(p) && (self.cell(p).treasure > 0 || self.item_at(p).is_some())
    }

    /// Take the item on a square, if any.
    pub fn take_item(&mut self, p: Pos) -> Option<String> {
        let i = self.items.iter().position(|(at, _)| *at == p)?;
        Some(self.items.remove(i).1)
    }

    pub fn set_raised_wall(&mut self, p: Pos, raised: bool) {
        let mut c = self.cell(p);
        c.raised_wall = raised;
        self.set(p, c);
    }

    /// Rebuild the per-square flags (after deserialising).
    pub fn rebuild_blockers(&mut self) {
        self.flags = self.cells.iter().map(square::of).collect();
        self.relief = self.flags.iter().any(|f| f & square::RELIEF != 0);
        self.relief_rows = Vec::new();
        if self.width <= 64 {
            let w = self.width.max(0) as usize;
            self.relief_rows = (0..self.height.max(0) as usize)
                .map(|y| {
                    (0..w)
                        .filter(|&x| self.flags[y * w + x] & square::RELIEF != 0)
                        .fold(0u64, |row, x| row | 1 << x)
                })
                .collect();
        }
        self.step_masks = (0..self.cells.len()).map(|i| self.step_mask(i)).collect();
        self.rebuild_step_rows();
        self.sum_blockers();
        self.sight_memo = Default::default();
    }

    fn sum_blockers(&mut self) {
        let (w, h) = (self.width.max(0) as usize, self.height.max(0) as usize);
        let mut sums = vec![0u32; (w + 1) * (h + 1)];
        for y in 0..h {
            let mut row = 0;
            for x in 0..w {
                row += u32::from(self.flags[y * w + x] & square::BLOCKS_EFFECT != 0);
                sums[(y + 1) * (w + 1) + x + 1] = sums[y * (w + 1) + x + 1] + row;
            }
        }
        self.blocker_sums = sums;
    }

    /// One square began or stopped blocking: every sum over a box holding
    /// it moves by one.
    fn count_blocker(&mut self, p: Pos, blocks: bool) {
        let (w, h) = (
            self.width.max(0) as usize + 1,
            self.height.max(0) as usize + 1,
        );
        if self.blocker_sums.len() != w * h {
            self.sum_blockers();
            return;
        }
        for y in p.y as usize + 1..h {
            for s in &mut self.blocker_sums[y * w + p.x as usize + 1..(y + 1) * w] {
                if blocks {
                    *s += 1;
                } else {
                    *s -= 1;
                }
            }
        }
    }

    /// Whether no square of the box `x0..=x1` by `y0..=y1` blocks line of
    /// effect (squares outside the map do). `false` when it can't tell.
    pub fn open_box(&self, x0: i32, y0: i32, x1: i32, y1: i32) -> bool {
        if x0 < 0 || y0 < 0 || x1 >= self.width || y1 >= self.height || x0 > x1 || y0 > y1 {
            return false;
        }
        let w = self.width as usize + 1;
        if self.blocker_sums.len() != w * (self.height as usize + 1) {
            return false;
        }
        let at = |x: i32, y: i32| self.blocker_sums[y as usize * w + x as usize];
        at(x1 + 1, y1 + 1) + at(x0, y0) == at(x0, y1 + 1) + at(x1 + 1, y0)
    }

    /// Every square's [`square`] flags in map order, when kept (a map
    /// deserialised without [`Map::rebuild_blockers`] has none).
    #[inline]
    pub fn flags(&self) -> Option<&[u8]> {
        (self.flags.len() == self.cells.len()).then_some(&self.flags)
    }

    /// Every square's steps for a one-square creature (see the field), when
    /// the flags are kept.
    #[inline]
    pub fn step_masks(&self) -> Option<&[u8]> {
        (self.step_masks.len() == self.cells.len()).then_some(&self.step_masks)
    }

    /// Every row's steps and difficult squares as bits, afresh.
    fn rebuild_step_rows(&mut self) {
        self.step_rows = Vec::new();
        if self.width > 64 {
            return;
        }
        self.step_rows = vec![[0; 9]; self.height.max(0) as usize];
        for j in 0..self.step_masks.len() {
            self.put_step_row(j);
        }
    }

    /// Square `j`'s step mask and difficulty into its row's bits.
    fn put_step_row(&mut self, j: usize) {
        let width = self.width as usize;
        let (x, y) = (j % width, j / width);
        let (mask, flags) = (self.step_masks[j], self.flags[j]);
        let Some(row) = self.step_rows.get_mut(y) else {
            return;
        };
        let on = (0..8)
            .map(|k| mask & 1 << k != 0)
            .chain([flags & square::DIFFICULT != 0]);
        for (bits, on) in row.iter_mut().zip(on) {
            *bits = *bits & !(1 << x) | u64::from(on) << x;
        }
    }

    /// Row `y`'s steps and difficult squares as bits (see the field), on a
    /// map up to 64 squares wide whose flags are kept.
    #[inline]
    pub(super) fn step_row(&self, y: usize) -> Option<&[u64; 9]> {
        self.step_rows.get(y)
    }

    /// Which steps a one-square creature may take from square `i`, from the
    /// flags: the rule of `movement`'s corner and entering checks.
    fn step_mask(&self, i: usize) -> u8 {
        let here = Pos::new(i as i32 % self.width, i as i32 / self.width);
        let low = self.square_flags(here) & square::LOW != 0;
        let mut mask = 0;
        for (k, (dx, dy)) in Pos::STEPS.into_iter().enumerate() {
            let next = here.offset(dx, dy);
            if !self.in_bounds(next) || !square::walkable(low, self.square_flags(next)) {
                continue;
            }
            if dx != 0
                && dy != 0
                && (self.square_flags(Pos::new(next.x, here.y))
                    | self.square_flags(Pos::new(here.x, next.y)))
                    & square::SOLID
                    != 0
            {
                continue;
            }
            mask |= 1 << k;
        }
        mask
    }

    /// The [`square`] flags at `p` (outside the map: a wall's).
    #[inline]
    pub fn square_flags(&self, p: Pos) -> u8 {
        if !self.in_bounds(p) {
            return square::of(&Cell {
                terrain: Terrain::Wall,
                ..Default::default()
            });
        }
        let i = self.index(p);
        match self.flags.get(i) {
            Some(&f) => f,
            None => square::of(&self.cells[i]),
        }
    }

    /// Whether the square blocks line of effect (outside the map: yes).
    #[inline]
    pub fn blocks(&self, x: i32, y: i32) -> bool {
        self.square_flags(Pos::new(x, y)) & square::BLOCKS_EFFECT != 0
    }

    /// Every square of the map.
    pub fn squares(&self) -> impl Iterator<Item = Pos> + '_ {
        (0..self.height).flat_map(move |y| (0..self.width).map(move |x| Pos::new(x, y)))
    }

    /// Whether a footprint fits on open ground (in bounds, no walls, objects or pits).
    pub fn footprint_open(&self, fp: Footprint) -> bool {
        fp.squares()
            .all(|q| self.in_bounds(q) && !self.cell(q).blocks_walking())
    }
}

impl Map {
    /// Whether any square is a pit, a ledge, water or raised ground
    /// ([`square::RELIEF`]): a step's cost may depend on where it is taken from.
    pub fn has_relief(&self) -> bool {
        self.relief
    }

    /// Whether any square of the box from `(x0, y0)` to `(x1, y1)`
    /// (inclusive, clipped to the map) has relief ([`Map::has_relief`]).
    pub fn relief_in(&self, x0: i32, y0: i32, x1: i32, y1: i32) -> bool {
        if !self.relief {
            return false;
        }
        if self.relief_rows.is_empty() {
            return true;
        }
        let (x0, x1) = (x0.max(0), x1.min(self.width - 1));
        let (y0, y1) = (y0.max(0), y1.min(self.height - 1));
        if x0 > x1 || y0 > y1 {
            return false;
        }
        let mask = (u64::MAX >> (63 - (x1 - x0) as u32)) << x0;
        self.relief_rows[y0 as usize..=y1 as usize]
            .iter()
            .any(|row| row & mask != 0)
    }

    /// The deepest pit or ledge under a footprint, if any (how far a
    /// creature there falls).
    pub fn fall_depth(&self, fp: Footprint) -> Option<u32> {
        fp.squares()
            .filter_map(|q| self.cell(q).terrain.fall_depth())
            .max()
    }

    /// Whether a footprint has a square on the low floor of a pit or below
    /// a ledge ([`square::LOW`]).
    pub fn touches_low(&self, fp: Footprint) -> bool {
        fp.squares()
            .any(|q| self.square_flags(q) & square::LOW != 0)
    }

    /// The highest elevation under a footprint.
    pub fn elevation(&self, fp: Footprint) -> u8 {
        fp.squares()
            .map(|q| self.cell(q).elevation)
            .max()
            .unwrap_or(0)
    }
}

/// Which side a creature fights for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Side {
    Heroes,
    Director,
}

impl Side {
    /// Its place in a pair kept per side: 0 the heroes, 1 the Director.
    pub fn index(self) -> usize {
        match self {
            Side::Heroes => 0,
            Side::Director => 1,
        }
    }

    /// The opposing side.
    pub fn other(self) -> Side {
        match self {
            Side::Heroes => Side::Director,
            Side::Director => Side::Heroes,
        }
    }
}

/// A creature on the map, as the spatial functions see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Occupant {
    pub id: CreatureId,
    pub space: Footprint,
    pub side: Side,
    /// Can take triggered actions (for opportunity attacks and flanking).
    pub can_react: bool,
}

#[cfg(test)]
mod tests;
