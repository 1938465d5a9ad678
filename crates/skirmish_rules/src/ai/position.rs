//! Where a brain wants its creatures: the worth of standing somewhere
//! (reach, flanking, cover, threat, the objective), and the opportunity
//! attacks and glyphs a path runs into.

use super::score::Scorer;
use crate::encounter::CreatureView;
use crate::map::Footprint;
use crate::map::movement::{Mover, Path, opportunity_attacks};

impl Scorer<'_> {
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
    pub(super) fn position_anew(&self, c: &CreatureView, at: Footprint) -> f64 {
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
    pub(super) fn provoked(&self, c: &CreatureView, path: &Path) -> f64 {
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
    pub(super) fn glyph_harm(&self, from: &str, victim: &CreatureView, left: f64) -> (f64, usize) {
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
    pub(super) fn trapped(&self, c: &CreatureView, path: &Path) -> f64 {
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
}
