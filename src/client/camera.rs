//! The camera: pan (drag with the right or middle button, arrow keys or
//! WASD), zoom (wheel), `C` to centre on the acting creature; each new game
//! starts with the whole map in view.

use bevy::input::mouse::{AccumulatedMouseMotion, AccumulatedMouseScroll, MouseScrollUnit};
use bevy::prelude::*;
use bevy::window::PrimaryWindow;

use super::game::Game;
use super::input::PointerOverUi;
use super::tokens::TokenIndex;
use super::view::{BoardGeometry, SQUARE};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, spawn_camera).add_systems(
        Update,
        (auto_scale, fit_new_board, pan_and_zoom, centre)
            .chain()
            .after(super::input::InputSet),
    );
}

/// Where the camera is heading (for smooth centring).
#[derive(Component, Default)]
pub struct BoardCamera {
    goal: Option<Vec2>,
    generation: u64,
}

fn spawn_camera(mut commands: Commands) {
    commands.spawn((
        Name::new("Camera"),
        Camera2d,
        BoardCamera::default(),
        Projection::Orthographic(OrthographicProjection::default_2d()),
    ));
}

/// The left panel's width, the log's, and the bottom panel's height with
/// three rows of ability buttons (a hero's usual bar), so the board's last
/// row is not under it while a hero aims.
const LEFT: f32 = 270.0;
const RIGHT: f32 = 370.0;
const TOP: f32 = 60.0;
const BOTTOM: f32 = 250.0;

/// The part of the window the panels leave for the board.
fn room(window: Vec2, ui: f32) -> Vec2 {
    Vec2::new(
        (window.x - (LEFT + RIGHT) * ui).max(320.0),
        (window.y - (TOP + BOTTOM) * ui).max(240.0),
    )
}

/// The UI scale for a window: the player's factor, grown with the window
/// so text stays large on a big shared screen (1.0 at 720 lines).
pub fn ui_scale_for(window_height: f32, user: f32) -> f32 {
    user * (window_height / 720.0).clamp(1.0, 2.0)
}

/// The player's own UI scale factor (`--ui-scale`, Ctrl +/-).
#[derive(Resource, Clone, Copy)]
pub struct UserScale(pub f32);

fn auto_scale(
    window: Single<&Window, With<PrimaryWindow>>,
    user: Res<UserScale>,
    mut ui: ResMut<UiScale>,
) {
    let want = ui_scale_for(window.height(), user.0);
    if (ui.0 - want).abs() > 0.001 {
        ui.0 = want;
    }
}

/// The zoom that shows a whole `w` x `h` square map in a window, leaving room
/// for the panels around it.
pub fn fit_scale(map: (i32, i32), window: Vec2, ui: f32) -> f32 {
    let room = room(window, ui);
    let need = Vec2::new(map.0 as f32 * SQUARE, map.1 as f32 * SQUARE);
    (need.x / room.x).max(need.y / room.y).max(0.5)
}

fn fit_new_board(
    game: NonSend<Game>,
    geometry: Res<BoardGeometry>,
    window: Single<&Window, With<PrimaryWindow>>,
    ui: Res<UiScale>,
    camera: Single<(&mut BoardCamera, &mut Transform, &mut Projection)>,
) {
    let (mut cam, mut t, mut proj) = camera.into_inner();
    if cam.generation == game.generation || geometry.width <= 1 {
        return;
    }
    cam.generation = game.generation;
    if let Projection::Orthographic(o) = &mut *proj {
        o.scale = fit_scale((geometry.width, geometry.height), window.size(), ui.0);
        // Panels sit left, right and below: put the board in the middle of
        // what they leave.
        let shift = Vec2::new(RIGHT - LEFT, TOP - BOTTOM) / 2.0 * ui.0;
        t.translation = (shift * o.scale).extend(0.0);
    }
    cam.goal = None;
}

fn pan_and_zoom(
    keys: Res<ButtonInput<KeyCode>>,
    mouse: Res<ButtonInput<MouseButton>>,
    motion: Res<AccumulatedMouseMotion>,
    scroll: Res<AccumulatedMouseScroll>,
    over: Res<PointerOverUi>,
    time: Res<Time>,
    picker: Res<super::picker::PickerOpen>,
    camera: Single<(&mut BoardCamera, &mut Transform, &mut Projection)>,
) {
    if picker.0 {
        return;
    }
    let (mut cam, mut t, mut proj) = camera.into_inner();
    let Projection::Orthographic(o) = &mut *proj else {
        return;
    };
    let mut dir = Vec2::ZERO;
    for (k, d) in [
        (KeyCode::ArrowLeft, Vec2::NEG_X),
        (KeyCode::KeyA, Vec2::NEG_X),
        (KeyCode::ArrowRight, Vec2::X),
        (KeyCode::KeyD, Vec2::X),
        (KeyCode::ArrowUp, Vec2::Y),
        (KeyCode::KeyW, Vec2::Y),
        (KeyCode::ArrowDown, Vec2::NEG_Y),
        (KeyCode::KeyS, Vec2::NEG_Y),
    ] {
        if keys.pressed(k) {
            dir += d;
        }
    }
    if dir != Vec2::ZERO {
        cam.goal = None;
        t.translation += (dir.normalize() * 700.0 * o.scale * time.delta_secs()).extend(0.0);
    }
    if mouse.any_pressed([MouseButton::Right, MouseButton::Middle]) && motion.delta != Vec2::ZERO {
        cam.goal = None;
        t.translation += Vec3::new(-motion.delta.x, motion.delta.y, 0.0) * o.scale;
    }
    if !over.0 && scroll.delta.y != 0.0 {
        let lines = match scroll.unit {
            MouseScrollUnit::Line => scroll.delta.y,
            MouseScrollUnit::Pixel => scroll.delta.y / 40.0,
        };
        o.scale = (o.scale * 1.12f32.powf(-lines)).clamp(0.35, 4.0);
    }
}

fn centre(
    keys: Res<ButtonInput<KeyCode>>,
    game: NonSend<Game>,
    index: Res<TokenIndex>,
    geometry: Res<BoardGeometry>,
    time: Res<Time>,
    camera: Single<(&mut BoardCamera, &mut Transform)>,
) {
    let (mut cam, mut t) = camera.into_inner();
    if keys.just_pressed(KeyCode::KeyC)
        && let Some(id) = game.encounter.active_creature()
        && let Some((p, size)) = index.home(id)
    {
        cam.goal = Some(geometry.centre(p, size));
    }
    if let Some(goal) = cam.goal {
        let here = t.translation.truncate();
        let next = here.lerp(goal, (time.delta_secs() * 8.0).min(1.0));
        t.translation = next.extend(t.translation.z);
        if next.distance(goal) < 1.0 {
            cam.goal = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_board_fits_the_window_at_both_shared_screen_sizes() {
        for window in [Vec2::new(1920.0, 1080.0), Vec2::new(1280.0, 720.0)] {
            let ui = ui_scale_for(window.y, 1.0);
            for map in [(20, 20), (12, 8), (30, 14)] {
                let s = fit_scale(map, window, ui);
                let shown = Vec2::new(map.0 as f32, map.1 as f32) * SQUARE / s;
                assert!(shown.x <= room(window, ui).x + 0.5, "{map:?} in {window}");
                assert!(shown.y <= room(window, ui).y + 0.5, "{map:?} in {window}");
            }
        }
        // Small maps are not blown up past twice their size.
        assert_eq!(fit_scale((4, 4), Vec2::new(1920.0, 1080.0), 1.5), 0.5);
    }

    #[test]
    fn text_grows_with_the_screen_and_the_players_factor() {
        assert_eq!(ui_scale_for(720.0, 1.0), 1.0);
        assert_eq!(ui_scale_for(1080.0, 1.0), 1.5);
        assert!((ui_scale_for(1080.0, 1.2) - 1.8).abs() < 1e-5);
        // Never smaller than the player asked for, never huge.
        assert_eq!(ui_scale_for(400.0, 1.0), 1.0);
        assert_eq!(ui_scale_for(4000.0, 1.0), 2.0);
    }
}
