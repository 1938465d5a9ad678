//! The loader's own work: each file read and parsed, maps built, and
//! the errors it finds placed at their file, line and column.

use super::*;

pub(super) struct Loader {
    pub(super) db: ContentDb,
    pub(super) errors: Vec<ContentError>,
    pub(super) sources: BTreeMap<PathBuf, String>,
    pub(super) map_defs: BTreeMap<String, MapDef>,
    /// Files of each kind that could not be read or parsed: their items
    /// are missing, and the ids they define show up as unknown.
    pub(super) failed: Vec<(Kind, PathBuf)>,
}

impl Loader {
    /// "unknown `kind` id": naming, when files of that kind failed to load,
    /// the one that would have defined it (or all of them), as the cause.
    pub(super) fn unknown(&self, kind: Kind, id: &str) -> String {
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

    pub(super) fn error_at(&mut self, file: &Path, offset: Option<usize>, message: String) {
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

    pub(super) fn load_file(&mut self, kind: Kind, file: &Path) {
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

    pub(super) fn load_tmx(&mut self, file: &Path) {
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
    pub(super) fn build_maps(&mut self) {
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
    pub(super) fn items<T: DeserializeOwned + HasId>(
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
    pub(super) fn anchor(&self, kind: Kind, id: &str) -> Option<(PathBuf, usize)> {
        let origin = self.db.origins.get(&(kind, id.to_string()))?;
        let src = self.sources.get(&origin.file)?;
        let at = Locator::new(src).find_id(id, 0)?;
        Some((origin.file.clone(), at))
    }

    /// Report a problem with item `id` whose id is not found as written in
    /// its file (a raw string, an escape, a comment before it): at the
    /// item's origin, the best place known, and never dropped.
    pub(super) fn report_unanchored(&mut self, kind: Kind, id: &str, message: String) {
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
    pub(super) fn report(&mut self, kind: Kind, id: &str, needle: Needle, message: String) {
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

    /// Report a problem at the `nth` `at:` of an encounter's heroes
    /// (`monsters == false`) or monsters list.
    pub(super) fn report_at(&mut self, id: &str, list: &str, nth: usize, message: String) {
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
}

pub(super) enum Needle<'a> {
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
