//! docs/rules.md#frightened: "it can't willingly move closer to the
//! source" of its fear: no listed move, shift or charge nears it, and the
//! engine refuses one that does.

use super::*;

#[test]
fn a_frightened_creature_is_offered_no_step_nearer_its_fear() {
    let mut e = setup(
        vec![hero("fury", "A", (1, 6))],
        vec![monster("bandit", (6, 6)), monster("bandit", (1, 10))],
        3,
    );
    let source = CreatureId(2);
    let ent = world::entity_of(e.world_mut(), FURY).unwrap();
    e.world_mut()
        .get_mut::<Conditions>(ent)
        .unwrap()
        .apply(crate::conditions::ActiveCondition {
            kind: ConditionKind::Frightened,
            duration: crate::conditions::Duration::EndOfEncounter,
            source: Some(source),
            ability: None,
            save_shift: Default::default(),
        });
    start(&mut e, FURY);
    let at = e.creature(source).unwrap().space;
    let legal = e.legal_actions();
    let mut walks = 0;
    for c in &legal {
        let path: Vec<crate::map::Pos> = match c {
            Command::Move { path, .. } | Command::Charge { path, .. } => path.to_vec(),
            Command::Shift { to, .. } => vec![e.creature(FURY).unwrap().space.pos, *to],
            _ => continue,
        };
        walks += 1;
        assert!(
            !crate::map::movement::nears(&path, 1, at),
            "listed, though it nears the bandit: {c:?}"
        );
    }
    assert!(walks > 5, "it can still move away or aside");
    // A step toward it is refused, in the engine's words, wherever the
    // ground would allow it.
    let here = e.creature(FURY).unwrap().space.pos;
    let mut afraid = 0;
    for step in here.neighbours() {
        if !crate::map::movement::nears(&[here, step], 1, at) {
            continue;
        }
        let toward = Command::Move {
            creature: FURY,
            path: vec![here, step].into(),
        };
        let why = e.refusal(&toward).expect("refused").to_string();
        if why == "frightened of Bandit 1: it can't move closer to it" {
            afraid += 1;
        }
    }
    assert!(afraid > 0, "some open step toward it is refused for fear");
}
