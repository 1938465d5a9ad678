//! Malformed commands thrown at an encounter between legal ones, shared by
//! the test `tests/shipped.rs` (`malformed::`) and the example `fuzz` (each
//! includes this file): squares far off the map, paths that jump, unknown
//! creatures and abilities, amounts near `u32::MAX`, answers nobody asked
//! for, and legal commands with one part changed.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use skirmish_rules::content::ContentDb;
use skirmish_rules::encounter::command::Placement;
use skirmish_rules::encounter::state::work::{Prompt, Reaction};
use skirmish_rules::encounter::{Command, Encounter};
use skirmish_rules::map::Pos;
use skirmish_rules::map::movement::Path;
use skirmish_rules::phased::MovementPower;
use skirmish_rules::power_roll::Tier;
use skirmish_rules::sim::panic_message;
use skirmish_rules::stats::CreatureId;

/// Play `steps` commands of encounter `id` from `seed`: half legal (some
/// with a part changed), half malformed. Fails on a panic, a refused
/// command that changed anything, a creature that acts while dead, or a
/// replay that does not give the same log; otherwise the number refused.
/// With `show`, each command is printed as it goes (to stderr).
pub fn fuzz_one(
    db: &Arc<ContentDb>,
    id: &str,
    seed: u64,
    steps: usize,
    show: bool,
) -> Result<usize, String> {
    let mut e = Encounter::new(db.clone(), id, seed).map_err(|e| e.to_string())?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
    let abilities: Vec<String> = {
        let mut v: Vec<String> = db.abilities.keys().cloned().collect();
        v.sort();
        v.push("no_such_ability".into());
        v
    };
    let mut refused = 0;
    for step in 0..steps {
        if e.outcome().is_some() {
            break;
        }
        let legal = e.legal_actions();
        let cmd = if !legal.is_empty() && rng.random_bool(0.5) {
            let c = legal[rng.random_range(0..legal.len())].clone();
            if rng.random_bool(0.3) {
                mutate(c, &e, &abilities, &mut rng)
            } else {
                c
            }
        } else {
            garbage(&e, &abilities, &mut rng)
        };
        let before = state(&e);
        let shown = format!("{cmd:?}");
        if show {
            eprintln!("{step}: {shown}");
        }
        let r = catch_unwind(AssertUnwindSafe(|| e.apply(cmd)));
        match r {
            Err(p) => {
                let msg = panic_message(&*p).unwrap_or_default();
                return Err(format!("panic at step {step} on {shown}: {msg}"));
            }
            Ok(Err(_)) => {
                refused += 1;
                let after = state(&e);
                if after != before {
                    let mut what = String::new();
                    for (a, b) in before.0.iter().zip(&after.0) {
                        if a != b {
                            what += &format!("\n  {:?}\n  -> {:?}", a, b);
                        }
                    }
                    if before.1 != after.1 {
                        what += &format!("\n  log {:?}", &e.log()[before.1..]);
                    }
                    if before.2 != after.2 {
                        what += &format!("\n  flow {:?}\n  -> {:?}", before.2, after.2);
                    }
                    if show {
                        let lines = skirmish_rules::scenario::log_lines(&mut e);
                        what += &format!("\n{:#?}", &lines[lines.len().saturating_sub(30)..]);
                    }
                    if before.3 != after.3 || before.4 != after.4 {
                        what += "\n  malice or prompt";
                    }
                    return Err(format!("refused {shown} changed the encounter:{what}"));
                }
            }
            Ok(Ok(_)) => {
                // docs/rules.md#stamina: the dead take no turns.
                if let Some(active) = e.active_creature()
                    && e.creature(active).is_none_or(|c| c.stamina.is_dead())
                {
                    return Err(format!("after {shown} the dead creature {active} acts"));
                }
            }
        }
    }
    let again = e
        .replay()
        .play(db.clone())
        .map_err(|err| format!("replay: {err}"))?;
    if again.log() != e.log() {
        return Err("the replay's log differs".into());
    }
    Ok(refused)
}

/// What a refused command must leave as it was: the creatures, how long
/// the log is, the turn order, Malice and any open prompt.
type State = (
    Vec<skirmish_rules::encounter::CreatureView>,
    usize,
    skirmish_rules::encounter::Flow,
    u32,
    Option<Prompt>,
);

fn state(e: &Encounter) -> State {
    (
        e.creatures(),
        e.log().len(),
        e.flow().clone(),
        e.malice(),
        e.prompt().cloned(),
    )
}

fn some_id(e: &Encounter, rng: &mut ChaCha8Rng) -> CreatureId {
    let cs = e.creatures();
    match rng.random_range(0..10) {
        0 => CreatureId(rng.random_range(0..60)),
        1 => CreatureId(u32::MAX),
        _ if !cs.is_empty() => cs[rng.random_range(0..cs.len())].id,
        _ => CreatureId(0),
    }
}

fn some_pos(e: &Encounter, rng: &mut ChaCha8Rng) -> Pos {
    match rng.random_range(0..20) {
        0 => Pos::new(i32::MIN, i32::MAX),
        1 => Pos::new(i32::MAX, i32::MAX),
        2 => Pos::new(-1, -1),
        _ => {
            let m = e.map();
            Pos::new(
                rng.random_range(-2..m.width + 2),
                rng.random_range(-2..m.height + 2),
            )
        }
    }
}

fn some_path(e: &Encounter, who: CreatureId, rng: &mut ChaCha8Rng) -> Path {
    let start = e
        .creature(who)
        .map_or_else(|| some_pos(e, rng), |c| c.space.pos);
    let mut v = Vec::new();
    match rng.random_range(0..6) {
        0 => {}
        1 => {
            v = (0..rng.random_range(1..8))
                .map(|_| some_pos(e, rng))
                .collect()
        }
        2 => {
            v.push(start);
            v.push(start);
        }
        _ => {
            let mut at = start;
            v.push(at);
            for _ in 0..rng.random_range(0..14) {
                let (dx, dy) = Pos::STEPS[rng.random_range(0..8)];
                at = Pos::new(at.x.wrapping_add(dx), at.y.wrapping_add(dy));
                v.push(at);
            }
        }
    }
    Path::from(v)
}

/// Glyph links (docs/rules.md#glyphs): none, or any squares at all.
fn some_links(e: &Encounter, rng: &mut ChaCha8Rng) -> Option<Vec<Pos>> {
    rng.random_bool(0.3).then(|| {
        (0..rng.random_range(0..4))
            .map(|_| some_pos(e, rng))
            .collect()
    })
}

fn some_targets(e: &Encounter, rng: &mut ChaCha8Rng) -> Vec<CreatureId> {
    (0..rng.random_range(0..5))
        .map(|_| some_id(e, rng))
        .collect()
}

fn some_u32(rng: &mut ChaCha8Rng) -> u32 {
    match rng.random_range(0..6) {
        0 => u32::MAX,
        1 => rng.random_range(0..1000),
        _ => rng.random_range(0..4),
    }
}

fn some_tier(rng: &mut ChaCha8Rng) -> Option<Tier> {
    [None, Some(Tier::One), Some(Tier::Two), Some(Tier::Three)][rng.random_range(0..4)]
}

fn some_placement(e: &Encounter, rng: &mut ChaCha8Rng) -> Placement {
    match rng.random_range(0..6) {
        0 => Placement::OnSelf,
        1 => Placement::Cube {
            corner: some_pos(e, rng),
        },
        2 => Placement::Line {
            start: some_pos(e, rng),
            aim: some_pos(e, rng),
        },
        3 => Placement::Wall {
            squares: (0..rng.random_range(0..12))
                .map(|_| some_pos(e, rng))
                .collect(),
        },
        4 => Placement::Cone {
            aim: some_pos(e, rng),
        },
        _ => Placement::Sphere {
            centre: some_pos(e, rng),
        },
    }
}

fn garbage(e: &Encounter, abilities: &[String], rng: &mut ChaCha8Rng) -> Command {
    let creature = match e.active_creature() {
        Some(a) if rng.random_bool(0.6) => a,
        _ => some_id(e, rng),
    };
    let ability = abilities[rng.random_range(0..abilities.len())].clone();
    match rng.random_range(0..16) {
        0 => Command::StartTurn { creature },
        1 => Command::Move {
            creature,
            path: some_path(e, creature, rng),
        },
        2 => Command::Shift {
            creature,
            to: some_pos(e, rng),
        },
        3 => Command::Movement {
            creature,
            power: MovementPower::ALL[rng.random_range(0..6)],
            path: some_path(e, creature, rng),
        },
        4 => Command::UseAbility {
            creature,
            ability,
            targets: some_targets(e, rng),
            surges: some_u32(rng),
            potency_surges: some_targets(e, rng),
            spend: some_u32(rng),
            tier: some_tier(rng),
        },
        5 => Command::UseAreaAbility {
            creature,
            ability,
            placement: some_placement(e, rng),
            surges: some_u32(rng),
            potency_surges: some_targets(e, rng),
            spend: some_u32(rng),
            tier: some_tier(rng),
            links: some_links(e, rng),
        },
        6 => Command::Charge {
            creature,
            path: some_path(e, creature, rng),
            target: some_id(e, rng),
            ability: rng.random_bool(0.5).then_some(ability),
        },
        7 => Command::FreeStrike {
            creature,
            target: some_id(e, rng),
        },
        8 => Command::StandUp { creature },
        9 => Command::CatchBreath { creature },
        10 => Command::EscapeGrab { creature },
        11 => Command::Defend { creature },
        12 => Command::Hide { creature },
        13 => Command::Delay { creature },
        14 => Command::Answer {
            creature: e.prompt().map_or(creature, |p| p.creature),
            reaction: rng.random_bool(0.7).then(|| Reaction {
                ability,
                targets: some_targets(e, rng),
            }),
        },
        _ => Command::EndTurn { creature },
    }
}

/// A legal command with one part changed.
fn mutate(c: Command, e: &Encounter, abilities: &[String], rng: &mut ChaCha8Rng) -> Command {
    match c {
        Command::UseAbility {
            creature,
            ability,
            targets,
            surges,
            potency_surges,
            spend,
            tier,
        } => match rng.random_range(0..4) {
            0 => Command::UseAbility {
                creature,
                ability,
                targets,
                surges: some_u32(rng),
                potency_surges,
                spend,
                tier,
            },
            1 => Command::UseAbility {
                creature,
                ability,
                targets,
                surges,
                potency_surges: some_targets(e, rng),
                spend: some_u32(rng),
                tier: some_tier(rng),
            },
            2 => {
                let mut t = targets;
                t.extend(some_targets(e, rng));
                Command::UseAbility {
                    creature,
                    ability,
                    targets: t,
                    surges,
                    potency_surges,
                    spend,
                    tier,
                }
            }
            _ => Command::UseAbility {
                creature,
                ability: abilities[rng.random_range(0..abilities.len())].clone(),
                targets,
                surges,
                potency_surges,
                spend,
                tier,
            },
        },
        Command::UseAreaAbility {
            creature,
            ability,
            placement,
            ..
        } => Command::UseAreaAbility {
            creature,
            ability,
            placement: if rng.random_bool(0.5) {
                some_placement(e, rng)
            } else {
                placement
            },
            surges: some_u32(rng),
            potency_surges: some_targets(e, rng),
            spend: some_u32(rng),
            tier: some_tier(rng),
            links: some_links(e, rng),
        },
        Command::Move { creature, path } => {
            let mut v = path.to_vec();
            if rng.random_bool(0.5) {
                v.push(some_pos(e, rng));
            } else if !v.is_empty() {
                v.remove(rng.random_range(0..v.len()));
            }
            Command::Move {
                creature,
                path: Path::from(v),
            }
        }
        Command::Answer { creature, reaction } => Command::Answer {
            creature,
            reaction: reaction.map(|r| Reaction {
                ability: r.ability,
                targets: some_targets(e, rng),
            }),
        },
        // Anything else: half the time a malformed command in its place
        // (one is drawn either way, then the coin: the draws stay in step).
        other => {
            let instead = garbage(e, abilities, rng);
            if rng.random_bool(0.5) { instead } else { other }
        }
    }
}
