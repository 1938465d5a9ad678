//! The listing: every command legal now ([`Listing`]), the acting
//! creature's moves kept as the search that found them, abilities against
//! each valid target, charges, and the answers to a prompt.

mod charges;
mod sweeps;

pub(crate) use charges::{
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
pub(crate) fn list(world: &mut World) -> Listing {
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
pub(crate) enum Listed {
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
pub(crate) enum Basic {
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
pub(crate) struct Check {
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
pub(crate) const HIDE: u32 = u32::MAX;

/// What a listing's checks read, with its creatures: the battlefield as it
/// was when it was made, and who is acting.
pub(crate) struct ListedScene {
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
pub(crate) struct ListedCharges {
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
pub(crate) struct ListedMoves {
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
pub(crate) enum Slot {
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

/// What one creature taking the current turn can do now: its moves and
/// shifts, charges, its abilities against each valid target or placement,
/// and the basic actions. `surprised` is the side wholly surprised now
/// ([`Flow::surprised_now`], which the listing has read).
pub(crate) fn creature_actions(
    world: &World,
    active: CreatureId,
    surprised: Option<Side>,
) -> Listing {
    let mut out: Vec<Listed> = Vec::new();
    // The area uses, kept as they are.
    let mut others: Vec<Command> = Vec::new();
    let Some(e) = world::entity_of(world, active) else {
        return Listing::default();
    };
    // Who is where, and who is hidden (read together: one pass).
    let world::Scene {
        occupants: creatures,
        hidden,
        largest_held,
    } = world::listing_scene(world, active, surprised);
    let field: &Arc<crate::map::Map> = &world.res::<Battlefield>().0;
    let map: &crate::map::Map = field;
    // Everything of the creature at once, through a kept query.
    let Some((me, cond, mv, budget, space, abilities, heroic, stance, stamina)) =
        world::CachedQuery::<world::ActorData>::with(world, |q| q.get_manual(world, e).ok())
            .flatten()
    else {
        return Listing::default();
    };
    // The dead (or a creature with no stamina) have nothing to do.
    if stamina.is_none_or(|s| s.is_dead()) {
        return Listing::default();
    }
    let (mv, budget) = (*mv, *budget);
    // docs/rules.md#grabbed: halved while holding one as large (a creature
    // with no space holds no one, as `world::speed_with_grab` has it).
    let speed = space.map_or(mv.speed, |_| {
        world::halved_by_grab(mv.speed, me.size, largest_held)
    });
    let space = space
        .map(|s| s.0)
        .unwrap_or(crate::map::Footprint::single(Default::default()));
    // The ids (shared with the listing, which names its uses from them).
    let names: Arc<[String]> = abilities.map_or_else(Default::default, |a| a.0.clone());
    let kept_abilities = abilities;
    let abilities: &[String] = abilities.map_or(&[], |a| &a.0);
    // What its budget allows, as the check has it (asked once for each
    // kind of action a turn spends).
    let ask = |action: ActionType| check::action(&budget, cond, action).is_ok();
    let (can_move, main_ok, maneuver_ok) = (
        ask(ActionType::MoveAction),
        ask(ActionType::MainAction),
        ask(ActionType::Maneuver),
    );
    let allows = |action: ActionType| match action {
        ActionType::MainAction | ActionType::SlowAction => main_ok,
        ActionType::Maneuver => maneuver_ok,
        ActionType::MoveAction => can_move,
        other => ask(other),
    };
    let mut listed_charges = None;
    // docs/rules.md#frightened: no willing step nearer the source of fear.
    let afraid = check::afraid_of(world, cond).map(|(_, at)| (at, space.size));
    // One search of the squares in reach serves moves, shifts and charges
    // (none of which a creature with neither its move nor its main action
    // left can take: then nothing of moving is worked out).
    let mut moving = (can_move || main_ok).then(|| {
        let limits = movement_limits(cond, speed);
        let mover = Mover {
            id: active,
            space,
            side: me.side,
            speed: limits.speed,
            extra_cost: limits.extra_cost_per_square,
            shifting: false,
            modes: mv.modes.crawling(limits.prone),
        };
        let occ = crate::map::movement::occupancy(map, &creatures);
        let reach =
            (limits.speed > 0).then(|| crate::map::movement::reachable_with(map, &occ, &mover));
        (limits, mover, Some(occ), reach)
    });
    // For a walk taken from the listing (see `world::Prepared`), when the
    // walker holds no one: there is none without a search of the squares
    // in reach, which it has speed for; it stands (or it would list
    // nothing); its size and side.
    let walk = match &moving {
        Some((_, _, _, Some(_))) if largest_held.is_none() => Some((
            active,
            (
                !ruleset::of(world).stops_moving(world, cond),
                space.size,
                me.side,
            ),
        )),
        _ => None,
    };
    if let (true, Some((limits, mover, Some(occ), Some(reach)))) = (can_move, &moving) {
        // Room for the shifts and charges, and an ability on each
        // creature: one allocation, not a doubling as they come. The moves
        // stay in the search (see the end).
        out.reserve(16 + abilities.len() * creatures.len());
        if limits.can_shift {
            // A shift is a step of cost 1 ending where it may: with no
            // extra cost per square, the search found that already (only
            // a single step reaches a square for 1).
            let found = (mover.extra_cost == 0).then(|| reach.ends_beside_start(1));
            for (k, to) in space.pos.neighbours().enumerate() {
                let shifts = if let Some(found) = found {
                    found[k]
                } else {
                    let shifter = Mover {
                        speed: 1,
                        extra_cost: 0,
                        shifting: true,
                        ..*mover
                    };
                    crate::map::movement::path_cost_with(map, occ, &shifter, &[space.pos, to])
                        .is_some_and(|c| c <= 1)
                };
                let shifts = shifts
                    && afraid.is_none_or(|(at, size)| {
                        !crate::map::movement::nears(&[space.pos, to], size, at)
                    });
                if shifts {
                    out.push(Listed::Shift {
                        creature: active,
                        to,
                    });
                }
            }
        }
    }
    let content = world.res::<Content>();
    // Each of the creature's abilities, for the charges and the list (an
    // unknown id lists nothing), with its place among the ids. As the
    // creature's list keeps them, not looked up again: read from it each
    // time rather than copied into a list first (a list made at every
    // listing cost 1% of a random game's instructions).
    let known = |k: usize| kept_abilities.and_then(|l| l.looked_up(k, content));
    let malice = world.res::<Malice>().0;
    let cost_ok = |a: &crate::ability::Ability| check::can_afford(a.cost, heroic, malice);
    // Charges: a straight run ending next to an enemy for a free strike,
    // or within reach of a creature an ability with the Charge keyword
    // may target (docs/rules.md#charge).
    if let (true, Some((_, mover, occ, Some(_)))) = (main_ok, &mut moving) {
        let mut with: Vec<ChargeWith> = Vec::new();
        for (k, id) in abilities.iter().enumerate() {
            let Some(a) = known(k) else {
                continue;
            };
            let reach = match a.distance {
                Distance::Melee(r) | Distance::MeleeOrRanged(r, _) => r,
                _ => continue,
            };
            // (One that affects only some kinds of creature is not listed
            // as a charge's end: the runs know sides, not tags.)
            if a.has(crate::ability::Keyword::Charge)
                && matches!(a.action, ActionType::MainAction)
                && a.target.tags.is_empty()
                && a.requirement_missing(cond).is_none()
                && a.barred(cond).is_none()
                && cost_ok(a)
                && world::available(world, e, a)
            {
                with.push(ChargeWith {
                    ability: id,
                    reach,
                    kinds: &a.target.kinds,
                });
            }
        }
        let areas = run_areas(&creatures, *mover, &with);
        if !areas.is_empty() {
            let slots = charge_slots(&creatures, *mover, &with);
            if !slots.is_empty()
                && let Some(occ) = occ.take()
            {
                // Kept as whom they are against, after the shifts listed
                // so far; the runs are searched when one is taken.
                listed_charges = Some(Box::new(ListedCharges {
                    creature: active,
                    at: out.len(),
                    mover: *mover,
                    slots,
                    afraid,
                    occ,
                    areas,
                    found: None,
                }));
            }
        }
    }
    // Distance to each creature, found once for all the abilities.
    // (On the stack for a fight's creatures at once, filled in place: a
    // small vector's collect pushes one by one, each push asking where it
    // keeps its items, which cost 0.7% of a random game's instructions.)
    let mut near_by = [0u32; 16];
    let far_by: Vec<u32>;
    let apart: &[u32] = if let Some(near_by) = near_by.get_mut(..creatures.len()) {
        for (d, o) in near_by.iter_mut().zip(&creatures) {
            *d = space.distance(o.space);
        }
        near_by
    } else {
        far_by = creatures.iter().map(|o| space.distance(o.space)).collect();
        &far_by
    };
    // The commands listed before their check (see `Listing`).
    let mut checks: SmallVec<[Check; 8]> = SmallVec::new();
    for (k, id) in abilities.iter().enumerate() {
        let (Some(a), named) = (known(k), k as u32) else {
            continue;
        };
        if !allows(a.action)
            || !cost_ok(a)
            || a.requirement_missing(cond).is_some()
            || a.barred(cond).is_some()
            || !world::available(world, e, a)
            || !world::room_for(world, e, a)
        {
            continue;
        }
        if a.distance.is_area() {
            let placed = match a.distance {
                Distance::Sweep { .. } => sweeps(
                    map,
                    &creatures,
                    space,
                    a,
                    (active, me.side),
                    cond,
                    speed,
                    mv.modes,
                    afraid,
                ),
                _ => placements(map, &creatures, space, a, me.side, active),
            };
            for placement in placed {
                out.push(Listed::Other(others.len() as u32));
                others.push(Command::UseAreaAbility {
                    creature: active,
                    ability: id.clone(),
                    placement,
                    surges: 0,
                    potency_surges: Vec::new(),
                    spend: 0,
                    tier: None,
                    links: None,
                });
            }
            continue;
        }
        let reach = check::reach_of(a.distance);
        // docs/rules.md#objects: a strike at each object in reach.
        if a.target.kinds.contains(&crate::ability::TargetKind::Object) {
            for at in objects_in_reach(map, space, reach, a.true_distance) {
                out.push(Listed::Other(others.len() as u32));
                others.push(Command::UseOnObject {
                    creature: active,
                    ability: id.clone(),
                    at,
                    surges: 0,
                    tier: None,
                });
            }
        }
        // The relations the ability may target, found once for all the
        // creatures.
        let allowed = crate::ability::TargetKind::relations(&a.target.kinds);
        for (n, o) in creatures.iter().enumerate() {
            // Out of reach (the user itself is always in reach): the
            // cheapest test first.
            let is_user = o.id == active;
            if !check::in_reach(is_user, apart[n], reach) {
                continue;
            }
            let relation = crate::ability::Relation::of(active, me.side, o.id, o.side);
            if allowed & relation.bit() == 0 {
                continue;
            }
            // docs/rules.md#creature-tags (rare: looked up only when named).
            if !a.target.tags.is_empty()
                && !world::entity_of(world, o.id)
                    .is_some_and(|oe| check::tags_allow(world, &a.target, oe))
            {
                continue;
            }
            // `creatures` holds only the living.
            if !check::hidden_from(o.side == me.side, apart[n], hidden.contains(&o.id)) {
                // Line of effect to it is checked when the slot is taken
                // or read.
                if check::needs_line_of_effect(is_user, a.true_distance) {
                    checks.push(Check {
                        at: out.len() as u32,
                        of: n as u32,
                        known: None,
                    });
                }
                out.push(Listed::Use {
                    creature: active,
                    ability: named,
                    target: o.id,
                });
            }
        }
    }
    // The basic actions every creature has. (Free strikes are listed
    // against enemies only: one on an ally is legal, and never wanted.)
    if main_ok {
        for (o, &apart) in creatures.iter().zip(apart) {
            if o.side != me.side && check::free_strike_reaches(apart) {
                out.push(Listed::FreeStrike {
                    creature: active,
                    target: o.id,
                });
            }
        }
    }
    if main_ok {
        out.push(Listed::Basic {
            creature: active,
            kind: Basic::Defend,
        });
    }
    if maneuver_ok {
        let already = stance.is_some_and(|s| s.hidden);
        if !already {
            // Its cover is checked when the slot is taken or read.
            checks.push(Check {
                at: out.len() as u32,
                of: HIDE,
                known: None,
            });
            out.push(Listed::Basic {
                creature: active,
                kind: Basic::Hide,
            });
        }
    }
    // Ending what one's own abilities made: a free maneuver
    // (docs/rules.md#ending-effects), one command per ability.
    for ability in crate::encounter::world::sustained_by(world, active) {
        out.push(Listed::Other(others.len() as u32));
        others.push(Command::EndEffect {
            creature: active,
            ability,
        });
    }
    // Letting go of a grab takes no action (docs/rules.md#grabbed); looked
    // for only when someone may be grabbed (the grab check's hint).
    let maybe_grabbing = world
        .get_res::<crate::encounter::state::board::Grabs>()
        .is_none_or(|g| g.0.0.as_ref().is_none_or(|k| !k.is_empty()));
    if maybe_grabbing && !world::grabbed_by(world, active).is_empty() {
        out.push(Listed::Basic {
            creature: active,
            kind: Basic::Release,
        });
    }
    if maneuver_ok {
        if check::can_stand(cond).is_ok() {
            out.push(Listed::Basic {
                creature: active,
                kind: Basic::StandUp,
            });
        }
        if check::can_escape(cond).is_ok() {
            out.push(Listed::Basic {
                creature: active,
                kind: Basic::EscapeGrab,
            });
        }
        // (Not listed at full stamina: legal, but it heals nothing.)
        if let Some(s) = stamina
            && check::can_catch_breath(s, heroic.is_some()).is_ok()
            && s.current < s.max
        {
            out.push(Listed::Basic {
                creature: active,
                kind: Basic::CatchBreath,
            });
        }
    }
    // The moves come first, one for each square reached (each keeps its
    // path as steps, walked out into squares only if something reads it).
    let moves = match (can_move, moving) {
        (true, Some((_, _, _, Some(reach)))) => Some(ListedMoves {
            creature: active,
            count: reach.path_count(),
            reach,
            afraid,
        }),
        _ => None,
    };
    let scene = (!checks.is_empty() || listed_charges.is_some()).then(|| ListedScene {
        map: field.clone(),
        in_line: smallvec::smallvec![None; creatures.len()],
        user: space,
        id: active,
        side: me.side,
    });
    Listing {
        moves,
        charges: listed_charges,
        rest: out,
        others,
        names,
        checks,
        scene,
        creatures,
        walk,
        side: Some(me.side),
    }
}

/// Whether an area ability may affect this creature (docs/rules.md#distances-and-targets).
pub(crate) fn eligible(
    kinds: &[crate::ability::TargetKind],
    side: Side,
    user: CreatureId,
    o: &crate::map::Occupant,
) -> bool {
    crate::ability::TargetKind::any_allows(
        kinds,
        crate::ability::Relation::of(user, side, o.id, o.side),
    )
}

/// The placements of an area ability worth listing: each reaches at least
/// one eligible creature. Candidates are built around those creatures (a
/// cube covering them, a line or cone aimed at them, a sphere centred on
/// them, a wall in a straight run between the user and them).
pub(crate) fn placements(
    map: &crate::map::Map,
    creatures: &[crate::map::Occupant],
    user: crate::map::Footprint,
    a: &crate::ability::Ability,
    side: Side,
    me: CreatureId,
) -> Vec<command::Placement> {
    use command::Placement as P;
    let targets: Vec<&crate::map::Occupant> = creatures
        .iter()
        .filter(|o| eligible(&a.target.kinds, side, me, o))
        .collect();
    if targets.is_empty() {
        return Vec::new();
    }
    // A burst or an aura has one placement, worth listing if it reaches an
    // eligible creature: asked of their squares, not the whole area.
    if let Distance::Aura(r) | Distance::Burst(r) = a.distance {
        let squares = targets.iter().flat_map(|t| t.space.squares());
        return if crate::map::area::burst_reaches_any(map, user, r, squares) {
            vec![P::OnSelf]
        } else {
            Vec::new()
        };
    }
    let mut candidates: Vec<P> = Vec::new();
    match a.distance {
        Distance::Cube { size, .. } => {
            for t in &targets {
                let s = size as i32;
                for dy in 0..s {
                    for dx in 0..s {
                        candidates.push(P::Cube {
                            corner: t.space.pos.offset(-dx, -dy),
                        });
                    }
                }
            }
            // A glyph waits for a creature to step on it (docs/rules.md#moving): also
            // on each empty square next to one of the user's side, where
            // an enemy coming to fight it would stand.
            if a.glyph.is_some() {
                for o in creatures.iter().filter(|o| o.side == side) {
                    for q in o.space.around() {
                        if !creatures.iter().any(|c| c.space.contains(q)) {
                            candidates.push(P::Cube { corner: q });
                        }
                    }
                }
            }
        }
        Distance::Line { within, .. } => {
            let w = within as i32;
            for t in &targets {
                for dy in -w..=w {
                    for dx in -w..=w {
                        let start = user.pos.offset(dx, dy);
                        if !user.contains(start) && start != t.space.pos {
                            candidates.push(P::Line {
                                start,
                                aim: t.space.pos,
                            });
                        }
                    }
                }
            }
        }
        Distance::Cone { .. } => {
            for t in &targets {
                candidates.push(P::Cone { aim: t.space.pos });
            }
        }
        Distance::Sphere { .. } | Distance::Cylinder { .. } => {
            for t in &targets {
                candidates.push(P::Sphere {
                    centre: t.space.pos,
                });
            }
        }
        Distance::Wall { squares, .. } => {
            // A wall can't go in occupied squares, so it shuts creatures in
            // or out rather than covering them. Listing every shape is too
            // many: a straight wall across each side of each creature.
            let n = squares as i32;
            for t in &targets {
                let c = t.space.pos;
                let s = t.space.size as i32;
                for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                    let base = c.offset(if dx > 0 { s } else { dx }, if dy > 0 { s } else { dy });
                    let squares = (0..n)
                        .map(|i| {
                            if dx != 0 {
                                base.offset(0, i - n / 2)
                            } else {
                                base.offset(i - n / 2, 0)
                            }
                        })
                        .collect();
                    candidates.push(P::Wall { squares });
                }
            }
        }
        _ => {}
    }
    // The first of each, in the order built.
    let mut unique: Vec<P> = Vec::with_capacity(candidates.len());
    for p in candidates {
        if !unique.contains(&p) {
            unique.push(p);
        }
    }
    unique
        .into_iter()
        .filter(|p| {
            check::place_area(map, creatures, user, a.distance, p).is_ok_and(|(area, _)| {
                matches!(p, P::Wall { .. })
                    || a.glyph.is_some()
                    || area
                        .creatures(creatures)
                        .iter()
                        .any(|o| eligible(&a.target.kinds, side, me, o))
            })
        })
        .collect()
}

pub(crate) fn self_alive(world: &mut World, id: CreatureId) -> bool {
    world::entity_of(world, id)
        .and_then(|e| world.comp::<Stamina>(e))
        .is_some_and(|s| !s.is_dead())
}
