//! The roll card: each power roll's moment, by the creature that rolled it.
//! Both dice, the characteristic, edges and banes, the total, the tier band
//! reached (gold for a critical hit); for the phased 2d6 rules their own
//! dice, the advantage die, and the total against defence. It holds for
//! the demo's pace (at least two seconds), and in solo a click or `Space`
//! dismisses it at once.

use bevy::prelude::*;
use skirmish_rules::encounter::LogEntry;
use skirmish_rules::phased::Keep;
use skirmish_rules::power_roll::Tier;
use skirmish_rules::stats::CreatureId;

use crate::client::game::{Applied, Game, Mode, Pace};
use crate::client::layout::{BoardView, Layout};
use crate::client::theme::{BODY, GAP, HEADING, Palette, SMALL, panel_node, text};
use crate::client::tokens::TokenIndex;
use crate::client::view::BoardGeometry;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<RollShown>()
        .add_systems(Startup, spawn_roll_card)
        .add_systems(
            Update,
            (show_roll, dismiss, place_roll)
                .chain()
                .after(crate::client::input::InputSet)
                .after(crate::client::layout::LayoutSet),
        );
}

/// One roll, as the card shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct RollCard {
    pub roller: CreatureId,
    /// "Korva · Brutal Slam".
    pub title: String,
    /// The dice as rolled, and whether each was kept.
    pub dice: Vec<(u32, bool)>,
    /// The sides of the dice (10, or 6 for the phased rules).
    pub sides: u32,
    /// What is added to the dice ("+2 Might").
    pub bonus: String,
    /// A line per target: what the roll came to against it.
    pub results: Vec<(String, Color)>,
    /// Whom it was against.
    pub targets: Vec<CreatureId>,
}

/// The card for the first roll among one command's log entries, if any.
pub fn roll_card(entries: &[LogEntry], name: &dyn Fn(CreatureId) -> String) -> Option<RollCard> {
    let mut user: Option<(CreatureId, String)> = None;
    let mut card: Option<RollCard> = None;
    for e in entries {
        match e {
            LogEntry::AbilityUsed {
                creature, name: n, ..
            } => {
                if card.is_some() {
                    break;
                }
                user = Some((*creature, n.clone()));
            }
            LogEntry::Rolled {
                creature,
                naturals,
                characteristic,
            } => {
                if card.is_some() {
                    break;
                }
                let ability = user
                    .as_ref()
                    .filter(|(u, _)| u == creature)
                    .map_or(String::new(), |(_, n)| format!(" · {n}"));
                card = Some(RollCard {
                    roller: *creature,
                    title: format!("{}{ability}", name(*creature)),
                    dice: naturals.iter().map(|d| (*d, true)).collect(),
                    sides: 10,
                    bonus: format!("{characteristic:+}"),
                    results: Vec::new(),
                    targets: Vec::new(),
                });
            }
            LogEntry::TierResult {
                target,
                total,
                tier,
                edges,
                banes,
                critical,
            } => {
                let Some(c) = card.as_mut() else { continue };
                let net = *edges as i32 - *banes as i32;
                let edge = match net {
                    n if n >= 2 => " · double edge: tier up",
                    1 => " · edge +2",
                    -1 => " · bane −2",
                    n if n <= -2 => " · double bane: tier down",
                    _ => "",
                };
                let band = match tier {
                    Tier::One => "11 or less",
                    Tier::Two => "12-16",
                    Tier::Three => "17+",
                };
                let (line, color) = if *critical {
                    (format!("CRITICAL · {total} · Tier 3{edge}"), Palette::GOLD)
                } else {
                    (
                        format!("{total} · Tier {} ({band}){edge}", *tier as u8),
                        tier_color(*tier),
                    )
                };
                c.results
                    .push((format!("{line} → {}", name(*target)), color));
                c.targets.push(*target);
            }
            LogEntry::Attack2d6 {
                target,
                dice,
                extra,
                attack,
                total,
                defense,
                tier,
            } => {
                if card.is_none() {
                    let Some((u, n)) = user.clone() else { continue };
                    let mut shown: Vec<(u32, bool)> = dice.iter().map(|d| (*d, true)).collect();
                    if let Some((_, value, keep)) = extra {
                        // The advantage die: the two kept of the three.
                        shown.push((*value, true));
                        let drop = match keep {
                            Keep::Highest => (0..3).min_by_key(|i| shown[*i].0),
                            Keep::Lowest => (0..3).max_by_key(|i| shown[*i].0),
                        };
                        if let Some(i) = drop {
                            shown[i].1 = false;
                        }
                    }
                    card = Some(RollCard {
                        roller: u,
                        title: format!("{} · {n}", name(u)),
                        dice: shown,
                        sides: 6,
                        bonus: format!("{attack:+} ATK"),
                        results: Vec::new(),
                        targets: Vec::new(),
                    });
                }
                let Some(c) = card.as_mut() else { continue };
                let (line, color) = match tier {
                    Some(t) => (
                        format!("{total} vs DEF {defense} · hit, Tier {}", *t as u8),
                        tier_color(*t),
                    ),
                    None => (format!("{total} vs DEF {defense} · miss"), Palette::QUIET),
                };
                c.results
                    .push((format!("{line} → {}", name(*target)), color));
                c.targets.push(*target);
            }
            _ => {}
        }
    }
    card.filter(|c| !c.results.is_empty())
}

fn tier_color(t: Tier) -> Color {
    match t {
        Tier::One => Palette::QUIET,
        Tier::Two => Color::WHITE,
        Tier::Three => Palette::GOOD,
    }
}

#[derive(Component)]
struct RollPanel;

/// The card on show: whose, and for how long yet.
#[derive(Resource, Default)]
struct RollShown {
    roller: Option<CreatureId>,
    targets: Vec<CreatureId>,
    left: f32,
}

fn spawn_roll_card(mut commands: Commands) {
    commands.spawn((
        Name::new("Roll card"),
        RollPanel,
        Node {
            position_type: PositionType::Absolute,
            display: Display::None,
            row_gap: px(6),
            ..panel_node()
        },
        BackgroundColor(Color::srgb(0.07, 0.07, 0.1)),
        BorderColor::all(Palette::GOLD),
        Interaction::default(),
        bevy::ui::FocusPolicy::Block,
        crate::client::input::BlocksBoard,
        GlobalZIndex(1),
    ));
}

fn show_roll(
    mut commands: Commands,
    mut applied: MessageReader<Applied>,
    game: NonSend<Game>,
    pace: Res<Pace>,
    time: Res<Time>,
    panel: Single<(Entity, &mut Node), With<RollPanel>>,
    mut showing: ResMut<RollShown>,
) {
    let (entity, mut node) = panel.into_inner();
    let name = |id| game.encounter.name(id);
    let newest = applied
        .read()
        .filter_map(|a| roll_card(&a.entries, &name))
        .last();
    if let Some(card) = newest {
        commands.entity(entity).despawn_children();
        commands.entity(entity).with_children(|p| draw(p, &card));
        node.display = Display::Flex;
        showing.roller = Some(card.roller);
        showing.targets = card.targets.clone();
        // Long enough to read at the demo's pace.
        showing.left = (pace.delay * 2.0).max(2.2);
    } else if showing.roller.is_some() {
        showing.left -= time.delta_secs();
        if showing.left <= 0.0 || node.display == Display::None {
            node.display = Display::None;
            showing.roller = None;
        }
    }
}

/// In solo and hot-seat a click or `Space` puts the card away.
fn dismiss(
    keys: Res<ButtonInput<KeyCode>>,
    mouse: Res<ButtonInput<MouseButton>>,
    game: NonSend<Game>,
    mut node: Single<&mut Node, With<RollPanel>>,
) {
    if node.display == Display::None || matches!(game.mode, Mode::Demo | Mode::Replay) {
        return;
    }
    if keys.just_pressed(KeyCode::Space) || mouse.just_pressed(MouseButton::Left) {
        node.display = Display::None;
    }
}

/// The card stands beside its roller's token, inside the board.
fn place_roll(
    shown: Res<RollShown>,
    tokens: Res<TokenIndex>,
    geometry: Res<BoardGeometry>,
    layout: Res<Layout>,
    ui: Res<UiScale>,
    window: Single<&Window, With<bevy::window::PrimaryWindow>>,
    camera: Query<(&Projection, &Transform), With<BoardView>>,
    panel: Single<(&mut Node, &ComputedNode), With<RollPanel>>,
    floats: Query<&crate::client::floating::Floating>,
    mut over: ResMut<crate::client::layout::OverBoard>,
) {
    let (mut node, computed) = panel.into_inner();
    let Some(id) = shown.roller.filter(|_| node.display != Display::None) else {
        if over.0.is_some() {
            over.0 = None;
        }
        return;
    };
    let Some((p, size)) = tokens.home(id) else {
        return;
    };
    let Some(view) = crate::client::layout::board_view(camera) else {
        return;
    };
    let scale = view.0;
    let k = ui.0 * window.scale_factor();
    // Creatures' boxes on screen, with room above for their floats.
    let on_screen = |p, size: u32| {
        let c = crate::client::layout::to_screen(&layout, view, geometry.centre(p, size));
        let side = 64.0 * size as f32 / scale;
        Rect::from_center_size(c, Vec2::splat(side))
    };
    let roller = on_screen(p, size);
    let keep_clear: Vec<Rect> = shown
        .targets
        .iter()
        .filter_map(|t| tokens.home(*t))
        .map(|(p, s)| {
            let r = on_screen(p, s);
            Rect::new(
                r.min.x,
                r.min.y - r.height(),
                r.max.x,
                r.max.y + r.height() * 0.5,
            )
        })
        .chain([roller])
        // The floats up now (older ones than this roll's).
        .chain(floats.iter().map(|f| {
            let to = |w| crate::client::layout::to_screen(&layout, view, w);
            Rect::from_corners(to(f.reserved.min), to(f.reserved.max))
        }))
        .collect();
    let card = computed.size();
    let gap = GAP * k;
    let inner = Rect::new(
        layout.board.min.x + gap,
        layout.board.min.y + gap,
        layout.board.max.x - gap,
        layout.board.max.y - gap,
    );
    let fit = |c: Vec2| {
        let x =
            c.x.clamp(inner.min.x, (inner.max.x - card.x).max(inner.min.x));
        let y =
            c.y.clamp(inner.min.y, (inner.max.y - card.y).max(inner.min.y));
        Vec2::new(x, y)
    };
    // Beside the roller, above, below, right or left: the first place that
    // leaves the roller and its targets (and their floats) in sight.
    let candidates = [
        Vec2::new(
            roller.center().x - card.x / 2.0,
            roller.min.y - gap - card.y,
        ),
        Vec2::new(roller.center().x - card.x / 2.0, roller.max.y + gap),
        Vec2::new(roller.max.x + gap, roller.center().y - card.y / 2.0),
        Vec2::new(
            roller.min.x - gap - card.x,
            roller.center().y - card.y / 2.0,
        ),
    ]
    .map(fit);
    let clear = |c: &Vec2| {
        let r = Rect::from_corners(*c, *c + card);
        keep_clear.iter().all(|t| r.intersect(*t).is_empty())
    };
    let at = candidates
        .iter()
        .find(|c| clear(c))
        .copied()
        .unwrap_or(candidates[0]);
    let (x, y) = (at.x, at.y);
    let shown_at = Some(Rect::from_corners(at, at + card));
    if over.0 != shown_at {
        over.0 = shown_at;
    }
    let (left, top) = (px(x / k), px(y / k));
    if node.left != left || node.top != top {
        node.left = left;
        node.top = top;
    }
    // No wider than the board leaves.
    let most = px(((layout.board.width() / k) - 2.0 * GAP).max(0.0));
    if node.max_width != most {
        node.max_width = most;
    }
}

fn draw(p: &mut ChildSpawnerCommands, card: &RollCard) {
    p.spawn(text(card.title.clone(), BODY, Palette::TEXT));
    p.spawn(Node {
        align_items: AlignItems::Center,
        column_gap: px(8),
        flex_wrap: FlexWrap::Wrap,
        ..default()
    })
    .with_children(|row| {
        for (value, kept) in &card.dice {
            row.spawn((
                Node {
                    width: px(44),
                    height: px(44),
                    justify_content: JustifyContent::Center,
                    align_items: AlignItems::Center,
                    border: UiRect::all(px(2)),
                    border_radius: BorderRadius::all(px(8)),
                    ..default()
                },
                BackgroundColor(if *kept {
                    Color::srgb(0.92, 0.9, 0.85)
                } else {
                    Color::srgb(0.3, 0.3, 0.32)
                }),
                BorderColor::all(Palette::GOLD),
            ))
            .with_child(text(
                value.to_string(),
                HEADING,
                if *kept { Color::BLACK } else { Palette::DIM },
            ));
        }
        row.spawn(text(
            format!("d{} {}", card.sides, card.bonus),
            SMALL,
            Palette::DIM,
        ));
    });
    for (line, color) in &card.results {
        p.spawn(text(line.clone(), BODY, *color));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: CreatureId = CreatureId(1);
    const B: CreatureId = CreatureId(2);

    fn name(id: CreatureId) -> String {
        if id == A {
            "Korva".into()
        } else {
            "Bandit".into()
        }
    }

    fn tier(target: CreatureId, total: i32, tier: Tier, edges: u32, critical: bool) -> LogEntry {
        LogEntry::TierResult {
            target,
            total,
            tier,
            edges,
            banes: 0,
            critical,
        }
    }

    // Issue 49, point 4: both dice, the characteristic, edges, the total
    // and the tier band (docs/rules.md#power-roll: 11 or less, 12-16, 17+).
    #[test]
    fn a_power_roll_shows_its_dice_total_and_band() {
        let card = roll_card(
            &[
                LogEntry::AbilityUsed {
                    creature: A,
                    ability: "brutal_slam".into(),
                    name: "Brutal Slam".into(),
                },
                LogEntry::Rolled {
                    creature: A,
                    naturals: [7, 5],
                    characteristic: 2,
                },
                tier(B, 16, Tier::Two, 1, false),
            ],
            &name,
        )
        .unwrap();
        assert_eq!(card.title, "Korva · Brutal Slam");
        assert_eq!(card.dice, vec![(7, true), (5, true)]);
        assert_eq!(card.bonus, "+2");
        assert_eq!(card.results.len(), 1);
        assert_eq!(card.results[0].0, "16 · Tier 2 (12-16) · edge +2 → Bandit");
    }

    #[test]
    fn a_critical_hit_reads_first_and_gold() {
        let card = roll_card(
            &[
                LogEntry::Rolled {
                    creature: A,
                    naturals: [10, 9],
                    characteristic: 2,
                },
                tier(B, 21, Tier::Three, 0, true),
            ],
            &name,
        )
        .unwrap();
        assert!(card.results[0].0.starts_with("CRITICAL · 21 · Tier 3"));
        assert_eq!(card.results[0].1, Palette::GOLD);
    }

    #[test]
    fn a_phased_attack_shows_its_advantage_die_and_defence() {
        let card = roll_card(
            &[
                LogEntry::AbilityUsed {
                    creature: A,
                    ability: "x".into(),
                    name: "Cleave".into(),
                },
                LogEntry::Attack2d6 {
                    target: B,
                    dice: [2, 5],
                    extra: Some((6, 4, Keep::Highest)),
                    attack: 2,
                    total: 11,
                    defense: 8,
                    tier: Some(Tier::Two),
                },
            ],
            &name,
        )
        .unwrap();
        assert_eq!(card.sides, 6);
        // Keeping the highest two of 2, 5, 4: the 2 is dropped.
        assert_eq!(card.dice, vec![(2, false), (5, true), (4, true)]);
        assert_eq!(card.results[0].0, "11 vs DEF 8 · hit, Tier 2 → Bandit");
    }

    #[test]
    fn a_command_without_a_roll_has_no_card() {
        assert_eq!(
            roll_card(
                &[LogEntry::AbilityUsed {
                    creature: A,
                    ability: "x".into(),
                    name: "Heal".into(),
                }],
                &name
            ),
            None
        );
    }
}
