//! An encounter's value against the party's budget, and the difficulty
//! band it falls in (docs/rules.md#encounter-budget). The source texts give
//! no numbers: these are the ruling of docs/rulings.md ("Encounter
//! budget"), pure functions over the encounter's plain data.

use serde::{Deserialize, Serialize};

use super::ContentDb;
use super::types::{Monster, Organization};
use crate::content::encounter::{EncounterDef, MonsterDef};

/// A hero's share of the budget: 6 + 2 x level (8 at level 1).
pub fn hero_budget(level: u32) -> u32 {
    6 + 2 * level
}

/// A monster's encounter value: its stat block's `ev` if it gives one;
/// else a platoon creature's 1 + 2 x level, a minion a quarter of that (a
/// squad of four is one platoon creature), an elite or leader twice it, a
/// solo five times it.
pub fn monster_ev(m: &Monster) -> f64 {
    if let Some(ev) = m.ev {
        return ev as f64;
    }
    let platoon = (1 + 2 * m.level) as f64;
    match m.organization {
        Organization::Minion => platoon / 4.0,
        Organization::Platoon => platoon,
        Organization::Elite | Organization::Leader => 2.0 * platoon,
        Organization::Solo => 5.0 * platoon,
    }
}

/// How hard a fight looks before it is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Band {
    Trivial,
    Easy,
    Standard,
    Hard,
    Extreme,
}

impl Band {
    /// The band of an encounter value `ev` against a `budget`: its share
    /// of the budget below 0.5 trivial, below 0.85 easy, to 1.15 standard,
    /// to 1.5 hard, beyond that extreme.
    pub fn of(ev: f64, budget: f64) -> Band {
        let r = if budget <= 0.0 {
            f64::INFINITY
        } else {
            ev / budget
        };
        match r {
            r if r < 0.5 => Band::Trivial,
            r if r < 0.85 => Band::Easy,
            r if r <= 1.15 => Band::Standard,
            r if r <= 1.5 => Band::Hard,
            _ => Band::Extreme,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Band::Trivial => "trivial",
            Band::Easy => "easy",
            Band::Standard => "standard",
            Band::Hard => "hard",
            Band::Extreme => "extreme",
        }
    }
}

/// An encounter's value, the party's budget and the band.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Budget {
    /// Every monster's value, reinforcements included.
    pub ev: f64,
    pub budget: f64,
    pub band: Band,
}

/// The stat block an entry names (by id or inline).
fn block<'a>(db: &'a ContentDb, m: &'a MonsterDef) -> Option<&'a Monster> {
    match (&m.monster, &m.inline) {
        (Some(id), _) => db.monsters.get(id),
        (None, Some(b)) => Some(b),
        _ => None,
    }
}

/// `def`'s value against its heroes' budget (unknown stat blocks count 0:
/// content is checked at load).
pub fn of(db: &ContentDb, def: &EncounterDef) -> Budget {
    let ev = def
        .monsters
        .iter()
        .chain(def.reinforcements.iter().flat_map(|r| &r.monsters))
        .filter_map(|m| block(db, m))
        .map(monster_ev)
        .sum();
    let budget = def.heroes.iter().map(|h| hero_budget(h.level)).sum::<u32>() as f64;
    Budget {
        ev,
        budget,
        band: Band::of(ev, budget),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // docs/rules.md#encounter-budget: the bands' edges.
    #[test]
    fn the_band_follows_the_share_of_the_budget() {
        assert_eq!(Band::of(5.0, 12.0), Band::Trivial);
        assert_eq!(Band::of(6.0, 12.0), Band::Easy);
        assert_eq!(Band::of(12.0, 12.0), Band::Standard);
        assert_eq!(Band::of(13.7, 12.0), Band::Standard);
        assert_eq!(Band::of(14.0, 12.0), Band::Hard);
        assert_eq!(Band::of(18.0, 12.0), Band::Hard);
        assert_eq!(Band::of(18.5, 12.0), Band::Extreme);
        assert_eq!(Band::of(1.0, 0.0), Band::Extreme);
        assert_eq!(hero_budget(1), 8);
        assert_eq!(hero_budget(3), 12);
    }

    // docs/rules.md#encounter-budget: a squad of four minions is worth one
    // platoon creature of their level; a stat block's own value wins.
    #[test]
    fn monsters_are_valued_by_level_and_organization() {
        let db = ContentDb::load(concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets")).unwrap();
        let bandit = &db.monsters["bandit"];
        assert_eq!(bandit.level, 1);
        assert_eq!(monster_ev(bandit), 3.0);
        let lackey = &db.monsters["bandit_lackey"];
        assert_eq!(4.0 * monster_ev(lackey), monster_ev(bandit));
        let mut own = bandit.clone();
        own.ev = Some(7);
        assert_eq!(monster_ev(&own), 7.0);
        let fb = of(&db, &db.encounters["first_blood"]);
        // Two level-1 heroes; four platoon bandits and four lackeys.
        assert_eq!(fb.budget, 16.0);
        assert_eq!(fb.ev, 15.0);
        assert_eq!(fb.band, Band::Standard);
    }
}
