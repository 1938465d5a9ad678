//! Every rule cited in the code, the content and the tests
//! (`docs/rules.md#anchor`) has its section in `docs/rules.md`, and nothing
//! cites the source texts outside the repository instead (issue 48,
//! point 7).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The anchors `docs/rules.md` defines: one per heading (as GitHub makes
/// them: lower case, spaces to hyphens, other punctuation dropped) and one
/// per explicit `<a id="...">`.
fn anchors(md: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for line in md.lines() {
        let heading = line.trim_start_matches('#');
        if line.starts_with('#') && heading.starts_with(' ') {
            let a: String = heading
                .trim()
                .to_lowercase()
                .chars()
                .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-')
                .map(|c| if c == ' ' { '-' } else { c })
                .collect();
            out.insert(a);
        }
        let mut rest = line;
        while let Some(i) = rest.find("<a id=\"") {
            rest = &rest[i + 7..];
            if let Some(j) = rest.find('"') {
                out.insert(rest[..j].to_string());
            }
        }
    }
    out
}

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if p.is_dir() {
            if name != "target" && !name.starts_with('.') {
                sources(&p, out);
            }
        } else if name.ends_with(".rs") || name.ends_with(".ron") {
            out.push(p);
        }
    }
}

#[test]
fn every_cited_rule_has_its_section() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let md = std::fs::read_to_string(root.join("docs/rules.md")).expect("docs/rules.md");
    let known = anchors(&md);
    assert!(known.contains("edges-and-banes") && known.contains("grabbed"));
    let mut files = Vec::new();
    for dir in ["src", "crates", "assets", "tests", "benches"] {
        sources(&root.join(dir), &mut files);
    }
    let (mut cited, mut missing, mut outside) = (0, Vec::new(), Vec::new());
    let stale = ["RULES.md", "seed 00", "Seed 00"];
    for f in files
        .iter()
        .filter(|f| !f.ends_with("tests/rule_citations.rs"))
    {
        let text = std::fs::read_to_string(f).unwrap_or_default();
        for (n, line) in text.lines().enumerate() {
            let mut rest = line;
            while let Some(i) = rest.find("docs/rules.md#") {
                rest = &rest[i + 14..];
                let anchor: String = rest
                    .chars()
                    .take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '-')
                    .collect();
                cited += 1;
                if !known.contains(&anchor) {
                    missing.push(format!("{}:{}: #{anchor}", f.display(), n + 1));
                }
            }
            if stale.iter().any(|s| line.contains(s)) {
                outside.push(format!("{}:{}: {}", f.display(), n + 1, line.trim()));
            }
        }
    }
    assert!(cited > 100, "only {cited} citations found");
    assert!(
        missing.is_empty(),
        "cited but not in docs/rules.md:\n{}",
        missing.join("\n")
    );
    assert!(
        outside.is_empty(),
        "cite docs/rules.md, not the texts outside the repository:\n{}",
        outside.join("\n")
    );
}
