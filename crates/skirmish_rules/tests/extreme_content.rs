//! The developers' guide: "the program does not panic on any content", and
//! bad input "gets a clear error". Trials each set one number of the
//! shipped content (a stat, a distance, a number in a tier line, a map's
//! pit) to an extreme (0, -1, 255, a million, the integers' limits), load
//! it, and play every encounter: the content must fail to load with an
//! error, or play without a panic (overflowing arithmetic included: tests
//! build with overflow checks), without a listed command refused, and
//! without a turn left with nothing to do.
//! `cargo run --release -p skirmish_rules --example content_fuzz` runs more.

#[path = "common/extreme_content.rs"]
mod extreme_content;

#[test]
fn content_with_extreme_numbers_loads_with_an_error_or_plays() {
    let summary = extreme_content::run(200, 7, 60, "extreme_content", |_| {});
    assert!(
        summary.problems.is_empty(),
        "{}",
        summary.problems.join("\n")
    );
    // Both kinds of trial happened.
    assert!(summary.refused > 0 && summary.played > 0, "{summary:?}");
}
