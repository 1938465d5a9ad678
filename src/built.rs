//! Encounters built in the window's builder and saved in the user's data
//! folder (`encounters/` beside `saves/`), in the format of
//! `assets/encounters/`: the picker lists them beside the shipped ones, and
//! `skirmish check`, `sim` and `forecast` take them by file or by id.

use std::path::PathBuf;

use skirmish_rules::content::ContentDb;

/// Where built encounters go.
pub fn dir() -> Option<PathBuf> {
    crate::client::saves::data_dir().map(|d| d.join("encounters"))
}

/// The file an encounter of this id is saved in.
pub fn file_of(id: &str) -> Option<PathBuf> {
    dir().map(|d| d.join(format!("{id}.ron")))
}

/// Add every built encounter to `db`, each validated as the shipped ones
/// are; a file that fails, or whose id a shipped encounter already has, is
/// left out and its problems returned (one line each).
pub fn load_all(db: &mut ContentDb) -> Vec<String> {
    let Some(dir) = dir() else {
        return Vec::new();
    };
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    files.sort();
    let mut problems = Vec::new();
    for file in files {
        let shipped: Vec<String> = db.encounters.keys().cloned().collect();
        let before = db.clone();
        match db.add_encounter_file(&file) {
            Ok(id) if shipped.contains(&id) => {
                *db = before;
                problems.push(format!(
                    "{}: its id `{id}` is a shipped encounter's; left out",
                    file.display()
                ));
            }
            Ok(_) => {}
            Err(errors) => {
                *db = before;
                problems.extend(errors.0.iter().map(|e| e.to_string()));
            }
        }
    }
    problems
}
