//! Scratch folders for the tests: each is removed when its guard drops,
//! so a test run leaves nothing behind in the system temp dir (even when a
//! test fails).

use std::path::{Path, PathBuf};

/// A fresh, empty folder under the system temp dir named after `name` and
/// this process, removed again when dropped.
pub(super) struct Scratch(PathBuf);

impl Scratch {
    pub(super) fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("skirmish-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a folder in the temp dir");
        Scratch(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

#[test]
fn a_scratch_folder_is_gone_once_dropped() {
    let dir = Scratch::new("scratch-test");
    let path = dir.to_path_buf();
    std::fs::write(dir.join("f"), "x").unwrap();
    assert!(path.join("f").exists());
    drop(dir);
    assert!(!path.exists());
}
