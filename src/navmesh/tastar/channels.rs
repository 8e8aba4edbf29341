//! The search's nodes: channels with their funnels, the bends the funnels share, and the set of
//! channels with the one being extended marked.

use super::super::funnel::point_turn;
use super::super::triangulation::Navmesh;
use super::super::{Point, distance};
use crate::trace::NO_NODE;

/// One search node: the channel ending in `tri`, entered by edge `entry` (3 for the start). For a
/// point agent, its funnel after the last portal: the apex, reached by a taut path of length
/// `apex_distance`, and the taut paths from there to the portal's left and right ends (chains of
/// [`Bend`]s, shared with the channels they grew from), so that a child adds its one portal
/// instead of walking back to the apex.
#[derive(Debug, Clone, Copy)]
pub(super) struct Channel {
    pub(super) tri: u32,
    pub(super) entry: u8,
    pub(super) parent: u32,
    pub(super) g: f64,
    pub(super) f: f64,
    pub(super) apex: Point,
    /// The apex's vertex, `NO_NODE` for the start.
    pub(super) apex_vertex: u32,
    /// The apex's bend, `NO_NODE` for the start.
    pub(super) apex_bend: u32,
    pub(super) apex_distance: f64,
    /// The first corner of each side's chain: where the funnel narrows most (the apex when empty).
    pub(super) sides: [Side; 2],
    /// The last bend of each side's chain (`apex_bend` when the chain is empty).
    pub(super) ends: [u32; 2],
}

/// A corner of a funnel's side: its point and vertex (`NO_NODE` for the start).
#[derive(Debug, Clone, Copy)]
pub(super) struct Side {
    pub(super) point: Point,
    pub(super) vertex: u32,
}

/// A corner in a funnel's chain, with the bend before it (towards the apex): the chain's first
/// bend follows the apex's. Channels share bends, so a child's funnel costs two new ones.
#[derive(Debug, Clone, Copy)]
struct Bend {
    side: Side,
    before: u32,
}

/// Every search node made so far, and the channel being extended: `current` holds its nodes from
/// the start and `marked[t]` the node through triangle `t` (`NO_NODE` off the channel), so
/// checking a child for a revisit costs one look-up.
#[derive(Default)]
pub(super) struct Channels {
    pub(super) nodes: Vec<Channel>,
    /// Each node's triangle, parent and entry edge, apart from the rest: walking channels only reads these,
    /// and a compact array keeps that walk in cache.
    links: Vec<[u32; 3]>,
    pub(super) marked: Vec<u32>,
    current: Vec<u32>,
    /// The nodes [`Self::mark_channel`] adds, kept to reuse the allocation.
    branch: Vec<u32>,
    /// The funnels' corners, shared between channels (see [`Channel`]).
    bends: Vec<Bend>,
    /// The chain the apex moves along, from its end (kept to reuse the allocation).
    chain: Vec<u32>,
}

impl Channels {
    /// Empties the set for a search on a mesh of `triangles` triangles: only the channel marked
    /// last is unmarked, not the whole mesh.
    pub(super) fn reset(&mut self, triangles: usize) {
        if self.marked.len() == triangles {
            for &node in &self.current {
                self.marked[self.links[node as usize][0] as usize] = NO_NODE;
            }
        } else {
            self.marked = vec![NO_NODE; triangles];
        }
        self.nodes.clear();
        self.links.clear();
        self.current.clear();
        self.bends.clear();
    }

    pub(super) fn push(&mut self, channel: Channel) -> u32 {
        self.nodes.push(channel);
        self.links.push([channel.tri, channel.parent, u32::from(channel.entry)]);
        self.nodes.len() as u32 - 1
    }

    pub(super) fn pop(&mut self) {
        self.nodes.pop();
        self.links.pop();
    }

    pub(super) fn truncate(&mut self, len: usize) {
        self.nodes.truncate(len);
        self.links.truncate(len);
    }

    /// Makes the channel ending at `node` the one being extended. Only the part after the
    /// branch it shares with the last one is re-marked: walking whole channels on every
    /// expansion made long searches quadratic.
    pub(super) fn mark_channel(&mut self, node: u32) {
        self.branch.clear();
        let mut shared = node;
        while shared != NO_NODE && self.marked[self.links[shared as usize][0] as usize] != shared {
            self.branch.push(shared);
            shared = self.links[shared as usize][1];
        }
        while let Some(&last) = self.current.last()
            && last != shared
        {
            self.current.pop();
            self.marked[self.links[last as usize][0] as usize] = NO_NODE;
        }
        for &node in self.branch.iter().rev() {
            self.current.push(node);
            self.marked[self.links[node as usize][0] as usize] = node;
        }
    }

    /// Whether the channel being extended runs through `tri`.
    pub(super) fn on_channel(&self, tri: u32) -> bool {
        self.marked[tri as usize] != NO_NODE
    }

    /// Adds the portal (left, right) that `child` entered by to its funnel (Lee & Preparata): a
    /// side the new corner narrows becomes that corner alone; one it widens takes it at the end
    /// of its chain, after the corners it makes redundant. A corner past the other side moves the
    /// apex along that side's chain, as far as the corner sees past it. False when the apex
    /// moves to a vertex in open space: a shortest path bends only at obstacle corners, so the
    /// channel holds none (a path through such a vertex that does not bend there is also in the
    /// channel passing it on the other side).
    /// Ties go as in the funnel that restarts from the apex (it walked the channel back on every
    /// crossing, over a third of TA*'s time on Boston_0_512): an empty side takes any corner, and
    /// a corner on the other side's line crosses it. So a corner is looked at again when the next
    /// portal shares it: the side it ends may have been empty when it came, past the other's line.
    pub(super) fn advance_apex(&mut self, mesh: &Navmesh, child: &mut Channel, portal: [Side; 2]) -> bool {
        for side in [1, 0] {
            // Mirror the turns for the left side.
            let sign = if side == 1 { 1.0 } else { -1.0 };
            let new = portal[side];
            let this = child.sides[side];
            if sign * point_turn(child.apex, this.point, new.point) < 0.0 {
                // It widens the funnel: the side's first corner stays, the end moves.
                let mut end = child.ends[side];
                while let Bend { side: last, before } = self.bends[end as usize]
                    && before != child.apex_bend
                    && sign * point_turn(self.bends[before as usize].side.point, last.point, new.point) >= 0.0
                {
                    end = before;
                }
                child.ends[side] = self.bend(new, end);
                continue;
            }
            let other = child.sides[1 - side];
            let empty = child.ends[side] == child.apex_bend || this.point == child.apex;
            if !empty && sign * point_turn(child.apex, other.point, new.point) >= 0.0 {
                // Past the other side: the apex moves along its chain, corner by corner, while the
                // new corner lies past the chain's next piece.
                self.chain.clear();
                let mut bend = child.ends[1 - side];
                while bend != child.apex_bend {
                    self.chain.push(bend);
                    bend = self.bends[bend as usize].before;
                }
                let mut rest = self.chain.len();
                while let Some(&next) = rest.checked_sub(1).and_then(|i| self.chain.get(i)) {
                    let corner = self.bends[next as usize].side;
                    if rest < self.chain.len() && sign * point_turn(child.apex, corner.point, new.point) < 0.0 {
                        break;
                    }
                    if !mesh.on_obstacle[corner.vertex as usize] {
                        return false;
                    }
                    child.apex_distance += distance(child.apex, corner.point);
                    (child.apex, child.apex_vertex, child.apex_bend) = (corner.point, corner.vertex, next);
                    rest -= 1;
                }
                let apex = Side { point: child.apex, vertex: child.apex_vertex };
                (child.sides[1 - side], child.ends[1 - side]) = match rest {
                    0 => (apex, child.apex_bend),
                    _ => (self.bends[self.chain[rest - 1] as usize].side, child.ends[1 - side]),
                };
            }
            // It narrows the funnel (from the apex, perhaps just moved): the side is the new corner.
            child.sides[side] = new;
            child.ends[side] = self.bend(new, child.apex_bend);
        }
        true
    }

    /// A new bend at `side`, after `before`.
    fn bend(&mut self, side: Side, before: u32) -> u32 {
        self.bends.push(Bend { side, before });
        self.bends.len() as u32 - 1
    }

    /// The triangles of the channel ending at `node`, from the start.
    pub(super) fn channel(&self, mut node: u32) -> Vec<u32> {
        let mut channel = Vec::new();
        while node != NO_NODE {
            channel.push(self.nodes[node as usize].tri);
            node = self.nodes[node as usize].parent;
        }
        channel.reverse();
        channel
    }
}
