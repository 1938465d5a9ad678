//! `--screenshot PATH --after-frames N`: save the window to a PNG and exit,
//! with an error exit (2) whenever no picture was saved.

use std::path::PathBuf;

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured};

use super::ClientOptions;
use super::report::{FightFrames, ready};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Last, take_screenshot);
}

/// Taken on the frame a layout report would be written (both wait for
/// the fight to show and the window to take the keyboard), so the two
/// show the same moment.
fn take_screenshot(
    mut commands: Commands,
    options: Res<ClientOptions>,
    fight_frames: Res<FightFrames>,
    window: Single<&Window, With<bevy::window::PrimaryWindow>>,
    mut taken: Local<bool>,
) {
    let Some(path) = options.window.screenshot.clone() else {
        return;
    };
    if *taken || !ready(&fight_frames, options.window.after_frames, window.focused) {
        return;
    }
    *taken = true;
    commands.spawn(Screenshot::primary_window()).observe(
        move |captured: On<ScreenshotCaptured>, mut exit: MessageWriter<AppExit>| match save(
            &path,
            captured.image.clone(),
        ) {
            Ok(()) => {
                exit.write(AppExit::Success);
            }
            Err(e) => {
                eprintln!("error: --screenshot {}: {e}", path.display());
                exit.write(AppExit::from_code(2));
            }
        },
    );
}

/// Write the picture as PNG (without the alpha channel, which holds
/// brightness when HDR is on); a half-written file is removed.
fn save(path: &PathBuf, image: Image) -> Result<(), String> {
    let picture = image
        .try_into_dynamic()
        .map_err(|e| format!("the window could not be read back: {e}"))?;
    picture.to_rgb8().save(path).map_err(|e| {
        let _ = std::fs::remove_file(path);
        format!("the picture could not be saved: {e}")
    })
}
