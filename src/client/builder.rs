//! The encounter builder (issue 54): "New encounter" in the picker opens
//! it beside the board. The draft is `skirmish_rules::content::builder`'s
//! model, changed only by its commands; the board shows it as it stands
//! (a hot-seat game of the draft that nobody plays while building). A
//! click on a row selects a creature, a click on a square puts it there.
//! The budget is shown as the draft changes; Forecast plays it out on a
//! thread of its own, with a progress bar and Cancel; Save writes it to the
//! user's folder (asking before it replaces a file); Play starts it.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use bevy::input::keyboard::{Key, KeyboardInput};
use bevy::prelude::*;
use skirmish_rules::content::budget;
use skirmish_rules::content::builder::{BuildCommand, Builder, HeroChoice, SaveError, Who};
use skirmish_rules::content::encounter::{Edge, FirstSide, Objective, Zone};
use skirmish_rules::content::{Content, ContentDb, Organization};
use skirmish_rules::sim::forecast::{self, Forecast};

use super::game::{Mode, Restart, Selection, Setup};
use super::input::BlocksBoard;
use super::theme::{BODY, HEADING, Palette, SMALL, text};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<BuilderOpen>().add_systems(
        Update,
        (
            press,
            type_name,
            place_on_board,
            scroll,
            poll_forecast,
            show,
            draw,
        )
            .chain()
            .after(super::input::InputSet),
    );
}

/// The builder, while it is open.
#[derive(Resource, Default)]
pub struct BuilderOpen(pub Option<Draft>);

/// A forecast under way on its own thread.
pub struct Running {
    done: Arc<AtomicUsize>,
    total: usize,
    cancel: Arc<AtomicBool>,
    result: Arc<Mutex<Option<Result<Forecast, String>>>>,
}

/// The builder's state.
pub struct Draft {
    pub builder: Builder,
    /// The content without the draft (the draft is added to a copy).
    base: Arc<ContentDb>,
    pub selected: Option<Who>,
    /// The last thing to tell the player, and whether it is good news.
    pub message: Option<(String, bool)>,
    running: Option<Running>,
    pub forecast: Option<Forecast>,
    /// Save was refused for an existing file: the next Save replaces it.
    confirm_overwrite: bool,
    /// The round a new reinforcement arrives at.
    pub round: u32,
    /// The next board click moves the zone to hold.
    pub zone_pick: bool,
    /// The class and the roster's monster the add buttons offer.
    pub class_pick: usize,
    pub monster_pick: usize,
    /// Bumped on each change: the panel and the board follow it.
    version: u64,
}

impl Draft {
    /// A new draft on `map`: two heroes and two bandits to start from.
    pub fn new(base: Arc<ContentDb>, map: &str) -> Draft {
        let mut builder = Builder::new(&base, "My Encounter", map);
        for cmd in [
            BuildCommand::AddHero {
                class: "fury".into(),
                name: "Korva".into(),
            },
            BuildCommand::AddHero {
                class: "conduit".into(),
                name: "Aldous".into(),
            },
            BuildCommand::AddMonster {
                monster: "bandit".into(),
                squad: None,
            },
            BuildCommand::AddMonster {
                monster: "bandit_archer".into(),
                squad: None,
            },
        ] {
            let _ = builder.apply(&base, cmd);
        }
        Draft {
            builder,
            base,
            selected: None,
            message: None,
            running: None,
            forecast: None,
            confirm_overwrite: false,
            round: 2,
            zone_pick: false,
            class_pick: 0,
            monster_pick: 0,
            version: 1,
        }
    }

    /// Carry out a command on the draft, saying why when it is refused.
    pub fn apply(&mut self, cmd: BuildCommand) {
        match self.builder.apply(&self.base, cmd) {
            Ok(()) => {
                self.message = None;
                self.forecast = None;
                self.confirm_overwrite = false;
            }
            Err(e) => self.message = Some((format!("Can't: {e}"), false)),
        }
        self.version += 1;
    }

    /// The content with the draft in it, under its id.
    fn content(&self) -> Arc<ContentDb> {
        let mut db = (*self.base).clone();
        db.encounters
            .insert(self.builder.def.id.clone(), self.builder.def.clone());
        Arc::new(db)
    }

    fn start_forecast(&mut self) {
        if let Some(p) = self.builder.problems().first() {
            self.message = Some((format!("Can't forecast yet: {p}"), false));
            return;
        }
        let db = self.content();
        let id = self.builder.def.id.clone();
        let total = forecast::DEFAULT_GAMES as usize;
        let run = Running {
            done: Arc::new(AtomicUsize::new(0)),
            total,
            cancel: Arc::new(AtomicBool::new(false)),
            result: Arc::new(Mutex::new(None)),
        };
        let (done, cancel, result) = (run.done.clone(), run.cancel.clone(), run.result.clone());
        std::thread::spawn(move || {
            let progress = |n: usize, _: usize| done.store(n, Ordering::Relaxed);
            let f = forecast::forecast(
                db,
                &id,
                total as u32,
                forecast::all_cores(),
                &progress,
                Some(cancel),
            );
            if let Ok(mut r) = result.lock() {
                *r = Some(f);
            }
        });
        self.running = Some(run);
        self.forecast = None;
        self.message = None;
        self.version += 1;
    }

    fn save(&mut self) {
        let Some(dir) = crate::built::dir() else {
            self.message = Some((
                "Can't save: no data folder (set SKIRMISH_DATA or HOME)".into(),
                false,
            ));
            return;
        };
        match self.builder.save(&self.base, &dir, self.confirm_overwrite) {
            Ok(file) => {
                self.message = Some((format!("Saved to {}", file.display()), true));
                self.confirm_overwrite = false;
                // It joins the picker's list at once.
                let mut db = (*self.base).clone();
                if db.add_encounter_file(&file).is_ok() {
                    self.base = Arc::new(db);
                }
            }
            Err(SaveError::Exists(file)) => {
                self.message = Some((
                    format!("{} exists: press Save again to replace it", file.display()),
                    false,
                ));
                self.confirm_overwrite = true;
            }
            Err(e) => self.message = Some((format!("Can't save: {e}"), false)),
        }
        self.version += 1;
    }
}

/// Open the builder on `map`, from the picker.
pub fn open(open: &mut BuilderOpen, content: &Content, map: &str) {
    open.0 = Some(Draft::new(content.0.clone(), map));
}

#[derive(Component)]
struct Panel;

#[derive(Component)]
struct ProgressFill;

/// The panel's scrolling middle.
#[derive(Component)]
struct BodyScroll;

#[derive(Component)]
struct ProgressLabel;

/// What [`Act::NextChoice`] cycles.
#[derive(Clone, Copy)]
enum Choice {
    Subclass,
    Kit,
    Ancestry,
}

#[derive(Component, Clone)]
enum Act {
    Map(i32),
    ClassPick(i32),
    MonsterPick(i32),
    Ruleset,
    First,
    AddHero(String),
    AddMonster(String),
    Select(Who),
    Remove(Who),
    AutoPlace,
    Objective(i32),
    Rounds(i32),
    /// Change the selected hero's characteristic `k` (might first).
    Char(usize, i32),
    /// The selected hero's level, up or down.
    Level(i32),
    /// The selected hero's next subclass, kit or ancestry (`None` among
    /// the kits and ancestries: none).
    NextChoice(Choice),
    /// The next board click moves the zone to hold.
    PickZone,
    Edge,
    Round(i32),
    AddReinforcement(String),
    Forecast,
    Cancel,
    Save,
    Play,
    Back,
}

/// The panel's width in UI units at a UI scale of `ui`: about a third
/// of the window, the board beside it.
pub fn panel_width(window: &Window, ui: f32) -> f32 {
    (window.width() * 0.36 / ui.max(0.1)).clamp(400.0, 640.0)
}

fn draw(
    mut commands: Commands,
    open: Res<BuilderOpen>,
    existing: Query<Entity, With<Panel>>,
    window: Single<&Window, With<bevy::window::PrimaryWindow>>,
    ui: Res<UiScale>,
    mut drawn: Local<Option<(u64, bool, u32)>>,
) {
    let width = panel_width(&window, ui.0);
    let key = open
        .0
        .as_ref()
        .map(|d| (d.version, d.running.is_some(), width as u32));
    if *drawn == key {
        return;
    }
    *drawn = key;
    for e in &existing {
        commands.entity(e).despawn();
    }
    let Some(d) = &open.0 else {
        return;
    };
    let db = &d.base;
    let def = &d.builder.def;
    commands
        .spawn((
            Name::new("Encounter builder"),
            Panel,
            Node {
                position_type: PositionType::Absolute,
                top: px(0),
                bottom: px(0),
                right: px(0),
                width: px(width),
                flex_direction: FlexDirection::Column,
                padding: UiRect::all(px(16)),
                row_gap: px(8),
                border: UiRect::left(px(3)),
                ..default()
            },
            BackgroundColor(Color::srgba(0.05, 0.05, 0.08, 0.98)),
            BorderColor::all(Palette::GOLD),
            Interaction::default(),
            bevy::ui::FocusPolicy::Block,
            BlocksBoard,
            GlobalZIndex(9),
        ))
        .with_children(|c| {
            c.spawn(text("NEW ENCOUNTER", HEADING + 4.0, Palette::GOLD));
            let typing = match d.selected {
                Some(Who::Hero(i)) => def.heroes.get(i).map(|h| format!("Hero: {}▏ (type to rename)", h.name)),
                _ => None,
            };
            c.spawn(text(
                typing.unwrap_or_else(|| format!("Name: {}▏ (type to rename)", def.name)),
                BODY,
                Palette::TEXT,
            ));
            let body = c.spawn((
                Node {
                    flex_direction: FlexDirection::Column,
                    row_gap: px(8),
                    overflow: Overflow::scroll_y(),
                    flex_grow: 1.0,
                    min_height: px(0),
                    ..default()
                },
                ScrollPosition::default(),
                BodyScroll,
            ))
            .with_children(|c| {
                let map_name = db.maps.get(&def.map).map_or(def.map.clone(), |m| m.name.clone());
                row(c, |r| {
                    r.spawn(text("Map", BODY, Palette::DIM));
                    chip(r, "◀", Act::Map(-1), false);
                    r.spawn(text(map_name, BODY, Palette::TEXT));
                    chip(r, "▶", Act::Map(1), false);
                });
                row(c, |r| {
                    r.spawn(text("Rules", BODY, Palette::DIM));
                    let rules = if def.ruleset == "power_roll" {
                        "power roll"
                    } else {
                        "phased 2d6"
                    };
                    chip(r, rules, Act::Ruleset, false);
                    r.spawn(text("First", BODY, Palette::DIM));
                    let first = match def.first {
                        FirstSide::Roll => "rolled",
                        FirstSide::Heroes => "heroes",
                        _ => "monsters",
                    };
                    chip(r, first, Act::First, false);
                });
                // The party.
                section(c, &format!("PARTY ({})", def.heroes.len()));
                for (i, h) in def.heroes.iter().enumerate() {
                    let who = Who::Hero(i);
                    let label = format!("{} · {} {} · at {:?}", h.name, h.class, h.level, h.at);
                    creature_row(c, &label, who, d.selected == Some(who), Palette::HEROES);
                }
                // The selected hero's characteristics.
                if let Some(Who::Hero(i)) = d.selected
                    && let Some(h) = def.heroes.get(i)
                {
                    let own = h
                        .characteristics
                        .or_else(|| db.classes.get(&h.class).map(|k| k.characteristics))
                        .unwrap_or_default();
                    let all = [
                        ("Might", own.might),
                        ("Agility", own.agility),
                        ("Reason", own.reason),
                        ("Intuition", own.intuition),
                        ("Presence", own.presence),
                    ];
                    // docs/rules.md#levels-and-echelons, #subclasses, #kits, #ancestries.
                    let named = |id: &Option<String>, names: &dyn Fn(&str) -> Option<String>| {
                        id.as_deref()
                            .map_or("none".to_string(), |i| names(i).unwrap_or(i.to_string()))
                    };
                    let class = db.classes.get(&h.class);
                    let subclass = h
                        .subclass
                        .clone()
                        .or_else(|| class.and_then(|k| k.subclasses.first()).map(|s| s.id.clone()));
                    let sub_name = named(&subclass, &|i| {
                        class
                            .and_then(|k| k.subclasses.iter().find(|s| s.id == i))
                            .map(|s| s.name.clone())
                    });
                    row(c, |r| {
                        r.spawn(text(format!("Level {}", h.level), SMALL, Palette::TEXT));
                        chip(r, "−", Act::Level(-1), false);
                        chip(r, "+", Act::Level(1), false);
                        r.spawn(text(format!("Subclass: {sub_name}"), SMALL, Palette::TEXT));
                        chip(r, "▶", Act::NextChoice(Choice::Subclass), false);
                    });
                    row(c, |r| {
                        let kit = named(&h.kit, &|i| db.kits.get(i).map(|k| k.name.clone()));
                        r.spawn(text(format!("Kit: {kit}"), SMALL, Palette::TEXT));
                        chip(r, "▶", Act::NextChoice(Choice::Kit), false);
                        let anc = named(&h.ancestry, &|i| db.ancestries.get(i).map(|a| a.name.clone()));
                        r.spawn(text(format!("Ancestry: {anc}"), SMALL, Palette::TEXT));
                        chip(r, "▶", Act::NextChoice(Choice::Ancestry), false);
                    });
                    for pair in all.chunks(3).enumerate() {
                        let (k0, chunk) = pair;
                        row(c, |r| {
                            for (j, (name, v)) in chunk.iter().enumerate() {
                                let k = k0 * 3 + j;
                                r.spawn(text(format!("{name} {v:+}"), SMALL, Palette::TEXT));
                                chip(r, "−", Act::Char(k, -1), false);
                                chip(r, "+", Act::Char(k, 1), false);
                            }
                        });
                    }
                }
                let classes: Vec<&String> = db.classes.keys().collect();
                let class = classes[d.class_pick % classes.len().max(1)].clone();
                row(c, |r| {
                    chip(r, "+ Hero", Act::AddHero(class.clone()), true);
                    chip(r, "◀", Act::ClassPick(-1), false);
                    chip(r, "▶", Act::ClassPick(1), false);
                    let name = db.classes.get(&class).map_or(class.clone(), |k| k.name.clone());
                    r.spawn(text(name, BODY, Palette::TEXT));
                });
                // The monsters.
                section(c, &format!("MONSTERS ({})", def.monsters.len()));
                for (i, m) in def.monsters.iter().enumerate() {
                    let who = Who::Monster(i);
                    let block = m.monster.as_deref().and_then(|id| db.monsters.get(id));
                    let name = block.map_or("?".to_string(), |b| b.name.clone());
                    let squad = m.squad.map_or(String::new(), |s| format!(" · squad {s}"));
                    let label = format!("{name}{squad} · at {:?}", m.at);
                    creature_row(c, &label, who, d.selected == Some(who), Palette::DIRECTOR);
                }
                let roster = roster(db);
                if let Some(id) = roster.get(d.monster_pick % roster.len().max(1)) {
                    let m = &db.monsters[id];
                    row(c, |r| {
                        chip(r, "+ Monster", Act::AddMonster(id.clone()), true);
                        chip(r, "◀", Act::MonsterPick(-1), false);
                        chip(r, "▶", Act::MonsterPick(1), false);
                        let minion = if m.organization == Organization::Minion {
                            ", minion"
                        } else {
                            ""
                        };
                        r.spawn(text(
                            format!(
                                "{} · L{}{minion} · EV {}",
                                m.name,
                                m.level,
                                budget::monster_ev(m)
                            ),
                            BODY,
                            Palette::TEXT,
                        ));
                    });
                }
                row(c, |r| {
                    chip(r, "Auto-place", Act::AutoPlace, false);
                    r.spawn(text(
                        "or pick a row, then click a square",
                        SMALL,
                        Palette::DIM,
                    ));
                });
                // The objective.
                section(c, "OBJECTIVE");
                row(c, |r| {
                    chip(r, "◀", Act::Objective(-1), false);
                    chip(r, "▶", Act::Objective(1), false);
                    r.spawn(text(def.objective.describe(), BODY, Palette::TEXT));
                });
                row(c, |r| match def.objective {
                    Objective::Survive { .. } => {
                        chip(r, "− round", Act::Rounds(-1), false);
                        chip(r, "+ round", Act::Rounds(1), false);
                    }
                    Objective::Hold { .. } => {
                        chip(r, "− round", Act::Rounds(-1), false);
                        chip(r, "+ round", Act::Rounds(1), false);
                        chip(r, "Move zone (then click a square)", Act::PickZone, d.zone_pick);
                    }
                    Objective::Escape { .. } => chip(r, "Another edge", Act::Edge, false),
                    Objective::DefeatAll => {}
                });
                // Reinforcements.
                section(c, "REINFORCEMENTS");
                for (ri, r) in def.reinforcements.iter().enumerate() {
                    for (n, m) in r.monsters.iter().enumerate() {
                        let who = Who::Reinforcement(ri, n);
                        let name = m
                            .monster
                            .as_deref()
                            .and_then(|id| db.monsters.get(id))
                            .map_or("?".to_string(), |b| b.name.clone());
                        let label = format!("{name} · round {} · at {:?}", r.round, m.at);
                        creature_row(c, &label, who, d.selected == Some(who), Palette::DIRECTOR);
                    }
                }
                row(c, |r| {
                    r.spawn(text(format!("Arriving at round {}", d.round), BODY, Palette::TEXT));
                    chip(r, "−", Act::Round(-1), false);
                    chip(r, "+", Act::Round(1), false);
                    if let Some(Who::Monster(i)) = d.selected
                        && let Some(id) = def.monsters.get(i).and_then(|m| m.monster.clone())
                    {
                        chip(r, "+ another of the selected", Act::AddReinforcement(id), false);
                    } else {
                        r.spawn(text("(select a monster to add one like it)", SMALL, Palette::DIM));
                    }
                });
            })
            .id();
            c.spawn(super::hud::more_cue(body, "scroll for more"));
            // Always in view: the budget, the forecast and what to do next.
            c.spawn((
                Node {
                    flex_direction: FlexDirection::Column,
                    row_gap: px(6),
                    padding: UiRect::top(px(8)),
                    border: UiRect::top(px(2)),
                    flex_shrink: 0.0,
                    ..default()
                },
                BorderColor::all(Palette::PANEL_EDGE),
            ))
            .with_children(|c| {
                // The budget, as it stands.
                let b = budget::of(db, def);
                c.spawn(text(
                    format!(
                        "Budget: EV {:.1} of the party's {:.0}: {}",
                        b.ev,
                        b.budget,
                        b.band.name()
                    ),
                    BODY,
                    match b.band {
                        budget::Band::Hard | budget::Band::Extreme => Palette::DAMAGE,
                        budget::Band::Standard => Palette::GOLD,
                        _ => Palette::GOOD,
                    },
                ));
                // Forecast.
                section(c, "FORECAST");
                if d.running.is_some() {
                    c.spawn((
                        Node {
                            width: percent(100),
                            height: px(26),
                            border: UiRect::all(px(2)),
                            ..default()
                        },
                        BorderColor::all(Palette::PANEL_EDGE),
                    ))
                    .with_children(|bar| {
                        bar.spawn((
                            ProgressFill,
                            Node {
                                width: percent(0),
                                height: percent(100),
                                ..default()
                            },
                            BackgroundColor(Palette::GOOD),
                        ));
                    });
                    row(c, |r| {
                        r.spawn((ProgressLabel, text("0 games played", BODY, Palette::TEXT)));
                        chip(r, "Cancel", Act::Cancel, true);
                    });
                } else if let Some(f) = &d.forecast {
                    let w = f.heroes_win;
                    c.spawn(text(
                        format!(
                            "Heroes win {:.0}% (95% interval {:.0}% to {:.0}%) of {} greedy games{}",
                            100.0 * w.rate,
                            100.0 * w.low,
                            100.0 * w.high,
                            f.games,
                            if f.cancelled { ", cancelled" } else { "" }
                        ),
                        BODY,
                        Palette::TEXT,
                    ));
                    c.spawn(text(
                        format!("About {:.1} rounds", f.rounds_mean),
                        BODY,
                        Palette::TEXT,
                    ));
                    if let Some(fall) = f.hero_most_likely_to_fall() {
                        c.spawn(text(
                            format!(
                                "Most likely to fall: {} ({:.0}% of games)",
                                fall.name,
                                100.0 * fall.chance
                            ),
                            BODY,
                            Palette::DAMAGE,
                        ));
                    }
                } else {
                    c.spawn(text(
                        "Plays 200 greedy games on every core to measure it.",
                        SMALL,
                        Palette::DIM,
                    ));
                }
                if let Some((m, good)) = &d.message {
                    c.spawn(text(
                        m.clone(),
                        BODY,
                        if *good { Palette::GOOD } else { Palette::DAMAGE },
                    ));
                }
                for p in d.builder.problems() {
                    c.spawn(text(format!("To do: {p}"), SMALL, Palette::DIM));
                }
                row(c, |r| {
                    chip(r, "Forecast", Act::Forecast, true);
                    chip(r, "Save", Act::Save, true);
                    chip(r, "Play", Act::Play, true);
                    chip(r, "Back [Esc]", Act::Back, true);
                });
            });
        });
}

/// The monsters the builder offers: every stat block but the summons'.
fn roster(db: &ContentDb) -> Vec<String> {
    let summoned: std::collections::BTreeSet<String> = db
        .abilities
        .values()
        .flat_map(|a| a.summoned_stat_blocks())
        .collect();
    db.monsters
        .keys()
        .filter(|id| !summoned.contains(*id))
        .cloned()
        .collect()
}

fn section(c: &mut ChildSpawnerCommands, title: &str) {
    c.spawn((
        text(title.to_string(), BODY, Palette::GOLD),
        Node {
            margin: UiRect::top(px(6)),
            ..default()
        },
    ));
}

fn row(c: &mut ChildSpawnerCommands, f: impl FnOnce(&mut ChildSpawnerCommands)) {
    c.spawn(Node {
        column_gap: px(8),
        align_items: AlignItems::Center,
        flex_shrink: 0.0,
        ..default()
    })
    .with_children(f);
}

fn chip(c: &mut ChildSpawnerCommands, label: &str, act: Act, strong: bool) {
    c.spawn((
        Button,
        act,
        Node {
            padding: UiRect::axes(px(10), px(4)),
            border: UiRect::all(px(2)),
            border_radius: BorderRadius::all(px(6)),
            ..default()
        },
        BackgroundColor(if strong {
            Color::srgb(0.15, 0.4, 0.22)
        } else {
            Palette::BUTTON
        }),
        BorderColor::all(Palette::PANEL_EDGE),
        BlocksBoard,
    ))
    .with_child(text(label.to_string(), SMALL, Palette::TEXT));
}

fn creature_row(c: &mut ChildSpawnerCommands, label: &str, who: Who, selected: bool, side: Color) {
    c.spawn(Node {
        column_gap: px(8),
        align_items: AlignItems::Center,
        flex_shrink: 0.0,
        ..default()
    })
    .with_children(|r| {
        r.spawn((
            Button,
            Act::Select(who),
            Node {
                padding: UiRect::axes(px(10), px(3)),
                border: UiRect::all(px(2)),
                border_radius: BorderRadius::all(px(6)),
                flex_grow: 1.0,
                ..default()
            },
            BackgroundColor(if selected {
                Color::srgb(0.3, 0.24, 0.08)
            } else {
                Color::srgb(0.12, 0.13, 0.18)
            }),
            BorderColor::all(if selected { Palette::GOLD } else { side }),
            BlocksBoard,
        ))
        .with_child(text(label.to_string(), SMALL, Palette::TEXT));
        chip(r, "✕", Act::Remove(who), false);
    });
}

/// The next objective of the cycle, on this map.
fn next_objective(o: &Objective, step: i32, width: i32, height: i32) -> Objective {
    let zone = Zone {
        from: (width / 2 - 1, height / 2 - 1),
        to: (width / 2 + 1, height / 2 + 1),
    };
    let all = [
        Objective::DefeatAll,
        Objective::Survive { rounds: 5 },
        Objective::Hold { zone, rounds: 3 },
        Objective::Escape { edge: Edge::East },
    ];
    let at = all
        .iter()
        .position(|x| std::mem::discriminant(x) == std::mem::discriminant(o))
        .unwrap_or(0) as i32;
    all[(at + step).rem_euclid(all.len() as i32) as usize].clone()
}

#[allow(clippy::too_many_arguments)]
fn press(
    pressed: Query<(&Interaction, &Act), Changed<Interaction>>,
    mut open: ResMut<BuilderOpen>,
    mut content: ResMut<Content>,
    mut setup: ResMut<Setup>,
    mut restart: MessageWriter<Restart>,
    keys: Res<ButtonInput<KeyCode>>,
    mut picker: ResMut<super::picker::PickerOpen>,
) {
    let Some(d) = open.0.as_mut() else {
        return;
    };
    let mut acts: Vec<Act> = pressed
        .iter()
        .filter(|(i, _)| **i == Interaction::Pressed)
        .map(|(_, a)| a.clone())
        .collect();
    if keys.just_pressed(KeyCode::Escape) {
        acts.push(Act::Back);
    }
    for act in acts {
        let def = d.builder.def.clone();
        match act {
            Act::Map(step) => {
                let maps: Vec<&String> = d.base.maps.keys().collect();
                let at = maps.iter().position(|m| **m == def.map).unwrap_or(0) as i32;
                let next = maps[(at + step).rem_euclid(maps.len() as i32) as usize].clone();
                d.apply(BuildCommand::Map(next));
            }
            Act::ClassPick(step) => {
                let n = d.base.classes.len().max(1) as i32;
                d.class_pick = (d.class_pick as i32 + step).rem_euclid(n) as usize;
                d.version += 1;
            }
            Act::MonsterPick(step) => {
                let n = roster(&d.base).len().max(1) as i32;
                d.monster_pick = (d.monster_pick as i32 + step).rem_euclid(n) as usize;
                d.version += 1;
            }
            Act::Ruleset => {
                let next = if def.ruleset == "power_roll" {
                    "phased_2d6"
                } else {
                    "power_roll"
                };
                let next = if d.base.rulesets.contains_key(next) {
                    next.to_string()
                } else {
                    d.base.rulesets.keys().next().cloned().unwrap_or_default()
                };
                d.apply(BuildCommand::Ruleset(next));
            }
            Act::First => {
                let next = match def.first {
                    FirstSide::Roll => FirstSide::Heroes,
                    FirstSide::Heroes => FirstSide::Director,
                    _ => FirstSide::Roll,
                };
                d.apply(BuildCommand::First(next));
            }
            Act::AddHero(class) => {
                let name = d
                    .base
                    .classes
                    .get(&class)
                    .map_or(class.clone(), |c| c.name.clone());
                let n = def.heroes.iter().filter(|h| h.class == class).count();
                let name = if n == 0 {
                    name
                } else {
                    format!("{name} {}", n + 1)
                };
                d.apply(BuildCommand::AddHero { class, name });
            }
            Act::AddMonster(monster) => {
                let minion = d
                    .base
                    .monsters
                    .get(&monster)
                    .is_some_and(|m| m.organization == Organization::Minion);
                // Minions join a squad of their kind with room, else a new one.
                let squad = minion.then(|| {
                    let of_kind = |s: u32| {
                        def.monsters
                            .iter()
                            .filter(|m| m.squad == Some(s))
                            .collect::<Vec<_>>()
                    };
                    let used: Vec<u32> = def.monsters.iter().filter_map(|m| m.squad).collect();
                    used.iter()
                        .copied()
                        .find(|&s| {
                            let k = of_kind(s);
                            k.len() < 8 && k.iter().all(|m| m.monster.as_deref() == Some(&monster))
                        })
                        .unwrap_or_else(|| used.iter().max().map_or(1, |m| m + 1))
                });
                d.apply(BuildCommand::AddMonster { monster, squad });
            }
            Act::Select(who) => {
                d.selected = if d.selected == Some(who) {
                    None
                } else {
                    Some(who)
                };
                d.version += 1;
            }
            Act::Remove(who) => {
                d.selected = None;
                d.apply(match who {
                    Who::Hero(i) => BuildCommand::RemoveHero(i),
                    Who::Monster(i) => BuildCommand::RemoveMonster(i),
                    Who::Reinforcement(r, n) => BuildCommand::RemoveReinforcement(r, n),
                });
            }
            Act::AutoPlace => d.apply(BuildCommand::AutoPlace),
            Act::Objective(step) => {
                let (w, h) = d
                    .base
                    .maps
                    .get(&def.map)
                    .map_or((10, 10), |m| (m.map.width, m.map.height));
                d.apply(BuildCommand::Objective(next_objective(
                    &def.objective,
                    step,
                    w,
                    h,
                )));
            }
            Act::Rounds(step) => {
                let o = match def.objective {
                    Objective::Survive { rounds } => Objective::Survive {
                        rounds: (rounds as i32 + step).clamp(1, 20) as u32,
                    },
                    Objective::Hold { zone, rounds } => Objective::Hold {
                        zone,
                        rounds: (rounds as i32 + step).clamp(1, 20) as u32,
                    },
                    o => o,
                };
                d.apply(BuildCommand::Objective(o));
            }
            Act::Edge => {
                if let Objective::Escape { edge } = def.objective {
                    let at = Edge::ALL.iter().position(|e| *e == edge).unwrap_or(0);
                    let edge = Edge::ALL[(at + 1) % Edge::ALL.len()];
                    d.apply(BuildCommand::Objective(Objective::Escape { edge }));
                }
            }
            Act::Char(k, step) => {
                let Some(Who::Hero(i)) = d.selected else {
                    continue;
                };
                let Some(h) = def.heroes.get(i) else {
                    continue;
                };
                let mut c = h
                    .characteristics
                    .or_else(|| d.base.classes.get(&h.class).map(|k| k.characteristics))
                    .unwrap_or_default();
                let v = match k {
                    0 => &mut c.might,
                    1 => &mut c.agility,
                    2 => &mut c.reason,
                    3 => &mut c.intuition,
                    _ => &mut c.presence,
                };
                *v = (*v + step).clamp(-5, 5);
                d.apply(BuildCommand::Characteristics(i, Some(c)));
            }
            Act::Level(step) => {
                let Some(Who::Hero(i)) = d.selected else {
                    continue;
                };
                let Some(h) = def.heroes.get(i) else {
                    continue;
                };
                let level = (h.level as i32 + step).clamp(1, 10) as u32;
                d.apply(BuildCommand::Hero(i, HeroChoice::Level(level)));
            }
            Act::NextChoice(what) => {
                let Some(Who::Hero(i)) = d.selected else {
                    continue;
                };
                let Some(h) = def.heroes.get(i) else {
                    continue;
                };
                // Each list with "none" first (a subclass has no "none":
                // the class's first stands in for it).
                let (ids, now): (Vec<Option<String>>, Option<String>) = match what {
                    Choice::Subclass => (
                        d.base
                            .classes
                            .get(&h.class)
                            .map(|k| k.subclasses.iter().map(|s| Some(s.id.clone())).collect())
                            .unwrap_or_default(),
                        h.subclass.clone(),
                    ),
                    Choice::Kit => (
                        std::iter::once(None)
                            .chain(d.base.kits.keys().cloned().map(Some))
                            .collect(),
                        h.kit.clone(),
                    ),
                    Choice::Ancestry => (
                        std::iter::once(None)
                            .chain(d.base.ancestries.keys().cloned().map(Some))
                            .collect(),
                        h.ancestry.clone(),
                    ),
                };
                if ids.is_empty() {
                    continue;
                }
                let at = ids.iter().position(|x| *x == now).unwrap_or(0);
                let next = ids[(at + 1) % ids.len()].clone();
                let choice = match what {
                    Choice::Subclass => HeroChoice::Subclass(next),
                    Choice::Kit => HeroChoice::Kit(next),
                    Choice::Ancestry => HeroChoice::Ancestry(next),
                };
                d.apply(BuildCommand::Hero(i, choice));
            }
            Act::PickZone => {
                d.zone_pick = !d.zone_pick;
                d.selected = None;
                d.version += 1;
            }
            Act::Round(step) => {
                d.round = (d.round as i32 + step).clamp(1, 20) as u32;
                d.version += 1;
            }
            Act::AddReinforcement(monster) => {
                let Some(Who::Monster(i)) = d.selected else {
                    continue;
                };
                // Beside the one it is like; moved with a click.
                let at = def.monsters.get(i).map_or((0, 0), |m| m.at);
                let round = d.round;
                d.apply(BuildCommand::AddReinforcement { round, monster, at });
            }
            Act::Forecast => d.start_forecast(),
            Act::Cancel => {
                if let Some(r) = &d.running {
                    r.cancel.store(true, Ordering::Relaxed);
                }
            }
            Act::Save => d.save(),
            Act::Play => {
                if let Some(p) = d.builder.problems().first() {
                    d.message = Some((format!("Can't play yet: {p}"), false));
                    d.version += 1;
                    continue;
                }
                content.0 = d.content();
                setup.encounter = d.builder.def.id.clone();
                setup.mode = Mode::Solo;
                setup.replay = None;
                restart.write(Restart::default());
                open.0 = None;
                return;
            }
            Act::Back => {
                if let Some(r) = &d.running {
                    r.cancel.store(true, Ordering::Relaxed);
                }
                content.0 = d.base.clone();
                open.0 = None;
                picker.0 = true;
                return;
            }
        }
    }
}

/// Typed letters rename the draft; Backspace takes one back.
fn type_name(mut typed: MessageReader<KeyboardInput>, mut open: ResMut<BuilderOpen>) {
    let Some(d) = open.0.as_mut() else {
        typed.clear();
        return;
    };
    let hero = match d.selected {
        Some(Who::Hero(i)) => d.builder.def.heroes.get(i).map(|h| (i, h.name.clone())),
        _ => None,
    };
    let before = hero
        .as_ref()
        .map_or(d.builder.def.name.clone(), |(_, n)| n.clone());
    let mut name = before.clone();
    for k in typed.read() {
        if !k.state.is_pressed() {
            continue;
        }
        match &k.logical_key {
            Key::Character(s)
                if name.chars().count() < 40
                    && s.chars()
                        .all(|c| c.is_alphanumeric() || c == ' ' || c == '\'' || c == '-') =>
            {
                name.push_str(s);
            }
            Key::Space if name.chars().count() < 40 => name.push(' '),
            Key::Backspace => {
                name.pop();
            }
            _ => {}
        }
    }
    if name != before {
        match hero {
            Some((i, _)) => d.apply(BuildCommand::RenameHero(i, name)),
            None => d.apply(BuildCommand::Name(name)),
        }
    }
}

/// A click on the board puts the selected creature on that square, or
/// selects the creature standing there.
fn place_on_board(
    mouse: Res<ButtonInput<MouseButton>>,
    over: Res<super::input::PointerOverUi>,
    selection: Res<Selection>,
    mut open: ResMut<BuilderOpen>,
) {
    let Some(d) = open.0.as_mut() else {
        return;
    };
    if over.0 || !mouse.just_pressed(MouseButton::Left) {
        return;
    }
    let Some(at) = selection.hover else {
        return;
    };
    let sq = (at.x, at.y);
    if d.zone_pick {
        if let Objective::Hold { rounds, .. } = d.builder.def.objective {
            let zone = Zone {
                from: (sq.0 - 1, sq.1 - 1),
                to: (sq.0 + 1, sq.1 + 1),
            };
            d.apply(BuildCommand::Objective(Objective::Hold { zone, rounds }));
        }
        d.zone_pick = false;
        d.version += 1;
        return;
    }
    match d.selected {
        Some(who) => {
            d.apply(BuildCommand::Place(who, sq));
            if d.message.is_none() {
                d.selected = None;
            }
        }
        None => {
            let def = &d.builder.def;
            d.selected = def
                .heroes
                .iter()
                .position(|h| h.at == sq)
                .map(Who::Hero)
                .or_else(|| {
                    def.monsters
                        .iter()
                        .position(|m| m.at == sq)
                        .map(Who::Monster)
                });
            d.version += 1;
        }
    }
}

/// The wheel over the panel scrolls its middle.
fn scroll(
    open: Res<BuilderOpen>,
    over: Res<super::input::PointerOverUi>,
    wheel: Res<bevy::input::mouse::AccumulatedMouseScroll>,
    mut body: Query<&mut ScrollPosition, With<BodyScroll>>,
) {
    if open.0.is_none() || !over.0 || wheel.delta.y == 0.0 {
        return;
    }
    let dy = match wheel.unit {
        bevy::input::mouse::MouseScrollUnit::Line => wheel.delta.y * 40.0,
        bevy::input::mouse::MouseScrollUnit::Pixel => wheel.delta.y,
    };
    for mut p in &mut body {
        p.0.y = (p.0.y - dy).max(0.0);
    }
}

/// The forecast's progress, and its result when it is done.
fn poll_forecast(
    mut open: ResMut<BuilderOpen>,
    mut fill: Query<&mut Node, With<ProgressFill>>,
    mut label: Query<&mut Text, With<ProgressLabel>>,
) {
    let Some(d) = open.0.as_mut() else {
        return;
    };
    let Some(run) = &d.running else {
        return;
    };
    let done = run.done.load(Ordering::Relaxed);
    for mut n in &mut fill {
        n.width = percent(100.0 * done as f32 / run.total.max(1) as f32);
    }
    for mut t in &mut label {
        t.0 = format!("{done} of {} games played", run.total);
    }
    let finished = run.result.lock().ok().and_then(|mut r| r.take());
    if let Some(result) = finished {
        d.running = None;
        match result {
            Ok(f) => d.forecast = Some(f),
            Err(e) => d.message = Some((format!("Can't forecast: {e}"), false)),
        }
        d.version += 1;
    }
}

/// The board follows the draft: a hot-seat game of it that nobody plays
/// while building.
fn show(
    open: Res<BuilderOpen>,
    mut content: ResMut<Content>,
    mut setup: ResMut<Setup>,
    mut restart: MessageWriter<Restart>,
    mut shown: Local<Option<(String, u64)>>,
) {
    let Some(d) = &open.0 else {
        *shown = None;
        return;
    };
    let def = &d.builder.def;
    let key = (def.id.clone(), d.version);
    if shown.as_ref() == Some(&key) {
        return;
    }
    // (Selecting or a refused command changes nothing on the board; a
    // draft with nobody on a side can't be set up.)
    let changed = content.0.encounters.get(&def.id) != Some(def);
    *shown = Some(key);
    if !changed || def.heroes.is_empty() || def.monsters.is_empty() {
        return;
    }
    content.0 = d.content();
    setup.encounter = def.id.clone();
    setup.mode = Mode::Hotseat;
    setup.replay = None;
    restart.write(Restart {
        same: true,
        load: None,
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finish(d: &mut Draft) {
        for _ in 0..600 {
            let done = d
                .running
                .as_ref()
                .and_then(|r| r.result.lock().ok().and_then(|mut x| x.take()));
            if let Some(result) = done {
                d.running = None;
                d.forecast = Some(result.unwrap());
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        panic!("the forecast never finished");
    }

    // Issue 54, point 2: the window's Forecast plays 200 greedy games of
    // the draft as it stands, on a thread of its own.
    #[test]
    fn the_drafts_forecast_plays_it_as_it_stands() {
        let mut d = Draft::new(crate::client::shipped_content(), "ruined_hall");
        d.start_forecast();
        assert!(d.running.is_some());
        finish(&mut d);
        let f = d.forecast.as_ref().unwrap();
        assert_eq!(f.games, 200);
        assert!(!f.cancelled);
        assert_eq!(f.encounter, d.builder.def.id);
        // Korva and Aldous against a bandit and an archer.
        assert_eq!(f.falls.len(), 4, "{f}");
        // Any change forgets it.
        d.apply(BuildCommand::AddMonster {
            monster: "bandit".into(),
            squad: None,
        });
        assert!(d.forecast.is_none());
    }

    // Cancel stops it early, and says so.
    #[test]
    fn a_cancelled_forecast_says_so() {
        let mut d = Draft::new(crate::client::shipped_content(), "ruined_hall");
        d.start_forecast();
        d.running
            .as_ref()
            .unwrap()
            .cancel
            .store(true, Ordering::Relaxed);
        finish(&mut d);
        let f = d.forecast.as_ref().unwrap();
        assert!(f.cancelled && f.games < 200, "{} games", f.games);
    }

    // A draft with no monster is not forecast: it says what is missing.
    #[test]
    fn an_unready_draft_says_what_is_missing() {
        let mut d = Draft::new(crate::client::shipped_content(), "ruined_hall");
        d.apply(BuildCommand::RemoveMonster(1));
        d.apply(BuildCommand::RemoveMonster(0));
        d.start_forecast();
        assert!(d.running.is_none());
        let (m, good) = d.message.clone().unwrap();
        assert!(!good && m.contains("add at least one monster"), "{m}");
    }
}
