//! The heads-up display, a plugin per panel (the bevy_new_2d habit): the
//! header and the roster in the left column, the acting creature's panel
//! and the combat log in the right one, the card and the prompts over the
//! board. Buttons carry a [`UiAction`], carried out here.

mod actor;
mod briefing;
mod card;
mod header;
pub mod help;
mod log;
mod modal;
mod roll;
mod roster;
pub mod words;

use bevy::input::mouse::{AccumulatedMouseScroll, MouseScrollUnit};
use bevy::prelude::*;
use skirmish_rules::encounter::Command;

use super::game::{Applied, Game, Restart, Selection};
use super::input;
use super::intent::{Aim, SlotAction};

pub(super) fn plugin(app: &mut App) {
    app.add_plugins((
        header::plugin,
        roster::plugin,
        actor::plugin,
        log::plugin,
        card::plugin,
        modal::plugin,
        roll::plugin,
        briefing::plugin,
        help::plugin,
    ))
    .add_systems(Update, (buttons, more_cues).after(super::input::InputSet))
    .add_systems(
        PostUpdate,
        hide_cut_rows
            .after(bevy::ui::UiSystems::PostLayout)
            .before(bevy::camera::visibility::VisibilitySystems::VisibilityPropagate),
    );
}

/// A "more" line under a scrolling list, shown while some of the list is
/// out of view (above, below or both), saying how to see the rest.
#[derive(Component)]
pub struct MoreCue {
    list: Entity,
    how: &'static str,
}

/// The cue for the scrolling `list`, to spawn under it.
pub fn more_cue(list: Entity, how: &'static str) -> impl Bundle {
    use super::theme::{Palette, TINY, text};
    (
        MoreCue { list, how },
        text("", TINY, Palette::DIM),
        Node {
            display: Display::None,
            flex_shrink: 0.0,
            ..default()
        },
    )
}

fn more_cues(
    lists: Query<(&ComputedNode, &Node), Without<MoreCue>>,
    mut cues: Query<(&MoreCue, &mut Node, &mut Text)>,
) {
    for (cue, mut node, mut text) in &mut cues {
        let Ok((list, list_node)) = lists.get(cue.list) else {
            continue;
        };
        // Bevy's own bound on the scroll (physical pixels).
        let most = list.content_size.y - list.size.y + list.scrollbar_size.y;
        let shown = list_node.display != Display::None;
        let above = shown && list.scroll_position.y > 2.0;
        let below = shown && most - list.scroll_position.y > 2.0;
        let arrows = match (above, below) {
            (true, true) => "▲▼",
            (true, false) => "▲",
            (false, true) => "▼",
            (false, false) => "",
        };
        let want = if arrows.is_empty() {
            Display::None
        } else {
            Display::Flex
        };
        if node.display != want {
            node.display = want;
        }
        let words = format!("{arrows} more: {}", cue.how);
        if !arrows.is_empty() && text.0 != words {
            text.0 = words;
        }
    }
}

/// No scrolling list shows half a line: a row its edge would cut is
/// hidden (keeping its room) until it scrolls fully into view. A row
/// taller than the list shows whatever it can. (The list's own rectangle,
/// not the rows' clips: a row spawned this frame has none yet.)
fn hide_cut_rows(
    lists: Query<(
        &Node,
        &ComputedNode,
        &UiGlobalTransform,
        Option<&bevy::ui::CalculatedClip>,
        &Children,
    )>,
    mut rows: Query<(&ComputedNode, &UiGlobalTransform, &mut Visibility)>,
) {
    for (list, node, at, clip, children) in &lists {
        if list.overflow.y != OverflowAxis::Scroll {
            continue;
        }
        let mut view = Rect::from_center_size(at.translation, node.size());
        view.min.y += node.border.min_inset.y;
        view.max.y -= node.border.max_inset.y;
        if let Some(c) = clip {
            view = view.intersect(c.clip);
        }
        for &row in children {
            let Ok((row_node, row_at, mut shown)) = rows.get_mut(row) else {
                continue;
            };
            let r = Rect::from_center_size(row_at.translation, row_node.size());
            let inside = r.min.y >= view.min.y - 0.5 && r.max.y <= view.max.y + 0.5;
            let outside = r.max.y <= view.min.y + 0.5 || r.min.y >= view.max.y - 0.5;
            let want = if inside || outside || r.height() > view.height() + 0.5 {
                Visibility::Inherited
            } else {
                Visibility::Hidden
            };
            if *shown != want {
                *shown = want;
            }
        }
    }
}

/// What a button does.
#[derive(Component, Clone, Debug)]
pub enum UiAction {
    Slot(SlotAction),
    /// Answer a prompt (or any command given whole).
    Command(Command),
    Surges(u32),
    Spend(u32),
    Confirm,
    Cancel,
    /// Yes to the question asked ([`Selection::confirm`]).
    Yes,
    /// No to it.
    No,
    /// Never ask before ending a turn again (the setting).
    StopAsking,
    /// Take back the last command (Ctrl+Z).
    Undo,
    /// A new game: the same fight (seed), or a new seed.
    Restart {
        same: bool,
    },
    Menu,
}

/// The wheel scrolls the panel `T` it is over.
fn scroll_with_wheel<T: Component>(
    scroll: Res<AccumulatedMouseScroll>,
    window: Single<&Window, With<bevy::window::PrimaryWindow>>,
    mut panels: Query<(&ComputedNode, &UiGlobalTransform, &mut ScrollPosition), With<T>>,
) {
    if scroll.delta.y == 0.0 {
        return;
    }
    let Some(cursor) = window.physical_cursor_position() else {
        return;
    };
    let dy = match scroll.unit {
        MouseScrollUnit::Line => scroll.delta.y * 30.0,
        MouseScrollUnit::Pixel => scroll.delta.y,
    };
    for (node, at, mut pos) in &mut panels {
        let rect = Rect::from_center_size(at.translation, node.size());
        if rect.contains(cursor) {
            pos.0.y = (pos.0.y - dy).max(0.0);
        }
    }
}

fn buttons(
    pressed: Query<(&Interaction, &UiAction), Changed<Interaction>>,
    mut game: NonSendMut<Game>,
    mut selection: ResMut<Selection>,
    mut out: MessageWriter<Applied>,
    mut restart: MessageWriter<Restart>,
    mut picker: ResMut<crate::client::picker::PickerOpen>,
    mut settings: ResMut<super::game::Settings>,
) {
    for (i, action) in &pressed {
        if *i != Interaction::Pressed {
            continue;
        }
        match action.clone() {
            UiAction::Slot(s) => {
                if game.players_turn() {
                    let mut sel = std::mem::take(&mut *selection);
                    input::activate(&mut game, &mut sel, s, &settings, &mut out);
                    *selection = sel;
                }
            }
            UiAction::Command(c) => {
                let _ = game.apply(c, &mut out);
            }
            UiAction::Surges(n) => {
                if let Some(p) = &mut selection.pending {
                    p.surges = n;
                }
            }
            UiAction::Spend(n) => {
                if let Some(p) = &mut selection.pending {
                    p.spend = n;
                }
            }
            UiAction::Confirm => {
                if let Some(p) = selection.pending.take() {
                    let cmd = input::with_choices(&p);
                    if game.apply(cmd, &mut out).is_ok() {
                        selection.aim = Aim::Move;
                    }
                }
            }
            UiAction::Cancel => selection.pending = None,
            UiAction::Yes => {
                if let Some(c) = selection.confirm.take()
                    && game.confirmed(c, &mut out)
                {
                    selection.aim = Aim::Move;
                }
            }
            UiAction::No => selection.confirm = None,
            UiAction::StopAsking => {
                settings.ask_before_ending_turn = false;
                super::saves::keep_settings(&settings);
                if let Some(c) = selection.confirm.take()
                    && game.confirmed(c, &mut out)
                {
                    selection.aim = Aim::Move;
                }
            }
            UiAction::Undo => {
                if game.undo() {
                    selection.aim = Aim::Move;
                    selection.pending = None;
                }
            }
            UiAction::Restart { same } => {
                restart.write(Restart { same, load: None });
            }
            UiAction::Menu => picker.0 = true,
        }
    }
}
