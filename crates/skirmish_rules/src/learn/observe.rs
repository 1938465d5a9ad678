//! What one side may know, as tensors (docs/python.md#observations): board
//! planes, a feature row per creature and the turn's state. Only what the
//! side can know goes in: an enemy that is hidden is left out everywhere,
//! an enemy glyph shows once it has shone, and the dice to come are never
//! read.

use crate::conditions::{ConditionKind, Conditions};
use crate::encounter::Encounter;
use crate::encounter::state::board::CreatureIndex;
use crate::encounter::state::components::{
    Auras, Casting, Creature, Heroic, Movement, Space, SquadMember, Stance, TurnBudget,
};
use crate::fast::KeyedWorld;
use crate::map::{Footprint, Pos, Side, Terrain};
use crate::stats::Stamina;

use super::layout::Layout;

/// The board's planes, in order: each `height × width`.
pub const PLANES: [&str; 31] = [
    "wall",
    "blocks_line_of_effect",
    "difficult",
    "pit_or_ledge",
    "hazard",
    "object",
    "elevation",
    "treasure",
    "mine",
    "enemy",
    "mine_stamina",
    "enemy_stamina",
    "acting",
    "acted",
    "defending",
    "hidden",
    "minion",
    "bleeding",
    "dazed",
    "frightened",
    "grabbed",
    "prone",
    "restrained",
    "slowed",
    "taunted",
    "weakened",
    "my_aura",
    "enemy_aura",
    "my_glyph",
    "enemy_glyph",
    "pending_area",
];

/// A creature's row, in order; the row is its id, all zero for a
/// creature the side can't see or that is not there.
pub const FEATURES: [&str; 32] = [
    "present",
    "mine",
    "enemy",
    "x",
    "y",
    "size",
    "stamina",
    "max_stamina",
    "stamina_fraction",
    "dead",
    "speed",
    "stability",
    "heroic_resource",
    "surges",
    "recoveries",
    "acted",
    "acting",
    "main_used",
    "maneuver_used",
    "move_used",
    "triggered_used",
    "hidden",
    "defending",
    "bleeding",
    "dazed",
    "frightened",
    "grabbed",
    "prone",
    "restrained",
    "slowed",
    "taunted",
    "weakened",
];

/// The turn's state, in order.
pub const TURN: [&str; 10] = [
    "round",
    "deciding",
    "prompted",
    "my_turn_active",
    "malice",
    "mine_standing",
    "enemies_seen",
    "steps_left_fraction",
    "over",
    "won",
];

pub(super) const CONDITION_PLANE: usize = 17;
pub(super) const CONDITION_FEATURE: usize = 23;

/// The observation's buffers, filled by [`observe`].
pub struct ObsBuffers<'a> {
    /// `PLANES.len() × height × width`.
    pub board: &'a mut [f32],
    /// `targets × FEATURES.len()`.
    pub creatures: &'a mut [f32],
    /// `TURN.len()`.
    pub turn: &'a mut [f32],
}

/// The turn-level facts [`observe`] takes from the environment.
#[derive(Clone, Copy, Debug, Default)]
pub struct TurnFacts {
    /// The side whose choice it is.
    pub deciding: Option<Side>,
    /// Steps left before the environment truncates, as a fraction.
    pub steps_left: f32,
}

/// Fill `out` with what `side` may know of `e` now.
pub fn observe(e: &Encounter, layout: &Layout, side: Side, facts: TurnFacts, out: ObsBuffers<'_>) {
    out.board.fill(0.0);
    out.creatures.fill(0.0);
    out.turn.fill(0.0);
    let (w, h) = (layout.width, layout.height);
    let plane = w * h;
    let at = |p: Pos| square_index(w, h, p);
    board_terrain(e, w, h, out.board);
    let (mine_standing, enemies_seen) =
        observe_creatures(e, side, (w, h), out.board, out.creatures);
    // The glyphs it knows of.
    for g in &e.glyphs().list {
        if g.dismissed || !(g.side == side || g.revealed) {
            continue;
        }
        if let Some(i) = at(g.at) {
            out.board[(if g.side == side { 28 } else { 29 }) * plane + i] = 1.0;
        }
    }
    let flow = e.flow();
    let b = |v: bool| if v { 1.0 } else { 0.0 };
    let t = out.turn;
    t[0] = flow.round as f32;
    t[1] = b(facts.deciding == Some(side));
    t[2] = b(e
        .prompt()
        .is_some_and(|p| layout.side_of(p.creature) == Some(side)));
    t[3] = b(flow.active.is_some_and(|a| layout.side_of(a) == Some(side)));
    t[4] = e.malice() as f32;
    t[5] = mine_standing;
    t[6] = enemies_seen;
    t[7] = facts.steps_left;
    t[8] = b(flow.outcome.is_some());
    t[9] = b(flow.outcome == Some(side));
}

/// The square `p`'s index in a board plane of `w` by `h`, if it is on it.
#[inline]
fn square_index(w: usize, h: usize, p: Pos) -> Option<usize> {
    (p.x >= 0 && p.y >= 0 && (p.x as usize) < w && (p.y as usize) < h)
        .then(|| p.y as usize * w + p.x as usize)
}

/// The terrain planes, read straight off the cells (most are plain
/// floor), and treasure tiles holding an item (docs/rules.md#loot).
fn board_terrain(e: &Encounter, w: usize, h: usize, board: &mut [f32]) {
    let plane = w * h;
    let map = e.map();
    let at = |p: Pos| square_index(w, h, p);
    let mw = map.width.max(1) as usize;
    for (j, c) in map
        .cells()
        .chunks(mw)
        .take(h)
        .flat_map(|row| row.iter().take(w))
        .enumerate()
    {
        if c.terrain == Terrain::Floor
            && c.object.is_none()
            && !c.raised_wall
            && c.elevation == 0
            && c.treasure == 0
        {
            continue;
        }
        // (`w` is the map's width: the layout is read from it.)
        let i = j;
        let mut set = |k: usize, v: f32| board[k * plane + i] = v;
        if c.is_wall() || c.raised_wall {
            set(0, 1.0);
        }
        if c.blocks_line_of_effect() {
            set(1, 1.0);
        }
        match c.terrain {
            Terrain::Difficult | Terrain::Water => set(2, 1.0),
            Terrain::Pit(_) | Terrain::Ledge(_) => set(3, 1.0),
            Terrain::Hazard { .. } => set(4, 1.0),
            _ => {}
        }
        if c.object.is_some() {
            set(5, 1.0);
        }
        if c.elevation > 0 {
            set(6, f32::from(c.elevation));
        }
        if c.treasure > 0 {
            set(7, 1.0);
        }
    }
    // Treasure tiles holding an item (docs/rules.md#loot) are treasure too.
    for (p, _) in &map.items {
        if let Some(i) = at(*p) {
            board[7 * plane + i] = 1.0;
        }
    }
}

/// What one side knows of a creature, for its squares and its row.
struct Seen {
    fp: Footprint,
    mine: bool,
    dead: bool,
    /// Its stamina (its squad's pool, for a minion) and the most of it.
    cur: i32,
    max: i32,
    frac: f32,
    acting: bool,
    acted: bool,
    stance: Stance,
    squad: bool,
}

/// The creatures `side` can see, on the board planes and in their rows;
/// how many of its own stand, and how many enemies it sees.
fn observe_creatures(
    e: &Encounter,
    side: Side,
    (w, h): (usize, usize),
    board: &mut [f32],
    creatures: &mut [f32],
) -> (f32, f32) {
    let at = |p: Pos| square_index(w, h, p);
    let w_ = e.world();
    let flow = e.flow();
    let rows = creatures.len() / FEATURES.len();
    let (mut mine_standing, mut enemies_seen) = (0.0, 0.0);
    let index = w_.res::<CreatureIndex>();
    for (id, ent) in index.iter() {
        let (Some(cr), Some(space), Some(st), Some(conds)) = (
            w_.comp::<Creature>(ent),
            w_.comp::<Space>(ent),
            w_.comp::<Stamina>(ent),
            w_.comp::<Conditions>(ent),
        ) else {
            continue;
        };
        let stance = w_.comp::<Stance>(ent).copied().unwrap_or_default();
        let mine = cr.side == side;
        if !mine && stance.hidden {
            continue;
        }
        let dead = st.is_dead();
        let fp: Footprint = space.0;
        let squad = w_.comp::<SquadMember>(ent).map(|m| m.0);
        let (cur, max) = match squad.and_then(|n| e.squad(n)) {
            Some(p) => (p.pool.max(0), p.max),
            None => (st.current, st.max),
        };
        let frac = if max > 0 {
            (cur as f32 / max as f32).clamp(-1.0, 1.0)
        } else {
            0.0
        };
        let seen = Seen {
            fp,
            mine,
            dead,
            cur,
            max,
            frac,
            acting: flow.is_acting(id),
            acted: flow.acted.contains(&id),
            stance,
            squad: squad.is_some(),
        };
        if !seen.dead {
            if mine {
                mine_standing += 1.0;
            } else {
                enemies_seen += 1.0;
            }
            mark_squares(w_, ent, &seen, conds, board, &at);
        }
        let row = id.0 as usize;
        if row >= rows {
            continue;
        }
        let f = &mut creatures[row * FEATURES.len()..(row + 1) * FEATURES.len()];
        creature_features(w_, ent, &seen, st, conds, f);
    }
    (mine_standing, enemies_seen)
}

/// A living creature's squares on the board planes: its side, stamina,
/// turn, stance, squad and conditions; its auras' squares and the area it
/// is casting into.
fn mark_squares(
    w_: &bevy_ecs::world::World,
    ent: bevy_ecs::entity::Entity,
    seen: &Seen,
    conds: &Conditions,
    board: &mut [f32],
    at: &impl Fn(Pos) -> Option<usize>,
) {
    let plane = board.len() / PLANES.len();
    let Seen {
        fp,
        mine,
        frac,
        acting,
        acted,
        stance,
        ..
    } = *seen;
    for p in fp.squares() {
        let Some(i) = at(p) else { continue };
        let mut set = |k: usize, v: f32| board[k * plane + i] = v;
        set(if mine { 8 } else { 9 }, 1.0);
        set(if mine { 10 } else { 11 }, frac);
        if acting {
            set(12, 1.0);
        }
        if acted {
            set(13, 1.0);
        }
        if stance.defending {
            set(14, 1.0);
        }
        if stance.hidden {
            set(15, 1.0);
        }
        if seen.squad {
            set(16, 1.0);
        }
        for (k, kind) in ConditionKind::NINE.iter().enumerate() {
            if conds.has(*kind) {
                set(CONDITION_PLANE + k, 1.0);
            }
        }
    }
    // Its auras' squares.
    if let Some(auras) = w_.comp::<Auras>(ent) {
        for a in &auras.0 {
            let r = a.radius as i32;
            for y in (fp.pos.y - r)..(fp.pos.y + fp.size as i32 + r) {
                for x in (fp.pos.x - r)..(fp.pos.x + fp.size as i32 + r) {
                    let q = Pos::new(x, y);
                    if fp.distance_to(q) <= a.radius
                        && let Some(i) = at(q)
                    {
                        board[(if mine { 26 } else { 27 }) * plane + i] = 1.0;
                    }
                }
            }
        }
    }
    if let Some(c) = w_.comp::<Casting>(ent)
        && let Some(area) = &c.roll.area
    {
        for &q in &area.reached {
            if let Some(i) = at(q) {
                board[30 * plane + i] = 1.0;
            }
        }
    }
}

/// A creature's row of features (see [`FEATURES`]).
fn creature_features(
    w_: &bevy_ecs::world::World,
    ent: bevy_ecs::entity::Entity,
    seen: &Seen,
    st: &Stamina,
    conds: &Conditions,
    f: &mut [f32],
) {
    let Seen {
        fp,
        mine,
        dead,
        cur,
        max,
        frac,
        acting,
        acted,
        stance,
        ..
    } = *seen;
    let heroic = w_.comp::<Heroic>(ent);
    let budget = w_.comp::<TurnBudget>(ent).copied().unwrap_or_default();
    let movement = w_.comp::<Movement>(ent).copied();
    let b = |v: bool| if v { 1.0 } else { 0.0 };
    f[0] = b(!dead);
    f[1] = b(mine);
    f[2] = b(!mine);
    f[3] = fp.pos.x as f32;
    f[4] = fp.pos.y as f32;
    f[5] = fp.size as f32;
    f[6] = cur as f32;
    f[7] = max as f32;
    f[8] = frac;
    f[9] = b(dead);
    f[10] = movement.map_or(0.0, |m| m.speed as f32);
    f[11] = movement.map_or(0.0, |m| m.stability as f32);
    f[12] = heroic.map_or(0.0, |h| h.amount as f32);
    f[13] = heroic.map_or(0.0, |h| h.surges as f32);
    f[14] = st.recoveries as f32;
    f[15] = b(acted);
    f[16] = b(acting);
    f[17] = b(!budget.main);
    f[18] = b(!budget.maneuver);
    f[19] = b(!budget.move_action);
    f[20] = b(!budget.triggered);
    f[21] = b(stance.hidden);
    f[22] = b(stance.defending);
    for (k, kind) in ConditionKind::NINE.iter().enumerate() {
        f[CONDITION_FEATURE + k] = b(conds.has(*kind));
    }
}
