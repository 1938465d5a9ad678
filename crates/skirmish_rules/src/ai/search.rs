//! Search over the engine itself: at each decision the brain keeps a private
//! copy of the encounter, and spends its budget of rollouts on the most
//! promising legal commands (UCB1 over the tactical scorer's top candidates,
//! a one-level Monte Carlo tree search). Each rollout restores a snapshot,
//! reseeds the copy's dice from the brain's own generator (it never sees the
//! real dice to come), plays the command, lets the greedy policy play both
//! sides for a few commands, and scores the position.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::Brain;
use super::score::{self, Scorer, Weights};
use crate::encounter::Snapshot;
use crate::encounter::{Command, Encounter};
use crate::map::Side;

/// How much the tactical scorer's value of a command counts beside its
/// rollouts' average.
const PRIOR: f64 = 1.0;

/// How much thinking a decision gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Rollouts per decision.
    pub iterations: u32,
    /// Commands played in each rollout before the position is scored.
    pub horizon: u32,
    /// Candidate commands considered (the best by the tactical scorer).
    pub candidates: usize,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            iterations: 24,
            horizon: 12,
            candidates: 4,
        }
    }
}

pub struct Search {
    rng: ChaCha8Rng,
    budget: Budget,
    weights: Weights,
    rollout: Weights,
    /// The private copy, and the snapshot of it in step with the real fight.
    sandbox: Option<(Encounter, Snapshot)>,
}

impl Search {
    pub fn new(seed: u64, budget: Budget) -> Search {
        Search {
            rng: ChaCha8Rng::seed_from_u64(seed),
            budget,
            weights: crate::content::default_tactical(),
            rollout: Weights::greedy(),
            sandbox: None,
        }
    }

    /// Bring the private copy level with `view` and return it.
    fn sync(&mut self, view: &Encounter) -> Option<&mut Encounter> {
        let want = &view.replay().commands;
        let usable = match &mut self.sandbox {
            Some((copy, at)) => {
                copy.restore(at);
                let have = copy.replay().commands.len();
                have <= want.len()
                    && copy.replay().commands[..] == want[..have]
                    && copy.replay().seed == view.replay().seed
                    && want[have..].iter().all(|c| copy.perform(c.clone()).is_ok())
            }
            None => false,
        };
        if !usable {
            let copy = view.fork().ok()?;
            let snap = copy.snapshot();
            self.sandbox = Some((copy, snap));
        } else if let Some((copy, at)) = &mut self.sandbox {
            *at = copy.snapshot();
        }
        self.sandbox.as_mut().map(|(c, _)| c)
    }
}

/// How good a position is for `side`: stamina kept against stamina taken,
/// creatures standing, and winning.
fn evaluate(e: &Encounter, side: Side) -> f64 {
    if let Some(w) = e.outcome() {
        return if w == side { 100.0 } else { -100.0 };
    }
    e.creatures()
        .iter()
        .map(|c| {
            let v = if c.stamina.is_dead() {
                0.0
            } else {
                3.0 + 5.0 * (c.stamina.current.max(0) as f64 / c.stamina.max.max(1) as f64)
            };
            if c.side == side { v } else { -v }
        })
        .sum()
}

impl Brain for Search {
    fn name(&self) -> String {
        "search".into()
    }

    fn choose(&mut self, view: &Encounter, legal: &[Command]) -> Command {
        // Picking who acts and answering prompts: the tactical scorer.
        let in_turn = view.prompt().is_none() && view.active_creature().is_some();
        if legal.len() == 1 || !in_turn {
            return score::choose(view, legal, &self.weights);
        }
        let Some(side) = score::acting_side(view, legal) else {
            return legal[0].clone();
        };
        // The candidates: the scorer's best few, and ending the turn.
        let scorer = Scorer::new(view, &self.weights, side);
        let mut ranked: Vec<(f64, &Command)> = legal.iter().map(|c| (scorer.score(c), c)).collect();
        ranked.sort_by(|a, b| b.0.total_cmp(&a.0));
        let mut candidates: Vec<Command> = ranked
            .iter()
            .take(self.budget.candidates)
            .map(|(_, c)| (*c).clone())
            .collect();
        if let Some(end) = legal.iter().find(|c| matches!(c, Command::EndTurn { .. }))
            && !candidates.contains(end)
        {
            candidates.push(end.clone());
        }
        // The scorer's opinion stays in the sum as a prior (progressive
        // bias): rollouts refine it rather than replace it.
        let prior: Vec<f64> = candidates.iter().map(|c| scorer.score(c)).collect();
        let (budget, rollout) = (self.budget, self.rollout.clone());
        let seeds: Vec<u64> = (0..budget.iterations).map(|_| self.rng.random()).collect();
        let Some(copy) = self.sync(view) else {
            return score::choose(view, legal, &self.weights);
        };
        let root = copy.snapshot();
        let mut total = vec![0.0f64; candidates.len()];
        let mut visits = vec![0u32; candidates.len()];
        for (n, seed) in seeds.into_iter().enumerate() {
            // UCB1: each candidate once, then the most promising.
            let i = if n < candidates.len() {
                n
            } else {
                let ln = (n as f64).ln();
                super::best(&(0..candidates.len()).collect::<Vec<_>>(), |&i| {
                    total[i] / visits[i] as f64
                        + PRIOR * prior[i]
                        + 10.0 * (2.0 * ln / visits[i] as f64).sqrt()
                })
            };
            copy.restore(&root);
            copy.reseed_dice(seed);
            let mut value = -1000.0;
            if copy.perform(candidates[i].clone()).is_ok() {
                for _ in 0..budget.horizon {
                    let legal = copy.legal_actions();
                    if legal.is_empty() {
                        break;
                    }
                    // Chosen from the listing of this moment: its move is
                    // not searched again.
                    let cmd = score::choose(copy, &legal, &rollout);
                    if copy.perform_listed(cmd, None).is_err() {
                        break;
                    }
                }
                value = evaluate(copy, side);
            }
            total[i] += value;
            visits[i] += 1;
        }
        copy.restore(&root);
        let i = super::best(&(0..candidates.len()).collect::<Vec<_>>(), |&i| {
            if visits[i] == 0 {
                f64::NEG_INFINITY
            } else {
                total[i] / visits[i] as f64 + PRIOR * prior[i]
            }
        });
        candidates[i].clone()
    }
}
