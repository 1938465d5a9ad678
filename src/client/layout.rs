//! Where everything goes on screen: two compact side columns for the panels,
//! and the board between them, drawn by its own camera into that rectangle so
//! no panel ever covers a square. When the UI scale leaves those columns too
//! narrow to read (a large scale on a small window), the layout turns
//! compact: one wider column on the right holds every panel. [`compute`] and [`fit`] are pure (tested
//! here); the systems below apply them to the cameras and the columns each
//! frame the window or the UI scale changes.

use bevy::camera::Viewport;
use bevy::camera::visibility::RenderLayers;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;

use super::theme::GAP;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Layout>()
        .init_resource::<OverBoard>()
        .add_systems(Startup, spawn_columns.in_set(ColumnsSet))
        .add_systems(
            Update,
            apply
                .in_set(LayoutSet)
                .after(super::camera::AutoScaleSet)
                .before(super::input::InputSet),
        )
        .add_systems(Update, dock.after(LayoutSet));
}

/// The columns exist after this (panels spawn into them at startup).
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct ColumnsSet;

/// The layout is up to date after this.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct LayoutSet;

/// A side column's width in logical pixels, before the UI scale.
pub const COLUMN: f32 = 250.0;
/// At most this share of the window's width for each column: the board
/// keeps the rest, whatever the UI scale.
pub const MAX_COLUMN_SHARE: f32 = 0.18;
/// A column narrower than this, in logical pixels, reads badly (a name
/// breaks over three lines): the layout turns compact.
pub const COMPACT_BELOW: f32 = 210.0;
/// The compact layout's one column at its widest, in logical pixels.
pub const WIDE_COLUMN: f32 = 330.0;
/// The share of a square a one-square token covers.
pub const TOKEN_SHARE: f32 = 0.875;

/// The screen's rectangles, in physical pixels from the window's top left.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Default)]
pub struct Layout {
    pub window: Vec2,
    pub left: Rect,
    pub right: Rect,
    pub board: Rect,
    /// One column on the right for every panel (the left one is empty).
    pub compact: bool,
}

/// The layout of a `window` (physical pixels) at a UI scale of `ui`
/// physical pixels per logical one.
pub fn compute(window: Vec2, ui: f32) -> Layout {
    let column = (COLUMN * ui).min(window.x * MAX_COLUMN_SHARE).floor();
    if column / ui >= COMPACT_BELOW {
        return Layout {
            window,
            left: Rect::new(0.0, 0.0, column, window.y),
            right: Rect::new(window.x - column, 0.0, window.x, window.y),
            board: Rect::new(column, 0.0, window.x - column, window.y),
            compact: false,
        };
    }
    // Both columns' room, given to one: the board keeps the same share.
    let wide = (WIDE_COLUMN * ui).min(2.0 * column).floor();
    Layout {
        window,
        left: Rect::new(0.0, 0.0, 0.0, window.y),
        right: Rect::new(window.x - wide, 0.0, window.x, window.y),
        board: Rect::new(0.0, 0.0, window.x - wide, window.y),
        compact: true,
    }
}

/// The default zoom for a `map` (squares) in `board` (physical pixels):
/// physical pixels per square. The whole map, as large as the board holds
/// it (issue 72: a map cropped at the start hid monsters and the boss); the
/// wheel zooms in from there.
pub fn fit(map: (i32, i32), board: Vec2) -> f32 {
    let (w, h) = (map.0.max(1) as f32, map.1.max(1) as f32);
    (board.x / w).min(board.y / h)
}

/// Where the camera may look: its centre kept so the view stays on the map
/// (a map smaller than the view is centred), in world units.
pub fn clamp_centre(centre: Vec2, view: Vec2, map: Vec2) -> Vec2 {
    let axis = |c: f32, v: f32, m: f32| {
        let room = (m - v) / 2.0;
        if room <= 0.0 {
            0.0
        } else {
            c.clamp(-room, room)
        }
    };
    Vec2::new(axis(centre.x, view.x, map.x), axis(centre.y, view.y, map.y))
}

/// The camera that draws the board, into [`Layout::board`].
#[derive(Component)]
pub struct BoardView;

/// The columns' nodes.
#[derive(Component)]
pub struct LeftColumn;
#[derive(Component)]
pub struct RightColumn;

/// The render layer of the UI camera: nothing on the board is on it, so it
/// draws the panels and nothing twice.
const UI_LAYER: usize = 31;

fn spawn_columns(mut commands: Commands) {
    commands.spawn((
        Name::new("UI camera"),
        Camera2d,
        Camera {
            order: 1,
            clear_color: ClearColorConfig::None,
            ..default()
        },
        IsDefaultUiCamera,
        RenderLayers::layer(UI_LAYER),
    ));
    let column = |name: &'static str| {
        (
            Name::new(name),
            Node {
                position_type: PositionType::Absolute,
                top: px(0),
                bottom: px(0),
                flex_direction: FlexDirection::Column,
                padding: UiRect::all(px(GAP)),
                row_gap: px(GAP),
                overflow: Overflow::clip(),
                ..default()
            },
            Pickable::IGNORE,
        )
    };
    commands.spawn((LeftColumn, column("Left column")));
    commands.spawn((RightColumn, column("Right column")));
}

fn apply(
    window: Single<&Window, With<PrimaryWindow>>,
    ui: Res<UiScale>,
    mut layout: ResMut<Layout>,
    mut camera: Query<&mut Camera, With<BoardView>>,
    mut left: Single<&mut Node, (With<LeftColumn>, Without<RightColumn>)>,
    mut right: Single<&mut Node, (With<RightColumn>, Without<LeftColumn>)>,
    builder: Res<super::builder::BuilderOpen>,
) {
    let size = Vec2::new(
        window.physical_width() as f32,
        window.physical_height() as f32,
    );
    if size.x < 2.0 || size.y < 2.0 {
        return;
    }
    let scale = ui.0 * window.scale_factor();
    let mut now = compute(size, scale);
    // The builder's panel takes the right of the window: the board is
    // drawn between the left column and it.
    if builder.0.is_some() {
        let panel = (super::builder::panel_width(&window, ui.0) * scale).floor();
        now.left = Rect::new(0.0, 0.0, 0.0, size.y);
        now.right = Rect::new(size.x - panel, 0.0, size.x, size.y);
        now.board = Rect::new(0.0, 0.0, size.x - panel, size.y);
    }
    if *layout != now {
        *layout = now;
    }
    for mut cam in &mut camera {
        let viewport = Viewport {
            physical_position: UVec2::new(now.board.min.x as u32, now.board.min.y as u32),
            physical_size: UVec2::new(
                (now.board.width() as u32).max(1),
                (now.board.height() as u32).max(1),
            ),
            ..default()
        };
        if cam
            .viewport
            .as_ref()
            .map(|v| (v.physical_position, v.physical_size))
            != Some((viewport.physical_position, viewport.physical_size))
        {
            cam.viewport = Some(viewport);
        }
    }
    let shown = if now.compact || builder.0.is_some() {
        Display::None
    } else {
        Display::Flex
    };
    if left.display != shown {
        left.display = shown;
    }
    let width = px(now.left.width() / scale);
    if left.width != width {
        left.width = width;
        left.left = px(0);
    }
    let width = px(now.right.width() / scale);
    if right.width != width {
        right.width = width;
        right.right = px(0);
    }
    let shown = if builder.0.is_some() {
        Display::None
    } else {
        Display::Flex
    };
    if right.display != shown {
        right.display = shown;
    }
}

/// A panel of the left column, with its place there: a compact layout
/// moves it to the top of the right column, in that order.
#[derive(Component)]
pub struct LeftPanel(pub u8);

/// Moves the left column's panels when the layout turns compact or back.
fn dock(
    layout: Res<Layout>,
    mut docked: Local<bool>,
    mut commands: Commands,
    panels: Query<(Entity, &LeftPanel)>,
    left: Single<Entity, With<LeftColumn>>,
    right: Single<Entity, With<RightColumn>>,
) {
    if layout.compact == *docked {
        return;
    }
    let mut list: Vec<_> = panels.iter().collect();
    list.sort_by_key(|(_, p)| p.0);
    let ids: Vec<Entity> = list.into_iter().map(|(e, _)| e).collect();
    if layout.compact {
        commands.entity(*right).insert_children(0, &ids);
    } else {
        commands.entity(*left).insert_children(0, &ids);
    }
    *docked = layout.compact;
}

/// The board's rectangle in the UI's logical pixels (for overlays that sit
/// on the board: the card, prompts).
pub fn board_logical(layout: &Layout, scale: f32) -> Rect {
    Rect::from_corners(layout.board.min / scale, layout.board.max / scale)
}

/// The board camera's orthographic scale (world units per physical
/// pixel) and the world point at the board's centre.
pub fn board_view<'a>(
    cameras: impl IntoIterator<Item = (&'a Projection, &'a Transform)>,
) -> Option<(f32, Vec2)> {
    cameras.into_iter().find_map(|(p, t)| match p {
        Projection::Orthographic(o) => Some((o.scale, t.translation.truncate())),
        _ => None,
    })
}

/// Where a world point is on screen (physical pixels from the window's top
/// left), seen through the board camera's `view` ([`board_view`]).
/// [`to_world`] is its inverse.
pub fn to_screen(layout: &Layout, (scale, at): (f32, Vec2), world: Vec2) -> Vec2 {
    let d = (world - at) / scale;
    layout.board.center() + Vec2::new(d.x, -d.y)
}

/// The world point at screen point `screen` (physical pixels).
pub fn to_world(layout: &Layout, (scale, at): (f32, Vec2), screen: Vec2) -> Vec2 {
    let d = (screen - layout.board.center()) * scale;
    at + Vec2::new(d.x, -d.y)
}

/// What stands over the board for a while and floats keep clear of (the
/// roll card), in physical pixels from the window's top left.
#[derive(Resource, Default, Clone, Debug)]
pub struct OverBoard(pub Option<Rect>);

/// Scrolls the list `L` so its row `R` (one at a time) is fully in view
/// for a few frames after a new such row appears (layout takes a frame or
/// two to place it); the wheel is free after.
pub fn keep_in_view<R: Component, L: Component>(
    row: Query<(Entity, &ComputedNode, &UiGlobalTransform), With<R>>,
    mut list: Query<(&ComputedNode, &UiGlobalTransform, &mut ScrollPosition), With<L>>,
    mut kept: Local<(Option<Entity>, u8)>,
) {
    let (Ok((e, r, rat)), Ok((l, lat, mut pos))) = (row.single(), list.single_mut()) else {
        return;
    };
    if kept.0 != Some(e) {
        *kept = (Some(e), 4);
    }
    if kept.1 == 0 || r.size().y <= 0.0 || l.size().y <= 0.0 {
        return;
    }
    kept.1 -= 1;
    let row_rect = Rect::from_center_size(rat.translation, r.size());
    let list_rect = Rect::from_center_size(lat.translation, l.size());
    // Physical pixels to the logical ones ScrollPosition takes.
    let y = into_view(row_rect, list_rect, l.inverse_scale_factor(), pos.0.y);
    if pos.0.y != y {
        pos.0.y = y;
    }
}

/// The scroll (logical pixels) that brings `row` fully into the view of
/// a `list` scrolled by `scroll` (both rectangles in physical pixels, `k`
/// logical per physical): moved as little as it can, nothing if in view.
pub fn into_view(row: Rect, list: Rect, k: f32, scroll: f32) -> f32 {
    if row.min.y < list.min.y {
        (scroll - (list.min.y - row.min.y) * k).max(0.0)
    } else if row.max.y > list.max.y {
        scroll + (row.max.y - list.max.y) * k
    } else {
        scroll
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn screen_and_world_points_convert_both_ways() {
        let l = compute(Vec2::new(1920.0, 1080.0), 1.5);
        let view = (0.75, Vec2::new(120.0, -40.0));
        for w in [Vec2::ZERO, Vec2::new(300.0, 200.0), Vec2::new(-64.0, 512.0)] {
            let back = to_world(&l, view, to_screen(&l, view, w));
            assert!((back - w).length() < 1e-3, "{w} -> {back}");
        }
    }

    #[test]
    fn a_row_scrolls_into_view_by_the_least() {
        let list = Rect::new(0.0, 100.0, 200.0, 300.0);
        // Below by 40 physical pixels, at 2 physical per logical: 20 more.
        let below = Rect::new(0.0, 290.0, 200.0, 340.0);
        assert_eq!(into_view(below, list, 0.5, 10.0), 30.0);
        // Above by 30: 15 less, never under 0.
        let above = Rect::new(0.0, 70.0, 200.0, 120.0);
        assert_eq!(into_view(above, list, 0.5, 50.0), 35.0);
        assert_eq!(into_view(above, list, 0.5, 5.0), 0.0);
        // In view: left alone.
        let inside = Rect::new(0.0, 150.0, 200.0, 200.0);
        assert_eq!(into_view(inside, list, 0.5, 12.0), 12.0);
    }

    const SIZES: [Vec2; 3] = [
        Vec2::new(1280.0, 720.0),
        Vec2::new(1920.0, 1080.0),
        Vec2::new(3840.0, 2160.0),
    ];
    /// Every shipped map's size (`assets/maps/`).
    const MAPS: [(i32, i32); 8] = [
        (20, 16),
        (20, 14),
        (20, 12),
        (18, 12),
        (18, 14),
        (22, 12),
        (24, 16),
        (26, 18),
    ];

    // The whole map at the default fit (issue 72, point 1), at every
    // shared-screen size and UI scale, as large as the board holds it: it
    // fills the board one way and stays inside it the other, its tokens
    // readable (36 px at 1080p for the largest map, 26 x 18), and the
    // columns never reach it.
    #[test]
    fn the_whole_map_shows_at_every_size_and_scale() {
        for window in SIZES {
            for user in [1.0, 1.25, 1.5] {
                let ui = super::super::camera::ui_scale_for(window.y, user);
                let l = compute(window, ui);
                assert!(l.left.max.x <= l.board.min.x && l.board.max.x <= l.right.min.x);
                let board = l.board.size();
                for map in MAPS {
                    let pps = fit(map, board);
                    let (w, h) = (map.0 as f32 * pps, map.1 as f32 * pps);
                    let at = format!("{map:?} at {window} x{user}");
                    assert!(
                        w <= board.x + 0.01 && h <= board.y + 0.01,
                        "{at}: {w}x{h} in {board}"
                    );
                    assert!(
                        (w - board.x).abs() < 0.01 || (h - board.y).abs() < 0.01,
                        "{at}: {w}x{h} fills neither way of {board}"
                    );
                    let token = pps * TOKEN_SHARE;
                    assert!(token >= 36.0 * window.y / 1080.0, "{at}: tokens {token} px");
                }
            }
        }
    }

    #[test]
    fn the_camera_stays_on_the_map() {
        let map = Vec2::new(1280.0, 768.0);
        // A view smaller than the map: its edge stops at the map's.
        let c = clamp_centre(Vec2::new(5000.0, -5000.0), Vec2::new(800.0, 600.0), map);
        assert_eq!(c, Vec2::new(240.0, -84.0));
        // A view larger than the map: centred.
        let c = clamp_centre(Vec2::new(300.0, 10.0), Vec2::new(2000.0, 1000.0), map);
        assert_eq!(c, Vec2::ZERO);
    }

    #[test]
    fn columns_never_take_more_than_their_share() {
        for window in SIZES {
            for ui in [1.0, 1.5, 2.25, 3.0] {
                let l = compute(window, ui);
                let columns = l.left.width() + l.right.width();
                assert!(columns <= window.x * 2.0 * MAX_COLUMN_SHARE);
                assert_eq!(l.board.width() + columns, window.x);
                assert!(l.left.max.x <= l.board.min.x && l.board.max.x <= l.right.min.x);
                if l.compact {
                    assert_eq!(l.left.width(), 0.0);
                } else {
                    assert_eq!(l.left.width(), l.right.width());
                }
                // Either way, up to a user scale of 1.5, a column is wide
                // enough to read.
                if ui <= super::super::camera::ui_scale_for(window.y, 1.5) {
                    assert!(l.right.width() / ui >= COMPACT_BELOW, "{window} x{ui}");
                }
            }
        }
    }
}
