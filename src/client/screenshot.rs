//! `--screenshot PATH --after-frames N`: save the window to a PNG and exit.

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured, save_to_disk};

use super::ClientOptions;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, take_screenshot);
}

/// Taken on the frame a layout report would be written (both wait for
/// the window to take the keyboard), so the two show the same moment.
fn take_screenshot(
    mut commands: Commands,
    options: Res<ClientOptions>,
    window: Single<&Window, With<bevy::window::PrimaryWindow>>,
    mut frames: Local<(u32, bool)>,
) {
    let Some(path) = options.window.screenshot.clone() else {
        return;
    };
    let (count, taken) = &mut *frames;
    *count += 1;
    if *taken || !super::report::ready(*count, options.window.after_frames, window.focused) {
        return;
    }
    *taken = true;
    commands
        .spawn(Screenshot::primary_window())
        .observe(save_to_disk(path))
        .observe(
            |_: On<ScreenshotCaptured>, mut exit: MessageWriter<AppExit>| {
                exit.write(AppExit::Success);
            },
        );
}
