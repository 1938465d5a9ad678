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

/// The anchors `line` cites as `docs/rules.md#anchor`, in order.
fn cited_anchors(line: &str) -> Vec<String> {
    line.split("docs/rules.md#")
        .skip(1)
        .map(|rest| {
            rest.chars()
                .take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '-')
                .collect()
        })
        .collect()
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
            for anchor in cited_anchors(line) {
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

/// A section of `docs/rules.md`: its depth, title and anchor, and whether
/// sections sit under it (a group of rules, not a rule).
struct Section {
    depth: usize,
    title: String,
    anchor: String,
    group: bool,
}

fn sections(md: &str) -> Vec<Section> {
    let mut out: Vec<Section> = Vec::new();
    for line in md.lines() {
        let depth = line.chars().take_while(|c| *c == '#').count();
        let title = line[depth..].trim();
        if depth < 2 || !line[depth..].starts_with(' ') {
            continue;
        }
        let anchor = anchors(line).into_iter().next().unwrap_or_default();
        if let Some(last) = out.last_mut()
            && depth > last.depth
        {
            last.group = true;
        }
        out.push(Section {
            depth,
            title: title.to_string(),
            anchor,
            group: false,
        });
    }
    out
}

/// Where the engine cites each rule: `(path, item)` for every citation in
/// the code of `crates/skirmish_rules/src` (tests aside), in path and
/// line order, a doc comment's citation first: the item the comment
/// documents; any other, the function it stands in.
fn homes(root: &Path) -> std::collections::BTreeMap<String, Vec<(String, String, bool)>> {
    let src = root.join("crates/skirmish_rules/src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    files.retain(|f| {
        f.extension().is_some_and(|x| x == "rs")
            && !f.ends_with("tests.rs")
            && !f.components().any(|c| c.as_os_str() == "tests")
    });
    files.sort();
    let item_name = |line: &str| -> Option<String> {
        let l = line.trim_start();
        let l = l
            .strip_prefix("pub(crate) ")
            .or_else(|| l.strip_prefix("pub(super) "))
            .or_else(|| l.strip_prefix("pub "))
            .unwrap_or(l);
        let l = l.strip_prefix("const ").unwrap_or(l);
        for kw in [
            "fn ", "struct ", "enum ", "type ", "trait ", "const ", "static ",
        ] {
            if let Some(rest) = l.strip_prefix(kw) {
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                return (!name.is_empty()).then_some(name);
            }
        }
        None
    };
    let mut out: std::collections::BTreeMap<String, Vec<(String, String, bool)>> =
        Default::default();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap_or_default();
        let code = text.split("#[cfg(test)]\nmod tests").next().unwrap_or("");
        let lines: Vec<&str> = code.lines().collect();
        let rel = f
            .strip_prefix(&src)
            .unwrap_or(&f)
            .to_string_lossy()
            .replace('\\', "/");
        for (n, line) in lines.iter().enumerate() {
            let doc = line.trim_start().starts_with("///") || line.trim_start().starts_with("//!");
            for anchor in cited_anchors(line) {
                let indent = |l: &str| l.len() - l.trim_start().len();
                // What a doc comment documents: the next line that is not a
                // doc comment or an attribute.
                let documented = lines[n..]
                    .iter()
                    .find(|l| {
                        let t = l.trim_start();
                        !t.starts_with("///") && !t.starts_with("#[")
                    })
                    .copied()
                    .unwrap_or("");
                let item = if line.trim_start().starts_with("//!") {
                    Some("(the module)".to_string())
                } else if doc && item_name(documented).is_some() {
                    item_name(documented)
                } else {
                    // A field's, a variant's or a statement's: the item it
                    // stands in, the nearest one above it less indented.
                    let at = indent(line);
                    lines[..n]
                        .iter()
                        .rev()
                        .filter(|l| indent(l) < at && !l.trim().is_empty())
                        .find_map(|l| item_name(l))
                };
                if let Some(item) = item {
                    out.entry(anchor)
                        .or_default()
                        .push((rel.clone(), item, doc));
                }
            }
        }
    }
    out
}

/// `docs/rules-index.md` as the citations make it.
fn rules_index(root: &Path) -> (String, Vec<String>) {
    let md = std::fs::read_to_string(root.join("docs/rules.md")).expect("docs/rules.md");
    let homes = homes(root);
    let mut out = String::from(
        "# Where each rule lives\n\n\
         Each rule of [rules.md](rules.md) and the place in the engine's code\n\
         (`crates/skirmish_rules/src/`) that is its home: the first item whose\n\
         documentation cites it (else the first function that does), then how\n\
         many other places cite it. Written by `tests/rule_citations.rs`\n\
         from the code's own citations; it fails when this page and the code\n\
         disagree, and `RULES_INDEX_BLESS=1 cargo test --test rule_citations`\n\
         writes it anew. Do not edit it by hand.\n\n\
         | rule | home | also cited in |\n|---|---|---|\n",
    );
    let mut homeless = Vec::new();
    for s in sections(&md) {
        if s.group {
            out.push_str(&format!(
                "| **[{}](rules.md#{})** | | |\n",
                s.title, s.anchor
            ));
            continue;
        }
        let mut cites = homes.get(&s.anchor).cloned().unwrap_or_default();
        // The home is in the file that cites the rule most (the rule's own
        // module, most often), at its first item whose documentation cites
        // it, else its first function that does.
        // The rules' code before the data definitions (`ability/`,
        // `content/`), and both before what only tells of a rule (the log's
        // words, the AI's scores, the learning environment, scenarios).
        let tier = |file: &str| {
            let tells = ["encounter/log.rs", "ai/", "learn/", "sim/", "scenario.rs"];
            if tells.iter().any(|t| file.starts_with(t)) {
                2
            } else if file.starts_with("ability/") || file.starts_with("content/") {
                1
            } else {
                0
            }
        };
        let count = |file: &str| cites.iter().filter(|c| c.0 == file).count();
        let best = cites
            .iter()
            .map(|c| c.0.as_str())
            .max_by_key(|f| (std::cmp::Reverse(tier(f)), count(f), std::cmp::Reverse(*f)))
            .map(str::to_string);
        cites.sort_by_key(|c| (Some(&c.0) != best.as_ref(), !c.2));
        let Some((file, item, _)) = cites.first().cloned() else {
            homeless.push(s.anchor.clone());
            out.push_str(&format!(
                "| [{}](rules.md#{}) | none | |\n",
                s.title, s.anchor
            ));
            continue;
        };
        let mut others: Vec<&str> = cites[1..].iter().map(|c| c.0.as_str()).collect();
        others.sort();
        others.dedup();
        let also = match others.len() {
            0 => String::new(),
            n if n <= 3 => others
                .iter()
                .map(|o| format!("`{o}`"))
                .collect::<Vec<_>>()
                .join(", "),
            n => format!("{n} files"),
        };
        out.push_str(&format!(
            "| [{}](rules.md#{}) | `{file}` `{item}` | {also} |\n",
            s.title, s.anchor
        ));
    }
    (out, homeless)
}

#[test]
fn every_rule_has_its_home_in_the_index() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let (index, homeless) = rules_index(root);
    assert!(
        homeless.is_empty(),
        "rules of docs/rules.md that no code of the engine cites: {homeless:?}"
    );
    let path = root.join("docs/rules-index.md");
    if std::env::var_os("RULES_INDEX_BLESS").is_some() {
        std::fs::write(&path, &index).expect("write docs/rules-index.md");
    }
    // The index is read from real code: the edges rule is at home.
    assert!(
        index.contains("(rules.md#edges-and-banes) | `power_roll.rs`"),
        "{index}"
    );
    let written = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        written == index,
        "docs/rules-index.md is not what the code's citations make \
         (RULES_INDEX_BLESS=1 cargo test --test rule_citations writes it anew)"
    );
}
