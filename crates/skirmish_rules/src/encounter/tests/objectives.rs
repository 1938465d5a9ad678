//! Objectives and reinforcements in whole games (docs/rules.md#objectives,
//! docs/rules.md#reinforcements): the same fight from `new` and from
//! `restart`, and from a snapshot taken before the arrival.

use rand::{Rng, SeedableRng};

use super::*;
use crate::content::encounter::{Objective, Reinforcement, Zone};

/// First Blood with two bandits arriving in round 2 and the hall's middle
/// to hold for three rounds.
fn reinforced() -> Arc<ContentDb> {
    let mut db = content();
    let mut def = db.encounters["first_blood"].clone();
    def.id = "reinforced".into();
    def.objective = Objective::Hold {
        zone: Zone {
            from: (8, 4),
            to: (11, 7),
        },
        rounds: 3,
    };
    def.reinforcements = vec![Reinforcement {
        round: 2,
        monsters: vec![monster("bandit", (19, 5)), monster("bandit", (19, 6))],
    }];
    db.encounters.insert("reinforced".into(), def);
    Arc::new(db)
}

fn play(e: &mut Encounter, seed: u64) -> Vec<String> {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..3000 {
        if e.outcome().is_some() {
            break;
        }
        let legal = e.legal_actions();
        if legal.is_empty() {
            break;
        }
        let cmd = legal[rng.random_range(0..legal.len())].clone();
        e.apply(cmd).unwrap();
    }
    e.log().iter().map(|l| format!("{l:?}")).collect()
}

// docs/rules.md#reinforcements: arrivals are part of the seeded fight, the
// same from a fresh encounter and from a restarted one.
#[test]
fn a_reinforced_fight_replays_the_same_after_a_restart() {
    let db = reinforced();
    let mut reused = Encounter::new(db.clone(), "reinforced", 1).unwrap();
    play(&mut reused, 1);
    let mut arrived = 0;
    for seed in 2..8u64 {
        reused.restart(seed);
        let a = play(&mut reused, seed);
        let mut fresh = Encounter::new(db.clone(), "reinforced", seed).unwrap();
        let b = play(&mut fresh, seed);
        assert_eq!(a, b, "seed {seed}");
        arrived += a.iter().filter(|l| l.starts_with("Arrived")).count();
    }
    assert!(arrived > 0, "no bandit ever arrived");
}

// docs/rules.md#reinforcements: a restore to before the arrival takes the
// arrived monsters back off the board.
#[test]
fn a_snapshot_before_the_arrival_takes_the_arrivals_back() {
    let db = reinforced();
    let mut e = Encounter::new(db, "reinforced", 3).unwrap();
    let before = e.creatures().len();
    let snap = e.snapshot();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
    while e.flow().round < 2 && e.outcome().is_none() {
        let legal = e.legal_actions();
        let cmd = legal[rng.random_range(0..legal.len())].clone();
        e.apply(cmd).unwrap();
    }
    assert_eq!(e.creatures().len(), before + 2);
    e.restore(&snap);
    assert_eq!(e.creatures().len(), before);
    assert_eq!(e.flow().held, 0);
}

// docs/rules.md#objectives: a Survive objective ends random games by the
// round asked for at the latest.
#[test]
fn survive_ends_every_game_by_its_round() {
    let mut db = content();
    let mut def = db.encounters["first_blood"].clone();
    def.objective = Objective::Survive { rounds: 2 };
    db.encounters.insert("first_blood".into(), def);
    let db = Arc::new(db);
    for seed in 0..10u64 {
        let mut e = Encounter::new(db.clone(), "first_blood", seed).unwrap();
        play(&mut e, seed);
        assert!(e.outcome().is_some(), "seed {seed}");
        assert!(e.flow().round <= 2, "seed {seed}: round {}", e.flow().round);
    }
}
