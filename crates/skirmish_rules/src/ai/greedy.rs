//! One step ahead on expected value (see [`super::score`]): the best command
//! now by the engine's exact forecasts, with the fixed [`Weights::greedy`].

use super::Brain;
use super::score::{Weights, choose};
use crate::encounter::{Command, Encounter};

/// The greedy brain: [`Weights::greedy`] (also `Weights::default()`).
#[derive(Default)]
pub struct Greedy {
    weights: Weights,
}

impl Brain for Greedy {
    fn name(&self) -> String {
        "greedy".into()
    }

    fn choose(&mut self, e: &Encounter, legal: &[Command]) -> Command {
        choose(e, legal, &self.weights)
    }
}
