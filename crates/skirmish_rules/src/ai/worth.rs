//! What a forecast, a gain or a glyph is worth to a brain's side: damage
//! dealt and taken, conditions, forced movement into hazards, loot and
//! recovery (docs/ai.md#gains), glyphs not yet stepped on.

use super::score::Scorer;
use crate::encounter::{CreatureView, Preview};
use crate::map::{Footprint, Pos};
use crate::stats::CreatureId;

impl Scorer<'_> {
    /// The value of a forecast for this side.
    pub fn preview_value(&self, p: &Preview) -> f64 {
        let w = self.w;
        let mut v = 0.0;
        // Summons appear beside the user, the target of a summoning ability.
        let summon_worth = match p
            .targets
            .iter()
            .find(|t| t.tiers.iter().any(|tier| tier.summons > 0))
        {
            Some(t) => self.summon_worth(&p.ability, t.target),
            None => 0.0,
        };
        for t in &p.targets {
            let Some(tc) = self.get(t.target) else {
                continue;
            };
            let left = (tc.stamina.current + tc.stamina.temporary).max(1) as f64;
            let capped: f64 = (0..3)
                .map(|i| t.chances[i] * (t.tiers[i].damage as f64).min(left))
                .sum();
            if tc.side == self.side {
                v -= w.friendly_fire * capped;
                // Help for an ally: stamina it is missing, a cushion, surges,
                // and a free strike if an enemy stands next to it.
                let missing = (tc.stamina.max - tc.stamina.current).max(0) as f64;
                let threatened = self.enemies().any(|o| o.space.distance(tc.space) <= 1);
                // docs/rules.md#stacking: the same ability's
                // bonus again adds only what it raises the one held.
                let (mut held_shield, mut held_retaliate) = (0, 0);
                for b in tc.bonuses.0.iter().filter(|b| b.from == p.ability) {
                    match b.kind {
                        crate::ability::BonusKind::Shield(n) => held_shield = held_shield.max(n),
                        crate::ability::BonusKind::Retaliate { amount, .. } => {
                            held_retaliate = held_retaliate.max(amount)
                        }
                    }
                }
                for i in 0..3 {
                    let tier = &t.tiers[i];
                    let mut help = w.heal * (tier.heal as f64).min(missing)
                        // Temporary stamina doesn't stack: only more than
                        // it has counts.
                        + w.heal * 0.5 * (tier.temporary as i32 - tc.stamina.temporary).max(0) as f64
                        + 2.0 * w.damage * tier.grant_surges as f64
                        + self.shift_gain(tc, tier.shift.max(tier.teleport))
                        // docs/rules.md#surges: a shield saves damage on each attack to
                        // come, retaliation deals some; a summon is another
                        // body with a free strike each round.
                        + w.heal * 1.5 * tier.shield.saturating_sub(held_shield) as f64
                        + w.damage * tier.retaliate.saturating_sub(held_retaliate) as f64
                        + summon_worth * tier.summons as f64;
                    if tier.free_strike && threatened {
                        help += w.damage * 4.0;
                    }
                    // A signature ability at once: about a strike's worth,
                    // wherever its enemies are (it chooses its target).
                    if tier.signature_strike {
                        help += w.damage * 6.0;
                    }
                    v += t.chances[i] * help;
                }
                continue;
            }
            let lost: f64 = 1.0 - tc.stamina.current as f64 / tc.stamina.max.max(1) as f64;
            v += w.damage * capped * (1.0 + w.focus_fire * lost.max(0.0));
            v += w.kill * t.kill_chance;
            // docs/rules.md#climbing-swimming-jumping-and-flying: a flier
            // hovering over a gap knocked prone falls: the fall's damage.
            let prone = crate::conditions::ConditionKind::Prone;
            let fall = if tc.movement.modes.fly && !tc.conditions.has(prone) {
                self.e
                    .map()
                    .fall_depth(tc.space)
                    .map_or(0, crate::map::forced::fall_damage)
            } else {
                0
            };
            for i in 0..3 {
                let tier = &t.tiers[i];
                // A condition it already has adds nothing (a second grab
                // of a grabbed enemy is a wasted maneuver).
                let new = tier
                    .conditions
                    .iter()
                    .filter(|&&k| !tc.conditions.has(k))
                    .count();
                v += t.chances[i] * w.condition * new as f64;
                if fall > 0 && tier.conditions.contains(&prone) {
                    v += t.chances[i] * w.damage * f64::from(fall);
                }
                // docs/rules.md#ability-saves: a landing save, shifted by
                // the tier (Low: advantage, High: disadvantage), spares
                // the target about this often on a save of half the die.
                let fails = [0.25, 0.5, 0.75][i];
                let saved = tier.saved.iter().filter(|&&k| !tc.conditions.has(k));
                v += t.chances[i] * w.condition * fails * saved.count() as f64;
                if let Some((_, d)) = tier.forced {
                    v += t.chances[i] * w.forced * d as f64;
                }
            }
            if w.hazard > 0.0 {
                v += w.hazard * self.hazard_damage(p, t.target);
            }
        }
        v
    }

    /// What a shift of up to `n` squares granted to the ally `a` is worth:
    /// the engine moves it toward the nearest enemy (see `granted_shift`),
    /// so the gain of the square `n` steps that way (or next to the enemy,
    /// if nearer) over where it stands, and nothing if that is no better.
    pub(super) fn shift_gain(&self, a: &CreatureView, n: u32) -> f64 {
        if n == 0 {
            return 0.0;
        }
        let Some(near) = self
            .enemies()
            .min_by_key(|o| (o.space.distance(a.space), o.id))
        else {
            return 0.0;
        };
        let d = near.space.distance(a.space);
        let steps = n.min(d.saturating_sub(1)) as i32;
        if steps == 0 {
            return 0.0;
        }
        let (dx, dy) = (
            (near.space.pos.x - a.space.pos.x).signum(),
            (near.space.pos.y - a.space.pos.y).signum(),
        );
        let to = Footprint::new(a.space.pos.offset(dx * steps, dy * steps), a.space.size);
        if !self.e.map().in_bounds(to.pos) {
            return 0.0;
        }
        (self.position(a, to) - self.position(a, a.space)).max(0.0)
    }

    /// Expected damage from pits, walls and collisions where the forecast's
    /// forced movement would leave `target` (through the battlefield's own
    /// forced-movement function).
    pub(super) fn hazard_damage(&self, p: &Preview, target: CreatureId) -> f64 {
        let Some(t) = p.targets.iter().find(|t| t.target == target) else {
            return 0.0;
        };
        let Some(tc) = self.get(target) else {
            return 0.0;
        };
        let Some(user) = self.e.active_creature().and_then(|a| self.get(a)) else {
            return 0.0;
        };
        let mut total = 0.0;
        for i in 0..3 {
            let Some((kind, distance)) = t.tiers[i].forced else {
                continue;
            };
            let aim = (kind == crate::ability::ForcedKind::Slide).then(|| {
                let (dx, dy) = (
                    tc.space.pos.x - user.space.pos.x,
                    tc.space.pos.y - user.space.pos.y,
                );
                tc.space.pos.offset(dx.signum() * 8, dy.signum() * 8)
            });
            let r = crate::map::forced::resolve(
                self.e.map(),
                &self.occupants,
                &crate::map::forced::Force {
                    kind,
                    distance,
                    vertical: false,
                    target,
                    target_space: tc.space,
                    stability: tc.movement.stability,
                    source: user.space,
                    aim,
                    flies: tc.movement.modes.fly
                        && !tc.conditions.has(crate::conditions::ConditionKind::Prone),
                },
            );
            let dmg: i32 = r
                .events
                .iter()
                .map(|e| match *e {
                    crate::map::forced::ForcedEvent::CollidedWithCreature { damage, .. }
                    | crate::map::forced::ForcedEvent::CollidedWithObstacle { damage, .. }
                    | crate::map::forced::ForcedEvent::BrokeThrough { damage, .. }
                    | crate::map::forced::ForcedEvent::Fell { damage, .. } => damage,
                })
                .sum();
            total += t.chances[i] * dmg as f64;
        }
        total
    }

    /// What an ability's loot, recover, refresh and prepare effects bring
    /// `c` (docs/rules.md#loot, #recover-and-refresh,
    /// #prepared-abilities), in the scorer's damage units: treasure within
    /// its range, a coin worth half a point of damage; each spent ability
    /// or item it gets back, worth 3 points of damage; a prepared
    /// triggered ability, half its middle tier's damage when an enemy is
    /// within 3 squares to set it off, nothing when it is already
    /// prepared. 0 for an ability with none of these.
    pub fn gains_value(&self, a: &crate::ability::Ability, c: &CreatureView) -> f64 {
        use crate::ability::Effect;
        let w = self.w;
        let mut v = 0.0;
        let lines = a
            .effect
            .iter()
            .chain(a.power_roll.iter().map(|r| &r.tiers.1));
        let content = self.e.content();
        for e in lines.flat_map(|l| &l.effects) {
            match e {
                Effect::Loot(range) => {
                    let coins: u32 = self
                        .e
                        .map()
                        .treasures()
                        .into_iter()
                        .filter(|(p, _)| c.space.distance_to(*p) <= *range)
                        // An item counts as a sold one's coins at least.
                        .map(|(p, n)| {
                            let item = self.e.map().item_at(p).is_some();
                            n + if item {
                                crate::encounter::ITEM_SOLD_FOR
                            } else {
                                0
                            }
                        })
                        .sum();
                    v += 0.5 * w.damage * coins as f64;
                }
                Effect::Recover(n) | Effect::Refresh(n) => {
                    let items = matches!(e, Effect::Refresh(_));
                    let spent = c
                        .abilities
                        .iter()
                        .filter_map(|id| content.ability(id))
                        .filter(|x| x.item == items && x.id != a.id)
                        .filter(|x| crate::encounter::uses_left(Some(&c.progress), x) == Some(0))
                        .count()
                        .min(*n as usize);
                    v += 3.0 * w.damage * spent as f64;
                }
                Effect::Prepare { ability, .. } => {
                    if c.prepared.iter().any(|(p, _)| p == ability) {
                        continue;
                    }
                    let near = self.enemies().any(|o| o.space.distance(c.space) <= 3);
                    let dealt: i32 = content
                        .ability(ability)
                        .and_then(|x| x.power_roll.as_ref())
                        .map_or(0, |r| {
                            r.tiers
                                .1
                                .effects
                                .iter()
                                .map(|e| match e {
                                    Effect::Damage { base, .. } => *base,
                                    _ => 0,
                                })
                                .sum()
                        });
                    if near {
                        v += 0.5 * w.damage * dealt.max(1) as f64;
                    }
                }
                _ => {}
            }
        }
        v
    }

    /// A glyph of `ability` laid on `squares` (docs/rules.md#moving: it reacts to an
    /// enemy stepping on it). Worth what it would do to each enemy, times
    /// the chance that enemy steps there next: an enemy that fights in melee,
    /// not yet next to the creature of this side nearest it, in reach of a
    /// free square beside that creature, comes to one of those squares
    /// (each alike). Squares with a glyph already take no other.
    pub fn glyph_value(&self, ability: &str, squares: &[Pos]) -> f64 {
        let w = self.w;
        let glyphs = self.e.glyphs();
        let open: Vec<Pos> = squares
            .iter()
            .copied()
            .filter(|&q| !glyphs.taken(q))
            .collect();
        let mut v = 0.0;
        for en in self.enemies() {
            let Some(near) = self
                .all
                .iter()
                .filter(|o| o.side == self.side && !o.stamina.is_dead())
                .min_by_key(|o| (o.space.distance(en.space), o.id))
            else {
                continue;
            };
            // One already beside it stays; one that strikes from range
            // keeps its distance.
            if near.space.distance(en.space) <= 1 || self.reach_of(en).1 {
                continue;
            }
            // The free squares beside its quarry within its move.
            let beside: Vec<Pos> = near
                .space
                .around()
                .filter(|&q| {
                    !self.occupants.iter().any(|o| o.space.contains(q))
                        && Footprint::new(q, en.space.size).distance(en.space) <= en.movement.speed
                })
                .collect();
            let stepped = open.iter().filter(|q| beside.contains(q)).count();
            if stepped == 0 {
                continue;
            }
            let left = (en.stamina.current + en.stamina.temporary) as f64;
            let (dealt, held) = self.glyph_harm(ability, en, left);
            v += stepped as f64 / beside.len() as f64
                * (w.damage * dealt + w.condition * held as f64);
        }
        v
    }
}
