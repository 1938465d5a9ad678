//! A brain that is another program (docs/python.md#external-brains): any
//! program that reads a decision as one line of JSON on its standard
//! input and answers with one line on its standard output plays a side.
//! `exec:COMMAND` names it wherever a brain is named (`skirmish sim
//! --heroes exec:"python my_brain.py"`, the window's `--ai`).
//!
//! Each decision is sent as
//! `{"type": "decide", "game": {"encounter", "seed"}, "side", "observation",
//! "legal", "prompt"}`: the side's fair observation ([`crate::ai::describe::describe`]),
//! the legal commands (as replay files write them) and the open
//! triggered-action prompt, if any. The answer is `{"index": N}` (a
//! place in `legal`) or `{"command": {...}}` (one of them).
//!
//! A program that can't be started, exits, answers nothing within the
//! timeout (`SKIRMISH_EXEC_TIMEOUT` seconds, 10 by default) or answers
//! something else is reported with the game's seed (the simulator's
//! report lists it); that decision is made by the fallback (let a prompt
//! pass, end the turn), and after a crash or a hang so is the rest of the
//! game, whose brain is then started anew for the next game. Programs are
//! kept between games, one per thread and command.

use std::cell::RefCell;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command as Process, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::Duration;

use crate::encounter::{Command, Encounter};

use super::Brain;

/// The prefix that names an external brain.
pub const PREFIX: &str = "exec:";

/// How long a program has to answer, unless `SKIRMISH_EXEC_TIMEOUT` says.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

/// A running program.
struct Running {
    child: Child,
    stdin: ChildStdin,
    /// Its standard output, a line at a time (read on a thread of its own,
    /// so a wait can time out).
    lines: Receiver<std::io::Result<String>>,
}

impl Running {
    fn start(command: &str) -> Result<Running, String> {
        let mut child = Process::new("sh")
            .arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("could not start `{command}`: {e}"))?;
        let stdin = child.stdin.take().ok_or("no standard input")?;
        let stdout = child.stdout.take().ok_or("no standard output")?;
        let (tx, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let end = line.is_err();
                if tx.send(line).is_err() || end {
                    break;
                }
            }
        });
        Ok(Running {
            child,
            stdin,
            lines,
        })
    }

    /// How it ended, if it has.
    fn status(&mut self) -> String {
        match self.child.try_wait() {
            Ok(Some(s)) => format!("exited ({s})"),
            _ => "closed its output".to_string(),
        }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        // Its input closes with it: a well-behaved program ends; one that
        // doesn't is killed.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

thread_local! {
    /// Programs between games, by command.
    static KEPT: RefCell<Vec<(String, Running)>> = const { RefCell::new(Vec::new()) };
}

/// An external brain (see the module).
pub struct Exec {
    command: String,
    timeout: Duration,
    running: Option<Running>,
    /// This game's program failed: the rest of the game is the fallback's.
    failed: bool,
    errors: Vec<String>,
}

/// An answer on the wire.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Answer {
    index: Option<usize>,
    command: Option<Command>,
}

impl Exec {
    /// The brain `exec:COMMAND` names (its program is started when first
    /// asked, or taken from the ones this thread keeps).
    pub fn new(command: &str) -> Exec {
        let timeout = std::env::var("SKIRMISH_EXEC_TIMEOUT")
            .ok()
            .and_then(|s| s.parse::<f64>().ok())
            .filter(|s| s.is_finite() && *s > 0.0)
            .map_or(DEFAULT_TIMEOUT, Duration::from_secs_f64);
        Exec::with_timeout(command, timeout)
    }

    pub fn with_timeout(command: &str, timeout: Duration) -> Exec {
        Exec {
            command: command.to_string(),
            timeout,
            running: None,
            failed: false,
            errors: Vec::new(),
        }
    }

    /// Ask the program; an error says what went wrong.
    fn ask(&mut self, e: &Encounter, legal: &[Command]) -> Result<Command, String> {
        if self.running.is_none() {
            let kept = KEPT.with(|k| {
                let mut k = k.borrow_mut();
                let i = k.iter().position(|(c, _)| *c == self.command)?;
                Some(k.swap_remove(i).1)
            });
            self.running = Some(match kept {
                Some(r) => r,
                None => Running::start(&self.command)?,
            });
        }
        let running = self.running.as_mut().expect("started above");
        let side = super::score::acting_side(e, legal).unwrap_or(crate::map::Side::Heroes);
        let message = serde_json::json!({
            "type": "decide",
            "game": { "encounter": e.replay().encounter, "seed": e.replay().seed },
            "side": super::describe::side_name(side),
            "observation": super::describe::describe(e, side),
            "legal": legal,
            "prompt": e.prompt(),
        });
        let mut line = message.to_string();
        line.push('\n');
        if running
            .stdin
            .write_all(line.as_bytes())
            .and_then(|()| running.stdin.flush())
            .is_err()
        {
            return Err(self.crashed());
        }
        let answer = match running.lines.recv_timeout(self.timeout) {
            Ok(Ok(a)) => a,
            Ok(Err(_)) | Err(RecvTimeoutError::Disconnected) => return Err(self.crashed()),
            Err(RecvTimeoutError::Timeout) => {
                self.running = None;
                self.failed = true;
                return Err(format!(
                    "`{}` gave no answer within {:.1} s: stopped; the fallback plays the rest of the game",
                    self.command,
                    self.timeout.as_secs_f64()
                ));
            }
        };
        let shown: String = answer.chars().take(120).collect();
        let parsed: Answer = serde_json::from_str(&answer).map_err(|err| {
            format!(
                "`{}` answered `{shown}`: not {{\"index\": N}} or {{\"command\": {{...}}}} ({err})",
                self.command
            )
        })?;
        match (parsed.index, parsed.command) {
            (Some(i), None) => legal.get(i).cloned().ok_or_else(|| {
                format!(
                    "`{}` answered index {i}, but there are {} legal commands",
                    self.command,
                    legal.len()
                )
            }),
            (None, Some(c)) if legal.contains(&c) => Ok(c),
            (None, Some(c)) => Err(format!(
                "`{}` chose a command that is not legal now: {c:?}",
                self.command
            )),
            _ => Err(format!(
                "`{}` answered `{shown}`: give one of \"index\" or \"command\"",
                self.command
            )),
        }
    }

    /// The program is gone: say how, and let the fallback play on.
    fn crashed(&mut self) -> String {
        self.failed = true;
        let how = self
            .running
            .take()
            .map_or_else(|| "stopped".to_string(), |mut r| r.status());
        format!(
            "`{}` {how}: the fallback plays the rest of the game",
            self.command
        )
    }
}

impl Drop for Exec {
    fn drop(&mut self) {
        if let Some(r) = self.running.take() {
            let command = std::mem::take(&mut self.command);
            // (At a thread's end its kept programs are dropped, and stop.)
            let _ = KEPT.try_with(|k| k.borrow_mut().push((command, r)));
        }
    }
}

impl Brain for Exec {
    fn name(&self) -> String {
        format!("{PREFIX}{}", self.command)
    }

    fn choose(&mut self, e: &Encounter, legal: &[Command]) -> Command {
        if !self.failed {
            match self.ask(e, legal) {
                Ok(c) => return c,
                Err(why) => self.errors.push(why),
            }
        }
        legal[super::fallback_index(legal)].clone()
    }

    fn take_errors(&mut self) -> Vec<String> {
        std::mem::take(&mut self.errors)
    }
}

#[cfg(test)]
mod tests {
    //! External brains (issue 53 point 7): a program plays a side over
    //! JSON lines; one that crashes, hangs or answers garbage is reported
    //! with the game's seed, and the game goes on to its end.

    use std::path::Path;
    use std::sync::Arc;
    use std::time::Instant;

    use super::*;
    use crate::content::ContentDb;
    use crate::sim::play_with;

    fn db() -> Arc<ContentDb> {
        Arc::new(
            ContentDb::load(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets")).unwrap(),
        )
    }

    /// A game of first_blood: the heroes played by `exec`, the monsters by
    /// the greedy brain.
    fn game(exec: Exec, seed: u64) -> crate::sim::GameResult {
        let db = db();
        let greedy = super::super::by_name("greedy", 1, &db).unwrap();
        let (result, _) =
            play_with(&db, "first_blood", seed, Box::new(exec), greedy, 4000).unwrap();
        result
    }

    #[test]
    fn a_program_plays_a_whole_game() {
        // Always the first legal command: start a turn, move...
        let r = game(
            Exec::new(r#"while read line; do echo '{"index": 0}'; done"#),
            3,
        );
        assert!(r.errors.is_empty(), "{:?}", r.errors);
        assert!(r.winner.is_some(), "the game ended");
    }

    #[test]
    fn the_program_reads_the_decision() {
        let dir = std::env::temp_dir().join(format!("skirmish-exec-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("seen.jsonl");
        let cmd = format!(
            r#"while read line; do echo "$line" >> '{}'; echo '{{"index": 0}}'; done"#,
            file.display()
        );
        let mut exec = Exec::new(&cmd);
        let db = db();
        let mut e = Encounter::new(db, "first_blood", 5).unwrap();
        let legal = e.legal_actions();
        let chosen = exec.choose(&e, &legal);
        assert_eq!(chosen, legal[0]);
        e.apply(chosen).unwrap();
        let legal = e.legal_actions();
        assert_eq!(exec.choose(&e, &legal), legal[0]);
        drop(exec);
        let text = std::fs::read_to_string(&file).unwrap();
        let lines: Vec<serde_json::Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 2);
        let m = &lines[1];
        assert_eq!(m["type"], "decide");
        assert_eq!(m["game"]["encounter"], "first_blood");
        assert_eq!(m["game"]["seed"], 5);
        assert!(m["side"] == "heroes" || m["side"] == "director");
        assert_eq!(m["legal"], serde_json::json!(legal));
        assert!(m["observation"]["creatures"].as_array().unwrap().len() > 4);
        assert!(m["prompt"].is_null());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn garbage_is_reported_with_the_seed_and_the_game_goes_on() {
        let r = game(
            Exec::new(r#"while read line; do echo 'I am a brain'; done"#),
            11,
        );
        assert!(r.winner.is_some());
        assert!(!r.errors.is_empty());
        assert!(r.errors[0].contains("seed 11"), "{}", r.errors[0]);
        assert!(
            r.errors[0].contains("answered `I am a brain`"),
            "{}",
            r.errors[0]
        );
        let r = game(
            Exec::new(r#"while read line; do echo '{"index": 99999}'; done"#),
            12,
        );
        assert!(r.errors[0].contains("index 99999"), "{}", r.errors[0]);
        let r = game(
            Exec::new(
                r#"while read line; do echo '{"command": {"EndTurn": {"creature": 77}}}'; done"#,
            ),
            13,
        );
        assert!(r.errors[0].contains("not legal now"), "{}", r.errors[0]);
    }

    #[test]
    fn a_crash_is_reported_once_and_the_fallback_finishes_the_game() {
        let r = game(Exec::new("read line; exit 3"), 21);
        assert!(r.winner.is_some());
        assert_eq!(r.errors.len(), 1, "{:?}", r.errors);
        assert!(r.errors[0].contains("seed 21"), "{}", r.errors[0]);
        assert!(
            r.errors[0].contains("exit status: 3") || r.errors[0].contains("closed"),
            "{}",
            r.errors[0]
        );
        let r = game(Exec::new("/nonexistent/brain"), 22);
        assert_eq!(r.errors.len(), 1, "{:?}", r.errors);
    }

    #[test]
    fn a_hang_times_out() {
        let start = Instant::now();
        let r = game(
            Exec::with_timeout("read line; sleep 30", Duration::from_millis(300)),
            31,
        );
        assert!(r.winner.is_some());
        assert_eq!(r.errors.len(), 1, "{:?}", r.errors);
        assert!(
            r.errors[0].contains("no answer within 0.3 s"),
            "{}",
            r.errors[0]
        );
        assert!(start.elapsed() < Duration::from_secs(10));
    }

    #[test]
    fn exec_is_a_brain_name() {
        let b = super::super::by_name("exec:python3 brain.py", 0, &db()).unwrap();
        assert_eq!(b.name(), "exec:python3 brain.py");
        assert!(super::super::by_name("exec:", 0, &db()).is_err());
    }
}
