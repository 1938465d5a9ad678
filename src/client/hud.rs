//! The heads-up display. For now: a title bar with what content is loaded.

use bevy::prelude::*;
use skirmish_rules::content::Content;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, spawn_title);
}

fn spawn_title(mut commands: Commands, content: Res<Content>) {
    let counts = content
        .counts()
        .into_iter()
        .map(|(k, n)| format!("{n} {}", k.folder()))
        .collect::<Vec<_>>()
        .join(", ");
    commands.spawn((
        Name::new("Title bar"),
        Node {
            position_type: PositionType::Absolute,
            top: px(0),
            left: px(0),
            right: px(0),
            padding: UiRect::axes(px(24), px(12)),
            flex_direction: FlexDirection::Column,
            ..default()
        },
        BackgroundColor(Color::srgba(0.0, 0.0, 0.0, 0.75)),
        children![
            (
                Text::new("SKIRMISH"),
                TextFont {
                    font_size: FontSize::Px(40.0),
                    ..default()
                },
                TextColor(Color::srgb(1.0, 0.85, 0.4)),
            ),
            (
                Text::new(format!("Content loaded: {counts}")),
                TextFont {
                    font_size: FontSize::Px(24.0),
                    ..default()
                },
                TextColor(Color::WHITE),
            )
        ],
    ));
}
