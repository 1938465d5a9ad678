//! The client's look in one place: colours, text sizes and the widgets the
//! panels are built from (the bevy_new_2d template's `theme` habit). A panel
//! asks for `theme::text`, `theme::panel` or `theme::button` rather than
//! spelling out its own colours and paddings.

use bevy::prelude::*;
use bevy::ui::FocusPolicy;
use skirmish_rules::map::Side;

use super::input::BlocksBoard;

/// Body text size (logical pixels, before the UI scale).
pub const BODY: f32 = 20.0;
/// Secondary text: roster lines, the log, the ability list.
pub const SMALL: f32 = 17.0;
/// Keys and hints.
pub const TINY: f32 = 15.0;
/// Panel titles and the turn line.
pub const HEADING: f32 = 24.0;

/// Space around and between panels (logical pixels).
pub const GAP: f32 = 8.0;
/// A panel's inner padding.
pub const PAD: f32 = 10.0;

/// The client's colours: high contrast, readable from across a room, and
/// told apart by a viewer with red-green colour blindness (the sides are a
/// blue and a red, which differ in blue content and lightness as well as
/// hue; checked by `tests::sides_and_highlights_survive_colour_blindness`).
pub struct Palette;

impl Palette {
    pub const HEROES: Color = Color::srgb(0.25, 0.62, 1.0);
    pub const DIRECTOR: Color = Color::srgb(0.95, 0.27, 0.25);
    pub const GOLD: Color = Color::srgb(1.0, 0.84, 0.3);
    pub const DAMAGE: Color = Color::srgb(1.0, 0.42, 0.36);
    pub const CONDITION: Color = Color::srgb(0.85, 0.6, 1.0);
    pub const QUIET: Color = Color::srgb(0.86, 0.86, 0.86);
    pub const GOOD: Color = Color::srgb(0.45, 0.95, 0.5);
    /// Stamina bars: full, winded and nearly down read by lightness as
    /// well as hue.
    pub const STAMINA_HIGH: Color = Color::srgb(0.35, 0.85, 0.95);
    pub const STAMINA_MID: Color = Color::srgb(0.98, 0.85, 0.25);
    pub const STAMINA_LOW: Color = Color::srgb(0.75, 0.12, 0.2);
    // Opaque: blending happens in linear light, where even 10% shows through.
    pub const PANEL: Color = Color::srgb(0.05, 0.05, 0.07);
    pub const PANEL_EDGE: Color = Color::srgb(0.3, 0.3, 0.36);
    pub const TEXT: Color = Color::srgb(0.95, 0.95, 0.92);
    pub const DIM: Color = Color::srgb(0.66, 0.66, 0.68);
    pub const BUTTON: Color = Color::srgb(0.16, 0.2, 0.3);
    pub const BUTTON_OFF: Color = Color::srgb(0.12, 0.12, 0.13);
    pub const BUTTON_AIMED: Color = Color::srgb(0.55, 0.4, 0.08);
    /// Squares the move action reaches, targets, and danger (the enemies
    /// whose opportunity attacks a path provokes).
    pub const MOVE: Color = Color::srgb(0.25, 0.55, 1.0);
    /// A move that would spend the main action (the second colour of a
    /// move range).
    pub const MAIN_MOVE: Color = Color::srgb(0.6, 1.0, 0.9);
    pub const TARGET: Color = Color::srgb(1.0, 0.55, 0.2);
    pub const DANGER: Color = Color::srgb(1.0, 0.95, 0.25);
    /// Behind floating text, so it reads on any floor.
    pub const FLOAT_BACKING: Color = Color::srgba(0.02, 0.02, 0.03, 0.82);

    pub fn side(side: Side) -> Color {
        match side {
            Side::Heroes => Self::HEROES,
            Side::Director => Self::DIRECTOR,
        }
    }
}

/// A line of text at `size` logical pixels.
pub fn text(s: impl Into<String>, size: f32, color: Color) -> impl Bundle {
    (
        Text::new(s.into()),
        TextFont {
            font_size: FontSize::Px(size),
            ..default()
        },
        TextColor(color),
    )
}

/// A panel's look: dark, edged, and in the way of the board's clicks.
pub fn panel() -> impl Bundle {
    (
        BackgroundColor(Palette::PANEL),
        BorderColor::all(Palette::PANEL_EDGE),
        Interaction::default(),
        // Clicks stop here (a node lets them through to what is under it
        // unless it says otherwise).
        FocusPolicy::Block,
        BlocksBoard,
    )
}

/// A panel's box: a column with padding, a border and round corners.
pub fn panel_node() -> Node {
    Node {
        flex_direction: FlexDirection::Column,
        padding: UiRect::all(px(PAD)),
        row_gap: px(4),
        border: UiRect::all(px(2)),
        border_radius: BorderRadius::all(px(8)),
        ..default()
    }
}

/// A button doing `action`, labelled `label`.
pub fn button(p: &mut ChildSpawnerCommands, label: &str, action: impl Component) {
    p.spawn((
        Button,
        action,
        Node {
            padding: UiRect::axes(px(16), px(8)),
            border: UiRect::all(px(2)),
            border_radius: BorderRadius::all(px(6)),
            ..default()
        },
        BackgroundColor(Palette::BUTTON),
        BorderColor::all(Palette::PANEL_EDGE),
        BlocksBoard,
    ))
    .with_child(text(label.to_string(), BODY, Palette::TEXT));
}

#[cfg(test)]
mod tests {
    use super::*;

    /// How a colour looks to a viewer with protanopia or deuteranopia
    /// (Viénot, Brettel and Mollon's 1999 simulation, in linear light).
    #[derive(Clone, Copy, Debug)]
    pub enum Deficiency {
        Protanopia,
        Deuteranopia,
    }

    pub fn simulate(c: Color, d: Deficiency) -> [f32; 3] {
        let l = c.to_linear();
        let (r, g, b) = (l.red, l.green, l.blue);
        match d {
            Deficiency::Protanopia => [
                0.112_384 * r + 0.887_617 * g,
                0.112_384 * r + 0.887_617 * g,
                0.004_006 * r - 0.004_006 * g + b,
            ],
            Deficiency::Deuteranopia => [
                0.292_75 * r + 0.707_25 * g,
                0.292_75 * r + 0.707_25 * g,
                -0.022_336 * r + 0.022_336 * g + b,
            ],
        }
    }

    /// The distance between two colours as seen (in Oklab, where a step of
    /// about 0.1 is plain to see), from linear RGB.
    pub fn seen_distance(a: [f32; 3], b: [f32; 3]) -> f32 {
        let lab = |c: [f32; 3]| {
            let o = Oklaba::from(LinearRgba::rgb(
                c[0].clamp(0.0, 1.0),
                c[1].clamp(0.0, 1.0),
                c[2].clamp(0.0, 1.0),
            ));
            Vec3::new(o.lightness, o.a, o.b)
        };
        lab(a).distance(lab(b))
    }

    fn plain(c: Color) -> [f32; 3] {
        let l = c.to_linear();
        [l.red, l.green, l.blue]
    }

    // The sides, the stamina bands and the highlights must stay apart for
    // the one viewer in twelve with red-green colour blindness, not by hue
    // alone to a typical eye.
    #[test]
    fn sides_and_highlights_survive_colour_blindness() {
        let groups: [(&str, &[Color]); 3] = [
            ("sides", &[Palette::HEROES, Palette::DIRECTOR]),
            (
                "stamina",
                &[
                    Palette::STAMINA_HIGH,
                    Palette::STAMINA_MID,
                    Palette::STAMINA_LOW,
                ],
            ),
            (
                "highlights",
                &[
                    Palette::MOVE,
                    Palette::MAIN_MOVE,
                    Palette::TARGET,
                    Palette::DANGER,
                ],
            ),
        ];
        for (name, colors) in groups {
            for (i, a) in colors.iter().enumerate() {
                for b in &colors[i + 1..] {
                    let typical = seen_distance(plain(*a), plain(*b));
                    assert!(typical > 0.15, "{name}: {a:?} {b:?} {typical}");
                    for d in [Deficiency::Protanopia, Deficiency::Deuteranopia] {
                        let seen = seen_distance(simulate(*a, d), simulate(*b, d));
                        assert!(
                            seen > 0.1,
                            "{name} under {d:?}: {a:?} and {b:?} are {seen} apart"
                        );
                    }
                }
            }
        }
        // The check has teeth: a red and a green plain to a typical eye,
        // chosen to merge under each deficiency, are caught.
        for (d, red, green) in [
            (
                Deficiency::Protanopia,
                Color::linear_rgb(0.9, 0.2, 0.1),
                Color::linear_rgb(0.1, 0.3, 0.1),
            ),
            (
                Deficiency::Deuteranopia,
                Color::linear_rgb(0.8, 0.2, 0.1),
                Color::linear_rgb(0.2, 0.447, 0.1),
            ),
        ] {
            assert!(seen_distance(plain(red), plain(green)) > 0.15);
            assert!(seen_distance(simulate(red, d), simulate(green, d)) < 0.1);
        }
    }
}
