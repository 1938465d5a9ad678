//! The briefing: the encounter's name, ruleset, objective and briefing over
//! the board when a fight starts, and again on `B`. In a demo it goes by
//! itself after a while; for a player, a click or a key puts it away.

use bevy::prelude::*;
use skirmish_rules::content::Content;

use crate::client::game::{Game, Mode, Setup};
use crate::client::layout::{self, Layout};
use crate::client::theme::{BODY, GAP, HEADING, Palette, SMALL, TINY, panel_node, text};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, spawn_briefing).add_systems(
        Update,
        (open_or_close, draw, place)
            .chain()
            .after(crate::client::input::InputSet)
            .after(crate::client::layout::LayoutSet),
    );
}

#[derive(Component)]
struct Briefing;

/// Whether it shows, for which game, and how long yet (demo).
#[derive(Default)]
struct Shown {
    open: bool,
    generation: u64,
    left: f32,
}

/// Seconds a demo shows the briefing.
const DEMO_SECONDS: f32 = 6.0;

fn spawn_briefing(mut commands: Commands) {
    commands.spawn((
        Name::new("Briefing"),
        Briefing,
        Node {
            position_type: PositionType::Absolute,
            top: percent(18),
            display: Display::None,
            row_gap: px(8),
            ..panel_node()
        },
        BackgroundColor(Color::srgb(0.05, 0.05, 0.08)),
        BorderColor::all(Palette::GOLD),
        Interaction::default(),
        bevy::ui::FocusPolicy::Block,
        crate::client::input::BlocksBoard,
        GlobalZIndex(4),
    ));
}

fn open_or_close(
    keys: Res<ButtonInput<KeyCode>>,
    mouse: Res<ButtonInput<MouseButton>>,
    time: Res<Time>,
    game: NonSend<Game>,
    picker: Res<crate::client::picker::PickerOpen>,
    builder: Res<crate::client::builder::BuilderOpen>,
    mut shown: Local<Shown>,
    mut node: Single<&mut Node, With<Briefing>>,
) {
    let watching = matches!(game.mode, Mode::Demo | Mode::Replay);
    if shown.generation != game.generation {
        // A new fight: its briefing first (not for one joined part way,
        // as `--advance` and a loaded save do).
        *shown = Shown {
            open: game.version == 0 && game.encounter.replay().commands.is_empty(),
            generation: game.generation,
            left: DEMO_SECONDS,
        };
    } else if keys.just_pressed(KeyCode::KeyB) && !picker.0 {
        shown.open = !shown.open;
        shown.left = DEMO_SECONDS;
    } else if shown.open {
        let dismissed = !watching
            && (mouse.just_pressed(MouseButton::Left)
                || keys.any_just_pressed([KeyCode::Space, KeyCode::Enter]));
        shown.left -= time.delta_secs();
        if dismissed || (watching && shown.left <= 0.0) {
            shown.open = false;
        }
    }
    let display = if shown.open && !picker.0 && builder.0.is_none() {
        Display::Flex
    } else {
        Display::None
    };
    if node.display != display {
        node.display = display;
    }
}

fn draw(
    mut commands: Commands,
    game: NonSend<Game>,
    setup: Res<Setup>,
    content: Res<Content>,
    panel: Single<Entity, With<Briefing>>,
    mut drawn: Local<Option<u64>>,
) {
    if *drawn == Some(game.generation) {
        return;
    }
    *drawn = Some(game.generation);
    let id = setup
        .replay
        .as_ref()
        .map_or(setup.encounter.as_str(), |r| r.encounter.as_str());
    let def = content.0.encounters.get(id);
    let name = def.map_or(id.to_string(), |d| d.name.clone());
    let rules = def
        .and_then(|d| content.0.rulesets.get(&d.ruleset))
        .map_or(String::new(), |r| r.name.clone());
    let briefing = def.map_or(String::new(), |d| d.briefing.clone());
    let objective = def.map_or("defeat every enemy".to_string(), |d| {
        let o = d.objective.describe();
        let mut o = o[..1].to_lowercase() + &o[1..];
        if !d.reinforcements.is_empty() {
            o.push_str(" (more monsters are coming)");
        }
        o
    });
    let how = if matches!(game.mode, Mode::Demo | Mode::Replay) {
        "[B] briefing"
    } else {
        "Click, Space or Enter to begin · [B] briefing"
    };
    commands.entity(*panel).despawn_children();
    commands.entity(*panel).with_children(|p| {
        p.spawn(text(name, HEADING + 6.0, Palette::GOLD));
        if !rules.is_empty() {
            p.spawn(text(rules, SMALL, Palette::DIM));
        }
        p.spawn(text(
            format!("Objective: {}", objective),
            BODY,
            Palette::TEXT,
        ));
        if !briefing.is_empty() {
            p.spawn(text(briefing, BODY, Palette::TEXT));
        }
        p.spawn(text(KEYS.join(" · "), TINY, Palette::QUIET));
        p.spawn(text(how, TINY, Palette::DIM));
    });
}

/// Every key the window answers, for the briefing.
const KEYS: [&str; 16] = [
    "F1 how to play",
    "1-9, 0 abilities; letters on the buttons for basic actions",
    "E end turn",
    "Ctrl+Z undo",
    "F5 save",
    "right click or Esc cancel",
    "Esc menu",
    "B briefing",
    "Tab roster",
    "L log",
    "arrows or WASD pan, wheel zoom",
    "F fit the board",
    "C centre on who acts",
    "V action camera",
    "Space pause, N step, +/- pace",
    "F11 full screen",
];

/// Over the middle of the board, no wider than it.
fn place(
    layout: Res<Layout>,
    ui: Res<UiScale>,
    window: Single<&Window, With<bevy::window::PrimaryWindow>>,
    mut node: Single<&mut Node, With<Briefing>>,
) {
    let board = layout::board_logical(&layout, ui.0 * window.scale_factor());
    let width = (board.width() - 4.0 * GAP).clamp(0.0, 640.0);
    let left = px(board.center().x - width / 2.0);
    if node.left != left || node.width != px(width) {
        node.left = left;
        node.width = px(width);
    }
}
