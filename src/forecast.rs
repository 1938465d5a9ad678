//! `skirmish forecast`: how hard an encounter is, before playing it — the
//! greedy brains play it out on every core (docs/balance.md), beside its
//! encounter value against the party's budget.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use skirmish_rules::content::ContentDb;
use skirmish_rules::sim::forecast::{self, DEFAULT_GAMES};

/// The options of `skirmish forecast`.
#[derive(clap::Args, Debug)]
pub struct ForecastArgs {
    /// An encounter file (RON), or the id of one (shipped, or built and
    /// saved in your folder).
    #[arg(value_name = "ENCOUNTER")]
    pub encounter: String,
    /// How many games (at least 1).
    #[arg(long, default_value_t = DEFAULT_GAMES, value_name = "N",
          value_parser = clap::value_parser!(u32).range(1..))]
    pub games: u32,
    /// Threads to play on (default: every core).
    #[arg(long, value_name = "J",
          value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: Option<u16>,
    /// Print the forecast as JSON.
    #[arg(long)]
    pub json: bool,
    /// The content folder (default: $SKIRMISH_ASSETS, else assets/ here or
    /// beside the binary).
    #[arg(long, value_name = "DIR")]
    pub assets: Option<PathBuf>,
}

pub fn run(args: ForecastArgs, assets: &Path) -> ExitCode {
    let mut db = match ContentDb::load(assets) {
        Ok(c) => c,
        Err(errors) => {
            for e in &errors.0 {
                eprintln!("error: {e}");
            }
            return ExitCode::from(2);
        }
    };
    let encounter = match crate::sim::resolve_encounter(&mut db, &args.encounter) {
        Ok(id) => id,
        Err(code) => return code,
    };
    if !db.encounters.contains_key(&encounter) {
        let known: Vec<&str> = db.encounters.keys().map(String::as_str).collect();
        eprintln!(
            "error: no encounter `{encounter}` (known: {})",
            known.join(", ")
        );
        return ExitCode::from(2);
    }
    let jobs = args.jobs.map_or_else(forecast::all_cores, usize::from);
    let show = std::io::stderr().is_terminal() && !args.json;
    let progress = crate::sim::progress_bar(show);
    let result = forecast::forecast(Arc::new(db), &encounter, args.games, jobs, &progress, None);
    if show {
        eprintln!();
    }
    let f = match result {
        Ok(f) => f,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    crate::sim::print_result(&f, args.json, f.errors.is_empty())
}
