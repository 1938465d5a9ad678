//! The README's standard: bad input "gets a clear error and loses nothing
//! ... the program does not panic on any content, command or saved game",
//! and issue 4 point 3: "An illegal command is refused with a reason ...
//! and changes nothing". A replay or a scenario is a list of commands a
//! person may write by hand, so every shipped encounter is played with
//! malformed commands thrown in among legal ones (`common/malformed.rs`):
//! none may panic (overflowing arithmetic included: tests build with
//! overflow checks), change anything when refused, leave a dead creature
//! acting, or keep the replay from reproducing the game.
//! `cargo run --release -p skirmish_rules --example fuzz` plays more.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;

use skirmish_rules::content::ContentDb;

#[path = "common/malformed.rs"]
mod malformed;

#[test]
fn malformed_commands_are_refused_on_every_shipped_encounter() {
    let db = Arc::new(
        ContentDb::load(concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets")).expect("content"),
    );
    let mut ids: Vec<&String> = db.encounters.keys().collect();
    ids.sort();
    let mut failures = Vec::new();
    let mut refused = 0;
    for id in ids {
        for seed in 0..3 {
            let r = catch_unwind(AssertUnwindSafe(|| {
                malformed::fuzz_one(&db, id, seed, 600, false)
            }));
            match r {
                Ok(Ok(n)) => refused += n,
                Ok(Err(why)) => failures.push(format!("{id} seed {seed}: {why}")),
                Err(p) => failures.push(format!(
                    "{id} seed {seed}: panic {}",
                    skirmish_rules::sim::panic_message(&*p).unwrap_or_default()
                )),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // The games were played: most malformed commands are refused.
    assert!(refused > 14 * 3 * 100, "only {refused} refused");
}
