//! Snapshot and restore (issue #6: "Search needs cheap snapshot and restore
//! of an encounter: build it into the engine").

use rand::{Rng, SeedableRng};

use super::*;

fn random_steps(e: &mut Encounter, rng: &mut rand_chacha::ChaCha8Rng, n: usize) {
    for _ in 0..n {
        let legal = e.legal_actions();
        if legal.is_empty() {
            return;
        }
        let cmd = legal[rng.random_range(0..legal.len())].clone();
        e.apply(cmd).unwrap();
    }
}

#[test]
fn restoring_a_snapshot_rewinds_everything_and_replays_identically() {
    let db = Arc::new(content());
    for seed in 0..20u64 {
        let mut e = Encounter::new(db.clone(), "first_blood", seed).unwrap();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        random_steps(&mut e, &mut rng, 25);
        let snap = e.snapshot();
        let (creatures, log, flow, malice, prompt, legal) = (
            e.creatures(),
            e.log().to_vec(),
            e.flow().clone(),
            e.malice(),
            e.prompt().cloned(),
            e.legal_actions(),
        );
        let replay = e.replay().clone();
        let mut branch_rng = rng.clone();
        random_steps(&mut e, &mut branch_rng, 40);
        e.restore(&snap);
        assert_eq!(e.creatures(), creatures, "seed {seed}");
        assert_eq!(e.log(), &log[..]);
        assert_eq!(e.flow(), &flow);
        assert_eq!(e.malice(), malice);
        assert_eq!(e.prompt(), prompt.as_ref());
        assert_eq!(e.legal_actions(), legal);
        assert_eq!(e.replay(), &replay);
        // From here the restored fight and a fresh replay go the same way,
        // dice included.
        let mut fresh = replay.play(db.clone()).unwrap();
        let mut a = rng.clone();
        let mut b = rng.clone();
        random_steps(&mut e, &mut a, 40);
        random_steps(&mut fresh, &mut b, 40);
        assert_eq!(e.log(), fresh.log(), "seed {seed}");
        assert_eq!(e.creatures(), fresh.creatures());
    }
}

// A refusal asked for ahead is the one `apply` gives, and asking changes
// nothing, whether the command would be accepted or not.
#[test]
fn asking_for_a_refusal_changes_nothing_and_matches_apply() {
    let db = Arc::new(content());
    for seed in 0..10u64 {
        let mut e = Encounter::new(db.clone(), "first_blood", seed).unwrap();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        random_steps(&mut e, &mut rng, 12);
        let (creatures, log, replay, rolled) = (
            e.creatures(),
            e.log().to_vec(),
            e.replay().clone(),
            e.dice_rolled(),
        );
        let legal = e.legal_actions();
        let ids: Vec<_> = e.creatures().iter().map(|c| c.id).collect();
        let mut asked = legal.clone();
        for &a in &ids {
            asked.push(Command::EndTurn { creature: a });
            asked.push(Command::Defend { creature: a });
            for &t in &ids {
                asked.push(Command::FreeStrike {
                    creature: a,
                    target: t,
                });
            }
        }
        for c in &asked {
            let said = e.refusal(c);
            if legal.contains(c) {
                assert_eq!(said, None, "seed {seed}: {c:?} is legal");
            }
            assert_eq!(e.creatures(), creatures, "seed {seed}");
            assert_eq!(e.log(), &log[..]);
            assert_eq!(e.replay(), &replay);
            assert_eq!(e.dice_rolled(), rolled);
            // Applying it gets the same answer.
            if let Some(r) = said {
                assert_eq!(e.apply(c.clone()).err(), Some(r));
            }
        }
        assert_eq!(e.legal_actions(), legal);
    }
}
