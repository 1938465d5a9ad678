//! `skirmish check [PATH]`: validate content, print counts per kind. A
//! folder is checked whole; a file is checked as what it is: a content
//! file with the folder it belongs to, or an encounter, replay (save) or
//! scenario file from elsewhere, against the content folder.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use skirmish_rules::content::{ContentDb, ContentError, Kind, parse_ron, read_text};
use skirmish_rules::encounter::{Replay, ReplayError};
use skirmish_rules::scenario::{Scenario, ScenarioError};

pub fn run(path: Option<PathBuf>, assets: Option<PathBuf>, strict: bool) -> ExitCode {
    if strict {
        return run_strict(path, assets);
    }
    match path {
        Some(file) if file.exists() && !file.is_dir() => match content_root(&file) {
            Some(root) => check_member(&file, &root),
            None => match crate::assets::find(assets) {
                Ok(root) => check_outsider(&file, &root),
                Err(e) => crate::usage(&e),
            },
        },
        Some(dir) => check_folder(&dir),
        None => match crate::assets::find(assets) {
            Ok(root) => check_folder(&root),
            Err(e) => crate::usage(&e),
        },
    }
}

/// `check --strict`: the content folder checked, then its free text listed.
fn run_strict(path: Option<PathBuf>, assets: Option<PathBuf>) -> ExitCode {
    let root = match path {
        Some(p) if p.is_dir() => p,
        Some(p) => match content_root(&p) {
            Some(root) => root,
            None => {
                return crate::usage(&format!(
                    "--strict checks a content folder: {}",
                    p.display()
                ));
            }
        },
        None => match crate::assets::find(assets) {
            Ok(root) => root,
            Err(e) => return crate::usage(&e),
        },
    };
    match load_checked(&root) {
        Ok(db) => {
            let free = skirmish_rules::content::free_text::free_text(&db);
            for f in &free {
                println!("{f}");
            }
            if free.is_empty() {
                println!("content in {} is valid, with no free text", root.display());
                ExitCode::SUCCESS
            } else {
                println!(
                    "{} tier line segment(s) of free text in {}",
                    free.len(),
                    root.display()
                );
                ExitCode::from(1)
            }
        }
        Err(errors) => report(&errors, &root),
    }
}

/// The content folder loaded, with its icon tables checked against it
/// (docs/art.md: a class or stat block with no icon is an error). A
/// folder with no `ui/` is content for headless play only: the window
/// refuses it, naming the missing table.
pub fn load_checked(root: &Path) -> Result<ContentDb, Vec<ContentError>> {
    let db = ContentDb::load(root).map_err(|e| e.0)?;
    if !root.join("ui").is_dir() {
        return Ok(db);
    }
    let errors = crate::icons::check(root, &db);
    if errors.is_empty() {
        Ok(db)
    } else {
        Err(errors)
    }
}

fn report(errors: &[ContentError], place: &Path) -> ExitCode {
    for e in errors {
        eprintln!("error: {e}");
    }
    eprintln!("{} error(s) in {}", errors.len(), place.display());
    ExitCode::from(2)
}

fn check_folder(path: &Path) -> ExitCode {
    match load_checked(path) {
        Ok(db) => {
            println!("content in {} is valid:", path.display());
            for (kind, count) in db.counts() {
                println!("  {:<10} {count}", kind.folder());
            }
            ExitCode::SUCCESS
        }
        Err(errors) => report(&errors, path),
    }
}

/// The content folder `file` is part of: the parent of the nearest
/// enclosing folder named for a kind of content (`monsters/`, `maps/`...).
/// (The user's data folder, whose `encounters/` holds built encounters,
/// is not a content folder.)
fn content_root(file: &Path) -> Option<PathBuf> {
    let file = file.canonicalize().ok()?;
    let data = crate::client::saves::data_dir().and_then(|d| d.canonicalize().ok());
    file.ancestors().skip(1).find_map(|dir| {
        let name = dir.file_name()?.to_str()?;
        Kind::ALL
            .iter()
            .any(|k| k.folder() == name)
            .then(|| dir.parent().map(Path::to_path_buf))
            .flatten()
            .filter(|root| data.as_ref() != Some(root))
    })
}

/// A file of a content folder: the folder is loaded (ids refer across
/// files) and this file's errors are reported.
fn check_member(file: &Path, root: &Path) -> ExitCode {
    let me = file.canonicalize().unwrap_or_else(|_| file.to_path_buf());
    let (mine, others): (Vec<ContentError>, Vec<ContentError>) = match load_checked(root) {
        Ok(_) => (Vec::new(), Vec::new()),
        Err(errors) => errors
            .into_iter()
            .partition(|e| e.file.canonicalize().is_ok_and(|f| f == me)),
    };
    if !mine.is_empty() {
        return report(&mine, file);
    }
    println!("{} is valid", file.display());
    if !others.is_empty() {
        println!(
            "(the rest of {} has {} error(s): run `skirmish check {}`)",
            root.display(),
            others.len(),
            root.display()
        );
    }
    ExitCode::SUCCESS
}

/// A file from outside the content folder: an encounter, a replay or save,
/// or a scenario, whichever it parses as; each validated against the
/// content as it would be before playing.
fn check_outsider(file: &Path, root: &Path) -> ExitCode {
    let mut db = match load_checked(root) {
        Ok(db) => db,
        Err(errors) => return report(&errors, root),
    };
    let text = match read_text(file) {
        Ok(t) => t,
        Err(e) => return crate::usage(&format!("{}: {e}", file.display())),
    };
    // Whichever it parses as; a file that parses as none is reported as
    // the kind its fields suggest (an encounter unless it has steps or
    // commands).
    // (Parsed from the text already read, not read again.)
    let scenario = Scenario::parse(file, &text);
    let replay = parse_ron::<Replay>(file, &text).map_err(ReplayError::File);
    if let Ok(scenario) = scenario {
        return match scenario.check(&db) {
            Ok(()) => {
                println!("{} is a valid scenario", file.display());
                ExitCode::SUCCESS
            }
            // (Located errors name the file themselves.)
            Err(e @ ScenarioError::Setup(_)) => crate::usage(&format!("{}: {e}", file.display())),
            Err(e) => crate::usage(&e.to_string()),
        };
    }
    if let Ok(replay) = replay {
        return match replay.play_file(Arc::new(db), file) {
            Ok(e) => {
                println!(
                    "{} is a valid replay: {} commands, to round {}",
                    file.display(),
                    replay.commands.len(),
                    e.flow().round
                );
                ExitCode::SUCCESS
            }
            Err(ReplayError::File(e)) => crate::usage(&e.to_string()),
            Err(e) => crate::usage(&format!("{}: {e}", file.display())),
        };
    }
    let field = |name: &str| text.contains(&format!("{name}:"));
    if field("steps") {
        return crate::usage(&format!("{}", scenario.unwrap_err()));
    }
    if field("commands") {
        return crate::usage(&format!("{}", replay.unwrap_err()));
    }
    match db.add_encounter_file(file) {
        // Its inline stat blocks need icons as the shipped ones do.
        Ok(id) => {
            let icons = if root.join("ui").is_dir() {
                crate::icons::check(root, &db)
            } else {
                Vec::new()
            };
            if icons.is_empty() {
                println!("{} is a valid encounter (`{id}`)", file.display());
                ExitCode::SUCCESS
            } else {
                report(&icons, file)
            }
        }
        Err(errors) => report(&errors.0, file),
    }
}
