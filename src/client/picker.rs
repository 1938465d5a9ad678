//! The encounter picker: every encounter under `assets/encounters/` with
//! its briefing, who plays (solo, hot-seat, demo), and the saved fights
//! ("Continue" for the autosave). `Esc` opens it.

use bevy::prelude::*;
use skirmish_rules::content::Content;

use super::game::{Mode, Restart, Setup};
use super::saves::{self, SaveInfo};
use super::theme::{BODY, HEADING, Palette, SMALL, text};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<PickerOpen>()
        .init_resource::<Saves>()
        .add_systems(
            Update,
            (
                draw,
                press,
                enter_continues,
                scroll,
                // When the list is drawn anew (opened, or a change of mode or
                // choice), it scrolls so the chosen encounter is in view.
                super::layout::keep_in_view::<ChosenRow, PickerList>,
            )
                .chain()
                .after(super::input::InputSet),
        );
}

/// Whether the picker is showing.
#[derive(Resource, Default)]
pub struct PickerOpen(pub bool);

#[derive(Component)]
struct Picker;

/// The saved fights as the picker last listed them (read again each time
/// it opens), and why the last one chosen could not be loaded.
#[derive(Resource, Default)]
struct Saves {
    list: Vec<SaveInfo>,
    problem: Option<String>,
}

#[derive(Component, Clone)]
enum Pick {
    Save(std::path::PathBuf),
    Encounter(String),
    Mode(Mode),
    Start,
    /// Open the encounter builder.
    New,
    Close,
}

fn draw(
    mut commands: Commands,
    open: Res<PickerOpen>,
    setup: Res<Setup>,
    content: Res<Content>,
    existing: Query<Entity, With<Picker>>,
    mut saves: ResMut<Saves>,
    mut drawn: Local<Option<(bool, String, Mode, Option<String>)>>,
) {
    let key = (
        open.0,
        setup.encounter.clone(),
        setup.mode,
        saves.problem.clone(),
    );
    if drawn.as_ref() == Some(&key) {
        return;
    }
    if open.0 && drawn.as_ref().is_none_or(|d| !d.0) {
        saves.list = saves::saves_dir()
            .map(|d| saves::list(&d, &content.0))
            .unwrap_or_default();
    }
    *drawn = Some(key);
    for e in &existing {
        commands.entity(e).despawn();
    }
    if !open.0 {
        return;
    }
    commands
        .spawn((
            Name::new("Encounter picker"),
            Picker,
            super::input::covering(10),
        ))
        .with_children(|root| {
            root.spawn((
                Node {
                    flex_direction: FlexDirection::Column,
                    padding: UiRect::all(px(24)),
                    row_gap: px(8),
                    border: UiRect::all(px(3)),
                    border_radius: BorderRadius::all(px(10)),
                    max_height: percent(92),
                    overflow: Overflow::scroll_y(),
                    width: px(900),
                    max_width: percent(94),
                    ..default()
                },
                BackgroundColor(Color::srgba(0.05, 0.05, 0.08, 0.98)),
                BorderColor::all(Palette::GOLD),
            ))
            .with_children(|c| {
                c.spawn(text("CHOOSE AN ENCOUNTER", HEADING + 6.0, Palette::GOLD));
                c.spawn(Node {
                    column_gap: px(10),
                    margin: UiRect::top(px(4)),
                    align_items: AlignItems::Center,
                    ..default()
                })
                .with_children(|row| {
                    row.spawn(text("Who plays:", BODY, Palette::TEXT));
                    for (m, label) in [
                        (Mode::Solo, "Solo (you lead the heroes)"),
                        (Mode::Hotseat, "Hot-seat"),
                        (Mode::Demo, "Demo (AI v AI)"),
                    ] {
                        let chosen = setup.mode == m;
                        row.spawn((
                            Button,
                            Pick::Mode(m),
                            Node {
                                padding: UiRect::axes(px(12), px(6)),
                                border: UiRect::all(px(2)),
                                border_radius: BorderRadius::all(px(6)),
                                ..default()
                            },
                            BackgroundColor(if chosen {
                                Color::srgb(0.3, 0.24, 0.08)
                            } else {
                                Color::srgb(0.12, 0.13, 0.18)
                            }),
                            BorderColor::all(if chosen {
                                Palette::GOLD
                            } else {
                                Palette::PANEL_EDGE
                            }),
                        ))
                        .with_child(text(label, BODY, Palette::TEXT));
                    }
                });
                c.spawn(Node {
                    column_gap: px(10),
                    margin: UiRect::top(px(10)),
                    ..default()
                })
                .with_children(|row| {
                    let chosen = content
                        .encounters
                        .get(&setup.encounter)
                        .map_or(setup.encounter.clone(), |d| d.name.clone());
                    let start = format!("Start: {chosen} · {}", setup.mode.label());
                    let auto = saves
                        .list
                        .iter()
                        .find(|s| s.autosave && s.problem.is_none())
                        .map(|s| (Pick::Save(s.path.clone()), "Continue [Enter]".to_string()));
                    let picks = auto.into_iter().chain([
                        (Pick::Start, start),
                        (Pick::New, "New encounter".to_string()),
                        (Pick::Close, "Back [Esc]".to_string()),
                    ]);
                    for (p, label) in picks {
                        row.spawn((
                            Button,
                            p,
                            Node {
                                padding: UiRect::axes(px(18), px(8)),
                                border: UiRect::all(px(2)),
                                border_radius: BorderRadius::all(px(6)),
                                ..default()
                            },
                            BackgroundColor(Color::srgb(0.15, 0.4, 0.22)),
                            BorderColor::all(Palette::PANEL_EDGE),
                        ))
                        .with_child(text(label, HEADING, Palette::TEXT));
                    }
                });
                if let Some(why) = &saves.problem {
                    c.spawn(text(format!("Can't load: {why}"), SMALL, Palette::DAMAGE));
                }
                if !saves.list.is_empty() {
                    c.spawn(text("SAVED FIGHTS ([F5] saves one)", BODY, Palette::GOLD));
                    let shelf = c
                        .spawn((
                            SavesList,
                            Node {
                                flex_direction: FlexDirection::Column,
                                row_gap: px(6),
                                overflow: Overflow::scroll_y(),
                                max_height: percent(30),
                                flex_shrink: 0.0,
                                ..default()
                            },
                            ScrollPosition::default(),
                        ))
                        .with_children(|c| {
                            for save in &saves.list {
                                save_row(c, save);
                            }
                        })
                        .id();
                    c.spawn(super::hud::more_cue(shelf, "scroll for more saves"));
                    c.spawn(text("ENCOUNTERS", BODY, Palette::GOLD));
                }
                let list = c
                    .spawn((
                        PickerList,
                        Node {
                            flex_direction: FlexDirection::Column,
                            row_gap: px(8),
                            margin: UiRect::top(px(10)),
                            overflow: Overflow::scroll_y(),
                            flex_shrink: 1.0,
                            ..default()
                        },
                        ScrollPosition::default(),
                    ))
                    .with_children(|c| {
                        for (id, def) in &content.encounters {
                            let chosen = *id == setup.encounter;
                            let mut row = c.spawn((
                                Button,
                                Pick::Encounter(id.clone()),
                                Node {
                                    flex_direction: FlexDirection::Column,
                                    padding: UiRect::axes(px(12), px(6)),
                                    border: UiRect::all(px(2)),
                                    border_radius: BorderRadius::all(px(6)),
                                    ..default()
                                },
                                BackgroundColor(if chosen {
                                    Color::srgb(0.3, 0.24, 0.08)
                                } else {
                                    Color::srgb(0.12, 0.13, 0.18)
                                }),
                                BorderColor::all(if chosen {
                                    Palette::GOLD
                                } else {
                                    Palette::PANEL_EDGE
                                }),
                            ));
                            if chosen {
                                row.insert(ChosenRow);
                            }
                            row.with_children(|b| {
                                // docs/rules.md#levels-and-echelons: the heroes' level.
                                let lo = def.heroes.iter().map(|h| h.level).min().unwrap_or(1);
                                let hi = def.heroes.iter().map(|h| h.level).max().unwrap_or(1);
                                let level = if lo == hi {
                                    format!("level {lo}")
                                } else {
                                    format!("levels {lo}-{hi}")
                                };
                                let sides = format!(
                                    "{} · {} heroes of {level} v {} monsters",
                                    def.map,
                                    def.heroes.len(),
                                    def.monsters.len()
                                );
                                b.spawn(text(
                                    format!("{} ({sides})", def.name),
                                    BODY,
                                    Palette::TEXT,
                                ));
                                if !def.briefing.is_empty() {
                                    b.spawn(text(def.briefing.clone(), SMALL, Palette::DIM));
                                }
                            });
                        }
                    })
                    .id();
                c.spawn(super::hud::more_cue(list, "scroll for more encounters"));
            });
        });
}

/// One saved fight: a button unless it can't be loaded, when it shows why.
fn save_row(c: &mut ChildSpawnerCommands, save: &SaveInfo) {
    let ok = save.problem.is_none();
    let mut row = c.spawn((
        Node {
            flex_direction: FlexDirection::Column,
            padding: UiRect::axes(px(12), px(4)),
            border: UiRect::all(px(2)),
            border_radius: BorderRadius::all(px(6)),
            flex_shrink: 0.0,
            ..default()
        },
        BackgroundColor(Color::srgb(0.12, 0.13, 0.18)),
        BorderColor::all(if save.autosave {
            Palette::GOOD
        } else {
            Palette::PANEL_EDGE
        }),
    ));
    if ok {
        row.insert((Button, Pick::Save(save.path.clone())));
    }
    row.with_children(|b| {
        let title = if save.autosave {
            format!("Continue: {}", save.title)
        } else {
            save.title.clone()
        };
        b.spawn(text(
            title,
            BODY,
            if ok { Palette::TEXT } else { Palette::DIM },
        ));
        if let Some(why) = &save.problem {
            b.spawn(text(why.clone(), SMALL, Palette::DAMAGE));
        }
    });
}

/// The scrolling list of saved fights.
#[derive(Component)]
struct SavesList;

/// The scrolling list of encounters.
#[derive(Component)]
struct PickerList;

/// The chosen encounter's row: kept in view.
#[derive(Component)]
struct ChosenRow;

fn scroll(
    open: Res<PickerOpen>,
    wheel: Res<bevy::input::mouse::AccumulatedMouseScroll>,
    window: Single<&Window, With<bevy::window::PrimaryWindow>>,
    shelf: Query<(&ComputedNode, &UiGlobalTransform), With<SavesList>>,
    mut lists: ParamSet<(
        Query<&mut ScrollPosition, With<PickerList>>,
        Query<&mut ScrollPosition, With<SavesList>>,
    )>,
) {
    if !open.0 || wheel.delta.y == 0.0 {
        return;
    }
    let dy = match wheel.unit {
        bevy::input::mouse::MouseScrollUnit::Line => wheel.delta.y * 40.0,
        bevy::input::mouse::MouseScrollUnit::Pixel => wheel.delta.y,
    };
    // The saves scroll under the pointer; the encounters everywhere else.
    let over_saves = window.physical_cursor_position().is_some_and(|c| {
        shelf
            .iter()
            .any(|(n, at)| Rect::from_center_size(at.translation, n.size()).contains(c))
    });
    if over_saves {
        for mut p in &mut lists.p1() {
            p.0.y = (p.0.y - dy).max(0.0);
        }
    } else {
        for mut p in &mut lists.p0() {
            p.0.y = (p.0.y - dy).max(0.0);
        }
    }
}

/// Enter in the picker continues the autosaved fight, when there is one.
fn enter_continues(
    keys: Res<ButtonInput<KeyCode>>,
    mut open: ResMut<PickerOpen>,
    mut saves: ResMut<Saves>,
    content: Res<Content>,
    mut restart: MessageWriter<Restart>,
) {
    if !open.0 || !keys.just_pressed(KeyCode::Enter) {
        return;
    }
    let Some(auto) = saves
        .list
        .iter()
        .find(|s| s.autosave && s.problem.is_none())
        .map(|s| s.path.clone())
    else {
        return;
    };
    load(&auto, &mut saves, &content, &mut restart, &mut open);
}

/// Load the save at `path` (read again: it may have changed since it was
/// listed), or keep the picker open saying why not.
fn load(
    path: &std::path::Path,
    saves: &mut Saves,
    content: &Content,
    restart: &mut MessageWriter<Restart>,
    open: &mut PickerOpen,
) {
    match saves::read_save(path, &content.0) {
        Ok((replay, _, _)) => {
            saves.problem = None;
            restart.write(Restart {
                same: true,
                load: Some(replay),
            });
            open.0 = false;
        }
        Err(why) => saves.problem = Some(why),
    }
}

fn press(
    pressed: Query<(&Interaction, &Pick), Changed<Interaction>>,
    mut setup: ResMut<Setup>,
    mut open: ResMut<PickerOpen>,
    mut restart: MessageWriter<Restart>,
    mut saves: ResMut<Saves>,
    content: Res<Content>,
    mut builder: ResMut<super::builder::BuilderOpen>,
) {
    for (i, p) in &pressed {
        if *i != Interaction::Pressed {
            continue;
        }
        match p {
            Pick::Save(path) => load(path, &mut saves, &content, &mut restart, &mut open),
            Pick::Encounter(id) => setup.encounter = id.clone(),
            Pick::Mode(m) => setup.mode = *m,
            Pick::Start => {
                setup.replay = None;
                setup.load = None;
                setup.seed = super::game::next_seed(setup.seed);
                restart.write(Restart {
                    same: true,
                    load: None,
                });
                open.0 = false;
            }
            Pick::New => {
                let map = content
                    .encounters
                    .get(&setup.encounter)
                    .map_or(String::new(), |e| e.map.clone());
                super::builder::open(&mut builder, &content, &map);
                saves.problem = None;
                open.0 = false;
            }
            Pick::Close => {
                saves.problem = None;
                open.0 = false;
            }
        }
    }
}
