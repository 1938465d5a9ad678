//! AI opponents: a [`Brain`] looks at an encounter and its legal actions and
//! chooses one, whether that is whose turn to start, what the acting
//! creature does, or how to answer a triggered-action prompt.
//!
//! Shipped brains: [`random`], [`greedy`], [`tactical`] and [`search`]; see
//! `docs/ai.md` for writing a new one.

pub mod bully;
pub mod describe;
pub mod exec;
pub mod greedy;
pub mod lasting;
mod position;
pub mod random;
pub mod score;
pub mod search;
pub mod tactical;
mod worth;

use crate::encounter::{Command, Encounter};

/// Something that plays one side of an encounter.
pub trait Brain {
    /// A short name for reports and errors.
    fn name(&self) -> String;

    /// Choose one of `legal`, which is never empty: the encounter's legal
    /// actions right now (a creature to start, the acting creature's
    /// actions, or the answers to an open prompt). Returning a command not in
    /// `legal` is a bug the simulator reports; it ends that creature's turn.
    fn choose(&mut self, encounter: &Encounter, legal: &[Command]) -> Command;

    /// [`Brain::choose`], answered as the chosen command's position in
    /// `legal`, or as the command itself if it is not there (an illegal
    /// choice). The simulator asks this; the default asks `choose` and looks
    /// its answer up. A brain that picks by position overrides it to spare
    /// the copy and the search (the random brain does: a random game makes
    /// some two thousand choices).
    fn choose_at(&mut self, encounter: &Encounter, legal: &[Command]) -> Result<usize, Command> {
        let chosen = self.choose(encounter, legal);
        legal.iter().position(|c| *c == chosen).ok_or(chosen)
    }

    /// For a brain that chooses by position alone, reading none of the
    /// commands: the position of its choice among the listing's `count`
    /// slots ([`Listing`](crate::encounter::Listing)). The simulator asks
    /// this first and then builds only the command chosen (a random game
    /// makes some 1,300 choices, most among a hundred moves it would
    /// otherwise build and drop). A slot holds a legal command unless the
    /// last check of it, made only when it is chosen (line of effect to an
    /// ability's target, Hide's cover, a charge's straight run), fails;
    /// then the brain is asked again, up to 64 times in a row, and after
    /// that with the whole list (`choose_at`). So a uniform pick here is
    /// uniform over the legal commands, as [`Brain::choose_at`]'s is over
    /// the list. The default, `None`, takes nothing from the brain: it is
    /// asked `choose_at` with the whole list.
    fn choose_position(&mut self, encounter: &Encounter, count: usize) -> Option<usize> {
        let _ = (encounter, count);
        None
    }

    /// What went wrong in its choices since last asked, each said in full
    /// (an external brain's crash, hang or garbage answer): the simulator
    /// reports each with the game's seed. The shipped brains have none.
    fn take_errors(&mut self) -> Vec<String> {
        Vec::new()
    }
}

/// What is done instead of a brain's choice that can't be made: let a
/// prompt pass, end the acting creature's turn, or else the first legal
/// command (start the first creature that may).
pub fn fallback_index(legal: &[Command]) -> usize {
    legal
        .iter()
        .position(|c| {
            matches!(c, Command::Answer { reaction: None, .. })
                || matches!(c, Command::EndTurn { .. })
        })
        .unwrap_or(0)
}

/// The prefix of a brain named by a weights file: the tactical scorer
/// with the weights in `weights:PATH` (a file as `ai/tactical.ron`).
pub const WEIGHTS: &str = "weights:";

/// The names [`by_name`] knows.
pub const BRAINS: [&str; 4] = ["random", "greedy", "tactical", "search"];

/// The brain the client plays its AI sides with unless told otherwise (and
/// the stand-in that plays ahead for screenshots).
pub const DEFAULT_BRAIN: &str = "tactical";

/// Why a brain could not be made.
#[derive(Debug, thiserror::Error)]
pub enum BrainError {
    #[error(
        "no brain called `{0}` (known: random, greedy, tactical, search, weights:FILE, or exec:COMMAND)"
    )]
    Unknown(String),
    #[error("{0}")]
    Weights(String),
}

/// Make a shipped brain by name, seeded for its own choices; the tactical
/// scorer with a file's weights, `weights:FILE`; or an external brain,
/// `exec:COMMAND` ([`exec`]). `tactical`
/// reads its weights from `content`'s `ai/tactical.ron` (defaults if absent).
pub fn by_name(
    name: &str,
    seed: u64,
    content: &crate::content::ContentDb,
) -> Result<Box<dyn Brain>, BrainError> {
    Ok(match name {
        "random" => Box::new(random::Random::new(seed)),
        "greedy" => Box::new(greedy::Greedy::default()),
        "tactical" => Box::new(tactical::Tactical::new(content.tactical.clone())),
        "search" => Box::new(search::Search::new(seed, search::Budget::default())),
        other if other.starts_with(exec::PREFIX) && other.len() > exec::PREFIX.len() => {
            Box::new(exec::Exec::new(&other[exec::PREFIX.len()..]))
        }
        other if other.starts_with(WEIGHTS) && other.len() > WEIGHTS.len() => {
            let path = std::path::Path::new(&other[WEIGHTS.len()..]);
            let w = crate::content::load_weights(path)
                .map_err(|e| BrainError::Weights(e.to_string()))?;
            Box::new(tactical::Tactical::named(w, other))
        }
        other => return Err(BrainError::Unknown(other.to_string())),
    })
}

/// The index of the highest score, the first on ties.
pub(super) fn best<T>(items: &[T], mut score: impl FnMut(&T) -> f64) -> usize {
    let mut best = (0, f64::NEG_INFINITY);
    for (i, it) in items.iter().enumerate() {
        let s = score(it);
        if s > best.1 {
            best = (i, s);
        }
    }
    best.0
}

#[cfg(test)]
mod tests {
    use std::path::Path;
    use std::sync::Arc;

    use super::*;

    // docs/ai.md's worked example is this crate's `bully.rs`, word for word,
    // and it plays whole games without mistakes.
    #[test]
    fn the_documented_example_brain_compiles_and_plays() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let doc = std::fs::read_to_string(root.join("../../docs/ai.md")).unwrap();
        let code = std::fs::read_to_string(root.join("src/ai/bully.rs")).unwrap();
        assert!(doc.contains(&code), "docs/ai.md and ai/bully.rs differ");
        let db = Arc::new(crate::content::ContentDb::load(root.join("../../assets")).unwrap());
        let greedy = by_name("greedy", 1, &db).unwrap();
        let (g, _) = crate::sim::play_with(
            &db,
            "first_blood",
            3,
            Box::new(bully::Bully),
            greedy,
            20_000,
        )
        .unwrap();
        assert!(g.errors.is_empty(), "{:?}", g.errors);
        assert!(g.winner.is_some());
    }
}
