//! The turn budget (docs/rules.md#actions-on-a-turn): what a creature
//! still has this turn, a main action, a maneuver and a move action (the
//! main action spendable as either), one triggered action a round, what
//! being dazed leaves of it (docs/rules.md#dazed) and the extra main action
//! of a critical hit (docs/rules.md#critical-hit). Pure functions over
//! plain data: the checks, resolution, the listing and the phased rules
//! ask them.

use bevy_ecs::prelude::*;
use serde::{Deserialize, Serialize};

use crate::ability::ActionType;
use crate::conditions::{Conditions, action_limits};

/// What a creature still has this turn (docs/rules.md#actions-on-a-turn).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnBudget {
    pub main: bool,
    pub maneuver: bool,
    pub move_action: bool,
    /// One triggered action per round.
    pub triggered: bool,
    /// Dazed creatures get one thing only; set once they have done it.
    pub dazed_done: bool,
    /// A critical hit's extra main action, not yet taken: taken even when
    /// dazed (docs/rules.md#critical-hit).
    #[serde(default)]
    pub critical_main: bool,
}

impl Default for TurnBudget {
    fn default() -> Self {
        TurnBudget {
            main: true,
            maneuver: true,
            move_action: true,
            triggered: true,
            dazed_done: false,
            critical_main: false,
        }
    }
}

/// The budget after spending the action `action` takes, converting the
/// main action when the maneuver or move action is gone
/// (docs/rules.md#actions-on-a-turn: "the main action may be spent as a
/// second maneuver or move action"), or why it can't be spent.
pub fn spend(
    budget: &TurnBudget,
    conditions: &Conditions,
    action: ActionType,
) -> Result<TurnBudget, Unspendable> {
    let mut budget = *budget;
    // docs/rules.md#critical-hit: the extra main action is taken "even if
    // you are dazed", and is not the dazed creature's one thing.
    if budget.critical_main
        && budget.main
        && matches!(action, ActionType::MainAction | ActionType::SlowAction)
    {
        budget.critical_main = false;
        budget.main = false;
        return Ok(budget);
    }
    let dazed = action_limits(conditions).one_action_only;
    // docs/rules.md#conditions "Dazed": no free maneuvers at all; what
    // takes no action (a free action, letting go) is none of the dazed
    // creature's one thing and stays open to it.
    match action {
        ActionType::FreeManeuver if dazed => return Err(Unspendable::DazedFreeManeuver),
        ActionType::FreeManeuver | ActionType::FreeAction | ActionType::NoAction => {
            return Ok(budget);
        }
        _ => {}
    }
    if dazed && budget.dazed_done {
        return Err(Unspendable::Dazed);
    }
    match action {
        ActionType::MainAction | ActionType::SlowAction => {
            if !budget.main {
                return Err(Unspendable::MainActionUsed);
            }
            budget.main = false;
        }
        ActionType::Maneuver => {
            if budget.maneuver {
                budget.maneuver = false;
            } else if budget.main {
                budget.main = false;
            } else {
                return Err(Unspendable::ManeuverUsed);
            }
        }
        ActionType::MoveAction => {
            if budget.move_action {
                budget.move_action = false;
            } else if budget.main {
                budget.main = false;
            } else {
                return Err(Unspendable::MoveActionUsed);
            }
        }
        ActionType::FreeManeuver | ActionType::FreeAction | ActionType::NoAction => {
            unreachable!("taken above")
        }
        ActionType::TriggeredAction | ActionType::FreeTriggeredAction => {
            return Err(Unspendable::AnswersPrompts);
        }
        ActionType::VillainAction => {
            return Err(Unspendable::AtTurnEnd);
        }
        ActionType::Passive | ActionType::Episodic => {
            return Err(Unspendable::AtEncounterStart);
        }
    }
    if dazed {
        budget.dazed_done = true;
    }
    // The extra main action spent another way (as a maneuver or move) is
    // gone.
    if !budget.main {
        budget.critical_main = false;
    }
    Ok(budget)
}

/// Why an action can't be spent from a budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unspendable {
    MainActionUsed,
    ManeuverUsed,
    MoveActionUsed,
    /// Dazed, and its one action taken.
    Dazed,
    /// Dazed: no free maneuvers (docs/rules.md#conditions "Dazed").
    DazedFreeManeuver,
    /// Triggered actions are taken in answer to a prompt.
    AnswersPrompts,
    /// Villain actions answer the prompt at a turn's end.
    AtTurnEnd,
    /// Passive and episodic abilities apply as the encounter starts.
    AtEncounterStart,
}

/// docs/rules.md#critical-hit: a critical hit gives its creature an extra
/// main action at once, taken even while dazed.
pub fn grant_critical_main(budget: &mut TurnBudget) {
    budget.main = true;
    budget.critical_main = true;
}

/// docs/rules.md#critical-hit: the extra main action off the creature's
/// turn is taken when offered or not at all (its next turn starts afresh).
pub fn critical_main_lapses(budget: &mut TurnBudget) {
    budget.main = false;
    budget.critical_main = false;
}
