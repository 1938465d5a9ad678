//! The encounter as the AI, the simulator and the client read it: its
//! log, turn flow, creatures (each as a [`CreatureView`]), map and content,
//! without a hand on the world.

use super::*;
use crate::fast::KeyedWorld;

impl Encounter {
    pub fn log(&self) -> &[LogEntry] {
        self.app.world().res::<CombatLog>().entries()
    }

    pub fn flow(&self) -> &Flow {
        self.app.world().res::<Flow>()
    }

    pub fn phase(&self) -> Phase {
        *self.app.world().res::<State<Phase>>().get()
    }

    pub fn outcome(&self) -> Option<Side> {
        self.flow().outcome
    }

    pub fn active_creature(&self) -> Option<CreatureId> {
        self.flow().active
    }

    /// A minion squad's shared stamina pool.
    pub fn squad(&self, n: u32) -> Option<SquadPool> {
        self.app.world().res::<Squads>().0.get(&n).copied()
    }

    /// The open triggered-action prompt, if resolution is waiting on one.
    pub fn prompt(&self) -> Option<&crate::encounter::state::work::Prompt> {
        self.app
            .world()
            .res::<crate::encounter::state::work::Resolution>()
            .prompt
            .as_ref()
    }

    pub fn malice(&self) -> u32 {
        self.app.world().res::<Malice>().0
    }

    /// The encounter's objective and reinforcements (docs/rules.md#objectives).
    pub fn plan(&self) -> Option<&crate::encounter::state::board::Plan> {
        self.app
            .world()
            .get_res::<crate::encounter::state::board::Plan>()
    }

    /// A creature's name (for log lines).
    pub fn name(&self, id: CreatureId) -> String {
        let w = self.app.world();
        world::entity_of(w, id)
            .and_then(|e| w.comp::<Creature>(e))
            .map_or_else(|| id.to_string(), |c| c.name.clone())
    }

    /// A creature's side, without copying the rest of it as
    /// [`Encounter::creature`] does.
    pub fn side_of(&self, id: CreatureId) -> Option<Side> {
        let w = self.app.world();
        world::entity_of(w, id)
            .and_then(|e| w.comp::<Creature>(e))
            .map(|c| c.side)
    }

    /// The stamina left to the object on `at` (docs/rules.md#objects), if
    /// one stands there.
    pub fn object_stamina(&self, at: crate::map::Pos) -> Option<i32> {
        let w = self.app.world();
        let object = w.res::<Battlefield>().0.cell(at).object?;
        Some(
            object.stamina()
                - w.res::<crate::encounter::state::board::ObjectWear>()
                    .taken(at),
        )
    }

    /// The glyphs on the board (docs/rules.md#glyphs), seen or not.
    pub fn glyphs(&self) -> &crate::encounter::state::board::Glyphs {
        self.app
            .world()
            .res::<crate::encounter::state::board::Glyphs>()
    }

    /// Read one creature's components.
    pub fn creature(&self, id: CreatureId) -> Option<CreatureView> {
        let w = self.app.world();
        let e = world::entity_of(w, id)?;
        Some(CreatureView {
            id,
            name: w.comp::<Creature>(e)?.name.clone(),
            side: w.comp::<Creature>(e)?.side,
            space: w.comp::<Space>(e)?.0,
            stamina: w.comp::<Stamina>(e)?.clone(),
            conditions: w.comp::<Conditions>(e)?.clone(),
            heroic: w.comp::<Heroic>(e).cloned(),
            budget: *w.comp::<TurnBudget>(e)?,
            stance: w.comp::<Stance>(e).copied().unwrap_or_default(),
            squad: w.comp::<SquadMember>(e).map(|m| m.0),
            pool: w
                .comp::<SquadMember>(e)
                .and_then(|m| w.res::<Squads>().0.get(&m.0).copied()),
            auras: w.comp::<Auras>(e).cloned().unwrap_or_default().0,
            bonuses: w.comp::<Bonuses>(e).cloned().unwrap_or_default(),
            movement: *w.comp::<Movement>(e)?,
            abilities: w
                .comp::<Abilities>(e)
                .map(|a| a.0.to_vec())
                .unwrap_or_default(),
            characteristics: *w.comp::<crate::stats::Characteristics>(e)?,
            kind: w.comp::<Creature>(e)?.kind.clone(),
            level: w.comp::<Creature>(e)?.level,
            progress: w.comp::<Progress>(e).cloned().unwrap_or_default(),
            summoned: w.comp::<Summoned>(e).copied(),
            casting: w.comp::<Casting>(e).map(|c| c.roll.ability.clone()),
            casting_area: w
                .comp::<Casting>(e)
                .and_then(|c| c.roll.area.as_ref().map(|a| a.reached.clone()))
                .unwrap_or_default(),
            prepared: w
                .comp::<PreparedAbilities>(e)
                .map(|p| p.0.iter().map(|p| (p.ability.clone(), p.uses)).collect())
                .unwrap_or_default(),
        })
    }

    /// Every creature, in id order.
    pub fn creatures(&self) -> Vec<CreatureView> {
        self.ids()
            .into_iter()
            .filter_map(|id| self.creature(id))
            .collect()
    }

    /// Every creature's id, in order.
    pub fn ids(&self) -> Vec<CreatureId> {
        self.app
            .world()
            .res::<crate::encounter::state::board::CreatureIndex>()
            .iter()
            .map(|(id, _)| id)
            .collect()
    }

    /// Every living creature as the map functions see it.
    pub fn occupants(&self) -> Vec<crate::map::Occupant> {
        world::occupants(self.world())
    }

    /// The battlefield as it is now (raised walls and broken objects included).
    pub fn map(&self) -> &crate::map::Map {
        &self.app.world().res::<Battlefield>().0
    }

    /// The phased 2d6 numbers, when the encounter plays that ruleset.
    pub fn phased_rules(&self) -> Option<&crate::phased::PhasedRules> {
        rulesets::phased::rules(self.world())
    }

    /// Phased 2d6: who is next in the current phase's order (a creature
    /// starting its turn instead seizes the initiative).
    pub fn phased_next(&self) -> Option<CreatureId> {
        rulesets::phased::next_up(self.world())
    }

    /// The concentration abilities `id` keeps going (docs/rules.md#concentration),
    /// in id order: none when it concentrates on nothing.
    pub fn concentrating(&self, id: CreatureId) -> Vec<String> {
        super::world::active(self.world(), id)
    }

    /// The content the encounter was built from.
    pub fn content(&self) -> &Arc<ContentDb> {
        &self.app.world().res::<Content>().0
    }
}

/// A read-only view of one creature.
#[derive(Clone, Debug, PartialEq)]
pub struct CreatureView {
    pub id: CreatureId,
    pub name: String,
    pub side: Side,
    pub space: crate::map::Footprint,
    pub stamina: Stamina,
    pub conditions: Conditions,
    pub heroic: Option<Heroic>,
    pub budget: TurnBudget,
    pub stance: Stance,
    /// The minion squad it belongs to (see [`Encounter::squad`]).
    pub squad: Option<u32>,
    /// That squad's shared stamina: the number every view of a minion
    /// shows ([`CreatureView::shown_stamina`]).
    pub pool: Option<SquadPool>,
    /// The lasting auras it carries.
    pub auras: Vec<ActiveAura>,
    /// Its active bonuses (docs/rules.md#forced-movement: shields, retaliation).
    pub bonuses: Bonuses,
    /// Speed and stability.
    pub movement: Movement,
    /// The ids of its abilities.
    pub abilities: Vec<String>,
    pub characteristics: crate::stats::Characteristics,
    pub kind: CreatureKind,
    pub level: u32,
    /// Loot, experience and spent abilities (docs/rules.md#summons).
    pub progress: Progress,
    /// Who summoned it, if it is a summon (docs/rules.md#summons).
    pub summoned: Option<Summoned>,
    /// The id of the slow action it has started (docs/rules.md#moving), if any.
    pub casting: Option<String>,
    /// The squares that slow action's area will reach.
    pub casting_area: Vec<crate::map::Pos>,
    /// Abilities it has prepared (docs/rules.md#prepared-abilities), each
    /// with its uses left (`None`: not counted by uses).
    pub prepared: Vec<(String, Option<u32>)>,
}

impl CreatureView {
    /// The stamina to show for it, current and most: a minion's squad's
    /// pool (docs/rules.md#minions: the squad "shares one stamina pool"),
    /// anyone else's own.
    pub fn shown_stamina(&self) -> (i32, i32) {
        match self.pool {
            Some(p) => (p.pool.max(0), p.max),
            None => (self.stamina.current, self.stamina.max),
        }
    }
}
