//! Polyanya (Cui, Harabor & Grastien, IJCAI 2017): optimal any-angle search on a mesh of convex
//! polygons ([`ConvexMesh`]: the triangles, or them merged).
//!
//! A search node is an interval — a piece of one polygon edge — with a root: the last corner of
//! the path so far, from which every point of the interval is seen straight. g is the taut
//! path's length to the root, h the shortest way from the root through the interval to the goal
//! (the goal mirrored over the interval's line when it lies on the root's side), f = g + h.
//! Expanding a node projects its interval from the root across the polygon beyond: the edges in
//! that cone are observable successors (same root, same g); the edges beside the cone are only
//! reached by turning round an interval end that is an obstacle corner (non-observable
//! successors, rooted at that corner). A root collinear with its interval sees nothing new: the
//! path can only turn at the nearer end.
//!
//! Pruning: no successor into a dead-end polygon (one neighbour) unless the goal is there; a node
//! whose root some other node reached by a shorter path is dropped (root-level pruning); a node
//! with a single successor is expanded at once instead of going through the open list. The
//! search ends when a node looking into the goal's polygon leaves the open list: its f is then
//! the length of a real path (straight to the goal, or round one end of the interval), no longer
//! than any other node's lower bound.

use std::collections::BinaryHeap;

use super::merge::ConvexMesh;
use super::tastar::{MeshQuery, OpenEntry, locate_free};
use super::triangulation::Navmesh;
use super::{Point, distance, orient};
use crate::text::number;
use crate::trace::{NO_NODE, Tracer};

/// Two paths to a root shorter by at most this are as good.
const LENGTH_EPSILON: f64 = 1e-9;

/// Points this close to a line through the root (the square of the sine of the angle they make
/// with it, seen from the root) lie on it: interval ends are computed crossings, and a ray meant to
/// pass exactly through a corner must meet it there, or the path cannot turn round it.
const ON_LINE: f64 = 1e-20;

/// How a search node got its root.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Turn {
    /// An edge of a polygon holding the start, seen from it.
    Start,
    /// In the cone of its parent's interval: the same root.
    Observable,
    /// Beside the cone, round the interval's left or right end, which becomes the root.
    Left,
    Right,
}

/// Why a successor was not kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Pruned {
    /// Its polygon has no other way out and does not hold the goal.
    DeadEnd,
    /// Its root was reached by a shorter path.
    RootDominated,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum PolyanyaEvent {
    /// A node on the open list (or, `immediate`, expanded at once as the only successor): the
    /// interval `left`–`right` on an edge of `polygon`, looking into it, seen from `root`.
    Push {
        node: u32,
        parent: u32,
        polygon: u32,
        left: Point,
        right: Point,
        root: Point,
        turn: Turn,
        g: f64,
        f: f64,
        immediate: bool,
    },
    /// `node` is expanded: its successors follow.
    Expand { node: u32 },
    /// A successor dropped before becoming a node.
    Prune { polygon: u32, left: Point, right: Point, root: Point, why: Pruned },
    /// `node` left the open list after its root was reached by a shorter path: not expanded.
    Drop { node: u32 },
    /// The shortest path.
    Found { length: f64, waypoints: Vec<Point> },
    /// The open list ran empty: the goal cannot be reached.
    Exhausted,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PolyanyaPath {
    pub length: f64,
    /// The start, the corners turned round, the goal.
    pub waypoints: Vec<Point>,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PolyanyaResult {
    /// The shortest path, `None` if the goal cannot be reached.
    pub path: Option<PolyanyaPath>,
    /// Nodes expanded (those expanded at once included).
    pub expanded: usize,
    /// Nodes put on the open list.
    pub pushed: usize,
    /// Successors pruned, and nodes dropped off the open list.
    pub pruned: usize,
}

/// A search node: the interval `left`–`right` on the edge at `slot` of `polygon`, seen from `root`.
#[derive(Debug, Clone, Copy)]
struct Node {
    left: Point,
    right: Point,
    root: Point,
    /// The root's vertex, `NO_NODE` for the start.
    root_vertex: u32,
    polygon: u32,
    slot: u32,
    parent: u32,
    turn: Turn,
    g: f64,
}

/// A piece of an edge of the polygon being expanded (at `slot`), and how it is reached.
#[derive(Debug, Clone, Copy)]
struct Successor {
    left: Point,
    right: Point,
    slot: u32,
    turn: Turn,
}

/// Polyanya: the shortest path for `query` on `polygons`, built from `mesh` (which locates the
/// start and goal). Point agents only: a radius above 0 is refused.
pub fn polyanya<T: Tracer<PolyanyaEvent>>(
    mesh: &Navmesh,
    polygons: &ConvexMesh,
    query: &MeshQuery,
    tracer: &mut T,
) -> Result<PolyanyaResult, String> {
    PolyanyaScratch::default().search(mesh, polygons, query, tracer)
}

/// A search's buffers, kept between queries so that a query allocates nothing once they have grown.
#[derive(Default)]
pub struct PolyanyaScratch {
    nodes: Vec<Node>,
    open: BinaryHeap<OpenEntry>,
    successors: Vec<Successor>,
    kept: Vec<Node>,
    /// The shortest path found to each vertex as a root, valid where `root_stamp` is `stamp`.
    root_g: Vec<f64>,
    root_stamp: Vec<u32>,
    stamp: u32,
    goals: Vec<u32>,
}

impl PolyanyaScratch {
    /// [`polyanya`] with these buffers.
    pub fn search<T: Tracer<PolyanyaEvent>>(
        &mut self,
        mesh: &Navmesh,
        polygons: &ConvexMesh,
        query: &MeshQuery,
        tracer: &mut T,
    ) -> Result<PolyanyaResult, String> {
        let &MeshQuery { start, goal, radius, max_expansions, .. } = query;
        if radius != 0.0 {
            return Err(format!("Polyanya plans for a point agent: the radius must be 0, not {}", number(radius)));
        }
        // The triangles' list becomes the polygons' (no allocation of its own).
        let in_polygons = |p: Point, what: &str| -> Result<Vec<u32>, String> {
            let mut found = locate_free(mesh, p, 0.0, what)?;
            found.iter_mut().for_each(|t| *t = polygons.polygon_of_triangle(*t));
            found.sort_unstable();
            found.dedup();
            Ok(found)
        };
        let starts = in_polygons(start, "start")?;
        self.goals = in_polygons(goal, "goal")?;
        self.reset(polygons.vertices.len());
        let mut result = PolyanyaResult { path: None, expanded: 0, pushed: 0, pruned: 0 };
        if starts.iter().any(|p| self.goals.contains(p)) {
            // One convex polygon holds both.
            let path = PolyanyaPath { length: distance(start, goal), waypoints: vec![start, goal] };
            tracer.record(|| PolyanyaEvent::Found { length: path.length, waypoints: path.waypoints.clone() });
            result.path = Some(path);
            return Ok(result);
        }
        let search = Search { polygons, start, goal };
        for &p in &starts {
            self.successors.clear();
            for slot in polygons.slots(p) {
                let (right, left) = (polygons.slot_point(slot), polygons.slot_point(polygons.next_slot(p, slot)));
                // The polygon across an edge through the start holds the start too. An edge in
                // line with the start but past it is still seen (edge-on: turned round at its end).
                let side = orient(right, left, start);
                if polygons.across(slot) != NO_NODE && (side > 0.0 || (side == 0.0 && !on_segment(start, right, left)))
                {
                    self.successors.push(Successor { left, right, slot, turn: Turn::Start });
                }
            }
            let origin = Node {
                left: start,
                right: start,
                root: start,
                root_vertex: NO_NODE,
                polygon: p,
                slot: NO_NODE,
                parent: NO_NODE,
                turn: Turn::Start,
                g: 0.0,
            };
            self.keep_successors(&search, &origin, NO_NODE, &mut result, tracer);
            self.push_kept(&search, &mut result, tracer);
        }
        while let Some(OpenEntry { node: id, .. }) = self.open.pop() {
            let node = self.nodes[id as usize];
            if self.goals.contains(&node.polygon) {
                let path = self.finish(&search, id);
                tracer.record(|| PolyanyaEvent::Found { length: path.length, waypoints: path.waypoints.clone() });
                result.path = Some(path);
                return Ok(result);
            }
            if node.root_vertex != NO_NODE && self.root_g[node.root_vertex as usize] + LENGTH_EPSILON < node.g {
                result.pruned += 1;
                tracer.record(|| PolyanyaEvent::Drop { node: id });
                continue;
            }
            let mut current = id;
            loop {
                if result.expanded == max_expansions {
                    return Err(format!("search stopped at its limit of {max_expansions} expansions: no path found"));
                }
                result.expanded += 1;
                tracer.record(|| PolyanyaEvent::Expand { node: current });
                let node = self.nodes[current as usize];
                search.successors(&node, &mut self.successors);
                self.keep_successors(&search, &node, current, &mut result, tracer);
                // A lone successor is expanded at once, unless it reaches the goal's polygon.
                if self.kept.len() == 1 && !self.goals.contains(&self.kept[0].polygon) {
                    let only = self.kept[0];
                    current = self.nodes.len() as u32;
                    self.nodes.push(only);
                    tracer.record(|| search.push_event(current, &only, true));
                    continue;
                }
                self.push_kept(&search, &mut result, tracer);
                break;
            }
        }
        tracer.record(|| PolyanyaEvent::Exhausted);
        Ok(result)
    }

    fn reset(&mut self, vertices: usize) {
        self.nodes.clear();
        self.open.clear();
        self.kept.clear();
        if self.root_stamp.len() != vertices || self.stamp == u32::MAX {
            self.root_stamp = vec![0; vertices];
            self.root_g = vec![0.0; vertices];
            self.stamp = 0;
        }
        self.stamp += 1;
    }

    /// Turns `self.successors` of `node` (stored as `id`) into the nodes worth keeping, in `self.kept`.
    fn keep_successors<T: Tracer<PolyanyaEvent>>(
        &mut self,
        search: &Search,
        node: &Node,
        id: u32,
        result: &mut PolyanyaResult,
        tracer: &mut T,
    ) {
        let polygons = search.polygons;
        self.kept.clear();
        // g at each end of the interval, computed once when a successor turns there.
        let (mut left_g, mut right_g) = (None, None);
        for &Successor { left, right, slot, turn } in &self.successors {
            let next = polygons.across(slot);
            let prune = |why: Pruned, root: Point, tracer: &mut T| {
                tracer.record(|| PolyanyaEvent::Prune { polygon: next, left, right, root, why });
            };
            if polygons.is_dead_end(next) && !self.goals.contains(&next) {
                result.pruned += 1;
                prune(Pruned::DeadEnd, node.root, tracer);
                continue;
            }
            let (root, root_vertex, g) = match turn {
                Turn::Start | Turn::Observable => (node.root, node.root_vertex, node.g),
                // The interval's edge runs from its left end's vertex to its right end's.
                Turn::Left => {
                    let g = *left_g.get_or_insert_with(|| node.g + distance(node.root, node.left));
                    (node.left, polygons.slot_vertex(node.slot), g)
                }
                Turn::Right => {
                    let g = *right_g.get_or_insert_with(|| node.g + distance(node.root, node.right));
                    (node.right, polygons.slot_vertex(polygons.next_slot(node.polygon, node.slot)), g)
                }
            };
            if matches!(turn, Turn::Left | Turn::Right) {
                let v = root_vertex as usize;
                if self.root_stamp[v] == self.stamp && self.root_g[v] + LENGTH_EPSILON < g {
                    result.pruned += 1;
                    prune(Pruned::RootDominated, root, tracer);
                    continue;
                }
                self.root_stamp[v] = self.stamp;
                self.root_g[v] = g;
            }
            let slot = polygons.twin(slot);
            self.kept.push(Node { left, right, root, root_vertex, polygon: next, slot, parent: id, turn, g });
        }
    }

    /// Puts the kept successors on the open list.
    fn push_kept<T: Tracer<PolyanyaEvent>>(&mut self, search: &Search, result: &mut PolyanyaResult, tracer: &mut T) {
        for &node in &self.kept {
            let id = self.nodes.len() as u32;
            self.nodes.push(node);
            let f = node.g + search.h(&node);
            self.open.push(OpenEntry { f, g: node.g, node: id });
            result.pushed += 1;
            tracer.record(|| search.push_event(id, &node, false));
        }
    }

    /// The path of node `id`, which looks into the goal's polygon.
    fn finish(&self, search: &Search, id: u32) -> PolyanyaPath {
        let node = self.nodes[id as usize];
        let (rest, bend) = through_interval(node.root, node.left, node.right, search.goal);
        let mut waypoints = vec![search.goal];
        waypoints.extend(bend);
        let mut at = id;
        while at != NO_NODE {
            let root = self.nodes[at as usize].root;
            if waypoints.last() != Some(&root) {
                waypoints.push(root);
            }
            at = self.nodes[at as usize].parent;
        }
        if waypoints.last() != Some(&search.start) {
            waypoints.push(search.start);
        }
        waypoints.reverse();
        PolyanyaPath { length: node.g + rest, waypoints }
    }
}

/// What every expansion of one query reads.
struct Search<'a> {
    polygons: &'a ConvexMesh,
    start: Point,
    goal: Point,
}

impl Search<'_> {
    /// The shortest way from the node's root through its interval to the goal.
    fn h(&self, node: &Node) -> f64 {
        let (left, right) = (node.left, node.right);
        let goal = if orient(left, right, node.root) * orient(left, right, self.goal) > 0.0 {
            mirror(self.goal, left, right)
        } else {
            self.goal
        };
        through_interval(node.root, left, right, goal).0
    }

    fn push_event(&self, id: u32, node: &Node, immediate: bool) -> PolyanyaEvent {
        PolyanyaEvent::Push {
            node: id,
            parent: node.parent,
            polygon: node.polygon,
            left: node.left,
            right: node.right,
            root: node.root,
            turn: node.turn,
            g: node.g,
            f: node.g + self.h(node),
            immediate,
        }
    }

    /// The successors of `node` in the polygon it looks into, walking its corners from the
    /// interval's right end round to its left end.
    fn successors(&self, node: &Node, out: &mut Vec<Successor>) {
        out.clear();
        let polygons = self.polygons;
        let slots = polygons.slots(node.polygon);
        let (first, n) = (slots.start as usize, slots.len());
        // Corner `i` counts from the interval's left end (`k`), wrapping round once.
        let k = node.slot as usize - first;
        let slot = |i: usize| (first + if i >= n { i - n } else { i }) as u32;
        let point = |i: usize| polygons.slot_point(slot(i));
        let (root, left, right) = (node.root, node.left, node.right);
        let (left_on_corner, right_on_corner) = (left == point(k), right == point(k + 1));
        // Edge `i` runs from corner `i` (the successor's right end) to corner `i + 1`.
        let mut push = |i: usize, right: Point, left: Point, turn: Turn| {
            if polygons.across(slot(i)) != NO_NODE {
                out.push(Successor { left, right, slot: slot(i), turn });
            }
        };
        let can_turn = |i: usize| polygons.corner[polygons.slot_vertex(slot(i)) as usize];
        if collinear(root, left, right) {
            // Seen edge-on: the path can only turn at the nearer end, to any edge.
            let at_left =
                root == left || (root != right && distance_squared(root, left) < distance_squared(root, right));
            let (on_corner, turn, corner) =
                if at_left { (left_on_corner, Turn::Left, k) } else { (right_on_corner, Turn::Right, k + 1) };
            if on_corner && can_turn(corner) {
                for i in k + 1..k + n {
                    push(i, point(i), point(i + 1), turn);
                }
            }
            return;
        }
        // a: the first corner strictly left of the ray root -> right; the ray leaves by edge a - 1.
        let (a, right_cross) = if right_on_corner && side(root, right, point(k + 2)) >= 0.0 {
            (k + 2, right)
        } else {
            let a = (k + 2..k + n).find(|&i| side(root, right, point(i)) > 0.0).unwrap_or(k + n);
            (a, crossing(point(a - 1), point(a), root, right))
        };
        // b: the last corner strictly right of the ray root -> left; the ray leaves by edge b.
        let (b, left_cross) = if left_on_corner && side(root, left, point(k + n - 1)) <= 0.0 {
            (k + n - 1, left)
        } else {
            let b = (a - 1..k + n).rev().find(|&i| side(root, left, point(i)) < 0.0).unwrap_or(a - 1);
            (b, crossing(point(b), point(b + 1), root, left))
        };
        if right_on_corner && can_turn(k + 1) {
            for i in k + 1..a - 1 {
                push(i, point(i), point(i + 1), Turn::Right);
            }
            if right_cross != point(a - 1) {
                push(a - 1, point(a - 1), right_cross, Turn::Right);
            }
        }
        if b + 1 == a {
            if right_cross != left_cross {
                push(b, right_cross, left_cross, Turn::Observable);
            }
        } else {
            if right_cross != point(a) {
                push(a - 1, right_cross, point(a), Turn::Observable);
            }
            for i in a..b {
                push(i, point(i), point(i + 1), Turn::Observable);
            }
            if point(b) != left_cross {
                push(b, point(b), left_cross, Turn::Observable);
            }
        }
        if left_on_corner && can_turn(k) {
            if left_cross != point(b + 1) {
                push(b, left_cross, point(b + 1), Turn::Left);
            }
            for i in b + 1..k + n {
                push(i, point(i), point(i + 1), Turn::Left);
            }
        }
    }
}

/// Whether `p`, on the line of `a b`, lies between them.
fn on_segment(p: Point, a: Point, b: Point) -> bool {
    (p[0] - a[0]) * (p[0] - b[0]) <= 0.0 && (p[1] - a[1]) * (p[1] - b[1]) <= 0.0
}

fn distance_squared(a: Point, b: Point) -> f64 {
    let (dx, dy) = (a[0] - b[0], a[1] - b[1]);
    dx * dx + dy * dy
}

/// [`orient`]`(root, through, p)`, 0 when `p` is on the line to within [`ON_LINE`].
fn side(root: Point, through: Point, p: Point) -> f64 {
    let turn = orient(root, through, p);
    if turn * turn <= ON_LINE * distance_squared(root, through) * distance_squared(root, p) { 0.0 } else { turn }
}

/// Whether `root` lies on the line of `left`–`right`, or (by rounding) past it.
fn collinear(root: Point, left: Point, right: Point) -> bool {
    side(root, left, right) >= 0.0
}

/// Where the line from `root` through `through` crosses the edge `a b` (clamped to it; an end
/// on the line is met exactly).
fn crossing(a: Point, b: Point, root: Point, through: Point) -> Point {
    let (at_a, at_b) = (side(root, through, a), side(root, through, b));
    let t = at_a / (at_a - at_b);
    // A NaN t (the edge on the line) falls to `a`, as t <= 0 does.
    if t.is_nan() || t <= 0.0 {
        a
    } else if t >= 1.0 {
        b
    } else {
        [a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])]
    }
}

/// The shortest way from `from` through the segment `left`–`right` to `to` on its far side: its
/// length, and the end it turns round (`None` when straight).
fn through_interval(from: Point, left: Point, right: Point, to: Point) -> (f64, Option<Point>) {
    let (at_left, at_right) = (orient(from, to, left), orient(from, to, right));
    if at_left * at_right <= 0.0 {
        return (distance(from, to), None);
    }
    let via = |end: Point| (distance(from, end) + distance(end, to), Some(end));
    if orient(from, left, right) < 0.0 {
        // Seen from `from`, `left` is left of `right`: the line passes beyond the end on its side.
        return if at_left < 0.0 { via(left) } else { via(right) };
    }
    // `from` on the interval's line: the nearer end.
    let (via_left, via_right) = (via(left), via(right));
    if via_left.0 <= via_right.0 { via_left } else { via_right }
}

/// `p` mirrored over the line through `a` and `b` (distinct).
fn mirror(p: Point, a: Point, b: Point) -> Point {
    let d = [b[0] - a[0], b[1] - a[1]];
    let t = ((p[0] - a[0]) * d[0] + (p[1] - a[1]) * d[1]) / (d[0] * d[0] + d[1] * d[1]);
    [2.0 * (a[0] + t * d[0]) - p[0], 2.0 * (a[1] + t * d[1]) - p[1]]
}
