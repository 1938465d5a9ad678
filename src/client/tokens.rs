//! Tokens: a round token per creature with its icon, a ring in its side's
//! colour, a stamina bar, a winded mark, condition badges and, for heroes,
//! their heroic resource and surges. Larger creatures cover their squares.
//! Moves and forced movement are animated square by square.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::path::Path;

use bevy::asset::RenderAssetUsages;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
use bevy::sprite::Anchor;
use serde::Deserialize;
use skirmish_rules::conditions::ConditionKind;
use skirmish_rules::encounter::CreatureKind;
use skirmish_rules::encounter::LogEntry;
use skirmish_rules::map::Pos;
use skirmish_rules::stats::{CreatureId, Health};

use super::game::{Applied, Game};
use super::theme::Palette;
use super::view::{BoardGeometry, SQUARE};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<TokenIndex>()
        .add_systems(Startup, make_art)
        .add_systems(
            Update,
            (rebuild, follow_moves, sync, animate, fit_badge_backings)
                .chain()
                .in_set(TokenSet)
                .after(super::board::BoardSet),
        );
}

/// Each badge line's backing takes the size of its laid-out words (none
/// when there are none).
fn fit_badge_backings(
    badges: Query<(&bevy::text::TextLayoutInfo, &Children), With<Badges>>,
    mut backings: Query<&mut Sprite, With<BadgeBacking>>,
    window: Single<&Window, With<bevy::window::PrimaryWindow>>,
) {
    let k = window.scale_factor();
    for (laid_out, children) in &badges {
        let size = if laid_out.size.y > 0.0 && laid_out.size.x > 0.0 {
            laid_out.size / k + Vec2::new(8.0, 2.0)
        } else {
            Vec2::ZERO
        };
        for c in children.iter() {
            if let Ok(mut s) = backings.get_mut(c)
                && s.custom_size != Some(size)
            {
                s.custom_size = Some(size);
            }
        }
    }
}

/// The token systems: floating text runs after them.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct TokenSet;

/// The token icons from `assets/ui/tokens.ron`.
#[derive(Resource, Clone, Debug, Default, Deserialize, PartialEq)]
pub struct TokenIcons {
    #[serde(default)]
    pub classes: BTreeMap<String, String>,
    #[serde(default)]
    pub monsters: BTreeMap<String, String>,
    pub default_hero: String,
    pub default_monster: String,
}

impl TokenIcons {
    /// Read the icon table; a broken file names its line and column.
    pub fn load(assets: &Path) -> Result<TokenIcons, String> {
        let path = assets.join("ui/tokens.ron");
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(_) => {
                return Ok(TokenIcons {
                    default_hero: "★".into(),
                    default_monster: "✦".into(),
                    ..default()
                });
            }
        };
        ron::from_str(&text).map_err(|e| {
            format!(
                "{}:{}:{}: {}",
                path.display(),
                e.span.start.line,
                e.span.start.col,
                e.code
            )
        })
    }

    pub fn icon(&self, kind: &CreatureKind) -> &str {
        match kind {
            CreatureKind::Hero { class } => self.classes.get(class).unwrap_or(&self.default_hero),
            CreatureKind::Monster { stat_block, .. } => self
                .monsters
                .get(stat_block)
                .unwrap_or(&self.default_monster),
        }
    }
}

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
#[derive(Component)]
struct Badges;

#[derive(Component)]
struct BadgeBacking;
#[derive(Component)]
struct WindedMark;
#[derive(Component)]
struct ResourceLabel;
#[derive(Component)]
struct Ring;
#[derive(Component)]
struct Icon;

const BAR_W: f32 = 52.0;

fn rebuild(
    mut commands: Commands,
    game: NonSend<Game>,
    mut index: ResMut<TokenIndex>,
    art: Res<TokenArt>,
    icons: Res<TokenIcons>,
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
                        custom_size: Some(Vec2::splat(SQUARE * k + 6.0)),
                        ..default()
                    },
                    Transform::from_xyz(0.0, 0.0, -0.2),
                    Visibility::Hidden,
                ));
                t.spawn((
                    Sprite {
                        image: art.disc(shape),
                        color: Color::srgb(0.13, 0.13, 0.16),
                        custom_size: Some(Vec2::splat(SQUARE * k - 8.0)),
                        ..default()
                    },
                    Transform::from_xyz(0.0, 0.0, 0.0),
                ));
                t.spawn((
                    Ring,
                    Sprite {
                        image: art.ring(shape),
                        color: side,
                        custom_size: Some(Vec2::splat(SQUARE * k - 6.0)),
                        ..default()
                    },
                    Transform::from_xyz(0.0, 0.0, 0.1),
                ));
                t.spawn((
                    Icon,
                    Text2d::new(icons.icon(&c.kind).to_string()),
                    TextFont {
                        font_size: FontSize::Px(30.0 * k),
                        ..default()
                    },
                    TextColor(side.lighter(0.25)),
                    Transform::from_xyz(0.0, 3.0 * k, 0.2),
                ));
                // Stamina bar along the bottom of the token.
                let bar_y = -SQUARE * k / 2.0 + 7.0;
                let w = BAR_W * k;
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
                    Transform::from_xyz(-SQUARE * k / 2.0 + 9.0, SQUARE * k / 2.0 - 9.0, 0.5),
                    Visibility::Hidden,
                ));
                t.spawn((
                    Badges,
                    Text2d::new(""),
                    TextFont {
                        font_size: FontSize::Px(20.0),
                        ..default()
                    },
                    TextColor(Color::WHITE),
                    bevy::sprite::Text2dShadow::default(),
                    Transform::from_xyz(0.0, SQUARE * k / 2.0 - 2.0, 0.6),
                ))
                // A dark box behind, fitted to the words: legible on any
                // terrain and over a neighbour's token.
                .with_child((
                    BadgeBacking,
                    Sprite::from_color(Palette::FLOAT_BACKING, Vec2::ZERO),
                    Transform::from_xyz(0.0, 0.0, -0.05),
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

/// Short condition badges for a token ("Prone Slowed" → "PRN SLW").
pub fn badge(kind: ConditionKind) -> &'static str {
    match kind {
        ConditionKind::Bleeding => "BLD",
        ConditionKind::Dazed => "DAZ",
        ConditionKind::Frightened => "FRT",
        ConditionKind::Grabbed => "GRB",
        ConditionKind::Prone => "PRN",
        ConditionKind::Restrained => "RST",
        ConditionKind::Slowed => "SLW",
        ConditionKind::Taunted => "TNT",
        ConditionKind::Weakened => "WKN",
        ConditionKind::CantStand => "NOUP",
    }
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
    game: NonSend<Game>,
    mut index: ResMut<TokenIndex>,
    tokens: Query<(&Token, &Children)>,
    mut parts: ParamSet<(
        Query<(&mut Sprite, &mut Transform), With<StaminaFill>>,
        Query<&mut Visibility, With<Halo>>,
        Query<&mut Visibility, With<WindedMark>>,
        Query<&mut Text2d, With<Badges>>,
        Query<&mut Text2d, With<ResourceLabel>>,
        Query<&mut TextColor, With<Icon>>,
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
        let k = c.space.size.max(1) as f32;
        // A minion's bar is its squad's pool, the same on every member.
        let (now, most) = c.shown_stamina();
        let share = (now.max(0) as f32 / most.max(1) as f32).clamp(0.0, 1.0);
        let colour = match health {
            Health::Healthy => Palette::STAMINA_HIGH,
            Health::Winded => Palette::STAMINA_MID,
            _ => Palette::STAMINA_LOW,
        };
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
            if let Ok(mut t) = parts.p3().get_mut(child) {
                // Each condition once, however many effects imposed it.
                let mut b: Vec<String> = c
                    .conditions
                    .kinds()
                    .into_iter()
                    .map(|k| badge(k).to_string())
                    .collect();
                let shield = c.bonuses.shield();
                if shield > 0 {
                    b.push(format!("SH{shield}"));
                }
                let retaliate = c.bonuses.retaliation(1);
                if retaliate > 0 {
                    b.push(format!("RT{retaliate}"));
                }
                // A slow action waiting for its next turn (docs/rules.md#forced-movement).
                if c.casting.is_some() {
                    b.push("SLOW".into());
                }
                t.0 = b.join(" ");
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
            if let Ok(mut color) = parts.p5().get_mut(child) {
                let side = Palette::side(c.side).lighter(0.25);
                color.0 = if flow.acted.contains(&c.id) && !flow.is_acting(c.id) {
                    side.with_alpha(0.45)
                } else {
                    side
                };
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_icon_table_names_every_class_and_monster() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets");
        let icons = TokenIcons::load(&root).unwrap();
        let db = skirmish_rules::content::ContentDb::load(&root).unwrap();
        for class in db.classes.keys() {
            assert!(
                icons.classes.contains_key(class),
                "no icon for class {class}"
            );
        }
        for m in db.monsters.keys() {
            assert!(icons.monsters.contains_key(m), "no icon for monster {m}");
        }
        let fury = CreatureKind::Hero {
            class: "fury".into(),
        };
        assert_eq!(icons.icon(&fury), "⚔");
        let unknown = CreatureKind::Monster {
            stat_block: "nobody".into(),
            squad: None,
        };
        assert_eq!(icons.icon(&unknown), icons.default_monster);
    }

    #[test]
    fn a_broken_icon_table_names_line_and_column() {
        let dir = std::env::temp_dir().join(format!("skirmish-icons-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("ui")).unwrap();
        std::fs::write(
            dir.join("ui/tokens.ron"),
            "(\n  classes: {\n    \"fury\" \"x\",\n  },\n)",
        )
        .unwrap();
        let err = TokenIcons::load(&dir).unwrap_err();
        assert!(err.contains("tokens.ron:3:"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
