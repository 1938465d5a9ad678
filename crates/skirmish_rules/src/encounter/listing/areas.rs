//! The placements of an area ability worth listing: around the creatures
//! it may affect, each kept if it reaches one (docs/rules.md#areas-and-sight).

use super::*;
use command::Placement;

/// Whether an area ability may affect this creature (docs/rules.md#distances-and-targets).
pub(crate) fn eligible(
    kinds: &[crate::ability::TargetKind],
    side: Side,
    user: CreatureId,
    o: &crate::map::Occupant,
) -> bool {
    crate::ability::TargetKind::any_allows(
        kinds,
        crate::ability::Relation::of(user, side, o.id, o.side),
    )
}

/// The placements of an area ability worth listing: each reaches at least
/// one eligible creature. Candidates are built around those creatures (a
/// cube covering them, a line or cone aimed at them, a sphere centred on
/// them, a wall in a straight run between the user and them).
pub(crate) fn placements(
    map: &crate::map::Map,
    creatures: &[crate::map::Occupant],
    user: crate::map::Footprint,
    a: &crate::ability::Ability,
    side: Side,
    me: CreatureId,
) -> Vec<command::Placement> {
    use command::Placement as P;
    let targets: Vec<&crate::map::Occupant> = creatures
        .iter()
        .filter(|o| eligible(&a.target.kinds, side, me, o))
        .collect();
    if targets.is_empty() {
        return Vec::new();
    }
    // A burst or an aura has one placement, worth listing if it reaches an
    // eligible creature: asked of their squares, not the whole area.
    if let Distance::Aura(r) | Distance::Burst(r) = a.distance {
        let squares = targets.iter().flat_map(|t| t.space.squares());
        return if crate::map::area::burst_reaches_any(map, user, r, squares) {
            vec![P::OnSelf]
        } else {
            Vec::new()
        };
    }
    let candidates = candidates(creatures, user, a, side, &targets);
    // The first of each, in the order built.
    let mut unique: Vec<P> = Vec::with_capacity(candidates.len());
    for p in candidates {
        if !unique.contains(&p) {
            unique.push(p);
        }
    }
    unique
        .into_iter()
        .filter(|p| {
            check::place_area(map, creatures, user, a.distance, p).is_ok_and(|(area, _)| {
                matches!(p, P::Wall { .. })
                    || a.glyph.is_some()
                    || area
                        .creatures(creatures)
                        .iter()
                        .any(|o| eligible(&a.target.kinds, side, me, o))
            })
        })
        .collect()
}

/// The candidate placements of an area ability around the creatures it
/// may affect, in the order built (docs/rules.md#areas-and-sight).
fn candidates(
    creatures: &[crate::map::Occupant],
    user: crate::map::Footprint,
    a: &crate::ability::Ability,
    side: Side,
    targets: &[&crate::map::Occupant],
) -> Vec<Placement> {
    use Placement as P;
    let mut candidates: Vec<P> = Vec::new();
    match a.distance {
        Distance::Cube { size, .. } => {
            for t in targets {
                let s = size as i32;
                for dy in 0..s {
                    for dx in 0..s {
                        candidates.push(P::Cube {
                            corner: t.space.pos.offset(-dx, -dy),
                        });
                    }
                }
            }
            // A glyph waits for a creature to step on it (docs/rules.md#moving): also
            // on each empty square next to one of the user's side, where
            // an enemy coming to fight it would stand.
            if a.glyph.is_some() {
                for o in creatures.iter().filter(|o| o.side == side) {
                    for q in o.space.around() {
                        if !creatures.iter().any(|c| c.space.contains(q)) {
                            candidates.push(P::Cube { corner: q });
                        }
                    }
                }
            }
        }
        Distance::Line { within, .. } => {
            let w = within as i32;
            for t in targets {
                for dy in -w..=w {
                    for dx in -w..=w {
                        let start = user.pos.offset(dx, dy);
                        if !user.contains(start) && start != t.space.pos {
                            candidates.push(P::Line {
                                start,
                                aim: t.space.pos,
                            });
                        }
                    }
                }
            }
        }
        Distance::Cone { .. } => {
            for t in targets {
                candidates.push(P::Cone { aim: t.space.pos });
            }
        }
        Distance::Sphere { .. } | Distance::Cylinder { .. } => {
            for t in targets {
                candidates.push(P::Sphere {
                    centre: t.space.pos,
                });
            }
        }
        Distance::Wall { squares, .. } => walls(squares, targets, &mut candidates),
        _ => {}
    }
    candidates
}

/// A wall can't go in occupied squares, so it shuts creatures in or out
/// rather than covering them. Listing every shape is too many: a straight
/// wall of `squares` across each side of each creature.
fn walls(squares: u32, targets: &[&crate::map::Occupant], candidates: &mut Vec<Placement>) {
    use Placement as P;
    let n = squares as i32;
    for t in targets {
        let c = t.space.pos;
        let s = t.space.size as i32;
        for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
            let base = c.offset(if dx > 0 { s } else { dx }, if dy > 0 { s } else { dy });
            let squares = (0..n)
                .map(|i| {
                    if dx != 0 {
                        base.offset(0, i - n / 2)
                    } else {
                        base.offset(i - n / 2, 0)
                    }
                })
                .collect();
            candidates.push(P::Wall { squares });
        }
    }
}
