//! Damage read off a fight's log, credited as the log says: to whoever
//! dealt it (its `by`: an ability's or aura's user, a glyph's maker, the
//! creature whose forced movement caused a collision), and taken by its
//! target; and kills, to whoever the log credits (a summon's owner). The one count the simulator's report and the window's
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
    /// Kills, credited as the log says (a summon's to its owner).
    pub kills: BTreeMap<CreatureId, i64>,
}

impl DamageTally {
    pub fn of(log: &[LogEntry]) -> DamageTally {
        let mut t = DamageTally::default();
        for entry in log {
            match entry {
                LogEntry::Damage {
                    target, amount, by, ..
                } => {
                    if let Some(dealer) = by {
                        *t.dealt.entry(*dealer).or_default() += i64::from(*amount);
                    }
                    *t.taken.entry(*target).or_default() += i64::from(*amount);
                }
                LogEntry::Died {
                    kill_for: Some(k), ..
                } => *t.kills.entry(*k).or_default() += 1,
                _ => {}
            }
        }
        t
    }

    /// All the damage the creatures of `side` dealt (`side_of` says whose
    /// a creature is).
    pub fn dealt_by(&self, side: Side, side_of: impl Fn(CreatureId) -> Option<Side>) -> i64 {
        sum_of(&self.dealt, side, side_of)
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

#[cfg(test)]
mod tests {
    use super::*;

    // docs/rules.md#summons: "Summon kills are credited to the owner of the
    // summon": the tally counts the log's credit, not the feller.
    #[test]
    fn kills_go_to_whom_the_log_credits() {
        let (ren, wolf, rat, bat) = (CreatureId(1), CreatureId(9), CreatureId(3), CreatureId(4));
        let died = |creature, by, kill_for| LogEntry::Died {
            creature,
            name: String::new(),
            by,
            kill_for,
        };
        let log = vec![
            died(rat, Some(wolf), Some(ren)),
            died(bat, Some(ren), Some(ren)),
            // Bled out: nobody's kill.
            died(CreatureId(5), None, None),
        ];
        let t = DamageTally::of(&log);
        assert_eq!(t.kills.get(&ren), Some(&2));
        assert_eq!(t.kills.get(&wolf), None);
        assert_eq!(t.kills.values().sum::<i64>(), 2);
    }
}
