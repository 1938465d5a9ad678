//! The header, at the top of the left column: the round, whose turn it is
//! or what the player is to do, the Director's Malice and the mode, the
//! keys, and a refusal or a stopped replay for a while.

use bevy::prelude::*;

use super::words::{pick_how, picking, side_name};
use crate::client::game::{Game, Mode, Pace, Setup};
use crate::client::layout::{LeftColumn, LeftPanel};
use crate::client::theme::{BODY, HEADING, Palette, SMALL, TINY, panel, panel_node, text};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Startup,
        spawn_header.after(crate::client::layout::ColumnsSet),
    )
    .add_systems(Update, header.after(crate::client::input::InputSet));
}

#[derive(Component)]
struct Title;
#[derive(Component)]
struct Status;
#[derive(Component)]
struct Keys;
#[derive(Component)]
struct Turn;
#[derive(Component)]
struct Notice;

/// How long a notice shows.
const NOTICE_SECONDS: f32 = 8.0;

pub(super) fn spawn_header(mut commands: Commands, column: Single<Entity, With<LeftColumn>>) {
    commands.entity(*column).with_children(|c| {
        c.spawn((
            Name::new("Header"),
            LeftPanel(0),
            Node {
                flex_shrink: 0.0,
                ..panel_node()
            },
            panel(),
        ))
        .with_children(|p| {
            p.spawn((Title, text("", HEADING, Palette::TEXT)));
            p.spawn((Turn, text("", BODY, Palette::TEXT)));
            p.spawn((Status, text("", SMALL, Palette::GOLD)));
            p.spawn((
                Notice,
                text("", SMALL, Palette::DAMAGE),
                Node {
                    display: Display::None,
                    ..default()
                },
            ));
            p.spawn((Keys, text("", TINY, Palette::DIM)));
        });
    });
}

fn header(
    game: NonSend<Game>,
    pace: Res<Pace>,
    setup: Res<Setup>,
    layout: Res<crate::client::layout::Layout>,
    mut texts: ParamSet<(
        Single<&mut Text, With<Title>>,
        Single<&mut Text, With<Status>>,
        Single<&mut Text, With<Notice>>,
        Single<&mut Text, With<Keys>>,
        Single<&mut Text, With<Turn>>,
    )>,
    mut banner: Single<&mut Node, With<Notice>>,
    time: Res<Time>,
    mut shown: Local<((u64, u64), f32)>,
) {
    let e = &game.encounter;
    let flow = e.flow();
    // Phased 2d6: the round's phase and who is up.
    let phase = flow.phased.as_ref().map(|p| match p.stage {
        skirmish_rules::phased::Stage::Movement => " · Movement",
        skirmish_rules::phased::Stage::Battle => " · Battle",
    });
    let left = if let Some(w) = e.outcome() {
        format!("Round {} · {} win", flow.round, side_name(w))
    } else if let Some(p) = e.prompt() {
        format!("Round {} · {} may react", flow.round, e.name(p.creature))
    } else if let Some(a) = flow.active {
        format!("Round {} · {}'s turn", flow.round, e.name(a))
    } else {
        let who = game.deciding_side().unwrap_or(flow.to_act);
        let person = game.human(who) && game.mode != Mode::Replay;
        match e.phased_next() {
            Some(next) => format!(
                "Round {} · {} is up ({})",
                flow.round,
                e.name(next),
                pick_how(person)
            ),
            None => format!("Round {} · {}", flow.round, picking(side_name(who), person)),
        }
    };
    // "Round 3 · Battle · Korva's turn".
    // The round (and phase) as the title, what is happening under it.
    let (left, turn) = match left.split_once(" · ") {
        Some((round, rest)) => (format!("{round}{}", phase.unwrap_or("")), rest.to_string()),
        None => (left, String::new()),
    };
    let seed = setup.replay.as_ref().map_or(setup.seed, |r| r.seed);
    // The seed, for replaying a fight, when there is room for it.
    let mut right = format!("Malice {} · {}", e.malice(), game.mode.label());
    if !layout.compact {
        right += &format!(" · seed {seed}");
    }
    let mut keys = String::new();
    if let Some(end) = game.replay_end() {
        // Kept in the header once the notice has gone: nothing more will play.
        right += &format!(" · {}", end.bar());
    } else if matches!(game.mode, Mode::Demo | Mode::Replay) {
        right += &format!(
            " · {}{:.1}s a step",
            if pace.paused { "PAUSED · " } else { "" },
            pace.delay
        );
        if !layout.compact {
            keys += "Space pause · N step · +/- speed · V camera · ";
        }
    }
    // The one column has room for the keys to find the rest with (the
    // briefing lists them all).
    keys += if layout.compact {
        "F1 help · Tab roster · Esc menu"
    } else {
        "F1 help · F5 save · Esc menu · B briefing · Tab roster · L log"
    };
    let notice = game.notice.clone().unwrap_or_default();
    if texts.p0().0 != left {
        texts.p0().0 = left;
    }
    if texts.p1().0 != right {
        texts.p1().0 = right;
    }
    // A notice shows for a while, then leaves the board clear (a new one,
    // even in the same words, shows anew).
    let now = time.elapsed_secs();
    let said = (game.generation, game.notice_serial);
    if shown.0 != said {
        *shown = (said, now);
    }
    let display = if notice.is_empty() || now - shown.1 > NOTICE_SECONDS {
        Display::None
    } else {
        Display::Flex
    };
    if banner.display != display {
        banner.display = display;
    }
    if texts.p2().0 != notice {
        texts.p2().0 = notice;
    }
    if texts.p3().0 != keys {
        texts.p3().0 = keys;
    }
    if texts.p4().0 != turn {
        texts.p4().0 = turn;
    }
}
