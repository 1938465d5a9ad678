//! Replays and saves: an encounter is its seed plus the commands it
//! accepted. Replaying them gives the identical log; a save is the same
//! file, loaded by replaying it to continue exactly where it was.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::command::{Command, Refusal};
use super::{Encounter, SetupError};
use crate::content::ContentDb;

/// A replay or save file (RON).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Replay {
    pub encounter: String,
    pub seed: u64,
    pub commands: Vec<Command>,
}

/// Why a replay could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    #[error("{0}")]
    Setup(#[from] SetupError),
    #[error("command {index} ({command:?}) was refused on replay: {refusal}")]
    Diverged {
        index: usize,
        command: Box<Command>,
        refusal: Box<Refusal>,
    },
    #[error("the replay file is not valid: {0}")]
    Parse(String),
    /// A replay file that could not be read or parsed: where, and what was
    /// expected.
    #[error("{0}")]
    File(crate::content::ContentError),
}

impl Replay {
    pub fn to_ron(&self) -> String {
        ron::ser::to_string_pretty(self, ron::ser::PrettyConfig::default())
            .unwrap_or_else(|e| format!("// could not write the replay: {e}"))
    }

    pub fn from_ron(text: &str) -> Result<Replay, ReplayError> {
        ron::from_str(text).map_err(|e| ReplayError::Parse(e.to_string()))
    }

    /// Read a replay (or saved game) file: only a regular file of bounded
    /// size; a broken one is an error naming the file, line and column.
    pub fn load(file: &std::path::Path) -> Result<Replay, ReplayError> {
        crate::content::read_ron::<Replay>(file)
            .map(|(replay, _)| replay)
            .map_err(ReplayError::File)
    }

    /// [`play`](Self::play) a replay read from `file`, a refused command
    /// pointed at by the line and column where the file gives it.
    pub fn play_file(
        &self,
        content: Arc<ContentDb>,
        file: &std::path::Path,
    ) -> Result<Encounter, ReplayError> {
        self.play(content).map_err(|e| {
            let at = crate::files::read_text(file).ok().and_then(|src| {
                let l = crate::content::Locator::new(&src);
                let offset = match &e {
                    ReplayError::Diverged { index, .. } => l.find_item("commands", *index),
                    ReplayError::Setup(_) => l.find_field(0, "encounter"),
                    _ => None,
                };
                offset.map(|o| l.position(o))
            });
            match at {
                Some((line, column)) => ReplayError::File(crate::content::ContentError {
                    file: file.to_path_buf(),
                    line,
                    column,
                    message: e.to_string(),
                }),
                None => e,
            }
        })
    }

    /// Set the encounter up again and apply every command.
    pub fn play(&self, content: Arc<ContentDb>) -> Result<Encounter, ReplayError> {
        let mut e = Encounter::new(content, &self.encounter, self.seed)?;
        for (index, command) in self.commands.iter().enumerate() {
            e.apply(command.clone())
                .map_err(|refusal| ReplayError::Diverged {
                    index,
                    command: Box::new(command.clone()),
                    refusal: Box::new(refusal),
                })?;
        }
        Ok(e)
    }
}
