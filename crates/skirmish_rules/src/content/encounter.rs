//! The encounter file: ruleset, map, and each side's creatures with their squares.

use serde::{Deserialize, Serialize};

use crate::map::{Pos, Side};
use crate::stats::Characteristics;

/// A hero in an encounter file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HeroDef {
    pub class: String,
    pub name: String,
    #[serde(default = "one")]
    pub level: u32,
    /// Victories: the hero starts combat with this much heroic resource.
    #[serde(default)]
    pub victories: u32,
    /// Overrides the class's default characteristics.
    #[serde(default)]
    pub characteristics: Option<Characteristics>,
    /// Extra abilities beyond the class's.
    #[serde(default)]
    pub abilities: Vec<String>,
    pub at: (i32, i32),
}

fn one() -> u32 {
    1
}

impl HeroDef {
    /// A hero as an encounter file that names only its class, name and
    /// square gives it: level 1, no victories, the class's characteristics
    /// and abilities (the fields' defaults when read).
    pub fn new(class: &str, name: &str, at: (i32, i32)) -> HeroDef {
        HeroDef {
            class: class.into(),
            name: name.into(),
            level: one(),
            victories: 0,
            characteristics: None,
            abilities: Vec::new(),
            at,
        }
    }
}

impl MonsterDef {
    /// A monster by its stat block's id, on its square, with the stat
    /// block's name and no squad.
    pub fn of(monster: &str, at: (i32, i32)) -> MonsterDef {
        MonsterDef {
            monster: Some(monster.into()),
            inline: None,
            name: None,
            squad: None,
            at,
        }
    }
}

/// A monster in an encounter file: a stat block by id, or written inline.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MonsterDef {
    /// The stat block's id under `assets/monsters/`.
    #[serde(default)]
    pub monster: Option<String>,
    /// Or the stat block written inline.
    #[serde(default)]
    pub inline: Option<crate::content::Monster>,
    /// Overrides the stat block's name (e.g. "Bandit Captain").
    #[serde(default)]
    pub name: Option<String>,
    /// Minions with the same squad number act together and share stamina.
    #[serde(default)]
    pub squad: Option<u32>,
    pub at: (i32, i32),
}

/// Who goes first: rolled (docs/rules.md#actions-on-a-turn) or fixed by the encounter.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum FirstSide {
    #[default]
    Roll,
    Heroes,
    Director,
    /// The monsters are wholly surprised: the heroes go first and monsters
    /// can't take triggered actions in round 1.
    DirectorSurprised,
    /// The heroes are wholly surprised.
    HeroesSurprised,
}

/// An encounter file under `assets/encounters/`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EncounterDef {
    pub id: String,
    pub name: String,
    /// One line shown in the encounter picker.
    #[serde(default)]
    pub briefing: String,
    #[serde(default = "default_ruleset")]
    pub ruleset: String,
    pub map: String,
    pub heroes: Vec<HeroDef>,
    pub monsters: Vec<MonsterDef>,
    #[serde(default)]
    pub first: FirstSide,
}

fn default_ruleset() -> String {
    "power_roll".to_string()
}

impl EncounterDef {
    /// Every creature's starting square and side, in file order.
    pub fn placements(&self) -> Vec<(Side, Pos)> {
        self.heroes
            .iter()
            .map(|h| (Side::Heroes, Pos::new(h.at.0, h.at.1)))
            .chain(
                self.monsters
                    .iter()
                    .map(|m| (Side::Director, Pos::new(m.at.0, m.at.1))),
            )
            .collect()
    }
}
