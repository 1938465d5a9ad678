//! Set one number of the shipped content to an extreme value, load it, and
//! play a random game of every encounter (`tests/common/extreme_content.rs`),
//! more trials and longer games than the test: loading must give a clear
//! error, or content the engine plays without panicking.
//! `cargo run --release -p skirmish_rules --example content_fuzz -- [TRIALS] [SEED]`.
//! Built with `CARGO_PROFILE_RELEASE_OVERFLOW_CHECKS=true`, arithmetic
//! that overflows is a panic too, as in the tests. Each trial's change is
//! printed to stderr before it is loaded.

#[path = "../tests/common/extreme_content.rs"]
mod extreme_content;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let trials: usize = args.first().map_or(50, |a| a.parse().expect("trials"));
    let seed: u64 = args.get(1).map_or(0, |a| a.parse().expect("a seed"));
    let summary = extreme_content::run(0..trials, seed, 400, "content_fuzz", |what| {
        eprintln!("{what}")
    });
    for p in &summary.problems {
        println!("{p}");
    }
    println!(
        "{trials} trials: {} refused at load, {} played, {} problems",
        summary.refused,
        summary.played,
        summary.problems.len()
    );
}
