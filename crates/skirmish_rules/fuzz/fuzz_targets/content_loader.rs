//! The content loader: the input's first byte picks one RON file of a
//! copy of the shipped content, and the rest replaces that file's text.
//! Loading must give errors that each name a file and a line in it, or
//! content that plays: a short random game of one encounter with no panic
//! and no listed command refused.
#![no_main]

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use libfuzzer_sys::fuzz_target;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use skirmish_rules::content::{ContentDb, ron_files};
use skirmish_rules::encounter::Encounter;

/// The copy of the shipped content and its RON files (with their text).
fn fixture() -> &'static (PathBuf, Vec<(PathBuf, String)>) {
    static FIXTURE: OnceLock<(PathBuf, Vec<(PathBuf, String)>)> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../assets");
        let root = std::env::temp_dir().join(format!("skirmish-fuzz-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        // (In this order: the order of `fuzz/seed.sh`'s seeds.)
        let kinds = [
            "abilities",
            "ai",
            "classes",
            "encounters",
            "maps",
            "monsters",
            "rulesets",
        ];
        let mut files = Vec::new();
        for kind in kinds {
            copy(&shipped.join(kind), &root.join(kind));
            let (found, _) = ron_files(&root.join(kind));
            for f in found {
                let text = std::fs::read_to_string(&f).unwrap();
                files.push((f, text));
            }
        }
        (root, files)
    })
}

fn copy(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let p = e.unwrap().path();
        let q = to.join(p.file_name().unwrap());
        if p.is_dir() {
            copy(&p, &q);
        } else {
            std::fs::copy(&p, &q).unwrap();
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let (root, files) = fixture();
    let (file, original) = &files[pick as usize % files.len()];
    std::fs::write(file, text).unwrap();
    let loaded = ContentDb::load(root);
    std::fs::write(file, original).unwrap();
    match loaded {
        Err(errors) => {
            assert!(!errors.0.is_empty());
            for e in &errors.0 {
                assert!(e.line >= 1 && e.column >= 1, "no location: {e}");
                assert!(!e.file.as_os_str().is_empty(), "no file: {e}");
            }
        }
        Ok(db) => {
            let db = Arc::new(db);
            let ids: Vec<&String> = db.encounters.keys().collect();
            let id = ids[pick as usize % ids.len()];
            let mut e = Encounter::new(db.clone(), id, 1).expect("a valid encounter sets up");
            let mut rng = ChaCha8Rng::seed_from_u64(u64::from(pick));
            for _ in 0..150 {
                if e.outcome().is_some() {
                    break;
                }
                let legal = e.legal_actions();
                assert!(!legal.is_empty(), "{id}: nothing to do");
                let c = legal[rng.random_range(0..legal.len())].clone();
                if let Err(r) = e.apply(c.clone()) {
                    panic!("{id}: listed {c:?} refused: {r}");
                }
            }
        }
    }
});
