//! A utility AI whose weights a designer tunes in `assets/ai/tactical.ron`
//! without code: the greedy terms plus focus fire, protecting the wounded,
//! spending heroic resource, pushing enemies into pits and each other,
//! flanking, and planning a move by the attack it sets up.

use super::Brain;
use super::score::{Weights, choose};
use crate::encounter::{Command, Encounter};

pub struct Tactical {
    weights: Weights,
    name: String,
}

impl Tactical {
    pub fn new(weights: Weights) -> Tactical {
        Tactical::named(weights, "tactical")
    }

    /// The same brain with other weights, under another name (a
    /// `weights:FILE` brain, or weights a trainer tries).
    pub fn named(weights: Weights, name: &str) -> Tactical {
        Tactical {
            weights,
            name: name.to_string(),
        }
    }
}

impl Brain for Tactical {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, e: &Encounter, legal: &[Command]) -> Command {
        choose(e, legal, &self.weights)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::by_name;
    use crate::content::ContentDb;
    use std::path::Path;

    /// `weights:FILE` is the scorer with that file's weights: with the
    /// greedy weights it chooses as greedy does; a broken file is an error
    /// naming its file, line and column (docs/ai.md).
    #[test]
    fn a_weights_file_names_a_brain() {
        let db =
            ContentDb::load(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets")).unwrap();
        let dir = std::env::temp_dir().join(format!("skirmish-weights-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("greedy.ron");
        let text = ron::ser::to_string(&Weights::greedy()).unwrap();
        std::fs::write(&file, text).unwrap();
        let name = format!("weights:{}", file.display());
        let mut mine = by_name(&name, 0, &db).unwrap();
        let mut greedy = by_name("greedy", 0, &db).unwrap();
        assert_eq!(mine.name(), name);
        let mut e = Encounter::new(std::sync::Arc::new(db.clone()), "first_blood", 4).unwrap();
        for _ in 0..60 {
            let legal = e.legal_actions();
            if legal.is_empty() {
                break;
            }
            let c = greedy.choose(&e, &legal);
            assert_eq!(mine.choose(&e, &legal), c);
            e.apply(c).unwrap();
        }
        let bad = dir.join("bad.ron");
        std::fs::write(&bad, "(\n    damage: 1.0,\n    kil: 6.0,\n)\n").unwrap();
        let err = by_name(&format!("weights:{}", bad.display()), 0, &db)
            .err()
            .unwrap()
            .to_string();
        assert!(err.contains("bad.ron:3:"), "{err}");
        assert!(
            by_name("weights:/nowhere/w.ron", 0, &db).is_err(),
            "a missing file"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
