//! The fight on screen: one headless [`Encounter`] driven by the player's
//! clicks and by the AI brains, through the same commands.

use std::collections::VecDeque;
use std::sync::Arc;

use bevy::prelude::*;
use skirmish_rules::ai::{self, Brain};
use skirmish_rules::content::{Content, ContentDb};
use skirmish_rules::encounter::Replay;
use skirmish_rules::encounter::{Command, Encounter, LogEntry, Refusal};
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

fn side_index(side: Side) -> usize {
    match side {
        Side::Heroes => 0,
        Side::Director => 1,
    }
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
        self.mode != Mode::Replay && self.brains[side_index(side)].is_none()
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
        match self.encounter.apply(command) {
            Ok(entries) => {
                self.version += 1;
                self.legal = self.encounter.legal_actions();
                self.notice = None;
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

    /// The next AI or replay command, if it is theirs to choose.
    fn next_automatic(&mut self) -> Option<Command> {
        if self.legal.is_empty() {
            return None;
        }
        if self.mode == Mode::Replay {
            return self.script.pop_front();
        }
        let side = self.deciding_side()?;
        let brain = self.brains[side_index(side)].as_mut()?;
        let chosen = brain.choose(&self.encounter, &self.legal);
        if self.legal.contains(&chosen) {
            Some(chosen)
        } else {
            // A brain's mistake must not stop the game: end the turn or let
            // the prompt pass, as the simulator does.
            warn!(
                "brain `{}` chose an illegal command: {chosen:?}",
                brain.name()
            );
            self.legal
                .iter()
                .find(|c| {
                    matches!(
                        c,
                        Command::EndTurn { .. } | Command::Answer { reaction: None, .. }
                    )
                })
                .or(self.legal.first())
                .cloned()
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
    let Some(same) = asked.read().map(|r| r.same).reduce(|a, b| a && b) else {
        return;
    };
    if !same && setup.replay.is_none() {
        setup.seed = next_seed(setup.seed);
    }
    // Again from the start: a loaded save's fight from its first round.
    setup.load = None;
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
