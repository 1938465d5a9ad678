//! "How to play", on F1: the controls, the game's terms in words, and how
//! the current fight is won. The terms say what `docs/rules.md` says.

use bevy::prelude::*;
use skirmish_rules::map::Side;

use crate::client::game::{Game, Mode};
use crate::client::intent::BASIC_KEYS;
use crate::client::theme::{BODY, HEADING, Palette, SMALL, text};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<HelpOpen>().add_systems(
        Update,
        (toggle, draw, super::scroll_with_wheel::<HelpBody>)
            .chain()
            .after(crate::client::input::InputSet),
    );
}

/// Whether the help panel shows.
#[derive(Resource, Default)]
pub struct HelpOpen(pub bool);

#[derive(Component)]
struct Help;

#[derive(Component)]
struct HelpBody;

/// F1 opens and closes it; Esc closes it.
fn toggle(keys: Res<ButtonInput<KeyCode>>, mut open: ResMut<HelpOpen>) {
    if keys.just_pressed(KeyCode::F1) {
        open.0 = !open.0;
    } else if open.0 && keys.just_pressed(KeyCode::Escape) {
        open.0 = false;
    }
}

/// The controls, a line each.
pub fn controls() -> Vec<String> {
    let basics = BASIC_KEYS
        .iter()
        .map(|(name, key)| format!("[{key}] {name}"))
        .collect::<Vec<_>>()
        .join(" · ");
    vec![
        "Click one of your creatures to start its turn; click a blue square to move there (pale green squares use the main action). Hold Shift to shift.".into(),
        "[1]-[9], [0]: the acting creature's abilities, numbered the same all turn. Then click a highlighted target or square; right click or [Esc] cancels.".into(),
        format!("Basic actions: {basics} (Enter also ends the turn)."),
        "[Ctrl+Z] undo: takes back moves and choices of this turn until dice are rolled.".into(),
        "[F5] save the fight · [Esc] menu, saved fights and Continue · [F1] this help · [Ctrl+Q] quit (a fight under way is kept for Continue)".into(),
        "[B] briefing · [Tab] roster · [L] log · arrows or WASD pan, wheel zooms · [F] fit the board · [C] centre on who acts · [V] action camera".into(),
        "Demo: Space pause, N step, +/- pace · [R] new fight, Shift+R the same · Ctrl +/- text size · F11 full screen".into(),
    ]
}

/// The terms of the game, each in a sentence or two (docs/rules.md).
pub const TERMS: [(&str, &str); 10] = [
    (
        "Power roll and tiers",
        "2d10 plus a characteristic. 11 or less is tier 1, 12 to 16 tier 2, 17 or more tier 3; each tier has its own outcome. A natural 19 or 20 is always tier 3.",
    ),
    (
        "Edges and banes",
        "An edge adds 2 to the roll, a bane takes 2 off. Two edges raise the result a tier instead; two banes lower it a tier. An edge and a bane cancel.",
    ),
    (
        "Critical hit",
        "A natural 19 or 20 on a main-action ability: the user takes another main action at once, even when dazed.",
    ),
    (
        "Potency",
        "`M < WEAK, prone` lands only if the target's Might is below the user's weak potency. WEAK, AVERAGE and STRONG are the user's highest characteristic minus 2, minus 1, and itself.",
    ),
    (
        "Surges",
        "Each surge spent adds the hero's highest characteristic to one target's damage (up to three); two surges raise one potency by 1.",
    ),
    (
        "Heroic resource",
        "Each class has its own (wrath, piety, focus...). Heroes gain some each turn and spend it on heroic abilities and on \"Spend X\" for more effect.",
    ),
    (
        "Malice",
        "The Director's resource for monster abilities: it grows every round by the number of heroes plus the round number.",
    ),
    (
        "Actions",
        "A turn has a main action, a maneuver and a move action. The main action can be spent on a second move. A triggered action is once a round, on another's turn.",
    ),
    (
        "Opportunity attacks",
        "Moving away from an adjacent enemy lets it make a free strike; shifting one square does not.",
    ),
    (
        "Conditions",
        "Bleeding (loses stamina when acting) · Dazed (one action a turn) · Frightened (bane against its fear) · Grabbed (speed 0) · Prone (crawls, strikes take a bane) · Restrained (speed 0, bane; edge against it) · Slowed (speed 2) · Taunted (double bane against others) · Weakened (bane on power rolls).",
    ),
];

/// Where the art and the fonts come from (assets/LICENSES.md).
pub const CREDITS: [&str; 3] = [
    "Icons: Game Icons (game-icons.net) by Lorc, Delapouite and contributors, CC BY 3.0, rasterised from @iconify-json/game-icons.",
    "Fonts: DejaVu Sans, under the DejaVu fonts licence (assets/fonts/LICENSE-DejaVu.txt).",
    "Tiles: drawn by Skirmish's own code. Every source and licence: assets/LICENSES.md.",
];

/// Each condition and state badge, with its word, in the tokens' order.
pub fn badge_legend(icons: &crate::icons::Icons) -> Vec<(String, String)> {
    use skirmish_rules::conditions::ConditionKind;
    let s = &icons.tokens.states;
    let mut v: Vec<(String, String)> = ConditionKind::NINE
        .into_iter()
        .chain([ConditionKind::CantStand])
        .map(|k| (icons.condition(k).to_string(), k.word().to_string()))
        .collect();
    for (icon, word) in [
        (&s.hidden, "hidden"),
        (&s.defending, "defending"),
        (&s.concentrating, "concentrating"),
        (&s.shielded, "shielded"),
        (&s.retaliating, "retaliation"),
        (&s.casting, "casting a slow action"),
        (&s.summoned, "summoned"),
    ] {
        v.push((icon.clone(), word.to_string()));
    }
    v
}

/// How this fight is won, in words, with who is left on each side.
pub fn win_condition(game: &Game) -> Vec<String> {
    let e = &game.encounter;
    let left = |side: Side| {
        e.creatures()
            .into_iter()
            .filter(|c| c.side == side && c.stamina.health() != skirmish_rules::stats::Health::Dead)
            .count()
    };
    let (heroes, monsters) = (left(Side::Heroes), left(Side::Director));
    use skirmish_rules::content::encounter::Objective;
    let round = e.flow().round;
    let goal = match e.plan().map(|p| &p.objective) {
        Some(Objective::Survive { rounds }) => format!(
            "The heroes win when round {rounds} ends with one of them alive (now round {round}), or when no monster is left."
        ),
        Some(Objective::Hold { rounds, .. }) => format!(
            "The heroes win by holding the gold zone at the end of {rounds} rounds: a hero in it and no monster (held {} so far), or when no monster is left.",
            e.flow().held
        ),
        Some(Objective::Escape { edge }) => format!(
            "The heroes win when every one of them still alive stands on the {} edge (green) at once, or when no monster is left.",
            edge.name()
        ),
        _ => "The heroes win when no monster is left alive.".to_string(),
    };
    let mut out = vec![
        format!(
            "{goal} The monsters win when no hero is left alive. A dying hero still counts: heal them or they bleed."
        ),
        format!("Now: {heroes} heroes and {monsters} monsters are standing."),
    ];
    if e.plan().is_some_and(|p| p.still_to_come(round)) {
        out.push("More monsters are still to arrive (outlined in red with their round).".into());
    }
    out.push(match game.mode {
        Mode::Solo => "You lead the heroes; the AI plays the monsters.".into(),
        Mode::Hotseat => "Hot-seat: each side is played at this screen in turn.".into(),
        Mode::Demo => "Demo: the AI plays both sides.".into(),
        Mode::Replay => "Replay: a saved fight plays back.".into(),
    });
    if let Some(w) = e.outcome() {
        out.push(match w {
            Side::Heroes => "This fight is over: the heroes won.".into(),
            Side::Director => "This fight is over: the monsters won.".into(),
        });
    }
    out
}

fn draw(
    mut commands: Commands,
    open: Res<HelpOpen>,
    game: NonSend<Game>,
    existing: Query<Entity, With<Help>>,
    icons: Res<crate::client::icons::IconArt>,
    mut drawn: Local<Option<(bool, u64, u64)>>,
) {
    let key = (open.0, game.generation, game.version);
    if drawn.as_ref() == Some(&key) {
        return;
    }
    *drawn = Some(key);
    for e in &existing {
        commands.entity(e).despawn();
    }
    if !open.0 {
        return;
    }
    let win = win_condition(&game);
    commands
        .spawn((
            Name::new("How to play"),
            Help,
            crate::client::input::covering(12),
        ))
        .with_children(|root| {
            root.spawn((
                Node {
                    flex_direction: FlexDirection::Column,
                    padding: UiRect::all(px(24)),
                    row_gap: px(6),
                    border: UiRect::all(px(3)),
                    border_radius: BorderRadius::all(px(10)),
                    max_height: percent(92),
                    width: px(960),
                    max_width: percent(94),
                    ..default()
                },
                BackgroundColor(Color::srgba(0.05, 0.05, 0.08, 0.98)),
                BorderColor::all(Palette::GOLD),
            ))
            .with_children(|panel| {
                panel.spawn(text(
                    "HOW TO PLAY · [F1] or [Esc] closes",
                    HEADING + 4.0,
                    Palette::GOLD,
                ));
                let body = panel
                    .spawn((
                        HelpBody,
                        Node {
                            flex_direction: FlexDirection::Column,
                            row_gap: px(6),
                            overflow: Overflow::scroll_y(),
                            flex_shrink: 1.0,
                            min_height: px(0),
                            ..default()
                        },
                        ScrollPosition::default(),
                    ))
                    .with_children(|c| {
                        let row = Node {
                            flex_shrink: 0.0,
                            ..default()
                        };
                        let heading = Node {
                            flex_shrink: 0.0,
                            margin: UiRect::top(px(8)),
                            ..default()
                        };
                        c.spawn((text("This fight", HEADING, Palette::GOLD), heading.clone()));
                        for l in &win {
                            c.spawn((text(l.clone(), BODY, Palette::TEXT), row.clone()));
                        }
                        c.spawn((text("Controls", HEADING, Palette::GOLD), heading.clone()));
                        for l in controls() {
                            c.spawn((text(l, SMALL, Palette::TEXT), row.clone()));
                        }
                        c.spawn((text("Terms", HEADING, Palette::GOLD), heading.clone()));
                        for (term, words) in TERMS {
                            c.spawn((
                                text(format!("{term}: {words}"), SMALL, Palette::TEXT),
                                row.clone(),
                            ));
                        }
                        // The badges a token wears, each with its word.
                        c.spawn((text("Badges", HEADING, Palette::GOLD), heading.clone()));
                        c.spawn(Node {
                            flex_wrap: FlexWrap::Wrap,
                            column_gap: px(18),
                            row_gap: px(6),
                            flex_shrink: 0.0,
                            ..default()
                        })
                        .with_children(|b| {
                            for (icon, word) in badge_legend(&icons.icons) {
                                b.spawn(Node {
                                    column_gap: px(6),
                                    align_items: AlignItems::Center,
                                    ..default()
                                })
                                .with_children(|item| {
                                    item.spawn(super::roster::icon_node(
                                        icons.small(&icon),
                                        SMALL,
                                        Palette::CONDITION,
                                    ));
                                    item.spawn(text(word, SMALL, Palette::TEXT));
                                });
                            }
                        });
                        c.spawn((text("Credits", HEADING, Palette::GOLD), heading.clone()));
                        for l in CREDITS {
                            c.spawn((text(l, SMALL, Palette::TEXT), row.clone()));
                        }
                    })
                    .id();
                panel.spawn(super::more_cue(body, "scroll for the rest"));
            });
        });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::client::game::Setup;
    use skirmish_rules::ai;

    // Every basic action's key is named in the help, and no key is given
    // twice there or taken by another control.
    #[test]
    fn the_help_names_every_basic_key_once() {
        let all = controls().join("\n");
        for (name, key) in BASIC_KEYS {
            assert!(all.contains(&format!("[{key}] {name}")), "{name}");
        }
        let mut keys: Vec<char> = BASIC_KEYS.iter().map(|(_, k)| *k).collect();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), BASIC_KEYS.len(), "a letter given twice");
        for taken in ['W', 'A', 'S', 'D', 'C', 'F', 'V', 'B', 'L', 'R', 'N'] {
            assert!(!keys.contains(&taken), "{taken} is another control's");
        }
        // The terms the issue names.
        let terms: Vec<&str> = TERMS.iter().map(|t| t.0).collect();
        for t in [
            "Edges and banes",
            "Potency",
            "Surges",
            "Malice",
            "Conditions",
        ] {
            assert!(terms.iter().any(|x| x.starts_with(t)), "{t}");
        }
    }

    #[test]
    fn the_win_condition_counts_who_is_standing() {
        let content = crate::client::shipped_content();
        let setup = Setup {
            encounter: "keep_breach".into(),
            mode: Mode::Solo,
            seed: 3,
            brain: ai::DEFAULT_BRAIN.into(),
            replay: None,
            load: None,
        };
        let game = Game::new(content.clone(), &setup, 1).unwrap();
        let def = &content.encounters["keep_breach"];
        let words = win_condition(&game).join(" ");
        let heroes = game
            .encounter
            .creatures()
            .into_iter()
            .filter(|c| c.side == Side::Heroes)
            .count();
        assert_eq!(heroes, def.heroes.len());
        assert!(words.contains(&format!("{heroes} heroes")), "{words}");
        assert!(words.contains("You lead the heroes"), "{words}");
    }
}
