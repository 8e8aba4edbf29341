//! A* with a pluggable heuristic and weight `w >= 1` (weighted A*: f = g + w·h).
//!
//! Ties on f go to the larger g (see `OpenEntry`), so among equally promising nodes the one
//! closest to the goal is expanded first. A closed node reached again by a cheaper route is
//! reopened, which keeps A* optimal even for admissible heuristics that are not consistent.

use super::search_trace::SearchEvent;
use super::{COST_EPSILON, Heuristic, PathResult, SearchSpace};
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
    space.begin(graph.node_count());
    let h_start = weight * heuristic(start);
    space.open(start, NO_NODE, 0.0, h_start);
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
            let improved = g + COST_EPSILON < space.g(next);
            tracer.record(|| SearchEvent::Relax { node: next, g, improved });
            if improved {
                let h = weight * heuristic(next);
                space.open(next, node, g, g + h);
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
