//! The acting creature's panel, at the top of the right column: who acts,
//! their stamina and heroic resource, the actions they have left, and their
//! ability bar as a list (it grows down the column, never over the board).

use bevy::prelude::*;
use skirmish_rules::stats::CreatureId;

use super::UiAction;
use super::words::{stamina_text, waiting_hint};
use crate::client::game::{Game, Mode, ReplayEnd, Selection};
use crate::client::input::BlocksBoard;
use crate::client::intent::{self, Aim, SlotAction};
use crate::client::layout::RightColumn;
use crate::client::theme::{BODY, Palette, SMALL, TINY, panel, panel_node, text};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Startup,
        spawn_actor_panel.after(crate::client::layout::ColumnsSet),
    )
    .add_systems(Update, actor_panel.after(crate::client::input::InputSet));
}

#[derive(Component)]
struct ActorPanel;

/// The ability-bar slot under the pointer, for its card.
#[derive(Component)]
pub struct SlotIndex(pub usize);

pub(super) fn spawn_actor_panel(mut commands: Commands, column: Single<Entity, With<RightColumn>>) {
    commands.entity(*column).with_child((
        Name::new("Actor panel"),
        ActorPanel,
        Node {
            flex_shrink: 0.0,
            max_height: percent(80),
            overflow: Overflow::scroll_y(),
            ..panel_node()
        },
        ScrollPosition::default(),
        panel(),
    ));
}

fn actor_panel(
    mut commands: Commands,
    game: NonSend<Game>,
    selection: Res<Selection>,
    panel: Single<Entity, With<ActorPanel>>,
    mut drawn: Local<Option<(u64, u64, Aim, Option<CreatureId>, Option<ReplayEnd>)>>,
) {
    let e = &game.encounter;
    let key = (
        game.generation,
        game.version,
        selection.aim.clone(),
        e.active_creature(),
        game.replay_end(),
    );
    if drawn.as_ref() == Some(&key) {
        return;
    }
    let replay_end = key.4;
    *drawn = Some(key);
    let entity = *panel;
    commands.entity(entity).despawn_children();
    // A replay that has ended shows why, not the card of a turn that will
    // not go on.
    let actor = e.active_creature().filter(|_| replay_end.is_none());
    commands.entity(entity).with_children(|p| {
        let Some(id) = actor else {
            let hint = if e.outcome().is_some() {
                "The fight is over. [R] play again · [Esc] choose another encounter".to_string()
            } else if let Some(end) = replay_end {
                end.card()
            } else if game.players_turn() {
                "Click one of your creatures to start its turn.".to_string()
            } else {
                waiting_hint(game.mode, game.deciding_side())
            };
            p.spawn(text(hint, SMALL, Palette::TEXT));
            return;
        };
        let Some(view) = e.creature(id) else { return };
        p.spawn(text(view.name.clone(), BODY + 2.0, Palette::side(view.side)));
        let mut line = format!("stamina {}", stamina_text(&view.stamina));
        if let Some(h) = &view.heroic {
            line += &format!(" · {} {} · surges {}", h.resource, h.amount, h.surges);
        }
        p.spawn(text(line, SMALL, Palette::TEXT));
        // What they have left this turn.
        p.spawn(Node {
            flex_wrap: FlexWrap::Wrap,
            column_gap: px(6),
            row_gap: px(4),
            ..default()
        })
        .with_children(|row| {
            let b = view.budget;
            for (label, left) in [
                ("Main", b.main),
                ("Maneuver", b.maneuver),
                ("Move", b.move_action),
                ("Triggered", b.triggered),
            ] {
                row.spawn((
                    Node {
                        padding: UiRect::axes(px(8), px(2)),
                        border_radius: BorderRadius::all(px(10)),
                        ..default()
                    },
                    BackgroundColor(if left {
                        Color::srgb(0.15, 0.45, 0.25)
                    } else {
                        Color::srgb(0.22, 0.22, 0.25)
                    }),
                ))
                .with_child(text(
                    format!("{} {label}", if left { "●" } else { "○" }),
                    TINY,
                    if left { Palette::TEXT } else { Palette::DIM },
                ));
            }
        });
        let mine = game.players_turn();
        if !mine {
            let who = if game.mode == Mode::Replay {
                "Replay"
            } else {
                "AI is playing"
            };
            p.spawn(text(who, TINY, Palette::DIM));
        }
        // The ability bar: the creature's own abilities a line each, then
        // the basic actions as chips that wrap, two or three to a line.
        let slots = intent::slots(e, &game.legal, id);
        let own = |s: &intent::Slot| {
            matches!(&s.action, SlotAction::Aim(Aim::Ability(a)) if view.abilities.contains(a))
        };
        let button = |p: &mut ChildSpawnerCommands, i: usize, s: &intent::Slot, wide: bool| {
            let aimed = matches!(&s.action, SlotAction::Aim(a) if *a == selection.aim);
            let bg = if aimed {
                Palette::BUTTON_AIMED
            } else if s.usable && mine {
                Palette::BUTTON
            } else {
                Palette::BUTTON_OFF
            };
            let key = if i < 9 {
                format!("{} ", i + 1)
            } else {
                String::new()
            };
            p.spawn((
                Button,
                SlotIndex(i),
                UiAction::Slot(s.action.clone()),
                Node {
                    justify_content: JustifyContent::SpaceBetween,
                    align_items: AlignItems::Center,
                    column_gap: px(6),
                    padding: UiRect::axes(px(if wide { 8 } else { 6 }), px(2)),
                    border: UiRect::all(px(2)),
                    border_radius: BorderRadius::all(px(6)),
                    flex_shrink: 0.0,
                    ..default()
                },
                BackgroundColor(bg),
                BorderColor::all(if aimed { Palette::GOLD } else { Palette::PANEL_EDGE }),
                BlocksBoard,
            ))
            .with_children(|b| {
                let c = if s.usable && mine {
                    Palette::TEXT
                } else {
                    Palette::DIM
                };
                b.spawn(text(format!("{key}{}", s.label), if wide { SMALL } else { TINY }, c));
                if let Some(n) = s.price {
                    b.spawn(text(format!("◆{n}"), TINY, Palette::GOLD));
                }
            });
        };
        for (i, s) in slots.iter().enumerate().filter(|(_, s)| own(s)) {
            button(p, i, s, true);
        }
        p.spawn(Node {
            flex_wrap: FlexWrap::Wrap,
            column_gap: px(4),
            row_gap: px(4),
            flex_shrink: 0.0,
            ..default()
        })
        .with_children(|chips| {
            for (i, s) in slots.iter().enumerate().filter(|(_, s)| !own(s)) {
                button(chips, i, s, false);
            }
        });
        if mine {
            let hint = match &selection.aim {
                Aim::Move => {
                    "Click a blue square to move (Shift: shift) · 1-9 abilities · [E] end turn"
                }
                _ => "Click a highlighted target or square · right click or [Esc] cancels",
            };
            p.spawn(text(hint, TINY, Palette::DIM));
        }
    });
}
