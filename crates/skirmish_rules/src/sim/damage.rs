//! Damage read off a fight's log, credited as the log says: to whoever
//! dealt it (its `by`: an ability's or aura's user, a glyph's maker, the
//! creature whose forced movement caused a collision), and taken by its
//! target. The one count the simulator's report and the window's
//! end-of-fight summary both show, so the two always agree.

use std::collections::BTreeMap;

use crate::encounter::LogEntry;
use crate::map::Side;
use crate::stats::CreatureId;

/// Damage dealt and taken per creature over a log.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DamageTally {
    pub dealt: BTreeMap<CreatureId, i64>,
    pub taken: BTreeMap<CreatureId, i64>,
}

impl DamageTally {
    pub fn of(log: &[LogEntry]) -> DamageTally {
        let mut t = DamageTally::default();
        for entry in log {
            if let LogEntry::Damage {
                target, amount, by, ..
            } = entry
            {
                if let Some(dealer) = by {
                    *t.dealt.entry(*dealer).or_default() += i64::from(*amount);
                }
                *t.taken.entry(*target).or_default() += i64::from(*amount);
            }
        }
        t
    }

    /// All the damage the creatures of `side` dealt (`side_of` says whose
    /// a creature is).
    pub fn dealt_by(&self, side: Side, side_of: impl Fn(CreatureId) -> Option<Side>) -> i64 {
        sum_of(&self.dealt, side, side_of)
    }

    /// All the damage the creatures of `side` took.
    pub fn taken_by(&self, side: Side, side_of: impl Fn(CreatureId) -> Option<Side>) -> i64 {
        sum_of(&self.taken, side, side_of)
    }
}

fn sum_of(
    per: &BTreeMap<CreatureId, i64>,
    side: Side,
    side_of: impl Fn(CreatureId) -> Option<Side>,
) -> i64 {
    per.iter()
        .filter(|(id, _)| side_of(**id) == Some(side))
        .map(|(_, n)| n)
        .sum()
}
