//! The camera: pan (drag with the right or middle button, arrow keys or
//! WASD), zoom (wheel), `C` to centre on the acting creature, `F` to go
//! back to the default fit. Each new game starts at the default fit of
//! [`layout::fit`](super::layout::fit), and the view never leaves the map.
//! Between actions it follows the fight: a creature starting its turn out
//! of sight is brought into view.

use bevy::input::mouse::{AccumulatedMouseMotion, AccumulatedMouseScroll, MouseScrollUnit};
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use skirmish_rules::map::Side;

use super::game::Game;
use super::input::PointerOverUi;
use super::layout::{self, BoardView, Layout};
use super::tokens::TokenIndex;
use super::view::{BoardGeometry, SQUARE};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, spawn_camera)
        .add_systems(
            Update,
            (
                auto_scale.in_set(AutoScaleSet),
                (
                    fit_new_board,
                    pan_and_zoom,
                    follow,
                    frame_actions,
                    centre,
                    keep_on_map,
                )
                    .chain()
                    .after(super::input::InputSet),
            ),
        )
        .init_resource::<ActionCamera>();
}

/// Whether the demo's camera frames each action (`V` toggles it).
#[derive(Resource)]
pub struct ActionCamera {
    pub on: bool,
    /// Seconds the current framing holds before going back.
    hold: f32,
}

impl Default for ActionCamera {
    fn default() -> Self {
        ActionCamera {
            on: true,
            hold: 0.0,
        }
    }
}

/// The view that frames `spots` (world centres of the actor and its
/// targets) with a square's margin all round: its centre and orthographic
/// scale, never farther out than `fit` nor closer than twice as close.
pub fn frame(spots: &[Vec2], board: Vec2, fit: f32) -> Option<(Vec2, f32)> {
    let first = *spots.first()?;
    let (lo, hi) = spots
        .iter()
        .fold((first, first), |(lo, hi), p| (lo.min(*p), hi.max(*p)));
    let need = hi - lo + Vec2::splat(SQUARE * 3.0);
    let scale = (need.x / board.x).max(need.y / board.y);
    Some(((lo + hi) / 2.0, scale.clamp(fit * 0.5, fit)))
}

/// The UI scale is set for this frame's window after this.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct AutoScaleSet;

/// Where the camera is heading (for smooth centring), and what it has
/// seen of the game.
#[derive(Component, Default)]
pub struct BoardCamera {
    goal: Option<Vec2>,
    /// The orthographic scale it is heading for.
    goal_scale: Option<f32>,
    generation: u64,
    /// The board's size in physical pixels it was fitted to.
    fitted: Vec2,
    /// The game version whose acting creature it last looked for.
    followed: u64,
}

fn spawn_camera(mut commands: Commands) {
    commands.spawn((
        Name::new("Board camera"),
        Camera2d,
        BoardCamera::default(),
        BoardView,
        Projection::Orthographic(OrthographicProjection::default_2d()),
    ));
}

/// The UI scale for a window: the player's factor, grown with the window
/// so text stays large on a big shared screen (1.0 at 720 lines).
pub fn ui_scale_for(window_height: f32, user: f32) -> f32 {
    user * (window_height / 720.0).clamp(1.0, 3.0)
}

/// The player's own UI scale factor (`--ui-scale`, Ctrl +/-).
#[derive(Resource, Clone, Copy)]
pub struct UserScale(pub f32);

fn auto_scale(
    window: Single<&Window, With<PrimaryWindow>>,
    user: Res<UserScale>,
    mut ui: ResMut<UiScale>,
) {
    // Logical pixels: the window's scale factor is applied on top.
    let want = ui_scale_for(window.physical_height() as f32, user.0) / window.scale_factor();
    if (ui.0 - want).abs() > 0.001 {
        ui.0 = want;
    }
}

/// The orthographic scale (world units per physical pixel) of the default
/// fit of `geometry`'s map in `layout`'s board.
pub fn fit_scale(geometry: &BoardGeometry, layout: &Layout) -> f32 {
    let pps = layout::fit((geometry.width, geometry.height), layout.board.size());
    SQUARE / pps.max(1e-3)
}

/// Where the default fit looks first: the acting creature, else the side
/// that plays first here (the heroes, unless only the monsters are played
/// by a person), in world units.
fn first_look(game: &Game, geometry: &BoardGeometry) -> Vec2 {
    let e = &game.encounter;
    if let Some(c) = e.active_creature().and_then(|id| e.creature(id)) {
        return geometry.centre(c.space.pos, c.space.size);
    }
    let side = if game.human(Side::Director) && !game.human(Side::Heroes) {
        Side::Director
    } else {
        Side::Heroes
    };
    let spots: Vec<Vec2> = e
        .creatures()
        .into_iter()
        .filter(|c| c.side == side)
        .map(|c| geometry.centre(c.space.pos, c.space.size))
        .collect();
    if spots.is_empty() {
        Vec2::ZERO
    } else {
        spots.iter().sum::<Vec2>() / spots.len() as f32
    }
}

fn fit_new_board(
    game: NonSend<Game>,
    geometry: Res<BoardGeometry>,
    layout: Res<Layout>,
    camera: Single<(&mut BoardCamera, &mut Transform, &mut Projection)>,
    builder: Res<super::builder::BuilderOpen>,
) {
    let (mut cam, mut t, mut proj) = camera.into_inner();
    let board = layout.board.size();
    if geometry.width <= 1 || board.x < 2.0 {
        return;
    }
    // A new game, or a new window size: fit again.
    if cam.generation == game.generation && cam.fitted == board {
        return;
    }
    cam.generation = game.generation;
    cam.fitted = board;
    cam.followed = game.version;
    if let Projection::Orthographic(o) = &mut *proj {
        if builder.0.is_some() {
            // Building: the whole map, to place on any square of it.
            let (w, h) = (geometry.width.max(1) as f32, geometry.height.max(1) as f32);
            let pps = (board.x / w).min(board.y / h);
            o.scale = SQUARE / pps.max(1e-3);
            t.translation = Vec3::ZERO;
        } else {
            o.scale = fit_scale(&geometry, &layout);
            t.translation = first_look(&game, &geometry).extend(0.0);
        }
    }
    cam.goal = None;
    cam.goal_scale = None;
}

/// In a demo or a replay, each action with targets is framed: the camera
/// pans and zooms to its user and targets, holds while it is read, then
/// goes back to the whole board. `V` turns this on and off.
fn frame_actions(
    keys: Res<ButtonInput<KeyCode>>,
    mut applied: MessageReader<super::game::Applied>,
    mut action: ResMut<ActionCamera>,
    game: NonSend<Game>,
    pace: Res<super::game::Pace>,
    index: Res<TokenIndex>,
    geometry: Res<BoardGeometry>,
    layout: Res<Layout>,
    time: Res<Time>,
    camera: Single<&mut BoardCamera>,
) {
    let mut cam = camera.into_inner();
    let watching = matches!(
        game.mode,
        super::game::Mode::Demo | super::game::Mode::Replay
    );
    let fit = fit_scale(&geometry, &layout);
    // Back to the default fit, about the middle (kept on the map).
    let whole = || (Vec2::ZERO, fit);
    if keys.just_pressed(KeyCode::KeyV) && watching {
        action.on = !action.on;
        if !action.on {
            let (c, s) = whole();
            cam.goal = Some(c);
            cam.goal_scale = Some(s);
        }
    }
    let mut spots: Vec<Vec2> = Vec::new();
    for batch in applied.read() {
        for (from, to) in super::floating::lines_for(&batch.entries) {
            for id in [from, to] {
                if let Some((p, size)) = index.home(id) {
                    spots.push(geometry.centre(p, size));
                }
            }
        }
    }
    if !watching || !action.on || layout.board.width() < 2.0 {
        return;
    }
    if let Some((centre, scale)) = frame(&spots, layout.board.size(), fit) {
        cam.goal = Some(centre);
        cam.goal_scale = Some(scale);
        action.hold = (pace.delay * 1.5).max(1.2);
    } else if action.hold > 0.0 {
        action.hold -= time.delta_secs();
        if action.hold <= 0.0 {
            let (c, s) = whole();
            cam.goal = Some(c);
            cam.goal_scale = Some(s);
        }
    }
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
    builder: Res<super::builder::BuilderOpen>,
) {
    // (The builder shows the whole map and takes the keyboard for the name.)
    if picker.0 || builder.0.is_some() {
        return;
    }
    let (mut cam, mut t, mut proj) = camera.into_inner();
    let Projection::Orthographic(o) = &mut *proj else {
        return;
    };
    let mut dir = Vec2::ZERO;
    if !over.0 && scroll.delta.y != 0.0 {
        // The player's own zoom wins over a framing under way.
        cam.goal_scale = None;
    }
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
    camera: Single<(&mut BoardCamera, &mut Transform, &mut Projection)>,
) {
    let (mut cam, mut t, mut proj) = camera.into_inner();
    if let (Some(goal), Projection::Orthographic(o)) = (cam.goal_scale, &mut *proj) {
        let k = (time.delta_secs() * 5.0).min(1.0);
        o.scale += (goal - o.scale) * k;
        if (o.scale - goal).abs() < goal * 0.002 {
            o.scale = goal;
            cam.goal_scale = None;
        }
    }
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

/// Between commands, a creature starting its turn (or acting) outside the
/// middle of the view is brought into it; `F` goes back to the default fit.
fn follow(
    keys: Res<ButtonInput<KeyCode>>,
    game: NonSend<Game>,
    index: Res<TokenIndex>,
    geometry: Res<BoardGeometry>,
    layout: Res<Layout>,
    picker: Res<super::picker::PickerOpen>,
    camera: Single<(&mut BoardCamera, &Transform, &Projection)>,
) {
    let (mut cam, t, proj) = camera.into_inner();
    if keys.just_pressed(KeyCode::KeyF) && !picker.0 {
        // Fitted again by `fit_new_board` next frame.
        cam.fitted = Vec2::ZERO;
        return;
    }
    if cam.followed == game.version {
        return;
    }
    cam.followed = game.version;
    let Projection::Orthographic(o) = proj else {
        return;
    };
    let Some((p, size)) = game
        .encounter
        .active_creature()
        .and_then(|id| index.home(id))
    else {
        return;
    };
    let at = geometry.centre(p, size);
    let view = layout.board.size() * o.scale;
    if !in_middle(at, t.translation.truncate(), view) {
        cam.goal = Some(at);
    }
}

/// Whether `at` is inside the middle 70% of a view of `view` world units
/// centred on `centre`.
fn in_middle(at: Vec2, centre: Vec2, view: Vec2) -> bool {
    let d = (at - centre).abs();
    d.x <= view.x * 0.35 && d.y <= view.y * 0.35
}

/// The view never leaves the map (a map smaller than it is centred).
fn keep_on_map(
    geometry: Res<BoardGeometry>,
    layout: Res<Layout>,
    camera: Single<(&mut Transform, &Projection), With<BoardCamera>>,
) {
    let (mut t, proj) = camera.into_inner();
    let Projection::Orthographic(o) = proj else {
        return;
    };
    let map = Vec2::new(geometry.width as f32, geometry.height as f32) * SQUARE;
    let at = layout::clamp_centre(t.translation.truncate(), layout.board.size() * o.scale, map);
    if at != t.translation.truncate() {
        t.translation = at.extend(t.translation.z);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_grows_with_the_screen_and_the_players_factor() {
        assert_eq!(ui_scale_for(720.0, 1.0), 1.0);
        assert_eq!(ui_scale_for(1080.0, 1.0), 1.5);
        assert!((ui_scale_for(1080.0, 1.2) - 1.8).abs() < 1e-5);
        // At 4K as large a share of the screen as at 720p.
        assert_eq!(ui_scale_for(2160.0, 1.0), 3.0);
        // Never smaller than the player asked for, never huge.
        assert_eq!(ui_scale_for(400.0, 1.0), 1.0);
        assert_eq!(ui_scale_for(8000.0, 1.0), 3.0);
    }

    #[test]
    fn the_default_fit_shows_a_whole_map_that_covers_enough() {
        // A map shaped like the board covers enough whole: shown whole.
        let layout = layout::compute(Vec2::new(1280.0, 720.0), 1.0);
        let g = BoardGeometry {
            width: 16,
            height: 14,
        };
        let scale = fit_scale(&g, &layout);
        let shown = Vec2::new(16.0, 14.0) * SQUARE / scale;
        assert!(shown.x <= layout.board.width() + 0.5 && shown.y <= layout.board.height() + 0.5);
        // And fills the board one way.
        assert!(shown.x >= layout.board.width() - 0.5 || shown.y >= layout.board.height() - 0.5);
    }

    #[test]
    fn an_action_is_framed_close_but_never_past_the_fit() {
        let board = Vec2::new(1200.0, 1000.0);
        // Two neighbours: as close as allowed, centred between them.
        let (c, s) = frame(&[Vec2::ZERO, Vec2::new(SQUARE, 0.0)], board, 1.0).unwrap();
        assert_eq!(c, Vec2::new(SQUARE / 2.0, 0.0));
        assert_eq!(s, 0.5);
        // Far apart: both in view, with a margin.
        let far = [Vec2::new(-700.0, 0.0), Vec2::new(500.0, 300.0)];
        let (c, s) = frame(&far, board, 2.0).unwrap();
        for p in far {
            let d = (p - c).abs();
            assert!(d.x + SQUARE <= board.x * s / 2.0 && d.y + SQUARE <= board.y * s / 2.0);
        }
        // Never farther out than the default fit.
        let (_, s) = frame(&far, board, 1.0).unwrap();
        assert_eq!(s, 1.0);
        assert_eq!(frame(&[], board, 1.0), None);
    }

    #[test]
    fn the_camera_follows_only_what_leaves_the_middle() {
        let view = Vec2::new(1000.0, 800.0);
        assert!(in_middle(Vec2::new(300.0, -250.0), Vec2::ZERO, view));
        assert!(!in_middle(Vec2::new(400.0, 0.0), Vec2::ZERO, view));
        assert!(!in_middle(Vec2::new(0.0, -300.0), Vec2::ZERO, view));
        assert!(in_middle(
            Vec2::new(900.0, 0.0),
            Vec2::new(600.0, 0.0),
            view
        ));
    }
}
