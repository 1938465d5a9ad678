//! Where the time of random games goes: `cargo run --release -p skirmish_rules --example profile`.

use std::sync::Arc;
use std::time::{Duration, Instant};

use skirmish_rules::ai::{Brain, random::Random};
use skirmish_rules::content::ContentDb;
use skirmish_rules::encounter::Encounter;

fn main() {
    let db = Arc::new(
        ContentDb::load(concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets")).expect("content"),
    );
    let (mut legal_t, mut apply_t, mut choose_t) = (Duration::ZERO, Duration::ZERO, Duration::ZERO);
    let (mut commands, mut rounds, mut options) = (0usize, 0u32, 0usize);
    let games = 50;
    for seed in 0..games {
        let mut e = Encounter::new(db.clone(), "first_blood", seed).unwrap();
        let mut b = Random::new(seed);
        while e.outcome().is_none() {
            let t = Instant::now();
            let legal = e.legal_actions();
            legal_t += t.elapsed();
            options += legal.len();
            let t = Instant::now();
            let c = b.choose(&e, &legal);
            choose_t += t.elapsed();
            let t = Instant::now();
            e.apply(c).unwrap();
            apply_t += t.elapsed();
            commands += 1;
        }
        rounds += e.flow().round;
    }
    println!(
        "{} commands a game, {} rounds, {} options a decision; per command: legal {:?}, choose {:?}, apply {:?}",
        commands / games as usize,
        rounds / games as u32,
        options / commands,
        legal_t / commands as u32,
        choose_t / commands as u32,
        apply_t / commands as u32
    );
}
