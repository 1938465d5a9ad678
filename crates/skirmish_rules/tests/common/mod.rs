//! Shared by the integration tests.

pub mod malformed;
