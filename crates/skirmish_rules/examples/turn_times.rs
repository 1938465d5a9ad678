//! A brain's thinking time per turn on every shipped encounter (issue #6
//! point 5: "the greedy brain's decision time per turn"), as a markdown
//! table: the time it spends choosing everything one creature does in a
//! turn (from picking it to ending its turn), on average and at worst, and
//! its slowest single decision. The brain plays both sides.
//! `cargo run --release -p skirmish_rules --example turn_times -- [BRAIN [GAMES]]`
//!
//! Wall-clock times: run it on an idle machine.

use std::sync::Arc;
use std::time::{Duration, Instant};

use skirmish_rules::ai::by_name;
use skirmish_rules::content::ContentDb;
use skirmish_rules::encounter::{Command, Encounter};
use skirmish_rules::map::Side;

/// The allocator the `skirmish` binary uses.
#[global_allocator]
static ALLOCATOR: skirmish_rules::fast::alloc::MiMalloc = skirmish_rules::fast::alloc::MiMalloc;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let brain = args.first().cloned().unwrap_or_else(|| "greedy".into());
    let games: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(10);
    let db = Arc::new(
        ContentDb::load(concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets")).expect("content"),
    );
    println!("| encounter | turns | per turn, mean | per turn, worst | one decision, worst |");
    println!("|---|---|---|---|---|");
    let (mut all_turns, mut all_time, mut worst_turn) = (0u32, Duration::ZERO, Duration::ZERO);
    for id in db.encounters.keys() {
        let mut turns: Vec<Duration> = Vec::new();
        let mut worst_decision = Duration::ZERO;
        for seed in 0..games {
            let mut e = Encounter::new(db.clone(), id, seed).expect("encounter");
            let mut heroes = by_name(&brain, seed, &db).expect("brain");
            let mut monsters = by_name(&brain, !seed, &db).expect("brain");
            // The turn being timed: whose it is, and the time so far.
            let mut turn: Option<Duration> = None;
            while e.outcome().is_none() {
                let legal = e.legal_actions();
                let Some(first) = legal.first() else { break };
                let brain = match e.side_of(first.creature()) {
                    Some(Side::Heroes) => &mut heroes,
                    _ => &mut monsters,
                };
                let t = Instant::now();
                let chosen = brain.choose(&e, &legal);
                let took = t.elapsed();
                worst_decision = worst_decision.max(took);
                // A prompt answered is the answerer's time, not the turn's.
                if e.prompt().is_none() {
                    *turn.get_or_insert(Duration::ZERO) += took;
                }
                // A side's pick that started no turn (a delay) is counted
                // with the turn it leads to.
                let delay = matches!(chosen, Command::Delay { .. });
                if e.perform(chosen).is_err() {
                    break;
                }
                if !delay && e.active_creature().is_none() && e.prompt().is_none() {
                    turns.extend(turn.take());
                }
            }
        }
        let total: Duration = turns.iter().sum();
        let worst = turns.iter().copied().max().unwrap_or_default();
        let n = turns.len().max(1) as u32;
        all_turns += turns.len() as u32;
        all_time += total;
        worst_turn = worst_turn.max(worst);
        println!(
            "| {id} | {} | {:.0?} | {:.2?} | {:.2?} |",
            turns.len(),
            total / n,
            worst,
            worst_decision
        );
    }
    println!(
        "| all | {all_turns} | {:.0?} | {:.2?} | |",
        all_time / all_turns.max(1),
        worst_turn
    );
}
