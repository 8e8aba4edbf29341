//! Dijkstra's algorithm: uniform-cost search from one source, to a goal or over the whole graph.
//!
//! With non-negative costs a node's cost is final once it is expanded, so closed nodes are never
//! looked at again.

use super::search_trace::SearchEvent;
use super::registry::{GridAlgorithm, Key, Line, Order, best_first};
use super::{COST_EPSILON, GridSearch, PathResult, SearchSpace};
use crate::graph::Graph;
use crate::trace::{Control, NO_NODE, Tracer};

/// Searches from `start` until `goal` is expanded, or over everything reachable when `goal` is `None`.
pub fn dijkstra<G: Graph, T: Tracer<SearchEvent>>(
    graph: &G,
    start: u32,
    goal: Option<u32>,
    space: &mut SearchSpace,
    tracer: &mut T,
) -> PathResult {
    space.begin(graph.node_count());
    space.open(start, NO_NODE, 0.0, 0.0);
    tracer.record(|| SearchEvent::Open { node: start, parent: NO_NODE, g: 0.0, h: 0.0 });
    let (mut expanded, mut pushed) = (0, 1);
    while let Some(node) = space.expand_next(tracer) {
        expanded += 1;
        if tracer.control() == Control::Stop {
            return PathResult { path: None, expanded, pushed, out_of_budget: false };
        }
        let g_node = space.g_seen(node);
        if goal == Some(node) {
            let path = space.path_to(node);
            if T::ENABLED {
                tracer.record(|| SearchEvent::Found { cost: g_node, path: path.clone() });
            }
            return PathResult { path: Some((g_node, path)), expanded, pushed, out_of_budget: false };
        }
        graph.for_each_successor(node, space.parent(node), |next, step| {
            if space.is_closed(next) {
                return;
            }
            let g = g_node + step;
            let improved = g + COST_EPSILON < space.g(next);
            tracer.record(|| SearchEvent::Relax { node: next, g, improved });
            if improved {
                space.open(next, node, g, g);
                pushed += 1;
                tracer.record(|| SearchEvent::Open { node: next, parent: node, g, h: 0.0 });
            }
        });
    }
    tracer.record(|| SearchEvent::Exhausted);
    PathResult { path: None, expanded, pushed, out_of_budget: false }
}

/// Dijkstra in the registry, searching to the goal.
pub struct Dijkstra;

impl GridAlgorithm for Dijkstra {
    const ID: &'static str = "dijkstra";
    const LABEL: &'static str = "Dijkstra";
    const PSEUDOCODE: &'static [Line] = &best_first("    u := the open node with the lowest g");

    fn order(_search: &GridSearch) -> Order {
        Order { label: Self::LABEL, key: Key::G, first_route_only: false, jumps: false }
    }

    fn run<T: Tracer<SearchEvent>>(
        search: &GridSearch,
        grid: &crate::grid::Grid,
        start: u32,
        goal: u32,
        space: &mut SearchSpace,
        tracer: &mut T,
    ) -> PathResult {
        dijkstra(&crate::grid::GridGraph::new(grid, search.rules), start, Some(goal), space, tracer)
    }
}
