//! The board's geometry: where a square is in the world, and back.

use bevy::prelude::*;
use skirmish_rules::map::Pos;

/// Pixels per square on the board (the tileset's tile size).
pub const SQUARE: f32 = 64.0;

/// The board's size, to turn squares into world positions and back.
#[derive(Resource, Clone, Copy, Debug, PartialEq)]
pub struct BoardGeometry {
    pub width: i32,
    pub height: i32,
}

impl Default for BoardGeometry {
    fn default() -> Self {
        BoardGeometry {
            width: 1,
            height: 1,
        }
    }
}

impl BoardGeometry {
    /// The world position of the centre of a `size`-square space whose
    /// top-left square is `p` (row 0 is the top of the map).
    pub fn centre(&self, p: Pos, size: u32) -> Vec2 {
        let half = (size.max(1) as f32 - 1.0) / 2.0;
        Vec2::new(
            (p.x as f32 + half - (self.width as f32 - 1.0) / 2.0) * SQUARE,
            ((self.height as f32 - 1.0) / 2.0 - p.y as f32 - half) * SQUARE,
        )
    }

    /// The square under a world position, if it is on the board.
    pub fn square_at(&self, world: Vec2) -> Option<Pos> {
        let x = (world.x / SQUARE + self.width as f32 / 2.0).floor() as i32;
        let y = (self.height as f32 / 2.0 - world.y / SQUARE).floor() as i32;
        (x >= 0 && y >= 0 && x < self.width && y < self.height).then_some(Pos { x, y })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_and_world_positions_round_trip() {
        let g = BoardGeometry {
            width: 20,
            height: 13,
        };
        for y in 0..13 {
            for x in 0..20 {
                let p = Pos { x, y };
                assert_eq!(g.square_at(g.centre(p, 1)), Some(p));
                // Anywhere inside the square, not only its centre.
                let c = g.centre(p, 1) + Vec2::new(SQUARE * 0.45, -SQUARE * 0.45);
                assert_eq!(g.square_at(c), Some(p));
            }
        }
        // Row 0 is drawn at the top.
        assert!(g.centre(Pos { x: 0, y: 0 }, 1).y > g.centre(Pos { x: 0, y: 1 }, 1).y);
        assert_eq!(g.square_at(Vec2::new(-10_000.0, 0.0)), None);
        // A 2x2 creature's centre sits on the corner its four squares share.
        let big = g.centre(Pos { x: 3, y: 3 }, 2);
        let a = g.centre(Pos { x: 3, y: 3 }, 1);
        let b = g.centre(Pos { x: 4, y: 4 }, 1);
        assert_eq!(big, (a + b) / 2.0);
    }
}
