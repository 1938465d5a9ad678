//! Prompts and the end of the fight, over the middle of the board: the
//! triggered-action prompt, the choice of surges and resource before a
//! roll, and the result with its summary.

use bevy::prelude::*;
use skirmish_rules::encounter::Command;
use skirmish_rules::map::Side;

use super::UiAction;
use super::words::summary;
use crate::client::game::{Game, Mode, Selection};
use crate::client::input::BlocksBoard;
use crate::client::layout::{self, Layout};
use crate::client::theme::{BODY, HEADING, Palette, button, text};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Startup,
        spawn_modal.after(crate::client::layout::ColumnsSet),
    )
    .add_systems(
        Update,
        (place_modal, modal)
            .chain()
            .after(crate::client::input::InputSet)
            .after(crate::client::layout::LayoutSet),
    );
}

#[derive(Component)]
struct Modal;

fn spawn_modal(mut commands: Commands) {
    commands.spawn((
        Name::new("Modal"),
        Modal,
        Node {
            position_type: PositionType::Absolute,
            top: percent(14),
            justify_content: JustifyContent::Center,
            padding: UiRect::horizontal(px(crate::client::theme::GAP)),
            ..default()
        },
        Pickable::IGNORE,
        GlobalZIndex(3),
    ));
}

/// Prompts sit over the board, between the columns: at the top, or at
/// the bottom when the spend prompt's target is in the board's top half
/// on screen, so that it never covers what it aims at.
fn place_modal(
    layout: Res<Layout>,
    ui: Res<UiScale>,
    window: Single<&Window, With<bevy::window::PrimaryWindow>>,
    selection: Res<Selection>,
    game: NonSend<Game>,
    camera: Single<(&Camera, &GlobalTransform), With<crate::client::camera::BoardCamera>>,
    geometry: Res<crate::client::view::BoardGeometry>,
    mut node: Single<&mut Node, With<Modal>>,
) {
    let board = layout::board_logical(&layout, ui.0 * window.scale_factor());
    let (left, width) = (px(board.min.x), px(board.width()));
    if node.left != left || node.width != width {
        node.left = left;
        node.width = width;
    }
    let aimed = selection.pending.as_ref().and_then(|p| {
        let square = match &p.command {
            Command::UseAbility { targets, .. } => game
                .encounter
                .creature(*targets.first()?)
                .map(|c| c.space.pos),
            Command::UseAreaAbility { placement, .. } => crate::client::intent::anchor(placement),
            _ => None,
        }?;
        let (cam, at) = *camera;
        let on_screen = cam
            .world_to_viewport(at, geometry.centre(square, 1).extend(0.0))
            .ok()?;
        // Viewport pixels from the board's top (logical, before UI scale).
        Some(on_screen.y < layout.board.height() / window.scale_factor() / 2.0)
    });
    let (top, bottom) = match aimed {
        Some(true) => (Val::Auto, percent(4)),
        _ => (percent(14), Val::Auto),
    };
    if node.top != top || node.bottom != bottom {
        node.top = top;
        node.bottom = bottom;
    }
}

fn modal(
    mut commands: Commands,
    game: NonSend<Game>,
    selection: Res<Selection>,
    root: Single<Entity, With<Modal>>,
    mut drawn: Local<
        Option<(
            u64,
            u64,
            Option<crate::client::game::Pending>,
            Option<crate::client::game::Confirm>,
        )>,
    >,
) {
    let key = (
        game.generation,
        game.version,
        selection.pending.clone(),
        selection.confirm.clone(),
    );
    if drawn.as_ref() == Some(&key) {
        return;
    }
    *drawn = Some(key);
    commands.entity(*root).despawn_children();
    let e = &game.encounter;
    let card = |p: &mut ChildSpawnerCommands, build: &dyn Fn(&mut ChildSpawnerCommands)| {
        p.spawn((
            Node {
                flex_direction: FlexDirection::Column,
                padding: UiRect::all(px(20)),
                row_gap: px(10),
                border: UiRect::all(px(3)),
                border_radius: BorderRadius::all(px(10)),
                max_width: percent(100),
                ..default()
            },
            BackgroundColor(Color::srgb(0.05, 0.05, 0.08)),
            BorderColor::all(Palette::GOLD),
            Interaction::default(),
            bevy::ui::FocusPolicy::Block,
            BlocksBoard,
        ))
        .with_children(|c| build(c));
    };
    commands.entity(*root).with_children(|root| {
        if let Some(w) = e.outcome() {
            let won = match game.mode {
                Mode::Solo => w == Side::Heroes,
                _ => true,
            };
            let title = match (game.mode, w) {
                (Mode::Solo, Side::Heroes) => "VICTORY".to_string(),
                (Mode::Solo, Side::Director) => "DEFEAT".to_string(),
                (_, Side::Heroes) => "THE HEROES WIN".to_string(),
                (_, Side::Director) => "THE MONSTERS WIN".to_string(),
            };
            let summary = summary(e);
            card(root, &|c| {
                c.spawn(text(
                    title.clone(),
                    48.0,
                    if won { Palette::GOLD } else { Palette::DAMAGE },
                ));
                for l in &summary {
                    c.spawn(text(l.clone(), BODY, Palette::TEXT));
                }
                c.spawn(Node {
                    flex_wrap: FlexWrap::Wrap,
                    column_gap: px(12),
                    row_gap: px(8),
                    ..default()
                })
                .with_children(|row| {
                    button(row, "Play again [R]", UiAction::Restart { same: false });
                    button(
                        row,
                        "Same fight [Shift+R]",
                        UiAction::Restart { same: true },
                    );
                    button(row, "Choose encounter [Esc]", UiAction::Menu);
                });
            });
            return;
        }
        if let Some(q) = &selection.confirm {
            let q = q.clone();
            let ending = matches!(q.command, Command::EndTurn { .. });
            card(root, &|c| {
                c.spawn(text(q.question.clone(), HEADING, Palette::GOLD));
                c.spawn(Node {
                    flex_wrap: FlexWrap::Wrap,
                    column_gap: px(12),
                    row_gap: px(8),
                    ..default()
                })
                .with_children(|row| {
                    button(row, &q.yes, UiAction::Yes);
                    button(row, "Keep playing [Esc]", UiAction::No);
                    if ending {
                        button(row, "End turn, and don't ask again", UiAction::StopAsking);
                    }
                });
            });
            return;
        }
        if let Some(p) = &selection.pending {
            let p = p.clone();
            // What each choice would do, in the engine's forecast.
            let outlook = |surges: u32, spend: u32| {
                let mut q = p.clone();
                q.surges = surges;
                q.spend = spend;
                let cmd = crate::client::input::with_choices(&q);
                e.preview(&cmd).map_or(String::new(), |pv| {
                    let dmg = pv.expected_damage();
                    let down = pv
                        .targets
                        .iter()
                        .map(|t| t.kill_chance)
                        .fold(0.0f64, f64::max);
                    if down > 0.0 {
                        format!("≈{dmg:.0} dmg, {:.0}% down", down * 100.0)
                    } else {
                        format!("≈{dmg:.0} dmg")
                    }
                })
            };
            card(root, &|c| {
                c.spawn(text(
                    format!("Before the roll · now {}", outlook(p.surges, p.spend)),
                    HEADING,
                    Palette::GOLD,
                ));
                if p.max_surges > 0 {
                    c.spawn(text(
                        "Surges to spend (each adds damage to the first target):",
                        BODY,
                        Palette::TEXT,
                    ));
                    c.spawn(Node {
                        flex_wrap: FlexWrap::Wrap,
                        column_gap: px(8),
                        row_gap: px(8),
                        ..default()
                    })
                    .with_children(|row| {
                        for n in 0..=p.max_surges {
                            let mark = if n == p.surges { "▶ " } else { "" };
                            button(
                                row,
                                &format!("{mark}{n}: {}", outlook(n, p.spend)),
                                UiAction::Surges(n),
                            );
                        }
                    });
                }
                if p.max_spend > 0 {
                    c.spawn(text(
                        format!("{} to spend (you have {}):", p.resource, p.max_spend),
                        BODY,
                        Palette::TEXT,
                    ));
                    c.spawn(Node {
                        flex_wrap: FlexWrap::Wrap,
                        column_gap: px(8),
                        row_gap: px(8),
                        ..default()
                    })
                    .with_children(|row| {
                        for n in 0..=p.max_spend.min(6) {
                            let mark = if n == p.spend { "▶ " } else { "" };
                            button(
                                row,
                                &format!("{mark}{n} {}: {}", p.resource, outlook(p.surges, n)),
                                UiAction::Spend(n),
                            );
                        }
                    });
                }
                c.spawn(Node {
                    flex_wrap: FlexWrap::Wrap,
                    column_gap: px(12),
                    row_gap: px(8),
                    ..default()
                })
                .with_children(|row| {
                    button(row, "Roll!", UiAction::Confirm);
                    button(row, "Cancel", UiAction::Cancel);
                });
            });
            return;
        }
        if let Some(prompt) = e.prompt()
            && game.players_turn()
        {
            let who = e.name(prompt.creature);
            let actor = e.name(prompt.event.actor);
            let what = skirmish_rules::encounter::trigger_text(prompt.event.kind);
            let answers: Vec<Command> = game
                .legal
                .iter()
                .filter(|c| matches!(c, Command::Answer { .. }))
                .cloned()
                .collect();
            // A main action off the creature's turn is not a reaction:
            // say what it is (docs/rules.md#critical-hit).
            use skirmish_rules::ability::TriggerEvent;
            let heading = match prompt.event.kind {
                TriggerEvent::CriticalHit => {
                    format!("Critical hit! {who} may take another main action now")
                }
                TriggerEvent::StrikeNow => format!("{who} may use a signature ability now"),
                _ => format!("{who} may react"),
            };
            card(root, &|c| {
                c.spawn(text(heading.clone(), HEADING, Palette::GOLD));
                c.spawn(text(
                    format!("Trigger: {what} ({actor})"),
                    BODY,
                    Palette::TEXT,
                ));
                for a in &answers {
                    let label = match a {
                        Command::Answer {
                            reaction: Some(r), ..
                        } => {
                            let name = e
                                .content()
                                .ability(&r.ability)
                                .map_or("Opportunity attack".to_string(), |ab| ab.name.clone());
                            let on: Vec<String> = r.targets.iter().map(|t| e.name(*t)).collect();
                            if on.is_empty() {
                                name
                            } else {
                                format!("{name} → {}", on.join(", "))
                            }
                        }
                        _ => "Let it pass".to_string(),
                    };
                    button(c, &label, UiAction::Command(a.clone()));
                }
            });
        }
    });
}
