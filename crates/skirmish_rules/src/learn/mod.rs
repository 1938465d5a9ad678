//! The core of the learning environments (docs/python.md): one encounter
//! with a fixed action layout (a `Discrete(N)` space and its mask, see
//! [`layout`]), observation tensors for either side ([`observe`]),
//! rewards, truncation and resets. The Python package's PettingZoo and
//! Gymnasium environments and its vector environment step this; it lives
//! here, headless and tested in Rust, so a Rust user steps the same thing.

pub mod layout;
pub mod observe;

use std::sync::Arc;

use crate::content::ContentDb;
use crate::encounter::{Command, Encounter, Listing, Refusal, SetupError, SlotView};
use crate::map::Side;
use crate::stats::CreatureId;

pub use crate::ai::describe::{describe, side_name};
use crate::fast::KeyedWorld;
pub use layout::{ActionSlot, Layout, User};
pub use observe::{FEATURES, ObsBuffers, PLANES, TURN, TurnFacts};

/// How rewards are given (docs/python.md#rewards).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Reward {
    /// +1 to the side that wins and -1 to the other, when the fight ends;
    /// 0 on every other step and on truncation.
    #[default]
    Win,
    /// As `Win`, plus on every step the change in the enemy's lost
    /// strength less the change in one's own (each side's strength being
    /// the mean over its creatures set up of their stamina fraction, 0
    /// once dead): a fight's shaped rewards sum to between -1 and 1.
    Damage,
}

impl Reward {
    pub fn from_name(name: &str) -> Option<Reward> {
        match name {
            "win" => Some(Reward::Win),
            "damage" => Some(Reward::Damage),
            _ => None,
        }
    }
}

/// An environment's settings.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Steps (commands) before the episode is truncated.
    pub max_steps: u32,
    pub reward: Reward,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            max_steps: 3000,
            reward: Reward::Win,
        }
    }
}

/// What one step did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Step {
    /// The heroes' and the Director's rewards for it.
    pub rewards: [f32; 2],
    /// The fight is over (a side won).
    pub terminated: bool,
    /// The step limit was reached first.
    pub truncated: bool,
}

/// Why a step was not taken (nothing changed).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum StepError {
    #[error("the episode is over: reset it")]
    Over,
    #[error("action {0} is not legal now (its mask is 0)")]
    Masked(usize),
    /// The engine refused the command the mask allowed (a bug: the
    /// environment's tests play a million steps to keep it from happening).
    #[error("the engine refused action {action}: {refusal}")]
    Refused { action: usize, refusal: Refusal },
}

/// A state of an [`Env`] to go back to.
#[derive(Clone)]
pub struct EnvSnapshot {
    encounter: crate::encounter::Snapshot,
    steps: u32,
    truncated: bool,
    strength: [f32; 2],
}

/// One encounter as a learning environment.
pub struct Env {
    encounter: Encounter,
    layout: Layout,
    options: Options,
    /// The listing of this moment, whose slots the mask points into.
    listing: Listing,
    /// Per action: its slot in `listing`, plus 1 (0: masked).
    slot_of: Vec<u32>,
    mask: Vec<u8>,
    /// The actions whose mask is 1 (to clear them).
    legal: Vec<u32>,
    deciding: Option<Side>,
    steps: u32,
    truncated: bool,
    /// Each side's strength after the last step (for `Reward::Damage`).
    strength: [f32; 2],
    /// Each side's number of creatures set up.
    counts: [usize; 2],
}

impl Env {
    /// `encounter` from `content`, its dice seeded with `seed`.
    pub fn new(
        content: Arc<ContentDb>,
        encounter: &str,
        seed: u64,
        options: Options,
    ) -> Result<Env, SetupError> {
        Ok(Env::of(Encounter::new(content, encounter, seed)?, options))
    }

    /// An environment of an encounter as it stands (set up, not yet
    /// played: its layout is read from it).
    pub fn of(encounter: Encounter, options: Options) -> Env {
        let layout = Layout::of(&encounter);
        let n = layout.size();
        let mut counts = [0; 2];
        for c in encounter.creatures() {
            counts[c.side.index()] += 1;
        }
        let mut env = Env {
            encounter,
            layout,
            options,
            listing: Listing::default(),
            slot_of: vec![0; n],
            mask: vec![0; n],
            legal: Vec::new(),
            deciding: None,
            steps: 0,
            truncated: false,
            strength: [1.0; 2],
            counts,
        };
        env.refresh();
        env
    }

    /// Start over with the dice seeded with `seed`.
    pub fn reset(&mut self, seed: u64) {
        self.encounter.restart(seed);
        self.steps = 0;
        self.truncated = false;
        self.strength = [1.0; 2];
        self.refresh();
    }

    pub fn encounter(&self) -> &Encounter {
        &self.encounter
    }

    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// `N`, the number of actions.
    pub fn actions(&self) -> usize {
        self.mask.len()
    }

    /// 1 for each action legal now, else 0 (all 0 once the episode is over).
    pub fn mask(&self) -> &[u8] {
        &self.mask
    }

    /// The actions legal now, in the engine's listing order.
    pub fn legal(&self) -> &[u32] {
        &self.legal
    }

    /// A legal action drawn uniformly from `dice` (none once the episode
    /// is over): a masked random policy.
    pub fn sample_legal(&self, dice: &mut crate::dice::Dice) -> Option<usize> {
        let n = self.legal.len();
        (n > 0).then(|| self.legal[dice.roll(n as u32) as usize - 1] as usize)
    }

    /// The side whose choice it is (none once the episode is over).
    pub fn deciding(&self) -> Option<Side> {
        self.deciding
    }

    pub fn steps(&self) -> u32 {
        self.steps
    }

    pub fn is_over(&self) -> bool {
        self.encounter.outcome().is_some() || self.truncated
    }

    pub fn truncated(&self) -> bool {
        self.truncated
    }

    /// The command action `i` stands for now, if it is legal.
    pub fn command(&mut self, i: usize) -> Option<Command> {
        let slot = (*self.slot_of.get(i)?).checked_sub(1)?;
        self.encounter.listing().take(slot as usize)
    }

    /// The action a command of the engine's listing stands at now, if it
    /// has one (commands beyond the layout have none).
    pub fn action_of(&self, command: &Command) -> Option<usize> {
        let i = self.layout.index(
            &SlotView::Command(command),
            answer_rank(&self.encounter, command),
            |id| self.user(id),
        )?;
        (self.mask[i] == 1).then_some(i)
    }

    fn user(&self, id: CreatureId) -> Option<User> {
        user_of(&self.encounter, id)
    }

    /// The state now, to [`Env::restore`] (the dice go back with it).
    pub fn snapshot(&self) -> EnvSnapshot {
        EnvSnapshot {
            encounter: self.encounter.snapshot(),
            steps: self.steps,
            truncated: self.truncated,
            strength: self.strength,
        }
    }

    /// Go back to `s` (taken of this environment).
    pub fn restore(&mut self, s: &EnvSnapshot) {
        self.encounter.restore(&s.encounter);
        self.steps = s.steps;
        self.truncated = s.truncated;
        self.strength = s.strength;
        self.refresh();
    }

    /// Give the dice to come a new seed: the same state with other
    /// dice (a search's private copy, so it never sees the real ones).
    pub fn reseed_dice(&mut self, seed: u64) {
        self.encounter.reseed_dice(seed);
    }

    /// Take action `i`.
    pub fn step(&mut self, i: usize) -> Result<Step, StepError> {
        if self.is_over() {
            return Err(StepError::Over);
        }
        let Some(slot) = self
            .slot_of
            .get(i)
            .and_then(|s| s.checked_sub(1))
            .filter(|_| self.mask[i] == 1)
        else {
            return Err(StepError::Masked(i));
        };
        let Some(command) = self.listing.take(slot as usize) else {
            return Err(StepError::Masked(i));
        };
        let prepared = self.listing.prepared();
        if let Err(refused) = self.encounter.perform_listed(command, prepared) {
            self.refresh();
            return Err(StepError::Refused {
                action: i,
                refusal: refused.0,
            });
        }
        Ok(self.after())
    }

    /// Carry out `command` (one a brain chose, or any the engine
    /// accepts), as a step: counted, rewarded and truncated as
    /// [`Env::step`]'s are.
    pub fn apply(&mut self, command: Command) -> Result<Step, Refusal> {
        if self.truncated {
            return Err(Refusal::Over);
        }
        self.listing = Listing::default();
        if let Err(r) = self.encounter.perform(command) {
            self.refresh();
            return Err(r);
        }
        Ok(self.after())
    }

    /// Let `brain` choose for the side deciding now, and carry it out (a
    /// choice the engine refuses is replaced by the first legal command).
    pub fn play(&mut self, brain: &mut dyn crate::ai::Brain) -> Result<Step, StepError> {
        if self.is_over() {
            return Err(StepError::Over);
        }
        let legal = self.encounter.legal_actions();
        let chosen = match brain.choose_at(&self.encounter, &legal) {
            Ok(i) => legal[i].clone(),
            Err(c) => c,
        };
        match self.apply(chosen) {
            Ok(s) => Ok(s),
            Err(_) => self
                .apply(legal[0].clone())
                .map_err(|refusal| StepError::Refused {
                    action: usize::MAX,
                    refusal,
                }),
        }
    }

    /// A step that does nothing (a single-agent environment's answer to a
    /// masked action): counted toward the step limit, and truncating there.
    pub fn waste(&mut self) -> Step {
        if self.is_over() {
            return Step::default();
        }
        self.steps += 1;
        if self.steps >= self.options.max_steps {
            self.truncated = true;
            self.refresh();
            return Step {
                truncated: true,
                ..Step::default()
            };
        }
        Step::default()
    }

    /// Count, reward and truncate the step just taken, and list the next.
    fn after(&mut self) -> Step {
        self.steps += 1;
        let mut step = Step::default();
        if let Some(winner) = self.encounter.outcome() {
            step.terminated = true;
            step.rewards[winner.index()] += 1.0;
            step.rewards[1 - winner.index()] -= 1.0;
        } else if self.steps >= self.options.max_steps {
            step.truncated = true;
            self.truncated = true;
        }
        if self.options.reward == Reward::Damage {
            let now = self.strengths();
            let lost = [self.strength[0] - now[0], self.strength[1] - now[1]];
            step.rewards[0] += lost[1] - lost[0];
            step.rewards[1] += lost[0] - lost[1];
            self.strength = now;
        }
        self.refresh();
        step
    }

    /// Each side's strength: the mean over its creatures set up of their
    /// stamina fraction (0 once dead; summons not counted).
    fn strengths(&self) -> [f32; 2] {
        let mut sum = [0.0f32; 2];
        for c in self.encounter.creatures() {
            if c.summoned.is_some() || c.stamina.is_dead() || c.stamina.max <= 0 {
                continue;
            }
            let f = (c.stamina.current.max(0) as f32 / c.stamina.max as f32).min(1.0);
            sum[c.side.index()] += f;
        }
        [
            sum[0] / self.counts[0].max(1) as f32,
            sum[1] / self.counts[1].max(1) as f32,
        ]
    }

    /// Fill `out` with what `side` may know now.
    pub fn observe(&self, side: Side, out: ObsBuffers<'_>) {
        let facts = TurnFacts {
            deciding: self.deciding,
            steps_left: 1.0 - self.steps as f32 / self.options.max_steps.max(1) as f32,
        };
        observe::observe(&self.encounter, &self.layout, side, facts, out);
    }

    /// The observation's shapes: the board `(planes, height, width)`, the
    /// creatures `(targets, features)` and the turn `(entries,)`.
    pub fn shapes(&self) -> ([usize; 3], [usize; 2], usize) {
        (
            [PLANES.len(), self.layout.height, self.layout.width],
            [self.layout.targets, FEATURES.len()],
            TURN.len(),
        )
    }

    /// Read the listing of this moment into the mask.
    fn refresh(&mut self) {
        for &i in &self.legal {
            self.mask[i as usize] = 0;
            self.slot_of[i as usize] = 0;
        }
        self.legal.clear();
        self.deciding = None;
        if self.truncated {
            self.listing = Listing::default();
            return;
        }
        self.listing = self.encounter.listing();
        let (layout, encounter) = (&self.layout, &self.encounter);
        let (mask, slot_of, legal) = (&mut self.mask, &mut self.slot_of, &mut self.legal);
        let mut first: Option<CreatureId> = None;
        let mut answers = 0;
        let mut users: Vec<(CreatureId, User)> = Vec::new();
        self.listing.each_legal(|slot, view| {
            let creature = match view {
                SlotView::Move { creature, .. }
                | SlotView::Shift { creature, .. }
                | SlotView::Use { creature, .. }
                | SlotView::FreeStrike { creature, .. } => creature,
                SlotView::Command(c) => c.creature(),
            };
            first.get_or_insert(creature);
            let answer = match view {
                SlotView::Command(Command::Answer {
                    reaction: Some(_), ..
                }) => {
                    answers += 1;
                    answers - 1
                }
                _ => 0,
            };
            let at = |id: CreatureId| {
                if let Some(&(_, u)) = users.iter().find(|(c, _)| *c == id) {
                    return Some(u);
                }
                let u = user_of(encounter, id)?;
                users.push((id, u));
                Some(u)
            };
            if let Some(i) = layout.index(&view, answer, at)
                && mask[i] == 0
            {
                mask[i] = 1;
                slot_of[i] = slot as u32 + 1;
                legal.push(i as u32);
            }
        });
        self.deciding = self
            .listing
            .side()
            .or_else(|| first.and_then(|c| self.encounter.side_of(c)));
    }
}

/// Where a creature stands and who summoned it.
fn user_of(e: &Encounter, id: CreatureId) -> Option<User> {
    let w = e.world();
    let ent = crate::encounter::world::entity_of(w, id)?;
    Some(User {
        at: w
            .comp::<crate::encounter::state::components::Space>(ent)?
            .0
            .pos,
        owner: w
            .get::<crate::encounter::state::components::Summoned>(ent)
            .map(|s| s.owner),
    })
}

/// An answer's place among its prompt's options (0 for any other command).
fn answer_rank(e: &Encounter, command: &Command) -> usize {
    match (command, e.prompt()) {
        (
            Command::Answer {
                reaction: Some(r), ..
            },
            Some(p),
        ) => p.options.iter().position(|o| o == r).unwrap_or(usize::MAX),
        _ => 0,
    }
}

#[cfg(test)]
mod tests;
