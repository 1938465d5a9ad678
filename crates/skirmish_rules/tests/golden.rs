//! Golden games: a fixed set of seeded games, whose combat logs must stay
//! what they were. Every shipped encounter, each brain as the heroes
//! against random and against greedy monsters, two seeds each: 224 games.
//! Each game's log (as JSON) is hashed with FNV-1a, a hash that does not
//! change with the compiler, and compared with `tests/golden.txt`. A change
//! that alters any game fails here and names the encounter, the brains and
//! the seed of each game it changed.
//!
//! A change meant to alter games (a rule fixed, content changed) writes the
//! file anew: `GOLDEN_BLESS=1 cargo test -p skirmish_rules --test golden`,
//! and says why in its commit.

use std::collections::BTreeMap;
use std::sync::Arc;

use skirmish_rules::ai::by_name;
use skirmish_rules::content::ContentDb;
use skirmish_rules::encounter::Encounter;
use skirmish_rules::sim::play_on;

const BRAINS: [&str; 4] = ["random", "greedy", "tactical", "search"];
const OPPONENTS: [&str; 2] = ["random", "greedy"];
const SEEDS: [u64; 2] = [1, 2];

/// FNV-1a, 64 bits.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

fn golden_path() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden.txt")
}

/// Every golden game's key ("keep_breach greedy-v-random seed 1") and
/// the hash of its log.
fn play_all() -> BTreeMap<String, String> {
    let db = Arc::new(
        ContentDb::load(concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets")).expect("content"),
    );
    let mut out = BTreeMap::new();
    for id in db.encounters.keys() {
        let mut e = Encounter::new(db.clone(), id, 0).expect("a shipped encounter");
        for brain in BRAINS {
            for opponent in OPPONENTS {
                for seed in SEEDS {
                    let heroes = by_name(brain, seed, &db).expect("a brain");
                    let monsters = by_name(opponent, !seed, &db).expect("a brain");
                    e.restart(seed);
                    let result = play_on(&mut e, heroes, monsters, 20_000);
                    let key = format!("{id} {brain}-v-{opponent} seed {seed}");
                    assert!(result.errors.is_empty(), "{key}: {:?}", result.errors);
                    let log = serde_json::to_vec(e.log()).expect("a log as JSON");
                    out.insert(key, format!("{:016x}", fnv1a(&log)));
                }
            }
        }
    }
    out
}

fn read_golden() -> BTreeMap<String, String> {
    let text = std::fs::read_to_string(golden_path()).unwrap_or_default();
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .filter_map(|l| {
            let (key, hash) = l.rsplit_once(' ')?;
            Some((key.to_string(), hash.to_string()))
        })
        .collect()
}

#[test]
fn the_golden_games_play_as_they_did() {
    let now = play_all();
    assert!(now.len() >= 200, "{} golden games", now.len());
    if std::env::var_os("GOLDEN_BLESS").is_some() {
        let mut text = String::from(
            "# The golden games' log hashes (tests/golden.rs): encounter, brains, seed, FNV-1a of the log.\n",
        );
        for (k, h) in &now {
            text += &format!("{k} {h}\n");
        }
        std::fs::write(golden_path(), text).expect("golden.txt written");
        return;
    }
    let was = read_golden();
    let changed: Vec<String> = now
        .iter()
        .filter(|(k, h)| was.get(*k) != Some(*h))
        .map(|(k, h)| match was.get(k) {
            Some(old) => format!("{k}: {old} is now {h}"),
            None => format!("{k}: not in golden.txt"),
        })
        .chain(
            was.keys()
                .filter(|k| !now.contains_key(*k))
                .map(|k| format!("{k}: no longer played")),
        )
        .collect();
    assert!(
        changed.is_empty(),
        "{} of {} golden games changed (GOLDEN_BLESS=1 writes them anew, for a change meant to):\n{}",
        changed.len(),
        now.len(),
        changed.join("\n")
    );
}

#[test]
fn the_log_hash_is_fnv1a() {
    // The published FNV-1a test vectors: a change of hash would change
    // every golden game at once.
    assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
    assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
    assert_eq!(fnv1a(b"foobar"), 0x8594_4171_f739_67e8);
}
