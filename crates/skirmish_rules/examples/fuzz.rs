//! Throw malformed commands at every shipped encounter between legal ones
//! (`tests/common/malformed.rs`), more and longer games than the test:
//! `cargo run --release -p skirmish_rules --example fuzz -- [SEEDS] [COMMANDS]`.
//! Reports any panic, any refused command that changed something, a dead
//! creature acting, and any game whose replay does not reproduce its log.
//! `FUZZ_ONLY=ENCOUNTER`, `FUZZ_SEED=N` pick one game; `FUZZ_SHOW=1`
//! prints its commands and, on a failure, the end of its log. Built with
//! `CARGO_PROFILE_RELEASE_OVERFLOW_CHECKS=true`, arithmetic that overflows
//! is a panic too, as in the tests.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;

use skirmish_rules::content::ContentDb;

#[path = "../tests/common/malformed.rs"]
mod malformed;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let seeds: u64 = args.first().map_or(4, |a| a.parse().expect("seeds"));
    let steps: usize = args.get(1).map_or(400, |a| a.parse().expect("commands"));
    let db = Arc::new(
        ContentDb::load(concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets")).expect("content"),
    );
    let mut problems = 0;
    let mut ids: Vec<&String> = db.encounters.keys().collect();
    ids.sort();
    let only = std::env::var("FUZZ_ONLY").ok();
    for id in ids {
        if only.as_ref().is_some_and(|o| o != id) {
            continue;
        }
        for seed in 0..seeds {
            if let Ok(s) = std::env::var("FUZZ_SEED")
                && s.parse::<u64>().ok() != Some(seed)
            {
                continue;
            }
            let show = std::env::var("FUZZ_SHOW").is_ok();
            let r = catch_unwind(AssertUnwindSafe(|| {
                malformed::fuzz_one(&db, id, seed, steps, show)
            }));
            match r {
                Ok(Ok(n)) => println!("{id} seed {seed}: ok ({n} malformed refused)"),
                Ok(Err(why)) => {
                    problems += 1;
                    println!("{id} seed {seed}: {why}");
                }
                Err(p) => {
                    problems += 1;
                    println!(
                        "{id} seed {seed}: panic {}",
                        skirmish_rules::sim::panic_message(&*p).unwrap_or_default()
                    );
                }
            }
        }
    }
    println!("{problems} problems");
}
