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

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use super::funnel::{Route, channel_path, point_turn};
use super::polygon::{MAX_COORDINATE, within_bounds};
use super::reduction::Reduction;
use super::triangulation::{Location, Navmesh};
use super::{Point, distance, orient, point_segment_distance};
use crate::graph::NodeMap;
use crate::pathfinding::search_trace::SearchEvent;
use crate::text::number;
use crate::trace::{NO_NODE, NoTrace, Tracer};

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

/// One search node: the channel ending in `tri`, entered by edge `entry` (3 for the start). For a
/// point agent, its funnel after the last portal: the apex, reached by a taut path of length
/// `apex_distance`, and the taut paths from there to the portal's left and right ends (chains of
/// [`Bend`]s, shared with the channels they grew from), so that a child adds its one portal
/// instead of walking back to the apex.
#[derive(Debug, Clone, Copy)]
struct Channel {
    tri: u32,
    entry: u8,
    parent: u32,
    g: f64,
    f: f64,
    apex: Point,
    /// The apex's vertex, `NO_NODE` for the start.
    apex_vertex: u32,
    /// The apex's bend, `NO_NODE` for the start.
    apex_bend: u32,
    apex_distance: f64,
    /// The first corner of each side's chain: where the funnel narrows most (the apex when empty).
    sides: [Side; 2],
    /// The last bend of each side's chain (`apex_bend` when the chain is empty).
    ends: [u32; 2],
}

/// A corner of a funnel's side: its point and vertex (`NO_NODE` for the start).
#[derive(Debug, Clone, Copy)]
struct Side {
    point: Point,
    vertex: u32,
}

/// A corner in a funnel's chain, with the bend before it (towards the apex): the chain's first
/// bend follows the apex's. Channels share bends, so a child's funnel costs two new ones.
#[derive(Debug, Clone, Copy)]
struct Bend {
    side: Side,
    before: u32,
}

#[derive(Debug, Clone, Copy, PartialEq)]
struct OpenEntry {
    f: f64,
    g: f64,
    node: u32,
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
    /// The shortest known taut path to each apex corner, by vertex (`NO_NODE` for the start).
    shortest_to_apex: NodeMap<f64>,
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
        let Self { nodes, open, shortest_to_apex, portals } = self;
        nodes.reset(mesh.triangles.len());
        open.clear();
        shortest_to_apex.clear();
        portals.clear();
        let MeshQuery { start, goal, radius, first_path_only, max_expansions } = *query;
        if !(radius.is_finite() && radius >= 0.0) {
            return Err(format!("the radius {} is not a number >= 0", number(radius)));
        }
        let starts = locate_free(mesh, start, radius, "start")?;
        let goals = locate_free(mesh, goal, radius, "goal")?;
        let mut result = MeshSearchResult { path: None, first_length: None, expanded: 0, improvements: 0 };
        // A round agent only takes the straight line inside one triangle: convex, so the line
        // keeps the clearance its ends have.
        let reach = if radius == 0.0 { mesh.triangles.len() } else { 1 };
        if let Some(channel) = straight_channel(mesh, start, goal, &starts, &goals, reach) {
            let length = distance(start, goal);
            if T::ENABLED {
                tracer.record(|| SearchEvent::Found { cost: length, path: channel.clone() });
            }
            result.path = Some(MeshPath { length, waypoints: vec![start, goal], channel });
            result.first_length = Some(length);
            result.improvements = 1;
            return Ok(result);
        }
        let allowed_dead_ends = reduction.map(|r| r.branches_to_core(starts.iter().chain(&goals).copied()));
        let viable = |t: u32| match (reduction, &allowed_dead_ends) {
            (Some(r), Some(allowed)) => !r.is_dead_end(t) || allowed.contains(&t),
            _ => true,
        };

        let h_start = distance(start, goal);
        for &tri in &starts {
            let node = nodes.push(Channel {
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
            open.push(OpenEntry { f: h_start, g: 0.0, node });
            tracer.record(|| SearchEvent::Open { node: tri, parent: NO_NODE, g: 0.0, h: h_start });
        }
        // The child of `node` across edge `i`, if an agent fits through and it is not on the
        // channel, with its funnel but its parent's g and f: TRA* only needs them where a corridor
        // ends (`estimate` then).
        let child = |nodes: &mut Channels, node: u32, i: usize| -> Option<Channel> {
            let parent = nodes.nodes[node as usize];
            let next = mesh.passable(parent.tri, i)?;
            if !viable(next) || !fits(mesh, parent.tri, parent.entry, i, radius) || nodes.on_channel(next) {
                return None;
            }
            let entry = mesh.triangles[next as usize]
                .neighbours
                .iter()
                .position(|&n| n == parent.tri)
                .expect("neighbours are mutual");
            let mut child = Channel { tri: next, entry: entry as u8, parent: node, ..parent };
            if radius == 0.0 {
                let v = mesh.triangles[parent.tri as usize].vertices;
                let corner = |v: u32| Side { point: mesh.vertices[v as usize], vertex: v };
                if !nodes.advance_apex(mesh, &mut child, [corner(v[(i + 1) % 3]), corner(v[i])]) {
                    return None;
                }
            }
            Some(child)
        };
        // g and f of a channel opened with its parent's: the largest of those and its own bounds.
        let estimate = |child: &Channel| -> (f64, f64) {
            let (a, b) = mesh.edge(child.tri, child.entry as usize);
            if radius == 0.0 {
                // No shorter than the straight distance from the start: the start, the apex and the
                // edge form a triangle.
                let g = child.g.max(child.apex_distance + point_segment_distance(child.apex, a, b));
                // Every path through the channel passes the apex, then the edge, then goes on to
                // the goal (Polyanya's estimate). It is at least g + h unless the parent's g is
                // the larger, which is rare enough that computing h costs more than it prunes.
                (g, child.f.max(child.apex_distance + through_segment(child.apex, a, b, goal)))
            } else {
                let g = child.g.max(point_segment_distance(start, a, b));
                (g, child.f.max(g + point_segment_distance(goal, a, b)))
            }
        };

        let mut best = f64::INFINITY;
        while let Some(OpenEntry { f, node, .. }) = open.pop() {
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
            let current = nodes.nodes[node as usize];
            result.expanded += 1;
            if radius > 0.0 {
                nodes.mark_channel(node);
            }
            tracer.record(|| SearchEvent::Expand { node: current.tri });
            if goals.contains(&current.tri) {
                let channel = nodes.channel(node);
                let Route { waypoints, length } = channel_path(mesh, start, goal, &channel, radius, &mut NoTrace);
                result.first_length.get_or_insert(length);
                if length < best {
                    best = length;
                    result.improvements += 1;
                    if T::ENABLED {
                        tracer.record(|| SearchEvent::Found { cost: length, path: channel.clone() });
                    }
                    result.path = Some(MeshPath { length, waypoints, channel });
                }
                if first_path_only {
                    break;
                }
                continue;
            }
            for i in 0..3 {
                if i == current.entry as usize {
                    continue;
                }
                let Some(mut next) = child(nodes, node, i) else { continue };
                if let Some(reduction) = reduction {
                    // Follow a corridor to its end in one step: its triangles offer no choice. So do
                    // the dead ends the search may enter (towards the start or goal) but where the
                    // branches of the two meet.
                    let corridor_start = nodes.nodes.len();
                    let mut dead = false;
                    while !reduction.is_decision(next.tri) && !goals.contains(&next.tri) {
                        let id = nodes.push(next);
                        nodes.marked[next.tri as usize] = id;
                        let mut exits =
                            (0..3).filter(|&j| j != next.entry as usize).filter_map(|j| child(nodes, id, j));
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
                        // The corridor leads nowhere new.
                        nodes.truncate(corridor_start);
                        continue;
                    }
                }
                (next.g, next.f) = estimate(&next);
                if next.f >= best - LENGTH_EPSILON {
                    continue;
                }
                if radius == 0.0 {
                    let known = shortest_to_apex.entry(next.apex_vertex).or_insert(next.apex_distance);
                    if next.apex_distance > *known + LENGTH_EPSILON {
                        continue;
                    }
                    *known = known.min(next.apex_distance);
                    if portals.dominated(mesh, &next) {
                        continue;
                    }
                }
                let id = nodes.push(next);
                open.push(OpenEntry { f: next.f, g: next.g, node: id });
                let parent_tri = nodes.nodes[next.parent as usize].tri;
                tracer.record(|| SearchEvent::Open {
                    node: next.tri,
                    parent: parent_tri,
                    g: next.g,
                    h: next.f - next.g,
                });
            }
        }
        if result.path.is_none() {
            tracer.record(|| SearchEvent::Exhausted);
        }
        Ok(result)
    }
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
    'starts: for &first in starts {
        let mut channel = vec![first];
        let mut t = first;
        while !goals.contains(&t) {
            if channel.len() == reach {
                continue 'starts;
            }
            // Edge i runs counter-clockwise: the goal lies beyond it on its right.
            let exit = (0..3).find(|&i| {
                let (a, b) = mesh.edge(t, i);
                orient(a, b, goal) < 0.0 && orient(start, goal, a) * orient(start, goal, b) < 0.0
            });
            let Some(next) = exit.and_then(|i| mesh.passable(t, i)) else { continue 'starts };
            t = next;
            channel.push(t);
        }
        return Some(channel);
    }
    None
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
struct PortalDistances {
    /// Per portal (triangle and entry edge), its last piece kept and how many it has: the pieces
    /// are a list through `pieces`, so a new portal costs no allocation of its own.
    portals: NodeMap<(u32, u32)>,
    /// Each piece with the one kept before it at its portal (`NO_NODE` for the first).
    pieces: Vec<(Piece, u32)>,
}

/// Parts kept per portal; more only prune more (and cost more to compare).
const PIECES_PER_PORTAL: usize = 16;

impl PortalDistances {
    fn clear(&mut self) {
        self.portals.clear();
        self.pieces.clear();
    }

    /// Whether `channel` is dominated at its last portal; if not, its visible part is kept.
    fn dominated(&mut self, mesh: &Navmesh, channel: &Channel) -> bool {
        let (left, right) = mesh.edge(channel.tri, channel.entry as usize);
        let length = distance(left, right);
        let Some((visible, beyond)) = portal_pieces(left, right, channel) else { return false };
        let key = 3 * channel.tri + u32::from(channel.entry);
        let (last, count) = self.portals.get(&key).copied().unwrap_or((NO_NODE, 0));
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
            self.portals.insert(key, (self.pieces.len() as u32 - 1, count as u32 + 1));
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

/// Every search node made so far, and the channel being extended: `current` holds its nodes from
/// the start and `marked[t]` the node through triangle `t` (`NO_NODE` off the channel), so
/// checking a child for a revisit costs one look-up.
#[derive(Default)]
struct Channels {
    nodes: Vec<Channel>,
    /// Each node's triangle, parent and entry edge, apart from the rest: walking channels only reads these,
    /// and a compact array keeps that walk in cache.
    links: Vec<[u32; 3]>,
    marked: Vec<u32>,
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
    fn reset(&mut self, triangles: usize) {
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

    fn push(&mut self, channel: Channel) -> u32 {
        self.nodes.push(channel);
        self.links.push([channel.tri, channel.parent, u32::from(channel.entry)]);
        self.nodes.len() as u32 - 1
    }

    fn pop(&mut self) {
        self.nodes.pop();
        self.links.pop();
    }

    fn truncate(&mut self, len: usize) {
        self.nodes.truncate(len);
        self.links.truncate(len);
    }

    /// Makes the channel ending at `node` the one being extended. Only the part after the
    /// branch it shares with the last one is re-marked: walking whole channels on every
    /// expansion made long searches quadratic.
    fn mark_channel(&mut self, node: u32) {
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
    fn on_channel(&self, tri: u32) -> bool {
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
    fn advance_apex(&mut self, mesh: &Navmesh, child: &mut Channel, portal: [Side; 2]) -> bool {
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
    fn channel(&self, mut node: u32) -> Vec<u32> {
        let mut channel = Vec::new();
        while node != NO_NODE {
            channel.push(self.nodes[node as usize].tri);
            node = self.nodes[node as usize].parent;
        }
        channel.reverse();
        channel
    }
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
