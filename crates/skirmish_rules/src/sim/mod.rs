//! Headless batch simulation: many seeded games between two brains, and the
//! numbers a designer balances with (issue #6).

pub mod damage;
mod tally;

use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde::{Deserialize, Serialize};

use crate::ai::{self, Brain};
use crate::content::ContentDb;
use crate::encounter::{Command, Encounter, LogEntry, Picked};
use crate::map::Side;
use tally::Tally;

/// The message a caught panic carried (`panic!` with a literal gives a
/// `&str`, with formatting a `String`), if it carried one.
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> Option<String> {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
}

/// What to simulate.
#[derive(Clone, Debug)]
pub struct SimConfig {
    pub encounter: String,
    pub heroes: String,
    pub monsters: String,
    pub games: u32,
    pub seed: u64,
    pub jobs: usize,
    /// A folder to keep each game's replay in (see [`replay_file_name`]).
    pub replay_dir: Option<PathBuf>,
    /// Write over replays of this batch already in `replay_dir` (else
    /// finding one is an error, before any game is played).
    pub overwrite: bool,
    /// Commands after which a game is called off as a draw.
    pub max_commands: u32,
    /// Set to stop the batch early: the games not yet begun are not
    /// played, and the report counts those that were.
    pub cancel: Option<Arc<std::sync::atomic::AtomicBool>>,
}

impl SimConfig {
    pub fn new(encounter: &str, heroes: &str, monsters: &str, games: u32, seed: u64) -> Self {
        SimConfig {
            encounter: encounter.into(),
            heroes: heroes.into(),
            monsters: monsters.into(),
            games,
            seed,
            jobs: 1,
            replay_dir: None,
            overwrite: false,
            max_commands: 20_000,
            cancel: None,
        }
    }
}

/// One game's result.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct GameResult {
    pub seed: u64,
    pub winner: Option<Side>,
    pub rounds: u32,
    /// Per creature (by name): damage dealt and taken, and its side.
    pub dealt: BTreeMap<String, i64>,
    pub taken: BTreeMap<String, i64>,
    /// Kills credited (a summon's to its owner).
    #[serde(default)]
    pub kills: BTreeMap<String, i64>,
    pub sides: BTreeMap<String, Side>,
    /// Ability uses by ability name.
    pub abilities: BTreeMap<String, u32>,
    pub resource_spent: u32,
    /// Brain mistakes: illegal commands and panics, each with what to reproduce it.
    pub errors: Vec<String>,
    /// The rows down at the end: a creature at 0 stamina or less (a hero
    /// dying or dead), a squad with every minion dead; summons are left out.
    #[serde(default)]
    pub fell: std::collections::BTreeSet<String>,
}

/// A share with its 95% confidence interval (Wilson score interval).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rate {
    pub rate: f64,
    pub low: f64,
    pub high: f64,
}

impl Rate {
    pub fn wilson(successes: u32, n: u32) -> Rate {
        if n == 0 {
            return Rate {
                rate: 0.0,
                low: 0.0,
                high: 1.0,
            };
        }
        let (k, n) = (successes as f64, n as f64);
        let z = 1.959_963_984_540_054_f64;
        let p = k / n;
        let denom = 1.0 + z * z / n;
        let centre = (p + z * z / (2.0 * n)) / denom;
        let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denom;
        Rate {
            rate: p,
            low: (centre - half).max(0.0),
            high: (centre + half).min(1.0),
        }
    }
}

/// Per-creature totals over the games it took part in.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct CreatureTotals {
    /// Damage dealt, on average over the games it was in (a summon's
    /// games are those it was summoned in).
    pub dealt_per_game: f64,
    /// Damage taken, likewise.
    pub taken_per_game: f64,
    /// Kills credited to it, likewise (a summon's go to its owner).
    #[serde(default)]
    pub kills_per_game: f64,
    /// The side it fought on.
    #[serde(default)]
    pub side: Option<Side>,
    /// How many of the games it was in.
    #[serde(default)]
    pub games: u32,
    /// The share of those games it ended down (see [`GameResult::fell`]).
    #[serde(default)]
    pub fell: f64,
}

/// The report of a batch.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Report {
    pub encounter: String,
    pub heroes: String,
    pub monsters: String,
    pub games: u32,
    pub seed: u64,
    pub heroes_won: u32,
    pub director_won: u32,
    pub draws: u32,
    pub heroes_rate: Rate,
    pub director_rate: Rate,
    pub rounds_mean: f64,
    pub rounds_min: u32,
    pub rounds_max: u32,
    pub creatures: BTreeMap<String, CreatureTotals>,
    pub abilities: BTreeMap<String, u32>,
    pub resource_spent_per_game: f64,
    pub errors: Vec<String>,
}

/// Play one game. A brain that returns a command that is not legal is
/// reported and that creature's turn ends (or the prompt is let pass); a
/// brain that panics is reported with the seed that reproduces it, and the
/// game stops there.
pub fn play_game(
    db: &Arc<ContentDb>,
    cfg: &SimConfig,
    seed: u64,
) -> Result<(GameResult, Encounter), String> {
    let mut e = Encounter::new(db.clone(), &cfg.encounter, seed).map_err(|e| e.to_string())?;
    let result = play_game_on(&mut e, db, cfg)?;
    Ok((result, e))
}

/// [`play_game`] on an encounter already set up with the game's seed (new,
/// or [restarted](Encounter::restart): a batch reuses one per thread).
fn play_game_on(
    e: &mut Encounter,
    db: &Arc<ContentDb>,
    cfg: &SimConfig,
) -> Result<GameResult, String> {
    let seed = e.replay().seed;
    let heroes = ai::by_name(&cfg.heroes, seed ^ 0x4845_524f, db).map_err(|e| e.to_string())?;
    let monsters = ai::by_name(&cfg.monsters, seed ^ 0x4d4f_4e53, db).map_err(|e| e.to_string())?;
    let result = play_on(e, heroes, monsters, cfg.max_commands);
    if let Some(dir) = &cfg.replay_dir {
        let _ = std::fs::create_dir_all(dir);
        let path = dir.join(replay_file_name(&cfg.encounter, seed));
        // A replay already there is kept unless asked to write over it.
        let file = std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .create_new(!cfg.overwrite)
            .open(&path);
        let written = file.and_then(|mut f| {
            use std::io::Write;
            f.write_all(e.replay().to_ron().as_bytes())
        });
        written.map_err(|err| match err.kind() {
            std::io::ErrorKind::AlreadyExists => format!(
                "{} already exists: not written over (pass --force to write over it)",
                path.display()
            ),
            _ => format!("{}: {err}", path.display()),
        })?;
    }
    Ok(result)
}

/// The file a game's replay is kept in: the encounter's id, with anything
/// but ASCII letters, digits, `_` and `-` made `_` (so no id reaches
/// outside the folder), then the seed.
pub fn replay_file_name(encounter: &str, seed: u64) -> String {
    format!("{}{seed}.ron", replay_prefix(encounter))
}

/// What every replay file of `encounter` starts with (see
/// [`replay_file_name`]).
fn replay_prefix(encounter: &str) -> String {
    let safe: String = encounter
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("{safe}-")
}

/// Make the replay folder ready before any game is played, so that no
/// result is thrown away: it is made if missing; a path that is not a
/// folder, or one that can't be written, is an error; and so, unless
/// `cfg.overwrite`, is a replay of this batch already there.
fn prepare_replay_dir(cfg: &SimConfig) -> Result<(), String> {
    let Some(dir) = &cfg.replay_dir else {
        return Ok(());
    };
    let shown = dir.display();
    if dir.exists() && !dir.is_dir() {
        return Err(format!(
            "replay folder {shown} is a file, not a folder: name a folder"
        ));
    }
    std::fs::create_dir_all(dir).map_err(|e| format!("replay folder {shown}: {e}"))?;
    // Written to and removed: a folder that can't be written is found now.
    let probe = dir.join(format!(".skirmish-probe-{}", std::process::id()));
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&probe)
        .map_err(|e| format!("replay folder {shown} can't be written: {e}"))?;
    let _ = std::fs::remove_file(&probe);
    if cfg.overwrite {
        return Ok(());
    }
    // A replay of one of this batch's seeds already there.
    let prefix = replay_prefix(&cfg.encounter);
    let entries = std::fs::read_dir(dir).map_err(|e| format!("replay folder {shown}: {e}"))?;
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(seed) = name
            .to_str()
            .and_then(|n| n.strip_prefix(prefix.as_str())?.strip_suffix(".ron"))
            .and_then(|s| s.parse::<u64>().ok())
        else {
            continue;
        };
        if seed.wrapping_sub(cfg.seed) < u64::from(cfg.games) {
            return Err(format!(
                "{} already exists: not written over (pass --force to write over it)",
                entry.path().display()
            ));
        }
    }
    Ok(())
}

/// Play one game between two given brains (see [`play_game`]).
pub fn play_with(
    db: &Arc<ContentDb>,
    encounter: &str,
    seed: u64,
    heroes: Box<dyn Brain>,
    monsters: Box<dyn Brain>,
    max_commands: u32,
) -> Result<(GameResult, Encounter), String> {
    let mut e = Encounter::new(db.clone(), encounter, seed).map_err(|e| e.to_string())?;
    let result = play_on(&mut e, heroes, monsters, max_commands);
    Ok((result, e))
}

/// Play an encounter already set up (new or [restarted](Encounter::restart))
/// to its end, or to `max_commands`, between two brains (see [`play_game`]).
pub fn play_on(
    e: &mut Encounter,
    mut heroes: Box<dyn Brain>,
    mut monsters: Box<dyn Brain>,
    max_commands: u32,
) -> GameResult {
    let seed = e.replay().seed;
    let mut errors = Vec::new();
    let mut n = 0;
    while n < max_commands {
        n += 1;
        // (A fight that is over lists nothing: it ends here.)
        let mut listing = e.listing();
        let Some(first) = listing.first_creature() else {
            break;
        };
        // (Most listings know their side; a prompt's is looked up.)
        let side = listing.side().or_else(|| e.side_of(first));
        debug_assert!(
            listing.side().is_none() || listing.side() == e.side_of(first),
            "a listing's side is its first creature's"
        );
        let side = side.unwrap_or(Side::Heroes);
        let brain: &mut Box<dyn Brain> = match side {
            Side::Heroes => &mut heroes,
            Side::Director => &mut monsters,
        };
        // A brain that picks by position is told how many slots there are,
        // and only its choice is built (and checked); any other reads the
        // list.
        let slots = listing.slots();
        let asked = catch_unwind(AssertUnwindSafe(|| {
            listing.pick_position(|n| brain.choose_position(e, n))
        }));
        // The whole list, when the brain was asked with it.
        let mut whole = None;
        let chosen = match asked {
            Ok(Picked::At(i) | Picked::Beyond(i)) => Ok(Ok(i)),
            Ok(Picked::Whole) => {
                let legal = std::mem::take(&mut listing).into_vec();
                let chosen = catch_unwind(AssertUnwindSafe(|| brain.choose_at(e, &legal)));
                whole = Some(legal);
                chosen
            }
            Err(p) => Err(p),
        };
        for why in brain.take_errors() {
            let name = brain.name();
            errors.push(format!(
                "brain `{name}` at seed {seed} (reproduce with --seed {seed} --games 1): {why}"
            ));
        }
        let chosen = match chosen {
            Ok(chosen) => chosen,
            Err(p) => {
                let why = panic_message(&*p).unwrap_or_default();
                errors.push(format!(
                    "brain `{}` panicked (reproduce with --seed {seed} --games 1): {why}",
                    brain.name()
                ));
                break;
            }
        };
        // A listed ability with surges spent on it (ai::score::spend_surges)
        // is carried out as chosen, checked by the engine like any command.
        if let (Err(cmd), Some(legal)) = (&chosen, &whole)
            && cmd.unspent().is_some_and(|bare| legal.contains(&bare))
        {
            match e.apply(cmd.clone()) {
                Ok(_) => continue,
                Err(r) => errors.push(format!(
                    "brain `{}` spent surges the engine refused at seed {seed}: {cmd:?}: {r}",
                    brain.name()
                )),
            }
        }
        // The listed command itself is performed, taken out of the list
        // (not copied); one not in the list is reported and a fallback
        // performed instead.
        // (What the listing read of everyone goes with a command taken
        // out of it, for its walk.)
        let mut prepared = None;
        let cmd = match (chosen, &mut whole) {
            (Ok(i), Some(legal)) if i < legal.len() => legal.swap_remove(i),
            (Ok(i), None) if i < slots => match listing.take(i) {
                Some(cmd) => {
                    prepared = listing.prepared();
                    cmd
                }
                None => {
                    errors.push(format!(
                        "the engine could not build legal command {i} of {slots} at seed {seed}"
                    ));
                    break;
                }
            },
            (illegal, _) => {
                let what = illegal_choice(&illegal, whole.as_deref(), slots);
                errors.push(format!(
                    "brain `{}` chose an illegal command at seed {seed}: {what}",
                    brain.name()
                ));
                let mut legal = whole.unwrap_or_else(|| std::mem::take(&mut listing).into_vec());
                fallback(&mut legal)
            }
        };
        // Whichever way it was chosen, the command comes from this
        // moment's listing, and nothing has changed the encounter since (a
        // brain only reads it).
        if let Err(refused) = e.perform_listed(cmd, prepared) {
            let (r, cmd) = *refused;
            let cmd = cmd.map_or_else(String::new, |c| format!("{c:?}"));
            errors.push(format!(
                "the engine refused a legal command at seed {seed}: {cmd}: {r}"
            ));
            break;
        }
    }
    tally(e, seed, errors)
}

/// What a brain chose that was not legal: a position past the list (of
/// `whole`, when it was given the list, else past the listing's `slots`),
/// or a command not in it.
fn illegal_choice(
    choice: &Result<usize, Command>,
    whole: Option<&[Command]>,
    slots: usize,
) -> String {
    match (choice, whole) {
        (Ok(i), Some(legal)) => format!("position {i} of {} legal commands", legal.len()),
        (Ok(i), None) => {
            format!("position {i}, past the listing's {slots} slots for legal commands")
        }
        (Err(cmd), _) => format!("{cmd:?}"),
    }
}

/// What happens instead of an illegal command: let a prompt pass, end the
/// acting creature's turn, or start the first creature that may.
fn fallback(legal: &mut Vec<Command>) -> Command {
    let i = ai::fallback_index(legal);
    legal.swap_remove(i)
}

/// Read a finished game's log for its numbers.
pub(super) fn tally(e: &Encounter, seed: u64, errors: Vec<String>) -> GameResult {
    let mut r = GameResult {
        seed,
        winner: e.outcome(),
        rounds: e.flow().round,
        dealt: BTreeMap::new(),
        taken: BTreeMap::new(),
        kills: BTreeMap::new(),
        sides: BTreeMap::new(),
        abilities: BTreeMap::new(),
        resource_spent: 0,
        errors,
        fell: Default::default(),
    };
    // A minion squad is one row, as its pool is one number
    // (docs/rules.md#minions): named for its first member.
    let creatures = e.creatures();
    let mut squads: BTreeMap<u32, String> = BTreeMap::new();
    let row = |c: &crate::encounter::CreatureView, squads: &mut BTreeMap<u32, String>| match c.squad
    {
        Some(n) => squads
            .entry(n)
            .or_insert_with(|| format!("{} (squad {n})", c.name))
            .clone(),
        None => c.name.clone(),
    };
    let mut names = BTreeMap::new();
    // A squad's row is down when every member is.
    let mut standing_squads = std::collections::BTreeSet::new();
    for c in &creatures {
        let name = row(c, &mut squads);
        // (A summon vanishing with its summoner is not counted.)
        let down = c.stamina.current <= 0 && c.summoned.is_none();
        match c.squad {
            Some(_) if !down => {
                standing_squads.insert(name.clone());
            }
            _ if down => {
                r.fell.insert(name.clone());
            }
            _ => {}
        }
        r.dealt.insert(name.clone(), 0);
        r.taken.insert(name.clone(), 0);
        r.sides.insert(name.clone(), c.side);
        names.insert(c.id, name);
    }
    r.fell.retain(|n| !standing_squads.contains(n));
    // Each damage is credited to whoever the log says dealt it (not
    // whoever acted last: an aura's damage at the start of an enemy's turn
    // is its user's, and a strain's nobody's).
    let damage = damage::DamageTally::of(e.log());
    for (per, into) in [
        (&damage.dealt, &mut r.dealt),
        (&damage.taken, &mut r.taken),
        (&damage.kills, &mut r.kills),
    ] {
        for (id, n) in per {
            if let Some(name) = names.get(id) {
                *into.entry(name.clone()).or_default() += n;
            }
        }
    }
    for entry in e.log() {
        match entry {
            LogEntry::AbilityUsed { name, .. } => {
                *r.abilities.entry(name.clone()).or_default() += 1;
            }
            LogEntry::ResourceSpent { amount, .. } => r.resource_spent += amount,
            // Spent, then kept: every target resisted.
            LogEntry::ResourceKept {
                amount, resource, ..
            } if resource != "Malice" => {
                r.resource_spent = r.resource_spent.saturating_sub(*amount)
            }
            _ => {}
        }
    }
    r
}

/// Run a batch: games with seeds `seed`, `seed + 1`, ..., spread over
/// `jobs` threads (each game is independent, so the report is the same for
/// any number of jobs). `progress` is called after each game.
pub fn simulate(
    db: Arc<ContentDb>,
    cfg: &SimConfig,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Report, String> {
    // Fail early on a bad encounter or brain name.
    Encounter::new(db.clone(), &cfg.encounter, cfg.seed).map_err(|e| e.to_string())?;
    for b in [&cfg.heroes, &cfg.monsters] {
        ai::by_name(b, 0, &db).map_err(|e| e.to_string())?;
    }
    prepare_replay_dir(cfg)?;
    let total = cfg.games as usize;
    let done = AtomicUsize::new(0);
    // (No more threads than games.)
    let jobs = cfg.jobs.clamp(1, total.max(1));
    // Each thread folds its games into a tally as they end (nothing is
    // kept per game), and the tallies are added up: whole numbers, so the
    // report is the same whatever the number of jobs.
    let tallies: Vec<Tally> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..jobs)
            .map(|j| {
                let (db, done) = (db.clone(), &done);
                s.spawn(move || {
                    let mut tally = Tally::default();
                    // One encounter per thread, restarted for each game
                    // (the same game as a new one, in 18 µs rather than
                    // the 160 µs of setting up anew), and built afresh
                    // after a panic left it in pieces.
                    let mut reused: Option<Encounter> = None;
                    for i in (j..total).step_by(jobs) {
                        if cfg
                            .cancel
                            .as_ref()
                            .is_some_and(|c| c.load(Ordering::Relaxed))
                        {
                            break;
                        }
                        let seed = cfg.seed.wrapping_add(i as u64);
                        let r = catch_unwind(AssertUnwindSafe(|| {
                            let e = match reused.as_mut() {
                                Some(e) => {
                                    e.restart(seed);
                                    e
                                }
                                None => reused.insert(
                                    Encounter::new(db.clone(), &cfg.encounter, seed)
                                        .map_err(|e| e.to_string())?,
                                ),
                            };
                            play_game_on(e, &db, cfg)
                        }))
                        .unwrap_or_else(|_| {
                            reused = None;
                            Err(format!("the engine panicked at seed {seed}"))
                        });
                        tally.add(seed, r);
                        progress(done.fetch_add(1, Ordering::Relaxed) + 1, total);
                    }
                    tally
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_default())
            .collect()
    });
    let mut all = Tally::default();
    for t in tallies {
        all.merge(t);
    }
    Ok(all.report(cfg))
}

/// The most errors a report lists (the lowest seeds'); the rest are counted.
pub const MAX_LISTED_ERRORS: usize = 100;

pub mod forecast;

#[cfg(test)]
mod tests;
