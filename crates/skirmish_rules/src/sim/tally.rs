//! A batch's games folded together as they end, and the report made of
//! them.

use super::*;

/// A creature's sums: damage dealt, taken, its side, the games it was in,
/// kills credited, the games it ended down.
type CreatureRow = (i64, i64, Option<Side>, u32, i64, u32);

/// A batch's games folded together as they end: sums and counts only.
#[derive(Clone, Debug, Default)]
pub(super) struct Tally {
    games: u32,
    heroes_won: u32,
    director_won: u32,
    rounds: u64,
    rounds_min: Option<u32>,
    rounds_max: u32,
    resource_spent: u64,
    /// Per creature: damage dealt, taken, its side, the games it was in,
    /// kills credited.
    /// And the games it ended down.
    creatures: BTreeMap<String, CreatureRow>,
    abilities: BTreeMap<String, u32>,
    /// (seed, message), the lowest seeds' kept.
    pub(super) errors: Vec<(u64, String)>,
    errors_total: usize,
}

impl Tally {
    pub(super) fn add(&mut self, seed: u64, game: Result<GameResult, String>) {
        let g = match game {
            Ok(g) => g,
            Err(e) => return self.error(seed, e),
        };
        self.games += 1;
        match g.winner {
            Some(Side::Heroes) => self.heroes_won += 1,
            Some(Side::Director) => self.director_won += 1,
            None => {}
        }
        self.rounds += u64::from(g.rounds);
        self.rounds_min = Some(self.rounds_min.map_or(g.rounds, |m| m.min(g.rounds)));
        self.rounds_max = self.rounds_max.max(g.rounds);
        self.resource_spent += u64::from(g.resource_spent);
        for (c, d) in &g.dealt {
            self.creatures.entry(c.clone()).or_default().0 += d;
        }
        for (c, d) in &g.taken {
            self.creatures.entry(c.clone()).or_default().1 += d;
        }
        for (c, k) in &g.kills {
            self.creatures.entry(c.clone()).or_default().4 += k;
        }
        for (c, side) in &g.sides {
            let row = self.creatures.entry(c.clone()).or_default();
            row.2 = Some(*side);
            row.3 += 1;
        }
        for c in &g.fell {
            self.creatures.entry(c.clone()).or_default().5 += 1;
        }
        for (a, k) in &g.abilities {
            *self.abilities.entry(a.clone()).or_insert(0) += k;
        }
        for e in g.errors {
            self.error(seed, e);
        }
    }

    pub(super) fn error(&mut self, seed: u64, message: String) {
        self.errors_total += 1;
        self.errors.push((seed, message));
        if self.errors.len() > 2 * MAX_LISTED_ERRORS {
            self.errors.sort();
            self.errors.truncate(MAX_LISTED_ERRORS);
        }
    }

    pub(super) fn merge(&mut self, other: Tally) {
        self.games += other.games;
        self.heroes_won += other.heroes_won;
        self.director_won += other.director_won;
        self.rounds += other.rounds;
        self.rounds_min = match (self.rounds_min, other.rounds_min) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        self.rounds_max = self.rounds_max.max(other.rounds_max);
        self.resource_spent += other.resource_spent;
        for (c, (d, t, side, n, k, down)) in other.creatures {
            let row = self.creatures.entry(c).or_default();
            row.0 += d;
            row.1 += t;
            row.2 = row.2.or(side);
            row.3 += n;
            row.4 += k;
            row.5 += down;
        }
        for (a, k) in other.abilities {
            *self.abilities.entry(a).or_insert(0) += k;
        }
        self.errors_total += other.errors_total;
        for (seed, e) in other.errors {
            self.errors.push((seed, e));
        }
    }

    pub(super) fn report(mut self, cfg: &SimConfig) -> Report {
        let n = self.games;
        let per = |x: u64| if n == 0 { 0.0 } else { x as f64 / n as f64 };
        // Averaged over the games each was in: a summon called up in a few
        // games is not diluted by the rest.
        let creatures = self
            .creatures
            .into_iter()
            .map(|(name, (dealt, taken, side, games, kills, down))| {
                let per = games.max(1) as f64;
                let totals = CreatureTotals {
                    dealt_per_game: dealt as f64 / per,
                    taken_per_game: taken as f64 / per,
                    kills_per_game: kills as f64 / per,
                    side,
                    games,
                    fell: down as f64 / per,
                };
                (name, totals)
            })
            .collect();
        self.errors.sort();
        self.errors.truncate(MAX_LISTED_ERRORS);
        let mut errors: Vec<String> = self.errors.into_iter().map(|(_, e)| e).collect();
        if self.errors_total > errors.len() {
            errors.push(format!(
                "... and {} more errors",
                self.errors_total - errors.len()
            ));
        }
        Report {
            encounter: cfg.encounter.clone(),
            heroes: cfg.heroes.clone(),
            monsters: cfg.monsters.clone(),
            games: n,
            seed: cfg.seed,
            heroes_won: self.heroes_won,
            director_won: self.director_won,
            draws: n - self.heroes_won - self.director_won,
            heroes_rate: Rate::wilson(self.heroes_won, n),
            director_rate: Rate::wilson(self.director_won, n),
            rounds_mean: per(self.rounds),
            rounds_min: self.rounds_min.unwrap_or(0),
            rounds_max: self.rounds_max,
            creatures,
            abilities: self.abilities,
            resource_spent_per_game: per(self.resource_spent),
            errors,
        }
    }
}

impl std::fmt::Display for Report {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let pct = |r: Rate| {
            format!(
                "{:5.1}%  (95% CI {:.1}% to {:.1}%)",
                100.0 * r.rate,
                100.0 * r.low,
                100.0 * r.high
            )
        };
        writeln!(
            f,
            "{}: heroes `{}` against monsters `{}`, {} games from seed {}",
            self.encounter, self.heroes, self.monsters, self.games, self.seed
        )?;
        writeln!(f, "  heroes win    {}", pct(self.heroes_rate))?;
        writeln!(f, "  director wins {}", pct(self.director_rate))?;
        if self.draws > 0 {
            writeln!(f, "  unfinished    {}", self.draws)?;
        }
        writeln!(
            f,
            "  rounds        {:.1} on average ({} to {})",
            self.rounds_mean, self.rounds_min, self.rounds_max
        )?;
        writeln!(
            f,
            "  heroic resource spent {:.1} a game",
            self.resource_spent_per_game
        )?;
        // The heroes' rows, then the monsters' (summons with their side),
        // each by name; the names' column as wide as the longest.
        let width = self.creatures.keys().map(|n| n.chars().count()).max();
        let width = width.unwrap_or(0).max(20);
        writeln!(f, "  per creature, on average over the games it was in:")?;
        writeln!(
            f,
            "    {:<width$} {:>7} {:>7} {:>6} {:>6} {:>9}",
            "", "dealt", "taken", "kills", "down", "in games"
        )?;
        for (side, title) in [
            (Some(Side::Heroes), "heroes:"),
            (Some(Side::Director), "monsters:"),
            (None, "others:"),
        ] {
            let rows: Vec<_> = self
                .creatures
                .iter()
                .filter(|(_, c)| c.side == side)
                .collect();
            if rows.is_empty() {
                continue;
            }
            writeln!(f, "   {title}")?;
            for (name, c) in rows {
                let share = 100.0 * c.games as f64 / self.games.max(1) as f64;
                writeln!(
                    f,
                    "    {name:<width$} {:7.1} {:7.1} {:6.2} {:5.0}% {share:8.0}%",
                    c.dealt_per_game,
                    c.taken_per_game,
                    c.kills_per_game,
                    100.0 * c.fell
                )?;
            }
        }
        writeln!(f, "  ability uses:")?;
        for (name, k) in &self.abilities {
            writeln!(f, "    {name:<24} {k}")?;
        }
        if !self.errors.is_empty() {
            writeln!(f, "  {} problems:", self.errors.len())?;
            for e in self.errors.iter().take(20) {
                writeln!(f, "    {e}")?;
            }
        }
        Ok(())
    }
}
