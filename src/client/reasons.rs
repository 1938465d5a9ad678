//! Why not: for a greyed-out ability, a creature that can't be targeted
//! and a square out of reach, the engine's own refusal, asked ahead with
//! [`Encounter::refusal`] (nothing is done). The card and the board show
//! what this finds.

use bevy::prelude::*;
use skirmish_rules::ability::Distance;
use skirmish_rules::encounter::{Command, Encounter, Placement, Refusal};
use skirmish_rules::map::Pos;
use skirmish_rules::map::movement::{Mover, reachable};
use skirmish_rules::stats::{CreatureId, Health};

use super::game::{Game, Selection};
use super::intent::{self, Aim, SlotAction};

pub(super) fn plugin(app: &mut App) {
    // Found last in the input set (input.rs), so all that draws sees them.
    app.init_resource::<Reasons>();
}

/// The reasons for the acting creature's greyed-out slots (by slot index)
/// and for the square under the cursor.
#[derive(Resource, Default, Debug)]
pub struct Reasons {
    key: Option<(u64, u64, Aim, Option<Pos>, bool)>,
    pub slots: Vec<Option<String>>,
    /// Why a click on the hovered square or creature would do nothing.
    pub hover: Option<(Pos, String)>,
}

pub(super) fn find_reasons(
    mut game: NonSendMut<Game>,
    selection: Res<Selection>,
    mut reasons: ResMut<Reasons>,
) {
    let key = (
        game.generation,
        game.version,
        selection.aim.clone(),
        selection.hover,
        selection.shift,
    );
    if reasons.key.as_ref() == Some(&key) {
        return;
    }
    reasons.key = Some(key);
    reasons.slots.clear();
    reasons.hover = None;
    if !game.players_turn() || game.encounter.prompt().is_some() {
        return;
    }
    let Some(actor) = game.encounter.active_creature() else {
        return;
    };
    let legal = game.legal.clone();
    let slots = intent::slots(&game.encounter, &legal, actor);
    reasons.slots = slots
        .iter()
        .map(|s| {
            if s.usable {
                return None;
            }
            match &s.action {
                SlotAction::Aim(Aim::Ability(id)) => ability_reason(&mut game.encounter, actor, id),
                SlotAction::Now(cmd) => game.encounter.refusal(cmd).map(|r| r.to_string()),
                SlotAction::Aim(_) => None,
            }
        })
        .collect();
    if let Some(h) = selection.hover {
        reasons.hover =
            hover_reason(&mut game.encounter, &legal, actor, &selection.aim, h).map(|r| (h, r));
    }
}

/// Refusals that hold whatever the target: the action, the resource, the
/// turn. One of these is the reason, before any about a target.
fn general(r: &Refusal) -> bool {
    matches!(
        r,
        Refusal::MainActionUsed
            | Refusal::ManeuverUsed
            | Refusal::MoveActionUsed
            | Refusal::Dazed
            | Refusal::DazedFreeManeuver
            | Refusal::NotEnoughResource { .. }
            | Refusal::Spent(..)
            | Refusal::NotTheirTurn(..)
            | Refusal::NoTurnInProgress
            | Refusal::Over
            | Refusal::NotTheirAbility(..)
    )
}

/// Why `actor` can't use ability `id` now: the engine's answer to using
/// it on the nearest creature (or placing it there), a general refusal
/// first if any probe meets one.
pub fn ability_reason(e: &mut Encounter, actor: CreatureId, id: &str) -> Option<String> {
    let ab = e.content().ability(id)?.clone();
    let me = e.creature(actor)?;
    let mut others: Vec<(u32, CreatureId, Pos)> = e
        .creatures()
        .into_iter()
        .filter(|c| c.id != actor && c.stamina.health() != Health::Dead)
        .map(|c| (me.space.distance_to(c.space.pos), c.id, c.space.pos))
        .collect();
    // The other side's first: most abilities are for them.
    others.sort_by_key(|(d, id, _)| {
        let side = e.creature(*id).map(|c| c.side);
        (side == Some(me.side), *d, *id)
    });
    let with_target = |t: CreatureId| Command::use_ability(actor, id, vec![t]);
    let placed = |placement: Placement| Command::UseAreaAbility {
        creature: actor,
        ability: id.to_string(),
        placement,
        surges: 0,
        potency_surges: Vec::new(),
        spend: 0,
        tier: None,
        links: None,
    };
    let probes: Vec<Command> = match ab.distance {
        Distance::Myself => vec![with_target(actor)],
        d if d.is_area() => {
            let mut v = vec![placed(Placement::OnSelf)];
            if let Distance::Sweep { .. } = ab.distance {
                v = vec![placed(Placement::Path {
                    path: vec![me.space.pos].into(),
                })];
            }
            if let Some((_, _, at)) = others.first() {
                v.push(placed(Placement::Cube { corner: *at }));
                v.push(placed(Placement::Sphere { centre: *at }));
                v.push(placed(Placement::Cone { aim: *at }));
            }
            v
        }
        _ => others
            .iter()
            .map(|(_, t, _)| with_target(*t))
            .take(6)
            .collect(),
    };
    let answers: Vec<Refusal> = probes.iter().filter_map(|c| e.refusal(c)).collect();
    if answers.len() < probes.len() {
        // One probe was accepted: the ability can be used after all (the
        // listing offers it some other way).
        return None;
    }
    answers
        .iter()
        .find(|r| general(r))
        .or(answers.first())
        .map(|r| r.to_string())
}

/// Why a click on `square` does nothing while aiming `aim`.
fn hover_reason(
    e: &mut Encounter,
    legal: &[Command],
    actor: CreatureId,
    aim: &Aim,
    square: Pos,
) -> Option<String> {
    let occupant = e
        .occupants()
        .into_iter()
        .find(|o| o.space.squares().any(|q| q == square))
        .map(|o| o.id);
    if intent::command_at(legal, actor, aim, square, occupant, false).is_some() {
        return None;
    }
    match aim {
        Aim::Move => {
            if occupant.is_some() || e.map().blocks(square.x, square.y) {
                return None;
            }
            move_reason(e, actor, square)
        }
        Aim::Ability(id) => {
            let target = occupant.filter(|t| *t != actor)?;
            let ab = e.content().ability(id)?;
            if ab.distance.is_area() {
                return None;
            }
            e.refusal(&Command::use_ability(actor, id, vec![target]))
                .map(|r| r.to_string())
        }
        Aim::FreeStrike => {
            let target = occupant.filter(|t| *t != actor)?;
            e.refusal(&Command::FreeStrike {
                creature: actor,
                target,
            })
            .map(|r| r.to_string())
        }
        Aim::Charge => None,
    }
}

/// Why the actor can't move to `square`: the engine's answer to the
/// cheapest path there (found as if speed were no object).
fn move_reason(e: &mut Encounter, actor: CreatureId, square: Pos) -> Option<String> {
    let view = e.creature(actor)?;
    let prone = view
        .conditions
        .has(skirmish_rules::conditions::ConditionKind::Prone);
    let mover = Mover {
        id: actor,
        space: view.space,
        side: view.side,
        speed: 60,
        extra_cost: u32::from(prone),
        shifting: false,
        modes: view.movement.modes.crawling(prone),
    };
    let reach = reachable(e.map(), &e.occupants(), &mover);
    let Some(path) = reach.path_to(square) else {
        return Some("no way there: walls or creatures block every path".into());
    };
    let cmd = Command::Move {
        creature: actor,
        path: skirmish_rules::map::movement::Path::from(path),
    };
    e.refusal(&cmd).map(|r| r.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::client::game::{Mode, Setup};
    use skirmish_rules::ai;

    fn started(id: &str) -> Game {
        let setup = Setup {
            encounter: id.into(),
            mode: Mode::Hotseat,
            seed: 5,
            brain: ai::DEFAULT_BRAIN.into(),
            replay: None,
            load: None,
        };
        let mut g = Game::new(crate::client::shipped_content(), &setup, 1).unwrap();
        let start = g.legal[0].clone();
        g.encounter.apply(start).unwrap();
        g.legal = g.encounter.legal_actions();
        g
    }

    // Issue 50 point 2: a greyed-out ability says why, in the engine's
    // words: too far at the start of a fight, "already used" after it.
    #[test]
    fn a_greyed_out_ability_says_why_in_the_engines_words() {
        let mut g = started("keep_breach");
        let actor = g.encounter.active_creature().unwrap();
        let slots = intent::slots(&g.encounter, &g.legal, actor);
        let mut said = 0;
        for s in slots.iter().filter(|s| !s.usable && s.own) {
            let SlotAction::Aim(Aim::Ability(id)) = &s.action else {
                continue;
            };
            let why = ability_reason(&mut g.encounter, actor, id)
                .unwrap_or_else(|| panic!("{id}: a reason"));
            assert!(
                why.contains("out of range")
                    || why.contains("not enough")
                    || why.contains("line of effect")
                    || why.contains("no targets")
                    || why.contains("can't go there"),
                "{id}: {why}"
            );
            said += 1;
        }
        assert!(said > 0, "some ability is greyed out at the start");
        // Spend the main action: its abilities now say so.
        let main = g
            .legal
            .iter()
            .find(|c| matches!(c, Command::Defend { .. }))
            .cloned()
            .expect("Defend is a main action");
        g.encounter.apply(main).unwrap();
        g.legal = g.encounter.legal_actions();
        let used = g
            .encounter
            .creature(actor)
            .unwrap()
            .abilities
            .iter()
            .filter(|id| {
                g.encounter.content().ability(id).is_some_and(|a| {
                    a.action == skirmish_rules::ability::ActionType::MainAction
                        && a.trigger.is_none()
                })
            })
            .cloned()
            .collect::<Vec<_>>();
        assert!(!used.is_empty());
        for id in used {
            let why = ability_reason(&mut g.encounter, actor, &id).unwrap();
            assert_eq!(why, "the main action is already used", "{id}");
        }
    }

    // A square out of reach says how far it is and how far the creature
    // can go; a square behind walls says no way there.
    #[test]
    fn a_square_out_of_reach_says_how_far() {
        let mut g = started("keep_breach");
        let actor = g.encounter.active_creature().unwrap();
        let here = g.encounter.creature(actor).unwrap().space.pos;
        let dests = intent::destinations(&g.legal, actor);
        let far = g
            .encounter
            .map()
            .squares()
            .filter(|p| !dests.contains_key(p) && !g.encounter.map().blocks(p.x, p.y))
            .filter(|p| {
                !g.encounter
                    .occupants()
                    .iter()
                    .any(|o| o.space.squares().any(|q| q == *p))
            })
            .min_by_key(|p| (p.x - here.x).abs() + (p.y - here.y).abs())
            .unwrap();
        let why = move_reason(&mut g.encounter, actor, far).unwrap();
        assert!(
            why.starts_with("the path costs") || why.starts_with("no way there"),
            "{why}"
        );
    }
}
