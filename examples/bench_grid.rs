//! Our A* against `pathfinding::prelude::astar` and `petgraph::algo::astar` on the same queries of
//! a 512x512 map: costs asserted equal, median per-query times and their ratios printed.
//!
//! cargo run --release --example bench_grid [-- MAP.map SCEN.scen]

use std::time::Instant;

use petgraph::graph::{DiGraph, NodeIndex};
use searchlab::graph::Graph;
use searchlab::grid::movingai;
use searchlab::grid::{Grid, GridGraph, MoveRules, SQRT2};
use searchlab::pathfinding::astar::{astar, grid_heuristic};
use searchlab::pathfinding::{Heuristic, SearchSpace};
use searchlab::trace::NoTrace;

/// `pathfinding` needs totally ordered costs: octile costs in millionths (sqrt 2 rounded up, the
/// heuristic rounded down, so it stays admissible).
const SCALE: f64 = 1e6;

fn median(mut micros: Vec<f64>) -> f64 {
    micros.sort_by(f64::total_cmp);
    micros[micros.len() / 2]
}

/// Runs every solver on every (start, goal) pair, interleaved so that machine load hits all alike.
/// Returns per solver the per-query micros (best of `REPEATS`) and costs.
fn time_queries(pairs: &[(u32, u32)], solvers: &mut [&mut dyn FnMut(u32, u32) -> f64]) -> Vec<(Vec<f64>, Vec<f64>)> {
    const REPEATS: usize = 3;
    let mut results = vec![(Vec::with_capacity(pairs.len()), Vec::with_capacity(pairs.len())); solvers.len()];
    for &(start, goal) in pairs {
        let mut best = vec![f64::INFINITY; solvers.len()];
        let mut cost = vec![f64::NAN; solvers.len()];
        for _ in 0..REPEATS {
            for (i, solve) in solvers.iter_mut().enumerate() {
                let clock = Instant::now();
                cost[i] = solve(start, goal);
                best[i] = best[i].min(clock.elapsed().as_secs_f64() * 1e6);
            }
        }
        for (i, (times, costs)) in results.iter_mut().enumerate() {
            times.push(best[i]);
            costs.push(cost[i]);
        }
    }
    results
}

fn octile(grid: &Grid, a: u32, b: u32) -> f64 {
    let ((ax, ay), (bx, by)) = (grid.coords(a), grid.coords(b));
    Heuristic::Octile.estimate(ax as f64 - bx as f64, ay as f64 - by as f64)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (map_path, scen_path) = match args.as_slice() {
        [map, scen] => (map.clone(), scen.clone()),
        _ => ("maps/random512.map".to_string(), "maps/random512.map.scen".to_string()),
    };
    let grid = movingai::load_map(map_path.as_ref()).unwrap_or_else(|e| panic!("{e}"));
    // MovingAI's water ('W') is blocked here: its queries from or to water are left out.
    let (scenarios, _) = movingai::load_scen(scen_path.as_ref())
        .and_then(|all| movingai::searchable_scenarios(&scen_path, all, &grid))
        .unwrap_or_else(|e| panic!("{e}"));
    let pairs: Vec<(u32, u32)> =
        scenarios.iter().map(|s| (grid.cell(s.start.0, s.start.1), grid.cell(s.goal.0, s.goal.1))).collect();
    let graph = GridGraph::new(&grid, MoveRules::MOVINGAI);

    let mut space = SearchSpace::new();
    let mut ours_solver = |start: u32, goal: u32| {
        let h = grid_heuristic(&grid, goal, Heuristic::Octile);
        astar(&graph, start, goal, h, 1.0, &mut space, &mut NoTrace).cost().unwrap_or(f64::INFINITY)
    };

    let mut pf_solver = |start: u32, goal: u32| {
        let successors = |&cell: &u32| {
            let mut out = Vec::with_capacity(8);
            graph.for_each_neighbor(cell, |nb, cost| {
                out.push((nb, if cost == 1.0 { SCALE as u64 } else { (SQRT2 * SCALE).ceil() as u64 }))
            });
            out
        };
        let heuristic = |&cell: &u32| (octile(&grid, cell, goal) * SCALE).floor() as u64;
        pathfinding::prelude::astar(&start, successors, heuristic, |&cell| cell == goal)
            .map_or(f64::INFINITY, |(_, cost)| cost as f64 / SCALE)
    };

    let mut petgraph_graph = DiGraph::<(), f64>::with_capacity(grid.cell_count(), grid.cell_count() * 8);
    for _ in 0..grid.cell_count() {
        petgraph_graph.add_node(());
    }
    for cell in 0..grid.cell_count() as u32 {
        graph.for_each_neighbor(cell, |nb, cost| {
            petgraph_graph.add_edge(NodeIndex::new(cell as usize), NodeIndex::new(nb as usize), cost);
        });
    }
    let mut pg_solver = |start: u32, goal: u32| {
        petgraph::algo::astar(
            &petgraph_graph,
            NodeIndex::new(start as usize),
            |n| n.index() == goal as usize,
            |e| *e.weight(),
            |n| octile(&grid, n.index() as u32, goal),
        )
        .map_or(f64::INFINITY, |(cost, _)| cost)
    };
    let mut results = time_queries(&pairs, &mut [&mut ours_solver, &mut pf_solver, &mut pg_solver]).into_iter();
    let mut next = || results.next().expect("one result per solver");
    let ((ours, our_costs), (crate_pathfinding, pf_costs), (crate_petgraph, pg_costs)) = (next(), next(), next());

    for (i, s) in scenarios.iter().enumerate() {
        let tolerance = 1e-3 + pairs.len() as f64 / SCALE;
        for (name, cost) in [("pathfinding", pf_costs[i]), ("petgraph", pg_costs[i])] {
            assert!((cost - our_costs[i]).abs() <= tolerance, "query {i}: ours {} vs {name} {cost}", our_costs[i]);
        }
        assert!(s.is_optimal(our_costs[i]), "query {i}: ours {} vs scen {}", our_costs[i], s.optimal);
    }
    println!("{map_path}: {} queries, all costs equal", pairs.len());
    report("interleaved (each query run by all three in turn)", ours, crate_pathfinding, crate_petgraph);
    // Batched: each library runs all queries back to back with its own data warm in the caches.
    let mut batched = [&mut ours_solver as &mut dyn FnMut(u32, u32) -> f64, &mut pf_solver, &mut pg_solver]
        .into_iter()
        .map(|solver| median(time_queries(&pairs, &mut [solver]).remove(0).0));
    let (b_ours, b_pf, b_pg) = (batched.next().unwrap(), batched.next().unwrap(), batched.next().unwrap());
    report_medians("batched (each library alone over all queries)", b_ours, b_pf, b_pg);
}

fn report(mode: &str, ours: Vec<f64>, crate_pathfinding: Vec<f64>, crate_petgraph: Vec<f64>) {
    report_medians(mode, median(ours), median(crate_pathfinding), median(crate_petgraph));
}

fn report_medians(mode: &str, ours: f64, crate_pathfinding: f64, crate_petgraph: f64) {
    println!(
        "{mode}: median query searchlab A* {ours:.1} us, pathfinding::astar {crate_pathfinding:.1} us, \
         petgraph::astar {crate_petgraph:.1} us; searchlab is {:.2}x faster than pathfinding, {:.2}x than petgraph",
        crate_pathfinding / ours,
        crate_petgraph / ours
    );
}
