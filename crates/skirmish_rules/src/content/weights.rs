//! The AI's weights: how much each consideration counts for the greedy,
//! tactical and search brains (`assets/ai/tactical.ron`). Data, loaded
//! with the rest of the content; the brains that use them are in `ai`.

use serde::{Deserialize, Serialize};

/// How much each consideration counts. The tactical brain reads these from
/// `assets/ai/tactical.ron`; the greedy brain uses [`Weights::greedy`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[serde(default)]
pub struct Weights {
    /// Per point of expected damage to an enemy.
    pub damage: f64,
    /// Per unit of chance to drop an enemy.
    pub kill: f64,
    /// Focus fire: damage to an enemy counts (1 + this x the share of its
    /// stamina already lost) times.
    pub focus_fire: f64,
    /// Per point of expected damage to an ally (subtracted).
    pub friendly_fire: f64,
    /// Per condition likely to take hold on an enemy.
    pub condition: f64,
    /// Per square of forced movement on an enemy.
    pub forced: f64,
    /// Per point of expected damage from where forced movement leaves an
    /// enemy: pits, hazards, walls and other creatures.
    pub hazard: f64,
    /// Per point of heroic resource spent (subtracted).
    pub resource_cost: f64,
    /// Per point of Malice spent (subtracted).
    pub malice_cost: f64,
    /// Per square closer to the enemy it means to fight.
    pub approach: f64,
    /// Per point of damage a move would take on the way: from the
    /// opportunity attacks it provokes, and from the glyphs its side has
    /// seen that it would step on (a condition counts as 2).
    pub provoke: f64,
    /// A ranged creature ending next to an enemy (subtracted).
    pub ranged_adjacent: f64,
    /// Ending a move on the far side of an enemy from an ally (flanking).
    pub flank: f64,
    /// Ending a move next to a wounded ally that an enemy threatens.
    pub protect_wounded: f64,
    /// Per point of stamina regained.
    pub heal: f64,
    /// How much a move is worth for the best attack it makes possible.
    pub plan: f64,
    /// Phased 2d6: seizing the initiative (subtracted).
    pub seize: f64,
    /// How much a raised wall counts for the strikes it keeps the enemy's
    /// melee creatures from on their next turns (valued as this side's
    /// strikes are: damage, focus fire, kills), less those it keeps this
    /// side's from.
    pub shelter: f64,
}

impl Default for Weights {
    fn default() -> Self {
        Weights::greedy()
    }
}

impl Weights {
    /// The names of the weights that are not finite numbers (NaN or
    /// infinite): a brain scoring with one compares nothing sensibly (its
    /// games never end).
    pub fn not_finite(&self) -> Vec<String> {
        // (A number that is not finite becomes JSON's null.)
        match serde_json::to_value(self) {
            Ok(serde_json::Value::Object(fields)) => fields
                .into_iter()
                .filter(|(_, v)| v.is_null())
                .map(|(k, _)| k)
                .collect(),
            _ => Vec::new(),
        }
    }

    /// One step ahead on expected value: damage, kills, the weakest enemy
    /// first, areas that hit several, no needless opportunity attacks,
    /// ranged creatures out of reach.
    pub fn greedy() -> Weights {
        Weights {
            damage: 1.0,
            kill: 6.0,
            focus_fire: 1.0,
            friendly_fire: 1.5,
            condition: 1.5,
            forced: 0.1,
            hazard: 0.0,
            resource_cost: 0.6,
            malice_cost: 0.3,
            approach: 0.5,
            provoke: 1.0,
            ranged_adjacent: 3.0,
            flank: 0.0,
            protect_wounded: 0.0,
            heal: 0.6,
            plan: 0.0,
            seize: 4.0,
            shelter: 1.0,
        }
    }
}
