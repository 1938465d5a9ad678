//! The charges a listing offers: against each creature, the shortest
//! straight run that ends within reach (docs/rules.md#charge), for a free
//! strike or each ability with the Charge keyword.

use super::*;

/// An ability with the Charge keyword a creature could end a charge with
/// now: its melee reach and whom it may target.
pub(crate) struct ChargeWith<'a> {
    pub(super) ability: &'a str,
    pub(super) reach: u32,
    pub(super) kinds: &'a [crate::ability::TargetKind],
}

/// Charge commands (docs/rules.md#charge: "move up to your speed in a straight
/// line (no difficult terrain, no shifting) then make a melee free strike
/// or use an ability with the Charge keyword against a creature you
/// reached"): for each enemy, the shortest straight run to a square
/// adjacent to it, ending in a free strike; then, for each creature each of
/// `with` may target, the shortest run to a square within its reach, ending
/// in that ability (docs/rules.md#charge: "Abilities with the Charge keyword
/// can be used with the Charge main action instead of a melee free
/// strike"). A run moves at least one square.
pub(crate) fn charges(
    creatures: &[crate::map::Occupant],
    mover: Mover,
    runs: &crate::map::movement::Runs,
    with: &[ChargeWith],
) -> Vec<Command> {
    let slots = charge_slots(creatures, mover, with);
    let ends = charge_slot_ends(runs, mover, &slots);
    slots
        .iter()
        .zip(ends)
        .filter_map(|(s, end)| s.command(mover.id, runs, end?))
        .collect()
}

/// A charge [`charges`] could list: whom it is against, within what reach
/// of it its run must end, and the ability it ends in (none: a free
/// strike). Whether a run gets there is [`charge_slot_ends`]'.
pub(crate) struct ChargeSlot {
    target: CreatureId,
    space: crate::map::Footprint,
    reach: u32,
    ability: Option<String>,
}

impl ChargeSlot {
    /// The charge as a command, its run to `end` read back from `runs`.
    pub(super) fn command(
        &self,
        creature: CreatureId,
        runs: &crate::map::movement::Runs,
        end: crate::map::Pos,
    ) -> Option<Command> {
        Some(Command::Charge {
            creature,
            path: runs.path_to(end)?,
            target: self.target,
            ability: self.ability.clone(),
        })
    }
}

/// The charges [`charges`] looks for, in its order, before any run is
/// searched: for each creature within the speed and the longest reach, a
/// free strike if it is an enemy, then each of `with` that may target it.
pub(crate) fn charge_slots(
    creatures: &[crate::map::Occupant],
    mover: Mover,
    with: &[ChargeWith],
) -> Vec<ChargeSlot> {
    // (Room for the most there could be at once, not grown as they come.)
    let mut out = Vec::with_capacity(creatures.len().saturating_mul(1 + with.len()));
    let reach = longest_reach(with);
    for o in creatures.iter().filter(|o| o.id != mover.id) {
        // Beyond any run and reach: nothing to look for.
        if mover.space.distance(o.space) > mover.speed.saturating_add(reach) {
            continue;
        }
        let slot = |reach: u32, ability: Option<&str>| ChargeSlot {
            target: o.id,
            space: o.space,
            reach,
            ability: ability.map(str::to_string),
        };
        if o.side != mover.side {
            out.push(slot(1, None));
        }
        for w in with {
            if eligible(w.kinds, mover.side, mover.id, o) {
                out.push(slot(w.reach, Some(w.ability)));
            }
        }
    }
    out
}

/// Where each of `slots`' runs ends: the shortest straight run of `runs`
/// within its reach of its target ([`shortest_run`]; none if no run gets
/// there), found once for each target and reach (a target's slots stand
/// together).
pub(crate) fn charge_slot_ends(
    runs: &crate::map::movement::Runs,
    mover: Mover,
    slots: &[ChargeSlot],
) -> Vec<Option<crate::map::Pos>> {
    let mut out: Vec<Option<crate::map::Pos>> = Vec::with_capacity(slots.len());
    for (k, s) in slots.iter().enumerate() {
        let found = slots[..k]
            .iter()
            .zip(&out)
            .rev()
            .take_while(|(t, _)| t.target == s.target)
            .find(|(t, _)| t.reach == s.reach)
            .map(|(_, &end)| end);
        out.push(found.unwrap_or_else(|| shortest_run(runs, mover, s.space, s.reach)));
    }
    out
}

/// The longest melee reach a charge could end in: a free strike's 1, or
/// one of `with`'s.
pub(super) fn longest_reach(with: &[ChargeWith]) -> u32 {
    with.iter().map(|w| w.reach).max().unwrap_or(1).max(1)
}

/// The boxes of squares a charge could end on: one around each creature a
/// charge could be against (each enemy, and each creature one of `with`
/// may target), within the longest reach, for those that come within the
/// speed of the start along both axes.
pub(crate) fn run_areas(
    creatures: &[crate::map::Occupant],
    mover: Mover,
    with: &[ChargeWith],
) -> Vec<(crate::map::Pos, crate::map::Pos)> {
    let reach = longest_reach(with);
    let (o, speed) = (mover.space.pos, mover.speed.min(i32::MAX as u32) as i32);
    creatures
        .iter()
        .filter(|c| {
            c.id != mover.id
                && (c.side != mover.side
                    || with
                        .iter()
                        .any(|w| eligible(w.kinds, mover.side, mover.id, c)))
        })
        .map(|c| within_reach(c.space, mover.space.size, reach))
        .filter(|(lo, hi)| {
            lo.x <= o.x.saturating_add(speed)
                && hi.x >= o.x.saturating_sub(speed)
                && lo.y <= o.y.saturating_add(speed)
                && hi.y >= o.y.saturating_sub(speed)
        })
        .collect()
}

/// The box of top-left squares from which a creature of `size` could be
/// within `reach` of `target` (as its corners).
pub(super) fn within_reach(
    target: crate::map::Footprint,
    size: u32,
    reach: u32,
) -> (crate::map::Pos, crate::map::Pos) {
    let (m, r) = (size as i32, reach.min(crate::content::MAX_DISTANCE) as i32);
    let s = target.size as i32;
    (
        target.pos.offset(-m - r + 1, -m - r + 1),
        target.pos.offset(s + r - 1, s + r - 1),
    )
}

/// Where the shortest straight run of `runs` ending within `reach` of
/// `target` (and not on the start) ends, the first in map order of the
/// shortest.
pub(super) fn shortest_run(
    runs: &crate::map::movement::Runs,
    mover: Mover,
    target: crate::map::Footprint,
    reach: u32,
) -> Option<crate::map::Pos> {
    let (lo, hi) = within_reach(target, mover.space.size, reach);
    let mut best: Option<(u32, crate::map::Pos)> = None;
    for y in lo.y..=hi.y {
        for x in lo.x..=hi.x {
            let dest = crate::map::Pos::new(x, y);
            let Some(steps) = runs.steps_to(dest) else {
                continue;
            };
            let apart = crate::map::Footprint::new(dest, mover.space.size).distance(target);
            if dest != mover.space.pos
                && (1..=reach).contains(&apart)
                && best.is_none_or(|(b, _)| steps < b)
            {
                best = Some((steps, dest));
            }
        }
    }
    Some(best?.1)
}
