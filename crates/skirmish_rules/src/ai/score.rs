//! Utility scoring shared by the greedy and tactical brains: each legal
//! command gets a number from the engine's own forecasts (exact tier
//! chances, damage after immunities, conditions past potency) and a few
//! positional terms, weighted by [`Weights`].

use crate::ability::{ActionType, Cost, Distance};
pub use crate::content::weights::Weights;
use crate::encounter::{Command, CreatureView, Encounter};
use crate::map::movement::{Mover, Path};
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
    pub(super) walk:
        std::cell::RefCell<std::collections::HashMap<CreatureId, crate::map::movement::Reach>>,
    /// Each creature's [`attack_reach`], worked out when first needed (a
    /// decision asks it for every square a move could end on).
    pub(super) reaches: std::cell::RefCell<Vec<(CreatureId, (u32, bool))>>,
    /// Whom each melee creature could strike on its next turn as the map
    /// stands, worked out when a wall is first weighed.
    pub(super) strikes: std::cell::RefCell<Vec<(CreatureId, Strikes)>>,
    /// What each creature's best strike on each other is worth, as worked
    /// out (see [`Scorer::strike_value`]).
    pub(super) strike_values: std::cell::RefCell<Vec<(CreatureId, CreatureId, f64)>>,
    /// [`Scorer::best_attack_from`] for each creature and square asked.
    pub(super) attacks: std::cell::RefCell<Kept<(CreatureId, Pos), f64>>,
    /// The forecasts of the fight as it stands, sharing their work.
    pub(super) forecast: crate::encounter::Forecaster<'a>,
    /// [`Scorer::position`] for each creature and footprint asked.
    pub(super) positions: std::cell::RefCell<Kept<(CreatureId, Footprint), f64>>,
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
    pub(super) fn melee_strikes(&self, map: &crate::map::Map, x: &CreatureView) -> Strikes {
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
    pub(super) fn strikes_now(&self, x: &CreatureView) -> Strikes {
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
    pub(super) fn strike_value(&self, x: &CreatureView, target: CreatureId, from: Pos) -> f64 {
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
    pub(super) fn best_strike(&self, x: &CreatureView, strikes: &[(CreatureId, Pos)]) -> f64 {
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
    pub(super) fn reach_of(&self, c: &CreatureView) -> (u32, bool) {
        if let Some(&(_, r)) = self.reaches.borrow().iter().find(|(id, _)| *id == c.id) {
            return r;
        }
        let r = attack_reach(self.e, c);
        self.reaches.borrow_mut().push((c.id, r));
        r
    }

    /// Squares of walking from `to` (a creature) to `at`, around walls and
    /// pits (creatures ignored); straight distance if there is no way.
    pub(super) fn walking(&self, to: &CreatureView, at: Footprint) -> u32 {
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

    pub(super) fn get(&self, id: CreatureId) -> Option<&CreatureView> {
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
    pub(super) fn summon_worth(&self, ability: &str, owner: CreatureId) -> f64 {
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

    /// The best attack `c` could make from `at` next (for planning moves),
    /// kept for the life of the scorer (the moves of a decision end on the
    /// same squares many times over: a phased creature's walk, hustle and
    /// run reach the same squares).
    pub(super) fn best_attack_from(&self, c: &CreatureView, at: Pos) -> f64 {
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

    pub(super) fn cost(&self, cost: Cost) -> f64 {
        match cost {
            Cost::Heroic(n) => self.w.resource_cost * n as f64,
            Cost::Malice(n) => self.w.malice_cost * n as f64,
            _ => 0.0,
        }
    }

    /// The value of using `ability` as `cmd` has it, spending `spend` more
    /// of the user's Heroic Resource: its forecast, the surges it brings,
    /// what it gains and where a move during it leaves the user, less its
    /// cost; a glyph or a wall is worth what it may stop or do later.
    fn use_value(&self, c: &CreatureView, cmd: &Command, ability: &str, spend: u32) -> f64 {
        let w = self.w;
        let Some(a) = self.e.content().ability(ability) else {
            return 0.0;
        };
        let cost = self.cost(a.cost) + w.resource_cost * spend as f64;
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

    /// Phased 2d6: a move in the movement phase, weighed like a move with
    /// its power's cost (hustle and disengage hamper this round's attacks,
    /// a run forbids them, a charge helps).
    fn phased_move_value(
        &self,
        c: &CreatureView,
        path: &Path,
        power: crate::phased::MovementPower,
    ) -> f64 {
        let w = self.w;
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

    /// The value of answering a prompt with reaction `r`: an opportunity
    /// attack's free strike, or the ability's forecast less its cost.
    fn answer_value(&self, c: &CreatureView, r: &crate::encounter::Reaction) -> f64 {
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
                self.use_value(c, cmd, ability, *spend)
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
            Command::Movement { path, power, .. } => self.phased_move_value(c, path, *power),
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
            } => self.answer_value(c, r),
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
