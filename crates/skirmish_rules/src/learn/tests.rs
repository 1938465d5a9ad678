//! The learning environment: its mask never lets through a command the
//! engine refuses, each slot stands for the command it says, the same seed
//! and actions replay bit for bit, and an observation leaves out what its
//! side can't know (docs/python.md).

use super::*;
use crate::dice::Dice;
use crate::encounter::state::components::{Space, Stance};
use std::path::Path;

fn content() -> Arc<ContentDb> {
    Arc::new(ContentDb::load(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets")).unwrap())
}

/// A masked-uniform pick from `env`'s legal actions.
fn pick(env: &Env, dice: &mut Dice) -> usize {
    env.sample_legal(dice).expect("a legal action mid-fight")
}

fn observation(env: &Env, side: Side) -> (Vec<f32>, Vec<f32>, Vec<f32>) {
    let ([p, h, w], [t, f], u) = env.shapes();
    let (mut board, mut creatures, mut turn) =
        (vec![0.0; p * h * w], vec![0.0; t * f], vec![0.0; u]);
    env.observe(
        side,
        ObsBuffers {
            board: &mut board,
            creatures: &mut creatures,
            turn: &mut turn,
        },
    );
    (board, creatures, turn)
}

/// Masked random play over every shipped encounter: no action the mask
/// allows is refused, the mask is never empty while the fight goes on,
/// each legal action's command maps back to it, and every command the
/// engine lists whose slot exists is allowed by the mask.
#[test]
fn masked_actions_are_never_refused() {
    let db = content();
    let mut ids: Vec<_> = db.encounters.keys().cloned().collect();
    ids.sort();
    let mut dice = Dice::seeded(7);
    let mut steps = 0;
    for (k, id) in ids.iter().enumerate() {
        let mut env = Env::new(db.clone(), id, k as u64, Options::default()).unwrap();
        for game in 0..4u64 {
            env.reset(game * 31 + k as u64);
            let mut checked = 0;
            while !env.is_over() {
                if env.legal().is_empty() {
                    let listed = env.encounter.legal_actions();
                    panic!(
                        "{id} seed {}: an empty mask mid-fight at step {}, listing {:?}",
                        env.encounter().replay().seed,
                        env.steps(),
                        &listed[..listed.len().min(3)]
                    );
                }
                assert_eq!(
                    env.mask().iter().map(|&m| m as usize).sum::<usize>(),
                    env.legal().len()
                );
                // Now and then: the listing and the mask agree both ways.
                if checked < 20 && env.steps().is_multiple_of(7) {
                    checked += 1;
                    let legal = env.encounter.legal_actions();
                    for c in &legal {
                        let i = env.layout.index(
                            &SlotView::Command(c),
                            answer_rank(&env.encounter, c),
                            |id| env.user(id),
                        );
                        if let Some(i) = i {
                            assert_eq!(env.mask()[i], 1, "{id}: {c:?} has slot {i}, masked");
                        }
                    }
                    for &a in env.legal().to_vec().iter() {
                        let c = env.command(a as usize).expect("a legal slot's command");
                        assert!(
                            legal.contains(&c),
                            "{id}: action {a} gives {c:?}, not listed"
                        );
                        assert_eq!(env.action_of(&c), Some(a as usize), "{id}: {c:?}");
                    }
                }
                let a = pick(&env, &mut dice);
                if let Err(e) = env.step(a) {
                    panic!(
                        "{id} seed {}: {e} ({:?})",
                        env.encounter().replay().seed,
                        env.layout.describe(env.deciding().unwrap(), a)
                    );
                }
                steps += 1;
            }
        }
    }
    assert!(steps > 10_000, "only {steps} steps played");
}

/// The same seed and actions give the same observations and rewards,
/// bit for bit (docs/python.md#determinism).
#[test]
fn same_seed_same_actions_same_everything() {
    let db = content();
    let run = || {
        let mut env = Env::new(
            db.clone(),
            "first_blood",
            5,
            Options {
                reward: Reward::Damage,
                ..Options::default()
            },
        )
        .unwrap();
        let mut dice = Dice::seeded(11);
        let mut trace: Vec<u32> = Vec::new();
        while !env.is_over() {
            let side = env.deciding().unwrap();
            let (b, c, t) = observation(&env, side);
            trace.extend(b.iter().chain(&c).chain(&t).map(|v| v.to_bits()));
            let s = env.step(pick(&env, &mut dice)).unwrap();
            trace.extend(s.rewards.iter().map(|r| r.to_bits()));
        }
        (trace, env.encounter().log().to_vec())
    };
    let (a, log_a) = run();
    let (b, log_b) = run();
    assert!(a.len() > 1000);
    assert_eq!(a, b);
    assert_eq!(log_a, log_b);
}

/// `Reward::Win` gives +1 and -1 at the end and nothing before;
/// `Reward::Damage`'s steps sum, with the end's, to within [-2, 2] and
/// are zero-sum (docs/python.md#rewards).
#[test]
fn rewards_are_as_documented() {
    let db = content();
    for reward in [Reward::Win, Reward::Damage] {
        let mut env = Env::new(
            db.clone(),
            "first_blood",
            3,
            Options {
                reward,
                ..Options::default()
            },
        )
        .unwrap();
        let mut dice = Dice::seeded(3);
        let mut total = [0.0f32; 2];
        let mut last = Step::default();
        while !env.is_over() {
            last = env.step(pick(&env, &mut dice)).unwrap();
            if reward == Reward::Win && !last.terminated {
                assert_eq!(last.rewards, [0.0, 0.0]);
            }
            assert!((last.rewards[0] + last.rewards[1]).abs() < 1e-6);
            total[0] += last.rewards[0];
            total[1] += last.rewards[1];
        }
        assert!(last.terminated);
        let w = env.encounter().outcome().unwrap().index();
        match reward {
            Reward::Win => assert_eq!((total[w], total[1 - w]), (1.0, -1.0)),
            Reward::Damage => assert!(total[w] > 0.0 && total[w] <= 2.0, "{total:?}"),
        }
        assert_eq!(env.step(0), Err(StepError::Over));
    }
}

/// The step limit truncates: no reward, the mask empties, and a reset
/// starts again.
#[test]
fn the_step_limit_truncates() {
    let mut env = Env::new(
        content(),
        "first_blood",
        1,
        Options {
            max_steps: 5,
            reward: Reward::Win,
        },
    )
    .unwrap();
    let mut dice = Dice::seeded(1);
    for k in 0..5 {
        let s = env.step(pick(&env, &mut dice)).unwrap();
        assert_eq!(s.truncated, k == 4);
        assert_eq!(s.rewards, [0.0, 0.0]);
    }
    assert!(env.is_over() && env.truncated() && env.legal().is_empty());
    assert!(env.mask().iter().all(|&m| m == 0));
    env.reset(2);
    assert!(!env.is_over() && !env.legal().is_empty());
}

/// A refused or masked action changes nothing and says why.
#[test]
fn a_masked_action_is_an_error() {
    let mut env = Env::new(content(), "first_blood", 1, Options::default()).unwrap();
    let masked = env.mask().iter().position(|&m| m == 0).unwrap();
    let before = env.encounter().replay().commands.len();
    assert_eq!(env.step(masked), Err(StepError::Masked(masked)));
    assert_eq!(env.step(usize::MAX), Err(StepError::Masked(usize::MAX)));
    assert_eq!(env.encounter().replay().commands.len(), before);
}

/// Fair information (issue 53, docs/python.md#observations): two states
/// that differ only in the dice to come, or in where a hidden enemy
/// stands, look the same to the other side; its own side sees the
/// difference.
#[test]
fn hidden_information_is_not_observed() {
    let db = content();
    let mut a = Env::new(db.clone(), "first_blood", 9, Options::default()).unwrap();
    let mut dice = Dice::seeded(4);
    for _ in 0..6 {
        a.step(pick(&a, &mut dice)).unwrap();
    }
    // The same state with other dice to come.
    let mut b = Env::of(
        Encounter::new(db.clone(), "first_blood", 9).unwrap(),
        Options::default(),
    );
    b.encounter.restore(&a.encounter.snapshot());
    b.encounter.reseed_dice(12345);
    b.steps = a.steps;
    b.refresh();
    for side in [Side::Heroes, Side::Director] {
        assert!(observation(&a, side) == observation(&b, side), "{side:?}");
    }
    // A Director's creature, hidden, standing in two different places.
    let monster = a
        .encounter
        .creatures()
        .into_iter()
        .find(|c| c.side == Side::Director && !c.stamina.is_dead())
        .unwrap();
    let free = |e: &Encounter| {
        let occ = e.occupants();
        e.map()
            .squares()
            .find(|&p| {
                p != monster.space.pos
                    && e.map()
                        .footprint_open(crate::map::Footprint::new(p, monster.space.size))
                    && !occ.iter().any(|o| {
                        o.space
                            .overlaps(crate::map::Footprint::new(p, monster.space.size))
                    })
            })
            .unwrap()
    };
    let elsewhere = free(&b.encounter);
    for (env, at) in [(&mut a, monster.space.pos), (&mut b, elsewhere)] {
        let w = env.encounter.world_mut();
        let e = crate::encounter::world::entity_of(w, monster.id).unwrap();
        w.get_mut::<Stance>(e).unwrap().hidden = true;
        w.get_mut::<Space>(e).unwrap().0.pos = at;
        env.refresh();
    }
    assert!(observation(&a, Side::Heroes) == observation(&b, Side::Heroes));
    assert!(observation(&a, Side::Director) != observation(&b, Side::Director));
    // And it shows again once seen.
    let w = b.encounter.world_mut();
    let e = crate::encounter::world::entity_of(w, monster.id).unwrap();
    w.get_mut::<Stance>(e).unwrap().hidden = false;
    let (_, creatures, _) = observation(&b, Side::Heroes);
    let row = monster.id.0 as usize * FEATURES.len();
    assert_eq!(creatures[row], 1.0, "present");
    assert_eq!(creatures[row + 3], elsewhere.x as f32);
}

/// Every action describes itself, and the layout's size is its blocks'.
#[test]
fn the_layout_describes_every_action() {
    let env = Env::new(content(), "first_blood", 1, Options::default()).unwrap();
    let l = env.layout();
    assert!(l.actors >= 4 && l.width > 0 && l.height > 0);
    let heroes = env
        .encounter()
        .creatures()
        .iter()
        .filter(|c| c.side == Side::Heroes)
        .count();
    for i in 0..env.actions() {
        let d = l.describe(Side::Heroes, i);
        assert_eq!(d.is_some(), i < heroes * env.actions() / l.actors, "{i}");
    }
    assert_eq!(l.describe(Side::Heroes, env.actions()), None);
    assert_eq!(
        l.describe(Side::Heroes, 0).map(|(_, s)| s),
        Some(ActionSlot::Basic { name: "start_turn" })
    );
}

/// A brain plays through the environment: a greedy side against random
/// masked actions wins most fights of first_blood.
#[test]
fn a_brain_plays_a_side() {
    let db = content();
    let mut env = Env::new(db.clone(), "first_blood", 0, Options::default()).unwrap();
    let mut brain = crate::ai::by_name("greedy", 0, &db).unwrap();
    let mut dice = Dice::seeded(2);
    let mut won = 0;
    for game in 0..6 {
        env.reset(game);
        while !env.is_over() {
            if env.deciding() == Some(Side::Director) {
                env.play(brain.as_mut()).unwrap();
            } else {
                env.step(pick(&env, &mut dice)).unwrap();
            }
        }
        won += usize::from(env.encounter().outcome() == Some(Side::Director));
    }
    assert!(won >= 5, "greedy won {won} of 6 against random");
    let before = env.steps();
    env.reset(9);
    assert_eq!(env.steps(), 0);
    assert!(before > 0);
    assert_eq!(env.waste(), Step::default());
    assert_eq!(env.steps(), 1);
}

/// The condition planes and columns are the nine conditions, in order.
#[test]
fn the_condition_names_are_the_nine() {
    use crate::conditions::ConditionKind;
    let words: Vec<&str> = ConditionKind::NINE.iter().map(|k| k.word()).collect();
    let planes = observe::CONDITION_PLANE;
    assert_eq!(&PLANES[planes..planes + 9], words.as_slice());
    let cols = observe::CONDITION_FEATURE;
    assert_eq!(&FEATURES[cols..cols + 9], words.as_slice());
}
