//! Where a float goes: just above its target's token, else just below, else
//! a line further out either way; always within one token of the token,
//! inside the visible board, and clear of every float already up. A float
//! with no such place waits its turn ([`place`] says `None`).

use bevy::math::{Rect, Vec2};

/// Space kept between a float and its token, and between two floats, as a
/// share of the token's height.
pub const GAP_SHARE: f32 = 0.08;

/// The box a float takes from where it appears to where it has risen to.
pub fn reserved(centre: Vec2, half: Vec2, rise: f32) -> Rect {
    Rect::new(
        centre.x - half.x,
        centre.y - half.y,
        centre.x + half.x,
        centre.y + half.y + rise,
    )
}

/// How far apart two boxes are (0 when they touch or overlap).
pub fn distance(a: Rect, b: Rect) -> f32 {
    let dx = (a.min.x - b.max.x).max(b.min.x - a.max.x).max(0.0);
    let dy = (a.min.y - b.max.y).max(b.min.y - a.max.y).max(0.0);
    dx.max(dy)
}

/// Whether two boxes share any area (touching edges do not).
pub fn overlaps(a: Rect, b: Rect) -> bool {
    a.min.x < b.max.x - 0.01
        && b.min.x < a.max.x - 0.01
        && a.min.y < b.max.y - 0.01
        && b.min.y < a.max.y - 0.01
}

/// The centre a float `half` across and high, rising by `rise`, appears at
/// over the token whose box is `token`: see the module's doc. All in world
/// units; `view` is the part of the board on screen, `placed` the boxes
/// ([`reserved`]) of the floats already up.
pub fn place(token: Rect, half: Vec2, rise: f32, view: Rect, placed: &[Rect]) -> Option<Vec2> {
    let gap = token.height() * GAP_SHARE;
    // Centred over the token, moved in to stay on screen.
    let x = if view.width() <= 2.0 * half.x {
        view.center().x
    } else {
        token
            .center()
            .x
            .clamp(view.min.x + half.x, view.max.x - half.x)
    };
    let step = 2.0 * half.y + rise + gap;
    let above = token.max.y + gap + half.y;
    let below = token.min.y - gap - half.y - rise;
    [above, below, above + step, below - step]
        .into_iter()
        .map(|y| Vec2::new(x, y))
        .find(|&c| {
            let b = reserved(c, half, rise);
            b.min.y >= view.min.y
                && b.max.y <= view.max.y
                && distance(b, token) <= token.height()
                && placed
                    .iter()
                    .all(|p| !overlaps(b, *p) && distance(b, *p) >= gap * 0.99)
        })
}

/// A float's centre moved the least to keep a box `half` across and high
/// inside `view` (centred on an axis the view is too small for): the
/// camera may move after a float goes up.
pub fn keep_inside(centre: Vec2, half: Vec2, view: Rect) -> Vec2 {
    let axis = |c: f32, h: f32, lo: f32, hi: f32| {
        if hi - lo <= 2.0 * h {
            (lo + hi) / 2.0
        } else {
            c.clamp(lo + h, hi - h)
        }
    };
    Vec2::new(
        axis(centre.x, half.x, view.min.x, view.max.x),
        axis(centre.y, half.y, view.min.y, view.max.y),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_float_stays_inside_a_view_that_moved() {
        let view = Rect::new(0.0, 0.0, 1000.0, 800.0);
        // Off the left edge: moved in by just enough.
        assert_eq!(
            keep_inside(Vec2::new(30.0, 400.0), HALF, view),
            Vec2::new(100.0, 400.0)
        );
        // Above the top: moved down.
        assert_eq!(
            keep_inside(Vec2::new(500.0, 790.0), HALF, view),
            Vec2::new(500.0, 780.0)
        );
        // Inside: where it was.
        let c = Vec2::new(321.0, 456.0);
        assert_eq!(keep_inside(c, HALF, view), c);
        // A view narrower than it: centred.
        let narrow = Rect::new(0.0, 0.0, 150.0, 800.0);
        assert_eq!(keep_inside(c, HALF, narrow).x, 75.0);
    }

    /// A 60-unit token at the middle of a large view, floats 200 x 40.
    const HALF: Vec2 = Vec2::new(100.0, 20.0);
    const RISE: f32 = 6.0;

    fn token_at(x: f32, y: f32) -> Rect {
        Rect::from_center_size(Vec2::new(x, y), Vec2::splat(60.0))
    }

    fn view() -> Rect {
        Rect::new(-1000.0, -1000.0, 1000.0, 1000.0)
    }

    // Issue 49, point 3: each float within one token of its target, inside
    // the visible board, never over another.
    fn check(token: Rect, placed: &[Rect], got: Vec2, view: Rect) {
        let b = reserved(got, HALF, RISE);
        assert!(
            distance(b, token) <= token.height(),
            "{b:?} far from {token:?}"
        );
        assert!(
            view.contains(b.min) && view.contains(b.max),
            "{b:?} off {view:?}"
        );
        for p in placed {
            assert!(!overlaps(b, *p), "{b:?} over {p:?}");
        }
    }

    #[test]
    fn a_float_stands_just_above_its_token() {
        let t = token_at(0.0, 0.0);
        let c = place(t, HALF, RISE, view(), &[]).unwrap();
        assert_eq!(c.x, 0.0);
        assert!(c.y - HALF.y > t.max.y, "above the token: {c}");
        check(t, &[], c, view());
    }

    #[test]
    fn floats_on_one_target_stack_apart_then_wait() {
        let t = token_at(0.0, 0.0);
        let mut placed = Vec::new();
        for _ in 0..4 {
            let c = place(t, HALF, RISE, view(), &placed).expect("room for four");
            check(t, &placed, c, view());
            placed.push(reserved(c, HALF, RISE));
        }
        // Two above, two below: the fifth waits its turn.
        assert_eq!(place(t, HALF, RISE, view(), &placed), None);
        let above = placed.iter().filter(|b| b.min.y > t.max.y).count();
        assert_eq!(above, 2);
    }

    #[test]
    fn neighbours_floats_do_not_overlap() {
        // A burst's targets side by side: each float clear of the others.
        let mut placed = Vec::new();
        for x in [0.0, 64.0, 128.0] {
            let t = token_at(x, 0.0);
            let c = place(t, HALF, RISE, view(), &placed).expect("room");
            check(t, &placed, c, view());
            placed.push(reserved(c, HALF, RISE));
        }
    }

    #[test]
    fn a_float_at_the_edge_of_the_view_stays_on_screen() {
        let view = Rect::new(-500.0, -400.0, 500.0, 400.0);
        // At the top edge: below the token instead.
        let t = token_at(0.0, 370.0);
        let c = place(t, HALF, RISE, view, &[]).unwrap();
        assert!(c.y < t.min.y);
        check(t, &[], c, view);
        // At the left edge: moved in, still over its token.
        let t = token_at(-470.0, 0.0);
        let c = place(t, HALF, RISE, view, &[]).unwrap();
        assert_eq!(c.x, -400.0);
        check(t, &[], c, view);
        // A view narrower than the float: centred on it.
        let narrow = Rect::new(-50.0, -400.0, 50.0, 400.0);
        let c = place(token_at(10.0, 0.0), HALF, RISE, narrow, &[]).unwrap();
        assert_eq!(c.x, 0.0);
    }
}
