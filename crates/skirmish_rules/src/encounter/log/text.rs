//! Each log entry as the sentence the log panel shows (`LogEntry::line`).

use super::{LogEntry, trigger_text};
use crate::map::Side;
use crate::stats::CreatureId;

impl LogEntry {
    /// A readable line, naming creatures with `name`.
    pub fn line(&self, name: &dyn Fn(CreatureId) -> String) -> String {
        match self {
            LogEntry::RoundStarted { .. }
            | LogEntry::RoundEnded { .. }
            | LogEntry::TargetLost { .. }
            | LogEntry::Triggered { .. }
            | LogEntry::LetPass { .. }
            | LogEntry::Initiative { .. }
            | LogEntry::StageStarted { .. }
            | LogEntry::Seized { .. }
            | LogEntry::Power { .. }
            | LogEntry::Attack2d6 { .. } => self.order_text(name),
            LogEntry::EndPhase
            | LogEntry::ComponentSave { .. }
            | LogEntry::ComponentsMissing { .. }
            | LogEntry::ComponentLost { .. }
            | LogEntry::EffectEnded { .. }
            | LogEntry::DelayedTurn { .. }
            | LogEntry::OrderStands { .. }
            | LogEntry::Delayed { .. }
            | LogEntry::Hidden { .. }
            | LogEntry::Revealed { .. }
            | LogEntry::Dragged { .. }
            | LogEntry::Released { .. }
            | LogEntry::SquadLoss { .. }
            | LogEntry::WallRaised { .. }
            | LogEntry::WallCrumbled { .. }
            | LogEntry::AuraEnded { .. }
            | LogEntry::AuraPulse { .. } => self.board_text(name),
            LogEntry::TurnStarted { .. }
            | LogEntry::Teleported { .. }
            | LogEntry::TurnEnded { .. }
            | LogEntry::Moved { .. }
            | LogEntry::AbilityUsed { .. }
            | LogEntry::AreaPlaced { .. }
            | LogEntry::Rolled { .. }
            | LogEntry::TierResult { .. }
            | LogEntry::Damage { .. } => self.action_text(name),
            LogEntry::ConditionGained { .. }
            | LogEntry::ConditionResisted { .. }
            | LogEntry::ConditionEnded { .. }
            | LogEntry::ForceMoved { .. }
            | LogEntry::Collision { .. }
            | LogEntry::Fell { .. }
            | LogEntry::Saved { .. } => self.condition_text(name),
            LogEntry::SavedAsItLands { .. }
            | LogEntry::ResourceGained { .. }
            | LogEntry::ResourceSpent { .. }
            | LogEntry::SurgesGained { .. }
            | LogEntry::ResourceKept { .. } => self.resource_text(name),
            LogEntry::MaliceGained { .. }
            | LogEntry::CriticalHit { .. }
            | LogEntry::Healed { .. }
            | LogEntry::Strained { .. }
            | LogEntry::TemporaryStamina { .. }
            | LogEntry::BonusGained { .. }
            | LogEntry::Shielded { .. }
            | LogEntry::Retaliated { .. }
            | LogEntry::ObjectDamaged { .. }
            | LogEntry::ObjectDestroyed { .. }
            | LogEntry::GlassShattered { .. }
            | LogEntry::ItemFound { .. }
            | LogEntry::ItemSold { .. }
            | LogEntry::PenaltyStack { .. }
            | LogEntry::StrainEased { .. }
            | LogEntry::BonusEnded { .. } => self.stamina_text(name),
            LogEntry::ConcentrationSave { .. }
            | LogEntry::ConcentrationLost { .. }
            | LogEntry::AbilityPrepared { .. }
            | LogEntry::PreparedExpired { .. }
            | LogEntry::GlyphPlaced { .. }
            | LogEntry::GlyphTriggered { .. }
            | LogEntry::GlyphCommand { .. }
            | LogEntry::GlyphGone { .. }
            | LogEntry::SlowStarted { .. }
            | LogEntry::SlowResolves { .. }
            | LogEntry::SlowVoid { .. }
            | LogEntry::Summoned { .. }
            | LogEntry::SummonFailed { .. }
            | LogEntry::SummonVanished { .. }
            | LogEntry::SummonActs { .. } => self.sustained_text(name),
            LogEntry::Looted { .. }
            | LogEntry::ExperienceGained { .. }
            | LogEntry::AbilitySpent { .. }
            | LogEntry::AbilityRecovered { .. }
            | LogEntry::GrantedStrike { .. }
            | LogEntry::Bled { .. }
            | LogEntry::Died { .. }
            | LogEntry::Dying { .. }
            | LogEntry::Arrived { .. }
            | LogEntry::NoRoomToArrive { .. }
            | LogEntry::ZoneHeld { .. }
            | LogEntry::Survived { .. }
            | LogEntry::Escaped
            | LogEntry::Victory { .. } => self.outcome_text(name),
        }
    }

    /// The line of the round, the turn order and triggers, the phased ruleset's powers and attacks.
    fn order_text(&self, name: &dyn Fn(CreatureId) -> String) -> String {
        match self {
            LogEntry::RoundStarted { round } => format!("Round {round} begins."),
            LogEntry::RoundEnded { round } => format!("Round {round} ends."),
            LogEntry::TargetLost { creature, target } => format!(
                "{}'s ability finds no mark: {} is out of reach.",
                name(*creature),
                name(*target)
            ),
            LogEntry::Triggered { creature, event } => {
                format!("{} reacts ({}).", name(*creature), trigger_text(*event))
            }
            LogEntry::LetPass { creature, event } => format!(
                "{} lets it pass ({}).",
                name(*creature),
                trigger_text(*event)
            ),
            LogEntry::Initiative { order } => {
                let list: Vec<String> = order
                    .iter()
                    .map(|(c, n)| format!("{} {n}", name(*c)))
                    .collect();
                format!("Initiative (lowest moves first): {}.", list.join(", "))
            }
            LogEntry::StageStarted { stage } => match stage {
                crate::phased::Stage::Movement => {
                    "Movement phase: the lowest initiative moves first.".into()
                }
                crate::phased::Stage::Battle => {
                    "Battle phase: the highest initiative acts first.".into()
                }
            },
            LogEntry::Seized { creature } => format!(
                "{} seizes the initiative: it acts last in battle, and attacks against it gain advantage this round.",
                name(*creature)
            ),
            LogEntry::Power { creature, power } => {
                format!("{} uses {}.", name(*creature), power.name())
            }
            LogEntry::Attack2d6 {
                target,
                dice,
                extra,
                attack,
                total,
                defense,
                tier,
            } => {
                let extra = match extra {
                    Some((sides, value, keep)) => format!(
                        " and d{sides} {value} (keep the two {})",
                        match keep {
                            crate::phased::Keep::Highest => "highest",
                            crate::phased::Keep::Lowest => "lowest",
                        }
                    ),
                    None => String::new(),
                };
                let result = match tier {
                    Some(t) => format!("hit, tier {}", t.number()),
                    None => "miss".into(),
                };
                format!(
                    "Against {}: 2d6 {}+{}{extra}, ATK {attack:+}: {total} vs DEF {defense}: {result}.",
                    name(*target),
                    dice[0],
                    dice[1]
                )
            }
            _ => unreachable!("LogEntry::line sends only these here"),
        }
    }

    /// The line of the board: objects' parts, delays, hiding, grabs, squads, walls and auras.
    fn board_text(&self, name: &dyn Fn(CreatureId) -> String) -> String {
        match self {
            LogEntry::EndPhase => "End phase: saves on 2d6.".into(),
            LogEntry::ComponentSave {
                creature,
                ability,
                components,
                roll,
                success,
            } => {
                let what: Vec<&str> = components.iter().map(|c| c.name()).collect();
                format!(
                    "{}'s {ability} is shaken ({}): save {roll}, {}.",
                    name(*creature),
                    what.join(", "),
                    if *success { "it holds" } else { "it fails" }
                )
            }
            LogEntry::ComponentsMissing { creature, missing } => format!(
                "{} lacks {missing} component{}: a bane each.",
                name(*creature),
                if *missing == 1 { "" } else { "s" }
            ),
            LogEntry::ComponentLost { creature, ability } => {
                format!("{}'s {ability} ends: a component broke.", name(*creature))
            }
            LogEntry::EffectEnded { creature, ability } => {
                format!("{} ends {ability}'s effects.", name(*creature))
            }
            LogEntry::DelayedTurn { creature, behind } => {
                format!("{} delays until after {}.", name(*creature), name(*behind))
            }
            LogEntry::OrderStands { side } => format!(
                "The {} let the order stand: nobody seizes the initiative.",
                side_words(*side)
            ),
            LogEntry::Delayed { side } => format!(
                "The {} delay: the other side picks first.",
                side_words(*side)
            ),
            LogEntry::Hidden { creature } => format!("{} hides.", name(*creature)),
            LogEntry::Revealed { creature } => format!("{} is no longer hidden.", name(*creature)),
            LogEntry::Dragged { target, by, to } => {
                format!("{} drags {} along to {to}.", name(*by), name(*target))
            }
            LogEntry::Released { target } => format!("{} is no longer grabbed.", name(*target)),
            LogEntry::SquadLoss { squad, pool_left } => {
                format!("A minion of squad {squad} falls ({pool_left} stamina left in the pool).")
            }
            LogEntry::WallRaised { creature, squares } => format!(
                "{} raises a wall of {} squares.",
                name(*creature),
                squares.len()
            ),
            LogEntry::WallCrumbled { creature, .. } => {
                format!("{}'s wall crumbles.", name(*creature))
            }
            LogEntry::AuraEnded { creature, ability } => {
                format!("{}'s {ability} fades.", name(*creature))
            }
            LogEntry::AuraPulse {
                creature,
                name: ability,
                ..
            } => {
                format!(
                    "{}'s {ability} washes over its surroundings.",
                    name(*creature)
                )
            }
            _ => unreachable!("LogEntry::line sends only these here"),
        }
    }

    /// The line of turns, movement, abilities used, rolls, tiers and damage.
    fn action_text(&self, name: &dyn Fn(CreatureId) -> String) -> String {
        match self {
            LogEntry::TurnStarted { name, .. } => format!("{name}'s turn."),
            LogEntry::Teleported { creature, to, .. } => {
                format!("{} teleports to {to}.", name(*creature))
            }
            LogEntry::TurnEnded { name, .. } => format!("{name} ends their turn."),
            LogEntry::Moved {
                creature,
                path,
                shift,
            } => format!(
                "{} {} {} square{} to {}.",
                name(*creature),
                if *shift { "shifts" } else { "moves" },
                path.len().saturating_sub(1),
                if path.len() == 2 { "" } else { "s" },
                path.last().copied().unwrap_or_default()
            ),
            LogEntry::AbilityUsed {
                creature,
                name: ability,
                ..
            } => {
                format!("{} uses {ability}.", name(*creature))
            }
            LogEntry::AreaPlaced {
                creature, targets, ..
            } => format!(
                "{}'s area reaches {} creature{}.",
                name(*creature),
                targets.len(),
                if targets.len() == 1 { "" } else { "s" }
            ),
            LogEntry::Rolled {
                creature,
                naturals,
                characteristic,
            } => format!(
                "{} rolls {} + {} ({characteristic:+}).",
                name(*creature),
                naturals[0],
                naturals[1]
            ),
            LogEntry::TierResult {
                target,
                total,
                tier,
                edges,
                banes,
                critical,
            } => {
                let mut s = format!("Against {}: {total}, tier {}", name(*target), tier.number());
                if *edges > 0 {
                    s += &format!(", {edges} edge{}", if *edges > 1 { "s" } else { "" });
                }
                if *banes > 0 {
                    s += &format!(", {banes} bane{}", if *banes > 1 { "s" } else { "" });
                }
                if *critical {
                    s += ", critical hit";
                }
                s + "."
            }
            LogEntry::Damage {
                target,
                amount,
                damage_type,
                stamina_left,
                absorbed,
                by,
            } => {
                let t = damage_type.word();
                let t = if t.is_empty() {
                    String::new()
                } else {
                    format!("{t} ")
                };
                let from = match by {
                    Some(b) if b != target => format!(" from {}", name(*b)),
                    _ => String::new(),
                };
                let soaked = match *absorbed {
                    0 => String::new(),
                    a if a >= *amount => "all of it off temporary stamina; ".to_string(),
                    a => format!("{a} of it off temporary stamina; "),
                };
                format!(
                    "{} takes {amount} {t}damage{from} ({soaked}{stamina_left} stamina left).",
                    name(*target)
                )
            }
            _ => unreachable!("LogEntry::line sends only these here"),
        }
    }

    /// The line of conditions, forced movement, falls and saving throws.
    fn condition_text(&self, name: &dyn Fn(CreatureId) -> String) -> String {
        match self {
            LogEntry::ConditionGained {
                target,
                condition,
                duration,
            } => {
                format!("{} is {condition} ({duration}).", name(*target))
            }
            LogEntry::ConditionResisted { target, condition } => {
                format!("{} resists being {condition}.", name(*target))
            }
            LogEntry::ConditionEnded { target, condition } => {
                format!("{} is no longer {condition}.", name(*target))
            }
            LogEntry::ForceMoved { target, path } => format!(
                "{} is moved {} square{} to {}.",
                name(*target),
                path.len(),
                if path.len() == 1 { "" } else { "s" },
                path.last().copied().unwrap_or_default()
            ),
            LogEntry::Collision {
                target,
                other,
                damage,
            } => match other {
                Some(o) => format!(
                    "{} slams into {} ({damage} damage each).",
                    name(*target),
                    name(*o)
                ),
                None => format!(
                    "{} slams into an obstacle ({damage} damage).",
                    name(*target)
                ),
            },
            LogEntry::Fell {
                target,
                depth,
                damage,
            } => {
                format!(
                    "{} falls {depth} squares ({damage} damage) and is prone.",
                    name(*target)
                )
            }
            LogEntry::Saved {
                creature,
                roll,
                condition,
                success,
            } => {
                if *roll == 0 {
                    format!(
                        "{} can't shake off {condition}: a critical hit imposed it.",
                        name(*creature)
                    )
                } else {
                    format!(
                        "{} saves against {condition}: {roll}, {}.",
                        name(*creature),
                        if *success { "success" } else { "failure" }
                    )
                }
            }
            _ => unreachable!("LogEntry::line sends only these here"),
        }
    }

    /// The line of saves as a creature lands, Heroic Resources and surges.
    fn resource_text(&self, name: &dyn Fn(CreatureId) -> String) -> String {
        match self {
            LogEntry::SavedAsItLands {
                creature,
                roll,
                condition,
                success,
            } => match roll {
                None => format!(
                    "{} shrugs off {condition}: the roll was a critical failure.",
                    name(*creature)
                ),
                Some(0) => format!(
                    "{} can't save against {condition}: a critical hit.",
                    name(*creature)
                ),
                Some(roll) => format!(
                    "{} saves against {condition} as it lands: {roll}, {}.",
                    name(*creature),
                    if *success { "success" } else { "failure" }
                ),
            },
            LogEntry::ResourceGained {
                creature,
                resource,
                amount,
                total,
            } => {
                format!("{} gains {amount} {resource} ({total}).", name(*creature))
            }
            LogEntry::ResourceSpent {
                creature,
                resource,
                amount,
                total,
            } => {
                format!(
                    "{} spends {amount} {resource} ({total} left).",
                    name(*creature)
                )
            }
            LogEntry::SurgesGained {
                creature,
                amount,
                total,
            } => {
                format!(
                    "{} gains {amount} surge{} ({total}).",
                    name(*creature),
                    if *amount == 1 { "" } else { "s" }
                )
            }
            LogEntry::ResourceKept {
                creature,
                resource,
                amount,
                total,
            } => format!(
                "{} keeps {amount} {resource}: every target resisted ({total}).",
                name(*creature)
            ),
            _ => unreachable!("LogEntry::line sends only these here"),
        }
    }

    /// The line of Malice, critical hits, stamina, bonuses, objects and items.
    fn stamina_text(&self, name: &dyn Fn(CreatureId) -> String) -> String {
        match self {
            LogEntry::MaliceGained { amount, total } => {
                format!("The Director gains {amount} Malice ({total}).")
            }
            LogEntry::CriticalHit { creature } => {
                format!(
                    "Critical hit! {} takes another main action.",
                    name(*creature)
                )
            }
            LogEntry::Healed {
                creature,
                amount,
                stamina,
            } => format!("{} regains {amount} stamina ({stamina}).", name(*creature)),
            LogEntry::Strained { creature, amount } => {
                format!("{} pays for the strain: {amount} damage.", name(*creature))
            }
            LogEntry::TemporaryStamina { creature, amount } => {
                format!("{} has {amount} temporary stamina.", name(*creature))
            }
            LogEntry::BonusGained { creature, bonus } => {
                format!("{} gains {bonus}.", name(*creature))
            }
            LogEntry::Shielded {
                creature,
                prevented,
            } => format!("{}'s shield stops {prevented} damage.", name(*creature)),
            LogEntry::Retaliated {
                creature,
                attacker,
                amount,
            } => format!(
                "{} retaliates against {} for {amount}.",
                name(*creature),
                name(*attacker)
            ),
            LogEntry::ObjectDamaged {
                by,
                at,
                damage,
                left,
            } => format!(
                "{} deals {damage} damage to the object at {at} ({left} stamina left).",
                name(*by)
            ),
            LogEntry::ObjectDestroyed { by, at } => {
                format!("{} destroys the object at {at}.", name(*by))
            }
            LogEntry::GlassShattered { by, at } => {
                format!("{}'s strike shatters the glass at {at}.", name(*by))
            }
            LogEntry::ItemFound { creature, item } => {
                format!("{} finds {item} in the treasure.", name(*creature))
            }
            LogEntry::ItemSold {
                creature,
                item,
                coins,
            } => format!(
                "{} finds another {item} and sells it for {coins} coins.",
                name(*creature)
            ),
            LogEntry::PenaltyStack {
                creature,
                penalty,
                stacks,
            } => format!(
                "{} is {} ({stacks} stack{}).",
                name(*creature),
                penalty.name(),
                if *stacks == 1 { "" } else { "s" }
            ),
            LogEntry::StrainEased { creature } => {
                format!("{} is no longer straining.", name(*creature))
            }
            LogEntry::BonusEnded { creature, ability } => {
                format!("{}'s {ability} runs out.", name(*creature))
            }
            _ => unreachable!("LogEntry::line sends only these here"),
        }
    }

    /// The line of concentration, prepared abilities, glyphs, slow actions and summons.
    fn sustained_text(&self, name: &dyn Fn(CreatureId) -> String) -> String {
        match self {
            LogEntry::ConcentrationSave {
                creature,
                ability,
                roll,
                success,
            } => format!(
                "{} keeps concentrating on {ability}? {roll}, {}.",
                name(*creature),
                if *success { "yes" } else { "no" }
            ),
            LogEntry::ConcentrationLost { creature, ability } => {
                format!("{} loses concentration: {ability} ends.", name(*creature))
            }
            LogEntry::AbilityPrepared { creature, ability } => {
                format!("{} prepares {ability}.", name(*creature))
            }
            LogEntry::PreparedExpired { creature, ability } => {
                format!("{}'s prepared {ability} expires.", name(*creature))
            }
            LogEntry::GlyphPlaced {
                creature,
                name: glyph,
                squares,
            } => format!(
                "{} inscribes {} {glyph} glyph{}.",
                name(*creature),
                squares.len(),
                if squares.len() == 1 { "" } else { "s" }
            ),
            LogEntry::GlyphTriggered {
                name: glyph,
                at,
                creature,
            } => match creature {
                Some(c) => format!("A {glyph} glyph at {at} flares under {}.", name(*c)),
                None => format!("A {glyph} glyph at {at} flares."),
            },
            LogEntry::GlyphCommand {
                name: glyph,
                at,
                command,
            } => format!("The {glyph} glyph at {at} shines: it sends \"{command}\"."),
            LogEntry::GlyphGone {
                name: glyph,
                at,
                rounds,
            } => match rounds {
                None => format!("The {glyph} glyph at {at} is dismissed."),
                Some(n) => format!("The {glyph} glyph at {at} goes dark for {n} round(s)."),
            },
            LogEntry::SlowStarted { creature, ability } => format!(
                "{} begins {ability}: it takes effect at the start of their next turn.",
                name(*creature)
            ),
            LogEntry::SlowResolves { creature, ability } => {
                format!("{}'s {ability} takes effect.", name(*creature))
            }
            LogEntry::SlowVoid {
                creature,
                ability,
                why,
            } => format!("{}'s {ability} fails: {why}.", name(*creature)),
            LogEntry::Summoned { name, at, .. } => format!("{name} appears at {at}."),
            LogEntry::SummonFailed {
                creature,
                name: what,
            } => format!("{} has no room to summon a {what}.", name(*creature)),
            LogEntry::SummonVanished { creature } => {
                format!("{} vanishes with its summoner.", name(*creature))
            }
            LogEntry::SummonActs { creature } => {
                format!("{} acts on its own.", name(*creature))
            }
            _ => unreachable!("LogEntry::line sends only these here"),
        }
    }

    /// The line of loot, experience, bleeding, deaths, arrivals and how the fight ends.
    fn outcome_text(&self, name: &dyn Fn(CreatureId) -> String) -> String {
        match self {
            LogEntry::Looted {
                creature,
                coins,
                total,
                ..
            } => format!(
                "{} loots {coins} coin{} ({total} in all).",
                name(*creature),
                if *coins == 1 { "" } else { "s" }
            ),
            LogEntry::ExperienceGained {
                creature,
                amount,
                total,
            } => format!(
                "{} gains {amount} experience ({total} in all).",
                name(*creature)
            ),
            LogEntry::AbilitySpent { creature, ability } => {
                format!("{}'s {ability} is spent.", name(*creature))
            }
            LogEntry::AbilityRecovered {
                creature,
                ability,
                item,
            } => format!(
                "{} {} {ability}.",
                name(*creature),
                if *item { "refreshes" } else { "recovers" }
            ),
            LogEntry::GrantedStrike { creature, target } => format!(
                "{} makes a free strike against {}.",
                name(*creature),
                name(*target)
            ),
            LogEntry::Bled {
                creature,
                amount,
                stamina_left,
            } => format!(
                "{} bleeds for {amount} ({stamina_left} stamina left).",
                name(*creature)
            ),
            LogEntry::Died {
                name: who,
                by: Some(by),
                kill_for: Some(owner),
                ..
            } if by != owner => format!(
                "{who} dies: felled by {}, a kill for {}.",
                name(*by),
                name(*owner)
            ),
            LogEntry::Died { name, .. } => format!("{name} dies."),
            LogEntry::Dying { name, .. } => format!("{name} is dying."),
            LogEntry::Arrived { name, at, .. } => format!("{name} arrives at {at}."),
            LogEntry::NoRoomToArrive { name } => {
                format!("{name} finds no room to arrive.")
            }
            LogEntry::ZoneHeld { held, needed } => {
                format!("The heroes hold the zone ({held} of {needed} rounds).")
            }
            LogEntry::Survived { rounds } => format!("The heroes survived {rounds} rounds."),
            LogEntry::Escaped => "The heroes escape.".to_string(),
            LogEntry::Victory { side } => match side {
                Side::Heroes => "The heroes are victorious.".to_string(),
                Side::Director => "The heroes are defeated.".to_string(),
            },
            _ => unreachable!("LogEntry::line sends only these here"),
        }
    }
}

/// A side as the log's sentences name it: "heroes", "Director's creatures".
fn side_words(side: Side) -> &'static str {
    match side {
        Side::Heroes => "heroes",
        Side::Director => "Director's creatures",
    }
}
