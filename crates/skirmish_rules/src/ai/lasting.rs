//! What a brain makes of lasting things beyond a roll's forecast: ending
//! its own effects (docs/rules.md#ending-effects), striking objects
//! (docs/rules.md#objects) and connecting glyphs (docs/rules.md#glyphs).

use super::score::Scorer;
use crate::encounter::{Command, CreatureView, Encounter};
use crate::map::Pos;

/// docs/rules.md#ending-effects: what ending the lasting effects of one's
/// own `ability` is worth to its user's side: each condition it holds on
/// an ally is lifted (worth a condition), each on an enemy is lost (the
/// same, taken away), each bonus on an ally or an aura or prepared ability
/// of it lost likewise; keeping is preferred when it comes out even.
impl Scorer<'_> {
    pub(super) fn end_effect_value(&self, c: &CreatureView, ability: &str) -> f64 {
        let w = self.w.condition.max(0.1);
        let mut v = -0.5;
        for o in self.all.iter().filter(|o| !o.stamina.is_dead()) {
            let sign = if o.side == self.side { 1.0 } else { -1.0 };
            let held = o
                .conditions
                .list
                .iter()
                .filter(|k| k.source == Some(c.id) && k.ability.as_deref() == Some(ability))
                .count();
            v += sign * w * held as f64;
            let bonuses = o
                .bonuses
                .0
                .iter()
                .filter(|b| b.source == Some(c.id) && b.from == ability)
                .count();
            v -= sign * w * bonuses as f64;
        }
        if c.auras.iter().any(|a| a.ability == ability) {
            v -= w;
        }
        v
    }
}

impl Scorer<'_> {
    /// docs/rules.md#objects: what striking the object on `at` is worth:
    /// the chance the roll destroys it, times the lines of effect between
    /// this side and its enemies that it blocks now and would not once
    /// gone (a strike each, at the weight of a few points of damage).
    pub(super) fn object_value(
        &self,
        c: &CreatureView,
        a: &crate::ability::Ability,
        at: Pos,
    ) -> f64 {
        let (Some(left), Some(roll)) = (self.e.object_stamina(at), a.power_roll.as_ref()) else {
            return 0.0;
        };
        let characteristic = c
            .characteristics
            .best_of(&roll.characteristics)
            .map_or(0, |(_, v)| v);
        let chances = crate::power_roll::tier_probabilities(&crate::power_roll::RollSpec {
            characteristic,
            ..Default::default()
        });
        let tiers = [&roll.tiers.0, &roll.tiers.1, &roll.tiers.2];
        let destroyed: f64 = (0..3)
            .filter(|&i| {
                let out = crate::ability::evaluate(
                    &tiers[i].effects,
                    &c.characteristics,
                    &Default::default(),
                    0,
                );
                crate::stats::object_damage(&out.damage) >= left
            })
            .map(|i| chances[i])
            .sum();
        if destroyed == 0.0 {
            return 0.0;
        }
        let map = self.e.map();
        let mut open = map.clone();
        open.set_object(at, None);
        let ours: Vec<&CreatureView> = self
            .all
            .iter()
            .filter(|o| o.side == self.side && !o.stamina.is_dead())
            .collect();
        let opened = ours
            .iter()
            .flat_map(|o| self.enemies().map(move |en| (o.space, en.space)))
            .filter(|&(a, b)| {
                !crate::map::line_of_effect(map, a, b) && crate::map::line_of_effect(&open, a, b)
            })
            .count();
        destroyed * self.w.damage * 3.0 * opened as f64
    }
}

/// docs/rules.md#glyphs ("you can specify that a Glyph should be connected
/// to any other Glyph within Swinging Distance of it"): a brain connects a
/// new glyph only to its side's glyphs it shares a command with (one sends
/// what the other answers, other than `dismiss`, which every glyph answers:
/// sharing only that would let one dismissal unmake both), so a network of
/// one kind passes its commands on and others keep apart. The listing
/// offers every glyphic use connected to all ([`Command::unspent`]); the
/// choice is left as listed when it would connect to all anyway.
pub fn connect_glyphs(e: &Encounter, cmd: Command) -> Command {
    let Command::UseAreaAbility {
        creature,
        ability,
        placement,
        links: None,
        ..
    } = &cmd
    else {
        return cmd;
    };
    let content = e.content();
    let Some(spec) = content.ability(ability).and_then(|a| a.glyph.as_ref()) else {
        return cmd;
    };
    let Some(side) = e.side_of(*creature) else {
        return cmd;
    };
    let Ok(area) = e.area_of(*creature, ability, placement) else {
        return cmd;
    };
    let glyphs = e.glyphs();
    let near: Vec<_> = glyphs
        .list
        .iter()
        .filter(|g| {
            !g.dismissed
                && g.side == side
                && !area.covered.contains(&g.at)
                && area.covered.iter().any(|&q| q.distance(g.at) <= 1)
        })
        .collect();
    let kept: Vec<Pos> = near
        .iter()
        .filter(|g| {
            content
                .ability(&g.from)
                .and_then(|a| a.glyph.as_ref())
                .is_some_and(|other| shares_command(spec, other))
        })
        .map(|g| g.at)
        .collect();
    if kept.len() == near.len() {
        return cmd;
    }
    let mut cmd = cmd;
    if let Command::UseAreaAbility { links, .. } = &mut cmd {
        *links = Some(kept);
    }
    cmd
}

/// Whether one glyph sends a command the other answers (either way),
/// `dismiss` aside.
pub fn shares_command(a: &crate::ability::GlyphSpec, b: &crate::ability::GlyphSpec) -> bool {
    let sends = |s: &crate::ability::GlyphSpec| -> Vec<String> {
        s.abilities
            .iter()
            .filter_map(|g| g.send.clone())
            .filter(|c| c != "dismiss")
            .collect()
    };
    let answers = |s: &crate::ability::GlyphSpec, cmd: &str| {
        s.abilities
            .iter()
            .any(|g| g.on == crate::ability::GlyphTrigger::Command(cmd.to_string()))
    };
    sends(a).iter().any(|c| answers(b, c)) || sends(b).iter().any(|c| answers(a, c))
}
