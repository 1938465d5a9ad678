//! Tokens: a round token per creature with its icon, a ring in its side's
//! colour, a stamina bar, a winded mark, condition badges and, for heroes,
//! their heroic resource and surges. Larger creatures cover their squares.
//! Moves and forced movement are animated square by square.

use std::collections::{HashMap, VecDeque};

use bevy::asset::RenderAssetUsages;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
use bevy::sprite::Anchor;
use skirmish_rules::encounter::CreatureKind;
use skirmish_rules::encounter::LogEntry;
use skirmish_rules::map::Pos;
use skirmish_rules::stats::{CreatureId, Health};

use super::game::{Applied, Game};
use super::theme::Palette;
use super::view::{BoardGeometry, SQUARE};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<TokenIndex>()
        .add_systems(Startup, (make_art, spawn_tooltip))
        .add_systems(
            Update,
            (rebuild, follow_moves, sync, animate, badge_hover)
                .chain()
                .in_set(TokenSet)
                .after(super::board::BoardSet),
        );
}

/// The token systems: floating text runs after them.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct TokenSet;

/// Where each creature's token is, and where it stands.
#[derive(Resource, Default, Debug)]
pub struct TokenIndex {
    tokens: HashMap<CreatureId, (Entity, Pos, u32)>,
    generation: u64,
    version: u64,
}

impl TokenIndex {
    /// Record a creature's token and where it stands.
    pub fn place(&mut self, id: CreatureId, token: Entity, at: Pos, size: u32) {
        self.tokens.insert(id, (token, at, size));
    }

    /// The square a creature stands on, and its size.
    pub fn home(&self, id: CreatureId) -> Option<(Pos, u32)> {
        self.tokens.get(&id).map(|t| (t.1, t.2))
    }
}

/// The generated token art: a soft disc and a ring of each shape, tinted
/// per use.
#[derive(Resource)]
struct TokenArt {
    disc: [Handle<Image>; 2],
    ring: [Handle<Image>; 2],
}

impl TokenArt {
    fn disc(&self, shape: Shape) -> Handle<Image> {
        self.disc[shape as usize].clone()
    }

    fn ring(&self, shape: Shape) -> Handle<Image> {
        self.ring[shape as usize].clone()
    }
}

/// A token's outline: heroes are round, monsters square with round
/// corners, so the sides differ by shape as well as colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    Round,
    Square,
}

impl Shape {
    pub fn of(side: skirmish_rules::map::Side) -> Shape {
        match side {
            skirmish_rules::map::Side::Heroes => Shape::Round,
            skirmish_rules::map::Side::Director => Shape::Square,
        }
    }

    /// How far `(x, y)` (each -1 to 1 across the image) is from the centre
    /// in this shape's measure: 1 on its edge.
    pub fn measure(self, x: f32, y: f32) -> f32 {
        match self {
            Shape::Round => (x * x + y * y).sqrt(),
            // A squircle: a square whose corners are rounded.
            Shape::Square => (x.abs().powi(6) + y.abs().powi(6)).powf(1.0 / 6.0),
        }
    }
}

fn shape_image(shape: Shape, inner: f32, outer: f32) -> Image {
    let n = 128u32;
    let mut data = vec![0u8; (n * n * 4) as usize];
    let c = (n as f32 - 1.0) / 2.0;
    for y in 0..n {
        for x in 0..n {
            let d = shape.measure((x as f32 - c) / c, (y as f32 - c) / c);
            // Anti-aliased edges, one pixel wide.
            let px = 1.0 / c;
            let a_out = ((outer - d) / px).clamp(0.0, 1.0);
            let a_in = if inner > 0.0 {
                ((d - inner) / px).clamp(0.0, 1.0)
            } else {
                1.0
            };
            // A little shading toward the rim gives the disc some depth.
            let light = (1.0 - 0.25 * d).clamp(0.0, 1.0);
            let v = (255.0 * light) as u8;
            let i = ((y * n + x) * 4) as usize;
            data[i..i + 4].copy_from_slice(&[v, v, v, (255.0 * a_out * a_in) as u8]);
        }
    }
    Image::new(
        Extent3d {
            width: n,
            height: n,
            depth_or_array_layers: 1,
        },
        TextureDimension::D2,
        data,
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::default(),
    )
}

fn make_art(mut commands: Commands, mut images: ResMut<Assets<Image>>) {
    let mut art = |shape, inner| images.add(shape_image(shape, inner, 1.0));
    commands.insert_resource(TokenArt {
        disc: [art(Shape::Round, 0.0), art(Shape::Square, 0.0)],
        ring: [art(Shape::Round, 0.8), art(Shape::Square, 0.82)],
    });
}

/// A creature's token.
#[derive(Component)]
pub struct Token {
    pub id: CreatureId,
    /// Squares still to walk through (animation), in world positions.
    route: VecDeque<Vec2>,
    speed: f32,
    shake: f32,
}

#[derive(Component)]
struct StaminaFill;
#[derive(Component)]
struct Halo;
/// The row of badges above a token, and the words it last showed.
#[derive(Component, Default)]
struct Badges(Vec<(String, String)>);
/// One badge: the word said when the pointer is over it.
#[derive(Component)]
pub struct Badge(pub String);
#[derive(Component)]
struct WindedMark;
#[derive(Component)]
struct ResourceLabel;
#[derive(Component)]
struct Ring;
#[derive(Component)]
struct Icon;

const BAR_W: f32 = 52.0;
/// A badge's width on the board (world pixels; a square is 64).
const BADGE: f32 = 26.0;

/// How a token shows a monster's organization (docs/art.md): minions are
/// smaller, elites, leaders and solos get a second frame inside the ring
/// (silver, gold, and gold with a third ring).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Frame {
    Hero,
    Minion,
    Platoon,
    Elite,
    Leader,
    Solo,
}

impl Frame {
    pub fn of(
        c: &skirmish_rules::encounter::CreatureView,
        db: &skirmish_rules::content::ContentDb,
    ) -> Frame {
        use skirmish_rules::content::Organization as O;
        match &c.kind {
            CreatureKind::Hero { .. } => Frame::Hero,
            CreatureKind::Monster { .. } if c.squad.is_some() => Frame::Minion,
            CreatureKind::Monster { stat_block, .. } => {
                match db.monsters.get(stat_block).map(|m| m.organization) {
                    Some(O::Minion) => Frame::Minion,
                    Some(O::Elite) => Frame::Elite,
                    Some(O::Leader) => Frame::Leader,
                    Some(O::Solo) => Frame::Solo,
                    Some(O::Platoon) | None => Frame::Platoon,
                }
            }
        }
    }

    /// The token's size against a full square.
    pub fn scale(self) -> f32 {
        if self == Frame::Minion { 0.8 } else { 1.0 }
    }

    /// The inner frame's colour, if it has one.
    pub fn inner(self) -> Option<Color> {
        match self {
            Frame::Elite => Some(Color::srgb(0.78, 0.8, 0.86)),
            Frame::Leader | Frame::Solo => Some(Palette::GOLD),
            _ => None,
        }
    }
}

fn rebuild(
    mut commands: Commands,
    game: NonSend<Game>,
    mut index: ResMut<TokenIndex>,
    art: Res<TokenArt>,
    icons: Res<super::icons::IconArt>,
    geometry: Res<BoardGeometry>,
) {
    // A new game, or creatures summoned onto the board.
    let count = game.encounter.ids().len();
    if index.generation == game.generation && index.tokens.len() == count {
        return;
    }
    for (e, _, _) in index.tokens.values() {
        commands.entity(*e).despawn();
    }
    index.tokens.clear();
    index.generation = game.generation;
    index.version = u64::MAX;
    for c in game.encounter.creatures() {
        let size = c.space.size.max(1);
        let k = size as f32;
        let at = geometry.centre(c.space.pos, size);
        let side = Palette::side(c.side);
        let shape = Shape::of(c.side);
        let frame = Frame::of(&c, game.encounter.content());
        let s = SQUARE * k * frame.scale();
        let e = commands
            .spawn((
                Name::new(format!("Token {}", c.name)),
                Token {
                    id: c.id,
                    route: VecDeque::new(),
                    speed: 0.0,
                    shake: 0.0,
                },
                Transform::from_translation(at.extend(10.0)),
                Visibility::Visible,
            ))
            .with_children(|t| {
                t.spawn((
                    Halo,
                    Sprite {
                        image: art.ring(shape),
                        color: Palette::GOLD,
                        custom_size: Some(Vec2::splat(s + 6.0)),
                        ..default()
                    },
                    Transform::from_xyz(0.0, 0.0, -0.2),
                    Visibility::Hidden,
                ));
                t.spawn((
                    Sprite {
                        image: art.disc(shape),
                        color: Color::srgb(0.13, 0.13, 0.16),
                        custom_size: Some(Vec2::splat(s - 8.0)),
                        ..default()
                    },
                    Transform::from_xyz(0.0, 0.0, 0.0),
                ));
                t.spawn((
                    Ring,
                    Sprite {
                        image: art.ring(shape),
                        color: side,
                        custom_size: Some(Vec2::splat(s - 6.0)),
                        ..default()
                    },
                    Transform::from_xyz(0.0, 0.0, 0.1),
                ));
                if let Some(inner) = frame.inner() {
                    t.spawn((
                        Sprite {
                            image: art.ring(shape),
                            color: inner,
                            custom_size: Some(Vec2::splat(s - 16.0)),
                            ..default()
                        },
                        Transform::from_xyz(0.0, 0.0, 0.12),
                    ));
                }
                if frame == Frame::Solo {
                    t.spawn((
                        Sprite {
                            image: art.ring(shape),
                            color: side,
                            custom_size: Some(Vec2::splat(s - 26.0)),
                            ..default()
                        },
                        Transform::from_xyz(0.0, 0.0, 0.12),
                    ));
                }
                // The icon, white, over the middle of the token.
                let icon = if frame == Frame::Solo { 0.54 } else { 0.62 };
                t.spawn((
                    Icon,
                    Sprite {
                        image: icons.large(icons.icons.creature(&c.kind)),
                        color: Color::WHITE,
                        custom_size: Some(Vec2::splat(s * icon)),
                        ..default()
                    },
                    Transform::from_xyz(0.0, 3.0 * k, 0.2),
                ));
                // A squad's number on the token's left edge, a summon's
                // mark on its lower left.
                if let Some(n) = c.squad {
                    let at = Vec2::new(-s / 2.0 + 6.0, 2.0);
                    t.spawn((
                        Sprite {
                            image: art.disc(Shape::Round),
                            color: side.darker(0.35),
                            custom_size: Some(Vec2::splat(18.0)),
                            ..default()
                        },
                        Transform::from_translation(at.extend(0.45)),
                    ))
                    .with_child((
                        Text2d::new(n.to_string()),
                        TextFont::from_font_size(13.0),
                        TextColor(Color::WHITE),
                        Transform::from_xyz(0.0, 0.0, 0.01),
                    ));
                }
                if c.summoned.is_some() {
                    let at = Vec2::new(-s / 2.0 + 8.0, -s / 2.0 + 16.0);
                    t.spawn((
                        Badge("summoned".into()),
                        Sprite {
                            image: art.disc(Shape::Round),
                            color: Palette::FLOAT_BACKING,
                            custom_size: Some(Vec2::splat(20.0)),
                            ..default()
                        },
                        Transform::from_translation(at.extend(0.45)),
                    ))
                    .with_child((
                        Sprite {
                            image: icons.small(&icons.icons.tokens.states.summoned),
                            color: side.lighter(0.3),
                            custom_size: Some(Vec2::splat(15.0)),
                            ..default()
                        },
                        Transform::from_xyz(0.0, 0.0, 0.01),
                    ));
                }
                // Stamina bar along the bottom of the token.
                let bar_y = -s / 2.0 + 7.0;
                let w = BAR_W * k * frame.scale();
                t.spawn((
                    Sprite::from_color(Color::srgba(0.0, 0.0, 0.0, 0.85), Vec2::new(w + 4.0, 9.0)),
                    Transform::from_xyz(0.0, bar_y, 0.3),
                ));
                t.spawn((
                    StaminaFill,
                    Sprite::from_color(Palette::STAMINA_HIGH, Vec2::new(w, 5.0)),
                    Anchor::CENTER_LEFT,
                    Transform::from_xyz(-w / 2.0, bar_y, 0.4),
                ));
                t.spawn((
                    WindedMark,
                    Text2d::new("✚"),
                    TextFont {
                        font_size: FontSize::Px(16.0),
                        ..default()
                    },
                    TextColor(Palette::DAMAGE),
                    Transform::from_xyz(-s / 2.0 + 9.0, s / 2.0 - 9.0, 0.5),
                    Visibility::Hidden,
                ));
                t.spawn((
                    Badges::default(),
                    Transform::from_xyz(0.0, SQUARE * k / 2.0 + 2.0, 0.6),
                    Visibility::Inherited,
                ));
                t.spawn((
                    ResourceLabel,
                    Text2d::new(""),
                    TextFont {
                        font_size: FontSize::Px(18.0),
                        ..default()
                    },
                    TextColor(Palette::GOLD),
                    bevy::sprite::Text2dShadow::default(),
                    Anchor::CENTER_RIGHT,
                    Transform::from_xyz(SQUARE * k / 2.0 + 2.0, -SQUARE * k / 2.0 + 20.0, 0.6),
                ));
            })
            .id();
        index.place(c.id, e, c.space.pos, size);
    }
}

/// A creature's badges, in the order they are drawn: each condition once
/// (however many effects imposed it), then its other states. Each is an
/// icon name, and the word said on hover ("shielded 3").
pub fn badges(
    icons: &crate::icons::Icons,
    e: &skirmish_rules::encounter::Encounter,
    c: &skirmish_rules::encounter::CreatureView,
) -> Vec<(String, String)> {
    let st = &icons.tokens.states;
    let mut b: Vec<(String, String)> = c
        .conditions
        .kinds()
        .into_iter()
        .map(|k| (icons.condition(k).to_string(), k.word().to_string()))
        .collect();
    if c.stance.hidden {
        b.push((st.hidden.clone(), "hidden".into()));
    }
    if c.stance.defending {
        b.push((st.defending.clone(), "defending".into()));
    }
    if !e.concentrating(c.id).is_empty() {
        b.push((st.concentrating.clone(), "concentrating".into()));
    }
    let shield = c.bonuses.shield();
    if shield > 0 {
        b.push((st.shielded.clone(), format!("shielded {shield}")));
    }
    let retaliate = c.bonuses.retaliation(1);
    if retaliate > 0 {
        b.push((st.retaliating.clone(), format!("retaliation {retaliate}")));
    }
    // A slow action waiting for its next turn (docs/rules.md#slow-actions).
    if let Some(a) = &c.casting {
        let name = e
            .content()
            .ability(a)
            .map_or(a.as_str(), |x| x.name.as_str());
        b.push((st.casting.clone(), format!("casting {name}")));
    }
    b
}

/// Redraw a badge row: a dark disc per badge with its icon, conditions
/// ringed in the condition colour, a number beside shields and retaliation.
fn draw_badges(
    commands: &mut Commands,
    row: Entity,
    list: &[(String, String)],
    art: &TokenArt,
    icons: &super::icons::IconArt,
) {
    commands.entity(row).despawn_children();
    let n = list.len() as f32;
    commands.entity(row).with_children(|r| {
        for (i, (icon, word)) in list.iter().enumerate() {
            let x = (i as f32 - (n - 1.0) / 2.0) * (BADGE + 2.0);
            let condition = !word.contains(' ')
                && !matches!(word.as_str(), "hidden" | "defending" | "concentrating");
            r.spawn((
                Badge(word.clone()),
                Sprite {
                    image: art.disc(Shape::Round),
                    color: Palette::FLOAT_BACKING.with_alpha(0.95),
                    custom_size: Some(Vec2::splat(BADGE)),
                    ..default()
                },
                Transform::from_xyz(x, 0.0, 0.0),
            ))
            .with_children(|b| {
                b.spawn((
                    Sprite {
                        image: art.ring(Shape::Round),
                        color: if condition {
                            Palette::CONDITION
                        } else {
                            Palette::STAMINA_HIGH
                        },
                        custom_size: Some(Vec2::splat(BADGE)),
                        ..default()
                    },
                    Transform::from_xyz(0.0, 0.0, 0.01),
                ));
                b.spawn((
                    Sprite {
                        image: icons.small(icon),
                        color: Color::WHITE,
                        custom_size: Some(Vec2::splat(BADGE * 0.66)),
                        ..default()
                    },
                    Transform::from_xyz(0.0, 0.0, 0.02),
                ));
                if let Some(num) = word.split(' ').nth(1).filter(|w| w.parse::<u32>().is_ok()) {
                    b.spawn((
                        Text2d::new(num.to_string()),
                        TextFont::from_font_size(13.0),
                        TextColor(Palette::GOLD),
                        bevy::sprite::Text2dShadow::default(),
                        Transform::from_xyz(BADGE * 0.36, -BADGE * 0.3, 0.03),
                    ));
                }
            });
        }
    });
}

/// Queue the walked and forced paths so tokens move square by square.
fn follow_moves(
    mut applied: MessageReader<Applied>,
    index: Res<TokenIndex>,
    geometry: Res<BoardGeometry>,
    mut tokens: Query<&mut Token>,
) {
    for batch in applied.read() {
        for e in &batch.entries {
            let (who, path, speed, shake) = match e {
                LogEntry::Moved { creature, path, .. } => (*creature, path.as_slice(), 7.0, false),
                LogEntry::ForceMoved { target, path } => (*target, path.as_slice(), 12.0, false),
                LogEntry::Dragged { target, to, .. } => {
                    (*target, std::slice::from_ref(to), 7.0, false)
                }
                LogEntry::Collision { target, .. } => (*target, &[][..], 0.0, true),
                _ => continue,
            };
            let Some((entity, _, size)) = index.tokens.get(&who).copied() else {
                continue;
            };
            let Ok(mut t) = tokens.get_mut(entity) else {
                continue;
            };
            if shake {
                t.shake = 0.35;
            }
            for p in path {
                t.route.push_back(geometry.centre(*p, size));
            }
            if speed > 0.0 {
                t.speed = speed;
            }
        }
    }
}

fn sync(
    mut commands: Commands,
    game: NonSend<Game>,
    mut index: ResMut<TokenIndex>,
    art: Res<TokenArt>,
    icons: Res<super::icons::IconArt>,
    tokens: Query<(&Token, &Children)>,
    mut parts: ParamSet<(
        Query<(&mut Sprite, &mut Transform), With<StaminaFill>>,
        Query<&mut Visibility, With<Halo>>,
        Query<&mut Visibility, With<WindedMark>>,
        Query<(Entity, &mut Badges)>,
        Query<&mut Text2d, With<ResourceLabel>>,
        Query<&mut Sprite, With<Icon>>,
    )>,
    mut visibility: Query<&mut Visibility, (With<Token>, Without<Halo>, Without<WindedMark>)>,
) {
    if index.version == game.version && index.generation == game.generation {
        return;
    }
    index.version = game.version;
    let flow = game.encounter.flow().clone();
    for c in game.encounter.creatures() {
        let Some(entry) = index.tokens.get_mut(&c.id) else {
            continue;
        };
        entry.1 = c.space.pos;
        let entity = entry.0;
        let Ok((_, children)) = tokens.get(entity) else {
            continue;
        };
        let health = c.stamina.health();
        if let Ok(mut v) = visibility.get_mut(entity) {
            *v = if health == Health::Dead {
                Visibility::Hidden
            } else {
                Visibility::Visible
            };
        }
        let k = c.space.size.max(1) as f32 * Frame::of(&c, game.encounter.content()).scale();
        // A minion's bar is its squad's pool, the same on every member.
        let (now, most) = c.shown_stamina();
        let share = (now.max(0) as f32 / most.max(1) as f32).clamp(0.0, 1.0);
        let colour = match health {
            Health::Healthy => Palette::STAMINA_HIGH,
            Health::Winded => Palette::STAMINA_MID,
            _ => Palette::STAMINA_LOW,
        };
        let list = badges(&icons.icons, &game.encounter, &c);
        for child in children.iter() {
            if let Ok((mut s, _)) = parts.p0().get_mut(child) {
                s.custom_size = Some(Vec2::new(BAR_W * k * share, 5.0));
                s.color = colour;
            }
            if let Ok(mut v) = parts.p1().get_mut(child) {
                *v = if flow.is_acting(c.id) {
                    Visibility::Visible
                } else {
                    Visibility::Hidden
                };
            }
            if let Ok(mut v) = parts.p2().get_mut(child) {
                *v = if matches!(health, Health::Winded | Health::Dying) {
                    Visibility::Visible
                } else {
                    Visibility::Hidden
                };
            }
            if let Ok((row, mut shown)) = parts.p3().get_mut(child)
                && shown.0 != list
            {
                shown.0 = list.clone();
                draw_badges(&mut commands, row, &list, &art, &icons);
            }
            if let Ok(mut t) = parts.p4().get_mut(child) {
                t.0 = c
                    .heroic
                    .as_ref()
                    .map(|h| {
                        let surges = if h.surges > 0 {
                            format!(" ⚡{}", h.surges)
                        } else {
                            String::new()
                        };
                        format!("◆{}{surges}", h.amount)
                    })
                    .unwrap_or_default();
            }
            // Having acted dims the icon; the ring keeps its side's colour
            // and the token its shape, so the sides stay apart.
            if let Ok(mut sprite) = parts.p5().get_mut(child) {
                sprite.color = if flow.acted.contains(&c.id) && !flow.is_acting(c.id) {
                    Color::WHITE.with_alpha(0.4)
                } else {
                    Color::WHITE
                };
            }
        }
    }
}

/// The tooltip that names a badge under the pointer.
#[derive(Component)]
struct Tooltip;

fn spawn_tooltip(mut commands: Commands) {
    commands.spawn((
        Name::new("Badge tooltip"),
        Tooltip,
        Node {
            position_type: PositionType::Absolute,
            padding: UiRect::axes(px(8), px(3)),
            border: UiRect::all(px(1)),
            border_radius: BorderRadius::all(px(4)),
            display: Display::None,
            ..default()
        },
        BackgroundColor(Palette::FLOAT_BACKING.with_alpha(0.95)),
        BorderColor::all(Palette::CONDITION),
        GlobalZIndex(5),
        bevy::ui::FocusPolicy::Pass,
        children![super::theme::text("", super::theme::SMALL, Palette::TEXT)],
    ));
}

/// The pointer over a badge shows its word beside it ("restrained",
/// "shielded 3"); anywhere else, nothing.
fn badge_hover(
    window: Single<&Window, With<bevy::window::PrimaryWindow>>,
    camera: Single<(&Camera, &GlobalTransform), With<super::camera::BoardCamera>>,
    ui: Res<UiScale>,
    badges: Query<(&Badge, &GlobalTransform, &InheritedVisibility)>,
    tooltip: Single<(&mut Node, &Children), With<Tooltip>>,
    mut texts: Query<&mut Text>,
    ignore: Option<Res<super::input::IgnorePointer>>,
) {
    let (camera, at) = *camera;
    // A picture being taken ignores the display's pointer.
    let cursor = window.cursor_position().filter(|_| ignore.is_none());
    let word = cursor
        .and_then(|c| camera.viewport_to_world_2d(at, c).ok())
        .and_then(|w| {
            badges
                .iter()
                .filter(|(_, _, v)| v.get())
                .find(|(_, t, _)| {
                    let d = t.translation().truncate() - w;
                    d.length() <= BADGE / 2.0 * t.scale().x.max(0.01)
                })
                .map(|(b, _, _)| b.0.clone())
        });
    let (mut node, children) = tooltip.into_inner();
    match (word, cursor) {
        (Some(word), Some(c)) => {
            let k = ui.0.max(0.01);
            let (left, top) = (px(c.x / k + 14.0), px(c.y / k - 34.0));
            if node.display != Display::Flex || node.left != left || node.top != top {
                node.display = Display::Flex;
                node.left = left;
                node.top = top;
            }
            for child in children.iter() {
                if let Ok(mut t) = texts.get_mut(child)
                    && t.0 != word
                {
                    t.0 = word.clone();
                }
            }
        }
        _ => {
            if node.display != Display::None {
                node.display = Display::None;
            }
        }
    }
}

fn animate(
    time: Res<Time>,
    index: Res<TokenIndex>,
    geometry: Res<BoardGeometry>,
    mut tokens: Query<(&mut Token, &mut Transform)>,
) {
    let dt = time.delta_secs();
    for (mut t, mut tf) in &mut tokens {
        let Some((_, home, size)) = index.tokens.get(&t.id).copied() else {
            continue;
        };
        let here = tf.translation.truncate();
        let goal = t
            .route
            .front()
            .copied()
            .unwrap_or_else(|| geometry.centre(home, size));
        let speed = if t.speed > 0.0 { t.speed } else { 8.0 } * SQUARE;
        let step = speed * dt;
        let to = goal - here;
        let next = if to.length() <= step {
            t.route.pop_front();
            goal
        } else {
            here + to.normalize() * step
        };
        let mut jitter = Vec2::ZERO;
        if t.shake > 0.0 {
            t.shake -= dt;
            jitter = Vec2::new((t.shake * 90.0).sin() * 5.0, 0.0);
        }
        tf.translation = (next + jitter).extend(if t.route.is_empty() { 10.0 } else { 12.0 });
    }
}
