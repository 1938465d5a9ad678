//! The engine's layers stay strict (issue 48, point 5): `content` holds
//! every data definition it loads and depends on neither the AI nor the
//! encounter; the AI and the simulator go through the encounter's public
//! face, never its internals.

use std::path::Path;

/// The non-comment lines of the crate's files under `dir` (tests aside)
/// that name any of `forbidden`.
fn uses(dir: &str, forbidden: &[&str]) -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src").join(dir);
    let mut files = vec![root.with_extension("rs")];
    if let Ok(entries) = std::fs::read_dir(&root) {
        files.extend(entries.flatten().map(|e| e.path()));
    }
    let mut out = Vec::new();
    for f in files {
        let name = f.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if !name.ends_with(".rs") || name == "tests.rs" {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(&f) else {
            continue;
        };
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            if forbidden.iter().any(|x| code.contains(x)) {
                out.push(format!("{}:{}: {}", f.display(), n + 1, line.trim()));
            }
        }
    }
    out
}

#[test]
fn content_depends_on_neither_the_ai_nor_the_encounter() {
    let found = uses(
        "content",
        &[
            "crate::ai",
            "crate::encounter",
            "super::ai",
            "super::encounter",
        ],
    );
    assert!(found.is_empty(), "{}", found.join("\n"));
    // The check reads real files: the encounter definitions are there.
    let here = uses("content", &["pub struct EncounterDef"]);
    assert_eq!(here.len(), 1, "{here:?}");
}

/// Every `encounter::module::` path in the code of the files under `dir`
/// (relative to this crate), recursively: a reach past the facade.
fn reaches_inside(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(reaches_inside(&p));
            continue;
        }
        if p.extension().and_then(|x| x.to_str()) != Some("rs") {
            continue;
        }
        let text = std::fs::read_to_string(&p).unwrap_or_default();
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            let mut rest = code;
            while let Some(i) = rest.find("encounter::") {
                rest = &rest[i + "encounter::".len()..];
                let word: String = rest
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                let lower = word.chars().next().is_some_and(|c| c.is_ascii_lowercase());
                if lower && rest[word.len()..].starts_with("::") {
                    out.push(format!("{}:{}: {}", p.display(), n + 1, line.trim()));
                }
            }
        }
    }
    out
}

#[test]
fn the_ai_the_simulator_and_the_client_use_the_encounters_face() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut found = Vec::new();
    for dir in [
        root.join("src/ai"),
        root.join("src/sim"),
        root.join("../../src"),
    ] {
        assert!(dir.is_dir(), "{}", dir.display());
        found.extend(reaches_inside(&dir));
    }
    assert!(found.is_empty(), "past the facade:\n{}", found.join("\n"));
}

#[test]
fn the_speed_machinery_knows_no_rule() {
    // `crate::fast` serves the rules without naming any of them (issue 48,
    // point 4): what it keeps or hands over is generic, named by the
    // rules code that uses it.
    let found = uses(
        "fast",
        &[
            "crate::encounter",
            "crate::map",
            "crate::ability",
            "crate::conditions",
            "crate::power_roll",
            "crate::ai",
            "crate::sim",
            "super::super",
        ],
    );
    assert!(found.is_empty(), "{}", found.join("\n"));
    // The check reads real files: the fence's entries are there.
    assert_eq!(uses("fast", &["pub(crate) fn hand_over"]).len(), 1);
    assert_eq!(uses("fast", &["pub(crate) fn run_in_order"]).len(), 1);
    assert_eq!(uses("fast", &["pub(crate) fn take_kept"]).len(), 1);
}

#[test]
fn resolution_never_asks_which_ruleset_is_played() {
    // The phased 2d6 rules plug in through the `Ruleset` seam (issue 48,
    // point 3): resolution, the listing and the turn flow call the
    // encounter's ruleset, and never branch on the phased one.
    let asks = [
        "ruleset::phased",
        "Phased2d6",
        "flow.phased",
        ".phased.as_ref",
        "phased::Stage",
        "phased::rules",
    ];
    let mut found = Vec::new();
    for dir in ["encounter/resolve", "encounter/listing"] {
        found.extend(uses(dir, &asks));
    }
    for file in [
        "encounter/flow",
        "encounter/concentration",
        "encounter/preview",
        "encounter/aura",
        "encounter/summon",
        "encounter/glyph",
        "encounter/gather",
    ] {
        found.extend(uses(file, &asks));
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
    // The check reads real files: the seam is there, and the phased rules
    // implement it.
    assert_eq!(
        uses("encounter/ruleset", &["pub(crate) trait Ruleset"]).len(),
        1
    );
    assert_eq!(
        uses("encounter/ruleset", &["impl super::Ruleset for Phased"]).len(),
        1
    );
}

#[test]
fn refusals_are_decided_in_check_and_nowhere_in_resolve() {
    // Issue 48, point 2: `encounter/check` decides whether a command is
    // refused; `resolve` carries out what it checked and refuses nothing.
    let found = uses("encounter/resolve", &["Refusal::", "Err(Refusal"]);
    assert!(found.is_empty(), "{}", found.join("\n"));
    // The check reads real files: the refusals are in the check.
    assert!(uses("encounter/check", &["Err(Refusal::"]).len() > 20);
}
