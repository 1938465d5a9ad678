//! What must hold after every command, whatever was played: checked by the
//! random-game property test, the load test (`tests/shipped.rs`, `load::`) and its
//! larger run (`examples/load.rs`), so a broken rule shows up as the
//! command that broke it.

use super::Encounter;
use crate::conditions::ConditionKind;
use crate::map::Side;

/// The first invariant `e` breaks, in words; `Ok` if none.
pub fn check(e: &Encounter) -> Result<(), String> {
    // A move paused by a prompt may stand in a square it is passing
    // through (docs/rules.md#moving: creatures can't *end* a move there).
    let paused = e.prompt().is_some();
    let all = e.creatures();
    for a in &all {
        if a.stamina.current > a.stamina.max || a.stamina.temporary < 0 {
            return Err(format!("{} has stamina {:?}", a.name, a.stamina));
        }
        // docs/rules.md#grabbed: "if either the grabbed creature or the
        // creature grabbing them is force moved so that both creatures are
        // not adjacent to each other, that creature is no longer grabbed";
        // nor when either falls (the grab check after every command,
        // `resolve::check_grabs`).
        if let Some(g) = a.conditions.source_of(ConditionKind::Grabbed) {
            let held = !a.stamina.is_dead()
                && all
                    .iter()
                    .any(|b| b.id == g && !b.stamina.is_dead() && b.space.distance(a.space) <= 1);
            if !held {
                return Err(format!("{} is still grabbed, apart or fallen", a.name));
            }
        }
        if a.stamina.is_dead() {
            continue;
        }
        if !a.space.squares().all(|q| e.map().in_bounds(q)) {
            return Err(format!("{} stands off the map at {}", a.name, a.space.pos));
        }
        for b in &all {
            if !paused && a.id < b.id && !b.stamina.is_dead() && a.space.overlaps(b.space) {
                return Err(format!("{} and {} share a square", a.name, b.name));
            }
        }
    }
    if let Some(active) = e.active_creature()
        && e.creature(active).is_none_or(|c| c.stamina.is_dead())
    {
        return Err("the dead act".into());
    }
    // A side with no creature able to fight loses, and only then.
    let stands = |side| all.iter().any(|c| c.side == side && !c.stamina.is_dead());
    let decided = match (stands(Side::Heroes), stands(Side::Director)) {
        (true, true) => None,
        (true, false) => Some(Side::Heroes),
        (false, _) => Some(Side::Director),
    };
    if e.outcome() != decided {
        return Err(format!(
            "outcome {:?}, where who stands says {decided:?}",
            e.outcome()
        ));
    }
    Ok(())
}
