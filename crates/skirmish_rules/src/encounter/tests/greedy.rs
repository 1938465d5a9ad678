//! The greedy brain's choices (issue #6 point 2: "one step ahead on
//! expected value ... focus the weakest reachable enemy, use areas to hit
//! several, avoid provoking opportunity attacks, keep ranged creatures out
//! of adjacency"), on encounters built here.

use super::triggers::{db_with, open, with};
use super::*;
use crate::ai::score::{Scorer, Weights, choose};
use crate::encounter::world;
use crate::map::{Footprint, Side};

const BANDIT: CreatureId = CreatureId(2);
const OTHER_BANDIT: CreatureId = CreatureId(3);

/// `user` uses the area ability `ability` placed so, with nothing spent.
fn area_use(user: CreatureId, ability: &str, placement: command::Placement) -> Command {
    Command::UseAreaAbility {
        creature: user,
        ability: ability.into(),
        placement,
        surges: 0,
        potency_surges: Vec::new(),
        spend: 0,
        tier: None,
        links: None,
    }
}

/// An open-map fight with the first hero's turn begun and, if given, that
/// much of its heroic resource.
fn started(heroes: Vec<HeroDef>, monsters: Vec<MonsterDef>, heroic: Option<u32>) -> Encounter {
    let mut e = open(db_with(&[]), heroes, monsters);
    e.dice_mut().force([1]);
    start(&mut e, FURY);
    if let Some(n) = heroic {
        let ent = world::entity_of(e.world_mut(), FURY).unwrap();
        e.world_mut().get_mut::<Heroic>(ent).unwrap().amount = n;
    }
    e
}

fn greedy_score(e: &Encounter, cmd: &Command) -> f64 {
    Scorer::new(e, &Weights::greedy(), Side::Heroes).score(cmd)
}

fn wound(e: &mut Encounter, id: CreatureId, to: i32) {
    let ent = world::entity_of(e.world_mut(), id).unwrap();
    e.world_mut().get_mut::<Stamina>(ent).unwrap().current = to;
}

#[test]
fn greedy_strikes_the_weakest_enemy_in_reach() {
    // Two bandits next to the fury, the one to the west nearly down.
    for wounded in [BANDIT, OTHER_BANDIT] {
        let mut e = open(
            db_with(&[]),
            vec![hero("fury", "Korva", (4, 2))],
            vec![monster("bandit", (5, 2)), monster("bandit", (3, 2))],
        );
        wound(&mut e, wounded, 6);
        start(&mut e, FURY);
        let legal = e.legal_actions();
        let chosen = choose(&e, &legal, &Weights::greedy());
        let target = match &chosen {
            Command::UseAbility { targets, .. } => targets.first().copied(),
            Command::FreeStrike { target, .. } => Some(*target),
            _ => None,
        };
        assert_eq!(target, Some(wounded), "{chosen:?}");
    }
}

const STAB: &str = r#"(id: "stab", name: "Stab", keywords: [Melee, Strike, Weapon],
    action: MainAction, distance: Melee(1), target: (count: Some(1), kinds: [Enemy]),
    power_roll: Some((characteristics: [Might], tiers: ("5 damage", "5 damage", "5 damage"))))"#;

const SWEEP: &str = r#"(id: "sweep", name: "Sweep", keywords: [Area, Melee, Weapon],
    action: MainAction, distance: Burst(1), target: (kinds: [Enemy]),
    power_roll: Some((characteristics: [Might], tiers: ("3 damage", "3 damage", "3 damage"))))"#;

fn sweep() -> Command {
    area_use(FURY, "sweep", command::Placement::OnSelf)
}

#[test]
fn greedy_prefers_an_area_that_hits_several_to_a_single_strike() {
    // Three bandits around the fury: 3 damage to each beats 5 to one.
    let mut e = open(
        db_with(&[STAB, SWEEP]),
        vec![with(hero("fury", "Korva", (4, 2)), &["stab", "sweep"])],
        vec![
            monster("bandit", (5, 2)),
            monster("bandit", (3, 2)),
            monster("bandit", (4, 3)),
        ],
    );
    start(&mut e, FURY);
    let stab = Command::use_ability(FURY, "stab", vec![BANDIT]);
    assert!(greedy_score(&e, &sweep()) > greedy_score(&e, &stab));
    // With one bandit in the burst, the strike is better.
    let mut e = open(
        db_with(&[STAB, SWEEP]),
        vec![with(hero("fury", "Korva", (4, 2)), &["stab", "sweep"])],
        vec![monster("bandit", (5, 2))],
    );
    start(&mut e, FURY);
    assert!(greedy_score(&e, &sweep()) < greedy_score(&e, &stab));
}

// docs/rules.md#moving: leaving an enemy's reach by moving provokes an
// opportunity attack; shifting does not.
#[test]
fn greedy_shifts_rather_than_walks_away_from_an_enemy() {
    let mut e = open(
        db_with(&[]),
        vec![hero("fury", "Korva", (4, 2))],
        vec![monster("bandit", (5, 2))],
    );
    start(&mut e, FURY);
    let to = Pos::new(3, 2);
    let walk = Command::Move {
        creature: FURY,
        path: vec![Pos::new(4, 2), to].into(),
    };
    let shift = Command::Shift { creature: FURY, to };
    assert!(e.legal_actions().contains(&shift));
    assert!(
        greedy_score(&e, &shift) > greedy_score(&e, &walk) + 1.0,
        "the walk provokes the bandit's free strike"
    );
}

/// How greedy values the elementalist (ranged spells, reach 10) standing
/// next to a bandit, and three squares off it, with the bandit hidden or
/// not.
fn ranged_next_to_and_apart(hidden: bool) -> (f64, f64) {
    let mut e = open(
        db_with(&[]),
        vec![hero("elementalist", "Ash", (2, 2))],
        vec![monster("bandit", (6, 2))],
    );
    let ent = world::entity_of(e.world_mut(), BANDIT).unwrap();
    e.world_mut().get_mut::<Stance>(ent).unwrap().hidden = hidden;
    let w = Weights::greedy();
    let scorer = Scorer::new(&e, &w, Side::Heroes);
    let me = e.creature(FURY).unwrap();
    (
        scorer.position(&me, Footprint::single(Pos::new(5, 2))),
        scorer.position(&me, Footprint::single(Pos::new(3, 2))),
    )
}

#[test]
fn greedy_keeps_a_ranged_creature_out_of_adjacency() {
    // Next to the bandit is worse for it than three squares off.
    let (adjacent, apart) = ranged_next_to_and_apart(false);
    assert!(apart > adjacent, "{apart} against {adjacent}");
}

// docs/rulings.md, Hide: "While hidden, strikes can target it only from
// adjacent squares." A ranged creature whose enemy has hidden must close
// in: next to it is better than anywhere off (two hidden sides, the one
// with bows keeping its distance, once never fought again).
#[test]
fn greedy_closes_in_on_a_hidden_enemy_even_when_ranged() {
    let (adjacent, apart) = ranged_next_to_and_apart(true);
    assert!(adjacent > apart, "{adjacent} against {apart}");
}

// docs/rules.md#conditions: "Different effects that impose the same condition
// ... don't stack to impose the condition twice ... A character who is
// grabbed by an enemy can't be grabbed again by another enemy." A grab of
// an enemy already grabbed gains nothing.
#[test]
fn a_condition_the_target_already_has_is_worth_nothing() {
    let mut e = started(
        vec![hero("fury", "Korva", (2, 2))],
        vec![monster("bandit", (3, 2))],
        None,
    );
    let grab = Command::use_ability(FURY, "grab", vec![BANDIT]);
    assert!(
        greedy_score(&e, &grab) > 0.0,
        "a free bandit is worth grabbing"
    );
    e.dice_mut().force([6, 6]);
    e.apply(grab.clone()).unwrap();
    assert!(
        e.creature(BANDIT)
            .unwrap()
            .conditions
            .has(ConditionKind::Grabbed)
    );
    assert!(
        greedy_score(&e, &grab) <= 0.0,
        "{}",
        greedy_score(&e, &grab)
    );
}

const CHILL: &str = r#"(id: "chill", name: "Chill", keywords: [Area, Magic],
    action: Maneuver, distance: Aura(2), target: (kinds: [Enemy]),
    aura: Some((when: StartOfTurnInside, effect: "3 cold damage; slowed (EoT)")))"#;

fn take_up_chill() -> Command {
    area_use(FURY, "chill", command::Placement::OnSelf)
}

// docs/rules.md#aura: it "always originates from you and moves with you for
// the duration of the ability that created it". Its forecast names the
// enemies in it now and what it does to each when it acts; the greedy
// brain takes it up for that, and does not start over one it carries.
#[test]
fn an_aura_is_forecast_by_what_it_does_to_enemies_in_it() {
    let mut e = open(
        db_with(&[CHILL]),
        vec![with(hero("fury", "Korva", (4, 2)), &["chill"])],
        vec![monster("bandit", (6, 2)), monster("bandit", (9, 2))],
    );
    e.dice_mut().force([1]);
    start(&mut e, FURY);
    let p = e.preview(&take_up_chill()).unwrap();
    assert!(p.aura);
    let ids: Vec<CreatureId> = p.targets.iter().map(|t| t.target).collect();
    assert_eq!(
        ids,
        vec![BANDIT],
        "the bandit 2 squares off, not the one 5 off"
    );
    let t = &p.targets[0];
    assert_eq!(t.chances, [1.0, 0.0, 0.0]);
    assert_eq!(t.tiers[0].damage, 3);
    assert_eq!(t.tiers[0].conditions, vec![ConditionKind::Slowed]);
    assert!(greedy_score(&e, &take_up_chill()) > 0.0);
    e.apply(take_up_chill()).unwrap();
    assert!(greedy_score(&e, &take_up_chill()) <= 0.0);
}

// docs/rules.md#surges: "Each surge you spend deals extra damage equal to
// your highest characteristic score." Blood Up ("gain 6 temporary
// stamina; gain 2 surges") is worth its 3 wrath.
#[test]
fn surges_the_user_gains_are_worth_something() {
    let mut e = started(
        vec![super::triggers::with(
            hero("fury", "Korva", (2, 2)),
            &["fury_blood_up"],
        )],
        vec![monster("bandit", (3, 2))],
        Some(3),
    );
    let blood_up = Command::use_ability(FURY, "fury_blood_up", vec![FURY]);
    assert!(e.legal_actions().contains(&blood_up));
    let p = e.preview(&blood_up).unwrap();
    assert_eq!(p.targets[0].tiers[0].surges, 2);
    assert_eq!(p.targets[0].tiers[0].temporary, 6);
    assert!(
        greedy_score(&e, &blood_up) > 1.0,
        "{}",
        greedy_score(&e, &blood_up)
    );
}

/// The first hero (an elementalist, a tactician).
const FIRST: CreatureId = FURY;

fn earth_wall(user: CreatureId, squares: Vec<Pos>) -> Command {
    area_use(
        user,
        "elem_earth_wall",
        command::Placement::Wall { squares },
    )
}

fn column(x: i32) -> Vec<Pos> {
    (0..5).map(|y| Pos::new(x, y)).collect()
}

// docs/rules.md#wall: "a wall can't be placed in occupied squares, and a wall
// blocks line of effect" (and movement: a raised wall is a wall square);
// our ruling: it stands until the end of its maker's next turn. A wall is
// worth the strikes it keeps the enemy from on its coming turn.
#[test]
fn a_wall_is_worth_the_strikes_it_keeps_off() {
    // The bandit (speed 5, melee) can walk up to the elementalist five
    // squares west of it; a wall across its west side leaves it no way
    // round in reach (the map is six rows deep).
    let mut e = started(
        vec![super::triggers::with(
            hero("elementalist", "Pell", (1, 2)),
            &["elem_earth_wall"],
        )],
        vec![monster("bandit", (6, 2))],
        Some(3),
    );
    let legal = e.legal_actions();
    let west = earth_wall(FIRST, column(5));
    let east = earth_wall(FIRST, column(7));
    assert!(legal.contains(&west), "{legal:?}");
    assert!(legal.contains(&east));
    let (w, ea) = (greedy_score(&e, &west), greedy_score(&e, &east));
    assert!(w > 1.0, "the wall between them: {w}");
    assert!(ea < 0.0, "a wall behind the bandit stops nothing: {ea}");
    let best = legal
        .iter()
        .filter(|c| matches!(c, Command::UseAreaAbility { ability, .. } if ability == "elem_earth_wall"))
        .max_by(|a, b| greedy_score(&e, a).total_cmp(&greedy_score(&e, b)))
        .unwrap();
    assert_eq!(best, &west);
    // The premise: the bandit can walk up to the elementalist now, and not
    // once the wall is raised.
    assert!(bandit_reaches(&e, Pos::new(1, 2)));
    e.apply(west).unwrap();
    assert!(e.map().cell(Pos::new(5, 2)).raised_wall);
    assert!(!bandit_reaches(&e, Pos::new(1, 2)));
}

/// Whether the bandit can end its move next to `p`.
fn bandit_reaches(e: &Encounter, p: Pos) -> bool {
    let b = e.creature(BANDIT).unwrap();
    let reach = crate::map::movement::reachable(
        e.map(),
        &e.occupants(),
        &crate::map::movement::Mover {
            id: BANDIT,
            space: b.space,
            side: b.side,
            speed: b.movement.speed,
            extra_cost: 0,
            shifting: false,
            modes: Default::default(),
        },
    );
    reach
        .destinations()
        .iter()
        .any(|&(q, _)| Footprint::single(q).distance(Footprint::single(p)) <= 1)
}

#[test]
fn a_wall_that_keeps_the_own_side_off_its_target_counts_against() {
    // The same wall, with a fury of the elementalist's side east of it
    // who could reach the bandit: the wall keeps the bandit from the
    // elementalist but not from the fury, and keeps nothing from the
    // fury. With the fury west of the wall instead, the wall keeps the
    // fury from the bandit: worth less.
    let value = |heroes: Vec<HeroDef>| {
        let e = started(heroes, vec![monster("bandit", (6, 2))], None);
        Scorer::new(&e, &Weights::greedy(), Side::Heroes).wall_value(&column(5))
    };
    let pell = || hero("elementalist", "Pell", (1, 2));
    let alone = value(vec![pell()]);
    let fury_west = value(vec![pell(), hero("fury", "Korva", (2, 4))]);
    assert!(alone > 0.0, "{alone}");
    assert!(
        fury_west < alone,
        "the fury's strike on the bandit lost: {fury_west} against {alone}"
    );
}

fn advance() -> Command {
    area_use(FIRST, "tact_advance", command::Placement::OnSelf)
}

// Advance! ("shift 2" to each ally in a 3 burst): the engine moves each
// ally toward its nearest enemy (docs/rules.md#moving: a shift provokes no
// opportunity attack). It is worth what the squares gained are worth to the
// allies: a fury brought next to a bandit gains much, a fury already next to
// it nothing.
#[test]
fn a_granted_shift_is_worth_the_ground_it_gains_the_allies() {
    let score_with_bandit_at = |x: i32| {
        let mut e = started(
            vec![
                super::triggers::with(hero("tactician", "Hollis", (1, 2)), &["tact_advance"]),
                hero("fury", "Korva", (2, 2)),
            ],
            vec![monster("bandit", (x, 2))],
            Some(3),
        );
        assert!(e.legal_actions().contains(&advance()));
        greedy_score(&e, &advance())
    };
    let far = score_with_bandit_at(5);
    let engaged = score_with_bandit_at(3);
    assert!(far > 0.0, "the fury two squares short of the bandit: {far}");
    assert!(
        engaged < 0.0,
        "the fury already next to the bandit: {engaged}"
    );
}

// docs/rules.md#surges: "you can spend up to 3 surges" on a damage roll; and
// temporary stamina doesn't stack (the higher stays). Blood Up ("gain 6
// temporary stamina; gain 2 surges") is worth nothing more to a fury who
// already holds 3 surges and 6 temporary stamina: greedy furies played
// it every turn (about a hundred times a game in phased_ambush) and never
// struck.
#[test]
fn surges_and_a_cushion_already_held_are_worth_nothing_more() {
    let mut e = started(
        vec![hero("fury", "Korva", (2, 2))],
        vec![monster("bandit", (3, 2))],
        Some(3),
    );
    let blood_up = Command::use_ability(FURY, "fury_blood_up", vec![FURY]);
    let fresh = greedy_score(&e, &blood_up);
    let ent = world::entity_of(e.world_mut(), FURY).unwrap();
    e.world_mut().get_mut::<Heroic>(ent).unwrap().surges = 3;
    e.world_mut().get_mut::<Stamina>(ent).unwrap().temporary = 6;
    let held = greedy_score(&e, &blood_up);
    assert!(fresh > 1.0, "{fresh}");
    assert!(held < 0.0, "only its cost is left: {held}");
}

// docs/rules.md#glyphs: "A Glyphic Spell creates a Glyph
// that appears as a rune ... that is Invisible", and a glyph about to act
// "shines with visible light". A glyph the heroes have seen shine is
// stepped round; one never seen can't be.
#[test]
fn greedy_steps_round_a_glyph_it_has_seen_and_only_that() {
    let mut e = started(
        vec![hero("fury", "Korva", (1, 2))],
        vec![monster("bandit", (8, 2))],
        None,
    );
    let walk = |squares: [(i32, i32); 4]| Command::Move {
        creature: FURY,
        path: squares
            .iter()
            .map(|&(x, y)| Pos::new(x, y))
            .collect::<Vec<_>>()
            .into(),
    };
    let through = walk([(1, 2), (2, 2), (3, 2), (4, 2)]);
    let round = walk([(1, 2), (2, 2), (3, 3), (4, 2)]);
    e.world_mut()
        .resource_mut::<state::board::Glyphs>()
        .list
        .push(state::board::Glyph {
            at: Pos::new(3, 2),
            from: "fire_glyph".into(),
            name: "Fire Glyph".into(),
            side: Side::Director,
            maker: None,
            beat_round: 0,
            disabled_until: 0,
            dismissed: false,
            revealed: false,
            links: None,
        });
    assert_eq!(greedy_score(&e, &through), greedy_score(&e, &round));
    e.world_mut().resource_mut::<state::board::Glyphs>().list[0].revealed = true;
    // The fire glyph deals "4 fire damage" to whoever enters it.
    let (t, r) = (greedy_score(&e, &through), greedy_score(&e, &round));
    assert!((r - t - 4.0).abs() < 1e-9, "{r} against {t}");
    // Its own side's glyphs harm no one of it.
    e.world_mut().resource_mut::<state::board::Glyphs>().list[0].side = Side::Heroes;
    assert_eq!(greedy_score(&e, &through), greedy_score(&e, &round));
}

// docs/rules.md#moving: a glyph "Invisible" on the ground reacts to an enemy entering
// its square. A sigil is laid where an enemy coming to fight will stand, and
// is worth nothing where none will.
#[test]
fn greedy_lays_a_sigil_where_an_enemy_will_step() {
    let sigil = |x, y| {
        area_use(
            FURY,
            "binding_sigil",
            command::Placement::Cube {
                corner: Pos::new(x, y),
            },
        )
    };
    let mut e = open(
        db_with(&[]),
        vec![with(hero("censor", "Ysolde", (2, 2)), &["binding_sigil"])],
        vec![monster("bandit", (7, 2))],
    );
    start(&mut e, FURY);
    // Listed on the empty squares beside the censor, not only on enemies.
    let legal = e.legal_actions();
    assert!(legal.contains(&sigil(3, 2)), "{legal:?}");
    let in_path = greedy_score(&e, &sigil(3, 2));
    assert!(in_path > 0.0, "{in_path}");
    // Behind the censor: six squares from the bandit, past its speed 5.
    assert!(legal.contains(&sigil(1, 2)));
    assert_eq!(greedy_score(&e, &sigil(1, 2)), 0.0);
    // Once the bandit stands beside the censor it steps nowhere new.
    let mut e = open(
        db_with(&[]),
        vec![with(hero("censor", "Ysolde", (2, 2)), &["binding_sigil"])],
        vec![monster("bandit", (3, 2))],
    );
    start(&mut e, FURY);
    assert_eq!(greedy_score(&e, &sigil(2, 3)), 0.0);
}

// docs/rules.md#summons: summons have "hit points, attack value, move value"
// and "permanently" follow "Move+0, Attack+0". A summon is worth what its
// stat block does: a harder-hitting one scores higher, by its free strike
// each round of the three the brain reckons a fight has left.
#[test]
fn a_summon_is_worth_its_stat_block() {
    let call = Command::use_ability(FURY, "call_spirit_wolf", vec![FURY]);
    let score_with = |free_strike: i32| {
        let mut db = db_with(&[]);
        db.monsters.get_mut("spirit_wolf").unwrap().free_strike = free_strike;
        let mut e = open(
            db,
            vec![with(
                hero("troubadour", "Lark", (2, 2)),
                &["call_spirit_wolf"],
            )],
            vec![monster("bandit", (7, 2))],
        );
        start(&mut e, FURY);
        assert!(e.legal_actions().contains(&call));
        greedy_score(&e, &call)
    };
    let (weak, strong) = (score_with(3), score_with(5));
    assert!(weak > 0.0, "{weak}");
    assert!(
        (strong - weak - 6.0).abs() < 1e-9,
        "{strong} against {weak}"
    );
}

// docs/rules.md#stacking: "the effects of the same ability used
// multiple times don't stack". A Warding Sigil on a creature that has one
// adds nothing.
#[test]
fn a_bonus_the_same_ability_already_gives_is_worth_nothing() {
    let mut e = open(
        db_with(&[]),
        vec![with(hero("conduit", "Aldous", (2, 2)), &["warding_sigil"])],
        vec![monster("bandit", (3, 2))],
    );
    start(&mut e, FURY);
    let sigil = Command::use_ability(FURY, "warding_sigil", vec![FURY]);
    assert!(greedy_score(&e, &sigil) > 0.0);
    e.apply(sigil.clone()).unwrap();
    assert!(e.creature(FURY).unwrap().bonuses.shield() == 2);
    assert!(
        greedy_score(&e, &sigil) <= 0.0,
        "{}",
        greedy_score(&e, &sigil)
    );
}

// docs/rules.md#surges: "2 surges raise the potency by 1 for one target";
// each surge on damage adds the highest characteristic (up to 3). Issue 52
// point 11: the brains spend surges on potency when it turns a resisted
// condition into a landed one (docs/ai.md#surges), and what is left on
// damage.
#[test]
fn greedy_spends_surges_on_a_potency_that_lands_then_on_damage() {
    use crate::ai::score::spend_surges;
    // Tackle: "M < AVERAGE, grabbed" at tier 2. The fury's average
    // potency is 1 (Might 2 - 1); a wolf's Might is 1, so it resists at
    // tier 2 unless the potency rises to 2.
    let wolf = CreatureId(2);
    let mut e = started(
        vec![hero("fury", "Korva", (2, 2))],
        vec![monster("wolf", (3, 2))],
        Some(0),
    );
    let tackle = Command::use_ability(FURY, "fury_tackle", vec![wolf]);
    let set_surges = |e: &mut Encounter, n: u32| {
        let ent = world::entity_of(e.world_mut(), FURY).unwrap();
        e.world_mut().get_mut::<Heroic>(ent).unwrap().surges = n;
    };
    let spent = |e: &Encounter| match spend_surges(e, tackle.clone()) {
        Command::UseAbility {
            surges,
            potency_surges,
            ..
        } => (surges, potency_surges),
        other => panic!("{other:?}"),
    };
    set_surges(&mut e, 0);
    assert_eq!(spent(&e), (0, vec![]));
    set_surges(&mut e, 1);
    assert_eq!(spent(&e), (1, vec![]), "one surge: damage only");
    set_surges(&mut e, 2);
    assert_eq!(spent(&e), (0, vec![wolf]), "two: the potency");
    set_surges(&mut e, 6);
    assert_eq!(spent(&e), (3, vec![wolf]), "six: potency, then 3 on damage");
    // The listing lists it unspent; the engine takes it spent, and at tier
    // 2 (dice 6 + 6 + Might 2 = 14) the wolf is grabbed.
    let chosen = spend_surges(&e, tackle.clone());
    assert_eq!(chosen.unspent(), Some(tackle.clone()));
    assert!(e.legal_actions().contains(&tackle));
    e.dice_mut().force([6, 6]);
    e.apply(chosen).unwrap();
    let w = e.creature(wolf).unwrap();
    assert!(
        w.conditions.has(crate::conditions::ConditionKind::Grabbed),
        "{:?}",
        w.conditions
    );
    assert_eq!(e.creature(FURY).unwrap().heroic.unwrap().surges, 1);
    // A bandit (Might 2) resists Tackle's grab at tiers 1 and 2 even with
    // the potency raised: the surges go on damage instead.
    let mut e = started(
        vec![hero("fury", "Korva", (2, 2))],
        vec![monster("bandit", (3, 2))],
        Some(0),
    );
    set_surges(&mut e, 2);
    let tackle = Command::use_ability(FURY, "fury_tackle", vec![CreatureId(2)]);
    assert!(matches!(
        spend_surges(&e, tackle),
        Command::UseAbility { surges: 2, ref potency_surges, .. } if potency_surges.is_empty()
    ));
}

// Issue 52 point 11: loot, recover and prepare abilities are scored by what
// they bring (docs/ai.md#gains): docs/rules.md#loot (treasure within
// range), docs/rules.md#recover-and-refresh (a spent ability back),
// docs/rules.md#prepared-abilities (a triggered ability ready for an enemy
// near), and nothing when there is nothing to gain.
#[test]
fn loot_recover_and_prepare_score_what_they_bring() {
    let heroes = vec![HeroDef {
        abilities: vec![
            "scavenge".into(),
            "second_wind_rite".into(),
            "riposte_stance".into(),
            "fury_blood_up".into(),
        ],
        ..hero("fury", "Korva", (2, 2))
    }];
    let far = started(heroes.clone(), vec![monster("bandit", (12, 12))], Some(0));
    let me = |id: &str| Command::use_ability(FURY, id, vec![FURY]);
    // No treasure, nothing spent, no enemy near: worth nothing.
    for id in ["scavenge", "second_wind_rite", "riposte_stance"] {
        assert!(greedy_score(&far, &me(id)) <= 0.0, "{id}");
    }
    // An enemy within 3 squares: the riposte is worth preparing, once.
    let mut near = started(heroes.clone(), vec![monster("bandit", (4, 2))], Some(0));
    assert!(greedy_score(&near, &me("riposte_stance")) > 0.0);
    near.apply(me("riposte_stance")).unwrap();
    assert!(
        greedy_score(&near, &me("riposte_stance")) <= 0.0,
        "already prepared"
    );
    // Treasure within 2 squares: scavenging it is worth its coins.
    let mut rich = started(heroes.clone(), vec![monster("bandit", (12, 12))], Some(0));
    {
        let mut field = rich.world_mut().resource_mut::<Battlefield>();
        let mut cell = field.0.cell(Pos::new(3, 3));
        cell.treasure = 5;
        std::sync::Arc::make_mut(&mut field.0).set(Pos::new(3, 3), cell);
    }
    assert!(greedy_score(&rich, &me("scavenge")) > 0.0);
    // A spent ability (Thorn Mantle, once an encounter): recovering it is
    // worth something.
    let mut spent = started(
        vec![HeroDef {
            abilities: vec!["second_wind_rite".into(), "thorn_mantle".into()],
            ..hero("fury", "Korva", (2, 2))
        }],
        vec![monster("bandit", (12, 12))],
        Some(0),
    );
    assert!(greedy_score(&spent, &me("second_wind_rite")) <= 0.0);
    spent.apply(me("thorn_mantle")).unwrap();
    assert!(greedy_score(&spent, &me("second_wind_rite")) > 0.0);
}

// docs/rules.md#ending-effects: "A creature who imposes an effect on another
// creature using an ability can end that effect as a free maneuver". The
// brain ends one that holds back its own side (a condition its area left
// on an ally), and keeps one that holds an enemy.
#[test]
fn greedy_ends_its_own_effect_only_when_it_holds_its_own_side() {
    use crate::conditions::{ActiveCondition, ConditionKind, Duration};
    const CENSOR: CreatureId = CreatureId(2);
    let restrain = |e: &mut Encounter, on: CreatureId| {
        let ent = world::entity_of(e.world_mut(), on).unwrap();
        e.world_mut()
            .get_mut::<Conditions>(ent)
            .unwrap()
            .list
            .push(ActiveCondition {
                kind: ConditionKind::Restrained,
                duration: Duration::SaveEnds,
                source: Some(FURY),
                ability: Some("fury_cleave".into()),
                save_shift: Default::default(),
            });
    };
    let end = Command::EndEffect {
        creature: FURY,
        ability: "fury_cleave".into(),
    };
    for (held, wanted) in [(CENSOR, true), (CreatureId(3), false)] {
        let mut e = open(
            db_with(&[]),
            vec![
                hero("fury", "Korva", (2, 2)),
                hero("censor", "Ysolde", (3, 3)),
            ],
            vec![monster("bandit", (8, 2))],
        );
        restrain(&mut e, held);
        start(&mut e, FURY);
        let legal = e.legal_actions();
        assert!(legal.contains(&end), "{legal:?}");
        let value = greedy_score(&e, &end);
        assert_eq!(value > 0.0, wanted, "held on {held:?}: {value}");
        // The brain's turn: it ends the effect (a free maneuver, beside
        // whatever else it does) only in the first case.
        let mut ended = false;
        for _ in 0..12 {
            let legal = e.legal_actions();
            let chosen = choose(&e, &legal, &Weights::greedy());
            ended |= chosen == end;
            let over = matches!(chosen, Command::EndTurn { .. });
            e.apply(chosen).unwrap();
            if over || e.active_creature() != Some(FURY) {
                break;
            }
        }
        assert_eq!(ended, wanted, "held on {held:?}");
        let still = e.creature(held).unwrap();
        assert_eq!(still.conditions.has(ConditionKind::Restrained), !wanted);
    }
}

// docs/rules.md#glyphs: "you can specify that a Glyph should be connected
// to any other Glyph within Swinging Distance of it". A new fire glyph is
// connected to the fire glyph beside it (they pass "burn" on), not to the
// binding sigil beside it, which answers no command of a fire glyph's but
// the "dismiss" every glyph answers.
#[test]
fn greedy_connects_a_glyph_only_to_those_of_its_kind() {
    use crate::ai::lasting::{connect_glyphs, shares_command};
    use crate::encounter::state::board::{Glyph, Glyphs};
    let db = db_with(&[]);
    let spec = |id: &str| db.abilities[id].glyph.clone().unwrap();
    assert!(shares_command(&spec("fire_glyph"), &spec("fire_glyph")));
    assert!(!shares_command(&spec("fire_glyph"), &spec("binding_sigil")));
    let mut e = open(
        db_with(&[]),
        vec![with(hero("censor", "Ysolde", (2, 2)), &["fire_glyph"])],
        vec![monster("bandit", (8, 2))],
    );
    start(&mut e, FURY);
    let laid = |at: Pos, from: &str, name: &str| Glyph {
        at,
        from: from.into(),
        name: name.into(),
        side: Side::Heroes,
        maker: Some(FURY),
        beat_round: 0,
        disabled_until: 0,
        dismissed: false,
        revealed: false,
        links: None,
    };
    {
        let mut g = e.world_mut().resource_mut::<Glyphs>();
        g.list
            .push(laid(Pos::new(4, 1), "fire_glyph", "Fire Glyph"));
        g.list
            .push(laid(Pos::new(4, 3), "binding_sigil", "Binding Sigil"));
    }
    let at = |x, y| {
        area_use(
            FURY,
            "fire_glyph",
            command::Placement::Cube {
                corner: Pos::new(x, y),
            },
        )
    };
    let chosen = connect_glyphs(&e, at(4, 2));
    let Command::UseAreaAbility { links, .. } = &chosen else {
        panic!("{chosen:?}");
    };
    assert_eq!(links.as_deref(), Some(&[Pos::new(4, 1)][..]));
    // The listed use, with its connections chosen, is one the engine takes.
    assert_eq!(chosen.unspent(), Some(at(4, 2)));
    e.apply(chosen).unwrap();
    // Beside the fire glyph only: left as listed (connected to all).
    assert_eq!(connect_glyphs(&e, at(5, 1)), at(5, 1));
}

// docs/rules.md#during-the-move: the listing offers a way to each square in
// reach that passes an enemy, and the brain takes the way that passes the
// most: three bandits strung along a row, none beside another.
#[test]
fn greedy_cuts_its_way_past_the_most_enemies() {
    let mut e = started(
        vec![with(
            hero("shadow", "Vex", (1, 2)),
            &["shadow_hundred_cuts"],
        )],
        vec![
            monster("bandit", (3, 1)),
            monster("bandit", (5, 3)),
            monster("bandit", (7, 1)),
        ],
        Some(5),
    );
    let legal = e.legal_actions();
    let ways: Vec<&Command> = legal
        .iter()
        .filter(|c| {
            matches!(
                c,
                Command::UseAreaAbility {
                    placement: command::Placement::Path { .. },
                    ..
                }
            )
        })
        .collect();
    assert!(ways.len() > 10, "{ways:?}");
    // Each listed way is one the engine takes.
    for w in &ways {
        assert_eq!(e.refusal(w), None, "{w:?}");
    }
    let chosen = choose(&e, &legal, &Weights::greedy());
    let Command::UseAreaAbility {
        placement: command::Placement::Path { path },
        ..
    } = &chosen
    else {
        panic!("{chosen:?}");
    };
    let passed = [(3, 1), (5, 3), (7, 1)]
        .iter()
        .filter(|&&(x, y)| path.squares().any(|p| p.distance(Pos::new(x, y)) <= 1))
        .count();
    assert_eq!(passed, 3, "{path:?}");
}

// docs/rules.md#objects: "If an ability targets one or more objects, it can
// affect any object within the ability's distance". Breaking a crate is
// worth what it opens: the middle of three crates between the fury and
// the bandit shuts the line of effect between them; the crate behind the
// fury shuts nothing.
#[test]
fn greedy_breaks_a_crate_that_stands_between_it_and_its_enemy() {
    use crate::map::grid::{MapObject, Material};
    let mut e = open(
        db_with(&[]),
        vec![hero("fury", "Korva", (2, 2))],
        vec![monster("bandit", (4, 2))],
    );
    for (x, y) in [(3, 1), (3, 2), (3, 3), (1, 2)] {
        e.world_mut()
            .resource_mut::<Battlefield>()
            .map_mut()
            .set_object(
                Pos::new(x, y),
                Some(MapObject {
                    material: Material::Wood,
                    size: 1,
                }),
            );
    }
    start(&mut e, FURY);
    let strike = |x, y| Command::UseOnObject {
        creature: FURY,
        ability: "brutal_slam".into(),
        at: Pos::new(x, y),
        surges: 0,
        tier: None,
    };
    let legal = e.legal_actions();
    for at in [(3, 2), (1, 2)] {
        assert!(legal.contains(&strike(at.0, at.1)), "{legal:?}");
    }
    assert!(greedy_score(&e, &strike(3, 2)) > 0.0);
    assert_eq!(greedy_score(&e, &strike(1, 2)), 0.0);
    // Carried out: 5 damage or more breaks a crate of 3 stamina.
    e.apply(strike(3, 2)).unwrap();
    assert_eq!(e.object_stamina(Pos::new(3, 2)), None);
}
