//! Speed of whole encounters, of the AI and of a forecast (issue #6 point
//! 5, issue 54). Run:
//! `cargo bench -p skirmish_rules --bench engine`.
//!
//! The fight: 4 heroes against 6 monsters on an open 20 x 20 map with a few
//! walls (`common/fight.rs`), built there so content changes don't move the
//! figures.

use std::hint::black_box;
use std::sync::Arc;

use criterion::{Criterion, criterion_group, criterion_main};
use fight::content;
use skirmish_rules::ai::by_name;
use skirmish_rules::content::ContentDb;
use skirmish_rules::encounter::Encounter;
use skirmish_rules::sim::play_on;

#[path = "common/fight.rs"]
mod fight;

/// The allocator the `skirmish` binary uses, so the figures are what `skirmish
/// sim` gets.
#[global_allocator]
static ALLOCATOR: skirmish_rules::fast::alloc::MiMalloc = skirmish_rules::fast::alloc::MiMalloc;

/// An encounter some way into the fight (greedy against greedy), stopped
/// where a creature is acting with its main action and a strike to hand.
fn midfight(db: &Arc<ContentDb>, commands: usize) -> Encounter {
    let mut e = Encounter::new(db.clone(), "bench", 9).unwrap();
    let mut g = by_name("greedy", 0, db).unwrap();
    for n in 0.. {
        let legal = e.legal_actions();
        if legal.is_empty() {
            break;
        }
        let ready = e.prompt().is_none()
            && legal
                .iter()
                .any(|c| matches!(c, skirmish_rules::encounter::Command::UseAbility { .. }));
        if n >= commands && ready {
            break;
        }
        let c = g.choose(&e, &legal);
        e.apply(c).unwrap();
    }
    e
}

/// The moment of a greedy game of `encounter` with the most legal actions
/// before a decision, and those actions.
fn longest_listing(
    db: &Arc<ContentDb>,
    encounter: &str,
    seed: u64,
) -> (Encounter, Vec<skirmish_rules::encounter::Command>) {
    let mut e = Encounter::new(db.clone(), encounter, seed).unwrap();
    let mut g = by_name("greedy", seed, db).unwrap();
    let mut longest = (0, 0);
    for n in 0.. {
        let legal = e.legal_actions();
        if legal.is_empty() {
            break;
        }
        longest = longest.max((legal.len(), usize::MAX - n));
        let c = g.choose(&e, &legal);
        e.apply(c).unwrap();
    }
    let mut e = Encounter::new(db.clone(), encounter, seed).unwrap();
    for _ in 0..usize::MAX - longest.1 {
        let legal = e.legal_actions();
        let c = g.choose(&e, &legal);
        e.apply(c).unwrap();
    }
    let legal = e.legal_actions();
    (e, legal)
}

fn games(c: &mut Criterion) {
    let db = content();
    let mut seed = 0u64;
    // As `skirmish sim` plays a batch: one encounter per thread, restarted
    // with each game's seed (the same game as a new encounter gives).
    let mut e = Encounter::new(db.clone(), "bench", seed).unwrap();
    c.bench_function("random v random game, 4 heroes v 6 monsters, 20x20", |b| {
        b.iter(|| {
            seed += 1;
            e.restart(seed);
            let h = by_name("random", seed, &db).unwrap();
            let m = by_name("random", !seed, &db).unwrap();
            black_box(play_on(&mut e, h, m, 100_000).rounds)
        })
    });
    c.bench_function("greedy v greedy game, 4 heroes v 6 monsters, 20x20", |b| {
        b.iter(|| {
            seed += 1;
            e.restart(seed);
            let h = by_name("greedy", seed, &db).unwrap();
            let m = by_name("greedy", !seed, &db).unwrap();
            black_box(play_on(&mut e, h, m, 100_000).rounds)
        })
    });
    c.bench_function("setting up the encounter anew", |b| {
        b.iter(|| {
            seed += 1;
            black_box(Encounter::new(db.clone(), "bench", seed).unwrap())
        })
    });
    c.bench_function("restarting the encounter", |b| {
        b.iter(|| {
            seed += 1;
            e.restart(seed);
            black_box(e.flow().round)
        })
    });
}

fn decisions(c: &mut Criterion) {
    let db = content();
    let mut e = midfight(&db, 40);
    let legal = e.legal_actions();
    for (name, brain) in [
        ("greedy", "greedy"),
        ("tactical", "tactical"),
        ("search (default budget)", "search"),
    ] {
        let mut b_ = by_name(brain, 1, &db).unwrap();
        c.bench_function(&format!("{name} decision mid-fight"), |b| {
            b.iter(|| black_box(b_.choose(&e, &legal)))
        });
    }
    // The heaviest decision of a shipped fight: phased_ambush's movement
    // phase lists a move for each power to each square (walk, hustle, run,
    // ...), and the brain weighs the attacks it could make from each. The
    // state with the longest list in a greedy game (it moves with content).
    let shipped = Arc::new(
        ContentDb::load(concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets")).expect("content"),
    );
    let (e, legal) = longest_listing(&shipped, "phased_ambush", 0);
    let mut g = by_name("greedy", 1, &shipped).unwrap();
    c.bench_function(
        &format!(
            "greedy decision, phased_ambush's longest list ({} commands)",
            legal.len()
        ),
        |b| b.iter(|| black_box(g.choose(&e, &legal))),
    );
    c.bench_function("legal actions mid-fight", |b| {
        let mut e = midfight(&db, 40);
        b.iter(|| black_box(e.legal_actions().len()))
    });
    c.bench_function("snapshot and restore", |b| {
        let mut e = midfight(&db, 40);
        b.iter(|| {
            let s = e.snapshot();
            e.restore(black_box(&s));
        })
    });
}

/// The learning environment (docs/python.md): one masked uniform random
/// step with the deciding side's observation, as the Python environments
/// take it (restarting a fight that ends).
fn learning(c: &mut Criterion) {
    use skirmish_rules::learn::{Env, ObsBuffers, Options};
    let db = content();
    let mut env = Env::new(db.clone(), "bench", 0, Options::default()).unwrap();
    let ([p, h, w], [t, f], u) = env.shapes();
    let (mut board, mut creatures, mut turn) =
        (vec![0.0; p * h * w], vec![0.0; t * f], vec![0.0; u]);
    let mut dice = skirmish_rules::dice::Dice::seeded(1);
    let mut games = 0;
    c.bench_function(
        "learning env: a random masked step and its observation",
        |b| {
            b.iter(|| {
                if env.is_over() {
                    games += 1;
                    env.reset(games);
                }
                let side = env.deciding().unwrap();
                env.observe(
                    side,
                    ObsBuffers {
                        board: &mut board,
                        creatures: &mut creatures,
                        turn: &mut turn,
                    },
                );
                let a = env.sample_legal(&mut dice).unwrap();
                black_box(env.step(a).unwrap());
            })
        },
    );
}

/// The builder's Forecast (issue 54, point 2: "at most 10 s for a
/// four-hero fight on this 2-core machine"): 200 greedy games of the
/// bench fight on two threads.
fn forecast(c: &mut Criterion) {
    let db = content();
    c.bench_function(
        "forecast: 200 greedy games, 4 heroes v 6 monsters, 2 threads",
        |b| {
            b.iter(|| {
                let f = skirmish_rules::sim::forecast::forecast(
                    db.clone(),
                    "bench",
                    200,
                    2,
                    &|_, _| {},
                    None,
                )
                .unwrap();
                black_box(f.heroes_win);
            })
        },
    );
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = games, decisions, learning
}
criterion_group! {
    name = slow;
    config = Criterion::default().sample_size(10);
    targets = forecast
}
criterion_main!(benches, slow);
