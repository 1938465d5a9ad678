//! The window played as a person plays it (issue 72): the client's real
//! app, headless in this process (`skirmish::client::testing::Playtest`),
//! driven by pointer and keys frame by frame, with assertions on what is
//! on screen.

use skirmish::client::testing::Playtest;

/// Every ability button of the acting creature shows its key and its name
/// beside its icon (issue 72, point 2: the names were drawn at no width),
/// in solo and demo, at every size.
#[test]
fn ability_buttons_show_their_key_and_name() {
    let mut failures = Vec::new();
    for size in ["1280x720", "1920x1080", "3840x2160"] {
        for mode in ["solo", "demo"] {
            let args = [
                "--encounter",
                "wolf_pack",
                "--mode",
                mode,
                "--advance",
                "9",
                "--size",
                size,
            ];
            let mut t = Playtest::new(&args).unwrap_or_else(|e| panic!("{size} {mode}: {e}"));
            t.frames(20);
            // The acting creature's buttons, as the bar makes them.
            let labels = t.ability_labels();
            if labels.is_empty() {
                failures.push(format!("{size} {mode}: no acting creature's abilities"));
            }
            let texts = t.texts();
            // Each one drawn, or (the last ones of a long bar) behind the
            // "more" cue.
            let more = texts.iter().any(|s| s.text.contains("more: scroll"));
            let mut hidden = false;
            for label in &labels {
                match texts.iter().find(|s| &s.text == label) {
                    Some(s) if s.rect.width() > 20.0 && s.rect.height() > 5.0 && !hidden => {}
                    Some(s) => {
                        failures.push(format!("{size} {mode}: {label:?} drawn at {:?}", s.rect))
                    }
                    None if more => hidden = true,
                    None => failures.push(format!("{size} {mode}: no {label:?} on screen")),
                }
            }
            // ... and over nothing else (a long word ran into the price).
            let report = t.report();
            for p in &report.problems {
                if labels.iter().any(|l| p.contains(&format!("{l:?}"))) {
                    failures.push(format!("{size} {mode}: {p}"));
                }
            }
            if labels.len() > 1 && !texts.iter().any(|s| s.text == labels[0]) {
                failures.push(format!("{size} {mode}: not even the first button shows"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The whole map shows at the start and after F ("fit"), at every size and
/// UI scale (issue 72, point 1: the camera fitted the map's height only,
/// and at 16:9 a wide map lost a third of its columns).
#[test]
fn the_whole_map_shows_at_the_start_and_after_fit() {
    let mut failures = Vec::new();
    for encounter in [
        "bridge_crossing",
        "goblin_warren",
        "wyrm_lair",
        "storm_peak",
    ] {
        for size in ["1280x720", "1920x1080", "3840x2160"] {
            for scale in ["1.0", "1.5"] {
                let at = format!("{encounter} at {size} x{scale}");
                let args = [
                    "--encounter",
                    encounter,
                    "--size",
                    size,
                    "--ui-scale",
                    scale,
                ];
                let mut t = Playtest::new(&args).unwrap_or_else(|e| panic!("{at}: {e}"));
                t.frames(10);
                // Dismiss the briefing as a player does, then look.
                t.press(bevy::input::keyboard::KeyCode::Space);
                t.frames(5);
                let whole = |t: &mut Playtest, when: &str, failures: &mut Vec<String>| {
                    let r = t.report();
                    let (m, b) = (r.map, r.board);
                    let inside = m.x >= b.x - 1.0
                        && m.y >= b.y - 1.0
                        && m.x + m.w <= b.x + b.w + 1.0
                        && m.y + m.h <= b.y + b.h + 1.0;
                    let fills = (m.w - b.w).abs() < 2.0 || (m.h - b.h).abs() < 2.0;
                    if !inside || !fills {
                        failures.push(format!("{at} {when}: map {m:?} in board {b:?}"));
                    }
                    failures.extend(
                        r.problems
                            .iter()
                            .filter(|p| p.contains("the map reaches"))
                            .map(|p| format!("{at} {when}: {p}")),
                    );
                };
                whole(&mut t, "at the start", &mut failures);
                // Pan and zoom away with the keys, then F brings it back.
                for _ in 0..10 {
                    t.press(bevy::input::keyboard::KeyCode::KeyD);
                    t.frames(1);
                }
                t.press(bevy::input::keyboard::KeyCode::KeyF);
                t.frames(30);
                whole(&mut t, "after F", &mut failures);
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
