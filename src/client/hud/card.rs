//! The card: the hovered or aimed ability in full, or a creature's
//! details, with the forecast of what a click would do now. It sits on the
//! board's lower left corner while there is something to show (the player
//! opened it by pointing at something), and is gone otherwise.

use bevy::prelude::*;
use skirmish_rules::ability::{Ability, Cost, PowerRoll};
use skirmish_rules::encounter::{Command, Encounter};
use skirmish_rules::stats::CreatureId;

use super::actor::SlotIndex;
use crate::client::game::{Game, Selection};
use crate::client::intent::{self, Aim, SlotAction};
use crate::client::layout::{self, Layout};
use crate::client::theme::{GAP, Palette, SMALL, panel_node, text};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, spawn_card.after(crate::client::layout::ColumnsSet))
        .add_systems(
            Update,
            (draw_card, place_card)
                .chain()
                .after(crate::client::input::InputSet)
                .after(crate::client::layout::LayoutSet),
        );
}

#[derive(Component)]
pub struct CardPanel;

/// The widest the card grows (logical pixels), if the board has room.
const CARD_WIDTH: f32 = 460.0;

fn spawn_card(mut commands: Commands) {
    commands.spawn((
        Name::new("Card"),
        CardPanel,
        Node {
            position_type: PositionType::Absolute,
            bottom: px(GAP),
            display: Display::None,
            ..panel_node()
        },
        BackgroundColor(Color::srgb(0.06, 0.06, 0.1)),
        BorderColor::all(Palette::GOLD),
        Interaction::default(),
        bevy::ui::FocusPolicy::Block,
        crate::client::input::BlocksBoard,
        GlobalZIndex(2),
    ));
}

/// The card stands on the board's lower left corner, no wider than the
/// board leaves room for.
fn place_card(
    layout: Res<Layout>,
    ui: Res<UiScale>,
    window: Single<&Window, With<bevy::window::PrimaryWindow>>,
    mut card: Single<&mut Node, With<CardPanel>>,
) {
    let board = layout::board_logical(&layout, ui.0 * window.scale_factor());
    // A set width, not a largest one: text wraps at a width known before
    // the card's height is laid out.
    let left = px(board.min.x + GAP);
    let width = px(CARD_WIDTH.min(board.width() - 2.0 * GAP).max(0.0));
    if card.left != left || card.width != width {
        card.left = left;
        card.width = width;
    }
}

fn draw_card(
    mut commands: Commands,
    game: NonSend<Game>,
    selection: Res<Selection>,
    card: Single<(Entity, &mut Node), With<CardPanel>>,
    slots_hovered: Query<(&Interaction, &SlotIndex)>,
    reasons: Res<crate::client::reasons::Reasons>,
    icons: Res<crate::client::icons::IconArt>,
    mut drawn: Local<
        Option<(
            u64,
            u64,
            Aim,
            Option<skirmish_rules::map::Pos>,
            Option<usize>,
            Option<CreatureId>,
            bool,
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
        selection.pending.is_some(),
    );
    if drawn.as_ref() == Some(&key) {
        return;
    }
    *drawn = Some(key);
    let (entity, mut node) = card.into_inner();
    commands.entity(entity).despawn_children();
    // The spend prompt has the forecast: the card gives it the room.
    let (icon, mut lines) = if selection.pending.is_some() {
        (None, Vec::new())
    } else {
        card_lines(&game, &selection, hovered_slot, &icons.icons)
    };
    // A greyed-out slot says why first, in the engine's words.
    if selection.pending.is_some() {
    } else if let Some(why) = hovered_slot.and_then(|i| reasons.slots.get(i).cloned().flatten()) {
        lines.insert(0, (format!("Can't use now: {why}"), Palette::DAMAGE));
    } else if let Some((_, why)) = reasons.hover.as_ref().filter(|_| hovered_slot.is_none()) {
        lines.insert(0, (format!("Can't: {why}"), Palette::DAMAGE));
    }
    node.display = if lines.is_empty() {
        Display::None
    } else {
        Display::Flex
    };
    // The title beside its icon (docs/art.md), as on the token and the bar.
    let title = usize::from(lines.first().is_some_and(|(l, _)| l.starts_with("Can't")));
    commands.entity(entity).with_children(|c| {
        for (i, (l, color)) in lines.into_iter().enumerate() {
            match &icon {
                Some(name) if i == title => {
                    c.spawn(Node {
                        column_gap: px(8),
                        align_items: AlignItems::Center,
                        ..default()
                    })
                    .with_children(|row| {
                        row.spawn(super::roster::icon_node(
                            icons.large(name),
                            SMALL * 1.6,
                            color,
                        ));
                        row.spawn(text(l, SMALL, color));
                    });
                }
                _ => match line_icon(&l, &icons.icons) {
                    // A condition or state line wears the token's badge.
                    Some(badge) => {
                        c.spawn(Node {
                            column_gap: px(6),
                            align_items: AlignItems::Center,
                            ..default()
                        })
                        .with_children(|row| {
                            row.spawn(super::roster::icon_node(
                                icons.small(&badge),
                                SMALL,
                                Palette::CONDITION,
                            ));
                            row.spawn(text(l, SMALL, color));
                        });
                    }
                    None => {
                        c.spawn(text(l, SMALL, color));
                    }
                },
            }
        }
    });
}

/// The badge icon of a creature card's line about a condition, a slow
/// action or a summoner, as the token shows it.
pub fn line_icon(line: &str, icons: &crate::icons::Icons) -> Option<String> {
    use skirmish_rules::conditions::ConditionKind;
    let st = &icons.tokens.states;
    if let Some(k) = ConditionKind::NINE
        .into_iter()
        .chain([ConditionKind::CantStand])
        .find(|k| line.starts_with(&format!("{k} (")))
    {
        return Some(icons.condition(k).to_string());
    }
    if line.starts_with("Slow action: ") {
        return Some(st.casting.clone());
    }
    if line.starts_with("Summoned by ") {
        return Some(st.summoned.clone());
    }
    if line.starts_with("Bonuses: ") {
        return Some(st.shielded.clone());
    }
    None
}

/// What the card shows: the hovered slot's ability, else the aimed one,
/// else the creature pointed at or inspected; then the forecast.
fn card_lines(
    game: &Game,
    selection: &Selection,
    hovered_slot: Option<usize>,
    icons: &crate::icons::Icons,
) -> (Option<String>, Vec<(String, Color)>) {
    let e = &game.encounter;
    let creature_icon = |c: CreatureId| e.creature(c).map(|v| icons.creature(&v.kind).to_string());
    let replay_over = game.replay_end().is_some();
    let hovered_creature = selection.hover.and_then(|h| {
        e.occupants()
            .into_iter()
            .find(|o| o.space.squares().any(|q| q == h))
            .map(|o| o.id)
    });
    let mut lines: Vec<(String, Color)> = Vec::new();
    // What the hovered square's ground does, under whatever else shows.
    let ground: Vec<(String, Color)> = selection
        .hover
        .filter(|_| hovered_creature.is_none())
        .map(|h| {
            let mut words = super::words::terrain_words(e.map().cell(h));
            if let Some(item) = e.map().item_at(h) {
                let name = e.content().ability(item).map_or(item, |a| a.name.as_str());
                words.push(format!(
                    "Treasure: {name}, an item for a hero who ends a turn here"
                ));
            }
            words
        })
        .unwrap_or_default()
        .into_iter()
        .map(|l| (l, Palette::QUIET))
        .collect();
    let actor = e.active_creature().filter(|_| !replay_over);
    let mut icon = None;
    let Some(id) = actor else {
        if let Some(c) = hovered_creature.or(selection.inspect) {
            lines.extend(creature_card(e, c).into_iter().map(|l| (l, Palette::TEXT)));
            icon = creature_icon(c);
        }
        lines.extend(ground);
        return (icon, lines);
    };
    let Some(view) = e.creature(id) else {
        return (icon, lines);
    };
    let slots = intent::slots(e, &game.legal, id);
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
    if let Some(ab) = card_ability.and_then(|a| e.content().ability(&a)) {
        icon = Some(icons.ability(ab).to_string());
        for (i, l) in ability_card(ab, &resource, e.phased_rules())
            .into_iter()
            .enumerate()
        {
            lines.push((l, if i == 0 { Palette::GOLD } else { Palette::TEXT }));
        }
    } else if let Some(c) = hovered_creature.or(selection.inspect) {
        lines.extend(creature_card(e, c).into_iter().map(|l| (l, Palette::TEXT)));
        icon = creature_icon(c);
    }
    // The forecast for what a click would do now.
    if let Some(h) = selection.hover
        && selection.aim != Aim::Move
        && let Some(cmd) =
            intent::command_at(&game.legal, id, &selection.aim, h, hovered_creature, false)
    {
        for l in forecast(e, &cmd) {
            lines.push((l, Palette::GOOD));
        }
    }
    lines.extend(ground);
    (icon, lines)
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
    // docs/rules.md#creature-tags: "only Undead".
    let only = if ab.target.tags.is_empty() {
        String::new()
    } else {
        format!(" (only {})", ab.target.tags.join(" or "))
    };
    out.push(format!(
        "{} · {count} {}{only}",
        ab.distance,
        targets.join(" or ")
    ));
    if !ab.requirements.is_empty() {
        let needs: Vec<&str> = ab.requirements.iter().map(|r| r.name()).collect();
        out.push(format!("Requires: {}", needs.join(", ")));
    }
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
            // docs/rules.md#forced-movement: 2d6 + ATK against DEF; our tiers for a hit.
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
    // docs/rules.md#concentration: what the ability needs while it lasts.
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
                    for k in &o.saved {
                        s += &format!(" {} (save)", k.to_string().to_lowercase());
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

/// A creature's details, for the card when nothing is aimed.
pub fn creature_card(e: &Encounter, id: CreatureId) -> Vec<String> {
    let Some(c) = e.creature(id) else {
        return Vec::new();
    };
    // A minion's number is its squad's pool (docs/rules.md#minions).
    let mut out = vec![format!(
        "{} · level {} · {}",
        c.name,
        c.level,
        super::words::shown_stamina_text(&c)
    )];
    // docs/rules.md#climbing-swimming-jumping-and-flying: the ways it
    // moves besides walking, and the gap it jumps.
    let m = c.movement.modes;
    let ways: String = [
        (m.fly, ", flies"),
        (m.climb, ", climbs"),
        (m.swim, ", swims"),
    ]
    .into_iter()
    .filter(|&(has, _)| has)
    .map(|(_, word)| word)
    .collect();
    let jump = if m.jump > 0 {
        format!(", jumps {}", m.jump)
    } else {
        String::new()
    };
    out.push(format!(
        "Speed {}{ways}{jump} · stability {} · size {}",
        c.movement.speed, c.movement.stability, c.space.size
    ));
    // Each condition with its duration and, in words, what it does.
    for a in &c.conditions.list {
        out.push(format!(
            "{} ({}): {}",
            a.kind,
            a.duration,
            super::words::condition_meaning(a.kind)
        ));
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
                match skirmish_rules::encounter::uses_left(Some(&c.progress), ab) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::client::shipped_content as db;

    // Issue 55 point 2: the card's condition lines wear the token's badges.
    #[test]
    fn a_creature_card_line_wears_its_badge() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets");
        let icons = crate::icons::Icons::load(&root).unwrap();
        use skirmish_rules::conditions::ConditionKind;
        for k in ConditionKind::NINE {
            let line = format!("{k} (EoT): {}", super::super::words::condition_meaning(k));
            assert_eq!(
                line_icon(&line, &icons).as_deref(),
                Some(icons.condition(k))
            );
        }
        assert_eq!(
            line_icon("Slow action: Storm Call, takes effect next turn", &icons),
            Some(icons.tokens.states.casting.clone())
        );
        assert_eq!(line_icon("Speed 5 · stability 0 · size 1", &icons), None);
    }

    // Issue 52, point 4: a minion's card shows its squad's pool
    // (docs/rules.md#minions: one shared stamina pool).
    #[test]
    fn a_minion_s_card_shows_its_squad_s_pool() {
        let (_, e) = crate::client::greedy_keep_breach(4);
        let m = e
            .creatures()
            .into_iter()
            .find(|c| c.squad == Some(1))
            .expect("keep_breach has a squad");
        let pool = e.squad(1).unwrap();
        let card = creature_card(&e, m.id);
        let want = format!("squad pool {}/{}", pool.pool.max(0), pool.max);
        assert!(card[0].contains(&want), "{card:?}");
    }

    // docs/rules.md#climbing-swimming-jumping-and-flying: the card says how
    // a creature moves besides walking, and the gap it jumps.
    #[test]
    fn a_creature_s_card_shows_how_it_moves() {
        let e = Encounter::new(db(), "spider_nest", 1).unwrap();
        let line = |name: &str| {
            let c = e
                .creatures()
                .into_iter()
                .find(|c| c.name.contains(name))
                .expect("shipped in spider_nest");
            creature_card(&e, c.id)[1].clone()
        };
        let spider = line("Giant Spider");
        assert!(spider.starts_with("Speed 6, climbs, jumps 2 ·"), "{spider}");
        let bear = line("Cave Bear");
        assert!(bear.contains(", climbs, swims, jumps 3 ·"), "{bear}");
    }

    #[test]
    fn an_ability_card_shows_the_whole_ability() {
        let db = db();
        // docs/rules.md#ability-anatomy's Brutal Slam, as the fury's content gives it.
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
        // docs/rules.md#heroic-resources components show as what the ability needs.
        let shot = db.abilities.get("aimed_shot").expect("shipped");
        let card = ability_card(shot, "insight", None);
        assert!(
            card.iter().any(|l| l.contains("needs hands, standing")),
            "{card:?}"
        );
    }
}
