//! A scenario's steps turned into commands, and its expectations read
//! against the encounter.

use super::*;

pub(super) fn fail(step: usize, what: &str, detail: String) -> Check {
    Check {
        step,
        what: what.into(),
        passed: false,
        detail,
    }
}

pub(super) fn pos(p: (i32, i32)) -> Pos {
    Pos::new(p.0, p.1)
}

/// Turn a named step into an engine command.
pub(super) fn command(
    step: &ScenarioStep,
    id: &dyn Fn(&str) -> Option<CreatureId>,
) -> Result<Command, String> {
    let who = |n: &str| id(n).ok_or_else(|| format!("no creature called `{n}`"));
    let many = |ns: &[String]| ns.iter().map(|n| who(n)).collect::<Result<Vec<_>, _>>();
    Ok(match step {
        ScenarioStep::Start(n) => Command::StartTurn { creature: who(n)? },
        ScenarioStep::End(n) => Command::EndTurn { creature: who(n)? },
        ScenarioStep::Move(n, path) => Command::Move {
            creature: who(n)?,
            path: path.iter().map(|&p| pos(p)).collect(),
        },
        ScenarioStep::Shift(n, to) => Command::Shift {
            creature: who(n)?,
            to: pos(*to),
        },
        ScenarioStep::Power(n, power, path) => Command::Movement {
            creature: who(n)?,
            power: *power,
            path: path.iter().map(|&p| pos(p)).collect(),
        },
        ScenarioStep::Use(n, ability, targets) => {
            Command::use_ability(who(n)?, ability, many(targets)?)
        }
        ScenarioStep::UseAtTier(n, ability, targets, tier) => Command::UseAbility {
            creature: who(n)?,
            ability: ability.clone(),
            targets: many(targets)?,
            surges: 0,
            potency_surges: Vec::new(),
            spend: 0,
            tier: Some(Tier::from_number(*tier).ok_or("a tier is 1, 2 or 3")?),
        },
        ScenarioStep::UseArea(n, ability, placement) => Command::UseAreaAbility {
            creature: who(n)?,
            ability: ability.clone(),
            placement: placement.clone(),
            surges: 0,
            potency_surges: Vec::new(),
            spend: 0,
            tier: None,
            links: None,
        },
        ScenarioStep::UseOnObject(n, ability, (x, y)) => Command::UseOnObject {
            creature: who(n)?,
            ability: ability.clone(),
            at: Pos::new(*x, *y),
            surges: 0,
            tier: None,
        },
        ScenarioStep::UseWith(n, ability, targets, spending) => Command::UseAbility {
            creature: who(n)?,
            ability: ability.clone(),
            targets: many(targets)?,
            surges: spending.surges,
            potency_surges: many(&spending.potency)?,
            spend: spending.spend,
            tier: None,
        },
        ScenarioStep::UseAreaWith(n, ability, placement, spending) => Command::UseAreaAbility {
            creature: who(n)?,
            ability: ability.clone(),
            placement: placement.clone(),
            surges: spending.surges,
            potency_surges: many(&spending.potency)?,
            spend: spending.spend,
            tier: None,
            links: spending
                .links
                .as_ref()
                .map(|l| l.iter().map(|&(x, y)| Pos::new(x, y)).collect()),
        },
        ScenarioStep::FreeStrike(n, t) => Command::FreeStrike {
            creature: who(n)?,
            target: who(t)?,
        },
        ScenarioStep::Charge(n, path, t) => Command::Charge {
            creature: who(n)?,
            path: path.iter().map(|&p| pos(p)).collect(),
            target: who(t)?,
            ability: None,
        },
        ScenarioStep::ChargeWith(n, path, t, a) => Command::Charge {
            creature: who(n)?,
            path: path.iter().map(|&p| pos(p)).collect(),
            target: who(t)?,
            ability: Some(a.clone()),
        },
        ScenarioStep::StandUp(n) => Command::StandUp { creature: who(n)? },
        ScenarioStep::CatchBreath(n) => Command::CatchBreath { creature: who(n)? },
        ScenarioStep::EscapeGrab(n) => Command::EscapeGrab { creature: who(n)? },
        ScenarioStep::Release(n) => Command::Release { creature: who(n)? },
        ScenarioStep::EndEffect(n, ability) => Command::EndEffect {
            creature: who(n)?,
            ability: ability.clone(),
        },
        ScenarioStep::Defend(n) => Command::Defend { creature: who(n)? },
        ScenarioStep::Hide(n) => Command::Hide { creature: who(n)? },
        ScenarioStep::Delay(n) => Command::Delay { creature: who(n)? },
        ScenarioStep::React(n, ability, targets) => Command::Answer {
            creature: who(n)?,
            reaction: Some(crate::encounter::state::work::Reaction {
                ability: ability.clone(),
                targets: many(targets)?,
            }),
        },
        ScenarioStep::Decline(n) => Command::Answer {
            creature: who(n)?,
            reaction: None,
        },
        ScenarioStep::Dice(_) | ScenarioStep::Expect(_) | ScenarioStep::Refused(..) => {
            return Err("not a command".into());
        }
    })
}

pub(super) fn expect(
    e: &mut Encounter,
    x: &Expectation,
    names: &BTreeMap<String, CreatureId>,
    step: usize,
) -> Check {
    let view = |e: &mut Encounter, n: &str| names.get(n).and_then(|&id| e.creature(id));
    let (passed, detail) = match x {
        // A squad minion's stamina is its squad's pool (docs/rules.md#minions),
        // as `--json`, the window and the card show it: one number everywhere.
        Expectation::Stamina(n, want) => match view(e, n) {
            Some(c) => (
                c.shown_stamina().0 == *want,
                format!("stamina {}", c.shown_stamina().0),
            ),
            None => (false, format!("no creature `{n}`")),
        },
        Expectation::At(n, p) => match view(e, n) {
            Some(c) => (c.space.pos == pos(*p), format!("at {}", c.space.pos)),
            None => (false, format!("no creature `{n}`")),
        },
        Expectation::Has(n, k) | Expectation::Lacks(n, k) => match view(e, n) {
            Some(c) => {
                let has = c.conditions.has(*k);
                let want = matches!(x, Expectation::Has(..));
                (
                    has == want,
                    format!("conditions {:?}", c.conditions.kinds()),
                )
            }
            None => (false, format!("no creature `{n}`")),
        },
        Expectation::Tier(n, t) => {
            let id = names.get(n).copied();
            let last = e.log().iter().rev().find_map(|l| match l {
                LogEntry::TierResult { target, tier, .. } if Some(*target) == id => {
                    Some(tier.number())
                }
                // Phased 2d6: a miss shows as tier 0.
                LogEntry::Attack2d6 { target, tier, .. } if Some(*target) == id => {
                    Some(tier.map_or(0, |t| t.number()))
                }
                _ => None,
            });
            (last == Some(*t), format!("last tier {last:?}"))
        }
        Expectation::Resource(n, want) => match view(e, n).and_then(|c| c.heroic) {
            Some(h) => (h.amount == *want, format!("{} {}", h.resource, h.amount)),
            None => (false, format!("`{n}` has no heroic resource")),
        },
        Expectation::Surges(n, want) => match view(e, n).and_then(|c| c.heroic) {
            Some(h) => (h.surges == *want, format!("surges {}", h.surges)),
            None => (false, format!("`{n}` has no surges")),
        },
        Expectation::Malice(want) => (e.malice() == *want, format!("malice {}", e.malice())),
        Expectation::Pool(squad, want) => match e.squad(*squad) {
            Some(p) => (p.pool == *want, format!("pool {} of {}", p.pool, p.max)),
            None => (false, format!("no squad {squad}")),
        },
        Expectation::Object((x, y), want) => {
            let left = e.object_stamina(Pos::new(*x, *y)).unwrap_or(0);
            (left == *want, format!("object stamina {left}"))
        }
        Expectation::Round(want) => (e.flow().round == *want, format!("round {}", e.flow().round)),
        Expectation::Log(text) => {
            let lines = log_lines(e);
            let found = lines.iter().any(|l| l.contains(text.as_str()));
            (
                found,
                if found {
                    "found".into()
                } else {
                    format!("not in the log: {lines:?}")
                },
            )
        }
        Expectation::Dead(n) => match view(e, n) {
            Some(c) => (
                c.stamina.is_dead(),
                format!("stamina {}", c.stamina.current),
            ),
            None => (false, format!("no creature `{n}`")),
        },
        Expectation::Winner(side) => (
            e.outcome() == Some(*side),
            format!("outcome {:?}", e.outcome()),
        ),
        Expectation::Undecided => (e.outcome().is_none(), format!("outcome {:?}", e.outcome())),
        Expectation::Prompted(n) => {
            let asked = e.prompt().map(|p| p.creature);
            (
                asked.is_some() && asked == names.get(n).copied(),
                format!("prompt {:?}", e.prompt()),
            )
        }
        Expectation::NoPrompt => (e.prompt().is_none(), format!("prompt {:?}", e.prompt())),
        Expectation::Hidden(n, want) => match view(e, n) {
            Some(c) => (c.stance.hidden == *want, format!("{:?}", c.stance)),
            None => (false, format!("no creature `{n}`")),
        },
        Expectation::Experience(n, want) => match view(e, n) {
            Some(c) => (
                c.progress.experience == *want,
                format!("experience {}", c.progress.experience),
            ),
            None => (false, format!("no creature `{n}`")),
        },
    };
    Check {
        step,
        what: format!("{x:?}"),
        passed,
        detail,
    }
}

/// The log as readable lines.
pub fn log_lines(e: &mut Encounter) -> Vec<String> {
    let names: BTreeMap<CreatureId, String> =
        e.creatures().into_iter().map(|c| (c.id, c.name)).collect();
    let name = |id: CreatureId| names.get(&id).cloned().unwrap_or_else(|| id.to_string());
    e.log().iter().map(|l| l.line(&name)).collect()
}
