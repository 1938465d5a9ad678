//! The work in hand: the stack of work waiting ([`Resolution`]), an
//! ability roll waiting to be made, the events triggered actions answer
//! and the prompt that asks them.

use bevy_ecs::prelude::*;
use serde::{Deserialize, Serialize};

use crate::ability::TriggerEvent;
use crate::map::{Footprint, Pos};
use crate::stats::CreatureId;

/// Work that waits while a prompt is open, last in first out.
#[derive(Clone, Debug)]
pub(crate) enum Resume {
    /// Walk the rest of a path (its first square is where the mover stands).
    /// `asked`: the first step's opportunity attacks were already offered.
    /// `airborne`: it stands over a gap in the middle of a jump
    /// (docs/rules.md#climbing-swimming-jumping-and-flying).
    Walk {
        creature: CreatureId,
        path: Vec<Pos>,
        shift: bool,
        asked: bool,
        airborne: bool,
    },
    /// Roll an ability and resolve it on its targets.
    Roll(Box<PendingRoll>),
    /// After an ability: bleeding.
    After {
        creature: CreatureId,
        ability: String,
    },
    /// The attack that ends a charge.
    FollowUp {
        creature: CreatureId,
        target: CreatureId,
        ability: Option<String>,
    },
    /// The roll of an ability used during a move, once the move is over
    /// (docs/rules.md#during-the-move).
    Sweep {
        roll: Box<PendingRoll>,
        path: Vec<Pos>,
        reach: u32,
    },
    /// A summon's automatic turn (docs/rules.md#summons: "Move+0, Attack+0").
    SummonTurn { creature: CreatureId },
    /// The turn ends once the villain actions offered at its end are
    /// answered (docs/rules.md#villain-actions).
    FinishTurn,
    /// The attack that ends a summon's turn.
    SummonStrike { creature: CreatureId },
    /// Ask these creatures, in order, about an event.
    Ask {
        event: Event,
        reactors: Vec<CreatureId>,
    },
}

/// The open prompt and the work waiting for it.
#[derive(Resource, Clone, Debug, Default)]
pub struct Resolution {
    pub prompt: Option<Prompt>,
    pub(crate) stack: Vec<Resume>,
    /// Damage dealt since the last check: (by, to).
    pub(crate) damage: Vec<(CreatureId, CreatureId)>,
}

impl Resolution {
    pub(crate) fn push(&mut self, r: Resume) {
        self.stack.push(r);
    }

    /// Drop everything waiting (the acting creature fell).
    pub(crate) fn clear(&mut self) {
        self.stack.clear();
        self.prompt = None;
        self.damage.clear();
    }
}

/// An ability roll waiting to be made: the user, the ability, and the
/// choices made when it was started. Targets are checked again when it is
/// rolled, since triggered actions may have moved or felled them.
#[derive(Clone, Debug)]
pub struct PendingRoll {
    pub user: CreatureId,
    pub ability: String,
    pub targets: Vec<CreatureId>,
    /// An area ability's placed area: its targets are whoever it reaches at
    /// the roll.
    pub area: Option<crate::map::area::Area>,
    /// An area's origin, where its line of effect to objects is drawn from
    /// (forced movement is measured from the user: docs/rulings.md).
    pub source: Option<Footprint>,
    pub surges: u32,
    /// Targets whose potency is raised by 1 for 2 surges each.
    pub potency_surges: Vec<CreatureId>,
    pub tier: Option<crate::power_roll::Tier>,
    pub extra: Vec<crate::ability::Effect>,
    /// Heroic resource spent on `extra` ("Spend X").
    pub spend: u32,
    /// The squares of the objects a strike targets (docs/rules.md#objects;
    /// an area's are whatever objects it reaches at the roll).
    pub objects: Vec<Pos>,
}

/// The id a prompt uses for the opportunity attack every creature has
/// (docs/rules.md#moving: "that enemy may use a triggered action to make a
/// melee free strike").
pub const OPPORTUNITY_ATTACK: &str = "opportunity_attack";

/// Something happened that a triggered action may answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    pub kind: TriggerEvent,
    /// The creature that did it: the mover, the ability's user, the damager.
    pub actor: CreatureId,
    /// The creature it was done to: the one targeted or damaged.
    pub subject: Option<CreatureId>,
}

/// One answer a prompted creature may give.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Reaction {
    /// A triggered ability's id, or [`OPPORTUNITY_ATTACK`].
    pub ability: String,
    /// Its targets (empty for an aura or burst around the reactor).
    pub targets: Vec<CreatureId>,
}

impl Reaction {
    /// Whether this is an opportunity attack (a melee free strike), not a
    /// triggered ability.
    pub fn is_opportunity_attack(&self) -> bool {
        self.ability == OPPORTUNITY_ATTACK
    }
}

/// A question to one creature: use a triggered action now, or let it pass.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Prompt {
    /// Who is asked.
    pub creature: CreatureId,
    pub event: Event,
    /// What it may do; answering with none of them lets the event pass.
    pub options: Vec<Reaction>,
}

/// The roll being applied to a target (for docs/rules.md#saving-throws's shifted saves).
#[derive(Resource, Clone, Copy, Debug)]
pub(crate) struct RollFacts {
    pub(crate) tier: crate::power_roll::Tier,
    pub(crate) critical: bool,
    /// Both dice showed 1: the seed's "Critical Failure".
    pub(crate) fumble: bool,
}

/// The heroes whose resource a turn's start changed, waiting for their
/// saves (the turn-start system can't roll them itself).
#[derive(Resource, Default)]
pub(crate) struct ResourceTouched(pub(crate) Vec<CreatureId>);
