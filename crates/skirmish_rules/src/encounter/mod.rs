//! The encounter engine: setup, turn flow, commands and their resolution.
//!
//! An encounter runs in a Bevy `App` with the rules plugin, driven only by
//! [`Command`]s: the client, the AI, the simulator and the tests all go
//! through [`Encounter::apply`]. Each command is checked and carried out
//! (`stack::handle_command`, run on the world as an exclusive system); then, if
//! the command ended or started a turn or left none under way, the turn
//! boundary's [`state::turn::Step`] schedules, which end turns, advance the turn
//! order and start turns, each run only when it has something to do; then
//! the check for victory.

pub mod captain;
pub(super) mod check;
pub mod command;
pub mod concentration;

pub mod flow;
pub mod gather;
pub mod invariants;

pub mod listing;
pub mod log;
pub mod objective;
pub mod preview;
pub mod react;
pub mod replay;
pub mod resolve;
pub mod ruleset;
pub mod rulesets;
pub mod setup;
pub mod snapshot;
mod stack;
pub mod state;
mod view;
pub mod world;

use crate::fast::KeyedWorld;
use std::sync::Arc;

use bevy_app::App;
use bevy_ecs::prelude::*;
use bevy_ecs::schedule::ScheduleLabel;
use bevy_state::app::StatesPlugin;
use bevy_state::prelude::*;
use bevy_state::state::StateTransition;

// The face the AI, the simulator and the client use: the `Encounter`, its
// commands, and the types its views and answers are made of.
pub use command::{Command, Placement, Refusal};
pub use gather::ITEM_SOLD_FOR;
pub use listing::{Listing, Picked, SlotView};
pub use log::{CombatLog, LogEntry, trigger_text};
pub use preview::{Forecaster, Preview, TargetPreview};
pub use replay::{Replay, ReplayError};
pub use setup::SetupError;
pub use snapshot::Snapshot;
pub use state::board::{Battlefield, Glyph, Glyphs};
pub use state::components::uses_left;
pub use state::components::{CreatureKind, Heroic};
pub use state::turn::{Flow, Malice, Phase};
pub use state::work::{Prompt, Reaction};
pub use view::CreatureView;

use crate::conditions::Conditions;
use crate::content::{Content, ContentDb};
use crate::dice::Dice;
use crate::map::Side;
use crate::stats::{CreatureId, Stamina};
use state::components::*;

pub(super) fn plugin(app: &mut App) {
    app.insert_resource(ruleset::Plugged(&rulesets::Standard))
        .add_plugins((flow::plugin, resolve::plugin));
}

/// A running encounter: owns a headless app with the rules plugin.
pub struct Encounter {
    app: App,
    /// The turn boundary's stages, kept out of the world's schedules.
    boundary: flow::Boundary,
    /// Whether any system runs on entering, leaving or changing a phase:
    /// if none does, a step sets the new phase without running the
    /// transition schedule.
    phase_watched: bool,
    /// The seed and accepted commands so far: the replay, and the save.
    record: replay::Replay,
    /// The encounter as set up, before its seed was used: where
    /// [`Encounter::restart`] begins again.
    unseeded: Arc<snapshot::Snapshot>,
}

impl Encounter {
    /// Set up `encounter_id` from `content` with the seed for its one generator.
    pub fn new(
        content: Arc<ContentDb>,
        encounter_id: &str,
        seed: u64,
    ) -> Result<Encounter, SetupError> {
        let def = content
            .encounters
            .get(encounter_id)
            .cloned()
            .ok_or_else(|| SetupError::UnknownEncounter {
                id: encounter_id.to_string(),
                known: content.encounters.keys().cloned().collect(),
            })?;
        let map = content
            .maps
            .get(&def.map)
            .map(|m| m.map.clone())
            .ok_or_else(|| SetupError::Invalid {
                encounter: def.id.clone(),
                problem: format!("unknown map `{}`", def.map),
            })?;
        let mut app = App::new();
        app.add_plugins((StatesPlugin, crate::RulesPlugin));
        app.edit_schedule(StateTransition, |s| {
            s.set_executor(bevy_ecs::schedule::SingleThreadedExecutor::new());
        });
        app.insert_resource(Content(content.clone()));
        // Not yet the fight's seed: `begin` seeds the generator, so the
        // state taken below for `restart` is the same whatever the seed.
        app.insert_resource(Dice::seeded(0));
        app.insert_resource(Battlefield::new(map));
        if let Some(r) = content.rulesets.get(&def.ruleset) {
            app.insert_resource(state::turn::ActiveRuleset(r.clone()));
            app.insert_resource(ruleset::Plugged(rulesets::for_rules(r)));
        }
        setup::spawn_creatures(app.world_mut(), &content, &def)?;
        resolve::glyph::setup(app.world_mut());
        let boundary = flow::Boundary::take(app.world_mut());
        let phase_watched = phase_watched(app.world());
        let unseeded = Arc::new(snapshot::Snapshot::take(app.world(), 0));
        let mut e = Encounter {
            app,
            boundary,
            phase_watched,
            record: replay::Replay {
                encounter: encounter_id.to_string(),
                seed,
                commands: Vec::new(),
            },
            unseeded,
        };
        e.begin(&def, seed);
        Ok(e)
    }

    /// Begin again from the start with another seed: the same fight, bit
    /// for bit, as `Encounter::new` with this encounter's id and `seed`,
    /// without building the app again (for batches of games).
    pub fn restart(&mut self, seed: u64) {
        let unseeded = self.unseeded.clone();
        self.restore(&unseeded);
        // Read from the shared content, not copied (a batch restarts once a
        // game).
        let content = self.content().clone();
        let def = content
            .encounters
            .get(&self.record.encounter)
            .expect("an encounter that was set up is in its content");
        self.begin(def, seed);
    }

    /// Everything of setting up that uses the seed: the generator, who goes
    /// first, the Director's starting Malice, the abilities that act at the
    /// encounter's start, and the first step.
    fn begin(&mut self, def: &crate::content::encounter::EncounterDef, seed: u64) {
        self.record.seed = seed;
        let content = self.content().clone();
        let app = &mut self.app;
        app.world_mut().insert_resource(Dice::seeded(seed));
        // Who goes first (docs/rules.md#actions-on-a-turn).
        {
            let world = app.world_mut();
            let (first, surprised) = match def.first {
                crate::content::encounter::FirstSide::Heroes => (Side::Heroes, None),
                crate::content::encounter::FirstSide::Director => (Side::Director, None),
                crate::content::encounter::FirstSide::DirectorSurprised => {
                    (Side::Heroes, Some(Side::Director))
                }
                crate::content::encounter::FirstSide::HeroesSurprised => {
                    (Side::Director, Some(Side::Heroes))
                }
                crate::content::encounter::FirstSide::Roll => {
                    let on = content
                        .rulesets
                        .get(&def.ruleset)
                        .map_or(6, |r| r.heroes_choose_on);
                    // On 6+ the heroes choose, and choose to go first.
                    let roll = world.res_mut::<Dice>().roll(10);
                    (
                        if roll >= on {
                            Side::Heroes
                        } else {
                            Side::Director
                        },
                        None,
                    )
                }
            };
            let mut flow = world.res_mut::<Flow>();
            flow.first = first;
            flow.to_act = first;
            flow.surprised = surprised;
            // docs/rules.md#malice: the Director starts with the average victories per hero.
            let victories: u32 = def
                .heroes
                .iter()
                .fold(0u32, |n, h| n.saturating_add(h.victories));
            let start = victories / def.heroes.len().max(1) as u32;
            world.res_mut::<Malice>().0 = start;
        }
        // docs/rules.md#malice: passives are "always in effect"; episodics are
        // "performed at the start of a new Episode".
        resolve::encounter_start_abilities(app.world_mut());
        self.settle();
    }

    /// The rest of a step of the engine, after its command (or the
    /// encounter's start): the turn boundary's stages if it left one, the
    /// victory check; then the phase's change.
    fn settle(&mut self) {
        let world = self.app.world_mut();
        // A turn's start can fell its creature (an aura's pulse): that turn
        // ends at once, and the boundary runs again for it. Each pass ends
        // a turn, and none starts one by itself, so this stops; the bound
        // is a guard.
        // (Whether a side has already won is read with the turn's state
        // that tells the boundary is done.)
        let mut passes = 0;
        let decided = loop {
            let flow = world.res::<Flow>();
            if !flow::at_boundary(flow) || passes >= 4 {
                break flow.outcome.is_some();
            }
            self.boundary.run(world);
            passes += 1;
            if stack::end_fallen_turn(world) != stack::Fallen::Ended {
                break world.res::<Flow>().outcome.is_some();
            }
        };
        // What the boundary did (a glyph's flare, an aura's pulse at a
        // turn's start) can fell a grabber or the grabbed: the grab check
        // runs after it as after the command (docs/rules.md#grabbed).
        if passes > 0 {
            resolve::check_grabs(world);
        }
        if !decided {
            flow::check_outcome(world);
        }
        // The phase changes on some steps only; with no change pending the
        // transition schedule would do nothing but cost its run.
        let next = match *world.res::<NextState<Phase>>() {
            NextState::Unchanged => return,
            NextState::Pending(p) | NextState::PendingIfNeq(p) => p,
        };
        if self.phase_watched {
            world.run_schedule(StateTransition);
        } else {
            // Nothing runs on entering or leaving a phase: it is set as
            // restoring a snapshot sets it, without the schedule's run
            // (which cost random games 1% more instructions).
            set_phase(world, next);
        }
    }

    /// Carry out a command. Returns the log entries it produced, or the
    /// reason it was refused (in which case nothing changed).
    pub fn apply(&mut self, command: Command) -> Result<Vec<LogEntry>, Refusal> {
        let before = self.log().len();
        self.perform(command)?;
        Ok(self.log()[before..].to_vec())
    }

    /// What the engine would answer `command` now, without doing it: the
    /// refusal, in the words [`apply`](Encounter::apply) would give, or
    /// `None` if it would be accepted. For a player interface to say why
    /// an action is greyed out or a target can't be chosen.
    pub fn refusal(&mut self, command: &Command) -> Option<Refusal> {
        let before = self.snapshot();
        let answer = self.perform(command.clone()).err();
        self.restore(&before);
        answer
    }

    /// [`Encounter::apply`] without a copy of the log entries it made (for
    /// simulations and searches, which read the encounter instead).
    pub fn perform(&mut self, command: Command) -> Result<(), Refusal> {
        self.perform_or_return(command).map_err(|refused| refused.0)
    }

    /// [`Encounter::perform`], handing a refused command back with the
    /// reason (the simulator names it in its report; boxed, as refusals
    /// are rare and a command is large).
    pub(super) fn perform_or_return(
        &mut self,
        command: Command,
    ) -> Result<(), Box<(Refusal, Option<Command>)>> {
        let (reply, command) = stack::handle_command(self.app.world_mut(), command);
        self.settle();
        match reply {
            Ok(()) => {
                self.record.commands.push(command);
                Ok(())
            }
            Err(r) => Err(Box::new((r, Some(command)))),
        }
    }

    /// [`Encounter::perform_or_return`] for a command taken from the
    /// [`Listing`] of this very moment, with nothing done to the encounter
    /// in between. What the listing worked out for a move or shift is
    /// handed to its walk (see [`world::ListedWalk`]): its path is not
    /// searched again, and its first steps read who is where from
    /// `prepared` ([`Listing::prepared`] of that listing, if given). The
    /// result is the same as [`Encounter::perform_or_return`]'s.
    pub(crate) fn perform_listed(
        &mut self,
        command: Command,
        prepared: Option<world::Prepared>,
    ) -> Result<(), Box<(Refusal, Option<Command>)>> {
        let walker = match &command {
            Command::Move { creature, .. } | Command::Shift { creature, .. } => Some(*creature),
            _ => None,
        };
        let Some(walker) = walker else {
            return self.perform_or_return(command);
        };
        let world = self.app.world_mut();
        crate::fast::hand_over(
            world,
            world::ListedWalk {
                walker,
                prepared: prepared.filter(|p| p.walker == walker),
            },
        );
        let reply = self.perform_or_return(command);
        crate::fast::clear_handed::<world::ListedWalk>(self.app.world_mut());
        reply
    }

    /// The replay of everything so far (also the save file).
    pub fn replay(&self) -> &replay::Replay {
        &self.record
    }

    pub fn world(&self) -> &World {
        self.app.world()
    }

    /// The world itself, to change by hand (tests, tools). Whatever is
    /// changed is taken as it is; the hints the engine keeps for its
    /// checks are reset (a grab put on by hand is then checked).
    pub fn world_mut(&mut self) -> &mut World {
        let world = self.app.world_mut();
        resolve::hints_unknown(world);
        world
    }

    /// Give the dice a new seed (for a search's private copy, so that it
    /// never sees the real dice to come).
    pub fn reseed_dice(&mut self, seed: u64) {
        *self.app.world_mut().res_mut::<Dice>() = Dice::seeded(seed);
    }

    /// A hero's heroic resource and surges, to set up a moment (scenarios,
    /// tests); `None` for a creature without one.
    pub fn heroic_mut(&mut self, id: CreatureId) -> Option<Mut<'_, Heroic>> {
        let e = world::entity_of(self.app.world(), id)?;
        self.app.world_mut().get_mut::<Heroic>(e)
    }

    /// How many dice have been rolled in this fight so far: a command that
    /// changes it has revealed dice, so the client's undo stops there.
    pub fn dice_rolled(&self) -> u64 {
        self.app.world().res::<Dice>().rolls()
    }

    /// Mutable access to the dice, to script forced values.
    pub fn dice_mut(&mut self) -> Mut<'_, Dice> {
        self.app.world_mut().res_mut::<Dice>()
    }

    /// What can be done now: whose turn can start, or for the acting
    /// creature its moves (one per reachable square, by cheapest path), its
    /// abilities against each valid single target, and ending the turn.
    /// Every listed command is accepted by [`Encounter::apply`].
    pub fn legal_actions(&mut self) -> Vec<Command> {
        self.listing().into_vec()
    }

    /// [`Encounter::legal_actions`] as a [`Listing`]: the same commands in
    /// the same order, with the acting creature's moves kept as the search
    /// that found them, built only when taken (a brain that picks by
    /// position takes one of a hundred), and the last checks of a few (line
    /// of effect, Hide's cover, a charge's run) made only when taken or
    /// read.
    pub fn listing(&mut self) -> Listing {
        listing::list(self.app.world_mut())
    }
}

/// Put the encounter in `phase` at once, with no transition run and
/// nothing left pending.
fn set_phase(world: &mut World, phase: Phase) {
    // Written in place: inserting it anew cost random games about 1% more
    // instructions.
    match world.get_res_mut::<State<Phase>>() {
        Some(mut state) => *state = State::new(phase),
        None => world.insert_resource(State::new(phase)),
    }
    world.res_mut::<NextState<Phase>>().reset();
}

/// Whether the world has a schedule that runs on entering, leaving or
/// changing between any two phases.
fn phase_watched(world: &World) -> bool {
    const ALL: [Phase; 5] = [
        Phase::Setup,
        Phase::AwaitingTurn,
        Phase::Acting,
        Phase::Reacting,
        Phase::Over,
    ];
    let Some(schedules) = world.get_resource::<bevy_ecs::schedule::Schedules>() else {
        return false;
    };
    ALL.iter().any(|&p| {
        schedules.contains(OnEnter(p).intern())
            || schedules.contains(OnExit(p).intern())
            || ALL.iter().any(|&q| {
                schedules.contains(
                    OnTransition {
                        exited: p,
                        entered: q,
                    }
                    .intern(),
                )
            })
    })
}

#[cfg(test)]
mod tests;
