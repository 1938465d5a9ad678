//! Tier lines that keep some text as free text: words the engine shows but
//! does not carry out (`skirmish check --strict`, issue 52 point 12). A
//! segment of a tier line that no typed effect reads is kept as
//! [`Effect::Text`]; each is listed with where it is written.

use std::path::PathBuf;

use crate::ability::{Ability, Effect, TierLine};
use crate::content::{ContentDb, Kind, Locator, read_text};

/// One segment of free text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FreeText {
    pub file: PathBuf,
    pub line: usize,
    pub column: usize,
    pub ability: String,
    /// Which line of the ability: "tier 1", "effect", "spend 2", "aura",
    /// "glyph (enters)".
    pub part: String,
    pub text: String,
}

impl std::fmt::Display for FreeText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}:{}:{}: ability `{}`, {}: \"{}\" is free text (shown, not carried out)",
            self.file.display(),
            self.line,
            self.column,
            self.ability,
            self.part,
            self.text
        )
    }
}

/// Every tier line of `a` with a name for it.
fn lines(a: &Ability) -> Vec<(String, &TierLine)> {
    let mut out = Vec::new();
    if let Some(p) = &a.power_roll {
        for (k, t) in [&p.tiers.0, &p.tiers.1, &p.tiers.2].into_iter().enumerate() {
            out.push((format!("tier {}", k + 1), t));
        }
    }
    if let Some(e) = &a.effect {
        out.push(("effect".to_string(), e));
    }
    for (k, s) in a.spend.iter().enumerate() {
        if let Some(e) = &s.effects {
            out.push((format!("spend {}", k + 1), e));
        }
    }
    if let Some(aura) = &a.aura {
        out.push(("aura".to_string(), &aura.effect));
    }
    if let Some(g) = &a.glyph {
        for ga in &g.abilities {
            if let Some(e) = &ga.effect {
                out.push((format!("glyph ({:?})", ga.on).to_lowercase(), e));
            }
        }
    }
    out
}

/// The free text of `db`'s abilities, by file and place.
pub fn free_text(db: &ContentDb) -> Vec<FreeText> {
    let mut out = Vec::new();
    let mut sources: std::collections::BTreeMap<PathBuf, Option<String>> = Default::default();
    for a in db.abilities.values() {
        let origin = db.origins.get(&(Kind::Ability, a.id.clone()));
        for (part, line) in lines(a) {
            for e in &line.effects {
                let Effect::Text(text) = e else { continue };
                let (file, mut at) = match origin {
                    Some(o) => (o.file.clone(), (o.line, o.column)),
                    None => (PathBuf::from("<inline>"), (1, 1)),
                };
                if let Some(o) = origin
                    && let Some(src) = sources
                        .entry(o.file.clone())
                        .or_insert_with(|| read_text(&o.file).ok())
                {
                    let loc = Locator::new(src);
                    let from = loc.find_id(&a.id, 0).unwrap_or(0);
                    if let Some(i) = loc.find_from(from, text.trim()) {
                        at = loc.position(i);
                    }
                }
                out.push(FreeText {
                    file,
                    line: at.0,
                    column: at.1,
                    ability: a.id.clone(),
                    part: part.clone(),
                    text: text.trim().to_string(),
                });
            }
        }
    }
    out.sort_by(|a, b| (&a.file, a.line, a.column).cmp(&(&b.file, b.line, b.column)));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    /// The shipped content keeps no free text where a typed effect exists
    /// (issue 52 point 12): `skirmish check --strict` lists none.
    #[test]
    fn the_shipped_content_has_no_free_text() {
        let db =
            ContentDb::load(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets")).unwrap();
        let free = free_text(&db);
        assert!(
            free.is_empty(),
            "{}",
            free.iter()
                .map(|f| f.to_string())
                .collect::<Vec<_>>()
                .join("\n")
        );
    }

    /// Free text is named where it is written: file, line and column of
    /// the words, the ability and its line; "no effect" is typed, not free.
    #[test]
    fn free_text_is_found_where_it_is_written() {
        let dir = std::env::temp_dir().join(format!("skirmish-free-text-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("abilities")).unwrap();
        let file = dir.join("abilities/odd.ron");
        std::fs::write(
            &file,
            r#"[
    (
        id: "odd_shout",
        name: "Odd Shout",
        action: MainAction,
        distance: Ranged(5),
        target: (count: 1, kinds: [Enemy]),
        power_roll: (
            characteristics: [Presence],
            tiers: (
                "no effect",
                "2 damage; the target sings",
                "4 damage",
            ),
        ),
    ),
]
"#,
        )
        .unwrap();
        let db = ContentDb::load(&dir).unwrap();
        let free = free_text(&db);
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(free.len(), 1, "{free:?}");
        let f = &free[0];
        assert_eq!((f.line, f.column), (12, 28), "{f}");
        assert_eq!(f.ability, "odd_shout");
        assert_eq!(f.part, "tier 2");
        assert_eq!(f.text, "the target sings");
        assert!(
            f.to_string()
                .contains("odd.ron:12:28: ability `odd_shout`, tier 2")
        );
    }
}
