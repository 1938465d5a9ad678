//! The one door into an encounter: commands in, refusals or log entries out.

use crate::fast::KeyedWorld;
use serde::{Deserialize, Serialize};

use crate::map::Pos;
use crate::power_roll::Tier;
use crate::stats::CreatureId;

/// Everything a player or an AI can ask of an encounter.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Command {
    /// The side whose turn it is picks which of its creatures acts.
    StartTurn {
        creature: CreatureId,
    },
    /// Move along a path (start square first) with the move action.
    Move {
        creature: CreatureId,
        path: crate::map::movement::Path,
    },
    /// Shift one square without provoking, with the move action.
    Shift {
        creature: CreatureId,
        to: Pos,
    },
    /// Phased 2d6 (docs/rules.md#movement-powers): move along a path with a movement power.
    Movement {
        creature: CreatureId,
        power: crate::phased::MovementPower,
        path: crate::map::movement::Path,
    },
    /// Use an ability against targets.
    UseAbility {
        creature: CreatureId,
        ability: String,
        targets: Vec<CreatureId>,
        /// Surges to spend on extra damage against the first target.
        #[serde(default)]
        surges: u32,
        /// Targets whose potency rises by 1, for 2 surges each.
        #[serde(default)]
        potency_surges: Vec<CreatureId>,
        /// Heroic resource to spend on the ability's "Spend X" entries.
        #[serde(default)]
        spend: u32,
        /// Apply this tier instead if it is lower than the one rolled
        /// (docs/rules.md#power-roll "A roller may always choose a lower tier").
        #[serde(default)]
        tier: Option<Tier>,
    },
    /// Use an area ability placed on the map; it affects every eligible
    /// creature the area reaches.
    UseAreaAbility {
        creature: CreatureId,
        ability: String,
        placement: Placement,
        #[serde(default)]
        surges: u32,
        #[serde(default)]
        potency_surges: Vec<CreatureId>,
        #[serde(default)]
        spend: u32,
        #[serde(default)]
        tier: Option<Tier>,
        /// A glyphic ability only (docs/rules.md#glyphs): the squares of the
        /// glyphs already there its new glyphs connect to. `None`: every
        /// glyph of its side within 1 square, as if all were chosen.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        links: Option<Vec<crate::map::Pos>>,
    },
    /// Use a strike on an object (docs/rules.md#objects): an ability that
    /// may target objects, against the one on square `at`.
    UseOnObject {
        creature: CreatureId,
        ability: String,
        at: Pos,
        /// Surges spent on extra damage to the object.
        #[serde(default)]
        surges: u32,
        #[serde(default)]
        tier: Option<Tier>,
    },
    /// Charge (main action): move in a straight line, then a melee free
    /// strike, or an ability with the Charge keyword, against `target`.
    Charge {
        creature: CreatureId,
        path: crate::map::movement::Path,
        target: CreatureId,
        #[serde(default)]
        ability: Option<String>,
    },
    /// A melee free strike against an adjacent creature (main action).
    FreeStrike {
        creature: CreatureId,
        target: CreatureId,
    },
    /// Stand up from prone (maneuver).
    StandUp {
        creature: CreatureId,
    },
    /// Spend a recovery to regain stamina (maneuver; heroes, not while dying).
    CatchBreath {
        creature: CreatureId,
    },
    /// Try to escape a grab: a Might or Agility power roll (maneuver).
    EscapeGrab {
        creature: CreatureId,
    },
    /// Let go of the creature it has grabbed: no action
    /// (docs/rules.md#grabbed: "A creature can release a creature they have
    /// grabbed at any time").
    Release {
        creature: CreatureId,
    },
    /// End the lasting effects its ability `ability` made (conditions it
    /// imposed, bonuses it gave, its aura): a free maneuver on its turn
    /// (docs/rules.md#ending-effects: "A creature who imposes an effect on
    /// another creature using an ability can end that effect as a free
    /// maneuver").
    EndEffect {
        creature: CreatureId,
        ability: String,
    },
    /// Defend (main action): until the start of the creature's next turn,
    /// ability rolls against it take a bane (see the README's rulings).
    Defend {
        creature: CreatureId,
    },
    /// Hide (maneuver): with cover or out of line of effect from every
    /// enemy, become hidden (see the README's rulings).
    Hide {
        creature: CreatureId,
    },
    /// Instead of picking one of its creatures to act, a side lets the
    /// other side pick first (docs/rules.md#actions-on-a-turn; docs/rules.md#defend-and-delay).
    Delay {
        creature: CreatureId,
    },
    EndTurn {
        creature: CreatureId,
    },
    /// Answer a triggered-action prompt: one of its options, or `None` to let
    /// the event pass.
    Answer {
        creature: CreatureId,
        #[serde(default)]
        reaction: Option<super::state::work::Reaction>,
    },
}

impl Command {
    /// The command as the listing lists it, when a brain has added surges
    /// to it (on damage or on potency, docs/rules.md#surges) or chosen a
    /// glyph's connections (docs/rules.md#glyphs): the listing offers each
    /// ability once, unspent and connected to every glyph, and whoever
    /// chooses it may add those choices; `None` when none is made.
    pub fn unspent(&self) -> Option<Command> {
        let mut bare = self.clone();
        match &mut bare {
            Command::UseAbility {
                surges,
                potency_surges,
                ..
            } if *surges > 0 || !potency_surges.is_empty() => {
                *surges = 0;
                potency_surges.clear();
                Some(bare)
            }
            Command::UseAreaAbility {
                surges,
                potency_surges,
                links,
                ..
            } if *surges > 0 || !potency_surges.is_empty() || links.is_some() => {
                *surges = 0;
                potency_surges.clear();
                *links = None;
                Some(bare)
            }
            _ => None,
        }
    }

    /// Use an ability on targets, spending no surges or resource, at the rolled tier.
    pub fn use_ability(creature: CreatureId, ability: &str, targets: Vec<CreatureId>) -> Command {
        Command::UseAbility {
            creature,
            ability: ability.to_string(),
            targets,
            surges: 0,
            potency_surges: Vec::new(),
            spend: 0,
            tier: None,
        }
    }

    /// The first square the command names (on its path, as its
    /// destination, where its area goes) for which `test` holds.
    pub fn find_square(&self, mut test: impl FnMut(Pos) -> bool) -> Option<Pos> {
        let one = |p: &Pos| Some(*p);
        match self {
            Command::Move { path, .. }
            | Command::Movement { path, .. }
            | Command::Charge { path, .. } => path.squares().find(|&p| test(p)),
            Command::Shift { to, .. } | Command::UseOnObject { at: to, .. } => {
                one(to).filter(|&p| test(p))
            }
            Command::UseAreaAbility { placement, .. } => match placement {
                Placement::OnSelf => None,
                Placement::Cube { corner: p }
                | Placement::Cone { aim: p }
                | Placement::Sphere { centre: p } => one(p).filter(|&p| test(p)),
                Placement::Line { start, aim } => [*start, *aim].into_iter().find(|&p| test(p)),
                Placement::Wall { squares } => squares.iter().copied().find(|&p| test(p)),
                Placement::Path { path } => path.squares().find(|&p| test(p)),
            },
            _ => None,
        }
    }

    pub fn creature(&self) -> CreatureId {
        match self {
            Command::StartTurn { creature }
            | Command::Move { creature, .. }
            | Command::Shift { creature, .. }
            | Command::Movement { creature, .. }
            | Command::UseAbility { creature, .. }
            | Command::UseAreaAbility { creature, .. }
            | Command::UseOnObject { creature, .. }
            | Command::FreeStrike { creature, .. }
            | Command::Charge { creature, .. }
            | Command::StandUp { creature }
            | Command::CatchBreath { creature }
            | Command::EscapeGrab { creature }
            | Command::Defend { creature }
            | Command::Hide { creature }
            | Command::Release { creature }
            | Command::EndEffect { creature, .. }
            | Command::Delay { creature }
            | Command::Answer { creature, .. }
            | Command::EndTurn { creature } => *creature,
        }
    }
}

/// Where an area ability goes (docs/rules.md#burst, docs/rules.md#shapes).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Placement {
    /// Auras and bursts: around the user.
    OnSelf,
    /// A cube by its top-left square.
    Cube { corner: Pos },
    /// A line from its first square toward an aimed square.
    Line { start: Pos, aim: Pos },
    /// A wall's squares.
    Wall { squares: Vec<Pos> },
    /// A cone from the user toward an aimed square.
    Cone { aim: Pos },
    /// A sphere or cylinder around a square.
    Sphere { centre: Pos },
    /// docs/rules.md#during-the-move: the way the user moves (its square
    /// first), affecting those it passes.
    Path { path: crate::map::movement::Path },
}

/// [`Refusal::CannotMove`]'s words: the condition first, as every
/// condition's refusal reads ("grabbed: its speed is 0").
fn halted_words(by: Option<crate::conditions::ConditionKind>) -> String {
    match by {
        Some(k) => format!("{k}: its speed is 0, it can't move"),
        None => "its speed is 0: it can't move".into(),
    }
}

/// Why a command was refused. A refused command changes nothing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
pub enum Refusal {
    #[error("the encounter is over")]
    Over,
    #[error("{0} is a summon: it acts on its own just before its summoner")]
    SummonActsAlone(Who),
    #[error("{0} is spent: recover it first")]
    Spent(String),
    #[error("no empty square next to the summoner")]
    NoRoomToSummon,
    /// docs/rules.md#requirements: a requirement the user lacks.
    #[error("it needs {} to start", requirement_words(.0))]
    Requirement(&'static str),
    /// A condition of the user's bars the ability (docs/rules.md#grabbed).
    #[error("{condition}: it can't use {ability}")]
    Barred {
        condition: crate::conditions::ConditionKind,
        ability: String,
    },
    #[error("there is no {0}")]
    NoSuchCreature(Who),
    #[error("it is not {0}'s turn")]
    NotTheirTurn(Who),
    #[error("a creature is already taking its turn")]
    TurnInProgress,
    #[error("no creature is taking a turn: start one first")]
    NoTurnInProgress,
    #[error("{0} has already acted this round")]
    AlreadyActed(Who),
    #[error("{0} is dead")]
    Dead(Who),
    #[error("the main action is already used")]
    MainActionUsed,
    #[error("the maneuver is already used")]
    ManeuverUsed,
    #[error("the move action is already used")]
    MoveActionUsed,
    #[error("dazed: only one action this turn")]
    Dazed,
    #[error("dazed: it can't use free maneuvers")]
    DazedFreeManeuver,
    /// Its speed is 0: the condition that makes it so, if one does.
    #[error("{}", halted_words(*.0))]
    CannotMove(Option<crate::conditions::ConditionKind>),
    #[error("slowed: it can't shift")]
    CannotShift,
    #[error("that path is not a legal move: {0}")]
    BadPath(String),
    #[error("the path costs {cost} but only {speed} squares of movement are left")]
    TooFar { cost: u32, speed: u32 },
    #[error("no ability `{0}`")]
    UnknownAbility(String),
    #[error("this creature doesn't have the ability `{0}`")]
    NotTheirAbility(String),
    #[error("not enough {resource}: needs {needed}, has {has}")]
    NotEnoughResource {
        resource: String,
        needed: u32,
        has: u32,
    },
    #[error("not enough surges: wants {wanted}, has {has}")]
    NotEnoughSurges { wanted: u32, has: u32 },
    #[error("{target} is out of range ({distance} squares, reach {reach})")]
    OutOfRange {
        target: Who,
        distance: u32,
        reach: u32,
    },
    #[error("no line of effect to {0}")]
    NoLineOfEffect(Who),
    #[error("{0} is not a valid target for this ability")]
    WrongTarget(Who),
    #[error("too many targets: at most {0}")]
    TooManyTargets(u32),
    #[error("no targets")]
    NoTargets,
    #[error("that area can't go there: {0}")]
    BadPlacement(String),
    #[error("wrong command: {0}")]
    WrongCommand(&'static str),
    #[error("can't spend {0} that way: {1}")]
    BadSpend(u32, String),
    #[error("not prone")]
    NotProne,
    #[error("can't stand up: {0}")]
    CannotStand(&'static str),
    #[error("not grabbed")]
    NotGrabbed,
    #[error("can't catch breath: {0}")]
    CannotCatchBreath(&'static str),
    #[error("this kind of ability is not supported yet: {0}")]
    Unsupported(String),
    #[error("{0}")]
    BadSurges(String),
    #[error("no triggered action is waiting for an answer")]
    NoPrompt,
    #[error("{0} was not asked")]
    NotAsked(Who),
    #[error("`{0}` is not one of the prompt's options")]
    NotAnOption(String),
    #[error("waiting for {0} to answer a triggered-action prompt")]
    AwaitingAnswer(Who),
    #[error("{0} is hidden: only an adjacent creature can target it")]
    HiddenTarget(Who),
    #[error("can't hide: {0}")]
    CannotHide(&'static str),
    #[error("{0}")]
    Phased(String),
    #[error("frightened of {0}: it can't move closer to it")]
    Afraid(Who),
    #[error("{0} has grabbed nobody: nothing to release")]
    NothingToRelease(Who),
    #[error("{0} has no lasting effect of {1} to end")]
    NoEffectToEnd(Who, String),
    #[error("can't delay: {0}")]
    CannotDelay(&'static str),
    #[error("the square {0} is far off the map")]
    FarOffMap(Pos),
}

/// A creature named in a refusal: its name, or its id when it has none.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Who {
    pub id: CreatureId,
    pub name: String,
}

impl Who {
    /// An unnamed creature (one that does not exist).
    pub fn id(id: CreatureId) -> Who {
        Who {
            id,
            name: String::new(),
        }
    }

    /// A creature of the encounter, by name.
    pub fn of(world: &bevy_ecs::world::World, id: CreatureId) -> Who {
        let name = super::world::entity_of(world, id)
            .and_then(|e| world.comp::<super::state::components::Creature>(e))
            .map(|c| c.name.clone())
            .unwrap_or_default();
        Who { id, name }
    }

    /// What it displays as, taking its name rather than copying it again.
    pub fn into_label(self) -> String {
        if self.name.is_empty() {
            self.to_string()
        } else {
            self.name
        }
    }
}

impl std::fmt::Display for Who {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.name.is_empty() {
            write!(f, "creature {}", self.id)
        } else {
            f.write_str(&self.name)
        }
    }
}

/// How a refusal names a missing requirement.
fn requirement_words(name: &str) -> &'static str {
    match name {
        "hands" => "free hands (not grabbed or restrained)",
        "standing" => "its user on its feet (not prone)",
        _ => "what it requires",
    }
}

impl From<crate::actions::Unspendable> for Refusal {
    fn from(u: crate::actions::Unspendable) -> Refusal {
        use crate::actions::Unspendable as U;
        match u {
            U::MainActionUsed => Refusal::MainActionUsed,
            U::ManeuverUsed => Refusal::ManeuverUsed,
            U::MoveActionUsed => Refusal::MoveActionUsed,
            U::Dazed => Refusal::Dazed,
            U::DazedFreeManeuver => Refusal::DazedFreeManeuver,
            U::AnswersPrompts => Refusal::Unsupported("triggered actions answer prompts".into()),
            U::AtTurnEnd => {
                Refusal::Unsupported("villain actions answer the prompt at a turn's end".into())
            }
            U::AtEncounterStart => Refusal::Unsupported(
                "passive and episodic abilities apply when the encounter starts".into(),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conditions::ConditionKind as K;

    /// Each refusal with the words that name its cause. The match has no
    /// wildcard: a new refusal can't be added without saying its words.
    fn cause(r: &Refusal) -> &'static str {
        use Refusal as R;
        match r {
            R::Over => "the encounter is over",
            R::SummonActsAlone(_) => "is a summon",
            R::Spent(_) => "is spent",
            R::NoRoomToSummon => "no empty square",
            R::Requirement(_) => "free hands",
            R::Barred { .. } => "grabbed: it can't use Knockback",
            R::NoSuchCreature(_) => "there is no",
            R::NotTheirTurn(_) => "it is not Korva's turn",
            R::TurnInProgress => "already taking its turn",
            R::NoTurnInProgress => "no creature is taking a turn",
            R::AlreadyActed(_) => "already acted",
            R::Dead(_) => "is dead",
            R::MainActionUsed => "main action is already used",
            R::ManeuverUsed => "maneuver is already used",
            R::MoveActionUsed => "move action is already used",
            R::Dazed => "dazed: only one action",
            R::DazedFreeManeuver => "dazed: it can't use free maneuvers",
            R::CannotMove(Some(_)) => "grabbed: its speed is 0",
            R::CannotMove(None) => "its speed is 0",
            R::CannotShift => "slowed: it can't shift",
            R::BadPath(_) => "prone: it crawls",
            R::TooFar { .. } => "the path costs 6 but only 5",
            R::UnknownAbility(_) => "no ability",
            R::NotTheirAbility(_) => "doesn't have the ability",
            R::NotEnoughResource { .. } => "not enough Ferocity",
            R::NotEnoughSurges { .. } => "not enough surges",
            R::OutOfRange { .. } => "out of range",
            R::NoLineOfEffect(_) => "no line of effect",
            R::WrongTarget(_) => "not a valid target",
            R::TooManyTargets(_) => "too many targets",
            R::NoTargets => "no targets",
            R::BadPlacement(_) => "can't go there",
            R::WrongCommand(_) => "wrong command",
            R::BadSpend(..) => "can't spend",
            R::NotProne => "not prone",
            R::CannotStand(_) => "can't stand up: restrained",
            R::NotGrabbed => "not grabbed",
            R::CannotCatchBreath(_) => "can't catch breath",
            R::Unsupported(_) => "not supported",
            R::BadSurges(_) => "surges",
            R::NoPrompt => "no triggered action is waiting",
            R::NotAsked(_) => "was not asked",
            R::NotAnOption(_) => "not one of the prompt's options",
            R::AwaitingAnswer(_) => "waiting for Korva to answer",
            R::HiddenTarget(_) => "is hidden",
            R::CannotHide(_) => "can't hide",
            R::Phased(_) => "slowed",
            R::Afraid(_) => "frightened of Korva",
            R::NothingToRelease(_) => "has grabbed nobody",
            R::NoEffectToEnd(..) => "no lasting effect",
            R::CannotDelay(_) => "can't delay",
            R::FarOffMap(_) => "far off the map",
        }
    }

    // docs/rules.md#conditions: a refusal names the rule that refused
    // (prone, grabbed, restrained, dazed, slowed, ...), never a catch-all.
    #[test]
    fn every_refusal_names_its_cause() {
        let korva = || Who {
            id: CreatureId(1),
            name: "Korva".into(),
        };
        let path = crate::map::movement::PathFault::Prone(Pos::new(1, 1)).to_string();
        let all = vec![
            Refusal::Over,
            Refusal::SummonActsAlone(korva()),
            Refusal::Spent("Rally".into()),
            Refusal::NoRoomToSummon,
            Refusal::Requirement("hands"),
            Refusal::Barred {
                condition: K::Grabbed,
                ability: "Knockback".into(),
            },
            Refusal::NoSuchCreature(Who::id(CreatureId(9))),
            Refusal::NotTheirTurn(korva()),
            Refusal::TurnInProgress,
            Refusal::NoTurnInProgress,
            Refusal::AlreadyActed(korva()),
            Refusal::Dead(korva()),
            Refusal::MainActionUsed,
            Refusal::ManeuverUsed,
            Refusal::MoveActionUsed,
            Refusal::Dazed,
            Refusal::DazedFreeManeuver,
            Refusal::CannotMove(Some(K::Grabbed)),
            Refusal::CannotMove(None),
            Refusal::CannotShift,
            Refusal::BadPath(path),
            Refusal::TooFar { cost: 6, speed: 5 },
            Refusal::UnknownAbility("x".into()),
            Refusal::NotTheirAbility("x".into()),
            Refusal::NotEnoughResource {
                resource: "Ferocity".into(),
                needed: 3,
                has: 1,
            },
            Refusal::NotEnoughSurges { wanted: 2, has: 0 },
            Refusal::OutOfRange {
                target: korva(),
                distance: 7,
                reach: 5,
            },
            Refusal::NoLineOfEffect(korva()),
            Refusal::WrongTarget(korva()),
            Refusal::TooManyTargets(1),
            Refusal::NoTargets,
            Refusal::BadPlacement("off the map".into()),
            Refusal::WrongCommand("x"),
            Refusal::BadSpend(2, "x".into()),
            Refusal::NotProne,
            Refusal::CannotStand("restrained"),
            Refusal::NotGrabbed,
            Refusal::CannotCatchBreath("x"),
            Refusal::Unsupported("x".into()),
            Refusal::BadSurges("more surges than it has".into()),
            Refusal::NoPrompt,
            Refusal::NotAsked(korva()),
            Refusal::NotAnOption("x".into()),
            Refusal::AwaitingAnswer(korva()),
            Refusal::HiddenTarget(korva()),
            Refusal::CannotHide("x"),
            Refusal::Phased("slowed: it loses all its movement this round".into()),
            Refusal::Afraid(korva()),
            Refusal::NothingToRelease(korva()),
            Refusal::NoEffectToEnd(korva(), "x".into()),
            Refusal::CannotDelay("x"),
            Refusal::FarOffMap(Pos::new(99_999, 0)),
        ];
        let mut seen = std::collections::HashSet::new();
        for r in &all {
            let words = r.to_string();
            assert!(
                words.contains(cause(r)),
                "{r:?} reads {words:?}, not naming {:?}",
                cause(r)
            );
            assert!(seen.insert(words.clone()), "two refusals read {words:?}");
        }
    }
}
