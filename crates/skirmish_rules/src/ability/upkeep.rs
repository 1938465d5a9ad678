//! What an ability asks of its user beyond its action
//! (docs/rules.md#requirements, #components, #point-banks, #penalties) and
//! the condition on its experience (docs/rules.md#experience).

use serde::{Deserialize, Serialize};

use super::Ability;

/// docs/rules.md#penalties: "three Penalties that are more common than any
/// others. They each impose stacks of a Status Condition, which in-turn
/// will impose Disadvantages on future tests for the Abilities with that
/// same Penalty" (Concentration, the third, is `concentration`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Penalty {
    Straining,
    Exhausting,
}

impl Penalty {
    pub fn name(self) -> &'static str {
        match self {
            Penalty::Straining => "straining",
            Penalty::Exhausting => "exhausting",
        }
    }
}

/// docs/rules.md#experience: when a conditional experience is earned.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ExperienceIf {
    /// "if the attacked target is adjacent to an attacker's allies": a
    /// target of the roll stands next to one of the user's allies (not the
    /// user itself) as it is rolled against.
    TargetAdjacentToAlly,
}

impl ExperienceIf {
    /// Whether it holds for a roll against `target`, with these creatures
    /// on the map (the living).
    pub fn holds(
        self,
        user: crate::stats::CreatureId,
        user_side: crate::map::Side,
        target: crate::map::Footprint,
        creatures: &[crate::map::Occupant],
    ) -> bool {
        match self {
            ExperienceIf::TargetAdjacentToAlly => creatures
                .iter()
                .any(|o| o.side == user_side && o.id != user && o.space.distance(target) == 1),
        }
    }
}

/// docs/rules.md#components: "generic things like 'hands' or 'standing,' or a
/// specific Point Bank".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Component {
    /// Free hands: missing, and affected, while grabbed or restrained (ours).
    Hands,
    /// On one's feet: missing, and affected, while prone.
    Standing,
    /// The Stamina point bank, "locked": affected by taking damage or being
    /// healed (never missing).
    Stamina,
    /// docs/rules.md#point-banks: "a Point Bank unique to your Class": the
    /// hero's heroic resource, "locked": affected by gaining or spending
    /// any of it (never missing).
    Resource,
}

impl Component {
    pub fn name(self) -> &'static str {
        match self {
            Component::Hands => "hands",
            Component::Standing => "standing",
            Component::Stamina => "stamina",
            Component::Resource => "resource",
        }
    }

    /// The component a condition taking hold affects, if any.
    pub fn affected_by(kind: crate::conditions::ConditionKind) -> Option<Component> {
        use crate::conditions::ConditionKind as K;
        match kind {
            K::Prone => Some(Component::Standing),
            K::Grabbed | K::Restrained => Some(Component::Hands),
            _ => None,
        }
    }

    /// Whether a creature with these conditions lacks the component.
    pub fn missing(self, conditions: &crate::conditions::Conditions) -> bool {
        use crate::conditions::ConditionKind as K;
        match self {
            Component::Hands => conditions.has(K::Grabbed) || conditions.has(K::Restrained),
            Component::Standing => conditions.has(K::Prone),
            Component::Stamina | Component::Resource => false,
        }
    }
}

impl Ability {
    /// docs/rules.md#requirements: the first requirement a creature with
    /// these conditions lacks, if any.
    pub fn requirement_missing(
        &self,
        conditions: &crate::conditions::Conditions,
    ) -> Option<Component> {
        self.requirements
            .iter()
            .copied()
            .find(|r| r.missing(conditions))
    }

    /// The condition of `conditions` that bars the ability (its
    /// `barred_by`), if any (docs/rules.md#grabbed).
    pub fn barred(
        &self,
        conditions: &crate::conditions::Conditions,
    ) -> Option<crate::conditions::ConditionKind> {
        self.barred_by.iter().copied().find(|&k| conditions.has(k))
    }
}

/// docs/rules.md#components: "If you find yourself lacking a Component at some
/// point during your Ability Time, you must roll the final Ability with a
/// Disadvantage for every Component that is missing. If the number of
/// missing Components takes you beyond the maximum number of 3
/// Disadvantages for a roll, the Ability gets an automatic Low Score."
/// Returns the banes, and whether the roll is an automatic tier 1.
pub fn component_penalty(missing: u32) -> (u32, bool) {
    if missing > 3 {
        (3, true)
    } else {
        (missing, false)
    }
}
