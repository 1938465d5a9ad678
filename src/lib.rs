//! The Skirmish client and the `skirmish` binary's commands, as a library:
//! `src/main.rs` parses the command line and calls in here, and the tests
//! under `tests/` build the window's app from it to play it through input
//! (`client::testing`).

// Bevy systems take their world access as parameters and queries as types:
// long lists and nested types are the norm (the bevy_new_2d template allows
// both lints for the same reason).
#![allow(clippy::too_many_arguments, clippy::type_complexity)]

pub mod assets;
pub mod built;
pub mod check;
pub mod client;
pub mod forecast;
pub mod icons;
pub mod scenario;
pub mod sim;

/// Say what is wrong with the command line; exit 2.
pub fn usage(message: &str) -> std::process::ExitCode {
    eprintln!("error: {message}");
    std::process::ExitCode::from(2)
}
