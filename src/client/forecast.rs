//! Forecasts on the board while aiming: over each target, its expected
//! damage and chance to drop; for the target under the cursor, forced
//! movement as an arrow to where it lands, with collision and fall damage
//! marked. Everything comes from the engine's own forecast
//! ([`Encounter::preview`]) and forced-movement function
//! (`map::forced::resolve`); nothing is rolled.

use bevy::prelude::*;
use skirmish_rules::ability::ForcedKind;
use skirmish_rules::encounter::{Command, Encounter, Preview};
use skirmish_rules::map::forced::{self, Force, ForcedEvent, ForcedResult};
use skirmish_rules::map::{Footprint, Pos};
use skirmish_rules::stats::CreatureId;

use super::game::{Game, Pending, Selection};
use super::intent::{self, Aim};
use super::theme::Palette;
use super::view::{BoardGeometry, SQUARE};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, draw.after(super::input::InputSet));
}

#[derive(Component)]
struct Forecast;

type Key = (u64, u64, Aim, Option<Pos>, Option<Pending>);

/// The commands to forecast now: one per target the aimed ability can
/// take (with the spend prompt's choices, when it is up), or the area
/// under the cursor; and the one a click would carry out.
pub fn aimed_commands(
    game: &Game,
    selection: &Selection,
    actor: CreatureId,
) -> (Vec<Command>, Option<Command>) {
    if let Some(p) = &selection.pending {
        let cmd = super::input::with_choices(p);
        return (vec![cmd.clone()], Some(cmd));
    }
    let e = &game.encounter;
    let occupant = |p: Pos| {
        e.occupants()
            .into_iter()
            .find(|o| o.space.squares().any(|q| q == p))
            .map(|o| o.id)
    };
    let hovered = selection.hover.and_then(|h| {
        intent::command_at(&game.legal, actor, &selection.aim, h, occupant(h), false)
    });
    let mut each: Vec<Command> = Vec::new();
    let mut seen: Vec<CreatureId> = Vec::new();
    for c in game.legal.iter().filter(|c| c.creature() == actor) {
        let target = match (&selection.aim, c) {
            (
                Aim::Ability(id),
                Command::UseAbility {
                    ability, targets, ..
                },
            ) if ability == id && targets.len() == 1 => targets[0],
            (Aim::FreeStrike, Command::FreeStrike { target, .. }) => *target,
            _ => continue,
        };
        if !seen.contains(&target) {
            seen.push(target);
            each.push(c.clone());
        }
    }
    if each.is_empty()
        && let Some(h) = &hovered
    {
        each.push(h.clone());
    }
    (each, hovered)
}

/// The words over a target's token: expected damage and chance to drop.
pub fn over_token(t: &skirmish_rules::encounter::TargetPreview) -> Option<String> {
    if t.expected_damage < 0.05 {
        return None;
    }
    let mut s = format!("≈{:.0} dmg", t.expected_damage);
    if t.kill_chance > 0.0 {
        s += &format!(" · {:.0}% down", (t.kill_chance * 100.0).clamp(1.0, 100.0));
    }
    Some(s)
}

/// Where the forecast's likeliest forced movement would take `target`.
pub fn landing(
    e: &Encounter,
    preview: &Preview,
    user: CreatureId,
    target: CreatureId,
) -> Option<(ForcedKind, u32, ForcedResult)> {
    let t = preview.targets.iter().find(|t| t.target == target)?;
    let (tier, _) = (0..3)
        .filter(|i| t.tiers[*i].forced.is_some())
        .map(|i| (i, t.chances[i]))
        .max_by(|a, b| a.1.total_cmp(&b.1))?;
    landing_at(e, preview, user, target, tier)
}

/// Where tier `tier` (0 to 2) of the forecast would force `target`.
pub fn landing_at(
    e: &Encounter,
    preview: &Preview,
    user: CreatureId,
    target: CreatureId,
    tier: usize,
) -> Option<(ForcedKind, u32, ForcedResult)> {
    let t = preview.targets.iter().find(|t| t.target == target)?;
    let (kind, distance) = t.tiers.get(tier)?.forced?;
    let who = e.creature(target)?;
    let by = e.creature(user)?;
    // Restrained, or grabbed by another: not moved at all
    // (docs/rules.md#grabbed, docs/rules.md#restrained).
    let limits = skirmish_rules::conditions::movement_limits(&who.conditions, 0);
    if !limits.can_be_force_moved || limits.force_moved_only_by.is_some_and(|g| g != user) {
        return None;
    }
    // A slide goes where the user chooses: shown going straight away.
    let aim = (kind == ForcedKind::Slide).then(|| {
        let (dx, dy) = (
            who.space.pos.x - by.space.pos.x,
            who.space.pos.y - by.space.pos.y,
        );
        who.space.pos.offset(dx.signum() * 8, dy.signum() * 8)
    });
    let result = forced::resolve(
        e.map(),
        &e.occupants(),
        &Force {
            kind,
            distance,
            vertical: false,
            target,
            target_space: who.space,
            stability: who.movement.stability,
            source: by.space,
            aim,
            flies: who.movement.modes.fly && !limits.prone,
        },
    );
    Some((kind, distance, result))
}

fn text_at(commands: &mut Commands, at: Vec2, words: String, size: f32, color: Color) {
    commands.spawn((
        Forecast,
        Text2d::new(words),
        TextFont {
            font_size: FontSize::Px(size),
            ..default()
        },
        TextColor(color),
        bevy::sprite::Text2dShadow::default(),
        Transform::from_translation(at.extend(13.0)),
    ));
}

/// A bar from `a` to `b`.
fn segment(commands: &mut Commands, a: Vec2, b: Vec2, color: Color) {
    let d = b - a;
    commands.spawn((
        Forecast,
        Sprite::from_color(color, Vec2::new(d.length(), 6.0)),
        Transform::from_translation(((a + b) / 2.0).extend(12.5))
            .with_rotation(Quat::from_rotation_z(d.y.atan2(d.x))),
    ));
}

fn draw(
    mut commands: Commands,
    game: NonSend<Game>,
    selection: Res<Selection>,
    geometry: Res<BoardGeometry>,
    old: Query<Entity, With<Forecast>>,
    mut drawn: Local<Option<Key>>,
) {
    let key = (
        game.generation,
        game.version,
        selection.aim.clone(),
        selection.hover,
        selection.pending.clone(),
    );
    if drawn.as_ref() == Some(&key) {
        return;
    }
    *drawn = Some(key);
    for e in &old {
        commands.entity(e).despawn();
    }
    if !game.players_turn() || game.encounter.prompt().is_some() || selection.aim == Aim::Move {
        return;
    }
    let Some(actor) = game.encounter.active_creature() else {
        return;
    };
    let e = &game.encounter;
    let g = *geometry;
    let (each, hovered) = aimed_commands(&game, &selection, actor);
    for cmd in &each {
        let Some(p) = e.preview(cmd) else { continue };
        for t in &p.targets {
            let (Some(words), Some(c)) = (over_token(t), e.creature(t.target)) else {
                continue;
            };
            let top = g.centre(c.space.pos, c.space.size)
                + Vec2::new(0.0, SQUARE * (c.space.size as f32 * 0.5 + 0.25));
            let colour = if t.kill_chance > 0.0 {
                Palette::DAMAGE
            } else {
                Palette::GOOD
            };
            text_at(&mut commands, top, words, 20.0, colour);
        }
    }
    // Forced movement of the command a click would carry out.
    let Some(cmd) = hovered else { return };
    let Some(p) = e.preview(&cmd) else { return };
    for t in &p.targets {
        let Some((kind, distance, r)) = landing(e, &p, actor, t.target) else {
            continue;
        };
        let Some(c) = e.creature(t.target) else {
            continue;
        };
        let size = c.space.size;
        let mut at = g.centre(c.space.pos, size);
        for step in &r.path {
            let next = g.centre(*step, size);
            segment(&mut commands, at, next, Palette::TARGET);
            at = next;
        }
        let end = Footprint::new(r.end, size);
        let ring = g.centre(end.pos, size);
        commands.spawn((
            Forecast,
            Sprite::from_color(
                Palette::TARGET.with_alpha(0.35),
                Vec2::splat(SQUARE * size as f32 - 8.0),
            ),
            Transform::from_translation(ring.extend(12.0)),
        ));
        let verb = match kind {
            ForcedKind::Push => "push",
            ForcedKind::Pull => "pull",
            ForcedKind::Slide => "slide",
        };
        let mut words = format!("{verb} {distance}");
        let hurt = r.damage_to_target();
        if hurt > 0 {
            words += &format!(" · {hurt} dmg");
        }
        text_at(
            &mut commands,
            ring - Vec2::new(0.0, SQUARE * 0.55),
            words,
            20.0,
            Palette::TARGET,
        );
        for ev in &r.events {
            let (square, what) = match ev {
                ForcedEvent::CollidedWithCreature { at, damage, .. } => {
                    (*at, format!("✸ collide {damage}"))
                }
                ForcedEvent::CollidedWithObstacle { at, damage } => {
                    (*at, format!("✸ wall {damage}"))
                }
                ForcedEvent::BrokeThrough { at, damage, .. } => {
                    (*at, format!("✸ through {damage}"))
                }
                ForcedEvent::Fell { at, damage, .. } => (*at, format!("↓ fall {damage}, prone")),
            };
            text_at(
                &mut commands,
                g.centre(square, 1) + Vec2::new(0.0, SQUARE * 0.3),
                what,
                20.0,
                Palette::DANGER,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::client::game::{Mode, Setup};
    use skirmish_rules::ai;

    // Issue 50 point 3: a push is forecast to the square the engine's own
    // forced movement lands on, and applying it with that tier lands there.
    #[test]
    fn a_forecast_push_lands_where_the_engine_puts_it() {
        let content = crate::client::shipped_content();
        let mut checked = 0;
        for seed in 0..40 {
            let setup = Setup {
                encounter: "keep_breach".into(),
                mode: Mode::Hotseat,
                seed,
                brain: ai::DEFAULT_BRAIN.into(),
                replay: None,
                load: None,
            };
            let mut g = Game::new(content.clone(), &setup, 1).unwrap();
            let mut brain = ai::by_name("greedy", seed, &content).unwrap();
            for _ in 0..300 {
                if g.encounter.outcome().is_some() {
                    break;
                }
                let legal = g.encounter.legal_actions();
                // A push on one target, forecast at tier 3, then rolled
                // as a natural 20 (tier 3 whatever the modifiers).
                let push = legal.iter().find_map(|c| match c {
                    Command::UseAbility {
                        creature, targets, ..
                    } if targets.len() == 1 => {
                        let p = g.encounter.preview(c)?;
                        let (kind, _, r) = landing_at(&g.encounter, &p, *creature, targets[0], 2)?;
                        (kind == ForcedKind::Push).then(|| (c.clone(), targets[0], r))
                    }
                    _ => None,
                });
                if let Some((cmd, target, r)) = push {
                    let before = g.encounter.snapshot();
                    g.encounter.dice_mut().force([10, 10]);
                    g.encounter.apply(cmd).unwrap();
                    let hit = g.encounter.creature(target).unwrap();
                    let standing = hit.stamina.health() != skirmish_rules::stats::Health::Dead;
                    if standing && g.encounter.prompt().is_none() {
                        assert_eq!(hit.space.pos, r.end, "seed {seed}");
                        checked += 1;
                    }
                    g.encounter.restore(&before);
                }
                let c = brain.choose(&g.encounter, &legal);
                g.encounter.apply(c).unwrap();
            }
            if checked >= 3 {
                break;
            }
        }
        assert!(checked > 0, "a push was forecast and checked");
    }
}
