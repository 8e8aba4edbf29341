//! A* with a pluggable heuristic and weight `w >= 1` (weighted A*: f = g + w·h).
//!
//! Ties on f go to the larger g (see `OpenEntry`), so among equally promising nodes the one
//! closest to the goal is expanded first. A closed node reached again by a cheaper route is
//! reopened, which keeps A* optimal even for admissible heuristics that are not consistent.

use super::search_trace::SearchEvent;
use super::registry::{GridAlgorithm, Key, Line, Order, best_first};
use super::{COST_EPSILON, GridSearch, Heuristic, PathResult, SearchSpace};
use crate::graph::Graph;
use crate::grid::Grid;
use crate::trace::{Control, NO_NODE, Tracer};

pub fn astar<G: Graph, T: Tracer<SearchEvent>>(
    graph: &G,
    start: u32,
    goal: u32,
    heuristic: impl Fn(u32) -> f64,
    weight: f64,
    space: &mut SearchSpace,
    tracer: &mut T,
) -> PathResult {
    let rule = Relax {
        heuristic: |cell| weight * heuristic(cell),
        improves: |space: &SearchSpace, next, g| g + COST_EPSILON < space.g(next),
        key: |g, h| g + h,
    };
    expand_best_first(graph, start, goal, rule, space, tracer)
}

/// What sets a best-first search apart: the estimate `heuristic` it opens a node with, when a
/// node reached at cost g `improves` on what the search holds, and the open list's `key(g, h)`.
pub(super) struct Relax<H, I, K> {
    pub heuristic: H,
    pub improves: I,
    pub key: K,
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
            return PathResult { path: None, expanded, pushed };
        }
        if node == goal {
            let cost = space.g_seen(node);
            let path = space.path_to(goal);
            if T::ENABLED {
                tracer.record(|| SearchEvent::Found { cost, path: path.clone() });
            }
            return PathResult { path: Some((cost, path)), expanded, pushed };
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
    PathResult { path: None, expanded, pushed }
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
        astar(&graph, start, goal, heuristic, search.weight, space, tracer)
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
