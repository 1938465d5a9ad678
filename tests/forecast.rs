//! `skirmish forecast` end to end (issue 54, point 2), and an encounter
//! saved in the user's folder taken by id and by `check` (point 3).

use std::process::Command;

fn skirmish() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_skirmish"));
    c.current_dir(env!("CARGO_MANIFEST_DIR"));
    c
}

fn scratch(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("skirmish-forecast-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn forecast_prints_the_win_rate_its_interval_and_who_falls() {
    let out = skirmish()
        .args(["forecast", "first_blood", "--games", "24", "--json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["games"], 24);
    assert_eq!(v["cancelled"], false);
    let (rate, low, high) = (
        v["heroes_win"]["rate"].as_f64().unwrap(),
        v["heroes_win"]["low"].as_f64().unwrap(),
        v["heroes_win"]["high"].as_f64().unwrap(),
    );
    assert!(low <= rate && rate <= high && high - low > 0.05, "{v}");
    assert!(v["rounds_mean"].as_f64().unwrap() >= 1.0);
    // Everyone in the fight, most likely to fall first.
    let falls = v["falls"].as_array().unwrap();
    assert!(falls.len() >= 7, "{falls:?}");
    let chances: Vec<f64> = falls
        .iter()
        .map(|f| f["chance"].as_f64().unwrap())
        .collect();
    assert!(chances.windows(2).all(|w| w[0] >= w[1]), "{chances:?}");
    assert_eq!(v["budget"]["band"], "Standard");
    // The same forecast twice: the same figures.
    let again = skirmish()
        .args([
            "forecast",
            "first_blood",
            "--games",
            "24",
            "--json",
            "--jobs",
            "1",
        ])
        .output()
        .unwrap();
    assert_eq!(out.stdout, again.stdout);
    // As text, for a person.
    let text = skirmish()
        .args(["forecast", "first_blood", "--games", "12"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&text.stdout);
    for needle in [
        "heroes win",
        "95% interval",
        "rounds",
        "most likely to fall",
        "budget",
    ] {
        assert!(text.contains(needle), "{needle}: {text}");
    }
}

#[test]
fn forecast_refuses_what_it_cannot_play() {
    let out = skirmish()
        .args(["forecast", "no_such_fight"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("no encounter `no_such_fight`") && err.contains("first_blood"),
        "{err}"
    );
    let out = skirmish()
        .args(["forecast", "first_blood", "--games", "0"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = skirmish()
        .args(["forecast", "missing/file.ron"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no encounter file"));
}

#[test]
fn an_encounter_saved_in_the_user_folder_is_taken_by_id_and_checked() {
    let data = scratch("data");
    let dir = data.join("encounters");
    std::fs::create_dir_all(&dir).unwrap();
    let built = r#"// Built.
#![enable(implicit_some)]
(
    id: "cellar_rats",
    name: "Cellar Rats",
    ruleset: "power_roll",
    map: "tavern",
    heroes: [
        (class: "fury", name: "Korva", at: (2, 5)),
    ],
    monsters: [
        (monster: "bandit_lackey", squad: 1, at: (10, 5)),
        (monster: "bandit_lackey", squad: 1, at: (10, 6)),
    ],
    objective: Survive(rounds: 3),
)
"#;
    let file = dir.join("cellar_rats.ron");
    std::fs::write(&file, built).unwrap();
    let out = skirmish()
        .arg("check")
        .arg(&file)
        .env("SKIRMISH_DATA", &data)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = skirmish()
        .args(["forecast", "cellar_rats", "--games", "8", "--json"])
        .env("SKIRMISH_DATA", &data)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["encounter"], "cellar_rats");
    // A broken one is named with its line and column.
    std::fs::write(
        &file,
        built.replace("Survive(rounds: 3)", "Survive(rounds: 0)"),
    )
    .unwrap();
    let out = skirmish()
        .args(["forecast", "cellar_rats"])
        .env("SKIRMISH_DATA", &data)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("cellar_rats.ron:") && err.contains("at least 1 round"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&data);
}
