//! Mouse and keys: the square under the cursor, clicks that become engine
//! commands (through [`intent`](super::intent)), and the keys of the bar,
//! the demo pace and the window.

use bevy::input::mouse::AccumulatedMouseMotion;
use bevy::prelude::*;
use bevy::window::{MonitorSelection, PrimaryWindow, WindowMode};
use skirmish_rules::ability::Cost;
use skirmish_rules::encounter::Command;
use skirmish_rules::encounter::Placement;

use super::game::{Applied, Game, Pace, Pending, Restart, Selection, Settings};
use super::intent::{self, Aim, SlotAction};
use super::view::BoardGeometry;

/// Input runs before the systems that draw what it changed.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct InputSet;

/// A UI panel the board's clicks and wheel must not go through.
#[derive(Component, Default)]
pub struct BlocksBoard;

/// A panel over the whole window (the picker, the help): the window
/// dimmed, the board's clicks and wheel stopped, its child centred, above
/// the panels of `z` less.
pub fn covering(z: i32) -> impl Bundle {
    (
        Node {
            position_type: PositionType::Absolute,
            top: px(0),
            bottom: px(0),
            left: px(0),
            right: px(0),
            justify_content: JustifyContent::Center,
            align_items: AlignItems::Center,
            ..default()
        },
        BackgroundColor(Color::srgba(0.0, 0.0, 0.0, 0.7)),
        Interaction::default(),
        bevy::ui::FocusPolicy::Block,
        BlocksBoard,
        GlobalZIndex(z),
    )
}

/// The square taken to be under the cursor (`--hover`, or the best
/// placement of `--aim`, for screenshots).
#[derive(Resource, Default)]
pub struct ForcedHover(pub Option<skirmish_rules::map::Pos>);

/// A picture is being taken (`--screenshot`, `--layout-json`): the
/// pointer, wherever the display left it, is not the player's, and only
/// [`ForcedHover`] points at a square.
#[derive(Resource, Default)]
pub struct IgnorePointer;

/// Whether the pointer is over a panel.
#[derive(Resource, Default)]
pub struct PointerOverUi(pub bool);

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<PointerOverUi>()
        .configure_sets(Update, InputSet.after(super::game::GameSet))
        .add_systems(
            Update,
            (over_ui, hover, click, keys, super::reasons::find_reasons)
                .chain()
                .in_set(InputSet),
        );
}

fn over_ui(panels: Query<&Interaction, With<BlocksBoard>>, mut over: ResMut<PointerOverUi>) {
    over.0 = panels.iter().any(|i| *i != Interaction::None);
}

fn hover(
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&Camera, &GlobalTransform), With<super::camera::BoardCamera>>,
    geometry: Res<BoardGeometry>,
    over: Res<PointerOverUi>,
    keys: Res<ButtonInput<KeyCode>>,
    forced: Option<Res<ForcedHover>>,
    ignore: Option<Res<IgnorePointer>>,
    mut selection: ResMut<Selection>,
) {
    let (camera, at) = *camera;
    // A square given on the command line (for screenshots) wins over the pointer.
    let square = match forced.and_then(|f| f.0) {
        Some(p) => Some(p),
        None if ignore.is_some() => None,
        None => window
            .cursor_position()
            .filter(|_| !over.0)
            .and_then(|c| camera.viewport_to_world_2d(at, c).ok())
            .and_then(|w| geometry.square_at(w)),
    };
    if selection.hover != square {
        selection.hover = square;
    }
    let shift = keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]);
    if selection.shift != shift {
        selection.shift = shift;
    }
}

/// Ask about surges and heroic resource before an ability goes, when there
/// is a choice to make; otherwise `None` (use it as it is).
pub fn spend_choice(game: &Game, cmd: &Command) -> Option<Pending> {
    let (creature, ability) = match cmd {
        Command::UseAbility {
            creature, ability, ..
        }
        | Command::UseAreaAbility {
            creature, ability, ..
        } => (*creature, ability),
        _ => return None,
    };
    let view = game.encounter.creature(creature)?;
    let heroic = view.heroic.as_ref()?;
    let ab = game.encounter.content().ability(ability)?;
    let cost = match ab.cost {
        Cost::Heroic(n) => n,
        _ => 0,
    };
    let max_surges = if ab.power_roll.is_some() {
        heroic.surges.min(3)
    } else {
        0
    };
    let max_spend = if ab.spend.is_empty() {
        0
    } else {
        heroic.amount.saturating_sub(cost)
    };
    (max_surges > 0 || max_spend > 0).then(|| Pending {
        command: cmd.clone(),
        resource: heroic.resource.clone(),
        surges: 0,
        max_surges,
        spend: 0,
        max_spend,
    })
}

/// The pending command with the chosen surges and spend filled in.
pub fn with_choices(p: &Pending) -> Command {
    let mut cmd = p.command.clone();
    if let Command::UseAbility { surges, spend, .. }
    | Command::UseAreaAbility { surges, spend, .. } = &mut cmd
    {
        *surges = p.surges;
        *spend = p.spend;
    }
    cmd
}

/// Carry out what the player chose: straight away, after a yes, or after
/// the spend prompt.
pub fn choose(
    game: &mut Game,
    selection: &mut Selection,
    cmd: Command,
    settings: &Settings,
    out: &mut MessageWriter<Applied>,
) {
    if let Some(c) = super::game::confirm_for(game, &cmd, settings) {
        selection.confirm = Some(c);
        return;
    }
    if let Some(p) = spend_choice(game, &cmd) {
        selection.pending = Some(p);
        return;
    }
    if game.apply(cmd, out).is_ok() {
        selection.aim = Aim::Move;
    }
}

fn click(
    mouse: Res<ButtonInput<MouseButton>>,
    motion: Res<AccumulatedMouseMotion>,
    mut game: NonSendMut<Game>,
    mut selection: ResMut<Selection>,
    over: Res<PointerOverUi>,
    mut out: MessageWriter<Applied>,
    mut dragged: Local<f32>,
    settings: Res<Settings>,
    builder: Res<super::builder::BuilderOpen>,
) {
    // (The builder takes the board's clicks while it is open.)
    if builder.0.is_some() {
        return;
    }
    if mouse.pressed(MouseButton::Right) {
        *dragged += motion.delta.length();
    }
    if mouse.just_released(MouseButton::Right) {
        // A right click (not a drag) cancels the aim.
        if *dragged < 6.0 {
            selection.aim = Aim::Move;
            selection.pending = None;
            selection.confirm = None;
        }
        *dragged = 0.0;
    }
    if over.0
        || !mouse.just_pressed(MouseButton::Left)
        || selection.pending.is_some()
        || selection.confirm.is_some()
    {
        return;
    }
    let Some(square) = selection.hover else {
        return;
    };
    let occupant = game
        .encounter
        .occupants()
        .into_iter()
        .find(|o| o.space.squares().any(|q| q == square))
        .map(|o| o.id);
    if !game.players_turn() {
        selection.inspect = occupant;
        return;
    }
    // Choosing who acts: click one of the side's creatures.
    if game.encounter.active_creature().is_none() {
        if let Some(id) = occupant {
            let start = Command::StartTurn { creature: id };
            if game.legal.contains(&start) {
                let _ = game.apply(start, &mut out);
                selection.aim = Aim::Move;
                return;
            }
        }
        selection.inspect = occupant;
        return;
    }
    let Some(actor) = game.encounter.active_creature() else {
        return;
    };
    match intent::command_at(
        &game.legal,
        actor,
        &selection.aim,
        square,
        occupant,
        selection.shift,
    ) {
        Some(cmd) => {
            let mut sel = std::mem::take(&mut *selection);
            choose(&mut game, &mut sel, cmd, &settings, &mut out);
            *selection = sel;
        }
        // Beyond this move's reach, within a second one's: two moves.
        None if selection.aim == Aim::Move && occupant.is_none() => {
            let far = intent::second_moves(&game.encounter, &game.legal, actor);
            let first = far.get(&square).and_then(|(_, whole)| {
                // The first move is the legal one that the way starts with.
                game.legal
                    .iter()
                    .filter(|c| {
                        matches!(c, Command::Move { creature, path }
                            if *creature == actor && whole.starts_with(&path.to_vec()))
                    })
                    .max_by_key(|c| match c {
                        Command::Move { path, .. } => path.to_vec().len(),
                        _ => 0,
                    })
                    .cloned()
            });
            selection.confirm =
                first.and_then(|f| super::game::confirm_two_moves(&game, f, square));
        }
        None => selection.inspect = occupant,
    }
}

fn keys(
    keys: Res<ButtonInput<KeyCode>>,
    mut game: NonSendMut<Game>,
    mut selection: ResMut<Selection>,
    mut pace: ResMut<Pace>,
    mut out: MessageWriter<Applied>,
    mut restart: MessageWriter<Restart>,
    mut window: Single<&mut Window, With<PrimaryWindow>>,
    mut ui_scale: ResMut<super::camera::UserScale>,
    mut picker: ResMut<super::picker::PickerOpen>,
    settings: Res<Settings>,
    help: Res<super::hud::help::HelpOpen>,
    mut exit: MessageWriter<AppExit>,
    builder: Res<super::builder::BuilderOpen>,
) {
    // (Pressed now, or pressed and let go within this frame.)
    let ctrl = keys.any_pressed([KeyCode::ControlLeft, KeyCode::ControlRight])
        || keys.any_just_pressed([KeyCode::ControlLeft, KeyCode::ControlRight]);
    // Ctrl+Q quits (a fight under way is kept for Continue).
    if ctrl && keys.just_pressed(KeyCode::KeyQ) {
        exit.write(AppExit::Success);
        return;
    }
    if ctrl && keys.any_just_pressed([KeyCode::Equal, KeyCode::NumpadAdd]) {
        ui_scale.0 = (ui_scale.0 + 0.1).min(2.5);
        return;
    }
    if ctrl && keys.any_just_pressed([KeyCode::Minus, KeyCode::NumpadSubtract]) {
        ui_scale.0 = (ui_scale.0 - 0.1).max(0.6);
        return;
    }
    if keys.just_pressed(KeyCode::F11) {
        window.mode = match window.mode {
            WindowMode::Windowed => WindowMode::BorderlessFullscreen(MonitorSelection::Current),
            _ => WindowMode::Windowed,
        };
    }
    // The help panel takes F1 and Esc itself, and nothing else plays under
    // it; the builder takes Esc and typing.
    if help.0 || builder.0.is_some() {
        return;
    }
    if keys.just_pressed(KeyCode::Escape) {
        if selection.confirm.is_some() {
            selection.confirm = None;
        } else if selection.pending.is_some() || selection.aim != Aim::Move {
            selection.pending = None;
            selection.aim = Aim::Move;
        } else {
            picker.0 = !picker.0;
        }
    }
    if picker.0 {
        return;
    }
    // Demo pace.
    if keys.just_pressed(KeyCode::Space) {
        pace.paused = !pace.paused;
    }
    if keys.just_pressed(KeyCode::KeyN) {
        pace.step = true;
    }
    if !ctrl && keys.any_just_pressed([KeyCode::Equal, KeyCode::NumpadAdd]) {
        pace.delay = (pace.delay * 0.7).max(0.1);
    }
    if !ctrl && keys.any_just_pressed([KeyCode::Minus, KeyCode::NumpadSubtract]) {
        pace.delay = (pace.delay / 0.7).min(4.0);
    }
    // Restart a finished fight, or watch a replay again once it has ended.
    // (A new seed; with Shift the very same fight again.)
    if keys.just_pressed(KeyCode::KeyR)
        && (game.encounter.outcome().is_some() || game.replay_end().is_some())
    {
        let same = keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight])
            || game.mode == super::game::Mode::Replay;
        restart.write(Restart { same, load: None });
    }
    if ctrl && keys.just_pressed(KeyCode::KeyZ) {
        if selection.pending.is_none() && game.undo() {
            selection.aim = Aim::Move;
            selection.confirm = None;
        }
        return;
    }
    if !game.players_turn() || ctrl {
        return;
    }
    // A question waits: Enter (or the key asked again) says yes.
    if let Some(c) = selection.confirm.clone() {
        let again =
            keys.just_pressed(KeyCode::Enter) || c.key.is_some_and(|k| keys.just_pressed(k));
        if again {
            selection.confirm = None;
            if game.confirmed(c, &mut out) {
                selection.aim = Aim::Move;
            }
        }
        return;
    }
    let Some(actor) = game.encounter.active_creature() else {
        return;
    };
    if selection.pending.is_some() {
        return;
    }
    let Some(key) = pressed_slot_key(&keys) else {
        return;
    };
    let slots = intent::slots(&game.encounter, &game.legal, actor);
    if let Some(slot) = intent::slot_for_key(&slots, key).cloned() {
        activate(&mut game, &mut selection, slot.action, &settings, &mut out);
    }
}

/// The ability-bar key pressed this frame: a digit (0 is the tenth), a
/// basic action's letter, or Enter for End Turn.
fn pressed_slot_key(keys: &ButtonInput<KeyCode>) -> Option<intent::SlotKey> {
    const DIGITS: [KeyCode; 10] = [
        KeyCode::Digit1,
        KeyCode::Digit2,
        KeyCode::Digit3,
        KeyCode::Digit4,
        KeyCode::Digit5,
        KeyCode::Digit6,
        KeyCode::Digit7,
        KeyCode::Digit8,
        KeyCode::Digit9,
        KeyCode::Digit0,
    ];
    if let Some(i) = DIGITS.iter().position(|k| keys.just_pressed(*k)) {
        return Some(intent::SlotKey::Digit(i + 1));
    }
    if keys.just_pressed(KeyCode::Enter) {
        return Some(intent::SlotKey::Letter('E'));
    }
    intent::BASIC_KEYS
        .iter()
        .map(|(_, c)| *c)
        .find(|c| letter_key(*c).is_some_and(|k| keys.just_pressed(k)))
        .map(intent::SlotKey::Letter)
}

/// The key code of a letter key.
pub fn letter_key(c: char) -> Option<KeyCode> {
    Some(match c.to_ascii_uppercase() {
        'E' => KeyCode::KeyE,
        'G' => KeyCode::KeyG,
        'H' => KeyCode::KeyH,
        'P' => KeyCode::KeyP,
        'Q' => KeyCode::KeyQ,
        'T' => KeyCode::KeyT,
        'U' => KeyCode::KeyU,
        'X' => KeyCode::KeyX,
        'Y' => KeyCode::KeyY,
        _ => return None,
    })
}

/// Choose a slot of the ability bar (by key or by click).
pub fn activate(
    game: &mut Game,
    selection: &mut Selection,
    action: SlotAction,
    settings: &Settings,
    out: &mut MessageWriter<Applied>,
) {
    match action {
        SlotAction::Aim(aim) => {
            selection.pending = None;
            if selection.aim == aim {
                // Choosing the aimed slot again: an area around the user
                // (which needs no square) goes off; anything else is dropped.
                let around_me = game.legal.iter().find(|c| {
                    matches!(c, Command::UseAreaAbility { ability, placement: Placement::OnSelf, .. }
                        if Aim::Ability(ability.clone()) == aim)
                });
                match around_me.cloned() {
                    Some(cmd) => choose(game, selection, cmd, settings, out),
                    None => selection.aim = Aim::Move,
                }
            } else {
                selection.aim = aim;
            }
        }
        SlotAction::Now(cmd) => {
            selection.aim = Aim::Move;
            choose(game, selection, cmd, settings, out);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;
    use std::sync::Arc;

    use skirmish_rules::content::ContentDb;
    use skirmish_rules::map::Side;

    use super::*;
    use crate::client::game::{Mode, Setup};

    fn game() -> Game {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets");
        let db = Arc::new(ContentDb::load(&root).unwrap());
        let setup = Setup {
            encounter: "keep_breach".into(),
            mode: Mode::Solo,
            seed: 3,
            brain: "greedy".into(),
            replay: None,
            load: None,
        };
        Game::new(db, &setup, 1).unwrap()
    }

    #[test]
    fn the_player_is_asked_about_surges_only_when_there_are_some() {
        let mut g = game();
        let hero = g
            .encounter
            .creatures()
            .into_iter()
            .find(|c| c.side == Side::Heroes && c.heroic.is_some())
            .unwrap();
        let ability = hero.abilities[0].clone();
        let cmd = Command::use_ability(hero.id, &ability, vec![]);
        // No surges and nothing to spend on: straight to the roll.
        assert_eq!(spend_choice(&g, &cmd), None);
        g.encounter.heroic_mut(hero.id).unwrap().surges = 2;
        let mut p = spend_choice(&g, &cmd).expect("surges to spend: ask");
        assert_eq!((p.max_surges, p.surges), (2, 0));
        p.surges = 2;
        match with_choices(&p) {
            Command::UseAbility { surges, .. } => assert_eq!(surges, 2),
            other => panic!("{other:?}"),
        }
        // Moving is never asked about.
        let mv = Command::EndTurn { creature: hero.id };
        assert_eq!(spend_choice(&g, &mv), None);
    }

    #[test]
    fn an_area_around_the_user_goes_off_on_its_second_key_press() {
        let mut g = game();
        let tactician = g
            .encounter
            .creatures()
            .into_iter()
            .find(|c| c.name == "Captain Hollis")
            .unwrap()
            .id;
        // Play turns out (monsters end theirs) until the tactician can start.
        let start = Command::StartTurn {
            creature: tactician,
        };
        for _ in 0..50 {
            if g.legal.contains(&start) {
                break;
            }
            let next = g
                .legal
                .iter()
                .find(|c| {
                    matches!(
                        c,
                        Command::EndTurn { .. } | Command::Answer { reaction: None, .. }
                    )
                })
                .or_else(|| {
                    g.legal.iter().find(
                        |c| matches!(c, Command::StartTurn { creature } if *creature != tactician),
                    )
                })
                .cloned()
                .unwrap();
            g.encounter.apply(next).unwrap();
            g.legal = g.encounter.legal_actions();
        }
        g.encounter.apply(start).unwrap();
        g.encounter.heroic_mut(tactician).unwrap().amount = 5;
        g.legal = g.encounter.legal_actions();
        let mut app = App::new();
        app.add_message::<Applied>();
        let mut sel = Selection::default();
        let aim = SlotAction::Aim(Aim::Ability("tact_rally".into()));
        let mut state: bevy::ecs::system::SystemState<MessageWriter<Applied>> =
            bevy::ecs::system::SystemState::new(app.world_mut());
        let mut out = state.get_mut(app.world_mut()).unwrap();
        let settings = Settings::default();
        activate(&mut g, &mut sel, aim.clone(), &settings, &mut out);
        assert_eq!(
            sel.aim,
            Aim::Ability("tact_rally".into()),
            "first press aims"
        );
        assert_eq!(g.version, 0);
        activate(&mut g, &mut sel, aim, &settings, &mut out);
        assert_eq!(g.version, 1, "second press uses it");
        assert_eq!(sel.aim, Aim::Move);
        let used = g.encounter.log().iter().any(|l| {
            matches!(l, skirmish_rules::encounter::LogEntry::AbilityUsed { ability, .. } if ability == "tact_rally")
        });
        assert!(used);
    }

    #[test]
    fn in_solo_the_monsters_are_the_ais_and_the_heroes_the_players() {
        let g = game();
        let side = g.deciding_side().unwrap();
        assert_eq!(g.players_turn(), side == Side::Heroes);
        assert!(g.human(Side::Heroes));
        assert!(!g.human(Side::Director));
        assert_eq!(g.automatic_now(), side == Side::Director);
    }
}
