//! One number of the shipped content set to an extreme, then the content
//! loaded and every encounter played: shared by the test
//! `tests/shipped.rs` (`extreme_content::`) and the example `content_fuzz` (each includes
//! this file).

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use skirmish_rules::content::ContentDb;
use skirmish_rules::encounter::Encounter;
use skirmish_rules::sim::panic_message;

/// What a trial sets a number to: the edges of the integer types, zero
/// and one, and numbers merely far beyond a fight.
const EXTREMES: [&str; 9] = [
    "0",
    "1",
    "-1",
    "255",
    "99999",
    "2147483647",
    "-2147483648",
    "4294967295",
    "1000000",
];

/// A copy of the folder `from` at `to`, subfolders included.
fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let p = e.path();
        let q = to.join(e.file_name());
        if p.is_dir() {
            copy_dir(&p, &q);
        } else {
            std::fs::copy(&p, &q).unwrap();
        }
    }
}

/// Every RON file under `dir`, added to `out`.
fn ron_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            ron_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "ron") {
            out.push(p);
        }
    }
}

/// The byte ranges of the number tokens in `text` (digits, with a leading
/// minus), in strings too (tier text: "9 + M damage; push 2").
fn numbers(text: &str) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_digit() && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_'))
        {
            let start = if i > 0 && b[i - 1] == b'-' { i - 1 } else { i };
            let mut j = i;
            while j < b.len() && (b[j].is_ascii_digit() || b[j] == b'.') {
                j += 1;
            }
            out.push((start, j));
            i = j;
            continue;
        }
        i += 1;
    }
    out
}

/// What a run of trials came to.
#[derive(Debug, Default)]
pub struct Summary {
    /// Trials whose content failed to load (with an error, as it should).
    pub refused: usize,
    /// Trials whose content loaded, and whose encounters were played.
    pub played: usize,
    /// Each panic, and each game that stopped (a listed command refused,
    /// nothing to do), with the change that led to it.
    pub problems: Vec<String>,
}

/// Run the trials numbered `trials` of `seed` (each trial draws its change
/// from its own generator, so a run can be cut into slices played side by
/// side), each game `commands` long, in a copy of the shipped content
/// under the temp dir (`tag` names it). `each` hears each trial's change
/// before it is loaded (where a run that dies outright stopped).
pub fn run(
    trials: std::ops::Range<usize>,
    seed: u64,
    commands: usize,
    tag: &str,
    mut each: impl FnMut(&str),
) -> Summary {
    let src = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets"));
    let work = std::env::temp_dir().join(format!("skirmish_{tag}_{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&work);
    copy_dir(&src, &work);
    let mut files = Vec::new();
    ron_files(&work, &mut files);
    files.sort();
    files.retain(|f| !f.to_string_lossy().contains("/scenarios/"));
    let mut out = Summary::default();
    for t in trials {
        let mut rng =
            ChaCha8Rng::seed_from_u64(seed ^ (t as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let file = &files[rng.random_range(0..files.len())];
        let original = std::fs::read_to_string(file).unwrap();
        let nums = numbers(&original);
        if nums.is_empty() {
            continue;
        }
        let (a, b) = nums[rng.random_range(0..nums.len())];
        let value = EXTREMES[rng.random_range(0..EXTREMES.len())];
        let changed = format!("{}{}{}", &original[..a], value, &original[b..]);
        std::fs::write(file, &changed).unwrap();
        let line = original[..a].matches('\n').count() + 1;
        let what = format!(
            "trial {t}: {}:{line} `{}` -> {value}",
            file.strip_prefix(&work).unwrap().display(),
            &original[a..b]
        );
        each(&what);
        match catch_unwind(AssertUnwindSafe(|| ContentDb::load(&work))) {
            Err(_) => out.problems.push(format!("{what}: loading panicked")),
            Ok(Err(errors)) => {
                out.refused += 1;
                // Issue 51, point 1: "a missing location is itself a bug".
                // Every error names a real file and a line in it, and the
                // file changed is among those named (the cause is pointed
                // at, not only its knock-on effects).
                for e in &errors.0 {
                    let lines = std::fs::read_to_string(&e.file)
                        .map(|t| t.lines().count().max(1))
                        .unwrap_or(0);
                    if lines == 0 || e.line == 0 || e.line > lines || e.column == 0 {
                        out.problems
                            .push(format!("{what}: an error without a location: {e}"));
                    }
                }
                if !errors.0.iter().any(|e| &e.file == file) {
                    out.problems.push(format!(
                        "{what}: no error names the changed file: {}",
                        errors.0[0]
                    ));
                }
            }
            Ok(Ok(db)) => {
                let db = Arc::new(db);
                let mut ids: Vec<String> = db.encounters.keys().cloned().collect();
                ids.sort();
                for id in ids {
                    let r = catch_unwind(AssertUnwindSafe(|| play(&db, &id, t as u64, commands)));
                    match r {
                        Ok(Ok(())) => {}
                        Ok(Err(e)) => out.problems.push(format!("{what}: {id}: {e}")),
                        Err(p) => out.problems.push(format!(
                            "{what}: {id}: panic {}",
                            panic_message(&*p).unwrap_or_default()
                        )),
                    }
                }
                out.played += 1;
            }
        }
        std::fs::write(file, &original).unwrap();
    }
    let _ = std::fs::remove_dir_all(&work);
    out
}

/// A random game of `commands` legal commands (or to its end).
fn play(db: &Arc<ContentDb>, id: &str, seed: u64, commands: usize) -> Result<(), String> {
    let mut e = Encounter::new(db.clone(), id, seed).map_err(|e| format!("setup: {e}"))?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..commands {
        if e.outcome().is_some() {
            break;
        }
        let legal = e.legal_actions();
        if legal.is_empty() {
            return Err("no legal command".into());
        }
        let c = legal[rng.random_range(0..legal.len())].clone();
        e.apply(c.clone())
            .map_err(|r| format!("legal {c:?} refused: {r}"))?;
    }
    Ok(())
}
