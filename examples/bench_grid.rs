//! Our A* against `pathfinding::prelude::astar` and `petgraph::algo::astar` on the same queries,
//! each side with the heuristic that matches its own costs: `pathfinding` needs integer costs, so
//! it gets octile costs in millionths and the octile distance in those same integer costs (exact on
//! open ground, consistent); petgraph and ours search float costs with the float octile distance.
//! Costs are asserted equal (to the integer rounding), and per map the median per-query time of
//! each, the ratios, and each side's median expansions are printed as a table row.
//!
//! cargo run --release --example bench_grid [-- MAP.map SCEN.scen ...]
//! Without arguments: the bundled maps, the MovingAI maps in `../shared/movingai` (or
//! $SEARCHLAB_MOVINGAI), and generated maze, room and 10-40% random maps. BENCH_QUERIES (default
//! 200) caps the queries per map, taken evenly from the scenario file.

use std::path::{Path, PathBuf};
use std::time::Instant;

use petgraph::graph::{DiGraph, NodeIndex};
use searchlab::graph::Graph;
use searchlab::grid::movingai::{self, Scenario};
use searchlab::grid::{Grid, GridGraph, MoveRules, generate};
use searchlab::pathfinding::astar::{astar, grid_heuristic};
use searchlab::pathfinding::{Heuristic, SearchSpace, scenarios};
use searchlab::trace::NoTrace;

/// `pathfinding` needs totally ordered costs: octile costs in millionths.
const SCALE: u64 = 1_000_000;
/// A diagonal step in millionths, rounded to nearest.
const DIAGONAL: u64 = 1_414_214;

/// What one solver did on one query: its cost, the nodes it expanded, and its best time.
#[derive(Clone, Copy)]
struct Run {
    cost: f64,
    expanded: usize,
    micros: f64,
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// The octile distance in `pathfinding`'s integer costs: exact on open ground, so consistent.
fn integer_octile(grid: &Grid, a: u32, b: u32) -> u64 {
    let ((ax, ay), (bx, by)) = (grid.coords(a), grid.coords(b));
    let (dx, dy) = (u64::from(ax.abs_diff(bx)), u64::from(ay.abs_diff(by)));
    SCALE * dx.max(dy) + (DIAGONAL - SCALE) * dx.min(dy)
}

fn float_octile(grid: &Grid, a: u32, b: u32) -> f64 {
    let ((ax, ay), (bx, by)) = (grid.coords(a), grid.coords(b));
    Heuristic::Octile.estimate(ax as f64 - bx as f64, ay as f64 - by as f64)
}

/// The three solvers over one map's queries, interleaved (each query by all three in turn, best of
/// `REPEATS`) so that machine load hits all alike.
fn bench_map(name: &str, grid: &Grid, pairs: &[(u32, u32)], optimal: Option<&[Scenario]>) {
    const REPEATS: usize = 3;
    let graph = GridGraph::new(grid, MoveRules::MOVINGAI);
    let mut space = SearchSpace::for_nodes(grid.cell_count());
    let mut ours = |start: u32, goal: u32| {
        let result =
            astar(&graph, start, goal, grid_heuristic(grid, goal, Heuristic::Octile), 1.0, &mut space, &mut NoTrace);
        (result.cost().unwrap_or(f64::INFINITY), result.expanded)
    };
    let mut crate_pathfinding = |start: u32, goal: u32| {
        let mut expanded = 0;
        let successors = |&cell: &u32| {
            expanded += 1;
            let mut out = Vec::with_capacity(8);
            graph.for_each_neighbor(cell, |next, cost| out.push((next, if cost == 1.0 { SCALE } else { DIAGONAL })));
            out
        };
        let found =
            pathfinding::prelude::astar(&start, successors, |&cell| integer_octile(grid, cell, goal), |&c| c == goal);
        (found.map_or(f64::INFINITY, |(_, cost)| cost as f64 / SCALE as f64), expanded)
    };
    let mut petgraph_graph = DiGraph::<(), f64>::with_capacity(grid.cell_count(), grid.cell_count() * 8);
    for _ in 0..grid.cell_count() {
        petgraph_graph.add_node(());
    }
    for cell in 0..grid.cell_count() as u32 {
        graph.for_each_neighbor(cell, |next, cost| {
            petgraph_graph.add_edge(NodeIndex::new(cell as usize), NodeIndex::new(next as usize), cost);
        });
    }
    let mut crate_petgraph = |start: u32, goal: u32| {
        // petgraph walks a node's edges once per expansion: a new source node is a new expansion.
        let (mut expanded, mut last_source) = (0, usize::MAX);
        let found = petgraph::algo::astar(
            &petgraph_graph,
            NodeIndex::new(start as usize),
            |n| n.index() == goal as usize,
            |e| {
                use petgraph::visit::EdgeRef;
                if e.source().index() != last_source {
                    (expanded, last_source) = (expanded + 1, e.source().index());
                }
                *e.weight()
            },
            |n| float_octile(grid, n.index() as u32, goal),
        );
        (found.map_or(f64::INFINITY, |(cost, _)| cost), expanded)
    };
    let solvers: &mut [&mut dyn FnMut(u32, u32) -> (f64, usize)] =
        &mut [&mut ours, &mut crate_pathfinding, &mut crate_petgraph];
    let mut runs: Vec<Vec<Run>> = vec![Vec::with_capacity(pairs.len()); solvers.len()];
    for &(start, goal) in pairs {
        for (i, solve) in solvers.iter_mut().enumerate() {
            let mut run = Run { cost: f64::NAN, expanded: 0, micros: f64::INFINITY };
            for _ in 0..REPEATS {
                let clock = Instant::now();
                (run.cost, run.expanded) = solve(start, goal);
                run.micros = run.micros.min(clock.elapsed().as_secs_f64() * 1e6);
            }
            runs[i].push(run);
        }
    }
    for (q, run) in runs[0].iter().enumerate() {
        // A diagonal in millionths is off by at most half a millionth.
        let tolerance = 1e-9 + run.cost * 1e-6;
        for (name, other) in [("pathfinding", runs[1][q].cost), ("petgraph", runs[2][q].cost)] {
            assert!((other - run.cost).abs() <= tolerance, "{name}: query {q}: ours {} vs {name} {other}", run.cost);
        }
        if let Some(scenarios) = optimal {
            assert!(
                scenarios[q].is_optimal(run.cost),
                "{name}: query {q}: ours {} vs scen {}",
                run.cost,
                scenarios[q].optimal
            );
        }
    }
    let time = |i: usize| median(runs[i].iter().map(|r| r.micros).collect());
    let expanded = |i: usize| median(runs[i].iter().map(|r| r.expanded as f64).collect());
    let (t_ours, t_pf, t_pg) = (time(0), time(1), time(2));
    println!(
        "| {name} | {} | {t_ours:.1} | {t_pf:.1} | {t_pg:.1} | {:.2}x | {:.2}x | {} | {} | {} |",
        pairs.len(),
        t_pf / t_ours,
        t_pg / t_ours,
        expanded(0),
        expanded(1),
        expanded(2)
    );
}

/// Up to `limit` scenarios taken evenly from `all` (long and short ones alike: files sort by length).
fn evenly(all: Vec<Scenario>, limit: usize) -> Vec<Scenario> {
    let step = all.len().div_ceil(limit).max(1);
    all.into_iter().step_by(step).collect()
}

fn bench_file(map: &Path, scen: &Path, limit: usize) {
    let grid = movingai::load_map(map).unwrap_or_else(|e| panic!("{e}"));
    let scen_name = scen.display().to_string();
    // MovingAI's water ('W') is blocked here: its queries from or to water are left out.
    let (scenarios, _) = movingai::load_scen(scen)
        .and_then(|all| movingai::searchable_scenarios(&scen_name, all, &grid))
        .unwrap_or_else(|e| panic!("{e}"));
    let scenarios = evenly(scenarios, limit);
    let pairs: Vec<(u32, u32)> =
        scenarios.iter().map(|s| (grid.cell(s.start.0, s.start.1), grid.cell(s.goal.0, s.goal.1))).collect();
    let name = map.file_name().map_or(map.display().to_string(), |n| n.to_string_lossy().into_owned());
    bench_map(&name, &grid, &pairs, Some(&scenarios));
}

fn bench_generated(name: &str, grid: &Grid, limit: usize) {
    // Optimal lengths from our own A*: the cost assertions check the crates against them.
    let scenarios = scenarios::generate(grid, name, limit, 7);
    let pairs: Vec<(u32, u32)> =
        scenarios.iter().map(|s| (grid.cell(s.start.0, s.start.1), grid.cell(s.goal.0, s.goal.1))).collect();
    bench_map(name, grid, &pairs, None);
}

/// The MovingAI maps next to the project, each with its `.scen`.
fn shared_maps() -> Vec<(PathBuf, PathBuf)> {
    let dir = std::env::var_os("SEARCHLAB_MOVINGAI").map_or(PathBuf::from("../shared/movingai"), PathBuf::from);
    let mut maps: Vec<(PathBuf, PathBuf)> = std::fs::read_dir(&dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|e| e == "map"))
        .map(|map| (map.clone(), PathBuf::from(format!("{}.scen", map.display()))))
        .filter(|(_, scen)| scen.exists())
        .collect();
    maps.sort();
    maps
}

fn main() {
    let limit = std::env::var("BENCH_QUERIES").ok().and_then(|v| v.parse().ok()).unwrap_or(200);
    let args: Vec<String> = std::env::args().skip(1).collect();
    println!(
        "| map | queries | ours us | pathfinding us | petgraph us | pathfinding/ours | petgraph/ours | ours expanded | pathfinding expanded | petgraph expanded |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|");
    if !args.is_empty() {
        for pair in args.chunks(2) {
            let [map, scen] = pair else { panic!("give MAP.map SCEN.scen pairs") };
            bench_file(map.as_ref(), scen.as_ref(), limit);
        }
        return;
    }
    for name in ["lecture-u", "maze64", "rooms128", "random512", "rooms512"] {
        bench_file(format!("maps/{name}.map").as_ref(), format!("maps/{name}.map.scen").as_ref(), limit);
    }
    for (map, scen) in shared_maps() {
        bench_file(&map, &scen, limit);
    }
    bench_generated("maze512-c4", &generate::maze(512, 512, 4, 1), limit);
    bench_generated("rooms512-r16", &generate::rooms(512, 512, 16, 0.1, 1), limit);
    for density in [0.1, 0.2, 0.3, 0.4] {
        bench_generated(
            &format!("random512-{}", (density * 100.0) as u32),
            &generate::random(512, 512, density, 1),
            limit,
        );
    }
}
