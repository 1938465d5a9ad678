use std::path::Path;

use super::*;
use crate::ai::by_name;

fn db() -> Arc<ContentDb> {
    Arc::new(ContentDb::load(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets")).unwrap())
}

/// A brain that always answers with a command no encounter accepts.
struct Liar;

impl Brain for Liar {
    fn name(&self) -> String {
        "liar".into()
    }

    fn choose(&mut self, _: &Encounter, legal: &[Command]) -> Command {
        Command::EndTurn {
            creature: crate::stats::CreatureId(legal[0].creature().0 + 100),
        }
    }
}

/// A brain that answers by position, one past the end of the list.
struct OffTheEnd;

impl Brain for OffTheEnd {
    fn name(&self) -> String {
        "off-the-end".into()
    }

    fn choose(&mut self, _: &Encounter, legal: &[Command]) -> Command {
        legal[0].clone()
    }

    fn choose_at(&mut self, _: &Encounter, legal: &[Command]) -> Result<usize, Command> {
        Ok(legal.len())
    }
}

/// A brain that panics on its third decision.
struct Fragile(u32);

impl Brain for Fragile {
    fn name(&self) -> String {
        "fragile".into()
    }

    fn choose(&mut self, _: &Encounter, legal: &[Command]) -> Command {
        self.0 += 1;
        assert!(self.0 < 3, "lost its nerve");
        legal[0].clone()
    }
}

// Issue #6 point 6: "a brain that returns an illegal command gets a clear
// error naming the brain and the command, and the game goes on with that
// creature's turn ended".
#[test]
fn an_illegal_command_is_reported_and_the_game_goes_on() {
    let db = db();
    let greedy = by_name("greedy", 1, &db).unwrap();
    let (g, e) = play_with(&db, "first_blood", 7, Box::new(Liar), greedy, 20_000).unwrap();
    assert!(e.outcome().is_some(), "the game still ends");
    assert_eq!(
        g.winner,
        Some(Side::Director),
        "the heroes only ever end turns"
    );
    assert!(!g.errors.is_empty());
    assert!(
        g.errors[0].starts_with("brain `liar` chose an illegal command at seed 7: EndTurn"),
        "{}",
        g.errors[0]
    );
}

// The same for a brain answering by position (`Brain::choose_at`): a
// position outside the list is named with the list's length.
#[test]
fn a_position_outside_the_list_is_reported_and_the_game_goes_on() {
    let db = db();
    let greedy = by_name("greedy", 1, &db).unwrap();
    let (g, e) = play_with(&db, "first_blood", 7, Box::new(OffTheEnd), greedy, 20_000).unwrap();
    assert!(e.outcome().is_some(), "the game still ends");
    assert_eq!(g.winner, Some(Side::Director));
    let first = &g.errors[0];
    assert!(
        first.starts_with("brain `off-the-end` chose an illegal command at seed 7: position "),
        "{first}"
    );
    assert!(first.contains(" legal commands"), "{first}");
}

// "a brain that panics is caught and reported with the seed that reproduces it".
#[test]
fn a_panicking_brain_is_caught_and_reported_with_its_seed() {
    let db = db();
    let random = by_name("random", 1, &db).unwrap();
    let (g, _) = play_with(&db, "first_blood", 11, Box::new(Fragile(0)), random, 20_000).unwrap();
    assert_eq!(g.winner, None);
    assert_eq!(g.errors.len(), 1);
    assert!(
        g.errors[0].contains(
            "brain `fragile` panicked (reproduce with --seed 11 --games 1): lost its nerve"
        ),
        "{}",
        g.errors[0]
    );
}

// The same seeds give the same report whatever the number of threads.
#[test]
fn reports_do_not_depend_on_the_number_of_jobs() {
    let db = db();
    let mut cfg = SimConfig::new("first_blood", "greedy", "random", 12, 100);
    let one = simulate(db.clone(), &cfg, &|_, _| {}).unwrap();
    cfg.jobs = 3;
    let three = simulate(db, &cfg, &|_, _| {}).unwrap();
    assert_eq!(
        serde_json::to_string(&one).unwrap(),
        serde_json::to_string(&three).unwrap()
    );
    assert_eq!(one.games, 12);
    assert_eq!(one.heroes_won + one.director_won + one.draws, 12);
}

// Issue 6 point 3: "damage dealt and taken per creature". Each creature of
// the encounter has its row, marked with its side; the text lists the
// heroes' rows, then the monsters', and damage taken adds up to what the
// games' logs say was taken.
#[test]
fn the_report_has_a_row_per_creature_grouped_by_side() {
    let db = db();
    let cfg = SimConfig::new("wolf_pack", "greedy", "greedy", 4, 7);
    let r = simulate(db.clone(), &cfg, &|_, _| {}).unwrap();
    let e = Encounter::new(db, "wolf_pack", 7).unwrap();
    for c in e.creatures() {
        let row = r
            .creatures
            .get(&c.name)
            .unwrap_or_else(|| panic!("no row for {}", c.name));
        assert_eq!(row.side, Some(c.side), "{}", c.name);
    }
    let text = r.to_string();
    let line_of = |name: &str| {
        text.lines()
            .position(|l| l.trim_start().starts_with(name))
            .unwrap_or_else(|| panic!("{name} not in\n{text}"))
    };
    let (heroes, monsters) = (line_of("heroes:"), line_of("monsters:"));
    assert!(heroes < monsters);
    for c in e.creatures() {
        let at = line_of(&c.name);
        match c.side {
            Side::Heroes => assert!(heroes < at && at < monsters, "{}", c.name),
            Side::Director => assert!(monsters < at, "{}", c.name),
        }
    }
}

/// A game's result with these creatures: (name, side, dealt, taken).
fn game_with(seed: u64, rows: &[(&str, Side, i64, i64)]) -> GameResult {
    GameResult {
        seed,
        winner: Some(Side::Heroes),
        rounds: 5,
        dealt: rows.iter().map(|r| (r.0.to_string(), r.2)).collect(),
        taken: rows.iter().map(|r| (r.0.to_string(), r.3)).collect(),
        kills: BTreeMap::new(),
        sides: rows.iter().map(|r| (r.0.to_string(), r.1)).collect(),
        abilities: BTreeMap::new(),
        resource_spent: 0,
        errors: Vec::new(),
        fell: Default::default(),
    }
}

// Issue 6 point 3: "damage dealt and taken per creature". A summon called
// up in one game of four is averaged over that game, not over all four,
// and its row says it was in a quarter of them.
#[test]
fn a_creature_in_some_games_is_averaged_over_those() {
    let cfg = SimConfig::new("bone_caller", "greedy", "greedy", 4, 1);
    let mut games: Vec<GameResult> = (0..4)
        .map(|i| game_with(i, &[("Korva", Side::Heroes, 8, 4)]))
        .collect();
    games[2] = game_with(
        2,
        &[
            ("Korva", Side::Heroes, 8, 4),
            ("Bone Thrall", Side::Director, 12, 6),
        ],
    );
    // Folded in two tallies, as two threads would, and added up.
    let (mut a, mut b) = (Tally::default(), Tally::default());
    for (i, g) in games.into_iter().enumerate() {
        let into = if i % 2 == 0 { &mut a } else { &mut b };
        into.add(i as u64, Ok(g));
    }
    a.merge(b);
    let r = a.report(&cfg);
    let thrall = &r.creatures["Bone Thrall"];
    assert_eq!(thrall.games, 1);
    assert_eq!((thrall.dealt_per_game, thrall.taken_per_game), (12.0, 6.0));
    let korva = &r.creatures["Korva"];
    assert_eq!(korva.games, 4);
    assert_eq!((korva.dealt_per_game, korva.taken_per_game), (8.0, 4.0));
    let text = r.to_string();
    let row = text
        .lines()
        .find(|l| l.trim_start().starts_with("Bone Thrall"))
        .unwrap();
    assert!(row.trim_end().ends_with("25%"), "{row}");
}

// Wilson score interval for 95%: 50 of 100 gives 40.4% to 59.6%.
#[test]
fn win_rates_come_with_a_95_percent_interval() {
    let r = Rate::wilson(50, 100);
    assert!(
        (r.low - 0.4038).abs() < 1e-3 && (r.high - 0.5962).abs() < 1e-3,
        "{r:?}"
    );
    let all = Rate::wilson(20, 20);
    assert_eq!(all.high, 1.0);
    assert!(all.low > 0.83 && all.low < 0.84, "{all:?}");
}

// Issue #6 point 1: every brain plays legal commands only, and answers
// prompts; each brain plays a few seeded games on both sides.
#[test]
fn every_shipped_brain_plays_whole_games_without_mistakes() {
    let db = db();
    for brain in crate::ai::BRAINS {
        for (heroes, monsters) in [(brain, "greedy"), ("greedy", brain)] {
            let mut cfg = SimConfig::new("first_blood", heroes, monsters, 2, 3);
            cfg.max_commands = 4000;
            let r = simulate(db.clone(), &cfg, &|_, _| {}).unwrap();
            assert!(r.errors.is_empty(), "{brain}: {:?}", r.errors);
            assert_eq!(r.draws, 0, "{heroes} v {monsters}: every game ends");
        }
    }
}

// Replays written by the simulator play back to the same end.
#[test]
fn kept_replays_play_back_to_the_same_result() {
    let db = db();
    let dir = std::env::temp_dir().join(format!("skirmish-replays-{}", std::process::id()));
    let mut cfg = SimConfig::new("first_blood", "greedy", "tactical", 2, 40);
    cfg.replay_dir = Some(dir.clone());
    let (g, e) = play_game(&db, &cfg, 41).unwrap();
    let text = std::fs::read_to_string(dir.join("first_blood-41.ron")).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let again = crate::encounter::Replay::from_ron(&text)
        .unwrap()
        .play(db)
        .unwrap();
    assert_eq!(again.log(), e.log());
    assert_eq!(again.outcome(), g.winner);
}

// Issue #7 point 5: "a test runs every encounter to the end with `random`
// brains on fixed seeds".
#[test]
fn every_shipped_encounter_runs_to_the_end_with_random_brains() {
    let db = db();
    assert!(db.encounters.len() >= 8);
    for id in db.encounters.keys() {
        for seed in [1, 2] {
            let h = by_name("random", seed, &db).unwrap();
            let m = by_name("random", seed + 100, &db).unwrap();
            let (g, _) = play_with(&db, id, seed, h, m, 200_000).unwrap();
            assert!(g.winner.is_some(), "{id} seed {seed} did not end");
            assert!(g.errors.is_empty(), "{id}: {:?}", g.errors);
        }
    }
}

// Issue #6 point 6 and `legal_actions`' promise that every listed command
// is accepted: greedy against greedy on every shipped encounter, on seeds
// that reach the rarer turns (a dying hero's slow action bleeding them to
// death as their turn starts, in storm_rite at seed 0, once left the next
// listed StartTurn refused).
#[test]
fn every_shipped_encounter_runs_to_the_end_with_greedy_brains() {
    let db = db();
    for id in db.encounters.keys() {
        for seed in 0..3 {
            let h = by_name("greedy", seed, &db).unwrap();
            let m = by_name("greedy", !seed, &db).unwrap();
            let (g, _) = play_with(&db, id, seed, h, m, 20_000).unwrap();
            assert!(g.errors.is_empty(), "{id} seed {seed}: {:?}", g.errors);
            assert!(g.winner.is_some(), "{id} seed {seed} did not end");
        }
    }
}

// docs/rules.md#round-bonuses end with the round; when several creatures' end
// at once they are logged by creature, never in whatever order the ECS
// store holds them (which changed with how the app was set up).
#[test]
fn round_bonuses_end_in_creature_order() {
    let db = db();
    let mut seen = 0;
    for seed in 0..3 {
        let h = by_name("greedy", seed, &db).unwrap();
        let m = by_name("greedy", !seed, &db).unwrap();
        let (_, e) = play_with(&db, "storm_rite", seed, h, m, 100_000).unwrap();
        let mut last: Option<crate::stats::CreatureId> = None;
        for entry in e.log() {
            match entry {
                crate::encounter::LogEntry::BonusEnded { creature, .. } => {
                    if let Some(l) = last {
                        assert!(l <= *creature, "{l:?} logged before {creature:?}");
                        seen += 1;
                    }
                    last = Some(*creature);
                }
                _ => last = None,
            }
        }
    }
    assert!(seen > 0, "no round ended two creatures' bonuses at once");
}

// `Encounter::restart` promises the fight a new encounter with that seed
// would give, bit for bit: batches reuse one encounter per thread on it.
// Every shipped encounter, after a game has left it in some end state
// (summons made, walls raised, conditions on), restarted with other seeds
// and brains, against new encounters with those seeds.
#[test]
fn a_restarted_encounter_plays_the_game_a_new_one_would() {
    let db = db();
    let mut summons = 0;
    for id in db.encounters.keys() {
        let mut reused = Encounter::new(db.clone(), id, 99).unwrap();
        let greedy = |seed| by_name("greedy", seed, &db).unwrap();
        let random = |seed: u64| by_name("random", seed, &db).unwrap();
        play_on(&mut reused, random(99), greedy(99), 3_000);
        for (seed, brain) in [(1, "random"), (2, "greedy"), (3, "random")] {
            let brains = || {
                (
                    by_name(brain, seed, &db).unwrap(),
                    by_name(brain, !seed, &db).unwrap(),
                )
            };
            let (h, m) = brains();
            let (fresh_result, fresh) = play_with(&db, id, seed, h, m, 3_000).unwrap();
            reused.restart(seed);
            let (h, m) = brains();
            let result = play_on(&mut reused, h, m, 3_000);
            assert_eq!(fresh.log(), reused.log(), "{id}, seed {seed}, {brain}");
            assert_eq!(
                fresh.replay(),
                reused.replay(),
                "{id}, seed {seed}, {brain}"
            );
            assert_eq!(
                (fresh_result.winner, fresh_result.rounds),
                (result.winner, result.rounds)
            );
            summons += fresh
                .log()
                .iter()
                .filter(|l| matches!(l, LogEntry::Summoned { .. }))
                .count();
        }
    }
    // Summoned creatures are the part a restart has to remove.
    assert!(summons > 0, "no game summoned anything");
}

/// A brain that picks by position past the end of the listing.
struct PositionOffTheEnd;

impl Brain for PositionOffTheEnd {
    fn name(&self) -> String {
        "position-off-the-end".into()
    }

    fn choose(&mut self, _: &Encounter, legal: &[Command]) -> Command {
        legal[0].clone()
    }

    fn choose_position(&mut self, _: &Encounter, count: usize) -> Option<usize> {
        Some(count)
    }
}

// A brain that picks by position is handed only the count of the
// listing's slots and gets the one command built (`Brain::choose_position`),
// on every shipped encounter (squads acting together, the phased 2d6
// ruleset's phases, summons): at every step the slots that hold a command
// are legal_actions()'s, in order, and the rest (a failed check: line of
// effect, Hide's cover, a charge's run) hold none.
#[test]
fn the_listings_slots_hold_the_legal_actions_in_order() {
    use crate::ai::random::Random;
    let db = db();
    let (mut moves_taken, mut charges_checked, mut empty_slots) = (0, 0, 0);
    for id in db.encounters.keys() {
        for seed in 0..2 {
            let (g, e) = play_with(
                &db,
                id,
                seed,
                Box::new(Random::new(seed)),
                Box::new(Random::new(seed + 7)),
                3_000,
            )
            .unwrap();
            assert!(g.errors.is_empty(), "{id} seed {seed}: {:?}", g.errors);
            moves_taken += e
                .replay()
                .commands
                .iter()
                .filter(|c| matches!(c, Command::Move { .. }))
                .count();
        }
        // Every slot of the listing, at the first 60 steps of a game.
        let mut e = Encounter::new(db.clone(), id, 5).unwrap();
        let mut pick = Random::new(5);
        for _ in 0..60 {
            let legal = e.legal_actions();
            if legal.is_empty() {
                break;
            }
            assert_eq!(e.listing().len(), legal.len(), "{id}");
            // (The first slot's creature: a squad member's slots may all
            // have failed their checks, leaving another's command first.)
            let first = e.listing().first_creature().unwrap();
            assert_eq!(e.side_of(first), e.side_of(legal[0].creature()), "{id}");
            let mut held = Vec::new();
            for i in 0..e.listing().slots() {
                let mut listing = e.listing();
                let legal_here = listing.is_legal(i);
                match listing.take(i) {
                    Some(c) => {
                        assert!(legal_here, "{id}: slot {i} is legal");
                        held.push(c);
                    }
                    None => {
                        assert!(!legal_here, "{id}: slot {i} holds none");
                        empty_slots += 1;
                    }
                }
            }
            assert_eq!(held, legal, "{id}");
            charges_checked += legal
                .iter()
                .filter(|c| matches!(c, Command::Charge { .. }))
                .count();
            assert_eq!(e.listing().take(e.listing().slots()), None);
            // A command is taken out, not copied: it cannot be taken twice.
            let mut l = e.listing();
            let last = l.slots() - 1;
            assert_eq!(l.take(last).as_ref(), legal.last(), "{id}");
            assert_eq!(l.take(last), None, "{id}");
            let i = pick.choose_at(&e, &legal).unwrap();
            e.perform(legal[i].clone()).unwrap();
        }
    }
    assert!(moves_taken > 1000, "only {moves_taken} moves were taken");
    assert!(
        charges_checked > 50,
        "only {charges_checked} charges were listed"
    );
    assert!(empty_slots > 50, "only {empty_slots} slots failed a check");
}

// Issue #6 point 2: "`random`: uniform over legal actions". Picked by
// position, asked again past the slots whose check fails, every legal
// action is as likely as any other, and no empty slot is ever taken (a
// pick that fell through to the next slot instead would give that slot
// twice the share, which the test's bound would catch).
#[test]
fn the_random_brain_picks_uniformly_among_the_legal_actions() {
    use crate::ai::random::Random;
    let db = db();
    let mut tried = 0;
    'encounters: for id in db.encounters.keys() {
        let mut e = Encounter::new(db.clone(), id, 11).unwrap();
        let mut walk = Random::new(11);
        for _ in 0..200 {
            let legal = e.legal_actions();
            if legal.is_empty() {
                break;
            }
            let mut listing = e.listing();
            let slots = listing.slots();
            // A moment with a slot that holds no command, and a few that do.
            if slots > legal.len() && legal.len() >= 3 {
                let mut brain = Random::new(tried);
                let draws = 2_000 * legal.len();
                let mut counts = vec![0usize; slots];
                for _ in 0..draws {
                    match listing.pick_position(|n| brain.choose_position(&e, n)) {
                        Picked::At(i) => counts[i] += 1,
                        other => panic!("{id}: {other:?}"),
                    }
                }
                let mut holding = Vec::new();
                for (i, &n) in counts.iter().enumerate() {
                    if e.listing().is_legal(i) {
                        holding.push(n);
                    } else {
                        assert_eq!(n, 0, "{id}: empty slot {i} was taken");
                    }
                }
                assert_eq!(holding.len(), legal.len());
                // A brain that names an empty slot every time is asked 64
                // times, then with the whole list.
                let empty = (0..slots).find(|&i| counts[i] == 0 && !e.listing().is_legal(i));
                let mut asked = 0;
                let got = listing.pick_position(|_| {
                    asked += 1;
                    empty
                });
                assert_eq!((got, asked), (Picked::Whole, 64), "{id}");
                // Pearson's chi-squared against the uniform share, with
                // `legal.len() - 1` degrees of freedom: its mean is that,
                // its spread sqrt(2 df); the bound is far out in the tail.
                let expected = draws as f64 / legal.len() as f64;
                let chi2: f64 = holding
                    .iter()
                    .map(|&n| (n as f64 - expected).powi(2) / expected)
                    .sum();
                let df = (legal.len() - 1) as f64;
                assert!(
                    chi2 < df + 8.0 * (2.0 * df).sqrt(),
                    "{id}: chi-squared {chi2:.1} over {df} degrees of freedom: {holding:?}"
                );
                tried += 1;
                if tried >= 6 {
                    break 'encounters;
                }
            }
            let i = walk.choose_at(&e, &legal).unwrap();
            e.perform(legal[i].clone()).unwrap();
        }
    }
    assert!(tried >= 6, "only {tried} moments with an empty slot");
}

// Issue #6 point 6 for a brain that picks by position: past the end of the
// listing is an illegal choice, reported, and the game goes on.
#[test]
fn a_position_past_the_listing_is_reported_and_the_game_goes_on() {
    let db = db();
    let (g, e) = play_with(
        &db,
        "first_blood",
        3,
        Box::new(PositionOffTheEnd),
        by_name("greedy", 3, &db).unwrap(),
        400,
    )
    .unwrap();
    assert!(
        g.errors
            .iter()
            .any(|m| m.contains("position-off-the-end") && m.contains("legal commands")),
        "{:?}",
        g.errors
    );
    assert!(e.replay().commands.len() > 10, "the game stopped");
}

// Issue 51, point 2: replays are never written over unless asked, never
// outside their folder whatever the encounter's id, and a folder that
// can't take them is an error before any game is played.
#[test]
fn replays_stay_in_their_folder_and_are_not_written_over() {
    let mut content = (*db()).clone();
    let mut def = content.encounters["first_blood"].clone();
    def.id = "../escape".into();
    content.encounters.insert(def.id.clone(), def);
    let db = Arc::new(content);
    let root = std::env::temp_dir().join(format!("skirmish-keep-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let dir = root.join("replays");
    let mut cfg = SimConfig::new("../escape", "random", "random", 2, 7);
    cfg.replay_dir = Some(dir.clone());
    let report = simulate(db.clone(), &cfg, &|_, _| {}).unwrap();
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["___escape-7.ron", "___escape-8.ron"]);
    let outside: Vec<_> = std::fs::read_dir(&root).unwrap().collect();
    assert_eq!(outside.len(), 1, "only the replay folder in its parent");
    // Again with a seed of the batch already kept: refused before any
    // game, and the kept replay is as it was.
    let kept = std::fs::read_to_string(dir.join("___escape-8.ron")).unwrap();
    std::fs::write(dir.join("___escape-8.ron"), "kept").unwrap();
    let mut again = cfg.clone();
    again.seed = 8;
    let err = simulate(db.clone(), &again, &|_, _| {}).unwrap_err();
    assert!(err.contains("___escape-8.ron already exists"), "{err}");
    assert_eq!(
        std::fs::read_to_string(dir.join("___escape-8.ron")).unwrap(),
        "kept"
    );
    assert!(!dir.join("___escape-9.ron").exists(), "no game was played");
    // Asked to, it writes over them.
    again.overwrite = true;
    simulate(db.clone(), &again, &|_, _| {}).unwrap();
    assert_eq!(
        std::fs::read_to_string(dir.join("___escape-8.ron")).unwrap(),
        kept
    );
    // A replay folder that is a file is an error before any game.
    let file = root.join("a-file");
    std::fs::write(&file, "x").unwrap();
    let mut bad = cfg.clone();
    bad.replay_dir = Some(file);
    assert!(simulate(db, &bad, &|_, _| {}).is_err());
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn replay_file_names_keep_only_safe_characters() {
    assert_eq!(replay_file_name("first_blood", 3), "first_blood-3.ron");
    assert_eq!(replay_file_name("/abs/path", 0), "_abs_path-0.ron");
    assert_eq!(replay_file_name("a b.c\\d", 1), "a_b_c_d-1.ron");
    assert_eq!(replay_file_name("ogre-2", 9), "ogre-2-9.ron");
}

// Issue 51, point 3: "results streamed, not reserved". A tally keeps sums,
// not games; the errors it lists are the lowest seeds', the rest counted.
#[test]
fn a_tally_keeps_sums_and_a_bounded_list_of_errors() {
    let cfg = SimConfig::new("bone_caller", "greedy", "greedy", 4, 1);
    let mut t = Tally::default();
    for seed in (0..1000u64).rev() {
        t.add(seed, Err(format!("bad game {seed}")));
    }
    t.add(5000, Ok(game_with(5000, &[("Korva", Side::Heroes, 8, 4)])));
    assert!(t.errors.len() <= 2 * MAX_LISTED_ERRORS);
    let r = t.report(&cfg);
    assert_eq!(r.games, 1);
    assert_eq!(r.errors.len(), MAX_LISTED_ERRORS + 1);
    assert_eq!(r.errors[0], "bad game 0");
    assert_eq!(r.errors[MAX_LISTED_ERRORS - 1], "bad game 99");
    assert_eq!(r.errors[MAX_LISTED_ERRORS], "... and 900 more errors");
}

// Issue 52, point 4: "A minion squad's pool is one number wherever it
// shows" (docs/rules.md#minions: the squad "shares one stamina pool"):
// every member's view shows the pool, and the report has one row for the
// squad, whose damage taken is what the members took.
#[test]
fn a_squad_is_one_pool_in_the_view_and_one_row_in_the_report() {
    let db = db();
    let (result, e) = play_with(
        &db,
        "keep_breach",
        4,
        by_name("greedy", 1, &db).unwrap(),
        by_name("greedy", 2, &db).unwrap(),
        20_000,
    )
    .unwrap();
    let members: Vec<_> = e
        .creatures()
        .into_iter()
        .filter(|c| c.squad == Some(1))
        .collect();
    assert!(members.len() > 1);
    let pool = e.squad(1).unwrap();
    for m in &members {
        assert_eq!(
            m.shown_stamina(),
            (pool.pool.max(0), pool.max),
            "{}",
            m.name
        );
    }
    let rows: Vec<&String> = result
        .taken
        .keys()
        .filter(|n| n.contains("(squad 1)"))
        .collect();
    assert_eq!(rows.len(), 1, "{:?}", result.taken.keys());
    for m in &members {
        assert!(
            !result.taken.contains_key(&m.name),
            "{} has a row of its own",
            m.name
        );
    }
    let taken: i64 = e
        .log()
        .iter()
        .filter_map(|l| match l {
            LogEntry::Damage { target, amount, .. } if members.iter().any(|m| m.id == *target) => {
                Some(i64::from(*amount))
            }
            _ => None,
        })
        .sum();
    assert_eq!(result.taken[rows[0]], taken);
    assert!(taken > 0, "the squad was hit");
}
