//! The `skirmish` binary: the game client (the default) and its subcommands.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use skirmish::{assets, check, client, forecast, scenario, sim, usage};

/// Simulations allocate and drop many small paths: mimalloc does that a
/// good deal faster than the system allocator (README, "Benchmarks").
#[global_allocator]
static ALLOCATOR: skirmish_rules::fast::alloc::MiMalloc = skirmish_rules::fast::alloc::MiMalloc;

/// Skirmish: a tactical combat client for grid skirmish rules of the power-roll family.
///
/// The window's options go after a subcommand that takes them (`skirmish
/// replay FILE --size 1920x1080`); given before one, they are an error
/// rather than silently unused.
#[derive(Parser, Debug)]
#[command(
    name = "skirmish",
    version,
    about,
    args_conflicts_with_subcommands = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    client: client::ClientOptions,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Open the game window (the default).
    Play(client::ClientOptions),
    /// Validate content and print counts per kind; exits 2 on any error.
    /// Given a file, check that one: a content file (with the folder it
    /// belongs to), or an encounter, replay, save or scenario file.
    Check {
        /// The content folder or a file (default: $SKIRMISH_ASSETS, else
        /// assets/ here or beside the binary).
        path: Option<PathBuf>,
        /// The content folder, for a file outside it.
        #[arg(long, value_name = "DIR")]
        assets: Option<PathBuf>,
        /// Also list every tier line's free text (words shown but not
        /// carried out), each with its file, line and column; exit 1 if
        /// there is any.
        #[arg(long)]
        strict: bool,
    },
    /// Run a scripted scenario: prints pass or fail for each expectation and
    /// exits 1 if any fails (2 if the file can't be read).
    Scenario {
        /// Scenario files (RON), or folders of them.
        files: Vec<PathBuf>,
        /// Print the final state of every creature as JSON.
        #[arg(long)]
        json: bool,
        /// The content folder (default: $SKIRMISH_ASSETS, else assets/ here or
        /// beside the binary).
        #[arg(long, value_name = "DIR")]
        assets: Option<PathBuf>,
    },
    /// Play many seeded games between two brains, headless, and report win
    /// rates, rounds, damage, ability use and resource spent. Exits 1 if a
    /// brain made a mistake (illegal command, panic), 2 on bad input.
    Sim(sim::SimArgs),
    /// How hard an encounter is: the greedy brains play it out on every
    /// core; prints the heroes' win rate with its 95% interval, the rounds,
    /// who is most likely to fall, and the encounter value against the
    /// party's budget. Exits 2 on bad input.
    Forecast(forecast::ForecastArgs),
    /// Play a replay file (written by `skirmish sim --replay-dir`) back in
    /// the window, at the demo pace (Space pauses, N steps, +/- speed).
    Replay {
        /// The replay file (RON: encounter, seed and commands).
        file: PathBuf,
        #[command(flatten)]
        window: client::WindowOptions,
        /// Play the first N commands of the replay before the window shows
        /// (then on to the next that rolls), for screenshots and docs.
        #[arg(long, value_name = "N")]
        advance: Option<u32>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Check {
            path,
            assets,
            strict,
        }) => check::run(path, assets, strict),
        Some(Command::Play(options)) => client::run(options),
        Some(Command::Scenario {
            files,
            json,
            assets,
        }) => match assets::find(assets) {
            Ok(assets) => scenario::run(&files, json, &assets),
            Err(e) => usage(&e),
        },
        Some(Command::Sim(args)) => match assets::find(args.assets.clone()) {
            Ok(assets) => sim::run(args, &assets),
            Err(e) => usage(&e),
        },
        Some(Command::Forecast(args)) => match assets::find(args.assets.clone()) {
            Ok(assets) => forecast::run(args, &assets),
            Err(e) => usage(&e),
        },
        Some(Command::Replay {
            file,
            window,
            advance,
        }) => client::replay(&file, window, advance),
        None => client::run(cli.client),
    }
}
