//! Issue 51, point 6: the kept corpus of bad inputs. Each file under
//! `tests/bad_inputs/` is one case: malformed content, scenarios, replays
//! and saves, encounter files and command lines. Its header says how to
//! run it and what must come of it:
//!
//! ```text
//! // run: check {content}         the arguments (split on spaces)
//! // put: monsters/zz.ron         content cases: this file goes there in a
//! //                              copy of the shipped content
//! // make: taken.png              a file made in the working folder first
//! // exit: 2                      the exit code
//! // says: {put}:6:5: stamina     text the error output must hold
//! ```
//!
//! Placeholders: `{content}` the content copy (also `SKIRMISH_ASSETS`),
//! `{put}` the path it was put at, `{case}` this file (copied into the
//! working folder), `{work}` the working folder. Every case must exit as
//! said, say each `says` (the cause and its file:line:column), not
//! panic, and write nothing: the working folder and the content copy are
//! the same after as before.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

const CONTENT_FOLDERS: [&str; 10] = [
    "abilities",
    "ai",
    "ancestries",
    "classes",
    "encounters",
    "kits",
    "maps",
    "monsters",
    "rulesets",
    "ui",
];

struct Case {
    name: String,
    run: Vec<String>,
    put: Option<String>,
    make: Vec<String>,
    exit: i32,
    says: Vec<String>,
    text: String,
}

fn parse(path: &Path) -> Case {
    let text = std::fs::read_to_string(path).unwrap();
    let mut case = Case {
        name: path.file_name().unwrap().to_string_lossy().into_owned(),
        run: Vec::new(),
        put: None,
        make: Vec::new(),
        exit: -1,
        says: Vec::new(),
        text: text.clone(),
    };
    for line in text.lines() {
        let Some(rest) = line.trim_start_matches('\u{feff}').strip_prefix("// ") else {
            continue;
        };
        let Some((key, value)) = rest.split_once(": ") else {
            continue;
        };
        let value = value.trim().to_string();
        match key {
            "run" => case.run = value.split(' ').map(String::from).collect(),
            "put" => case.put = Some(value),
            "make" => case.make.push(value),
            "exit" => case.exit = value.parse().unwrap(),
            "says" => case.says.push(value),
            _ => {}
        }
    }
    assert!(!case.run.is_empty(), "{}: no `// run:` line", case.name);
    assert!(case.exit >= 0, "{}: no `// exit:` line", case.name);
    assert!(!case.says.is_empty(), "{}: no `// says:` line", case.name);
    case
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let (p, q) = (e.path(), to.join(e.file_name()));
        if p.is_dir() {
            copy_dir(&p, &q);
        } else {
            std::fs::copy(&p, &q).unwrap();
        }
    }
}

/// Every file under `dir` with its size and contents' length, to see that
/// nothing was written.
fn listing(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() && !p.is_symlink() {
                stack.push(p);
            } else {
                out.insert(p.clone(), std::fs::read(&p).unwrap_or_default());
            }
        }
    }
    out
}

fn cases() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bad_inputs");
    let mut files = Vec::new();
    let mut stack = vec![root];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                files.push(p);
            }
        }
    }
    files.sort();
    files
}

/// Run one case; what went wrong with it, if anything.
fn run_case(path: &Path, shipped: &Path, scratch: &Path) -> Result<(), String> {
    let case = parse(path);
    // (Cases of two folders may share a name: each has a folder of its own.)
    let kind = path
        .parent()
        .and_then(|p| p.file_name())
        .unwrap_or_default();
    let here = scratch.join(kind).join(case.name.replace('.', "_"));
    let work = here.join("work");
    let content = here.join("content");
    std::fs::create_dir_all(&work).unwrap();
    for folder in CONTENT_FOLDERS {
        copy_dir(&shipped.join(folder), &content.join(folder));
    }
    let put = case.put.as_ref().map(|p| {
        let at = content.join(p);
        std::fs::create_dir_all(at.parent().unwrap()).unwrap();
        std::fs::write(&at, &case.text).unwrap();
        at
    });
    let file = work.join(&case.name);
    std::fs::write(&file, &case.text).unwrap();
    for m in &case.make {
        std::fs::write(work.join(m), "kept").unwrap();
    }
    let fill = |s: &str| {
        s.replace("{content}", &content.display().to_string())
            .replace(
                "{put}",
                &put.as_ref()
                    .map(|p| p.display().to_string())
                    .unwrap_or_default(),
            )
            .replace("{case}", &file.display().to_string())
            .replace("{work}", &work.display().to_string())
    };
    let before = (listing(&work), listing(&content));
    let out = Command::new(env!("CARGO_BIN_EXE_skirmish"))
        .args(case.run.iter().map(|a| fill(a)))
        .current_dir(&work)
        .env("SKIRMISH_ASSETS", &content)
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .unwrap();
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stderr),
        String::from_utf8_lossy(&out.stdout)
    );
    let mut wrong = Vec::new();
    if out.status.code() != Some(case.exit) {
        wrong.push(format!("exit {:?}, not {}", out.status.code(), case.exit));
    }
    if said.contains("panicked") || out.status.code() == Some(101) {
        wrong.push("panicked".into());
    }
    for s in &case.says {
        let s = fill(s);
        if !said.contains(&s) {
            wrong.push(format!("does not say `{s}`"));
        }
    }
    if (listing(&work), listing(&content)) != before {
        wrong.push("wrote or changed a file".into());
    }
    let _ = std::fs::remove_dir_all(&here);
    if wrong.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{}: {}\n--- it said:\n{said}",
            case.name,
            wrong.join("; ")
        ))
    }
}

#[test]
fn every_bad_input_is_refused_clearly_and_nothing_is_written() {
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets");
    let scratch = std::env::temp_dir().join(format!("skirmish-bad-inputs-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    let files = cases();
    let only = std::env::var("BAD_INPUT").ok();
    let mut kinds: BTreeMap<String, usize> = BTreeMap::new();
    for f in &files {
        let kind = f.parent().unwrap().file_name().unwrap().to_string_lossy();
        *kinds.entry(kind.into_owned()).or_default() += 1;
    }
    let chosen: Vec<&PathBuf> = files
        .iter()
        .filter(|f| {
            only.as_ref()
                .is_none_or(|o| f.to_string_lossy().contains(o.as_str()))
        })
        .collect();
    // Each case is a process of its own: they run side by side, one a core.
    let next = std::sync::atomic::AtomicUsize::new(0);
    let failures = std::sync::Mutex::new(Vec::new());
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(f) = chosen.get(i) else { break };
                    if let Err(e) = run_case(f, &shipped, &scratch) {
                        failures.lock().unwrap().push((i, e));
                    }
                }
            });
        }
    });
    let mut failures = failures.into_inner().unwrap();
    failures.sort();
    let failures: Vec<String> = failures.into_iter().map(|(_, e)| e).collect();
    let _ = std::fs::remove_dir_all(&scratch);
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    // The corpus keeps its size and covers each way in.
    assert!(files.len() >= 100, "{} cases", files.len());
    for kind in ["cli", "content", "encounters", "replays", "scenarios"] {
        assert!(
            kinds.get(kind).copied().unwrap_or(0) >= 5,
            "{kind}: {kinds:?}"
        );
    }
}
