//! Content loading: every RON file under `assets/` is read, parsed and
//! validated as a whole. Unknown ids, bad numbers, duplicates and unreadable
//! tier lines are all reported in one pass, each with file:line:column.

pub mod budget;
pub mod builder;
pub mod encounter;
pub mod free_text;
pub mod hero;
mod hero_checks;
mod loader;
mod locate;
pub mod types;
mod validate;
pub mod weights;

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use bevy_app::App;
use bevy_ecs::prelude::*;
use serde::de::DeserializeOwned;

pub use loader::HasId;
use loader::{Loader, Needle};
pub use locate::Locator;
pub use types::{
    CaptainBonus, Class, MAX_COST, MAX_DISTANCE, MAX_FREE_STRIKE, MAX_RECOVERIES, MAX_STAMINA,
    MAX_TARGETS, Monster, Organization, ResourceGain, ResourceTrigger, Role, Ruleset, RulesetKind,
    ability_problems,
};
pub use validate::{unknown_monsters, unknown_prepared};

use crate::ability::Ability;
use crate::map::{Footprint, Map, MapDef, MapError, Pos};
use encounter::EncounterDef;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Content>();
}

/// One problem in one content file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContentError {
    pub file: PathBuf,
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl fmt::Display for ContentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}",
            self.file.display(),
            self.line,
            self.column,
            self.message
        )
    }
}

/// All the problems found in one load.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ContentErrors(pub Vec<ContentError>);

impl fmt::Display for ContentErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for e in &self.0 {
            writeln!(f, "{e}")?;
        }
        write!(f, "{} error(s) in content", self.0.len())
    }
}

impl std::error::Error for ContentErrors {}

/// Parse one RON document, turning a syntax or shape error into a
/// [`ContentError`] with the file, line, column and what was expected.
/// A weights file (as `ai/tactical.ron`, docs/ai.md): every weight a
/// finite number, each error at its file, line and column.
pub fn load_weights(path: &Path) -> Result<crate::content::weights::Weights, ContentErrors> {
    let src = read_text(path).map_err(|message| {
        ContentErrors(vec![ContentError {
            file: path.to_path_buf(),
            line: 1,
            column: 1,
            message,
        }])
    })?;
    let w = parse_ron::<crate::content::weights::Weights>(path, &src)
        .map_err(|e| ContentErrors(vec![e]))?;
    let loc = Locator::new(&src);
    let errors: Vec<ContentError> = w
        .not_finite()
        .into_iter()
        .map(|name| {
            let at = loc.find_field(0, &name);
            let (line, column) = at.map_or((1, 1), |o| loc.position(o));
            ContentError {
                file: path.to_path_buf(),
                line,
                column,
                message: format!("weight `{name}` is not a finite number"),
            }
        })
        .collect();
    if errors.is_empty() {
        Ok(w)
    } else {
        Err(ContentErrors(errors))
    }
}

pub fn parse_ron<T: DeserializeOwned>(file: &Path, src: &str) -> Result<T, ContentError> {
    ron::Options::default()
        .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
        .from_str(src)
        .map_err(|e| ContentError {
            file: file.to_path_buf(),
            line: e.span.start.line,
            column: e.span.start.col,
            message: e.code.to_string(),
        })
}

pub use crate::files::{MAX_FILE_BYTES, read_text};

/// Read and parse one RON file.
pub fn read_ron<T: DeserializeOwned>(file: &Path) -> Result<(T, String), ContentError> {
    let src = read_text(file).map_err(|message| ContentError {
        file: file.to_path_buf(),
        line: 1,
        column: 1,
        message,
    })?;
    let value = parse_ron(file, &src)?;
    Ok((value, src))
}

/// Where an item was defined, for later error messages.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Origin {
    pub file: PathBuf,
    pub line: usize,
    pub column: usize,
}

/// Abilities by id, hashed with a fixed seed (the same on every run).
/// Each is shared: a creature in an encounter keeps its own looked up
/// once, as it is made, and a listing reads them from there instead of
/// looking each up again.
pub type AbilityMap = std::collections::HashMap<String, Arc<Ability>, foldhash::fast::FixedState>;

/// Every piece of content, validated.
#[derive(Clone, Debug, Default)]
pub struct ContentDb {
    pub root: PathBuf,
    pub rulesets: BTreeMap<String, Ruleset>,
    pub classes: BTreeMap<String, Class>,
    /// By id. Hashed, not ordered: the engine looks abilities up by id for
    /// every creature at every command, and nothing lists them in order.
    pub abilities: AbilityMap,
    pub monsters: BTreeMap<String, Monster>,
    /// docs/rules.md#kits.
    pub kits: BTreeMap<String, hero::Kit>,
    /// docs/rules.md#ancestries.
    pub ancestries: BTreeMap<String, hero::Ancestry>,
    pub maps: BTreeMap<String, LoadedMap>,
    pub encounters: BTreeMap<String, EncounterDef>,
    pub origins: BTreeMap<(Kind, String), Origin>,
    /// The tactical AI's weights (`ai/tactical.ron`; defaults if absent).
    pub tactical: weights::Weights,
}

/// The tactical AI's weights when no `ai/tactical.ron` is given.
pub fn default_tactical() -> weights::Weights {
    weights::Weights {
        focus_fire: 2.0,
        hazard: 1.5,
        flank: 2.0,
        protect_wounded: 1.5,
        plan: 0.8,
        ..weights::Weights::greedy()
    }
}

/// A map from `assets/maps/`, built and ready.
#[derive(Clone, Debug, PartialEq)]
pub struct LoadedMap {
    pub id: String,
    pub name: String,
    pub description: String,
    pub map: Map,
}

/// The kinds of content, each in a folder of its own under `assets/`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    Ruleset,
    Class,
    Ability,
    Monster,
    Kit,
    Ancestry,
    Map,
    Encounter,
}

impl Kind {
    pub const ALL: [Kind; 8] = [
        Kind::Ruleset,
        Kind::Class,
        Kind::Ability,
        Kind::Monster,
        Kind::Kit,
        Kind::Ancestry,
        Kind::Map,
        Kind::Encounter,
    ];

    pub fn folder(self) -> &'static str {
        match self {
            Kind::Ruleset => "rulesets",
            Kind::Class => "classes",
            Kind::Ability => "abilities",
            Kind::Monster => "monsters",
            Kind::Kit => "kits",
            Kind::Ancestry => "ancestries",
            Kind::Map => "maps",
            Kind::Encounter => "encounters",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Kind::Ruleset => "ruleset",
            Kind::Class => "class",
            Kind::Ability => "ability",
            Kind::Monster => "monster",
            Kind::Kit => "kit",
            Kind::Ancestry => "ancestry",
            Kind::Map => "map",
            Kind::Encounter => "encounter",
        }
    }
}

/// The loaded content as a resource, shared cheaply.
#[derive(Resource, Clone, Debug, Default)]
pub struct Content(pub Arc<ContentDb>);

impl std::ops::Deref for Content {
    type Target = ContentDb;
    fn deref(&self) -> &ContentDb {
        &self.0
    }
}

impl ContentDb {
    /// Counts per kind, for `skirmish check`.
    pub fn counts(&self) -> Vec<(Kind, usize)> {
        vec![
            (Kind::Ruleset, self.rulesets.len()),
            (Kind::Class, self.classes.len()),
            // (Not the kits' versions of abilities: content does not write them.)
            (
                Kind::Ability,
                self.abilities.keys().filter(|k| !k.contains('@')).count(),
            ),
            (Kind::Monster, self.monsters.len()),
            (Kind::Kit, self.kits.len()),
            (Kind::Ancestry, self.ancestries.len()),
            (Kind::Map, self.maps.len()),
            (Kind::Encounter, self.encounters.len()),
        ]
    }

    pub fn ability(&self, id: &str) -> Option<&Ability> {
        self.abilities.get(id).map(|a| &**a)
    }

    /// Add the encounter of `file` (one from outside the content folder,
    /// or a changed copy of one in it), validated as the encounters of the
    /// folder are: its errors name the file, line and column. An encounter
    /// of the same id is replaced. Returns its id.
    pub fn add_encounter_file(&mut self, file: &Path) -> Result<String, ContentErrors> {
        let at_start = |message: String| {
            ContentErrors(vec![ContentError {
                file: file.to_path_buf(),
                line: 1,
                column: 1,
                message,
            }])
        };
        let src = read_text(file).map_err(at_start)?;
        let def: EncounterDef = parse_ron(file, &src).map_err(|e| ContentErrors(vec![e]))?;
        let id = def.id.clone();
        let mut loader = Loader {
            db: std::mem::take(self),
            errors: Vec::new(),
            sources: BTreeMap::from([(file.to_path_buf(), src.clone())]),
            map_defs: BTreeMap::new(),
            failed: Vec::new(),
        };
        // The one it replaces goes first (else it would be a duplicate).
        loader.db.encounters.remove(&id);
        loader.db.origins.remove(&(Kind::Encounter, id.clone()));
        let items = loader.items::<EncounterDef>(Kind::Encounter, file, &src);
        for (item, def) in items {
            loader.db.encounters.insert(item.clone(), def);
            loader.validate_encounter(&item);
        }
        *self = loader.db;
        if loader.errors.is_empty() {
            Ok(id)
        } else {
            Err(ContentErrors(loader.errors))
        }
    }

    /// Load and validate everything under `root` (normally `assets/`).
    pub fn load(root: impl AsRef<Path>) -> Result<ContentDb, ContentErrors> {
        let root = root.as_ref();
        let mut loader = Loader {
            db: ContentDb {
                root: root.to_path_buf(),
                ..Default::default()
            },
            errors: Vec::new(),
            sources: BTreeMap::new(),
            map_defs: BTreeMap::new(),
            failed: Vec::new(),
        };
        if !root.is_dir() {
            return Err(ContentErrors(vec![ContentError {
                file: root.to_path_buf(),
                line: 1,
                column: 1,
                message: "no such content folder".into(),
            }]));
        }
        let mut found = 0;
        for kind in Kind::ALL {
            let folder = root.join(kind.folder());
            let (files, unreadable) = ron_files(&folder);
            for e in unreadable {
                loader.failed.push((kind, e.file.clone()));
                loader.errors.push(e);
            }
            found += files.len();
            for file in files {
                loader.load_file(kind, &file);
            }
            if kind == Kind::Map {
                let (files, _) = files_with(&folder, "tmx");
                found += files.len();
                for file in files {
                    loader.load_tmx(&file);
                }
            }
        }
        if found == 0 && loader.errors.is_empty() {
            let folders: Vec<String> = Kind::ALL
                .iter()
                .map(|k| format!("{}/", k.folder()))
                .collect();
            return Err(ContentErrors(vec![ContentError {
                file: root.to_path_buf(),
                line: 1,
                column: 1,
                message: format!(
                    "no content found: a content folder holds RON files under {}",
                    folders.join(", ")
                ),
            }]));
        }
        let tactical = root.join("ai/tactical.ron");
        loader.db.tactical = default_tactical();
        if tactical.is_file() {
            match load_weights(&tactical) {
                Ok(w) => loader.db.tactical = w,
                Err(e) => loader.errors.extend(e.0),
            }
        }
        // What was found reading and parsing comes first: a file that
        // failed to load is the cause of the unknown ids that follow.
        let roots = loader.errors.len();
        loader.validate();
        if loader.errors.is_empty() {
            Ok(loader.db)
        } else {
            let by_place = |a: &ContentError, b: &ContentError| {
                (&a.file, a.line, a.column).cmp(&(&b.file, b.line, b.column))
            };
            loader.errors[..roots].sort_by(by_place);
            loader.errors[roots..].sort_by(by_place);
            Err(ContentErrors(loader.errors))
        }
    }
}

/// The `.ron` files in a folder and its subfolders, sorted, and the
/// subfolders that could not be read (an error each).
pub fn ron_files(dir: &Path) -> (Vec<PathBuf>, Vec<ContentError>) {
    files_with(dir, "ron")
}

/// The files with an extension in a folder and its subfolders, sorted.
/// A symbolic link is followed only to a place inside `dir` (never out of
/// the content folder), and each folder is walked once (never round a
/// loop of links). A folder that cannot be read is named in an error, so
/// the unknown ids that follow have a cause; a missing `dir` is no error.
pub fn files_with(dir: &Path, extension: &str) -> (Vec<PathBuf>, Vec<ContentError>) {
    let mut out = Vec::new();
    let mut unreadable = Vec::new();
    let Ok(root) = dir.canonicalize() else {
        return (out, unreadable);
    };
    let mut seen = std::collections::BTreeSet::from([root.clone()]);
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let entries = match std::fs::read_dir(&d) {
            Ok(entries) => entries,
            Err(e) => {
                unreadable.push(ContentError {
                    file: d.clone(),
                    line: 1,
                    column: 1,
                    message: format!("cannot read the folder ({e}): its content is missing"),
                });
                continue;
            }
        };
        for e in entries.flatten() {
            let p = e.path();
            let linked = e.file_type().is_ok_and(|t| t.is_symlink());
            // Where it really is: a link leading out of the folder is
            // passed over.
            let Ok(real) = p.canonicalize() else {
                continue;
            };
            if linked && !real.starts_with(&root) {
                continue;
            }
            if real.is_dir() {
                if seen.insert(real) {
                    stack.push(p);
                }
            } else if p.extension().is_some_and(|x| x == extension) {
                out.push(p);
            }
        }
    }
    out.sort();
    (out, unreadable)
}

#[cfg(test)]
mod tests;
