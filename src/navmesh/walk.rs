//! Jump-and-walk point location, the teaching version of what spade's `locate` does: look at `k`
//! sample triangles, jump to the one whose centre is nearest the query point, then walk: leave
//! the triangle by an edge that has the point on its far side, until no edge does.
//!
//! The walk tries a triangle's edges from a rotating starting edge: a constrained triangulation is
//! not Delaunay, and a walk that always tries edges in the same order can circle forever.

use super::triangulation::Navmesh;
use super::{Point, distance, orient};
use crate::trace::{NO_NODE, Tracer};

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum WalkEvent {
    /// A sample triangle and the distance from its centre to the point.
    Sample { triangle: u32, distance: f64 },
    /// The walk starts here (the nearest sample).
    Jump { triangle: u32 },
    /// The walk crosses into this triangle.
    Step { triangle: u32 },
    /// The point is in (or on) this triangle; `None` when the walk left the map.
    Found { triangle: Option<u32> },
}

/// Locates `p`: the triangle (walkable or not) holding it, or `None` outside the triangulation.
pub fn jump_and_walk<T: Tracer<WalkEvent>>(mesh: &Navmesh, p: Point, samples: usize, tracer: &mut T) -> Option<u32> {
    let n = mesh.triangles.len();
    if n == 0 {
        tracer.record(|| WalkEvent::Found { triangle: None });
        return None;
    }
    let centre = |t: u32| {
        let [a, b, c] = mesh.triangle_points(t);
        [(a[0] + b[0] + c[0]) / 3.0, (a[1] + b[1] + c[1]) / 3.0]
    };
    // Evenly spread samples keep runs repeatable.
    let k = samples.clamp(1, n);
    let mut nearest = (f64::INFINITY, 0);
    for s in 0..k {
        let triangle = (s * n / k) as u32;
        let d = distance(centre(triangle), p);
        tracer.record(|| WalkEvent::Sample { triangle, distance: d });
        if d < nearest.0 {
            nearest = (d, triangle);
        }
    }
    let mut t = nearest.1;
    tracer.record(|| WalkEvent::Jump { triangle: t });
    let mut rotation = 0;
    // Each step moves to a triangle nearer the point along some line; the bound only stops a
    // walk that rounding has trapped.
    for _ in 0..4 * n + 16 {
        let tri = &mesh.triangles[t as usize];
        rotation = (rotation + 1) % 3;
        let exit = (0..3).map(|k| (k + rotation) % 3).find(|&i| {
            let (a, b) = mesh.edge(t, i);
            orient(a, b, p) < 0.0
        });
        match exit {
            None => {
                tracer.record(|| WalkEvent::Found { triangle: Some(t) });
                return Some(t);
            }
            Some(i) if tri.neighbours[i] == NO_NODE => break,
            Some(i) => {
                t = tri.neighbours[i];
                tracer.record(|| WalkEvent::Step { triangle: t });
            }
        }
    }
    tracer.record(|| WalkEvent::Found { triangle: None });
    None
}

/// What a recorded walk looks like at one step: the triangles sampled, the one jumped to, the
/// triangles walked through (the last is where the walk is), and the answer once found.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct WalkView {
    pub samples: Vec<u32>,
    pub jump: Option<u32>,
    pub walked: Vec<u32>,
    pub found: Option<Option<u32>>,
}

impl crate::trace::Replay for WalkView {
    type Event = WalkEvent;
    /// The answer before a `Found` (the other events are undone by popping).
    type Undo = Option<Option<u32>>;

    fn apply(&mut self, event: &WalkEvent) -> Self::Undo {
        match *event {
            WalkEvent::Sample { triangle, .. } => self.samples.push(triangle),
            WalkEvent::Jump { triangle } => {
                self.jump = Some(triangle);
                self.walked.push(triangle);
            }
            WalkEvent::Step { triangle } => self.walked.push(triangle),
            WalkEvent::Found { triangle } => return self.found.replace(triangle),
        }
        None
    }

    fn revert(&mut self, _done: &[WalkEvent], undo: Self::Undo) {
        if self.found.is_some() {
            self.found = undo;
            return;
        }
        match (self.walked.len(), self.jump) {
            (0, _) => {
                self.samples.pop();
            }
            (1, Some(_)) => {
                self.walked.pop();
                self.jump = None;
            }
            _ => {
                self.walked.pop();
            }
        }
    }
}
