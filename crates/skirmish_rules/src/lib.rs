//! The headless rules engine of Skirmish.
//!
//! Everything here runs without a window: rules as pure functions over plain
//! data, content loading, and (as the engine grows) the encounter flow,
//! the AI and batch simulation. It depends on `bevy_ecs`, `bevy_app` and
//! `bevy_state` only, never on rendering.
//!
//! Each module is a plugin function, added by [`RulesPlugin`].

pub mod ability;
pub mod actions;
pub mod ai;
pub mod conditions;
pub mod content;
pub mod dice;
pub mod encounter;
pub mod fast;
pub mod files;
pub mod learn;
pub mod map;
pub mod phased;
pub mod power_roll;
pub mod saves;
pub mod scenario;
#[cfg(test)]
mod scratch;
pub mod sim;
pub mod stats;

use bevy_app::{App, Plugin};

/// Adds the whole rules engine to an app.
pub struct RulesPlugin;

impl Plugin for RulesPlugin {
    fn build(&self, app: &mut App) {
        app.add_plugins((dice::plugin, content::plugin, encounter::plugin));
    }
}

/// The names most users of the engine need.
pub mod prelude {
    pub use crate::RulesPlugin;
    pub use crate::ability::{Ability, ActionType, Distance, Effect, Keyword, Target, TargetKind};
    pub use crate::conditions::{ConditionKind, Conditions, Duration};
    pub use crate::content::{Content, ContentDb, ContentError, ContentErrors};
    pub use crate::dice::Dice;
    pub use crate::power_roll::{EdgeBane, RollSpec, Tier};
    pub use crate::stats::{Characteristic, Characteristics, CreatureId, DamageType, Stamina};
}
