//! The learning environments' core from Python: one encounter as an
//! environment (`Env`, which the PettingZoo and Gymnasium classes in
//! `python/skirmish/envs.py` wrap) and many stepped in one call
//! (`VecEnv`). The layout, observations and rewards are the rules
//! engine's (`skirmish_rules::learn`, docs/python.md).

use std::path::PathBuf;
use std::sync::Arc;

use numpy::{PyArray1, PyArray2, PyArray3, PyArray4, PyArrayMethods, PyReadonlyArray1};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use skirmish_rules::ai::Brain;
use skirmish_rules::content::ContentDb;
use skirmish_rules::dice::Dice;
use skirmish_rules::learn::{self, ObsBuffers, Options, Reward, Step, StepError};
use skirmish_rules::map::Side;

use crate::{ContentError, Refused, load_content, side_name, side_of, to_py};

fn options(max_steps: u32, reward: &str) -> PyResult<Options> {
    Ok(Options {
        max_steps: max_steps.max(1),
        reward: Reward::from_name(reward).ok_or_else(|| {
            PyValueError::new_err(format!("reward `{reward}`: \"win\" or \"damage\""))
        })?,
    })
}

fn step_error(e: StepError) -> PyErr {
    Refused::new_err(e.to_string())
}

fn step_tuple(s: Step) -> (f32, f32, bool, bool) {
    (s.rewards[0], s.rewards[1], s.terminated, s.truncated)
}

/// A state of an [`Env`] to go back to.
#[pyclass(module = "skirmish", unsendable)]
pub struct EnvSnapshot {
    inner: learn::EnvSnapshot,
    owner: usize,
}

/// One encounter as a learning environment: a fixed `Discrete(n_actions)`
/// layout with a mask, observations for either side as numpy arrays.
#[pyclass(module = "skirmish", unsendable)]
pub struct Env {
    inner: learn::Env,
    content: Arc<ContentDb>,
    /// The brain `play_brain` asks, by name, made on first use.
    brain: Option<(String, Box<dyn Brain>)>,
}

#[pymethods]
impl Env {
    #[new]
    #[pyo3(signature = (encounter, seed = 0, assets = None, max_steps = 3000, reward = "win"))]
    fn new(
        encounter: &str,
        seed: u64,
        assets: Option<PathBuf>,
        max_steps: u32,
        reward: &str,
    ) -> PyResult<Self> {
        let (content, id) = load_content(encounter, assets)?;
        let inner = learn::Env::new(content.clone(), &id, seed, options(max_steps, reward)?)
            .map_err(|e| ContentError::new_err(e.to_string()))?;
        Ok(Env {
            inner,
            content,
            brain: None,
        })
    }

    /// Start over with the dice seeded with `seed`.
    /// (A brain `play_brain` made starts over too, so a seed replays.)
    fn reset(&mut self, seed: u64) {
        self.inner.reset(seed);
        self.brain = None;
    }

    #[getter]
    fn n_actions(&self) -> usize {
        self.inner.actions()
    }

    /// `(planes, height, width)`.
    #[getter]
    fn board_shape(&self) -> (usize, usize, usize) {
        let ([p, h, w], _, _) = self.inner.shapes();
        (p, h, w)
    }

    /// `(creatures, features)`.
    #[getter]
    fn creatures_shape(&self) -> (usize, usize) {
        let (_, [t, f], _) = self.inner.shapes();
        (t, f)
    }

    #[getter]
    fn turn_len(&self) -> usize {
        self.inner.shapes().2
    }

    /// The layout's sizes: width, height, actors, targets, abilities, areas.
    fn layout(&self) -> (usize, usize, usize, usize, usize, usize) {
        let l = self.inner.layout();
        (l.width, l.height, l.actors, l.targets, l.abilities, l.areas)
    }

    /// `"heroes"` or `"director"`: whose choice it is (`None` once over).
    fn deciding(&self) -> Option<&'static str> {
        self.inner.deciding().map(side_name)
    }

    fn is_over(&self) -> bool {
        self.inner.is_over()
    }

    fn winner(&self) -> Option<&'static str> {
        self.inner.encounter().outcome().map(side_name)
    }

    #[getter]
    fn steps(&self) -> u32 {
        self.inner.steps()
    }

    /// Take action `action` for the side deciding: `(heroes' reward,
    /// director's reward, terminated, truncated)`. A masked action raises
    /// `Refused` and changes nothing.
    fn step(&mut self, action: i64) -> PyResult<(f32, f32, bool, bool)> {
        let i = usize::try_from(action).map_err(|_| {
            Refused::new_err(format!("action {action} is not legal now (its mask is 0)"))
        })?;
        self.inner.step(i).map(step_tuple).map_err(step_error)
    }

    /// Let the shipped brain `name` ("random", "greedy", "tactical",
    /// "search") choose for the side deciding, and carry it out.
    #[pyo3(signature = (name, seed = 0))]
    fn play_brain(&mut self, name: &str, seed: u64) -> PyResult<(f32, f32, bool, bool)> {
        if self.brain.as_ref().is_none_or(|(n, _)| n != name) {
            let b = skirmish_rules::ai::by_name(name, seed, &self.content)
                .map_err(|e| PyValueError::new_err(e.to_string()))?;
            self.brain = Some((name.to_string(), b));
        }
        let (_, brain) = self.brain.as_mut().expect("made above");
        self.inner
            .play(brain.as_mut())
            .map(step_tuple)
            .map_err(step_error)
    }

    /// A step that does nothing but count toward the step limit.
    fn waste(&mut self) -> (f32, f32, bool, bool) {
        step_tuple(self.inner.waste())
    }

    /// The mask: `int8`, 1 for each legal action.
    fn mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        let m = self.inner.mask();
        // (u8 0/1 as i8: the same bytes.)
        PyArray1::from_iter(py, m.iter().map(|&b| b as i8))
    }

    /// The legal actions, in the engine's order (`int64`).
    fn legal<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        PyArray1::from_iter(py, self.inner.legal().iter().map(|&a| i64::from(a)))
    }

    /// What `side` may know now: `(board, creatures, turn)`, new `float32`
    /// arrays.
    #[allow(clippy::type_complexity)]
    fn observe<'py>(
        &self,
        py: Python<'py>,
        side: &str,
    ) -> PyResult<(
        Bound<'py, PyArray3<f32>>,
        Bound<'py, PyArray2<f32>>,
        Bound<'py, PyArray1<f32>>,
    )> {
        let side = side_of(side)?;
        let ([p, h, w], [t, f], u) = self.inner.shapes();
        let board = PyArray3::<f32>::zeros(py, [p, h, w], false);
        let creatures = PyArray2::<f32>::zeros(py, [t, f], false);
        let turn = PyArray1::<f32>::zeros(py, u, false);
        {
            let mut b = board.readwrite();
            let mut c = creatures.readwrite();
            let mut tu = turn.readwrite();
            self.inner.observe(
                side,
                ObsBuffers {
                    board: b.as_slice_mut().expect("contiguous"),
                    creatures: c.as_slice_mut().expect("contiguous"),
                    turn: tu.as_slice_mut().expect("contiguous"),
                },
            );
        }
        Ok((board, creatures, turn))
    }

    /// What action `action` stands for, for `side` (default: the side
    /// deciding): a dict with its actor's id and its slot, or `None`.
    #[pyo3(signature = (action, side = None))]
    fn describe(&self, py: Python<'_>, action: usize, side: Option<&str>) -> PyResult<Py<PyAny>> {
        let side = match side {
            Some(s) => side_of(s)?,
            None => self.inner.deciding().unwrap_or(Side::Heroes),
        };
        match self.inner.layout().describe(side, action) {
            None => Ok(py.None()),
            Some((c, slot)) => {
                let mut v = serde_json::to_value(&slot)
                    .map_err(|e| PyValueError::new_err(e.to_string()))?;
                v["actor"] = serde_json::json!(c.0);
                to_py(py, &v)
            }
        }
    }

    /// The command action `action` stands for now (a dict, as
    /// `Encounter.legal_actions` gives), or `None` if it is masked.
    fn command(&mut self, py: Python<'_>, action: usize) -> PyResult<Py<PyAny>> {
        match self.inner.command(action) {
            None => Ok(py.None()),
            Some(c) => to_py(py, &serde_json::json!(c)),
        }
    }

    /// The whole log so far, as `Encounter.log` gives it.
    fn log(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let e = self.inner.encounter();
        to_py(py, &crate::entries_json(e, e.log()))
    }

    /// The state now, to `restore` later (the dice go back with it).
    fn snapshot(&self) -> EnvSnapshot {
        EnvSnapshot {
            inner: self.inner.snapshot(),
            owner: std::ptr::from_ref(self) as usize,
        }
    }

    /// Go back to `snapshot`, taken of this environment.
    fn restore(&mut self, snapshot: &EnvSnapshot) -> PyResult<()> {
        if snapshot.owner != std::ptr::from_ref(self) as usize {
            return Err(PyValueError::new_err(
                "that snapshot was taken of another environment",
            ));
        }
        self.inner.restore(&snapshot.inner);
        Ok(())
    }

    /// Give the dice to come a new seed (for a search's own copy: the
    /// same state, other dice).
    fn reseed_dice(&mut self, seed: u64) {
        self.inner.reseed_dice(seed);
    }

    /// Write the fight so far as a replay file.
    fn save_replay(&self, path: PathBuf) -> PyResult<()> {
        crate::write_replay(self.inner.encounter(), &path)
    }

    /// `Encounter.observe`'s dict view of the same moment (for reading).
    fn describe_state(&self, py: Python<'_>, side: &str) -> PyResult<Py<PyAny>> {
        let side = side_of(side)?;
        to_py(py, &learn::describe(self.inner.encounter(), side))
    }
}

/// Where a worker writes its encounters' outputs: the whole arrays' first
/// elements (each worker writes only its own rows).
#[derive(Clone, Copy)]
struct Out {
    board: *mut f32,
    creatures: *mut f32,
    turn: *mut f32,
    mask: *mut i8,
    rewards: *mut f32,
    terminated: *mut bool,
    truncated: *mut bool,
    deciding: *mut i8,
}

// SAFETY: an `Out` is handed to the workers for one call; the caller keeps
// the arrays borrowed and waits for every worker before it lets them go,
// and the workers write disjoint rows.
unsafe impl Send for Out {}

enum Job {
    /// Start every encounter over (with `seed + k` for the `k`th, or its
    /// next seed), then write the outputs.
    Reset(Option<u64>, Out),
    /// Step each with its action, then write the outputs.
    Step(Vec<i64>, Out),
    /// Masked-uniform random actions.
    Sample,
}

enum Reply {
    Done {
        error: Option<String>,
        episodes: u64,
    },
    Sampled(Vec<i64>),
}

/// A thread owning some of a vector env's encounters (an encounter is not
/// `Send`: each is made, stepped and dropped on its worker's thread).
struct Worker {
    jobs: std::sync::mpsc::Sender<Job>,
    replies: std::sync::mpsc::Receiver<Reply>,
    thread: Option<std::thread::JoinHandle<()>>,
}

/// A worker's encounters, rows `first..first + envs.len()` of the outputs.
struct Chunk {
    envs: Vec<learn::Env>,
    first: usize,
    /// The number of encounters in the whole vector env.
    n: usize,
    seeds: Vec<u64>,
    dice: Dice,
}

impl Chunk {
    /// Chunk `k` of `threads` of `n` encounters.
    fn make(
        content: &Arc<ContentDb>,
        id: &str,
        seed: u64,
        opts: Options,
        n: usize,
        threads: usize,
        k: usize,
    ) -> Result<Chunk, String> {
        let (first, last) = (n * k / threads, n * (k + 1) / threads);
        Ok(Chunk {
            envs: (first..last)
                .map(|i| learn::Env::new(content.clone(), id, seed.wrapping_add(i as u64), opts))
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| e.to_string())?,
            seeds: (first..last)
                .map(|i| seed.wrapping_add((i + n) as u64))
                .collect(),
            first,
            n,
            dice: Dice::seeded(seed ^ 0x5eed_u64.wrapping_mul(k as u64 + 1)),
        })
    }

    fn write(&mut self, steps: Option<&[Step]>, out: Out) -> u64 {
        let ([p, h, w], [t, f], u) = self.envs[0].shapes();
        let actions = self.envs[0].actions();
        let (bs, cs) = (p * h * w, t * f);
        let mut episodes = 0;
        for (j, env) in self.envs.iter_mut().enumerate() {
            let k = self.first + j;
            let s = steps.map(|s| s[j]).unwrap_or_default();
            // SAFETY: row `k` is this worker's alone, and the arrays are
            // `n` rows of these sizes (see `Out`).
            unsafe {
                *out.rewards.add(2 * k) = s.rewards[0];
                *out.rewards.add(2 * k + 1) = s.rewards[1];
                *out.terminated.add(k) = s.terminated;
                *out.truncated.add(k) = s.truncated;
            }
            if env.is_over() {
                episodes += 1;
                env.reset(self.seeds[j]);
                self.seeds[j] = self.seeds[j].wrapping_add(self.n as u64);
            }
            let side = env.deciding().unwrap_or(Side::Heroes);
            // SAFETY: as above.
            let (board, creatures, turn, mask) = unsafe {
                *out.deciding.add(k) = side.index() as i8;
                (
                    std::slice::from_raw_parts_mut(out.board.add(k * bs), bs),
                    std::slice::from_raw_parts_mut(out.creatures.add(k * cs), cs),
                    std::slice::from_raw_parts_mut(out.turn.add(k * u), u),
                    std::slice::from_raw_parts_mut(out.mask.add(k * actions), actions),
                )
            };
            env.observe(
                side,
                ObsBuffers {
                    board,
                    creatures,
                    turn,
                },
            );
            for (o, &i) in mask.iter_mut().zip(env.mask()) {
                *o = i as i8;
            }
        }
        episodes
    }

    fn run(&mut self, job: Job) -> Reply {
        match job {
            Job::Reset(seed, out) => {
                for (j, env) in self.envs.iter_mut().enumerate() {
                    let s = seed.map_or(self.seeds[j], |s| s.wrapping_add((self.first + j) as u64));
                    env.reset(s);
                    self.seeds[j] = s.wrapping_add(self.n as u64);
                }
                self.write(None, out);
                Reply::Done {
                    error: None,
                    episodes: 0,
                }
            }
            Job::Step(actions, out) => {
                let mut steps = vec![Step::default(); self.envs.len()];
                let mut error = None;
                for (j, env) in self.envs.iter_mut().enumerate() {
                    let a = usize::try_from(actions[j]).unwrap_or(usize::MAX);
                    match env.step(a) {
                        Ok(s) => steps[j] = s,
                        Err(e) => {
                            error.get_or_insert(format!(
                                "encounter {} (seed {}): {e}",
                                self.first + j,
                                env.encounter().replay().seed
                            ));
                        }
                    }
                }
                let episodes = self.write(Some(&steps), out);
                Reply::Done { error, episodes }
            }
            Job::Sample => {
                let dice = &mut self.dice;
                Reply::Sampled(
                    self.envs
                        .iter()
                        .map(|e| e.sample_legal(dice).map_or(0, |a| a as i64))
                        .collect(),
                )
            }
        }
    }
}

/// `n` encounters stepped in one call, on `threads` threads: each is
/// stepped for the side deciding in it, and starts over (with its next
/// seed) when it ends. Its arrays are its own and are refilled by each
/// call: copy what you keep.
#[pyclass(module = "skirmish", unsendable)]
pub struct VecEnv {
    /// The first encounters, stepped on the calling thread.
    local: Chunk,
    /// The others, a chunk on each further thread.
    workers: Vec<Worker>,
    n: usize,
    actions: usize,
    board: Py<PyArray4<f32>>,
    creatures: Py<PyArray3<f32>>,
    turn: Py<PyArray2<f32>>,
    mask: Py<PyArray2<i8>>,
    rewards: Py<PyArray2<f32>>,
    terminated: Py<PyArray1<bool>>,
    truncated: Py<PyArray1<bool>>,
    deciding: Py<PyArray1<i8>>,
    /// The dict of them every call returns.
    dict: Option<Py<pyo3::types::PyDict>>,
    episodes: u64,
}

#[pymethods]
impl VecEnv {
    /// `n` encounters of `encounter`, the `k`th first seeded `seed + k`.
    #[new]
    #[pyo3(signature = (n, encounter, seed = 0, assets = None, max_steps = 3000, reward = "win", threads = 1))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        n: usize,
        encounter: &str,
        seed: u64,
        assets: Option<PathBuf>,
        max_steps: u32,
        reward: &str,
        threads: usize,
    ) -> PyResult<Self> {
        if n == 0 {
            return Err(PyValueError::new_err("n must be at least 1"));
        }
        let threads = threads.clamp(1, n);
        let (content, id) = load_content(encounter, assets)?;
        let opts = options(max_steps, reward)?;
        // The shapes, from one made here.
        let probe = learn::Env::new(content.clone(), &id, seed, opts)
            .map_err(|e| ContentError::new_err(e.to_string()))?;
        let ([p, h, w], [t, f], u) = probe.shapes();
        let actions = probe.actions();
        drop(probe);
        let local =
            Chunk::make(&content, &id, seed, opts, n, threads, 0).map_err(ContentError::new_err)?;
        let mut workers = Vec::new();
        for k in 1..threads {
            let (jobs, job_rx) = std::sync::mpsc::channel::<Job>();
            let (reply_tx, replies) = std::sync::mpsc::channel::<Reply>();
            let (content, id) = (content.clone(), id.clone());
            let (made_tx, made_rx) = std::sync::mpsc::channel::<Result<(), String>>();
            let thread = std::thread::spawn(move || {
                let mut chunk = match Chunk::make(&content, &id, seed, opts, n, threads, k) {
                    Ok(c) => c,
                    Err(e) => {
                        let _ = made_tx.send(Err(e));
                        return;
                    }
                };
                let _ = made_tx.send(Ok(()));
                for job in job_rx {
                    if reply_tx.send(chunk.run(job)).is_err() {
                        break;
                    }
                }
            });
            made_rx
                .recv()
                .map_err(|_| ContentError::new_err("a worker thread stopped"))?
                .map_err(ContentError::new_err)?;
            workers.push(Worker {
                jobs,
                replies,
                thread: Some(thread),
            });
        }
        let mut v = VecEnv {
            local,
            workers,
            n,
            actions,
            board: PyArray4::zeros(py, [n, p, h, w], false).unbind(),
            creatures: PyArray3::zeros(py, [n, t, f], false).unbind(),
            turn: PyArray2::zeros(py, [n, u], false).unbind(),
            mask: PyArray2::zeros(py, [n, actions], false).unbind(),
            rewards: PyArray2::zeros(py, [n, 2], false).unbind(),
            terminated: PyArray1::zeros(py, n, false).unbind(),
            truncated: PyArray1::zeros(py, n, false).unbind(),
            deciding: PyArray1::zeros(py, n, false).unbind(),
            dict: None,
            episodes: 0,
        };
        v.call(py, |_| Job::Reset(None, v_out_placeholder()))?;
        Ok(v)
    }

    #[getter]
    fn num_envs(&self) -> usize {
        self.n
    }

    #[getter]
    fn n_actions(&self) -> usize {
        self.actions
    }

    #[getter]
    fn threads(&self) -> usize {
        self.workers.len() + 1
    }

    /// Episodes finished so far.
    #[getter]
    fn episodes(&self) -> u64 {
        self.episodes
    }

    /// Start every encounter over, the `k`th with `seed + k` (or its next
    /// seed); the arrays as `step` gives them.
    #[pyo3(signature = (seed = None))]
    fn reset<'py>(&mut self, py: Python<'py>, seed: Option<u64>) -> PyResult<Bound<'py, PyAny>> {
        self.call(py, |_| Job::Reset(seed, v_out_placeholder()))?;
        self.arrays(py)
    }

    /// Masked-uniform random actions, one per encounter (`int64`), from the
    /// vector env's own seeded dice.
    fn sample_actions<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i64>>> {
        for w in &self.workers {
            w.jobs
                .send(Job::Sample)
                .map_err(|_| PyValueError::new_err("a worker thread stopped"))?;
        }
        let mut out = Vec::with_capacity(self.n);
        if let Reply::Sampled(a) = self.local.run(Job::Sample) {
            out.extend(a);
        }
        for w in &self.workers {
            match w.replies.recv() {
                Ok(Reply::Sampled(a)) => out.extend(a),
                _ => return Err(PyValueError::new_err("a worker thread stopped")),
            }
        }
        Ok(PyArray1::from_vec(py, out))
    }

    /// Step each encounter with its action (`actions[k]` for the side
    /// deciding in encounter `k`); an encounter that ends starts over at
    /// once. Returns a dict of arrays: `board (n, planes, height, width)`,
    /// `creatures (n, targets, features)`, `turn (n, entries)` (each seen
    /// by the side now deciding), `action_mask (n, N)`, `deciding (n,)`
    /// (0 heroes, 1 director), `rewards (n, 2)` (heroes, director; of the
    /// step taken), `terminated (n,)`, `truncated (n,)`. A masked action
    /// raises `Refused` naming the encounter and its seed; the others are
    /// stepped.
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: PyReadonlyArray1<'py, i64>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let actions = actions
            .as_slice()
            .map_err(|e| PyValueError::new_err(e.to_string()))?
            .to_vec();
        if actions.len() != self.n {
            return Err(PyValueError::new_err(format!(
                "{} actions for {} encounters",
                actions.len(),
                self.n
            )));
        }
        let (n, threads) = (self.n, self.workers.len() + 1);
        self.call(py, |k| {
            let (first, last) = (n * k / threads, n * (k + 1) / threads);
            Job::Step(actions[first..last].to_vec(), v_out_placeholder())
        })?;
        self.arrays(py)
    }
}

/// A job's outputs before [`VecEnv::call`] points them at the arrays.
fn v_out_placeholder() -> Out {
    Out {
        board: std::ptr::null_mut(),
        creatures: std::ptr::null_mut(),
        turn: std::ptr::null_mut(),
        mask: std::ptr::null_mut(),
        rewards: std::ptr::null_mut(),
        terminated: std::ptr::null_mut(),
        truncated: std::ptr::null_mut(),
        deciding: std::ptr::null_mut(),
    }
}

impl Drop for VecEnv {
    fn drop(&mut self) {
        for w in &mut self.workers {
            // Closing its channel ends its loop.
            let (tx, _) = std::sync::mpsc::channel();
            drop(std::mem::replace(&mut w.jobs, tx));
            if let Some(t) = w.thread.take() {
                let _ = t.join();
            }
        }
    }
}

impl VecEnv {
    /// Send each worker its job (`job(k)` for worker `k`) writing into the
    /// arrays, and wait for them all (the arrays stay borrowed meanwhile).
    fn call(&mut self, py: Python<'_>, mut job: impl FnMut(usize) -> Job) -> PyResult<()> {
        // The arrays are this vector env's own, made contiguous by it and
        // never resized; read without numpy's borrow tracking, which costs
        // more than a small batch's step.
        fn first<T: numpy::Element, D: numpy::ndarray::Dimension>(
            a: &Py<numpy::PyArray<T, D>>,
            py: Python<'_>,
        ) -> *mut T {
            a.bind(py).data()
        }
        let out = Out {
            board: first(&self.board, py),
            creatures: first(&self.creatures, py),
            turn: first(&self.turn, py),
            mask: first(&self.mask, py),
            rewards: first(&self.rewards, py),
            terminated: first(&self.terminated, py),
            truncated: first(&self.truncated, py),
            deciding: first(&self.deciding, py),
        };
        let mut aimed = |k: usize| match job(k) {
            Job::Reset(s, _) => Job::Reset(s, out),
            Job::Step(a, _) => Job::Step(a, out),
            Job::Sample => Job::Sample,
        };
        for (k, w) in self.workers.iter().enumerate() {
            w.jobs
                .send(aimed(k + 1))
                .map_err(|_| PyValueError::new_err("a worker thread stopped"))?;
        }
        // The first chunk meanwhile, here.
        let mine = self.local.run(aimed(0));
        let waiting: Vec<&mut std::sync::mpsc::Receiver<Reply>> =
            self.workers.iter_mut().map(|w| &mut w.replies).collect();
        let mut replies: Vec<Option<Reply>> = if waiting.is_empty() {
            Vec::new()
        } else {
            py.detach(move || waiting.into_iter().map(|r| r.recv().ok()).collect())
        };
        replies.insert(0, Some(mine));
        let mut error = None;
        for reply in replies {
            match reply {
                Some(Reply::Done { error: e, episodes }) => {
                    self.episodes += episodes;
                    if error.is_none() {
                        error = e;
                    }
                }
                _ => error = Some("a worker thread stopped".to_string()),
            }
        }
        match error {
            Some(e) => Err(Refused::new_err(e)),
            None => Ok(()),
        }
    }

    /// The dict of the arrays (made once; the same dict every call).
    fn arrays<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        if let Some(d) = &self.dict {
            return Ok(d.bind(py).clone().into_any());
        }
        let d = pyo3::types::PyDict::new(py);
        d.set_item("board", self.board.bind(py))?;
        d.set_item("creatures", self.creatures.bind(py))?;
        d.set_item("turn", self.turn.bind(py))?;
        d.set_item("action_mask", self.mask.bind(py))?;
        d.set_item("deciding", self.deciding.bind(py))?;
        d.set_item("rewards", self.rewards.bind(py))?;
        d.set_item("terminated", self.terminated.bind(py))?;
        d.set_item("truncated", self.truncated.bind(py))?;
        self.dict = Some(d.clone().unbind());
        Ok(d.into_any())
    }
}
