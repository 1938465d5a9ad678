//! What a lasting ability leaves behind: a glyph's make-up
//! (docs/rules.md#glyphs) and an aura's (docs/rules.md#aura).

use serde::{Deserialize, Serialize};

use super::TierLine;

/// A glyph's make-up: its name and glyph abilities (docs/rules.md#glyphs: "Each Glyphic
/// Spell has a set of Glyph Abilities that can be given to the Glyph").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GlyphSpec {
    pub name: String,
    pub abilities: Vec<GlyphAbility>,
}

/// What sets a glyph ability off.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum GlyphTrigger {
    /// A creature the glyph works against enters its square.
    Enters,
    /// The glyph receives this glyph command.
    Command(String),
}

/// What a glyph does with itself after a glyph ability.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum GlyphAfter {
    #[default]
    Stays,
    /// docs/rules.md#glyphs "Permanently dismiss this Glyph."
    Dismissed,
    /// docs/rules.md#glyphs: "Temporarily disable this Glyph for a specified amount of
    /// time": this many rounds.
    Disabled(u32),
}

/// One glyph ability: a reaction of the glyph (docs/rules.md#glyphs: glyphs "have one
/// Beat per Round that can be used to perform Reactions").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GlyphAbility {
    pub on: GlyphTrigger,
    /// Damage and conditions in tier notation, on the creature that entered
    /// (radius 0) or on every creature it works against within `radius`.
    #[serde(default)]
    pub effect: Option<TierLine>,
    #[serde(default)]
    pub radius: u32,
    /// A glyph command it sends: the glyph and those connected to it receive
    /// it at the start of the next round.
    #[serde(default)]
    pub send: Option<String>,
    #[serde(default)]
    pub then: GlyphAfter,
}

/// When a lasting aura acts on the creatures it reaches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum AuraTiming {
    /// On each eligible creature that starts its turn in the aura.
    StartOfTurnInside,
    /// On each eligible creature that ends its turn in the aura.
    EndOfTurnInside,
    /// On everyone eligible in it, at the start of the user's turn.
    UserTurnStart,
    /// On everyone eligible in it, at the end of the user's turn.
    UserTurnEnd,
    /// On an eligible creature that moves into it (once per move).
    Enters,
}

/// How long an aura lasts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum AuraLasts {
    /// Until the end of the user's next turn.
    UntilEndOfNextTurn,
    /// Until the encounter ends (or the user falls).
    #[default]
    EndOfEncounter,
}

/// A lasting aura: when it acts, its effect in tier notation, how long it lasts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuraSpec {
    pub when: AuraTiming,
    pub effect: TierLine,
    #[serde(default)]
    pub lasts: AuraLasts,
    /// docs/rules.md#potency-adjustments: added to the potencies of the
    /// abilities an enemy of the aura's user uses while inside it (a
    /// null's field: -1).
    #[serde(default)]
    pub enemy_potency: i32,
}
