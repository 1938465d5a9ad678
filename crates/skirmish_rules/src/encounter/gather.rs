//! docs/rules.md#cover-and-high-ground's bookkeeping effects: loot and end-of-turn looting of treasure
//! tokens, experience from the abilities that grant it, and limited
//! abilities and items that are spent, recovered and refreshed.

use crate::encounter::log::emit;
use crate::fast::KeyedWorld;
use bevy_ecs::prelude::*;

use super::log::{CombatLog, LogEntry};
use super::state::board::Battlefield;
use super::state::components::*;
use super::world::entity_of;
use crate::ability::Ability;
use crate::content::Content;
use crate::encounter::world::LooterData;
use crate::map::{Footprint, Map, Pos, line_of_effect};
use crate::stats::CreatureId;

/// The treasure squares a looter at `space` picks up with "Loot `range`":
/// every token within range that it has line of effect to (docs/rules.md#moving: "pick
/// up every money token and treasure tile within range X ... considered a
/// ranged ability for the purposes of line-of-sight").
pub fn loot_squares(map: &Map, space: Footprint, range: u32) -> Vec<Pos> {
    map.treasures()
        .into_iter()
        .map(|(p, _)| p)
        .filter(|&p| {
            let fp = Footprint::single(p);
            space.distance(fp) <= range && (space.overlaps(fp) || line_of_effect(map, space, fp))
        })
        .collect()
}

/// Pick up the treasure on `squares`.
fn take(world: &mut World, entity: Entity, id: CreatureId, squares: Vec<Pos>) {
    let mut coins = 0;
    let mut taken = Vec::new();
    // Most squares hold nothing: the map (shared with any snapshot) is
    // copied for a change only when there is treasure to take.
    let map = &world.res::<Battlefield>().0;
    if !squares.iter().any(|&p| map.has_treasure(p)) {
        return;
    }
    let mut items = Vec::new();
    {
        let mut map = world.res_mut::<Battlefield>();
        for p in squares {
            let c = map.map_mut().take_treasure(p);
            if c > 0 {
                coins += c;
                taken.push(p);
            }
            if let Some(item) = map.map_mut().take_item(p) {
                items.push(item);
                if !taken.contains(&p) {
                    taken.push(p);
                }
            }
        }
    }
    for item in items {
        coins += found_item(world, entity, id, &item);
    }
    if coins == 0 {
        return;
    }
    let Some(mut progress) = world.comp_mut::<Progress>(entity) else {
        return;
    };
    progress.loot += coins;
    let total = progress.loot;
    emit(
        world,
        LogEntry::Looted {
            creature: id,
            coins,
            squares: taken,
            total,
        },
    );
}

/// What a sold item fetches (our ruling, docs/rulings.md: the seed sells
/// a copy to the city's supply, and has no prices here).
pub const ITEM_SOLD_FOR: u32 = 5;

/// docs/rules.md#loot: a treasure tile's item goes to the looter, who can
/// use it from now on; "If a character loots an item he or she already
/// owns a copy of, the new item is immediately sold". Returns the coins it
/// was sold for (0 if kept).
fn found_item(world: &mut World, entity: Entity, id: CreatureId, item: &str) -> u32 {
    let content = world.res::<Content>().0.clone();
    let name = content
        .ability(item)
        .map_or_else(|| item.to_string(), |a| a.name.clone());
    let owned = world
        .comp::<Abilities>(entity)
        .is_some_and(|l| l.0.iter().any(|x| x == item));
    if owned {
        emit(
            world,
            LogEntry::ItemSold {
                creature: id,
                item: name,
                coins: ITEM_SOLD_FOR,
            },
        );
        return ITEM_SOLD_FOR;
    }
    if let Some(mut l) = world.comp_mut::<Abilities>(entity) {
        l.push(item.to_string(), &content);
    }
    emit(
        world,
        LogEntry::ItemFound {
            creature: id,
            item: name,
        },
    );
    0
}

/// A "Loot X" effect.
pub(super) fn loot(world: &mut World, entity: Entity, id: CreatureId, range: u32) {
    let Some(space) = world.comp::<Space>(entity).map(|s| s.0) else {
        return;
    };
    let squares = loot_squares(&world.res::<Battlefield>().0, space, range);
    take(world, entity, id, squares);
}

/// docs/rules.md#summons "End-of-turn looting": "a character must also loot any money
/// tokens or treasure tiles present in the hex he or she occupies at the end
/// of the character's turn. Character summons do not perform end-of-turn
/// looting." Heroes only (monsters carry no purse).
pub(super) fn end_of_turn(world: &mut World, ended: &[CreatureId]) {
    for &id in ended {
        let Some(e) = entity_of(world, id) else {
            continue;
        };
        // What it is, read at once through a kept query (at every turn's
        // end: 0.1% fewer instructions a random game than four lookups).
        let read = super::world::CachedQuery::<LooterData>::with(world, |q| {
            q.get_manual(world, e)
                .ok()
                .map(|(heroic, summoned, space, stamina)| {
                    (
                        heroic && !summoned,
                        space.map(|s| s.0),
                        stamina.is_some_and(|s| !s.is_dead()),
                    )
                })
        })
        .flatten();
        let Some((hero, Some(space), alive)) = read else {
            continue;
        };
        if hero && alive {
            take(world, e, id, space.squares().collect());
        }
    }
}

/// docs/rules.md#prepared-abilities: the user gains `ability` until it has
/// been used `n` times or the round ends. Preparing it again resets it.
pub(super) fn prepare(
    world: &mut World,
    entity: Entity,
    id: CreatureId,
    ability: &str,
    lasts: crate::ability::Prepared,
    source: Option<String>,
) {
    let content = world.res::<Content>().clone();
    let Some(a) = content.ability(ability) else {
        return;
    };
    let (uses, round) = match lasts {
        crate::ability::Prepared::Uses(n) => (Some(n), false),
        crate::ability::Prepared::Round => (None, true),
        crate::ability::Prepared::Concentration => (None, false),
    };
    let known = world
        .comp::<Abilities>(entity)
        .is_some_and(|l| l.0.iter().any(|x| x == ability));
    let mut prepared = world
        .comp::<PreparedAbilities>(entity)
        .cloned()
        .unwrap_or_default();
    let was_prepared = prepared.0.iter().any(|p| p.ability == ability);
    if known && !was_prepared {
        // It is already its own: nothing to prepare.
        return;
    }
    prepared.0.retain(|p| p.ability != ability);
    prepared.0.push(PreparedAbility {
        ability: ability.to_string(),
        uses,
        round,
        source,
    });
    world.entity_mut(entity).insert(prepared);
    if !known && let Some(mut l) = world.comp_mut::<Abilities>(entity) {
        l.push(ability.to_string(), &content);
    }
    emit(
        world,
        LogEntry::AbilityPrepared {
            creature: id,
            ability: a.name.clone(),
        },
    );
}

/// A prepared ability expires: it leaves the creature's abilities.
pub(super) fn expire(world: &mut World, entity: Entity, id: CreatureId, ability: &str) {
    if let Some(mut p) = world.comp_mut::<PreparedAbilities>(entity) {
        p.0.retain(|p| p.ability != ability);
    }
    let content = world.res::<Content>().0.clone();
    if let Some(mut l) = world.comp_mut::<Abilities>(entity) {
        l.remove(ability, &content);
    }
    let name = world
        .res::<Content>()
        .ability(ability)
        .map_or(ability.to_string(), |a| a.name.clone());
    emit(
        world,
        LogEntry::PreparedExpired {
            creature: id,
            ability: name,
        },
    );
}

/// The round ends: abilities prepared for the round expire.
pub(super) fn end_round(world: &mut World) {
    let entities: Vec<Entity> = super::world::all_creatures(world).collect();
    for e in entities {
        let Some(p) = world.comp::<PreparedAbilities>(e).cloned() else {
            continue;
        };
        let Some(id) = world.comp::<Creature>(e).map(|c| c.id) else {
            continue;
        };
        for p in p.0 {
            if p.round {
                expire(world, e, id, &p.ability);
            }
        }
    }
}

/// An ability has been paid for: experience, and a use of a limited one.
pub(super) fn used(world: &mut World, entity: Entity, id: CreatureId, ability: &Ability) {
    // A prepared ability with uses spends one, and expires at none.
    let spent_out = world
        .comp_mut::<PreparedAbilities>(entity)
        .and_then(|mut p| {
            let slot = p.0.iter_mut().find(|p| p.ability == ability.id)?;
            let left = slot.uses.as_mut()?;
            *left = left.saturating_sub(1);
            Some(*left == 0)
        })
        .unwrap_or(false);
    if spent_out {
        expire(world, entity, id, &ability.id);
    }
    // (A conditional experience is gained once the roll shows it holds.)
    if ability.experience_if.is_none() {
        gain_experience(world, id, ability.experience);
    }
    let Some(mut p) = world.comp_mut::<Progress>(entity) else {
        return;
    };
    let mut entries = Vec::new();
    if ability.uses.is_some() {
        p.spent.push(ability.id.clone());
        if uses_left(Some(&p), ability) == Some(0) {
            entries.push(LogEntry::AbilitySpent {
                creature: id,
                ability: ability.name.clone(),
            });
        }
    }
    let mut l = world.res_mut::<CombatLog>();
    for e in entries {
        l.emit(e);
    }
}

/// docs/rules.md#experience: a hero gains experience (a monster earns
/// none).
pub(super) fn gain_experience(world: &mut World, id: CreatureId, amount: u32) {
    let Some(e) = entity_of(world, id) else {
        return;
    };
    if amount == 0 || world.comp::<Heroic>(e).is_none() {
        return;
    }
    let Some(mut p) = world.comp_mut::<Progress>(e) else {
        return;
    };
    p.experience += amount;
    let total = p.experience;
    emit(
        world,
        LogEntry::ExperienceGained {
            creature: id,
            amount,
            total,
        },
    );
}

/// Whether an ability itself recovers or refreshes (such an ability can't
/// bring itself or another of its kind back: our ruling, so no loop).
fn restores(a: &Ability) -> bool {
    a.has_effect(|e| {
        matches!(
            e,
            crate::ability::Effect::Recover(_) | crate::ability::Effect::Refresh(_)
        )
    })
}

/// "Recover" (abilities) or "refresh" (items) up to `n` spent uses, the
/// most recently spent first (our ruling).
pub(super) fn recover(world: &mut World, entity: Entity, id: CreatureId, n: u32, items: bool) {
    let content = world.res::<Content>().clone();
    let Some(mut p) = world.comp_mut::<Progress>(entity) else {
        return;
    };
    let mut back = Vec::new();
    for _ in 0..n {
        let Some(i) = p.spent.iter().rposition(|s| {
            content
                .ability(s)
                .is_some_and(|a| a.item == items && !restores(a))
        }) else {
            break;
        };
        let a = p.spent.remove(i);
        back.push(content.ability(&a).map_or(a.clone(), |a| a.name.clone()));
    }
    let mut l = world.res_mut::<CombatLog>();
    for ability in back {
        l.emit(LogEntry::AbilityRecovered {
            creature: id,
            ability,
            item: items,
        });
    }
}
