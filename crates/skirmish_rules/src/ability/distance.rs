//! How far an ability reaches and whom it may affect: distances, the
//! area shapes, named distances, and target kinds (docs/rules.md#moving,
//! docs/rules.md#distances-and-targets).

use super::*;

/// docs/rules.md#moving "Distance" and "Area Abilities", and docs/rules.md#moving's shapes.
/// Content may also write docs/rules.md#named-distances (`Swinging`,
/// `Spitting`, `Throwing`, `Shooting`, `Sniping`), read as their squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "DistanceSpec")]
pub enum Distance {
    Melee(u32),
    Ranged(u32),
    MeleeOrRanged(u32, u32),
    /// "Self": the ability originates from and affects the user.
    Myself,
    Aura(u32),
    Burst(u32),
    Cube {
        size: u32,
        within: u32,
    },
    Line {
        length: u32,
        width: u32,
        within: u32,
    },
    Wall {
        squares: u32,
        within: u32,
    },
    /// docs/rules.md#moving: width at each step equals its distance from the origin.
    Cone {
        length: u32,
    },
    /// docs/rules.md#moving: every square within `radius` of a point within `within`.
    Sphere {
        radius: u32,
        within: u32,
    },
    /// docs/rules.md#shapes: a sphere's footprint on the grid with a height.
    Cylinder {
        radius: u32,
        height: u32,
        within: u32,
    },
    /// docs/rules.md#during-the-move: the user moves up to `squares` (a
    /// shift, if `shift`), and the ability affects each creature it may
    /// target that is within `reach` of the user somewhere along the move,
    /// from the square it first leaves to the last it enters.
    Sweep {
        squares: u32,
        reach: u32,
        shift: bool,
    },
}

fn one() -> u32 {
    1
}

/// [`Distance`] as content writes it: every variant, plus the named ones.
#[derive(Clone, Copy, Debug, Deserialize)]
enum DistanceSpec {
    Melee(u32),
    Ranged(u32),
    MeleeOrRanged(u32, u32),
    Myself,
    Aura(u32),
    Burst(u32),
    Cube {
        size: u32,
        within: u32,
    },
    Line {
        length: u32,
        width: u32,
        within: u32,
    },
    Wall {
        squares: u32,
        within: u32,
    },
    Cone {
        length: u32,
    },
    Sphere {
        radius: u32,
        within: u32,
    },
    Cylinder {
        radius: u32,
        height: u32,
        within: u32,
    },
    Sweep {
        squares: u32,
        #[serde(default = "one")]
        reach: u32,
        #[serde(default)]
        shift: bool,
    },
    Swinging,
    Spitting,
    Throwing,
    Shooting,
    Sniping,
}

/// docs/rules.md#distances-and-targets: the conversion chart, in squares.
pub const SWINGING: u32 = 1;
pub const SPITTING: u32 = 4;
pub const THROWING: u32 = 8;
pub const SHOOTING: u32 = 16;
pub const SNIPING: u32 = 200;

impl From<DistanceSpec> for Distance {
    fn from(d: DistanceSpec) -> Distance {
        use DistanceSpec as S;
        match d {
            S::Melee(x) => Distance::Melee(x),
            S::Ranged(x) => Distance::Ranged(x),
            S::MeleeOrRanged(m, r) => Distance::MeleeOrRanged(m, r),
            S::Myself => Distance::Myself,
            S::Aura(x) => Distance::Aura(x),
            S::Burst(x) => Distance::Burst(x),
            S::Cube { size, within } => Distance::Cube { size, within },
            S::Line {
                length,
                width,
                within,
            } => Distance::Line {
                length,
                width,
                within,
            },
            S::Wall { squares, within } => Distance::Wall { squares, within },
            S::Cone { length } => Distance::Cone { length },
            S::Sphere { radius, within } => Distance::Sphere { radius, within },
            S::Cylinder {
                radius,
                height,
                within,
            } => Distance::Cylinder {
                radius,
                height,
                within,
            },
            S::Sweep {
                squares,
                reach,
                shift,
            } => Distance::Sweep {
                squares,
                reach,
                shift,
            },
            // "Targets in Swinging Distance are close enough for melee combat."
            S::Swinging => Distance::Melee(SWINGING),
            S::Spitting => Distance::Ranged(SPITTING),
            S::Throwing => Distance::Ranged(THROWING),
            S::Shooting => Distance::Ranged(SHOOTING),
            S::Sniping => Distance::Ranged(SNIPING),
        }
    }
}

impl Distance {
    pub fn is_area(self) -> bool {
        !matches!(
            self,
            Distance::Melee(_)
                | Distance::Ranged(_)
                | Distance::MeleeOrRanged(..)
                | Distance::Myself
        )
    }

    /// How far away the ability reaches for targets or an area's origin.
    #[inline]
    pub fn reach(self) -> u32 {
        match self {
            Distance::Melee(x) | Distance::Ranged(x) => x,
            Distance::MeleeOrRanged(m, r) => m.max(r),
            Distance::Myself => 0,
            Distance::Aura(r) | Distance::Burst(r) => r,
            Distance::Cube { within, .. }
            | Distance::Line { within, .. }
            | Distance::Wall { within, .. }
            | Distance::Sphere { within, .. }
            | Distance::Cylinder { within, .. } => within,
            Distance::Cone { length } => length,
            Distance::Sweep { squares, reach, .. } => squares.saturating_add(reach),
        }
    }
}

impl std::fmt::Display for Distance {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Distance::Melee(x) => write!(f, "Melee {x}"),
            Distance::Ranged(x) => write!(f, "Ranged {x}"),
            Distance::MeleeOrRanged(m, r) => write!(f, "Melee {m} or ranged {r}"),
            Distance::Myself => write!(f, "Self"),
            Distance::Aura(x) => write!(f, "{x} aura"),
            Distance::Burst(x) => write!(f, "{x} burst"),
            Distance::Cube { size, within } => write!(f, "{size} cube within {within}"),
            Distance::Line {
                length,
                width,
                within,
            } => write!(f, "{length} x {width} line within {within}"),
            Distance::Wall { squares, within } => write!(f, "{squares} wall within {within}"),
            Distance::Cone { length } => write!(f, "{length} cone"),
            Distance::Sphere { radius, within } => write!(f, "{radius} sphere within {within}"),
            Distance::Cylinder {
                radius,
                height,
                within,
            } => write!(f, "{radius} x {height} cylinder within {within}"),
            Distance::Sweep {
                squares,
                reach,
                shift,
            } => {
                let how = if shift { "Shift" } else { "Move" };
                match reach {
                    1 => write!(f, "{how} {squares}, adjacent along the way"),
                    r => write!(f, "{how} {squares}, within {r} along the way"),
                }
            }
        }
    }
}

/// docs/rules.md#distances-and-targets: which kinds of thing an ability may affect.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TargetKind {
    Creature,
    Object,
    Enemy,
    Ally,
    /// "Self": the user.
    Myself,
}

/// How a creature stands to the one choosing targets: itself, one of its
/// side, or one of the other side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Relation {
    Myself,
    Ally,
    Enemy,
}

impl Relation {
    /// How `other` (of `other_side`) stands to `user` (of `user_side`).
    #[inline]
    pub fn of(
        user: crate::stats::CreatureId,
        user_side: crate::map::Side,
        other: crate::stats::CreatureId,
        other_side: crate::map::Side,
    ) -> Relation {
        if other == user {
            Relation::Myself
        } else if other_side != user_side {
            Relation::Enemy
        } else {
            Relation::Ally
        }
    }

    /// This relation as one bit (see [`TargetKind::relations`]).
    #[inline]
    pub fn bit(self) -> u8 {
        1 << self as u8
    }
}

impl TargetKind {
    /// docs/rules.md#distances-and-targets: whether a creature standing in `r` to the user
    /// may be a target of this kind: a creature is any but the user, an
    /// enemy one of the other side, an ally one of the user's own side
    /// but not the user, self the user; no creature is an object.
    #[inline]
    pub fn allows(self, r: Relation) -> bool {
        match self {
            TargetKind::Creature => r != Relation::Myself,
            TargetKind::Enemy => r == Relation::Enemy,
            TargetKind::Ally => r == Relation::Ally,
            TargetKind::Myself => r == Relation::Myself,
            TargetKind::Object => false,
        }
    }

    /// Whether any of `kinds` allows a creature standing in `r`.
    #[inline]
    pub fn any_allows(kinds: &[TargetKind], r: Relation) -> bool {
        kinds.iter().any(|k| k.allows(r))
    }

    /// The relations any of `kinds` allows, as [`Relation::bit`]s (for a
    /// loop over many creatures with the same kinds).
    pub fn relations(kinds: &[TargetKind]) -> u8 {
        [Relation::Myself, Relation::Ally, Relation::Enemy]
            .into_iter()
            .filter(|&r| TargetKind::any_allows(kinds, r))
            .fold(0, |bits, r| bits | r.bit())
    }
}

/// docs/rules.md#distances-and-targets: how many and which kinds. `count: None` is "each" in the area.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Target {
    #[serde(default)]
    pub count: Option<u32>,
    pub kinds: Vec<TargetKind>,
    /// docs/rules.md#creature-tags: "Some Abilities will only affect
    /// certain types of creatures": a creature must bear one of these
    /// tags (none: any creature).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
}

impl Target {
    /// Whether a creature bearing `tags` is of a kind this allows.
    pub fn tags_allow(&self, tags: &[String]) -> bool {
        self.tags.is_empty()
            || self
                .tags
                .iter()
                .any(|t| tags.iter().any(|x| x.eq_ignore_ascii_case(t)))
    }
}
