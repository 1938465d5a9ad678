//! `skirmish check [PATH]`: validate all content, print counts per kind.

use std::path::Path;
use std::process::ExitCode;

use skirmish_rules::content::ContentDb;

pub fn run(path: &Path) -> ExitCode {
    match ContentDb::load(path) {
        Ok(db) => {
            println!("content in {} is valid:", path.display());
            for (kind, count) in db.counts() {
                println!("  {:<10} {count}", kind.folder());
            }
            ExitCode::SUCCESS
        }
        Err(errors) => {
            for e in &errors.0 {
                eprintln!("error: {e}");
            }
            eprintln!("{} error(s) in {}", errors.0.len(), path.display());
            ExitCode::from(2)
        }
    }
}
