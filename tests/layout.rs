//! The board first (issue 49, point 1): at 1280x720, 1920x1080 and
//! 3840x2160, at UI scales 1.0 and 1.5, in solo, hot-seat and demo, the
//! window's own layout report must show the whole map as large as the
//! board holds it (issue 72), tokens of at least 48 px at 1080p, no panel over the board,
//! and no text that overflows, is clipped, sticks out of its panel or lies
//! over another. The client runs in this process, headless
//! (`skirmish::client::testing`): the same plugins and layout as the
//! window, without a GPU. That the real window takes the keyboard, and
//! draws what is laid out, is `tests/screenshot.rs`'s.

use skirmish::client::report::Report;
use skirmish::client::testing::Playtest;

const SIZES: [&str; 3] = ["1280x720", "1920x1080", "3840x2160"];
const SCALES: [&str; 2] = ["1.0", "1.5"];

/// What is wrong with `report` of the window at `size` and `scale`.
fn problems(at: &str, size: &str, scale: &str, report: &Report) -> Vec<String> {
    let mut failures = Vec::new();
    // The whole map in the board, as large as the board holds it (issue
    // 72, point 1; the report flags a map past the board's edges).
    let (m, b) = (report.map, report.board);
    if (m.w - b.w).abs() > 2.0 && (m.h - b.h).abs() > 2.0 {
        failures.push(format!(
            "{at}: the map {m:?} fills neither way of the board {b:?}"
        ));
    }
    let height: f32 = size.split('x').nth(1).unwrap().parse().unwrap();
    let token = report.token_px;
    if token < 48.0 * height / 1080.0 {
        failures.push(format!("{at}: tokens are {token:.1} px"));
    }
    for p in &report.problems {
        failures.push(format!("{at}: {p}"));
    }
    // The report saw the panels and their text at all.
    if report.texts.len() <= 5 {
        failures.push(format!("{at}: {} texts", report.texts.len()));
    }
    // The roster shows, or (one column: a large UI scale on a small
    // window) is folded away and the header has the column's top.
    let compact = report.compact;
    if compact != (scale == "1.5") {
        failures.push(format!("{at}: compact layout is {compact}"));
    }
    let panel = if compact { "Header" } else { "Roster" };
    if !report.texts.iter().any(|t| t.panel == panel) {
        failures.push(format!("{at}: no {panel} text"));
    }
    failures
}

/// The layout report of the client opened with `args` at every size and
/// scale, checked.
fn check_everywhere(name: &str, args: &[&str]) {
    let mut failures = Vec::new();
    for size in SIZES {
        for scale in SCALES {
            let mut all: Vec<&str> = args.to_vec();
            all.extend(["--size", size, "--ui-scale", scale]);
            let at = format!("{name} at {size} x{scale}");
            let mut t = Playtest::new(&all).unwrap_or_else(|e| panic!("{at}: {e}"));
            t.frames(30);
            failures.extend(problems(&at, size, scale, &t.report()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn solo_with_a_long_ability_bar_keeps_the_board_clear() {
    // A grabbed, prone hero's bar grew a fourth row over the board.
    check_everywhere(
        "solo",
        &[
            "--encounter",
            "wolf_pack",
            "--advance",
            "6",
            "--aim",
            "censor_sentence",
        ],
    );
}

#[test]
fn hot_seat_aiming_keeps_the_board_clear() {
    check_everywhere(
        "hotseat",
        &[
            "--mode",
            "hotseat",
            "--advance",
            "4",
            "--aim",
            "drive_them_back",
        ],
    );
}

#[test]
fn a_demo_mid_fight_keeps_the_board_clear() {
    // The top bar wrapped over the board here.
    check_everywhere(
        "demo",
        &[
            "--mode",
            "demo",
            "--encounter",
            "phased_ambush",
            "--advance",
            "12",
        ],
    );
}

// Issue 49, point 7: with the picker open, every panel keeps clicks to
// itself (a gap between two rows let them through to the ability bar).
#[test]
fn the_picker_keeps_its_clicks_and_fits() {
    check_everywhere(
        "picker",
        &["--menu", "--advance", "6", "--encounter", "wolf_pack"],
    );
}

/// The binary's exit code and error text, run with `args` (no window
/// opens: these are refused before one would).
fn refused(args: &[&str]) -> (Option<i32>, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_skirmish"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

// Bad input loses nothing: an existing report or picture is never
// overwritten, a picture is a PNG in a folder that exists, and a picture
// taken before the window has drawn (all black) is refused.
#[test]
fn the_window_outputs_overwrite_nothing() {
    let dir = std::env::temp_dir().join(format!("skirmish-keep-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let kept = dir.join("keep.png");
    std::fs::write(&kept, "keep me").unwrap();
    let k = kept.to_string_lossy().into_owned();
    for flag in ["--layout-json", "--screenshot"] {
        let (code, err) = refused(&[flag, &k]);
        assert_eq!(code, Some(2), "{flag}: {err}");
        assert!(err.contains("already exists"), "{flag}: {err}");
    }
    assert_eq!(std::fs::read_to_string(&kept).unwrap(), "keep me");
    let txt = dir.join("shot.txt").to_string_lossy().into_owned();
    let (code, err) = refused(&["--screenshot", &txt]);
    assert_eq!(code, Some(2));
    assert!(err.contains(".png"), "{err}");
    let nowhere = dir
        .join("no/such/folder/shot.png")
        .to_string_lossy()
        .into_owned();
    let (code, err) = refused(&["--screenshot", &nowhere]);
    assert_eq!(code, Some(2));
    assert!(err.contains("no folder"), "{err}");
    let fresh = dir.join("fresh.png").to_string_lossy().into_owned();
    let (code, err) = refused(&["--screenshot", &fresh, "--after-frames", "1"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("at least 3"), "{err}");
    assert!(!dir.join("fresh.png").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}
