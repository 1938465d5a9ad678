//! The load checks of kits, ancestries and the classes' progression
//! tables (docs/rules.md#class-tables, #kits, #ancestries), and the kits'
//! versions of the class abilities they change.

use std::sync::Arc;

use super::{Kind, Loader, Needle, hero};

impl Loader {
    /// Kits, ancestries and the classes' tables (docs/rules.md#class-tables);
    /// then each kit's versions of the class abilities it changes join
    /// the abilities.
    pub(super) fn validate_heroes(&mut self) {
        let ids: Vec<String> = self.db.kits.keys().cloned().collect();
        for id in ids {
            for (field, m) in self.db.kits[&id].problems() {
                self.report(Kind::Kit, &id, Needle::Field(field), m);
            }
        }
        let ids: Vec<String> = self.db.ancestries.keys().cloned().collect();
        for id in ids {
            for (field, m) in self.db.ancestries[&id].problems() {
                self.report(Kind::Ancestry, &id, Needle::Field(field), m);
            }
        }
        let class_ids: Vec<String> = self.db.classes.keys().cloned().collect();
        for id in class_ids {
            let class = &self.db.classes[&id];
            let unknown: Vec<String> = class
                .subclasses
                .iter()
                .flat_map(|s| &s.abilities)
                .chain(&class.features)
                .filter(|a| !self.db.abilities.contains_key(*a))
                .cloned()
                .collect();
            let known_all = unknown.is_empty()
                && class
                    .abilities
                    .iter()
                    .all(|a| self.db.abilities.contains_key(a));
            for a in unknown {
                let m = self.unknown(Kind::Ability, &a);
                self.report(Kind::Class, &id, Needle::String(&a), m);
            }
            if known_all {
                let class = self.db.classes[&id].clone();
                for (field, m) in hero::table_problems(&class, &self.db) {
                    self.report(Kind::Class, &id, Needle::Field(field), m);
                }
                // An ability whose cost has no place in the table could
                // never be known: the error is the ability's.
                for (ability, m) in hero::unplaced(&class, &self.db) {
                    self.report(Kind::Ability, &ability, Needle::Field("cost"), m);
                }
            }
        }
        let mut class_abilities: Vec<&str> = self
            .db
            .classes
            .values()
            .flat_map(|c| {
                c.abilities
                    .iter()
                    .chain(c.subclasses.iter().flat_map(|s| &s.abilities))
            })
            .map(String::as_str)
            .collect();
        class_abilities.sort_unstable();
        class_abilities.dedup();
        let made = hero::kit_abilities(
            self.db.kits.values(),
            class_abilities.iter().filter_map(|id| self.db.ability(id)),
        );
        for a in made {
            self.db.abilities.insert(a.id.clone(), Arc::new(a));
        }
    }
}
