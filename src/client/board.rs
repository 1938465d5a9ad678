//! The board: the map drawn with bevy_ecs_tilemap from a generated tileset.

use bevy::asset::RenderAssetUsages;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
use bevy_ecs_tilemap::prelude::*;
use skirmish_rules::map::{Cell, Map, Material, Pos, Terrain};

use super::game::Game;
use super::view::BoardGeometry;

/// Pixels per tile in the tileset.
pub const TILE_PX: u32 = 64;

/// The tiles of the generated tileset, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TileArt {
    Floor = 0,
    Wall = 1,
    Difficult = 2,
    Pit = 3,
    Hazard = 4,
    Wood = 5,
    Stone = 6,
    Glass = 7,
    Metal = 8,
    Ledge = 9,
}

const TILE_COUNT: u32 = 10;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<BoardGeometry>()
        .add_systems(Startup, make_tileset)
        .add_systems(
            Update,
            (spawn_board, update_tiles, treasure_marks, glyph_marks)
                .chain()
                .in_set(BoardSet)
                .after(super::game::GameSet),
        );
}

/// Building the board (and its geometry) comes before the tokens on it.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct BoardSet;

/// The art for a square of the map.
pub fn art_for(cell: Cell) -> TileArt {
    if cell.raised_wall {
        return TileArt::Wall;
    }
    if let Some(o) = cell.object {
        return match o.material {
            Material::Wood => TileArt::Wood,
            Material::Stone => TileArt::Stone,
            Material::Glass => TileArt::Glass,
            Material::Metal => TileArt::Metal,
        };
    }
    match cell.terrain {
        Terrain::Floor => TileArt::Floor,
        Terrain::Wall => TileArt::Wall,
        Terrain::Difficult => TileArt::Difficult,
        Terrain::Pit(_) => TileArt::Pit,
        Terrain::Ledge(_) => TileArt::Ledge,
        Terrain::Hazard { .. } => TileArt::Hazard,
    }
}

#[derive(Resource)]
struct Tileset(Handle<Image>);

/// The board of the current game, and what it was built from.
#[derive(Component)]
struct Board {
    generation: u64,
    version: u64,
}

fn make_tileset(mut commands: Commands, mut images: ResMut<Assets<Image>>) {
    commands.insert_resource(Tileset(images.add(tileset_image())));
}

fn tile_pos(map: &Map, p: Pos) -> TilePos {
    // Row 0 is the top of the map; tile y grows upward.
    TilePos {
        x: p.x as u32,
        y: map.height as u32 - 1 - p.y as u32,
    }
}

/// Build the tilemap for a new game (and drop the old one).
fn spawn_board(
    mut commands: Commands,
    game: NonSend<Game>,
    tileset: Res<Tileset>,
    boards: Query<(Entity, &Board)>,
    mut geometry: ResMut<BoardGeometry>,
) {
    if boards.iter().any(|(_, b)| b.generation == game.generation) {
        return;
    }
    for (e, _) in &boards {
        commands.entity(e).despawn();
    }
    let map = game.encounter.map();
    *geometry = BoardGeometry {
        width: map.width,
        height: map.height,
    };
    let size = TilemapSize {
        x: map.width as u32,
        y: map.height as u32,
    };
    let board = commands
        .spawn((
            Name::new("Board"),
            Board {
                generation: game.generation,
                version: game.version,
            },
        ))
        .id();
    let mut storage = TileStorage::empty(size);
    for p in map.squares() {
        let pos = tile_pos(map, p);
        let tile = commands
            .spawn((
                TileBundle {
                    position: pos,
                    tilemap_id: TilemapId(board),
                    texture_index: TileTextureIndex(art_for(map.cell(p)) as u32),
                    ..default()
                },
                ChildOf(board),
            ))
            .id();
        storage.set(&pos, tile);
    }
    let tile_size = TilemapTileSize {
        x: TILE_PX as f32,
        y: TILE_PX as f32,
    };
    commands.entity(board).insert(TilemapBundle {
        grid_size: tile_size.into(),
        map_type: TilemapType::Square,
        size,
        storage,
        texture: TilemapTexture::Single(tileset.0.clone()),
        tile_size,
        anchor: TilemapAnchor::Center,
        ..default()
    });
}

/// Raised walls and broken objects change the map: redraw those squares.
fn update_tiles(
    game: NonSend<Game>,
    mut boards: Query<(&mut Board, &TileStorage)>,
    mut tiles: Query<&mut TileTextureIndex>,
) {
    for (mut board, storage) in &mut boards {
        if board.generation != game.generation || board.version == game.version {
            continue;
        }
        board.version = game.version;
        let map = game.encounter.map();
        for p in map.squares() {
            if let Some(e) = storage.get(&tile_pos(map, p))
                && let Ok(mut t) = tiles.get_mut(e)
            {
                let want = art_for(map.cell(p)) as u32;
                if t.0 != want {
                    t.0 = want;
                }
            }
        }
    }
}

/// A treasure token on the board (docs/rules.md#loot).
#[derive(Component)]
struct TreasureMark;

/// Gold coins on the squares that hold treasure, redrawn when the map changes.
fn treasure_marks(
    mut commands: Commands,
    game: NonSend<Game>,
    geometry: Res<BoardGeometry>,
    marks: Query<Entity, With<TreasureMark>>,
    mut shown: Local<Option<(u64, u64)>>,
) {
    let now = (game.generation, game.version);
    if *shown == Some(now) {
        return;
    }
    *shown = Some(now);
    for e in &marks {
        commands.entity(e).despawn();
    }
    let square = super::view::SQUARE;
    for (p, coins) in game.encounter.map().treasures() {
        let at = geometry.centre(p, 1);
        // A gold diamond with a dark rim, above the floor, below tokens.
        commands
            .spawn((
                Name::new(format!("Treasure {p}")),
                TreasureMark,
                Sprite::from_color(Color::srgb(0.25, 0.17, 0.02), Vec2::splat(square * 0.5)),
                Transform::from_translation(at.extend(2.0))
                    .with_rotation(Quat::from_rotation_z(std::f32::consts::FRAC_PI_4)),
            ))
            .with_children(|c| {
                c.spawn((
                    Sprite::from_color(Color::srgb(1.0, 0.8, 0.2), Vec2::splat(square * 0.4)),
                    Transform::from_xyz(0.0, 0.0, 0.1),
                ));
            });
        commands.spawn((
            TreasureMark,
            Text2d::new(coins.to_string()),
            TextFont::from_font_size(square * 0.3),
            TextColor(Color::srgb(0.2, 0.12, 0.0)),
            Transform::from_translation(at.extend(2.3)),
        ));
    }
}

/// A glyph drawn on the board (docs/rules.md#glyphs: glyphs are invisible).
#[derive(Component)]
struct GlyphMark;

/// The glyphs a person at the screen may see: the heroes' own, any glyph
/// that has shone, and in demo mode (an audience) all of them. Dismissed
/// glyphs are gone; disabled ones are drawn dim.
fn glyph_marks(
    mut commands: Commands,
    game: NonSend<Game>,
    geometry: Res<BoardGeometry>,
    marks: Query<Entity, With<GlyphMark>>,
    mut shown: Local<Option<(u64, u64)>>,
) {
    let now = (game.generation, game.version);
    if *shown == Some(now) {
        return;
    }
    *shown = Some(now);
    for e in &marks {
        commands.entity(e).despawn();
    }
    let square = super::view::SQUARE;
    let demo = game.mode == super::game::Mode::Demo;
    let round = game.encounter.flow().round;
    for g in &game.encounter.glyphs().list {
        let seen = demo || g.revealed || g.side == skirmish_rules::map::Side::Heroes;
        if g.dismissed || !seen {
            continue;
        }
        let lit = g.disabled_until <= round;
        let colour = match (g.side, lit) {
            (skirmish_rules::map::Side::Heroes, true) => Color::srgba(0.45, 0.75, 1.0, 0.85),
            (_, true) => Color::srgba(1.0, 0.45, 0.2, 0.85),
            _ => Color::srgba(0.6, 0.6, 0.6, 0.45),
        };
        let at = geometry.centre(g.at, 1);
        commands.spawn((
            Name::new(format!("Glyph {}", g.at)),
            GlyphMark,
            Text2d::new("✺"),
            TextFont::from_font_size(square * 0.55),
            TextColor(colour),
            Transform::from_translation(at.extend(2.4)),
        ));
    }
}

/// A small deterministic hash for texture noise.
fn noise(x: u32, y: u32, salt: u32) -> f32 {
    let mut h = x
        .wrapping_mul(374_761_393)
        .wrapping_add(y.wrapping_mul(668_265_263))
        .wrapping_add(salt.wrapping_mul(2_246_822_519));
    h = (h ^ (h >> 13)).wrapping_mul(1_274_126_177);
    ((h ^ (h >> 16)) & 0xffff) as f32 / 65535.0
}

/// The tileset as one image: TILE_COUNT tiles in a row.
pub fn tileset_image() -> Image {
    let w = TILE_PX * TILE_COUNT;
    let h = TILE_PX;
    let mut data = vec![0u8; (w * h * 4) as usize];
    for t in 0..TILE_COUNT {
        for y in 0..h {
            for x in 0..TILE_PX {
                let rgb = tile_pixel(t, x, y);
                let i = (((y * w) + t * TILE_PX + x) * 4) as usize;
                data[i..i + 4].copy_from_slice(&[rgb[0], rgb[1], rgb[2], 255]);
            }
        }
    }
    Image::new(
        Extent3d {
            width: w,
            height: h,
            depth_or_array_layers: 1,
        },
        TextureDimension::D2,
        data,
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::default(),
    )
}

fn shade(c: [f32; 3], k: f32) -> [u8; 3] {
    c.map(|v| (v * k).clamp(0.0, 255.0) as u8)
}

/// One pixel of tile `t`. Every tile gets a quiet one-pixel grid edge.
fn tile_pixel(t: u32, x: u32, y: u32) -> [u8; 3] {
    let n = noise(x, y, t);
    let edge = x == 0 || y == 0;
    let base = match t {
        // Floor: worn flagstones, four to a tile.
        0 => {
            let seam = x.is_multiple_of(32) || y.is_multiple_of(32);
            let stone = noise(x / 32, y / 32, 99) * 0.12;
            let k = if seam { 0.78 } else { 0.92 + stone + n * 0.08 };
            shade([96.0, 90.0, 80.0], k)
        }
        // Wall: bricks in offset courses.
        1 => {
            let course = y / 16;
            let offset = if course.is_multiple_of(2) { 0 } else { 16 };
            let mortar = y.is_multiple_of(16) || (x + offset).is_multiple_of(32);
            if mortar {
                shade([40.0, 38.0, 42.0], 1.0)
            } else {
                let brick = noise((x + offset) / 32, course, 7) * 0.2;
                shade([88.0, 84.0, 100.0], 0.85 + brick + n * 0.1)
            }
        }
        // Difficult terrain: rubble and undergrowth on the floor.
        2 => {
            let blob = noise(x / 6, y / 6, 3);
            if blob > 0.62 {
                shade([74.0, 104.0, 52.0], 0.8 + n * 0.4)
            } else {
                shade([96.0, 90.0, 80.0], 0.8 + n * 0.1)
            }
        }
        // Pit: a dark hole with a lit rim.
        3 => {
            let d = (x as f32 - 32.0).abs().max((y as f32 - 32.0).abs());
            if d > 27.0 {
                shade([110.0, 100.0, 86.0], 0.9 + n * 0.1)
            } else {
                shade([18.0, 14.0, 20.0], 0.7 + (27.0 - d) / 27.0 * 0.3 + n * 0.1)
            }
        }
        // Hazard: glowing embers.
        4 => {
            let glow = noise(x / 4, y / 4, 11);
            if glow > 0.7 {
                shade([250.0, 150.0, 40.0], 0.8 + n * 0.2)
            } else {
                shade([120.0, 40.0, 24.0], 0.7 + n * 0.3)
            }
        }
        // Objects: a crate, a stone block, a glass case, an iron chest.
        5..=8 => {
            let (body, line) = match t {
                5 => ([150.0, 104.0, 60.0], [70.0, 44.0, 24.0]),
                6 => ([150.0, 148.0, 140.0], [80.0, 78.0, 76.0]),
                7 => ([150.0, 210.0, 235.0], [230.0, 250.0, 255.0]),
                _ => ([110.0, 118.0, 130.0], [45.0, 48.0, 55.0]),
            };
            let inside = (8..56).contains(&x) && (8..56).contains(&y);
            if inside {
                let seam = (y - 8).is_multiple_of(12)
                    || x == 8
                    || x == 55
                    || y == 55
                    || (t != 6 && x == y);
                if seam {
                    shade(line, 1.0)
                } else {
                    shade(body, 0.85 + n * 0.15)
                }
            } else {
                shade([96.0, 90.0, 80.0], 0.9 + n * 0.08)
            }
        }
        // Ledge: floor falling away in steps.
        _ => {
            let step = (y / 16) as f32;
            shade([96.0, 90.0, 80.0], 0.95 - step * 0.18 + n * 0.06)
        }
    };
    if edge {
        shade(base.map(f32::from), 0.8)
    } else {
        base
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tileset_has_distinct_tiles() {
        let img = tileset_image();
        let data = img.data.as_ref().unwrap();
        let w = TILE_PX * TILE_COUNT;
        let mean = |t: u32| -> [u64; 3] {
            let mut s = [0u64; 3];
            for y in 0..TILE_PX {
                for x in 0..TILE_PX {
                    let i = (((y * w) + t * TILE_PX + x) * 4) as usize;
                    for c in 0..3 {
                        s[c] += data[i + c] as u64;
                    }
                }
            }
            s
        };
        let means: Vec<_> = (0..TILE_COUNT).map(mean).collect();
        for a in 0..means.len() {
            for b in a + 1..means.len() {
                assert_ne!(means[a], means[b], "tiles {a} and {b} look the same");
            }
        }
    }
}
