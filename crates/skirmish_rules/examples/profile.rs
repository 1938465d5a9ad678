//! Games of the benchmarks' fight played as `skirmish sim` plays a batch,
//! for profiling and for checking that a change plays the same games:
//! `cargo run --release -p skirmish_rules --example profile -- [GAMES] [HEROES] [MONSTERS] [--no-hash] [--kinds]`
//! (default 100 games of random against random, seeds 1 to GAMES;
//! `--kinds` also counts the commands of each kind a game).
//!
//! It prints the time a game, the commands and rounds a game, and a hash of
//! every game's combat log: two builds that print the same hash played the
//! same games. Under `valgrind --tool=callgrind`, with `--no-hash` (the
//! hash writes out every log), its instruction count is the README's
//! measure of a round of speed work (callgrind counts the same for the
//! same build and games, whatever else the machine is doing).

use std::hash::{DefaultHasher, Hash, Hasher};
use std::time::{Duration, Instant};

use skirmish_rules::ai::by_name;
use skirmish_rules::encounter::Encounter;
use skirmish_rules::sim::play_on;

#[path = "../benches/common/fight.rs"]
mod fight;

/// The allocator of the `skirmish` binary and the benchmarks.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let hash = !args.iter().any(|a| a == "--no-hash");
    let kinds = args.iter().any(|a| a == "--kinds");
    args.retain(|a| a != "--no-hash" && a != "--kinds");
    let mut by_kind = std::collections::BTreeMap::<String, usize>::new();
    let arg = |i: usize, d: &str| args.get(i).cloned().unwrap_or_else(|| d.to_string());
    let games: u64 = arg(0, "100").parse().expect("a number of games");
    let (heroes, monsters) = (arg(1, "random"), arg(2, "random"));
    let db = fight::content();
    let mut e = Encounter::new(db.clone(), "bench", 0).expect("the bench fight");
    let (mut played, mut commands, mut rounds) = (Duration::ZERO, 0usize, 0u64);
    let mut logs = DefaultHasher::new();
    for seed in 1..=games {
        let h = by_name(&heroes, seed, &db).expect("a brain");
        let m = by_name(&monsters, !seed, &db).expect("a brain");
        let t = Instant::now();
        e.restart(seed);
        let result = play_on(&mut e, h, m, 100_000);
        played += t.elapsed();
        assert!(result.errors.is_empty(), "seed {seed}: {:?}", result.errors);
        commands += e.replay().commands.len();
        if kinds {
            for c in &e.replay().commands {
                // The variant's name: what its debug form starts with.
                let name: String = format!("{c:?}")
                    .chars()
                    .take_while(|ch| ch.is_alphanumeric())
                    .collect();
                *by_kind.entry(name).or_default() += 1;
            }
        }
        rounds += u64::from(result.rounds);
        // Hashed outside the timing: the log's entries as they read.
        if hash {
            format!("{:?}", e.log()).hash(&mut logs);
        }
    }
    println!(
        "{games} games of {heroes} v {monsters}: {:?} a game, {} commands and {:.1} rounds a game{}",
        played / games.max(1) as u32,
        commands as u64 / games.max(1),
        rounds as f64 / games.max(1) as f64,
        if hash {
            format!(", logs hash {:016x}", logs.finish())
        } else {
            String::new()
        }
    );
    for (kind, n) in by_kind {
        println!("  {kind}: {:.1} a game", n as f64 / games.max(1) as f64);
    }
}
