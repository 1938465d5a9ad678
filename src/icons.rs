//! The icon tables (docs/art.md): which Game Icons icon stands for each
//! class and stat block (`assets/ui/tokens.ron`), each condition and state,
//! each board feature and each ability (`assets/ui/icons.ron`, or the
//! ability's own `icon`). The PNGs are under `assets/ui/icons/<size>/`.
//!
//! [`check`] is what `skirmish check` and the window run: a class or stat
//! block with no icon, or an icon named with no PNG, is an error there,
//! never a blank token.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use skirmish_rules::ability::{Ability, ActionType, Keyword};
use skirmish_rules::conditions::ConditionKind;
use skirmish_rules::content::{ContentDb, ContentError, Kind, parse_ron, read_text};
use skirmish_rules::encounter::CreatureKind;
use skirmish_rules::map::Material;
use skirmish_rules::stats::DamageType;

/// The sizes the PNGs are drawn at: tokens, tiles and the card use the
/// large, badges and the ability bar the small.
pub const LARGE: u32 = 128;
pub const SMALL: u32 = 48;

/// `assets/ui/tokens.ron`.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct TokenTable {
    pub classes: BTreeMap<String, String>,
    pub monsters: BTreeMap<String, String>,
    pub conditions: BTreeMap<ConditionKind, String>,
    pub states: States,
}

/// The badges for what is not a condition.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct States {
    pub hidden: String,
    pub defending: String,
    pub concentrating: String,
    pub shielded: String,
    pub retaliating: String,
    pub casting: String,
    pub summoned: String,
}

/// `assets/ui/icons.ron`.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct IconTable {
    pub board: BoardIcons,
    pub abilities: AbilityIcons,
}

#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct BoardIcons {
    pub pit: String,
    pub ledge: String,
    pub difficult: String,
    pub treasure: String,
    /// A treasure tile holding an item (docs/rules.md#loot).
    pub item: String,
    pub glyph: String,
    pub hazards: BTreeMap<DamageType, String>,
    pub objects: BTreeMap<Material, String>,
}

#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct AbilityIcons {
    pub damage: BTreeMap<DamageType, String>,
    pub keywords: BTreeMap<Keyword, String>,
    pub maneuver: String,
    #[serde(rename = "move")]
    pub move_action: String,
    pub triggered: String,
    pub default: String,
}

/// The order keywords choose an ability's icon in, most telling first.
pub const KEYWORD_ORDER: [Keyword; 8] = [
    Keyword::Area,
    Keyword::Charge,
    Keyword::Psionic,
    Keyword::Magic,
    Keyword::Ranged,
    Keyword::Melee,
    Keyword::Strike,
    Keyword::Weapon,
];

/// Both tables, read from a content folder.
#[derive(Clone, Debug, PartialEq)]
pub struct Icons {
    pub root: PathBuf,
    pub tokens: TokenTable,
    pub table: IconTable,
}

fn located(file: &Path, message: String) -> ContentError {
    located_at(file, 1, message)
}

fn located_at(file: &Path, line: usize, message: String) -> ContentError {
    ContentError {
        file: file.to_path_buf(),
        line,
        column: 1,
        message,
    }
}

/// The line of `file` where `field` starts (1 when it is not there).
fn line_of(file: &Path, field: &str) -> usize {
    std::fs::read_to_string(file)
        .ok()
        .and_then(|t| t.lines().position(|l| l.trim_start().starts_with(field)))
        .map_or(1, |i| i + 1)
}

impl Icons {
    /// Read both tables; a broken one names its file, line and column.
    pub fn load(root: &Path) -> Result<Icons, Vec<ContentError>> {
        let read = |name: &str| -> Result<(PathBuf, String), ContentError> {
            let path = root.join("ui").join(name);
            let text = read_text(&path)
                .map_err(|e| located(&path, format!("{e} (the icon table, docs/art.md)")))?;
            Ok((path, text))
        };
        let tokens = read("tokens.ron").and_then(|(p, t)| parse_ron::<TokenTable>(&p, &t));
        let table = read("icons.ron").and_then(|(p, t)| parse_ron::<IconTable>(&p, &t));
        match (tokens, table) {
            (Ok(tokens), Ok(table)) => Ok(Icons {
                root: root.to_path_buf(),
                tokens,
                table,
            }),
            (a, b) => Err([a.err(), b.err()].into_iter().flatten().collect()),
        }
    }

    /// The PNG of icon `name` at `size` pixels.
    pub fn file(&self, name: &str, size: u32) -> PathBuf {
        self.root.join(format!("ui/icons/{size}/{name}.png"))
    }

    /// A creature's icon: its class's or stat block's, else the default
    /// ability icon (never blank; `skirmish check` names what is missing).
    pub fn creature(&self, kind: &CreatureKind) -> &str {
        match kind {
            CreatureKind::Hero { class } => self.tokens.classes.get(class),
            CreatureKind::Monster { stat_block, .. } => self.tokens.monsters.get(stat_block),
        }
        .unwrap_or(&self.table.abilities.default)
    }

    pub fn condition(&self, kind: ConditionKind) -> &str {
        self.tokens
            .conditions
            .get(&kind)
            .unwrap_or(&self.table.abilities.default)
    }

    /// An ability's icon: its own, else by its damage type, its keywords,
    /// its action, else the default.
    pub fn ability<'a>(&'a self, a: &'a Ability) -> &'a str {
        if let Some(own) = &a.icon {
            return own;
        }
        let t = &self.table.abilities;
        let damage = a
            .power_roll
            .iter()
            .flat_map(|r| [&r.tiers.0, &r.tiers.1, &r.tiers.2])
            .chain(a.effect.iter())
            .flat_map(|l| &l.effects)
            .find_map(|e| match e {
                skirmish_rules::ability::Effect::Damage { damage_type, .. }
                    if *damage_type != DamageType::Untyped =>
                {
                    t.damage.get(damage_type)
                }
                _ => None,
            });
        if let Some(d) = damage {
            return d;
        }
        if let Some(k) = KEYWORD_ORDER
            .iter()
            .filter(|k| a.keywords.contains(k))
            .find_map(|k| t.keywords.get(k))
        {
            return k;
        }
        match a.action {
            ActionType::Maneuver | ActionType::FreeManeuver | ActionType::FreeAction => &t.maneuver,
            ActionType::MoveAction => &t.move_action,
            ActionType::TriggeredAction | ActionType::FreeTriggeredAction => &t.triggered,
            _ => &t.default,
        }
    }

    /// Every icon name the tables and the content's abilities use.
    pub fn all_names<'a>(&'a self, db: &'a ContentDb) -> Vec<&'a str> {
        let tk = &self.tokens;
        let s = &tk.states;
        let b = &self.table.board;
        let a = &self.table.abilities;
        let mut v: Vec<&str> = tk
            .classes
            .values()
            .chain(tk.monsters.values())
            .chain(tk.conditions.values())
            .chain([
                &s.hidden,
                &s.defending,
                &s.concentrating,
                &s.shielded,
                &s.retaliating,
                &s.casting,
                &s.summoned,
                &b.pit,
                &b.ledge,
                &b.difficult,
                &b.treasure,
                &b.item,
                &b.glyph,
                &a.maneuver,
                &a.move_action,
                &a.triggered,
                &a.default,
            ])
            .chain(b.hazards.values())
            .chain(b.objects.values())
            .chain(a.damage.values())
            .chain(a.keywords.values())
            .map(String::as_str)
            .collect();
        v.extend(db.abilities.values().filter_map(|x| x.icon.as_deref()));
        v.sort_unstable();
        v.dedup();
        v
    }
}

/// Every class and stat block (shipped and inline) named in the table,
/// every condition, hazard type and material too, and a PNG at both sizes
/// for every icon named. Errors name the table (or the ability's file).
pub fn check(root: &Path, db: &ContentDb) -> Vec<ContentError> {
    let icons = match Icons::load(root) {
        Ok(i) => i,
        Err(e) => return e,
    };
    let tokens = root.join("ui/tokens.ron");
    let table = root.join("ui/icons.ron");
    let mut errors = Vec::new();
    let origin = |kind: Kind, id: &str| {
        db.origins
            .get(&(kind, id.to_string()))
            .map_or(String::new(), |o| {
                format!(" ({}:{})", o.file.display(), o.line)
            })
    };
    for class in db.classes.keys() {
        if !icons.tokens.classes.contains_key(class) {
            errors.push(located_at(
                &tokens,
                line_of(&tokens, "classes:"),
                format!(
                    "the class `{class}`{} names no icon: add `\"{class}\": \"icon-name\"` under classes",
                    origin(Kind::Class, class)
                ),
            ));
        }
    }
    let inline = db
        .encounters
        .values()
        .flat_map(|e| &e.monsters)
        .filter_map(|m| m.inline.as_ref().map(|i| i.id.clone()));
    let mut blocks: Vec<String> = db.monsters.keys().cloned().chain(inline).collect();
    blocks.sort();
    blocks.dedup();
    for m in &blocks {
        if !icons.tokens.monsters.contains_key(m) {
            errors.push(located_at(
                &tokens,
                line_of(&tokens, "monsters:"),
                format!(
                    "the stat block `{m}`{} names no icon: add `\"{m}\": \"icon-name\"` under monsters",
                    origin(Kind::Monster, m)
                ),
            ));
        }
    }
    for kind in ConditionKind::NINE
        .into_iter()
        .chain([ConditionKind::CantStand])
    {
        if !icons.tokens.conditions.contains_key(&kind) {
            errors.push(located_at(
                &tokens,
                line_of(&tokens, "conditions:"),
                format!("the condition {kind:?} names no icon (under conditions)"),
            ));
        }
    }
    for d in std::iter::once(DamageType::Untyped).chain(DamageType::TYPED) {
        if !icons.table.board.hazards.contains_key(&d) {
            errors.push(located(
                &table,
                format!("hazards of {d:?} damage name no icon (under board.hazards)"),
            ));
        }
    }
    for m in [
        Material::Wood,
        Material::Stone,
        Material::Glass,
        Material::Metal,
    ] {
        if !icons.table.board.objects.contains_key(&m) {
            errors.push(located(
                &table,
                format!("objects of {m:?} name no icon (under board.objects)"),
            ));
        }
    }
    for name in icons.all_names(db) {
        for size in [LARGE, SMALL] {
            let f = icons.file(name, size);
            if !f.is_file() {
                // An ability's own icon is reported at the ability.
                let at = db
                    .abilities
                    .values()
                    .find(|a| a.icon.as_deref() == Some(name))
                    .and_then(|a| db.origins.get(&(Kind::Ability, a.id.clone())))
                    .map_or_else(|| tokens.clone(), |o| o.file.clone());
                errors.push(located(
                    &at,
                    format!(
                        "the icon `{name}` has no {} (regenerate with tools/icons, docs/art.md)",
                        f.display()
                    ),
                ));
                break;
            }
        }
    }
    errors
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shipped() -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets")
    }

    /// Every token, condition, state, board feature and ability of the
    /// shipped content has its icon, at both sizes, as a square PNG of
    /// that size that is not blank.
    #[test]
    fn every_shipped_token_condition_and_ability_has_its_icon() {
        let root = shipped();
        let db = ContentDb::load(&root).unwrap();
        assert_eq!(check(&root, &db), Vec::new());
        let icons = Icons::load(&root).unwrap();
        let mut named = 0;
        for name in icons.all_names(&db) {
            for size in [LARGE, SMALL] {
                let bytes = std::fs::read(icons.file(name, size)).unwrap();
                let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
                let mut reader = decoder.read_info().unwrap();
                let mut buf = vec![0; reader.output_buffer_size().unwrap()];
                let info = reader.next_frame(&mut buf).unwrap();
                assert_eq!((info.width, info.height), (size, size), "{name} at {size}");
                let opaque = buf.chunks(4).filter(|p| p.len() == 4 && p[3] > 128).count();
                assert!(
                    opaque > (size * size / 20) as usize,
                    "{name} at {size} is blank"
                );
            }
            named += 1;
        }
        assert!(named > 60, "{named}");
        // Each class and stat block resolves to its own entry, never the default.
        for class in db.classes.keys() {
            let kind = CreatureKind::Hero {
                class: class.clone(),
            };
            assert_eq!(icons.creature(&kind), icons.tokens.classes[class]);
        }
        for m in db.monsters.keys() {
            let kind = CreatureKind::Monster {
                stat_block: m.clone(),
                squad: None,
            };
            assert_eq!(icons.creature(&kind), icons.tokens.monsters[m]);
        }
        // Tokens tell creatures apart: no two stat blocks share an icon.
        let mut seen = std::collections::BTreeMap::new();
        for (m, icon) in &icons.tokens.monsters {
            if let Some(other) = seen.insert(icon, m) {
                panic!("{m} and {other} share the icon {icon}");
            }
        }
    }

    #[test]
    fn abilities_take_their_own_icon_then_damage_then_keywords() {
        let root = shipped();
        let db = ContentDb::load(&root).unwrap();
        let icons = Icons::load(&root).unwrap();
        let t = &icons.table.abilities;
        let mut by_damage = 0;
        for a in db.abilities.values() {
            let got = icons.ability(a);
            if let Some(own) = &a.icon {
                assert_eq!(got, own);
            } else if t.damage.values().any(|d| d == got) {
                by_damage += 1;
            }
        }
        assert!(by_damage > 5, "{by_damage}");
        let mut a = db.abilities.values().next().unwrap().as_ref().clone();
        a.icon = None;
        a.power_roll = None;
        a.effect = None;
        a.keywords = vec![Keyword::Melee, Keyword::Area];
        assert_eq!(icons.ability(&a), t.keywords[&Keyword::Area]);
        a.keywords.clear();
        a.action = ActionType::Maneuver;
        assert_eq!(icons.ability(&a), t.maneuver);
        a.icon = Some("lyre".into());
        assert_eq!(icons.ability(&a), "lyre");
    }

    #[test]
    fn a_class_or_stat_block_without_an_icon_is_an_error_naming_it() {
        let dir = std::env::temp_dir().join(format!("skirmish-icons-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("ui")).unwrap();
        let root = shipped();
        let tokens = std::fs::read_to_string(root.join("ui/tokens.ron")).unwrap();
        let tokens = tokens
            .replace("\"wolf\": \"wolf-head\",", "")
            .replace("\"fury\": \"barbarian\",", "");
        std::fs::write(dir.join("ui/tokens.ron"), tokens).unwrap();
        std::fs::copy(root.join("ui/icons.ron"), dir.join("ui/icons.ron")).unwrap();
        // The PNGs from the shipped folder.
        std::os::unix::fs::symlink(root.join("ui/icons"), dir.join("ui/icons")).unwrap();
        let db = ContentDb::load(&root).unwrap();
        let errors: Vec<String> = check(&dir, &db).iter().map(|e| e.to_string()).collect();
        assert_eq!(errors.len(), 2, "{errors:?}");
        assert!(
            errors.iter().any(|e| e.contains("class `fury`")),
            "{errors:?}"
        );
        assert!(
            errors.iter().any(|e| e.contains("stat block `wolf`")),
            "{errors:?}"
        );
        assert!(errors[0].contains("tokens.ron"), "{errors:?}");
        // A broken table names its line and column.
        std::fs::write(
            dir.join("ui/tokens.ron"),
            "(\n  classes: {\n    \"fury\" \"x\",\n  },\n)",
        )
        .unwrap();
        let errors: Vec<String> = check(&dir, &db).iter().map(|e| e.to_string()).collect();
        assert!(errors[0].contains("tokens.ron:3:"), "{errors:?}");
        // A missing PNG is named.
        std::fs::remove_file(dir.join("ui/icons")).unwrap();
        std::fs::write(
            dir.join("ui/tokens.ron"),
            std::fs::read_to_string(root.join("ui/tokens.ron")).unwrap(),
        )
        .unwrap();
        let errors: Vec<String> = check(&dir, &db).iter().map(|e| e.to_string()).collect();
        assert!(
            errors
                .iter()
                .any(|e| e.contains("the icon `wolf-head` has no")),
            "{errors:?}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
