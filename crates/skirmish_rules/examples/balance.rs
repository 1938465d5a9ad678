//! The balance report (issue #7 point 6): every shipped encounter with the
//! same brain on both sides, as a markdown table of the heroes' win rate.
//! `cargo run --release -p skirmish_rules --example balance -- GAMES JOBS [BRAIN [ENCOUNTER]]`

use std::sync::Arc;

use skirmish_rules::content::ContentDb;
use skirmish_rules::sim::{SimConfig, simulate};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let games: u32 = args.first().and_then(|a| a.parse().ok()).unwrap_or(500);
    let jobs: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(2);
    let brain = args.get(2).cloned().unwrap_or_else(|| "greedy".into());
    let db = Arc::new(
        ContentDb::load(concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets")).expect("content"),
    );
    println!("| encounter | heroes | monsters | heroes win | 95% CI | rounds | unfinished |");
    println!("|---|---|---|---|---|---|---|");
    // A fourth argument picks one encounter.
    let only = args.get(3);
    for (id, def) in &db.encounters {
        if only.is_some_and(|o| o != id) {
            continue;
        }
        let mut cfg = SimConfig::new(id, &brain, &brain, games, 0);
        cfg.jobs = jobs;
        let r = simulate(db.clone(), &cfg, &|_, _| {}).expect("simulate");
        println!(
            "| {id} | {} | {} | {:.1}% | {:.1}% to {:.1}% | {:.1} | {} |",
            def.heroes.len(),
            def.monsters.len(),
            100.0 * r.heroes_rate.rate,
            100.0 * r.heroes_rate.low,
            100.0 * r.heroes_rate.high,
            r.rounds_mean,
            r.draws
        );
    }
}
