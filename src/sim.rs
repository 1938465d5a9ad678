//! `skirmish sim`: many seeded games between two brains, headless, with a
//! report of win rates (with 95% confidence intervals), rounds, damage per
//! creature, ability use and heroic resource spent.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use skirmish_rules::content::ContentDb;
use skirmish_rules::sim::{SimConfig, simulate};

/// The options of `skirmish sim`.
#[derive(clap::Args, Debug)]
pub struct SimArgs {
    /// An encounter file (RON), or the id of one under assets/encounters.
    #[arg(long, value_name = "FILE")]
    pub encounter: String,
    /// The heroes' brain: random, greedy, tactical, search, or exec:COMMAND
    /// (a program speaking JSON lines: docs/python.md#external-brains).
    #[arg(long, default_value = "greedy", value_name = "BRAIN")]
    pub heroes: String,
    /// The monsters' brain.
    #[arg(long, default_value = "greedy", value_name = "BRAIN")]
    pub monsters: String,
    /// How many games (at least 1).
    #[arg(long, default_value_t = 100, value_name = "N",
          value_parser = clap::value_parser!(u32).range(1..))]
    pub games: u32,
    /// The first game's seed; game i uses seed + i.
    #[arg(long, default_value_t = 0, value_name = "S")]
    pub seed: u64,
    /// Threads to play on, at least 1 (the report is the same for any number).
    #[arg(long, default_value_t = 1, value_name = "J",
          value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: u16,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
    /// Keep each game's replay file here (RON; `skirmish replay FILE` plays
    /// one), named by the encounter and the seed.
    #[arg(long, value_name = "DIR")]
    pub replay_dir: Option<PathBuf>,
    /// Write over replays of these games already in --replay-dir (without
    /// it, finding one stops the run before any game is played).
    #[arg(long, requires = "replay_dir")]
    pub force: bool,
    /// The content folder (default: $SKIRMISH_ASSETS, else assets/ here or
    /// beside the binary).
    #[arg(long, value_name = "DIR")]
    pub assets: Option<PathBuf>,
}

/// The encounter `given` names: a file (loaded and validated as the
/// content folder's encounters are; its id may name a shipped encounter or
/// a new one), or an id, of a shipped encounter or one built and saved in
/// the user's folder. Errors are printed; the exit code is returned.
pub fn resolve_encounter(db: &mut ContentDb, given: &str) -> Result<String, ExitCode> {
    let print = |errors: &skirmish_rules::content::ContentErrors| {
        for e in &errors.0 {
            eprintln!("error: {e}");
        }
        ExitCode::from(2)
    };
    if Path::new(given).is_file() {
        return db
            .add_encounter_file(Path::new(given))
            .map_err(|e| print(&e));
    }
    if given.ends_with(".ron") || given.contains('/') {
        // A path with no file there: said as such (an id that is not known
        // is refused by the simulator, with the ids there are).
        eprintln!("error: no encounter file `{given}`");
        return Err(ExitCode::from(2));
    }
    if !db.encounters.contains_key(given)
        && let Some(file) = crate::built::file_of(given).filter(|f| f.is_file())
    {
        return db.add_encounter_file(&file).map_err(|e| print(&e));
    }
    Ok(given.to_string())
}

pub fn run(args: SimArgs, assets: &Path) -> ExitCode {
    let mut db = match ContentDb::load(assets) {
        Ok(c) => c,
        Err(errors) => {
            for e in &errors.0 {
                eprintln!("error: {e}");
            }
            return ExitCode::from(2);
        }
    };
    let encounter = match resolve_encounter(&mut db, &args.encounter) {
        Ok(id) => id,
        Err(code) => return code,
    };
    let mut cfg = SimConfig::new(
        &encounter,
        &args.heroes,
        &args.monsters,
        args.games,
        args.seed,
    );
    cfg.jobs = usize::from(args.jobs);
    cfg.replay_dir = args.replay_dir.clone();
    cfg.overwrite = args.force;
    let show = std::io::stderr().is_terminal() && !args.json;
    let progress = progress_bar(show);
    let report = match simulate(Arc::new(db), &cfg, &progress) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    if show {
        eprintln!();
    }
    print_result(&report, args.json, report.errors.is_empty())
}

/// A progress bar on standard error, drawn when `show` (a terminal, and
/// no JSON asked for), after each game.
pub fn progress_bar(show: bool) -> impl Fn(usize, usize) + Sync {
    move |done: usize, total: usize| {
        if show {
            let width = 30;
            let filled = done * width / total.max(1);
            eprint!(
                "\r[{}{}] {done}/{total} games",
                "#".repeat(filled),
                ".".repeat(width - filled)
            );
            let _ = std::io::stderr().flush();
        }
    }
}

/// Print a batch's result, as JSON or as text; exit 1 when the brains made
/// mistakes (`clean` false), 2 when it can't be written.
pub fn print_result<T: serde::Serialize + std::fmt::Display>(
    value: &T,
    json: bool,
    clean: bool,
) -> ExitCode {
    if json {
        match serde_json::to_string_pretty(value) {
            Ok(s) => println!("{s}"),
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        }
    } else {
        print!("{value}");
    }
    if clean {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
