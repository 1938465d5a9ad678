//! Whether a change plays the same games on every shipped encounter: plays
//! `GAMES` seeds of random, greedy and tactical (each on both sides) on each
//! encounter as `skirmish sim` plays them, and prints a hash of the combat
//! logs per encounter and brain, and of them all. Two builds that print
//! the same hashes played the same games.
//! `cargo run --release -p skirmish_rules --example same_games -- [GAMES]` (default 4)

use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::Arc;

use skirmish_rules::ai::by_name;
use skirmish_rules::content::ContentDb;
use skirmish_rules::encounter::Encounter;
use skirmish_rules::sim::play_on;

/// The allocator the `skirmish` binary uses.
#[global_allocator]
static ALLOCATOR: skirmish_rules::alloc::MiMalloc = skirmish_rules::alloc::MiMalloc;

fn main() {
    let games: u64 = std::env::args()
        .nth(1)
        .map_or(4, |a| a.parse().expect("a number of games"));
    let db = Arc::new(
        ContentDb::load(concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets")).expect("content"),
    );
    let mut all = DefaultHasher::new();
    for id in db.encounters.keys() {
        let mut e = Encounter::new(db.clone(), id, 0).expect("a shipped encounter");
        for brain in ["random", "greedy", "tactical"] {
            let mut logs = DefaultHasher::new();
            for seed in 0..games {
                let h = by_name(brain, seed, &db).expect("a brain");
                let m = by_name(brain, !seed, &db).expect("a brain");
                e.restart(seed);
                let result = play_on(&mut e, h, m, 20_000);
                assert!(
                    result.errors.is_empty(),
                    "{id} {brain} seed {seed}: {:?}",
                    result.errors
                );
                format!("{:?}", e.log()).hash(&mut logs);
            }
            let h = logs.finish();
            h.hash(&mut all);
            println!("{id:18} {brain:9} {h:016x}");
        }
    }
    println!("{:18} {:016x}", "all", all.finish());
}
