//! The engine's layers stay strict (issue 48, point 5): `content` holds
//! every data definition it loads and depends on neither the AI nor the
//! encounter; the AI and the simulator go through the encounter's public
//! face, never its internals.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The non-comment lines of the crate's files under `dir` (tests aside)
/// that name any of `forbidden`.
fn uses(dir: &str, forbidden: &[&str]) -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src").join(dir);
    // The module's file and every file under its folder (its tests aside).
    let mut files = vec![root.with_extension("rs")];
    collect_rust(&root, &mut files);
    let mut out = Vec::new();
    for f in files {
        let name = f.file_name().and_then(|n| n.to_str()).unwrap_or("");
        let in_tests = f.components().any(|c| c.as_os_str() == "tests");
        if !name.ends_with(".rs") || name == "tests.rs" || in_tests {
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
        "rulesets::phased",
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
        uses("encounter/rulesets", &["impl super::Ruleset for Phased"]).len(),
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

/// The modules under `src/<dir>` (each file or folder directly in it) and,
/// for each, the others of them its code names (`crate::<dir>::x`, or
/// `super::x` from as deep as the file stands), tests aside.
fn module_graph(dir: &str) -> BTreeMap<String, BTreeSet<String>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src").join(dir);
    let mut modules = BTreeSet::new();
    for e in std::fs::read_dir(&root).expect("a source folder").flatten() {
        let p = e.path();
        let name = p
            .file_stem()
            .and_then(|n| n.to_str())
            .unwrap_or("")
            .to_string();
        let rust = p.extension().is_some_and(|x| x == "rs");
        if (p.is_dir() || rust) && !matches!(name.as_str(), "mod" | "lib" | "main" | "tests") {
            modules.insert(name);
        }
    }
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut files = Vec::new();
    collect_rust(&root, &mut files);
    for f in files {
        let rel = f.strip_prefix(&root).expect("under the root");
        let parts: Vec<&str> = rel.iter().filter_map(|p| p.to_str()).collect();
        if parts.iter().any(|p| *p == "tests" || *p == "tests.rs") {
            continue;
        }
        let Some(first) = parts.first() else { continue };
        let me = first.trim_end_matches(".rs").to_string();
        if !modules.contains(&me) {
            continue; // the folder's own mod.rs (the facade)
        }
        // How many `super::` reach the folder: a file directly in it needs
        // one, a file in a subfolder two (its mod.rs one).
        let depth = parts.len() - usize::from(parts.last() == Some(&"mod.rs"));
        let text = std::fs::read_to_string(&f).unwrap_or_default();
        let code = text.split("#[cfg(test)]\nmod tests").next().unwrap_or("");
        let mut prefixes = vec![if dir.is_empty() {
            "crate::".to_string()
        } else {
            format!("crate::{}::", dir.replace('/', "::"))
        }];
        if depth >= 1 {
            prefixes.push("super::".repeat(depth));
        }
        let out = graph.entry(me.clone()).or_default();
        for line in code.lines() {
            let line = line.split("//").next().unwrap_or("");
            for prefix in &prefixes {
                let mut rest = line;
                while let Some(i) = rest.find(prefix.as_str()) {
                    let before = rest[..i].chars().last();
                    rest = &rest[i + prefix.len()..];
                    if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                        continue;
                    }
                    let word: String = rest
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect();
                    if word != me && modules.contains(&word) {
                        out.insert(word);
                    }
                }
            }
        }
    }
    graph
}

fn collect_rust(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            collect_rust(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// A circle of imports in `graph`, as the modules on it, if there is one.
fn circle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        at: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(i) = path.iter().position(|p| p == at) {
            let mut c = path[i..].to_vec();
            c.push(at.to_string());
            return Some(c);
        }
        if done.contains(at) {
            return None;
        }
        path.push(at.to_string());
        for next in graph.get(at).into_iter().flatten() {
            if let Some(c) = visit(next, graph, path, done) {
                return Some(c);
            }
        }
        path.pop();
        done.insert(at.to_string());
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|m| visit(m, graph, &mut Vec::new(), &mut done))
}

#[test]
fn the_encounters_modules_import_one_way() {
    // Issue 70, point 2: state, world, the ruleset seam, check, resolve,
    // the stack, reactions, the flow, the listing and the log import one
    // way, with no circle among them or the rest of `encounter/`.
    let graph = module_graph("encounter");
    assert_eq!(circle(&graph), None, "{graph:#?}");
    // The reading finds the imports that are there: the loop calls the
    // checks and resolution, the flow calls resolution.
    for (from, to) in [
        ("stack", "resolve"),
        ("resolve", "check"),
        ("flow", "resolve"),
    ] {
        assert!(graph[from].contains(to), "{from} -> {to}: {graph:#?}");
    }
    // ... and would see a circle: two modules naming each other.
    let mut bent = graph.clone();
    bent.get_mut("state").unwrap().insert("stack".into());
    assert!(circle(&bent).is_some());
}

#[test]
fn the_crates_top_modules_import_one_way() {
    let graph = module_graph("");
    assert_eq!(circle(&graph), None, "{graph:#?}");
    assert!(graph["encounter"].contains("content"), "{graph:#?}");
    assert!(graph["ai"].contains("encounter"), "{graph:#?}");
}

#[test]
fn each_stage_imports_only_what_is_below_it() {
    let graph = module_graph("encounter");
    // The state imports nothing above it: only the log, below everything.
    let state: Vec<&String> = graph["state"].iter().collect();
    assert_eq!(state, ["log"], "state imports {state:?}");
    // The checks decide before anything is carried out.
    assert!(!graph["check"].contains("resolve"), "{:?}", graph["check"]);
    // The turn flow calls resolution, and nothing of resolution calls it
    // back; the seam sits below all who call it.
    for stage in [
        "state", "world", "ruleset", "check", "react", "resolve", "stack",
    ] {
        assert!(!graph[stage].contains("flow"), "{stage} -> flow");
    }
    for callee in ["check", "resolve", "stack", "flow", "listing", "rulesets"] {
        assert!(!graph["ruleset"].contains(callee), "ruleset -> {callee}");
    }
}

#[test]
fn nothing_in_the_engine_re_exports_a_glob() {
    let mut files = Vec::new();
    collect_rust(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut files,
    );
    assert!(files.len() > 20, "{files:?}");
    let mut found = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap_or_default();
        for (n, line) in text.lines().enumerate() {
            let l = line.trim_start();
            if l.starts_with("pub") && l.contains(" use ") && l.trim_end().ends_with("::*;") {
                found.push(format!("{}:{}: {}", f.display(), n + 1, l));
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

/// A file of the engine reads in one sitting: at most 800 lines before its
/// tests (a `#[cfg(test)]` item, or a file of tests).
#[test]
fn no_engine_file_is_over_800_lines() {
    let mut files = Vec::new();
    collect_rust(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut files,
    );
    assert!(files.len() > 50, "{files:?}");
    let mut long = Vec::new();
    for f in files {
        let path = f.to_string_lossy().replace('\\', "/");
        if path.contains("/tests/") || path.ends_with("/tests.rs") {
            continue;
        }
        let text = std::fs::read_to_string(&f).unwrap_or_default();
        let lines = text
            .lines()
            .take_while(|l| !l.starts_with("#[cfg(test)]"))
            .count();
        if lines > 800 {
            long.push(format!("{path}: {lines} lines"));
        }
    }
    assert!(long.is_empty(), "{}", long.join("\n"));
}

/// The body of each function in `text` (before its tests) that runs over
/// `limit` lines, from its `fn` line to the closing brace at its indent:
/// `(name, lines, first line)`.
fn long_functions(text: &str, limit: usize) -> Vec<(String, usize, usize)> {
    let lines: Vec<&str> = text
        .lines()
        .take_while(|l| !l.starts_with("#[cfg(test)]"))
        .collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let trimmed = line.trim_start();
        let indent = &line[..line.len() - trimmed.len()];
        let head = [
            "pub ",
            "pub(crate) ",
            "pub(super) ",
            "const ",
            "async ",
            "unsafe ",
        ]
        .iter()
        .fold(trimmed, |t, p| t.strip_prefix(p).unwrap_or(t));
        let Some(rest) = head.strip_prefix("fn ") else {
            continue;
        };
        // A declaration without a body (a trait's) has none to measure.
        if line.trim_end().ends_with(';') {
            continue;
        }
        let name: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let close = format!("{indent}}}");
        let Some(end) = lines[i..].iter().position(|l| l.trim_end() == close) else {
            continue;
        };
        if end + 1 > limit {
            out.push((name, end + 1, i + 1));
        }
    }
    out
}

/// A function of the engine reads on a screen or two: at most 120 lines
/// (the engine-loop issue, point 4), tests aside.
#[test]
fn no_engine_function_is_over_120_lines() {
    let mut files = Vec::new();
    collect_rust(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut files,
    );
    let mut long = Vec::new();
    for f in files {
        let path = f.to_string_lossy().replace('\\', "/");
        if path.contains("/tests/") || path.ends_with("/tests.rs") {
            continue;
        }
        let text = std::fs::read_to_string(&f).unwrap_or_default();
        for (name, lines, at) in long_functions(&text, 120) {
            long.push(format!("{path}:{at}: fn {name}: {lines} lines"));
        }
    }
    assert!(long.is_empty(), "{}", long.join("\n"));
}

// The measure itself: a function's lines run from `fn` to its brace.
#[test]
fn a_long_function_is_measured_from_fn_to_its_brace() {
    let body = "    x();\n".repeat(130);
    let text = format!(
        "fn short() {{\n}}\n\npub(crate) fn long() {{\n{body}}}\n\ntrait T {{\n    fn f();\n}}\n"
    );
    assert_eq!(
        long_functions(&text, 120),
        vec![("long".to_string(), 132, 4)]
    );
    assert!(long_functions(&text, 132).is_empty());
}
