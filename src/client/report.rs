//! `--layout-json PATH`: after `--after-frames` frames, write where
//! everything is on screen (the board, the part of the map in view, every
//! panel and every text, in physical pixels from the window's top left)
//! and what is wrong with it, then exit. What counts as wrong:
//! - a text whose laid-out lines are wider or taller than its node
//!   (`overflow`), or that sticks out of the window;
//! - a text cut by a panel that clips without scrolling (`clipped`), or
//!   half shown at a scrolling list's edge (lines wholly scrolled out of
//!   view are `scrolled`, which is fine);
//! - two texts of the same layer over each other;
//! - a panel or text that is not an overlay the player opened (the card,
//!   a prompt, the picker) over the board.

use std::path::PathBuf;

use bevy::prelude::*;
use bevy::ui::CalculatedClip;
use bevy::window::PrimaryWindow;
use serde::Serialize;

use super::layout::{BoardView, Layout, TOKEN_SHARE};
use super::view::{BoardGeometry, SQUARE};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<FightFrames>()
        .add_systems(First, count_fight_frames)
        .add_systems(Last, write_report);
}

/// Frames since the fight (its board and tokens) was first there to draw:
/// a report or picture waits for it, never taking a frame of the window
/// before the fight is on it.
#[derive(Resource, Debug, Default)]
pub struct FightFrames(pub Option<u32>);

fn count_fight_frames(
    mut frames: ResMut<FightFrames>,
    board: Query<(), With<bevy_ecs_tilemap::prelude::TileStorage>>,
    tokens: Query<(), With<super::tokens::Token>>,
) {
    match &mut frames.0 {
        Some(n) => *n += 1,
        None if !board.is_empty() && !tokens.is_empty() => frames.0 = Some(0),
        None => {}
    }
}

/// Where to write the report, from `--layout-json`.
#[derive(Resource, Clone, Debug)]
pub struct ReportTo {
    pub path: PathBuf,
    pub after_frames: u32,
    /// Exit once written (no screenshot to wait for).
    pub exit: bool,
}

#[derive(Serialize, Clone, Copy, Debug, PartialEq)]
pub struct Area {
    pub x: f32,
    pub y: f32,
    pub w: f32,
    pub h: f32,
}

impl From<Rect> for Area {
    fn from(r: Rect) -> Area {
        Area {
            x: r.min.x,
            y: r.min.y,
            w: r.width(),
            h: r.height(),
        }
    }
}

#[derive(Serialize, Debug)]
pub struct PanelReport {
    pub name: String,
    pub rect: Area,
    pub overlay: bool,
}

#[derive(Serialize, Debug)]
pub struct TextReport {
    pub text: String,
    pub rect: Area,
    pub panel: String,
    /// The laid-out text's own size, which must fit in `rect`.
    pub laid_out: [f32; 2],
    pub overflow: bool,
    pub clipped: bool,
    pub scrolled: bool,
    /// The part of it on screen, inside every clip.
    pub shown: Area,
}

/// A text drawn over the board (a float, a forecast label, a token's
/// number), where it is on screen.
#[derive(Serialize, Debug, Clone)]
pub struct BoardText {
    pub text: String,
    pub rect: Area,
}

#[derive(Serialize, Debug)]
pub struct Report {
    pub window: Area,
    /// Whether the window has the keyboard.
    pub focused: bool,
    pub ui_scale: f32,
    /// One column for every panel (the roster folded away, on `Tab`).
    pub compact: bool,
    pub board: Area,
    /// The whole map, where the board camera puts it (it may reach past
    /// the board's rectangle: then part of it is out of view).
    pub map: Area,
    /// The part of the map on screen.
    pub map_visible: Area,
    /// `map_visible`'s share of the window.
    pub map_share: f32,
    /// A one-square token's width on screen.
    pub token_px: f32,
    pub panels: Vec<PanelReport>,
    pub texts: Vec<TextReport>,
    /// The texts over the board, in view.
    pub board_texts: Vec<BoardText>,
    pub problems: Vec<String>,
}

/// A node's rectangle on screen (physical pixels).
fn rect_of(node: &ComputedNode, at: &UiGlobalTransform) -> Rect {
    Rect::from_center_size(at.translation, node.size())
}

/// Two rectangles share more than a sliver.
fn overlap(a: Rect, b: Rect) -> bool {
    let i = a.intersect(b);
    i.width() > 1.0 && i.height() > 1.0
}

/// Whether this is the frame to record (report or picture): `after_frames`
/// frames after the fight first showed, or up to 300 frames later while
/// the window is still waiting for the keyboard (a busy machine maps it
/// late); then as it is. Never before the fight showed.
pub fn ready(fight_frames: &FightFrames, after_frames: u32, focused: bool) -> bool {
    let Some(count) = fight_frames.0 else {
        return false;
    };
    let due = after_frames.max(1);
    count >= due && (focused || count - due >= 300)
}

/// Write the report once it is due (an exclusive system: it reads the
/// whole layout through [`compute`]).
fn write_report(world: &mut World, mut written: Local<bool>) {
    let Some(to) = world.get_resource::<ReportTo>().cloned() else {
        return;
    };
    let focused = world
        .query_filtered::<&Window, With<PrimaryWindow>>()
        .iter(world)
        .next()
        .is_some_and(|w| w.focused);
    if *written || !ready(world.resource::<FightFrames>(), to.after_frames, focused) {
        return;
    }
    *written = true;
    let Some(report) = compute(world) else {
        return;
    };
    let written = serde_json::to_string_pretty(&report)
        .map_err(|e| e.to_string())
        .and_then(|json| std::fs::write(&to.path, json).map_err(|e| e.to_string()));
    if let Err(e) = written {
        eprintln!("error: --layout-json {}: {e}", to.path.display());
        world.write_message(AppExit::from_code(2));
        return;
    }
    if to.exit {
        world.write_message(AppExit::Success);
    }
}

/// Where everything is on screen now and what is wrong with it (None
/// before the window and the board exist).
pub fn compute(world: &mut World) -> Option<Report> {
    world.run_system_cached(measure).ok()
}

fn measure(
    window: Single<&Window, With<PrimaryWindow>>,
    layout: Res<Layout>,
    geometry: Res<BoardGeometry>,
    ui: Res<UiScale>,
    camera: Query<(&Projection, &Transform), With<BoardView>>,
    nodes: Query<(
        Entity,
        &ComputedNode,
        &UiGlobalTransform,
        &InheritedVisibility,
        Option<&Name>,
        Option<&ChildOf>,
        Option<&GlobalZIndex>,
        &Node,
        Option<&bevy::ui::FocusPolicy>,
        Has<super::input::BlocksBoard>,
    )>,
    texts: Query<(
        Entity,
        &Text,
        &bevy::text::TextLayoutInfo,
        &TextFont,
        Option<&CalculatedClip>,
    )>,
    board_texts: Query<(
        &Text2d,
        &bevy::text::TextLayoutInfo,
        &GlobalTransform,
        &InheritedVisibility,
        Option<&bevy::sprite::Anchor>,
    )>,
) -> Report {
    let win = Rect::new(
        0.0,
        0.0,
        window.physical_width() as f32,
        window.physical_height() as f32,
    );
    let view = super::layout::board_view(camera).unwrap_or((1.0, Vec2::ZERO));
    let scale = view.0;
    // The map's corners on screen.
    let half_map = Vec2::new(geometry.width as f32, geometry.height as f32) * SQUARE / 2.0;
    let map = Rect::from_corners(
        super::layout::to_screen(&layout, view, -half_map),
        super::layout::to_screen(&layout, view, half_map),
    );
    let visible = map.intersect(layout.board);
    let area = |r: Rect| r.width().max(0.0) * r.height().max(0.0);
    let mut problems = Vec::new();
    // At the default fit (the start, or F) the whole map shows: none of it
    // past the board's edges (issue 72, point 1). Zoomed in by the wheel
    // or the action camera, part of it may be out of view.
    let fitted = super::camera::fit_scale(&geometry, &layout);
    if geometry.width > 1 && (scale - fitted).abs() <= fitted * 0.001 {
        let out = [
            layout.board.min.x - map.min.x,
            map.max.x - layout.board.max.x,
            layout.board.min.y - map.min.y,
            map.max.y - layout.board.max.y,
        ];
        if out.iter().any(|&d| d > 1.0) {
            problems.push(format!(
                "the map reaches {:.0} px past the board's edges at the default fit",
                out.iter().fold(0.0_f32, |a, &d| a.max(d))
            ));
        }
    }

    // The root of each node, and whether it is an overlay.
    let root_of = |mut e: Entity| {
        while let Ok((_, _, _, _, _, Some(parent), _, _, _, _)) = nodes.get(e) {
            e = parent.parent();
        }
        e
    };
    let is_overlay = |root: Entity| {
        nodes
            .get(root)
            .is_ok_and(|(_, _, _, _, _, _, z, _, _, _)| z.is_some_and(|z| z.0 > 0))
    };
    let name_of = |e: Entity| {
        nodes
            .get(e)
            .ok()
            .and_then(|n| n.4)
            .map_or("(unnamed)".to_string(), |n| n.as_str().to_string())
    };
    // The nearest named ancestor: the panel a text is in, and its box.
    let panel_of = |mut e: Entity| loop {
        match nodes.get(e) {
            Ok((_, node, at, _, Some(n), _, _, _, _, _)) => {
                return (n.as_str().to_string(), Some(rect_of(node, at)));
            }
            Ok((_, _, _, _, None, Some(parent), _, _, _, _)) => e = parent.parent(),
            _ => return ("(none)".to_string(), None),
        }
    };
    // Whether the nearest clipping ancestor scrolls.
    let scrolls = |mut e: Entity| {
        while let Ok((_, _, _, _, _, Some(parent), _, _, _, _)) = nodes.get(e) {
            e = parent.parent();
            if let Ok((_, _, _, _, _, _, _, node, _, _)) = nodes.get(e) {
                let o = node.overflow;
                if o.x == OverflowAxis::Scroll || o.y == OverflowAxis::Scroll {
                    return true;
                }
                if o.x != OverflowAxis::Visible || o.y != OverflowAxis::Visible {
                    return false;
                }
            }
        }
        false
    };

    let mut panels = Vec::new();
    for (e, node, at, vis, name, parent, _, _, focus, blocks) in &nodes {
        if !vis.get() || node.size().x < 1.0 || node.size().y < 1.0 {
            continue;
        }
        // A panel that keeps clicks off the board keeps them off whatever
        // else is under it too (a node's default lets them through).
        if blocks && focus.is_some_and(|f| *f != bevy::ui::FocusPolicy::Block) {
            problems.push(format!(
                "`{}` lets clicks through to what is under it",
                name.map_or("(unnamed)", |n| n.as_str())
            ));
        }
        let Some(name) = name else { continue };
        let root = root_of(e);
        let overlay = is_overlay(root);
        let r = rect_of(node, at);
        let top_level = parent.is_none() || name.as_str().ends_with("column");
        if top_level && !overlay && overlap(r, layout.board) {
            problems.push(format!("panel `{name}` covers the board"));
        }
        panels.push(PanelReport {
            name: name.as_str().to_string(),
            rect: r.into(),
            overlay,
        });
    }

    let mut out: Vec<(TextReport, Rect, bool, Entity)> = Vec::new();
    for (e, text, info, font, clip) in &texts {
        let Ok((_, node, at, vis, _, _, _, _, _, _)) = nodes.get(e) else {
            continue;
        };
        // Hidden, or in a panel not displayed (its nodes have no size).
        if !vis.get() || text.0.trim().is_empty() || node.size().x < 0.5 || node.size().y < 0.5 {
            continue;
        }
        let r = rect_of(node, at);
        let content = node.content_box();
        // A wrapped line's width counts the space it broke at: up to a
        // space's width past the node is that, not text out of it.
        let space = match font.font_size {
            FontSize::Px(px) => px * ui.0 * window.scale_factor() * 0.4,
            _ => 8.0,
        };
        let overflow =
            info.size.x > content.width() + space.max(1.5) || info.size.y > content.height() + 1.5;
        let (mut clipped, mut scrolled) = (false, false);
        if let Some(c) = clip {
            let inside = c.clip.contains(r.min + 0.5) && c.clip.contains(r.max - 0.5);
            if !inside {
                if scrolls(e) {
                    scrolled = true;
                } else {
                    clipped = true;
                }
            }
        }
        let root = root_of(e);
        let overlay = is_overlay(root);
        let (panel, panel_rect) = panel_of(e);
        let shown = match clip {
            Some(c) => r.intersect(c.clip),
            None => r,
        };
        // What shows of it stays inside its panel (a row wider than its
        // panel pushes text out without any clip to catch it).
        if let Some(p) = panel_rect
            && area(shown) > 1.0
            && !(p.contains(shown.min + 0.5) && p.contains(shown.max - 0.5))
        {
            problems.push(format!("text {:?} sticks out of `{panel}`", text.0));
        }
        if overflow {
            problems.push(format!("text {:?} in `{panel}` overflows its node", text.0));
        }
        if clipped {
            problems.push(format!("text {:?} in `{panel}` is clipped", text.0));
        }
        // Scrolled out of view is fine; half in view is a cut line.
        if scrolled && area(shown) > 1.0 {
            problems.push(format!(
                "text {:?} in `{panel}` is cut at its list's edge",
                text.0
            ));
        }
        if !(win.contains(shown.min + 0.5) && win.contains(shown.max - 0.5)) && area(shown) > 1.0 {
            problems.push(format!("text {:?} in `{panel}` is off screen", text.0));
        }
        if !overlay && area(shown) > 1.0 && overlap(shown, layout.board) {
            problems.push(format!("text {:?} in `{panel}` is over the board", text.0));
        }
        out.push((
            TextReport {
                text: text.0.clone(),
                rect: r.into(),
                panel,
                laid_out: [info.size.x, info.size.y],
                overflow,
                clipped,
                scrolled,
                shown: shown.into(),
            },
            shown,
            overlay,
            root,
        ));
    }
    for (i, (a, ra, oa, roota)) in out.iter().enumerate() {
        for (b, rb, ob, rootb) in &out[i + 1..] {
            // An overlay over a column is its point; two texts of one layer
            // over each other never are.
            if oa == ob && (roota == rootb || !oa) && overlap(*ra, *rb) {
                problems.push(format!(
                    "texts {:?} ({}) and {:?} ({}) overlap",
                    a.text,
                    name_of(*roota),
                    b.text,
                    name_of(*rootb)
                ));
            }
        }
    }
    // The texts over the board, as the board camera shows them.
    let mut on_board = Vec::new();
    for (text, info, at, vis, anchor) in &board_texts {
        if !vis.get() || text.0.trim().is_empty() || info.size.x < 0.5 {
            continue;
        }
        let (world_scale, _, centre) = at.to_scale_rotation_translation();
        // Laid out in physical pixels of the window; drawn in world units.
        let size = info.size / window.scale_factor() * world_scale.truncate() / scale;
        let anchor = anchor.map_or(Vec2::ZERO, |a| a.as_vec());
        let centre = super::layout::to_screen(&layout, view, centre.truncate())
            - Vec2::new(anchor.x, -anchor.y) * size;
        let r = Rect::from_center_size(centre, size);
        if area(r.intersect(layout.board)) < 1.0 {
            continue;
        }
        on_board.push(BoardText {
            text: text.0.clone(),
            rect: r.into(),
        });
    }
    Report {
        window: win.into(),
        focused: window.focused,
        ui_scale: ui.0 * window.scale_factor(),
        compact: layout.compact,
        board: layout.board.into(),
        map: map.into(),
        map_visible: visible.into(),
        map_share: area(visible) / area(win).max(1.0),
        token_px: SQUARE * TOKEN_SHARE / scale,
        panels,
        texts: out.into_iter().map(|t| t.0).collect(),
        board_texts: on_board,
        problems,
    }
}
