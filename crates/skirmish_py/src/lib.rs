//! `skirmish`, from Python: the rules engine's encounter with its legal
//! actions, commands, forecasts, snapshots, log and replays (issue 53,
//! the low-level API). Commands, log entries and forecasts cross as the
//! same JSON the engine's replays and `--json` reports use, turned into
//! Python dicts and lists.
//!
//! The Python side (`python/skirmish/__init__.py`) re-exports this module.

mod env;

/// The allocator the `skirmish` binary and the engine's benchmarks use
/// (mimalloc): a step allocates and drops a few small lists, which the
/// system allocator makes about a third slower.
#[global_allocator]
static ALLOCATOR: skirmish_rules::fast::alloc::MiMalloc = skirmish_rules::fast::alloc::MiMalloc;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyValueError};
use pyo3::prelude::*;
use skirmish_rules::content::ContentDb;
use skirmish_rules::encounter::{
    Command, Encounter as Engine, LogEntry, Snapshot as EngineSnapshot,
};
use skirmish_rules::map::Side;

create_exception!(
    _skirmish,
    Refused,
    PyException,
    "The engine refused a command; the message is its reason."
);
create_exception!(
    _skirmish,
    ContentError,
    PyException,
    "Content (or an encounter file) could not be loaded; each line names file:line:column."
);

/// The content folder: the one given, else `$SKIRMISH_ASSETS`, else the
/// repository's `assets/` this package was built from.
fn assets_dir(given: Option<PathBuf>) -> PyResult<PathBuf> {
    if let Some(p) = given {
        return Ok(p);
    }
    if let Some(p) = std::env::var_os("SKIRMISH_ASSETS").filter(|v| !v.is_empty()) {
        return Ok(PathBuf::from(p));
    }
    let built = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets");
    if built.is_dir() {
        return Ok(built);
    }
    Err(ContentError::new_err(
        "no content folder: pass assets=PATH or set SKIRMISH_ASSETS",
    ))
}

/// The content, and the id of `encounter`: a shipped encounter's id, or
/// an encounter file (`.ron`) by path, added to the content.
pub(crate) fn load_content(
    encounter: &str,
    assets: Option<PathBuf>,
) -> PyResult<(Arc<ContentDb>, String)> {
    let dir = assets_dir(assets)?;
    let mut db = ContentDb::load(&dir).map_err(content_error)?;
    let id = if Path::new(encounter).is_file() {
        db.add_encounter_file(Path::new(encounter))
            .map_err(content_error)?
    } else {
        if !db.encounters.contains_key(encounter) {
            let mut known: Vec<_> = db.encounters.keys().cloned().collect();
            known.sort();
            return Err(ContentError::new_err(format!(
                "no encounter `{encounter}` (no such file either); known: {}",
                known.join(", ")
            )));
        }
        encounter.to_string()
    };
    Ok((Arc::new(db), id))
}

/// Content errors as one `ContentError`, a `file:line:column` line each.
fn content_error(errors: skirmish_rules::content::ContentErrors) -> PyErr {
    ContentError::new_err(
        errors
            .0
            .iter()
            .map(|e| e.to_string())
            .collect::<Vec<_>>()
            .join("\n"),
    )
}

/// JSON text into Python objects (dicts, lists, numbers, strings).
pub(crate) fn to_py(py: Python<'_>, value: &serde_json::Value) -> PyResult<Py<PyAny>> {
    let text = serde_json::to_string(value).map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(py.import("json")?.call_method1("loads", (text,))?.unbind())
}

/// A Python object (a dict as `legal_actions` gives) into a command.
fn command_of(py: Python<'_>, action: &Bound<'_, PyAny>) -> PyResult<Command> {
    let text: String = py
        .import("json")?
        .call_method1("dumps", (action,))?
        .extract()?;
    serde_json::from_str(&text)
        .map_err(|e| PyValueError::new_err(format!("not a command the engine knows: {e}")))
}

pub(crate) use skirmish_rules::learn::side_name;

pub(crate) fn side_of(name: &str) -> PyResult<Side> {
    match name {
        "heroes" => Ok(Side::Heroes),
        "director" | "monsters" => Ok(Side::Director),
        other => Err(PyValueError::new_err(format!(
            "side `{other}`: \"heroes\" or \"director\""
        ))),
    }
}

/// A state of an encounter to go back to ([`Encounter::restore`]).
#[pyclass(module = "skirmish", unsendable)]
pub struct Snapshot {
    inner: EngineSnapshot,
    /// Which encounter it was taken of: restoring it into another is refused.
    owner: usize,
}

/// One encounter: its map, creatures, dice (one seeded generator) and log.
#[pyclass(module = "skirmish", unsendable)]
pub struct Encounter {
    engine: Engine,
    content: Arc<ContentDb>,
}

impl Encounter {
    fn id(&self) -> usize {
        std::ptr::from_ref(self) as usize
    }
}

/// Log entries as Python gets them: `{"entry": ..., "text": ...}` each.
pub(crate) fn entries_json(e: &Engine, entries: &[LogEntry]) -> serde_json::Value {
    let name = |id| e.name(id);
    entries
        .iter()
        .map(|l| serde_json::json!({ "entry": l, "text": l.line(&name) }))
        .collect()
}

/// Write `e`'s fight so far as a replay file.
pub(crate) fn write_replay(e: &Engine, path: &Path) -> PyResult<()> {
    std::fs::write(path, e.replay().to_ron())
        .map_err(|err| PyValueError::new_err(format!("{}: {err}", path.display())))
}

#[pymethods]
impl Encounter {
    /// `Encounter("first_blood", seed=0, assets=None)`: a shipped
    /// encounter by id, or an encounter file (`.ron`) by path.
    #[new]
    #[pyo3(signature = (encounter, seed = 0, assets = None))]
    fn new(encounter: &str, seed: u64, assets: Option<PathBuf>) -> PyResult<Self> {
        let (content, id) = load_content(encounter, assets)?;
        let engine = Engine::new(content.clone(), &id, seed)
            .map_err(|e| ContentError::new_err(e.to_string()))?;
        Ok(Encounter { engine, content })
    }

    /// Every command the engine accepts now, as dicts: give one back to
    /// `apply`. Empty once the fight is over.
    fn legal_actions(&mut self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let legal = self.engine.legal_actions();
        to_py(py, &serde_json::json!(legal))
    }

    /// Carry out `action` (a dict from `legal_actions`, or one written the
    /// same way): the log entries it made, each `{"entry": ..., "text": ...}`.
    /// Raises `Refused` with the engine's reason, changing nothing.
    fn apply(&mut self, py: Python<'_>, action: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let command = command_of(py, action)?;
        match self.engine.apply(command) {
            Ok(entries) => to_py(py, &entries_json(&self.engine, &entries)),
            Err(r) => Err(Refused::new_err(r.to_string())),
        }
    }

    /// The forecast of an ability command, without rolling: per target the
    /// chance of each tier, each tier's outcome, the expected damage and
    /// the chance to drop it. `None` for a command with no forecast.
    fn preview(&self, py: Python<'_>, action: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let command = command_of(py, action)?;
        match self.engine.preview(&command) {
            Some(p) => to_py(py, &serde_json::json!(p)),
            None => Ok(py.None()),
        }
    }

    /// The engine's reason for refusing `action` now, or `None` if it would
    /// be accepted (nothing is done).
    fn refusal(&mut self, py: Python<'_>, action: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
        let command = command_of(py, action)?;
        Ok(self.engine.refusal(&command).map(|r| r.to_string()))
    }

    /// The state now, to `restore` later (the log, the replay and the
    /// dice go back with it).
    fn snapshot(&self) -> Snapshot {
        Snapshot {
            inner: self.engine.snapshot(),
            owner: self.id(),
        }
    }

    /// Go back to `snapshot`, taken of this encounter.
    fn restore(&mut self, snapshot: &Snapshot) -> PyResult<()> {
        if snapshot.owner != self.id() {
            return Err(PyValueError::new_err(
                "that snapshot was taken of another encounter",
            ));
        }
        self.engine.restore(&snapshot.inner);
        Ok(())
    }

    /// The whole log so far, each entry `{"entry": ..., "text": ...}`.
    fn log(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        to_py(py, &entries_json(&self.engine, self.engine.log()))
    }

    /// `"heroes"` or `"director"` once a side has won, else `None`.
    fn winner(&self) -> Option<&'static str> {
        self.engine.outcome().map(side_name)
    }

    /// The round (from 1).
    #[getter]
    fn round(&self) -> u32 {
        self.engine.flow().round
    }

    /// The seed the dice started from.
    #[getter]
    fn seed(&self) -> u64 {
        self.engine.replay().seed
    }

    /// The side whose choice it is now (`None` once the fight is over).
    fn deciding_side(&mut self) -> Option<&'static str> {
        let first = self.engine.legal_actions().into_iter().next()?;
        self.engine
            .creature(first.creature())
            .map(|c| side_name(c.side))
    }

    /// Write the fight so far as a replay file (its seed and commands):
    /// `skirmish replay PATH` plays it, `skirmish --load PATH` goes on.
    fn save_replay(&self, path: PathBuf) -> PyResult<()> {
        write_replay(&self.engine, &path)
    }

    /// What `side` may know now, as a dict: the round, whose turn, the
    /// Malice, the map's size, every creature it can see (an enemy that is
    /// hidden is left out) and the glyphs it knows of (its own, and the
    /// other side's once revealed).
    fn observe(&self, py: Python<'_>, side: &str) -> PyResult<Py<PyAny>> {
        let side = side_of(side)?;
        to_py(py, &skirmish_rules::learn::describe(&self.engine, side))
    }

    /// The number of the content's abilities, classes, monsters and
    /// encounters (a quick check that the content loaded).
    fn content_counts(&self) -> (usize, usize, usize, usize) {
        (
            self.content.abilities.len(),
            self.content.classes.len(),
            self.content.monsters.len(),
            self.content.encounters.len(),
        )
    }
}

/// `simulate("first_blood", heroes="greedy", monsters="greedy", games=100,
/// seed=0, jobs=1, assets=None)`: `skirmish sim`'s batch of seeded games
/// between two brains (a shipped one's name, `weights:FILE` or
/// `exec:COMMAND`), its report as a dict (as `sim --json` prints it: win
/// rates with 95% intervals, rounds, damage per creature, errors). The
/// games run with the interpreter's lock let go.
#[pyfunction]
#[pyo3(signature = (encounter, heroes = "greedy", monsters = "greedy", games = 100, seed = 0, jobs = 1, assets = None))]
#[allow(clippy::too_many_arguments)]
fn simulate(
    py: Python<'_>,
    encounter: &str,
    heroes: &str,
    monsters: &str,
    games: u32,
    seed: u64,
    jobs: usize,
    assets: Option<PathBuf>,
) -> PyResult<Py<PyAny>> {
    if games == 0 {
        return Err(PyValueError::new_err("games must be at least 1"));
    }
    let (content, id) = load_content(encounter, assets)?;
    let mut cfg = skirmish_rules::sim::SimConfig::new(&id, heroes, monsters, games, seed);
    cfg.jobs = jobs.max(1);
    let report = py
        .detach(|| skirmish_rules::sim::simulate(content, &cfg, &|_, _| {}))
        .map_err(PyValueError::new_err)?;
    to_py(py, &serde_json::json!(report))
}

#[pymodule]
fn _skirmish(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Encounter>()?;
    m.add_function(wrap_pyfunction!(simulate, m)?)?;
    m.add_class::<Snapshot>()?;
    m.add_class::<env::Env>()?;
    m.add_class::<env::VecEnv>()?;
    m.add_class::<env::EnvSnapshot>()?;
    m.add(
        "GREEDY_WEIGHTS",
        to_py(
            m.py(),
            &serde_json::json!(skirmish_rules::content::weights::Weights::greedy()),
        )?,
    )?;
    m.add("BOARD_PLANES", skirmish_rules::learn::PLANES.to_vec())?;
    m.add(
        "CREATURE_FEATURES",
        skirmish_rules::learn::FEATURES.to_vec(),
    )?;
    m.add("TURN_ENTRIES", skirmish_rules::learn::TURN.to_vec())?;
    m.add("Refused", m.py().get_type::<Refused>())?;
    m.add("ContentError", m.py().get_type::<ContentError>())?;
    Ok(())
}
