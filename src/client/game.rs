//! The fight on screen: one headless [`Encounter`] driven by the player's
//! clicks and by the AI brains, through the same commands.

use std::collections::VecDeque;
use std::sync::Arc;

use bevy::prelude::*;
use skirmish_rules::ai::{self, Brain};
use skirmish_rules::content::{Content, ContentDb};
use skirmish_rules::encounter::Replay;
use skirmish_rules::encounter::{Command, Encounter, LogEntry, Refusal, Snapshot};
use skirmish_rules::map::Side;

use super::intent::Aim;

/// Who plays which side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Mode {
    /// The player's heroes against AI monsters.
    #[default]
    Solo,
    /// Both sides played by people at one screen.
    Hotseat,
    /// AI against AI, paced for a room to follow.
    Demo,
    /// A replay file played back (`skirmish replay FILE`, not a `--mode`).
    #[value(skip)]
    Replay,
}

impl Mode {
    pub fn label(self) -> &'static str {
        match self {
            Mode::Solo => "Solo",
            Mode::Hotseat => "Hot-seat",
            Mode::Demo => "Demo",
            Mode::Replay => "Replay",
        }
    }
}

/// What the next game is: chosen on the command line or in the picker.
#[derive(Resource, Clone, Debug)]
pub struct Setup {
    pub encounter: String,
    pub mode: Mode,
    pub seed: u64,
    /// The brain that plays the AI sides.
    pub brain: String,
    /// A replay to play back instead (mode Replay).
    pub replay: Option<Replay>,
    /// A saved fight to play on from (`--load`): its commands are played
    /// at once and the fight goes on from there.
    pub load: Option<Replay>,
}

/// The running game. Not `Send` (the engine owns a Bevy app and the brains
/// are trait objects), so it lives on the main thread.
pub struct Game {
    pub encounter: Encounter,
    pub mode: Mode,
    /// Bumped on every new game: the board and tokens rebuild on a change.
    pub generation: u64,
    /// Bumped on every accepted command.
    pub version: u64,
    /// The legal actions now (cached: listing them costs a little).
    pub legal: Vec<Command>,
    brains: [Option<Box<dyn Brain>>; 2],
    /// Replay commands still to play.
    script: VecDeque<Command>,
    /// How many commands the replay file holds.
    script_len: usize,
    /// A replay stopped at a refused command: which one (of `script_len`).
    replay_stopped: Option<usize>,
    /// The last refusal, shown to the player for a while.
    pub notice: Option<String>,
    /// Bumped on every notice, so that the same words said again show again.
    pub notice_serial: u64,
    /// What the player can take back this turn (Ctrl+Z).
    undo: Undo,
}

/// The player's take-backs: a snapshot before each command of this turn
/// that revealed no dice, newest last. A roll, the other side's choice or
/// a new turn empties it, and says why undo can't go further.
#[derive(Default)]
struct Undo {
    /// The state before, what the command was, and the side that chose it.
    steps: Vec<(Snapshot, &'static str, Side)>,
    why_not: &'static str,
}

/// Why nothing can be taken back now, when nothing has happened this turn.
const NOTHING_YET: &str = "nothing to take back this turn";

/// What undoing `command` takes back, in the notice's words.
fn undo_label(command: &Command) -> &'static str {
    match command {
        Command::Move { .. } | Command::Movement { .. } => "the move",
        Command::Shift { .. } => "the shift",
        Command::Answer { .. } => "the answer",
        Command::Delay { .. } => "the delay",
        _ => "the last choice",
    }
}

/// How a replay ended before its fight did ([`Game::replay_end`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReplayEnd {
    /// Command `at` of `of` was refused, and the rest was not played.
    Refused { at: usize, of: usize },
    /// All `of` commands played: the file was saved before the fight ended.
    Ran { of: usize },
}

impl ReplayEnd {
    /// What the top bar says in place of the pace keys.
    pub fn bar(self) -> String {
        match self {
            ReplayEnd::Refused { at, of } => format!("stopped at command {at} of {of}"),
            ReplayEnd::Ran { of } => format!("ended after its {of} commands"),
        }
    }

    /// What the acting card says: why nothing more plays, and the keys.
    pub fn card(self) -> String {
        let why = match self {
            ReplayEnd::Refused { at, of } => format!(
                "The replay stopped at command {at} of {of}: this fight refused it, so the rest was not played."
            ),
            ReplayEnd::Ran { of } => format!(
                "The replay has played all {of} of its commands: it was saved before the fight ended."
            ),
        };
        format!("{why}\n[R] watch again · [Esc] choose another encounter")
    }
}

/// One accepted command and the log entries it produced: the board, the
/// floating text and the log panel follow these.
#[derive(Message, Clone, Debug)]
pub struct Applied {
    pub entries: Vec<LogEntry>,
}

/// The pace of AI moves: for demos, pause, step and speed keys.
#[derive(Resource, Debug)]
pub struct Pace {
    pub paused: bool,
    /// Seconds between AI commands.
    pub delay: f32,
    pub timer: f32,
    /// Play one command while paused.
    pub step: bool,
}

impl Default for Pace {
    fn default() -> Self {
        Pace {
            paused: false,
            delay: 0.9,
            timer: 0.0,
            step: false,
        }
    }
}

/// The player's selection: what is aimed, the square under the cursor,
/// and a command waiting for surge or resource choices.
#[derive(Resource, Debug, Default)]
pub struct Selection {
    pub aim: Aim,
    pub hover: Option<skirmish_rules::map::Pos>,
    /// Shift held: prefer shifting to moving.
    pub shift: bool,
    /// A chosen command that asks about surges or heroic resource first.
    pub pending: Option<Pending>,
    /// The creature whose details the player looks at (defaults to the actor).
    pub inspect: Option<skirmish_rules::stats::CreatureId>,
    /// A command that asks "are you sure?" first.
    pub confirm: Option<Confirm>,
}

/// A command waiting for a yes: ending a turn with actions left, or a move
/// that will use the main action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Confirm {
    pub command: Command,
    /// The question ("End Vex's turn with Main and Maneuver unused?").
    pub question: String,
    /// The yes button's words, with its key.
    pub yes: String,
    /// The key that, pressed again, says yes (Enter always does).
    pub key: Option<KeyCode>,
    /// After the command, a second move to this square (with the main
    /// action), if the engine then offers one.
    pub then: Option<skirmish_rules::map::Pos>,
}

/// The player's settings, kept in the data folder between runs.
#[derive(Resource, Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct Settings {
    /// Ask before ending a turn that still has actions to use.
    pub ask_before_ending_turn: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            ask_before_ending_turn: true,
        }
    }
}

/// Whether `command` asks first, and how: End Turn with actions left (if
/// the setting says so), or a move when only the main action can pay.
pub fn confirm_for(game: &Game, command: &Command, settings: &Settings) -> Option<Confirm> {
    let who = game.encounter.creature(command.creature())?;
    let b = who.budget;
    match command {
        Command::EndTurn { .. } if settings.ask_before_ending_turn => {
            let left: Vec<&str> = [
                ("Main", b.main),
                ("Maneuver", b.maneuver),
                ("Move", b.move_action),
            ]
            .into_iter()
            .filter(|(_, l)| *l)
            .map(|(n, _)| n)
            .collect();
            // Only when something is left that the engine would take.
            let more = game
                .legal
                .iter()
                .any(|c| !matches!(c, Command::EndTurn { .. } | Command::Delay { .. }));
            (!left.is_empty() && more).then(|| Confirm {
                command: command.clone(),
                question: format!("End {}'s turn with {} unused?", who.name, and_list(&left)),
                yes: "End turn [E]".into(),
                key: Some(KeyCode::KeyE),
                then: None,
            })
        }
        Command::Move { .. } | Command::Shift { .. } if !b.move_action && b.main => Some(Confirm {
            command: command.clone(),
            question: format!(
                "{} has used the move action: this move uses the main action.",
                who.name
            ),
            yes: "Move [Enter]".into(),
            key: None,
            then: None,
        }),
        _ => None,
    }
}

/// Two moves to `to`: `first` with the move action, then one more with
/// the main action; it asks first.
pub fn confirm_two_moves(
    game: &Game,
    first: Command,
    to: skirmish_rules::map::Pos,
) -> Option<Confirm> {
    let who = game.encounter.creature(first.creature())?;
    Some(Confirm {
        command: first,
        question: format!(
            "Two moves to get there: the second uses {}'s main action.",
            who.name
        ),
        yes: "Move twice [Enter]".into(),
        key: None,
        then: Some(to),
    })
}

impl Game {
    /// Say yes to `c`: its command, then its second move if it has one
    /// and the engine offers it (an opportunity attack's prompt, or a
    /// fall, may leave none). Whether the first was carried out.
    pub fn confirmed(&mut self, c: Confirm, out: &mut MessageWriter<Applied>) -> bool {
        let actor = c.command.creature();
        if self.apply(c.command, out).is_err() {
            return false;
        }
        if let Some(to) = c.then {
            let second = self
                .legal
                .iter()
                .find(|m| matches!(m, Command::Move { creature, path } if *creature == actor && path.end() == Some(to)))
                .cloned();
            if let Some(m) = second {
                let _ = self.apply(m, out);
            }
        }
        true
    }
}

/// "A", "A and B", "A, B and C".
fn and_list(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => one.to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// A command waiting for the player's spend choices.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pending {
    pub command: Command,
    /// The heroic resource's name ("wrath").
    pub resource: String,
    pub surges: u32,
    pub max_surges: u32,
    pub spend: u32,
    pub max_spend: u32,
}

impl Game {
    /// A new game as `setup` says.
    pub fn new(content: Arc<ContentDb>, setup: &Setup, generation: u64) -> Result<Game, String> {
        let (id, seed, script) = match &setup.replay {
            Some(r) => (
                r.encounter.clone(),
                r.seed,
                r.commands.iter().cloned().collect(),
            ),
            None => (setup.encounter.clone(), setup.seed, VecDeque::new()),
        };
        let encounter = match &setup.load {
            Some(save) => save.play(content.clone()).map_err(|e| e.to_string())?,
            None => Encounter::new(content.clone(), &id, seed).map_err(|e| e.to_string())?,
        };
        let brain =
            |n: u64| ai::by_name(&setup.brain, seed ^ n, &content).map_err(|e| e.to_string());
        let brains = match setup.mode {
            Mode::Solo => [None, Some(brain(2)?)],
            Mode::Hotseat | Mode::Replay => [None, None],
            Mode::Demo => [Some(brain(1)?), Some(brain(2)?)],
        };
        let mut g = Game {
            encounter,
            mode: setup.mode,
            generation,
            version: 0,
            legal: Vec::new(),
            brains,
            script_len: script.len(),
            replay_stopped: None,
            script,
            notice: None,
            notice_serial: 0,
            undo: Undo {
                steps: Vec::new(),
                why_not: NOTHING_YET,
            },
        };
        g.legal = g.encounter.legal_actions();
        Ok(g)
    }

    /// The side whose choice it is now (the creature named by the legal
    /// actions: a side picking who acts, the actor, or a prompted creature).
    pub fn deciding_side(&self) -> Option<Side> {
        let first = self.legal.first()?;
        self.encounter.creature(first.creature()).map(|c| c.side)
    }

    /// Whether a person decides for `side` now.
    pub fn human(&self, side: Side) -> bool {
        self.mode != Mode::Replay && self.brains[side.index()].is_none()
    }

    /// Whether the player may act now (it is a person's choice).
    pub fn players_turn(&self) -> bool {
        self.deciding_side().is_some_and(|s| self.human(s))
    }

    /// Whether a person's creature is acting, no prompt waits, and it can
    /// use the ability `aim` now (where `--aim` stops the AI playing ahead).
    pub fn can_aim(&self, aim: &str) -> bool {
        self.players_turn()
            && self.encounter.prompt().is_none()
            && self
                .legal
                .iter()
                .any(|c| super::intent::uses_ability(c, aim))
    }

    /// Show `words` as a new notice (even if the same words are up).
    pub fn say(&mut self, words: String) {
        self.notice_serial += 1;
        self.notice = Some(words);
    }

    /// Carry out a command; on success the board follows via [`Applied`].
    pub fn apply(
        &mut self,
        command: Command,
        out: &mut MessageWriter<Applied>,
    ) -> Result<(), Refusal> {
        let applied = self.carry_out(command)?;
        out.write(applied);
        Ok(())
    }

    /// [`Game::apply`] without the message: the log entries made, or the
    /// refusal, which the notice line shows. In a replay, a refused command
    /// stops the replay there: the file does not fit this encounter (edited,
    /// or from other content), and what comes after it would play a fight
    /// that never happened.
    fn carry_out(&mut self, command: Command) -> Result<Applied, Refusal> {
        let person = self.mode != Mode::Replay && self.players_turn();
        let before = person
            .then(|| self.deciding_side())
            .flatten()
            .map(|side| (self.encounter.snapshot(), side));
        let (rolled, actor) = (
            self.encounter.dice_rolled(),
            self.encounter.active_creature(),
        );
        match self.encounter.apply(command.clone()) {
            Ok(entries) => {
                self.version += 1;
                self.legal = self.encounter.legal_actions();
                self.notice = None;
                self.remember(before, &command, rolled, actor);
                Ok(Applied { entries })
            }
            Err(r) => {
                let words = if self.mode == Mode::Replay {
                    // The refused command was the last one taken off the script.
                    let at = self.script_len - self.script.len();
                    self.script.clear();
                    self.replay_stopped = Some(at);
                    format!(
                        "Replay stopped: its command {at} of {} was refused ({r})",
                        self.script_len
                    )
                } else {
                    format!("Can't do that: {r}")
                };
                self.say(words);
                Err(r)
            }
        }
    }

    /// Keep `before` (the state before `command`, if a person chose it) to
    /// take back, unless the command showed dice or ended or began a turn.
    fn remember(
        &mut self,
        before: Option<(Snapshot, Side)>,
        command: &Command,
        rolled: u64,
        actor: Option<skirmish_rules::stats::CreatureId>,
    ) {
        let why_not = if self.encounter.dice_rolled() != rolled {
            Some("the dice have been rolled, and a roll can't be taken back")
        } else if before.is_none() {
            Some("the other side has acted since")
        } else if matches!(command, Command::StartTurn { .. }) {
            Some(NOTHING_YET)
        } else if self.encounter.active_creature() != actor {
            Some("that turn is over")
        } else {
            None
        };
        match (why_not, before) {
            (Some(why), _) => {
                self.undo.steps.clear();
                self.undo.why_not = why;
            }
            (None, Some((snapshot, side))) => {
                // The other side's take-backs end where this side chooses.
                if self.undo.steps.last().is_some_and(|s| s.2 != side) {
                    self.undo.steps.clear();
                }
                self.undo.steps.push((snapshot, undo_label(command), side));
            }
            (None, None) => {}
        }
    }

    /// Whether Ctrl+Z would take something back now.
    pub fn can_undo(&self) -> bool {
        self.players_turn()
            && self
                .undo
                .steps
                .last()
                .is_some_and(|s| Some(s.2) == self.deciding_side())
    }

    /// Take back the player's last command of this turn (Ctrl+Z): the
    /// encounter, its log and its replay go back to just before it. When
    /// nothing can be, the notice says why.
    pub fn undo(&mut self) -> bool {
        if self.mode == Mode::Replay || self.mode == Mode::Demo {
            self.say("Undo: nothing to take back, the AI plays both sides".into());
            return false;
        }
        if !self.players_turn() {
            self.say("Undo: wait for your turn".into());
            return false;
        }
        if !self.can_undo() {
            let why = if self.undo.steps.is_empty() {
                self.undo.why_not
            } else {
                "the other side has chosen since"
            };
            self.say(format!("Can't undo: {why}"));
            return false;
        }
        let Some((snapshot, what, _)) = self.undo.steps.pop() else {
            return false;
        };
        self.encounter.restore(&snapshot);
        self.version += 1;
        self.legal = self.encounter.legal_actions();
        if self.undo.steps.is_empty() {
            self.undo.why_not = NOTHING_YET;
        }
        self.say(format!("Took back {what}"));
        true
    }

    /// The next AI or replay command, if it is theirs to choose.
    fn next_automatic(&mut self) -> Option<Command> {
        if self.legal.is_empty() {
            return None;
        }
        if self.mode == Mode::Replay {
            return self.script.pop_front();
        }
        let side = self.deciding_side()?;
        let brain = self.brains[side.index()].as_mut()?;
        let chosen = brain.choose(&self.encounter, &self.legal);
        // An external brain's crash, hang or garbage answer: said on the
        // screen and in the log of the terminal (its fallback was played).
        let (name, trouble) = (brain.name(), brain.take_errors());
        for why in trouble {
            warn!("brain `{name}`: {why}");
            self.say(format!("The AI ({name}) failed: {why}"));
        }
        // (A listed ability with surges spent on it is the brain's choice.)
        if self.legal.contains(&chosen)
            || chosen
                .unspent()
                .is_some_and(|bare| self.legal.contains(&bare))
        {
            Some(chosen)
        } else {
            // A brain's mistake must not stop the game: end the turn or let
            // the prompt pass, as the simulator does.
            warn!("brain `{name}` chose an illegal command: {chosen:?}");
            Some(self.legal[ai::fallback_index(&self.legal)].clone())
        }
    }

    /// How a replay came to its end before the fight's, if it has: nothing
    /// more will play, so the screen says so and offers to watch again.
    pub fn replay_end(&self) -> Option<ReplayEnd> {
        if self.mode != Mode::Replay || self.encounter.outcome().is_some() {
            return None;
        }
        if let Some(at) = self.replay_stopped {
            return Some(ReplayEnd::Refused {
                at,
                of: self.script_len,
            });
        }
        self.script.is_empty().then_some(ReplayEnd::Ran {
            of: self.script_len,
        })
    }

    /// Whether the game is waiting on a brain or a replay (not a person).
    pub fn automatic_now(&self) -> bool {
        if self.encounter.outcome().is_some() {
            return false;
        }
        if self.mode == Mode::Replay {
            return !self.script.is_empty();
        }
        self.deciding_side().is_some_and(|s| !self.human(s))
    }
}

pub(super) fn plugin(app: &mut App) {
    app.add_message::<Applied>()
        .init_resource::<Pace>()
        .init_resource::<Selection>()
        .add_message::<Restart>()
        .add_systems(Update, (restart, drive).chain().in_set(GameSet));
}

/// The systems that change the game: everything that draws it runs after.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct GameSet;

/// Start a new game from [`Setup`]: the same fight (its seed), or the next
/// seed of [`next_seed`].
#[derive(Message, Clone, Debug, Default)]
pub struct Restart {
    pub same: bool,
    /// A saved fight to play on from (the picker's saves).
    pub load: Option<Replay>,
}

/// The seed "play again" moves on to, below a million so the header can
/// show it and `--seed` have the fight again: a step of a generator that
/// goes through every such seed before any comes back (a linear
/// congruential one with full period: 21 - 1 is divisible by 2, 4 and 5,
/// the prime factors of a million and 4, and 7,919 shares none with it).
pub fn next_seed(seed: u64) -> u64 {
    (seed % 1_000_000 * 21 + 7_919) % 1_000_000
}

fn restart(
    mut asked: MessageReader<Restart>,
    mut game: NonSendMut<Game>,
    content: Res<Content>,
    mut setup: ResMut<Setup>,
    mut selection: ResMut<Selection>,
    mut pace: ResMut<Pace>,
) {
    let Some(last) = asked.read().cloned().reduce(|a, b| Restart {
        same: a.same && b.same,
        load: b.load.or(a.load),
    }) else {
        return;
    };
    let same = last.same;
    if !same && setup.replay.is_none() {
        setup.seed = next_seed(setup.seed);
    }
    // A save goes on from where it was; otherwise again from the start (a
    // loaded save's fight from its first round).
    setup.load = last.load;
    if let Some((encounter, seed)) = setup.load.as_ref().map(|s| (s.encounter.clone(), s.seed)) {
        setup.encounter = encounter;
        setup.seed = seed;
        setup.replay = None;
        if !matches!(setup.mode, Mode::Solo | Mode::Hotseat) {
            setup.mode = Mode::Solo;
        }
    }
    let generation = game.generation + 1;
    match Game::new(content.0.clone(), &setup, generation) {
        Ok(g) => {
            *game = g;
            *selection = Selection::default();
            pace.timer = 0.0;
        }
        Err(e) => game.say(format!("Can't start `{}`: {e}", setup.encounter)),
    }
}

/// Let the AI (or the replay) play its commands at a pace a room can follow.
fn drive(
    mut game: NonSendMut<Game>,
    time: Res<Time>,
    mut pace: ResMut<Pace>,
    mut out: MessageWriter<Applied>,
) {
    if !game.automatic_now() {
        pace.timer = 0.0;
        return;
    }
    let solo = game.mode == Mode::Solo;
    if pace.paused && !pace.step && !solo {
        return;
    }
    pace.timer += time.delta_secs();
    // Picking who acts is quick; actions wait so they can be followed.
    let picking = game
        .legal
        .first()
        .is_some_and(|c| matches!(c, Command::StartTurn { .. }));
    let wait = if picking {
        0.25
    } else if solo {
        0.7
    } else {
        pace.delay
    };
    if pace.timer < wait && !pace.step {
        return;
    }
    pace.timer = 0.0;
    pace.step = false;
    if let Some(cmd) = game.next_automatic() {
        let _ = game.apply(cmd, &mut out);
    }
}

/// Let the AI play ahead before the window shows the fight (for docs and
/// screenshots): at least `n` commands, then on until one that rolls, or
/// with `aim`, until a person's creature is acting and can use that ability.
/// Returns the last command's [`Applied`] so its floating text shows.
pub fn advance(game: &mut Game, n: u32, aim: Option<&str>) -> Option<Applied> {
    let content = game.encounter.content().clone();
    let mut stand_in = ai::by_name(ai::DEFAULT_BRAIN, 99, &content).ok()?;
    let mut last = None;
    for i in 0..5_000u32 {
        if game.encounter.outcome().is_some() || game.legal.is_empty() {
            break;
        }
        if i >= n {
            let done = match aim {
                Some(a) => game.can_aim(a),
                None => last.as_ref().is_some_and(|l: &Applied| {
                    l.entries.iter().any(|e| {
                        matches!(e, LogEntry::TierResult { .. } | LogEntry::Attack2d6 { .. })
                    })
                }),
            };
            if done {
                break;
            }
        }
        let cmd = match game.next_automatic() {
            Some(c) => c,
            // A replay plays its own commands and nothing after them.
            None if game.mode == Mode::Replay => break,
            None => stand_in.choose(&game.encounter, &game.legal),
        };
        match game.carry_out(cmd) {
            Ok(applied) => last = Some(applied),
            Err(_) => break,
        }
    }
    last
}

#[cfg(test)]
mod tests {
    #[test]
    fn play_again_moves_to_a_new_seed_every_time() {
        let mut seen = std::collections::HashSet::new();
        let mut seed = 1;
        for _ in 0..100_000 {
            assert!(seen.insert(seed), "seed {seed} came back");
            seed = next_seed(seed);
        }
    }

    use super::*;
    use skirmish_rules::stats::CreatureId;

    use crate::client::shipped_content as content;

    /// A replay of keep_breach, seed 3: its first `good` commands as a
    /// game played them, then `tail`.
    fn replay_of(content: &Arc<ContentDb>, good: usize, tail: Vec<Command>) -> Setup {
        let mut e = Encounter::new(content.clone(), "keep_breach", 3).unwrap();
        for _ in 0..good {
            let first = e.legal_actions().into_iter().next().unwrap();
            e.apply(first).unwrap();
        }
        let mut replay = e.replay().clone();
        replay.commands.extend(tail);
        Setup {
            encounter: replay.encounter.clone(),
            mode: Mode::Replay,
            seed: replay.seed,
            brain: ai::DEFAULT_BRAIN.into(),
            replay: Some(replay),
            load: None,
        }
    }

    // `--load PATH`: a saved fight goes on from where it was: the same log,
    // the same commands to choose from, the player's to play; a restart
    // goes back to the fight's first round.
    #[test]
    fn a_loaded_save_goes_on_where_it_was() {
        let content = content();
        let mut e = Encounter::new(content.clone(), "keep_breach", 3).unwrap();
        let mut rng = 0usize;
        for _ in 0..40 {
            let legal = e.legal_actions();
            rng = (rng * 31 + 7) % 1009;
            e.apply(legal[rng % legal.len()].clone()).unwrap();
        }
        let save = Replay::from_ron(&e.replay().to_ron()).unwrap();
        let setup = Setup {
            encounter: save.encounter.clone(),
            mode: Mode::Hotseat,
            seed: save.seed,
            brain: ai::DEFAULT_BRAIN.into(),
            replay: None,
            load: Some(save),
        };
        let game = Game::new(content.clone(), &setup, 1).unwrap();
        assert_eq!(game.encounter.log(), e.log());
        assert_eq!(game.legal, e.legal_actions());
        assert!(game.players_turn(), "hot-seat: a person plays on");
        let fresh = Setup {
            load: None,
            ..setup
        };
        let again = Game::new(content, &fresh, 2).unwrap();
        assert_eq!(again.encounter.flow().round, 1);
        assert!(again.encounter.log().len() < e.log().len());
    }

    // A saved game must load without loss or panic (DEVELOPERS.md "Bad
    // input"): a replay whose command the encounter refuses stops there,
    // naming the command, rather than playing on what follows it.
    #[test]
    fn a_replay_stops_at_its_first_refused_command_and_says_which() {
        let content = content();
        let bogus = Command::EndTurn {
            creature: CreatureId(99),
        };
        let after = Command::EndTurn {
            creature: CreatureId(0),
        };
        let setup = replay_of(&content, 3, vec![bogus, after]);
        let mut game = Game::new(content, &setup, 1).unwrap();
        let mut played = 0;
        while game.automatic_now() {
            let cmd = game.next_automatic().expect("a command while automatic");
            if game.carry_out(cmd).is_ok() {
                played += 1;
            }
        }
        assert_eq!(played, 3, "the three good commands play");
        assert_eq!(game.version, 3);
        let notice = game.notice.clone().unwrap_or_default();
        assert!(
            notice.starts_with("Replay stopped: its command 4 of 5 was refused"),
            "{notice}"
        );
        // Nothing after it was tried: the script is empty and the game waits.
        assert!(!game.automatic_now());
        assert_eq!(game.replay_stopped, Some(4));
        // The screen says why nothing more plays, and how to watch again.
        let end = game.replay_end().expect("the replay has ended");
        assert_eq!(end, ReplayEnd::Refused { at: 4, of: 5 });
        assert_eq!(end.bar(), "stopped at command 4 of 5");
        assert!(end.card().contains("stopped at command 4 of 5"));
        assert!(end.card().contains("[R] watch again"));
    }

    // A replay saved before its fight ended plays all its commands and then
    // says so: the acting card no longer shows a turn that will not go on.
    #[test]
    fn a_replay_saved_mid_fight_ends_after_its_last_command() {
        let content = content();
        let setup = replay_of(&content, 4, Vec::new());
        let mut game = Game::new(content, &setup, 1).unwrap();
        assert_eq!(game.replay_end(), None, "nothing has played yet");
        let mut played = 0;
        while game.automatic_now() {
            assert_eq!(game.replay_end(), None, "still playing");
            let cmd = game.next_automatic().expect("a command while automatic");
            game.carry_out(cmd).expect("a replay of legal commands");
            played += 1;
        }
        assert_eq!(played, 4);
        assert!(game.encounter.outcome().is_none());
        let end = game.replay_end().expect("the replay has ended");
        assert_eq!(end, ReplayEnd::Ran { of: 4 });
        assert_eq!(end.bar(), "ended after its 4 commands");
        assert!(end.card().contains("all 4 of its commands"));
        // Outside a replay there is no such end.
        let mut solo = setup.clone();
        solo.mode = Mode::Hotseat;
        solo.replay = None;
        let game = Game::new(game.encounter.content().clone(), &solo, 2).unwrap();
        assert_eq!(game.replay_end(), None);
    }

    fn hotseat(id: &str, seed: u64) -> Game {
        let setup = Setup {
            encounter: id.into(),
            mode: Mode::Hotseat,
            seed,
            brain: ai::DEFAULT_BRAIN.into(),
            replay: None,
            load: None,
        };
        Game::new(content(), &setup, 1).unwrap()
    }

    /// A move or shift the player could make now that rolls no dice and
    /// asks no one anything (tried on a snapshot, then put back).
    fn quiet_move(game: &mut Game, skip: usize) -> Option<Command> {
        let moves: Vec<Command> = game
            .legal
            .iter()
            .filter(|c| {
                matches!(
                    c,
                    Command::Move { .. } | Command::Shift { .. } | Command::Movement { .. }
                )
            })
            .cloned()
            .collect();
        let before = game.encounter.snapshot();
        let rolled = game.encounter.dice_rolled();
        moves.into_iter().rev().skip(skip).find(|c| {
            let quiet = game.encounter.apply(c.clone()).is_ok()
                && game.encounter.dice_rolled() == rolled
                && game.encounter.prompt().is_none();
            game.encounter.restore(&before);
            quiet
        })
    }

    // Issue 50 point 4: for every shipped encounter, a turn of moves is
    // taken back to the turn's start: the same creatures, log, flow,
    // replay and legal commands, exactly.
    #[test]
    fn undo_takes_a_turn_of_moves_back_exactly_in_every_encounter() {
        let content = content();
        for id in content.encounters.keys() {
            let mut game = hotseat(id, 5);
            let start = game
                .legal
                .iter()
                .find(|c| matches!(c, Command::StartTurn { .. }))
                .cloned()
                .unwrap_or_else(|| panic!("{id}: a turn to start"));
            game.carry_out(start).unwrap();
            let at_start = (
                game.encounter.creatures(),
                game.encounter.log().to_vec(),
                game.encounter.flow().clone(),
                game.encounter.replay().clone(),
                game.encounter.malice(),
            );
            let legal = game.legal.clone();
            let mut moved = 0;
            for skip in 0..3 {
                let Some(m) = quiet_move(&mut game, skip) else {
                    break;
                };
                game.carry_out(m).unwrap();
                moved += 1;
            }
            assert!(moved > 0, "{id}: the first creature could move");
            assert!(game.can_undo(), "{id}");
            for _ in 0..moved {
                assert!(game.undo(), "{id}: {:?}", game.notice);
            }
            assert_eq!(game.encounter.creatures(), at_start.0, "{id}");
            assert_eq!(game.encounter.log(), &at_start.1[..], "{id}");
            assert_eq!(game.encounter.flow(), &at_start.2, "{id}");
            assert_eq!(game.encounter.replay(), &at_start.3, "{id}");
            assert_eq!(game.encounter.malice(), at_start.4, "{id}");
            assert_eq!(game.legal, legal, "{id}: the same commands to choose from");
            assert_eq!(game.encounter.legal_actions(), legal, "{id}");
            // The turn's start is as far as it goes, and it says so.
            assert!(!game.undo(), "{id}");
            assert_eq!(
                game.notice.as_deref(),
                Some("Can't undo: nothing to take back this turn"),
                "{id}"
            );
        }
    }

    // After a roll, undo says why it can't; the AI's commands are never
    // taken back in solo.
    #[test]
    fn undo_stops_at_a_roll_and_says_why() {
        let content = content();
        let mut game = hotseat("keep_breach", 3);
        let mut stand_in = ai::by_name("greedy", 1, &content).unwrap();
        let mut rolled = false;
        for _ in 0..400 {
            let before = game.encounter.dice_rolled();
            let legal_before = game.legal.clone();
            let c = stand_in.choose(&game.encounter, &game.legal);
            let is_roll_candidate = matches!(
                c,
                Command::UseAbility { .. } | Command::UseAreaAbility { .. }
            );
            game.carry_out(c).unwrap();
            if is_roll_candidate && game.encounter.dice_rolled() != before && game.players_turn() {
                assert!(!legal_before.is_empty());
                rolled = true;
                break;
            }
        }
        assert!(rolled, "a hero or monster rolled within 400 commands");
        assert!(!game.can_undo());
        assert!(!game.undo());
        let notice = game.notice.clone().unwrap_or_default();
        assert!(
            notice.starts_with("Can't undo: the dice have been rolled"),
            "{notice}"
        );
        // Solo: the monsters' turns are the AI's, and nothing of theirs
        // can be taken back.
        let setup = Setup {
            encounter: "keep_breach".into(),
            mode: Mode::Solo,
            seed: 3,
            brain: ai::DEFAULT_BRAIN.into(),
            replay: None,
            load: None,
        };
        let mut solo = Game::new(content.clone(), &setup, 1).unwrap();
        while let Some(c) = solo.next_automatic() {
            solo.carry_out(c).unwrap();
        }
        assert!(solo.players_turn());
        assert!(!solo.can_undo());
    }

    // Issue 50 point 1: ending a turn with actions left asks first (unless
    // the setting says not to); a move paid with the main action says so.
    #[test]
    fn ending_a_turn_early_and_a_second_move_ask_first() {
        let mut game = hotseat("keep_breach", 5);
        let start = game.legal[0].clone();
        game.carry_out(start).unwrap();
        let actor = game.encounter.active_creature().unwrap();
        let end = Command::EndTurn { creature: actor };
        let asked = confirm_for(&game, &end, &Settings::default()).expect("asks");
        assert!(
            asked.question.contains("Main, Maneuver and Move unused"),
            "{}",
            asked.question
        );
        let quiet = Settings {
            ask_before_ending_turn: false,
        };
        assert_eq!(confirm_for(&game, &end, &quiet), None);
        // A first move is the move action's: no question.
        let first = quiet_move(&mut game, 0).expect("a move");
        assert_eq!(confirm_for(&game, &first, &Settings::default()), None);
        game.carry_out(first).unwrap();
        // A second one takes the main action, and says so first.
        let second = quiet_move(&mut game, 0).expect("a second move");
        let q = confirm_for(&game, &second, &quiet).expect("asks even when quiet");
        assert!(
            q.question.contains("uses the main action"),
            "{}",
            q.question
        );
        game.carry_out(second).unwrap();
        let view = game.encounter.creature(actor).unwrap();
        assert!(!view.budget.main, "the engine took the main action for it");
    }

    // Issue 50 point 1: squares only a second move reaches are offered
    // apart; choosing one asks, then makes both moves, the second with
    // the main action, to where the way said.
    #[test]
    fn a_square_two_moves_away_takes_both_moves_after_asking() {
        let content = content();
        let mut tried = 0;
        for id in content.encounters.keys() {
            let mut game = hotseat(id, 5);
            let start = game.legal[0].clone();
            game.carry_out(start).unwrap();
            let actor = game.encounter.active_creature().unwrap();
            let far = super::super::intent::second_moves(&game.encounter, &game.legal, actor);
            if game.encounter.phased_rules().is_some() {
                assert!(far.is_empty(), "{id}: no second move in phased 2d6");
                continue;
            }
            let near = super::super::intent::destinations(&game.legal, actor);
            assert!(far.keys().all(|q| !near.contains_key(q)), "{id}");
            // The farthest square whose way provokes nothing.
            let Some((&to, (_, whole))) = far
                .iter()
                .filter(|(_, (_, w))| {
                    super::super::intent::path_preview(&game.encounter, actor, w)
                        .1
                        .is_empty()
                })
                .max_by_key(|(_, (c, _))| *c)
            else {
                continue;
            };
            let first = game
                .legal
                .iter()
                .filter(|c| matches!(c, Command::Move { creature, path } if *creature == actor && whole.starts_with(&path.to_vec())))
                .max_by_key(|c| match c {
                    Command::Move { path, .. } => path.to_vec().len(),
                    _ => 0,
                })
                .cloned()
                .unwrap();
            let ask = confirm_two_moves(&game, first, to).unwrap();
            assert!(ask.question.contains("main action"), "{}", ask.question);
            let mut app = App::new();
            app.add_message::<Applied>();
            let mut state: bevy::ecs::system::SystemState<MessageWriter<Applied>> =
                bevy::ecs::system::SystemState::new(app.world_mut());
            let mut out = state.get_mut(app.world_mut()).unwrap();
            assert!(game.confirmed(ask, &mut out));
            let view = game.encounter.creature(actor).unwrap();
            if game.encounter.prompt().is_none() {
                assert_eq!(view.space.pos, to, "{id}");
                assert!(!view.budget.move_action && !view.budget.main, "{id}");
                tried += 1;
            }
        }
        assert!(tried > 3, "two moves made in {tried} encounters");
    }

    // Outside a replay, a refusal is only a notice: the game goes on.
    #[test]
    fn outside_a_replay_a_refusal_is_a_notice() {
        let content = content();
        let setup = Setup {
            encounter: "keep_breach".into(),
            mode: Mode::Hotseat,
            seed: 3,
            brain: ai::DEFAULT_BRAIN.into(),
            replay: None,
            load: None,
        };
        let mut game = Game::new(content, &setup, 1).unwrap();
        let refused = game.carry_out(Command::EndTurn {
            creature: CreatureId(99),
        });
        assert!(refused.is_err());
        assert!(
            game.notice
                .as_deref()
                .is_some_and(|n| n.starts_with("Can't do that:")),
            "{:?}",
            game.notice
        );
        let first = game.legal[0].clone();
        assert!(game.carry_out(first).is_ok());
        assert_eq!(game.notice, None);
    }
}
