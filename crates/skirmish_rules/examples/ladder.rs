//! The strength ladder (issue #6 point 4): each pairing on each encounter,
//! half the games with each brain playing the heroes, reported as the
//! stronger brain's share of wins with a 95% confidence interval.
//! `cargo run --release -p skirmish_rules --example ladder -- GAMES_PER_SIDE JOBS [ENCOUNTER...]`

use std::sync::Arc;

use skirmish_rules::content::ContentDb;
use skirmish_rules::sim::{Rate, SimConfig, simulate};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let games: u32 = args.first().and_then(|a| a.parse().ok()).unwrap_or(250);
    let jobs: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(2);
    let encounters: Vec<String> = if args.len() > 2 {
        args[2..].to_vec()
    } else {
        vec![
            "keep_breach".into(),
            "temple_rite".into(),
            "bridge_crossing".into(),
        ]
    };
    let db = Arc::new(
        ContentDb::load(concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets")).expect("content"),
    );
    println!("| encounter | pairing | games | stronger's wins | 95% CI |");
    println!("|---|---|---|---|---|");
    // LADDER_ONLY=search runs just the pairings with that brain.
    let only = std::env::var("LADDER_ONLY").ok();
    for (a, b) in [
        ("greedy", "random"),
        ("tactical", "greedy"),
        ("search", "tactical"),
    ] {
        if only.as_deref().is_some_and(|o| o != a && o != b) {
            continue;
        }
        for enc in &encounters {
            let run = |h: &str, m: &str, seed: u64| {
                let mut cfg = SimConfig::new(enc, h, m, games, seed);
                cfg.jobs = jobs;
                simulate(db.clone(), &cfg, &|_, _| {}).expect("simulate")
            };
            let as_heroes = run(a, b, 1_000);
            let as_monsters = run(b, a, 2_000);
            let wins = as_heroes.heroes_won + as_monsters.director_won;
            let n = as_heroes.games + as_monsters.games;
            let r = Rate::wilson(wins, n);
            println!(
                "| {enc} | {a} v {b} | {n} | {:.1}% | {:.1}% to {:.1}% |",
                100.0 * r.rate,
                100.0 * r.low,
                100.0 * r.high
            );
        }
    }
}
