//! The turn's state: where the encounter is ([`Phase`]), the turn order
//! ([`Flow`]), Malice, the ruleset in play, and the turn boundary's stages
//! ([`Step`]), with the reads every stage makes of them.

use bevy_ecs::prelude::*;
use bevy_ecs::schedule::ScheduleLabel;
use bevy_state::prelude::*;
use serde::{Deserialize, Serialize};

use crate::fast::KeyedWorld;
use crate::map::Side;
use crate::stats::{CreatureId, Health, Stamina};

/// The ordered stages of a turn boundary, each a schedule: end-of-turn
/// effects, the turn order moving on, start-of-turn effects. A step runs
/// them through `Boundary` after its command when the command ended or
/// started a turn or left none under way (`at_boundary`).
#[derive(ScheduleLabel, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    /// End-of-turn effects: EoT conditions end, saves.
    EndOfTurn,
    /// Choose the side to act next; end and start rounds.
    Advance,
    /// Start-of-turn effects: heroic resource.
    StartOfTurn,
}

impl Step {
    /// The stages, in the order they run.
    pub const ALL: [Step; 3] = [Step::EndOfTurn, Step::Advance, Step::StartOfTurn];
}

/// Where the encounter is.
#[derive(States, Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Phase {
    #[default]
    Setup,
    /// A side must choose which creature acts.
    AwaitingTurn,
    /// A creature is taking its turn.
    Acting,
    /// Resolution waits on a triggered-action prompt.
    Reacting,
    Over,
}

/// The ruleset the encounter is played under.
#[derive(Resource, Clone, Debug, PartialEq, Eq)]
pub struct ActiveRuleset(pub crate::content::Ruleset);

impl Default for ActiveRuleset {
    fn default() -> Self {
        ActiveRuleset(crate::content::Ruleset {
            id: "power_roll".into(),
            name: "Power roll".into(),
            kind: Default::default(),
            description: String::new(),
            save_target: crate::conditions::SAVE_TARGET,
            heroes_choose_on: 6,
            max_surges_per_damage: 3,
            max_squad_size: 8,
            basic_abilities: Vec::new(),
            defend_banes: 2,
            phased: None,
        })
    }
}

/// The Director's Malice.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Malice(pub u32);

/// The turn order's state.
#[derive(Resource, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Flow {
    pub round: u32,
    /// The side that went first leads every round.
    pub first: Side,
    /// The side that picks the next creature to act.
    pub to_act: Side,
    pub active: Option<CreatureId>,
    pub acted: Vec<CreatureId>,
    pub outcome: Option<Side>,
    /// Monsters or heroes wholly surprised in round 1.
    pub surprised: Option<Side>,
    /// The side that delayed its pick, until the next turn starts.
    #[serde(default)]
    pub delayed: Option<Side>,
    /// A minion squad taking its turn together: every member (docs/rules.md#minions
    /// "Minions": a squad "takes one turn together").
    #[serde(default)]
    pub squad: Vec<CreatureId>,
    /// Summons that acted just before the active creature this turn: their
    /// end-of-turn effects come with its (docs/rulings.md).
    #[serde(default)]
    pub summons: Vec<CreatureId>,
    /// docs/rules.md#solo-turns: a creature once for each turn it has left
    /// this round beyond the one `acted` counts.
    #[serde(default)]
    pub spare: Vec<CreatureId>,
    /// The phased 2d6 ruleset's round (docs/rules.md#moving); `None` otherwise.
    #[serde(default)]
    pub phased: Option<crate::phased::PhasedRound>,
    /// Rounds the heroes have ended holding the zone of a Hold objective
    /// (docs/rules.md#objectives).
    #[serde(default)]
    pub held: u32,
    /// The turn boundaries this step's command left for the boundary's
    /// stages (each stage takes its own): never saved, and empty between
    /// steps. (Kept here, not as a resource of their own: the step reads
    /// them where it reads the turn's state, after every command.)
    #[serde(skip)]
    pub events: TurnEvents,
}

impl Flow {
    /// Whether `id` is taking the current turn (alone or with its squad).
    pub fn is_acting(&self, id: CreatureId) -> bool {
        self.active == Some(id) || self.squad.contains(&id)
    }

    /// The side that is wholly surprised, while it still is (round 1).
    pub fn surprised_now(&self) -> Option<Side> {
        self.surprised.filter(|_| self.round <= 1)
    }

    /// Everyone taking the current turn.
    pub fn acting(&self) -> Vec<CreatureId> {
        if !self.squad.is_empty() {
            self.squad.clone()
        } else {
            self.active.into_iter().collect()
        }
    }

    /// End the current turn: everyone taking it has acted (but a solo with
    /// a turn to spare this round, docs/rules.md#solo-turns).
    pub fn finish_turn(&mut self) -> Vec<CreatureId> {
        let mut done = self.acting();
        done.append(&mut self.summons);
        for &id in &done {
            if let Some(i) = self.spare.iter().position(|&s| s == id) {
                self.spare.remove(i);
                continue;
            }
            if !self.acted.contains(&id) {
                self.acted.push(id);
            }
        }
        self.active = None;
        self.squad.clear();
        done
    }
}

impl Default for Flow {
    fn default() -> Self {
        Flow {
            round: 0,
            first: Side::Heroes,
            to_act: Side::Heroes,
            active: None,
            acted: Vec::new(),
            outcome: None,
            surprised: None,
            delayed: None,
            squad: Vec::new(),
            summons: Vec::new(),
            spare: Vec::new(),
            phased: None,
            held: 0,
            events: TurnEvents::default(),
        }
    }
}

/// Turn boundaries the command stage asks the later stages to handle
/// ([`Flow::events`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TurnEvents {
    pub ended: Vec<CreatureId>,
    pub started: Vec<CreatureId>,
}

/// A copy of the turns a step ended, for a boundary system that writes to
/// the world as it goes (on the stack: a turn or a squad's).
pub(crate) fn turns_ended(world: &World) -> smallvec::SmallVec<[CreatureId; 8]> {
    smallvec::SmallVec::from_slice(&world.res::<Flow>().events.ended)
}

/// [`turns_ended`] for the turns a step started.
pub(crate) fn turns_started(world: &World) -> smallvec::SmallVec<[CreatureId; 8]> {
    smallvec::SmallVec::from_slice(&world.res::<Flow>().events.started)
}

/// A creature that can still take turns: anyone not dead. (docs/rules.md#stamina
/// "Stamina": a dying hero can't Catch Breath and bleeds, but still acts.)
pub fn can_act(stamina: &Stamina) -> bool {
    stamina.health() != Health::Dead
}

/// A creature of each side the last victory check found able to fight
/// (heroes, then the Director's): while both still can, no side has lost.
/// Only a shortcut for [`check_outcome`], which reads their stamina again
/// each time, so it is kept out of snapshots: whatever a restore or a
/// despawn did, a witness no longer standing (or no longer there) just
/// sends the check back to its pass over everyone. (A creature's side
/// never changes.)
#[derive(Resource, Default)]
pub(crate) struct Standing(pub(crate) [Option<Entity>; 2]);
