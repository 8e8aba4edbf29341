//! Greedy best-first search: expands the open node that looks closest to the goal, the lowest h,
//! and ignores the cost of getting there. It heads straight for the goal on open ground and
//! expands few nodes, but it is not optimal: a wall between it and the goal leads it along the
//! wall and back, and the path it returns can be much longer than the cheapest.
//!
//! A node goes on the open list once, when first reached (as in Russell & Norvig's graph search
//! and Red Blob's version): ordered by h alone, a cheaper route found later changes nothing the
//! search looks at. Ties on h go to the larger g, as in A*.

use super::astar::{Relax, expand_best_first};
use super::registry::{GridAlgorithm, Key, Line, Order, Phase};
use super::search_trace::SearchEvent;
use super::{GridSearch, PathResult, SearchSpace};
use crate::graph::Graph;
use crate::grid::{Grid, GridGraph};
use crate::trace::Tracer;

pub fn greedy<G: Graph, T: Tracer<SearchEvent>>(
    graph: &G,
    start: u32,
    goal: u32,
    heuristic: impl Fn(u32) -> f64,
    space: &mut SearchSpace,
    tracer: &mut T,
) -> PathResult {
    let rule = Relax {
        heuristic,
        improves: |space: &SearchSpace, next, _| !space.is_seen(next),
        key: |_, h| h,
        budget: usize::MAX,
    };
    expand_best_first(graph, start, goal, rule, space, tracer)
}

/// Greedy best-first search in the registry.
pub struct Greedy;

impl GridAlgorithm for Greedy {
    const ID: &'static str = "greedy";
    const LABEL: &'static str = "Greedy";
    const HEURISTIC: bool = true;
    const PSEUDOCODE: &'static [Line] = &[
        Line::new("open := {start}; mark start seen; g(start) := 0", &[Phase::Start]),
        Line::new("while open is not empty:", &[]),
        Line::new("    u := the open node with the lowest h", &[Phase::Pick]),
        Line::new("    if u = goal: return the path to u", &[Phase::Goal, Phase::StartIsGoal]),
        Line::new("    for each neighbour v of u:", &[Phase::Skip]),
        Line::new("        if v is not seen:", &[Phase::Improve]),
        Line::new("            mark v seen; g(v) := g(u) + cost(u, v); parent(v) := u", &[]),
        Line::new("            add v to open", &[Phase::Push]),
        Line::new("return no path", &[Phase::Exhausted]),
    ];

    fn order(_search: &GridSearch) -> Order {
        Order { label: Self::LABEL, key: Key::H, first_route_only: true, jumps: false }
    }

    fn run<T: Tracer<SearchEvent>>(
        search: &GridSearch,
        grid: &Grid,
        start: u32,
        goal: u32,
        space: &mut SearchSpace,
        tracer: &mut T,
    ) -> PathResult {
        let heuristic = super::astar::grid_heuristic(grid, goal, search.heuristic);
        greedy(&GridGraph::new(grid, search.rules), start, goal, heuristic, space, tracer)
    }

    fn suboptimality_reason(_search: &GridSearch, _weighted_map: bool) -> Option<String> {
        Some("greedy best-first search follows h alone, not the cost so far, so its path can be longer".to_string())
    }
}
