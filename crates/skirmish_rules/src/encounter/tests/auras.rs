//! Lasting auras (docs/rules.md#aura: it "always originates from you and moves
//! with you for the duration of the ability that created it").

use super::triggers::{db_with, open, stamina, walk, with};
use super::*;
use crate::encounter::world;

const GRIM: &str = r#"(id: "grim_aura", name: "Grim Aura", keywords: [Area, Magic],
    action: Maneuver, distance: Aura(1), target: (kinds: [Enemy]),
    aura: Some((when: StartOfTurnInside, effect: "2 damage")))"#;

const THORNS: &str = r#"(id: "thorns", name: "Thorns", keywords: [Area, Magic],
    action: Maneuver, distance: Aura(2), target: (kinds: [Enemy]),
    aura: Some((when: Enters, effect: "1 damage; slowed (EoT)", lasts: UntilEndOfNextTurn)))"#;

const BANDIT: CreatureId = CreatureId(2);

fn use_aura(e: &mut Encounter, id: &str) {
    use_aura_as(e, FURY, id);
}

/// `who` takes up the aura `id` (an area around itself).
pub(super) fn use_aura_as(e: &mut Encounter, who: CreatureId, id: &str) {
    e.apply(Command::UseAreaAbility {
        creature: who,
        ability: id.into(),
        placement: command::Placement::OnSelf,
        surges: 0,
        potency_surges: Vec::new(),
        spend: 0,
        tier: None,
        links: None,
    })
    .unwrap();
}

/// The fury at (1, 1) takes up the aura `ability` (its RON `def`) and ends
/// its turn; the bandit at (6, 1) starts its own.
fn bandit_facing_aura(def: &str, ability: &str) -> Encounter {
    bandit_facing_aura_from(def, ability, (1, 1), (6, 1))
}

/// [`bandit_facing_aura`] with the fury and the bandit where given.
fn bandit_facing_aura_from(
    def: &str,
    ability: &str,
    fury: (i32, i32),
    bandit: (i32, i32),
) -> Encounter {
    let mut e = open(
        db_with(&[def]),
        vec![with(hero("fury", "Korva", fury), &[ability])],
        vec![monster("bandit", bandit)],
    );
    e.dice_mut().force([1]);
    start(&mut e, FURY);
    use_aura(&mut e, ability);
    e.apply(Command::EndTurn { creature: FURY }).unwrap();
    start(&mut e, BANDIT);
    e
}

#[test]
fn an_aura_acts_on_enemies_starting_their_turn_in_it_and_moves_with_its_user() {
    let mut e = bandit_facing_aura_from(GRIM, "grim_aura", (2, 2), (3, 2));
    assert_eq!(e.creature(FURY).unwrap().auras.len(), 1);
    assert_eq!(
        stamina(&mut e, BANDIT),
        18,
        "2 damage at the start of its turn"
    );
    e.apply(Command::EndTurn { creature: BANDIT }).unwrap();
    // The fury walks off (letting the bandit's opportunity attack pass):
    // the aura goes with it, out of the bandit's reach.
    e.dice_mut().force([1]);
    start(&mut e, FURY);
    walk(&mut e, FURY, &[(2, 2), (1, 2), (0, 2)]);
    e.apply(Command::Answer {
        creature: BANDIT,
        reaction: None,
    })
    .unwrap();
    e.apply(Command::EndTurn { creature: FURY }).unwrap();
    start(&mut e, BANDIT);
    assert_eq!(stamina(&mut e, BANDIT), 18, "out of the aura now");
    // It lasts the encounter.
    assert_eq!(e.creature(FURY).unwrap().auras.len(), 1);
}

// docs/rules.md#aura: it "always originates from you and moves with you for
// the duration of the ability that created it". A turn's boundary reads
// only those it knows may carry an aura (`state::board::KnownCarriers`): an aura a
// restore brings back, or one put on by hand, still acts.
#[test]
fn an_aura_brought_back_by_a_restore_or_put_on_by_hand_still_acts() {
    let mut e = bandit_facing_aura_from(GRIM, "grim_aura", (2, 2), (3, 2));
    assert_eq!(stamina(&mut e, BANDIT), 18);
    let grim = e.creature(FURY).unwrap().auras[0].clone();
    let with_aura = e.snapshot();
    let fury = world::entity_of(e.world(), FURY).unwrap();
    // Round by round: the bandit's turn ends, the fury takes one, the
    // bandit's next begins (in the aura, if the fury carries it).
    let round = |e: &mut Encounter| {
        e.apply(Command::EndTurn { creature: BANDIT }).unwrap();
        e.dice_mut().force([1]);
        start(e, FURY);
        e.apply(Command::EndTurn { creature: FURY }).unwrap();
        start(e, BANDIT);
    };
    // Taken off by hand: the boundaries learn that nobody carries one.
    e.world_mut().get_mut::<Auras>(fury).unwrap().0.clear();
    round(&mut e);
    assert_eq!(stamina(&mut e, BANDIT), 18, "no aura, no damage");
    let without = e.snapshot();
    // The restore brings it back, and it acts.
    e.restore(&with_aura);
    assert_eq!(e.creature(FURY).unwrap().auras.len(), 1);
    round(&mut e);
    assert_eq!(stamina(&mut e, BANDIT), 16, "the restored aura acts");
    // Back to the round without it (a boundary learns again that nobody
    // carries one), then on by hand.
    e.restore(&without);
    round(&mut e);
    assert_eq!(stamina(&mut e, BANDIT), 18);
    e.world_mut().get_mut::<Auras>(fury).unwrap().0.push(grim);
    round(&mut e);
    assert_eq!(stamina(&mut e, BANDIT), 16, "the aura put on by hand acts");
}

#[test]
fn an_aura_can_act_on_creatures_moving_into_it_and_run_out() {
    let mut e = bandit_facing_aura(THORNS, "thorns");
    walk(&mut e, BANDIT, &[(6, 1), (5, 1), (4, 1), (3, 1)]);
    assert_eq!(stamina(&mut e, BANDIT), 19);
    assert!(
        e.creature(BANDIT)
            .unwrap()
            .conditions
            .has(ConditionKind::Slowed)
    );
    e.apply(Command::EndTurn { creature: BANDIT }).unwrap();
    // "Until the end of your next turn": gone when the fury's next turn ends.
    e.dice_mut().force([1]);
    start(&mut e, FURY);
    assert_eq!(e.creature(FURY).unwrap().auras.len(), 1);
    e.apply(Command::EndTurn { creature: FURY }).unwrap();
    assert!(e.creature(FURY).unwrap().auras.is_empty());
    assert!(
        crate::scenario::log_lines(&mut e)
            .iter()
            .any(|l| l == "Korva's Thorns fades.")
    );
}

// docs/rules.md#stamina: "Director creatures die at 0", and the dead don't
// move. A walk that enters an aura which kills the walker ends on that
// square: the rest of its path is not walked.
#[test]
fn a_walker_killed_by_an_aura_it_enters_stops_there() {
    const BRAMBLES: &str = r#"(id: "brambles", name: "Brambles", keywords: [Area, Magic],
        action: Maneuver, distance: Aura(2), target: (kinds: [Enemy]),
        aura: Some((when: Enters, effect: "40 damage")))"#;
    let mut e = bandit_facing_aura(BRAMBLES, "brambles");
    walk(&mut e, BANDIT, &[(6, 1), (5, 1), (4, 1), (3, 1), (3, 2)]);
    let bandit = e.creature(BANDIT).unwrap();
    assert!(bandit.stamina.is_dead(), "{:?}", bandit.stamina);
    assert_eq!(bandit.space.pos, Pos::new(3, 1), "no step after the aura");
    let walked: Vec<Vec<Pos>> = e
        .log()
        .iter()
        .filter_map(|l| match l {
            LogEntry::Moved { creature, path, .. } if *creature == BANDIT => Some(path.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(walked.last().and_then(|p| p.last()), Some(&Pos::new(3, 1)));
}

// Issue 6 point 3 (the simulator reports "damage dealt and taken per
// creature"): an aura's damage is dealt by the aura's user (docs/rules.md#aura
// "Aura": it "originates from you"), not by the creature whose turn it is.
#[test]
fn aura_damage_is_credited_to_the_auras_user() {
    let e = bandit_facing_aura_from(GRIM, "grim_aura", (2, 2), (3, 2));
    // The bandit started its turn inside the fury's aura: 2 damage.
    let hit = e
        .log()
        .iter()
        .find_map(|l| match l {
            LogEntry::Damage { target, by, .. } if *target == BANDIT => Some(*by),
            _ => None,
        })
        .expect("the aura hurt the bandit");
    assert_eq!(hit, Some(FURY));
    let r = crate::sim::tally(&e, 0, Vec::new());
    let name = |id| e.creature(id).unwrap().name;
    assert_eq!(r.dealt[&name(FURY)], 2);
    assert_eq!(r.dealt[&name(BANDIT)], 0);
    assert_eq!(r.taken[&name(BANDIT)], 2);
}

// docs/rules.md#stamina: a hero dies at minus half its stamina, and the dead
// take no turns. A creature an aura fells as its turn begins has that turn
// end at once: the next pick comes at the same step (before, the dead
// creature stayed the one acting until some other command was tried), and
// a hero felled so gains no heroic resource for the turn.
#[test]
fn a_creature_felled_as_its_turn_begins_has_that_turn_end_at_once() {
    const DOOM: &str = r#"(id: "doom", name: "Doom", keywords: [Area, Magic],
        action: Maneuver, distance: Aura(1), target: (kinds: [Enemy]),
        aura: Some((when: StartOfTurnInside, effect: "200 damage")))"#;
    const CONDUIT: CreatureId = CreatureId(2);
    const DOOMED: CreatureId = CreatureId(3);
    let db = db_with(&[DOOM]);
    let mut bandit = db.monsters["bandit"].clone();
    bandit.abilities.push("doom".into());
    let mut e = open(
        db,
        vec![
            hero("fury", "Korva", (3, 2)),
            hero("conduit", "Aldous", (9, 5)),
        ],
        vec![MonsterDef {
            monster: None,
            inline: Some(bandit),
            ..MonsterDef::of("bandit", (4, 2))
        }],
    );
    e.dice_mut().force([1]);
    start(&mut e, FURY);
    e.apply(Command::EndTurn { creature: FURY }).unwrap();
    start(&mut e, DOOMED);
    use_aura_as(&mut e, DOOMED, "doom");
    e.apply(Command::EndTurn { creature: DOOMED }).unwrap();
    e.dice_mut().force([1]);
    start(&mut e, CONDUIT);
    e.apply(Command::EndTurn { creature: CONDUIT }).unwrap();
    assert_eq!(e.flow().round, 2);
    // Round 2: the fury's turn begins inside the aura.
    let logged = e.apply(Command::StartTurn { creature: FURY }).unwrap();
    assert!(e.creature(FURY).unwrap().stamina.is_dead());
    assert!(
        logged
            .iter()
            .any(|l| matches!(l, LogEntry::TurnEnded { creature, .. } if *creature == FURY)),
        "{logged:?}"
    );
    // (Its ferocity for the damage taken comes with the damage; nothing
    // comes after its death.)
    let died = logged
        .iter()
        .position(|l| matches!(l, LogEntry::Died { creature, .. } if *creature == FURY))
        .expect("it died");
    assert!(
        !logged[died..]
            .iter()
            .any(|l| matches!(l, LogEntry::ResourceGained { creature, .. } if *creature == FURY)),
        "{logged:?}"
    );
    assert_eq!(e.active_creature(), None);
    assert_eq!(e.phase(), Phase::AwaitingTurn);
    // The monsters pick next, and the fight goes on.
    assert!(e.outcome().is_none());
    start(&mut e, DOOMED);
}
