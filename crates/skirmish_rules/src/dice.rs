//! The encounter's one source of randomness.
//!
//! Every die in a fight is rolled through [`Dice`], a resource owned by the
//! encounter and seeded once. Tests and scripted scenarios can queue forced
//! values that the next rolls will show; once the queue is empty the seeded
//! generator takes over again. The same seed and the same commands therefore
//! replay the same fight, bit for bit.

use std::collections::VecDeque;

use bevy_app::App;
use bevy_ecs::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Dice>();
}

/// A forced value that did not fit the die it was used for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ForcedMismatch {
    pub sides: u32,
    pub forced: u32,
}

/// The seeded, scriptable dice source.
///
/// Saved as its seed and the generator's position in its stream, so a saved
/// game resumes the exact same rolls.
#[derive(Resource, Clone, Debug, Serialize, Deserialize)]
#[serde(into = "SavedDice", from = "SavedDice")]
pub struct Dice {
    seed: u64,
    rng: ChaCha8Rng,
    forced: VecDeque<u32>,
    mismatches: Vec<ForcedMismatch>,
    rolls: u64,
}

/// The saved form of [`Dice`] (RON has no 128-bit integers, so the stream
/// position is split in two).
#[derive(Clone, Debug, Serialize, Deserialize)]
struct SavedDice {
    seed: u64,
    position_high: u64,
    position_low: u64,
    #[serde(default)]
    forced: VecDeque<u32>,
    #[serde(default)]
    mismatches: Vec<ForcedMismatch>,
    #[serde(default)]
    rolls: u64,
}

impl From<Dice> for SavedDice {
    fn from(d: Dice) -> Self {
        let pos = d.rng.get_word_pos();
        SavedDice {
            seed: d.seed,
            position_high: (pos >> 64) as u64,
            position_low: pos as u64,
            forced: d.forced,
            mismatches: d.mismatches,
            rolls: d.rolls,
        }
    }
}

impl From<SavedDice> for Dice {
    fn from(s: SavedDice) -> Self {
        let mut rng = ChaCha8Rng::seed_from_u64(s.seed);
        rng.set_word_pos(((s.position_high as u128) << 64) | s.position_low as u128);
        Dice {
            seed: s.seed,
            rng,
            forced: s.forced,
            mismatches: s.mismatches,
            rolls: s.rolls,
        }
    }
}

impl Default for Dice {
    fn default() -> Self {
        Self::seeded(0)
    }
}

impl Dice {
    /// A generator seeded with `seed`.
    pub fn seeded(seed: u64) -> Self {
        Self {
            seed,
            rng: ChaCha8Rng::seed_from_u64(seed),
            forced: VecDeque::new(),
            mismatches: Vec::new(),
            rolls: 0,
        }
    }

    /// The seed this generator started from.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// How many dice have been rolled so far.
    pub fn rolls(&self) -> u64 {
        self.rolls
    }

    /// Queue values that the next dice will show, in order.
    pub fn force(&mut self, values: impl IntoIterator<Item = u32>) {
        self.forced.extend(values);
    }

    /// Forced values not used yet.
    pub fn pending_forced(&self) -> usize {
        self.forced.len()
    }

    /// Forced values that were outside the die they were rolled on.
    pub fn mismatches(&self) -> &[ForcedMismatch] {
        &self.mismatches
    }

    /// Roll one die with `sides` faces (1..=sides).
    ///
    /// A queued forced value is used first. One that does not fit the die is
    /// clamped into range and recorded in [`Dice::mismatches`], so a scenario
    /// with a wrong script fails loudly instead of panicking.
    pub fn roll(&mut self, sides: u32) -> u32 {
        let sides = sides.max(1);
        self.rolls += 1;
        if let Some(value) = self.forced.pop_front() {
            if value == 0 || value > sides {
                self.mismatches.push(ForcedMismatch {
                    sides,
                    forced: value,
                });
                return value.clamp(1, sides);
            }
            return value;
        }
        self.rng.random_range(1..=sides)
    }

    /// Roll `count` dice of `sides` faces and return each.
    pub fn roll_many(&mut self, count: u32, sides: u32) -> Vec<u32> {
        (0..count).map(|_| self.roll(sides)).collect()
    }

    /// Roll the 2d10 of a power roll.
    pub fn roll_2d10(&mut self) -> [u32; 2] {
        [self.roll(10), self.roll(10)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // docs/rules.md#power-roll / developers' guide: "All randomness comes from one seeded
    // generator owned by the encounter: the same seed ... replay the same fight".
    #[test]
    fn same_seed_same_rolls() {
        let mut a = Dice::seeded(42);
        let mut b = Dice::seeded(42);
        let ra: Vec<u32> = (0..100).map(|_| a.roll(10)).collect();
        let rb: Vec<u32> = (0..100).map(|_| b.roll(10)).collect();
        assert_eq!(ra, rb);
        let mut c = Dice::seeded(43);
        let rc: Vec<u32> = (0..100).map(|_| c.roll(10)).collect();
        assert_ne!(ra, rc);
    }

    #[test]
    fn rolls_stay_on_the_die() {
        let mut d = Dice::seeded(7);
        for _ in 0..2000 {
            let v = d.roll(10);
            assert!((1..=10).contains(&v));
        }
    }

    #[test]
    fn forced_values_come_first_then_the_generator_resumes() {
        let mut scripted = Dice::seeded(9);
        scripted.force([10, 9, 1]);
        assert_eq!(scripted.roll_2d10(), [10, 9]);
        assert_eq!(scripted.roll(6), 1);
        assert_eq!(scripted.pending_forced(), 0);
        // After the script, the seeded stream continues where it would have.
        let mut plain = Dice::seeded(9);
        assert_eq!(scripted.roll(10), plain.roll(10));
    }

    #[test]
    fn forced_value_too_big_for_the_die_is_recorded_not_panicked() {
        let mut d = Dice::seeded(1);
        d.force([12]);
        assert_eq!(d.roll(10), 10);
        assert_eq!(
            d.mismatches(),
            &[ForcedMismatch {
                sides: 10,
                forced: 12
            }]
        );
    }

    #[test]
    fn dice_state_survives_a_save() {
        let mut d = Dice::seeded(5);
        d.roll(10);
        let saved = ron::to_string(&d).unwrap();
        let mut restored: Dice = ron::from_str(&saved).unwrap();
        assert_eq!(d.roll_many(20, 10), restored.roll_many(20, 10));
    }
}
