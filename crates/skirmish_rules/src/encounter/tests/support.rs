//! Abilities that help allies: stamina regained, temporary stamina, surges
//! granted, a granted shift and a granted free strike; and the talent's
//! strain (spending clarity it doesn't have, at a cost).

use super::*;
use crate::encounter::state::components::Heroic;
use crate::encounter::world;

fn heroic(e: &Encounter, id: CreatureId) -> Heroic {
    e.creature(id).unwrap().heroic.unwrap()
}

fn set_heroic(e: &mut Encounter, id: CreatureId, f: impl FnOnce(&mut Heroic)) {
    let ent = world::entity_of(e.world(), id).unwrap();
    f(&mut e.world_mut().get_mut::<Heroic>(ent).unwrap());
}

fn hurt(e: &mut Encounter, id: CreatureId, by: i32) {
    let ent = world::entity_of(e.world(), id).unwrap();
    e.world_mut().get_mut::<Stamina>(ent).unwrap().current -= by;
}

const FIRST: CreatureId = CreatureId(1);
const SECOND: CreatureId = CreatureId(2);

// docs/rules.md#stamina: regained stamina can't go above the maximum.
#[test]
fn mending_word_heals_an_ally_up_to_its_maximum() {
    let mut e = setup(
        vec![
            hero("conduit", "Ines", (1, 1)),
            hero("fury", "Korva", (5, 1)),
        ],
        vec![monster("bandit", (15, 9))],
        1,
    );
    set_heroic(&mut e, FIRST, |h| h.amount = 6);
    hurt(&mut e, SECOND, 5);
    start(&mut e, FIRST);
    let log = e
        .apply(Command::use_ability(FIRST, "conduit_mend", vec![SECOND]))
        .unwrap();
    let korva = e.creature(SECOND).unwrap();
    assert_eq!(
        korva.stamina.current, korva.stamina.max,
        "8 regained, 5 missing"
    );
    assert!(log.contains(&LogEntry::Healed {
        creature: SECOND,
        amount: 5,
        stamina: korva.stamina.max
    }));
}

// docs/rules.md#temporary-stamina: damage comes off temporary stamina first.
#[test]
fn a_ward_of_temporary_stamina_takes_the_damage_first() {
    let mut e = setup(
        vec![
            super::triggers::with(hero("conduit", "Ines", (1, 1)), &["conduit_ward"]),
            hero("fury", "Korva", (2, 1)),
        ],
        vec![monster("bandit", (15, 9))],
        1,
    );
    set_heroic(&mut e, FIRST, |h| h.amount = 3);
    start(&mut e, FIRST);
    e.apply(Command::UseAreaAbility {
        creature: FIRST,
        ability: "conduit_ward".into(),
        placement: command::Placement::OnSelf,
        surges: 0,
        potency_surges: vec![],
        spend: 0,
        tier: None,
        links: None,
    })
    .unwrap();
    let korva = e.creature(SECOND).unwrap();
    assert_eq!(korva.stamina.temporary, 5);
    let ent = world::entity_of(e.world(), SECOND).unwrap();
    let lost = e
        .world_mut()
        .get_mut::<Stamina>(ent)
        .unwrap()
        .take_damage(7);
    assert_eq!(lost, 2, "5 of the 7 came off temporary stamina");
}

// docs/rules.md#critical-hit: "a signature ability used as a free triggered
// action with the assistance of the tactician's Strike Now". Strike Now
// asks the ally at once which signature ability to use, and at whom (only
// signature abilities are offered), and grants a surge.
#[test]
fn strike_now_lends_an_ally_a_signature_ability_and_a_surge() {
    let mut e = setup(
        vec![
            hero("tactician", "Hollis", (5, 3)),
            hero("fury", "Korva", (8, 3)),
        ],
        vec![monster("bandit", (9, 3)), monster("bandit_lackey", (8, 4))],
        1,
    );
    set_heroic(&mut e, FIRST, |h| h.amount = 3);
    start(&mut e, FIRST);
    let lackey = CreatureId(4);
    e.apply(Command::use_ability(FIRST, "tact_strike_now", vec![SECOND]))
        .unwrap();
    let prompt = e.prompt().cloned().expect("the fury is asked");
    assert_eq!(prompt.creature, SECOND);
    assert_eq!(prompt.event.kind, crate::ability::TriggerEvent::StrikeNow);
    let content = e.content().clone();
    assert!(!prompt.options.is_empty());
    for o in &prompt.options {
        let a = content.ability(&o.ability).unwrap();
        assert_eq!(a.cost, crate::ability::Cost::Signature, "{o:?}");
    }
    let tackle = state::work::Reaction {
        ability: "fury_tackle".into(),
        targets: vec![lackey],
    };
    assert!(prompt.options.contains(&tackle), "{:?}", prompt.options);
    // Tier 2 (6 + 5 + Might 2 = 13): 5 + 2 damage, no critical hit.
    let before = e.creature(lackey).unwrap().shown_stamina().0;
    e.dice_mut().force([6, 5]);
    e.apply(Command::Answer {
        creature: SECOND,
        reaction: Some(tackle),
    })
    .unwrap();
    let after = e.creature(lackey).unwrap().shown_stamina().0;
    assert_eq!(before - after, 7);
    assert_eq!(heroic(&e, SECOND).surges, 1);
    assert!(e.prompt().is_none(), "no critical hit, no more prompts");
    // The fury's own turn budget is untouched: the strike was the tactician's to give.
    assert!(e.creature(SECOND).unwrap().budget.main);
}

// The tactician's Advance!: allies shift toward the enemy, provoking nothing.
#[test]
fn advance_shifts_allies_toward_the_nearest_enemy() {
    let mut e = setup(
        vec![
            super::triggers::with(hero("tactician", "Hollis", (2, 7)), &["tact_advance"]),
            hero("fury", "Korva", (3, 7)),
        ],
        vec![monster("bandit", (9, 7))],
        1,
    );
    set_heroic(&mut e, FIRST, |h| h.amount = 3);
    start(&mut e, FIRST);
    let log = e
        .apply(Command::UseAreaAbility {
            creature: FIRST,
            ability: "tact_advance".into(),
            placement: command::Placement::OnSelf,
            surges: 0,
            potency_surges: vec![],
            spend: 0,
            tier: None,
            links: None,
        })
        .unwrap();
    let korva = e.creature(SECOND).unwrap();
    assert_eq!(korva.space.pos, Pos::new(5, 7), "two squares east");
    assert!(log.iter().any(
        |l| matches!(l, LogEntry::Moved { creature, shift: true, .. } if *creature == SECOND)
    ));
    // The tactician itself is not an ally of itself: it stays.
    assert_eq!(e.creature(FIRST).unwrap().space.pos, Pos::new(2, 7));
}

// docs/rules.md#heroic-resources "Talent": "can reach far into themselves to use abilities even
// when they don't have their Heroic Resource to spare, if they're willing to
// face the cost". docs/rulings.md: down to -(1 + Reason), 1 damage per point
// below 0 at the end of each of its turns, paid back first from gains.
#[test]
fn the_talent_spends_clarity_it_does_not_have_and_pays_in_stamina() {
    let mut e = setup(
        vec![super::triggers::with(
            hero("talent", "Mira", (1, 1)),
            &["talent_stop_time"],
        )],
        vec![monster("bandit", (5, 1)), monster("bandit", (15, 9))],
        1,
    );
    // Reason 2: the floor is -3.
    assert_eq!(heroic(&e, FIRST).strain_limit, 3);
    e.dice_mut().force([1]);
    start(&mut e, FIRST);
    assert_eq!(heroic(&e, FIRST).amount, 1);
    e.dice_mut().force([5, 5]);
    e.apply(Command::use_ability(
        FIRST,
        "talent_stop_time",
        vec![SECOND],
    ))
    .unwrap();
    let h = heroic(&e, FIRST);
    assert_eq!((h.amount, h.strain, h.value()), (0, 2, -2));
    // A second one would need 3 more: past the floor.
    let before = e.creature(FIRST).unwrap().stamina.current;
    let log = e.apply(Command::EndTurn { creature: FIRST }).unwrap();
    assert!(log.contains(&LogEntry::Strained {
        creature: FIRST,
        amount: 2
    }));
    assert_eq!(e.creature(FIRST).unwrap().stamina.current, before - 2);
    // Nobody deals strain: the talent is not credited with hurting itself
    // (the simulator's damage dealt reads this).
    assert!(log.iter().any(|l| matches!(
        l,
        LogEntry::Damage {
            target: FIRST,
            amount: 2,
            by: None,
            ..
        }
    )));
    // Gains pay the strain back first.
    set_heroic(&mut e, FIRST, |h| h.gain(3));
    let h = heroic(&e, FIRST);
    assert_eq!((h.amount, h.strain), (1, 0));
}

#[test]
fn strain_has_a_floor() {
    let mut e = setup(
        vec![super::triggers::with(
            hero("talent", "Mira", (1, 1)),
            &["talent_stop_time"],
        )],
        vec![monster("bandit", (5, 1))],
        1,
    );
    e.dice_mut().force([1]);
    start(&mut e, FIRST);
    set_heroic(&mut e, FIRST, |h| {
        h.amount = 0;
        h.strain = 1;
    });
    // 3 more would reach -4, below the floor of -3: refused, nothing changes.
    let r = e.apply(Command::use_ability(
        FIRST,
        "talent_stop_time",
        vec![SECOND],
    ));
    assert!(
        matches!(r, Err(Refusal::NotEnoughResource { needed: 3, .. })),
        "{r:?}"
    );
    assert_eq!(heroic(&e, FIRST).strain, 1);
}
