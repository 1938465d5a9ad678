//! What floats: [`floats_for`] turns the log entries of one command into
//! floats, a tier result and its damage on one line, and [`lines_for`]
//! into the lines from each roll's user to its targets.

use skirmish_rules::encounter::LogEntry;
use skirmish_rules::stats::{CreatureId, DamageType};

/// Where a float appears.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FloatAt {
    Creature(CreatureId),
}

/// How a float looks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FloatStyle {
    /// A tier result, with or without damage.
    Tier,
    /// A critical hit: larger and gold.
    Critical,
    /// Damage outside a tier (collisions, falls, auras, bleeding).
    Damage,
    /// A condition taking hold.
    Condition,
    /// A condition resisted, ending, or a save.
    Quiet,
    /// Stamina regained, resources gained.
    Good,
    /// A creature falls.
    Defeat,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Float {
    pub at: FloatAt,
    pub text: String,
    pub style: FloatStyle,
}

fn damage_text(amount: i32, t: DamageType) -> String {
    match t {
        DamageType::Untyped => format!("{amount}"),
        t => format!("{amount} {}", format!("{t:?}").to_lowercase()),
    }
}

/// The floats for one command's log entries: a tier result and the damage
/// that follows it on the same target make one line ("Tier 2 · 8 holy").
pub fn floats_for(entries: &[LogEntry]) -> Vec<Float> {
    let mut out: Vec<Float> = Vec::new();
    // The index in `out` of each target's latest tier float, to join damage to.
    let mut open_tier: Vec<(CreatureId, usize)> = Vec::new();
    let on = |id: CreatureId| FloatAt::Creature(id);
    for e in entries {
        let float = match e {
            LogEntry::TierResult {
                target,
                tier,
                critical,
                ..
            } => {
                let n = *tier as u8;
                let (text, style) = if *critical {
                    (format!("CRITICAL · Tier {n}"), FloatStyle::Critical)
                } else {
                    (format!("Tier {n}"), FloatStyle::Tier)
                };
                open_tier.retain(|(t, _)| t != target);
                open_tier.push((*target, out.len()));
                Float {
                    at: on(*target),
                    text,
                    style,
                }
            }
            // Phased 2d6: a hit's tier, or a miss.
            LogEntry::Attack2d6 { target, tier, .. } => {
                open_tier.retain(|(t, _)| t != target);
                let text = match tier {
                    Some(t) => {
                        open_tier.push((*target, out.len()));
                        format!("Hit · Tier {}", *t as u8)
                    }
                    None => "Miss".into(),
                };
                Float {
                    at: on(*target),
                    text,
                    style: if tier.is_some() {
                        FloatStyle::Tier
                    } else {
                        FloatStyle::Quiet
                    },
                }
            }
            LogEntry::Damage {
                target,
                amount,
                damage_type,
                ..
            } => {
                if let Some(i) = open_tier
                    .iter()
                    .position(|(t, _)| t == target)
                    .map(|k| open_tier.remove(k).1)
                {
                    out[i].text =
                        format!("{} · {}", out[i].text, damage_text(*amount, *damage_type));
                    continue;
                }
                Float {
                    at: on(*target),
                    text: format!("-{}", damage_text(*amount, *damage_type)),
                    style: FloatStyle::Damage,
                }
            }
            LogEntry::ConditionGained {
                target, condition, ..
            } => Float {
                at: on(*target),
                text: condition.to_string().to_lowercase(),
                style: FloatStyle::Condition,
            },
            LogEntry::ConditionResisted { target, condition } => Float {
                at: on(*target),
                text: format!("resisted {}", condition.to_string().to_lowercase()),
                style: FloatStyle::Quiet,
            },
            LogEntry::ConditionEnded { target, condition } => Float {
                at: on(*target),
                text: format!("{} ends", condition.to_string().to_lowercase()),
                style: FloatStyle::Quiet,
            },
            LogEntry::Saved {
                creature,
                roll,
                success,
                ..
            } => Float {
                at: on(*creature),
                text: format!("save {roll}: {}", if *success { "made" } else { "failed" }),
                style: FloatStyle::Quiet,
            },
            LogEntry::SavedAsItLands {
                creature,
                roll,
                condition,
                success,
            } => Float {
                at: on(*creature),
                text: match roll {
                    Some(r) if *r > 0 => {
                        format!("save {r}: {}", if *success { "made" } else { "failed" })
                    }
                    _ if *success => format!("shrugs off {}", condition.to_string().to_lowercase()),
                    _ => "no save".to_string(),
                },
                style: FloatStyle::Quiet,
            },
            LogEntry::Collision { target, damage, .. } => Float {
                at: on(*target),
                text: format!("collision -{damage}"),
                style: FloatStyle::Damage,
            },
            LogEntry::Fell { target, damage, .. } => Float {
                at: on(*target),
                text: format!("fell -{damage}"),
                style: FloatStyle::Damage,
            },
            LogEntry::Bled {
                creature, amount, ..
            } => Float {
                at: on(*creature),
                text: format!("bleeding -{amount}"),
                style: FloatStyle::Damage,
            },
            LogEntry::Healed {
                creature, amount, ..
            } => Float {
                at: on(*creature),
                text: format!("+{amount} stamina"),
                style: FloatStyle::Good,
            },
            LogEntry::ResourceGained {
                creature,
                resource,
                amount,
                ..
            } => Float {
                at: on(*creature),
                text: format!("+{amount} {resource}"),
                style: FloatStyle::Good,
            },
            LogEntry::SurgesGained {
                creature, amount, ..
            } => Float {
                at: on(*creature),
                text: format!("+{amount} surge{}", if *amount == 1 { "" } else { "s" }),
                style: FloatStyle::Good,
            },
            LogEntry::CriticalHit { creature } => Float {
                at: on(*creature),
                text: "CRITICAL HIT · extra main action".into(),
                style: FloatStyle::Critical,
            },
            LogEntry::Died { creature, .. } => Float {
                at: on(*creature),
                text: "defeated".into(),
                style: FloatStyle::Defeat,
            },
            LogEntry::Dying { creature, .. } => Float {
                at: on(*creature),
                text: "dying".into(),
                style: FloatStyle::Defeat,
            },
            LogEntry::TargetLost { target, .. } => Float {
                at: on(*target),
                text: "out of reach".into(),
                style: FloatStyle::Quiet,
            },
            LogEntry::Triggered { creature, .. } => Float {
                at: on(*creature),
                text: "reacts!".into(),
                style: FloatStyle::Condition,
            },
            LogEntry::BonusGained { creature, bonus } => Float {
                at: on(*creature),
                text: bonus.split(" until").next().unwrap_or(bonus).to_string(),
                style: FloatStyle::Good,
            },
            LogEntry::Shielded {
                creature,
                prevented,
            } => Float {
                at: on(*creature),
                text: format!("shield stops {prevented}"),
                style: FloatStyle::Quiet,
            },
            LogEntry::Retaliated { creature, .. } => Float {
                at: on(*creature),
                text: "retaliates!".into(),
                style: FloatStyle::Condition,
            },
            LogEntry::Hidden { creature } => Float {
                at: on(*creature),
                text: "hidden".into(),
                style: FloatStyle::Quiet,
            },
            LogEntry::Revealed { creature } => Float {
                at: on(*creature),
                text: "revealed".into(),
                style: FloatStyle::Quiet,
            },
            _ => continue,
        };
        out.push(float);
    }
    out
}

/// Who each roll of one command's entries came from, and whom it reached:
/// a line is drawn between them for a moment.
pub fn lines_for(entries: &[LogEntry]) -> Vec<(CreatureId, CreatureId)> {
    let mut user = None;
    let mut out = Vec::new();
    for e in entries {
        match e {
            LogEntry::AbilityUsed { creature, .. } | LogEntry::Rolled { creature, .. } => {
                user = Some(*creature)
            }
            LogEntry::TierResult { target, .. } | LogEntry::Attack2d6 { target, .. } => {
                if let Some(u) = user
                    && u != *target
                    && !out.contains(&(u, *target))
                {
                    out.push((u, *target));
                }
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
pub(super) mod tests {
    use skirmish_rules::conditions::ConditionKind;
    use skirmish_rules::power_roll::Tier;

    use super::*;

    const A: CreatureId = CreatureId(1);
    const B: CreatureId = CreatureId(2);

    /// A tier result for `target` (shared with the placement tests).
    pub(in crate::client::floating) fn tier(
        target: CreatureId,
        tier: Tier,
        critical: bool,
    ) -> LogEntry {
        LogEntry::TierResult {
            target,
            total: 14,
            tier,
            edges: 0,
            banes: 0,
            critical,
        }
    }

    // Phased 2d6: a hit joins its damage ("Hit · Tier 2 · 6"); a miss says so.
    #[test]
    fn phased_hits_and_misses_float() {
        let attack = |target, tier| LogEntry::Attack2d6 {
            target,
            dice: [3, 4],
            extra: None,
            attack: 2,
            total: 9,
            defense: 7,
            tier,
        };
        let f = floats_for(&[
            attack(A, Some(Tier::Two)),
            damage(A, 6, DamageType::Untyped),
            attack(B, None),
        ]);
        let texts: Vec<&str> = f.iter().map(|f| f.text.as_str()).collect();
        assert_eq!(texts.len(), 2, "{texts:?}");
        assert!(
            texts[0].starts_with("Hit · Tier 2") && texts[0].contains('6'),
            "{texts:?}"
        );
        assert_eq!(texts[1], "Miss");
    }

    fn damage(target: CreatureId, amount: i32, damage_type: DamageType) -> LogEntry {
        LogEntry::Damage {
            target,
            amount,
            damage_type,
            stamina_left: 3,
            absorbed: 0,
            by: None,
        }
    }

    #[test]
    fn a_tier_and_its_damage_make_one_line_per_target() {
        let floats = floats_for(&[
            tier(A, Tier::Two, false),
            tier(B, Tier::One, false),
            damage(A, 8, DamageType::Holy),
            damage(B, 3, DamageType::Untyped),
            LogEntry::ConditionGained {
                target: A,
                condition: ConditionKind::Prone,
                duration: "EoT".into(),
            },
        ]);
        assert_eq!(
            floats,
            vec![
                Float {
                    at: FloatAt::Creature(A),
                    text: "Tier 2 · 8 holy".into(),
                    style: FloatStyle::Tier
                },
                Float {
                    at: FloatAt::Creature(B),
                    text: "Tier 1 · 3".into(),
                    style: FloatStyle::Tier
                },
                Float {
                    at: FloatAt::Creature(A),
                    text: "prone".into(),
                    style: FloatStyle::Condition
                },
            ]
        );
    }

    #[test]
    fn critical_hits_stand_out_and_later_damage_floats_alone() {
        let floats = floats_for(&[
            tier(A, Tier::Three, true),
            damage(A, 12, DamageType::Untyped),
            // A collision after the tier's damage: its own float.
            LogEntry::Collision {
                target: A,
                other: None,
                damage: 2,
            },
            damage(A, 2, DamageType::Untyped),
        ]);
        assert_eq!(floats[0].text, "CRITICAL · Tier 3 · 12");
        assert_eq!(floats[0].style, FloatStyle::Critical);
        assert_eq!(floats[1].text, "collision -2");
        assert_eq!(floats[2].text, "-2");
        assert_eq!(floats[2].style, FloatStyle::Damage);
    }

    #[test]
    fn resisted_and_ended_conditions_are_quiet() {
        let floats = floats_for(&[
            LogEntry::ConditionResisted {
                target: B,
                condition: ConditionKind::Slowed,
            },
            LogEntry::ConditionEnded {
                target: B,
                condition: ConditionKind::Dazed,
            },
            LogEntry::RoundStarted { round: 2 },
        ]);
        assert_eq!(floats.len(), 2);
        assert_eq!(floats[0].text, "resisted slowed");
        assert_eq!(floats[1].text, "dazed ends");
        assert!(floats.iter().all(|f| f.style == FloatStyle::Quiet));
    }

    #[test]
    fn a_real_fight_floats_every_tier_result() {
        let (_, e) = crate::client::greedy_keep_breach(5);
        let log = e.log();
        let floats = floats_for(log);
        let tiers = log
            .iter()
            .filter(|e| matches!(e, LogEntry::TierResult { .. }))
            .count();
        assert!(tiers > 0);
        assert_eq!(
            floats
                .iter()
                .filter(
                    |f| matches!(f.style, FloatStyle::Tier | FloatStyle::Critical)
                        && f.text.contains("Tier")
                )
                .count(),
            tiers
        );
    }

    #[test]
    fn each_roll_draws_a_line_from_its_user_to_each_target() {
        let used = |creature| LogEntry::AbilityUsed {
            creature,
            ability: "x".into(),
            name: "X".into(),
        };
        const C: CreatureId = CreatureId(3);
        let lines = lines_for(&[
            used(A),
            tier(B, Tier::Two, false),
            tier(C, Tier::One, false),
            // The same target again (a second roll on it) is one line.
            tier(B, Tier::One, false),
            used(C),
            tier(A, Tier::Three, true),
            // A roll on oneself draws nothing.
            used(B),
            tier(B, Tier::One, false),
        ]);
        assert_eq!(lines, vec![(A, B), (A, C), (C, A)]);
        assert!(lines_for(&[tier(B, Tier::One, false)]).is_empty());
    }
}
