//! The game client: a Bevy window on the headless rules engine. Every click
//! becomes an engine command; no rule is decided here.

mod board;
mod builder;
mod camera;
mod floating;
mod focus;
mod forecast;
mod frame_stats;
mod game;
mod hud;
mod icons;
mod input;
mod intent;
mod kiosk;
mod layout;
mod overlay;
mod picker;
mod reasons;
pub mod report;
pub(crate) mod saves;
mod screenshot;
pub mod testing;
mod theme;
mod tokens;
mod view;

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use bevy::prelude::*;
use bevy::window::{MonitorSelection, WindowMode, WindowResolution};
use bevy_ecs_tilemap::TilemapPlugin;
use skirmish_rules::RulesPlugin;
use skirmish_rules::ai;
use skirmish_rules::content::{Content, ContentDb};
use skirmish_rules::encounter::{Replay, ReplayError};
use skirmish_rules::map::Pos;

pub use game::Mode;

/// The encounter `cargo run --release` opens with: the best first fight.
pub const DEFAULT_ENCOUNTER: &str = "keep_breach";

/// Options of the game, shared by `skirmish` and `skirmish play`.
#[derive(clap::Args, Resource, Debug, Clone)]
pub struct ClientOptions {
    /// The encounter to open (an id from assets/encounters).
    #[arg(long, value_name = "ID", default_value = DEFAULT_ENCOUNTER)]
    pub encounter: String,
    /// Who plays: solo (you lead the heroes), hotseat, or demo (AI v AI).
    #[arg(long, value_enum, default_value_t = Mode::Solo)]
    pub mode: Mode,
    /// The encounter's seed (the same seed and moves replay the same fight).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The brain that plays the AI side(s): random, greedy, tactical, search,
    /// or exec:COMMAND, a program speaking docs/python.md's JSON lines.
    #[arg(long, value_name = "BRAIN", default_value = ai::DEFAULT_BRAIN)]
    pub ai: String,
    /// A kiosk: play every shipped encounter in turn, AI against AI, each
    /// with a new seed, starting again after the last.
    #[arg(long = "loop")]
    pub kiosk: bool,
    /// Open with the encounter picker showing (Esc opens it in the window).
    #[arg(long)]
    pub menu: bool,
    /// Open with the encounter builder showing (the picker's "New
    /// encounter").
    #[arg(long)]
    pub builder: bool,
    #[command(flatten)]
    pub window: WindowOptions,
    /// Before showing the fight, let the AI play at least N commands for
    /// both sides, stopping after one with a roll (for screenshots and docs).
    #[arg(long, value_name = "N")]
    pub advance: Option<u32>,
    /// With --advance: go on until it is the player's turn and this ability
    /// can be used, then aim it.
    #[arg(long, value_name = "ABILITY")]
    pub aim: Option<String>,
    /// Open a panel over the fight: `help` (F1), `end-turn` (the question
    /// End Turn asks with actions left), or `spend` (the choices before
    /// the roll of `--aim`), for screenshots and docs.
    #[arg(long, value_name = "PANEL")]
    pub open: Option<OpenPanel>,
    /// A replay file to play back (see `skirmish replay`).
    #[arg(skip)]
    pub replay: Option<Replay>,
    /// Play on from a saved fight (a replay file: its encounter, seed and
    /// commands), in the mode given.
    #[arg(long, value_name = "PATH")]
    pub load: Option<PathBuf>,
}

/// A panel `--open` shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum OpenPanel {
    Help,
    EndTurn,
    /// The surge and resource prompt of `--aim` at the hovered square.
    Spend,
}

/// Options of the window itself, which `skirmish replay` takes too (its
/// file names the encounter, the seed and every command).
#[derive(clap::Args, Debug, Clone)]
pub struct WindowOptions {
    /// Seconds between AI actions in demo mode, or replayed commands (+/- keys change it).
    #[arg(long, value_name = "SECONDS", default_value_t = 0.9)]
    pub pace: f32,
    /// Scale all text and panels (Ctrl +/- in the window).
    #[arg(long, value_name = "FACTOR", default_value_t = 1.0)]
    pub ui_scale: f32,
    /// Open full-screen (F11 toggles).
    #[arg(long)]
    pub fullscreen: bool,
    /// Window width and height in pixels.
    #[arg(long, value_name = "WxH", default_value = "1280x720", value_parser = parse_size)]
    pub size: (u32, u32),
    /// The content folder (default: $SKIRMISH_ASSETS, else assets/ here or
    /// beside the binary).
    #[arg(long, value_name = "DIR")]
    pub assets: Option<PathBuf>,
    /// Save a screenshot of the window to PATH (a .png) and exit, once the
    /// fight has been drawn; exits 2 if no picture could be saved.
    #[arg(long, value_name = "PATH")]
    pub screenshot: Option<PathBuf>,
    /// Let --screenshot and --layout-json replace a file that exists.
    #[arg(long)]
    pub force: bool,
    /// Write where the board, every panel and every text are on screen,
    /// and any text that overflows, is clipped or overlaps, to PATH (JSON)
    /// and exit (with --screenshot, after saving it).
    #[arg(long, value_name = "PATH")]
    pub layout_json: Option<PathBuf>,
    /// Print percentiles of frame time when the window closes.
    #[arg(long)]
    pub frame_stats: bool,
    /// With --screenshot or --layout-json: how many frames to draw after
    /// the fight first shows.
    #[arg(long, value_name = "N", default_value_t = 30)]
    pub after_frames: u32,
    /// Where the cursor is taken to be when there is no pointer (X,Y).
    #[arg(long, value_name = "X,Y", value_parser = parse_pos)]
    pub hover: Option<Pos>,
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
    // A window's surface is a texture: past what every GPU can make, the
    // graphics library panics rather than saying so.
    if !(1..=MAX_WINDOW_SIDE).contains(&w) || !(1..=MAX_WINDOW_SIDE).contains(&h) {
        return Err(format!(
            "`{s}`: each side from 1 to {MAX_WINDOW_SIDE} pixels (the largest window every GPU can draw)"
        ));
    }
    Ok((w, h))
}

/// The widest or tallest window `--size` takes: 8192 pixels, the texture
/// size every GPU wgpu runs on supports (8K is 7680 x 4320).
const MAX_WINDOW_SIDE: u32 = 8192;

fn parse_pos(s: &str) -> Result<Pos, String> {
    let (x, y) = s
        .split_once(',')
        .ok_or_else(|| format!("`{s}` is not X,Y"))?;
    Ok(Pos {
        x: x.trim().parse().map_err(|_| format!("bad x in `{s}`"))?,
        y: y.trim().parse().map_err(|_| format!("bad y in `{s}`"))?,
    })
}

/// Play a replay file back in the window (`skirmish replay FILE`), with
/// `advance` of its commands played before the window shows.
pub fn replay(file: &std::path::Path, window: WindowOptions, advance: Option<u32>) -> ExitCode {
    let r = match Replay::load(file) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    // Played through headless first, as `sim` and the tests replay it: a
    // replay that no longer fits the content is refused before the window
    // opens, naming the command.
    let assets = match crate::assets::find(window.assets.clone()) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    if let Ok(content) = ContentDb::load(&assets)
        && let Err(e) = r.play_file(Arc::new(content), file)
    {
        match e {
            ReplayError::File(e) => eprintln!("error: {e}"),
            e => eprintln!("error: {}: {e}", file.display()),
        }
        return ExitCode::from(2);
    }
    run(ClientOptions {
        encounter: r.encounter.clone(),
        mode: Mode::Replay,
        seed: r.seed,
        ai: ai::DEFAULT_BRAIN.into(),
        menu: false,
        builder: false,
        kiosk: false,
        window,
        advance,
        aim: None,
        open: None,
        replay: Some(r),
        load: None,
    })
}

/// The anchor square of `aim`'s placement that reaches the most targets.
fn best_anchor(g: &game::Game, aim: &str) -> Option<Pos> {
    use skirmish_rules::encounter::Command;
    g.legal
        .iter()
        .filter_map(|c| match c {
            Command::UseAreaAbility {
                ability, placement, ..
            } if ability == aim => {
                let n = g.encounter.preview(c).map_or(0, |p| p.targets.len());
                Some((n, intent::anchor(placement)?))
            }
            Command::UseAbility {
                ability, targets, ..
            } if ability == aim => {
                let t = g.encounter.creature(*targets.first()?)?;
                Some((1, t.space.pos))
            }
            _ => None,
        })
        .max_by_key(|(n, _)| *n)
        .map(|(_, p)| p)
}

/// Everything the window starts with, read and checked before any window
/// opens: the content, the icons, the fight (advanced as asked), and
/// where the pointer is taken to be.
pub(crate) struct Start {
    options: ClientOptions,
    /// The content folder.
    assets: PathBuf,
    content: Arc<ContentDb>,
    icons: icons::DecodedIcons,
    setup: game::Setup,
    game: game::Game,
    /// The last command `--advance` played, shown as it would have been.
    last: Option<game::Applied>,
    hover: Option<Pos>,
}

impl Start {
    /// Read the content and the icons, set the fight up and play
    /// `--advance`. An error comes back as the lines to print (each
    /// `error: ...`), and is exit 2.
    pub(crate) fn new(options: ClientOptions) -> Result<Start, String> {
        let error = |e: &dyn std::fmt::Display| format!("error: {e}");
        let assets = crate::assets::find(options.window.assets.clone()).map_err(|e| error(&e))?;
        let content = match ContentDb::load(&assets) {
            Ok(mut db) => {
                // Encounters built and saved in the user's folder join the
                // picker; one that fails is left out, and said.
                for p in crate::built::load_all(&mut db) {
                    eprintln!("warning: {p}");
                }
                Arc::new(db)
            }
            Err(errors) => {
                let lines: Vec<String> = errors.0.iter().map(|e| error(e)).collect();
                return Err(format!(
                    "{}\nthe content has errors; fix them or run `skirmish check`",
                    lines.join("\n")
                ));
            }
        };
        // Every token, badge, tile mark and ability has its icon (docs/art.md).
        let icons = match icons::decode(&assets, &content) {
            Ok(i) => i,
            Err(errors) => {
                let lines: Vec<String> = errors.iter().map(|e| error(e)).collect();
                return Err(format!(
                    "{}\nthe icons have errors; fix them or run `skirmish check`",
                    lines.join("\n")
                ));
            }
        };
        ai::by_name(&options.ai, 0, &content).map_err(|e| error(&e))?;
        // A save is validated as a replay is: read, then played through; a
        // command that no longer fits is named with its line and column.
        let load = match &options.load {
            Some(path) => match Replay::load(path).and_then(|r| {
                r.play_file(content.clone(), path)?;
                Ok(r)
            }) {
                Ok(r) => Some(r),
                Err(ReplayError::File(e)) => return Err(error(&e)),
                Err(e) => return Err(error(&format!("{}: {e}", path.display()))),
            },
            None => None,
        };
        let setup = game::Setup {
            encounter: load
                .as_ref()
                .map_or_else(|| options.encounter.clone(), |r| r.encounter.clone()),
            // A kiosk plays itself.
            mode: if options.kiosk {
                Mode::Demo
            } else {
                options.mode
            },
            seed: load.as_ref().map_or(options.seed, |r| r.seed),
            brain: options.ai.clone(),
            replay: options.replay.clone(),
            load,
        };
        let mut the_game = game::Game::new(content.clone(), &setup, 1).map_err(|e| error(&e))?;
        if let Some(aim) = &options.aim
            && content.ability(aim).is_none()
        {
            // People type what the ability bar shows: name the ids of
            // abilities called that.
            let mut named: Vec<&str> = content
                .abilities
                .values()
                .filter(|a| a.name.eq_ignore_ascii_case(aim.trim()))
                .map(|a| a.id.as_str())
                .collect();
            named.sort_unstable();
            return Err(error(&if named.is_empty() {
                format!("--aim {aim}: no ability with that id in the content")
            } else {
                format!(
                    "--aim {aim}: no ability with that id in the content \
                     (the id of an ability called that: {})",
                    named
                        .iter()
                        .map(|id| format!("`{id}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            }));
        }
        let last = match options.advance {
            Some(n) => game::advance(&mut the_game, n, options.aim.as_deref()),
            None => None,
        };
        // Said, not left to a screenshot to show: the fight played past
        // every chance to aim it.
        if let Some(aim) = &options.aim
            && !the_game.can_aim(aim)
        {
            eprintln!(
                "warning: --aim {aim}: none of your creatures can use it now (round {}{})",
                the_game.encounter.flow().round,
                if the_game.encounter.outcome().is_some() {
                    ", the fight is over"
                } else {
                    ""
                }
            );
        }
        // With an aim and no square given, point at its best placement (the
        // one the forecast says reaches the most targets), for screenshots.
        let hover = options
            .window
            .hover
            .or_else(|| best_anchor(&the_game, options.aim.as_deref()?));
        Ok(Start {
            options,
            assets,
            content,
            icons,
            setup,
            game: the_game,
            last,
            hover,
        })
    }

    /// Add the client (its resources and plugins) to `app`, which has
    /// Bevy's own plugins and the rules already.
    pub(crate) fn add_to(self, app: &mut App) {
        let Start {
            options,
            assets,
            content,
            icons,
            setup,
            game: the_game,
            last,
            hover,
        } = self;
        // The shipped font (with the symbols the board uses) replaces the
        // built-in one everywhere.
        if let Ok(bytes) = std::fs::read(assets.join("fonts/DejaVuSans.ttf")) {
            let mut fonts = app.world_mut().resource_mut::<Assets<Font>>();
            let _ = fonts.insert(AssetId::default(), Font::from_bytes(bytes));
        }
        app.insert_resource(Content(content))
            .insert_resource(ClearColor(Color::srgb(0.05, 0.05, 0.07)))
            .insert_resource(camera::UserScale(options.window.ui_scale.clamp(0.5, 3.0)))
            .insert_resource(icons)
            .insert_resource(game::Pace {
                delay: options.window.pace.clamp(0.05, 10.0),
                ..default()
            })
            .insert_resource(setup)
            .insert_non_send(the_game)
            .add_plugins((
                game::plugin,
                board::plugin,
                tokens::plugin,
                overlay::plugin,
                input::plugin,
                camera::plugin,
                layout::plugin,
                floating::plugin,
                hud::plugin,
                picker::plugin,
                screenshot::plugin,
                report::plugin,
                focus::plugin,
                kiosk::plugin,
                saves::plugin,
            ))
            .add_plugins((
                reasons::plugin,
                forecast::plugin,
                icons::plugin,
                builder::plugin,
            ));
        if options.window.frame_stats {
            app.add_plugins(frame_stats::plugin);
        }
        if let Some(path) = &options.window.layout_json {
            app.insert_resource(report::ReportTo {
                path: path.clone(),
                after_frames: options.window.after_frames,
                exit: options.window.screenshot.is_none(),
            });
        }
        if let Some(aim) = &options.aim {
            app.world_mut().resource_mut::<game::Selection>().aim =
                intent::Aim::Ability(aim.clone());
        }
        match options.open {
            Some(OpenPanel::Help) => {
                app.insert_resource(hud::help::HelpOpen(true));
            }
            Some(OpenPanel::EndTurn) => {
                let g = app.world().non_send::<game::Game>();
                let ask = g.encounter.active_creature().and_then(|actor| {
                    let end = skirmish_rules::encounter::Command::EndTurn { creature: actor };
                    game::confirm_for(g, &end, &game::Settings::default())
                });
                app.world_mut().resource_mut::<game::Selection>().confirm = ask;
            }
            Some(OpenPanel::Spend) => {
                let g = app.world().non_send::<game::Game>();
                let pending = (|| {
                    let actor = g.encounter.active_creature()?;
                    let aim = intent::Aim::Ability(options.aim.clone()?);
                    let at = hover?;
                    let on = g
                        .encounter
                        .occupants()
                        .into_iter()
                        .find(|o| o.space.squares().any(|q| q == at))
                        .map(|o| o.id);
                    let cmd = intent::command_at(&g.legal, actor, &aim, at, on, false)?;
                    input::spend_choice(g, &cmd)
                })();
                if pending.is_none() {
                    eprintln!("warning: --open spend: nothing to choose for --aim at that square");
                }
                app.world_mut().resource_mut::<game::Selection>().pending = pending;
            }
            None => {}
        }
        app.insert_resource(input::ForcedHover(hover));
        if options.window.screenshot.is_some() || options.window.layout_json.is_some() {
            app.insert_resource(input::IgnorePointer);
        }
        app.insert_resource(picker::PickerOpen(options.menu));
        if options.builder {
            let content = app.world().resource::<Content>().0.clone();
            let map = content
                .encounters
                .get(&options.encounter)
                .map_or(String::new(), |e| e.map.clone());
            app.insert_resource(builder::BuilderOpen(Some(builder::Draft::new(
                content, &map,
            ))));
        }
        if let Some(applied) = last {
            app.world_mut().write_message(applied);
        }
        app.insert_resource(options);
    }
}

/// Run the client until the window closes.
pub fn run(options: ClientOptions) -> ExitCode {
    if let Some(path) = &options.window.layout_json
        && let Err(e) = writable(path, options.window.force)
    {
        eprintln!("error: --layout-json {}: {e}", path.display());
        return ExitCode::from(2);
    }
    if let Some(path) = &options.window.screenshot {
        let png = path
            .extension()
            .is_some_and(|x| x.eq_ignore_ascii_case("png"));
        let why = if png {
            writable(path, options.window.force).err()
        } else {
            Some("a screenshot is saved as PNG: name a .png file".to_string())
        };
        if let Some(e) = why {
            eprintln!("error: --screenshot {}: {e}", path.display());
            return ExitCode::from(2);
        }
    }
    if (options.window.screenshot.is_some() || options.window.layout_json.is_some())
        && options.window.after_frames < 3
    {
        eprintln!(
            "error: --after-frames {}: at least 3 (the window's first frames are not drawn yet)",
            options.window.after_frames
        );
        return ExitCode::from(2);
    }
    let start = match Start::new(options) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    if let Some(missing) = no_display() {
        eprintln!("error: {missing}");
        return ExitCode::from(2);
    }
    let mut app = App::new();
    let (w, h) = start.options.window.size;
    let fullscreen = start.options.window.fullscreen;
    let assets = start.assets.clone();
    let built = quietly(|| {
        app.add_plugins(
            DefaultPlugins
                .set(WindowPlugin {
                    primary_window: Some(Window {
                        title: "Skirmish".into(),
                        resolution: WindowResolution::new(w, h),
                        mode: if fullscreen {
                            WindowMode::BorderlessFullscreen(MonitorSelection::Current)
                        } else {
                            WindowMode::Windowed
                        },
                        ..default()
                    }),
                    ..default()
                })
                .set(AssetPlugin {
                    file_path: assets.to_string_lossy().into_owned(),
                    ..default()
                }),
        )
        .add_plugins((TilemapPlugin, RulesPlugin));
    });
    if let Err(why) = built {
        eprintln!("error: {}", startup_failure(&why));
        return ExitCode::from(2);
    }
    start.add_to(&mut app);
    match app.run() {
        AppExit::Success => ExitCode::SUCCESS,
        AppExit::Error(code) => ExitCode::from(code.get()),
    }
}

/// Run `f`, catching a panic and keeping the panic hook quiet while it
/// runs: the message, if it panicked. For building the window's plugins,
/// where the engine panics on a machine it cannot draw on.
fn quietly(f: impl FnOnce()) -> Result<(), String> {
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    std::panic::set_hook(hook);
    result.map_err(|payload| {
        skirmish_rules::sim::panic_message(&*payload).unwrap_or_else(|| "no reason given".into())
    })
}

/// What to say when the window's plugins fail to build: the engine's own
/// words, and for a missing GPU what works without one.
fn startup_failure(why: &str) -> String {
    if why.contains("Unable to find a GPU") {
        format!(
            "the window found no GPU to draw with ({why}); it needs a Vulkan, Metal, \
             DirectX 12 or OpenGL driver (on Linux without a GPU, `mesa-vulkan-drivers` \
             draws in software); `skirmish sim`, `check` and `scenario` need none"
        )
    } else {
        format!("the window could not start: {why}")
    }
}

/// Why no window can open here, if none can: on Linux a window needs an X
/// or Wayland display, and without one the windowing library panics while
/// the app is built. Said as an error instead, naming what works without.
fn no_display() -> Option<String> {
    if !cfg!(target_os = "linux") {
        return None;
    }
    let set = |v: &str| std::env::var_os(v).is_some_and(|x| !x.is_empty());
    if set("DISPLAY") || set("WAYLAND_DISPLAY") || set("WAYLAND_SOCKET") {
        return None;
    }
    Some(
        "no display to open the window on (DISPLAY and WAYLAND_DISPLAY are not set); \
         `skirmish sim`, `check` and `scenario` need none, and `xvfb-run skirmish ...` \
         gives the window a virtual one"
            .into(),
    )
}

/// Whether a report can be written to `path` without losing anything: its
/// folder exists and nothing is there yet.
fn writable(path: &std::path::Path, force: bool) -> Result<(), String> {
    if path.is_dir() {
        return Err("is a folder: name a file".into());
    }
    if path.exists() && !force {
        return Err(
            "already exists (nothing is overwritten without --force; remove it or name another)"
                .into(),
        );
    }
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() && !dir.is_dir() => {
            Err(format!("no folder {}", dir.display()))
        }
        _ => Ok(()),
    }
}

/// The shipped content, for the client's tests.
#[cfg(test)]
pub(crate) fn shipped_content() -> Arc<ContentDb> {
    Arc::new(ContentDb::load(concat!(env!("CARGO_MANIFEST_DIR"), "/assets")).expect("content"))
}

/// A whole keep_breach fight on `seed`, greedy against greedy, played out
/// for the client's tests: its result and the encounter as it ended.
#[cfg(test)]
pub(crate) fn greedy_keep_breach(
    seed: u64,
) -> (
    skirmish_rules::sim::GameResult,
    skirmish_rules::encounter::Encounter,
) {
    let db = shipped_content();
    skirmish_rules::sim::play_with(
        &db,
        "keep_breach",
        seed,
        ai::by_name("greedy", 1, &db).expect("a brain"),
        ai::by_name("greedy", 2, &db).expect("a brain"),
        20_000,
    )
    .expect("keep_breach plays")
}
