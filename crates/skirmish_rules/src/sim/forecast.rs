//! The difficulty forecast: an encounter played out by the greedy brains on
//! both sides, on every core, summed up as a player reads it (the heroes'
//! win rate with its 95% interval, the rounds, who falls), beside the
//! encounter's value against the party's budget
//! (docs/rules.md#encounter-budget).

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use serde::{Deserialize, Serialize};

use super::{Rate, SimConfig, simulate};
use crate::content::ContentDb;
use crate::content::budget::{self, Budget};
use crate::map::Side;

/// The games a forecast plays unless told otherwise.
pub const DEFAULT_GAMES: u32 = 200;

/// The first game's seed: a forecast of the same encounter is the same
/// every time.
pub const SEED: u64 = 1;

/// One creature's chance of ending the fight down.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Fall {
    pub name: String,
    pub side: Side,
    /// The share of its games it ended down, 0 to 1.
    pub chance: f64,
}

/// What a forecast tells.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Forecast {
    pub encounter: String,
    /// Games played (fewer than asked when cancelled).
    pub games: u32,
    pub cancelled: bool,
    pub heroes_win: Rate,
    /// Games neither side won within the simulator's command limit.
    pub unfinished: u32,
    pub rounds_mean: f64,
    /// Every creature (minion squads as one), most likely to fall first.
    pub falls: Vec<Fall>,
    pub budget: Budget,
    /// Brain mistakes, if any (a forecast should have none).
    pub errors: Vec<String>,
}

impl Forecast {
    /// The creature most likely to fall, of either side.
    pub fn most_likely_to_fall(&self) -> Option<&Fall> {
        self.falls.first()
    }

    /// The hero most likely to fall.
    pub fn hero_most_likely_to_fall(&self) -> Option<&Fall> {
        self.falls.iter().find(|f| f.side == Side::Heroes)
    }

    /// Whether the heroes' win rate is clearly outside `band` (percent,
    /// low to high): its whole 95% interval lies beyond one end.
    pub fn clearly_outside(&self, (low, high): (u32, u32)) -> bool {
        100.0 * self.heroes_win.high < low as f64 || 100.0 * self.heroes_win.low > high as f64
    }
}

/// Play `games` greedy-against-greedy games of `encounter` on `jobs`
/// threads. `progress(done, total)` is called after each game; setting
/// `cancel` stops it early with the games played so far.
pub fn forecast(
    db: Arc<ContentDb>,
    encounter: &str,
    games: u32,
    jobs: usize,
    progress: &(dyn Fn(usize, usize) + Sync),
    cancel: Option<Arc<AtomicBool>>,
) -> Result<Forecast, String> {
    let def = db
        .encounters
        .get(encounter)
        .ok_or_else(|| format!("no encounter `{encounter}`"))?;
    let budget = budget::of(&db, def);
    let mut cfg = SimConfig::new(encounter, "greedy", "greedy", games.max(1), SEED);
    cfg.jobs = jobs.max(1);
    cfg.cancel = cancel.clone();
    let report = simulate(db.clone(), &cfg, progress)?;
    let mut falls: Vec<Fall> = report
        .creatures
        .iter()
        // (Summons, in some games only and never counted down, are left out.)
        .filter(|(_, c)| c.fell > 0.0 || c.games >= report.games)
        .filter_map(|(name, c)| {
            Some(Fall {
                name: name.clone(),
                side: c.side?,
                chance: c.fell,
            })
        })
        .collect();
    // Most likely first; ties by side (heroes first) and name.
    falls.sort_by(|a, b| {
        b.chance
            .total_cmp(&a.chance)
            .then((a.side == Side::Director).cmp(&(b.side == Side::Director)))
            .then(a.name.cmp(&b.name))
    });
    Ok(Forecast {
        encounter: encounter.to_string(),
        games: report.games,
        cancelled: report.games < games.max(1),
        heroes_win: report.heroes_rate,
        unfinished: report.draws,
        rounds_mean: report.rounds_mean,
        falls,
        budget,
        errors: report.errors,
    })
}

/// The number of threads to use: every core.
pub fn all_cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

impl std::fmt::Display for Forecast {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let r = self.heroes_win;
        writeln!(
            f,
            "{}: {} greedy games{}",
            self.encounter,
            self.games,
            if self.cancelled { " (cancelled)" } else { "" }
        )?;
        writeln!(
            f,
            "  heroes win      {:.0}% (95% interval {:.0}% to {:.0}%)",
            100.0 * r.rate,
            100.0 * r.low,
            100.0 * r.high
        )?;
        if self.unfinished > 0 {
            writeln!(f, "  unfinished      {} games", self.unfinished)?;
        }
        writeln!(f, "  rounds          {:.1} on average", self.rounds_mean)?;
        writeln!(
            f,
            "  budget          EV {:.1} against the party's {:.0}: {}",
            self.budget.ev,
            self.budget.budget,
            self.budget.band.name()
        )?;
        if let Some(fall) = self.most_likely_to_fall() {
            writeln!(
                f,
                "  most likely to fall: {} ({:.0}% of games)",
                fall.name,
                100.0 * fall.chance
            )?;
        }
        if let Some(fall) = self.hero_most_likely_to_fall() {
            writeln!(
                f,
                "  hero most likely to fall: {} ({:.0}% of games)",
                fall.name,
                100.0 * fall.chance
            )?;
        }
        writeln!(f, "  down at the end, by creature:")?;
        for fall in &self.falls {
            let side = match fall.side {
                Side::Heroes => "hero",
                Side::Director => "monster",
            };
            writeln!(
                f,
                "    {:<28} {:<8} {:3.0}%",
                fall.name,
                side,
                100.0 * fall.chance
            )?;
        }
        for e in &self.errors {
            writeln!(f, "  problem: {e}")?;
        }
        Ok(())
    }
}
