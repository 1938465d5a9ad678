//! `skirmish scenario FILE...`: run scripted scenarios and report each expectation.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use skirmish_rules::content::{ContentDb, ron_files};
use skirmish_rules::scenario::{Scenario, ScenarioError};

pub fn run(paths: &[PathBuf], json: bool, assets: &Path) -> ExitCode {
    let content = match ContentDb::load(assets) {
        Ok(c) => c,
        Err(errors) => {
            for e in &errors.0 {
                eprintln!("error: {e}");
            }
            return ExitCode::from(2);
        }
    };
    let mut files = Vec::new();
    for p in paths {
        if p.is_dir() {
            let (found, unreadable) = ron_files(p);
            for e in &unreadable {
                eprintln!("error: {e}");
            }
            if !unreadable.is_empty() {
                return ExitCode::from(2);
            }
            files.extend(found);
        } else {
            files.push(p.clone());
        }
    }
    if files.is_empty() {
        eprintln!("error: no scenario files given");
        return ExitCode::from(2);
    }
    let (mut passed, mut failed, mut broken) = (0, 0, 0);
    let mut reports = Vec::new();
    for f in &files {
        let scenario = match Scenario::load(f) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("error: {e}");
                broken += 1;
                continue;
            }
        };
        match scenario.run(&content) {
            // (Located errors name the file themselves.)
            Err(e @ ScenarioError::Setup(_)) => {
                eprintln!("error: {}: {e}", f.display());
                broken += 1;
            }
            Err(e) => {
                eprintln!("error: {e}");
                broken += 1;
            }
            Ok(report) => {
                if !json {
                    println!("{} ({})", report.name, f.display());
                    for c in &report.checks {
                        let mark = if c.passed { "pass" } else { "FAIL" };
                        println!("  {mark}  step {:>2}: {}  [{}]", c.step, c.what, c.detail);
                        // A failure names where its step is written.
                        if !c.passed
                            && let Some((line, column)) = step_place(&scenario, c.step)
                        {
                            println!("        at {}:{line}:{column}", f.display());
                        }
                    }
                }
                if report.passed() {
                    passed += 1;
                } else {
                    failed += 1;
                }
                reports.push(serde_json::json!({
                    "file": f.display().to_string(),
                    "name": report.name,
                    "passed": report.passed(),
                    "checks": report.checks,
                    "creatures": report.creatures,
                }));
            }
        }
    }
    if json {
        println!(
            "{}",
            serde_json::to_string_pretty(&reports).unwrap_or_default()
        );
    } else {
        if broken > 0 {
            println!("scenarios: {passed} passed, {failed} failed, {broken} could not run");
        } else {
            println!("scenarios: {passed} passed, {failed} failed");
        }
    }
    if broken > 0 {
        ExitCode::from(2)
    } else if failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// Where step `n` (counted from 1) of a scenario read from a file is
/// written: its line and column.
fn step_place(scenario: &Scenario, n: usize) -> Option<(usize, usize)> {
    let (_, src) = scenario.source.as_ref()?;
    let loc = skirmish_rules::content::Locator::new(src);
    loc.find_item("steps", n.checked_sub(1)?)
        .map(|o| loc.position(o))
}
