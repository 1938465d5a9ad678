//! `--screenshot PATH --after-frames N`: save the window to a PNG and exit.

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured, save_to_disk};

use super::ClientOptions;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, take_screenshot);
}

fn take_screenshot(mut commands: Commands, options: Res<ClientOptions>, mut frames: Local<u32>) {
    let Some(path) = options.window.screenshot.clone() else {
        return;
    };
    *frames += 1;
    if *frames != options.window.after_frames.max(1) {
        return;
    }
    commands
        .spawn(Screenshot::primary_window())
        .observe(save_to_disk(path))
        .observe(
            |_: On<ScreenshotCaptured>, mut exit: MessageWriter<AppExit>| {
                exit.write(AppExit::Success);
            },
        );
}
