//! Portal pruning: a channel is dropped where others already reach its last portal no longer.

use super::super::triangulation::Navmesh;
use super::super::{Point, distance, orient, point_segment_distance};
use super::LENGTH_EPSILON;
use super::channels::Channel;
use super::table::StampedTable;
use crate::trace::NO_NODE;

/// Part of a channel's last portal, from `from` to `to` (0 is the portal's right end, 1 its left):
/// there the shortest path through the channel from the start is at least `g + |root p|` long.
#[derive(Debug, Clone, Copy)]
struct Piece {
    from: f64,
    to: f64,
    root: Point,
    g: f64,
}

/// A channel is worth extending only where it reaches its last portal shorter than the channels
/// already there; its continuations are then no better than theirs. On fine meshes (many
/// triangles in open space) a great many channels share an apex and only differ in the free
/// vertices they pass, which the apex pruning cannot tell apart; this catches them.
///
/// Per portal (triangle and entry edge), the part each channel there sees from its apex, where
/// its distance is exactly `g(apex) + |apex p|`. A new channel is dropped when those parts
/// cover the part it sees with distances no longer than its own, and cover the rest of the portal
/// with distances no longer than its lower bound there: beyond a side's corner `c`, every path
/// bends at `c`, so it is at least `g(apex) + |apex c| + |c p|` long.
#[derive(Default)]
pub(super) struct PortalDistances {
    /// Per portal (triangle and entry edge), its last piece kept and how many it has: the pieces
    /// are a list through `pieces`, so a new portal costs no allocation of its own.
    portals: StampedTable<(u32, u32)>,
    /// Each piece with the one kept before it at its portal (`NO_NODE` for the first).
    pieces: Vec<(Piece, u32)>,
}

/// Parts kept per portal; more only prune more (and cost more to compare).
const PIECES_PER_PORTAL: usize = 16;

impl PortalDistances {
    /// Empties the table for a search on a mesh of `triangles` triangles.
    pub(super) fn reset(&mut self, triangles: usize) {
        self.portals.reset(3 * triangles);
        self.pieces.clear();
    }

    /// Whether `channel` is dominated at its last portal; if not, its visible part is kept.
    pub(super) fn dominated(&mut self, mesh: &Navmesh, channel: &Channel) -> bool {
        let (left, right) = mesh.edge(channel.tri, channel.entry as usize);
        let length = distance(left, right);
        let Some((visible, beyond)) = portal_pieces(left, right, channel) else { return false };
        let key = 3 * channel.tri + u32::from(channel.entry);
        let (last, count) = self.portals.get(key).unwrap_or((NO_NODE, 0));
        let count = count as usize;
        let mut seen = [visible; PIECES_PER_PORTAL];
        let mut piece = last;
        for slot in &mut seen[..count] {
            (*slot, piece) = self.pieces[piece as usize];
        }
        // Gaps this short between the parts kept cost at most twice their length.
        let gap = LENGTH_EPSILON / length;
        if std::iter::once(visible)
            .chain(beyond.into_iter().flatten())
            .all(|piece| covered(&seen[..count], &piece, gap))
        {
            return true;
        }
        if count < PIECES_PER_PORTAL {
            self.pieces.push((visible, last));
            self.portals.set(key, (self.pieces.len() as u32 - 1, count as u32 + 1));
        }
        false
    }
}

/// The channel's distance over its last portal (`left`, `right`): the part seen from the apex,
/// and beyond each side's corner a lower bound through it. `None` when the apex lies on the
/// portal's line but off the portal, where the funnel's sides say nothing.
fn portal_pieces(left: Point, right: Point, channel: &Channel) -> Option<(Piece, [Option<Piece>; 2])> {
    let (apex, g) = (channel.apex, channel.apex_distance);
    let length = distance(left, right);
    if orient(right, left, apex).abs() <= LENGTH_EPSILON * length {
        // An apex on the portal (its end, as channels turning round a corner have) sees all of it.
        let whole = Piece { from: 0.0, to: 1.0, root: apex, g };
        return (point_segment_distance(apex, left, right) <= LENGTH_EPSILON).then_some((whole, [None, None]));
    }
    // Where the ray from the apex over `corner` meets the portal (the portal's end when the side
    // ends there).
    let end = |corner: Point, at_end: Point, t_end: f64| -> Option<f64> {
        if corner == at_end {
            return Some(t_end);
        }
        let (o_right, o_left) = (orient(apex, corner, right), orient(apex, corner, left));
        let t = o_right / (o_right - o_left);
        t.is_finite().then(|| t.clamp(0.0, 1.0))
    };
    let [left_corner, right_corner] = channel.sides.map(|side| side.point);
    let (t_left, t_right) = (end(left_corner, left, 1.0)?, end(right_corner, right, 0.0)?);
    if t_right > t_left {
        return None;
    }
    let visible = Piece { from: t_right, to: t_left, root: apex, g };
    let around = |corner: Point, from: f64, to: f64| {
        (from < to).then(|| Piece { from, to, root: corner, g: g + distance(apex, corner) })
    };
    Some((visible, [around(left_corner, t_left, 1.0), around(right_corner, 0.0, t_right)]))
}

/// Whether the visible parts `seen` cover `piece` (up to gaps of `gap`) with distances no longer
/// than its own: `g' + |root' p| <= g + |root p|` for every `p`, by `g' + |root' root| <= g`.
fn covered(seen: &[Piece], piece: &Piece, gap: f64) -> bool {
    // At most PIECES_PER_PORTAL spans: on the stack, as this runs for every channel opened.
    let mut spans = [(0.0, 0.0); PIECES_PER_PORTAL];
    let mut count = 0;
    for s in seen {
        // Most channels at a portal share the apex: no square root for those.
        let via = if s.root == piece.root { 0.0 } else { distance(s.root, piece.root) };
        if s.to + gap >= piece.from && s.from <= piece.to + gap && s.g + via <= piece.g + LENGTH_EPSILON {
            spans[count] = (s.from, s.to);
            count += 1;
        }
    }
    let spans = &mut spans[..count];
    spans.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
    let mut reached = None;
    for &mut (from, to) in spans {
        let start = reached.unwrap_or(piece.from);
        if from > start + gap {
            return false;
        }
        reached = Some(start.max(to));
    }
    reached.is_some_and(|reached| reached + gap >= piece.to)
}
