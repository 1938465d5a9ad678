//! The encounter engine: setup, turn flow, commands and their resolution.

pub mod def;
