//! A* with a pluggable heuristic and weight `w >= 1` (weighted A*: f = g + w·h).
//!
//! Ties on f go to the larger g (see `OpenEntry`), so among equally promising nodes the one
//! closest to the goal is expanded first. A closed node reached again by a cheaper route is
//! reopened when [`AstarOptions::reopen`] says so, which keeps A* optimal for admissible heuristics
//! that are not consistent. Weighted A* needs no reopening: with a consistent h its path stays
//! within w times the optimum (Likhachev et al., ARA*, 2003), and each node is expanded at most
//! once. Reopening under a huge w can expand nodes thousands of times, so it runs on a budget.

use super::registry::{GridAlgorithm, Key, Line, Order, best_first};
use super::search_trace::SearchEvent;
use super::{COST_EPSILON, GridSearch, Heuristic, PathResult, SearchSpace};
use crate::graph::Graph;
use crate::grid::Grid;
use crate::trace::{Control, NO_NODE, Tracer};

/// Expansions per node a reopening search may spend before it gives up (plain A* with a
/// consistent heuristic spends at most 1; w = 1e308 spent 2,500 on a 43k-cell game map).
pub const REOPEN_BUDGET_PER_NODE: usize = 16;

/// How A* weighs the heuristic and treats closed nodes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AstarOptions {
    /// f = g + weight·h, weight >= 1.
    pub weight: f64,
    /// Put a closed node back on the open list when a cheaper route to it turns up.
    pub reopen: bool,
}

impl AstarOptions {
    /// Plain A* reopens (an admissible h may be inconsistent); weighted A* does not by default.
    pub fn weighted(weight: f64) -> Self {
        Self { weight, reopen: weight <= 1.0 }
    }

    /// The expansions a search on `node_count` nodes may spend: unbounded without reopening,
    /// where each node is expanded at most once.
    pub fn budget(&self, node_count: usize) -> usize {
        if self.reopen { node_count.saturating_mul(REOPEN_BUDGET_PER_NODE).max(1) } else { usize::MAX }
    }
}

/// A* with weight `weight`, reopening closed nodes only for plain A* (see [`AstarOptions::weighted`]).
pub fn astar<G: Graph, T: Tracer<SearchEvent>>(
    graph: &G,
    start: u32,
    goal: u32,
    heuristic: impl Fn(u32) -> f64,
    weight: f64,
    space: &mut SearchSpace,
    tracer: &mut T,
) -> PathResult {
    astar_with(graph, start, goal, heuristic, AstarOptions::weighted(weight), space, tracer)
}

/// A* with explicit options; a run that spends its budget ends with `out_of_budget` and no path.
pub fn astar_with<G: Graph, T: Tracer<SearchEvent>>(
    graph: &G,
    start: u32,
    goal: u32,
    heuristic: impl Fn(u32) -> f64,
    options: AstarOptions,
    space: &mut SearchSpace,
    tracer: &mut T,
) -> PathResult {
    let AstarOptions { weight, reopen } = options;
    let rule = Relax {
        heuristic: |cell| weight * heuristic(cell),
        improves: |space: &SearchSpace, next, g| g + COST_EPSILON < space.g(next) && (reopen || !space.is_closed(next)),
        key: |g, h| g + h,
        budget: options.budget(graph.node_count()),
    };
    expand_best_first(graph, start, goal, rule, space, tracer)
}

/// What sets a best-first search apart: the estimate `heuristic` it opens a node with, when a
/// node reached at cost g `improves` on what the search holds, the open list's `key(g, h)`, and
/// the expansions it may spend before it gives up.
pub(super) struct Relax<H, I, K> {
    pub heuristic: H,
    pub improves: I,
    pub key: K,
    pub budget: usize,
}

/// The loop A* and greedy best-first share: expand the open node with the lowest key, stop at the
/// goal, and open each successor the rule says improves.
pub(super) fn expand_best_first<G: Graph, T: Tracer<SearchEvent>>(
    graph: &G,
    start: u32,
    goal: u32,
    rule: Relax<impl Fn(u32) -> f64, impl Fn(&SearchSpace, u32, f64) -> bool, impl Fn(f64, f64) -> f64>,
    space: &mut SearchSpace,
    tracer: &mut T,
) -> PathResult {
    space.begin(graph.node_count());
    let h_start = (rule.heuristic)(start);
    space.open(start, NO_NODE, 0.0, (rule.key)(0.0, h_start));
    tracer.record(|| SearchEvent::Open { node: start, parent: NO_NODE, g: 0.0, h: h_start });
    let (mut expanded, mut pushed) = (0, 1);
    while let Some(node) = space.expand_next(tracer) {
        expanded += 1;
        if tracer.control() == Control::Stop {
            return PathResult { path: None, expanded, pushed, out_of_budget: false };
        }
        if expanded > rule.budget {
            return PathResult { path: None, expanded: rule.budget, pushed, out_of_budget: true };
        }
        if node == goal {
            let cost = space.g_seen(node);
            let path = space.path_to(goal);
            if T::ENABLED {
                tracer.record(|| SearchEvent::Found { cost, path: path.clone() });
            }
            return PathResult { path: Some((cost, path)), expanded, pushed, out_of_budget: false };
        }
        let g_node = space.g_seen(node);
        graph.for_each_successor(node, space.parent(node), |next, step| {
            let g = g_node + step;
            let improved = (rule.improves)(space, next, g);
            tracer.record(|| SearchEvent::Relax { node: next, g, improved });
            if improved {
                let h = (rule.heuristic)(next);
                space.open(next, node, g, (rule.key)(g, h));
                pushed += 1;
                tracer.record(|| SearchEvent::Open { node: next, parent: node, g, h });
            }
        });
    }
    tracer.record(|| SearchEvent::Exhausted);
    PathResult { path: None, expanded, pushed, out_of_budget: false }
}

/// The heuristic towards `goal` on a grid, as a function of the cell.
pub fn grid_heuristic(grid: &Grid, goal: u32, heuristic: Heuristic) -> impl Fn(u32) -> f64 + use<> {
    let width = grid.width();
    let (gx, gy) = grid.coords(goal);
    move |cell| {
        let y = cell / width;
        let x = cell - y * width;
        heuristic.estimate(x as f64 - gx as f64, y as f64 - gy as f64)
    }
}

/// A* in the registry, weighted when w > 1.
pub struct Astar;

impl GridAlgorithm for Astar {
    const ID: &'static str = "astar";
    const LABEL: &'static str = "A*";
    const HEURISTIC: bool = true;
    const WEIGHT: bool = true;
    const REOPEN: bool = true;
    const PSEUDOCODE: &'static [Line] = &best_first("    u := the open node with the lowest f = g + w·h");

    fn order(search: &GridSearch) -> Order {
        Order { label: Self::LABEL, key: Key::F { weight: search.weight }, first_route_only: false, jumps: false }
    }

    fn run<T: Tracer<SearchEvent>>(
        search: &GridSearch,
        grid: &Grid,
        start: u32,
        goal: u32,
        space: &mut SearchSpace,
        tracer: &mut T,
    ) -> PathResult {
        let graph = crate::grid::GridGraph::new(grid, search.rules);
        let heuristic = grid_heuristic(grid, goal, search.heuristic);
        astar_with(&graph, start, goal, heuristic, search.astar_options(), space, tracer)
    }

    fn suboptimality_reason(search: &GridSearch, _weighted_map: bool) -> Option<String> {
        if search.weight > 1.0 {
            Some(format!("weighted A* (w = {}) returns a path within w times the optimal cost", search.weight))
        } else if !search.heuristic.is_admissible(search.rules) {
            Some(format!("the {} heuristic overestimates under these move rules", search.heuristic.name()))
        } else {
            None
        }
    }
}
