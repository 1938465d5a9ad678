//! Floating text: what each roll did, on a dark backing just by the token
//! it happened to, and a line from each roll's user to its targets for a
//! moment. Floats wait their turn rather than pile up: one goes up only
//! where [`place::place`] finds it room.

mod place;
mod words;

use std::collections::VecDeque;

use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use skirmish_rules::stats::CreatureId;

pub use words::{Float, FloatAt, FloatStyle, floats_for, lines_for};

use super::game::{Applied, Game};
use super::layout::{Layout, TOKEN_SHARE};
use super::theme::Palette;
use super::tokens::TokenIndex;
use super::view::{BoardGeometry, SQUARE};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<FloatQueue>().add_systems(
        Update,
        (queue_floats, put_up, fade)
            .chain()
            .after(super::tokens::TokenSet)
            .after(super::layout::LayoutSet),
    );
}

/// Floats waiting for room by their target, oldest first.
#[derive(Resource, Default)]
pub struct FloatQueue {
    waiting: VecDeque<(Float, f32)>,
    generation: u64,
}

/// The most floats kept waiting: past it the oldest are dropped (a demo
/// at its fastest pace says more than can be shown).
const MOST_WAITING: usize = 24;
/// How long a float may wait before it is dropped, in seconds.
const LONGEST_WAIT: f32 = 6.0;

/// A float on screen: fades in, rises a little, fades out.
#[derive(Component)]
pub struct Floating {
    age: f32,
    life: f32,
    start: Vec2,
    rise: f32,
    /// The box it takes over its life, in world units.
    pub reserved: Rect,
    /// Its half size in world units, and the camera's scale (world units
    /// per pixel) when it went up: it keeps its size on screen, and its
    /// place inside the view, when the camera moves.
    half: Vec2,
    scale: f32,
}

/// The dark box behind a float's text.
#[derive(Component)]
struct Backing;

/// A roll's line from its user to a target.
#[derive(Component)]
struct RollLine {
    age: f32,
    life: f32,
}

/// A float's font size (logical pixels) and colour.
fn look(style: FloatStyle) -> (f32, Color) {
    match style {
        FloatStyle::Critical => (30.0, Palette::GOLD),
        FloatStyle::Tier => (26.0, Color::WHITE),
        FloatStyle::Damage => (20.0, Palette::DAMAGE),
        FloatStyle::Defeat => (22.0, Palette::DAMAGE),
        FloatStyle::Condition => (18.0, Palette::CONDITION),
        FloatStyle::Quiet => (17.0, Palette::QUIET),
        FloatStyle::Good => (17.0, Palette::GOOD),
    }
}

/// A text's estimated half width and height at `font_size` (the UI font's
/// glyphs average a little under 0.6 of its size across; a line is about
/// 1.2 of it high), with room for its backing.
fn half_size(text: &str, font_size: f32) -> Vec2 {
    Vec2::new(
        text.chars().count() as f32 * font_size * 0.31 + font_size * 0.35,
        font_size * 0.6 + font_size * 0.15,
    )
}

/// World units per physical pixel, and physical pixels per logical one.
fn scales(
    camera: &Query<(&Projection, &Transform), With<super::layout::BoardView>>,
    window: &Window,
    ui: &UiScale,
) -> (f32, f32, Vec2) {
    let (scale, at) = super::layout::board_view(camera).unwrap_or((1.0, Vec2::ZERO));
    (scale, ui.0 * window.scale_factor(), at)
}

fn queue_floats(
    mut commands: Commands,
    mut applied: MessageReader<Applied>,
    mut queue: ResMut<FloatQueue>,
    game: NonSend<Game>,
    tokens: Res<TokenIndex>,
    geometry: Res<BoardGeometry>,
    camera: Query<(&Projection, &Transform), With<super::layout::BoardView>>,
    window: Single<&Window, With<PrimaryWindow>>,
    ui: Res<UiScale>,
) {
    if queue.generation != game.generation {
        queue.waiting.clear();
        queue.generation = game.generation;
    }
    let (scale, _, _) = scales(&camera, &window, &ui);
    for batch in applied.read() {
        for f in floats_for(&batch.entries) {
            queue.waiting.push_back((f, 0.0));
        }
        for (from, to) in lines_for(&batch.entries) {
            let (Some(a), Some(b)) = (tokens.home(from), tokens.home(to)) else {
                continue;
            };
            let (a, b) = (geometry.centre(a.0, a.1), geometry.centre(b.0, b.1));
            let d = b - a;
            commands.spawn((
                Name::new("Roll line"),
                RollLine {
                    age: 0.0,
                    life: 1.1,
                },
                Sprite::from_color(
                    Palette::GOLD.with_alpha(0.85),
                    Vec2::new(d.length(), 5.0 * scale.max(0.5)),
                ),
                Transform::from_translation(((a + b) / 2.0).extend(9.0))
                    .with_rotation(Quat::from_rotation_z(d.y.atan2(d.x))),
            ));
        }
    }
    while queue.waiting.len() > MOST_WAITING {
        queue.waiting.pop_front();
    }
}

fn put_up(
    mut commands: Commands,
    time: Res<Time>,
    mut queue: ResMut<FloatQueue>,
    tokens: Res<TokenIndex>,
    geometry: Res<BoardGeometry>,
    layout: Res<Layout>,
    camera: Query<(&Projection, &Transform), With<super::layout::BoardView>>,
    window: Single<&Window, With<PrimaryWindow>>,
    ui: Res<UiScale>,
    up: Query<&Floating>,
    over: Res<super::layout::OverBoard>,
) {
    if queue.waiting.is_empty() {
        return;
    }
    let (scale, px, at) = scales(&camera, &window, &ui);
    let view = Rect::from_center_size(at, layout.board.size() * scale);
    let mut placed: Vec<Rect> = up.iter().map(|f| f.reserved).collect();
    // The roll card, while it stands over the board.
    if let Some(card) = over.0 {
        let to = |p| super::layout::to_world(&layout, (scale, at), p);
        placed.push(Rect::from_corners(to(card.min), to(card.max)));
    }
    let mut blocked: Vec<CreatureId> = Vec::new();
    let dt = time.delta_secs();
    let mut keep = VecDeque::new();
    while let Some((f, waited)) = queue.waiting.pop_front() {
        let FloatAt::Creature(id) = f.at;
        let Some((p, size)) = tokens.home(id) else {
            continue;
        };
        if waited > LONGEST_WAIT {
            continue;
        }
        // A target's floats go up in order.
        if blocked.contains(&id) {
            keep.push_back((f, waited + dt));
            continue;
        }
        let side = size.max(1) as f32 * SQUARE * TOKEN_SHARE;
        let token = Rect::from_center_size(geometry.centre(p, size), Vec2::splat(side));
        let (font, color) = look(f.style);
        let font = font * px * scale;
        let half = half_size(&f.text, font);
        let rise = side * 0.12;
        let Some(centre) = place::place(token, half, rise, view, &placed) else {
            blocked.push(id);
            keep.push_back((f, waited + dt));
            continue;
        };
        let reserved = place::reserved(centre, half, rise);
        placed.push(reserved);
        let life = match f.style {
            FloatStyle::Tier | FloatStyle::Critical | FloatStyle::Defeat => 2.4,
            _ => 1.8,
        };
        commands
            .spawn((
                Name::new("Float"),
                Floating {
                    age: 0.0,
                    life,
                    start: centre,
                    rise,
                    reserved,
                    half,
                    scale,
                },
                Text2d::new(f.text),
                TextFont {
                    font_size: FontSize::Px(font),
                    ..default()
                },
                TextColor(color.with_alpha(0.0)),
                TextLayout::justify(Justify::Center),
                Transform::from_translation(centre.extend(50.0)),
            ))
            .with_child((
                Backing,
                Sprite::from_color(Palette::FLOAT_BACKING.with_alpha(0.0), half * 2.0),
                Transform::from_xyz(0.0, 0.0, -0.1),
            ));
    }
    queue.waiting = keep;
}

fn fade(
    mut commands: Commands,
    time: Res<Time>,
    mut floats: Query<(
        Entity,
        &mut Floating,
        &mut Transform,
        &mut TextColor,
        &Children,
        &bevy::text::TextLayoutInfo,
    )>,
    mut backings: Query<&mut Sprite, With<Backing>>,
    mut lines: Query<(Entity, &mut RollLine, &mut Sprite), Without<Backing>>,
    camera: Query<(&Projection, &Transform), (With<super::layout::BoardView>, Without<Floating>)>,
    layout: Res<Layout>,
    window: Single<&Window, With<PrimaryWindow>>,
) {
    let scale_factor = window.scale_factor();
    let dt = time.delta_secs();
    let (now, at) = super::layout::board_view(camera.iter()).unwrap_or((1.0, Vec2::ZERO));
    let view = Rect::from_center_size(at, layout.board.size() * now);
    for (e, mut f, mut t, mut color, children, laid_out) in &mut floats {
        f.age += dt;
        let k = f.age / f.life;
        if k >= 1.0 {
            commands.entity(e).despawn();
            continue;
        }
        let zoom = now / f.scale.max(1e-6);
        let risen = Vec2::new(f.start.x, f.start.y + f.rise * k * zoom);
        let kept = place::keep_inside(risen, f.half * zoom, view);
        // The box it holds moves and scales with it, so later floats and
        // the roll card keep clear of where it really is.
        let start = f.start + (kept - risen);
        let held = place::reserved(start, f.half * zoom, f.rise * zoom);
        if f.reserved != held {
            f.reserved = held;
        }
        t.translation = kept.extend(t.translation.z);
        t.scale = Vec3::new(zoom, zoom, 1.0);
        let alpha = (f.age / 0.12).min(1.0) * if k < 0.75 { 1.0 } else { (1.0 - k) / 0.25 };
        color.0.set_alpha(alpha);
        for c in children.iter() {
            if let Ok(mut s) = backings.get_mut(c) {
                s.color = Palette::FLOAT_BACKING.with_alpha(0.82 * alpha);
                // Fitted to the text once laid out (a margin of a third of
                // a line), not to the estimate that placed it.
                if laid_out.size.y > 0.0 {
                    let fitted = laid_out.size / scale_factor
                        + Vec2::splat(laid_out.size.y / scale_factor / 3.0);
                    if s.custom_size != Some(fitted) {
                        s.custom_size = Some(fitted);
                    }
                }
            }
        }
    }
    for (e, mut l, mut s) in &mut lines {
        l.age += dt;
        if l.age >= l.life {
            commands.entity(e).despawn();
            continue;
        }
        s.color.set_alpha(0.85 * (1.0 - l.age / l.life));
    }
}

#[cfg(test)]
mod tests {
    use skirmish_rules::encounter::LogEntry;
    use skirmish_rules::map::Pos;
    use skirmish_rules::power_roll::Tier;
    use skirmish_rules::stats::DamageType;

    use super::*;

    const A: CreatureId = CreatureId(1);
    const B: CreatureId = CreatureId(2);

    fn tier(target: CreatureId, tier: Tier) -> LogEntry {
        super::words::tests::tier(target, tier, false)
    }

    fn damage(target: CreatureId, amount: i32) -> LogEntry {
        LogEntry::Damage {
            target,
            amount,
            damage_type: DamageType::Fire,
            stamina_left: 3,
            absorbed: 0,
            by: None,
        }
    }

    /// A headless app putting floats up over a 10 x 10 board seen whole.
    fn float_app() -> App {
        let mut app = App::new();
        app.add_plugins(MinimalPlugins)
            .add_message::<Applied>()
            .init_resource::<TokenIndex>()
            .init_resource::<FloatQueue>()
            .init_resource::<super::super::layout::OverBoard>()
            .insert_resource(UiScale(1.0))
            .insert_resource(BoardGeometry {
                width: 10,
                height: 10,
            })
            .insert_resource(super::super::layout::compute(Vec2::new(1280.0, 720.0), 1.0))
            .add_systems(Update, (put_up, fade).chain());
        app.insert_resource(bevy::time::TimeUpdateStrategy::ManualDuration(
            std::time::Duration::from_millis(250),
        ));
        app.world_mut().spawn((Window::default(), PrimaryWindow));
        app.world_mut().spawn((
            super::super::layout::BoardView,
            Projection::Orthographic(OrthographicProjection::default_2d()),
            Transform::default(),
        ));
        app
    }

    /// The floats up: their text, their box, and whom they are about (A's
    /// are tier 2, B's tier 3).
    fn floats(app: &mut App) -> Vec<(String, Rect, CreatureId)> {
        let mut q = app.world_mut().query::<(&Floating, &Text2d)>();
        q.iter(app.world())
            .map(|(f, t)| {
                let on = if t.0.contains("Tier 2") { A } else { B };
                (t.0.clone(), f.reserved, on)
            })
            .collect()
    }

    // Issue 49, point 3, headless: floats from many commands on two
    // neighbours stay within a token of their targets, inside the view and
    // apart; those without room wait, and go up once the first fade.
    #[test]
    fn floats_go_up_by_their_targets_apart_and_in_turn() {
        let mut app = float_app();
        let g = BoardGeometry {
            width: 10,
            height: 10,
        };
        for (id, x) in [(A, 4), (B, 5)] {
            app.world_mut().resource_mut::<TokenIndex>().place(
                id,
                Entity::PLACEHOLDER,
                Pos { x, y: 5 },
                1,
            );
        }
        let mut q = app.world_mut().resource_mut::<FloatQueue>();
        for n in 0..5 {
            for entries in [
                floats_for(&[tier(A, Tier::Two), damage(A, 8 + n)]),
                floats_for(&[tier(B, Tier::Three), damage(B, 11 + n)]),
            ] {
                for f in entries {
                    q.waiting.push_back((f, 0.0));
                }
            }
        }
        app.update();
        let up = floats(&mut app);
        assert!(!up.is_empty() && up.len() < 10, "{} up", up.len());
        let waiting = app.world().resource::<FloatQueue>().waiting.len();
        assert_eq!(up.len() + waiting, 10);
        for (i, (text, b, id)) in up.iter().enumerate() {
            let p = if *id == A {
                Pos { x: 4, y: 5 }
            } else {
                Pos { x: 5, y: 5 }
            };
            let side = SQUARE * TOKEN_SHARE;
            let token = Rect::from_center_size(g.centre(p, 1), Vec2::splat(side));
            assert!(
                place::distance(*b, token) <= side,
                "{text} far from its token"
            );
            for (other, c, _) in &up[i + 1..] {
                assert!(!place::overlaps(*b, *c), "{text} over {other}");
            }
        }
        // Time passes (a quarter second an update): the first fade and
        // the waiting go up.
        for _ in 0..12 {
            app.update();
        }
        let later = floats(&mut app);
        assert!(!later.is_empty());
        assert!(
            later
                .iter()
                .all(|(t, _, _)| !up.iter().any(|(u, _, _)| u == t))
        );
    }
}
