//! An observation as JSON, for readers rather than networks (the tensors
//! are `crate::learn::observe`'s): the same fair information, for
//! external brains and the Python package.

use crate::encounter::Encounter;
use crate::map::Side;

/// `"heroes"` or `"director"`.
pub fn side_name(side: Side) -> &'static str {
    match side {
        Side::Heroes => "heroes",
        Side::Director => "director",
    }
}

/// What `side` may know now, as JSON: the round, whose turn, the Malice,
/// the map's size, every creature it can see (an enemy that is hidden is
/// left out) and the glyphs it knows of (its own, and the other side's
/// once they have shone). Python's `Encounter.observe` and the external
/// brains' protocol (docs/python.md#external-brains) give it.
pub fn describe(e: &Encounter, side: Side) -> serde_json::Value {
    let flow = e.flow();
    let creatures: Vec<serde_json::Value> = e
        .creatures()
        .into_iter()
        .filter(|c| c.side == side || !c.stance.hidden)
        .map(|c| {
            let (stamina, max_stamina) = c.shown_stamina();
            serde_json::json!({
                "id": c.id.0,
                "name": c.name,
                "side": side_name(c.side),
                "square": [c.space.pos.x, c.space.pos.y],
                "size": c.space.size,
                "stamina": stamina,
                "max_stamina": max_stamina,
                "squad": c.squad,
                "dead": c.stamina.is_dead(),
                "conditions": c.conditions.kinds().iter().map(|k| k.word()).collect::<Vec<_>>(),
                "heroic_resource": c.heroic.as_ref().map(|h| h.amount),
                "surges": c.heroic.as_ref().map(|h| h.surges),
                "speed": c.movement.speed,
                "acted": flow.acted.contains(&c.id),
                "acting": flow.is_acting(c.id),
                "hidden": c.stance.hidden,
            })
        })
        .collect();
    let glyphs: Vec<serde_json::Value> = e
        .glyphs()
        .list
        .iter()
        .filter(|g| !g.dismissed && (g.side == side || g.revealed))
        .map(|g| {
            serde_json::json!({
                "name": g.name,
                "side": side_name(g.side),
                "square": [g.at.x, g.at.y],
            })
        })
        .collect();
    serde_json::json!({
        "side": side_name(side),
        "round": flow.round,
        "acting": flow.active.map(|a| a.0),
        "malice": e.malice(),
        "width": e.map().width,
        "height": e.map().height,
        "creatures": creatures,
        "glyphs": glyphs,
        "winner": e.outcome().map(side_name),
    })
}
