//! Hits the weakest enemy it can; walks toward it otherwise.

use super::Brain;
use crate::encounter::{Command, Encounter};

pub struct Bully;

impl Brain for Bully {
    fn name(&self) -> String {
        "bully".into()
    }

    fn choose(&mut self, e: &Encounter, legal: &[Command]) -> Command {
        let stamina = |id| e.creature(id).map_or(i32::MAX, |c| c.stamina.current);
        // Prompts: strike back whenever offered.
        if let Some(take) = legal.iter().find(|c| {
            matches!(
                c,
                Command::Answer {
                    reaction: Some(_),
                    ..
                }
            )
        }) {
            return take.clone();
        }
        // An attack on the weakest target in reach, by expected damage.
        let attack = legal
            .iter()
            .filter_map(|c| {
                let target = match c {
                    Command::UseAbility { targets, .. } => *targets.first()?,
                    Command::FreeStrike { target, .. } => *target,
                    _ => return None,
                };
                let hurt = e.preview(c)?.expected_damage();
                (hurt > 0.0).then_some((stamina(target), -hurt as i32, c))
            })
            .min_by_key(|(s, h, _)| (*s, *h));
        if let Some((_, _, c)) = attack {
            return c.clone();
        }
        // Otherwise the move that ends closest to the weakest enemy.
        let me = legal.first().and_then(|c| e.creature(c.creature()));
        let weakest = e
            .creatures()
            .into_iter()
            .filter(|c| Some(c.side) != me.as_ref().map(|m| m.side) && !c.stamina.is_dead())
            .min_by_key(|c| c.stamina.current);
        if let Some(w) = weakest {
            let step = legal.iter().filter_map(|c| match c {
                // (`Movement` is a move under the phased 2d6 ruleset.)
                Command::Move { path, .. } | Command::Movement { path, .. } => {
                    Some((path.end()?.distance(w.space.pos), c))
                }
                _ => None,
            });
            if let Some((_, c)) = step.min_by_key(|(d, _)| *d) {
                return c.clone();
            }
        }
        // Nothing to do: end the turn (or start the first creature offered).
        legal
            .iter()
            .find(|c| matches!(c, Command::EndTurn { .. }))
            .unwrap_or(&legal[0])
            .clone()
    }
}
