//! Issue 51, point 7, "Load held": a 500-game slice of the load test
//! (`cargo run --release -p skirmish_rules --example load` plays 10,000).
//! Seeded games of every shipped encounter, random and greedy brains on
//! either side, end with the engine's invariants kept after every command,
//! every listed command accepted and every tenth game's replay giving the
//! same log. Tests build with overflow checks: arithmetic that overflows
//! is a failure too.

#[path = "common/load.rs"]
mod load;

#[test]
fn five_hundred_games_of_every_encounter_keep_the_invariants() {
    let db = load::shipped();
    let summary = load::run(&db, 500, 0);
    assert!(
        summary.failures.is_empty(),
        "{} of {} games failed:\n{}",
        summary.failures.len(),
        summary.games,
        summary.failures.join("\n")
    );
    assert_eq!(summary.games, 500);
    assert!(summary.commands > 500 * 20, "{summary:?}");
}
