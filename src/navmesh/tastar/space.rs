//! Growing a channel: its children across the triangle's edges, whether a round agent fits
//! through, their g and f bounds, and TRA*'s corridors crossed in one step.

use super::super::reduction::Reduction;
use super::super::triangulation::Navmesh;
use super::super::{Point, distance, orient, point_segment_distance};
use super::MeshQuery;
use super::channels::{Channel, Channels, Side};
use crate::trace::NO_NODE;

/// What the steps of one search share: the mesh (with TRA*'s reduction) and the query's ends.
pub(super) struct SearchSpace<'a> {
    pub(super) mesh: &'a Navmesh,
    pub(super) reduction: Option<&'a Reduction>,
    /// With a reduction: the dead ends the search may enter, those towards the start or goal.
    allowed_dead_ends: Option<Vec<u32>>,
    pub(super) start: Point,
    pub(super) goal: Point,
    pub(super) radius: f64,
    pub(super) goals: Vec<u32>,
}

impl<'a> SearchSpace<'a> {
    pub(super) fn new(
        mesh: &'a Navmesh,
        reduction: Option<&'a Reduction>,
        query: &MeshQuery,
        starts: &[u32],
        goals: Vec<u32>,
    ) -> Self {
        let allowed_dead_ends = reduction.map(|r| r.branches_to_core(starts.iter().chain(&goals).copied()));
        Self { mesh, reduction, allowed_dead_ends, start: query.start, goal: query.goal, radius: query.radius, goals }
    }

    fn viable(&self, t: u32) -> bool {
        match (self.reduction, &self.allowed_dead_ends) {
            (Some(r), Some(allowed)) => !r.is_dead_end(t) || allowed.contains(&t),
            _ => true,
        }
    }

    /// The child of `node` across edge `i`, if an agent fits through and it is not on the
    /// channel, with its funnel but its parent's g and f: TRA* only needs them where a corridor
    /// ends (`estimate` then).
    pub(super) fn child(&self, nodes: &mut Channels, node: u32, i: usize) -> Option<Channel> {
        let mesh = self.mesh;
        let parent = nodes.nodes[node as usize];
        let next = mesh.passable(parent.tri, i)?;
        if !self.viable(next) || !fits(mesh, parent.tri, parent.entry, i, self.radius) || nodes.on_channel(next) {
            return None;
        }
        let entry = mesh.triangles[next as usize]
            .neighbours
            .iter()
            .position(|&n| n == parent.tri)
            .expect("neighbours are mutual");
        let mut child = Channel { tri: next, entry: entry as u8, parent: node, ..parent };
        if self.radius == 0.0 {
            let v = mesh.triangles[parent.tri as usize].vertices;
            let corner = |v: u32| Side { point: mesh.vertices[v as usize], vertex: v };
            if !nodes.advance_apex(mesh, &mut child, [corner(v[(i + 1) % 3]), corner(v[i])]) {
                return None;
            }
        }
        Some(child)
    }

    /// g and f of a channel opened with its parent's: the largest of those and its own bounds.
    pub(super) fn estimate(&self, child: &Channel) -> (f64, f64) {
        let (a, b) = self.mesh.edge(child.tri, child.entry as usize);
        if self.radius == 0.0 {
            // No shorter than the straight distance from the start: the start, the apex and the
            // edge form a triangle.
            let g = child.g.max(child.apex_distance + point_segment_distance(child.apex, a, b));
            // Every path through the channel passes the apex, then the edge, then goes on to
            // the goal (Polyanya's estimate). It is at least g + h unless the parent's g is
            // the larger, which is rare enough that computing h costs more than it prunes.
            (g, child.f.max(child.apex_distance + through_segment(child.apex, a, b, self.goal)))
        } else {
            let g = child.g.max(point_segment_distance(self.start, a, b));
            (g, child.f.max(g + point_segment_distance(self.goal, a, b)))
        }
    }

    /// Follows a corridor from `next` to its end in one step: its triangles offer no choice. So do
    /// the dead ends the search may enter (towards the start or goal) but where the branches of
    /// the two meet. `None` when the corridor leads nowhere new.
    pub(super) fn follow_corridor(
        &self,
        reduction: &Reduction,
        nodes: &mut Channels,
        mut next: Channel,
    ) -> Option<Channel> {
        let corridor_start = nodes.nodes.len();
        let mut dead = false;
        while !reduction.is_decision(next.tri) && !self.goals.contains(&next.tri) {
            let id = nodes.push(next);
            nodes.marked[next.tri as usize] = id;
            let mut exits = (0..3).filter(|&j| j != next.entry as usize).filter_map(|j| self.child(nodes, id, j));
            match (exits.next(), exits.next()) {
                (Some(only), None) => next = only,
                // A branch towards the start or goal leaves here: the search decides.
                (Some(_), Some(_)) => {
                    nodes.marked[next.tri as usize] = NO_NODE;
                    nodes.pop();
                    break;
                }
                (None, _) => {
                    dead = true;
                    break;
                }
            }
        }
        // The sibling corridors start again from the expanded channel.
        for corridor in &nodes.nodes[corridor_start..] {
            nodes.marked[corridor.tri as usize] = NO_NODE;
        }
        if dead {
            nodes.truncate(corridor_start);
            return None;
        }
        Some(next)
    }
}

/// The length of the shortest way from `from` to `to` through a point of segment `a b`. With
/// `to` mirrored across the segment's line when both lie on one side, it is straight where the
/// segment crosses the line between them, else it turns at the nearer end.
fn through_segment(from: Point, a: Point, b: Point, to: Point) -> f64 {
    let to = if orient(a, b, from) * orient(a, b, to) > 0.0 { mirror(to, a, b) } else { to };
    if orient(from, to, a) * orient(from, to, b) <= 0.0 {
        distance(from, to)
    } else {
        (distance(from, a) + distance(a, to)).min(distance(from, b) + distance(b, to))
    }
}

/// `p` mirrored across the line through `a` and `b` (distinct).
fn mirror(p: Point, a: Point, b: Point) -> Point {
    let d = [b[0] - a[0], b[1] - a[1]];
    let t = ((p[0] - a[0]) * d[0] + (p[1] - a[1]) * d[1]) / (d[0] * d[0] + d[1] * d[1]);
    let foot = [a[0] + t * d[0], a[1] + t * d[1]];
    [2.0 * foot[0] - p[0], 2.0 * foot[1] - p[1]]
}

/// Whether a disc of `radius` can cross triangle `t` from edge `entry` (3: it starts inside) to
/// edge `exit`: both edges must be at least `2 * radius` wide between obstacle corners, and so must
/// the gap between their shared corner and an obstacle edge opposite it (Demyen's width).
fn fits(mesh: &Navmesh, t: u32, entry: u8, exit: usize, radius: f64) -> bool {
    if radius <= 0.0 {
        return true;
    }
    let tri = &mesh.triangles[t as usize];
    let width = |i: usize| {
        let (a, b) = (tri.vertices[i], tri.vertices[(i + 1) % 3]);
        if mesh.on_obstacle[a as usize] && mesh.on_obstacle[b as usize] {
            distance(mesh.vertices[a as usize], mesh.vertices[b as usize])
        } else {
            f64::INFINITY
        }
    };
    let diameter = 2.0 * radius;
    if width(exit) < diameter {
        return false;
    }
    let entry = entry as usize;
    if entry == 3 {
        return true;
    }
    if width(entry) < diameter {
        return false;
    }
    // Edges entry and exit share one vertex; the third edge lies opposite it.
    let third = 3 - entry - exit;
    if !tri.constrained[third] {
        return true;
    }
    let shared = mesh.vertices[tri.vertices[(third + 2) % 3] as usize];
    let (a, b) = mesh.edge(t, third);
    point_segment_distance(shared, a, b) >= diameter
}
