//! Finding the content folder: `--assets DIR`, else `SKIRMISH_ASSETS`,
//! else `assets/` in the working folder, else `assets/` beside the binary
//! (or a few folders up from it, where `cargo build` puts it). Nothing is
//! baked in at build time: a binary moved elsewhere says where it looked.

use std::path::{Path, PathBuf};

/// The environment variable naming the content folder.
pub const ENV: &str = "SKIRMISH_ASSETS";

/// The content folder to use, or what to do when there is none.
pub fn find(given: Option<PathBuf>) -> Result<PathBuf, String> {
    find_from(
        given,
        std::env::var_os(ENV).map(PathBuf::from),
        std::env::current_exe().ok(),
    )
}

fn find_from(
    given: Option<PathBuf>,
    env: Option<PathBuf>,
    exe: Option<PathBuf>,
) -> Result<PathBuf, String> {
    if let Some(dir) = given {
        return exists(dir, "--assets");
    }
    if let Some(dir) = env.filter(|d| !d.as_os_str().is_empty()) {
        return exists(dir, ENV);
    }
    let here = PathBuf::from("assets");
    if here.is_dir() {
        return Ok(here);
    }
    let beside = exe
        .as_deref()
        .and_then(Path::parent)
        .into_iter()
        .flat_map(Path::ancestors)
        .take(4)
        .map(|d| d.join("assets"))
        .find(|d| d.is_dir());
    beside.ok_or_else(|| {
        let exe_dir = exe.as_deref().and_then(Path::parent).map_or_else(
            || "the binary's folder".to_string(),
            |d| d.display().to_string(),
        );
        format!(
            "no content folder found: there is no assets/ in the working folder or beside \
             the binary ({exe_dir}). Point at one with --assets DIR, or set {ENV}=DIR, or \
             put an assets/ folder beside the binary"
        )
    })
}

fn exists(dir: PathBuf, how: &str) -> Result<PathBuf, String> {
    if dir.is_dir() {
        Ok(dir)
    } else {
        Err(format!(
            "{how} {}: no such content folder (give the folder holding abilities/, \
             monsters/, maps/ and encounters/)",
            dir.display()
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_folder_is_found_by_flag_then_variable_then_beside_the_binary() {
        let shipped = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets");
        let other = shipped.join("maps");
        // The flag wins over the variable.
        assert_eq!(
            find_from(Some(other.clone()), Some(shipped.clone()), None),
            Ok(other.clone())
        );
        assert_eq!(find_from(None, Some(other.clone()), None), Ok(other));
        // A named folder that is missing is an error naming how it was named.
        let e = find_from(None, Some("/no/such/dir".into()), None).unwrap_err();
        assert!(e.starts_with("SKIRMISH_ASSETS /no/such/dir"), "{e}");
        let e = find_from(Some("/no/such/dir".into()), None, None).unwrap_err();
        assert!(e.starts_with("--assets /no/such/dir"), "{e}");
    }
}
