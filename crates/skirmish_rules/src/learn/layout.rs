//! The fixed action layout (docs/python.md#actions): every command the
//! engine can list, placed in a `Discrete(N)` space whose size depends only
//! on the encounter as it was set up. Each side's creatures (in id order)
//! are its actors; each actor has one block of the same shape:
//!
//! | offset | slots | what |
//! |---|---|---|
//! | 0 | 10 | start turn, end turn, delay, defend, hide, stand up, escape grab, catch breath, let a prompt pass, release a grab |
//! | 10 | R | answer a prompt with its option `r` |
//! | 10 + R | S | move to square `s` (`y * width + x`), by the cheapest path |
//! | … | 8 | shift one square, in [`SHIFTS`] order |
//! | … | T | free strike on creature `t` (its id) |
//! | … | T | charge creature `t` |
//! | … | A × T | ability `a` (in the actor's own list) on creature `t` |
//! | … | Aa × S | area ability `a` (the actor's `a`th area ability) placed at square `s` |
//!
//! A slot holds the first command the engine lists that falls in it; a
//! command no slot fits (a target beyond `T`, a second path to the same
//! square, surges or a resource spent) is reached through the low-level
//! API only.

use crate::content::ContentDb;
use crate::encounter::{Command, Encounter, Placement, SlotView};
use crate::map::{Pos, Side};
use crate::stats::CreatureId;

/// The basic commands' offsets in an actor's block.
pub const BASICS: [&str; 10] = [
    "start_turn",
    "end_turn",
    "delay",
    "defend",
    "hide",
    "stand_up",
    "escape_grab",
    "catch_breath",
    "pass",
    "release",
];

/// The eight shifts' directions, `(dx, dy)`, in the layout's order: the
/// map's steps, rows top to bottom, each left to right.
pub const SHIFTS: [(i32, i32); 8] = Pos::STEPS;

/// How many prompt options a block has room for.
pub const ANSWERS: usize = 4;

/// One slot of the layout, as [`Layout::describe`] names it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ActionSlot {
    Basic { name: &'static str },
    Answer { option: usize },
    Move { x: i32, y: i32 },
    Shift { dx: i32, dy: i32 },
    FreeStrike { target: u32 },
    Charge { target: u32 },
    Use { ability: String, target: u32 },
    Area { ability: String, x: i32, y: i32 },
}

/// A layout for one encounter (see the module's table).
#[derive(Clone, Debug)]
pub struct Layout {
    pub width: usize,
    pub height: usize,
    /// `K`: the larger side's number of creatures.
    pub actors: usize,
    /// `T`: creatures that can be targets (those set up, and room for summons).
    pub targets: usize,
    /// `A`: the longest list of abilities.
    pub abilities: usize,
    /// `Aa`: the most area abilities one creature has.
    pub areas: usize,
    /// By creature id: its side and its place among its side's actors.
    actor_of: Vec<Option<(Side, usize)>>,
    /// Each side's actors, in order (heroes, then the Director's).
    actors_of: [Vec<CreatureId>; 2],
    /// By creature id: its abilities, each with its place among its area
    /// abilities if it is one.
    abilities_of: Vec<Vec<(String, Option<usize>)>>,
}

/// What [`Layout::index`] asks of a creature.
#[derive(Clone, Copy, Debug)]
pub struct User {
    pub at: Pos,
    /// Its summoner, if it is a summon.
    pub owner: Option<CreatureId>,
}

/// Room kept among the targets for creatures summoned later.
pub const ROOM_FOR_SUMMONS: usize = 8;

impl Layout {
    /// The layout of `encounter` as it stands (read at its start).
    pub fn of(encounter: &Encounter) -> Layout {
        let content: &ContentDb = encounter.content();
        let map = encounter.map();
        let creatures = encounter.creatures();
        let top = creatures
            .iter()
            .map(|c| c.id.0 as usize + 1)
            .max()
            .unwrap_or(0);
        let mut actor_of = vec![None; top];
        let mut actors_of: [Vec<CreatureId>; 2] = [Vec::new(), Vec::new()];
        let mut abilities_of = vec![Vec::new(); top];
        for c in &creatures {
            let s = c.side.index();
            actor_of[c.id.0 as usize] = Some((c.side, actors_of[s].len()));
            actors_of[s].push(c.id);
            let mut areas = 0;
            abilities_of[c.id.0 as usize] = c
                .abilities
                .iter()
                .map(|a| {
                    let area = content
                        .abilities
                        .get(a)
                        .is_some_and(|ab| ab.distance.is_area());
                    let rank = area.then(|| {
                        areas += 1;
                        areas - 1
                    });
                    (a.clone(), rank)
                })
                .collect();
        }
        Layout {
            width: map.width.max(0) as usize,
            height: map.height.max(0) as usize,
            actors: actors_of.iter().map(Vec::len).max().unwrap_or(0).max(1),
            targets: top + ROOM_FOR_SUMMONS,
            abilities: abilities_of.iter().map(Vec::len).max().unwrap_or(0),
            areas: abilities_of
                .iter()
                .map(|l| l.iter().filter(|(_, r)| r.is_some()).count())
                .max()
                .unwrap_or(0),
            actor_of,
            actors_of,
            abilities_of,
        }
    }

    fn squares(&self) -> usize {
        self.width * self.height
    }

    /// The offsets of an actor's block's parts: answers, moves, shifts,
    /// free strikes, charges, uses, areas, and the block's size.
    fn offsets(&self) -> [usize; 8] {
        let (s, t) = (self.squares(), self.targets);
        let answers = BASICS.len();
        let moves = answers + ANSWERS;
        let shifts = moves + s;
        let strikes = shifts + SHIFTS.len();
        let charges = strikes + t;
        let uses = charges + t;
        let areas = uses + self.abilities * t;
        let size = areas + self.areas * s;
        [answers, moves, shifts, strikes, charges, uses, areas, size]
    }

    /// `N`: the number of actions.
    pub fn size(&self) -> usize {
        self.actors * self.offsets()[7]
    }

    fn square(&self, p: Pos) -> Option<usize> {
        (p.x >= 0 && p.y >= 0 && (p.x as usize) < self.width && (p.y as usize) < self.height)
            .then(|| p.y as usize * self.width + p.x as usize)
    }

    fn target(&self, id: CreatureId) -> Option<usize> {
        ((id.0 as usize) < self.targets).then_some(id.0 as usize)
    }

    /// The place of `creature`'s `slot`th slot, if it has one.
    fn at(&self, creature: CreatureId, slot: usize) -> Option<usize> {
        let (_, k) = (*self.actor_of.get(creature.0 as usize)?)?;
        Some(k * self.offsets()[7] + slot)
    }

    /// The side an acting creature is on (an actor's, as set up).
    pub fn side_of(&self, creature: CreatureId) -> Option<Side> {
        self.actor_of
            .get(creature.0 as usize)
            .copied()
            .flatten()
            .map(|(s, _)| s)
    }

    /// Where a listed command goes: `answer` is its place among the
    /// prompt's options (for an answer that takes one); `user` tells
    /// where a creature stands (for a shift, or an area placed on itself)
    /// and who summoned it: a summon's answer to a prompt goes in its
    /// summoner's block (only one prompt is open at a time).
    pub fn index(
        &self,
        view: &SlotView<'_>,
        answer: usize,
        mut user: impl FnMut(CreatureId) -> Option<User>,
    ) -> Option<usize> {
        let mut user_at = |id| user(id).map(|u| u.at);
        let [answers, moves, shifts, strikes, charges, uses, areas, _] = self.offsets();
        let (creature, slot) = match *view {
            SlotView::Move { creature, to } => (creature, moves + self.square(to)?),
            SlotView::Shift { creature, to } => {
                let from = user_at(creature)?;
                let d = (to.x - from.x, to.y - from.y);
                (creature, shifts + SHIFTS.iter().position(|&s| s == d)?)
            }
            SlotView::FreeStrike { creature, target } => (creature, strikes + self.target(target)?),
            SlotView::Use {
                creature,
                ability,
                target,
            } => {
                if ability >= self.abilities {
                    return None;
                }
                (
                    creature,
                    uses + ability * self.targets + self.target(target)?,
                )
            }
            SlotView::Command(c) => match c {
                Command::StartTurn { creature } => (*creature, 0),
                Command::EndTurn { creature } => (*creature, 1),
                Command::Delay { creature } => (*creature, 2),
                Command::Defend { creature } => (*creature, 3),
                Command::Hide { creature } => (*creature, 4),
                Command::StandUp { creature } => (*creature, 5),
                Command::EscapeGrab { creature } => (*creature, 6),
                Command::CatchBreath { creature } => (*creature, 7),
                Command::Release { creature } => (*creature, 9),
                Command::Answer {
                    creature,
                    reaction: None,
                } => (*creature, 8),
                Command::Answer { creature, .. } => {
                    (answer < ANSWERS).then_some(())?;
                    (*creature, answers + answer)
                }
                Command::Move { creature, path } | Command::Movement { creature, path, .. } => {
                    (*creature, moves + self.square(path.end()?)?)
                }
                Command::Shift { creature, to } => {
                    let from = user_at(*creature)?;
                    let d = (to.x - from.x, to.y - from.y);
                    (*creature, shifts + SHIFTS.iter().position(|&s| s == d)?)
                }
                Command::FreeStrike { creature, target } => {
                    (*creature, strikes + self.target(*target)?)
                }
                Command::Charge {
                    creature, target, ..
                } => (*creature, charges + self.target(*target)?),
                Command::UseAbility {
                    creature,
                    ability,
                    targets,
                    ..
                } => {
                    let a = self.ability_index(*creature, ability)?;
                    let t = self.target(*targets.first()?)?;
                    (*creature, uses + a * self.targets + t)
                }
                Command::UseAreaAbility {
                    creature,
                    ability,
                    placement,
                    ..
                } => {
                    let a = self.area_index(*creature, ability)?;
                    let at = match placement {
                        Placement::OnSelf => user_at(*creature)?,
                        Placement::Cube { corner: p }
                        | Placement::Cone { aim: p }
                        | Placement::Sphere { centre: p }
                        | Placement::Line { aim: p, .. } => *p,
                        Placement::Wall { squares } => *squares.first()?,
                        // (Where the move ends: one way to each square.)
                        Placement::Path { path } => path.end()?,
                    };
                    (*creature, areas + a * self.squares() + self.square(at)?)
                }
                // Ending one's own effect has no slot: a learning agent
                // keeps what its abilities made (docs/python.md#actions).
                Command::EndEffect { .. } => return None,
                // Nor striking an object (docs/python.md#actions).
                Command::UseOnObject { .. } => return None,
            },
        };
        self.at(creature, slot).or_else(|| {
            let owner = user(creature)?.owner?;
            self.at(owner, slot)
        })
    }

    fn ability_index(&self, creature: CreatureId, ability: &str) -> Option<usize> {
        self.abilities_of
            .get(creature.0 as usize)?
            .iter()
            .position(|(a, _)| a == ability)
            .filter(|&a| a < self.abilities)
    }

    fn area_index(&self, creature: CreatureId, ability: &str) -> Option<usize> {
        self.abilities_of
            .get(creature.0 as usize)?
            .iter()
            .find(|(a, _)| a == ability)?
            .1
    }

    /// What action `i` is for `side`: the acting creature and the slot
    /// (none past the end, or for an actor the side lacks).
    pub fn describe(&self, side: Side, i: usize) -> Option<(CreatureId, ActionSlot)> {
        let [answers, moves, shifts, strikes, charges, uses, areas, size] = self.offsets();
        if i >= self.size() {
            return None;
        }
        let (k, o) = (i / size, i % size);
        let creature = *self.actors_of[side.index()].get(k)?;
        let sq = |s: usize| ((s % self.width) as i32, (s / self.width) as i32);
        let slot = if o < answers {
            ActionSlot::Basic { name: BASICS[o] }
        } else if o < moves {
            ActionSlot::Answer {
                option: o - answers,
            }
        } else if o < shifts {
            let (x, y) = sq(o - moves);
            ActionSlot::Move { x, y }
        } else if o < strikes {
            let (dx, dy) = SHIFTS[o - shifts];
            ActionSlot::Shift { dx, dy }
        } else if o < charges {
            ActionSlot::FreeStrike {
                target: (o - strikes) as u32,
            }
        } else if o < uses {
            ActionSlot::Charge {
                target: (o - charges) as u32,
            }
        } else if o < areas {
            let (a, t) = ((o - uses) / self.targets, (o - uses) % self.targets);
            let list = &self.abilities_of[creature.0 as usize];
            ActionSlot::Use {
                ability: list.get(a).map_or_else(String::new, |(n, _)| n.clone()),
                target: t as u32,
            }
        } else {
            let (a, s) = ((o - areas) / self.squares(), (o - areas) % self.squares());
            let list = &self.abilities_of[creature.0 as usize];
            let (x, y) = sq(s);
            ActionSlot::Area {
                ability: list
                    .iter()
                    .find(|(_, r)| *r == Some(a))
                    .map_or_else(String::new, |(n, _)| n.clone()),
                x,
                y,
            }
        };
        Some((creature, slot))
    }
}
