//! Triggered actions, prompts, the basic actions Defend and Hide, delaying,
//! surges on potency, high ground and grabs.

use super::*;
use crate::ability::{Ability, TriggerEvent};
use crate::encounter::world;
use crate::power_roll::Tier;
use state::work::{OPPORTUNITY_ATTACK, Reaction};

const BANDIT: CreatureId = CreatureId(2);

/// A content database with an open 10 x 6 map called "open" and these
/// extra abilities (RON text, tier lines parsed).
pub(super) fn db_with(abilities: &[&str]) -> ContentDb {
    let mut db = content();
    db.maps.insert(
        "open".into(),
        crate::content::LoadedMap {
            id: "open".into(),
            name: "Open".into(),
            description: String::new(),
            map: crate::map::grid::ascii(
                "
                ..........
                ..........
                ..........
                ..........
                ..........
                ..........",
            ),
        },
    );
    for text in abilities {
        let mut a: Ability = ron::from_str(text).unwrap();
        assert!(a.parse_lines().is_empty(), "{text}");
        db.abilities.insert(a.id.clone(), a.into());
    }
    db
}

pub(super) fn open(db: ContentDb, heroes: Vec<HeroDef>, monsters: Vec<MonsterDef>) -> Encounter {
    custom(db, "open", heroes, monsters, FirstSide::Heroes, 1)
}

pub(super) fn with(mut h: HeroDef, abilities: &[&str]) -> HeroDef {
    h.abilities = abilities.iter().map(|a| a.to_string()).collect();
    h
}

fn at(e: &mut Encounter, id: CreatureId) -> Pos {
    e.creature(id).unwrap().space.pos
}

pub(super) fn stamina(e: &mut Encounter, id: CreatureId) -> i32 {
    e.creature(id).unwrap().stamina.current
}

fn answer(e: &mut Encounter, who: CreatureId, ability: &str, targets: Vec<CreatureId>) {
    e.apply(Command::Answer {
        creature: who,
        reaction: Some(Reaction {
            ability: ability.into(),
            targets,
        }),
    })
    .unwrap();
}

fn pass(e: &mut Encounter, who: CreatureId) {
    e.apply(Command::Answer {
        creature: who,
        reaction: None,
    })
    .unwrap();
}

pub(super) fn walk(e: &mut Encounter, who: CreatureId, path: &[(i32, i32)]) {
    e.apply(Command::Move {
        creature: who,
        path: path.iter().map(|&(x, y)| Pos::new(x, y)).collect(),
    })
    .unwrap();
}

fn tiers(log: &[LogEntry]) -> Vec<(CreatureId, Tier, u32, u32)> {
    log.iter()
        .filter_map(|l| match l {
            LogEntry::TierResult {
                target,
                tier,
                edges,
                banes,
                ..
            } => Some((*target, *tier, *edges, *banes)),
            _ => None,
        })
        .collect()
}

/// Hand the turn to the bandit: the fury ends its turn unused.
fn bandit_turn(e: &mut Encounter) {
    e.apply(Command::EndTurn { creature: FURY }).unwrap();
    start(e, BANDIT);
}

// docs/rules.md#moving: "Leaving a square adjacent to an enemy without
// shifting provokes an opportunity attack: that enemy may use a triggered
// action to make a melee free strike." Issue #4: "A prompt pauses resolution
// until answered."
#[test]
fn leaving_reach_pauses_the_move_until_the_enemy_answers() {
    let mut e = open(
        db_with(&[]),
        vec![hero("fury", "Korva", (2, 2))],
        vec![monster("bandit", (3, 2))],
    );
    start(&mut e, FURY);
    walk(&mut e, FURY, &[(2, 2), (1, 2), (0, 2)]);
    let p = e.prompt().cloned().expect("a prompt");
    assert_eq!(p.creature, BANDIT);
    assert_eq!(p.event.kind, TriggerEvent::EnemyLeavesAdjacency);
    assert_eq!(
        p.options,
        vec![Reaction {
            ability: OPPORTUNITY_ATTACK.into(),
            targets: vec![FURY]
        }]
    );
    assert_eq!(e.phase(), Phase::Reacting);
    assert_eq!(at(&mut e, FURY), Pos::new(2, 2), "paused before leaving");
    // Nothing else happens until the prompt is answered, and only by the one asked.
    let refused = e.apply(Command::EndTurn { creature: FURY }).unwrap_err();
    assert_eq!(
        refused.to_string(),
        "waiting for Bandit to answer a triggered-action prompt"
    );
    assert!(matches!(
        e.apply(Command::Answer {
            creature: FURY,
            reaction: None
        }),
        Err(Refusal::NotAsked(_))
    ));
    assert!(matches!(
        e.apply(Command::Answer {
            creature: BANDIT,
            reaction: Some(Reaction {
                ability: "bandit_cudgel".into(),
                targets: vec![FURY]
            })
        }),
        Err(Refusal::NotAnOption(_))
    ));
    // The legal actions are the answers: let it pass, or strike.
    assert_eq!(e.legal_actions().len(), 2);
    pass(&mut e, BANDIT);
    assert_eq!(at(&mut e, FURY), Pos::new(0, 2), "the move goes on");
    assert_eq!(stamina(&mut e, FURY), 21);
    assert_eq!(e.phase(), Phase::Acting);
    assert!(e.creature(BANDIT).unwrap().budget.triggered, "not spent");
    // Answering with no prompt open is refused.
    assert_eq!(
        e.apply(Command::Answer {
            creature: BANDIT,
            reaction: None
        }),
        Err(Refusal::NoPrompt)
    );
}

// The same for a two-square enemy that stands beside the path only by its
// far squares: its top-left square is two rows above the path, its lower
// row one above (docs/rules.md#moving; a walk passes over at once only the
// creatures more than a square from the box around its whole path, which
// must count each creature's whole space).
#[test]
fn leaving_a_large_enemy_by_its_far_squares_provokes_too() {
    let mut e = open(
        db_with(&[]),
        vec![hero("fury", "Korva", (5, 4))],
        vec![monster("dire_wolf", (6, 2))],
    );
    start(&mut e, FURY);
    walk(&mut e, FURY, &[(5, 4), (4, 4), (3, 4)]);
    let p = e.prompt().cloned().expect("a prompt");
    assert_eq!(p.creature, BANDIT, "the wolf, the second creature");
    assert_eq!(p.event.kind, TriggerEvent::EnemyLeavesAdjacency);
    assert_eq!(at(&mut e, FURY), Pos::new(5, 4), "paused before leaving");
    pass(&mut e, BANDIT);
    assert_eq!(at(&mut e, FURY), Pos::new(3, 4), "the move goes on");
}

#[test]
fn an_answered_opportunity_attack_strikes_then_the_move_goes_on() {
    let mut e = open(
        db_with(&[]),
        vec![hero("fury", "Korva", (2, 2))],
        vec![monster("bandit", (3, 2))],
    );
    start(&mut e, FURY);
    walk(&mut e, FURY, &[(2, 2), (1, 2), (0, 2)]);
    answer(&mut e, BANDIT, OPPORTUNITY_ATTACK, vec![FURY]);
    // The bandit's free strike: 3.
    assert_eq!(stamina(&mut e, FURY), 18);
    assert_eq!(at(&mut e, FURY), Pos::new(0, 2));
    assert!(!e.creature(BANDIT).unwrap().budget.triggered);
    // The log shows the move in two parts around the attack.
    let moved: Vec<usize> = e
        .log()
        .iter()
        .filter_map(|l| match l {
            LogEntry::Moved { path, .. } => Some(path.len()),
            _ => None,
        })
        .collect();
    assert_eq!(moved, vec![3]);
}

const WARDING_SHOVE: &str = r#"(id: "warding_shove", name: "Warding Shove", keywords: [Melee, Weapon],
    action: TriggeredAction, trigger: Some((on: AllyTargeted, text: "An adjacent ally is targeted.")),
    distance: Melee(1), target: (count: Some(1), kinds: [Enemy]),
    power_roll: Some((characteristics: [Might], tiers: ("push 2", "push 2", "push 2"))))"#;

// docs/rules.md#forced-movement (docs/rules.md#forced-movement): "starts an ability" reactions "resolve before the
// triggering ability's roll"; issue #4: targets are checked again then. The
// conduit shoves the bandit out of reach before its cudgel lands.
#[test]
fn a_reaction_before_the_roll_can_put_the_target_out_of_reach() {
    let mut e = open(
        db_with(&[WARDING_SHOVE]),
        vec![
            hero("fury", "Korva", (2, 2)),
            with(hero("conduit", "Aldous", (2, 3)), &["warding_shove"]),
        ],
        vec![monster("bandit", (3, 2))],
    );
    let (conduit, bandit) = (CreatureId(2), CreatureId(3));
    start(&mut e, FURY);
    e.apply(Command::EndTurn { creature: FURY }).unwrap();
    start(&mut e, bandit);
    e.apply(Command::use_ability(bandit, "bandit_cudgel", vec![FURY]))
        .unwrap();
    let p = e.prompt().cloned().expect("the conduit is asked");
    assert_eq!(p.creature, conduit);
    assert_eq!(p.event.kind, TriggerEvent::AllyTargeted);
    assert_eq!(p.event.subject, Some(FURY));
    e.dice_mut().force([5, 5]);
    answer(&mut e, conduit, "warding_shove", vec![bandit]);
    // Pushed 2 straight away from the conduit at (2,3): to (5,0).
    assert_eq!(at(&mut e, bandit), Pos::new(5, 0));
    assert_eq!(stamina(&mut e, FURY), 21, "the cudgel found no mark");
    assert!(
        e.log()
            .iter()
            .any(|l| matches!(l, LogEntry::TargetLost { target, .. } if *target == FURY))
    );
    assert!(
        !e.creature(bandit).unwrap().budget.main,
        "the action is spent"
    );
}

const RETRIBUTION: &str = r#"(id: "retribution", name: "Retribution", keywords: [Magic, Ranged],
    action: FreeTriggeredAction, trigger: Some((on: CreatureDealsDamage, text: "A creature deals damage to an ally within 5.")),
    distance: Ranged(5), target: (count: Some(1), kinds: [Enemy]),
    effect: Some("2 holy damage"))"#;

/// The fury next to a bandit, the conduit with Retribution two squares off.
fn guarded() -> Encounter {
    open(
        db_with(&[RETRIBUTION]),
        vec![
            hero("fury", "Korva", (2, 2)),
            with(hero("conduit", "Aldous", (2, 4)), &["retribution"]),
        ],
        vec![monster("bandit", (3, 2))],
    )
}

// docs/rules.md#triggered-actions: the tactician's Parry, "A creature deals damage to the
// target", as the model of an after-damage trigger; an ability without a
// power roll applies its effect entry.
#[test]
fn damage_prompts_after_the_ability_resolves() {
    let mut e = guarded();
    let (conduit, bandit) = (CreatureId(2), CreatureId(3));
    start(&mut e, FURY);
    e.apply(Command::EndTurn { creature: FURY }).unwrap();
    start(&mut e, bandit);
    e.dice_mut().force([1, 2]);
    e.apply(Command::use_ability(bandit, "bandit_cudgel", vec![FURY]))
        .unwrap();
    assert_eq!(stamina(&mut e, FURY), 18, "the damage came first");
    let p = e.prompt().cloned().expect("the conduit is asked");
    assert_eq!(p.creature, conduit);
    assert_eq!(p.event.kind, TriggerEvent::CreatureDealsDamage);
    assert_eq!(p.event.actor, bandit);
    answer(&mut e, conduit, "retribution", vec![bandit]);
    assert_eq!(stamina(&mut e, bandit), 20 - 2);
    // A free triggered action doesn't use the one triggered action a round.
    assert!(e.creature(conduit).unwrap().budget.triggered);
}

// docs/rules.md#triggered-actions: Parry's "deals damage to the target" protects the
// reactor's side: an ally hurting an enemy next to the conduit asks nobody.
#[test]
fn damage_to_an_enemy_does_not_prompt_a_guardian() {
    let mut e = guarded();
    start(&mut e, FURY);
    e.dice_mut().force([9, 9]);
    e.apply(Command::use_ability(
        FURY,
        "brutal_slam",
        vec![CreatureId(3)],
    ))
    .unwrap();
    assert!(stamina(&mut e, CreatureId(3)) < 20, "the bandit was hurt");
    assert!(e.prompt().is_none(), "{:?}", e.prompt());
}

const SENTINEL: &str = r#"(id: "sentinel", name: "Sentinel", keywords: [Melee, Weapon],
    action: TriggeredAction, trigger: Some((on: CreatureMovesAdjacent, text: "An enemy moves adjacent to you.")),
    distance: Melee(1), target: (count: Some(1), kinds: [Enemy]),
    effect: Some("1 damage; slowed (EoT)"))"#;

// docs/rules.md#triggered-actions; docs/rules.md#actions-on-a-turn: "A creature may use one triggered
// action per round": having answered the bandit coming adjacent, the fury
// can't also make the opportunity attack when it leaves.
#[test]
fn moving_adjacent_prompts_mid_move_and_uses_the_triggered_action() {
    let mut e = open(
        db_with(&[SENTINEL]),
        vec![with(hero("fury", "Korva", (2, 2)), &["sentinel"])],
        vec![monster("bandit", (5, 1))],
    );
    start(&mut e, FURY);
    bandit_turn(&mut e);
    walk(&mut e, BANDIT, &[(5, 1), (4, 1), (3, 1), (2, 0)]);
    let p = e.prompt().cloned().expect("the fury is asked");
    assert_eq!(p.event.kind, TriggerEvent::CreatureMovesAdjacent);
    assert_eq!(at(&mut e, BANDIT), Pos::new(3, 1));
    answer(&mut e, FURY, "sentinel", vec![BANDIT]);
    assert_eq!(stamina(&mut e, BANDIT), 19);
    assert!(
        e.prompt().is_none(),
        "no opportunity attack: already reacted"
    );
    assert_eq!(at(&mut e, BANDIT), Pos::new(2, 0));
}

const INTERRUPT: &str = r#"(id: "interrupt", name: "Interrupt", keywords: [Magic, Ranged],
    action: TriggeredAction, trigger: Some((on: CreatureStartsAbility, text: "A creature within 5 starts an ability.")),
    distance: Ranged(5), target: (count: Some(1), kinds: [Enemy]),
    effect: Some("weakened (EoT)"))"#;

// docs/rules.md#weakened: "takes a bane on power rolls"; the reaction lands
// before the roll, so the roll it answers takes the bane.
#[test]
fn a_creature_starting_an_ability_can_be_weakened_before_it_rolls() {
    let mut e = open(
        db_with(&[INTERRUPT]),
        vec![
            hero("fury", "Korva", (2, 2)),
            with(hero("conduit", "Aldous", (2, 5)), &["interrupt"]),
        ],
        vec![monster("bandit", (3, 2))],
    );
    let (conduit, bandit) = (CreatureId(2), CreatureId(3));
    start(&mut e, FURY);
    e.apply(Command::EndTurn { creature: FURY }).unwrap();
    start(&mut e, bandit);
    e.apply(Command::use_ability(bandit, "bandit_cudgel", vec![FURY]))
        .unwrap();
    assert_eq!(
        e.prompt().map(|p| (p.creature, p.event.kind)),
        Some((conduit, TriggerEvent::CreatureStartsAbility))
    );
    e.dice_mut().force([6, 6]);
    let log = e
        .apply(Command::Answer {
            creature: conduit,
            reaction: Some(Reaction {
                ability: "interrupt".into(),
                targets: vec![bandit],
            }),
        })
        .unwrap();
    // 6 + 6 + 2 = 14 would be tier 2; the bane makes it 12, still tier 2.
    assert_eq!(tiers(&log), vec![(FURY, Tier::Two, 0, 1)]);
}

// Our ruling (docs/rulings.md): Defend is a main action; ability rolls
// against the defender take the ruleset's `defend_banes` (2, a double bane:
// docs/rules.md#edges-and-banes "Double bane: one tier down") until the start of its next turn.
#[test]
fn defending_imposes_a_double_bane_until_the_next_turn() {
    let mut e = open(
        db_with(&[]),
        vec![hero("fury", "Korva", (2, 2))],
        vec![monster("bandit", (3, 2))],
    );
    start(&mut e, FURY);
    e.apply(Command::Defend { creature: FURY }).unwrap();
    assert!(!e.creature(FURY).unwrap().budget.main);
    assert!(e.creature(FURY).unwrap().stance.defending);
    bandit_turn(&mut e);
    e.dice_mut().force([6, 6]);
    let log = e
        .apply(Command::use_ability(BANDIT, "bandit_cudgel", vec![FURY]))
        .unwrap();
    assert_eq!(tiers(&log), vec![(FURY, Tier::One, 0, 2)]);
    e.apply(Command::EndTurn { creature: BANDIT }).unwrap();
    e.dice_mut().force([1]);
    start(&mut e, FURY);
    assert!(
        !e.creature(FURY).unwrap().stance.defending,
        "ends at its turn"
    );
}

// Our ruling: Hide needs every enemy out of line of effect or behind cover
// and none adjacent; hidden, a creature can be targeted by strikes only from
// adjacent squares, gains an edge on its next roll against an enemy, and is
// revealed by it.
#[test]
fn hiding_behind_a_wall() {
    let mut db = db_with(&[]);
    db.maps.insert(
        "wall".into(),
        crate::content::LoadedMap {
            id: "wall".into(),
            name: "Wall".into(),
            description: String::new(),
            map: crate::map::grid::ascii(
                "
                ..........
                ..........
                ....#.....
                ....#.....
                ....#.....
                ..........",
            ),
        },
    );
    let mut e = custom(
        db,
        "wall",
        vec![hero("conduit", "Aldous", (2, 3))],
        vec![monster("bandit_archer", (7, 3))],
        FirstSide::Heroes,
        1,
    );
    let (conduit, archer) = (CreatureId(1), CreatureId(2));
    start(&mut e, conduit);
    e.apply(Command::Hide { creature: conduit }).unwrap();
    assert!(e.creature(conduit).unwrap().stance.hidden);
    e.apply(Command::EndTurn { creature: conduit }).unwrap();
    start(&mut e, archer);
    // Step out to where the conduit would be in plain sight: still hidden,
    // and a crossbow bolt from afar can't pick it out.
    e.apply(Command::Move {
        creature: archer,
        path: vec![Pos::new(7, 3), Pos::new(6, 2), Pos::new(5, 1)].into(),
    })
    .unwrap();
    let refused = e
        .apply(Command::use_ability(
            archer,
            "bandit_crossbow",
            vec![conduit],
        ))
        .unwrap_err();
    assert_eq!(
        refused.to_string(),
        "Aldous is hidden: only an adjacent creature can target it"
    );
    assert!(
        !e.legal_actions().iter().any(
            |c| matches!(c, Command::UseAbility { targets, .. } if targets.contains(&conduit))
        )
    );
    e.apply(Command::EndTurn { creature: archer }).unwrap();
    e.dice_mut().force([1]);
    start(&mut e, conduit);
    // Its own hammer gains the edge and gives it away.
    e.dice_mut().force([3, 3]);
    let log = e
        .apply(Command::use_ability(
            conduit,
            "judgments_hammer",
            vec![archer],
        ))
        .unwrap();
    assert_eq!(tiers(&log)[0].2, 1, "one edge from hiding");
    assert!(!e.creature(conduit).unwrap().stance.hidden);
    // Out in the open, it can't hide again.
    walk(&mut e, conduit, &[(2, 3), (2, 2), (2, 1), (2, 0)]);
    assert!(matches!(
        e.apply(Command::Hide { creature: conduit }),
        Err(Refusal::CannotHide(_))
    ));
}

// docs/rules.md#actions-on-a-turn and docs/rules.md#defend-and-delay: a side may let the other pick
// first, but not hand the pick straight back.
#[test]
fn a_side_can_delay_once_in_a_row() {
    let mut e = open(
        db_with(&[]),
        vec![hero("fury", "Korva", (1, 1))],
        vec![monster("bandit", (8, 4))],
    );
    assert_eq!(e.flow().to_act, Side::Heroes);
    assert!(
        e.legal_actions()
            .contains(&Command::Delay { creature: FURY })
    );
    e.apply(Command::Delay { creature: FURY }).unwrap();
    assert_eq!(e.flow().to_act, Side::Director);
    assert_eq!(
        e.apply(Command::Delay { creature: BANDIT }),
        Err(Refusal::CannotDelay("the other side has just delayed"))
    );
    assert!(
        !e.legal_actions()
            .iter()
            .any(|c| matches!(c, Command::Delay { .. }))
    );
    start(&mut e, BANDIT);
    e.apply(Command::EndTurn { creature: BANDIT }).unwrap();
    assert_eq!(e.flow().to_act, Side::Heroes, "the heroes' pick comes back");
    // With nobody left on the other side, there is nothing to delay for.
    assert_eq!(
        e.apply(Command::Delay { creature: FURY }),
        Err(Refusal::CannotDelay(
            "the other side has nobody left to act"
        ))
    );
}

// docs/rules.md#surges: "you can spend 2 surges to increase the potency by 1
// for one target." Judgment's Hammer at tier 2 is "A < AVERAGE, prone":
// average is the conduit's Intuition 2 - 1 = 1; the archer's Agility 2
// resists it until the potency rises to 2 ... still resisted at 2 (2 < 2 is
// false), so use tier 3's STRONG (2) + 1 = 3 > 2.
#[test]
fn surges_raise_a_potency_by_one() {
    let mut e = open(
        db_with(&[]),
        vec![hero("conduit", "Aldous", (1, 1))],
        vec![monster("bandit_archer", (4, 1))],
    );
    let (conduit, archer) = (CreatureId(1), CreatureId(2));
    e.dice_mut().force([1]);
    start(&mut e, conduit);
    let ent = world::entity_of(e.world(), conduit).unwrap();
    e.world_mut().get_mut::<Heroic>(ent).unwrap().surges = 2;
    let hammer = |potency_surges: Vec<CreatureId>| Command::UseAbility {
        creature: conduit,
        ability: "judgments_hammer".into(),
        targets: vec![archer],
        surges: 0,
        potency_surges,
        spend: 0,
        tier: None,
    };
    assert!(matches!(
        e.apply(hammer(vec![archer, archer])),
        Err(Refusal::NotEnoughSurges { wanted: 4, has: 2 })
    ));
    e.dice_mut().force([10, 9]);
    e.apply(hammer(vec![archer])).unwrap();
    assert!(
        e.creature(archer)
            .unwrap()
            .conditions
            .has(ConditionKind::Prone)
    );
    assert_eq!(e.creature(conduit).unwrap().heroic.unwrap().surges, 0);
}

// docs/rules.md#flanking: "High ground gives an edge."
#[test]
fn high_ground_gives_an_edge() {
    let mut db = db_with(&[]);
    let mut map = db.maps["open"].map.clone();
    map.set_heights(&[
        "..........".into(),
        "..........".into(),
        "..2.......".into(),
        "..........".into(),
        "..........".into(),
        "..........".into(),
    ])
    .unwrap();
    db.maps.get_mut("open").unwrap().map = map;
    let mut e = open(
        db,
        vec![hero("fury", "Korva", (2, 2))],
        vec![monster("bandit", (3, 2))],
    );
    e.dice_mut().force([1]);
    start(&mut e, FURY);
    e.dice_mut().force([5, 5]);
    let log = slam(&mut e, BANDIT).unwrap();
    assert_eq!(tiers(&log), vec![(BANDIT, Tier::Two, 1, 0)]);
    // And the bandit below gets no edge back.
    bandit_turn(&mut e);
    walk(&mut e, BANDIT, &[(5, 2), (4, 2), (3, 2)]);
    e.dice_mut().force([5, 5]);
    let log = e
        .apply(Command::use_ability(BANDIT, "bandit_cudgel", vec![FURY]))
        .unwrap();
    assert_eq!(tiers(&log)[0].2, 0);
}

// docs/rules.md#grabbed: "If a creature is grabbed by another creature and that
// creature moves, they bring the grabbed creature with them. If a creature's
// size is equal to or less than the size of a creature they have grabbed,
// their speed is halved"; "if either ... is force moved so that both
// creatures are not adjacent to each other, that creature is no longer grabbed."
#[test]
fn a_grabber_drags_its_catch_at_half_speed_and_a_push_frees_it() {
    let mut e = open(
        db_with(&[]),
        vec![
            hero("fury", "Korva", (2, 2)),
            hero("conduit", "Aldous", (0, 0)),
        ],
        vec![monster("bandit", (3, 2))],
    );
    let bandit = CreatureId(3);
    e.dice_mut().force([1]);
    start(&mut e, FURY);
    e.dice_mut().force([6, 6]);
    e.apply(Command::use_ability(FURY, "grab", vec![bandit]))
        .unwrap();
    assert!(
        e.creature(bandit)
            .unwrap()
            .conditions
            .has(ConditionKind::Grabbed)
    );
    // Speed 5 halved: a 3-square move is too far.
    assert!(matches!(
        e.apply(Command::Move {
            creature: FURY,
            path: vec![
                Pos::new(2, 2),
                Pos::new(2, 3),
                Pos::new(2, 4),
                Pos::new(2, 5)
            ]
            .into(),
        }),
        Err(Refusal::TooFar { speed: 2, .. })
    ));
    // The listing's moves go as far as the halved speed, no farther.
    let far = e
        .legal_actions()
        .iter()
        .filter_map(|c| match c {
            Command::Move { path, .. } => path.squares().last(),
            _ => None,
        })
        .map(|p| p.distance(Pos::new(2, 2)))
        .max();
    assert_eq!(far, Some(2));
    walk(&mut e, FURY, &[(2, 2), (1, 3), (1, 4)]);
    assert_eq!(e.prompt(), None, "a grabbed creature can't react");
    assert_eq!(at(&mut e, bandit), Pos::new(1, 3));
    assert!(
        e.log()
            .iter()
            .any(|l| matches!(l, LogEntry::Dragged { .. }))
    );
    e.apply(Command::EndTurn { creature: FURY }).unwrap();
    start(&mut e, bandit);
    e.apply(Command::EndTurn { creature: bandit }).unwrap();
    // Only the grabber may force move the bandit; the conduit shoves the
    // fury away from it instead, and the grab ends.
    let conduit = CreatureId(2);
    e.dice_mut().force([1]);
    start(&mut e, conduit);
    walk(&mut e, conduit, &[(0, 0), (0, 1), (0, 2), (0, 3), (0, 4)]);
    e.dice_mut().force([6, 6]);
    e.apply(Command::use_ability(conduit, "knockback", vec![FURY]))
        .unwrap();
    // Tier 2 (6 + 6 + Might 0): push 2.
    assert_eq!(at(&mut e, FURY), Pos::new(3, 4));
    assert!(
        !e.creature(bandit)
            .unwrap()
            .conditions
            .has(ConditionKind::Grabbed)
    );
    assert!(
        e.log()
            .iter()
            .any(|l| matches!(l, LogEntry::Released { .. }))
    );
}

// docs/rules.md#grabbed: "if either the grabbed creature or the creature
// grabbing them is force moved so that both creatures are not adjacent to
// each other, that creature is no longer grabbed". The check after every
// command reads only those it knows may be grabbed (`state::board::Grabs`): a grab
// put on by hand, or brought back by a restore, is still found and ended.
#[test]
fn a_grab_put_on_by_hand_or_brought_back_by_a_restore_is_still_checked() {
    let mut e = open(
        db_with(&[]),
        vec![hero("fury", "Korva", (2, 2))],
        vec![monster("bandit", (8, 8))],
    );
    let bandit = CreatureId(2);
    e.dice_mut().force([1]);
    start(&mut e, FURY);
    let grabbed = |e: &Encounter| {
        e.creature(bandit)
            .unwrap()
            .conditions
            .has(ConditionKind::Grabbed)
    };
    let released = |e: &Encounter| {
        e.log()
            .iter()
            .filter(|l| matches!(l, LogEntry::Released { target } if *target == bandit))
            .count()
    };
    // A command first: the check has found nobody grabbed.
    e.apply(Command::Defend { creature: FURY }).unwrap();
    // The fury, six squares away, is made the bandit's grabber by hand.
    let ent = world::entity_of(e.world_mut(), bandit).unwrap();
    e.world_mut()
        .get_mut::<Conditions>(ent)
        .unwrap()
        .apply(crate::conditions::ActiveCondition {
            kind: ConditionKind::Grabbed,
            duration: crate::conditions::Duration::UntilRemoved,
            source: Some(FURY),
            ability: None,
            save_shift: Default::default(),
        });
    let before = e.snapshot();
    assert!(grabbed(&e));
    e.apply(Command::EndTurn { creature: FURY }).unwrap();
    assert!(!grabbed(&e), "the grab put on by hand is checked");
    assert_eq!(released(&e), 1);
    // The restore brings the grab back; the next command's check ends it.
    e.restore(&before);
    assert!(grabbed(&e));
    e.apply(Command::EndTurn { creature: FURY }).unwrap();
    assert!(!grabbed(&e), "the grab a restore brought back is checked");
    assert_eq!(
        released(&e),
        1,
        "the log was rewound, then the release logged again"
    );
}

// docs/rules.md#grabbed: "A creature can grab only creatures of their size or
// smaller" (Might 2 or more lifts that to a size up to the Might score).
#[test]
fn a_creature_too_big_to_grab_stays_free() {
    let mut db = db_with(&[]);
    let mut ogre = db.monsters["bandit"].clone();
    ogre.id = "ogre".into();
    ogre.name = "Ogre".into();
    ogre.size = crate::stats::Size::squares_of(3).unwrap();
    db.monsters.insert("ogre".into(), ogre);
    let mut e = open(
        db,
        vec![hero("fury", "Korva", (1, 2))],
        vec![monster("ogre", (2, 1))],
    );
    let ogre = CreatureId(2);
    e.dice_mut().force([1]);
    start(&mut e, FURY);
    e.dice_mut().force([6, 6]);
    e.apply(Command::use_ability(FURY, "grab", vec![ogre]))
        .unwrap();
    assert!(
        !e.creature(ogre)
            .unwrap()
            .conditions
            .has(ConditionKind::Grabbed),
        "size 3 is more than the fury's Might 2"
    );
}

// Our ruling after the published Escape Grab: tier 2 escapes, but the
// grabber gets a free strike first.
#[test]
fn escaping_on_tier_two_costs_a_free_strike() {
    let mut e = open(
        db_with(&[]),
        vec![hero("fury", "Korva", (2, 2))],
        vec![monster("bandit", (3, 2))],
    );
    e.dice_mut().force([1]);
    start(&mut e, FURY);
    e.dice_mut().force([6, 6]);
    e.apply(Command::use_ability(FURY, "grab", vec![BANDIT]))
        .unwrap();
    bandit_turn(&mut e);
    // 5 + 5 + Might 2 = 12: tier 2.
    e.dice_mut().force([5, 5]);
    e.apply(Command::EscapeGrab { creature: BANDIT }).unwrap();
    assert!(
        !e.creature(BANDIT)
            .unwrap()
            .conditions
            .has(ConditionKind::Grabbed)
    );
    // The fury's free strike: 2 + Might 2.
    assert_eq!(stamina(&mut e, BANDIT), 20 - 4);
}

// Issue #4: "legal_actions() lists what the acting creature can do now":
// charges and wall placements too, and every one is accepted.
#[test]
fn legal_actions_include_charges_and_walls() {
    let wall = r#"(id: "stone_wall", name: "Stone Wall", keywords: [Area, Magic],
        action: Maneuver, distance: Wall(squares: 3, within: 5), target: (kinds: [Enemy]))"#;
    let mut e = open(
        db_with(&[wall]),
        vec![with(hero("conduit", "Aldous", (1, 1)), &["stone_wall"])],
        vec![monster("bandit", (5, 1))],
    );
    let conduit = CreatureId(1);
    e.dice_mut().force([1]);
    start(&mut e, conduit);
    let legal = e.legal_actions();
    let charge = legal
        .iter()
        .find(|c| matches!(c, Command::Charge { .. }))
        .cloned()
        .expect("a charge");
    let walls = |legal: &[Command]| -> Vec<Command> {
        legal
            .iter()
            .filter(
                |c| matches!(c, Command::UseAreaAbility { ability, .. } if ability == "stone_wall"),
            )
            .cloned()
            .collect()
    };
    assert!(!walls(&legal).is_empty());
    assert!(legal.iter().any(|c| matches!(c, Command::Shift { .. })));
    e.apply(charge).unwrap();
    assert!(!e.creature(conduit).unwrap().budget.main);
    assert!(
        e.log()
            .iter()
            .any(|l| matches!(l, LogEntry::Damage { target, .. } if *target == BANDIT))
    );
    // After the charge, the wall (a maneuver) can still go up.
    let after = walls(&e.legal_actions());
    e.apply(after[0].clone()).unwrap();
    let Command::UseAreaAbility {
        placement: command::Placement::Wall { squares },
        ..
    } = &after[0]
    else {
        unreachable!()
    };
    let map = e.world().resource::<Battlefield>().0.clone();
    assert!(squares.iter().all(|&p| map.cell(p).raised_wall));
    // Our ruling: it stands until the end of the conduit's next turn.
    e.apply(Command::EndTurn { creature: conduit }).unwrap();
    if e.prompt().is_none() && e.active_creature().is_none() {
        start(&mut e, BANDIT);
        e.apply(Command::EndTurn { creature: BANDIT }).unwrap();
    }
    assert!(e.map().cell(squares[0]).raised_wall, "still up");
    e.dice_mut().force([1]);
    start(&mut e, conduit);
    e.apply(Command::EndTurn { creature: conduit }).unwrap();
    assert!(squares.iter().all(|&p| !e.map().cell(p).raised_wall));
    assert!(
        crate::scenario::log_lines(&mut e)
            .iter()
            .any(|l| l == "Aldous's wall crumbles.")
    );
}
