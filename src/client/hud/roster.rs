//! The roster, under the header in the left column: both sides' creatures,
//! who acts and who has acted, stamina and conditions in words. `Tab`
//! hides it; it scrolls with the wheel when it holds more than fits.

use bevy::prelude::*;
use skirmish_rules::map::Side;
use skirmish_rules::stats::Health;

use super::words::{condition_words, stamina_text};
use crate::client::game::Game;
use crate::client::layout::{LeftColumn, LeftPanel};
use crate::client::theme::{BODY, Palette, panel, panel_node, text};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, spawn_roster.after(super::header::spawn_header))
        .add_systems(
            Update,
            (fold, toggle, roster, super::scroll_with_wheel::<Roster>)
                .chain()
                .after(crate::client::input::InputSet),
        );
}

#[derive(Component)]
pub struct Roster;

/// A roster line's text size: a little under the body's, so a full side
/// of a large fight fits the column at 1080 lines.
const ROSTER: f32 = 16.0;

fn spawn_roster(mut commands: Commands, column: Single<Entity, With<LeftColumn>>) {
    commands.entity(*column).with_child((
        Name::new("Roster"),
        LeftPanel(1),
        Roster,
        Node {
            flex_grow: 1.0,
            flex_shrink: 1.0,
            min_height: px(0),
            overflow: Overflow::scroll_y(),
            ..panel_node()
        },
        ScrollPosition::default(),
        panel(),
    ));
}

/// A compact layout folds the roster away (it would push the acting
/// creature's panel down the one column); `Tab` still shows it.
fn fold(
    layout: Res<crate::client::layout::Layout>,
    mut was: Local<bool>,
    mut node: Single<&mut Node, With<Roster>>,
) {
    if layout.compact != *was {
        *was = layout.compact;
        node.display = if layout.compact {
            Display::None
        } else {
            Display::Flex
        };
    }
}

/// `Tab` shows or hides the roster.
fn toggle(
    keys: Res<ButtonInput<KeyCode>>,
    picker: Res<crate::client::picker::PickerOpen>,
    mut node: Single<&mut Node, With<Roster>>,
) {
    if keys.just_pressed(KeyCode::Tab) && !picker.0 {
        node.display = match node.display {
            Display::None => Display::Flex,
            _ => Display::None,
        };
    }
}

fn roster(
    mut commands: Commands,
    game: NonSend<Game>,
    panel: Single<Entity, With<Roster>>,
    icons: Res<crate::client::icons::IconArt>,
    mut drawn: Local<(u64, u64)>,
) {
    let key = (game.generation, game.version);
    if *drawn == key {
        return;
    }
    *drawn = key;
    let e = &game.encounter;
    let flow = e.flow();
    commands.entity(*panel).despawn_children();
    commands.entity(*panel).with_children(|p| {
        for side in [Side::Heroes, Side::Director] {
            let title = match side {
                Side::Heroes => "HEROES",
                Side::Director => "MONSTERS",
            };
            p.spawn(text(title, BODY, Palette::side(side)));
            let all: Vec<_> = e
                .creatures()
                .into_iter()
                .filter(|c| c.side == side)
                .collect();
            let mut squads_shown: Vec<u32> = Vec::new();
            for c in &all {
                // A minion squad is one line: its members standing, and its
                // shared pool (docs/rules.md#minions).
                if let Some(n) = c.squad {
                    if squads_shown.contains(&n) {
                        continue;
                    }
                    squads_shown.push(n);
                    let members: Vec<_> = all.iter().filter(|m| m.squad == Some(n)).collect();
                    let standing: Vec<_> = members
                        .iter()
                        .filter(|m| m.stamina.health() != Health::Dead)
                        .collect();
                    let acting = members.iter().any(|m| flow.is_acting(m.id));
                    let acted =
                        !standing.is_empty() && standing.iter().all(|m| flow.acted.contains(&m.id));
                    let (mark, color) = if standing.is_empty() {
                        ("✝", Palette::DIM.darker(0.2))
                    } else if acting {
                        ("▶", Palette::GOLD)
                    } else if acted {
                        ("✓", Palette::DIM)
                    } else {
                        ("·", Palette::TEXT)
                    };
                    let pool = e
                        .squad(n)
                        .map_or(String::new(), |s| format!("{}/{}", s.pool.max(0), s.max));
                    row(
                        p,
                        icons.small(icons.icons.creature(&c.kind)),
                        (mark, format!("{} ×{}", c.name, standing.len())),
                        pool,
                        color,
                    );
                    continue;
                }
                let health = c.stamina.health();
                let mark = if flow.is_acting(c.id) {
                    "▶"
                } else if health == Health::Dead {
                    "✝"
                } else if flow.acted.contains(&c.id) {
                    "✓"
                } else {
                    "·"
                };
                let color = match health {
                    Health::Dead => Palette::DIM.darker(0.2),
                    _ if flow.is_acting(c.id) => Palette::GOLD,
                    _ if flow.acted.contains(&c.id) => Palette::DIM,
                    _ => Palette::TEXT,
                };
                let stamina = if health == Health::Dead {
                    "down".to_string()
                } else {
                    stamina_text(&c.stamina)
                };
                row(
                    p,
                    icons.small(icons.icons.creature(&c.kind)),
                    (mark, c.name.clone()),
                    stamina,
                    color,
                );
                // Its conditions in words, on a line of their own: read from
                // across a room where a token's badges are too small.
                if health != Health::Dead
                    && let Some(words) = condition_words(&c.conditions)
                {
                    p.spawn(Node {
                        margin: UiRect::left(px(22)),
                        column_gap: px(3),
                        align_items: AlignItems::Center,
                        flex_wrap: FlexWrap::Wrap,
                        flex_shrink: 0.0,
                        ..default()
                    })
                    .with_children(|line| {
                        // The token's badge icons, then the words.
                        for k in c.conditions.kinds() {
                            line.spawn(icon_node(
                                icons.small(icons.icons.condition(k)),
                                ROSTER,
                                Palette::CONDITION,
                            ));
                        }
                        line.spawn(text(words, ROSTER, Palette::CONDITION));
                    });
                }
            }
        }
    });
}

/// An icon the height of a line of `size` text, tinted `color`.
pub fn icon_node(image: Handle<Image>, size: f32, color: Color) -> impl Bundle {
    (
        ImageNode {
            image,
            color,
            ..default()
        },
        Node {
            width: px(size * 1.15),
            height: px(size * 1.15),
            flex_shrink: 0.0,
            ..default()
        },
    )
}

/// A roster line: the name and the stamina apart, the stamina on a line of
/// its own when both do not fit, never pushed out of the panel.
fn row(
    p: &mut ChildSpawnerCommands,
    icon: Handle<Image>,
    (mark, name): (&str, String),
    stamina: String,
    color: Color,
) {
    p.spawn(Node {
        justify_content: JustifyContent::SpaceBetween,
        flex_wrap: FlexWrap::Wrap,
        column_gap: px(6),
        flex_shrink: 0.0,
        ..default()
    })
    .with_children(|row| {
        row.spawn(Node {
            column_gap: px(5),
            align_items: AlignItems::Center,
            flex_shrink: 1.0,
            ..default()
        })
        .with_children(|who| {
            who.spawn((
                text(mark, ROSTER, color),
                Node {
                    width: px(ROSTER * 0.8),
                    flex_shrink: 0.0,
                    ..default()
                },
            ));
            who.spawn(icon_node(icon, ROSTER, color));
            who.spawn((
                text(name, ROSTER, color),
                Node {
                    flex_shrink: 1.0,
                    ..default()
                },
            ));
        });
        row.spawn((
            text(stamina, ROSTER, color),
            Node {
                flex_shrink: 0.0,
                ..default()
            },
        ));
    });
}
