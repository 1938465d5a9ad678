//! The encounter builder's model: a draft encounter changed by commands,
//! each checked against the content as it is given, and written out as an
//! encounter file in the format of `assets/encounters/`. The window's
//! builder is a view of it; tests drive it with the same commands.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::ContentDb;
use crate::content::encounter::{
    EncounterDef, FirstSide, HeroDef, MonsterDef, Objective, Reinforcement,
};
use crate::map::{Footprint, Map, Pos};
use crate::stats::Characteristics;

/// Who a placement moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Who {
    Hero(usize),
    Monster(usize),
    /// The `n`th monster of the `r`th reinforcement.
    Reinforcement(usize, usize),
}

/// One change to the draft.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum BuildCommand {
    /// Rename the encounter; its id (and file name) follows the name.
    Name(String),
    Briefing(String),
    /// Choose the map: everyone is placed again at its ends.
    Map(String),
    Ruleset(String),
    First(FirstSide),
    /// Add a hero of a class, placed at the heroes' end of the map.
    AddHero {
        class: String,
        name: String,
    },
    /// Rename a hero.
    RenameHero(usize, String),
    /// Set a hero's characteristics (None: the class's own).
    Characteristics(usize, Option<Characteristics>),
    /// Change a hero's level, subclass, kit, ancestry or victories
    /// (docs/rules.md#levels-and-echelons, #subclasses, #kits, #ancestries).
    Hero(usize, HeroChoice),
    RemoveHero(usize),
    /// Add a monster from the roster, in a minion squad or not, placed at
    /// the monsters' end of the map.
    AddMonster {
        monster: String,
        squad: Option<u32>,
    },
    RemoveMonster(usize),
    /// Put a creature on a square.
    Place(Who, (i32, i32)),
    /// Place everyone again: heroes at the map's west end, monsters at
    /// its east end.
    AutoPlace,
    Objective(Objective),
    /// Add a monster arriving at the start of `round` on a square.
    AddReinforcement {
        round: u32,
        monster: String,
        at: (i32, i32),
    },
    RemoveReinforcement(usize, usize),
}

/// One choice about a hero ([`BuildCommand::Hero`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum HeroChoice {
    /// 1 to 10.
    Level(u32),
    /// None: the class's first.
    Subclass(Option<String>),
    Kit(Option<String>),
    Ancestry(Option<String>),
    /// Heroic resource at the start (and the Director's Malice with it).
    Victories(u32),
}

/// Why a command was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BuildError {
    #[error("no {what} `{id}`")]
    Unknown { what: &'static str, id: String },
    #[error("no such {0}")]
    NoSuch(&'static str),
    #[error("{0} is not open ground")]
    NotOpen(Pos),
    #[error("{0} is taken")]
    Taken(Pos),
    #[error("no open square left at that end of the map")]
    NoRoom,
    #[error("{0}")]
    Invalid(String),
}

/// Why a draft could not be saved.
#[derive(Debug, thiserror::Error)]
pub enum SaveError {
    /// A file of that name is there: asked again with `overwrite`, it is
    /// replaced.
    #[error("{} already exists", .0.display())]
    Exists(PathBuf),
    #[error("`{0}` is a shipped encounter's id: give the encounter another name")]
    Shipped(String),
    #[error("the encounter is not ready: {0}")]
    NotReady(String),
    #[error("could not write {}: {}", .0.display(), .1)]
    Io(PathBuf, std::io::Error),
}

/// The draft and what it is built from.
#[derive(Clone, Debug)]
pub struct Builder {
    pub def: EncounterDef,
}

/// An id from a name: lower case, words joined by `_`.
pub fn id_of(name: &str) -> String {
    let mut id = String::new();
    for w in name
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
    {
        if !id.is_empty() {
            id.push('_');
        }
        id.push_str(&w.to_ascii_lowercase());
    }
    if id.is_empty() { "built".into() } else { id }
}

impl Builder {
    /// A new draft on `map` (the first map if it is not known), with no
    /// one in it yet.
    pub fn new(db: &ContentDb, name: &str, map: &str) -> Builder {
        let map = if db.maps.contains_key(map) {
            map.to_string()
        } else {
            db.maps.keys().next().cloned().unwrap_or_default()
        };
        Builder {
            def: EncounterDef {
                id: id_of(name),
                name: name.to_string(),
                briefing: String::new(),
                ruleset: "power_roll".into(),
                map,
                heroes: Vec::new(),
                monsters: Vec::new(),
                first: FirstSide::Roll,
                objective: Objective::DefeatAll,
                reinforcements: Vec::new(),
                heroes_win: None,
            },
        }
    }

    fn map<'a>(&self, db: &'a ContentDb) -> Result<&'a Map, BuildError> {
        db.maps
            .get(&self.def.map)
            .map(|m| &m.map)
            .ok_or_else(|| BuildError::Unknown {
                what: "map",
                id: self.def.map.clone(),
            })
    }

    fn size_of(db: &ContentDb, m: &MonsterDef) -> u32 {
        m.monster
            .as_ref()
            .and_then(|id| db.monsters.get(id))
            .or(m.inline.as_ref())
            .map_or(1, |b| b.size.squares())
    }

    /// Every placed creature's space but `except`'s.
    fn taken(&self, db: &ContentDb, except: Option<Who>) -> Vec<Footprint> {
        let heroes = self
            .def
            .heroes
            .iter()
            .enumerate()
            .filter(|(i, _)| except != Some(Who::Hero(*i)))
            .map(|(_, h)| Footprint::single(Pos::new(h.at.0, h.at.1)));
        let monsters = self
            .def
            .monsters
            .iter()
            .enumerate()
            .filter(|(i, _)| except != Some(Who::Monster(*i)))
            .map(|(_, m)| Footprint::new(Pos::new(m.at.0, m.at.1), Self::size_of(db, m)));
        heroes.chain(monsters).collect()
    }

    /// The first open, untaken square for a creature of `size`, searching
    /// from the west end (heroes) or the east end (monsters), each column
    /// from the middle row outwards.
    fn free_square(
        &self,
        db: &ContentDb,
        west: bool,
        size: u32,
        taken: &[Footprint],
    ) -> Result<(i32, i32), BuildError> {
        let map = self.map(db)?;
        let (w, h) = (map.width, map.height);
        let mid = h / 2;
        let columns: Vec<i32> = if west {
            (0..w).collect()
        } else {
            (0..w).rev().map(|x| x - (size as i32 - 1)).collect()
        };
        for x in columns {
            for k in 0..h {
                let y = if k % 2 == 0 {
                    mid + k / 2
                } else {
                    mid - 1 - k / 2
                };
                let fp = Footprint::new(Pos::new(x, y), size);
                if map.footprint_open(fp) && !taken.iter().any(|t| t.overlaps(fp)) {
                    return Ok((x, y));
                }
            }
        }
        Err(BuildError::NoRoom)
    }

    /// Carry out one command; a refused one changes nothing.
    pub fn apply(&mut self, db: &ContentDb, cmd: BuildCommand) -> Result<(), BuildError> {
        let unknown = |what, id: &str| BuildError::Unknown {
            what,
            id: id.to_string(),
        };
        match cmd {
            BuildCommand::Name(name) => {
                self.def.id = id_of(&name);
                self.def.name = name;
            }
            BuildCommand::Briefing(b) => self.def.briefing = b,
            BuildCommand::Map(m) => self.set_map(db, m)?,
            BuildCommand::Ruleset(r) => {
                if !db.rulesets.contains_key(&r) {
                    return Err(unknown("ruleset", &r));
                }
                self.def.ruleset = r;
            }
            BuildCommand::First(f) => self.def.first = f,
            BuildCommand::AddHero { class, name } => {
                if !db.classes.contains_key(&class) {
                    return Err(unknown("class", &class));
                }
                let taken = self.taken(db, None);
                let at = self.free_square(db, true, 1, &taken)?;
                self.def.heroes.push(HeroDef::new(&class, &name, at));
            }
            BuildCommand::RenameHero(i, name) => {
                let h = self
                    .def
                    .heroes
                    .get_mut(i)
                    .ok_or(BuildError::NoSuch("hero"))?;
                if name.trim().is_empty() {
                    return Err(BuildError::Invalid("a hero needs a name".into()));
                }
                h.name = name;
            }
            BuildCommand::Characteristics(i, c) => {
                let h = self
                    .def
                    .heroes
                    .get_mut(i)
                    .ok_or(BuildError::NoSuch("hero"))?;
                if let Some(c) = c
                    && [c.might, c.agility, c.reason, c.intuition, c.presence]
                        .iter()
                        .any(|v| !(-5..=5).contains(v))
                {
                    return Err(BuildError::Invalid(
                        "characteristics run from -5 to 5".into(),
                    ));
                }
                h.characteristics = c;
            }
            BuildCommand::Hero(i, choice) => self.set_hero(db, i, choice)?,
            BuildCommand::RemoveHero(i) => {
                if i >= self.def.heroes.len() {
                    return Err(BuildError::NoSuch("hero"));
                }
                self.def.heroes.remove(i);
            }
            BuildCommand::AddMonster { monster, squad } => {
                let block = db
                    .monsters
                    .get(&monster)
                    .ok_or_else(|| unknown("monster", &monster))?;
                if squad.is_some() && block.organization != super::Organization::Minion {
                    return Err(BuildError::Invalid(format!(
                        "{} is not a minion: only minions form squads",
                        block.name
                    )));
                }
                let taken = self.taken(db, None);
                let at = self.free_square(db, false, block.size.squares(), &taken)?;
                let mut m = MonsterDef::of(&monster, at);
                m.squad = squad;
                self.def.monsters.push(m);
            }
            BuildCommand::RemoveMonster(i) => {
                if i >= self.def.monsters.len() {
                    return Err(BuildError::NoSuch("monster"));
                }
                self.def.monsters.remove(i);
            }
            BuildCommand::Place(who, at) => self.place(db, who, at)?,
            BuildCommand::AutoPlace => self.auto_place(db)?,
            BuildCommand::Objective(o) => self.set_objective(db, o)?,
            BuildCommand::AddReinforcement { round, monster, at } => {
                self.add_reinforcement(db, round, monster, at)?
            }
            BuildCommand::RemoveReinforcement(r, n) => {
                let group = self
                    .def
                    .reinforcements
                    .get_mut(r)
                    .ok_or(BuildError::NoSuch("reinforcement"))?;
                if n >= group.monsters.len() {
                    return Err(BuildError::NoSuch("reinforcement"));
                }
                group.monsters.remove(n);
                if group.monsters.is_empty() {
                    self.def.reinforcements.remove(r);
                }
            }
        }
        Ok(())
    }

    /// Another map: everyone placed anew on it (or nothing changed), the
    /// reinforcements gone and a zone to hold with them.
    fn set_map(&mut self, db: &ContentDb, m: String) -> Result<(), BuildError> {
        if !db.maps.contains_key(&m) {
            return Err(BuildError::Unknown { what: "map", id: m });
        }
        let before = std::mem::replace(&mut self.def.map, m);
        if let Err(e) = self.apply(db, BuildCommand::AutoPlace) {
            self.def.map = before;
            return Err(e);
        }
        self.def.reinforcements.clear();
        if let Objective::Hold { .. } = self.def.objective {
            self.def.objective = Objective::DefeatAll;
        }
        Ok(())
    }

    /// A hero's level, subclass, kit, ancestry or victories changed, its
    /// picks kept where they still have a place.
    fn set_hero(&mut self, db: &ContentDb, i: usize, choice: HeroChoice) -> Result<(), BuildError> {
        let h = self
            .def
            .heroes
            .get_mut(i)
            .ok_or(BuildError::NoSuch("hero"))?;
        let mut changed = h.clone();
        match choice {
            HeroChoice::Level(n) => changed.level = n,
            HeroChoice::Subclass(s) => changed.subclass = s,
            HeroChoice::Kit(k) => changed.kit = k,
            HeroChoice::Ancestry(a) => changed.ancestry = a,
            HeroChoice::Victories(v) if v > 20 => {
                return Err(BuildError::Invalid("victories run from 0 to 20".into()));
            }
            HeroChoice::Victories(v) => changed.victories = v,
        }
        // Picks that no longer have a place at the new level go.
        let base = changed.clone();
        changed.picks.retain(|p| {
            let mut one = base.clone();
            one.picks = vec![p.clone()];
            super::hero::build(&one, db).is_ok()
        });
        super::hero::build(&changed, db).map_err(BuildError::Invalid)?;
        *h = changed;
        Ok(())
    }

    /// A creature moved to `at`: open ground, and no one else there (a
    /// reinforcement arrives later, and may share it).
    fn place(&mut self, db: &ContentDb, who: Who, at: (i32, i32)) -> Result<(), BuildError> {
        let size = match who {
            Who::Hero(i) => self
                .def
                .heroes
                .get(i)
                .map(|_| 1)
                .ok_or(BuildError::NoSuch("hero"))?,
            Who::Monster(i) => self
                .def
                .monsters
                .get(i)
                .map(|m| Self::size_of(db, m))
                .ok_or(BuildError::NoSuch("monster"))?,
            Who::Reinforcement(r, n) => self
                .def
                .reinforcements
                .get(r)
                .and_then(|r| r.monsters.get(n))
                .map(|m| Self::size_of(db, m))
                .ok_or(BuildError::NoSuch("reinforcement"))?,
        };
        let fp = Footprint::new(Pos::new(at.0, at.1), size);
        if !self.map(db)?.footprint_open(fp) {
            return Err(BuildError::NotOpen(fp.pos));
        }
        // (Reinforcements arrive later: they may share a square
        // with a creature placed at the start.)
        if !matches!(who, Who::Reinforcement(..))
            && self.taken(db, Some(who)).iter().any(|t| t.overlaps(fp))
        {
            return Err(BuildError::Taken(fp.pos));
        }
        match who {
            Who::Hero(i) => self.def.heroes[i].at = at,
            Who::Monster(i) => self.def.monsters[i].at = at,
            Who::Reinforcement(r, n) => self.def.reinforcements[r].monsters[n].at = at,
        }
        Ok(())
    }

    /// Every creature put on the first free squares of its side, or nothing
    /// changed.
    fn auto_place(&mut self, db: &ContentDb) -> Result<(), BuildError> {
        let mut next = self.clone();
        let mut taken = Vec::new();
        for i in 0..next.def.heroes.len() {
            let at = next.free_square(db, true, 1, &taken)?;
            next.def.heroes[i].at = at;
            taken.push(Footprint::single(Pos::new(at.0, at.1)));
        }
        for i in 0..next.def.monsters.len() {
            let size = Self::size_of(db, &next.def.monsters[i]);
            let at = next.free_square(db, false, size, &taken)?;
            next.def.monsters[i].at = at;
            taken.push(Footprint::new(Pos::new(at.0, at.1), size));
        }
        *self = next;
        Ok(())
    }

    /// The objective, at least a round long and its zone on the map.
    fn set_objective(&mut self, db: &ContentDb, o: Objective) -> Result<(), BuildError> {
        let map = self.map(db)?;
        match &o {
            Objective::Survive { rounds: 0 } | Objective::Hold { rounds: 0, .. } => {
                return Err(BuildError::Invalid(
                    "the objective needs at least 1 round".into(),
                ));
            }
            Objective::Hold { zone, .. }
                if !map.in_bounds(Pos::new(zone.from.0, zone.from.1))
                    || !map.in_bounds(Pos::new(zone.to.0, zone.to.1)) =>
            {
                return Err(BuildError::Invalid("the zone is off the map".into()));
            }
            _ => {}
        }
        self.def.objective = o;
        Ok(())
    }

    /// A monster arriving at the start of `round` at `at`, on open ground.
    fn add_reinforcement(
        &mut self,
        db: &ContentDb,
        round: u32,
        monster: String,
        at: (i32, i32),
    ) -> Result<(), BuildError> {
        if round == 0 {
            return Err(BuildError::Invalid(
                "reinforcements arrive at round 1 or later".into(),
            ));
        }
        let block = db
            .monsters
            .get(&monster)
            .ok_or_else(|| BuildError::Unknown {
                what: "monster",
                id: monster.clone(),
            })?;
        let fp = Footprint::new(Pos::new(at.0, at.1), block.size.squares());
        if !self.map(db)?.footprint_open(fp) {
            return Err(BuildError::NotOpen(fp.pos));
        }
        let m = MonsterDef::of(&monster, at);
        match self
            .def
            .reinforcements
            .iter_mut()
            .find(|r| r.round == round)
        {
            Some(r) => r.monsters.push(m),
            None => {
                self.def.reinforcements.push(Reinforcement {
                    round,
                    monsters: vec![m],
                });
                self.def.reinforcements.sort_by_key(|r| r.round);
            }
        }
        Ok(())
    }

    /// What still stops the draft being played or saved (empty: ready).
    pub fn problems(&self) -> Vec<String> {
        let mut p = Vec::new();
        if self.def.heroes.is_empty() {
            p.push("add at least one hero".to_string());
        }
        if self.def.monsters.is_empty() {
            p.push("add at least one monster".to_string());
        }
        if self.def.name.trim().is_empty() {
            p.push("give the encounter a name".to_string());
        }
        p
    }

    /// The draft as an encounter file.
    pub fn to_ron(&self) -> String {
        let config = ron::ser::PrettyConfig::new()
            .struct_names(false)
            .indentor("    ".to_string())
            // Each creature on a line of its own, as the shipped files have them.
            .depth_limit(2)
            .extensions(ron::extensions::Extensions::IMPLICIT_SOME);
        let body = ron::ser::to_string_pretty(&self.def, config)
            .unwrap_or_else(|e| format!("// could not write the encounter: {e}\n"));
        format!(
            "// {}: built in Skirmish's encounter builder.\n{body}\n",
            self.def.name
        )
    }

    /// Save the draft as `dir/<id>.ron`. An id a shipped encounter has is
    /// refused; an existing file is replaced only with `overwrite` (the
    /// window asks first). The file is written beside its final name and
    /// renamed into place.
    pub fn save(&self, db: &ContentDb, dir: &Path, overwrite: bool) -> Result<PathBuf, SaveError> {
        if let Some(p) = self.problems().first() {
            return Err(SaveError::NotReady(p.clone()));
        }
        // (One from the content folder; a built one loaded from `dir` may
        // be replaced, when asked.)
        let shipped = db
            .origins
            .get(&(super::Kind::Encounter, self.def.id.clone()))
            .is_some_and(|o| o.file.starts_with(&db.root) && !o.file.starts_with(dir));
        if shipped {
            return Err(SaveError::Shipped(self.def.id.clone()));
        }
        let file = dir.join(format!("{}.ron", self.def.id));
        if file.exists() && !overwrite {
            return Err(SaveError::Exists(file));
        }
        let io = |e| SaveError::Io(file.clone(), e);
        std::fs::create_dir_all(dir).map_err(io)?;
        let tmp = dir.join(format!(".{}.ron.part", self.def.id));
        std::fs::write(&tmp, self.to_ron()).map_err(io)?;
        std::fs::rename(&tmp, &file).map_err(io)?;
        Ok(file)
    }
}
