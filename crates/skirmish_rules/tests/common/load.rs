//! Seeded games across every shipped encounter, with random and greedy
//! brains on either side, the engine's invariants
//! ([`skirmish_rules::encounter::invariants`]) checked after every
//! command: shared by the test `tests/shipped.rs` (a slice) and the example
//! `load` (the full run, recorded in docs/performance.md).

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;

use skirmish_rules::ai;
use skirmish_rules::content::ContentDb;
use skirmish_rules::encounter::{Encounter, Replay, invariants};
use skirmish_rules::map::Side;
use skirmish_rules::sim::panic_message;

/// The pairings played in turn: (heroes, monsters).
pub const PAIRINGS: [(&str, &str); 4] = [
    ("random", "random"),
    ("greedy", "greedy"),
    ("random", "greedy"),
    ("greedy", "random"),
];

/// The most commands a game may take before it counts as one that never
/// ends (the longest random games take about 3,000).
pub const MAX_COMMANDS: usize = 20_000;

#[derive(Debug, Default)]
pub struct Summary {
    pub games: usize,
    pub commands: u64,
    pub failures: Vec<String>,
}

pub fn shipped() -> Arc<ContentDb> {
    Arc::new(
        ContentDb::load(concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets"))
            .unwrap_or_else(|e| panic!("{e}")),
    )
}

/// Play `games` games from seed `first`: game `i` is encounter `i` modulo
/// their number, with the pairing after that. Every tenth game is also
/// replayed from its record and must give the same log.
/// (A slice of a longer run, so slices can be played side by side: game
/// `i` is the same game in any slice that holds it.)
pub fn run_games(db: &Arc<ContentDb>, games: std::ops::Range<usize>, first: u64) -> Summary {
    let ids: Vec<&String> = db.encounters.keys().collect();
    let mut out = Summary::default();
    for i in games {
        let id = ids[i % ids.len()];
        let (heroes, monsters) = PAIRINGS[(i / ids.len()) % PAIRINGS.len()];
        let seed = first.wrapping_add(i as u64);
        let what = format!("{id} seed {seed} ({heroes} v {monsters})");
        let played = catch_unwind(AssertUnwindSafe(|| {
            play(db, id, seed, heroes, monsters, i % 10 == 0)
        }));
        out.games += 1;
        match played {
            Ok(Ok(n)) => out.commands += n,
            Ok(Err(why)) => out.failures.push(format!("{what}: {why}")),
            Err(p) => out.failures.push(format!(
                "{what}: panicked: {}",
                panic_message(&*p).unwrap_or_default()
            )),
        }
    }
    out
}

fn play(
    db: &Arc<ContentDb>,
    id: &str,
    seed: u64,
    heroes: &str,
    monsters: &str,
    replay: bool,
) -> Result<u64, String> {
    let mut e = Encounter::new(db.clone(), id, seed).map_err(|e| e.to_string())?;
    let mut brains = [
        ai::by_name(heroes, seed, db).map_err(|e| e.to_string())?,
        ai::by_name(monsters, seed.wrapping_add(1), db).map_err(|e| e.to_string())?,
    ];
    for n in 0..MAX_COMMANDS {
        if e.outcome().is_some() {
            if replay {
                let again = Replay::from_ron(&e.replay().to_ron())
                    .map_err(|r| r.to_string())?
                    .play(db.clone())
                    .map_err(|r| format!("its replay: {r}"))?;
                if again.log() != e.log() {
                    return Err("its replay gives another log".into());
                }
            }
            return Ok(n as u64);
        }
        let legal = e.legal_actions();
        let Some(first) = legal.first() else {
            return Err(format!("command {n}: nothing to do, and no winner"));
        };
        for c in &legal {
            if e.creature(c.creature()).is_none_or(|c| c.stamina.is_dead()) {
                return Err(format!("command {n}: the dead are offered {c:?}"));
            }
        }
        let side = e.side_of(first.creature()).unwrap_or(Side::Heroes);
        let brain = &mut brains[usize::from(side == Side::Director)];
        let chosen = brain.choose(&e, &legal);
        // (A listed ability with surges spent on it is a listed choice.)
        let listed =
            legal.contains(&chosen) || chosen.unspent().is_some_and(|bare| legal.contains(&bare));
        if !listed {
            return Err(format!("command {n}: brain chose the unlisted {chosen:?}"));
        }
        e.apply(chosen.clone())
            .map_err(|r| format!("command {n}: listed {chosen:?} refused: {r}"))?;
        if let Err(why) = invariants::check(&e) {
            // `LOAD_SHOW=1`: the end of the log with it.
            let tail = if std::env::var("LOAD_SHOW").is_ok() {
                let lines = skirmish_rules::scenario::log_lines(&mut e);
                format!("\n{}", lines[lines.len().saturating_sub(30)..].join("\n"))
            } else {
                String::new()
            };
            return Err(format!("after command {n} {chosen:?}: {why}{tail}"));
        }
    }
    Err(format!("no winner after {MAX_COMMANDS} commands"))
}
