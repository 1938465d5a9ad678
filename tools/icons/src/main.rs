//! Rasterise the Game Icons the content names into the PNGs the client
//! draws (docs/art.md).
//!
//! ```text
//! npm pack @iconify-json/game-icons && tar xzf iconify-json-game-icons-*.tgz
//! cargo run --release --manifest-path tools/icons/Cargo.toml -- package/icons.json
//! ```
//!
//! The names come from the content itself: every `"key": "icon-name"`
//! value in `assets/ui/tokens.ron` and `assets/ui/icons.ron`, and every
//! ability's `icon: "icon-name"` under `assets/abilities/`. Each is drawn
//! white on transparent at every size in [`SIZES`] into
//! `assets/ui/icons/<size>/<name>.png`; PNGs no longer named are removed.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The pixel sizes the client uses: tokens, tiles and the card at 128,
/// badges and the ability bar at 48.
const SIZES: [u32; 2] = [128, 48];

fn main() -> ExitCode {
    match run() {
        Ok(n) => {
            println!("wrote {n} icons at sizes {SIZES:?}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<usize, String> {
    let mut args = std::env::args().skip(1);
    let json = args
        .next()
        .ok_or("give the path of @iconify-json/game-icons's icons.json")?;
    let root: PathBuf = args.next().map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets"),
        PathBuf::from,
    );
    let set: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).map_err(|e| format!("{json}: {e}"))?)
            .map_err(|e| format!("{json}: {e}"))?;
    let (w, h) = (
        set["width"].as_f64().unwrap_or(512.0),
        set["height"].as_f64().unwrap_or(512.0),
    );
    let wanted = wanted(&root)?;
    let missing: Vec<&String> = wanted
        .iter()
        .filter(|n| set["icons"][n.as_str()]["body"].as_str().is_none())
        .collect();
    if !missing.is_empty() {
        return Err(format!("not in the collection: {missing:?}"));
    }
    for size in SIZES {
        let dir = root.join(format!("ui/icons/{size}"));
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        // Drop what is no longer named, so the folder holds what is used.
        for entry in std::fs::read_dir(&dir)
            .map_err(|e| e.to_string())?
            .flatten()
        {
            let p = entry.path();
            let stem = p.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
            if p.extension().is_some_and(|x| x == "png") && !wanted.contains(stem) {
                std::fs::remove_file(&p).map_err(|e| e.to_string())?;
            }
        }
        for name in &wanted {
            let body = set["icons"][name.as_str()]["body"]
                .as_str()
                .unwrap_or_default();
            let png = render(body, w, h, size)?;
            let out = dir.join(format!("{name}.png"));
            std::fs::write(&out, png).map_err(|e| format!("{}: {e}", out.display()))?;
        }
    }
    Ok(wanted.len())
}

/// Every icon name the content uses.
fn wanted(root: &Path) -> Result<BTreeSet<String>, String> {
    let mut names = BTreeSet::new();
    for table in ["ui/tokens.ron", "ui/icons.ron"] {
        let path = root.join(table);
        let text =
            std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        names.extend(values_after_colons(&text));
    }
    let dir = root.join("abilities");
    for entry in std::fs::read_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))? {
        let path = entry.map_err(|e| e.to_string())?.path();
        if path.extension().is_some_and(|x| x == "ron") {
            let text = std::fs::read_to_string(&path).map_err(|e| e.to_string())?;
            for line in text.lines() {
                if let Some(rest) = line.trim_start().strip_prefix("icon:") {
                    names.extend(values_after_colons(&format!(":{rest}")));
                }
            }
        }
    }
    Ok(names)
}

/// The quoted strings that follow a `:` (map and field values), outside
/// `//` comments.
fn values_after_colons(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.lines() {
        let line = line.split("//").next().unwrap_or_default();
        let mut rest = line;
        while let Some(i) = rest.find(':') {
            rest = &rest[i + 1..];
            let t = rest.trim_start();
            if let Some(q) = t.strip_prefix('"')
                && let Some(end) = q.find('"')
            {
                out.push(q[..end].to_string());
                rest = &q[end + 1..];
            }
        }
    }
    out
}

/// One icon, white on transparent, `size` pixels square.
fn render(body: &str, w: f64, h: f64, size: u32) -> Result<Vec<u8>, String> {
    let svg = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}">{}</svg>"#,
        body.replace("currentColor", "#ffffff")
    );
    let tree = resvg::usvg::Tree::from_str(&svg, &resvg::usvg::Options::default())
        .map_err(|e| e.to_string())?;
    let mut pixmap = resvg::tiny_skia::Pixmap::new(size, size).ok_or("empty size")?;
    let k = size as f32 / w.max(h) as f32;
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::from_scale(k, k),
        &mut pixmap.as_mut(),
    );
    pixmap.encode_png().map_err(|e| e.to_string())
}
