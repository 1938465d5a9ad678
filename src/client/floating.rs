//! Floating text: what each roll did, rising over the creatures it hit.
//! [`floats_for`] turns the log entries of one command into floats (tested
//! headless); the systems below spawn them over tokens and let them rise.

use bevy::prelude::*;
use skirmish_rules::encounter::LogEntry;
use skirmish_rules::stats::{CreatureId, DamageType};

use super::game::Applied;
use super::tokens::TokenIndex;
use super::view::{BoardGeometry, Palette};

/// Where a float appears.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FloatAt {
    Creature(CreatureId),
}

/// How a float looks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FloatStyle {
    /// A tier result, with or without damage.
    Tier,
    /// A critical hit: larger and gold.
    Critical,
    /// Damage outside a tier (collisions, falls, auras, bleeding).
    Damage,
    /// A condition taking hold.
    Condition,
    /// A condition resisted, ending, or a save.
    Quiet,
    /// Stamina regained, resources gained.
    Good,
    /// A creature falls.
    Defeat,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Float {
    pub at: FloatAt,
    pub text: String,
    pub style: FloatStyle,
}

fn damage_text(amount: i32, t: DamageType) -> String {
    match t {
        DamageType::Untyped => format!("{amount}"),
        t => format!("{amount} {}", format!("{t:?}").to_lowercase()),
    }
}

/// The floats for one command's log entries: a tier result and the damage
/// that follows it on the same target make one line ("Tier 2 · 8 holy").
pub fn floats_for(entries: &[LogEntry]) -> Vec<Float> {
    let mut out: Vec<Float> = Vec::new();
    // The index in `out` of each target's latest tier float, to join damage to.
    let mut open_tier: Vec<(CreatureId, usize)> = Vec::new();
    let on = |id: CreatureId| FloatAt::Creature(id);
    for e in entries {
        let float = match e {
            LogEntry::TierResult {
                target,
                tier,
                critical,
                ..
            } => {
                let n = *tier as u8;
                let (text, style) = if *critical {
                    (format!("CRITICAL · Tier {n}"), FloatStyle::Critical)
                } else {
                    (format!("Tier {n}"), FloatStyle::Tier)
                };
                open_tier.retain(|(t, _)| t != target);
                open_tier.push((*target, out.len()));
                Float {
                    at: on(*target),
                    text,
                    style,
                }
            }
            // Phased 2d6: a hit's tier, or a miss.
            LogEntry::Attack2d6 { target, tier, .. } => {
                open_tier.retain(|(t, _)| t != target);
                let text = match tier {
                    Some(t) => {
                        open_tier.push((*target, out.len()));
                        format!("Hit · Tier {}", *t as u8)
                    }
                    None => "Miss".into(),
                };
                Float {
                    at: on(*target),
                    text,
                    style: if tier.is_some() {
                        FloatStyle::Tier
                    } else {
                        FloatStyle::Quiet
                    },
                }
            }
            LogEntry::Damage {
                target,
                amount,
                damage_type,
                ..
            } => {
                if let Some(i) = open_tier
                    .iter()
                    .position(|(t, _)| t == target)
                    .map(|k| open_tier.remove(k).1)
                {
                    out[i].text =
                        format!("{} · {}", out[i].text, damage_text(*amount, *damage_type));
                    continue;
                }
                Float {
                    at: on(*target),
                    text: format!("-{}", damage_text(*amount, *damage_type)),
                    style: FloatStyle::Damage,
                }
            }
            LogEntry::ConditionGained {
                target, condition, ..
            } => Float {
                at: on(*target),
                text: condition.to_string().to_lowercase(),
                style: FloatStyle::Condition,
            },
            LogEntry::ConditionResisted { target, condition } => Float {
                at: on(*target),
                text: format!("resisted {}", condition.to_string().to_lowercase()),
                style: FloatStyle::Quiet,
            },
            LogEntry::ConditionEnded { target, condition } => Float {
                at: on(*target),
                text: format!("{} ends", condition.to_string().to_lowercase()),
                style: FloatStyle::Quiet,
            },
            LogEntry::Saved {
                creature,
                roll,
                success,
                ..
            } => Float {
                at: on(*creature),
                text: format!("save {roll}: {}", if *success { "made" } else { "failed" }),
                style: FloatStyle::Quiet,
            },
            LogEntry::Collision { target, damage, .. } => Float {
                at: on(*target),
                text: format!("collision -{damage}"),
                style: FloatStyle::Damage,
            },
            LogEntry::Fell { target, damage, .. } => Float {
                at: on(*target),
                text: format!("fell -{damage}"),
                style: FloatStyle::Damage,
            },
            LogEntry::Bled {
                creature, amount, ..
            } => Float {
                at: on(*creature),
                text: format!("bleeding -{amount}"),
                style: FloatStyle::Damage,
            },
            LogEntry::Healed {
                creature, amount, ..
            } => Float {
                at: on(*creature),
                text: format!("+{amount} stamina"),
                style: FloatStyle::Good,
            },
            LogEntry::ResourceGained {
                creature,
                resource,
                amount,
                ..
            } => Float {
                at: on(*creature),
                text: format!("+{amount} {resource}"),
                style: FloatStyle::Good,
            },
            LogEntry::SurgesGained {
                creature, amount, ..
            } => Float {
                at: on(*creature),
                text: format!("+{amount} surge{}", if *amount == 1 { "" } else { "s" }),
                style: FloatStyle::Good,
            },
            LogEntry::CriticalHit { creature } => Float {
                at: on(*creature),
                text: "CRITICAL HIT · extra main action".into(),
                style: FloatStyle::Critical,
            },
            LogEntry::Died { creature, .. } => Float {
                at: on(*creature),
                text: "defeated".into(),
                style: FloatStyle::Defeat,
            },
            LogEntry::Dying { creature, .. } => Float {
                at: on(*creature),
                text: "dying".into(),
                style: FloatStyle::Defeat,
            },
            LogEntry::TargetLost { target, .. } => Float {
                at: on(*target),
                text: "out of reach".into(),
                style: FloatStyle::Quiet,
            },
            LogEntry::Triggered { creature, .. } => Float {
                at: on(*creature),
                text: "reacts!".into(),
                style: FloatStyle::Condition,
            },
            LogEntry::BonusGained { creature, bonus } => Float {
                at: on(*creature),
                text: bonus.split(" until").next().unwrap_or(bonus).to_string(),
                style: FloatStyle::Good,
            },
            LogEntry::Shielded {
                creature,
                prevented,
            } => Float {
                at: on(*creature),
                text: format!("shield stops {prevented}"),
                style: FloatStyle::Quiet,
            },
            LogEntry::Retaliated { creature, .. } => Float {
                at: on(*creature),
                text: "retaliates!".into(),
                style: FloatStyle::Condition,
            },
            LogEntry::Hidden { creature } => Float {
                at: on(*creature),
                text: "hidden".into(),
                style: FloatStyle::Quiet,
            },
            LogEntry::Revealed { creature } => Float {
                at: on(*creature),
                text: "revealed".into(),
                style: FloatStyle::Quiet,
            },
            _ => continue,
        };
        out.push(float);
    }
    out
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (spawn_floats, rise).chain().after(super::tokens::TokenSet),
    );
}

/// A float on screen: rises and fades over its lifetime.
#[derive(Component)]
pub struct Floating {
    age: f32,
    life: f32,
    start: Vec2,
    rise: f32,
    /// Half its text's estimated width and height, to keep later floats
    /// clear of it.
    half: Vec2,
}

impl Floating {
    /// Where it stands now as a [`Slot`] (a float still waiting its turn
    /// counts where it would be had it risen all along): floats all rise
    /// at one speed, so two clear of each other now stay clear.
    fn slot(&self) -> Slot {
        Slot {
            x: self.start.x,
            y: self.start.y + self.rise * self.age / self.life,
            half: self.half,
        }
    }
}

/// A float's box: its centre now (see [`Floating::slot`]) and its half
/// width and height.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Slot {
    x: f32,
    y: f32,
    half: Vec2,
}

/// Space left between two floats, in pixels.
const FLOAT_GAP: f32 = 10.0;

/// The lowest centre at or above `lowest` for a float
/// `half` across and high at `x` that clears every float in `placed`:
/// floats over neighbouring creatures, or from one command after another
/// on the same creature, stack instead of printing over each other.
fn place(x: f32, half: Vec2, lowest: f32, placed: &[Slot]) -> f32 {
    // Side by side with room between: no clash (a hair's overlap from
    // rounding is none).
    let clear = |y: f32| {
        placed.iter().all(|s| {
            (s.x - x).abs() >= s.half.x + half.x
                || (s.y - y).abs() >= s.half.y + half.y + FLOAT_GAP - 0.01
        })
    };
    // The lowest place is either `lowest` or just above some float.
    let mut candidates: Vec<f32> = placed
        .iter()
        .map(|s| s.y + s.half.y + half.y + FLOAT_GAP)
        .filter(|&y| y > lowest)
        .collect();
    candidates.push(lowest);
    candidates.sort_by(f32::total_cmp);
    candidates.into_iter().find(|&y| clear(y)).unwrap_or(lowest)
}

/// A float's estimated half width and height at `font_size` (the UI
/// font's glyphs average about 0.6 of its size across; a line is about
/// 1.2 of it high).
fn half_size(text: &str, font_size: f32) -> Vec2 {
    Vec2::new(
        text.chars().count() as f32 * font_size * 0.6 / 2.0,
        font_size * 1.2 / 2.0,
    )
}

fn spawn_floats(
    mut commands: Commands,
    mut applied: MessageReader<Applied>,
    tokens: Res<TokenIndex>,
    geometry: Res<BoardGeometry>,
    positions: Query<&Transform, Without<Floating>>,
    camera: Query<&Projection, With<Camera2d>>,
    floating: Query<&Floating>,
) {
    // Floats keep their size on screen whatever the zoom.
    let zoom = camera
        .iter()
        .find_map(|p| match p {
            Projection::Orthographic(o) => Some(o.scale),
            _ => None,
        })
        .unwrap_or(1.0)
        .clamp(0.6, 3.0);
    // The floats on screen, and those spawned below as they come.
    let mut placed: Vec<Slot> = Vec::new();
    for batch in applied.read() {
        if placed.is_empty() {
            placed.extend(floating.iter().map(Floating::slot));
        }
        let floats = floats_for(&batch.entries);
        // Several floats on one creature appear one after another.
        let mut stacked: Vec<(FloatAt, u32)> = Vec::new();
        for f in floats {
            let base = match f.at {
                FloatAt::Creature(id) => tokens
                    .home(id)
                    .map(|p| geometry.centre(p.0, p.1))
                    .or_else(|| {
                        tokens
                            .entity(id)
                            .and_then(|e| positions.get(e).ok())
                            .map(|t| t.translation.truncate())
                    }),
            };
            let Some(base) = base else { continue };
            let n = match stacked.iter_mut().find(|(a, _)| *a == f.at) {
                Some((_, n)) => {
                    *n += 1;
                    *n
                }
                None => {
                    stacked.push((f.at, 0));
                    0
                }
            };
            let (size, color) = match f.style {
                FloatStyle::Critical => (36.0, Palette::GOLD),
                FloatStyle::Tier => (30.0, Color::WHITE),
                FloatStyle::Damage => (28.0, Palette::DAMAGE),
                FloatStyle::Condition => (26.0, Palette::CONDITION),
                FloatStyle::Quiet => (22.0, Palette::QUIET),
                FloatStyle::Good => (22.0, Palette::GOOD),
                FloatStyle::Defeat => (30.0, Palette::DAMAGE),
            };
            let half = half_size(&f.text, size * zoom);
            let x = keep_on_board(base.x, &f.text, size * zoom, &geometry);
            let mut float = Floating {
                age: -(n as f32) * 0.2,
                life: 3.0,
                start: Vec2::ZERO,
                rise: 40.0 * zoom,
                half,
            };
            // Clear of the floats already up (see `Floating::slot`).
            let y = place(x, half, base.y + 36.0, &placed);
            float.start = Vec2::new(x, y - float.rise * float.age / float.life);
            placed.push(float.slot());
            let start = float.start;
            commands.spawn((
                Name::new("Float"),
                float,
                Text2d::new(f.text),
                TextFont {
                    font_size: FontSize::Px(size * zoom),
                    ..default()
                },
                TextColor(color),
                TextLayout::justify(Justify::Center),
                Transform::from_translation(start.extend(50.0)),
                Visibility::Hidden,
                bevy::sprite::Text2dShadow {
                    offset: Vec2::new(2.0, -2.0),
                    color: Color::BLACK,
                },
            ));
        }
    }
}

/// A float's centre moved in so the text stays over the board (a float
/// over a creature at its edge ran under the side panels), by its width
/// estimated from its length: a centred text wider than the board is
/// centred on it.
fn keep_on_board(x: f32, text: &str, font_size: f32, geometry: &BoardGeometry) -> f32 {
    let half_text = half_size(text, font_size).x;
    let half_board = geometry.width.max(1) as f32 * super::view::SQUARE / 2.0;
    let room = half_board - half_text;
    if room <= 0.0 {
        0.0
    } else {
        x.clamp(-room, room)
    }
}

fn rise(
    mut commands: Commands,
    time: Res<Time>,
    mut floats: Query<(
        Entity,
        &mut Floating,
        &mut Transform,
        &mut TextColor,
        &mut Visibility,
    )>,
) {
    for (e, mut f, mut t, mut color, mut vis) in &mut floats {
        f.age += time.delta_secs();
        if f.age < 0.0 {
            continue;
        }
        *vis = Visibility::Visible;
        let k = f.age / f.life;
        if k >= 1.0 {
            commands.entity(e).despawn();
            continue;
        }
        t.translation.y = f.start.y + f.rise * k;
        let alpha = if k < 0.7 { 1.0 } else { 1.0 - (k - 0.7) / 0.3 };
        color.0.set_alpha(alpha);
    }
}

#[cfg(test)]
mod tests {
    use skirmish_rules::conditions::ConditionKind;
    use skirmish_rules::map::Pos;
    use skirmish_rules::power_roll::Tier;

    use super::*;

    const A: CreatureId = CreatureId(1);
    const B: CreatureId = CreatureId(2);

    fn tier(target: CreatureId, tier: Tier, critical: bool) -> LogEntry {
        LogEntry::TierResult {
            target,
            total: 14,
            tier,
            edges: 0,
            banes: 0,
            critical,
        }
    }

    // Phased 2d6: a hit joins its damage ("Hit · Tier 2 · 6"); a miss says so.
    #[test]
    fn phased_hits_and_misses_float() {
        let attack = |target, tier| LogEntry::Attack2d6 {
            target,
            dice: [3, 4],
            extra: None,
            attack: 2,
            total: 9,
            defense: 7,
            tier,
        };
        let f = floats_for(&[
            attack(A, Some(Tier::Two)),
            damage(A, 6, DamageType::Untyped),
            attack(B, None),
        ]);
        let texts: Vec<&str> = f.iter().map(|f| f.text.as_str()).collect();
        assert_eq!(texts.len(), 2, "{texts:?}");
        assert!(
            texts[0].starts_with("Hit · Tier 2") && texts[0].contains('6'),
            "{texts:?}"
        );
        assert_eq!(texts[1], "Miss");
    }

    fn damage(target: CreatureId, amount: i32, damage_type: DamageType) -> LogEntry {
        LogEntry::Damage {
            target,
            amount,
            damage_type,
            stamina_left: 3,
            absorbed: 0,
            by: None,
        }
    }

    #[test]
    fn a_tier_and_its_damage_make_one_line_per_target() {
        let floats = floats_for(&[
            tier(A, Tier::Two, false),
            tier(B, Tier::One, false),
            damage(A, 8, DamageType::Holy),
            damage(B, 3, DamageType::Untyped),
            LogEntry::ConditionGained {
                target: A,
                condition: ConditionKind::Prone,
                duration: "EoT".into(),
            },
        ]);
        assert_eq!(
            floats,
            vec![
                Float {
                    at: FloatAt::Creature(A),
                    text: "Tier 2 · 8 holy".into(),
                    style: FloatStyle::Tier
                },
                Float {
                    at: FloatAt::Creature(B),
                    text: "Tier 1 · 3".into(),
                    style: FloatStyle::Tier
                },
                Float {
                    at: FloatAt::Creature(A),
                    text: "prone".into(),
                    style: FloatStyle::Condition
                },
            ]
        );
    }

    #[test]
    fn critical_hits_stand_out_and_later_damage_floats_alone() {
        let floats = floats_for(&[
            tier(A, Tier::Three, true),
            damage(A, 12, DamageType::Untyped),
            // A collision after the tier's damage: its own float.
            LogEntry::Collision {
                target: A,
                other: None,
                damage: 2,
            },
            damage(A, 2, DamageType::Untyped),
        ]);
        assert_eq!(floats[0].text, "CRITICAL · Tier 3 · 12");
        assert_eq!(floats[0].style, FloatStyle::Critical);
        assert_eq!(floats[1].text, "collision -2");
        assert_eq!(floats[2].text, "-2");
        assert_eq!(floats[2].style, FloatStyle::Damage);
    }

    #[test]
    fn resisted_and_ended_conditions_are_quiet() {
        let floats = floats_for(&[
            LogEntry::ConditionResisted {
                target: B,
                condition: ConditionKind::Slowed,
            },
            LogEntry::ConditionEnded {
                target: B,
                condition: ConditionKind::Dazed,
            },
            LogEntry::RoundStarted { round: 2 },
        ]);
        assert_eq!(floats.len(), 2);
        assert_eq!(floats[0].text, "resisted slowed");
        assert_eq!(floats[1].text, "dazed ends");
        assert!(floats.iter().all(|f| f.style == FloatStyle::Quiet));
    }

    /// A headless app spawning and raising floats over a 10 x 10 board.
    fn float_app() -> App {
        let mut app = App::new();
        app.add_plugins(MinimalPlugins)
            .add_message::<Applied>()
            .init_resource::<crate::client::tokens::TokenIndex>()
            .insert_resource(crate::client::view::BoardGeometry {
                width: 10,
                height: 10,
            })
            .add_systems(Update, (spawn_floats, rise).chain());
        app
    }

    #[test]
    fn applied_commands_spawn_floats_over_their_targets_headless() {
        use crate::client::tokens::TokenIndex;
        let mut app = float_app();
        app.world_mut().write_message(Applied {
            entries: vec![tier(A, Tier::Two, false), damage(A, 8, DamageType::Fire)],
        });
        app.update();
        let mut q = app.world_mut().query::<(&Floating, &Text2d)>();
        let texts: Vec<String> = q.iter(app.world()).map(|(_, t)| t.0.clone()).collect();
        // No token for A in the index: nothing to float over.
        assert!(texts.is_empty(), "{texts:?}");
        // With A's token standing at (2, 3), the float appears above it.
        app.world_mut().resource_mut::<TokenIndex>().place(
            A,
            Entity::PLACEHOLDER,
            Pos { x: 2, y: 3 },
            1,
        );
        app.world_mut().write_message(Applied {
            entries: vec![tier(A, Tier::Two, false), damage(A, 8, DamageType::Fire)],
        });
        app.update();
        let mut q = app.world_mut().query::<(&Floating, &Text2d, &Transform)>();
        let floats: Vec<(String, Vec3)> = q
            .iter(app.world())
            .map(|(_, t, tf)| (t.0.clone(), tf.translation))
            .collect();
        assert_eq!(floats.len(), 1);
        assert_eq!(floats[0].0, "Tier 2 · 8 fire");
        let home = BoardGeometry {
            width: 10,
            height: 10,
        }
        .centre(Pos { x: 2, y: 3 }, 1);
        assert_eq!(floats[0].1.x, home.x);
        assert!(floats[0].1.y > home.y);
    }

    // A float over a creature at the board's edge is moved in so it stays
    // over the board; one with room is left centred on its creature; one
    // wider than the board is centred on it.
    #[test]
    fn floats_stay_over_the_board() {
        use crate::client::view::{BoardGeometry, SQUARE};
        let g = BoardGeometry {
            width: 10,
            height: 10,
        };
        let left_edge = -5.0 * SQUARE;
        let text = "collision -3";
        let size = 28.0;
        let half = text.chars().count() as f32 * size * 0.6 / 2.0;
        let at_edge = g.centre(Pos { x: 0, y: 4 }, 1).x;
        assert!(at_edge - half < left_edge, "the case is real");
        let x = keep_on_board(at_edge, text, size, &g);
        assert!(x > at_edge && (x - half - left_edge).abs() < 1e-3, "{x}");
        let right = keep_on_board(-at_edge, text, size, &g);
        assert!(
            (right + x).abs() < 1e-3,
            "the same at the right edge: {right}"
        );
        let middle = g.centre(Pos { x: 4, y: 4 }, 1).x;
        assert_eq!(keep_on_board(middle, text, size, &g), middle);
        assert_eq!(keep_on_board(at_edge, &"x".repeat(200), size, &g), 0.0);
    }

    // Floats over neighbouring creatures (a burst's tier results) and
    // floats from one command after another on the same creature stack
    // clear of each other; floats far apart stay low.
    #[test]
    fn floats_do_not_print_over_each_other() {
        let half = half_size("Tier 2 · 8 fire", 30.0);
        let first = Slot {
            x: 0.0,
            y: 100.0,
            half,
        };
        let y = place(0.0, half, 100.0, &[first]);
        assert!((y - (100.0 + 2.0 * half.y + FLOAT_GAP)).abs() < 1e-3, "{y}");
        // A square to the side: the texts are wider than a square.
        let y = place(64.0, half, 100.0, &[first]);
        assert!(y > 100.0 + 2.0 * half.y, "{y}");
        // Far off: left where it is.
        assert_eq!(place(640.0, half, 100.0, &[first]), 100.0);
        // Above one already risen past the lowest place: still clear of it
        // and of what stands above it.
        let risen = Slot { y: 130.0, ..first };
        let top = Slot { y: 300.0, ..first };
        let y = place(0.0, half, 100.0, &[top, risen]);
        assert!((y - (130.0 + 2.0 * half.y + FLOAT_GAP)).abs() < 1e-3, "{y}");
        // Floats as a demo left them (an early version stepped above one
        // float at a time and, on a float just touching, ran out of steps
        // under the last one).
        let s = |x: f32, y: f32, hx: f32, hy: f32| Slot {
            x,
            y,
            half: Vec2::new(hx, hy),
        };
        let placed = [
            s(32.0, 89.20173, 165.68091, 33.13618),
            s(96.0, 157.26503, 170.09908, 30.927103),
            s(32.0, 225.32832, 99.40855, 33.13618),
            s(32.0, 155.05592, 100.51308, 28.718023),
            s(96.0, 293.3916, 170.09908, 30.927103),
        ];
        let half = Vec2::new(132.54472, 33.13618);
        let y = place(96.0, half, 68.0, &placed);
        for p in placed {
            assert!(
                (p.y - y).abs() >= p.half.y + half.y + FLOAT_GAP - 0.01,
                "{y}"
            );
        }
    }

    #[test]
    fn floats_spawned_over_neighbours_and_in_turn_stay_apart() {
        use crate::client::tokens::TokenIndex;
        let mut app = float_app();
        for (id, x) in [(A, 2), (B, 3)] {
            app.world_mut().resource_mut::<TokenIndex>().place(
                id,
                Entity::PLACEHOLDER,
                Pos { x, y: 3 },
                1,
            );
        }
        app.world_mut().write_message(Applied {
            entries: vec![
                tier(A, Tier::Two, false),
                damage(A, 8, DamageType::Fire),
                tier(B, Tier::Three, false),
                damage(B, 11, DamageType::Fire),
            ],
        });
        app.update();
        app.world_mut().write_message(Applied {
            entries: vec![tier(A, Tier::One, false), damage(A, 4, DamageType::Untyped)],
        });
        app.update();
        let mut q = app.world_mut().query::<&Floating>();
        let slots: Vec<Slot> = q.iter(app.world()).map(Floating::slot).collect();
        assert_eq!(slots.len(), 3);
        for (i, a) in slots.iter().enumerate() {
            for b in &slots[i + 1..] {
                let apart_x = (a.x - b.x).abs() >= a.half.x + b.half.x;
                let apart_y = (a.y - b.y).abs() >= a.half.y + b.half.y;
                assert!(apart_x || apart_y, "{a:?} and {b:?} overlap");
            }
        }
    }

    #[test]
    fn a_real_fight_floats_every_tier_result() {
        use std::path::Path;
        use std::sync::Arc;
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets");
        let db = Arc::new(skirmish_rules::content::ContentDb::load(&root).unwrap());
        let (_, e) = skirmish_rules::sim::play_with(
            &db,
            "keep_breach",
            5,
            skirmish_rules::ai::by_name("greedy", 1, &db).unwrap(),
            skirmish_rules::ai::by_name("greedy", 2, &db).unwrap(),
            20_000,
        )
        .unwrap();
        let log = e.log();
        let floats = floats_for(log);
        let tiers = log
            .iter()
            .filter(|e| matches!(e, LogEntry::TierResult { .. }))
            .count();
        assert!(tiers > 0);
        assert_eq!(
            floats
                .iter()
                .filter(
                    |f| matches!(f.style, FloatStyle::Tier | FloatStyle::Critical)
                        && f.text.contains("Tier")
                )
                .count(),
            tiers
        );
    }
}
