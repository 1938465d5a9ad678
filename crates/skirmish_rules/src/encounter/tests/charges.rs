//! Charges (docs/rules.md#charge): the straight runs the listing offers, and
//! the abilities with the Charge keyword that can end them.

use super::triggers::{db_with, open, stamina};
use super::*;
use crate::map::movement::{Mover, every_straight_path, is_straight, occupancy, path_cost_with};

const BANDIT: CreatureId = CreatureId(2);

fn charge_with(legal: &[Command], target: CreatureId, ability: Option<&str>) -> Option<Command> {
    legal
        .iter()
        .find(|c| {
            matches!(c, Command::Charge { ability: a, target: t, .. }
                if a.as_deref() == ability && *t == target)
        })
        .cloned()
}

// docs/rules.md#ability-anatomy, Charge: "Abilities with the Charge keyword
// can be used with the Charge main action instead of a melee free strike."
// docs/rules.md#charge: "move up to your speed in a straight line ... then make
// a melee free strike or use an ability with the Charge keyword against a
// creature you reached."
#[test]
fn abilities_with_the_charge_keyword_end_charges() {
    let mut e = open(
        db_with(&[]),
        vec![hero("fury", "Korva", (1, 1))],
        vec![monster("bandit", (5, 1))],
    );
    e.dice_mut().force([1]);
    start(&mut e, FURY);
    assert_eq!(e.creature(FURY).unwrap().heroic.unwrap().amount, 1);
    let legal = e.legal_actions();
    // A free strike, or Tackle (a signature ability); not Rampage, which
    // costs 5 ferocity to the fury's 1, nor Brutal Slam, which has no
    // Charge keyword.
    assert!(charge_with(&legal, BANDIT, None).is_some());
    let tackle = charge_with(&legal, BANDIT, Some("fury_tackle")).expect("a charge with Tackle");
    assert!(charge_with(&legal, BANDIT, Some("fury_rampage")).is_none());
    assert!(charge_with(&legal, BANDIT, Some("brutal_slam")).is_none());
    // The shortest straight run there: three squares east, the first in
    // map order of those that end next to the bandit.
    let Command::Charge { path, .. } = &tackle else {
        unreachable!()
    };
    assert_eq!(
        path.to_vec(),
        [(1, 1), (2, 1), (3, 1), (4, 0)].map(|(x, y)| Pos::new(x, y))
    );
    // What the ability's cost forbids is refused before the run: Rampage
    // leaves the fury where it was, its main action unspent.
    let rampage = Command::Charge {
        creature: FURY,
        path: path.clone(),
        target: BANDIT,
        ability: Some("fury_rampage".into()),
    };
    assert!(matches!(
        e.apply(rampage),
        Err(Refusal::NotEnoughResource { needed: 5, .. })
    ));
    assert_eq!(e.creature(FURY).unwrap().space.pos, Pos::new(1, 1));
    assert!(e.creature(FURY).unwrap().budget.main);
    // Tackle: the run, then its power roll. 8 + 8 + Might 2 = 18, tier 3:
    // "7 + M damage".
    e.dice_mut().force([8, 8]);
    let log = e.apply(tackle).unwrap();
    assert_eq!(e.creature(FURY).unwrap().space.pos, Pos::new(4, 0));
    assert!(log.iter().any(|l| matches!(l,
        LogEntry::AbilityUsed { creature, ability, .. }
            if *creature == FURY && ability == "fury_tackle")));
    assert_eq!(stamina(&mut e, BANDIT), 20 - 9);
    assert!(!e.creature(FURY).unwrap().budget.main);
    // With the main action spent, no charge is left.
    assert!(
        !e.legal_actions()
            .iter()
            .any(|c| matches!(c, Command::Charge { .. }))
    );
}

/// A small map of walls and difficult ground from `seed` (an LCG: the
/// test's own, not the encounter's).
fn rough_map(seed: u64, width: i32, height: i32) -> crate::map::Map {
    let mut state = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
    let mut next = move || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) as u32
    };
    let rows: Vec<String> = (0..height)
        .map(|_| {
            (0..width)
                .map(|_| match next() % 10 {
                    0 | 1 => '#',
                    2 => '~',
                    _ => '.',
                })
                .collect()
        })
        .collect();
    crate::map::grid::ascii(&rows.join("\n"))
}

// docs/rules.md#charge: every charge the rules allow is offered, and with the
// shortest run. On rough ground, for each enemy: a charge ending in a free
// strike is listed if and only if some straight path of at most the
// fury's speed, every step costing one square (no difficult terrain, no
// enemy crossed), ends next to it (docs/rules.md#straight-lines); the listed
// run is straight, that short, and accepted.
#[test]
fn every_charge_the_rules_allow_is_listed_with_its_shortest_run() {
    let mut tried = 0;
    for seed in 0..60u64 {
        let map = rough_map(seed, 9, 7);
        let floor: Vec<Pos> = (0..7)
            .flat_map(|y| (0..9).map(move |x| Pos::new(x, y)))
            .filter(|&p| map.cell(p).terrain == crate::map::grid::Terrain::Floor)
            .collect();
        if floor.len() < 4 {
            continue;
        }
        let pick = |k: u64| floor[((seed * 7919 + k * 104729) % floor.len() as u64) as usize];
        let spots = [pick(0), pick(1), pick(2)];
        if spots[1] == spots[0] || spots[2] == spots[0] || spots[2] == spots[1] {
            continue;
        }
        let mut db = db_with(&[]);
        db.maps.insert(
            "rough".into(),
            crate::content::LoadedMap {
                id: "rough".into(),
                name: "Rough".into(),
                description: String::new(),
                map: map.clone(),
            },
        );
        let xy = |p: Pos| (p.x, p.y);
        let mut e = super::custom(
            db,
            "rough",
            vec![hero("fury", "Korva", xy(spots[0]))],
            vec![
                monster("bandit", xy(spots[1])),
                monster("bandit", xy(spots[2])),
            ],
            FirstSide::Heroes,
            1,
        );
        e.dice_mut().force([1]);
        start(&mut e, FURY);
        tried += 1;
        let occupants = e.occupants();
        let fury = e.creature(FURY).unwrap();
        let mover = Mover {
            id: FURY,
            space: fury.space,
            side: fury.side,
            speed: 5,
            extra_cost: 0,
            shifting: false,
            modes: Default::default(),
        };
        let grid = occupancy(&map, &occupants);
        let legal = e.legal_actions();
        for o in occupants.iter().filter(|o| o.side != fury.side) {
            let fewest = every_straight_path(fury.space.pos, 5)
                .into_iter()
                .filter(|p| {
                    let end = crate::map::Footprint::new(*p.last().unwrap(), 1);
                    end.distance(o.space) == 1
                        && path_cost_with(&map, &grid, &mover, p) == Some(p.len() as u32 - 1)
                })
                .map(|p| p.len())
                .min();
            let listed = charge_with(&legal, o.id, None);
            assert_eq!(
                listed.is_some(),
                fewest.is_some(),
                "seed {seed}: a charge at {:?} from {:?}",
                o.space.pos,
                fury.space.pos
            );
            let Some(Command::Charge { path, .. }) = listed else {
                continue;
            };
            assert!(is_straight(path.squares()), "seed {seed}");
            assert_eq!(Some(path.len()), fewest, "seed {seed}");
            let before = e.snapshot();
            e.apply(charge_with(&legal, o.id, None).unwrap())
                .unwrap_or_else(|r| panic!("seed {seed}: refused: {r:?}"));
            e.restore(&before);
        }
    }
    assert!(tried >= 40, "{tried} maps tried");
}
