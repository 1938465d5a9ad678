//! Saved fights and settings, in the user's data folder: F5 saves the
//! fight (the replay format: its seed and accepted commands), the picker
//! lists the saves and loads them, and quitting mid-fight autosaves.
//!
//! The folder is `$SKIRMISH_DATA`, else `$XDG_DATA_HOME/skirmish`, else
//! `~/.local/share/skirmish` (`%APPDATA%\skirmish` on Windows). A save is
//! written beside its final name and renamed into place, so a crash while
//! saving never leaves half a file, and no save ever touches another.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use bevy::prelude::*;
use skirmish_rules::content::ContentDb;
use skirmish_rules::encounter::{Replay, ReplayError};

use super::game::{Game, Mode, Settings};

pub(super) fn plugin(app: &mut App) {
    app.insert_resource(read_settings())
        .add_systems(Update, save_key.after(super::input::InputSet))
        // After the window plugin turns a closed window into an exit.
        .add_systems(Last, autosave_on_quit.after(bevy::window::ExitSystems));
}

/// The autosave's file name, in the saves folder.
pub const AUTOSAVE: &str = "autosave.ron";

/// The user's data folder for Skirmish, if the system names one.
pub fn data_dir() -> Option<PathBuf> {
    let var = |k: &str| {
        std::env::var_os(k)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    if let Some(d) = var("SKIRMISH_DATA") {
        return Some(d);
    }
    if let Some(d) = var("XDG_DATA_HOME") {
        return Some(d.join("skirmish"));
    }
    if cfg!(windows)
        && let Some(d) = var("APPDATA")
    {
        return Some(d.join("skirmish"));
    }
    var("HOME").map(|h| h.join(".local/share/skirmish"))
}

/// Where saves go.
pub fn saves_dir() -> Option<PathBuf> {
    data_dir().map(|d| d.join("saves"))
}

/// Write `text` to `file` whole or not at all: into a sibling first, then
/// renamed over it.
fn write_whole(file: &Path, text: &str) -> std::io::Result<()> {
    if let Some(dir) = file.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let mut partial = file.as_os_str().to_owned();
    partial.push(".partial");
    let partial = PathBuf::from(partial);
    std::fs::write(&partial, text)?;
    std::fs::rename(&partial, file).inspect_err(|_| {
        let _ = std::fs::remove_file(&partial);
    })
}

/// Save `replay` as a new file in `dir`, named for its encounter and the
/// time (`keep_breach-2026-11-28-0512.ron`, with `-2` and so on when that
/// name is taken). Returns the file written.
pub fn save_new(dir: &Path, replay: &Replay, now: SystemTime) -> std::io::Result<PathBuf> {
    let stamp = date_time(now).replace([' ', ':'], "-");
    let base: String = replay
        .encounter
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let mut file = dir.join(format!("{base}-{stamp}.ron"));
    let mut n = 2;
    while file.exists() {
        file = dir.join(format!("{base}-{stamp}-{n}.ron"));
        n += 1;
    }
    write_whole(&file, &replay.to_ron())?;
    Ok(file)
}

/// Write the autosave in `dir`, replacing the last one.
pub fn autosave(dir: &Path, replay: &Replay) -> std::io::Result<PathBuf> {
    let file = dir.join(AUTOSAVE);
    write_whole(&file, &replay.to_ron())?;
    Ok(file)
}

/// Read a save and play it through: the replay to load, or what is wrong
/// with it in one line (a broken file by its line and column, a command
/// that no longer fits the content by where the file gives it).
pub fn read_save(file: &Path, content: &Arc<ContentDb>) -> Result<(Replay, u32, bool), String> {
    let replay = Replay::load(file).map_err(|e| e.to_string())?;
    match replay.play_file(content.clone(), file) {
        Ok(e) => Ok((replay, e.flow().round, e.outcome().is_some())),
        Err(ReplayError::File(e)) => Err(e.to_string()),
        Err(e) => Err(format!("{}: {e}", file.display())),
    }
}

/// One file in the saves folder, as the picker lists it.
#[derive(Clone, Debug)]
pub struct SaveInfo {
    pub path: PathBuf,
    /// The autosave written when the window closed mid-fight.
    pub autosave: bool,
    /// What the picker shows: the encounter, round and date, or the error.
    pub title: String,
    /// Why it can't be loaded (a broken file, a command that no longer
    /// fits), if it can't.
    pub problem: Option<String>,
    modified: SystemTime,
}

/// The saves in `dir`, the autosave first, then the newest first. A file
/// that can't be loaded is listed with its error, never hidden or removed.
pub fn list(dir: &Path, content: &Arc<ContentDb>) -> Vec<SaveInfo> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out: Vec<SaveInfo> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "ron") && p.is_file())
        .map(|path| {
            let modified = std::fs::metadata(&path)
                .and_then(|m| m.modified())
                .unwrap_or(UNIX_EPOCH);
            let autosave = path.file_name().is_some_and(|n| n == AUTOSAVE);
            let when = date_time(modified);
            let (title, problem) = match read_save(&path, content) {
                Ok((r, round, over)) => {
                    let name = content
                        .encounters
                        .get(&r.encounter)
                        .map_or(r.encounter.clone(), |d| d.name.clone());
                    let state = if over {
                        "fight over".to_string()
                    } else {
                        format!("round {round}")
                    };
                    (format!("{name} · {state} · {when}"), None)
                }
                Err(e) => {
                    let name = path.file_name().unwrap_or_default().to_string_lossy();
                    (format!("{name} · {when}"), Some(e))
                }
            };
            SaveInfo {
                path,
                autosave,
                title,
                problem,
                modified,
            }
        })
        .collect();
    out.sort_by(|a, b| {
        b.autosave
            .cmp(&a.autosave)
            .then(b.modified.cmp(&a.modified))
            .then(a.path.cmp(&b.path))
    });
    out
}

/// `t` as "2026-11-28 05:12" (UTC).
pub fn date_time(t: SystemTime) -> String {
    let secs = t
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64);
    let (days, rest) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Howard Hinnant's days-to-civil.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}",
        rest / 3_600,
        rest % 3_600 / 60
    )
}

/// Whether this fight is one a person plays and may want back: solo or
/// hot-seat, begun and not over.
fn worth_keeping(game: &Game) -> bool {
    matches!(game.mode, Mode::Solo | Mode::Hotseat)
        && game.encounter.outcome().is_none()
        && !game.encounter.replay().commands.is_empty()
}

/// F5: save the fight, and say where (or why not).
fn save_key(keys: Res<ButtonInput<KeyCode>>, mut game: NonSendMut<Game>) {
    if !keys.just_pressed(KeyCode::F5) {
        return;
    }
    let words = if matches!(game.mode, Mode::Replay) {
        "Nothing to save: this is a replay (its file is the save)".to_string()
    } else {
        match saves_dir() {
            None => "Can't save: no data folder (set SKIRMISH_DATA or HOME)".to_string(),
            Some(dir) => match save_new(&dir, game.encounter.replay(), SystemTime::now()) {
                Ok(file) => format!("Saved: {}", file.display()),
                Err(e) => format!("Can't save in {}: {e}", dir.display()),
            },
        }
    };
    game.say(words);
}

/// When the window closes on a fight still going, keep it for "Continue".
fn autosave_on_quit(
    mut exits: MessageReader<AppExit>,
    game: NonSend<Game>,
    options: Option<Res<super::ClientOptions>>,
    mut done: Local<bool>,
) {
    if exits.read().last().is_none() || *done {
        return;
    }
    *done = true;
    // A screenshot or layout run leaves the user's folder alone.
    if options.is_some_and(|o| o.window.screenshot.is_some() || o.window.layout_json.is_some()) {
        return;
    }
    if !worth_keeping(&game) {
        return;
    }
    if let Some(dir) = saves_dir() {
        match autosave(&dir, game.encounter.replay()) {
            Ok(file) => info!("autosaved the fight to {}", file.display()),
            Err(e) => warn!("could not autosave in {}: {e}", dir.display()),
        }
    }
}

/// The settings file.
fn settings_file() -> Option<PathBuf> {
    data_dir().map(|d| d.join("settings.ron"))
}

/// The saved settings, or the defaults (a broken file is named in the
/// log and left alone until the settings change).
pub fn read_settings() -> Settings {
    let Some(file) = settings_file().filter(|f| f.is_file()) else {
        return Settings::default();
    };
    match std::fs::read_to_string(&file)
        .map_err(|e| e.to_string())
        .and_then(|t| ron::from_str::<Settings>(&t).map_err(|e| e.to_string()))
    {
        Ok(s) => s,
        Err(e) => {
            warn!("{}: {e} (using the default settings)", file.display());
            Settings::default()
        }
    }
}

/// Keep `settings` for the next run.
pub fn keep_settings(settings: &Settings) {
    let Some(file) = settings_file() else {
        return;
    };
    let text =
        ron::ser::to_string_pretty(settings, ron::ser::PrettyConfig::default()).unwrap_or_default();
    if let Err(e) = write_whole(&file, &text) {
        warn!("could not keep the settings in {}: {e}", file.display());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::client::shipped_content as content;
    use skirmish_rules::ai;
    use skirmish_rules::encounter::Encounter;

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("skirmish-saves-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        d
    }

    #[test]
    fn dates_are_civil_utc() {
        assert_eq!(date_time(UNIX_EPOCH), "1970-01-01 00:00");
        let t = UNIX_EPOCH + std::time::Duration::from_secs(1_795_842_720);
        assert_eq!(date_time(t), "2026-11-28 05:12");
        let leap = UNIX_EPOCH + std::time::Duration::from_secs(951_782_400);
        assert_eq!(date_time(leap), "2000-02-29 00:00");
    }

    // Issue 50 point 5: save at command k of every shipped encounter, load,
    // and play on to the same log as the unsaved fight.
    #[test]
    fn a_save_of_every_encounter_loads_and_plays_on_to_the_same_log() {
        let content = content();
        let dir = scratch("every");
        for id in content.encounters.keys() {
            let mut whole = Encounter::new(content.clone(), id, 11).unwrap();
            let mut brain = ai::by_name("greedy", 11, &content).unwrap();
            for _ in 0..2_000 {
                let legal = whole.legal_actions();
                if legal.is_empty() || whole.outcome().is_some() {
                    break;
                }
                let c = brain.choose(&whole, &legal);
                whole.apply(c).unwrap();
            }
            let all = whole.replay().commands.clone();
            assert!(all.len() > 4, "{id}: a fight of some length");
            let k = all.len() / 3;
            let mut early = Encounter::new(content.clone(), id, 11).unwrap();
            for c in &all[..k] {
                early.apply(c.clone()).unwrap();
            }
            let file = save_new(&dir, early.replay(), SystemTime::now()).unwrap();
            let (loaded, round, over) = read_save(&file, &content).unwrap();
            assert_eq!(round, early.flow().round, "{id}");
            assert!(!over);
            let setup = crate::client::game::Setup {
                encounter: loaded.encounter.clone(),
                mode: Mode::Hotseat,
                seed: loaded.seed,
                brain: ai::DEFAULT_BRAIN.into(),
                replay: None,
                load: Some(loaded),
            };
            let mut game = Game::new(content.clone(), &setup, 1).unwrap();
            for c in &all[k..] {
                game.encounter.apply(c.clone()).unwrap();
            }
            assert_eq!(game.encounter.log(), whole.log(), "{id}: the same log");
            assert_eq!(game.encounter.replay(), whole.replay());
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    // A broken or truncated save is named with its line and column, listed
    // with that error, and never takes the other saves with it.
    #[test]
    fn a_broken_save_is_listed_with_where_it_breaks_and_the_rest_still_load() {
        let content = content();
        let dir = scratch("broken");
        let mut e = Encounter::new(content.clone(), "keep_breach", 3).unwrap();
        for _ in 0..6 {
            let first = e.legal_actions().into_iter().next().unwrap();
            e.apply(first).unwrap();
        }
        let good = save_new(&dir, e.replay(), SystemTime::now()).unwrap();
        let text = std::fs::read_to_string(&good).unwrap();
        let cut = dir.join("cut.ron");
        std::fs::write(&cut, &text[..text.len() / 2]).unwrap();
        // A second save at the same minute gets a name of its own.
        let again = save_new(&dir, e.replay(), SystemTime::now()).unwrap();
        assert_ne!(again, good);
        let listed = list(&dir, &content);
        assert_eq!(listed.len(), 3);
        let broken = listed.iter().find(|s| s.path == cut).unwrap();
        let why = broken.problem.as_deref().unwrap();
        assert!(why.contains("cut.ron:"), "{why}");
        assert!(
            why.split(':')
                .nth(1)
                .is_some_and(|l| l.trim().parse::<u32>().is_ok()),
            "a line number: {why}"
        );
        for s in listed.iter().filter(|s| s.path != cut) {
            assert_eq!(s.problem, None, "{}", s.title);
            assert!(s.title.starts_with("Keep Breach") || s.title.contains("round"));
        }
        // The autosave comes first in the list.
        autosave(&dir, e.replay()).unwrap();
        assert!(list(&dir, &content)[0].autosave);
        assert_eq!(std::fs::read_to_string(&good).unwrap(), text, "untouched");
        let _ = std::fs::remove_dir_all(&dir);
    }

    // A save whose command the content no longer takes says which.
    #[test]
    fn a_save_that_no_longer_fits_names_the_refused_command() {
        let content = content();
        let dir = scratch("refused");
        let mut e = Encounter::new(content.clone(), "keep_breach", 3).unwrap();
        let first = e.legal_actions().into_iter().next().unwrap();
        e.apply(first).unwrap();
        let mut r = e.replay().clone();
        r.commands
            .push(skirmish_rules::encounter::Command::EndTurn {
                creature: skirmish_rules::stats::CreatureId(99),
            });
        let file = autosave(&dir, &r).unwrap();
        let why = read_save(&file, &content).unwrap_err();
        assert!(why.contains("command 1"), "{why}");
        assert!(why.contains("refused"), "{why}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
