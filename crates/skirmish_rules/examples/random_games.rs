//! Plays seeded games of random legal commands (preferring attacks) and
//! prints how long they take: `cargo run --release -p skirmish_rules --example random_games -- 200`.

use std::sync::Arc;

use rand::{Rng, SeedableRng};
use skirmish_rules::content::ContentDb;
use skirmish_rules::encounter::{Command, Encounter};

fn main() {
    let games: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(100);
    let db = Arc::new(
        ContentDb::load(concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets")).expect("content"),
    );
    let start = std::time::Instant::now();
    let (mut ended, mut commands, mut rounds, mut hero_wins) = (0, 0usize, 0u32, 0);
    for seed in 0..games {
        let mut e = Encounter::new(db.clone(), "first_blood", seed).expect("setup");
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        for _ in 0..5000 {
            if e.outcome().is_some() {
                break;
            }
            let legal = e.legal_actions();
            let attacks: Vec<&Command> = legal
                .iter()
                .filter(|c| matches!(c, Command::UseAbility { .. } | Command::FreeStrike { .. }))
                .collect();
            let cmd = if !attacks.is_empty() && rng.random_bool(0.8) {
                attacks[rng.random_range(0..attacks.len())].clone()
            } else {
                legal[rng.random_range(0..legal.len())].clone()
            };
            e.apply(cmd).expect("legal");
            commands += 1;
        }
        if let Some(side) = e.outcome() {
            ended += 1;
            rounds += e.flow().round;
            if side == skirmish_rules::map::Side::Heroes {
                hero_wins += 1;
            }
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{games} games: {ended} ended, {hero_wins} won by the heroes, {:.1} rounds and {:.0} commands a game, {:.1} games/s",
        rounds as f64 / ended.max(1) as f64,
        commands as f64 / games as f64,
        games as f64 / secs
    );
}
