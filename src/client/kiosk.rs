//! `--loop`: a kiosk. Once a demo's fight is over and its result has
//! shown for a while, the next shipped encounter starts with a new seed,
//! and after the last the first again.

use bevy::prelude::*;
use skirmish_rules::content::Content;

use super::game::{Game, GameSet, Mode, Restart, Setup};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, kiosk.in_set(GameSet));
}

/// The encounter a kiosk plays after `current`: the next shipped one by
/// id, the first after the last.
pub fn next_encounter<'a>(
    ids: impl IntoIterator<Item = &'a String>,
    current: &str,
) -> Option<String> {
    let ids: Vec<&String> = ids.into_iter().collect();
    let at = ids.iter().position(|id| id.as_str() == current);
    let next = at.map_or(0, |i| (i + 1) % ids.len().max(1));
    ids.get(next).map(|s| s.to_string())
}

/// Seconds a kiosk shows a fight's result before the next one.
const KIOSK_PAUSE: f32 = 6.0;

/// `--loop`: once a fight is over, the next encounter with a new seed.
fn kiosk(
    options: Res<super::ClientOptions>,
    game: NonSend<Game>,
    content: Res<Content>,
    time: Res<Time>,
    mut setup: ResMut<Setup>,
    mut restart: MessageWriter<Restart>,
    mut over_for: Local<f32>,
) {
    if !options.kiosk || game.encounter.outcome().is_none() {
        *over_for = 0.0;
        return;
    }
    *over_for += time.delta_secs();
    if *over_for < KIOSK_PAUSE {
        return;
    }
    *over_for = 0.0;
    if let Some(next) = next_encounter(content.0.encounters.keys(), &setup.encounter) {
        setup.encounter = next;
        setup.mode = Mode::Demo;
        restart.write(Restart {
            same: false,
            load: None,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kiosk_goes_through_every_encounter_and_round_again() {
        let ids: Vec<String> = ["a", "b", "c"].iter().map(|s| s.to_string()).collect();
        assert_eq!(next_encounter(&ids, "a").as_deref(), Some("b"));
        assert_eq!(next_encounter(&ids, "c").as_deref(), Some("a"));
        // From an encounter not shipped (a file): the first.
        assert_eq!(next_encounter(&ids, "zz").as_deref(), Some("a"));
        assert_eq!(next_encounter(&Vec::<String>::new(), "a"), None);
    }
}
