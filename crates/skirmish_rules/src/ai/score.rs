//! Utility scoring shared by the greedy and tactical brains: each legal
//! command gets a number from the engine's own forecasts (exact tier
//! chances, damage after immunities, conditions past potency) and a few
//! positional terms, weighted by [`Weights`].

use crate::ability::{ActionType, Cost, Distance};
pub use crate::content::weights::Weights;
use crate::encounter::Preview;
use crate::encounter::{Command, CreatureView, Encounter};
use crate::map::movement::{Mover, Path, opportunity_attacks};
use crate::map::{Footprint, Occupant, Pos, Side};
use crate::stats::CreatureId;

/// Whose side a brain plays: the side of whoever the legal actions are for.
pub fn acting_side(e: &Encounter, legal: &[Command]) -> Option<Side> {
    legal.first().and_then(|c| e.side_of(c.creature()))
}

/// What a creature can reach with its best damaging main-action ability,
/// and whether that is a ranged attack.
pub fn attack_reach(e: &Encounter, c: &CreatureView) -> (u32, bool) {
    let mut best = (1, false);
    for id in &c.abilities {
        let Some(a) = e.content().ability(id) else {
            continue;
        };
        if a.action != ActionType::MainAction || a.power_roll.is_none() {
            continue;
        }
        let (reach, ranged) = match a.distance {
            Distance::Ranged(r) => (r, true),
            Distance::MeleeOrRanged(_, r) => (r, false),
            Distance::Melee(r) => (r, false),
            // (Moved up to, then struck in melee.)
            Distance::Sweep { squares, reach, .. } => (squares.saturating_add(reach), false),
            d if d.is_area() => (d.reach().max(1), d.reach() > 1),
            _ => continue,
        };
        if reach > best.0 {
            best = (reach, ranged);
        }
    }
    best
}

/// Whom a creature could strike on its next turn, each with a square it
/// could strike from.
type Strikes = Vec<(CreatureId, Pos)>;

/// What a scorer keeps for the rest of its decision, by a quick hash of
/// small keys.
type Kept<K, V> = std::collections::HashMap<K, V, foldhash::fast::FixedState>;

/// The scorer: a view of the fight from one side's point of view.
pub struct Scorer<'a> {
    pub e: &'a Encounter,
    pub w: &'a Weights,
    pub side: Side,
    pub all: Vec<CreatureView>,
    pub occupants: Vec<Occupant>,
    /// Walking distances from each enemy, worked out when first needed.
    walk: std::cell::RefCell<std::collections::HashMap<CreatureId, crate::map::movement::Reach>>,
    /// Each creature's [`attack_reach`], worked out when first needed (a
    /// decision asks it for every square a move could end on).
    reaches: std::cell::RefCell<Vec<(CreatureId, (u32, bool))>>,
    /// Whom each melee creature could strike on its next turn as the map
    /// stands, worked out when a wall is first weighed.
    strikes: std::cell::RefCell<Vec<(CreatureId, Strikes)>>,
    /// What each creature's best strike on each other is worth, as worked
    /// out (see [`Scorer::strike_value`]).
    strike_values: std::cell::RefCell<Vec<(CreatureId, CreatureId, f64)>>,
    /// [`Scorer::best_attack_from`] for each creature and square asked.
    attacks: std::cell::RefCell<Kept<(CreatureId, Pos), f64>>,
    /// The forecasts of the fight as it stands, sharing their work.
    forecast: crate::encounter::Forecaster<'a>,
    /// [`Scorer::position`] for each creature and footprint asked.
    positions: std::cell::RefCell<Kept<(CreatureId, Footprint), f64>>,
}

impl<'a> Scorer<'a> {
    pub fn new(e: &'a Encounter, w: &'a Weights, side: Side) -> Scorer<'a> {
        Scorer {
            e,
            w,
            side,
            all: e.creatures(),
            occupants: e.occupants(),
            walk: Default::default(),
            reaches: Default::default(),
            strikes: Default::default(),
            strike_values: Default::default(),
            attacks: Default::default(),
            positions: Default::default(),
            forecast: e.forecaster(),
        }
    }

    /// Whom `x` could strike on its next turn on `map`, if it fights in
    /// melee: each creature of the other side next to (within reach of) a
    /// square it can move to, with that square. Empty for a creature with a
    /// ranged attack (a wall barely slows it) and for the dead.
    fn melee_strikes(&self, map: &crate::map::Map, x: &CreatureView) -> Strikes {
        let (reach, ranged) = self.reach_of(x);
        if ranged || x.stamina.is_dead() {
            return Vec::new();
        }
        let limits = crate::conditions::movement_limits(&x.conditions, x.movement.speed);
        let occ = crate::map::movement::occupancy(map, &self.occupants);
        let squares: Vec<Pos> = if limits.speed == 0 {
            vec![x.space.pos]
        } else {
            let r = crate::map::movement::reachable_with(
                map,
                &occ,
                &Mover {
                    id: x.id,
                    space: x.space,
                    side: x.side,
                    speed: limits.speed,
                    extra_cost: limits.extra_cost_per_square,
                    shifting: false,
                    modes: x.movement.modes.crawling(limits.prone),
                },
            );
            std::iter::once(x.space.pos)
                .chain(r.destinations().into_iter().map(|(p, _)| p))
                .collect()
        };
        self.all
            .iter()
            .filter(|o| o.side != x.side && !o.stamina.is_dead())
            .filter_map(|o| {
                squares
                    .iter()
                    .find(|&&p| Footprint::new(p, x.space.size).distance(o.space) <= reach)
                    .map(|&p| (o.id, p))
            })
            .collect()
    }

    /// [`Scorer::melee_strikes`] on the map as it stands, kept.
    fn strikes_now(&self, x: &CreatureView) -> Strikes {
        if let Some((_, s)) = self.strikes.borrow().iter().find(|(id, _)| *id == x.id) {
            return s.clone();
        }
        let s = self.melee_strikes(self.e.map(), x);
        self.strikes.borrow_mut().push((x.id, s.clone()));
        s
    }

    /// What `x`'s best strike on `target` is worth to `x`'s side (the
    /// engine's forecast from `from`: damage it can take, more on the
    /// wounded, and the chance to drop it), kept per pair.
    fn strike_value(&self, x: &CreatureView, target: CreatureId, from: Pos) -> f64 {
        if let Some(&(_, _, v)) = self
            .strike_values
            .borrow()
            .iter()
            .find(|(a, b, _)| *a == x.id && *b == target)
        {
            return v;
        }
        let mut best: f64 = 0.0;
        if let Some(t) = self.get(target) {
            let left = (t.stamina.current + t.stamina.temporary).max(1) as f64;
            let lost = 1.0 - t.stamina.current as f64 / t.stamina.max.max(1) as f64;
            for id in &x.abilities {
                let Some(a) = self.e.content().ability(id) else {
                    continue;
                };
                if a.action != ActionType::MainAction
                    || a.distance.is_area()
                    || a.power_roll.is_none()
                {
                    continue;
                }
                let cmd = Command::use_ability(x.id, id, vec![target]);
                let Some(p) = self.forecast.preview_from(&cmd, Some(from)) else {
                    continue;
                };
                for tp in p.targets.iter().filter(|tp| tp.target == target) {
                    let dealt: f64 = (0..3)
                        .map(|i| tp.chances[i] * (tp.tiers[i].damage as f64).min(left))
                        .sum();
                    let v = self.w.damage * dealt * (1.0 + self.w.focus_fire * lost.max(0.0))
                        + self.w.kill * tp.kill_chance;
                    best = best.max(v);
                }
            }
        }
        self.strike_values.borrow_mut().push((x.id, target, best));
        best
    }

    /// The best of `x`'s strikes on those it can reach.
    fn best_strike(&self, x: &CreatureView, strikes: &[(CreatureId, Pos)]) -> f64 {
        strikes
            .iter()
            .map(|&(t, from)| self.strike_value(x, t, from))
            .fold(0.0, f64::max)
    }

    /// What a wall raised on `squares` is worth to this side: every
    /// creature gets one turn with it. A melee creature it keeps from its
    /// best strike makes only the best it has left, or none: the enemy's
    /// loss counts for this side, its own against (docs/rules.md#wall: "a
    /// wall can't be placed in occupied squares, and a wall blocks line of
    /// effect"; our ruling, a raised wall stands until the end of its
    /// maker's next turn).
    pub fn wall_value(&self, squares: &[Pos]) -> f64 {
        let mut map = self.e.map().clone();
        for &p in squares {
            if map.in_bounds(p) {
                map.set_raised_wall(p, true);
            }
        }
        let mut v = 0.0;
        for x in &self.all {
            let before = self.strikes_now(x);
            if before.is_empty() {
                continue;
            }
            // A wall beyond where it could walk changes nothing for it.
            let limit = x.movement.speed + x.space.size + 1;
            if squares
                .iter()
                .all(|&p| x.space.distance(Footprint::single(p)) > limit)
            {
                continue;
            }
            let after = self.melee_strikes(&map, x);
            if after.len() == before.len() {
                continue;
            }
            let lost = self.best_strike(x, &before) - self.best_strike(x, &after);
            v += if x.side == self.side { -lost } else { lost };
        }
        self.w.shelter * v
    }

    /// [`attack_reach`] of `c`, kept for the life of the scorer.
    fn reach_of(&self, c: &CreatureView) -> (u32, bool) {
        if let Some(&(_, r)) = self.reaches.borrow().iter().find(|(id, _)| *id == c.id) {
            return r;
        }
        let r = attack_reach(self.e, c);
        self.reaches.borrow_mut().push((c.id, r));
        r
    }

    /// Squares of walking from `to` (a creature) to `at`, around walls and
    /// pits (creatures ignored); straight distance if there is no way.
    fn walking(&self, to: &CreatureView, at: Footprint) -> u32 {
        let mut cache = self.walk.borrow_mut();
        let reach = cache.entry(to.id).or_insert_with(|| {
            crate::map::movement::reachable(
                self.e.map(),
                &[],
                &Mover {
                    id: to.id,
                    space: crate::map::Footprint::single(to.space.pos),
                    side: to.side,
                    speed: 60,
                    extra_cost: 0,
                    shifting: false,
                    modes: to.movement.modes,
                },
            )
        });
        // The cost to `at` from next to the creature: one less.
        reach
            .cost_to(at.pos)
            .map_or(at.distance(to.space), |c| c.max(at.distance(to.space)))
    }

    fn get(&self, id: CreatureId) -> Option<&CreatureView> {
        self.all.iter().find(|c| c.id == id)
    }

    pub(super) fn enemies(&self) -> impl Iterator<Item = &CreatureView> {
        self.all
            .iter()
            .filter(move |c| c.side != self.side && !c.stamina.is_dead())
    }

    /// The enemy `c` means to fight: the weakest, counting distance.
    pub fn focus(&self, c: &CreatureView, at: Footprint) -> Option<&CreatureView> {
        self.enemies()
            .min_by_key(|o| {
                let left = o.stamina.current + o.stamina.temporary;
                (left + 3 * at.distance(o.space) as i32, o.id)
            })
            .filter(|_| !c.stamina.is_dead())
    }

    /// What one creature summoned by `ability` is worth (docs/rules.md#stamina: a summon
    /// "permanently" follows "Move+0, Attack+0"): its free strike each round
    /// for the rounds a fight has left (taken as 3), and a body that soaks
    /// a quarter of its stamina in attacks meant for this side; the mean
    /// over the stat blocks the ability summons. Each summon `owner` has
    /// standing already divides it once more (a third servant adds less to
    /// a fight than the first), so a summoner also fights.
    fn summon_worth(&self, ability: &str, owner: CreatureId) -> f64 {
        let content = self.e.content();
        let Some(a) = content.ability(ability) else {
            return 0.0;
        };
        let blocks: Vec<f64> = a
            .summoned_stat_blocks()
            .iter()
            .filter_map(|id| content.monsters.get(id))
            .map(|m| 3.0 * m.free_strike as f64 + 0.25 * m.stamina as f64)
            .collect();
        if blocks.is_empty() {
            return 0.0;
        }
        let standing = self
            .all
            .iter()
            .filter(|c| c.summoned.is_some_and(|s| s.owner == owner) && !c.stamina.is_dead())
            .count();
        self.w.damage * blocks.iter().sum::<f64>() / blocks.len() as f64 / (1 + standing) as f64
    }

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
            let lost = 1.0 - tc.stamina.current as f64 / tc.stamina.max.max(1) as f64;
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
    fn shift_gain(&self, a: &CreatureView, n: u32) -> f64 {
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
    fn hazard_damage(&self, p: &Preview, target: CreatureId) -> f64 {
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

    /// How good it is for `c` to stand at `at`, kept for the life of the
    /// scorer (every move of a decision weighs the square it starts from,
    /// and a phased creature's powers reach the same squares).
    pub fn position(&self, c: &CreatureView, at: Footprint) -> f64 {
        if let Some(&v) = self.positions.borrow().get(&(c.id, at)) {
            return v;
        }
        let v = self.position_anew(c, at);
        self.positions.borrow_mut().insert((c.id, at), v);
        v
    }

    /// [`Scorer::position`], worked out.
    fn position_anew(&self, c: &CreatureView, at: Footprint) -> f64 {
        let w = self.w;
        let (reach, mut ranged) = self.reach_of(c);
        let mut v = 0.0;
        if let Some(f) = self.focus(c, at) {
            let d = at.distance(f.space);
            // A hidden enemy can only be struck from next to it: even a
            // ranged creature must close in (else two sides that have each
            // hidden, the one with bows keeping its distance, never fight).
            let reach = if f.stance.hidden {
                ranged = false;
                1
            } else {
                reach
            };
            let want = if ranged { reach.min(5) } else { 1 };
            // Beyond reach, how far there is to walk is what counts.
            let d_walk = if d > want { self.walking(f, at) } else { d };
            v -= w.approach * d_walk.abs_diff(want) as f64;
            // Within reach counts only with line of effect to strike through.
            if d <= reach && crate::map::line_of_effect(self.e.map(), at, f.space) {
                v += w.approach * 4.0;
            }
        }
        let adjacent_enemies: Vec<&CreatureView> = self
            .enemies()
            .filter(|o| o.space.distance(at) == 1)
            .collect();
        if ranged && !adjacent_enemies.is_empty() {
            v -= w.ranged_adjacent;
        }
        if w.flank > 0.0 {
            for o in &adjacent_enemies {
                let (ox, oy) = o.space.centre();
                let (mx, my) = at.centre();
                let flanked = self.all.iter().any(|a| {
                    a.side == self.side
                        && a.id != c.id
                        && !a.stamina.is_dead()
                        && a.space.distance(o.space) == 1
                        && {
                            let (ax, ay) = a.space.centre();
                            let (d1, d2) = ((mx - ox, my - oy), (ax - ox, ay - oy));
                            let dot = d1.0 * d2.0 + d1.1 * d2.1;
                            let n = (d1.0.hypot(d1.1)) * (d2.0.hypot(d2.1));
                            n > 0.0 && dot / n <= -0.99
                        }
                });
                if flanked {
                    v += w.flank;
                }
            }
        }
        if w.protect_wounded > 0.0 {
            for a in self.all.iter().filter(|a| {
                a.side == self.side
                    && a.id != c.id
                    && !a.stamina.is_dead()
                    && a.stamina.current * 2 <= a.stamina.max
            }) {
                let threatened = self.enemies().any(|o| o.space.distance(a.space) <= 2);
                if threatened && a.space.distance(at) == 1 {
                    v += w.protect_wounded;
                }
            }
        }
        v
    }

    /// Damage from the opportunity attacks a path would provoke.
    fn provoked(&self, c: &CreatureView, path: &Path) -> f64 {
        let mover = Mover {
            id: c.id,
            space: c.space,
            side: c.side,
            speed: 99,
            extra_cost: 0,
            shifting: false,
            modes: c.movement.modes,
        };
        opportunity_attacks(&self.occupants, &mover, path.squares()).len() as f64 * 3.0
    }

    /// What the glyph ability `from`'s "enters" effect would do to `victim`
    /// with `left` stamina: the damage it takes (up to `left`) and the
    /// conditions that would hold. As the engine deals it
    /// (`resolve::glyph_effect`): no characteristic on the glyph's side.
    fn glyph_harm(&self, from: &str, victim: &CreatureView, left: f64) -> (f64, usize) {
        let Some(effect) = self
            .e
            .content()
            .ability(from)
            .and_then(|a| a.glyph.as_ref())
            .and_then(|spec| {
                spec.abilities
                    .iter()
                    .find(|ga| ga.on == crate::ability::GlyphTrigger::Enters)
            })
            .and_then(|ga| ga.effect.as_ref())
        else {
            return (0.0, 0);
        };
        let o = crate::ability::evaluate(
            &effect.effects,
            &Default::default(),
            &victim.characteristics,
            0,
        );
        let held = o
            .conditions
            .iter()
            .filter(|x| x.applies)
            .map(|x| x.conditions.len())
            .sum();
        ((o.total_damage().max(0) as f64).min(left.max(0.0)), held)
    }

    /// docs/rules.md#stamina: a glyph is "Invisible" until it shines; one that has
    /// shone, of another side and ready to react, harms whoever steps on
    /// it. The damage (up to the stamina left) and conditions (2 each) the
    /// glyphs `c`'s side knows of would deal on `path`, each glyph once (its
    /// one Beat a round).
    fn trapped(&self, c: &CreatureView, path: &Path) -> f64 {
        let glyphs = self.e.glyphs();
        if glyphs.list.is_empty() {
            return 0.0;
        }
        let round = self.e.flow().round;
        let mut known: Vec<&crate::encounter::Glyph> = glyphs
            .list
            .iter()
            .enumerate()
            .filter(|&(i, g)| g.side != c.side && g.revealed && glyphs.ready(i, round))
            .map(|(_, g)| g)
            .collect();
        let mut left = (c.stamina.current + c.stamina.temporary).max(0) as f64;
        let mut harm = 0.0;
        for at in path.squares().skip(1) {
            let fp = Footprint::new(at, c.space.size);
            while let Some(i) = known.iter().position(|g| fp.contains(g.at)) {
                let g = known.swap_remove(i);
                let (dealt, held) = self.glyph_harm(&g.from, c, left);
                left -= dealt;
                harm += dealt + 2.0 * held as f64;
            }
        }
        harm
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

    /// The best attack `c` could make from `at` next (for planning moves),
    /// kept for the life of the scorer (the moves of a decision end on the
    /// same squares many times over: a phased creature's walk, hustle and
    /// run reach the same squares).
    fn best_attack_from(&self, c: &CreatureView, at: Pos) -> f64 {
        if let Some(&v) = self.attacks.borrow().get(&(c.id, at)) {
            return v;
        }
        let from = Footprint::new(at, c.space.size);
        let mut best: f64 = 0.0;
        for id in &c.abilities {
            let Some(a) = self.e.content().ability(id) else {
                continue;
            };
            if a.action != ActionType::MainAction || a.distance.is_area() || a.power_roll.is_none()
            {
                continue;
            }
            for o in self.enemies() {
                // Beyond the ability's distance from there, the forecast
                // finds no target: it is worth nothing but its cost, which
                // is known without working the forecast out.
                if from.distance(o.space) > a.distance.reach() {
                    best = best.max(-self.cost(a.cost));
                    continue;
                }
                let cmd = Command::use_ability(c.id, id, vec![o.id]);
                if let Some(p) = self.forecast.preview_from(&cmd, Some(at)) {
                    best = best.max(self.preview_value(&p) - self.cost(a.cost));
                }
            }
        }
        self.attacks.borrow_mut().insert((c.id, at), best);
        best
    }

    fn cost(&self, cost: Cost) -> f64 {
        match cost {
            Cost::Heroic(n) => self.w.resource_cost * n as f64,
            Cost::Malice(n) => self.w.malice_cost * n as f64,
            _ => 0.0,
        }
    }

    /// The value of doing `cmd` now, against doing nothing (0).
    pub fn score(&self, cmd: &Command) -> f64 {
        let w = self.w;
        let Some(c) = self.get(cmd.creature()) else {
            return 0.0;
        };
        match cmd {
            Command::StartTurn { .. } => {
                let near = self
                    .enemies()
                    .map(|o| o.space.distance(c.space))
                    .min()
                    .unwrap_or(0);
                let (reach, _) = self.reach_of(c);
                // Phased 2d6: seizing the initiative gives attackers
                // advantage against it and its battle action comes last.
                let seizes = self.e.phased_next().is_some_and(|n| n != c.id)
                    && self.e.flow().phased.is_some();
                -(near as f64)
                    + if near <= reach { 10.0 } else { 0.0 }
                    + if seizes { -w.seize } else { 0.0 }
            }
            Command::UseAbility { ability, spend, .. }
            | Command::UseAreaAbility { ability, spend, .. } => {
                let Some(a) = self.e.content().ability(ability) else {
                    return 0.0;
                };
                let cost = self.cost(a.cost) + w.resource_cost * *spend as f64;
                // Loot, recover, refresh and prepare: worth what they bring.
                let gains = self.gains_value(a, c);
                // Using an aura it carries again only starts it over.
                if a.aura.is_some() && c.auras.iter().any(|x| x.ability == a.id) {
                    return -cost;
                }
                // A glyph harms no one yet: it is worth what it may do to
                // an enemy that steps on it.
                if a.glyph.is_some()
                    && let Command::UseAreaAbility {
                        creature,
                        placement,
                        ..
                    } = cmd
                {
                    let squares = self
                        .e
                        .area_of(*creature, ability, placement)
                        .map_or_else(|_| Vec::new(), |area| area.covered);
                    return self.glyph_value(ability, &squares) - cost;
                }
                // A wall harms no one: it is worth the strikes it stops.
                if let Command::UseAreaAbility {
                    placement: crate::encounter::Placement::Wall { squares },
                    ..
                } = cmd
                {
                    return self.wall_value(squares) - cost;
                }
                let Some(p) = self.forecast.preview(cmd) else {
                    return if gains > 0.0 { gains - cost } else { 0.0 };
                };
                // Surges the user gains: each adds damage to a later strike,
                // up to the 3 one damage roll can spend (docs/rules.md#surges):
                // beyond what it holds, more wait for strikes after that.
                let surges = if let Some(h) = &c.heroic {
                    let room = 3u32.saturating_sub(h.surges);
                    p.targets
                        .iter()
                        .map(|t| {
                            (0..3)
                                .map(|i| t.chances[i] * t.tiers[i].surges.min(room) as f64)
                                .sum()
                        })
                        .fold(0.0, f64::max)
                } else {
                    0.0
                };
                // docs/rules.md#during-the-move: where the move leaves it,
                // and the opportunity attacks a move that is not a shift
                // provokes, as for a move.
                let moved = match (cmd, a.distance) {
                    (
                        Command::UseAreaAbility {
                            placement: crate::encounter::Placement::Path { path },
                            ..
                        },
                        Distance::Sweep { shift, .. },
                    ) => {
                        let end = Footprint::new(path.end().unwrap_or(c.space.pos), c.space.size);
                        let provoked = if shift {
                            0.0
                        } else {
                            self.provoked(c, path) + self.trapped(c, path)
                        };
                        self.position(c, end) - self.position(c, c.space) - w.provoke * provoked
                    }
                    _ => 0.0,
                };
                self.preview_value(&p) + 2.0 * w.damage * surges + gains - cost + moved
            }
            Command::UseOnObject { ability, at, .. } => {
                let Some(a) = self.e.content().ability(ability) else {
                    return 0.0;
                };
                self.object_value(c, a, *at) - self.cost(a.cost)
            }
            Command::FreeStrike { .. } => self
                .forecast
                .preview(cmd)
                .map_or(0.0, |p| self.preview_value(&p) * 0.9),
            Command::Charge { path, .. } => {
                let end = Footprint::new(path.end().unwrap_or(c.space.pos), c.space.size);
                self.forecast
                    .preview(cmd)
                    .map_or(0.0, |p| self.preview_value(&p))
                    + self.position(c, end)
                    - self.position(c, c.space)
                    - w.provoke * (self.provoked(c, path) + self.trapped(c, path))
            }
            Command::Move { path, .. } => {
                let end = Footprint::new(path.end().unwrap_or(c.space.pos), c.space.size);
                let mut v = self.position(c, end)
                    - self.position(c, c.space)
                    - w.provoke * (self.provoked(c, path) + self.trapped(c, path));
                if w.plan > 0.0 && c.budget.main {
                    v += w.plan
                        * (self.best_attack_from(c, end.pos)
                            - self.best_attack_from(c, c.space.pos));
                }
                v
            }
            // Phased 2d6: a move in the movement phase, weighed like a
            // move with its power's cost (hustle and disengage hamper this
            // round's attacks, a run forbids them, a charge helps).
            Command::Movement { path, power, .. } => {
                use crate::phased::MovementPower as P;
                let end = Footprint::new(path.end().unwrap_or(c.space.pos), c.space.size);
                let provokes = matches!(power, P::Walk | P::Hustle | P::Run | P::Charge);
                let mut v = self.position(c, end) - self.position(c, c.space);
                if provokes {
                    v -= w.provoke * (self.provoked(c, path) + self.trapped(c, path));
                }
                let attack_after = self.best_attack_from(c, end.pos);
                if w.plan > 0.0 {
                    v += w.plan * (attack_after - self.best_attack_from(c, c.space.pos));
                }
                v + match power {
                    P::Walk => 0.0,
                    P::Shift | P::Tumble => -0.1,
                    P::Hustle => -0.15 * attack_after - 0.5,
                    P::Run => -attack_after - 1.0,
                    P::Disengage => -0.3 * attack_after - 0.5,
                    P::Charge => 0.15 * attack_after + 0.2,
                }
            }
            Command::Shift { to, .. } => {
                let end = Footprint::new(*to, c.space.size);
                self.position(c, end) - self.position(c, c.space) - 0.1
            }
            Command::CatchBreath { .. } => {
                let missing = (c.stamina.max - c.stamina.current) as f64;
                let heal = (c.stamina.max / 3) as f64;
                if missing >= heal { w.heal * heal } else { -1.0 }
            }
            Command::StandUp { .. } => 4.0,
            Command::EscapeGrab { .. } => 2.5,
            Command::Defend { .. } => {
                let threatened = self
                    .enemies()
                    .filter(|o| o.space.distance(c.space) <= 1)
                    .count();
                if threatened > 0 && c.stamina.current * 2 <= c.stamina.max {
                    1.5 * threatened as f64
                } else {
                    -1.0
                }
            }
            Command::Hide { .. } => 0.5,
            // (Holding a grab costs nothing; letting go gains nothing.)
            Command::Release { .. } => -1.0,
            Command::EndEffect { ability, .. } => self.end_effect_value(c, ability),
            Command::Delay { .. } => -5.0,
            Command::EndTurn { .. } => 0.0,
            Command::Answer { reaction: None, .. } => 0.0,
            Command::Answer {
                reaction: Some(r), ..
            } => {
                if r.is_opportunity_attack() {
                    let t = r.targets.first().copied().unwrap_or(c.id);
                    let strike = Command::FreeStrike {
                        creature: c.id,
                        target: t,
                    };
                    return self
                        .forecast
                        .preview(&strike)
                        .map_or(0.0, |p| self.preview_value(&p));
                }
                let as_use = Command::use_ability(c.id, &r.ability, r.targets.clone());
                let cost = self
                    .e
                    .content()
                    .ability(&r.ability)
                    .map_or(0.0, |a| self.cost(a.cost));
                self.forecast
                    .preview(&as_use)
                    .map_or(0.5, |p| self.preview_value(&p).max(0.5))
                    - cost
            }
        }
    }
}

/// Choose the highest-scoring legal command for the side acting.
pub fn choose(e: &Encounter, legal: &[Command], w: &Weights) -> Command {
    let Some(side) = acting_side(e, legal) else {
        return legal[0].clone();
    };
    let scorer = Scorer::new(e, w, side);
    let scores: Vec<f64> = legal.iter().map(|c| scorer.score(c)).collect();
    let i = super::best(&scores, |s| *s);
    // Ending the turn is the baseline; prefer it to anything worth no more.
    if let Some(end) = legal
        .iter()
        .position(|c| matches!(c, Command::EndTurn { .. }))
        && scores[i] <= scores[end] + 1e-9
    {
        return legal[end].clone();
    }
    spend_surges(e, super::lasting::connect_glyphs(e, legal[i].clone()))
}

/// The surges a hero spends on the ability it chose (docs/ai.md#surges,
/// docs/rules.md#surges): first 2 on each target whose potency, raised by
/// 1, turns a condition it would resist into one that lands (a third of a
/// condition or more, over the tiers' chances), then up to 3 of those left
/// on damage, when they add any. The listing offers abilities unspent
/// ([`Command::unspent`]); a command it returns is a listed one with
/// surges added.
pub fn spend_surges(e: &Encounter, cmd: Command) -> Command {
    let creature = match &cmd {
        Command::UseAbility {
            creature,
            surges: 0,
            potency_surges,
            ..
        }
        | Command::UseAreaAbility {
            creature,
            surges: 0,
            potency_surges,
            ..
        } if potency_surges.is_empty() => *creature,
        _ => return cmd,
    };
    let mut left = e
        .creature(creature)
        .and_then(|c| c.heroic.map(|h| h.surges))
        .unwrap_or(0);
    if left == 0 {
        return cmd;
    }
    let Some(base) = e.preview(&cmd) else {
        return cmd;
    };
    let landed = |t: &crate::encounter::TargetPreview| -> f64 {
        (0..3)
            .map(|i| t.chances[i] * t.tiers[i].conditions.len() as f64)
            .sum()
    };
    let with = |cmd: &Command, f: &dyn Fn(&mut u32, &mut Vec<crate::stats::CreatureId>)| {
        let mut c = cmd.clone();
        if let Command::UseAbility {
            surges,
            potency_surges,
            ..
        }
        | Command::UseAreaAbility {
            surges,
            potency_surges,
            ..
        } = &mut c
        {
            f(surges, potency_surges);
        }
        c
    };
    let mut out = cmd;
    for t in &base.targets {
        if left < 2 {
            break;
        }
        if t.tiers.iter().all(|o| o.resisted.is_empty()) {
            continue;
        }
        let trial = with(&out, &|_, p| p.push(t.target));
        let gained = e.preview(&trial).and_then(|p| {
            p.targets
                .iter()
                .find(|x| x.target == t.target)
                .map(|x| landed(x) - landed(t))
        });
        if gained.is_some_and(|g| g >= 1.0 / 3.0 - 1e-9) {
            out = trial;
            left -= 2;
        }
    }
    let k = left.min(3);
    if k > 0 {
        let trial = with(&out, &|s, _| *s = k);
        let before = e.preview(&out).map_or(0.0, |p| p.expected_damage());
        let after = e.preview(&trial).map_or(0.0, |p| p.expected_damage());
        if after > before + 1e-9 {
            out = trial;
        }
    }
    out
}
