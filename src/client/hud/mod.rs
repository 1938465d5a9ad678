//! The heads-up display, a plugin per panel (the bevy_new_2d habit): the
//! header and the roster in the left column, the acting creature's panel
//! and the combat log in the right one, the card and the prompts over the
//! board. Buttons carry a [`UiAction`], carried out here.

mod actor;
mod briefing;
mod card;
mod header;
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
    ))
    .add_systems(Update, buttons.after(super::input::InputSet));
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
) {
    for (i, action) in &pressed {
        if *i != Interaction::Pressed {
            continue;
        }
        match action.clone() {
            UiAction::Slot(s) => {
                if game.players_turn() {
                    let mut sel = std::mem::take(&mut *selection);
                    input::activate(&mut game, &mut sel, s, &mut out);
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
            UiAction::Restart { same } => {
                restart.write(Restart { same });
            }
            UiAction::Menu => picker.0 = true,
        }
    }
}
