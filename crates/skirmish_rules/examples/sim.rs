//! A batch of games between two brains without building the client:
//! `cargo run --release -p skirmish_rules --example sim -- first_blood greedy random 200`.
//! (`skirmish sim` is the full command.)

use std::sync::Arc;

use skirmish_rules::content::ContentDb;
use skirmish_rules::sim::{SimConfig, simulate};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, d: &str| args.get(i).cloned().unwrap_or_else(|| d.to_string());
    let db = Arc::new(
        ContentDb::load(concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets")).expect("content"),
    );
    let mut cfg = SimConfig::new(
        &arg(0, "first_blood"),
        &arg(1, "random"),
        &arg(2, "random"),
        arg(3, "100").parse().expect("a number of games"),
        arg(4, "0").parse().expect("a seed"),
    );
    cfg.jobs = arg(5, "1").parse().expect("a number of jobs");
    let start = std::time::Instant::now();
    let report = simulate(db, &cfg, &|_, _| {}).expect("simulate");
    let secs = start.elapsed().as_secs_f64();
    print!("{report}");
    println!(
        "{:.1} s, {:.1} games a second",
        secs,
        report.games as f64 / secs
    );
}
