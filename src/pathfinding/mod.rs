//! Shortest-path search on [`Graph`]s: BFS, Dijkstra and A*, one module each, all traced through
//! [`crate::trace`]; HPA* and PRA* on grids; scenario sets with their optimal lengths.

pub mod hpa;
pub mod mapf;
mod open_list;
pub mod plan_trace;
pub mod planner;
pub mod pra;
pub mod registry;
pub mod scenarios;
pub mod search_trace;

use registry::GridAlgorithm;

registry::grid_algorithms! {
    bfs: Bfs,
    dijkstra: Dijkstra,
    astar: Astar,
    greedy: Greedy,
    jps: Jps,
}

use crate::grid::{Connectivity, Grid, MoveRules, SQRT2};
use crate::trace::NO_NODE;
use open_list::{OpenEntry, OpenHeap, TIE_BITS};

/// Distance estimates between grid cells, from the coordinate differences.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Heuristic {
    Zero,
    Manhattan,
    Octile,
    Euclidean,
    Chebyshev,
}

impl Heuristic {
    pub const ALL: [Heuristic; 5] =
        [Heuristic::Zero, Heuristic::Manhattan, Heuristic::Octile, Heuristic::Euclidean, Heuristic::Chebyshev];

    pub fn estimate(self, dx: f64, dy: f64) -> f64 {
        let (dx, dy) = (dx.abs(), dy.abs());
        match self {
            Heuristic::Zero => 0.0,
            Heuristic::Manhattan => dx + dy,
            Heuristic::Octile => dx.max(dy) + (SQRT2 - 1.0) * dx.min(dy),
            Heuristic::Euclidean => dx.hypot(dy),
            Heuristic::Chebyshev => dx.max(dy),
        }
    }

    /// Never overestimates under these rules (cell weights are at least 1, so they cannot break this).
    pub fn is_admissible(self, rules: MoveRules) -> bool {
        match self {
            Heuristic::Manhattan => rules.connectivity == Connectivity::Four,
            _ => true,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Heuristic::Zero => "zero",
            Heuristic::Manhattan => "manhattan",
            Heuristic::Octile => "octile",
            Heuristic::Euclidean => "euclidean",
            Heuristic::Chebyshev => "chebyshev",
        }
    }
}

/// Two costs closer than this are equal: sums of sqrt 2 steps differ in the last bits by path order.
pub const COST_EPSILON: f64 = 1e-9;

/// The result of one query.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PathResult {
    /// Nodes from start to goal and the total cost, if the goal was reached.
    pub path: Option<(f64, Vec<u32>)>,
    /// Nodes taken off the open list and expanded.
    pub expanded: usize,
    /// Nodes put on the open list (counting re-pushes with a better cost).
    pub pushed: usize,
    /// The search stopped at its expansion budget (reopening weighted A*) without an answer.
    #[serde(default)]
    pub out_of_budget: bool,
}

impl PathResult {
    pub fn cost(&self) -> Option<f64> {
        self.path.as_ref().map(|(cost, _)| *cost)
    }
}

#[derive(Debug, Clone, Copy)]
struct Slot {
    g: f64,
    parent: u32,
    /// `generation` = seen this query (open), `generation + 1` = closed, anything lower = unseen.
    stamp: u32,
}

/// Per-node arrays reused across queries. A generation stamp marks which entries belong to the
/// current query, so starting a query costs O(1) instead of clearing every array.
#[derive(Debug, Default)]
pub struct SearchSpace {
    /// One slot per node, so a lookup touches one cache line.
    slots: Vec<Slot>,
    generation: u32,
    open: OpenHeap,
    /// Open nodes whose f equals that of the node being expanded: they are next in line anyway
    /// (unless something below that f is open), so they skip the open list. On open ground A*
    /// walks straight at the goal through this stack.
    level: Vec<OpenEntry>,
    /// The f part of the key of the node being expanded.
    level_f: u64,
    /// BFS's FIFO queue, kept to reuse its allocation.
    queue: std::collections::VecDeque<u32>,
}

impl SearchSpace {
    pub fn new() -> Self {
        Self::default()
    }

    /// A space for graphs of up to `node_count` nodes, its memory filled now: the first query
    /// on a 512x512 grid otherwise spends 0.3 ms filling it, and a timed query should not.
    pub fn for_nodes(node_count: usize) -> Self {
        let mut space = Self::default();
        space.begin(node_count);
        space
    }

    /// Prepares for a query on `node_count` nodes.
    fn begin(&mut self, node_count: usize) {
        // Slots beyond `node_count` carry old stamps and are never read, so one space serves
        // graphs of every size (HPA* alternates the grid and its small abstract graph).
        if self.slots.len() < node_count || self.generation >= u32::MAX - 2 {
            self.slots = vec![Slot { g: f64::INFINITY, parent: NO_NODE, stamp: 0 }; node_count];
            self.generation = 0;
        }
        self.generation += 2;
        self.open.clear();
        self.level.clear();
        self.level_f = 0;
    }

    fn is_seen(&self, node: u32) -> bool {
        self.slots[node as usize].stamp >= self.generation
    }

    fn is_closed(&self, node: u32) -> bool {
        self.slots[node as usize].stamp == self.generation + 1
    }

    /// Cost of the route recorded for a node already seen in this query.
    fn g_seen(&self, node: u32) -> f64 {
        self.slots[node as usize].g
    }

    /// Best known cost to `node` in this query.
    fn g(&self, node: u32) -> f64 {
        if self.is_seen(node) { self.slots[node as usize].g } else { f64::INFINITY }
    }

    /// The node `node` was last reached from (`NO_NODE` for the start).
    fn parent(&self, node: u32) -> u32 {
        self.slots[node as usize].parent
    }

    /// Records a better route to `node` and puts it (back) on the open list.
    fn open(&mut self, node: u32, parent: u32, g: f64, f: f64) {
        self.discover(node, parent, g);
        let entry = OpenEntry::new(f, g, node);
        if entry.key >> TIE_BITS == self.level_f {
            self.level.push(entry);
        } else {
            self.open.push(entry);
        }
    }

    /// Records a route to `node` without touching the heap (BFS keeps its own queue).
    fn discover(&mut self, node: u32, parent: u32, g: f64) {
        self.slots[node as usize] = Slot { g, parent, stamp: self.generation };
    }

    fn close(&mut self, node: u32) {
        self.slots[node as usize].stamp = self.generation + 1;
    }

    /// Takes the best open node off the open list, closes it and tells the tracer it is expanded.
    fn expand_next<T: crate::trace::Tracer<search_trace::SearchEvent>>(&mut self, tracer: &mut T) -> Option<u32> {
        let node = self.pop()?;
        self.close(node);
        tracer.record(|| search_trace::SearchEvent::Expand { node });
        Some(node)
    }

    /// Pops the best open node. An entry left behind by a later, better push pops after it and
    /// finds the node closed; even if one popped first, expansion reads the node's current `g`.
    fn pop(&mut self) -> Option<u32> {
        // An inconsistent heuristic (weighted A*) can push below the current f; those go first.
        let open_below = self.open.peek().is_some_and(|top| top.key >> TIE_BITS < self.level_f);
        if open_below {
            // The level's entries wait their turn in the heap: the next level is lower.
            for entry in self.level.drain(..) {
                self.open.push(entry);
            }
        }
        while let Some(entry) = self.level.pop() {
            if !self.is_closed(entry.node) {
                return Some(entry.node);
            }
        }
        while let Some(entry) = self.open.pop() {
            if !self.is_closed(entry.node) {
                self.level_f = entry.key >> TIE_BITS;
                return Some(entry.node);
            }
        }
        None
    }

    /// The path to `goal` along parent links.
    fn path_to(&self, goal: u32) -> Vec<u32> {
        let mut path = vec![goal];
        let mut node = goal;
        while self.slots[node as usize].parent != NO_NODE {
            node = self.slots[node as usize].parent;
            path.push(node);
        }
        path.reverse();
        path
    }
}

/// Written as its spec name ([`Algorithm::id`]).
impl std::fmt::Display for Algorithm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id())
    }
}

impl std::str::FromStr for Algorithm {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        Algorithm::from_id(text).ok_or_else(|| {
            let ids: Vec<&str> = Algorithm::ALL.iter().map(|algorithm| algorithm.id()).collect();
            format!("unknown search '{}': use {}", crate::text::quote(text), ids.join(", "))
        })
    }
}

crate::serde_as_text!(Algorithm);

/// Everything that decides how a grid query is searched.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct GridSearch {
    pub algorithm: Algorithm,
    pub heuristic: Heuristic,
    /// Weighted A*'s w (1 = plain A*).
    pub weight: f64,
    /// Whether A* reopens closed nodes; `None`: only plain A* does ([`astar::AstarOptions::weighted`]).
    #[serde(default)]
    pub reopen: Option<bool>,
    pub rules: MoveRules,
}

impl Default for GridSearch {
    fn default() -> Self {
        Self {
            algorithm: Algorithm::Astar,
            heuristic: Heuristic::Octile,
            weight: 1.0,
            reopen: None,
            rules: MoveRules::MOVINGAI,
        }
    }
}

impl GridSearch {
    /// The weight and reopening A* runs with.
    pub fn astar_options(&self) -> astar::AstarOptions {
        let default = astar::AstarOptions::weighted(self.weight);
        astar::AstarOptions { reopen: self.reopen.unwrap_or(default.reopen), ..default }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn octile_is_exact_on_open_ground() {
        assert!((Heuristic::Octile.estimate(3.0, -1.0) - (2.0 + SQRT2)).abs() < 1e-12);
        assert!(!Heuristic::Manhattan.is_admissible(MoveRules::MOVINGAI));
        assert!(Heuristic::Manhattan.is_admissible(MoveRules::FOUR));
    }
}
