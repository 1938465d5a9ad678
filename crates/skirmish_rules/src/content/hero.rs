//! A hero's build from 1st to 10th level: the class's progression table,
//! its subclass, a kit and an ancestry (docs/rules.md#levels-and-echelons,
//! #class-tables, #subclasses, #kits, #ancestries). One pure function,
//! [`build`], turns a hero of an encounter file into what it fights with;
//! setup, the builder, the budget and the card all read it.

use serde::{Deserialize, Serialize};

use super::{Class, ContentDb, HasId};
use crate::ability::{Ability, Cost, Distance, Effect, Keyword};
use crate::content::encounter::HeroDef;
use crate::map::movement::MoveMode;
use crate::stats::{
    Amount, Characteristic, Characteristics, DamageFilter, DamageTraits, DamageType, Size,
};

/// The highest level a hero reaches.
pub const MAX_LEVEL: u32 = 10;

/// The most victories a hero brings into an encounter (its heroic resource
/// at the start, and the Director's Malice with it).
pub const MAX_VICTORIES: u32 = 100;

/// docs/rules.md#levels-and-echelons: levels 1-3 are the first echelon,
/// 4-6 the second, 7-9 the third and 10 the fourth.
pub fn echelon(level: u32) -> u32 {
    match level {
        0..=3 => 1,
        4..=6 => 2,
        7..=9 => 3,
        _ => 4,
    }
}

/// One row of a class's progression table (docs/rules.md#class-tables):
/// what a hero of the class has at `level`. The columns hold everything the
/// hero has at that level, not what it gains: the seed's 6th-level censor
/// reads `abilities: [3, 5, 7, 9], subclass: [5, 9]` beside its signature
/// abilities.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LevelRow {
    pub level: u32,
    /// The Abilities column: the heroic resource cost of each heroic
    /// ability the class gives (its signature abilities are always known).
    pub abilities: Vec<u32>,
    /// The subclass column: the cost of each ability the subclass gives.
    #[serde(default)]
    pub subclass: Vec<u32>,
    /// The characteristics that rise by 1 on reaching this level (as a hero
    /// enters a new echelon), to at most [`MAX_CHARACTERISTIC`].
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub raise: Vec<Characteristic>,
    /// Recoveries gained at this level.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub recoveries: u32,
    /// From this level, the class's resource trigger grants this much.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trigger_amount: Option<u32>,
    /// From this level, this much more heroic resource at the start of each
    /// turn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resource_per_turn: Option<u32>,
    /// From this level, the hero starts each encounter with this much more
    /// heroic resource (besides its victories).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub starting_resource: Option<u32>,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// The highest a characteristic rises by the table.
pub const MAX_CHARACTERISTIC: i32 = 5;

/// A subclass: its name and the abilities of the table's subclass column
/// (docs/rules.md#subclasses).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Subclass {
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub description: String,
    pub abilities: Vec<String>,
}

/// A kit (docs/rules.md#kits): the weapons and armor a hero fights with,
/// as bonuses. Damage bonuses go to weapon abilities by tier; distance
/// bonuses to the melee or ranged distance of weapon abilities.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Kit {
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub description: String,
    /// Stamina added for each echelon the hero is in (1 to 4 times).
    #[serde(default)]
    pub stamina: i32,
    #[serde(default)]
    pub speed: u32,
    #[serde(default)]
    pub stability: u32,
    /// Added to a melee weapon ability's damage at tiers 1, 2 and 3.
    #[serde(default)]
    pub melee_damage: (i32, i32, i32),
    #[serde(default)]
    pub ranged_damage: (i32, i32, i32),
    #[serde(default)]
    pub melee_distance: u32,
    #[serde(default)]
    pub ranged_distance: u32,
}

impl HasId for Kit {
    fn id(&self) -> &str {
        &self.id
    }
}

impl Kit {
    pub fn problems(&self) -> Vec<(&'static str, String)> {
        let mut p = Vec::new();
        if !(-20..=60).contains(&self.stamina) {
            p.push((
                "stamina",
                format!("stamina {} is outside -20 to 60", self.stamina),
            ));
        }
        if self.speed > 5 {
            p.push(("speed", format!("speed {} is more than 5", self.speed)));
        }
        if self.stability > 5 {
            p.push((
                "stability",
                format!("stability {} is more than 5", self.stability),
            ));
        }
        for (field, (a, b, c)) in [
            ("melee_damage", self.melee_damage),
            ("ranged_damage", self.ranged_damage),
        ] {
            if [a, b, c].iter().any(|d| !(0..=20).contains(d)) {
                p.push((field, format!("{field} ({a}, {b}, {c}) is outside 0 to 20")));
            }
        }
        for (field, d) in [
            ("melee_distance", self.melee_distance),
            ("ranged_distance", self.ranged_distance),
        ] {
            if d > 10 {
                p.push((field, format!("{field} {d} is more than 10")));
            }
        }
        p
    }

    /// Whether the kit changes `ability` (a weapon ability with a melee or
    /// ranged distance and a bonus that fits it).
    fn fits(&self, a: &Ability) -> Option<Reach> {
        if !a.keywords.contains(&Keyword::Weapon) {
            return None;
        }
        let melee = a.keywords.contains(&Keyword::Melee);
        let ranged = a.keywords.contains(&Keyword::Ranged);
        // docs/rules.md#kits: an ability with both keywords takes one bonus,
        // the melee one (the seed: "only one bonus at a time applies").
        let reach = if melee {
            Reach::Melee
        } else if ranged {
            Reach::Ranged
        } else {
            return None;
        };
        let (damage, distance) = match reach {
            Reach::Melee => (self.melee_damage, self.melee_distance),
            Reach::Ranged => (self.ranged_damage, self.ranged_distance),
        };
        (damage != (0, 0, 0) || distance > 0).then_some(reach)
    }

    /// `ability` as a hero with this kit uses it: the kit's damage added to
    /// the first damage of each tier, its distance to a melee or ranged
    /// distance. `None`: the kit does not change it.
    pub fn apply(&self, a: &Ability) -> Option<Ability> {
        let reach = self.fits(a)?;
        let (damage, extra) = match reach {
            Reach::Melee => (self.melee_damage, self.melee_distance),
            Reach::Ranged => (self.ranged_damage, self.ranged_distance),
        };
        let mut out = a.clone();
        out.id = kit_ability_id(&a.id, &self.id);
        out.distance = match (a.distance, reach) {
            // (Saturating: a distance past the limits is the checks' to
            // name, not a panic here.)
            (Distance::Melee(n), Reach::Melee) => Distance::Melee(n.saturating_add(extra)),
            (Distance::Ranged(n), Reach::Ranged) => Distance::Ranged(n.saturating_add(extra)),
            (Distance::MeleeOrRanged(m, r), Reach::Melee) => {
                Distance::MeleeOrRanged(m.saturating_add(extra), r)
            }
            (d, _) => d,
        };
        if let Some(roll) = out.power_roll.as_mut() {
            for (line, bonus) in roll
                .tiers_mut()
                .into_iter()
                .zip([damage.0, damage.1, damage.2])
            {
                if let Some(Effect::Damage { base, .. }) = line
                    .effects
                    .iter_mut()
                    .find(|e| matches!(e, Effect::Damage { .. }))
                {
                    *base = base.saturating_add(bonus);
                    line.text = add_to_first_damage(&line.text, bonus);
                }
            }
        }
        Some(out)
    }
}

/// A tier line's text with `bonus` added to the number its first damage
/// starts with (the first segment that starts with a digit).
fn add_to_first_damage(text: &str, bonus: i32) -> String {
    let mut done = false;
    let segments: Vec<String> = text
        .split(';')
        .map(|seg| {
            let lead = seg.len() - seg.trim_start().len();
            let digits: String = seg[lead..]
                .chars()
                .take_while(|c| c.is_ascii_digit())
                .collect();
            match digits.parse::<i32>() {
                Ok(n) if !done => {
                    done = true;
                    format!(
                        "{}{}{}",
                        &seg[..lead],
                        n.saturating_add(bonus),
                        &seg[lead + digits.len()..]
                    )
                }
                _ => seg.to_string(),
            }
        })
        .collect();
    segments.join(";")
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reach {
    Melee,
    Ranged,
}

/// The id of `ability` as a hero with `kit` knows it.
pub fn kit_ability_id(ability: &str, kit: &str) -> String {
    format!("{ability}@{kit}")
}

/// What an ancestry gives (docs/rules.md#ancestries).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Trait {
    /// Speed this much higher.
    Speed(u32),
    /// Stability this much higher.
    Stability(u32),
    /// This much more stamina for each echelon.
    Stamina(i32),
    /// This many more recoveries.
    Recoveries(u32),
    /// The hero's size (`"1S"`, `"1L"`).
    Size(Size),
    /// Ways of moving besides walking.
    Movement(Vec<MoveMode>),
    /// Immunity to a damage type equal to the hero's level.
    Immunity(DamageType),
    /// Creature tags (`["Undead"]`) besides the class's.
    Tags(Vec<String>),
}

/// An ancestry: where a hero comes from, and the traits it brings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ancestry {
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub description: String,
    /// The trait's name and what it says, for the card.
    pub trait_name: String,
    pub trait_text: String,
    pub traits: Vec<Trait>,
}

impl HasId for Ancestry {
    fn id(&self) -> &str {
        &self.id
    }
}

impl Ancestry {
    pub fn problems(&self) -> Vec<(&'static str, String)> {
        let mut p = Vec::new();
        if self.traits.is_empty() {
            p.push(("traits", "an ancestry needs at least one trait".into()));
        }
        for t in &self.traits {
            match t {
                Trait::Speed(n) | Trait::Stability(n) if *n > 3 => {
                    p.push(("traits", format!("{t:?} is more than 3")))
                }
                Trait::Stamina(n) if !(0..=20).contains(n) => {
                    p.push(("traits", format!("{t:?} is outside 0 to 20")))
                }
                Trait::Recoveries(n) if *n > 5 => {
                    p.push(("traits", format!("{t:?} is more than 5")))
                }
                Trait::Size(s) if s.squares() > 1 => {
                    p.push(("traits", "a hero's size is 1T, 1S, 1M or 1L".into()))
                }
                _ => {}
            }
        }
        p
    }
}

/// What a hero fights with: [`build`]'s answer.
#[derive(Clone, Debug, PartialEq)]
pub struct HeroBuild {
    pub stamina: i32,
    pub recoveries: u32,
    pub characteristics: Characteristics,
    pub speed: u32,
    pub stability: u32,
    pub size: Size,
    pub movement: Vec<MoveMode>,
    pub damage: DamageTraits,
    pub tags: Vec<String>,
    /// Ability ids, the kit's versions where it changes them.
    pub abilities: Vec<String>,
    pub free_strike: i32,
    pub trigger_amount: u32,
    /// Heroic resource at the start of each turn besides the class's gain.
    pub resource_per_turn: u32,
    /// Heroic resource at the start of the encounter, victories included.
    pub starting_resource: u32,
    /// The subclass's id, if the class has any.
    pub subclass: Option<String>,
}

/// The row of `class`'s table for `level`.
pub fn row(class: &Class, level: u32) -> Option<&LevelRow> {
    class.progression.iter().find(|r| r.level == level)
}

/// The abilities `class` (and `subclass`) give at `level`: the class's
/// signature abilities and features, then one ability of the class's list for
/// each cost of the Abilities column and one of the subclass's for each
/// cost of the subclass column. A cost is filled by the hero's `picks`
/// first, then by the list's first unchosen ability of that cost.
pub fn abilities_at(
    class: &Class,
    subclass: Option<&Subclass>,
    level: u32,
    picks: &[String],
    db: &ContentDb,
) -> Result<Vec<String>, String> {
    let row = row(class, level)
        .ok_or_else(|| format!("class `{}` has no row for level {level}", class.id))?;
    let cost = |id: &str| db.ability(id).map(|a| a.cost);
    let mut out: Vec<String> = class.features.clone();
    out.extend(
        class
            .abilities
            .iter()
            // Signature abilities and features (triggered abilities with no
            // heroic cost) are known at every level.
            .filter(|id| !matches!(cost(id), Some(Cost::Heroic(_))))
            .cloned(),
    );
    let mut fill = |pool: &[String], costs: &[u32], whose: &str| -> Result<(), String> {
        let mut sorted = costs.to_vec();
        sorted.sort_unstable();
        for c in sorted {
            let free = |id: &&String| cost(id) == Some(Cost::Heroic(c)) && !out.contains(id);
            let pick = picks
                .iter()
                .filter(|p| pool.contains(p))
                .find(free)
                .or_else(|| pool.iter().find(free));
            match pick {
                Some(id) => out.push(id.clone()),
                None => {
                    return Err(format!(
                        "{whose} has no ability costing {c} left for level {level}"
                    ));
                }
            }
        }
        Ok(())
    };
    fill(
        &class.abilities,
        &row.abilities,
        &format!("class `{}`", class.id),
    )?;
    if let Some(s) = subclass {
        fill(&s.abilities, &row.subclass, &format!("subclass `{}`", s.id))?;
    }
    for p in picks {
        if !out.contains(p) {
            return Err(format!(
                "`{p}` is not one of the class's or subclass's abilities with a place at level {level}"
            ));
        }
    }
    Ok(out)
}

/// The hero `def` as it fights: its class's table at its level, its
/// subclass (the class's first when it names none), kit and ancestry.
/// Errors name what is wrong (an unknown id, a level off the table).
pub fn build(def: &HeroDef, db: &ContentDb) -> Result<HeroBuild, String> {
    let class = db
        .classes
        .get(&def.class)
        .ok_or_else(|| format!("unknown class `{}`", def.class))?;
    if !(1..=MAX_LEVEL).contains(&def.level) {
        return Err(format!("level {} is outside 1 to {MAX_LEVEL}", def.level));
    }
    let subclass = match &def.subclass {
        Some(id) => Some(
            class
                .subclasses
                .iter()
                .find(|s| &s.id == id)
                .ok_or_else(|| {
                    let known: Vec<&str> = class.subclasses.iter().map(|s| s.id.as_str()).collect();
                    format!(
                        "class `{}` has no subclass `{id}` (known: {})",
                        class.id,
                        known.join(", ")
                    )
                })?,
        ),
        None => class.subclasses.first(),
    };
    let kit = match &def.kit {
        Some(id) => Some(
            db.kits
                .get(id)
                .ok_or_else(|| format!("unknown kit id `{id}`"))?,
        ),
        None => None,
    };
    let ancestry = match &def.ancestry {
        Some(id) => Some(
            db.ancestries
                .get(id)
                .ok_or_else(|| format!("unknown ancestry id `{id}`"))?,
        ),
        None => None,
    };
    let mut abilities = abilities_at(class, subclass, def.level, &def.picks, db)?;
    abilities.extend(def.abilities.iter().cloned());
    let rows = class.progression.iter().filter(|r| r.level <= def.level);
    let mut characteristics = def.characteristics.unwrap_or(class.characteristics);
    let mut recoveries = class.recoveries;
    let mut trigger_amount = class.resource_trigger_amount;
    let mut per_turn = 0;
    let mut starting = 0;
    for r in rows {
        for &c in &r.raise {
            let v = characteristics.get(c);
            characteristics.set(c, (v + 1).min(MAX_CHARACTERISTIC).max(v));
        }
        recoveries = recoveries.saturating_add(r.recoveries);
        trigger_amount = r.trigger_amount.unwrap_or(trigger_amount);
        per_turn = r.resource_per_turn.unwrap_or(per_turn);
        starting = r.starting_resource.unwrap_or(starting);
    }
    let ech = echelon(def.level) as i32;
    let mut b = HeroBuild {
        stamina: class.stamina_at(def.level),
        recoveries,
        characteristics,
        speed: class.speed,
        stability: class.stability,
        size: Size::default(),
        movement: Vec::new(),
        damage: DamageTraits::default(),
        tags: class.tags.clone(),
        abilities,
        free_strike: class.free_strike,
        trigger_amount,
        resource_per_turn: per_turn,
        starting_resource: starting.saturating_add(def.victories),
        subclass: subclass.map(|s| s.id.clone()),
    };
    if let Some(k) = kit {
        b.stamina += k.stamina * ech;
        b.speed += k.speed;
        b.stability += k.stability;
        b.free_strike += k.melee_damage.0.max(k.ranged_damage.0);
        for id in &mut b.abilities {
            let changed = kit_ability_id(id, &k.id);
            if db.abilities.contains_key(&changed) {
                *id = changed;
            }
        }
    }
    if let Some(a) = ancestry {
        for t in &a.traits {
            match t {
                Trait::Speed(n) => b.speed += n,
                Trait::Stability(n) => b.stability += n,
                Trait::Stamina(n) => b.stamina += n * ech,
                Trait::Recoveries(n) => b.recoveries = b.recoveries.saturating_add(*n),
                Trait::Size(s) => b.size = *s,
                Trait::Movement(m) => b.movement.extend(m.iter().copied()),
                Trait::Immunity(t) => b
                    .damage
                    .immunities
                    .push((DamageFilter::Only(*t), Amount::Value(def.level as i32))),
                Trait::Tags(t) => b.tags.extend(t.iter().cloned()),
            }
        }
    }
    Ok(b)
}

/// What is wrong with a class's table and subclasses: every level from 1 to
/// 10 once, in order; each column keeps what the level before had; the
/// class's list and each subclass's hold abilities enough of every cost.
pub fn table_problems(class: &Class, db: &ContentDb) -> Vec<(&'static str, String)> {
    let mut p = Vec::new();
    let levels: Vec<u32> = class.progression.iter().map(|r| r.level).collect();
    if levels != (1..=MAX_LEVEL).collect::<Vec<_>>() {
        p.push((
            "progression",
            format!("the progression table needs one row for each level 1 to {MAX_LEVEL}, in order (has {levels:?})"),
        ));
        return p;
    }
    let holds = |big: &[u32], small: &[u32]| {
        let mut rest = big.to_vec();
        small
            .iter()
            .all(|c| match rest.iter().position(|x| x == c) {
                Some(i) => {
                    rest.remove(i);
                    true
                }
                None => false,
            })
    };
    for w in class.progression.windows(2) {
        if !holds(&w[1].abilities, &w[0].abilities) || !holds(&w[1].subclass, &w[0].subclass) {
            p.push((
                "progression",
                format!(
                    "level {} loses an ability that level {} has (each row lists all the abilities of its level)",
                    w[1].level, w[0].level
                ),
            ));
        }
    }
    for r in &class.progression {
        for (what, n, most) in [
            ("recoveries", r.recoveries, 10),
            ("trigger_amount", r.trigger_amount.unwrap_or(0), 10),
            ("resource_per_turn", r.resource_per_turn.unwrap_or(0), 10),
            ("starting_resource", r.starting_resource.unwrap_or(0), 20),
        ] {
            if n > most {
                p.push((
                    "progression",
                    format!("level {}: {what} {n} is more than {most}", r.level),
                ));
            }
        }
        for c in r.abilities.iter().chain(&r.subclass) {
            if !(1..=20).contains(c) {
                p.push((
                    "progression",
                    format!("level {}: cost {c} is outside 1 to 20", r.level),
                ));
            }
        }
    }
    if class.subclasses.is_empty() && class.progression.iter().any(|r| !r.subclass.is_empty()) {
        p.push((
            "subclasses",
            "the table has a subclass column but the class has no subclass".into(),
        ));
    }
    for s in class
        .subclasses
        .iter()
        .map(Some)
        .chain(class.subclasses.is_empty().then_some(None))
    {
        for r in &class.progression {
            if let Err(e) = abilities_at(class, s, r.level, &[], db) {
                p.push(("progression", e));
                break;
            }
        }
    }
    for f in &class.features {
        if class.abilities.contains(f) || class.subclasses.iter().any(|s| s.abilities.contains(f)) {
            p.push((
                "features",
                format!("`{f}` is a feature and in the class's or a subclass's list"),
            ));
        }
    }
    for s in &class.subclasses {
        for a in &s.abilities {
            if class.abilities.contains(a) {
                p.push((
                    "subclasses",
                    format!("`{a}` is in both the class's list and subclass `{}`", s.id),
                ));
            }
        }
    }
    p
}

/// The class's and its subclasses' heroic abilities whose cost has no
/// place in the table's column for them, each with a message.
pub fn unplaced(class: &Class, db: &ContentDb) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let costs = |col: &dyn Fn(&LevelRow) -> &Vec<u32>| {
        let mut c: Vec<u32> = class
            .progression
            .iter()
            .flat_map(|r| col(r).clone())
            .collect();
        c.sort_unstable();
        c.dedup();
        c
    };
    let lists = [
        (
            costs(&|r| &r.abilities),
            class.abilities.iter().collect::<Vec<_>>(),
            "Abilities",
        ),
        (
            costs(&|r| &r.subclass),
            class.subclasses.iter().flat_map(|s| &s.abilities).collect(),
            "subclass",
        ),
    ];
    for (placed, ids, column) in lists {
        for id in ids {
            if let Some(Cost::Heroic(n)) = db.ability(id).map(|a| a.cost)
                && !placed.contains(&n)
            {
                let listed: Vec<String> = placed.iter().map(u32::to_string).collect();
                out.push((
                    id.clone(),
                    format!(
                        "class `{}` lists it, but its cost {n} has no place in the table's {column} column (costs {})",
                        class.id,
                        listed.join(", ")
                    ),
                ));
            }
        }
    }
    out
}

/// Each kit's version of each weapon ability it changes, to add to the
/// content (ids from [`kit_ability_id`]).
pub fn kit_abilities<'a>(
    kits: impl Iterator<Item = &'a Kit>,
    abilities: impl Iterator<Item = &'a Ability> + Clone,
) -> Vec<Ability> {
    let mut out = Vec::new();
    for k in kits {
        out.extend(abilities.clone().filter_map(|a| k.apply(a)));
    }
    out
}

#[cfg(test)]
mod tests;
