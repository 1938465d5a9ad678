//! Creatures' numbers: characteristics, potency, damage types with immunity
//! and weakness, stamina, recoveries.

use std::fmt;

use bevy_ecs::prelude::*;
use serde::{Deserialize, Serialize};

/// A stable id for a creature in an encounter, kept in saves and replays
/// (entities are not stable across a save and load).
#[derive(
    Component, Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
pub struct CreatureId(pub u32);

impl fmt::Display for CreatureId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// The five characteristics.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Characteristic {
    Might,
    Agility,
    Reason,
    Intuition,
    Presence,
}

impl Characteristic {
    pub const ALL: [Characteristic; 5] = [
        Characteristic::Might,
        Characteristic::Agility,
        Characteristic::Reason,
        Characteristic::Intuition,
        Characteristic::Presence,
    ];

    /// The one-letter abbreviation the rules print (M, A, R, I, P).
    pub fn letter(self) -> char {
        match self {
            Characteristic::Might => 'M',
            Characteristic::Agility => 'A',
            Characteristic::Reason => 'R',
            Characteristic::Intuition => 'I',
            Characteristic::Presence => 'P',
        }
    }

    pub fn from_letter(c: char) -> Option<Characteristic> {
        Characteristic::ALL.into_iter().find(|ch| ch.letter() == c)
    }
}

impl fmt::Display for Characteristic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

/// A creature's five characteristic scores.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Characteristics {
    pub might: i32,
    pub agility: i32,
    pub reason: i32,
    pub intuition: i32,
    pub presence: i32,
}

impl Characteristics {
    pub fn get(&self, c: Characteristic) -> i32 {
        match c {
            Characteristic::Might => self.might,
            Characteristic::Agility => self.agility,
            Characteristic::Reason => self.reason,
            Characteristic::Intuition => self.intuition,
            Characteristic::Presence => self.presence,
        }
    }

    pub fn set(&mut self, c: Characteristic, v: i32) {
        match c {
            Characteristic::Might => self.might = v,
            Characteristic::Agility => self.agility = v,
            Characteristic::Reason => self.reason = v,
            Characteristic::Intuition => self.intuition = v,
            Characteristic::Presence => self.presence = v,
        }
    }

    /// The highest score: used for potency and for surge damage.
    pub fn highest(&self) -> i32 {
        Characteristic::ALL
            .into_iter()
            .map(|c| self.get(c))
            .max()
            .unwrap_or(0)
    }

    /// The best of several characteristics ("M or A"), with the one chosen.
    pub fn best_of(&self, options: &[Characteristic]) -> Option<(Characteristic, i32)> {
        options
            .iter()
            .map(|&c| (c, self.get(c)))
            .max_by_key(|&(_, v)| v)
    }
}

/// Potency strength, as abilities print it (`A < WEAK`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum PotencyStrength {
    Weak,
    Average,
    Strong,
}

impl PotencyStrength {
    /// docs/rules.md#potency: weak is the highest characteristic -2, average -1,
    /// strong the highest characteristic itself.
    pub fn offset(self) -> i32 {
        match self {
            PotencyStrength::Weak => -2,
            PotencyStrength::Average => -1,
            PotencyStrength::Strong => 0,
        }
    }
}

/// Surges spent to raise one target's potency by 1 (docs/rules.md#surges).
pub const SURGES_PER_POTENCY: u32 = 2;

/// The potency value of a creature whose highest characteristic is `highest`,
/// with `adjustment` from effects (for example +1 for 2 surges, -1 from a
/// null field).
pub fn potency_value(highest: i32, strength: PotencyStrength, adjustment: i32) -> i32 {
    highest + strength.offset() + adjustment
}

/// docs/rules.md#potency: the effect applies only if the potency value is
/// higher than the target's score ("if the target's [characteristic] is less
/// than [potency value], they [suffer effect]").
pub fn potency_applies(target_score: i32, potency: i32) -> bool {
    target_score < potency
}

/// The damage types (docs/rules.md#damage-types).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum DamageType {
    Untyped,
    Acid,
    Cold,
    Corruption,
    Fire,
    Holy,
    Lightning,
    Poison,
    Psychic,
    Sonic,
}

/// docs/rules.md#objects: the damage an object takes of a tier's damage:
/// "objects have poison immunity all and psychic immunity all".
pub fn object_damage(damage: &[(i32, DamageType)]) -> i32 {
    damage
        .iter()
        .filter(|(_, t)| !matches!(t, DamageType::Poison | DamageType::Psychic))
        .map(|(n, _)| (*n).max(0))
        .sum()
}

impl DamageType {
    pub const TYPED: [DamageType; 9] = [
        DamageType::Acid,
        DamageType::Cold,
        DamageType::Corruption,
        DamageType::Fire,
        DamageType::Holy,
        DamageType::Lightning,
        DamageType::Poison,
        DamageType::Psychic,
        DamageType::Sonic,
    ];

    /// The word the rules print before "damage" ("holy damage").
    pub fn word(self) -> &'static str {
        match self {
            DamageType::Untyped => "",
            DamageType::Acid => "acid",
            DamageType::Cold => "cold",
            DamageType::Corruption => "corruption",
            DamageType::Fire => "fire",
            DamageType::Holy => "holy",
            DamageType::Lightning => "lightning",
            DamageType::Poison => "poison",
            DamageType::Psychic => "psychic",
            DamageType::Sonic => "sonic",
        }
    }

    pub fn from_word(word: &str) -> Option<DamageType> {
        DamageType::TYPED.into_iter().find(|t| t.word() == word)
    }
}

/// Which damage an immunity or weakness applies to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum DamageFilter {
    /// Every type of damage ("damage immunity 2").
    Any,
    Only(DamageType),
}

impl DamageFilter {
    pub fn matches(self, t: DamageType) -> bool {
        match self {
            DamageFilter::Any => true,
            DamageFilter::Only(x) => x == t,
        }
    }
}

/// How much an immunity or weakness is worth.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Amount {
    Value(i32),
    /// "immunity all": no damage of that type at all.
    All,
}

/// A creature's damage immunities and weaknesses.
#[derive(Component, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct DamageTraits {
    pub immunities: Vec<(DamageFilter, Amount)>,
    pub weaknesses: Vec<(DamageFilter, i32)>,
}

impl DamageTraits {
    /// Objects' default traits: poison and psychic immunity all (docs/rules.md#objects).
    pub fn object() -> Self {
        DamageTraits {
            immunities: vec![
                (DamageFilter::Only(DamageType::Poison), Amount::All),
                (DamageFilter::Only(DamageType::Psychic), Amount::All),
            ],
            weaknesses: vec![],
        }
    }

    /// The damage actually taken from `amount` damage of type `t`.
    ///
    /// docs/rules.md#damage-types: "Damage weakness is applied before immunity; only
    /// the highest weakness and the highest immunity of a type count."
    pub fn apply(&self, amount: i32, t: DamageType) -> i32 {
        if amount <= 0 {
            return 0;
        }
        let weakness = self
            .weaknesses
            .iter()
            .filter(|(f, _)| f.matches(t))
            .map(|&(_, v)| v)
            .max()
            .unwrap_or(0)
            .max(0);
        let immunity = self
            .immunities
            .iter()
            .filter(|(f, _)| f.matches(t))
            .map(|&(_, v)| v)
            .max();
        let weakened = amount.saturating_add(weakness);
        match immunity {
            Some(Amount::All) => 0,
            Some(Amount::Value(v)) => weakened.saturating_sub(v.max(0)).max(0),
            None => weakened,
        }
    }
}

/// Whether a creature is a hero (dies at minus its winded value) or a
/// Director creature (dies at 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LifeRule {
    Hero,
    Director,
}

/// Where a creature stands between healthy and dead.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Health {
    Healthy,
    Winded,
    Dying,
    Dead,
}

/// Stamina, temporary stamina and recoveries.
#[derive(Component, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stamina {
    pub current: i32,
    pub max: i32,
    pub temporary: i32,
    pub recoveries: u32,
    pub rule: LifeRule,
}

impl Stamina {
    pub fn new(max: i32, recoveries: u32, rule: LifeRule) -> Self {
        Stamina {
            current: max,
            max,
            temporary: 0,
            recoveries,
            rule,
        }
    }

    /// Winded value: half the maximum, rounded down.
    pub fn winded_value(&self) -> i32 {
        self.max / 2
    }

    /// Recovery value: a third of maximum stamina, rounded down (docs/rules.md#stamina).
    pub fn recovery_value(&self) -> i32 {
        self.max / 3
    }

    /// docs/rules.md#stamina: winded at half maximum or less; a hero at 0 or
    /// less is dying and dies at minus their winded value; Director creatures
    /// die at 0.
    pub fn health(&self) -> Health {
        match self.rule {
            LifeRule::Hero if self.current <= -self.winded_value() => Health::Dead,
            LifeRule::Hero if self.current <= 0 => Health::Dying,
            LifeRule::Director if self.current <= 0 => Health::Dead,
            _ if self.current <= self.winded_value() => Health::Winded,
            _ => Health::Healthy,
        }
    }

    pub fn is_dead(&self) -> bool {
        self.health() == Health::Dead
    }

    /// Take damage (already reduced by immunity): temporary stamina goes first.
    /// Returns the stamina actually lost (not counting temporary stamina).
    pub fn take_damage(&mut self, amount: i32) -> i32 {
        let amount = amount.max(0);
        let from_temp = amount.min(self.temporary);
        self.temporary -= from_temp;
        let rest = amount - from_temp;
        self.current = self.current.saturating_sub(rest);
        rest
    }

    /// Lose stamina that temporary stamina does not absorb (bleeding).
    pub fn lose(&mut self, amount: i32) {
        self.current = self.current.saturating_sub(amount.max(0));
    }

    /// Heal, never above the maximum. Returns how much was regained.
    pub fn heal(&mut self, amount: i32) -> i32 {
        let before = self.current;
        // A dying hero heals from their negative stamina up.
        self.current = self.current.saturating_add(amount.max(0)).min(self.max);
        self.current - before
    }

    /// docs/rules.md#stamina: temporary stamina doesn't stack (keep the higher).
    pub fn gain_temporary(&mut self, amount: i32) {
        self.temporary = self.temporary.max(amount);
    }

    /// Spend a recovery to regain the recovery value. False if none are left.
    pub fn spend_recovery(&mut self) -> bool {
        if self.recoveries == 0 {
            return false;
        }
        self.recoveries -= 1;
        let value = self.recovery_value();
        self.heal(value);
        true
    }
}

/// docs/rules.md#grabbed: "A creature can grab only creatures of their size
/// or smaller. If a creature's Might score is 2 or higher, they can grab any
/// creature larger than them with a size equal to or less than their Might
/// score" (a one-square creature, 1T to 1L, is size 1 for that).
pub fn may_grab(grabber: Size, might: i32, target: Size) -> bool {
    target <= grabber || (might >= 2 && target.number() as i32 <= might)
}

#[cfg(test)]
mod tests {
    use super::*;

    // docs/rules.md#potency: weak = highest - 2, average = highest - 1, strong = highest.
    // The worked example: a conduit with Intuition 2 has weak 0, average 1, strong 2.
    #[test]
    fn potency_values_from_highest_characteristic() {
        let conduit = Characteristics {
            intuition: 2,
            might: 0,
            agility: 1,
            ..Default::default()
        };
        let h = conduit.highest();
        assert_eq!(potency_value(h, PotencyStrength::Weak, 0), 0);
        assert_eq!(potency_value(h, PotencyStrength::Average, 0), 1);
        assert_eq!(potency_value(h, PotencyStrength::Strong, 0), 2);
    }

    // docs/rules.md#potency: "the bandit resists the additional effect because they have
    // Agility 0 (and therefore don't have an Agility of less than 0)".
    #[test]
    fn potency_check_is_strictly_less_than() {
        assert!(!potency_applies(0, 0));
        assert!(potency_applies(0, 1));
        assert!(!potency_applies(1, 1));
    }

    // docs/rules.md#surges: "spend 2 surges to increase the potency by 1 for one target".
    #[test]
    fn two_surges_raise_potency_by_one() {
        let weak = potency_value(2, PotencyStrength::Weak, 0);
        let boosted = potency_value(
            2,
            PotencyStrength::Weak,
            (4 / SURGES_PER_POTENCY).min(1) as i32,
        );
        assert_eq!(boosted, weak + 1);
        assert!(!potency_applies(0, weak));
        assert!(potency_applies(0, boosted));
    }

    // Content may hold any number (a weakness, a stamina): stamina and
    // damage arithmetic saturates rather than overflowing (a panic in a
    // debug build, a wrong sign in a release one).
    #[test]
    fn stamina_and_damage_arithmetic_saturates() {
        let mut s = Stamina::new(i32::MAX, 0, LifeRule::Director);
        s.current = i32::MAX - 1;
        assert_eq!(s.heal(i32::MAX), 1);
        assert_eq!(s.current, i32::MAX);
        s.current = i32::MIN + 1;
        s.take_damage(i32::MAX);
        assert_eq!(s.current, i32::MIN);
        s.lose(5);
        assert_eq!(s.current, i32::MIN);
        let weak = DamageTraits {
            immunities: Vec::new(),
            weaknesses: vec![(DamageFilter::Any, i32::MAX)],
        };
        assert_eq!(weak.apply(5, DamageType::Fire), i32::MAX);
    }

    // docs/rules.md#stamina: "Damage weakness is applied before immunity; only
    // the highest weakness and the highest immunity of a type count."
    #[test]
    fn weakness_before_immunity_and_only_the_highest_counts() {
        let t = DamageTraits {
            immunities: vec![
                (DamageFilter::Only(DamageType::Fire), Amount::Value(3)),
                (DamageFilter::Any, Amount::Value(1)),
            ],
            weaknesses: vec![
                (DamageFilter::Only(DamageType::Fire), 5),
                (DamageFilter::Only(DamageType::Fire), 2),
            ],
        };
        // 4 fire: +5 weakness = 9, -3 immunity = 6.
        assert_eq!(t.apply(4, DamageType::Fire), 6);
        // 4 cold: only the damage immunity 1 applies.
        assert_eq!(t.apply(4, DamageType::Cold), 3);
        // Immunity never heals.
        assert_eq!(t.apply(1, DamageType::Untyped), 0);
    }

    // docs/rules.md#objects: "objects have poison immunity all and psychic immunity all".
    #[test]
    fn immunity_all() {
        let o = DamageTraits::object();
        assert_eq!(o.apply(50, DamageType::Poison), 0);
        assert_eq!(o.apply(50, DamageType::Psychic), 0);
        assert_eq!(o.apply(7, DamageType::Fire), 7);
    }

    // docs/rules.md#stamina: winded at half maximum or less; heroes dying at 0,
    // dead at minus winded value; Director creatures die at 0.
    #[test]
    fn winded_dying_dead() {
        let mut hero = Stamina::new(20, 8, LifeRule::Hero);
        assert_eq!(hero.health(), Health::Healthy);
        hero.take_damage(10);
        assert_eq!(hero.health(), Health::Winded);
        hero.take_damage(10);
        assert_eq!(hero.health(), Health::Dying);
        hero.take_damage(9);
        assert_eq!(hero.current, -9);
        assert_eq!(hero.health(), Health::Dying);
        hero.take_damage(1);
        assert_eq!(hero.health(), Health::Dead);

        let mut goblin = Stamina::new(15, 0, LifeRule::Director);
        goblin.take_damage(15);
        assert_eq!(goblin.health(), Health::Dead);
    }

    // docs/rules.md#stamina: "Temporary stamina doesn't stack (keep the higher)".
    #[test]
    fn temporary_stamina_keeps_the_higher_and_absorbs_first() {
        let mut s = Stamina::new(30, 8, LifeRule::Hero);
        s.gain_temporary(5);
        s.gain_temporary(3);
        assert_eq!(s.temporary, 5);
        assert_eq!(s.take_damage(8), 3);
        assert_eq!((s.temporary, s.current), (0, 27));
    }

    // docs/rules.md#stamina: "Recovery value: a third of maximum stamina; the
    // Catch Breath maneuver spends a recovery to heal it."
    #[test]
    fn recoveries() {
        let mut s = Stamina::new(21, 1, LifeRule::Hero);
        assert_eq!(s.recovery_value(), 7);
        s.take_damage(10);
        assert!(s.spend_recovery());
        assert_eq!(s.current, 18);
        assert!(!s.spend_recovery());
        s.heal(100);
        assert_eq!(s.current, 21);
    }
}

/// docs/rules.md#size-and-space: a creature's size: 1T, 1S, 1M and 1L all
/// fill one square, from tiny to large; 2, 3 and 4 fill that many squares
/// a side. Written in content as `1` (1M), `2`, or `"1S"`, `"1L"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "SizeSpec", into = "String")]
pub struct Size(u8);

/// How content writes a size.
#[derive(Deserialize)]
#[serde(untagged)]
enum SizeSpec {
    Number(u32),
    Text(String),
}

impl Size {
    pub const TINY: Size = Size(0);
    pub const SMALL: Size = Size(1);
    pub const MEDIUM: Size = Size(2);
    pub const LARGE: Size = Size(3);

    /// A size of `n` squares a side (1 is 1M).
    pub fn squares_of(n: u32) -> Option<Size> {
        match n {
            1 => Some(Size::MEDIUM),
            2..=4 => Some(Size(n as u8 + 2)),
            _ => None,
        }
    }

    /// The squares a side it fills.
    pub fn squares(self) -> u32 {
        if self.0 <= 3 {
            1
        } else {
            u32::from(self.0) - 2
        }
    }

    /// The number the rules compare with a Might score ("a size equal to
    /// or less than their Might score"): 1 for every one-square size.
    pub fn number(self) -> u32 {
        self.squares()
    }
}

impl Default for Size {
    fn default() -> Self {
        Size::MEDIUM
    }
}

impl std::fmt::Display for Size {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            0 => write!(f, "1T"),
            1 => write!(f, "1S"),
            2 => write!(f, "1M"),
            3 => write!(f, "1L"),
            n => write!(f, "{}", n - 2),
        }
    }
}

impl From<Size> for String {
    fn from(s: Size) -> String {
        s.to_string()
    }
}

impl TryFrom<SizeSpec> for Size {
    type Error = String;

    fn try_from(spec: SizeSpec) -> Result<Size, String> {
        let bad = |what: &str| format!("size `{what}`: expected 1T, 1S, 1M, 1L, 2, 3 or 4");
        match spec {
            SizeSpec::Number(n) => Size::squares_of(n).ok_or_else(|| bad(&n.to_string())),
            SizeSpec::Text(t) => match t.trim().to_ascii_uppercase().as_str() {
                "1T" => Ok(Size::TINY),
                "1S" => Ok(Size::SMALL),
                "1M" | "1" => Ok(Size::MEDIUM),
                "1L" => Ok(Size::LARGE),
                n => n
                    .parse::<u32>()
                    .ok()
                    .and_then(Size::squares_of)
                    .ok_or_else(|| bad(&t)),
            },
        }
    }
}

#[cfg(test)]
mod size_tests {
    use super::{Size, may_grab};

    // docs/rules.md#size-and-space: 1T < 1S < 1M < 1L < 2 < 3 < 4, the four
    // one-square sizes filling one square; `1` is 1M.
    #[test]
    fn sizes_read_order_and_fill_squares() {
        let read = |t: &str| ron::from_str::<Size>(t);
        let all: Vec<Size> = ["\"1T\"", "\"1S\"", "1", "\"1L\"", "2", "\"3\"", "4"]
            .iter()
            .map(|t| read(t).unwrap())
            .collect();
        assert!(all.windows(2).all(|w| w[0] < w[1]), "{all:?}");
        assert_eq!(read("\"1m\"").unwrap(), Size::MEDIUM);
        let squares: Vec<u32> = all.iter().map(|s| s.squares()).collect();
        assert_eq!(squares, [1, 1, 1, 1, 2, 3, 4]);
        assert_eq!(Size::LARGE.to_string(), "1L");
        for bad in ["0", "5", "\"1X\"", "\"big\""] {
            let e = read(bad).unwrap_err().to_string();
            assert!(
                e.contains("expected 1T, 1S, 1M, 1L, 2, 3 or 4"),
                "{bad}: {e}"
            );
        }
    }

    // docs/rules.md#grabbed: "of their size or smaller", or with Might 2+
    // "a size equal to or less than their Might score" (1L is size 1).
    #[test]
    fn grabbing_compares_sizes_by_subdivision() {
        assert!(!may_grab(Size::SMALL, 0, Size::MEDIUM));
        assert!(may_grab(Size::MEDIUM, 0, Size::SMALL));
        assert!(!may_grab(Size::MEDIUM, 1, Size::LARGE));
        assert!(may_grab(Size::MEDIUM, 2, Size::LARGE));
        let two = Size::squares_of(2).unwrap();
        assert!(may_grab(Size::MEDIUM, 2, two));
        assert!(!may_grab(Size::MEDIUM, 2, Size::squares_of(3).unwrap()));
    }
}

/// A monster's role (for encounter building and the AI).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Role {
    Ambusher,
    Artillery,
    Brute,
    Controller,
    Defender,
    Harrier,
    Hexer,
    Mount,
    Support,
    Leader,
    Solo,
}
