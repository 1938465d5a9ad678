//! The load test (issue 51, point 7): seeded games of every shipped
//! encounter, random and greedy brains on either side, with the engine's
//! invariants checked after every command (`tests/common/load.rs`; the
//! test `tests/shipped.rs` plays a 500-game slice, as `load::slice_N`):
//! `CARGO_PROFILE_RELEASE_OVERFLOW_CHECKS=true cargo run --release -p skirmish_rules --example load -- [GAMES] [SEED]`.
//! Prints each failure and a summary; exits 1 on any failure.

#[path = "../tests/common/load.rs"]
mod load;

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let games: usize = args.first().map_or(10_000, |a| a.parse().expect("games"));
    let seed: u64 = args.get(1).map_or(0, |a| a.parse().expect("a seed"));
    let db = load::shipped();
    let started = std::time::Instant::now();
    let summary = load::run_games(&db, 0..games, seed);
    for f in &summary.failures {
        println!("{f}");
    }
    println!(
        "{} games of {} encounters ({} commands) from seed {seed}: {} failures, in {:.0} s",
        summary.games,
        db.encounters.len(),
        summary.commands,
        summary.failures.len(),
        started.elapsed().as_secs_f64()
    );
    if summary.failures.is_empty() {
        std::process::ExitCode::SUCCESS
    } else {
        std::process::ExitCode::FAILURE
    }
}
