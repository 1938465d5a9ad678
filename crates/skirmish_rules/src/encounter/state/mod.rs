//! Every part of a fight's state, declared once
//! (docs/architecture.md#a-fights-state).
//!
//! The components each creature carries are in [`components`]; the turn's
//! state in [`turn`]; the board's in [`board`]; the work in hand in
//! [`work`]. Nothing here imports anything of the encounter above it: every
//! stage reads and writes these types.
//!
//! The list at the foot of this file is the one place a part of the state
//! is named: the keyed lookups ([`crate::fast::KeyedWorld`]) and what a
//! snapshot copies out and writes back are made from it. A new part of the
//! state goes into that list, in the section that says how a snapshot
//! treats it.

pub mod board;
pub mod components;
pub mod turn;
pub mod work;

use bevy_ecs::prelude::*;

use crate::fast::KeyedWorld;

/// Declares the fight's state. Each section lists types, and what the
/// snapshot does with them:
/// - `saved resources`: copied whole, written back whole;
/// - `creature`: each creature's components, `required` (a creature
///   without one is not saved), `defaulted` (a missing one is saved as its
///   default) or `optional` (saved as absent, and removed on restore);
/// - `not saved`: read by key, but never copied (the content, the map
///   behind its handle, the hints the checks keep, the index of entities,
///   the log, which a snapshot rewinds by length).
macro_rules! fight_state {
    (
        saved resources { $($rname:ident: $rty:ty),* $(,)? }
        creature {
            required { $($cname:ident: $cty:ty),* $(,)? }
            defaulted { $($dname:ident: $dty:ty),* $(,)? }
            optional { $($oname:ident: $oty:ty),* $(,)? }
        }
        not saved { $($kty:ty),* $(,)? }
    ) => {
        crate::fast::keyed::keyed!($($rty,)* $($cty,)* $($dty,)* $($oty,)* $($kty,)*);

        /// What a snapshot keeps of one creature.
        #[derive(Clone, Debug)]
        pub(super) struct SavedCreature {
            $($cname: $cty,)*
            $($dname: $dty,)*
            $($oname: Option<$oty>,)*
        }

        impl SavedCreature {
            /// Copy out `entity`'s components (None: it lacks a required one).
            pub(super) fn take(w: &World, entity: Entity) -> Option<SavedCreature> {
                Some(SavedCreature {
                    $($cname: w.comp::<$cty>(entity)?.clone(),)*
                    $($dname: w.comp::<$dty>(entity).cloned().unwrap_or_default(),)*
                    $($oname: w.comp::<$oty>(entity).cloned(),)*
                })
            }

            /// Write them back onto `e`.
            pub(super) fn put(&self, e: &mut EntityWorldMut) {
                e.insert(($(self.$cname.clone(),)* $(self.$dname.clone(),)*));
                $(match &self.$oname {
                    Some(x) => {
                        e.insert(x.clone());
                    }
                    None => {
                        e.remove::<$oty>();
                    }
                })*
            }
        }

        /// What a snapshot keeps of the encounter's resources.
        #[derive(Clone, Debug)]
        pub(super) struct SavedResources {
            $($rname: $rty,)*
        }

        impl SavedResources {
            /// Copy out `w`'s saved resources.
            pub(super) fn take(w: &World) -> SavedResources {
                SavedResources {
                    $($rname: w.res::<$rty>().clone(),)*
                }
            }

            /// Write them back into `w`.
            pub(super) fn put(&self, w: &mut World) {
                $(*w.res_mut::<$rty>() = self.$rname.clone();)*
            }
        }
    };
}

fight_state! {
    saved resources {
        flow: turn::Flow,
        malice: turn::Malice,
        dice: crate::dice::Dice,
        walls: board::RaisedWalls,
        wear: board::ObjectWear,
        squads: components::Squads,
        glyphs: board::Glyphs,
        resolution: work::Resolution,
    }
    creature {
        required {
            space: components::Space,
            stamina: crate::stats::Stamina,
            conditions: crate::conditions::Conditions,
            budget: components::TurnBudget,
            stance: components::Stance,
            auras: components::Auras,
        }
        defaulted {
            bonuses: components::Bonuses,
            progress: components::Progress,
            abilities: components::Abilities,
        }
        optional {
            heroic: components::Heroic,
            casting: components::Casting,
            prepared: components::PreparedAbilities,
        }
    }
    not saved {
        crate::content::Content,
        crate::stats::Characteristics,
        crate::stats::DamageTraits,
        board::Battlefield,
        work::RollFacts,
        board::Grabs,
        board::KnownCarriers,
        turn::ActiveRuleset,
        turn::Standing,
        board::Plan,
        crate::encounter::log::CombatLog,
        board::CreatureIndex,
        bevy_state::state::State<turn::Phase>,
        bevy_state::state::NextState<turn::Phase>,
        components::Creature,
        components::FreeStrike,
        components::Movement,
        components::SquadMember,
        components::Summoned,
    }
}
