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
    Water = 10,
}

const TILE_COUNT: u32 = 11;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<BoardGeometry>()
        .add_systems(Startup, make_tileset)
        .add_systems(
            Update,
            (spawn_board, update_tiles, board_marks, glyph_marks)
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
        Terrain::Water => TileArt::Water,
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

/// An icon or a shade drawn over a square: terrain, objects, treasure
/// and high ground (docs/art.md).
#[derive(Component)]
struct BoardMark;

/// What is marked on one square, to redraw only when it changes.
#[derive(Clone, Debug, PartialEq)]
enum Mark {
    /// Icon name, tint, and a number to show (treasure's coins).
    Icon(String, Color, Option<u32>),
    /// High ground this many squares up, and which sides drop (S, E, N, W).
    High(u8, [bool; 4]),
}

/// The marks of the map as it is now.
fn marks(map: &Map, icons: &crate::icons::Icons) -> Vec<(Pos, Mark)> {
    let b = &icons.table.board;
    let mut out = Vec::new();
    let treasures: std::collections::BTreeMap<Pos, u32> = map.treasures().into_iter().collect();
    for p in map.squares() {
        let cell = map.cell(p);
        let icon = |name: &str, c: Color| Mark::Icon(name.to_string(), c, None);
        let mark = if cell.raised_wall {
            None
        } else if let Some(o) = cell.object {
            let tint = match o.material {
                Material::Wood => Color::srgb(0.95, 0.75, 0.5),
                Material::Stone => Color::srgb(0.88, 0.88, 0.86),
                Material::Glass => Color::srgb(0.75, 0.95, 1.0),
                Material::Metal => Color::srgb(0.8, 0.85, 0.95),
            };
            b.objects.get(&o.material).map(|n| icon(n, tint))
        } else {
            match cell.terrain {
                Terrain::Pit(_) => Some(icon(&b.pit, Color::srgba(0.7, 0.65, 0.6, 0.5))),
                Terrain::Ledge(_) => Some(icon(&b.ledge, Color::srgba(0.9, 0.85, 0.7, 0.45))),
                Terrain::Difficult => Some(icon(&b.difficult, Color::srgba(0.6, 0.85, 0.45, 0.4))),
                Terrain::Hazard { damage_type, .. } => b
                    .hazards
                    .get(&damage_type)
                    .map(|n| icon(n, Color::srgba(1.0, 0.75, 0.3, 0.85))),
                _ => None,
            }
        };
        out.extend(mark.map(|m| (p, m)));
        if let Some(&coins) = treasures.get(&p) {
            // A treasure tile holding an item shows a bag; coins, a pile
            // with their count.
            let (name, count) = match map.item_at(p) {
                Some(_) => (&b.item, (coins > 0).then_some(coins)),
                None => (&b.treasure, Some(coins)),
            };
            out.push((
                p,
                Mark::Icon(name.clone(), Color::srgb(1.0, 0.82, 0.25), count),
            ));
        }
        if cell.elevation > 0 && !cell.raised_wall && cell.terrain != Terrain::Wall {
            let lower = |dx: i32, dy: i32| {
                let q = Pos {
                    x: p.x + dx,
                    y: p.y + dy,
                };
                !map.in_bounds(q) || map.cell(q).elevation < cell.elevation
            };
            out.push((
                p,
                Mark::High(
                    cell.elevation,
                    [lower(0, 1), lower(1, 0), lower(0, -1), lower(-1, 0)],
                ),
            ));
        }
    }
    out
}

/// Redraw the marks when the map changes (a wall raised, an object broken,
/// treasure taken).
fn board_marks(
    mut commands: Commands,
    game: NonSend<Game>,
    geometry: Res<BoardGeometry>,
    icons: Res<super::icons::IconArt>,
    old: Query<Entity, With<BoardMark>>,
    mut shown: Local<Option<(u64, u64)>>,
    mut drawn: Local<Vec<(Pos, Mark)>>,
) {
    let now = (game.generation, game.version);
    if *shown == Some(now) {
        return;
    }
    let fresh = shown.is_none_or(|(g, _)| g != game.generation);
    *shown = Some(now);
    let list = marks(game.encounter.map(), &icons.icons);
    if !fresh && *drawn == list {
        return;
    }
    for e in &old {
        commands.entity(e).despawn();
    }
    let square = super::view::SQUARE;
    for (p, mark) in &list {
        let at = geometry.centre(*p, 1);
        match mark {
            Mark::Icon(name, tint, coins) => {
                let mut e = commands.spawn((
                    Name::new(format!("Mark {name} {p}")),
                    BoardMark,
                    Sprite {
                        image: icons.large(name),
                        color: *tint,
                        custom_size: Some(Vec2::splat(square * 0.62)),
                        ..default()
                    },
                    Transform::from_translation(at.extend(2.0)),
                ));
                if let Some(n) = coins {
                    e.with_child((
                        Text2d::new(n.to_string()),
                        TextFont::from_font_size(square * 0.3),
                        TextColor(Color::WHITE),
                        bevy::sprite::Text2dShadow::default(),
                        Transform::from_xyz(square * 0.26, -square * 0.26, 0.1),
                    ));
                }
            }
            Mark::High(height, drops) => {
                // Lit from above: the plateau lighter, its drops shadowed.
                commands.spawn((
                    BoardMark,
                    Sprite::from_color(Color::srgba(1.0, 0.95, 0.8, 0.16), Vec2::splat(square)),
                    Transform::from_translation(at.extend(1.5)),
                ));
                let edge = 6.0;
                for (i, drop) in drops.iter().enumerate() {
                    if !drop {
                        continue;
                    }
                    let (off, size) = match i {
                        0 => (
                            Vec2::new(0.0, -(square - edge) / 2.0),
                            Vec2::new(square, edge),
                        ),
                        1 => (
                            Vec2::new((square - edge) / 2.0, 0.0),
                            Vec2::new(edge, square),
                        ),
                        2 => (
                            Vec2::new(0.0, (square - edge) / 2.0),
                            Vec2::new(square, 2.0),
                        ),
                        _ => (
                            Vec2::new(-(square - edge) / 2.0, 0.0),
                            Vec2::new(2.0, square),
                        ),
                    };
                    let shade = if i < 2 {
                        Color::srgba(0.0, 0.0, 0.0, 0.55)
                    } else {
                        Color::srgba(1.0, 1.0, 0.9, 0.5)
                    };
                    commands.spawn((
                        BoardMark,
                        Sprite::from_color(shade, size),
                        Transform::from_translation((at + off).extend(1.6)),
                    ));
                }
                // The height once, on the plateau's top-left corner.
                if !(drops[2] && drops[3]) {
                    continue;
                }
                commands.spawn((
                    BoardMark,
                    Text2d::new(format!("▲{height}")),
                    TextFont::from_font_size(square * 0.26),
                    TextColor(Color::srgba(1.0, 0.95, 0.8, 0.9)),
                    bevy::sprite::Text2dShadow::default(),
                    Transform::from_translation(
                        (at + Vec2::new(-square * 0.3, square * 0.33)).extend(1.7),
                    ),
                ));
            }
        }
    }
    *drawn = list;
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
    icons: Res<super::icons::IconArt>,
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
            Sprite {
                image: icons.large(&icons.icons.table.board.glyph),
                color: colour,
                custom_size: Some(Vec2::splat(square * 0.55)),
                ..default()
            },
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
/// The floor is kept plain so tokens and marks stand out on it; walls are
/// dark raised blocks, lit from the top left.
fn tile_pixel(t: u32, x: u32, y: u32) -> [u8; 3] {
    let n = noise(x, y, t);
    let edge = x == 0 || y == 0;
    let floor = |k: f32| {
        let stone = noise(x / 32, y / 32, 99) * 0.05;
        let seam = x.is_multiple_of(32) || y.is_multiple_of(32);
        let k = k * if seam { 0.9 } else { 0.96 + stone + n * 0.03 };
        shade([96.0, 90.0, 80.0], k)
    };
    let base = match t {
        0 => floor(1.0),
        // Wall: a dark block with a lit top-left bevel and faint courses.
        1 => {
            let (fx, fy) = (x as f32, y as f32);
            let bevel = if fx < 5.0 || fy < 5.0 {
                1.45
            } else if fx > 58.0 || fy > 58.0 {
                0.6
            } else {
                1.0
            };
            let course = if y.is_multiple_of(16) { 0.85 } else { 1.0 };
            shade([52.0, 50.0, 62.0], bevel * course * (0.94 + n * 0.1))
        }
        // Difficult terrain: sparse tufts on the floor.
        2 => {
            let blob = noise(x / 8, y / 8, 3);
            if blob > 0.72 {
                shade([70.0, 100.0, 50.0], 0.85 + n * 0.25)
            } else {
                floor(0.92)
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
        // Hazard: dull embers, so its icon reads on top.
        4 => {
            let glow = noise(x / 4, y / 4, 11);
            if glow > 0.8 {
                shade([220.0, 120.0, 40.0], 0.75 + n * 0.2)
            } else {
                shade([100.0, 36.0, 24.0], 0.7 + n * 0.2)
            }
        }
        // Objects: a plate in the material's colour (its icon goes on top).
        5..=8 => {
            let body = match t {
                5 => [112.0, 76.0, 44.0],
                6 => [104.0, 102.0, 98.0],
                7 => [70.0, 110.0, 128.0],
                _ => [70.0, 76.0, 88.0],
            };
            let d = (x as f32 - 31.5).abs().max((y as f32 - 31.5).abs());
            if d < 25.0 {
                shade(body, 0.9 + n * 0.1)
            } else if d < 27.0 {
                shade(body, 0.55)
            } else {
                floor(1.0)
            }
        }
        // Deep water: dark blue with pale ripples.
        10 => {
            let ripple = (y + x / 4 + (noise(x / 16, y / 8, 21) * 4.0) as u32).is_multiple_of(12);
            if ripple {
                shade([120.0, 160.0, 200.0], 0.85 + n * 0.15)
            } else {
                shade([30.0, 60.0, 110.0], 0.85 + n * 0.15)
            }
        }
        // Ledge: floor falling away in steps.
        _ => {
            let step = (y / 16) as f32;
            shade([96.0, 90.0, 80.0], 0.95 - step * 0.18 + n * 0.06)
        }
    };
    if edge {
        shade(base.map(f32::from), 0.86)
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
