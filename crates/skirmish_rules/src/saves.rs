//! Saving throws (docs/rules.md#saving-throws): one save, shifted or not,
//! over the dice and the ruleset's save roll.

use crate::conditions::SaveShift;
use crate::dice::Dice;

/// One save, shifted (docs/rules.md#ability-saves): roll twice and keep
/// the higher or the lower, or fail it outright (a total of 0).
pub fn shifted_save(
    shift: SaveShift,
    dice: &mut Dice,
    roll: &dyn Fn(&mut Dice) -> u32,
    save_target: u32,
) -> (u32, bool) {
    if shift == SaveShift::AlwaysFails {
        return (0, false);
    }
    let first = roll(dice);
    let second = if shift == SaveShift::None {
        first
    } else {
        roll(dice)
    };
    let total = shift.keep(first, second);
    (total, total >= save_target)
}
