//! End-to-end tests of the `skirmish` binary's command line.

use std::path::PathBuf;
use std::process::Command;

fn skirmish() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_skirmish"));
    c.current_dir(env!("CARGO_MANIFEST_DIR"));
    c
}

/// A fresh scratch folder under the system temp dir, removed when the
/// test is done with it (even when it fails): a test run leaves nothing
/// behind.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

impl std::ops::Deref for Scratch {
    type Target = std::path::Path;
    fn deref(&self) -> &std::path::Path {
        &self.0
    }
}

impl AsRef<std::ffi::OsStr> for Scratch {
    fn as_ref(&self) -> &std::ffi::OsStr {
        self.0.as_os_str()
    }
}

impl AsRef<std::path::Path> for Scratch {
    fn as_ref(&self) -> &std::path::Path {
        &self.0
    }
}

fn scratch(name: &str) -> Scratch {
    let dir = std::env::temp_dir().join(format!("skirmish-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    Scratch(dir)
}

// Issue #2 point 8: "`skirmish check [PATH]` validates content and prints counts per kind."
#[test]
fn check_passes_on_the_shipped_content_and_prints_counts() {
    let out = skirmish().arg("check").output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for kind in ["rulesets", "classes", "abilities", "monsters", "maps"] {
        let line = stdout
            .lines()
            .find(|l| l.trim_start().starts_with(kind))
            .unwrap_or_else(|| panic!("no count for {kind} in:\n{stdout}"));
        let n: usize = line.split_whitespace().last().unwrap().parse().unwrap();
        assert!(n > 0, "{line}");
    }
}

// Issue #2 point 8: errors "each with file:line:column, and the program exits
// with code 2 instead of panicking".
#[test]
fn check_reports_every_error_and_exits_2() {
    let dir = scratch("broken");
    std::fs::create_dir_all(dir.join("abilities")).unwrap();
    std::fs::create_dir_all(dir.join("monsters")).unwrap();
    std::fs::write(
        dir.join("abilities/a.ron"),
        "[(\n  id: \"jab\",\n  name: \"Jab\",\n  action: MainAction,\n  distance: Melee(1),\n  target: (count: 1, kinds: [Creature]),\n  power_roll: (characteristics: [Might], tiers: (\"2 damage\", \"3 damag\", \"4 damage\")),\n)]",
    )
    .unwrap();
    std::fs::write(
        dir.join("monsters/m.ron"),
        "(\n  id: \"thug\",\n  name: \"Thug\",\n  level: 1,\n  role: Brute,\n  speed: 5,\n  stamina: 10,\n  characteristics: (might: 1),\n  free_strike: 2,\n  abilities: [\"jab\", \"kick\"],\n)",
    )
    .unwrap();
    let out = skirmish().arg("check").arg(&dir).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("a.ron:7:"), "the bad tier line: {stderr}");
    assert!(stderr.contains("`damag`"), "{stderr}");
    assert!(
        stderr.contains("m.ron:10:"),
        "the unknown ability: {stderr}"
    );
    assert!(stderr.contains("unknown ability id `kick`"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn a_syntax_error_names_file_line_column_and_expectation() {
    let dir = scratch("syntax");
    std::fs::create_dir_all(dir.join("rulesets")).unwrap();
    std::fs::write(
        dir.join("rulesets/r.ron"),
        "(\n  id: \"r\",\n  name: \"R\"\n  kind: PowerRoll,\n)",
    )
    .unwrap();
    let out = skirmish().arg("check").arg(&dir).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("r.ron:4:3"), "{stderr}");
    assert!(stderr.to_lowercase().contains("expected"), "{stderr}");
}

#[test]
fn a_missing_folder_is_a_clear_error() {
    let out = skirmish()
        .args(["check", "/no/such/place"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no such content folder"));
}

#[test]
fn the_client_refuses_broken_content_without_opening_a_window() {
    let dir = scratch("client-broken");
    std::fs::create_dir_all(dir.join("maps")).unwrap();
    std::fs::write(
        dir.join("maps/m.ron"),
        "(id: \"m\", name: \"M\", rows: [\"..?\"])",
    )
    .unwrap();
    let out = skirmish().arg("--assets").arg(&dir).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("m.ron:1:"));
}

// "Unknown ability or monster ids are errors at load time, not at use": a
// screenshot's --aim names an ability the content lacks.
#[test]
fn the_client_refuses_an_unknown_aim_without_opening_a_window() {
    // Refused with exit 2 before any window: what it says.
    let refused = |aim: &str| {
        let out = skirmish()
            .args(["--advance", "2", "--aim", aim])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "--aim {aim}");
        String::from_utf8_lossy(&out.stderr).to_string()
    };
    let stderr = refused("no_such_ability");
    assert!(stderr.contains("--aim no_such_ability"), "{stderr}");
    // An ability's name, as the ability bar shows it, is answered with its id.
    let stderr = refused("Brutal Slam");
    assert!(stderr.contains("`brutal_slam`"), "{stderr}");
}

// A window option before a subcommand was silently unused (`skirmish --size
// 1920x1080 replay F` opened at 1280x720): now it is a clear error.
#[test]
fn a_window_option_before_a_subcommand_is_an_error_not_ignored() {
    let out = skirmish()
        .args(["--size", "1920x1080", "replay", "no_such_replay.ron"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("--size"), "{stderr}");
    // After the subcommand it is the replay's own option (the file is then
    // reported missing).
    let out = skirmish()
        .args(["replay", "no_such_replay.ron", "--size", "1920x1080"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("no_such_replay.ron"), "{stderr}");
}

// `skirmish replay FILE` offered --encounter, --seed, --mode and --ai, which
// the file overrides: they went unused without a word. It takes the
// window's options only, and `--mode replay` (which needs a file) is not
// offered to the client.
#[test]
fn replay_takes_only_the_window_options_the_file_does_not_set() {
    let out = skirmish().args(["replay", "--help"]).output().unwrap();
    assert!(out.status.success());
    let help = String::from_utf8_lossy(&out.stdout);
    for kept in ["--size", "--pace", "--screenshot", "--advance", "--assets"] {
        assert!(help.contains(kept), "{kept} missing from:\n{help}");
    }
    for set_by_file in ["--encounter", "--seed", "--mode", "--ai", "--aim", "--menu"] {
        assert!(
            !help.contains(set_by_file),
            "{set_by_file} offered:\n{help}"
        );
    }
    let out = skirmish()
        .args(["replay", "no_such_replay.ron", "--seed", "3"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("--seed"), "{stderr}");
    let out = skirmish().args(["--help"]).output().unwrap();
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(help.contains("demo:"), "{help}");
    assert!(!help.contains("replay:"), "{help}");
    let out = skirmish().args(["--mode", "replay"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

// Issue #4 point 10: "`skirmish scenario FILE.ron` ... prints pass or fail for
// each expectation, exits non-zero if any fails, and `--json` prints the final
// state of every creature."
#[test]
fn scenario_command_passes_fails_and_prints_json() {
    let out = skirmish()
        .args(["scenario", "assets/scenarios/brutal_slam_tier1.ron"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.contains("pass  step"), "{stdout}");

    let dir = scratch("scenario");
    let bad = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("assets/scenarios/brutal_slam_tier1.ron"),
    )
    .unwrap()
    .replace("Stamina(\"Bandit\", 15)", "Stamina(\"Bandit\", 14)");
    let file = dir.join("bad.ron");
    std::fs::write(&file, bad).unwrap();
    let out = skirmish().arg("scenario").arg(&file).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("FAIL"), "{stdout}");

    let out = skirmish()
        .args([
            "scenario",
            "--json",
            "assets/scenarios/brutal_slam_tier1.ron",
        ])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let creatures = v[0]["creatures"].as_array().unwrap();
    assert_eq!(creatures.len(), 2);
    assert_eq!(creatures[1]["stamina"], 15);

    std::fs::write(dir.join("broken.ron"), "(name: \"x\", map: [").unwrap();
    let out = skirmish()
        .arg("scenario")
        .arg(dir.join("broken.ron"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("broken.ron:1:"));
}

// Issue #6 point 3: `skirmish sim --encounter FILE --heroes BRAIN --monsters
// BRAIN --games N --seed S [--jobs J]`, with `--json` for machines and
// `--replay-dir DIR` keeping the replays.
#[test]
fn sim_reports_win_rates_as_text_and_json_and_keeps_replays() {
    let dir = scratch("sim");
    let out = skirmish()
        .args([
            "sim",
            "--encounter",
            "assets/encounters/first_blood.ron",
            "--heroes",
            "greedy",
            "--monsters",
            "random",
            "--games",
            "6",
            "--seed",
            "5",
            "--jobs",
            "2",
            "--json",
            "--replay-dir",
        ])
        .arg(&dir)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["games"], 6);
    assert_eq!(v["heroes"], "greedy");
    let rate = v["heroes_rate"]["rate"].as_f64().unwrap();
    let (low, high) = (
        v["heroes_rate"]["low"].as_f64().unwrap(),
        v["heroes_rate"]["high"].as_f64().unwrap(),
    );
    assert!(low <= rate && rate <= high);
    assert!(v["creatures"]["Korva"]["dealt_per_game"].as_f64().unwrap() > 0.0);
    assert!(v["abilities"].as_object().unwrap().len() > 1);
    let kept = std::fs::read_dir(&dir).unwrap().count();
    assert_eq!(kept, 6);
    // The text report says the same in words.
    let text = skirmish()
        .args(["sim", "--encounter", "first_blood", "--games", "3"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        text.contains("heroes win") && text.contains("95% CI"),
        "{text}"
    );
    // An unknown brain is a clear error, exit 2.
    let bad = skirmish()
        .args(["sim", "--encounter", "first_blood", "--heroes", "clever"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("no brain called `clever`"));
}

// Issue #6 point 3 and DEVELOPERS.md "Bad input gets a clear error": an
// encounter that is neither a file nor a known id names the ids there are;
// a missing file is named as one; no games or no threads is refused before
// anything runs, rather than an empty report.
#[test]
fn sim_refuses_unknown_encounters_and_empty_runs_clearly() {
    let run = |args: &[&str]| {
        let out = skirmish().arg("sim").args(args).output().unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).to_string(),
        )
    };
    let (code, err) = run(&["--encounter", "keep_breech"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("no encounter `keep_breech`") && err.contains("keep_breach"),
        "{err}"
    );
    let (code, err) = run(&["--encounter", "assets/encounters/nowhere.ron"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("no encounter file `assets/encounters/nowhere.ron`"),
        "{err}"
    );
    for (flag, name) in [("--games", "games"), ("--jobs", "jobs")] {
        let (code, err) = run(&["--encounter", "first_blood", flag, "0"]);
        assert_eq!(code, Some(2), "{flag} 0: {err}");
        assert!(err.contains(name) && err.contains("0"), "{flag} 0: {err}");
    }
}

// DEVELOPERS.md "the program does not panic": with no display the window
// library panicked while the app was built; now it is an error, exit 2.
#[cfg(target_os = "linux")]
#[test]
fn the_client_without_a_display_says_so_and_does_not_panic() {
    let out = skirmish()
        .args(["--encounter", "first_blood"])
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .env_remove("WAYLAND_SOCKET")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("no display"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

// Issue 51, point 2: `sim --replay-dir` does not write over replays it
// finds (exit 2, before any game, naming the file) unless `--force`.
#[test]
fn sim_keeps_replays_it_finds_unless_forced() {
    let scratch = scratch("sim-keep");
    let dir: &std::path::Path = scratch.as_ref();
    let run = |extra: &[&str]| {
        skirmish()
            .args([
                "sim",
                "--encounter",
                "first_blood",
                "--games",
                "2",
                "--seed",
                "3",
                "--replay-dir",
            ])
            .arg(dir)
            .args(extra)
            .output()
            .unwrap()
    };
    assert!(run(&[]).status.success());
    std::fs::write(dir.join("first_blood-4.ron"), "mine").unwrap();
    let refused = run(&[]);
    assert_eq!(refused.status.code(), Some(2));
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(
        err.contains("first_blood-4.ron already exists") && err.contains("--force"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("first_blood-4.ron")).unwrap(),
        "mine"
    );
    let forced = run(&["--force", "--jobs", "9"]);
    assert!(
        forced.status.success(),
        "{}",
        String::from_utf8_lossy(&forced.stderr)
    );
    assert_ne!(
        std::fs::read_to_string(dir.join("first_blood-4.ron")).unwrap(),
        "mine"
    );
}

// Issue 51, point 3: a window larger than a GPU surface can be (16385 wide
// panicked in the graphics library) is a clear error before any window.
#[test]
fn a_window_size_past_what_a_gpu_draws_is_refused() {
    for size in ["16385x720", "1280x65536", "0x720", "1280x0"] {
        let out = skirmish().args(["--size", size]).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "--size {size}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("from 1 to 8192"), "{size}: {stderr}");
    }
}

// Issue 51, point 1: `sim --encounter FILE` validates the file as `check`
// validates the content folder (exit 2, each error located).
#[test]
fn sim_validates_an_encounter_file_before_playing_it() {
    let scratch = scratch("sim-file");
    let dir: &std::path::Path = scratch.as_ref();
    let shipped = std::fs::read_to_string("assets/encounters/first_blood.ron").unwrap();
    let file = dir.join("overlap.ron");
    std::fs::write(&file, shipped.replace("at: (1, 7)", "at: (2, 5)")).unwrap();
    let out = skirmish()
        .args(["sim", "--games", "1", "--encounter"])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("overlap.ron:12:") && stderr.contains("overlaps"),
        "{stderr}"
    );
}

// Issue 51, point 4: "The binary finds its assets beside itself or through
// SKIRMISH_ASSETS or --assets; when none is found, it says those three ways."
#[test]
fn assets_are_found_beside_the_binary_or_as_named_and_else_the_ways_are_said() {
    let dir = scratch("moved-binary");
    let bin = dir.join("skirmish");
    std::fs::copy(env!("CARGO_BIN_EXE_skirmish"), &bin).unwrap();
    let shipped = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets");
    let run = |env: Option<&std::path::Path>, args: &[&str]| {
        let mut c = Command::new(&bin);
        c.current_dir(&*dir)
            .env_remove("SKIRMISH_ASSETS")
            .args(args);
        if let Some(e) = env {
            c.env("SKIRMISH_ASSETS", e);
        }
        c.output().unwrap()
    };
    // Nothing beside it and nothing named: the three ways are said.
    let out = run(None, &["check"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    for way in ["--assets", "SKIRMISH_ASSETS", "beside the binary"] {
        assert!(err.contains(way), "{err}");
    }
    // Named by the variable, or by the flag.
    assert!(run(Some(&shipped), &["check"]).status.success());
    let flag = [
        "scenario",
        "--assets",
        shipped.to_str().unwrap(),
        "/no/such.ron",
    ];
    let out = run(None, &flag);
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("/no/such.ron"),
        "{out:?}"
    );
    // Beside it.
    let beside = dir.join("assets");
    std::os::unix::fs::symlink(&shipped, &beside).unwrap();
    assert!(run(None, &["check"]).status.success());
}

// Issue 51, point 4: "`check FILE` checks that file."
#[test]
fn check_of_a_file_checks_that_file() {
    // A file of the content folder: this one's errors only.
    let out = skirmish()
        .args(["check", "assets/monsters/bandits.ron"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("bandits.ron is valid"));
    // An encounter from elsewhere, with its mistakes located.
    let dir = scratch("check-file");
    let enc = dir.join("e.ron");
    std::fs::write(
        &enc,
        "(id: \"e\", name: \"E\", map: \"ruined_hall\",\n heroes: [(class: \"fury\", name: \"F\", at: (2, 2))],\n monsters: [(monster: \"zz_ogre\", at: (4, 4))])",
    )
    .unwrap();
    let out = skirmish().arg("check").arg(&enc).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("e.ron:3:24: encounter `e`: unknown monster id `zz_ogre`"),
        "{err}"
    );
    // A scenario: set up, not run.
    let out = skirmish()
        .args(["check", "assets/scenarios/area_cube.ron"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("valid scenario"));
    // A replay: played through, its refused command named.
    let replay = dir.join("r.ron");
    std::fs::write(
        &replay,
        "(encounter: \"keep_breach\", seed: 1, commands: [StartTurn(creature: (99))])",
    )
    .unwrap();
    let out = skirmish().arg("check").arg(&replay).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(err.contains("was refused on replay"), "{err}");
}

// Issue 52, point 4: `scenario --json` shows a minion squad's pool as every
// member's stamina (docs/rules.md#minions: one shared pool).
#[test]
fn scenario_json_shows_a_squad_s_pool_for_each_member() {
    let out = skirmish()
        .args(["scenario", "--json", "assets/scenarios/minion_squad.ron"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let creatures = v[0]["creatures"].as_array().unwrap();
    let lackeys: Vec<&serde_json::Value> = creatures.iter().filter(|c| c["squad"] == 1).collect();
    assert_eq!(lackeys.len(), 3);
    // Two fell to 8 damage; the pool holds 4 of 12, and each shows it.
    for l in &lackeys {
        assert_eq!(
            (l["stamina"].clone(), l["max_stamina"].clone()),
            (4.into(), 12.into()),
            "{l}"
        );
    }
    assert_eq!(lackeys.iter().filter(|l| l["dead"] == true).count(), 2);
}

// Issue 53 point 7: `sim --heroes exec:COMMAND` plays a side with another
// program over JSON lines (docs/python.md#external-brains); one that
// answers garbage is reported with the game's seed, the games go on, and
// the run exits 1.
#[test]
fn sim_plays_an_external_brain_and_reports_its_failures() {
    let run = |brain: &str| {
        skirmish()
            .args([
                "sim",
                "--encounter",
                "first_blood",
                "--games",
                "3",
                "--seed",
                "40",
            ])
            .args(["--heroes", brain, "--jobs", "2", "--json"])
            .output()
            .unwrap()
    };
    let good = run(r#"exec:while read line; do echo '{"index": 0}'; done"#);
    let stdout = String::from_utf8_lossy(&good.stdout);
    assert!(
        good.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&good.stderr)
    );
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["games"], 3);
    assert!(v["heroes"].as_str().unwrap().starts_with("exec:"));
    assert_eq!(v["errors"].as_array().unwrap().len(), 0);

    let bad = run("exec:while read line; do echo nonsense; done");
    assert_eq!(bad.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&bad.stdout).unwrap();
    assert_eq!(v["games"], 3, "every game played to its end");
    let errors = v["errors"].as_array().unwrap();
    assert!(!errors.is_empty());
    let first = errors[0].to_string();
    assert!(first.contains("seed 4"), "{first}");
    assert!(first.contains("answered `nonsense`"), "{first}");
}

// Issue 52 point 12: `check --strict` lists the free text of tier lines
// (shown, not carried out) with file, line and column, and exits 1; the
// shipped content has none.
#[test]
fn check_strict_lists_free_text() {
    let shipped = skirmish()
        .args(["check", "--strict", "assets"])
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&shipped.stdout);
    assert!(shipped.status.success(), "{out}");
    assert!(out.contains("no free text"), "{out}");

    let dir = scratch("strict");
    std::fs::create_dir_all(dir.join("abilities")).unwrap();
    std::fs::write(
        dir.join("abilities/odd.ron"),
        "[(id: \"odd\", name: \"Odd\", action: MainAction, distance: Ranged(5),\n  \
         target: (count: 1, kinds: [Enemy]), effect: \"2 damage; the target sings\")]\n",
    )
    .unwrap();
    let odd = skirmish()
        .args(["check", "--strict"])
        .arg(&*dir)
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&odd.stdout);
    assert_eq!(odd.status.code(), Some(1), "{out}");
    assert!(out.contains("odd.ron:2:"), "{out}");
    assert!(
        out.contains("ability `odd`, effect: \"the target sings\""),
        "{out}"
    );
}

// Issue 55 point 1: "A stat block or class with no icon named is an error
// from `skirmish check`, not a blank token" (docs/art.md).
#[test]
fn check_names_a_stat_block_without_an_icon() {
    let dir = scratch("icons");
    for sub in ["abilities", "monsters", "ui"] {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
    }
    std::fs::write(
        dir.join("abilities/a.ron"),
        "[(\n  id: \"jab\",\n  name: \"Jab\",\n  keywords: [Melee, Strike],\n  action: MainAction,\n  distance: Melee(1),\n  target: (count: 1, kinds: [Creature]),\n  power_roll: (characteristics: [Might], tiers: (\"2 damage\", \"3 damage\", \"4 damage\")),\n)]",
    )
    .unwrap();
    std::fs::write(
        dir.join("monsters/m.ron"),
        "(\n  id: \"thug\",\n  name: \"Thug\",\n  level: 1,\n  role: Brute,\n  speed: 5,\n  stamina: 10,\n  characteristics: (might: 1),\n  free_strike: 2,\n  abilities: [\"jab\"],\n)",
    )
    .unwrap();
    let shipped = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/ui");
    for f in ["tokens.ron", "icons.ron"] {
        std::fs::copy(shipped.join(f), dir.join("ui").join(f)).unwrap();
    }
    std::os::unix::fs::symlink(shipped.join("icons"), dir.join("ui/icons")).unwrap();
    let out = skirmish().arg("check").arg(&*dir).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    // At the table's `monsters:` line, naming where the stat block is.
    assert!(
        stderr.contains("ui/tokens.ron:18:1: the stat block `thug` ("),
        "{stderr}"
    );
    assert!(stderr.contains("m.ron:2) names no icon"), "{stderr}");
    // Named, it passes; the same folder without ui/ is headless content.
    let tokens = std::fs::read_to_string(dir.join("ui/tokens.ron"))
        .unwrap()
        .replace("monsters: {", "monsters: {\n        \"thug\": \"kraken\",");
    std::fs::write(dir.join("ui/tokens.ron"), tokens).unwrap();
    let out = skirmish().arg("check").arg(&*dir).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("the icon `kraken` has no"), "{stderr}");
    let tokens = std::fs::read_to_string(dir.join("ui/tokens.ron"))
        .unwrap()
        .replace("\"kraken\"", "\"bandit\"");
    std::fs::write(dir.join("ui/tokens.ron"), tokens).unwrap();
    let out = skirmish().arg("check").arg(&*dir).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
