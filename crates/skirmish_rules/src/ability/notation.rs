//! The tier notation parser.
//!
//! Authors write tier outcomes as the rules print them (docs/rules.md#turn-order "Abilities
//! With Damage and Effects", docs/rules.md#turn-order): damage first, then effects, separated
//! by semicolons:
//!
//! ```text
//! 6 + M damage; push 2
//! 3 + I holy damage; A < WEAK, prone
//! 9 + M or A damage; M < STRONG, restrained (save ends)
//! 2 damage; slowed (EoT)
//! 5 fire damage; pull 3; I < AVERAGE, frightened (save ends)
//! ```
//!
//! A segment that starts like a typed effect (a number, a potency `X <`,
//! push/pull/slide/vertical, a condition word, or `gain`) must parse fully;
//! anything else is kept as free text. Errors carry the byte offset of the
//! fragment that could not be read, so content loading can name the file,
//! line and column.

use serde::{Deserialize, Serialize};

use crate::conditions::{ConditionKind, Duration};
use crate::stats::{Characteristic, DamageType, PotencyStrength};

/// The potency a condition or effect is gated by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PotencyValue {
    /// A strength, turned into a number from the user's highest characteristic.
    Strength(PotencyStrength),
    /// A printed number (monsters' stat blocks print these).
    Fixed(i32),
}

/// `A < WEAK`: the characteristic the target resists with, and the potency.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PotencyCheck {
    pub characteristic: Characteristic,
    pub value: PotencyValue,
}

pub use crate::map::forced::ForcedKind;

/// docs/rules.md#shield's defensive bonuses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BonusKind {
    /// "Shield X": each attack's damage against the bearer is X less.
    Shield(u32),
    /// "Retaliate X" ("Range Y"): X damage to each attacker within `range`
    /// (adjacent: 1) after its attack.
    Retaliate { amount: u32, range: u32 },
}

/// How long a bonus lasts (docs/rules.md#charge: round bonuses end with the round;
/// persistent bonuses last until their charges are used, or all encounter).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BonusLasts {
    /// `(round)`: until the end of the round.
    Round,
    /// `(N charges)`: used up after N uses (each use must be taken).
    Charges(u32),
    /// `(encounter)`: until the encounter ends.
    Encounter,
}

/// A bonus as written in an effect.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct BonusSpec {
    pub kind: BonusKind,
    pub lasts: BonusLasts,
    /// docs/rules.md#experience: the charges that give their giver 1
    /// experience as they are spent (bit `k - 1` for the `k`-th), written
    /// `(3 charges, xp on 2, 3)`.
    #[serde(default)]
    pub xp: u32,
}

/// One typed effect of a tier outcome.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Effect {
    /// `3 + M or A fire damage`: base, the characteristics the user may add
    /// (the best is used), and the type.
    Damage {
        base: i32,
        characteristics: Vec<Characteristic>,
        damage_type: DamageType,
    },
    /// `push 2`, `vertical slide 3`, optionally gated by a potency.
    ForcedMove {
        kind: ForcedKind,
        distance: u32,
        vertical: bool,
        potency: Option<PotencyCheck>,
    },
    /// `M < STRONG, restrained (save ends)`, `prone and can't stand (save ends)`,
    /// `save, dazed (EoT)`.
    Condition {
        potency: Option<PotencyCheck>,
        conditions: Vec<ConditionKind>,
        duration: Duration,
        /// docs/rules.md#ability-saves: the target saves as it lands (the
        /// roll shifting the save) and is spared on a success.
        #[serde(default)]
        save: bool,
    },
    /// `gain 2 surges`
    GainSurges(u32),
    /// `gain 1 wrath` (a heroic resource or malice, by name).
    GainResource { amount: u32, resource: String },
    /// `regain 5 stamina`: the target regains stamina, up to its maximum.
    Heal(u32),
    /// `gain 5 temporary stamina`: the target has temporary stamina (the
    /// higher of what it had and this; docs/rules.md#temporary-stamina).
    TemporaryStamina(u32),
    /// `grant 1 surge`: the target gains surges (a hero's ally).
    GrantSurges(u32),
    /// `shift 2`: the target shifts up to that many squares, toward the
    /// nearest enemy (the engine picks the square; docs/rulings.md).
    Shift(u32),
    /// `free strike`: the target makes a melee free strike against an
    /// adjacent enemy, the one with the least stamina (docs/rulings.md).
    FreeStrike,
    /// `teleport 4`: the target teleports up to that many squares: to an
    /// open square in line of effect, the one nearest an enemy (the engine
    /// picks, as for a shift; docs/rules.md#teleport).
    Teleport(u32),
    /// `signature strike`: the target uses one of its signature abilities
    /// at once, off its turn, as a free triggered action (docs/rules.md#critical-hit:
    /// the tactician's Strike Now); a critical hit with it gives another
    /// main action.
    SignatureStrike,
    /// `shield 2 (round)`, `retaliate 1 range 3 (2 charges)`: an active
    /// bonus on the target (docs/rules.md#charge "Active Bonuses").
    Bonus(BonusSpec),
    /// `summon wolf_spirit`: a creature of that stat block appears in an
    /// empty square adjacent to the user (docs/rules.md#summons).
    Summon(String),
    /// `loot 2`: the user picks up every treasure token within 2 squares
    /// that it has line of effect to (docs/rules.md#loot).
    Loot(u32),
    /// `recover 1`: the user regains the use of that many spent abilities
    /// (docs/rules.md#recover-and-refresh).
    Recover(u32),
    /// `refresh 1`: the user regains the use of that many spent items.
    Refresh(u32),
    /// `prepare riposte (1 use)`, `prepare riposte (round)`: the user gains
    /// that ability for a while (docs/rules.md#prepared-abilities).
    Prepare { ability: String, lasts: Prepared },
    /// `signal open`: the user's glyphs within throwing distance receive
    /// that glyph command at the start of the next round (docs/rules.md#glyphs).
    Signal(String),
    /// Anything else, kept as written.
    Text(String),
}

/// How long a prepared ability stays (docs/rules.md#prepared-abilities: it "expires after one use"
/// or "after a certain span of time").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Prepared {
    /// Until used this many times.
    Uses(u32),
    /// Until the end of the round.
    Round,
    /// While the preparing ability's concentration lasts (only in an
    /// ability with `concentration: true`; docs/rules.md#prepared-abilities).
    Concentration,
}

/// A fragment the parser could not read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotationError {
    /// Byte offset of the fragment within the parsed line.
    pub offset: usize,
    pub fragment: String,
    pub expected: String,
}

impl std::fmt::Display for NotationError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "could not read `{}` in a tier line: expected {}",
            self.fragment, self.expected
        )
    }
}

/// Parse a whole tier line into its effects.
pub fn parse_tier(line: &str) -> Result<Vec<Effect>, NotationError> {
    let mut effects = Vec::new();
    let mut start = 0;
    for raw in line.split(';') {
        let lead = raw.len() - raw.trim_start().len();
        let seg = raw.trim();
        let offset = start + lead;
        start += raw.len() + 1;
        if seg.is_empty() {
            if line.trim().is_empty() {
                break;
            }
            return Err(NotationError {
                offset,
                fragment: String::new(),
                expected: "an effect between semicolons".into(),
            });
        }
        // "No effect": a tier that does nothing, said in words (typed as
        // no effect at all, not kept as free text).
        if seg.eq_ignore_ascii_case("no effect") {
            continue;
        }
        effects.push(parse_segment(seg, offset)?);
    }
    Ok(effects)
}

/// A word and its byte offset in the segment.
#[derive(Clone, Copy, Debug)]
struct Tok<'a> {
    text: &'a str,
    at: usize,
}

fn tokens(seg: &str) -> Vec<Tok<'_>> {
    let mut out = Vec::new();
    let bytes = seg.char_indices().collect::<Vec<_>>();
    let mut i = 0;
    while i < bytes.len() {
        let (pos, c) = bytes[i];
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        if matches!(c, '+' | '<' | ',' | '(' | ')') {
            out.push(Tok {
                text: &seg[pos..pos + c.len_utf8()],
                at: pos,
            });
            i += 1;
            continue;
        }
        let begin = pos;
        let mut end = pos;
        while i < bytes.len() {
            let (p, ch) = bytes[i];
            if ch.is_whitespace() || matches!(ch, '+' | '<' | ',' | '(' | ')') {
                break;
            }
            end = p + ch.len_utf8();
            i += 1;
        }
        out.push(Tok {
            text: &seg[begin..end],
            at: begin,
        });
    }
    out
}

struct Cursor<'a> {
    seg: &'a str,
    base: usize,
    toks: Vec<Tok<'a>>,
    i: usize,
}

impl<'a> Cursor<'a> {
    fn peek(&self) -> Option<&'a str> {
        self.toks.get(self.i).map(|t| t.text)
    }
    fn peek_at(&self, n: usize) -> Option<&'a str> {
        self.toks.get(self.i + n).map(|t| t.text)
    }
    fn next(&mut self) -> Option<&'a str> {
        let t = self.peek();
        self.i += 1;
        t
    }
    fn done(&self) -> bool {
        self.i >= self.toks.len()
    }
    fn eat(&mut self, word: &str) -> bool {
        if self.peek().is_some_and(|t| t.eq_ignore_ascii_case(word)) {
            self.i += 1;
            true
        } else {
            false
        }
    }
    /// An error at the current token, quoting the rest of the segment.
    fn error(&self, expected: &str) -> NotationError {
        let at = self.toks.get(self.i).map_or(self.seg.len(), |t| t.at);
        NotationError {
            offset: self.base + at,
            fragment: self.seg[at..].trim().to_string(),
            expected: expected.to_string(),
        }
    }
}

fn is_potency_start(c: &Cursor) -> bool {
    c.peek().is_some_and(|t| {
        t.len() == 1 && Characteristic::from_letter(t.chars().next().unwrap_or(' ')).is_some()
    }) && c.peek_at(1) == Some("<")
}

fn is_forced_start(word: &str) -> bool {
    matches!(
        word.to_ascii_lowercase().as_str(),
        "push" | "pull" | "slide" | "vertical"
    )
}

fn condition_at(c: &Cursor) -> Option<(ConditionKind, usize)> {
    let w = c.peek()?.to_ascii_lowercase().replace('’', "'");
    if w == "can't"
        && c.peek_at(1)
            .is_some_and(|t| t.eq_ignore_ascii_case("stand"))
    {
        return Some((ConditionKind::CantStand, 2));
    }
    ConditionKind::from_word(&w)
        .filter(|k| *k != ConditionKind::CantStand)
        .map(|k| (k, 1))
}

fn parse_segment(seg: &str, base: usize) -> Result<Effect, NotationError> {
    let mut c = Cursor {
        seg,
        base,
        toks: tokens(seg),
        i: 0,
    };
    let first = c.peek().unwrap_or("");
    let effect = if first.chars().next().is_some_and(|ch| ch.is_ascii_digit()) {
        parse_damage(&mut c)?
    } else if first.eq_ignore_ascii_case("save") && c.toks.get(1).is_some_and(|t| t.text == ",") {
        parse_save(&mut c)?
    } else if is_potency_start(&c) {
        let potency = parse_potency(&mut c)?;
        if c.peek().is_some_and(is_forced_start) {
            parse_forced(&mut c, Some(potency))?
        } else if condition_at(&c).is_some() {
            parse_conditions(&mut c, Some(potency))?
        } else {
            return Err(c.error("a condition or forced movement after the potency"));
        }
    } else if is_forced_start(first) {
        parse_forced(&mut c, None)?
    } else if condition_at(&c).is_some() {
        parse_conditions(&mut c, None)?
    } else if first.eq_ignore_ascii_case("gain") {
        parse_gain(&mut c)?
    } else if first.eq_ignore_ascii_case("regain") {
        c.next();
        let n = parse_number(&mut c, "how much stamina to regain")?;
        if !c.eat("stamina") {
            return Err(c.error("`stamina`"));
        }
        Effect::Heal(n)
    } else if first.eq_ignore_ascii_case("heal") {
        // docs/rules.md#stamina "Heal X": the same as regaining X stamina.
        c.next();
        Effect::Heal(parse_number(&mut c, "how much to heal")?)
    } else if first.eq_ignore_ascii_case("summon") {
        c.next();
        Effect::Summon(parse_id(&mut c, "the monster id to summon")?)
    } else if first.eq_ignore_ascii_case("prepare") {
        parse_prepare(&mut c)?
    } else if first.eq_ignore_ascii_case("signal") {
        c.next();
        Effect::Signal(parse_id(&mut c, "the glyph command to send")?)
    } else if first.eq_ignore_ascii_case("loot") {
        c.next();
        Effect::Loot(parse_number(&mut c, "the loot range")?)
    } else if first.eq_ignore_ascii_case("recover") {
        c.next();
        Effect::Recover(parse_number(&mut c, "how many spent abilities to recover")?)
    } else if first.eq_ignore_ascii_case("refresh") {
        c.next();
        Effect::Refresh(parse_number(&mut c, "how many spent items to refresh")?)
    } else if first.eq_ignore_ascii_case("grant") {
        c.next();
        let n = parse_number(&mut c, "how many surges to grant")?;
        if !(c.eat("surge") || c.eat("surges")) {
            return Err(c.error("`surges`"));
        }
        Effect::GrantSurges(n)
    } else if first.eq_ignore_ascii_case("shield") || first.eq_ignore_ascii_case("retaliate") {
        parse_bonus(&mut c)?
    } else if first.eq_ignore_ascii_case("shift") {
        c.next();
        Effect::Shift(parse_number(&mut c, "how many squares to shift")?)
    } else if first.eq_ignore_ascii_case("free")
        && c.peek_at(1)
            .is_some_and(|t| t.eq_ignore_ascii_case("strike"))
    {
        c.next();
        c.next();
        Effect::FreeStrike
    } else if first.eq_ignore_ascii_case("teleport") {
        c.next();
        Effect::Teleport(parse_number(&mut c, "how many squares to teleport")?)
    } else if first.eq_ignore_ascii_case("signature")
        && c.peek_at(1)
            .is_some_and(|t| t.eq_ignore_ascii_case("strike"))
    {
        c.next();
        c.next();
        Effect::SignatureStrike
    } else {
        return Ok(Effect::Text(seg.to_string()));
    };
    if !c.done() {
        return Err(c.error("the end of the effect (use `;` between effects)"));
    }
    Ok(effect)
}

/// docs/rules.md#ability-saves: `save, dazed (EoT)`: the target saves as
/// the conditions land.
fn parse_save(c: &mut Cursor) -> Result<Effect, NotationError> {
    c.next();
    c.next();
    if condition_at(c).is_none() {
        return Err(c.error("a condition after `save,`"));
    }
    Ok(match parse_conditions(c, None)? {
        Effect::Condition {
            conditions,
            duration,
            ..
        } => Effect::Condition {
            potency: None,
            conditions,
            duration,
            save: true,
        },
        other => other,
    })
}

/// docs/rules.md#prepared-abilities: `prepare riposte (1 use)`,
/// `(round)` or `(concentration)`.
fn parse_prepare(c: &mut Cursor) -> Result<Effect, NotationError> {
    c.next();
    let ability = parse_id(c, "the id of the ability to prepare")?;
    if !c.eat("(") {
        return Err(c.error("`(1 use)`, `(round)` or `(concentration)`"));
    }
    let lasts = if c.eat("round") {
        Prepared::Round
    } else if c.eat("concentration") {
        Prepared::Concentration
    } else {
        let n = parse_number(c, "`(1 use)`, `(round)` or `(concentration)`")?;
        if !(c.eat("use") || c.eat("uses")) || n == 0 {
            return Err(c.error("`uses`"));
        }
        Prepared::Uses(n)
    };
    if !c.eat(")") {
        return Err(c.error("`)`"));
    }
    Ok(Effect::Prepare { ability, lasts })
}

/// An id (letters, digits and `_`), or an error expecting `what`.
fn parse_id(c: &mut Cursor, what: &str) -> Result<String, NotationError> {
    match c.next() {
        Some(w) if w.chars().all(|ch| ch.is_ascii_alphanumeric() || ch == '_') => Ok(w.to_string()),
        _ => Err(c.error(what)),
    }
}

/// The largest number a tier line may hold: damage, squares, surges,
/// stamina. Nothing in a fight comes near it; a larger one is a slip, and
/// would overflow the rules' arithmetic or ask for a line of squares
/// billions long.
pub const MAX_NUMBER: u32 = 999;

fn parse_number(c: &mut Cursor, what: &str) -> Result<u32, NotationError> {
    match c.peek().and_then(|t| t.parse::<u32>().ok()) {
        Some(n) if n <= MAX_NUMBER => {
            c.next();
            Ok(n)
        }
        Some(_) => Err(c.error(&format!("{what} up to {MAX_NUMBER}"))),
        None => Err(c.error(what)),
    }
}

fn parse_characteristic(c: &mut Cursor) -> Result<Characteristic, NotationError> {
    let ch = c
        .peek()
        .filter(|t| t.len() == 1)
        .and_then(|t| t.chars().next())
        .and_then(Characteristic::from_letter);
    match ch {
        Some(ch) => {
            c.next();
            Ok(ch)
        }
        None => Err(c.error("a characteristic letter (M, A, R, I or P)")),
    }
}

fn parse_damage(c: &mut Cursor) -> Result<Effect, NotationError> {
    let base = parse_number(c, "a damage number")? as i32;
    let mut characteristics = Vec::new();
    if c.eat("+") {
        characteristics.push(parse_characteristic(c)?);
        loop {
            if c.eat(",") {
                c.eat("or");
                characteristics.push(parse_characteristic(c)?);
            } else if c.eat("or") {
                characteristics.push(parse_characteristic(c)?);
            } else {
                break;
            }
        }
    }
    let mut damage_type = DamageType::Untyped;
    if let Some(word) = c.peek()
        && let Some(t) = DamageType::from_word(&word.to_ascii_lowercase())
    {
        damage_type = t;
        c.next();
    }
    if !c.eat("damage") {
        return Err(c.error("`damage` (or a damage type then `damage`)"));
    }
    Ok(Effect::Damage {
        base,
        characteristics,
        damage_type,
    })
}

fn parse_potency(c: &mut Cursor) -> Result<PotencyCheck, NotationError> {
    let characteristic = parse_characteristic(c)?;
    if !c.eat("<") {
        return Err(c.error("`<`"));
    }
    let value = match c.peek().map(|t| t.to_ascii_uppercase()) {
        Some(w) if w == "WEAK" => PotencyValue::Strength(PotencyStrength::Weak),
        Some(w) if w == "AVERAGE" => PotencyValue::Strength(PotencyStrength::Average),
        Some(w) if w == "STRONG" => PotencyValue::Strength(PotencyStrength::Strong),
        Some(w) if w.parse::<i32>().is_ok() => PotencyValue::Fixed(w.parse().unwrap_or(0)),
        _ => return Err(c.error("WEAK, AVERAGE, STRONG or a number")),
    };
    c.next();
    if !c.eat(",") {
        return Err(c.error("`,` after the potency"));
    }
    Ok(PotencyCheck {
        characteristic,
        value,
    })
}

fn parse_forced(c: &mut Cursor, potency: Option<PotencyCheck>) -> Result<Effect, NotationError> {
    let vertical = c.eat("vertical");
    let kind = match c.peek().map(|t| t.to_ascii_lowercase()) {
        Some(w) if w == "push" => ForcedKind::Push,
        Some(w) if w == "pull" => ForcedKind::Pull,
        Some(w) if w == "slide" => ForcedKind::Slide,
        _ => return Err(c.error("push, pull or slide")),
    };
    c.next();
    let distance = parse_number(c, "a distance in squares")?;
    Ok(Effect::ForcedMove {
        kind,
        distance,
        vertical,
        potency,
    })
}

fn parse_conditions(
    c: &mut Cursor,
    potency: Option<PotencyCheck>,
) -> Result<Effect, NotationError> {
    let mut conditions = Vec::new();
    loop {
        match condition_at(c) {
            Some((kind, len)) => {
                c.i += len;
                conditions.push(kind);
            }
            None => return Err(c.error("a condition (bleeding, dazed, frightened, grabbed, prone, restrained, slowed, taunted, weakened, can't stand)")),
        }
        if !(c.eat("and") || c.eat(",")) {
            break;
        }
        c.eat("and");
    }
    let mut duration = Duration::UntilRemoved;
    if c.eat("(") {
        let start = c.i;
        let mut words = Vec::new();
        while let Some(t) = c.peek() {
            if t == ")" {
                break;
            }
            words.push(t.to_ascii_lowercase());
            c.next();
        }
        let text = words.join(" ");
        duration = match text.as_str() {
            "eot" => Duration::EndOfTurn,
            "save ends" => Duration::SaveEnds,
            "end of encounter" | "eoe" => Duration::EndOfEncounter,
            // docs/rules.md#durations: "(1 round)", "(2 rounds)".
            t if rounds(t).is_some() => Duration::Rounds(rounds(t).unwrap_or(1)),
            _ => {
                c.i = start;
                return Err(
                    c.error("a duration: (EoT), (save ends), (end of encounter) or (N rounds)")
                );
            }
        };
        if !c.eat(")") {
            return Err(c.error("`)`"));
        }
    }
    Ok(Effect::Condition {
        potency,
        conditions,
        duration,
        save: false,
    })
}

/// `shield 2 (round)`, `retaliate 1 range 3 (2 charges)`, `shield 1 (encounter)`.
fn parse_bonus(c: &mut Cursor) -> Result<Effect, NotationError> {
    let shield = c.eat("shield");
    if !shield {
        c.eat("retaliate");
    }
    let amount = parse_number(c, "the bonus's value")?;
    let kind = if shield {
        BonusKind::Shield(amount)
    } else {
        let range = if c.eat("range") {
            parse_number(c, "the retaliation's range")?
        } else {
            1
        };
        BonusKind::Retaliate { amount, range }
    };
    let mut lasts = BonusLasts::Round;
    let mut xp = 0;
    if c.eat("(") {
        lasts = if c.eat("round") {
            BonusLasts::Round
        } else if c.eat("encounter") {
            BonusLasts::Encounter
        } else {
            let n = parse_number(c, "(round), (encounter) or (N charges)")?;
            if !(c.eat("charges") || c.eat("charge")) {
                return Err(c.error("`charges`"));
            }
            if c.eat(",") {
                if !c.eat("xp") {
                    return Err(c.error("`xp on` and the charges that give experience"));
                }
                c.eat("on");
                loop {
                    let k = parse_number(c, "the number of a charge")?;
                    if k == 0 || k > n || k > 32 {
                        return Err(c.error(&format!("a charge from 1 to {}", n.min(32))));
                    }
                    xp |= 1 << (k - 1);
                    if !c.eat(",") {
                        break;
                    }
                }
            }
            BonusLasts::Charges(n)
        };
        if !c.eat(")") {
            return Err(c.error("`)`"));
        }
    }
    Ok(Effect::Bonus(BonusSpec { kind, lasts, xp }))
}

fn parse_gain(c: &mut Cursor) -> Result<Effect, NotationError> {
    c.eat("gain");
    let amount = parse_number(c, "how many to gain")?;
    if c.eat("temporary") {
        if !c.eat("stamina") {
            return Err(c.error("`stamina`"));
        }
        return Ok(Effect::TemporaryStamina(amount));
    }
    match c.peek().map(|t| t.to_ascii_lowercase()) {
        Some(w) if w == "surge" || w == "surges" => {
            c.next();
            Ok(Effect::GainSurges(amount))
        }
        Some(w) if w.chars().all(|ch| ch.is_ascii_alphabetic()) => {
            c.next();
            Ok(Effect::GainResource {
                amount,
                resource: w,
            })
        }
        _ => Err(c.error("`surges` or a resource name")),
    }
}

/// "1 round", "3 rounds": the number of rounds (1 or more).
fn rounds(text: &str) -> Option<u32> {
    let (n, unit) = text.split_once(' ')?;
    let n: u32 = n.parse().ok().filter(|&n| n > 0)?;
    matches!((n, unit), (1, "round") | (_, "rounds")).then_some(n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::Characteristic::*;

    fn strength(c: Characteristic, s: PotencyStrength) -> Option<PotencyCheck> {
        Some(PotencyCheck {
            characteristic: c,
            value: PotencyValue::Strength(s),
        })
    }

    // docs/rules.md#shield "Shield", "Retaliate", "Active Bonuses".
    // docs/rules.md#durations: "(N rounds)" (source 002, Effect Duration).
    #[test]
    fn durations_in_rounds_parse_and_zero_is_refused() {
        let one = parse_tier("slowed (1 round)").unwrap();
        let three = parse_tier("M < AVERAGE, dazed (3 rounds)").unwrap();
        let d = |e: &[Effect]| match &e[0] {
            Effect::Condition { duration, .. } => *duration,
            other => panic!("{other:?}"),
        };
        assert_eq!(d(&one), Duration::Rounds(1));
        assert_eq!(d(&three), Duration::Rounds(3));
        for bad in [
            "slowed (0 rounds)",
            "slowed (2 round)",
            "slowed (many rounds)",
        ] {
            let e = parse_tier(bad).unwrap_err().to_string();
            assert!(e.contains("(N rounds)"), "{bad}: {e}");
        }
        assert_eq!(Duration::Rounds(2).to_string(), "2 rounds");
        let imposed = Duration::Rounds(2).imposed(3, crate::stats::CreatureId(4));
        assert_eq!(
            imposed,
            Duration::Until {
                round: 5,
                turn: crate::stats::CreatureId(4)
            }
        );
    }

    #[test]
    fn shields_and_retaliation() {
        assert_eq!(
            parse_tier("shield 2 (round); retaliate 1 range 3 (2 charges); shield 1").unwrap(),
            vec![
                Effect::Bonus(BonusSpec {
                    kind: BonusKind::Shield(2),
                    lasts: BonusLasts::Round,
                    xp: 0,
                }),
                Effect::Bonus(BonusSpec {
                    kind: BonusKind::Retaliate {
                        amount: 1,
                        range: 3
                    },
                    lasts: BonusLasts::Charges(2),
                    xp: 0,
                }),
                Effect::Bonus(BonusSpec {
                    kind: BonusKind::Shield(1),
                    lasts: BonusLasts::Round,
                    xp: 0,
                }),
            ]
        );
        assert_eq!(
            parse_tier("retaliate 2 (encounter)").unwrap(),
            vec![Effect::Bonus(BonusSpec {
                kind: BonusKind::Retaliate {
                    amount: 2,
                    range: 1
                },
                lasts: BonusLasts::Encounter,
                xp: 0,
            })]
        );
        assert!(parse_tier("shield two").is_err());
        assert!(parse_tier("shield 2 (forever)").is_err());
    }

    // docs/rules.md#cover-and-high-ground "Heal X", "Summon", "Loot X", "Recover and Refresh".
    #[test]
    fn seed_004_effects() {
        assert_eq!(
            parse_tier("heal 3; summon spirit_wolf; loot 2; recover 1; refresh 2").unwrap(),
            vec![
                Effect::Heal(3),
                Effect::Summon("spirit_wolf".into()),
                Effect::Loot(2),
                Effect::Recover(1),
                Effect::Refresh(2),
            ]
        );
        // docs/rules.md#prepared-abilities and glyph commands.
        assert_eq!(
            parse_tier("prepare riposte (2 uses); prepare parry (round); signal burn").unwrap(),
            vec![
                Effect::Prepare {
                    ability: "riposte".into(),
                    lasts: Prepared::Uses(2)
                },
                Effect::Prepare {
                    ability: "parry".into(),
                    lasts: Prepared::Round
                },
                Effect::Signal("burn".into()),
            ]
        );
        assert!(parse_tier("prepare riposte").is_err());
        assert!(parse_tier("prepare riposte (0 uses)").is_err());
        let e = parse_tier("summon").unwrap_err();
        assert_eq!(e.expected, "the monster id to summon");
        assert!(parse_tier("loot far").is_err());
        assert!(parse_tier("heal 2 stamina").is_err());
    }

    #[test]
    fn support_effects_for_allies() {
        assert_eq!(
            parse_tier("regain 5 stamina; gain 3 temporary stamina; grant 1 surge").unwrap(),
            vec![
                Effect::Heal(5),
                Effect::TemporaryStamina(3),
                Effect::GrantSurges(1)
            ]
        );
        assert_eq!(
            parse_tier("shift 2; free strike").unwrap(),
            vec![Effect::Shift(2), Effect::FreeStrike]
        );
        // A typo in a typed effect is an error with its place, not free text.
        let e = parse_tier("2 damage; regain five stamina").unwrap_err();
        assert_eq!(e.offset, 17);
        assert!(parse_tier("gain 2 temporary health").is_err());
    }

    // Issue #2's examples, as the rules print them (docs/rules.md#forced-movement "Abilities With
    // Damage and Effects": "damage and effects are separated with a semicolon").
    #[test]
    fn damage_and_push() {
        assert_eq!(
            parse_tier("6 + M damage; push 2").unwrap(),
            vec![
                Effect::Damage {
                    base: 6,
                    characteristics: vec![Might],
                    damage_type: DamageType::Untyped
                },
                Effect::ForcedMove {
                    kind: ForcedKind::Push,
                    distance: 2,
                    vertical: false,
                    potency: None
                }
            ]
        );
    }

    #[test]
    fn typed_damage_with_potency_condition() {
        assert_eq!(
            parse_tier("3 + I holy damage; A < WEAK, prone").unwrap(),
            vec![
                Effect::Damage {
                    base: 3,
                    characteristics: vec![Intuition],
                    damage_type: DamageType::Holy
                },
                Effect::Condition {
                    potency: strength(Agility, PotencyStrength::Weak),
                    conditions: vec![ConditionKind::Prone],
                    duration: Duration::UntilRemoved,
                    save: false
                }
            ]
        );
    }

    #[test]
    fn characteristic_choice_and_save_ends() {
        assert_eq!(
            parse_tier("9 + M or A damage; M < STRONG, restrained (save ends)").unwrap(),
            vec![
                Effect::Damage {
                    base: 9,
                    characteristics: vec![Might, Agility],
                    damage_type: DamageType::Untyped
                },
                Effect::Condition {
                    potency: strength(Might, PotencyStrength::Strong),
                    conditions: vec![ConditionKind::Restrained],
                    duration: Duration::SaveEnds,
                    save: false
                }
            ]
        );
    }

    #[test]
    fn flat_damage_and_eot() {
        assert_eq!(
            parse_tier("2 damage; slowed (EoT)").unwrap(),
            vec![
                Effect::Damage {
                    base: 2,
                    characteristics: vec![],
                    damage_type: DamageType::Untyped
                },
                Effect::Condition {
                    potency: None,
                    conditions: vec![ConditionKind::Slowed],
                    duration: Duration::EndOfTurn,
                    save: false
                }
            ]
        );
    }

    #[test]
    fn three_effects() {
        let e = parse_tier("5 fire damage; pull 3; I < AVERAGE, frightened (save ends)").unwrap();
        assert_eq!(e.len(), 3);
        assert!(matches!(
            e[0],
            Effect::Damage {
                base: 5,
                damage_type: DamageType::Fire,
                ..
            }
        ));
        assert!(matches!(
            e[1],
            Effect::ForcedMove {
                kind: ForcedKind::Pull,
                distance: 3,
                ..
            }
        ));
        assert_eq!(
            e[2],
            Effect::Condition {
                potency: strength(Intuition, PotencyStrength::Average),
                conditions: vec![ConditionKind::Frightened],
                duration: Duration::SaveEnds,
                save: false
            }
        );
    }

    // docs/rules.md#potency: Judgment's Hammer tier 3 "A < STRONG, prone and can't stand (save ends)".
    #[test]
    fn prone_and_cant_stand() {
        let e =
            parse_tier("9 + I holy damage; A < STRONG, prone and can't stand (save ends)").unwrap();
        assert_eq!(
            e[1],
            Effect::Condition {
                potency: strength(Agility, PotencyStrength::Strong),
                conditions: vec![ConditionKind::Prone, ConditionKind::CantStand],
                duration: Duration::SaveEnds,
                save: false
            }
        );
    }

    #[test]
    fn vertical_fixed_potency_gains_and_text() {
        let e = parse_tier(
            "vertical push 3; M < 2, slide 1; gain 2 surges; gain 1 wrath; the target shouts",
        )
        .unwrap();
        assert_eq!(
            e,
            vec![
                Effect::ForcedMove {
                    kind: ForcedKind::Push,
                    distance: 3,
                    vertical: true,
                    potency: None
                },
                Effect::ForcedMove {
                    kind: ForcedKind::Slide,
                    distance: 1,
                    vertical: false,
                    potency: Some(PotencyCheck {
                        characteristic: Might,
                        value: PotencyValue::Fixed(2)
                    })
                },
                Effect::GainSurges(2),
                Effect::GainResource {
                    amount: 1,
                    resource: "wrath".into()
                },
                Effect::Text("the target shouts".into())
            ]
        );
    }

    #[test]
    fn errors_point_at_the_fragment() {
        let line = "6 + Q damage; push 2";
        let e = parse_tier(line).unwrap_err();
        assert_eq!(e.offset, 4);
        assert_eq!(e.fragment, "Q damage");
        assert!(e.expected.contains("characteristic"));

        let line = "3 damage; A < MEDIUM, prone";
        let e = parse_tier(line).unwrap_err();
        assert_eq!(&line[e.offset..], "MEDIUM, prone");

        let line = "3 damage; push two";
        let e = parse_tier(line).unwrap_err();
        assert_eq!(&line[e.offset..], "two");

        let line = "slowed (save end)";
        let e = parse_tier(line).unwrap_err();
        assert_eq!(&line[e.offset..], "save end)");

        let line = "4 cold damages";
        assert!(parse_tier(line).is_err());
        let line = "4 damage;; push 1";
        assert_eq!(parse_tier(line).unwrap_err().offset, 9);
        let line = "prone push 2";
        assert_eq!(&line[parse_tier(line).unwrap_err().offset..], "push 2");
    }

    // docs/rules.md#ability-saves: `save, ...` marks conditions the target
    // saves against as they land.
    #[test]
    fn a_save_gate_marks_its_conditions() {
        assert_eq!(
            parse_tier("2 damage; save, dazed and slowed (EoT)").unwrap()[1],
            Effect::Condition {
                potency: None,
                conditions: vec![ConditionKind::Dazed, ConditionKind::Slowed],
                duration: Duration::EndOfTurn,
                save: true,
            }
        );
        let e = parse_tier("save, push 2").unwrap_err();
        assert_eq!(e.expected, "a condition after `save,`");
        assert_eq!(e.fragment, "push 2");
        // A sentence that starts with "save" is free text, as before.
        assert_eq!(
            parse_tier("save the day").unwrap(),
            vec![Effect::Text("save the day".into())]
        );
    }

    // docs/rules.md#experience: "Some persistent bonuses will also give a
    // character experience ... when that charge of the bonus is expended".
    #[test]
    fn charges_may_give_experience() {
        assert_eq!(
            parse_tier("shield 1 (3 charges, xp on 2, 3)").unwrap(),
            vec![Effect::Bonus(BonusSpec {
                kind: BonusKind::Shield(1),
                lasts: BonusLasts::Charges(3),
                xp: 0b110,
            })]
        );
        let e = parse_tier("shield 1 (3 charges, xp on 4)").unwrap_err();
        assert_eq!(e.expected, "a charge from 1 to 3");
        let e = parse_tier("shield 1 (3 charges, twice)").unwrap_err();
        assert_eq!(e.fragment, "twice)");
    }
}
