//! The acting creature's panel, at the top of the right column: who acts,
//! their stamina and heroic resource, the actions they have left, and their
//! ability bar as a list (it grows down the column, never over the board).

use bevy::prelude::*;
use skirmish_rules::stats::CreatureId;

use super::UiAction;
use super::words::{shown_stamina_text, waiting_hint};
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
    .add_systems(
        Update,
        (
            room,
            actor_panel,
            // When the aim changes (a key, a click, a new turn), the list
            // scrolls the aimed ability into view.
            crate::client::layout::keep_in_view::<AimedSlot, ActorBody>,
            super::scroll_with_wheel::<ActorBody>,
        )
            .after(crate::client::input::InputSet),
    );
}

/// The share of its column the panel may take: less when the column also
/// holds the header, so the log keeps a few lines.
fn room(layout: Res<crate::client::layout::Layout>, mut node: Single<&mut Node, With<ActorPanel>>) {
    let most = if layout.compact {
        percent(58)
    } else {
        percent(80)
    };
    if node.max_height != most {
        node.max_height = most;
    }
}

#[derive(Component)]
struct ActorPanel;

/// The panel's fixed top: who acts, their stamina and what they have left.
#[derive(Component)]
struct ActorHead;

/// The panel's scrolling part: the ability bar (a "more" cue under it).
#[derive(Component)]
struct ActorBody;

/// The aimed slot's button: kept in view.
#[derive(Component)]
struct AimedSlot;

/// The ability-bar slot under the pointer, for its card.
#[derive(Component)]
pub struct SlotIndex(pub usize);

pub(super) fn spawn_actor_panel(mut commands: Commands, column: Single<Entity, With<RightColumn>>) {
    let head = commands
        .spawn((
            Name::new("Actor panel head"),
            ActorHead,
            Node {
                flex_direction: FlexDirection::Column,
                row_gap: px(4),
                flex_shrink: 0.0,
                ..default()
            },
        ))
        .id();
    let body = commands
        .spawn((
            Name::new("Actor panel body"),
            ActorBody,
            Node {
                flex_direction: FlexDirection::Column,
                row_gap: px(4),
                flex_shrink: 1.0,
                min_height: px(0),
                overflow: Overflow::scroll_y(),
                ..default()
            },
            ScrollPosition::default(),
        ))
        .id();
    let cue = commands
        .spawn(super::more_cue(body, "scroll, or keys"))
        .id();
    commands.entity(*column).with_child((
        Name::new("Actor panel"),
        ActorPanel,
        Node {
            flex_shrink: 1.0,
            min_height: px(110),
            max_height: percent(80),
            overflow: Overflow::clip(),
            ..panel_node()
        },
        panel(),
    ));
    commands.queue(move |world: &mut World| {
        let mut panel = world.query_filtered::<Entity, With<ActorPanel>>();
        if let Ok(panel) = panel.single(world) {
            world.entity_mut(panel).add_children(&[head, body, cue]);
        }
    });
}

fn actor_panel(
    mut commands: Commands,
    game: NonSend<Game>,
    selection: Res<Selection>,
    head: Single<Entity, With<ActorHead>>,
    body: Single<Entity, With<ActorBody>>,
    layout: Res<crate::client::layout::Layout>,
    icons: Res<crate::client::icons::IconArt>,
    mut drawn: Local<Option<(u64, u64, Aim, Option<CreatureId>, Option<ReplayEnd>, bool)>>,
) {
    let e = &game.encounter;
    let key = (
        game.generation,
        game.version,
        selection.aim.clone(),
        e.active_creature(),
        game.replay_end(),
        layout.compact,
    );
    if drawn.as_ref() == Some(&key) {
        return;
    }
    let replay_end = key.4;
    *drawn = Some(key);
    let (head, body) = (*head, *body);
    commands.entity(head).despawn_children();
    commands.entity(body).despawn_children();
    // A replay that has ended shows why, not the card of a turn that will
    // not go on.
    let actor = e.active_creature().filter(|_| replay_end.is_none());
    let mine = game.players_turn();
    let view = actor.and_then(|id| e.creature(id).map(|v| (id, v)));
    commands.entity(head).with_children(|p| {
        let Some((_, view)) = &view else {
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
        p.spawn(text(
            view.name.clone(),
            BODY + 2.0,
            Palette::side(view.side),
        ));
        let mut items = vec![shown_stamina_text(view)];
        if let Some(h) = &view.heroic {
            items.push(format!("{} {}", h.resource, h.amount));
            items.push(format!("surges {}", h.surges));
        }
        // A line breaks between items, never inside one ("surges" / "0").
        let line = items
            .iter()
            .map(|i| i.replace(' ', "\u{a0}"))
            .collect::<Vec<_>>()
            .join(" · ");
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
        if !mine {
            let who = if game.mode == Mode::Replay {
                "Replay"
            } else {
                "AI is playing"
            };
            p.spawn(text(who, TINY, Palette::DIM));
        }
    });
    let Some((id, _)) = view else { return };
    // In one column, an AI's abilities give their room to the log: the
    // float and the roll card say what it did.
    if layout.compact && !mine {
        return;
    }
    commands.entity(body).with_children(|p| {
        // The ability bar: the creature's own abilities a line each, then
        // the basic actions as chips that wrap, two or three to a line.
        let slots = intent::slots(e, &game.legal, id);
        let own = |s: &intent::Slot| s.own;
        let button = |p: &mut ChildSpawnerCommands, i: usize, s: &intent::Slot, wide: bool| {
            let aimed = matches!(&s.action, SlotAction::Aim(a) if *a == selection.aim);
            let bg = if aimed {
                Palette::BUTTON_AIMED
            } else if s.usable && mine {
                Palette::BUTTON
            } else {
                Palette::BUTTON_OFF
            };
            let key = s.key.label().map_or(String::new(), |k| format!("[{k}] "));
            let mut slot = p.spawn((
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
            ));
            if aimed {
                slot.insert(AimedSlot);
            }
            slot.with_children(|b| {
                let c = if s.usable && mine {
                    Palette::TEXT
                } else {
                    Palette::DIM
                };
                let size = if wide { SMALL } else { TINY };
                // Its icon (docs/art.md), then its key and name.
                if let Some(icon) = slot_icon(&icons.icons, e, &s.action) {
                    // The label wraps beside its icon; the price keeps its room.
                    b.spawn(Node {
                        column_gap: px(6),
                        align_items: AlignItems::Center,
                        flex_grow: 1.0,
                        flex_shrink: 1.0,
                        min_width: px(0),
                        ..default()
                    })
                    .with_children(|l| {
                        l.spawn(super::roster::icon_node(icons.small(icon), size * 1.1, c));
                        l.spawn((
                            text(format!("{key}{}", s.label), size, c),
                            // A word longer than the room beside the icon and
                            // the price breaks, rather than running into the
                            // price (a narrow column at 720).
                            TextLayout::new(Justify::Left, LineBreak::WordOrCharacter),
                            // Its width is what the icon and the price leave
                            // (grown from nothing: a width measured from its
                            // own words laid it out at none, issue 72).
                            Node {
                                flex_grow: 1.0,
                                flex_shrink: 1.0,
                                flex_basis: px(0),
                                ..default()
                            },
                        ));
                    });
                } else {
                    b.spawn(text(format!("{key}{}", s.label), size, c));
                }
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
            // Take back this turn's moves (Ctrl+Z): greyed out, and saying
            // why when pressed, once a roll or the other side has come.
            if mine {
                let can = game.can_undo();
                chips
                    .spawn((
                        Button,
                        UiAction::Undo,
                        Node {
                            padding: UiRect::axes(px(6), px(2)),
                            border: UiRect::all(px(2)),
                            border_radius: BorderRadius::all(px(6)),
                            flex_shrink: 0.0,
                            ..default()
                        },
                        BackgroundColor(if can {
                            Palette::BUTTON
                        } else {
                            Palette::BUTTON_OFF
                        }),
                        BorderColor::all(Palette::PANEL_EDGE),
                        BlocksBoard,
                    ))
                    .with_child(text(
                        "[Ctrl+Z] Undo",
                        TINY,
                        if can { Palette::TEXT } else { Palette::DIM },
                    ));
            }
        });
        if mine {
            let hint = match &selection.aim {
                Aim::Move => {
                    "Click a blue square to move (Shift: shift; pale green: uses the main action) · [1]-[0] abilities · [F1] help"
                }
                _ => "Click a highlighted target or square · right click or [Esc] cancels",
            };
            p.spawn(text(hint, TINY, Palette::DIM));
        }
    });
}

/// The icon of an ability bar slot: its ability's, or the charge's and the
/// free strike's keyword icons; none for the other basic actions.
pub fn slot_icon<'a>(
    icons: &'a crate::icons::Icons,
    e: &'a skirmish_rules::encounter::Encounter,
    action: &SlotAction,
) -> Option<&'a str> {
    use skirmish_rules::ability::Keyword;
    use skirmish_rules::encounter::Command;
    let id = match action {
        SlotAction::Aim(Aim::Ability(id)) => id.as_str(),
        SlotAction::Now(Command::UseAbility { ability, .. })
        | SlotAction::Now(Command::UseAreaAbility { ability, .. }) => ability.as_str(),
        SlotAction::Aim(Aim::Charge) => {
            return icons
                .table
                .abilities
                .keywords
                .get(&Keyword::Charge)
                .map(String::as_str);
        }
        SlotAction::Aim(Aim::FreeStrike) => {
            return icons
                .table
                .abilities
                .keywords
                .get(&Keyword::Melee)
                .map(String::as_str);
        }
        _ => return None,
    };
    e.content().ability(id).map(|a| icons.ability(a))
}
