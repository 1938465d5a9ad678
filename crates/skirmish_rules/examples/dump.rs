//! Play one game between two brains and print the end of its log, where
//! everyone stands, and how the brain to move scores its options:
//! `cargo run --release -p skirmish_rules --example dump -- first_blood greedy greedy SEED [LINES]`.

use std::sync::Arc;

use skirmish_rules::content::ContentDb;
use skirmish_rules::scenario::log_lines;
use skirmish_rules::sim::{SimConfig, play_game};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, d: &str| args.get(i).cloned().unwrap_or_else(|| d.to_string());
    let db = Arc::new(
        ContentDb::load(concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets")).expect("content"),
    );
    let mut cfg = SimConfig::new(
        &arg(0, "first_blood"),
        &arg(1, "greedy"),
        &arg(2, "greedy"),
        1,
        0,
    );
    cfg.max_commands = arg(5, "3000").parse().expect("a number");
    let seed: u64 = arg(3, "0").parse().expect("a seed");
    let lines: usize = arg(4, "60").parse().expect("a number of lines");
    let (result, mut e) = play_game(&db, &cfg, seed).expect("game");
    let log = log_lines(&mut e);
    for l in &log[log.len().saturating_sub(lines)..] {
        println!("{l}");
    }
    println!(
        "{:?} after {} rounds; {:?}",
        result.winner, result.rounds, result.errors
    );
    for c in e.creatures() {
        println!(
            "{} at {} stamina {} {:?}",
            c.name, c.space.pos, c.stamina.current, c.conditions
        );
    }
    let legal = e.legal_actions();
    if let Some(side) = skirmish_rules::ai::score::acting_side(&e, &legal) {
        let w = skirmish_rules::ai::score::Weights::greedy();
        let scorer = skirmish_rules::ai::score::Scorer::new(&e, &w, side);
        let mut scored: Vec<(f64, String)> = legal
            .iter()
            .map(|c| (scorer.score(c), format!("{c:?}")))
            .collect();
        scored.sort_by(|a, b| b.0.total_cmp(&a.0));
        for (s, c) in scored.iter().take(8) {
            println!("{s:8.2} {c}");
        }
    }
}
