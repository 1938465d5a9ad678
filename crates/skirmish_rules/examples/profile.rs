//! Games of the benchmarks' fight played as `skirmish sim` plays a batch,
//! for profiling and for checking that a change plays the same games:
//! `cargo run --release -p skirmish_rules --example profile -- [GAMES] [HEROES] [MONSTERS] [--no-hash] [--kinds] [--times]`
//! (default 100 games of random against random, seeds 1 to GAMES;
//! `--kinds` also counts the commands of each kind a game; `--times` plays
//! the games once more, timing the listing before each command and the
//! command's step, by the kind of command chosen).
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
use skirmish_rules::encounter::{Encounter, Picked};
use skirmish_rules::sim::play_on;

#[path = "../benches/common/fight.rs"]
mod fight;

/// The allocator of the `skirmish` binary and the benchmarks.
#[global_allocator]
static ALLOCATOR: skirmish_rules::fast::alloc::MiMalloc = skirmish_rules::fast::alloc::MiMalloc;

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let hash = !args.iter().any(|a| a == "--no-hash");
    let kinds = args.iter().any(|a| a == "--kinds");
    let times = args.iter().any(|a| a == "--times");
    args.retain(|a| a != "--no-hash" && a != "--kinds" && a != "--times");
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
                *by_kind.entry(kind_of(c)).or_default() += 1;
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
    if times {
        by_kind_times(&db, &mut e, games, &heroes, &monsters);
    }
}

/// The variant's name of a command: what its debug form starts with.
fn kind_of(c: &skirmish_rules::encounter::Command) -> String {
    format!("{c:?}")
        .chars()
        .take_while(|ch| ch.is_alphanumeric())
        .collect()
}

/// The same games played as `play_on` plays them, with the listing before
/// each command and the command's step timed apart, by the kind of command
/// chosen: where a game's time goes.
fn by_kind_times(
    db: &std::sync::Arc<skirmish_rules::content::ContentDb>,
    e: &mut Encounter,
    games: u64,
    heroes: &str,
    monsters: &str,
) {
    use skirmish_rules::map::Side;
    // Per kind: commands, listing time, step time.
    let mut by = std::collections::BTreeMap::<String, (u64, Duration, Duration)>::new();
    for seed in 1..=games {
        let mut h = by_name(heroes, seed, db).expect("a brain");
        let mut m = by_name(monsters, !seed, db).expect("a brain");
        e.restart(seed);
        while e.outcome().is_none() {
            let t = Instant::now();
            let mut listing = e.listing();
            let listed = t.elapsed();
            let Some(first) = listing.first_creature() else {
                break;
            };
            let brain = match e.side_of(first) {
                Some(Side::Director) => &mut m,
                _ => &mut h,
            };
            let t = Instant::now();
            let picked = listing.pick_position(|n| brain.choose_position(e, n));
            let listed = listed + t.elapsed();
            let cmd = match picked {
                Picked::At(i) => listing.take(i).expect("a listed position"),
                Picked::Beyond(i) => panic!("{} picked past the listing: {i}", brain.name()),
                Picked::Whole => {
                    let mut legal = listing.into_vec();
                    let i = brain.choose_at(e, &legal).expect("a listed command");
                    legal.swap_remove(i)
                }
            };
            let kind = kind_of(&cmd);
            let t = Instant::now();
            e.perform(cmd).expect("a listed command is performed");
            let stepped = t.elapsed();
            let entry = by.entry(kind).or_default();
            entry.0 += 1;
            entry.1 += listed;
            entry.2 += stepped;
        }
    }
    let g = games.max(1) as f64;
    let us = |d: Duration| d.as_secs_f64() * 1e6 / g;
    println!(
        "by the kind chosen: a game's commands, and the listing before them and their steps in µs a game (ns each)"
    );
    let (mut listing, mut steps) = (Duration::ZERO, Duration::ZERO);
    for (kind, (n, l, s)) in &by {
        let each = |d: Duration| d.as_nanos() as f64 / (*n).max(1) as f64;
        println!(
            "  {kind:15} {:6.1}  listing {:6.0} ({:5.0})  step {:6.0} ({:5.0})",
            *n as f64 / g,
            us(*l),
            each(*l),
            us(*s),
            each(*s)
        );
        listing += *l;
        steps += *s;
    }
    println!(
        "  all listings {:.0} µs a game, all steps {:.0} µs a game",
        us(listing),
        us(steps)
    );
}
