//! The game client: a Bevy window on the headless rules engine.

mod board;
mod hud;
mod screenshot;

use std::path::PathBuf;
use std::process::ExitCode;

use bevy::prelude::*;
use bevy::window::WindowResolution;
use bevy_ecs_tilemap::TilemapPlugin;
use skirmish_rules::RulesPlugin;
use skirmish_rules::content::{Content, ContentDb};

/// Options of the window, shared by `skirmish` and `skirmish play`.
#[derive(clap::Args, Resource, Debug, Clone, Default)]
pub struct ClientOptions {
    /// Save a screenshot of the window to PATH and exit.
    #[arg(long, value_name = "PATH")]
    pub screenshot: Option<PathBuf>,
    /// With --screenshot: how many frames to draw first.
    #[arg(long, value_name = "N", default_value_t = 30)]
    pub after_frames: u32,
    /// The content folder.
    #[arg(long, value_name = "DIR")]
    pub assets: Option<PathBuf>,
    /// Window width and height in pixels.
    #[arg(long, value_name = "WxH", default_value = "1280x720", value_parser = parse_size)]
    pub size: (u32, u32),
}

fn parse_size(s: &str) -> Result<(u32, u32), String> {
    let (w, h) = s
        .split_once('x')
        .ok_or_else(|| format!("`{s}` is not WIDTHxHEIGHT"))?;
    let w = w
        .trim()
        .parse()
        .map_err(|_| format!("bad width in `{s}`"))?;
    let h = h
        .trim()
        .parse()
        .map_err(|_| format!("bad height in `{s}`"))?;
    Ok((w, h))
}

/// Run the client until the window closes.
pub fn run(options: ClientOptions) -> ExitCode {
    let assets = options.assets.clone().unwrap_or_else(crate::default_assets);
    let content = match ContentDb::load(&assets) {
        Ok(db) => db,
        Err(errors) => {
            for e in &errors.0 {
                eprintln!("error: {e}");
            }
            eprintln!("the content has errors; fix them or run `skirmish check`");
            return ExitCode::from(2);
        }
    };
    let mut app = App::new();
    let (w, h) = options.size;
    app.add_plugins(
        DefaultPlugins
            .set(WindowPlugin {
                primary_window: Some(Window {
                    title: "Skirmish".into(),
                    resolution: WindowResolution::new(w, h),
                    ..default()
                }),
                ..default()
            })
            .set(AssetPlugin {
                file_path: assets.to_string_lossy().into_owned(),
                ..default()
            }),
    )
    .add_plugins((TilemapPlugin, RulesPlugin))
    .insert_resource(Content(std::sync::Arc::new(content)))
    .insert_resource(ClearColor(Color::srgb(0.06, 0.06, 0.08)))
    .insert_resource(options)
    .add_plugins((board::plugin, hud::plugin, screenshot::plugin));
    match app.run() {
        AppExit::Success => ExitCode::SUCCESS,
        AppExit::Error(code) => ExitCode::from(code.get()),
    }
}
