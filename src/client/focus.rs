//! The window takes the keyboard when it opens. With a window manager it
//! is given it; without one (a kiosk box, Xvfb) nothing gives it, and
//! every key went unheard. On X11 the window asks the server for the input
//! focus itself, once, as soon as it is mapped.

use bevy::prelude::*;
use bevy::window::{PrimaryWindow, RawHandleWrapper};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, take_focus);
}

fn take_focus(
    window: Query<(&Window, &RawHandleWrapper), With<PrimaryWindow>>,
    mut tries: Local<u32>,
) {
    let Ok((w, handle)) = window.single() else {
        return;
    };
    // Asked every few frames until it has it (the server refuses focus to
    // a window not yet mapped, and a busy machine maps it late), for the
    // first few hundred frames only: after that the player has chosen
    // another window.
    if w.focused || *tries >= 600 {
        return;
    }
    *tries += 1;
    if *tries % 10 != 1 {
        return;
    }
    #[cfg(target_os = "linux")]
    x11::focus(handle.get_window_handle());
    #[cfg(not(target_os = "linux"))]
    let _ = handle;
}

#[cfg(target_os = "linux")]
mod x11 {
    use raw_window_handle::RawWindowHandle;
    use x11rb::CURRENT_TIME;
    use x11rb::connection::Connection;
    use x11rb::protocol::xproto::{ConnectionExt, InputFocus};

    /// Give the keyboard to `handle`'s X11 window (nothing on Wayland).
    pub fn focus(handle: RawWindowHandle) {
        let id = match handle {
            RawWindowHandle::Xlib(h) => h.window as u32,
            RawWindowHandle::Xcb(h) => h.window.get(),
            _ => return,
        };
        let Ok((conn, _)) = x11rb::connect(None) else {
            return;
        };
        if conn
            .set_input_focus(InputFocus::PARENT, id, CURRENT_TIME)
            .is_ok()
        {
            let _ = conn.flush();
        }
    }
}
