//! The baseline: uniform over the legal actions.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::Brain;
use crate::encounter::{Command, Encounter};

/// Picks uniformly among the legal actions, from its own seeded generator.
pub struct Random {
    rng: ChaCha8Rng,
}

impl Random {
    pub fn new(seed: u64) -> Random {
        Random {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

impl Random {
    /// The position of the choice among `count`: one draw of the brain's
    /// generator.
    fn pick(&mut self, count: usize) -> usize {
        self.rng.random_range(0..count)
    }
}

impl Brain for Random {
    fn name(&self) -> String {
        "random".into()
    }

    fn choose(&mut self, _: &Encounter, legal: &[Command]) -> Command {
        legal[self.pick(legal.len())].clone()
    }

    fn choose_at(&mut self, _: &Encounter, legal: &[Command]) -> Result<usize, Command> {
        Ok(self.pick(legal.len()))
    }

    fn choose_position(&mut self, _: &Encounter, count: usize) -> Option<usize> {
        Some(self.pick(count))
    }
}
