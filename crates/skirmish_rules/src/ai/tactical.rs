//! A utility AI whose weights a designer tunes in `assets/ai/tactical.ron`
//! without code: the greedy terms plus focus fire, protecting the wounded,
//! spending heroic resource, pushing enemies into pits and each other,
//! flanking, and planning a move by the attack it sets up.

use super::Brain;
use super::score::{Weights, choose};
use crate::encounter::{Command, Encounter};

pub struct Tactical {
    weights: Weights,
}

impl Tactical {
    pub fn new(weights: Weights) -> Tactical {
        Tactical { weights }
    }
}

impl Brain for Tactical {
    fn name(&self) -> String {
        "tactical".into()
    }

    fn choose(&mut self, e: &Encounter, legal: &[Command]) -> Command {
        choose(e, legal, &self.weights)
    }
}
