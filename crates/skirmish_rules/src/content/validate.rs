//! The checks over the whole of the loaded content: every id named
//! exists, every number is in range, every encounter can be set up.

use super::*;

impl Loader {
    pub(super) fn validate(&mut self) {
        self.build_maps();
        self.validate_abilities();
        self.validate_heroes();
        self.validate_maps();
        self.validate_classes();
        self.validate_monsters();
        let encounter_ids: Vec<String> = self.db.encounters.keys().cloned().collect();
        for id in encounter_ids {
            self.validate_encounter(&id);
        }
        self.validate_rulesets();
    }

    /// Each map's glyphs and treasure: known abilities, on open ground.
    fn validate_maps(&mut self) {
        // docs/rules.md#glyphs: a map may start with a glyph network as a trap.
        let map_ids: Vec<String> = self.db.maps.keys().cloned().collect();
        for id in map_ids {
            let map = self.db.maps[&id].map.clone();
            for (p, from) in &map.glyphs {
                let problem = match self.db.abilities.get(from) {
                    Some(a) if a.glyph.is_some() => None,
                    Some(_) => Some(format!("ability `{from}` places no glyph")),
                    None => Some(self.unknown(Kind::Ability, from)),
                };
                if let Some(m) = problem {
                    self.report(
                        Kind::Map,
                        &id,
                        Needle::String(from),
                        format!("glyph at {p}: {m}"),
                    );
                }
                if !map.in_bounds(*p) || !map.footprint_open(Footprint::single(*p)) {
                    let m = format!("glyph at {p} is not on open ground");
                    self.report(Kind::Map, &id, Needle::Field("glyphs"), m);
                }
            }
            // docs/rules.md#loot: a treasure tile yields an item.
            for (i, (p, item)) in map.items.iter().enumerate() {
                let problem = match self.db.abilities.get(item) {
                    Some(a) if a.item => None,
                    Some(_) => Some(format!("`{item}` is not an item (`item: true`)")),
                    None => Some(self.unknown(Kind::Ability, item)),
                };
                if let Some(m) = problem {
                    let m = format!("treasure at {p}: {m}");
                    self.report(Kind::Map, &id, Needle::String(item), m);
                }
                if !map.in_bounds(*p) || !map.footprint_open(Footprint::single(*p)) {
                    let m = format!("treasure at {p} is not on open ground");
                    self.report(Kind::Map, &id, Needle::Field("treasure"), m);
                }
                if map.items[..i].iter().any(|(q, _)| q == p) {
                    let m = format!("two treasure tiles at {p}");
                    self.report(Kind::Map, &id, Needle::Field("treasure"), m);
                }
            }
        }
    }

    /// Each class's problems and the abilities it names.
    fn validate_classes(&mut self) {
        let class_ids: Vec<String> = self.db.classes.keys().cloned().collect();
        for id in class_ids {
            let class = self.db.classes[&id].clone();
            for problem in class.problems() {
                self.report(Kind::Class, &id, Needle::Field(problem.0), problem.1);
            }
            for a in &class.abilities {
                if !self.db.abilities.contains_key(a) {
                    self.report(
                        Kind::Class,
                        &id,
                        Needle::String(a),
                        self.unknown(Kind::Ability, a),
                    );
                }
            }
        }
    }

    /// Each stat block's problems, abilities and villain actions.
    fn validate_monsters(&mut self) {
        let monster_ids: Vec<String> = self.db.monsters.keys().cloned().collect();
        for id in monster_ids {
            let m = self.db.monsters[&id].clone();
            for problem in m.problems() {
                self.report(Kind::Monster, &id, Needle::Field(problem.0), problem.1);
            }
            for a in &m.abilities {
                if !self.db.abilities.contains_key(a) {
                    self.report(
                        Kind::Monster,
                        &id,
                        Needle::String(a),
                        self.unknown(Kind::Ability, a),
                    );
                }
                // docs/rules.md#villain-actions: a leader's or a solo's.
                let villain = self
                    .db
                    .ability(a)
                    .is_some_and(|ab| ab.action == crate::ability::ActionType::VillainAction);
                if villain
                    && !matches!(
                        m.organization,
                        types::Organization::Leader | types::Organization::Solo
                    )
                {
                    let msg = format!("`{a}` is a villain action: only a leader or solo has them");
                    self.report(Kind::Monster, &id, Needle::String(a), msg);
                }
            }
        }
    }

    /// Each ruleset's problems, basic abilities and phased powers.
    fn validate_rulesets(&mut self) {
        let ruleset_ids: Vec<String> = self.db.rulesets.keys().cloned().collect();
        for id in ruleset_ids {
            for problem in self.db.rulesets[&id].problems() {
                self.report(Kind::Ruleset, &id, Needle::Field(problem.0), problem.1);
            }
            for a in self.db.rulesets[&id].basic_abilities.clone() {
                if !self.db.abilities.contains_key(&a) {
                    let m = self.unknown(Kind::Ability, &a);
                    self.report(Kind::Ruleset, &id, Needle::String(&a), m);
                }
            }
            // docs/rules.md#movement-powers: the powers given by calling
            // (class) and role are extra powers, given to classes that exist.
            let Some(phased) = self.db.rulesets[&id].phased.clone() else {
                continue;
            };
            for class in phased.class_powers.keys() {
                if !self.db.classes.contains_key(class) {
                    let m = format!("class_powers: {}", self.unknown(Kind::Class, class));
                    self.report(Kind::Ruleset, &id, Needle::String(class), m);
                }
            }
            let given = phased
                .class_powers
                .values()
                .chain(phased.role_powers.values());
            if let Some(p) = given
                .flatten()
                .find(|p| !crate::phased::MovementPower::EXTRA.contains(p))
            {
                let m = format!(
                    "{} is every creature's power: class_powers and role_powers give only {:?}",
                    p.name(),
                    crate::phased::MovementPower::EXTRA
                );
                self.report(Kind::Ruleset, &id, Needle::Field("phased"), m);
            }
        }
    }

    /// The stat block of the `nth` entry of the encounter's `list`: by id
    /// or inline (an unknown id or a bad inline block is reported).
    pub(super) fn monster_block(
        &mut self,
        id: &str,
        list: &str,
        i: usize,
        m: &encounter::MonsterDef,
    ) -> Option<types::Monster> {
        match (&m.monster, &m.inline) {
            (Some(mid), None) => match self.db.monsters.get(mid) {
                Some(b) => Some(b.clone()),
                None => {
                    let msg = self.unknown(Kind::Monster, mid);
                    self.report(Kind::Encounter, id, Needle::String(mid), msg);
                    None
                }
            },
            (None, Some(inline)) => {
                for (_, msg) in inline.problems() {
                    self.report_at(
                        id,
                        list,
                        i,
                        format!("inline monster `{}`: {msg}", inline.id),
                    );
                }
                for a in &inline.abilities {
                    if !self.db.abilities.contains_key(a) {
                        let msg = self.unknown(Kind::Ability, a);
                        self.report(Kind::Encounter, id, Needle::String(a), msg);
                    }
                }
                Some(inline.clone())
            }
            _ => {
                let msg = "a monster entry needs exactly one of `monster` or `inline`".to_string();
                self.report_at(id, list, i, msg);
                None
            }
        }
    }

    /// docs/rules.md#objectives and docs/rules.md#reinforcements: the
    /// objective fits the map, the reinforcements name stat blocks and
    /// open squares, and the intended win rate is a band of percents.
    pub(super) fn validate_plan(&mut self, id: &str, e: &EncounterDef, map: Option<&Map>) {
        use encounter::Objective;
        let bad = |this: &mut Self, field: &'static str, m: String| {
            this.report(Kind::Encounter, id, Needle::Field(field), m)
        };
        match &e.objective {
            Objective::Survive { rounds: 0 } | Objective::Hold { rounds: 0, .. } => bad(
                self,
                "objective",
                "the objective needs at least 1 round".into(),
            ),
            Objective::Hold { zone, .. } => {
                if let Some(map) = map {
                    let off = [zone.from, zone.to]
                        .into_iter()
                        .find(|&(x, y)| !map.in_bounds(Pos::new(x, y)));
                    if let Some((x, y)) = off {
                        let m = format!(
                            "the zone's corner {} is off map `{}` ({}x{})",
                            Pos::new(x, y),
                            e.map,
                            map.width,
                            map.height
                        );
                        bad(self, "objective", m);
                    }
                }
            }
            _ => {}
        }
        let mut nth = 0;
        for r in &e.reinforcements {
            if r.round == 0 {
                bad(
                    self,
                    "reinforcements",
                    "reinforcements arrive at round 1 or later".into(),
                );
            }
            for m in &r.monsters {
                let block = self.monster_block(id, "reinforcements", nth, m);
                let size = block.as_ref().map_or(1, |b| b.size.squares());
                let fp = Footprint::new(Pos::new(m.at.0, m.at.1), size);
                if let Some(map) = map
                    && !map.footprint_open(fp)
                {
                    let name = m
                        .name
                        .clone()
                        .or_else(|| block.as_ref().map(|b| b.name.clone()))
                        .unwrap_or_default();
                    let msg = format!(
                        "reinforcement `{name}` at {} is not on open ground on map `{}`",
                        fp.pos, e.map
                    );
                    self.report_at(id, "reinforcements", nth, msg);
                }
                nth += 1;
            }
        }
        if let Some((low, high)) = e.heroes_win
            && (low > high || high > 100)
        {
            let m = format!(
                "heroes_win ({low}, {high}) must be a band of percents, low to high, at most 100"
            );
            bad(self, "heroes_win", m);
        }
    }

    pub(super) fn validate_encounter(&mut self, id: &str) {
        let e = self.db.encounters[id].clone();
        if !self.db.rulesets.contains_key(&e.ruleset) {
            let m = self.unknown(Kind::Ruleset, &e.ruleset);
            self.report(Kind::Encounter, id, Needle::String(&e.ruleset), m);
        }
        let map = self.db.maps.get(&e.map).map(|m| m.map.clone());
        if map.is_none() {
            let m = self.unknown(Kind::Map, &e.map);
            self.report(Kind::Encounter, id, Needle::String(&e.map), m);
        }
        self.validate_plan(id, &e, map.as_ref());
        if e.heroes.is_empty() || e.monsters.is_empty() {
            self.report(
                Kind::Encounter,
                id,
                Needle::Id,
                "an encounter needs at least one hero and one monster".into(),
            );
        }
        let mut taken: Vec<(Footprint, String)> = Vec::new();
        let mut place = |this: &mut Self, list: &str, nth: usize, who: String, fp: Footprint| {
            if let Some(map) = &map
                && !map.footprint_open(fp)
            {
                let m = format!(
                    "{who} at {} is not on open ground on map `{}`",
                    fp.pos, e.map
                );
                this.report_at(id, list, nth, m);
                return;
            }
            if let Some((_, other)) = taken.iter().find(|(o, _)| o.overlaps(fp)) {
                let m = format!("{who} at {} overlaps {other}", fp.pos);
                this.report_at(id, list, nth, m);
                return;
            }
            taken.push((fp, who));
        };
        for (i, h) in e.heroes.iter().enumerate() {
            self.validate_hero(id, i, h);
            let fp = Footprint::single(Pos::new(h.at.0, h.at.1));
            place(self, "heroes", i, format!("hero `{}`", h.name), fp);
        }
        for (i, m) in e.monsters.iter().enumerate() {
            let block = self.monster_block(id, "monsters", i, m);
            let size = block.as_ref().map_or(1, |b| b.size.squares());
            let name = m
                .name
                .clone()
                .or_else(|| block.as_ref().map(|b| b.name.clone()))
                .unwrap_or_default();
            let fp = Footprint::new(Pos::new(m.at.0, m.at.1), size);
            place(self, "monsters", i, format!("monster `{name}`"), fp);
            self.validate_squad(id, &e, i, &name, block.as_ref());
        }
    }

    /// The `i`th hero of encounter `id`: its class and abilities known,
    /// its level and victories in range, and a hero that can be built.
    fn validate_hero(&mut self, id: &str, i: usize, h: &encounter::HeroDef) {
        if !self.db.classes.contains_key(&h.class) {
            let m = self.unknown(Kind::Class, &h.class);
            self.report(Kind::Encounter, id, Needle::String(&h.class), m);
        }
        for a in &h.abilities {
            if !self.db.abilities.contains_key(a) {
                let m = self.unknown(Kind::Ability, a);
                self.report(Kind::Encounter, id, Needle::String(a), m);
            }
        }
        if !(1..=10).contains(&h.level) {
            self.report_at(
                id,
                "heroes",
                i,
                format!("hero `{}` has level {} (1 to 10)", h.name, h.level),
            );
        } else if h.victories > hero::MAX_VICTORIES {
            self.report_at(
                id,
                "heroes",
                i,
                format!(
                    "hero `{}` has {} victories (0 to {})",
                    h.name,
                    h.victories,
                    hero::MAX_VICTORIES
                ),
            );
        } else if self.db.classes.contains_key(&h.class)
            && let Err(m) = hero::build(h, &self.db)
        {
            self.report_at(id, "heroes", i, format!("hero `{}`: {m}", h.name));
        }
    }

    /// The `i`th monster of encounter `e` (`id`), named `name`, of stat
    /// block `block`: its squad and its captaincy.
    fn validate_squad(
        &mut self,
        id: &str,
        e: &EncounterDef,
        i: usize,
        name: &str,
        block: Option<&types::Monster>,
    ) {
        let m = &e.monsters[i];
        // docs/rules.md#minions: "Up to 8 minions form a squad".
        if let (Some(squad), Some(b)) = (m.squad, block) {
            if b.organization != types::Organization::Minion {
                let msg = format!("monster `{name}` is in squad {squad} but is not a minion");
                self.report_at(id, "monsters", i, msg);
            }
            let members = e.monsters[..=i]
                .iter()
                .filter(|o| o.squad == Some(squad))
                .count() as u32;
            let cap = self
                .db
                .rulesets
                .get(&e.ruleset)
                .map_or(8, |r| r.max_squad_size);
            if members == cap.saturating_add(1) {
                let msg = format!("squad {squad} has more than {cap} minions");
                self.report_at(id, "monsters", i, msg);
            }
        }
        // docs/rules.md#captains: a captain is no minion, in no squad,
        // and leads a squad there is; one to a squad.
        if let Some(n) = m.captain {
            let problem = if block
                .as_ref()
                .is_some_and(|b| b.organization == types::Organization::Minion)
                || m.squad.is_some()
            {
                Some(format!(
                    "monster `{name}` captains squad {n} but is a minion"
                ))
            } else if !e.monsters.iter().any(|o| o.squad == Some(n)) {
                Some(format!(
                    "monster `{name}` captains squad {n}, which has no minions"
                ))
            } else if e.monsters[..i].iter().any(|o| o.captain == Some(n)) {
                Some(format!("squad {n} has two captains"))
            } else {
                None
            };
            if let Some(msg) = problem {
                self.report_at(id, "monsters", i, msg);
            }
        }
    }

    pub(super) fn validate_abilities(&mut self) {
        let ids: Vec<String> = self.db.abilities.keys().cloned().collect();
        let resources: Vec<String> = self
            .db
            .classes
            .values()
            .map(|c| c.resource.to_ascii_lowercase())
            .chain(["malice".to_string()])
            .collect();
        // A set of tags (lower case), and it as a list for a message.
        let set = |all: &mut dyn Iterator<Item = &String>| {
            let set: std::collections::BTreeSet<String> =
                all.map(|t| t.to_ascii_lowercase()).collect();
            let listed = if set.is_empty() {
                "none".to_string()
            } else {
                set.iter().cloned().collect::<Vec<_>>().join(", ")
            };
            (set, listed)
        };
        // docs/rules.md#ability-tags: the tags abilities bear.
        let (tags, tags_listed) = set(&mut self.db.abilities.values().flat_map(|a| &a.tags));
        // docs/rules.md#creature-tags: the kinds of creature there are.
        let (kinds, kinds_listed) = set(&mut self
            .db
            .classes
            .values()
            .flat_map(|c| &c.tags)
            .chain(self.db.monsters.values().flat_map(|m| &m.tags)));
        for id in ids {
            let mut ability = Ability::clone(&self.db.abilities[&id]);
            let unborne = ability
                .target
                .tags
                .iter()
                .find(|t| !kinds.contains(&t.to_ascii_lowercase()))
                .cloned();
            if let Some(tag) = unborne {
                let message = format!(
                    "it targets creatures tagged `{tag}`, which no class or monster is \
                     (tags: {kinds_listed})"
                );
                self.report(Kind::Ability, &id, Needle::String(&tag), message);
            }
            let tag = ability.trigger.as_ref().and_then(|t| t.tag.clone());
            if let Some(tag) = tag.filter(|t| !tags.contains(&t.to_ascii_lowercase())) {
                let message = format!(
                    "its trigger names the tag `{tag}`, which no ability has (tags: {tags_listed})"
                );
                self.report(Kind::Ability, &id, Needle::String(&tag), message);
            }
            for (label, text, err) in ability.parse_lines() {
                // Point at the fragment inside the quoted tier text.
                let Some((file, at)) = self.anchor(Kind::Ability, &id) else {
                    self.report_unanchored(Kind::Ability, &id, format!("{label}: {err}"));
                    continue;
                };
                let src = self.sources.get(&file).cloned().unwrap_or_default();
                let offset = Locator::new(&src)
                    .find_string(at, &text)
                    .map(|o| o + err.offset);
                let message = format!("ability `{id}`, {label}: {err}");
                self.error_at(&file, offset.or(Some(at)), message);
            }
            for (field, message) in types::ability_problems(&ability, &resources) {
                self.report(Kind::Ability, &id, Needle::Field(field), message);
            }
            if let Some(bad) = unknown_prepared(&ability, &self.db) {
                let message = format!("prepares {}", self.unknown(Kind::Ability, &bad));
                self.report(Kind::Ability, &id, Needle::String(&bad), message);
            }
            if let Some(bad) = unknown_monsters(&ability, &self.db) {
                let message = format!("summons {}", self.unknown(Kind::Monster, &bad));
                self.report(Kind::Ability, &id, Needle::String(&bad), message);
            }
            self.db.abilities.insert(id, Arc::new(ability));
        }
    }
}

/// The first stat block an ability summons that the content lacks.
pub fn unknown_monsters(ability: &Ability, db: &ContentDb) -> Option<String> {
    ability.find_effect(|e| match e {
        crate::ability::Effect::Summon(id) if !db.monsters.contains_key(id) => Some(id.clone()),
        _ => None,
    })
}

/// The first ability an ability prepares that the content lacks.
pub fn unknown_prepared(ability: &Ability, db: &ContentDb) -> Option<String> {
    ability.find_effect(|e| match e {
        crate::ability::Effect::Prepare { ability, .. } if !db.abilities.contains_key(ability) => {
            Some(ability.clone())
        }
        _ => None,
    })
}
