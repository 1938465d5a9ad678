//! The combat log, under the actor panel in the right column: every log
//! entry in words, the newest at the bottom and followed; the wheel scrolls
//! it and `L` hides it.

use bevy::prelude::*;
use skirmish_rules::encounter::LogEntry;
use skirmish_rules::stats::CreatureId;

use crate::client::game::Game;
use crate::client::layout::RightColumn;
use crate::client::theme::{BODY, Palette, SMALL, panel, panel_node, text};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<LogLines>()
        .add_systems(Startup, spawn_log.after(super::actor::spawn_actor_panel))
        .add_systems(
            Update,
            (
                collect_log,
                toggle,
                log_panel,
                super::scroll_with_wheel::<LogBody>,
            )
                .chain()
                .after(crate::client::input::InputSet),
        );
}

#[derive(Component)]
struct LogPanel;
#[derive(Component)]
pub struct LogBody;

/// The combat log's readable lines for this game.
#[derive(Resource, Default)]
pub struct LogLines {
    pub lines: Vec<(String, Color)>,
    generation: u64,
    seen: usize,
}

fn spawn_log(mut commands: Commands, column: Single<Entity, With<RightColumn>>) {
    commands.entity(*column).with_children(|c| {
        c.spawn((
            Name::new("Combat log"),
            LogPanel,
            Node {
                // The room the panels above leave, and at least its
                // heading and two lines.
                flex_grow: 1.0,
                flex_shrink: 1.0,
                flex_basis: px(0),
                min_height: px(104),
                ..panel_node()
            },
            panel(),
        ))
        .with_children(|p| {
            p.spawn(text("COMBAT LOG", BODY, Palette::GOLD));
            p.spawn((
                LogBody,
                Node {
                    flex_direction: FlexDirection::Column,
                    overflow: Overflow::scroll_y(),
                    flex_grow: 1.0,
                    // Two lines (an entry that wraps once shows whole).
                    min_height: px(46),
                    row_gap: px(4),
                    ..default()
                },
                ScrollPosition::default(),
            ));
        });
    });
}

/// `L` shows or hides the log.
fn toggle(
    keys: Res<ButtonInput<KeyCode>>,
    picker: Res<crate::client::picker::PickerOpen>,
    mut node: Single<&mut Node, With<LogPanel>>,
) {
    if keys.just_pressed(KeyCode::KeyL) && !picker.0 {
        node.display = match node.display {
            Display::None => Display::Flex,
            _ => Display::None,
        };
    }
}

fn collect_log(mut lines: ResMut<LogLines>, game: NonSend<Game>) {
    if lines.generation != game.generation {
        *lines = LogLines {
            generation: game.generation,
            ..default()
        };
    }
    let log = game.encounter.log();
    // Undo rewinds the log: its lines (one per entry) go with it.
    if log.len() < lines.seen {
        lines.lines.truncate(log.len());
        lines.seen = log.len();
    }
    if lines.seen >= log.len() {
        return;
    }
    let name = |id: CreatureId| game.encounter.name(id);
    for e in &log[lines.seen..] {
        let color = match e {
            LogEntry::RoundStarted { .. } | LogEntry::RoundEnded { .. } => Palette::GOLD,
            LogEntry::Victory { .. } | LogEntry::CriticalHit { .. } => Palette::GOLD,
            LogEntry::Damage { .. } | LogEntry::Died { .. } | LogEntry::Dying { .. } => {
                Palette::DAMAGE
            }
            LogEntry::ConditionGained { .. } => Palette::CONDITION,
            LogEntry::TurnStarted { .. } => Palette::HEROES.lighter(0.2),
            LogEntry::Healed { .. }
            | LogEntry::ResourceGained { .. }
            | LogEntry::ResourceKept { .. } => Palette::GOOD,
            _ => Palette::TEXT,
        };
        lines.lines.push((e.line(&name), color));
    }
    lines.seen = log.len();
}

fn log_panel(
    mut commands: Commands,
    lines: Res<LogLines>,
    body: Single<(Entity, &mut ScrollPosition), With<LogBody>>,
    mut shown: Local<(u64, usize)>,
) {
    let (entity, mut scroll) = body.into_inner();
    if *shown == (lines.generation, lines.lines.len()) {
        return;
    }
    if shown.0 != lines.generation || shown.1 > lines.lines.len() {
        commands.entity(entity).despawn_children();
        shown.1 = 0;
    }
    shown.0 = lines.generation;
    // Only the last few hundred lines are kept on screen.
    let from = shown.1.max(lines.lines.len().saturating_sub(300));
    commands.entity(entity).with_children(|p| {
        for (l, c) in &lines.lines[from..] {
            p.spawn((
                text(l.clone(), SMALL, *c),
                Node {
                    flex_shrink: 0.0,
                    ..default()
                },
            ));
        }
    });
    shown.1 = lines.lines.len();
    // Follow the newest line.
    scroll.0.y = f32::MAX / 4.0;
}
