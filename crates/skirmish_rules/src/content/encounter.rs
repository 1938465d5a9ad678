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
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub level: u32,
    /// Victories: the hero starts combat with this much heroic resource.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub victories: u32,
    /// docs/rules.md#subclasses: the class's subclass (its first if none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subclass: Option<String>,
    /// docs/rules.md#kits.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kit: Option<String>,
    /// docs/rules.md#ancestries.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ancestry: Option<String>,
    /// docs/rules.md#class-tables: abilities chosen for the table's places
    /// (each fills a place of its cost before the list's first does).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub picks: Vec<String>,
    /// Overrides the class's 1st-level characteristics (the table's rises
    /// apply to them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub characteristics: Option<Characteristics>,
    /// Extra abilities beyond the class's.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub abilities: Vec<String>,
    pub at: (i32, i32),
}

fn one() -> u32 {
    1
}

fn is_one(n: &u32) -> bool {
    *n == 1
}

fn is_zero(n: &u32) -> bool {
    *n == 0
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
            subclass: None,
            kit: None,
            ancestry: None,
            picks: Vec::new(),
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
            captain: None,
            at,
        }
    }
}

/// A monster in an encounter file: a stat block by id, or written inline.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MonsterDef {
    /// The stat block's id under `assets/monsters/`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub monster: Option<String>,
    /// Or the stat block written inline.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inline: Option<crate::content::Monster>,
    /// Overrides the stat block's name (e.g. "Bandit Captain").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Minions with the same squad number act together and share stamina.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub squad: Option<u32>,
    /// docs/rules.md#captains: the squad this monster (not a minion) leads.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub captain: Option<u32>,
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
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub briefing: String,
    #[serde(default = "default_ruleset")]
    pub ruleset: String,
    pub map: String,
    pub heroes: Vec<HeroDef>,
    pub monsters: Vec<MonsterDef>,
    #[serde(default)]
    pub first: FirstSide,
    /// What the heroes must do to win (docs/rules.md#objectives).
    #[serde(default, skip_serializing_if = "Objective::is_default")]
    pub objective: Objective,
    /// Monsters that arrive at the start of a given round
    /// (docs/rules.md#reinforcements).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reinforcements: Vec<Reinforcement>,
    /// The heroes' intended win rate, in percent, greedy brains on both
    /// sides (low, high): the balance test checks the forecast against it
    /// (docs/balance.md).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub heroes_win: Option<(u32, u32)>,
}

/// What the heroes must do to win (docs/rules.md#objectives). Whatever it
/// is, they lose when none of them can fight, and they also win by
/// defeating every monster with no reinforcements still to come.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Objective {
    /// Defeat every monster.
    #[default]
    DefeatAll,
    /// Have a hero still alive when round `rounds` ends.
    Survive { rounds: u32 },
    /// Hold `zone` at the end of `rounds` rounds: a hero able to fight in
    /// it and no monster able to fight in it.
    Hold { zone: Zone, rounds: u32 },
    /// Every hero still alive stands on the map's `edge` at once.
    Escape { edge: Edge },
}

impl Objective {
    pub fn is_default(&self) -> bool {
        *self == Objective::DefeatAll
    }

    /// One line for the picker and the builder.
    pub fn describe(&self) -> String {
        match self {
            Objective::DefeatAll => "Defeat every enemy".into(),
            Objective::Survive { rounds } => format!("Survive {rounds} rounds"),
            Objective::Hold { zone, rounds } => format!(
                "Hold the zone {} to {} for {rounds} rounds",
                Pos::new(zone.from.0, zone.from.1),
                Pos::new(zone.to.0, zone.to.1)
            ),
            Objective::Escape { edge } => format!("Escape off the {} edge", edge.name()),
        }
    }
}

/// A rectangle of squares, corners included.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Zone {
    pub from: (i32, i32),
    pub to: (i32, i32),
}

impl Zone {
    pub fn contains(&self, p: Pos) -> bool {
        let (x0, x1) = (self.from.0.min(self.to.0), self.from.0.max(self.to.0));
        let (y0, y1) = (self.from.1.min(self.to.1), self.from.1.max(self.to.1));
        (x0..=x1).contains(&p.x) && (y0..=y1).contains(&p.y)
    }

    /// Every square of the zone, row by row.
    pub fn squares(&self) -> impl Iterator<Item = Pos> {
        let (x0, x1) = (self.from.0.min(self.to.0), self.from.0.max(self.to.0));
        let (y0, y1) = (self.from.1.min(self.to.1), self.from.1.max(self.to.1));
        (y0..=y1).flat_map(move |y| (x0..=x1).map(move |x| Pos::new(x, y)))
    }
}

/// A side of the map: north is its top row (row 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Edge {
    North,
    East,
    South,
    West,
}

impl Edge {
    pub const ALL: [Edge; 4] = [Edge::North, Edge::East, Edge::South, Edge::West];

    pub fn name(self) -> &'static str {
        match self {
            Edge::North => "north",
            Edge::East => "east",
            Edge::South => "south",
            Edge::West => "west",
        }
    }

    /// Whether `p` is on this edge of a `width` by `height` map.
    pub fn holds(self, p: Pos, width: i32, height: i32) -> bool {
        match self {
            Edge::North => p.y == 0,
            Edge::South => p.y == height - 1,
            Edge::West => p.x == 0,
            Edge::East => p.x == width - 1,
        }
    }
}

/// Monsters that arrive at the start of round `round`, each on its
/// square or, with that taken, the nearest open one beside it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reinforcement {
    pub round: u32,
    pub monsters: Vec<MonsterDef>,
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
