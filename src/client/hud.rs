//! The heads-up display: the round and whose turn it is, both sides'
//! creatures and who has acted, the acting creature's actions left, its
//! ability bar with full ability cards and forecasts, the combat log, and the
//! prompts (triggered actions, surges and resource, the end of the fight).

use bevy::input::mouse::{AccumulatedMouseScroll, MouseScrollUnit};
use bevy::prelude::*;
use skirmish_rules::ability::{Ability, Cost, PowerRoll};
use skirmish_rules::encounter::{Command, Encounter, LogEntry};
use skirmish_rules::map::Side;
use skirmish_rules::stats::{CreatureId, Health};

use super::game::{Applied, Game, Mode, Pace, ReplayEnd, Restart, Selection};
use super::input::{self, BlocksBoard};
use super::intent::{self, Aim, SlotAction};
use super::view::Palette;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<LogLines>()
        .add_systems(Startup, spawn_hud)
        .add_systems(
            Update,
            (
                collect_log,
                top_bar,
                roster,
                actor_panel,
                modal,
                log_panel,
                log_clears_card,
                scroll_log,
                buttons,
            )
                .chain()
                .after(super::input::InputSet),
        );
}

/// Body text size (logical pixels, before the UI scale).
pub const BODY: f32 = 20.0;
pub const SMALL: f32 = 17.0;
pub const HEADING: f32 = 26.0;

pub fn text(s: impl Into<String>, size: f32, color: Color) -> impl Bundle {
    (
        Text::new(s.into()),
        TextFont {
            font_size: FontSize::Px(size),
            ..default()
        },
        TextColor(color),
    )
}

fn panel() -> impl Bundle {
    (
        BackgroundColor(Palette::PANEL),
        BorderColor::all(Palette::PANEL_EDGE),
        Interaction::default(),
        BlocksBoard,
    )
}

#[derive(Component)]
struct TopLeft;
#[derive(Component)]
struct TopRight;
#[derive(Component)]
struct Notice;
#[derive(Component)]
struct NoticeBanner;
#[derive(Component)]
struct Roster;
#[derive(Component)]
struct ActorPanel;
#[derive(Component)]
struct Modal;
#[derive(Component)]
struct CardPanel;
#[derive(Component)]
struct LogPanel;
#[derive(Component)]
struct LogBody;

/// What a button does.
#[derive(Component, Clone, Debug)]
pub enum UiAction {
    Slot(SlotAction),
    /// Answer a prompt (or any command given whole).
    Command(Command),
    Surges(u32),
    Spend(u32),
    Confirm,
    Cancel,
    Restart,
    Menu,
}

/// The ability-bar slot under the pointer, for its card.
#[derive(Component)]
struct SlotIndex(usize);

/// The combat log's readable lines for this game.
#[derive(Resource, Default)]
pub struct LogLines {
    pub lines: Vec<(String, Color)>,
    generation: u64,
    seen: usize,
}

fn spawn_hud(mut commands: Commands) {
    // The top bar.
    commands
        .spawn((
            Name::new("Top bar"),
            Node {
                position_type: PositionType::Absolute,
                top: px(0),
                left: px(0),
                right: px(0),
                padding: UiRect::axes(px(20), px(8)),
                justify_content: JustifyContent::SpaceBetween,
                align_items: AlignItems::Center,
                border: UiRect::bottom(px(2)),
                ..default()
            },
            panel(),
        ))
        .with_children(|p| {
            p.spawn((TopLeft, text("", HEADING, Palette::TEXT)));
            p.spawn((TopRight, text("", BODY, Palette::DIM)));
        });
    // A refusal, or a replay that stopped: a banner over the top of the
    // board, between the side panels, shown only while there is something
    // to say. (In the top bar it squeezed the title onto a second line,
    // hidden under the roster at 1280x720.) It lets clicks through.
    commands
        .spawn((
            Name::new("Notice"),
            NoticeBanner,
            Node {
                position_type: PositionType::Absolute,
                top: px(70),
                left: px(270),
                right: px(370),
                justify_content: JustifyContent::Center,
                display: Display::None,
                ..default()
            },
        ))
        .with_children(|p| {
            p.spawn((
                Node {
                    padding: UiRect::axes(px(14), px(6)),
                    border: UiRect::all(px(2)),
                    border_radius: BorderRadius::all(px(8)),
                    ..default()
                },
                BackgroundColor(Palette::PANEL),
                BorderColor::all(Palette::DAMAGE),
            ))
            .with_children(|p| {
                p.spawn((Notice, text("", BODY, Palette::DAMAGE)));
            });
        });
    // Both sides' creatures.
    commands.spawn((
        Name::new("Roster"),
        Roster,
        Node {
            position_type: PositionType::Absolute,
            top: px(62),
            left: px(8),
            width: px(254),
            flex_direction: FlexDirection::Column,
            padding: UiRect::all(px(10)),
            row_gap: px(3),
            border: UiRect::all(px(2)),
            border_radius: BorderRadius::all(px(8)),
            ..default()
        },
        panel(),
    ));
    // The combat log.
    commands
        .spawn((
            Name::new("Combat log"),
            LogPanel,
            Node {
                position_type: PositionType::Absolute,
                top: px(62),
                right: px(8),
                bottom: px(8),
                width: px(354),
                flex_direction: FlexDirection::Column,
                padding: UiRect::all(px(10)),
                border: UiRect::all(px(2)),
                border_radius: BorderRadius::all(px(8)),
                ..default()
            },
            panel(),
        ))
        .with_children(|p| {
            p.spawn(text("COMBAT LOG", BODY, Palette::GOLD));
            p.spawn((
                LogBody,
                Node {
                    flex_direction: FlexDirection::Column,
                    overflow: Overflow::scroll_y(),
                    flex_grow: 1.0,
                    row_gap: px(4),
                    margin: UiRect::top(px(6)),
                    ..default()
                },
                ScrollPosition::default(),
            ));
        });
    // The acting creature and its ability bar.
    commands.spawn((
        Name::new("Actor panel"),
        ActorPanel,
        Node {
            position_type: PositionType::Absolute,
            left: px(270),
            right: px(370),
            bottom: px(8),
            flex_direction: FlexDirection::Column,
            padding: UiRect::all(px(10)),
            row_gap: px(6),
            border: UiRect::all(px(2)),
            border_radius: BorderRadius::all(px(8)),
            ..default()
        },
        panel(),
    ));
    // The card of the hovered or aimed ability, or of a creature, with the
    // forecast of what a click would do: below the log, which makes room.
    commands.spawn((
        Name::new("Card"),
        CardPanel,
        Node {
            position_type: PositionType::Absolute,
            right: px(8),
            bottom: px(8),
            width: px(354),
            flex_direction: FlexDirection::Column,
            padding: UiRect::all(px(10)),
            row_gap: px(3),
            border: UiRect::all(px(2)),
            border_radius: BorderRadius::all(px(8)),
            display: Display::None,
            ..default()
        },
        BackgroundColor(Color::srgb(0.06, 0.06, 0.1)),
        BorderColor::all(Palette::GOLD),
        GlobalZIndex(2),
    ));
    // Prompts and the end of the fight, in the middle.
    commands.spawn((
        Name::new("Modal"),
        Modal,
        Node {
            position_type: PositionType::Absolute,
            top: px(120),
            left: px(0),
            right: px(0),
            justify_content: JustifyContent::Center,
            ..default()
        },
        Pickable::IGNORE,
    ));
}

/// The name of a creature, or its id.
fn name_of(e: &Encounter, id: CreatureId) -> String {
    e.name(id)
}

fn collect_log(mut lines: ResMut<LogLines>, game: NonSend<Game>) {
    if lines.generation != game.generation {
        *lines = LogLines {
            generation: game.generation,
            ..default()
        };
    }
    let log = game.encounter.log();
    if lines.seen >= log.len() {
        return;
    }
    let name = |id: CreatureId| name_of(&game.encounter, id);
    for e in &log[lines.seen..] {
        let color = match e {
            LogEntry::RoundStarted { .. } | LogEntry::RoundEnded { .. } => Palette::GOLD,
            LogEntry::Victory { .. } | LogEntry::CriticalHit { .. } => Palette::GOLD,
            LogEntry::Damage { .. } | LogEntry::Died { .. } | LogEntry::Dying { .. } => {
                Palette::DAMAGE
            }
            LogEntry::ConditionGained { .. } => Palette::CONDITION,
            LogEntry::TurnStarted { .. } => Palette::HEROES.lighter(0.2),
            LogEntry::Healed { .. } | LogEntry::ResourceGained { .. } => Palette::GOOD,
            _ => Palette::TEXT,
        };
        lines.lines.push((e.line(&name), color));
    }
    lines.seen = log.len();
}

fn top_bar(
    game: NonSend<Game>,
    pace: Res<Pace>,
    mut texts: ParamSet<(
        Single<&mut Text, With<TopLeft>>,
        Single<&mut Text, With<TopRight>>,
        Single<&mut Text, With<Notice>>,
    )>,
    mut banner: Single<&mut Node, With<NoticeBanner>>,
    time: Res<Time>,
    mut shown: Local<((u64, u64), f32)>,
) {
    let e = &game.encounter;
    let flow = e.flow();
    // Phased 2d6: the round's phase and who is up.
    let phase = flow.phased.as_ref().map(|p| match p.stage {
        skirmish_rules::phased::Stage::Movement => " · Movement",
        skirmish_rules::phased::Stage::Battle => " · Battle",
    });
    let left = if let Some(w) = e.outcome() {
        format!("Round {} · {} win", flow.round, side_name(w))
    } else if let Some(p) = e.prompt() {
        format!(
            "Round {} · {} may react",
            flow.round,
            name_of(e, p.creature)
        )
    } else if let Some(a) = flow.active {
        format!("Round {} · {}'s turn", flow.round, name_of(e, a))
    } else {
        let who = game.deciding_side().unwrap_or(flow.to_act);
        let person = game.human(who) && game.mode != Mode::Replay;
        match e.phased_next() {
            Some(next) => format!(
                "Round {} · {} is up ({})",
                flow.round,
                name_of(e, next),
                pick_how(person)
            ),
            None => format!("Round {} · {}", flow.round, picking(side_name(who), person)),
        }
    };
    // "Round 3 · Battle · Korva's turn".
    let left = match (phase, left.split_once(" · ")) {
        (Some(p), Some((round, rest))) => format!("{round}{p} · {rest}"),
        _ => left,
    };
    let mut right = format!("Malice {} · {}", e.malice(), game.mode.label());
    if let Some(end) = game.replay_end() {
        // Kept in the bar once the notice has gone: nothing more will play.
        right += &format!(" {}", end.bar());
    } else if matches!(game.mode, Mode::Demo | Mode::Replay) {
        right += &format!(
            " · {}{:.1}s  [Space] pause [N] step [+/-] speed",
            if pace.paused { "PAUSED · " } else { "" },
            pace.delay
        );
    }
    right += " · [Esc] menu";
    let notice = game.notice.clone().unwrap_or_default();
    if texts.p0().0 != left {
        texts.p0().0 = left;
    }
    if texts.p1().0 != right {
        texts.p1().0 = right;
    }
    // A notice shows for a while, then leaves the board clear (a new one,
    // even in the same words, shows anew).
    let now = time.elapsed_secs();
    let said = (game.generation, game.notice_serial);
    if shown.0 != said {
        *shown = (said, now);
    }
    let display = if notice.is_empty() || now - shown.1 > NOTICE_SECONDS {
        Display::None
    } else {
        Display::Flex
    };
    if banner.display != display {
        banner.display = display;
    }
    if texts.p2().0 != notice {
        texts.p2().0 = notice;
    }
}

fn roster(
    mut commands: Commands,
    game: NonSend<Game>,
    panel: Single<Entity, With<Roster>>,
    icons: Res<super::tokens::TokenIcons>,
    mut drawn: Local<(u64, u64)>,
) {
    let key = (game.generation, game.version);
    if *drawn == key {
        return;
    }
    *drawn = key;
    let e = &game.encounter;
    let flow = e.flow();
    commands.entity(*panel).despawn_children();
    commands.entity(*panel).with_children(|p| {
        for side in [Side::Heroes, Side::Director] {
            let title = match side {
                Side::Heroes => "HEROES",
                Side::Director => "MONSTERS",
            };
            p.spawn(text(title, BODY, Palette::side(side)));
            for c in e.creatures().into_iter().filter(|c| c.side == side) {
                let health = c.stamina.health();
                let mark = if flow.is_acting(c.id) {
                    "▶"
                } else if health == Health::Dead {
                    "✝"
                } else if flow.acted.contains(&c.id) {
                    "✓"
                } else {
                    "·"
                };
                let color = match health {
                    Health::Dead => Palette::DIM.darker(0.2),
                    _ if flow.is_acting(c.id) => Palette::GOLD,
                    _ if flow.acted.contains(&c.id) => Palette::DIM,
                    _ => Palette::TEXT,
                };
                let stamina = if health == Health::Dead {
                    "down".to_string()
                } else {
                    stamina_text(&c.stamina)
                };
                p.spawn(text(
                    format!("{mark} {} {}  {stamina}", icons.icon(&c.kind), c.name),
                    SMALL,
                    color,
                ));
                // Its conditions in words, on a line of their own: read from
                // across a room where a token's badges are too small.
                if health != Health::Dead
                    && let Some(words) = condition_words(&c.conditions)
                {
                    p.spawn((
                        text(words, SMALL, Palette::CONDITION),
                        Node {
                            margin: UiRect::left(px(26)),
                            ..default()
                        },
                    ));
                }
            }
        }
    });
}

/// A creature's conditions as words, each once however many effects imposed
/// it ("prone, grabbed"); `None` with none.
pub fn condition_words(c: &skirmish_rules::conditions::Conditions) -> Option<String> {
    let words: Vec<&str> = c.kinds().into_iter().map(|k| k.word()).collect();
    (!words.is_empty()).then(|| words.join(", "))
}

/// An ability's card: the lines of its full text.
pub fn ability_card(
    ab: &Ability,
    resource: &str,
    phased: Option<&skirmish_rules::phased::PhasedRules>,
) -> Vec<String> {
    let cost = match ab.cost {
        Cost::Heroic(n) => format!(" ({n} {resource})"),
        Cost::Malice(n) => format!(" ({n} Malice)"),
        Cost::Signature => " (signature)".into(),
        Cost::Free => String::new(),
    };
    let mut out = vec![format!("{}{cost}", ab.name)];
    let keywords: Vec<String> = ab.keywords.iter().map(|k| format!("{k:?}")).collect();
    let mut kind = intent::action_name(ab.action).to_string();
    if !keywords.is_empty() {
        kind = format!("{} · {kind}", keywords.join(", "));
    }
    out.push(kind);
    let targets: Vec<String> = ab
        .target
        .kinds
        .iter()
        .map(|k| format!("{k:?}").to_lowercase())
        .collect();
    let count = ab
        .target
        .count
        .map_or("each".to_string(), |n| n.to_string());
    out.push(format!(
        "{} · {count} {}",
        ab.distance,
        targets.join(" or ")
    ));
    if let Some(t) = &ab.trigger {
        out.push(format!("Trigger: {t:?}"));
    }
    if !ab.flavor.is_empty() {
        out.push(ab.flavor.clone());
    }
    if let Some(PowerRoll {
        characteristics,
        tiers,
    }) = &ab.power_roll
    {
        let chars: Vec<String> = characteristics.iter().map(|c| c.to_string()).collect();
        match phased {
            // Seed 001: 2d6 + ATK against DEF; our tiers for a hit.
            Some(r) => {
                out.push(format!("Attack: 2d6 + {} vs DEF", chars.join(" or ")));
                out.push("  miss: nothing".to_string());
                out.push(format!("  hit: {}", tiers.1.text));
                out.push(format!(
                    "  hit by {}+: {}",
                    r.tier_three_margin, tiers.2.text
                ));
            }
            None => {
                out.push(format!("Power roll + {}", chars.join(" or ")));
                out.push(format!("  ≤11: {}", tiers.0.text));
                out.push(format!("  12-16: {}", tiers.1.text));
                out.push(format!("  17+: {}", tiers.2.text));
            }
        }
    }
    if let Some(e) = &ab.effect
        && !e.text.is_empty()
    {
        out.push(format!("Effect: {}", e.text));
    }
    for s in &ab.spend {
        let plus = if s.repeatable { "+" } else { "" };
        out.push(format!("Spend {}{plus} {resource}: {}", s.amount, s.text));
    }
    let mut extras = Vec::new();
    // Seed 002: what the ability needs while it lasts.
    let mut needs: Vec<&str> = ab.components.iter().map(|c| c.name()).collect();
    if ab.concentration {
        needs.insert(0, "concentration");
    }
    if !needs.is_empty() {
        extras.push(format!("needs {}", needs.join(", ")));
    }
    if ab.true_distance {
        extras.push("true distance: ignores sight and cover".to_string());
    }
    if let Some(n) = ab.uses {
        let what = if ab.item { "item" } else { "ability" };
        extras.push(format!(
            "{what}, {n} use{} an encounter",
            if n == 1 { "" } else { "s" }
        ));
    }
    if ab.experience > 0 {
        extras.push(format!("+{} XP", ab.experience));
    }
    if !extras.is_empty() {
        out.push(extras.join(" · "));
    }
    out
}

/// The forecast of a command, a line per target.
pub fn forecast(e: &Encounter, cmd: &Command) -> Vec<String> {
    let Some(p) = e.preview(cmd) else {
        return Vec::new();
    };
    p.targets
        .iter()
        .map(|t| {
            let tiers: Vec<String> = t
                .chances
                .iter()
                .zip(&t.tiers)
                .enumerate()
                .map(|(i, (c, o))| {
                    let mut s = format!("T{} {:.0}%: {}", i + 1, c * 100.0, o.damage);
                    for k in &o.conditions {
                        s += &format!(" {}", k.to_string().to_lowercase());
                    }
                    s
                })
                .collect();
            // An aura's outcome is what it does each time it acts.
            let within = if p.aura { ", in the aura" } else { "" };
            let mut line = format!("{}{within}: {}", e.name(t.target), tiers.join(" | "));
            if t.edges + t.banes > 0 {
                line += &format!(" ({} edge, {} bane)", t.edges, t.banes);
            }
            if t.kill_chance > 0.0 {
                line += &format!(" · down {:.0}%", t.kill_chance * 100.0);
            }
            line
        })
        .collect()
}

/// A side as the top bar and the acting card name it.
fn side_name(side: Side) -> &'static str {
    match side {
        Side::Heroes => "Heroes",
        Side::Director => "Monsters",
    }
}

/// How long a notice shows over the board.
const NOTICE_SECONDS: f32 = 8.0;

/// The top bar's words while `side` picks who acts: a person is told what
/// to do ("Heroes: click one of yours to act"), a brain's pick is described
/// ("Monsters choosing who acts").
fn picking(side: &str, person: bool) -> String {
    let how = pick_how(person);
    if person {
        format!("{side}: {how}")
    } else {
        format!("{side} {how}")
    }
}

/// What a person picking who acts is to do, or what a brain is doing.
fn pick_how(person: bool) -> &'static str {
    if person {
        "click one of yours to act"
    } else {
        "choosing who acts"
    }
}

/// What the acting card says while a side no one plays at this screen
/// picks its next creature: which side, and in a replay that it is one
/// (it read "The other side is choosing." in a replay and in a demo, where
/// neither side is the viewer's).
fn waiting_hint(mode: Mode, side: Option<Side>) -> String {
    let replay = if mode == Mode::Replay {
        "Replay · "
    } else {
        ""
    };
    match side {
        Some(side) => format!("{replay}{} choose who acts next.", side_name(side)),
        None => format!("{replay}The other side is choosing."),
    }
}

/// Stamina as the roster and the acting card show it, with temporary
/// stamina on top when there is any ("21/21 +6").
fn stamina_text(s: &skirmish_rules::stats::Stamina) -> String {
    if s.temporary > 0 {
        format!("{}/{} +{}", s.current, s.max, s.temporary)
    } else {
        format!("{}/{}", s.current, s.max)
    }
}

/// A creature's details, for the card when nothing is aimed.
fn creature_card(e: &Encounter, id: CreatureId) -> Vec<String> {
    let Some(c) = e.creature(id) else {
        return Vec::new();
    };
    let mut out = vec![format!(
        "{} · level {} · stamina {}/{}{}",
        c.name,
        c.level,
        c.stamina.current,
        c.stamina.max,
        if c.stamina.temporary > 0 {
            format!(" (+{} temporary)", c.stamina.temporary)
        } else {
            String::new()
        }
    )];
    out.push(format!(
        "Speed {} · stability {} · size {}",
        c.movement.speed, c.movement.stability, c.space.size
    ));
    if !c.conditions.list.is_empty() {
        let list: Vec<String> = c
            .conditions
            .list
            .iter()
            .map(|a| format!("{} ({})", a.kind, a.duration))
            .collect();
        out.push(format!("Conditions: {}", list.join(", ")));
    }
    if !c.bonuses.0.is_empty() {
        let list: Vec<String> = c
            .bonuses
            .0
            .iter()
            .map(|b| {
                let what = match b.kind {
                    skirmish_rules::ability::BonusKind::Shield(n) => format!("shield {n}"),
                    skirmish_rules::ability::BonusKind::Retaliate { amount, range } => {
                        format!("retaliate {amount} (range {range})")
                    }
                };
                match b.uses_left {
                    Some(n) => format!("{what}, {n} left"),
                    None => what,
                }
            })
            .collect();
        out.push(format!("Bonuses: {}", list.join(", ")));
    }
    if let Some(a) = &c.casting {
        let name = e
            .content()
            .ability(a)
            .map_or(a.clone(), |ab| ab.name.clone());
        out.push(format!("Slow action: {name}, takes effect next turn"));
    }
    if let Some(s) = &c.summoned {
        let owner = e.creature(s.owner).map_or(String::new(), |o| o.name);
        out.push(format!("Summoned by {owner}: acts just before them"));
    }
    if c.progress.loot > 0 || c.progress.experience > 0 {
        out.push(format!(
            "Loot {} coins · {} XP",
            c.progress.loot, c.progress.experience
        ));
    }
    let names: Vec<String> = c
        .abilities
        .iter()
        .filter_map(|a| {
            e.content().ability(a).map(|ab| {
                match skirmish_rules::encounter::gather::uses_left(Some(&c.progress), ab) {
                    Some(0) => format!("{} (spent)", ab.name),
                    Some(n) => format!("{} ({n} left)", ab.name),
                    None => ab.name.clone(),
                }
            })
        })
        .collect();
    if !names.is_empty() {
        out.push(format!("Abilities: {}", names.join(", ")));
    }
    out
}

fn actor_panel(
    mut commands: Commands,
    game: NonSend<Game>,
    selection: Res<Selection>,
    panel: Single<Entity, With<ActorPanel>>,
    card: Single<(Entity, &mut Node), With<CardPanel>>,
    slots_hovered: Query<(&Interaction, &SlotIndex)>,
    mut drawn: Local<
        Option<(
            u64,
            u64,
            Aim,
            Option<skirmish_rules::map::Pos>,
            Option<usize>,
            Option<CreatureId>,
            Option<ReplayEnd>,
        )>,
    >,
) {
    let hovered_slot = slots_hovered
        .iter()
        .find(|(i, _)| **i != Interaction::None)
        .map(|(_, s)| s.0);
    let key = (
        game.generation,
        game.version,
        selection.aim.clone(),
        selection.hover,
        hovered_slot,
        selection.inspect,
        game.replay_end(),
    );
    if drawn.as_ref() == Some(&key) {
        return;
    }
    let key_end = key.6;
    *drawn = Some(key);
    let e = &game.encounter;
    let entity = *panel;
    commands.entity(entity).despawn_children();
    let (card_entity, mut card_node) = card.into_inner();
    commands.entity(card_entity).despawn_children();
    let mut card_lines: Vec<(String, Color)> = Vec::new();
    // A replay that has ended shows why, not the card of a turn that will
    // not go on.
    let actor = e.active_creature().filter(|_| key_end.is_none());
    let hovered_creature = selection.hover.and_then(|h| {
        e.occupants()
            .into_iter()
            .find(|o| o.space.squares().any(|q| q == h))
            .map(|o| o.id)
    });
    commands.entity(entity).with_children(|p| {
        let Some(id) = actor else {
            let hint = if e.outcome().is_some() {
                "The fight is over. [R] restart · [Esc] choose another encounter".to_string()
            } else if let Some(end) = key_end {
                end.card()
            } else if game.players_turn() {
                "Click one of your creatures to start its turn.".to_string()
            } else {
                waiting_hint(game.mode, game.deciding_side())
            };
            p.spawn(text(hint, BODY, Palette::TEXT));
            if let Some(c) = hovered_creature.or(selection.inspect) {
                for line in creature_card(e, c) {
                    card_lines.push((line, Palette::TEXT));
                }
            }
            return;
        };
        let Some(view) = e.creature(id) else { return };
        // Who, and what they have left.
        let mut head = format!("{} · stamina {}", view.name, stamina_text(&view.stamina));
        if let Some(h) = &view.heroic {
            head += &format!(" · {} {} · surges {}", h.resource, h.amount, h.surges);
        }
        p.spawn(text(head, BODY + 2.0, Palette::side(view.side)));
        p.spawn(Node {
            column_gap: px(10),
            ..default()
        })
        .with_children(|row| {
            let b = view.budget;
            for (label, left) in [
                ("Main", b.main),
                ("Maneuver", b.maneuver),
                ("Move", b.move_action),
                ("Triggered", b.triggered),
            ] {
                row.spawn((
                    Node {
                        padding: UiRect::axes(px(10), px(3)),
                        border_radius: BorderRadius::all(px(12)),
                        ..default()
                    },
                    BackgroundColor(if left {
                        Color::srgb(0.15, 0.45, 0.25)
                    } else {
                        Color::srgb(0.22, 0.22, 0.25)
                    }),
                ))
                .with_child(text(
                    format!("{} {label}", if left { "●" } else { "○" }),
                    SMALL,
                    if left { Palette::TEXT } else { Palette::DIM },
                ));
            }
            if !game.players_turn() {
                let who = if game.mode == Mode::Replay {
                    "(replay)"
                } else {
                    "(AI is playing)"
                };
                row.spawn(text(who, SMALL, Palette::DIM));
            }
        });
        // The ability bar.
        let slots = intent::slots(e, &game.legal, id);
        let mine = game.players_turn();
        p.spawn(Node {
            flex_wrap: FlexWrap::Wrap,
            column_gap: px(6),
            row_gap: px(6),
            ..default()
        })
        .with_children(|bar| {
            for (i, s) in slots.iter().enumerate() {
                let aimed = matches!(&s.action, SlotAction::Aim(a) if *a == selection.aim);
                let bg = if aimed {
                    Color::srgb(0.55, 0.4, 0.08)
                } else if s.usable && mine {
                    Color::srgb(0.16, 0.2, 0.3)
                } else {
                    Color::srgb(0.12, 0.12, 0.13)
                };
                let key = if i < 9 {
                    format!("{} ", i + 1)
                } else {
                    String::new()
                };
                bar.spawn((
                    Button,
                    SlotIndex(i),
                    UiAction::Slot(s.action.clone()),
                    Node {
                        align_items: AlignItems::Baseline,
                        column_gap: px(6),
                        padding: UiRect::axes(px(8), px(3)),
                        border: UiRect::all(px(2)),
                        border_radius: BorderRadius::all(px(6)),
                        ..default()
                    },
                    BackgroundColor(bg),
                    BorderColor::all(if aimed { Palette::GOLD } else { Palette::PANEL_EDGE }),
                    BlocksBoard,
                ))
                .with_children(|b| {
                    let c = if s.usable && mine {
                        Palette::TEXT
                    } else {
                        Palette::DIM
                    };
                    b.spawn(text(format!("{key}{}", s.label), SMALL, c));
                    if let Some(n) = s.price {
                        b.spawn(text(format!("◆{n}"), SMALL - 2.0, Palette::GOLD));
                    }
                });
            }
        });
        // The card: the hovered slot, else the aimed ability, else a creature.
        let resource = view
            .heroic
            .as_ref()
            .map_or("Malice".to_string(), |h| h.resource.clone());
        let card_ability = hovered_slot
            .and_then(|i| slots.get(i))
            .and_then(|s| match &s.action {
                SlotAction::Aim(Aim::Ability(a)) => Some(a.clone()),
                _ => None,
            })
            .or(match &selection.aim {
                Aim::Ability(a) => Some(a.clone()),
                _ => None,
            });
        let mut lines: Vec<(String, Color)> = Vec::new();
        if let Some(ab) = card_ability.and_then(|a| e.content().ability(&a)) {
            for (i, l) in ability_card(ab, &resource, e.phased_rules())
                .into_iter()
                .enumerate()
            {
                lines.push((l, if i == 0 { Palette::GOLD } else { Palette::TEXT }));
            }
        } else if let Some(c) = hovered_creature.or(selection.inspect) {
            for l in creature_card(e, c) {
                lines.push((l, Palette::TEXT));
            }
        }
        // The forecast for what a click would do now.
        if let Some(h) = selection.hover
            && selection.aim != Aim::Move
            && let Some(cmd) = intent::command_at(&game.legal, id, &selection.aim, h, hovered_creature, false)
        {
            for l in forecast(e, &cmd) {
                lines.push((l, Palette::GOOD));
            }
        }
        card_lines = lines;
        let hint = match &selection.aim {
            Aim::Move => "Click a blue square to move (hold Shift to shift) · pick an ability (1-9) · [E] end turn",
            _ => "Click a highlighted target or square to use it (an area around you: its key again) · right click or [Esc] to cancel",
        };
        if mine {
            p.spawn(text(hint, SMALL - 1.0, Palette::DIM));
        }
    });
    card_node.display = if card_lines.is_empty() {
        Display::None
    } else {
        Display::Flex
    };
    commands.entity(card_entity).with_children(|c| {
        for (l, color) in card_lines {
            c.spawn(text(l, SMALL, color));
        }
    });
}

fn modal(
    mut commands: Commands,
    game: NonSend<Game>,
    selection: Res<Selection>,
    root: Single<Entity, With<Modal>>,
    mut drawn: Local<Option<(u64, u64, Option<super::game::Pending>)>>,
) {
    let key = (game.generation, game.version, selection.pending.clone());
    if drawn.as_ref() == Some(&key) {
        return;
    }
    *drawn = Some(key);
    commands.entity(*root).despawn_children();
    let e = &game.encounter;
    let card = |p: &mut ChildSpawnerCommands, build: &dyn Fn(&mut ChildSpawnerCommands)| {
        p.spawn((
            Node {
                flex_direction: FlexDirection::Column,
                padding: UiRect::all(px(20)),
                row_gap: px(10),
                border: UiRect::all(px(3)),
                border_radius: BorderRadius::all(px(10)),
                min_width: px(460),
                ..default()
            },
            BackgroundColor(Color::srgb(0.05, 0.05, 0.08)),
            BorderColor::all(Palette::GOLD),
            Interaction::default(),
            BlocksBoard,
        ))
        .with_children(|c| build(c));
    };
    commands.entity(*root).with_children(|root| {
        if let Some(w) = e.outcome() {
            let won = match game.mode {
                Mode::Solo => w == Side::Heroes,
                _ => true,
            };
            let title = match (game.mode, w) {
                (Mode::Solo, Side::Heroes) => "VICTORY".to_string(),
                (Mode::Solo, Side::Director) => "DEFEAT".to_string(),
                (_, Side::Heroes) => "THE HEROES WIN".to_string(),
                (_, Side::Director) => "THE MONSTERS WIN".to_string(),
            };
            let summary = summary(e);
            card(root, &|c| {
                c.spawn(text(
                    title.clone(),
                    48.0,
                    if won { Palette::GOLD } else { Palette::DAMAGE },
                ));
                for l in &summary {
                    c.spawn(text(l.clone(), BODY, Palette::TEXT));
                }
                c.spawn(Node {
                    column_gap: px(12),
                    ..default()
                })
                .with_children(|row| {
                    button(row, "Play again [R]", UiAction::Restart);
                    button(row, "Choose encounter [Esc]", UiAction::Menu);
                });
            });
            return;
        }
        if let Some(p) = &selection.pending {
            let p = p.clone();
            card(root, &|c| {
                c.spawn(text("Before the roll", HEADING, Palette::GOLD));
                if p.max_surges > 0 {
                    c.spawn(text(
                        "Surges to spend (each adds damage to the first target):",
                        BODY,
                        Palette::TEXT,
                    ));
                    c.spawn(Node {
                        column_gap: px(8),
                        ..default()
                    })
                    .with_children(|row| {
                        for n in 0..=p.max_surges {
                            let mark = if n == p.surges { "▶ " } else { "" };
                            button(row, &format!("{mark}{n}"), UiAction::Surges(n));
                        }
                    });
                }
                if p.max_spend > 0 {
                    c.spawn(text("Heroic resource to spend:", BODY, Palette::TEXT));
                    c.spawn(Node {
                        column_gap: px(8),
                        ..default()
                    })
                    .with_children(|row| {
                        for n in 0..=p.max_spend.min(6) {
                            let mark = if n == p.spend { "▶ " } else { "" };
                            button(row, &format!("{mark}{n}"), UiAction::Spend(n));
                        }
                    });
                }
                c.spawn(Node {
                    column_gap: px(12),
                    ..default()
                })
                .with_children(|row| {
                    button(row, "Roll!", UiAction::Confirm);
                    button(row, "Cancel", UiAction::Cancel);
                });
            });
            return;
        }
        if let Some(prompt) = e.prompt()
            && game.players_turn()
        {
            let who = e.name(prompt.creature);
            let actor = e.name(prompt.event.actor);
            let what = skirmish_rules::encounter::log::trigger_text(prompt.event.kind);
            let answers: Vec<Command> = game
                .legal
                .iter()
                .filter(|c| matches!(c, Command::Answer { .. }))
                .cloned()
                .collect();
            card(root, &|c| {
                c.spawn(text(format!("{who} may react"), HEADING, Palette::GOLD));
                c.spawn(text(
                    format!("Trigger: {what} ({actor})"),
                    BODY,
                    Palette::TEXT,
                ));
                for a in &answers {
                    let label = match a {
                        Command::Answer {
                            reaction: Some(r), ..
                        } => {
                            let name = e
                                .content()
                                .ability(&r.ability)
                                .map_or("Opportunity attack".to_string(), |ab| ab.name.clone());
                            let on: Vec<String> = r.targets.iter().map(|t| e.name(*t)).collect();
                            if on.is_empty() {
                                name
                            } else {
                                format!("{name} → {}", on.join(", "))
                            }
                        }
                        _ => "Let it pass".to_string(),
                    };
                    button(c, &label, UiAction::Command(a.clone()));
                }
            });
        }
    });
}

/// The end-of-fight summary: rounds, who fell, damage dealt per side.
pub fn summary(e: &Encounter) -> Vec<String> {
    let mut dealt = [0i64; 2];
    let mut user: Option<CreatureId> = None;
    let side_of = |id: CreatureId| e.creature(id).map(|c| c.side);
    for entry in e.log() {
        match entry {
            LogEntry::AbilityUsed { creature, .. } => user = Some(*creature),
            LogEntry::TurnStarted { creature, .. } => user = Some(*creature),
            LogEntry::Damage { target, amount, .. } => {
                if let (Some(u), Some(ts)) = (user, side_of(*target))
                    && side_of(u) != Some(ts)
                {
                    let i = usize::from(ts == Side::Heroes);
                    dealt[i] += i64::from(*amount);
                }
            }
            _ => {}
        }
    }
    let fallen = |side: Side| {
        e.creatures()
            .into_iter()
            .filter(|c| {
                c.side == side && matches!(c.stamina.health(), Health::Dead | Health::Dying)
            })
            .count()
    };
    let total = |side: Side| e.creatures().into_iter().filter(|c| c.side == side).count();
    // Seed 004: loot and experience, per hero that gathered any.
    let gathered: Vec<String> = e
        .creatures()
        .into_iter()
        .filter(|c| c.side == Side::Heroes && c.summoned.is_none())
        .filter(|c| c.progress.loot > 0 || c.progress.experience > 0)
        .map(|c| {
            format!(
                "{}: {} coins · {} XP",
                c.name, c.progress.loot, c.progress.experience
            )
        })
        .collect();
    let mut lines = vec![
        format!("{} rounds", e.flow().round),
        format!(
            "Heroes: {} of {} fell · dealt {} damage",
            fallen(Side::Heroes),
            total(Side::Heroes),
            dealt[0]
        ),
        format!(
            "Monsters: {} of {} fell · dealt {} damage",
            fallen(Side::Director),
            total(Side::Director),
            dealt[1]
        ),
    ];
    lines.extend(gathered);
    lines
}

fn button(p: &mut ChildSpawnerCommands, label: &str, action: UiAction) {
    p.spawn((
        Button,
        action,
        Node {
            padding: UiRect::axes(px(16), px(8)),
            border: UiRect::all(px(2)),
            border_radius: BorderRadius::all(px(6)),
            ..default()
        },
        BackgroundColor(Color::srgb(0.18, 0.22, 0.32)),
        BorderColor::all(Palette::PANEL_EDGE),
        BlocksBoard,
    ))
    .with_child(text(label.to_string(), BODY, Palette::TEXT));
}

fn log_panel(
    mut commands: Commands,
    lines: Res<LogLines>,
    body: Single<(Entity, &mut ScrollPosition), With<LogBody>>,
    mut shown: Local<(u64, usize)>,
) {
    let (entity, mut scroll) = body.into_inner();
    if *shown == (lines.generation, lines.lines.len()) {
        return;
    }
    if shown.0 != lines.generation || shown.1 > lines.lines.len() {
        commands.entity(entity).despawn_children();
        shown.1 = 0;
    }
    shown.0 = lines.generation;
    // Only the last few hundred lines are kept on screen.
    let from = shown.1.max(lines.lines.len().saturating_sub(300));
    commands.entity(entity).with_children(|p| {
        for (l, c) in &lines.lines[from..] {
            p.spawn(text(l.clone(), SMALL, *c));
        }
    });
    shown.1 = lines.lines.len();
    // Follow the newest line.
    scroll.0.y = f32::MAX / 4.0;
}

/// The combat log ends above the ability or creature card while one shows,
/// so the newest lines (what just happened) stay in sight while aiming.
fn log_clears_card(
    card: Single<(&Node, &ComputedNode), (With<CardPanel>, Without<LogPanel>)>,
    mut log: Single<&mut Node, (With<LogPanel>, Without<CardPanel>)>,
    mut body: Single<&mut ScrollPosition, With<LogBody>>,
) {
    let (node, computed) = *card;
    let bottom = if node.display == Display::None || computed.size().y <= 0.0 {
        8.0
    } else {
        // The card's height in the logical pixels `Val::Px` takes, a gap,
        // and the 8 it stands off the window's edge.
        (computed.size().y * computed.inverse_scale_factor() + 16.0).round()
    };
    if log.bottom != px(bottom) {
        log.bottom = px(bottom);
        // Follow the newest line in the log's new height.
        body.0.y = f32::MAX / 4.0;
    }
}

fn scroll_log(
    scroll: Res<AccumulatedMouseScroll>,
    panel: Single<&Interaction, With<LogPanel>>,
    mut body: Single<&mut ScrollPosition, With<LogBody>>,
) {
    if **panel == Interaction::None || scroll.delta.y == 0.0 {
        return;
    }
    let dy = match scroll.unit {
        MouseScrollUnit::Line => scroll.delta.y * 30.0,
        MouseScrollUnit::Pixel => scroll.delta.y,
    };
    body.0.y = (body.0.y - dy).max(0.0);
}

fn buttons(
    pressed: Query<(&Interaction, &UiAction), Changed<Interaction>>,
    mut game: NonSendMut<Game>,
    mut selection: ResMut<Selection>,
    mut out: MessageWriter<Applied>,
    mut restart: MessageWriter<Restart>,
    mut picker: ResMut<super::picker::PickerOpen>,
) {
    for (i, action) in &pressed {
        if *i != Interaction::Pressed {
            continue;
        }
        match action.clone() {
            UiAction::Slot(s) => {
                if game.players_turn() {
                    let mut sel = std::mem::take(&mut *selection);
                    input::activate(&mut game, &mut sel, s, &mut out);
                    *selection = sel;
                }
            }
            UiAction::Command(c) => {
                let _ = game.apply(c, &mut out);
            }
            UiAction::Surges(n) => {
                if let Some(p) = &mut selection.pending {
                    p.surges = n;
                }
            }
            UiAction::Spend(n) => {
                if let Some(p) = &mut selection.pending {
                    p.spend = n;
                }
            }
            UiAction::Confirm => {
                if let Some(p) = selection.pending.take() {
                    let cmd = input::with_choices(&p);
                    if game.apply(cmd, &mut out).is_ok() {
                        selection.aim = Aim::Move;
                    }
                }
            }
            UiAction::Cancel => selection.pending = None,
            UiAction::Restart => {
                restart.write(Restart);
            }
            UiAction::Menu => picker.0 = true,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;
    use std::sync::Arc;

    use super::*;

    fn db() -> Arc<skirmish_rules::content::ContentDb> {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets");
        Arc::new(skirmish_rules::content::ContentDb::load(&root).unwrap())
    }

    // Temporary stamina was invisible in the roster: a fury at 21/21 with 6
    // temporary took 3 damage and still read 21/21 (the engine's
    // `Stamina::take_damage` spends temporary stamina first).
    #[test]
    fn the_roster_shows_temporary_stamina_until_it_is_spent() {
        use skirmish_rules::stats::{LifeRule, Stamina};
        let mut s = Stamina::new(21, 8, LifeRule::Hero);
        assert_eq!(stamina_text(&s), "21/21");
        s.gain_temporary(6);
        assert_eq!(stamina_text(&s), "21/21 +6");
        s.take_damage(3);
        assert_eq!(stamina_text(&s), "21/21 +3");
        s.take_damage(5);
        assert_eq!(stamina_text(&s), "19/21");
    }

    // Between turns the acting card names the side picking (in a replay or
    // a demo neither side is "the other side").
    #[test]
    fn between_turns_the_card_names_the_side_choosing() {
        assert_eq!(
            waiting_hint(Mode::Replay, Some(Side::Director)),
            "Replay · Monsters choose who acts next."
        );
        assert_eq!(
            waiting_hint(Mode::Demo, Some(Side::Heroes)),
            "Heroes choose who acts next."
        );
        assert_eq!(
            waiting_hint(Mode::Solo, None),
            "The other side is choosing."
        );
    }

    #[test]
    fn an_ability_card_shows_the_whole_ability() {
        let db = db();
        // Seed 000's Brutal Slam, as the fury's content gives it.
        let ab = db
            .abilities
            .values()
            .find(|a| a.name == "Brutal Slam")
            .expect("Brutal Slam is shipped");
        let card = ability_card(ab, "ferocity", None);
        assert!(card[0].starts_with("Brutal Slam"));
        let roll = ab.power_roll.as_ref().unwrap();
        assert!(card.iter().any(|l| l.contains(&roll.tiers.0.text)));
        assert!(card.iter().any(|l| l.contains(&roll.tiers.2.text)));
        assert!(card.iter().any(|l| l.contains(&ab.distance.to_string())));
        // Under the phased 2d6 ruleset the card speaks of hits and misses.
        let rules = skirmish_rules::phased::PhasedRules::default();
        let card = ability_card(ab, "ferocity", Some(&rules));
        assert!(card.iter().any(|l| l == "  miss: nothing"));
        assert!(
            card.iter()
                .any(|l| l.contains("hit by 4+") && l.contains(&roll.tiers.2.text))
        );
        // Seed 002 components show as what the ability needs.
        let shot = db.abilities.get("aimed_shot").expect("shipped");
        let card = ability_card(shot, "insight", None);
        assert!(
            card.iter().any(|l| l.contains("needs hands, standing")),
            "{card:?}"
        );
    }

    #[test]
    fn the_summary_counts_the_fallen() {
        let db = db();
        let (result, e) = skirmish_rules::sim::play_with(
            &db,
            "keep_breach",
            3,
            skirmish_rules::ai::by_name("greedy", 1, &db).unwrap(),
            skirmish_rules::ai::by_name("greedy", 2, &db).unwrap(),
            20_000,
        )
        .unwrap();
        let s = summary(&e);
        assert_eq!(s[0], format!("{} rounds", e.flow().round));
        let loser = match result.winner.unwrap() {
            Side::Heroes => Side::Director,
            Side::Director => Side::Heroes,
        };
        let all = e
            .creatures()
            .into_iter()
            .filter(|c| c.side == loser)
            .count();
        let line = if loser == Side::Heroes { &s[1] } else { &s[2] };
        // RULES.md "Victory": a side wins when every enemy is down.
        assert!(line.contains(&format!("{all} of {all} fell")), "{line}");
    }

    #[test]
    fn the_roster_names_each_condition_once() {
        use skirmish_rules::conditions::{
            ActiveCondition, ConditionKind as K, Conditions, Duration,
        };
        let on = |kind, ability: &str| ActiveCondition {
            kind,
            duration: Duration::SaveEnds,
            source: None,
            ability: Some(ability.into()),
            save_shift: Default::default(),
        };
        let mut c = Conditions::default();
        assert_eq!(condition_words(&c), None);
        // Seed 000 "Stacking Unique Effects": two effects imposing prone
        // are both tracked; the creature is prone once.
        c.apply(on(K::Prone, "knockback"));
        c.apply(on(K::Grabbed, "grab"));
        c.apply(on(K::Prone, "brutal_slam"));
        assert_eq!(c.list.len(), 3);
        assert_eq!(condition_words(&c).as_deref(), Some("grabbed, prone"));
    }

    // The top bar between turns reads as a sentence either way.
    #[test]
    fn the_pick_line_tells_a_person_what_to_do_and_describes_a_brain() {
        assert_eq!(picking("Heroes", true), "Heroes: click one of yours to act");
        assert_eq!(picking("Monsters", false), "Monsters choosing who acts");
    }
}
