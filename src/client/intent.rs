//! What a click or a key means: the player's input turned into one of the
//! engine's legal commands. No rule is decided here: every command comes
//! from [`Encounter::legal_actions`], the client only picks among them.

use std::collections::BTreeMap;

use skirmish_rules::ability::{ActionType, Cost, Distance};
use skirmish_rules::encounter::Placement;
use skirmish_rules::encounter::{Command, Encounter};
use skirmish_rules::map::movement::{Mover, opportunity_attacks, path_cost};
use skirmish_rules::map::{Footprint, Pos};
use skirmish_rules::phased::MovementPower;
use skirmish_rules::stats::CreatureId;

/// What the player is aiming, after choosing from the ability bar.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Aim {
    /// Nothing chosen: clicks move the acting creature.
    #[default]
    Move,
    /// An ability by id, waiting for a target or a placement.
    Ability(String),
    /// A melee free strike, waiting for a target.
    FreeStrike,
    /// A charge, waiting for a target.
    Charge,
}

/// One slot of the ability bar.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Slot {
    /// What choosing it does.
    pub action: SlotAction,
    pub label: String,
    /// Its cost in a few words ("Main", "Maneuver · 3 wrath", ...).
    pub cost: String,
    /// The resource it costs, for the bar's compact button ("◆3"), if any.
    pub price: Option<u32>,
    /// Whether there is any legal way to use it now.
    pub usable: bool,
    /// Its key, the same all turn: a digit for the creature's own
    /// abilities (by their place in its list), a letter for a basic action.
    pub key: SlotKey,
    /// One of the creature's own abilities (not a basic action).
    pub own: bool,
}

/// The key that chooses a slot of the ability bar.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SlotKey {
    /// 1 to 9, and 10 for the 0 key.
    Digit(usize),
    /// A basic action's letter.
    Letter(char),
    /// An eleventh ability or later: click it.
    None,
}

impl SlotKey {
    /// How the button shows it: "3", "0", "T".
    pub fn label(self) -> Option<String> {
        match self {
            SlotKey::Digit(10) => Some("0".into()),
            SlotKey::Digit(n) => Some(n.to_string()),
            SlotKey::Letter(c) => Some(c.to_string()),
            SlotKey::None => None,
        }
    }
}

/// The basic actions' letters (fixed; the other letters move the camera,
/// show panels or pace a demo): Free Strike, Charge, Defend, Stand Up,
/// Catch Breath, Escape Grab, Hide, Delay, End Turn.
pub const BASIC_KEYS: [(&str, char); 9] = [
    ("Free Strike", 'T'),
    ("Charge", 'G'),
    ("Defend", 'Q'),
    ("Stand Up", 'U'),
    ("Catch Breath", 'P'),
    ("Escape Grab", 'X'),
    ("Hide", 'H'),
    ("Delay", 'Y'),
    ("End Turn", 'E'),
];

fn basic_key(label: &str) -> SlotKey {
    BASIC_KEYS
        .iter()
        .find(|(l, _)| *l == label)
        .map_or(SlotKey::None, |(_, c)| SlotKey::Letter(*c))
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SlotAction {
    /// Aim it, then click a target or square.
    Aim(Aim),
    /// No choice needed: this command right away.
    Now(Command),
}

/// The ability bar of `creature`: its abilities, then the basic actions.
pub fn slots(encounter: &Encounter, legal: &[Command], creature: CreatureId) -> Vec<Slot> {
    let Some(view) = encounter.creature(creature) else {
        return Vec::new();
    };
    let content = encounter.content();
    let mut out = Vec::new();
    let mut number = 0;
    for id in &view.abilities {
        let Some(ab) = content.ability(id) else {
            continue;
        };
        if ab.trigger.is_some() {
            // Triggered abilities are offered by prompts, not the bar.
            continue;
        }
        // Every own ability is listed, usable or not, so its number holds.
        number += 1;
        let key = if number <= 10 {
            SlotKey::Digit(number)
        } else {
            SlotKey::None
        };
        let usable = legal.iter().any(|c| uses_ability(c, id));
        let mut cost = action_name(ab.action).to_string();
        match ab.cost {
            Cost::Heroic(n) => {
                let what = view
                    .heroic
                    .as_ref()
                    .map_or("resource".to_string(), |h| h.resource.clone());
                cost = format!("{cost} · {n} {what}");
            }
            Cost::Malice(n) => cost = format!("{cost} · {n} Malice"),
            Cost::Signature => cost = format!("{cost} · signature"),
            Cost::Free => {}
        }
        // A self-only ability needs no target: the slot uses it at once.
        let action = match (ab.distance, legal.iter().find(|c| uses_ability(c, id))) {
            (Distance::Myself, Some(cmd)) => SlotAction::Now(cmd.clone()),
            _ => SlotAction::Aim(Aim::Ability(id.clone())),
        };
        let price = match ab.cost {
            Cost::Heroic(n) | Cost::Malice(n) => Some(n),
            _ => None,
        };
        out.push(Slot {
            action,
            label: ab.name.clone(),
            cost,
            price,
            usable,
            key,
            own: true,
        });
    }
    let has = |f: &dyn Fn(&Command) -> bool| legal.iter().any(f);
    for (aim, label, usable) in [
        (
            Aim::FreeStrike,
            "Free Strike",
            has(&|c| matches!(c, Command::FreeStrike { .. })),
        ),
        (
            Aim::Charge,
            "Charge",
            has(&|c| matches!(c, Command::Charge { .. })),
        ),
    ] {
        if usable {
            out.push(Slot {
                action: SlotAction::Aim(aim),
                label: label.into(),
                cost: "Main".into(),
                price: None,
                usable,
                key: basic_key(label),
                own: false,
            });
        }
    }
    let simple: [(&str, &str, fn(CreatureId) -> Command); 8] = [
        ("Defend", "Main", |creature| Command::Defend { creature }),
        ("Stand Up", "Maneuver", |creature| Command::StandUp {
            creature,
        }),
        ("Catch Breath", "Maneuver", |creature| {
            Command::CatchBreath { creature }
        }),
        ("Escape Grab", "Maneuver", |creature| Command::EscapeGrab {
            creature,
        }),
        ("Hide", "Maneuver", |creature| Command::Hide { creature }),
        ("Release Grab", "Free", |creature| Command::Release {
            creature,
        }),
        ("Delay", "Turn", |creature| Command::Delay { creature }),
        ("End Turn", "Turn", |creature| Command::EndTurn { creature }),
    ];
    // Ending one's own ability's effects (a free maneuver,
    // docs/rules.md#ending-effects): a chip for each, before End Turn.
    for cmd in legal
        .iter()
        .filter(|c| matches!(c, Command::EndEffect { creature: who, .. } if *who == creature))
    {
        if let Command::EndEffect { ability, .. } = cmd {
            let name = content
                .ability(ability)
                .map_or(ability.as_str(), |a| a.name.as_str());
            out.push(Slot {
                action: SlotAction::Now(cmd.clone()),
                label: format!("End {name}"),
                cost: "Free maneuver".into(),
                price: None,
                usable: true,
                key: SlotKey::None,
                own: false,
            });
        }
    }
    for (label, cost, make) in simple {
        let cmd = make(creature);
        let usable = legal.contains(&cmd);
        // Only the ones that apply now take room on the bar; End Turn always shows.
        if usable || label == "End Turn" {
            out.push(Slot {
                action: SlotAction::Now(cmd),
                label: label.into(),
                cost: cost.into(),
                price: None,
                usable,
                key: basic_key(label),
                own: false,
            });
        }
    }
    out
}

/// An action type in a word or two.
pub fn action_name(a: ActionType) -> &'static str {
    match a {
        ActionType::MainAction => "Main",
        ActionType::Maneuver => "Maneuver",
        ActionType::MoveAction => "Move",
        ActionType::TriggeredAction => "Triggered",
        ActionType::FreeTriggeredAction => "Free triggered",
        ActionType::FreeManeuver => "Free maneuver",
        ActionType::FreeAction => "Free action",
        ActionType::NoAction => "No action",
        ActionType::SlowAction => "Slow",
        ActionType::Passive => "Passive",
        ActionType::Episodic => "Episodic",
        ActionType::VillainAction => "Villain action",
    }
}

/// Whether `c` uses ability `id` (on targets, placed, or with a charge).
pub fn uses_ability(c: &Command, id: &str) -> bool {
    match c {
        Command::UseAbility { ability, .. } | Command::UseAreaAbility { ability, .. } => {
            ability == id
        }
        Command::Charge {
            ability: Some(a), ..
        } => a == id,
        _ => false,
    }
}

/// Where the cursor must be for an area placement: the square it is
/// anchored on (`None`: wherever the cursor is, it goes on the user).
pub fn anchor(p: &Placement) -> Option<Pos> {
    match p {
        Placement::OnSelf => None,
        Placement::Cube { corner } => Some(*corner),
        Placement::Line { aim, .. } => Some(*aim),
        Placement::Wall { squares } => squares.first().copied(),
        Placement::Cone { aim } => Some(*aim),
        Placement::Sphere { centre } => Some(*centre),
        // docs/rules.md#during-the-move: where the move ends.
        Placement::Path { path } => path.end(),
    }
}

/// The command a click on `square` means, if any: `who` is the creature
/// standing there; `shift` prefers a shift to a move where both reach.
pub fn command_at(
    legal: &[Command],
    actor: CreatureId,
    aim: &Aim,
    square: Pos,
    who: Option<CreatureId>,
    shift: bool,
) -> Option<Command> {
    let mine = || legal.iter().filter(move |c| c.creature() == actor);
    match aim {
        Aim::Move => {
            let mv = mine()
                .find(|c| matches!(c, Command::Move { path, .. } if path.end() == Some(square)));
            let sh = mine().find(|c| matches!(c, Command::Shift { to, .. } if *to == square));
            if let Some(c) = if shift { sh.or(mv) } else { mv.or(sh) } {
                return Some(c.clone());
            }
            // Phased 2d6: the best movement power that gets there.
            mine()
                .filter_map(|c| match c {
                    Command::Movement { power, path, .. } if path.end() == Some(square) => {
                        Some((power_rank(*power, shift), c))
                    }
                    _ => None,
                })
                .min_by_key(|(r, _)| *r)
                .map(|(_, c)| c.clone())
        }
        Aim::FreeStrike => {
            let t = who?;
            mine()
                .find(|c| matches!(c, Command::FreeStrike { target, .. } if *target == t))
                .cloned()
        }
        Aim::Charge => {
            let t = who?;
            mine()
                .find(
                    |c| matches!(c, Command::Charge { target, ability: None, .. } if *target == t),
                )
                .cloned()
        }
        Aim::Ability(id) => {
            // A targeted use naming the creature there first; out of
            // reach, a charge ending in the ability (docs/rules.md#charge)...
            if let Some(t) = who
                && let Some(c) = mine()
                    .find(|c| {
                        matches!(c, Command::UseAbility { ability, targets, .. }
                            if ability == id && targets.contains(&t))
                    })
                    .or_else(|| {
                        mine().find(|c| {
                            matches!(c, Command::Charge { ability: Some(a), target, .. }
                                if a == id && *target == t)
                        })
                    })
            {
                return Some(c.clone());
            }
            // ...then a placement anchored on the square (or on the user),
            // or a strike at the object there (docs/rules.md#objects).
            mine()
                .find(|c| {
                    matches!(c, Command::UseAreaAbility { ability, placement, .. }
                        if ability == id && anchor(placement).is_none_or(|a| a == square))
                        || matches!(c, Command::UseOnObject { ability, at, .. }
                        if ability == id && *at == square)
                })
                .cloned()
        }
    }
}

/// Which movement power a click prefers where several reach a square: a
/// charge (an attack with advantage), then the plainest; with the shift
/// key, those that don't provoke.
fn power_rank(p: MovementPower, shift: bool) -> u8 {
    use MovementPower as P;
    let order = if shift {
        [
            P::Shift,
            P::Tumble,
            P::Disengage,
            P::Charge,
            P::Walk,
            P::Hustle,
            P::Run,
        ]
    } else {
        [
            P::Charge,
            P::Walk,
            P::Shift,
            P::Tumble,
            P::Hustle,
            P::Run,
            P::Disengage,
        ]
    };
    order.iter().position(|&q| q == p).unwrap_or(9) as u8
}

/// The movement power each shaded square would take (phased 2d6), for
/// colouring hustles and runs apart from walks.
pub fn powers(legal: &[Command], actor: CreatureId) -> BTreeMap<Pos, MovementPower> {
    let mut out: BTreeMap<Pos, MovementPower> = BTreeMap::new();
    for c in legal {
        if let Command::Movement {
            creature,
            power,
            path,
        } = c
            && *creature == actor
            && let Some(end) = path.end()
        {
            let better = out
                .get(&end)
                .is_none_or(|&q| power_rank(*power, false) < power_rank(q, false));
            if better {
                out.insert(end, *power);
            }
        }
    }
    out
}

/// The squares to shade for the current aim: for moving, each reachable
/// square with its path; for an ability, each square of a valid target or
/// an anchor of a valid placement.
/// Squares a second move would reach, paid with the main action, while
/// both the move and the main action are left (the second colour of a
/// move range): each with the first move's path, to a square of this
/// move's reach, from where the second move gets there most cheaply: the
/// two moves' cost and the whole way (the first path, then the second's
/// squares). Empty in a phased 2d6 fight, and for a dazed
/// creature (one action).
pub fn second_moves(
    e: &Encounter,
    legal: &[Command],
    actor: CreatureId,
) -> BTreeMap<Pos, (u32, Vec<Pos>)> {
    let mut out: BTreeMap<Pos, (u32, Vec<Pos>)> = BTreeMap::new();
    let Some(view) = e.creature(actor) else {
        return BTreeMap::new();
    };
    let b = view.budget;
    let dazed = view
        .conditions
        .has(skirmish_rules::conditions::ConditionKind::Dazed);
    if !(b.move_action && b.main) || dazed || e.phased_rules().is_some() {
        return BTreeMap::new();
    }
    let first: Vec<(Pos, Vec<Pos>)> = legal
        .iter()
        .filter_map(|c| match c {
            Command::Move { creature, path } if *creature == actor => {
                Some((path.end()?, path.to_vec()))
            }
            _ => None,
        })
        .collect();
    let occupants = e.occupants();
    let prone = u32::from(
        view.conditions
            .has(skirmish_rules::conditions::ConditionKind::Prone),
    );
    for (via, path) in &first {
        let mover = Mover {
            id: actor,
            space: Footprint::new(*via, view.space.size),
            side: view.side,
            speed: view.movement.speed,
            extra_cost: prone,
            shifting: false,
            modes: view.movement.modes.crawling(prone > 0),
        };
        let before = path_cost(
            e.map(),
            &occupants,
            &Mover {
                space: view.space,
                ..mover
            },
            path,
        )
        .unwrap_or(u32::MAX / 2);
        let reach = skirmish_rules::map::movement::reachable(e.map(), &occupants, &mover);
        for (q, cost) in reach.destinations() {
            if first.iter().any(|(p, _)| *p == q) || q == view.space.pos {
                continue;
            }
            let total = before.saturating_add(cost);
            if out.get(&q).is_none_or(|(t, _)| total < *t) {
                // The whole way: the first move, then the second's squares.
                let mut whole = path.clone();
                whole.extend(reach.path_to(q).unwrap_or_default().into_iter().skip(1));
                out.insert(q, (total, whole));
            }
        }
    }
    out
}

pub fn destinations(legal: &[Command], actor: CreatureId) -> BTreeMap<Pos, Vec<Pos>> {
    let mut out = BTreeMap::new();
    let mut ranks: BTreeMap<Pos, u8> = BTreeMap::new();
    for c in legal {
        match c {
            Command::Move { creature, path } if *creature == actor => {
                if let Some(end) = path.end() {
                    out.insert(end, path.to_vec());
                }
            }
            Command::Shift { creature, to } if *creature == actor => {
                out.entry(*to).or_insert_with(|| vec![*to]);
            }
            Command::Movement {
                creature,
                power,
                path,
            } if *creature == actor => {
                if let Some(end) = path.end() {
                    let rank = power_rank(*power, false);
                    if ranks.get(&end).is_none_or(|&r| rank < r) {
                        ranks.insert(end, rank);
                        out.insert(end, path.to_vec());
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// The targets a targeted aim can be used on, and the anchor squares of its
/// valid placements.
pub fn aim_targets(legal: &[Command], actor: CreatureId, aim: &Aim) -> (Vec<CreatureId>, Vec<Pos>) {
    let mut targets = Vec::new();
    let mut squares = Vec::new();
    for c in legal.iter().filter(|c| c.creature() == actor) {
        match (aim, c) {
            (Aim::FreeStrike, Command::FreeStrike { target, .. })
            | (
                Aim::Charge,
                Command::Charge {
                    target,
                    ability: None,
                    ..
                },
            ) => targets.push(*target),
            (
                Aim::Ability(id),
                Command::UseAbility {
                    ability,
                    targets: t,
                    ..
                },
            ) if ability == id => targets.extend(t.iter().copied()),
            (
                Aim::Ability(id),
                Command::Charge {
                    ability: Some(a),
                    target,
                    ..
                },
            ) if a == id => targets.push(*target),
            (
                Aim::Ability(id),
                Command::UseAreaAbility {
                    ability, placement, ..
                },
            ) if ability == id => {
                if let Some(a) = anchor(placement) {
                    squares.push(a);
                }
            }
            _ => {}
        }
    }
    targets.sort();
    targets.dedup();
    squares.sort();
    squares.dedup();
    (targets, squares)
}

/// A move's cost in squares of movement, and the creatures whose
/// opportunity attacks it would provoke (docs/rules.md#moving).
pub fn path_preview(
    encounter: &Encounter,
    actor: CreatureId,
    path: &[Pos],
) -> (u32, Vec<CreatureId>) {
    let Some(view) = encounter.creature(actor) else {
        return (0, Vec::new());
    };
    let occupants = encounter.occupants();
    let prone = view
        .conditions
        .has(skirmish_rules::conditions::ConditionKind::Prone);
    let mover = Mover {
        id: actor,
        space: Footprint::new(path[0], view.space.size),
        side: view.side,
        speed: view.movement.speed,
        extra_cost: u32::from(prone),
        shifting: path.len() == 1,
        modes: view.movement.modes.crawling(prone),
    };
    let cost = path_cost(encounter.map(), &occupants, &mover, path).unwrap_or(0);
    let provoked = if path.len() == 1 {
        Vec::new()
    } else {
        opportunity_attacks(&occupants, &mover, path.iter().copied())
            .into_iter()
            .map(|p| p.by)
            .collect()
    };
    (cost, provoked)
}

/// The ability-bar slot for keys 1 to 9.
pub fn slot_for_key(slots: &[Slot], key: SlotKey) -> Option<&Slot> {
    if key == SlotKey::None {
        return None;
    }
    slots.iter().find(|s| s.key == key)
}

#[cfg(test)]
mod tests {
    use std::path::Path;
    use std::sync::Arc;

    use skirmish_rules::content::ContentDb;

    use super::*;

    fn started() -> (Encounter, CreatureId) {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets");
        let db = Arc::new(ContentDb::load(&root).unwrap());
        let mut e = Encounter::new(db, "keep_breach", 7).unwrap();
        let legal = e.legal_actions();
        let start = legal
            .iter()
            .find(|c| matches!(c, Command::StartTurn { .. }))
            .unwrap()
            .clone();
        let who = start.creature();
        e.apply(start).unwrap();
        (e, who)
    }

    #[test]
    fn clicking_a_reachable_square_moves_along_the_engines_path() {
        let (mut e, who) = started();
        let legal = e.legal_actions();
        let dests = destinations(&legal, who);
        let (&square, path) = dests.iter().find(|(_, p)| p.len() > 2).unwrap();
        let cmd = command_at(&legal, who, &Aim::Move, square, None, false).unwrap();
        assert_eq!(
            cmd,
            Command::Move {
                creature: who,
                path: path.clone().into()
            }
        );
        assert!(e.apply(cmd).is_ok());
        assert_eq!(e.creature(who).unwrap().space.pos, square);
    }

    // Phased 2d6 (docs/rules.md#movement-powers): a click on a shaded square in the movement
    // phase gives the engine a movement power along the shaded path, the
    // plainest that reaches (walk within speed, hustle or run beyond).
    #[test]
    fn phased_clicks_move_with_the_plainest_power() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets");
        let db = Arc::new(ContentDb::load(&root).unwrap());
        let mut e = Encounter::new(db, "phased_ambush", 3).unwrap();
        let start = e.legal_actions()[0].clone();
        let who = start.creature();
        e.apply(start).unwrap();
        let legal = e.legal_actions();
        let dests = destinations(&legal, who);
        let speed = e.creature(who).unwrap().movement.speed as usize;
        let powers = powers(&legal, who);
        let (&far, path) = dests
            .iter()
            .max_by_key(|(_, p)| p.len())
            .expect("somewhere to go");
        assert!(path.len() - 1 > speed, "a run reaches past speed");
        assert_eq!(powers[&far], MovementPower::Run);
        let cmd = command_at(&legal, who, &Aim::Move, far, None, false).unwrap();
        assert!(
            matches!(&cmd, Command::Movement { power: MovementPower::Run, path: p, .. } if p.to_vec() == *path)
        );
        let near = dests
            .iter()
            .find(|(_, p)| p.len() == 2)
            .map(|(s, _)| *s)
            .unwrap();
        let cmd = command_at(&legal, who, &Aim::Move, near, None, false).unwrap();
        assert!(matches!(
            cmd,
            Command::Movement {
                power: MovementPower::Walk | MovementPower::Charge,
                ..
            }
        ));
        e.apply(cmd).unwrap();
        assert_eq!(e.creature(who).unwrap().space.pos, near);
    }

    #[test]
    fn clicking_where_nothing_can_go_means_nothing() {
        let (mut e, who) = started();
        let legal = e.legal_actions();
        // A wall square is never a destination.
        let wall = e
            .map()
            .squares()
            .find(|&p| e.map().blocks(p.x, p.y))
            .unwrap();
        assert_eq!(command_at(&legal, who, &Aim::Move, wall, None, false), None);
        // An ability with no target under the cursor does nothing.
        let ab = e.creature(who).unwrap().abilities[0].clone();
        assert_eq!(
            command_at(&legal, who, &Aim::Ability(ab), wall, None, false),
            None
        );
    }

    #[test]
    fn the_bar_lists_abilities_then_basic_actions_and_knows_what_is_usable() {
        let (mut e, who) = started();
        let legal = e.legal_actions();
        let bar = slots(&e, &legal, who);
        let view = e.creature(who).unwrap();
        let first = e
            .content()
            .ability(&view.abilities[0])
            .unwrap()
            .name
            .clone();
        assert_eq!(bar[0].label, first);
        let end = bar.iter().find(|s| s.label == "End Turn").unwrap();
        assert!(end.usable);
        assert_eq!(
            end.action,
            SlotAction::Now(Command::EndTurn { creature: who })
        );
        // Keys count from 1; End Turn is E.
        assert_eq!(slot_for_key(&bar, SlotKey::Digit(1)), bar.first());
        assert_eq!(slot_for_key(&bar, SlotKey::None), None);
        assert_eq!(slot_for_key(&bar, SlotKey::Letter('E')), Some(end));
        // "Usable" means the engine lists a command for it.
        for s in &bar {
            if let SlotAction::Aim(Aim::Ability(id)) = &s.action {
                assert_eq!(s.usable, legal.iter().any(|c| uses_ability(c, id)));
            }
        }
    }

    // Issue 50 point 1: every ability keeps its number for the whole
    // turn, usable or not, and the basic actions keep their letters.
    #[test]
    fn keys_hold_for_the_whole_turn() {
        let (mut e, who) = started();
        let keys = |e: &mut Encounter| {
            let legal = e.legal_actions();
            slots(e, &legal, who)
                .into_iter()
                .map(|s| (s.label, s.key, s.own))
                .collect::<Vec<_>>()
        };
        let first = keys(&mut e);
        let own: Vec<_> = first.iter().filter(|s| s.2).cloned().collect();
        for (i, (_, key, _)) in own.iter().enumerate() {
            assert_eq!(*key, SlotKey::Digit(i + 1));
        }
        // Spend the move, then the main action, checking after each.
        for step in 0..2 {
            let legal = e.legal_actions();
            let next = legal
                .iter()
                .find(|c| match step {
                    0 => matches!(c, Command::Move { .. }),
                    _ => matches!(c, Command::UseAbility { .. } | Command::Defend { .. }),
                })
                .cloned()
                .unwrap();
            e.apply(next).unwrap();
            let now = keys(&mut e);
            let now_own: Vec<_> = now.iter().filter(|s| s.2).cloned().collect();
            assert_eq!(
                now_own.iter().map(|s| (&s.0, s.1)).collect::<Vec<_>>(),
                own.iter().map(|s| (&s.0, s.1)).collect::<Vec<_>>(),
                "after step {step}"
            );
            for (label, key, own) in &now {
                if !own {
                    assert_eq!(*key, basic_key(label), "{label}");
                    assert!(matches!(key, SlotKey::Letter(_)), "{label}");
                }
            }
        }
    }

    /// Play random moves, turn starts and turn ends from `e` (heroes and
    /// monsters walk toward each other and meet) until `found` finds what
    /// it looks for among the legal commands; `None` if it never does.
    fn wander_until<T>(
        e: &mut Encounter,
        mut found: impl FnMut(&mut Encounter, &[Command]) -> Option<T>,
    ) -> Option<T> {
        let mut rng = 0u64;
        for _ in 0..2000 {
            let legal = e.legal_actions();
            if legal.is_empty() {
                break;
            }
            if let Some(t) = found(e, &legal) {
                return Some(t);
            }
            rng = rng
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let pick = legal
                .iter()
                .filter(|c| {
                    matches!(
                        c,
                        Command::Move { .. } | Command::StartTurn { .. } | Command::EndTurn { .. }
                    )
                })
                .nth((rng >> 33) as usize % 3)
                .cloned()
                .unwrap_or_else(|| legal[0].clone());
            let _ = e.apply(pick);
        }
        None
    }

    #[test]
    fn an_aimed_ability_picks_the_command_naming_the_target_under_the_cursor() {
        // Until someone has a target for an ability, then click it.
        let (mut e, _) = started();
        let clicked = wander_until(&mut e, |e, legal| {
            let Some(Command::UseAbility {
                creature,
                ability,
                targets,
                ..
            }) = legal
                .iter()
                .find(|c| matches!(c, Command::UseAbility { targets, .. } if targets.len() == 1))
            else {
                return None;
            };
            let t = targets[0];
            let at = e.creature(t).unwrap().space.pos;
            let aim = Aim::Ability(ability.clone());
            let cmd = command_at(legal, *creature, &aim, at, Some(t), false).unwrap();
            assert!(uses_ability(&cmd, ability));
            assert!(matches!(&cmd, Command::UseAbility { targets, .. } if targets.contains(&t)));
            let (ts, _) = aim_targets(legal, *creature, &aim);
            assert!(ts.contains(&t));
            Some(())
        });
        assert!(clicked.is_some(), "no one came within reach of a target");
    }

    // docs/rules.md#charge: "Abilities with the Charge keyword can be used
    // with the Charge main action instead of a melee free strike." With
    // such an ability aimed, clicking a creature out of its reach but at
    // the end of a straight run charges it, and that creature is marked as
    // a target.
    #[test]
    fn an_aimed_charge_ability_charges_a_creature_out_of_its_reach() {
        let (mut e, _) = started();
        let charged = wander_until(&mut e, |e, legal| {
            let charge = legal.iter().find(|c| {
                matches!(c, Command::Charge { ability: Some(a), target, .. }
                    if !legal.iter().any(|u| matches!(u, Command::UseAbility { ability, targets, .. }
                        if ability == a && targets.contains(target))))
            })?;
            let Command::Charge {
                creature,
                ability: Some(a),
                target,
                ..
            } = charge
            else {
                unreachable!()
            };
            let aim = Aim::Ability(a.clone());
            let at = e.creature(*target).unwrap().space.pos;
            let cmd = command_at(legal, *creature, &aim, at, Some(*target), false).unwrap();
            assert_eq!(&cmd, charge);
            let (ts, _) = aim_targets(legal, *creature, &aim);
            assert!(ts.contains(target));
            let before = e.creature(*creature).unwrap().space.pos;
            e.apply(cmd).unwrap();
            assert_ne!(e.creature(*creature).unwrap().space.pos, before);
            Some(())
        });
        assert!(charged.is_some(), "no charge with an ability came up");
    }

    #[test]
    fn a_path_preview_counts_the_cost_and_the_opportunity_attacks() {
        let (mut e, who) = started();
        let legal = e.legal_actions();
        for (_, path) in destinations(&legal, who) {
            let (cost, provoked) = path_preview(&e, who, &path);
            // Each step costs at least 1 (docs/rules.md#moving).
            assert!(cost as usize >= path.len() - 1);
            // The engine's own list agrees about who would strike.
            let view = e.creature(who).unwrap();
            for by in provoked {
                assert_ne!(e.creature(by).unwrap().side, view.side);
            }
        }
    }
}
