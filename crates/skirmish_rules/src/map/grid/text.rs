//! The map as it is written: ASCII rows with a legend, a heights block,
//! and the RON map file that holds them.

use super::*;

impl Map {
    /// Parse ASCII rows with a legend.
    pub fn from_ascii(rows: &[String], legend: &BTreeMap<char, Tile>) -> Result<Map, MapError> {
        for (&symbol, tile) in legend {
            tile.check()
                .map_err(|problem| MapError::BadLegend { symbol, problem })?;
        }
        let height = rows.len();
        let lengths: Vec<usize> = rows.iter().map(|r| r.chars().count()).collect();
        check_size(lengths.iter().copied().max().unwrap_or(0), height)?;
        // The width most rows agree on, so a ragged row is blamed itself,
        // not the rows around it.
        let width = most_common(&lengths);
        let (width, height) = (width as i32, height as i32);
        let mut map = Map::new(width, height);
        for (y, row) in rows.iter().enumerate() {
            let len = row.chars().count() as i32;
            if len != width {
                return Err(MapError::RaggedRow {
                    row: y,
                    len,
                    width,
                    heights: false,
                });
            }
            for (x, c) in row.chars().enumerate() {
                let tile = match legend.get(&c) {
                    Some(t) => *t,
                    None => match default_tile(c) {
                        Some(t) => t,
                        None => {
                            return Err(MapError::UnknownSymbol {
                                symbol: c,
                                row: y,
                                col: x,
                            });
                        }
                    },
                };
                map.set(Pos::new(x as i32, y as i32), tile.cell());
            }
        }
        Ok(map)
    }

    /// The map as ASCII with the default symbols (for logs and tests).
    pub fn to_ascii(&self) -> Vec<String> {
        (0..self.height)
            .map(|y| {
                (0..self.width)
                    .map(|x| symbol_for(self.cell(Pos::new(x, y))))
                    .collect()
            })
            .collect()
    }

    /// Apply a heights block (see [`MapDef::heights`]); empty means flat.
    pub fn set_heights(&mut self, rows: &[String]) -> Result<(), MapError> {
        if rows.is_empty() {
            return Ok(());
        }
        if rows.len() != self.height as usize {
            return Err(MapError::HeightRows {
                got: rows.len(),
                want: self.height as usize,
            });
        }
        for (y, row) in rows.iter().enumerate() {
            let len = row.chars().count() as i32;
            if len != self.width {
                return Err(MapError::RaggedRow {
                    row: y,
                    len,
                    width: self.width,
                    heights: true,
                });
            }
            for (x, ch) in row.chars().enumerate() {
                let h = match ch {
                    '.' => 0,
                    d if d.is_ascii_digit() => d as u8 - b'0',
                    symbol => {
                        return Err(MapError::BadHeight {
                            symbol,
                            row: y,
                            col: x,
                        });
                    }
                };
                let p = Pos::new(x as i32, y as i32);
                let mut c = self.cell(p);
                c.elevation = h;
                self.set(p, c);
            }
        }
        Ok(())
    }
}

/// What a legend symbol stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Tile {
    Floor,
    Wall,
    Difficult,
    Pit(u32),
    Ledge(u32),
    Hazard(i32, DamageType),
    Object(Material, u32),
    /// Deep water (docs/rules.md#climbing-swimming-jumping-and-flying).
    Water,
    /// A creature's starting square (placed by the encounter): floor underneath.
    Start,
    /// A treasure token worth this many coins on floor (docs/rules.md#loot).
    Treasure(u32),
}

/// The deepest pit or ledge, and the largest object, a map may hold: as a
/// distance and a creature's size may be (the README's limits).
pub const MAX_DEPTH: u32 = 100;
pub const MAX_OBJECT_SIZE: u32 = 4;
/// The most a hazard deals or a treasure holds: as a number in a tier line.
pub const MAX_TILE_NUMBER: i64 = 999;

impl Tile {
    /// What is wrong with this tile's numbers, if anything: checked for
    /// every legend entry and every Tiled tile before a map is made of
    /// them, so no number past the limits reaches the rules.
    pub fn check(self) -> Result<(), String> {
        let (what, n, low, high) = match self {
            Tile::Pit(d) => ("a pit's depth", i64::from(d), 1, i64::from(MAX_DEPTH)),
            Tile::Ledge(d) => ("a ledge's depth", i64::from(d), 1, i64::from(MAX_DEPTH)),
            Tile::Hazard(n, _) => ("a hazard's damage", i64::from(n), 0, MAX_TILE_NUMBER),
            Tile::Object(_, size) => (
                "an object's size",
                i64::from(size),
                1,
                i64::from(MAX_OBJECT_SIZE),
            ),
            Tile::Treasure(n) => ("a treasure's coins", i64::from(n), 0, MAX_TILE_NUMBER),
            _ => return Ok(()),
        };
        if (low..=high).contains(&n) {
            Ok(())
        } else {
            Err(format!("{what} is {n}: from {low} to {high}"))
        }
    }

    pub fn cell(self) -> Cell {
        let (terrain, object) = match self {
            Tile::Floor | Tile::Start | Tile::Treasure(_) => (Terrain::Floor, None),
            Tile::Wall => (Terrain::Wall, None),
            Tile::Difficult => (Terrain::Difficult, None),
            Tile::Water => (Terrain::Water, None),
            Tile::Pit(d) => (Terrain::Pit(d), None),
            Tile::Ledge(d) => (Terrain::Ledge(d), None),
            Tile::Hazard(damage, damage_type) => (
                Terrain::Hazard {
                    damage,
                    damage_type,
                },
                None,
            ),
            Tile::Object(material, size) => (Terrain::Floor, Some(MapObject { material, size })),
        };
        Cell {
            elevation: 0,
            terrain,
            object,
            raised_wall: false,
            treasure: match self {
                Tile::Treasure(n) => n,
                _ => 0,
            },
        }
    }
}

/// The symbols every map understands without a legend entry.
pub fn default_tile(c: char) -> Option<Tile> {
    Some(match c {
        '.' | ' ' => Tile::Floor,
        '$' => Tile::Treasure(5),
        '#' => Tile::Wall,
        '~' => Tile::Difficult,
        '=' => Tile::Water,
        '_' => Tile::Pit(3),
        'v' => Tile::Ledge(2),
        '^' => Tile::Hazard(3, DamageType::Fire),
        'g' => Tile::Object(Material::Glass, 1),
        'w' => Tile::Object(Material::Wood, 1),
        's' => Tile::Object(Material::Stone, 1),
        'm' => Tile::Object(Material::Metal, 1),
        _ => return None,
    })
}

fn symbol_for(c: Cell) -> char {
    if c.raised_wall {
        return '#';
    }
    if let Some(o) = c.object {
        return match o.material {
            Material::Glass => 'g',
            Material::Wood => 'w',
            Material::Stone => 's',
            Material::Metal => 'm',
        };
    }
    match c.terrain {
        Terrain::Floor => '.',
        Terrain::Wall => '#',
        Terrain::Difficult => '~',
        Terrain::Pit(_) => '_',
        Terrain::Ledge(_) => 'v',
        Terrain::Hazard { .. } => '^',
        Terrain::Water => '=',
    }
}

/// The most squares a map may have on a side.
pub const MAX_MAP_SIDE: usize = 256;

/// Whether a map of `width` x `height` squares may be made: neither side
/// 0 (no rows) nor more than [`MAX_MAP_SIDE`].
pub fn check_size(width: usize, height: usize) -> Result<(), MapError> {
    if width == 0 || height == 0 {
        return Err(MapError::Empty);
    }
    if width > MAX_MAP_SIDE || height > MAX_MAP_SIDE {
        return Err(MapError::TooLarge { width, height });
    }
    Ok(())
}

/// The value that occurs most often (the earliest of equals); 0 if none.
fn most_common(values: &[usize]) -> usize {
    let mut best = (0, 0);
    for &v in values {
        let n = values.iter().filter(|&&w| w == v).count();
        if n > best.1 {
            best = (v, n);
        }
    }
    best.0
}

/// A problem reading a map.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MapError {
    #[error("the map has no rows")]
    Empty,
    #[error("the map is {width} x {height} squares: at most {MAX_MAP_SIDE} on a side")]
    TooLarge { width: usize, height: usize },
    /// Rows and columns are counted from 0 here and from 1 in the message
    /// (as an editor counts lines).
    #[error(
        "{} row {} has {len} squares but the map is {width} wide",
        if *.heights { "height" } else { "map" },
        .row + 1
    )]
    RaggedRow {
        row: usize,
        len: i32,
        width: i32,
        /// In the `heights` rows rather than the map's `rows`.
        heights: bool,
    },
    #[error("symbol `{symbol}` at row {}, column {} is not in the legend", .row + 1, .col + 1)]
    UnknownSymbol {
        symbol: char,
        row: usize,
        col: usize,
    },
    #[error("height `{symbol}` at row {}, column {} is not a digit 0-9 or `.`", .row + 1, .col + 1)]
    BadHeight {
        symbol: char,
        row: usize,
        col: usize,
    },
    #[error("the heights have {got} rows but the map has {want}")]
    HeightRows { got: usize, want: usize },
    #[error("legend `{symbol}`: {problem}")]
    BadLegend { symbol: char, problem: String },
    #[error("{0}")]
    Tiled(String),
}

/// A map file: ASCII rows plus a legend.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MapDef {
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub description: String,
    /// Extra or overriding symbols; the defaults are `.` floor, `#` wall,
    /// `~` difficult, `_` pit (3 deep), `v` ledge (2), `^` fire hazard (3),
    /// `g`/`w`/`s`/`m` glass/wood/stone/metal objects.
    #[serde(default)]
    pub legend: BTreeMap<char, Tile>,
    pub rows: Vec<String>,
    /// Optional heights, one digit per square (`.` is 0), same shape as `rows`:
    /// raised squares give high ground.
    #[serde(default)]
    pub heights: Vec<String>,
    /// Glyphs it starts with, as a trap: `(at: (x, y), from: "glyphic_ability_id")`.
    #[serde(default)]
    pub glyphs: Vec<MapGlyph>,
    /// Treasure tiles holding items: `(at: (x, y), item: "item_ability_id")`.
    #[serde(default)]
    pub treasure: Vec<MapTreasure>,
}

/// A treasure tile a map starts with, and the item it yields.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MapTreasure {
    pub at: (i32, i32),
    /// The item (an ability with `item: true`) it yields.
    pub item: String,
}

/// A glyph a map starts with.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MapGlyph {
    pub at: (i32, i32),
    /// The glyphic ability whose glyph it is.
    pub from: String,
}

impl MapDef {
    pub fn build(&self) -> Result<Map, MapError> {
        let mut map = Map::from_ascii(&self.rows, &self.legend)?;
        map.set_heights(&self.heights)?;
        map.glyphs = self
            .glyphs
            .iter()
            .map(|g| (Pos::new(g.at.0, g.at.1), g.from.clone()))
            .collect();
        map.items = self
            .treasure
            .iter()
            .map(|t| (Pos::new(t.at.0, t.at.1), t.item.clone()))
            .collect();
        Ok(map)
    }
}

/// Parse a test or scenario map from a string block (rows separated by newlines).
pub fn ascii(block: &str) -> Map {
    let rows: Vec<String> = block
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(String::from)
        .collect();
    Map::from_ascii(&rows, &BTreeMap::new()).expect("a valid test map")
}
