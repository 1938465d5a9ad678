//! What the board shows about the player's choice: reachable squares with
//! their cost, the hovered path and the opportunity attacks it provokes,
//! an ability's distance and valid targets, and an area template under the
//! cursor with the squares its effect can't reach drawn apart.

use bevy::prelude::*;
use skirmish_rules::content::encounter::Objective;
use skirmish_rules::encounter::Command;
use skirmish_rules::map::Pos;
use skirmish_rules::stats::CreatureId;

use super::game::{Game, Selection};
use super::intent::{self, Aim};
use super::theme::Palette;
use super::view::{BoardGeometry, SQUARE};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, draw.after(super::input::InputSet));
}

#[derive(Component)]
struct Overlay;

/// What the overlay was drawn for; redrawn when it changes.
#[derive(Default, PartialEq)]
struct Drawn {
    key: (u64, u64, Aim, Option<Pos>, bool, bool),
}

fn square(
    commands: &mut Commands,
    g: &BoardGeometry,
    p: Pos,
    color: Color,
    z: f32,
    inset: f32,
) -> Entity {
    commands
        .spawn((
            Overlay,
            Sprite::from_color(color, Vec2::splat(SQUARE - inset)),
            Transform::from_translation(g.centre(p, 1).extend(z)),
        ))
        .id()
}

/// Where a label sits on its square: the upper left, or the middle.
const CORNER: Vec2 = Vec2::new(-18.0, 18.0);

fn label(
    commands: &mut Commands,
    g: &BoardGeometry,
    (p, offset): (Pos, Vec2),
    text: String,
    size: f32,
    color: Color,
) {
    commands.spawn((
        Overlay,
        Text2d::new(text),
        TextFont {
            font_size: FontSize::Px(size),
            ..default()
        },
        TextColor(color),
        bevy::sprite::Text2dShadow::default(),
        Transform::from_translation((g.centre(p, 1) + offset).extend(8.0)),
    ));
}

/// A square's outline, as four thin bars.
fn outline(commands: &mut Commands, g: &BoardGeometry, p: Pos, size: u32, color: Color, z: f32) {
    let c = g.centre(p, size);
    let w = SQUARE * size as f32;
    let t = 4.0;
    for (off, dim) in [
        (Vec2::new(0.0, w / 2.0 - t / 2.0), Vec2::new(w, t)),
        (Vec2::new(0.0, -w / 2.0 + t / 2.0), Vec2::new(w, t)),
        (Vec2::new(w / 2.0 - t / 2.0, 0.0), Vec2::new(t, w)),
        (Vec2::new(-w / 2.0 + t / 2.0, 0.0), Vec2::new(t, w)),
    ] {
        commands.spawn((
            Overlay,
            Sprite::from_color(color, dim),
            Transform::from_translation((c + off).extend(z)),
        ));
    }
}

/// A path the actor would walk: its squares after the first, and each
/// creature whose opportunity attack it provokes, marked.
fn route(commands: &mut Commands, g: &BoardGeometry, game: &Game, actor: CreatureId, path: &[Pos]) {
    for p in path.iter().skip(1) {
        square(
            commands,
            g,
            *p,
            Color::srgba(0.4, 0.75, 1.0, 0.45),
            5.5,
            14.0,
        );
    }
    let (_, provoked) = intent::path_preview(&game.encounter, actor, path);
    for by in provoked {
        if let Some(c) = game.encounter.creature(by) {
            outline(commands, g, c.space.pos, c.space.size, Palette::DANGER, 7.0);
            label(
                commands,
                g,
                (c.space.pos, CORNER),
                "⚔ opportunity attack".into(),
                22.0,
                Palette::DANGER,
            );
        }
    }
}

fn draw(
    mut commands: Commands,
    game: NonSend<Game>,
    selection: Res<Selection>,
    geometry: Res<BoardGeometry>,
    old: Query<Entity, With<Overlay>>,
    reasons: Res<super::reasons::Reasons>,
    mut drawn: Local<Drawn>,
) {
    let key = (
        game.generation,
        game.version,
        selection.aim.clone(),
        selection.hover,
        selection.shift,
        selection.pending.is_some(),
    );
    if drawn.key == key {
        return;
    }
    drawn.key = key;
    for e in &old {
        commands.entity(e).despawn();
    }
    let g = *geometry;
    if let Some(h) = selection.hover {
        outline(
            &mut commands,
            &g,
            h,
            1,
            Color::srgba(1.0, 1.0, 1.0, 0.55),
            6.0,
        );
    }
    // docs/rules.md#objectives: the zone to hold or the edge to escape by,
    // and (docs/rules.md#reinforcements) where monsters are still to arrive.
    if let Some(plan) = game.encounter.plan() {
        let goal = Palette::GOLD;
        match &plan.objective {
            Objective::Hold { zone, .. } => {
                for p in zone.squares() {
                    square(&mut commands, &g, p, goal.with_alpha(0.16), 1.4, 4.0);
                    outline(&mut commands, &g, p, 1, goal.with_alpha(0.6), 1.45);
                }
            }
            Objective::Escape { edge } => {
                for y in 0..g.height {
                    for x in 0..g.width {
                        let p = Pos { x, y };
                        if edge.holds(p, g.width, g.height) {
                            square(
                                &mut commands,
                                &g,
                                p,
                                Palette::GOOD.with_alpha(0.16),
                                1.4,
                                4.0,
                            );
                        }
                    }
                }
            }
            _ => {}
        }
        let round = game.encounter.flow().round;
        for (r, arrivals) in &plan.reinforcements {
            if *r <= round {
                continue;
            }
            for (m, _) in arrivals {
                let p = Pos {
                    x: m.at.0,
                    y: m.at.1,
                };
                outline(
                    &mut commands,
                    &g,
                    p,
                    1,
                    Palette::DIRECTOR.with_alpha(0.8),
                    1.5,
                );
                label(
                    &mut commands,
                    &g,
                    (p, Vec2::ZERO),
                    format!("R{r}"),
                    18.0,
                    Palette::DIRECTOR,
                );
            }
        }
    }
    // Pending slow actions (docs/rules.md#moving): where they will land, for everyone
    // to see and step out of.
    for c in game.encounter.creatures() {
        for p in &c.casting_area {
            let tint = Palette::side(c.side);
            square(&mut commands, &g, *p, tint.with_alpha(0.18), 1.5, 6.0);
            outline(&mut commands, &g, *p, 1, tint.with_alpha(0.7), 1.6);
        }
    }
    if !game.players_turn() || game.encounter.prompt().is_some() {
        return;
    }
    let Some(actor) = game.encounter.active_creature() else {
        return;
    };
    let Some(view) = game.encounter.creature(actor) else {
        return;
    };
    // A click here would do nothing: crossed out (the card says why).
    if let Some((at, _)) = &reasons.hover {
        label(
            &mut commands,
            &g,
            (*at, Vec2::ZERO),
            "✕".into(),
            34.0,
            Palette::DANGER,
        );
    }
    let legal = &game.legal;
    let who_at = |p: Pos| {
        game.encounter
            .occupants()
            .into_iter()
            .find(|o| o.space.squares().any(|q| q == p))
            .map(|o| o.id)
    };
    match &selection.aim {
        Aim::Move => {
            let dests = intent::destinations(legal, actor);
            let path = selection.hover.and_then(|h| {
                let cmd = intent::command_at(legal, actor, &Aim::Move, h, None, selection.shift)?;
                match cmd {
                    Command::Move { path, .. } | Command::Movement { path, .. } => {
                        Some(path.into_vec())
                    }
                    Command::Shift { to, .. } => Some(vec![view.space.pos, to]),
                    _ => None,
                }
            });
            // Phased 2d6: hustles amber, runs red, the rest blue. Once the
            // move action is spent, a move takes the main action: gold, and
            // it asks first (docs/rules.md#actions-on-a-turn).
            let powers = intent::powers(legal, actor);
            let second = !view.budget.move_action && view.budget.main;
            for (&p, route) in &dests {
                use skirmish_rules::phased::MovementPower as P;
                let shade = match powers.get(&p) {
                    Some(P::Hustle) => Color::srgba(1.0, 0.7, 0.2, 0.25),
                    Some(P::Run) => Color::srgba(1.0, 0.35, 0.3, 0.25),
                    _ if second => Palette::MAIN_MOVE.with_alpha(0.24),
                    _ => Palette::MOVE.with_alpha(0.22),
                };
                square(&mut commands, &g, p, shade, 5.0, 2.0);
                let (cost, _) = intent::path_preview(&game.encounter, actor, route);
                // Large, in the middle of the square: a cost is read from
                // across the room as well as up close.
                label(
                    &mut commands,
                    &g,
                    (p, Vec2::ZERO),
                    cost.to_string(),
                    26.0,
                    Color::srgba(0.8, 0.9, 1.0, 0.85),
                );
            }
            // Beyond: a second move, paid with the main action.
            let far = intent::second_moves(&game.encounter, legal, actor);
            for (&p, (cost, _)) in &far {
                square(
                    &mut commands,
                    &g,
                    p,
                    Palette::MAIN_MOVE.with_alpha(0.2),
                    5.0,
                    2.0,
                );
                label(
                    &mut commands,
                    &g,
                    (p, Vec2::ZERO),
                    cost.to_string(),
                    26.0,
                    Color::srgba(0.85, 1.0, 0.92, 0.85),
                );
            }
            if let Some(path) = path {
                route(&mut commands, &g, &game, actor, &path);
            } else if let Some((_, first)) = selection.hover.and_then(|h| far.get(&h)) {
                route(&mut commands, &g, &game, actor, first);
            }
        }
        aim => {
            // The ability's distance, faintly.
            if let Aim::Ability(id) = aim
                && let Some(ab) = game.encounter.content().ability(id)
            {
                let reach = ab.distance.reach();
                if reach > 0 && reach < 30 {
                    for p in game.encounter.map().squares() {
                        if view.space.distance_to(p) <= reach
                            && !view.space.squares().any(|q| q == p)
                            && !game.encounter.map().blocks(p.x, p.y)
                        {
                            square(
                                &mut commands,
                                &g,
                                p,
                                Color::srgba(1.0, 0.85, 0.3, 0.08),
                                4.5,
                                0.0,
                            );
                        }
                    }
                }
            }
            let (targets, anchors) = intent::aim_targets(legal, actor, aim);
            for t in targets {
                if let Some(c) = game.encounter.creature(t) {
                    outline(
                        &mut commands,
                        &g,
                        c.space.pos,
                        c.space.size,
                        Palette::TARGET,
                        7.0,
                    );
                }
            }
            for a in &anchors {
                square(
                    &mut commands,
                    &g,
                    *a,
                    Color::srgba(1.0, 0.85, 0.3, 0.16),
                    5.0,
                    20.0,
                );
            }
            // The template under the cursor (or around the user).
            let hover = selection.hover.unwrap_or(view.space.pos);
            let cmd = intent::command_at(legal, actor, aim, hover, who_at(hover), false);
            // A charge's run, as a move's path is shown.
            if let Some(Command::Charge { path, .. }) = &cmd {
                route(&mut commands, &g, &game, actor, &path.to_vec());
            }
            if let Some(Command::UseAreaAbility {
                ability, placement, ..
            }) = cmd
                && let Ok(area) = game.encounter.area_of(actor, &ability, &placement)
            {
                for p in &area.covered {
                    if area.reaches(*p) {
                        square(
                            &mut commands,
                            &g,
                            *p,
                            Color::srgba(1.0, 0.5, 0.1, 0.42),
                            5.5,
                            2.0,
                        );
                        // Outlined too, so the template shows around tokens.
                        outline(&mut commands, &g, *p, 1, Color::srgb(1.0, 0.55, 0.1), 9.5);
                    } else {
                        // Covered but out of the effect's reach: dark and crossed.
                        square(
                            &mut commands,
                            &g,
                            *p,
                            Color::srgba(0.05, 0.05, 0.08, 0.55),
                            5.5,
                            2.0,
                        );
                        label(
                            &mut commands,
                            &g,
                            (*p, CORNER),
                            "✕".into(),
                            18.0,
                            Color::srgb(0.7, 0.7, 0.7),
                        );
                    }
                }
            }
        }
    }
}
