//! Content loading: every RON file under `assets/` is read, parsed and
//! validated as a whole. Unknown ids, bad numbers, duplicates and unreadable
//! tier lines are all reported in one pass, each with file:line:column.

pub mod budget;
pub mod builder;
pub mod encounter;
pub mod free_text;
pub mod hero;
mod hero_checks;
mod locate;
pub mod types;
pub mod weights;

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use bevy_app::App;
use bevy_ecs::prelude::*;
use serde::de::DeserializeOwned;

pub use locate::Locator;
pub use types::*;

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

struct Loader {
    db: ContentDb,
    errors: Vec<ContentError>,
    sources: BTreeMap<PathBuf, String>,
    map_defs: BTreeMap<String, MapDef>,
    /// Files of each kind that could not be read or parsed: their items
    /// are missing, and the ids they define show up as unknown.
    failed: Vec<(Kind, PathBuf)>,
}

impl Loader {
    /// "unknown `kind` id": naming, when files of that kind failed to load,
    /// the one that would have defined it (or all of them), as the cause.
    fn unknown(&self, kind: Kind, id: &str) -> String {
        let mut message = format!("unknown {} id `{id}`", kind.label());
        let failed: Vec<&PathBuf> = self
            .failed
            .iter()
            .filter(|(k, _)| *k == kind)
            .map(|(_, f)| f)
            .collect();
        let likely: Vec<&PathBuf> = failed
            .iter()
            .copied()
            .filter(|f| self.sources.get(*f).is_some_and(|src| src.contains(id)))
            .collect();
        let named = if likely.is_empty() { failed } else { likely };
        if !named.is_empty() {
            let files: Vec<String> = named.iter().map(|f| f.display().to_string()).collect();
            message.push_str(&format!(
                " (perhaps defined in {}, which failed to load: see the error above)",
                files.join(", ")
            ));
        }
        message
    }

    fn error_at(&mut self, file: &Path, offset: Option<usize>, message: String) {
        let (line, column) = match (offset, self.sources.get(file)) {
            (Some(o), Some(src)) => Locator::new(src).position(o),
            _ => (1, 1),
        };
        self.errors.push(ContentError {
            file: file.to_path_buf(),
            line,
            column,
            message,
        });
    }

    fn load_file(&mut self, kind: Kind, file: &Path) {
        let src = match read_text(file) {
            Ok(s) => s,
            Err(message) => {
                self.error_at(file, None, message);
                self.failed.push((kind, file.to_path_buf()));
                return;
            }
        };
        self.sources.insert(file.to_path_buf(), src.clone());
        match kind {
            Kind::Ruleset => {
                let items = self.items::<Ruleset>(kind, file, &src);
                self.db.rulesets.extend(items);
            }
            Kind::Class => {
                let items = self.items::<Class>(kind, file, &src);
                self.db.classes.extend(items);
            }
            Kind::Ability => {
                let items = self.items::<Ability>(kind, file, &src);
                self.db
                    .abilities
                    .extend(items.into_iter().map(|(id, a)| (id, Arc::new(a))));
            }
            Kind::Monster => {
                let items = self.items::<Monster>(kind, file, &src);
                self.db.monsters.extend(items);
            }
            Kind::Kit => {
                let items = self.items::<hero::Kit>(kind, file, &src);
                self.db.kits.extend(items);
            }
            Kind::Ancestry => {
                let items = self.items::<hero::Ancestry>(kind, file, &src);
                self.db.ancestries.extend(items);
            }
            Kind::Map => {
                let items = self.items::<MapDef>(kind, file, &src);
                self.map_defs.extend(items);
            }
            Kind::Encounter => {
                let items = self.items::<EncounterDef>(kind, file, &src);
                self.db.encounters.extend(items);
            }
        }
    }

    fn load_tmx(&mut self, file: &Path) {
        let id = file
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        match crate::map::tiled::load_tmx(file) {
            Ok(map) => {
                if let Some(prev) = self.db.origins.get(&(Kind::Map, id.clone())) {
                    let message = format!(
                        "duplicate map id `{id}`: already defined at {}:{}:{}",
                        prev.file.display(),
                        prev.line,
                        prev.column
                    );
                    self.error_at(file, None, message);
                    return;
                }
                self.db.origins.insert(
                    (Kind::Map, id.clone()),
                    Origin {
                        file: file.to_path_buf(),
                        line: 1,
                        column: 1,
                    },
                );
                self.db.maps.insert(
                    id.clone(),
                    LoadedMap {
                        name: id.replace('_', " "),
                        id,
                        description: String::new(),
                        map,
                    },
                );
            }
            Err(e) => {
                self.error_at(file, None, format!("cannot import the Tiled map: {e}"));
                self.failed.push((Kind::Map, file.to_path_buf()));
            }
        }
    }

    /// Build the ASCII maps, pointing errors at the row and column.
    fn build_maps(&mut self) {
        let defs = std::mem::take(&mut self.map_defs);
        for (id, def) in defs {
            match def.build() {
                Ok(map) => {
                    self.db.maps.insert(
                        id.clone(),
                        LoadedMap {
                            id,
                            name: def.name,
                            description: def.description,
                            map,
                        },
                    );
                }
                Err(e) => {
                    // The row (of `rows` or of `heights`) and square.
                    let row = match &e {
                        MapError::RaggedRow { row, heights, .. } => Some((*heights, *row, 0)),
                        MapError::UnknownSymbol { row, col, .. } => Some((false, *row, *col)),
                        MapError::BadHeight { row, col, .. } => Some((true, *row, *col)),
                        _ => None,
                    };
                    let Some((file, at)) = self.anchor(Kind::Map, &id) else {
                        self.report_unanchored(Kind::Map, &id, e.to_string());
                        continue;
                    };
                    let src = self.sources.get(&file).cloned().unwrap_or_default();
                    let loc = Locator::new(&src);
                    // A legend entry's number: at its symbol in the legend.
                    let legend = match &e {
                        MapError::BadLegend { symbol, .. } => loc
                            .find_field(at, "legend")
                            .and_then(|from| loc.find_from(from, &format!("'{symbol}'"))),
                        _ => None,
                    };
                    let offset = legend.or_else(|| {
                        row.and_then(|(heights, r, c)| {
                            let field = if heights { "heights" } else { "rows" };
                            let rows_at = loc.find_field(at, field)?;
                            let rows = if heights { &def.heights } else { &def.rows };
                            // Each row found after the one before it, so equal
                            // rows are told apart.
                            let mut from = rows_at;
                            for earlier in rows.get(..r)? {
                                from = loc.find_string(from, earlier)? + earlier.len();
                            }
                            let text = rows.get(r)?;
                            let start = loc.find_string(from, text)?;
                            let byte = text.char_indices().nth(c).map_or(0, |(b, _)| b);
                            Some(start + byte)
                        })
                    });
                    self.error_at(&file, offset.or(Some(at)), format!("map `{id}`: {e}"));
                }
            }
        }
    }

    /// Parse a file of one item or a list, registering each item's origin
    /// and reporting duplicates. Returns the accepted items by id.
    fn items<T: DeserializeOwned + HasId>(
        &mut self,
        kind: Kind,
        file: &Path,
        src: &str,
    ) -> Vec<(String, T)> {
        // Parse as the item first so a single item's error message names the
        // item's fields rather than the list-or-item wrapper.
        let items = match parse_ron::<T>(file, src) {
            Ok(one) => vec![one],
            Err(single) => match parse_ron::<Vec<T>>(file, src) {
                Ok(many) => many,
                Err(list) => {
                    let starts_list = src
                        .lines()
                        .map(str::trim)
                        .find(|l| !l.is_empty() && !l.starts_with("//") && !l.starts_with("#!"))
                        .is_some_and(|l| l.starts_with('['));
                    self.errors.push(if starts_list { list } else { single });
                    self.failed.push((kind, file.to_path_buf()));
                    return Vec::new();
                }
            },
        };
        let loc = Locator::new(src);
        let mut seen_here: BTreeMap<String, usize> = BTreeMap::new();
        let mut accepted = Vec::new();
        for item in items {
            let id = item.id().to_string();
            let nth = seen_here.entry(id.clone()).or_default();
            let at = loc.find_id(&id, *nth);
            *nth += 1;
            let (line, column) = at.map_or((1, 1), |o| loc.position(o));
            if id.is_empty() {
                self.error_at(file, at, format!("a {} with an empty id", kind.label()));
                continue;
            }
            if let Some(prev) = self.db.origins.get(&(kind, id.clone())) {
                let message = format!(
                    "duplicate {} id `{id}`: already defined at {}:{}:{}",
                    kind.label(),
                    prev.file.display(),
                    prev.line,
                    prev.column
                );
                self.error_at(file, at, message);
                continue;
            }
            self.db.origins.insert(
                (kind, id.clone()),
                Origin {
                    file: file.to_path_buf(),
                    line,
                    column,
                },
            );
            accepted.push((id, item));
        }
        accepted
    }

    /// Where item `id` of `kind` was written, and its file's locator.
    fn anchor(&self, kind: Kind, id: &str) -> Option<(PathBuf, usize)> {
        let origin = self.db.origins.get(&(kind, id.to_string()))?;
        let src = self.sources.get(&origin.file)?;
        let at = Locator::new(src).find_id(id, 0)?;
        Some((origin.file.clone(), at))
    }

    /// Report a problem with item `id` whose id is not found as written in
    /// its file (a raw string, an escape, a comment before it): at the
    /// item's origin, the best place known, and never dropped.
    fn report_unanchored(&mut self, kind: Kind, id: &str, message: String) {
        let origin = self
            .db
            .origins
            .get(&(kind, id.to_string()))
            .cloned()
            .unwrap_or_default();
        self.errors.push(ContentError {
            file: origin.file,
            line: origin.line.max(1),
            column: origin.column.max(1),
            message: format!("{} `{id}`: {message}", kind.label()),
        });
    }

    /// Report a problem with item `id`, pointing at `needle` (a quoted string
    /// or a field name) after the item's id, or at the id itself.
    fn report(&mut self, kind: Kind, id: &str, needle: Needle, message: String) {
        let Some((file, at)) = self.anchor(kind, id) else {
            self.report_unanchored(kind, id, message);
            return;
        };
        let src = self.sources.get(&file).cloned().unwrap_or_default();
        let loc = Locator::new(&src);
        let offset = match needle {
            Needle::Id => Some(at),
            Needle::String(s) => loc.find_string(at, s).or(Some(at)),
            Needle::Field(f) => loc.find_field(at, f).or(Some(at)),
        };
        self.error_at(&file, offset, format!("{} `{id}`: {message}", kind.label()));
    }

    fn validate(&mut self) {
        self.build_maps();
        self.validate_abilities();
        self.validate_heroes();
        // docs/rules.md#glyphs: a map may start with a glyph network as a trap.
        let map_ids: Vec<String> = self.db.maps.keys().cloned().collect();
        for id in map_ids {
            let map = self.db.maps[&id].map.clone();
            for (p, from) in &map.glyphs {
                let problem = match self.db.abilities.get(from) {
                    Some(a) if a.glyph.is_some() => None,
                    Some(_) => Some(format!("ability `{from}` places no glyph")),
                    None => Some(self.unknown(Kind::Ability, from)),
                };
                if let Some(m) = problem {
                    self.report(
                        Kind::Map,
                        &id,
                        Needle::String(from),
                        format!("glyph at {p}: {m}"),
                    );
                }
                if !map.in_bounds(*p) || !map.footprint_open(Footprint::single(*p)) {
                    let m = format!("glyph at {p} is not on open ground");
                    self.report(Kind::Map, &id, Needle::Field("glyphs"), m);
                }
            }
            // docs/rules.md#loot: a treasure tile yields an item.
            for (i, (p, item)) in map.items.iter().enumerate() {
                let problem = match self.db.abilities.get(item) {
                    Some(a) if a.item => None,
                    Some(_) => Some(format!("`{item}` is not an item (`item: true`)")),
                    None => Some(self.unknown(Kind::Ability, item)),
                };
                if let Some(m) = problem {
                    let m = format!("treasure at {p}: {m}");
                    self.report(Kind::Map, &id, Needle::String(item), m);
                }
                if !map.in_bounds(*p) || !map.footprint_open(Footprint::single(*p)) {
                    let m = format!("treasure at {p} is not on open ground");
                    self.report(Kind::Map, &id, Needle::Field("treasure"), m);
                }
                if map.items[..i].iter().any(|(q, _)| q == p) {
                    let m = format!("two treasure tiles at {p}");
                    self.report(Kind::Map, &id, Needle::Field("treasure"), m);
                }
            }
        }
        let class_ids: Vec<String> = self.db.classes.keys().cloned().collect();
        for id in class_ids {
            let class = self.db.classes[&id].clone();
            for problem in class.problems() {
                self.report(Kind::Class, &id, Needle::Field(problem.0), problem.1);
            }
            for a in &class.abilities {
                if !self.db.abilities.contains_key(a) {
                    self.report(
                        Kind::Class,
                        &id,
                        Needle::String(a),
                        self.unknown(Kind::Ability, a),
                    );
                }
            }
        }
        let monster_ids: Vec<String> = self.db.monsters.keys().cloned().collect();
        for id in monster_ids {
            let m = self.db.monsters[&id].clone();
            for problem in m.problems() {
                self.report(Kind::Monster, &id, Needle::Field(problem.0), problem.1);
            }
            for a in &m.abilities {
                if !self.db.abilities.contains_key(a) {
                    self.report(
                        Kind::Monster,
                        &id,
                        Needle::String(a),
                        self.unknown(Kind::Ability, a),
                    );
                }
                // docs/rules.md#villain-actions: a leader's or a solo's.
                let villain = self
                    .db
                    .ability(a)
                    .is_some_and(|ab| ab.action == crate::ability::ActionType::VillainAction);
                if villain
                    && !matches!(
                        m.organization,
                        types::Organization::Leader | types::Organization::Solo
                    )
                {
                    let msg = format!("`{a}` is a villain action: only a leader or solo has them");
                    self.report(Kind::Monster, &id, Needle::String(a), msg);
                }
            }
        }
        let encounter_ids: Vec<String> = self.db.encounters.keys().cloned().collect();
        for id in encounter_ids {
            self.validate_encounter(&id);
        }
        let ruleset_ids: Vec<String> = self.db.rulesets.keys().cloned().collect();
        for id in ruleset_ids {
            for problem in self.db.rulesets[&id].problems() {
                self.report(Kind::Ruleset, &id, Needle::Field(problem.0), problem.1);
            }
            for a in self.db.rulesets[&id].basic_abilities.clone() {
                if !self.db.abilities.contains_key(&a) {
                    let m = self.unknown(Kind::Ability, &a);
                    self.report(Kind::Ruleset, &id, Needle::String(&a), m);
                }
            }
            // docs/rules.md#movement-powers: the powers given by calling
            // (class) and role are extra powers, given to classes that exist.
            let Some(phased) = self.db.rulesets[&id].phased.clone() else {
                continue;
            };
            for class in phased.class_powers.keys() {
                if !self.db.classes.contains_key(class) {
                    let m = format!("class_powers: {}", self.unknown(Kind::Class, class));
                    self.report(Kind::Ruleset, &id, Needle::String(class), m);
                }
            }
            let given = phased
                .class_powers
                .values()
                .chain(phased.role_powers.values());
            if let Some(p) = given
                .flatten()
                .find(|p| !crate::phased::MovementPower::EXTRA.contains(p))
            {
                let m = format!(
                    "{} is every creature's power: class_powers and role_powers give only {:?}",
                    p.name(),
                    crate::phased::MovementPower::EXTRA
                );
                self.report(Kind::Ruleset, &id, Needle::Field("phased"), m);
            }
        }
    }

    /// Report a problem at the `nth` `at:` of an encounter's heroes
    /// (`monsters == false`) or monsters list.
    fn report_at(&mut self, id: &str, list: &str, nth: usize, message: String) {
        let Some((file, at)) = self.anchor(Kind::Encounter, id) else {
            self.report_unanchored(Kind::Encounter, id, message);
            return;
        };
        let src = self.sources.get(&file).cloned().unwrap_or_default();
        let loc = Locator::new(&src);
        let mut offset = loc.find_field(at, list);
        for _ in 0..=nth {
            offset = offset.and_then(|o| loc.find_field(o + 1, "at"));
        }
        self.error_at(
            &file,
            offset.or(Some(at)),
            format!("encounter `{id}`: {message}"),
        );
    }

    /// The stat block of the `nth` entry of the encounter's `list`: by id
    /// or inline (an unknown id or a bad inline block is reported).
    fn monster_block(
        &mut self,
        id: &str,
        list: &str,
        i: usize,
        m: &encounter::MonsterDef,
    ) -> Option<types::Monster> {
        match (&m.monster, &m.inline) {
            (Some(mid), None) => match self.db.monsters.get(mid) {
                Some(b) => Some(b.clone()),
                None => {
                    let msg = self.unknown(Kind::Monster, mid);
                    self.report(Kind::Encounter, id, Needle::String(mid), msg);
                    None
                }
            },
            (None, Some(inline)) => {
                for (_, msg) in inline.problems() {
                    self.report_at(
                        id,
                        list,
                        i,
                        format!("inline monster `{}`: {msg}", inline.id),
                    );
                }
                for a in &inline.abilities {
                    if !self.db.abilities.contains_key(a) {
                        let msg = self.unknown(Kind::Ability, a);
                        self.report(Kind::Encounter, id, Needle::String(a), msg);
                    }
                }
                Some(inline.clone())
            }
            _ => {
                let msg = "a monster entry needs exactly one of `monster` or `inline`".to_string();
                self.report_at(id, list, i, msg);
                None
            }
        }
    }

    /// docs/rules.md#objectives and docs/rules.md#reinforcements: the
    /// objective fits the map, the reinforcements name stat blocks and
    /// open squares, and the intended win rate is a band of percents.
    fn validate_plan(&mut self, id: &str, e: &EncounterDef, map: Option<&Map>) {
        use encounter::Objective;
        let bad = |this: &mut Self, field: &'static str, m: String| {
            this.report(Kind::Encounter, id, Needle::Field(field), m)
        };
        match &e.objective {
            Objective::Survive { rounds: 0 } | Objective::Hold { rounds: 0, .. } => bad(
                self,
                "objective",
                "the objective needs at least 1 round".into(),
            ),
            Objective::Hold { zone, .. } => {
                if let Some(map) = map {
                    let off = [zone.from, zone.to]
                        .into_iter()
                        .find(|&(x, y)| !map.in_bounds(Pos::new(x, y)));
                    if let Some((x, y)) = off {
                        let m = format!(
                            "the zone's corner {} is off map `{}` ({}x{})",
                            Pos::new(x, y),
                            e.map,
                            map.width,
                            map.height
                        );
                        bad(self, "objective", m);
                    }
                }
            }
            _ => {}
        }
        let mut nth = 0;
        for r in &e.reinforcements {
            if r.round == 0 {
                bad(
                    self,
                    "reinforcements",
                    "reinforcements arrive at round 1 or later".into(),
                );
            }
            for m in &r.monsters {
                let block = self.monster_block(id, "reinforcements", nth, m);
                let size = block.as_ref().map_or(1, |b| b.size.squares());
                let fp = Footprint::new(Pos::new(m.at.0, m.at.1), size);
                if let Some(map) = map
                    && !map.footprint_open(fp)
                {
                    let name = m
                        .name
                        .clone()
                        .or_else(|| block.as_ref().map(|b| b.name.clone()))
                        .unwrap_or_default();
                    let msg = format!(
                        "reinforcement `{name}` at {} is not on open ground on map `{}`",
                        fp.pos, e.map
                    );
                    self.report_at(id, "reinforcements", nth, msg);
                }
                nth += 1;
            }
        }
        if let Some((low, high)) = e.heroes_win
            && (low > high || high > 100)
        {
            let m = format!(
                "heroes_win ({low}, {high}) must be a band of percents, low to high, at most 100"
            );
            bad(self, "heroes_win", m);
        }
    }

    fn validate_encounter(&mut self, id: &str) {
        let e = self.db.encounters[id].clone();
        if !self.db.rulesets.contains_key(&e.ruleset) {
            let m = self.unknown(Kind::Ruleset, &e.ruleset);
            self.report(Kind::Encounter, id, Needle::String(&e.ruleset), m);
        }
        let map = self.db.maps.get(&e.map).map(|m| m.map.clone());
        if map.is_none() {
            let m = self.unknown(Kind::Map, &e.map);
            self.report(Kind::Encounter, id, Needle::String(&e.map), m);
        }
        self.validate_plan(id, &e, map.as_ref());
        if e.heroes.is_empty() || e.monsters.is_empty() {
            self.report(
                Kind::Encounter,
                id,
                Needle::Id,
                "an encounter needs at least one hero and one monster".into(),
            );
        }
        let mut taken: Vec<(Footprint, String)> = Vec::new();
        let mut place = |this: &mut Self, list: &str, nth: usize, who: String, fp: Footprint| {
            if let Some(map) = &map
                && !map.footprint_open(fp)
            {
                let m = format!(
                    "{who} at {} is not on open ground on map `{}`",
                    fp.pos, e.map
                );
                this.report_at(id, list, nth, m);
                return;
            }
            if let Some((_, other)) = taken.iter().find(|(o, _)| o.overlaps(fp)) {
                let m = format!("{who} at {} overlaps {other}", fp.pos);
                this.report_at(id, list, nth, m);
                return;
            }
            taken.push((fp, who));
        };
        for (i, h) in e.heroes.iter().enumerate() {
            if !self.db.classes.contains_key(&h.class) {
                let m = self.unknown(Kind::Class, &h.class);
                self.report(Kind::Encounter, id, Needle::String(&h.class), m);
            }
            for a in &h.abilities {
                if !self.db.abilities.contains_key(a) {
                    let m = self.unknown(Kind::Ability, a);
                    self.report(Kind::Encounter, id, Needle::String(a), m);
                }
            }
            if !(1..=10).contains(&h.level) {
                self.report_at(
                    id,
                    "heroes",
                    i,
                    format!("hero `{}` has level {} (1 to 10)", h.name, h.level),
                );
            } else if h.victories > hero::MAX_VICTORIES {
                self.report_at(
                    id,
                    "heroes",
                    i,
                    format!(
                        "hero `{}` has {} victories (0 to {})",
                        h.name,
                        h.victories,
                        hero::MAX_VICTORIES
                    ),
                );
            } else if self.db.classes.contains_key(&h.class)
                && let Err(m) = hero::build(h, &self.db)
            {
                self.report_at(id, "heroes", i, format!("hero `{}`: {m}", h.name));
            }
            let fp = Footprint::single(Pos::new(h.at.0, h.at.1));
            place(self, "heroes", i, format!("hero `{}`", h.name), fp);
        }
        for (i, m) in e.monsters.iter().enumerate() {
            let block = self.monster_block(id, "monsters", i, m);
            let size = block.as_ref().map_or(1, |b| b.size.squares());
            let name = m
                .name
                .clone()
                .or_else(|| block.as_ref().map(|b| b.name.clone()))
                .unwrap_or_default();
            let fp = Footprint::new(Pos::new(m.at.0, m.at.1), size);
            place(self, "monsters", i, format!("monster `{name}`"), fp);
            // docs/rules.md#minions: "Up to 8 minions form a squad".
            if let (Some(squad), Some(b)) = (m.squad, &block) {
                if b.organization != types::Organization::Minion {
                    let msg = format!("monster `{name}` is in squad {squad} but is not a minion");
                    self.report_at(id, "monsters", i, msg);
                }
                let members = e.monsters[..=i]
                    .iter()
                    .filter(|o| o.squad == Some(squad))
                    .count() as u32;
                let cap = self
                    .db
                    .rulesets
                    .get(&e.ruleset)
                    .map_or(8, |r| r.max_squad_size);
                if members == cap.saturating_add(1) {
                    let msg = format!("squad {squad} has more than {cap} minions");
                    self.report_at(id, "monsters", i, msg);
                }
            }
            // docs/rules.md#captains: a captain is no minion, in no squad,
            // and leads a squad there is; one to a squad.
            if let Some(n) = m.captain {
                let problem = if block
                    .as_ref()
                    .is_some_and(|b| b.organization == types::Organization::Minion)
                    || m.squad.is_some()
                {
                    Some(format!(
                        "monster `{name}` captains squad {n} but is a minion"
                    ))
                } else if !e.monsters.iter().any(|o| o.squad == Some(n)) {
                    Some(format!(
                        "monster `{name}` captains squad {n}, which has no minions"
                    ))
                } else if e.monsters[..i].iter().any(|o| o.captain == Some(n)) {
                    Some(format!("squad {n} has two captains"))
                } else {
                    None
                };
                if let Some(msg) = problem {
                    self.report_at(id, "monsters", i, msg);
                }
            }
        }
    }

    fn validate_abilities(&mut self) {
        let ids: Vec<String> = self.db.abilities.keys().cloned().collect();
        let resources: Vec<String> = self
            .db
            .classes
            .values()
            .map(|c| c.resource.to_ascii_lowercase())
            .chain(["malice".to_string()])
            .collect();
        // A set of tags (lower case), and it as a list for a message.
        let set = |all: &mut dyn Iterator<Item = &String>| {
            let set: std::collections::BTreeSet<String> =
                all.map(|t| t.to_ascii_lowercase()).collect();
            let listed = if set.is_empty() {
                "none".to_string()
            } else {
                set.iter().cloned().collect::<Vec<_>>().join(", ")
            };
            (set, listed)
        };
        // docs/rules.md#ability-tags: the tags abilities bear.
        let (tags, tags_listed) = set(&mut self.db.abilities.values().flat_map(|a| &a.tags));
        // docs/rules.md#creature-tags: the kinds of creature there are.
        let (kinds, kinds_listed) = set(&mut self
            .db
            .classes
            .values()
            .flat_map(|c| &c.tags)
            .chain(self.db.monsters.values().flat_map(|m| &m.tags)));
        for id in ids {
            let mut ability = Ability::clone(&self.db.abilities[&id]);
            let unborne = ability
                .target
                .tags
                .iter()
                .find(|t| !kinds.contains(&t.to_ascii_lowercase()))
                .cloned();
            if let Some(tag) = unborne {
                let message = format!(
                    "it targets creatures tagged `{tag}`, which no class or monster is \
                     (tags: {kinds_listed})"
                );
                self.report(Kind::Ability, &id, Needle::String(&tag), message);
            }
            let tag = ability.trigger.as_ref().and_then(|t| t.tag.clone());
            if let Some(tag) = tag.filter(|t| !tags.contains(&t.to_ascii_lowercase())) {
                let message = format!(
                    "its trigger names the tag `{tag}`, which no ability has (tags: {tags_listed})"
                );
                self.report(Kind::Ability, &id, Needle::String(&tag), message);
            }
            for (label, text, err) in ability.parse_lines() {
                // Point at the fragment inside the quoted tier text.
                let Some((file, at)) = self.anchor(Kind::Ability, &id) else {
                    self.report_unanchored(Kind::Ability, &id, format!("{label}: {err}"));
                    continue;
                };
                let src = self.sources.get(&file).cloned().unwrap_or_default();
                let offset = Locator::new(&src)
                    .find_string(at, &text)
                    .map(|o| o + err.offset);
                let message = format!("ability `{id}`, {label}: {err}");
                self.error_at(&file, offset.or(Some(at)), message);
            }
            for (field, message) in types::ability_problems(&ability, &resources) {
                self.report(Kind::Ability, &id, Needle::Field(field), message);
            }
            if let Some(bad) = unknown_prepared(&ability, &self.db) {
                let message = format!("prepares {}", self.unknown(Kind::Ability, &bad));
                self.report(Kind::Ability, &id, Needle::String(&bad), message);
            }
            if let Some(bad) = unknown_monsters(&ability, &self.db) {
                let message = format!("summons {}", self.unknown(Kind::Monster, &bad));
                self.report(Kind::Ability, &id, Needle::String(&bad), message);
            }
            self.db.abilities.insert(id, Arc::new(ability));
        }
    }
}

/// The first stat block an ability summons that the content lacks.
pub fn unknown_monsters(ability: &Ability, db: &ContentDb) -> Option<String> {
    ability.find_effect(|e| match e {
        crate::ability::Effect::Summon(id) if !db.monsters.contains_key(id) => Some(id.clone()),
        _ => None,
    })
}

/// The first ability an ability prepares that the content lacks.
pub fn unknown_prepared(ability: &Ability, db: &ContentDb) -> Option<String> {
    ability.find_effect(|e| match e {
        crate::ability::Effect::Prepare { ability, .. } if !db.abilities.contains_key(ability) => {
            Some(ability.clone())
        }
        _ => None,
    })
}

enum Needle<'a> {
    Id,
    String(&'a str),
    Field(&'static str),
}

/// Content items have ids.
pub trait HasId {
    fn id(&self) -> &str;
}

impl HasId for EncounterDef {
    fn id(&self) -> &str {
        &self.id
    }
}

impl HasId for MapDef {
    fn id(&self) -> &str {
        &self.id
    }
}

impl HasId for Ability {
    fn id(&self) -> &str {
        &self.id
    }
}

#[cfg(test)]
mod tests;
