//! Scripted scenarios for designers: an ASCII map with a legend placing
//! creatures, a list of steps naming creatures by name (commands, the dice
//! each roll will show, expectations), run through the same engine as
//! everything else. See `docs/scenarios.md`.

use crate::fast::KeyedWorld;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::conditions::ConditionKind;
use crate::content::encounter::{EncounterDef, FirstSide, HeroDef, MonsterDef};
use crate::content::{ContentDb, LoadedMap, Monster, parse_ron};
use crate::encounter::command::Placement;
use crate::encounter::{Command, Encounter, LogEntry};
use crate::map::{Pos, Tile};
use crate::power_roll::Tier;
use crate::stats::{Characteristics, CreatureId};

mod steps;

pub use steps::log_lines;
use steps::{command, expect, fail};

/// What a legend letter places.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Place {
    /// Terrain, as in map files.
    Tile(Tile),
    /// A hero of a class.
    Hero {
        class: String,
        name: String,
        #[serde(default)]
        characteristics: Option<Characteristics>,
        #[serde(default)]
        victories: u32,
        #[serde(default)]
        abilities: Vec<String>,
        /// docs/rules.md#levels-and-echelons (1 if not given).
        #[serde(default)]
        level: Option<u32>,
        /// docs/rules.md#subclasses, #kits, #ancestries, #class-tables.
        #[serde(default)]
        subclass: Option<String>,
        #[serde(default)]
        kit: Option<String>,
        #[serde(default)]
        ancestry: Option<String>,
        #[serde(default)]
        picks: Vec<String>,
    },
    /// A monster by stat block id.
    Monster {
        id: String,
        #[serde(default)]
        name: Option<String>,
        /// A minion squad number (docs/rules.md#minions).
        #[serde(default)]
        squad: Option<u32>,
        /// docs/rules.md#captains: the squad it leads.
        #[serde(default)]
        captain: Option<u32>,
    },
    /// A monster written inline with its numbers and abilities.
    Inline(Monster),
    /// A Director's glyph (docs/rules.md#glyphs) of this glyphic ability, on floor.
    Glyph(String),
    /// A treasure tile holding this item (docs/rules.md#loot), on floor.
    Item(String),
}

/// One step of a scenario.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ScenarioStep {
    /// The next dice rolled show these values, in order.
    Dice(Vec<u32>),
    Start(String),
    Move(String, Vec<(i32, i32)>),
    Shift(String, (i32, i32)),
    /// Phased 2d6: move along a path with a movement power (`Walk`,
    /// `Hustle`, `Run`, `Shift`, `Charge`, `Disengage`).
    Power(String, crate::phased::MovementPower, Vec<(i32, i32)>),
    /// Use an ability against named targets.
    Use(String, String, Vec<String>),
    /// Use an ability choosing a lower tier.
    UseAtTier(String, String, Vec<String>, u8),
    /// Use an area ability with a placement.
    UseArea(String, String, Placement),
    /// Use an ability on named targets, spending surges and resource
    /// (docs/rules.md#surges, docs/rules.md#heroic-resources).
    UseWith(String, String, Vec<String>, Spending),
    /// Use an area ability with a placement, spending likewise.
    UseAreaWith(String, String, Placement, Spending),
    /// Strike the object on a square with an ability (docs/rules.md#objects).
    UseOnObject(String, String, (i32, i32)),
    FreeStrike(String, String),
    /// Charge along a path at a target, ending in a free strike.
    Charge(String, Vec<(i32, i32)>, String),
    /// Charge ending in an ability with the Charge keyword.
    ChargeWith(String, Vec<(i32, i32)>, String, String),
    StandUp(String),
    CatchBreath(String),
    EscapeGrab(String),
    /// Let go of a grab (no action).
    Release(String),
    /// End the lasting effects of one's own ability (a free maneuver).
    EndEffect(String, String),
    Defend(String),
    Hide(String),
    /// The named creature's side lets the other side pick first.
    Delay(String),
    /// Answer the open prompt with a triggered ability (or
    /// `opportunity_attack`) against named targets.
    React(String, String, Vec<String>),
    /// Answer the open prompt by letting the event pass.
    Decline(String),
    End(String),
    /// The next step must be refused, with a reason containing this text.
    Refused(String, Box<ScenarioStep>),
    Expect(Expectation),
}

/// What a `UseWith` or `UseAreaWith` step spends.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Spending {
    /// Surges on damage: each adds the user's highest characteristic to
    /// the first target's damage (up to three).
    #[serde(default)]
    pub surges: u32,
    /// Targets (by name) whose potency two surges each raise by 1.
    #[serde(default)]
    pub potency: Vec<String>,
    /// Heroic resource spent on the ability's "Spend X" entries.
    #[serde(default)]
    pub spend: u32,
    /// A glyphic ability's chosen connections: the squares of the glyphs
    /// its new glyphs connect to (docs/rules.md#glyphs).
    #[serde(default)]
    pub links: Option<Vec<(i32, i32)>>,
}

/// Something that must be true at that point.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Expectation {
    /// Its stamina as shown: a squad minion's is the squad's pool.
    Stamina(String, i32),
    At(String, (i32, i32)),
    Has(String, ConditionKind),
    Lacks(String, ConditionKind),
    /// The last roll against the creature reached this tier.
    Tier(String, u8),
    /// The hero's heroic resource.
    Resource(String, u32),
    Surges(String, u32),
    Malice(u32),
    Round(u32),
    /// A log line (as printed) containing this text.
    Log(String),
    Dead(String),
    Winner(crate::map::Side),
    /// No side has won yet.
    Undecided,
    /// A triggered-action prompt is open, asking this creature.
    Prompted(String),
    /// No prompt is open.
    NoPrompt,
    /// The creature is hidden (or, with false, not).
    Hidden(String, bool),
    /// Minion squad `n`'s shared stamina pool (docs/rules.md#minions).
    Pool(u32, i32),
    /// The stamina left to the object on a square; 0: none stands there
    /// (docs/rules.md#objects).
    Object((i32, i32), i32),
    /// The creature's experience earned this encounter (docs/rules.md#experience).
    Experience(String, u32),
}

/// A scenario file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    pub name: String,
    /// The rule it checks, quoted with its source.
    #[serde(default)]
    pub rule: String,
    #[serde(default = "default_ruleset")]
    pub ruleset: String,
    #[serde(default)]
    pub legend: BTreeMap<char, Place>,
    pub map: Vec<String>,
    /// Each square's height above the floor, a digit per square (as a
    /// map file's `heights`; docs/rules.md#climbing-swimming-jumping-and-flying).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub heights: Vec<String>,
    #[serde(default = "heroes_first")]
    pub first: FirstSide,
    #[serde(default)]
    pub seed: u64,
    /// What the heroes must do to win (docs/rules.md#objectives).
    #[serde(default)]
    pub objective: crate::content::encounter::Objective,
    /// Monsters arriving later (docs/rules.md#reinforcements).
    #[serde(default)]
    pub reinforcements: Vec<crate::content::encounter::Reinforcement>,
    /// Abilities written inline for this scenario (checked like content
    /// files: tier notation parsed, problems reported).
    #[serde(default)]
    pub abilities: Vec<crate::ability::Ability>,
    pub steps: Vec<ScenarioStep>,
    /// The file and its text, when read from one: setup errors point into it.
    #[serde(skip)]
    pub source: Option<(std::path::PathBuf, String)>,
}

/// What a setup error points at in the scenario's text.
enum Spot<'a> {
    /// A quoted string, the first after the start of `after` (a field).
    String(&'a str),
    /// A field of the top level.
    Field(&'static str),
    /// Row `y`, column `x` of the map.
    Square(usize, usize),
    /// Row `y`, column `x` of the heights.
    HeightSquare(usize, usize),
    /// A quoted string inside a legend letter's entry.
    InLetter(char, &'a str),
    /// The tier text of an inline ability, and an offset into it.
    Tier(&'a str, &'a str, usize),
}

fn default_ruleset() -> String {
    "power_roll".into()
}

fn heroes_first() -> FirstSide {
    FirstSide::Heroes
}

/// The verdict on one expectation or step.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Check {
    pub step: usize,
    pub what: String,
    pub passed: bool,
    pub detail: String,
}

/// The result of running a scenario.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub name: String,
    pub checks: Vec<Check>,
    /// Every creature's final state, for `--json`.
    pub creatures: Vec<serde_json::Value>,
}

impl Report {
    pub fn passed(&self) -> bool {
        self.checks.iter().all(|c| c.passed)
    }
}

/// A scenario that could not even start.
#[derive(Debug, thiserror::Error)]
pub enum ScenarioError {
    #[error("{0}")]
    Parse(crate::content::ContentError),
    #[error("{0}")]
    Setup(String),
    /// A setup problem pointed at in the file.
    #[error("{0}")]
    At(crate::content::ContentError),
}

impl Scenario {
    pub fn load(path: &Path) -> Result<Scenario, ScenarioError> {
        let (mut s, text) =
            crate::content::read_ron::<Scenario>(path).map_err(ScenarioError::Parse)?;
        s.source = Some((path.to_path_buf(), text));
        Ok(s)
    }

    pub fn parse(path: &Path, text: &str) -> Result<Scenario, ScenarioError> {
        let mut s: Scenario = parse_ron(path, text).map_err(ScenarioError::Parse)?;
        s.source = Some((path.to_path_buf(), text.to_string()));
        Ok(s)
    }

    /// A setup error, pointed at `spot` in the file when there is one (at
    /// its start when the spot is not found as written).
    fn error(&self, spot: Spot, message: String) -> ScenarioError {
        let Some((file, src)) = &self.source else {
            return ScenarioError::Setup(message);
        };
        let loc = crate::content::Locator::new(src);
        let rows_of = |field: &str, rows: &[String]| {
            let mut from = loc.find_field(0, field)?;
            let mut starts = Vec::new();
            for row in rows {
                let at = loc.find_string(from, row)?;
                starts.push(at);
                from = at + row.len();
            }
            Some(starts)
        };
        let offset = match spot {
            Spot::String(text) => loc.find_string(0, text),
            Spot::Field(f) => loc.find_field(0, f),
            Spot::Square(y, x) | Spot::HeightSquare(y, x) => {
                let (field, rows) = match spot {
                    Spot::Square(..) => ("map", &self.map),
                    _ => ("heights", &self.heights),
                };
                rows_of(field, rows).and_then(|starts| {
                    let row = rows.get(y)?;
                    let byte = row.char_indices().nth(x).map_or(0, |(b, _)| b);
                    Some(starts.get(y)? + byte)
                })
            }
            Spot::InLetter(c, text) => {
                let legend = loc.find_field(0, "legend").unwrap_or(0);
                let entry = loc.find_from(legend, &format!("'{c}'"));
                entry.and_then(|e| loc.find_string(e, text)).or(entry)
            }
            Spot::Tier(id, text, at) => {
                let start = loc.find_id(id, 0).unwrap_or(0);
                loc.find_string(start, text).map(|o| o + at)
            }
        };
        let (line, column) = offset.map_or((1, 1), |o| loc.position(o));
        ScenarioError::At(crate::content::ContentError {
            file: file.clone(),
            line,
            column,
            message,
        })
    }

    /// Build the encounter this scenario describes on top of `content`.
    fn encounter(
        &self,
        content: &ContentDb,
    ) -> Result<(ContentDb, BTreeMap<String, CreatureId>), ScenarioError> {
        let mut db = content.clone();
        self.add_abilities(&mut db)?;
        let mut rows = Vec::new();
        let mut heroes = Vec::new();
        let mut monsters = Vec::new();
        // Each creature's legend letter and where it was placed.
        let mut placed: BTreeMap<char, (usize, usize)> = BTreeMap::new();
        let mut monster_letters = Vec::new();
        let mut terrain: BTreeMap<char, Tile> = BTreeMap::new();
        let mut glyphs = Vec::new();
        let mut items = Vec::new();
        for (y, row) in self.map.iter().enumerate() {
            let mut out = String::new();
            for (x, c) in row.chars().enumerate() {
                let at = (x as i32, y as i32);
                let creature = matches!(
                    self.legend.get(&c),
                    Some(Place::Hero { .. } | Place::Monster { .. } | Place::Inline(_))
                );
                if creature && let Some((y0, x0)) = placed.insert(c, (y, x)) {
                    let message = format!(
                        "map: letter `{c}` is placed twice, at ({x0}, {y0}) and ({x}, {y}): \
                         a creature's letter is placed once"
                    );
                    return Err(self.error(Spot::Square(y, x), message));
                }
                match self.legend.get(&c) {
                    Some(Place::Tile(t)) => {
                        terrain.insert(c, *t);
                        out.push(c);
                    }
                    Some(place @ Place::Hero { .. }) => {
                        heroes.push(self.hero_at(&db, c, place, at)?);
                        out.push('.');
                    }
                    Some(place @ (Place::Monster { .. } | Place::Inline(_))) => {
                        monsters.push(self.monster_at(&db, c, place, at)?);
                        monster_letters.push(c);
                        out.push('.');
                    }
                    Some(Place::Glyph(from)) => {
                        glyphs.push((Pos::new(at.0, at.1), from.clone()));
                        out.push('.');
                    }
                    Some(Place::Item(item)) => {
                        items.push((Pos::new(at.0, at.1), item.clone()));
                        out.push('.');
                    }
                    None => out.push(c),
                }
            }
            rows.push(out);
        }
        let map = self.scenario_map(&db, &rows, &terrain, glyphs, items)?;
        db.maps.insert(
            "scenario".into(),
            LoadedMap {
                id: "scenario".into(),
                name: self.name.clone(),
                description: String::new(),
                map,
            },
        );
        let names = self.names(&db, &heroes, &monsters, &monster_letters)?;
        db.encounters.insert(
            "scenario".into(),
            EncounterDef {
                id: "scenario".into(),
                name: self.name.clone(),
                briefing: self.rule.clone(),
                ruleset: self.ruleset.clone(),
                map: "scenario".into(),
                heroes,
                monsters,
                first: self.first,
                objective: self.objective.clone(),
                reinforcements: self.reinforcements.clone(),
                heroes_win: None,
            },
        );
        Ok((db, names))
    }

    /// The scenario's own abilities, checked as content checks them, added
    /// to `db`; and its ruleset known.
    fn add_abilities(&self, db: &mut ContentDb) -> Result<(), ScenarioError> {
        let resources: Vec<String> = db
            .classes
            .values()
            .map(|c| c.resource.to_ascii_lowercase())
            .chain(["malice".to_string()])
            .collect();
        for a in &self.abilities {
            let mut a = a.clone();
            if let Some((label, text, err)) = a.parse_lines().into_iter().next() {
                let message = format!("ability `{}`, {label}: {err} (in `{text}`)", a.id);
                return Err(self.error(Spot::Tier(&a.id, &text, err.offset), message));
            }
            if let Some((field, msg)) = crate::content::types::ability_problems(&a, &resources)
                .into_iter()
                .next()
            {
                let message = format!("ability `{}`, field `{field}`: {msg}", a.id);
                return Err(self.error(Spot::String(&a.id), message));
            }
            if let Some(bad) = crate::content::unknown_monsters(&a, db) {
                let message = format!("ability `{}`: unknown monster id `{bad}`", a.id);
                return Err(self.error(Spot::String(&bad), message));
            }
            db.abilities.insert(a.id.clone(), a.into());
        }
        if !db.rulesets.contains_key(&self.ruleset) {
            let known: Vec<&str> = db.rulesets.keys().map(String::as_str).collect();
            let message = format!(
                "unknown ruleset id `{}` (known: {})",
                self.ruleset,
                known.join(", ")
            );
            return Err(self.error(Spot::Field("ruleset"), message));
        }
        Ok(())
    }

    /// The hero of legend letter `c` at `at`: its class and abilities
    /// known, and buildable at its level.
    fn hero_at(
        &self,
        db: &ContentDb,
        c: char,
        place: &Place,
        at: (i32, i32),
    ) -> Result<HeroDef, ScenarioError> {
        let Place::Hero {
            class,
            name,
            characteristics,
            victories,
            abilities,
            level,
            subclass,
            kit,
            ancestry,
            picks,
        } = place
        else {
            unreachable!("called for a hero's letter")
        };
        if !db.classes.contains_key(class) {
            let message = format!("hero `{name}`: unknown class id `{class}`");
            return Err(self.error(Spot::InLetter(c, class), message));
        }
        if let Some(a) = abilities.iter().find(|a| !db.abilities.contains_key(*a)) {
            let message = format!("hero `{name}`: unknown ability id `{a}`");
            return Err(self.error(Spot::InLetter(c, a), message));
        }
        let hero = HeroDef {
            victories: *victories,
            characteristics: *characteristics,
            abilities: abilities.clone(),
            level: level.unwrap_or(1),
            subclass: subclass.clone(),
            kit: kit.clone(),
            ancestry: ancestry.clone(),
            picks: picks.clone(),
            ..HeroDef::new(class, name, at)
        };
        if let Err(m) = crate::content::hero::build(&hero, db) {
            let message = format!("hero `{name}`: {m}");
            return Err(self.error(Spot::InLetter(c, name), message));
        }
        Ok(hero)
    }

    /// The monster of legend letter `c` at `at`, by stat block id or
    /// inline: known, and a captain no minion.
    fn monster_at(
        &self,
        db: &ContentDb,
        c: char,
        place: &Place,
        at: (i32, i32),
    ) -> Result<MonsterDef, ScenarioError> {
        match place {
            Place::Monster {
                id,
                name,
                squad,
                captain,
            } => {
                if !db.monsters.contains_key(id) {
                    let message = format!("unknown monster id `{id}`");
                    return Err(self.error(Spot::InLetter(c, id), message));
                }
                let minion = db.monsters[id].organization == crate::content::Organization::Minion;
                if captain.is_some() && (minion || squad.is_some()) {
                    let message = format!("monster `{id}`: a captain is no minion and in no squad");
                    return Err(self.error(Spot::InLetter(c, id), message));
                }
                Ok(MonsterDef {
                    name: name.clone(),
                    squad: *squad,
                    captain: *captain,
                    ..MonsterDef::of(id, at)
                })
            }
            Place::Inline(m) => {
                if let Some((field, problem)) = m.problems().into_iter().next() {
                    let message = format!("inline monster `{}`, field `{field}`: {problem}", m.id);
                    return Err(self.error(Spot::InLetter(c, &m.id), message));
                }
                if let Some(a) = m.abilities.iter().find(|a| !db.abilities.contains_key(*a)) {
                    let message = format!("inline monster `{}`: unknown ability id `{a}`", m.id);
                    return Err(self.error(Spot::InLetter(c, a), message));
                }
                Ok(MonsterDef {
                    monster: None,
                    inline: Some(m.clone()),
                    name: None,
                    squad: None,
                    captain: None,
                    at,
                })
            }
            _ => unreachable!("called for a monster's letter"),
        }
    }

    /// The map of the scenario's rows and heights, with its glyphs and
    /// treasure checked against `db`.
    fn scenario_map(
        &self,
        db: &ContentDb,
        rows: &[String],
        terrain: &BTreeMap<char, Tile>,
        glyphs: Vec<(Pos, String)>,
        items: Vec<(Pos, String)>,
    ) -> Result<crate::map::Map, ScenarioError> {
        let mut map = crate::map::Map::from_ascii(rows, terrain).map_err(|e| {
            let spot = match &e {
                crate::map::MapError::RaggedRow { row, .. } => Spot::Square(*row, 0),
                crate::map::MapError::UnknownSymbol { row, col, .. } => Spot::Square(*row, *col),
                _ => Spot::Field("map"),
            };
            self.error(spot, format!("map: {e}"))
        })?;
        if !self.heights.is_empty() {
            map.set_heights(&self.heights).map_err(|e| {
                let spot = match &e {
                    crate::map::MapError::BadHeight { row, col, .. } => {
                        Spot::HeightSquare(*row, *col)
                    }
                    _ => Spot::Field("heights"),
                };
                self.error(spot, format!("heights: {e}"))
            })?;
        }
        for (p, from) in &glyphs {
            if db.abilities.get(from).is_none_or(|a| a.glyph.is_none()) {
                let message = format!("glyph at {p}: `{from}` is not a glyphic ability");
                return Err(self.error(Spot::String(from), message));
            }
        }
        map.glyphs = glyphs;
        for (p, item) in &items {
            if !db.abilities.get(item).is_some_and(|a| a.item) {
                let message = format!("treasure at {p}: `{item}` is not an item");
                return Err(self.error(Spot::String(item), message));
            }
        }
        map.items = items;
        Ok(map)
    }

    /// The creatures' names, in spawn order (heroes first, then monsters),
    /// each once.
    fn names(
        &self,
        db: &ContentDb,
        heroes: &[HeroDef],
        monsters: &[MonsterDef],
        monster_letters: &[char],
    ) -> Result<BTreeMap<String, CreatureId>, ScenarioError> {
        // Names, in spawn order (heroes first, then monsters).
        let mut names = BTreeMap::new();
        let mut next = 1;
        for h in heroes {
            if names.insert(h.name.clone(), CreatureId(next)).is_some() {
                let message = format!("two heroes are called `{}`", h.name);
                return Err(self.error(Spot::String(&h.name), message));
            }
            next += 1;
        }
        for (m, letter) in monsters.iter().zip(monster_letters) {
            let name = m
                .name
                .clone()
                .or_else(|| m.inline.as_ref().map(|i| i.name.clone()))
                .or_else(|| {
                    m.monster
                        .as_ref()
                        .and_then(|id| db.monsters.get(id))
                        .map(|b| b.name.clone())
                })
                .unwrap_or_default();
            if names.insert(name.clone(), CreatureId(next)).is_some() {
                let message = format!(
                    "two creatures are called `{name}`: give the one of letter `{letter}` a `name`"
                );
                return Err(self.error(Spot::InLetter(*letter, &name), message));
            }
            next += 1;
        }
        Ok(names)
    }

    /// Whether the scenario can be set up against `content` (what `run`
    /// checks before its first step), without running it.
    pub fn check(&self, content: &ContentDb) -> Result<(), ScenarioError> {
        let (db, _) = self.encounter(content)?;
        Encounter::new(Arc::new(db), "scenario", self.seed)
            .map(|_| ())
            .map_err(|err| ScenarioError::Setup(err.to_string()))
    }

    /// Run the scenario against `content`.
    pub fn run(&self, content: &ContentDb) -> Result<Report, ScenarioError> {
        let (db, mut names) = self.encounter(content)?;
        let mut e = Encounter::new(Arc::new(db), "scenario", self.seed)
            .map_err(|err| ScenarioError::Setup(err.to_string()))?;
        let mut checks = Vec::new();
        for (i, step) in self.steps.iter().enumerate() {
            let step_no = i + 1;
            // Creatures that appeared in play (summons) are named too.
            for c in e.creatures() {
                names.entry(c.name).or_insert(c.id);
            }
            let id = |n: &str| names.get(n).copied();
            match step {
                ScenarioStep::Dice(values) => e.dice_mut().force(values.iter().copied()),
                ScenarioStep::Expect(x) => checks.push(expect(&mut e, x, &names, step_no)),
                ScenarioStep::Refused(reason, inner) => match command(inner, &id) {
                    Err(msg) => checks.push(fail(step_no, "refused step", msg)),
                    Ok(cmd) => {
                        let r = e.apply(cmd);
                        let passed = matches!(&r, Err(refusal) if refusal.to_string().contains(reason.as_str()));
                        checks.push(Check {
                            step: step_no,
                            what: format!("refused: {reason}"),
                            passed,
                            detail: match r {
                                Ok(_) => "it was accepted".into(),
                                Err(refusal) => format!("refused: {refusal}"),
                            },
                        });
                    }
                },
                other => match command(other, &id) {
                    Err(msg) => checks.push(fail(step_no, "step", msg)),
                    Ok(cmd) => {
                        if let Err(refusal) = e.apply(cmd.clone()) {
                            checks.push(fail(
                                step_no,
                                &format!("{other:?}"),
                                format!("refused: {refusal}"),
                            ));
                        }
                    }
                },
            }
        }
        let dice = e.world().res::<crate::dice::Dice>().clone();
        for m in dice.mismatches() {
            checks.push(fail(
                0,
                "dice",
                format!("forced {} on a d{}", m.forced, m.sides),
            ));
        }
        if dice.pending_forced() > 0 {
            let n = dice.pending_forced();
            checks.push(fail(
                0,
                "dice",
                format!("{n} forced value(s) were never rolled"),
            ));
        }
        let creatures = e
            .creatures()
            .into_iter()
            .map(|c| {
                // A minion's stamina is its squad's pool.
                let (stamina, max_stamina) = c.shown_stamina();
                serde_json::json!({
                    "name": c.name,
                    "side": format!("{:?}", c.side),
                    "square": [c.space.pos.x, c.space.pos.y],
                    "stamina": stamina,
                    "max_stamina": max_stamina,
                    "squad": c.squad,
                    "dead": c.stamina.is_dead(),
                    "conditions": c.conditions.kinds().iter().map(|k| k.word()).collect::<Vec<_>>(),
                    "heroic_resource": c.heroic.as_ref().map(|h| h.amount),
                    "surges": c.heroic.as_ref().map(|h| h.surges),
                })
            })
            .collect();
        Ok(Report {
            name: self.name.clone(),
            checks,
            creatures,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assets() -> std::path::PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets")
    }

    // Issue #4 point 10: "`cargo test` runs them all".
    #[test]
    fn every_shipped_scenario_passes() {
        let content = ContentDb::load(assets()).unwrap_or_else(|e| panic!("{e}"));
        let (files, _) = crate::content::ron_files(&assets().join("scenarios"));
        assert!(!files.is_empty());
        let mut failures = Vec::new();
        for f in &files {
            let s = Scenario::load(f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            assert!(
                !s.rule.is_empty(),
                "{}: a scenario quotes the rule it checks",
                f.display()
            );
            let report = s
                .run(&content)
                .unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            assert!(!report.checks.is_empty(), "{}: checks nothing", f.display());
            for c in report.checks.iter().filter(|c| !c.passed) {
                failures.push(format!(
                    "{}: step {}: {}: {}",
                    f.display(),
                    c.step,
                    c.what,
                    c.detail
                ));
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }

    #[test]
    fn a_failing_expectation_is_reported_not_panicked() {
        let content = ContentDb::load(assets()).unwrap();
        let s = Scenario::parse(
            Path::new("inline.ron"),
            r######"(
                name: "wrong on purpose",
                rule: "none",
                legend: { 'F': Hero(class: "fury", name: "K"), 'b': Monster(id: "bandit") },
                map: ["#####", "#Fb.#", "#####"],
                steps: [
                    Start("K"),
                    Dice([4, 5]),
                    Use("K", "brutal_slam", ["Bandit"]),
                    Expect(Stamina("Bandit", 99)),
                    Use("K", "brutal_slam", ["Nobody"]),
                    Dice([30]),
                    End("K"),
                ],
            )"######,
        )
        .unwrap();
        let r = s.run(&content).unwrap();
        assert!(!r.passed());
        let failed: Vec<&Check> = r.checks.iter().filter(|c| !c.passed).collect();
        assert_eq!(failed.len(), 2 + 1, "{failed:#?}"); // stamina, the unknown name, the d30
        assert!(failed[0].detail.contains("stamina 15"));
        assert!(failed[1].detail.contains("no creature called `Nobody`"));
        assert_eq!(r.creatures.len(), 2);
    }

    // Issue 51, point 1, and issue 52, point 6: every setup error of a
    // scenario names the file, line and column of its cause.
    #[test]
    fn setup_errors_point_at_their_cause() {
        let content = ContentDb::load(assets()).unwrap();
        let base = r######"(
    name: "located",
    rule: "none",
    legend: {
        'F': Hero(class: "fury", name: "K"),
        'b': Monster(id: "bandit"),
    },
    map: [
        "#####",
        "#Fb.#",
        "#####",
    ],
    steps: [Start("K")],
)"######;
        let cases: [(&str, &str, &str, (usize, usize)); 7] = [
            ("unknown monster", "\"bandit\"", "\"zz_ogre\"", (6, 27)),
            ("unknown class", "\"fury\"", "\"zz_class\"", (5, 27)),
            ("ragged map row", "\"#Fb.#\"", "\"#Fb.##\"", (10, 10)),
            ("unknown symbol", "\"#Fb.#\"", "\"#FbQ#\"", (10, 13)),
            ("letter placed twice", "\"#Fb.#\"", "\"#FbF#\"", (10, 13)),
            (
                "unknown ruleset",
                "rule: \"none\",",
                "rule: \"none\", ruleset: \"zz\",",
                (3, 19),
            ),
            (
                "inline tier line",
                "steps:",
                r#"abilities: [(id: "odd", name: "Odd", keywords: [Melee], action: MainAction,
        distance: Melee(1), target: (count: 1, kinds: [Creature]),
        power_roll: (characteristics: [Might], tiers: ("2 damage", "4 flarp", "6 damage")))],
    steps:"#,
                (15, 71),
            ),
        ];
        for (what, from, to, (line, column)) in cases {
            let text = base.replacen(from, to, 1);
            let s = Scenario::parse(Path::new("s.ron"), &text).unwrap();
            match s.check(&content) {
                Err(ScenarioError::At(e)) => {
                    assert_eq!((e.line, e.column), (line, column), "{what}: {e}");
                    assert_eq!(e.file, Path::new("s.ron"), "{what}");
                }
                other => panic!("{what}: {other:?}"),
            }
        }
        assert!(
            Scenario::parse(Path::new("s.ron"), base)
                .unwrap()
                .check(&content)
                .is_ok()
        );
    }
}
