//! Playing the window in a test as a person does: the client's own app,
//! built with the same plugins as the window but headless (no GPU, no
//! window system: the panels and text are laid out, nothing is drawn),
//! driven frame by frame through input messages (the pointer moved, a
//! button pressed, a key), and read back as the player would see it: the
//! texts on screen with their rectangles, the layout report
//! (`--layout-json`'s), the engine's state. Bevy's
//! `tests/how_to_test_apps.rs` is the model; `tests/playtest.rs` and
//! `tests/layout.rs` use it.
//!
//! Time moves a fixed step a frame, so a test is the same on a busy
//! machine as on a quiet one.

use std::sync::Arc;
use std::time::Duration;

use bevy::input::ButtonState;
use bevy::input::keyboard::{Key, KeyboardInput};
use bevy::input::mouse::MouseButtonInput;
use bevy::prelude::*;
use bevy::render::RenderPlugin;
use bevy::render::settings::{RenderCreation, WgpuSettings};
use bevy::time::TimeUpdateStrategy;
use bevy::window::{CursorMoved, PrimaryWindow, WindowResolution};
use clap::Parser;
use skirmish_rules::RulesPlugin;
use skirmish_rules::encounter::Encounter;

use super::report::Report;
use super::{ClientOptions, Start};

/// The window's command line, parsed as `skirmish` parses it.
#[derive(Parser)]
#[command(name = "skirmish")]
struct Args {
    #[command(flatten)]
    client: ClientOptions,
}

/// A step of the clock each frame: a frame at 60 a second.
pub const FRAME: Duration = Duration::from_micros(16_667);

/// A text on screen: its words, and where it is in window pixels.
#[derive(Clone, Debug)]
pub struct Shown {
    pub text: String,
    pub rect: Rect,
    /// The panel it is in (its nearest named node), or `board` for a text
    /// over the map.
    pub panel: String,
}

/// The client's app, headless, with a pointer and a keyboard.
pub struct Playtest {
    app: App,
    window: Entity,
    cursor: Vec2,
}

impl Playtest {
    /// The client as `skirmish ARGS...` would open it (the window's options:
    /// `--size`, `--encounter`, `--mode`, `--advance`, `--ui-scale`, ...).
    pub fn new(args: &[&str]) -> Result<Playtest, String> {
        let parsed = Args::try_parse_from(std::iter::once("skirmish").chain(args.iter().copied()))
            .map_err(|e| e.to_string())?;
        let start = Start::new(parsed.client)?;
        let (w, h) = start.options.window.size;
        let mut app = App::new();
        app.add_plugins(
            DefaultPlugins
                .build()
                .disable::<bevy::winit::WinitPlugin>()
                .disable::<bevy::log::LogPlugin>()
                .disable::<bevy::app::TerminalCtrlCHandlerPlugin>()
                .set(WindowPlugin {
                    primary_window: Some(Window {
                        title: "Skirmish".into(),
                        resolution: WindowResolution::new(w, h).with_scale_factor_override(1.0),
                        ..default()
                    }),
                    exit_condition: bevy::window::ExitCondition::DontExit,
                    close_when_requested: false,
                    ..default()
                })
                .set(AssetPlugin {
                    file_path: start.assets.to_string_lossy().into_owned(),
                    ..default()
                })
                .set(RenderPlugin {
                    render_creation: RenderCreation::from(WgpuSettings {
                        backends: None,
                        ..default()
                    }),
                    ..default()
                }),
        )
        .add_plugins(RulesPlugin)
        .insert_resource(TimeUpdateStrategy::ManualDuration(FRAME));
        start.add_to(&mut app);
        let window = app
            .world_mut()
            .query_filtered::<Entity, With<PrimaryWindow>>()
            .single(app.world())
            .map_err(|e| format!("no window: {e}"))?;
        let mut t = Playtest {
            app,
            window,
            cursor: Vec2::new(-1.0, -1.0),
        };
        // The first frames set the fight up and lay it out.
        t.frames(3);
        Ok(t)
    }

    /// Run `n` frames.
    pub fn frames(&mut self, n: u32) {
        for _ in 0..n {
            self.app.update();
        }
    }

    /// Run frames until `done` holds (at most `limit`); whether it did.
    pub fn until(&mut self, limit: u32, mut done: impl FnMut(&mut Playtest) -> bool) -> bool {
        for _ in 0..limit {
            if done(self) {
                return true;
            }
            self.app.update();
        }
        done(self)
    }

    pub fn world(&self) -> &World {
        self.app.world()
    }

    pub fn world_mut(&mut self) -> &mut World {
        self.app.world_mut()
    }

    /// The fight as the engine has it.
    pub fn encounter(&self) -> &Encounter {
        &self.app.world().non_send::<super::game::Game>().encounter
    }

    /// The labels the acting creature's ability bar is made with ("[1]
    /// Quelling Palm", then the basic actions' "[T] Free Strike"...), in
    /// the bar's order, as the client's slots give them: what a test
    /// expects to find drawn.
    pub fn ability_labels(&self) -> Vec<String> {
        let game = self.app.world().non_send::<super::game::Game>();
        let Some(id) = game.encounter.active_creature() else {
            return Vec::new();
        };
        super::intent::slots(&game.encounter, &game.legal, id)
            .into_iter()
            .map(|s| {
                let key = s.key.label().map_or(String::new(), |k| format!("[{k}] "));
                format!("{key}{}", s.label)
            })
            .collect()
    }

    /// The window's size in pixels.
    pub fn size(&self) -> Vec2 {
        let w = self
            .app
            .world()
            .get::<Window>(self.window)
            .expect("the window");
        Vec2::new(w.physical_width() as f32, w.physical_height() as f32)
    }

    /// Make the window `w` by `h` pixels (as a person dragging its edge).
    pub fn resize(&mut self, w: u32, h: u32) {
        let mut window = self
            .app
            .world_mut()
            .get_mut::<Window>(self.window)
            .expect("the window");
        window.resolution.set_physical_resolution(w, h);
        self.frames(2);
    }

    /// Move the pointer to `at` (window pixels from the top left), as a
    /// mouse does: the window's cursor and the message the pointer reads.
    pub fn point(&mut self, at: Vec2) {
        let delta = at - self.cursor;
        self.cursor = at;
        let window = self.window;
        let world = self.app.world_mut();
        if let Some(mut w) = world.get_mut::<Window>(window) {
            w.set_physical_cursor_position(Some(at.as_dvec2()));
        }
        world.write_message(CursorMoved {
            window,
            position: at,
            delta: Some(delta),
        });
        self.frames(1);
    }

    /// The pointer leaves the window (parked off it, as a room's pointer is).
    pub fn leave(&mut self) {
        let window = self.window;
        if let Some(mut w) = self.app.world_mut().get_mut::<Window>(window) {
            w.set_physical_cursor_position(None);
        }
        self.cursor = Vec2::new(-1.0, -1.0);
        self.frames(1);
    }

    fn button(&mut self, button: MouseButton, state: ButtonState) {
        let window = self.window;
        self.app.world_mut().write_message(MouseButtonInput {
            button,
            state,
            window,
        });
        self.frames(1);
    }

    /// Click the left button where the pointer is.
    pub fn click(&mut self) {
        self.button(MouseButton::Left, ButtonState::Pressed);
        self.button(MouseButton::Left, ButtonState::Released);
    }

    /// Click the right button where the pointer is.
    pub fn right_click(&mut self) {
        self.button(MouseButton::Right, ButtonState::Pressed);
        self.button(MouseButton::Right, ButtonState::Released);
    }

    /// Move to `at` and click there.
    pub fn click_at(&mut self, at: Vec2) {
        self.point(at);
        self.click();
    }

    fn key_event(&mut self, key: KeyCode, state: ButtonState) {
        let window = self.window;
        let logical = match key {
            KeyCode::Enter => Key::Enter,
            KeyCode::Escape => Key::Escape,
            KeyCode::Space => Key::Space,
            KeyCode::Tab => Key::Tab,
            _ => Key::Unidentified(bevy::input::keyboard::NativeKey::Unidentified),
        };
        self.app.world_mut().write_message(KeyboardInput {
            key_code: key,
            logical_key: logical,
            state,
            text: None,
            repeat: false,
            window,
        });
        self.frames(1);
    }

    /// Press and let go of `key`.
    pub fn press(&mut self, key: KeyCode) {
        self.key_event(key, ButtonState::Pressed);
        self.key_event(key, ButtonState::Released);
    }

    /// Press `key` with `held` down (Ctrl+Z: `chord(KeyCode::ControlLeft, KeyCode::KeyZ)`).
    pub fn chord(&mut self, held: KeyCode, key: KeyCode) {
        self.key_event(held, ButtonState::Pressed);
        self.press(key);
        self.key_event(held, ButtonState::Released);
    }

    /// Where everything is on screen and what is wrong with it.
    pub fn report(&mut self) -> Report {
        super::report::compute(self.app.world_mut()).expect("a laid-out window")
    }

    /// Every text on screen: the panels' (shown inside every clip) and
    /// those over the board.
    pub fn texts(&mut self) -> Vec<Shown> {
        let report = self.report();
        let mut out: Vec<Shown> = report
            .texts
            .iter()
            .filter(|t| t.shown.w > 0.5 && t.shown.h > 0.5)
            .map(|t| Shown {
                text: t.text.clone(),
                rect: Rect::new(
                    t.shown.x,
                    t.shown.y,
                    t.shown.x + t.shown.w,
                    t.shown.y + t.shown.h,
                ),
                panel: t.panel.clone(),
            })
            .collect();
        out.extend(report.board_texts.iter().map(|t| Shown {
            text: t.text.clone(),
            rect: Rect::new(t.rect.x, t.rect.y, t.rect.x + t.rect.w, t.rect.y + t.rect.h),
            panel: "board".into(),
        }));
        out
    }

    /// The first text on screen holding `words`, if any.
    pub fn find(&mut self, words: &str) -> Option<Shown> {
        self.texts().into_iter().find(|t| t.text.contains(words))
    }

    /// Click the middle of the first text on screen holding `words`
    /// (a button's label); whether there was one.
    pub fn click_text(&mut self, words: &str) -> bool {
        match self.find(words) {
            Some(t) => {
                self.click_at(t.rect.center());
                true
            }
            None => false,
        }
    }
}

/// The shipped content's folder, for tests that build content of their own.
pub fn assets() -> Arc<std::path::PathBuf> {
    Arc::new(std::path::PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/assets"
    )))
}
