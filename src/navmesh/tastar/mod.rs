//! TA*, triangulation A* (Demyen & Buro 2006): best-first search over the triangles of a
//! navigation mesh whose nodes are channels (paths of triangles), not triangles, so a triangle can
//! be reached along several channels. A channel of a round agent never enters a triangle twice.
//! A point agent's channels are not checked for that (the check walked the tree between
//! consecutive expansions and took a fifth of the time on random512): a channel looping round an
//! obstacle bends at its corners and reaches them longer than the channels that go straight there,
//! so the apex pruning below drops it; one looping round a free vertex bends there and is dropped
//! too.
//!
//! - h: the Euclidean distance from the goal to the edge the channel entered the triangle by.
//! - g: a lower bound on the distance travelled to that edge: the largest of the distance from
//!   the start to the edge, the parent's g (consecutive edges of a triangle touch) and, for a
//!   point agent, the exact length to the funnel's apex plus the distance from the apex to the
//!   edge. Demyen's third term, g(parent) + h(parent) - h(child), only stops f from falling
//!   along a channel; it is kept as f = max(f(parent), g + h) so that g itself stays a lower bound.
//! - Pruning (point agent): every shortest path through a channel passes its funnel's apex, a
//!   corner reached by a taut path of known length. A channel whose apex some other channel
//!   reached by a strictly shorter path cannot lead to a shortest path (Polyanya's root pruning),
//!   so it is dropped. The apex term of g and this pruning keep the channels from multiplying
//!   with every obstacle passed on open maps (tests: a pillar field; bench: random512).
//! - f (point agent): also at least the apex's distance plus the shortest way from the apex
//!   through the entry edge to the goal (Polyanya's estimate, by mirroring the goal).
//! - Anytime: reaching the goal's triangle gives a channel whose funnel path is a real path; the
//!   search goes on until the lowest f in the open list is no shorter than the best path, which is
//!   then the shortest (any-angle) path.
//!
//! TRA* ([`super::trastar`]) runs this same search on the reduced triangulation ([`super::reduction`]).

mod channels;
mod portals;
mod space;
mod table;

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use super::funnel::{Route, channel_path};
use super::polygon::{MAX_COORDINATE, within_bounds};
use super::reduction::Reduction;
use super::triangulation::{Location, Navmesh};
use super::{Point, distance, orient};
use crate::pathfinding::search_trace::SearchEvent;
use crate::text::number;
use crate::trace::{NO_NODE, NoTrace, Tracer};
use channels::{Channel, Channels, Side};
use portals::PortalDistances;
use space::SearchSpace;
use table::StampedTable;

/// Lengths closer than this are equal.
const LENGTH_EPSILON: f64 = 1e-9;

/// How many search nodes a query may expand unless told otherwise: far more than any map a
/// class draws needs, few enough that a pathological mesh ends in seconds with a message.
pub const DEFAULT_MAX_EXPANSIONS: usize = 2_000_000;

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MeshQuery {
    pub start: Point,
    pub goal: Point,
    /// The agent's radius (0 for a point).
    pub radius: f64,
    /// Stop at the first path instead of proving the shortest.
    pub first_path_only: bool,
    /// The search gives up with an error after this many expansions.
    pub max_expansions: usize,
}

impl MeshQuery {
    pub fn new(start: Point, goal: Point) -> Self {
        Self { start, goal, radius: 0.0, first_path_only: false, max_expansions: DEFAULT_MAX_EXPANSIONS }
    }
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct MeshPath {
    pub length: f64,
    pub waypoints: Vec<Point>,
    /// The triangles the path runs through.
    pub channel: Vec<u32>,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct MeshSearchResult {
    /// The best path found (the shortest unless `first_path_only`), or `None` if there is none.
    pub path: Option<MeshPath>,
    /// The length of the first path found.
    pub first_length: Option<f64>,
    /// Search nodes taken off the open list.
    pub expanded: usize,
    /// Paths to the goal found, each shorter than the one before.
    pub improvements: usize,
}

/// An open search node of TA* or Polyanya.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct OpenEntry {
    pub f: f64,
    pub g: f64,
    pub node: u32,
}

impl Eq for OpenEntry {}

impl Ord for OpenEntry {
    /// The heap pops the lowest f first, then the largest g (the channel closest to the goal).
    fn cmp(&self, other: &Self) -> Ordering {
        other.f.total_cmp(&self.f).then(self.g.total_cmp(&other.g)).then(other.node.cmp(&self.node))
    }
}

impl PartialOrd for OpenEntry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// The walkable triangles holding `p`, or an error naming `what` ("start", "goal").
pub fn locate_free(mesh: &Navmesh, p: Point, radius: f64, what: &str) -> Result<Vec<u32>, String> {
    if !within_bounds(p) {
        return Err(format!("{what} {p:?} is beyond ±{MAX_COORDINATE}"));
    }
    match mesh.locate(p) {
        Location::Triangles(triangles) => {
            if radius > 0.0 && mesh.clearance(p) < radius - LENGTH_EPSILON {
                return Err(format!("{what} {p:?} is closer than the radius {radius} to an obstacle"));
            }
            Ok(triangles)
        }
        Location::InObstacle => Err(format!("{what} {p:?} is inside an obstacle")),
        Location::OutsideMap => Err(format!("{what} {p:?} is outside the map")),
    }
}

/// TA*: the shortest path for `query` (or the first one found).
pub fn ta_star<T: Tracer<SearchEvent>>(
    mesh: &Navmesh,
    query: &MeshQuery,
    tracer: &mut T,
) -> Result<MeshSearchResult, String> {
    SearchScratch::default().search(mesh, query, None, tracer)
}

/// What a search needs besides the mesh: its nodes, open list and pruning tables. Kept between
/// queries, a query allocates nothing once they have grown; on small maps allocating them took
/// longer than the search itself.
#[derive(Default)]
pub struct SearchScratch {
    nodes: Channels,
    open: BinaryHeap<OpenEntry>,
    /// The shortest known taut path to each apex corner, by vertex.
    shortest_to_apex: StampedTable<f64>,
    portals: PortalDistances,
}

impl SearchScratch {
    /// TA* ([`ta_star`]) with these buffers.
    pub fn ta_star<T: Tracer<SearchEvent>>(
        &mut self,
        mesh: &Navmesh,
        query: &MeshQuery,
        tracer: &mut T,
    ) -> Result<MeshSearchResult, String> {
        self.search(mesh, query, None, tracer)
    }

    /// The anytime channel search; with a `reduction` (TRA*) it skips dead ends and crosses each
    /// corridor in one step.
    pub(super) fn search<T: Tracer<SearchEvent>>(
        &mut self,
        mesh: &Navmesh,
        query: &MeshQuery,
        reduction: Option<&Reduction>,
        tracer: &mut T,
    ) -> Result<MeshSearchResult, String> {
        self.reset(mesh);
        let MeshQuery { start, goal, radius, first_path_only, max_expansions } = *query;
        if !(radius.is_finite() && radius >= 0.0) {
            return Err(format!("the radius {} is not a number >= 0", number(radius)));
        }
        let starts = locate_free(mesh, start, radius, "start")?;
        let goals = locate_free(mesh, goal, radius, "goal")?;
        if let Some(result) = straight_line(mesh, query, &starts, &goals, tracer) {
            return Ok(result);
        }
        let space = SearchSpace::new(mesh, reduction, query, &starts, goals);
        self.open_starts(&starts, start, goal, tracer);

        let mut result = MeshSearchResult { path: None, first_length: None, expanded: 0, improvements: 0 };
        let mut best = f64::INFINITY;
        while let Some(OpenEntry { f, node, .. }) = self.open.pop() {
            if f >= best - LENGTH_EPSILON {
                break;
            }
            if result.expanded == max_expansions {
                let task = if first_path_only || result.path.is_none() {
                    "no path found"
                } else {
                    "the shortest path not proven"
                };
                return Err(format!("search stopped at its limit of {max_expansions} expansions: {task}"));
            }
            let current = self.nodes.nodes[node as usize];
            result.expanded += 1;
            if radius > 0.0 {
                self.nodes.mark_channel(node);
            }
            tracer.record(|| SearchEvent::Expand { node: current.tri });
            if space.goals.contains(&current.tri) {
                self.reach_goal(&space, node, &mut result, &mut best, tracer);
                if first_path_only {
                    break;
                }
                continue;
            }
            for i in 0..3 {
                if i != current.entry as usize {
                    self.open_child(&space, node, i, best, tracer);
                }
            }
        }
        if result.path.is_none() {
            tracer.record(|| SearchEvent::Exhausted);
        }
        Ok(result)
    }

    /// Empties the buffers for a search on `mesh`.
    fn reset(&mut self, mesh: &Navmesh) {
        self.nodes.reset(mesh.triangles.len());
        self.open.clear();
        self.shortest_to_apex.reset(mesh.vertices.len());
        self.portals.reset(mesh.triangles.len());
    }

    /// Opens a channel of one triangle at each of the start's triangles.
    fn open_starts<T: Tracer<SearchEvent>>(&mut self, starts: &[u32], start: Point, goal: Point, tracer: &mut T) {
        let h_start = distance(start, goal);
        for &tri in starts {
            let node = self.nodes.push(Channel {
                tri,
                entry: 3,
                parent: NO_NODE,
                g: 0.0,
                f: h_start,
                apex: start,
                apex_vertex: NO_NODE,
                apex_bend: NO_NODE,
                apex_distance: 0.0,
                sides: [Side { point: start, vertex: NO_NODE }; 2],
                ends: [NO_NODE; 2],
            });
            self.open.push(OpenEntry { f: h_start, g: 0.0, node });
            tracer.record(|| SearchEvent::Open { node: tri, parent: NO_NODE, g: 0.0, h: h_start });
        }
    }

    /// The channel ending at `node` reached a goal triangle: its funnel path is a real path, kept
    /// in `result` when shorter than the `best` so far.
    fn reach_goal<T: Tracer<SearchEvent>>(
        &self,
        space: &SearchSpace,
        node: u32,
        result: &mut MeshSearchResult,
        best: &mut f64,
        tracer: &mut T,
    ) {
        let channel = self.nodes.channel(node);
        let Route { waypoints, length } =
            channel_path(space.mesh, space.start, space.goal, &channel, space.radius, &mut NoTrace);
        result.first_length.get_or_insert(length);
        if length < *best {
            *best = length;
            result.improvements += 1;
            if T::ENABLED {
                tracer.record(|| SearchEvent::Found { cost: length, path: channel.clone() });
            }
            result.path = Some(MeshPath { length, waypoints, channel });
        }
    }

    /// Opens the child of `node` across edge `i` (with TRA*, the channel at its corridor's end)
    /// unless it cannot be shorter than `best` or another channel prunes it.
    fn open_child<T: Tracer<SearchEvent>>(
        &mut self,
        space: &SearchSpace,
        node: u32,
        i: usize,
        best: f64,
        tracer: &mut T,
    ) {
        let Some(mut next) = space.child(&mut self.nodes, node, i) else { return };
        if let Some(reduction) = space.reduction {
            let Some(end) = space.follow_corridor(reduction, &mut self.nodes, next) else { return };
            next = end;
        }
        (next.g, next.f) = space.estimate(&next);
        if next.f >= best - LENGTH_EPSILON || (space.radius == 0.0 && self.pruned(space.mesh, &next)) {
            return;
        }
        let id = self.nodes.push(next);
        self.open.push(OpenEntry { f: next.f, g: next.g, node: id });
        let parent_tri = self.nodes.nodes[next.parent as usize].tri;
        tracer.record(|| SearchEvent::Open { node: next.tri, parent: parent_tri, g: next.g, h: next.f - next.g });
    }

    /// Point agent: whether some other channel reached `next`'s apex by a strictly shorter path,
    /// or reaches its last portal no longer ([`PortalDistances`]).
    fn pruned(&mut self, mesh: &Navmesh, next: &Channel) -> bool {
        // The start (no vertex) is every channel's apex at distance 0 until it moves.
        if next.apex_vertex != NO_NODE {
            match self.shortest_to_apex.get(next.apex_vertex) {
                Some(known) if next.apex_distance > known + LENGTH_EPSILON => return true,
                Some(known) if known <= next.apex_distance => {}
                _ => self.shortest_to_apex.set(next.apex_vertex, next.apex_distance),
            }
        }
        self.portals.dominated(mesh, next)
    }
}

/// The result when the goal is in sight (see [`straight_channel`]). A round agent only takes the
/// straight line inside one triangle: convex, so the line keeps the clearance its ends have.
fn straight_line<T: Tracer<SearchEvent>>(
    mesh: &Navmesh,
    query: &MeshQuery,
    starts: &[u32],
    goals: &[u32],
    tracer: &mut T,
) -> Option<MeshSearchResult> {
    let MeshQuery { start, goal, radius, .. } = *query;
    let reach = if radius == 0.0 { mesh.triangles.len() } else { 1 };
    let channel = straight_channel(mesh, start, goal, starts, goals, reach)?;
    let length = distance(start, goal);
    if T::ENABLED {
        tracer.record(|| SearchEvent::Found { cost: length, path: channel.clone() });
    }
    Some(MeshSearchResult {
        path: Some(MeshPath { length, waypoints: vec![start, goal], channel }),
        first_length: Some(length),
        expanded: 0,
        improvements: 1,
    })
}

/// The triangles the segment from `start` to `goal` runs through when it stays in free space, the
/// shortest path then: from a triangle of `starts` out through open edges, each crossed strictly
/// between its ends, into one of `goals` within `reach` triangles. `None` where it meets an
/// obstacle edge or passes through a vertex; the search decides there. On open maps the goal is
/// often in sight, and this walk costs far less than a search.
fn straight_channel(
    mesh: &Navmesh,
    start: Point,
    goal: Point,
    starts: &[u32],
    goals: &[u32],
    reach: usize,
) -> Option<Vec<u32>> {
    // Edge i runs counter-clockwise: the goal lies beyond it on its right.
    let step = |t: u32| {
        let exit = (0..3).find(|&i| {
            let (a, b) = mesh.edge(t, i);
            orient(a, b, goal) < 0.0 && orient(start, goal, a) * orient(start, goal, b) < 0.0
        });
        exit.and_then(|i| mesh.passable(t, i))
    };
    'starts: for &first in starts {
        let (mut t, mut steps) = (first, 1);
        while !goals.contains(&t) {
            if steps == reach {
                continue 'starts;
            }
            let Some(next) = step(t) else { continue 'starts };
            (t, steps) = (next, steps + 1);
        }
        // Walked again to list the triangles: most walks fail, and those allocate nothing.
        return Some(std::iter::successors(Some(first), |&t| step(t)).take(steps).collect());
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::navmesh::PolygonMap;

    fn u_hall() -> Navmesh {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("maps/u_hall.json");
        Navmesh::build(&PolygonMap::load(&path).unwrap().outline(), None).unwrap()
    }

    #[test]
    fn a_goal_in_sight_is_walked_to_without_a_search() {
        // The hall's left arm, x from 0 to 10, with a square hole at x 3..6, y 14..17.
        let mesh = u_hall();
        let (start, goal) = ([8.0, 28.0], [8.0, 2.0]);
        let seen = ta_star(&mesh, &MeshQuery::new(start, goal), &mut NoTrace).unwrap();
        let path = seen.path.unwrap();
        assert_eq!((seen.expanded, path.length, path.waypoints), (0, 26.0, vec![start, goal]));
        assert!(path.channel.len() > 2, "the line crosses several triangles: {:?}", path.channel);
        for pair in path.channel.windows(2) {
            assert!(mesh.triangles[pair[0] as usize].neighbours.contains(&pair[1]), "a channel of neighbours");
        }

        let behind_the_hole = ta_star(&mesh, &MeshQuery::new([5.0, 28.0], [5.0, 2.0]), &mut NoTrace).unwrap();
        assert!(behind_the_hole.expanded > 0 && behind_the_hole.path.unwrap().length > 26.0);

        // A round agent is searched for (the walk knows nothing of clearance), here to the same line.
        let round = ta_star(&mesh, &MeshQuery { radius: 0.5, ..MeshQuery::new(start, goal) }, &mut NoTrace).unwrap();
        assert!(round.expanded > 0);
        assert!((round.path.unwrap().length - 26.0).abs() < 1e-9);
    }
}
