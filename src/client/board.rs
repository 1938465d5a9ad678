//! The board: the map drawn with bevy_ecs_tilemap from a generated tileset.

use bevy::asset::RenderAssetUsages;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
use bevy_ecs_tilemap::prelude::*;

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
    Object = 5,
}

const TILE_COUNT: u32 = 6;

/// A placeholder board until encounters load their maps: a ruined hall.
const PLACEHOLDER: &[&str] = &[
    "####################",
    "#......~~......#...#",
    "#..##..~~..o...#...#",
    "#..##..........+...#",
    "#......____........#",
    "#......____...##...#",
    "#..o..........##...#",
    "#.........^^.......#",
    "#..~~~....^^....o..#",
    "#..~~~.............#",
    "#........##........#",
    "####################",
];

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, spawn_board);
}

fn art_for(c: char) -> TileArt {
    match c {
        '#' => TileArt::Wall,
        '~' => TileArt::Difficult,
        '_' => TileArt::Pit,
        '^' => TileArt::Hazard,
        'o' | '+' => TileArt::Object,
        _ => TileArt::Floor,
    }
}

fn spawn_board(mut commands: Commands, mut images: ResMut<Assets<Image>>) {
    let texture = images.add(tileset_image());
    let rows = PLACEHOLDER.len() as u32;
    let cols = PLACEHOLDER[0].len() as u32;
    let size = TilemapSize { x: cols, y: rows };
    let map = commands.spawn((Name::new("Board"),)).id();
    let mut storage = TileStorage::empty(size);
    for (row, line) in PLACEHOLDER.iter().enumerate() {
        for (x, c) in line.chars().enumerate() {
            // Row 0 is the top of the map; tile y grows upward.
            let pos = TilePos {
                x: x as u32,
                y: rows - 1 - row as u32,
            };
            let tile = commands
                .spawn(TileBundle {
                    position: pos,
                    tilemap_id: TilemapId(map),
                    texture_index: TileTextureIndex(art_for(c) as u32),
                    ..default()
                })
                .id();
            storage.set(&pos, tile);
        }
    }
    let tile_size = TilemapTileSize {
        x: TILE_PX as f32,
        y: TILE_PX as f32,
    };
    commands.entity(map).insert(TilemapBundle {
        grid_size: tile_size.into(),
        map_type: TilemapType::Square,
        size,
        storage,
        texture: TilemapTexture::Single(texture),
        tile_size,
        anchor: TilemapAnchor::Center,
        ..default()
    });
    commands.spawn((
        Name::new("Camera"),
        Camera2d,
        // Shifted up so the title bar does not cover the top of the board.
        Transform::from_xyz(0.0, 40.0, 0.0),
        Projection::Orthographic(OrthographicProjection {
            scale: 1.2,
            ..OrthographicProjection::default_2d()
        }),
    ));
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
            let seam = x % 32 == 0 || y % 32 == 0;
            let stone = noise(x / 32, y / 32, 99) * 0.12;
            let k = if seam { 0.78 } else { 0.92 + stone + n * 0.08 };
            shade([96.0, 90.0, 80.0], k)
        }
        // Wall: bricks in offset courses.
        1 => {
            let course = y / 16;
            let offset = if course % 2 == 0 { 0 } else { 16 };
            let mortar = y % 16 == 0 || (x + offset) % 32 == 0;
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
        // Object: a wooden crate on the floor.
        _ => {
            let inside = (8..56).contains(&x) && (8..56).contains(&y);
            if inside {
                let plank = (y - 8) % 12 == 0 || x == 8 || x == 55 || y == 55 || x == y;
                if plank {
                    shade([70.0, 44.0, 24.0], 1.0)
                } else {
                    shade([150.0, 104.0, 60.0], 0.85 + n * 0.15)
                }
            } else {
                shade([96.0, 90.0, 80.0], 0.9 + n * 0.08)
            }
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
