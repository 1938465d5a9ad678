//! The listing: every command legal now ([`Listing`]), the acting
//! creature's moves kept as the search that found them, abilities against
//! each valid target, charges, and the answers to a prompt.

mod actions;
mod areas;
mod charges;
mod sweeps;

pub(crate) use actions::creature_actions;
pub(crate) use areas::{eligible, placements};

pub(super) use charges::{
    ChargeSlot, ChargeWith, charge_slot_ends, charge_slots, charges, run_areas,
};
pub(crate) use sweeps::{objects_in_reach, sweeps};

use super::command::Command;
use super::state::board::Battlefield;
use super::state::turn::{Flow, Malice};
use super::*;
use crate::ability::{ActionType, Distance};
use crate::conditions::movement_limits;
use crate::content::Content;
use crate::encounter::check;
use crate::fast::KeyedWorld;
use crate::map::movement::Mover;
use crate::map::{Side, line_of_effect};
use crate::stats::{CreatureId, Stamina};
use bevy_ecs::prelude::*;
use smallvec::SmallVec;
use std::sync::Arc;

/// The legal commands of this moment in `world` (see [`Encounter::listing`]).
pub(super) fn list(world: &mut World) -> Listing {
    // A squad's members, or none (an empty list is copied without an
    // allocation; `Flow::acting` would make one for the lone creature).
    let (over, active, squad, surprised) = {
        let flow = world.res::<Flow>();
        (
            flow.outcome.is_some(),
            flow.active,
            flow.squad.clone(),
            flow.surprised_now(),
        )
    };
    let rules = ruleset::of(world);
    // Whether the ruleset lists a turn's commands its own way.
    let own_turns = rules.lists_turns(world);
    if over {
        return Listing::default();
    }
    // An open prompt: its answers, letting it pass first.
    if let Some(p) = &world
        .res::<crate::encounter::state::work::Resolution>()
        .prompt
    {
        let mut out = vec![Command::Answer {
            creature: p.creature,
            reaction: None,
        }];
        out.extend(p.options.iter().map(|r| Command::Answer {
            creature: p.creature,
            reaction: Some(r.clone()),
        }));
        return Listing::of(out);
    }
    let Some(active) = active else {
        if let Some(starts) = rules.listed_starts(world) {
            return Listing::of(starts);
        }
        // Read in place (only a ruleset's own starts need the world to
        // write).
        let world: &World = world;
        let flow = world.res::<Flow>();
        // In id order.
        let (picks, other_waiting) = world::picks(world, flow);
        // (With room for the delay: a command is large, and growing
        // the list for it moved them all.)
        let mut out: Vec<Command> = Vec::with_capacity(picks.len() + 1);
        out.extend(
            picks
                .into_iter()
                .map(|creature| Command::StartTurn { creature }),
        );
        if let Some(first) = out.first()
            && flow.delayed != Some(flow.to_act.other())
            && other_waiting
        {
            out.push(Command::Delay {
                creature: first.creature(),
            });
        }
        // Each a creature of the side to pick.
        let side = flow.to_act;
        let mut out = Listing::of(out);
        out.side = Some(side);
        return out;
    };
    // One creature acting, the common case: its list as it is, its
    // moves not built (made in place, not moved through the loop
    // below).
    if squad.is_empty() && !own_turns {
        let mut out = creature_actions(world, active, surprised);
        out.rest.push(Listed::Basic {
            creature: active,
            kind: Basic::EndTurn,
        });
        return out;
    }
    // Everyone taking the turn (a minion squad acts together), as
    // `Flow::acting` lists them.
    let lone = [active];
    let acting: &[CreatureId] = if squad.is_empty() { &lone } else { &squad };
    let mut out = Listing::default();
    for &member in acting {
        // (A lone creature's own listing finds it dead itself,
        // reading it once.)
        if (acting.len() > 1 || own_turns) && !self_alive(world, member) {
            continue;
        }
        if own_turns {
            for c in rules.turn_commands(world, member, surprised) {
                out.push_command(c);
            }
        } else if out.slots() == 0 {
            // The first of a squad still standing: its list as it is,
            // its moves not built (unless another's follow).
            out = creature_actions(world, member, surprised);
        } else {
            let more = creature_actions(world, member, surprised);
            let side = out.side.or(more.side);
            let more = more.into_vec();
            out = Listing::of(out.into_vec());
            out.side = side;
            for c in more {
                out.push_command(c);
            }
        }
    }
    out.rest.push(Listed::Basic {
        creature: active,
        kind: Basic::EndTurn,
    });
    out
}

/// The legal actions of a moment (see [`Encounter::listing`]): the acting
/// creature's moves first, kept as its reach and built only when taken or
/// read, then every other command as it is.
///
/// It is a list of slots. A few commands are listed before the last check
/// of whether they are legal, which is made only when the slot is taken or
/// read: line of effect to an ability's target, Hide's cover from every
/// enemy, and whether a straight run reaches a charge's target (the
/// searches of a listing that a brain picking one command seldom needs).
/// A slot whose check fails holds no command: [`Listing::into_vec`] and
/// [`Listing::len`] leave it out, [`Listing::take`] gives none, and
/// [`Listing::pick_position`] asks past it.
#[derive(Default)]
pub struct Listing {
    moves: Option<ListedMoves>,
    /// The charges, kept as whom they are against (they stand among
    /// `rest`; boxed, as few listings have them).
    charges: Option<Box<ListedCharges>>,
    rest: Vec<Listed>,
    /// The commands of `rest` kept as they are ([`Listed::Other`]).
    others: Vec<Command>,
    /// The ids of the abilities of the creature whose uses `rest` lists
    /// as [`Listed::Use`]s (its [`Abilities`]' own).
    names: Arc<[String]>,
    /// The commands of `rest` waiting on a check, by their index there,
    /// in order.
    checks: SmallVec<[Check; 8]>,
    /// What the checks and the charges read (none when nothing waits).
    scene: Option<ListedScene>,
    /// The living creatures, in id order, as the listing found them (its
    /// checks read them; none for a listing of commands kept as they are).
    creatures: Vec<crate::map::Occupant>,
    /// For a walk taken from it: the listed creature and its state as
    /// [`world::Prepared`] keeps it, when it holds no one.
    walk: Option<(CreatureId, world::WalkerState)>,
    /// The side whose creatures the commands are for, when the listing
    /// knew it as it was made (a turn's commands, a side's picks).
    side: Option<Side>,
}

/// A command of a listing's `rest`, kept short until it is taken or read:
/// an ability's use on one target, a shift, a free strike, a command that
/// names only its creature, or any other kept as it is in the listing's
/// `others`. A listing holds a use for each ability and creature in
/// reach, and the command's own copy of the ability's id and list of
/// targets (two allocations, made and dropped for every use the brain does
/// not pick) cost a random game about 1.5% of its instructions; kept in
/// sixteen bytes each, not a command's eighty-eight, the list is written
/// and dropped faster too.
#[derive(Clone, Copy)]
pub(super) enum Listed {
    /// The listing's `others[i]`.
    Other(u32),
    /// `Command::UseAbility` of the listing's `names[ability]` by
    /// `creature` on `target` alone, with no surges, spending or tier.
    Use {
        creature: CreatureId,
        ability: u32,
        target: CreatureId,
    },
    /// `Command::Shift`.
    Shift {
        creature: CreatureId,
        to: crate::map::Pos,
    },
    /// `Command::FreeStrike`.
    FreeStrike {
        creature: CreatureId,
        target: CreatureId,
    },
    /// A command naming only its creature.
    Basic { creature: CreatureId, kind: Basic },
}

// (As the comment above says: a command grown into `Listed` would undo it.)
const _: () = assert!(std::mem::size_of::<Listed>() == 16);

/// The commands that name only their creature, as [`Listed::Basic`] keeps
/// them.
#[derive(Clone, Copy)]
pub(super) enum Basic {
    Release,
    Defend,
    Hide,
    StandUp,
    EscapeGrab,
    CatchBreath,
    EndTurn,
}

impl Listed {
    /// Whose command it is (`others`: the listing's).
    fn creature(&self, others: &[Command]) -> Option<CreatureId> {
        match *self {
            Listed::Other(i) => others.get(i as usize).map(Command::creature),
            Listed::Use { creature, .. }
            | Listed::Shift { creature, .. }
            | Listed::FreeStrike { creature, .. }
            | Listed::Basic { creature, .. } => Some(creature),
        }
    }

    /// The command, its ability's id read from `names`, a command kept as
    /// it is taken out of `others` (each is built once: a placeholder is
    /// left in its place).
    fn build(self, names: &[String], others: &mut [Command]) -> Command {
        match self {
            Listed::Other(i) => std::mem::replace(
                &mut others[i as usize],
                Command::EndTurn {
                    creature: CreatureId(0),
                },
            ),
            Listed::Shift { creature, to } => Command::Shift { creature, to },
            Listed::FreeStrike { creature, target } => Command::FreeStrike { creature, target },
            Listed::Basic { creature, kind } => match kind {
                Basic::Defend => Command::Defend { creature },
                Basic::Hide => Command::Hide { creature },
                Basic::Release => Command::Release { creature },
                Basic::StandUp => Command::StandUp { creature },
                Basic::EscapeGrab => Command::EscapeGrab { creature },
                Basic::CatchBreath => Command::CatchBreath { creature },
                Basic::EndTurn => Command::EndTurn { creature },
            },
            Listed::Use {
                creature,
                ability,
                target,
            } => Command::UseAbility {
                creature,
                ability: names[ability as usize].clone(),
                targets: vec![target],
                surges: 0,
                potency_surges: Vec::new(),
                spend: 0,
                tier: None,
            },
        }
    }
}

/// A command of a listing's `rest` whose legality waits on a check.
#[derive(Clone, Copy)]
pub(super) struct Check {
    /// Its index in `rest`.
    at: u32,
    /// Line of effect from the user to the scene's creature of this index,
    /// or [`HIDE`].
    of: u32,
    /// The check's answer, once made.
    known: Option<bool>,
}

impl Check {
    /// Its answer, made now from `scene` and the listing's `creatures` if
    /// not yet (none: it fails).
    fn answer(
        &mut self,
        scene: &mut Option<ListedScene>,
        creatures: &[crate::map::Occupant],
    ) -> bool {
        *self
            .known
            .get_or_insert_with(|| scene.as_mut().is_some_and(|s| s.holds(self.of, creatures)))
    }
}

/// [`Check::of`] for Hide's check: cover from, or no line of effect to,
/// every enemy, none adjacent ([`world::unseen_among`]).
pub(super) const HIDE: u32 = u32::MAX;

/// What a listing's checks read, with its creatures: the battlefield as it
/// was when it was made, and who is acting.
pub(super) struct ListedScene {
    map: Arc<crate::map::Map>,
    user: crate::map::Footprint,
    id: CreatureId,
    side: Side,
    /// Line of effect to each creature, found once for all its slots.
    in_line: SmallVec<[Option<bool>; 16]>,
}

impl ListedScene {
    /// Whether check `of` holds among `creatures` (the listing's).
    fn holds(&mut self, of: u32, creatures: &[crate::map::Occupant]) -> bool {
        if of == HIDE {
            return world::unseen_among(&self.map, creatures, self.id, self.user, self.side);
        }
        let n = of as usize;
        let (map, user) = (&self.map, self.user);
        self.in_line
            .get_mut(n)
            .zip(creatures.get(n))
            .is_some_and(|(known, o)| {
                *known.get_or_insert_with(|| line_of_effect(map, user, o.space))
            })
    }
}

/// A listing's charges: each as whom it is against and within what reach
/// its run must end; the straight runs are searched the first time one is
/// taken or read. They come after `rest[..at]` and before `rest[at..]`.
pub(super) struct ListedCharges {
    creature: CreatureId,
    at: usize,
    mover: Mover,
    slots: Vec<ChargeSlot>,
    /// As [`ListedMoves::afraid`]: a run that nears it is no charge.
    afraid: Option<(crate::map::Footprint, u32)>,
    /// Who stands where, and the boxes the runs are searched toward.
    occ: crate::map::movement::Occupancy,
    areas: Vec<(crate::map::Pos, crate::map::Pos)>,
    /// The runs and where each slot's run ends (none: no run gets there),
    /// once searched.
    found: Option<(crate::map::movement::Runs, Vec<Option<crate::map::Pos>>)>,
}

/// A listing's moves: one for each square the search reached that the
/// creature can end on, in [`Reach::paths`](crate::map::movement::Reach::paths)'s order.
pub(super) struct ListedMoves {
    creature: CreatureId,
    reach: crate::map::movement::Reach,
    count: usize,
    /// A frightened creature's source of fear, where it stands: a path
    /// that nears it is no legal move (docs/rules.md#frightened).
    afraid: Option<(crate::map::Footprint, u32)>,
}

impl ListedMoves {
    /// Whether `path` may be walked by the fear rule.
    fn allowed(&self, path: &crate::map::movement::Path) -> bool {
        match self.afraid {
            None => true,
            Some((at, size)) => !crate::map::movement::nears(&path.to_vec(), size, at),
        }
    }
}

/// A slot of a [`Listing`] as [`Listing::each_legal`] reads it.
#[derive(Clone, Copy, Debug)]
pub enum SlotView<'a> {
    /// `Command::Move` of `creature` by its cheapest path to `to`.
    Move {
        creature: CreatureId,
        to: crate::map::Pos,
    },
    /// `Command::Shift`.
    Shift {
        creature: CreatureId,
        to: crate::map::Pos,
    },
    /// `Command::UseAbility` of the ability of this index in the
    /// creature's own list (its `Abilities`) on `target` alone, with no
    /// surges, spending or tier.
    Use {
        creature: CreatureId,
        ability: usize,
        target: CreatureId,
    },
    /// `Command::FreeStrike`.
    FreeStrike {
        creature: CreatureId,
        target: CreatureId,
    },
    /// Any other command, as it is.
    Command(&'a Command),
}

/// Where a slot of a listing is.
pub(super) enum Slot {
    Move(usize),
    Charge(usize),
    Rest(usize),
    Beyond,
}

/// What [`Listing::pick_position`] got.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Picked {
    /// A slot holding a legal command.
    At(usize),
    /// A position past the last slot (an illegal choice).
    Beyond(usize),
    /// No position: the brain does not pick by position, or it kept naming
    /// slots that hold no command. Ask it with the whole list.
    Whole,
}

impl Listing {
    /// How many times [`Listing::pick_position`] asks before it gives up.
    const ASKS: usize = 64;

    /// A listing of these commands, with no moves kept apart.
    fn of(rest: Vec<Command>) -> Listing {
        Listing {
            rest: (0..rest.len() as u32).map(Listed::Other).collect(),
            others: rest,
            ..Listing::default()
        }
    }

    /// Add `c` to the end, kept as it is.
    fn push_command(&mut self, c: Command) {
        self.rest.push(Listed::Other(self.others.len() as u32));
        self.others.push(c);
    }

    /// The side whose creatures the commands are for, if the listing knew
    /// it as it was made (else ask [`Encounter::side_of`] its first
    /// creature).
    pub fn side(&self) -> Option<Side> {
        self.side
    }

    /// How many slots it has: each holds a command unless its check fails
    /// (see [`Listing`]).
    pub fn slots(&self) -> usize {
        self.moves.as_ref().map_or(0, |m| m.count)
            + self.charges.as_ref().map_or(0, |c| c.slots.len())
            + self.rest.len()
    }

    /// How many commands it lists (making every check still to make).
    pub fn len(&mut self) -> usize {
        (0..self.slots()).filter(|&i| self.is_legal(i)).count()
    }

    /// Whether it lists no command (making every check still to make).
    pub fn is_empty(&mut self) -> bool {
        !(0..self.slots()).any(|i| self.is_legal(i))
    }

    /// Who the first slot is for: a listing names one creature, a minion
    /// squad's members, a side's creatures to start, or a prompt's
    /// answerer, all of one side. (The first slot may be one whose check
    /// fails; the first command is then another's of the same side.)
    pub fn first_creature(&self) -> Option<CreatureId> {
        match (&self.moves, &self.charges) {
            (Some(m), _) if m.count > 0 => Some(m.creature),
            (_, Some(c)) if c.at == 0 && !c.slots.is_empty() => Some(c.creature),
            _ => self.rest.first().and_then(|l| l.creature(&self.others)),
        }
    }

    fn locate(&self, i: usize) -> Slot {
        let moves = self.moves.as_ref().map_or(0, |m| m.count);
        if i < moves {
            return Slot::Move(i);
        }
        let mut i = i - moves;
        if let Some(c) = &self.charges
            && i >= c.at
        {
            if i - c.at < c.slots.len() {
                return Slot::Charge(i - c.at);
            }
            i -= c.slots.len();
        }
        if i < self.rest.len() {
            Slot::Rest(i)
        } else {
            Slot::Beyond
        }
    }

    /// Whether slot `i` holds a legal command, making its check if it
    /// waits on one.
    pub fn is_legal(&mut self, i: usize) -> bool {
        match self.locate(i) {
            Slot::Move(i) => self.moves.as_ref().is_some_and(|m| {
                m.afraid.is_none() || m.reach.nth_path(i).is_some_and(|(_, p)| m.allowed(&p))
            }),
            Slot::Charge(k) => self.charge(k).is_some(),
            Slot::Rest(r) => self.rest_holds(r),
            Slot::Beyond => false,
        }
    }

    /// Whether `rest[r]` is legal: its check's answer, made now if not yet.
    fn rest_holds(&mut self, r: usize) -> bool {
        let Ok(k) = self.checks.binary_search_by_key(&r, |c| c.at as usize) else {
            return true;
        };
        self.checks[k].answer(&mut self.scene, &self.creatures)
    }

    /// Where charge `k`'s run ends, searching the runs if not yet.
    fn charge_end(&mut self, k: usize) -> Option<crate::map::Pos> {
        let c = self.charges.as_mut()?;
        if c.found.is_none() {
            let map = &self.scene.as_ref()?.map;
            let runs = crate::map::movement::straight_runs(map, &c.occ, &c.mover, &c.areas);
            let ends = charge_slot_ends(&runs, c.mover, &c.slots);
            c.found = Some((runs, ends));
        }
        *c.found.as_ref()?.1.get(k)?
    }

    /// Charge `k` as a command, if a run gets there.
    fn charge(&mut self, k: usize) -> Option<Command> {
        let end = self.charge_end(k)?;
        let c = self.charges.as_ref()?;
        let cmd = c.slots[k].command(c.creature, &c.found.as_ref()?.0, end)?;
        match (&cmd, c.afraid) {
            (Command::Charge { path, .. }, Some((at, size)))
                if crate::map::movement::nears(&path.to_vec(), size, at) =>
            {
                None
            }
            _ => Some(cmd),
        }
    }

    /// The command of slot `i`, building no other; none if the slot holds
    /// none. Taken out, not copied: taking one of the commands after the
    /// moves and charges drops the others of them (their places would
    /// shift); the moves and charges stay as they are.
    pub fn take(&mut self, i: usize) -> Option<Command> {
        match self.locate(i) {
            Slot::Move(i) => self.moves.as_ref().and_then(|m| {
                m.reach
                    .nth_path(i)
                    .filter(|(_, path)| m.allowed(path))
                    .map(|(_, path)| Command::Move {
                        creature: m.creature,
                        path,
                    })
            }),
            Slot::Charge(k) => self.charge(k),
            Slot::Rest(r) => self.rest_holds(r).then(|| {
                let listed = self.rest[r];
                self.rest.clear();
                listed.build(&self.names, &mut std::mem::take(&mut self.others))
            }),
            Slot::Beyond => None,
        }
    }

    /// What it read of everyone, for the walk of a move or shift of its
    /// creature taken from it (see [`world::Prepared`]); asked for once, after
    /// the command is taken (its checks read it).
    pub(crate) fn prepared(&mut self) -> Option<world::Prepared> {
        let (walker, state) = self.walk.take()?;
        Some(world::Prepared {
            walker,
            state,
            occupants: std::mem::take(&mut self.creatures),
        })
    }

    /// For a brain that picks by position ([`crate::ai::Brain::choose_position`]):
    /// ask `ask` for a slot among [`Listing::slots`] until it names one
    /// holding a legal command, making the checks of only the slots named.
    /// A uniform pick asked again past the empty slots is uniform over the
    /// legal commands. After [`Listing::ASKS`] empty slots in a row, or if
    /// `ask` answers none, the answer is [`Picked::Whole`].
    pub fn pick_position(&mut self, mut ask: impl FnMut(usize) -> Option<usize>) -> Picked {
        let slots = self.slots();
        for _ in 0..Self::ASKS {
            match ask(slots) {
                None => return Picked::Whole,
                Some(i) if i >= slots => return Picked::Beyond(i),
                Some(i) if self.is_legal(i) => return Picked::At(i),
                Some(_) => {}
            }
        }
        Picked::Whole
    }

    /// Each slot holding a legal command, in order, as `f(slot, view)`:
    /// the commands kept short are read as they are kept, not built
    /// (a learning environment's action mask reads every slot of every
    /// step: `crate::learn`). Every check is made, as for
    /// [`Listing::len`]; [`Listing::take`] then gives the slot's command.
    pub fn each_legal(&mut self, mut f: impl FnMut(usize, SlotView<'_>)) {
        let mut i = 0;
        if let Some(m) = &self.moves {
            if m.afraid.is_none() {
                for (k, to) in m.reach.ends().enumerate() {
                    f(
                        k,
                        SlotView::Move {
                            creature: m.creature,
                            to,
                        },
                    );
                }
            } else {
                for (k, (to, path)) in m.reach.paths().enumerate() {
                    if m.allowed(&path) {
                        f(
                            k,
                            SlotView::Move {
                                creature: m.creature,
                                to,
                            },
                        );
                    }
                }
            }
            i = m.count;
        }
        let (n, at) = self
            .charges
            .as_ref()
            .map_or((0, usize::MAX), |c| (c.slots.len(), c.at));
        for r in 0..=self.rest.len() {
            if r == at {
                for k in 0..n {
                    if let Some(c) = self.charge(k) {
                        f(i + k, SlotView::Command(&c));
                    }
                }
                i += n;
            }
            if r == self.rest.len() {
                break;
            }
            if self.rest_holds(r) {
                match self.rest[r] {
                    Listed::Other(j) => f(i, SlotView::Command(&self.others[j as usize])),
                    Listed::Use {
                        creature,
                        ability,
                        target,
                    } => f(
                        i,
                        SlotView::Use {
                            creature,
                            ability: ability as usize,
                            target,
                        },
                    ),
                    Listed::Shift { creature, to } => f(i, SlotView::Shift { creature, to }),
                    Listed::FreeStrike { creature, target } => {
                        f(i, SlotView::FreeStrike { creature, target });
                    }
                    basic @ Listed::Basic { .. } => {
                        f(i, SlotView::Command(&basic.build(&[], &mut [])));
                    }
                }
            }
            i += 1;
        }
    }

    /// Every command, in order.
    pub fn into_vec(mut self) -> Vec<Command> {
        let names = std::mem::take(&mut self.names);
        if self.moves.is_none() && self.charges.is_none() && self.checks.is_empty() {
            let mut others = std::mem::take(&mut self.others);
            return self
                .rest
                .into_iter()
                .map(|c| c.build(&names, &mut others))
                .collect();
        }
        let mut out = Vec::with_capacity(self.slots());
        if let Some(m) = self.moves.take() {
            out.extend(
                m.reach
                    .paths()
                    .filter(|(_, path)| m.allowed(path))
                    .map(|(_, path)| Command::Move {
                        creature: m.creature,
                        path,
                    }),
            );
        }
        // The charges that a run gets to, built, to stand before
        // `rest[at..]`.
        let (n, at) = self
            .charges
            .as_ref()
            .map_or((0, 0), |c| (c.slots.len(), c.at));
        let mut charges: Vec<Command> = (0..n).filter_map(|k| self.charge(k)).collect();
        // Each check made, in order; the rest but those that failed.
        let (checks, scene, creatures) = (&mut self.checks, &mut self.scene, &self.creatures);
        let mut failed = checks
            .iter_mut()
            .filter_map(|c| (!c.answer(scene, creatures)).then_some(c.at as usize))
            .peekable();
        let mut others = std::mem::take(&mut self.others);
        for (r, c) in std::mem::take(&mut self.rest).into_iter().enumerate() {
            if r == at {
                out.append(&mut charges);
            }
            if failed.next_if_eq(&r).is_none() {
                out.push(c.build(&names, &mut others));
            }
        }
        out.append(&mut charges);
        out
    }
}

pub(super) fn self_alive(world: &mut World, id: CreatureId) -> bool {
    world::entity_of(world, id)
        .and_then(|e| world.comp::<Stamina>(e))
        .is_some_and(|s| !s.is_dead())
}
