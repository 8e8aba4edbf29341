//! Hierarchical planners against our A* on 512x512 maps: per-query speedup (median) and
//! suboptimality (mean, 95th percentile), measured query by query, interleaved.
//!
//! cargo run --release --example bench_hierarchy [-- STRIDE]   (every STRIDE-th scenario, default 4)

use std::path::{Path, PathBuf};
use std::time::Instant;

use searchlab::grid::movingai;
use searchlab::grid::{Grid, MoveRules};
use searchlab::pathfinding::hpa::{Hpa, HpaQuery};
use searchlab::pathfinding::{GridSearch, SearchSpace};
use searchlab::trace::NoTrace;

fn micros(clock: Instant) -> f64 {
    clock.elapsed().as_secs_f64() * 1e6
}

fn percentile(mut values: Vec<f64>, p: f64) -> f64 {
    values.sort_by(f64::total_cmp);
    values[((values.len() - 1) as f64 * p).round() as usize]
}

fn mean(values: &[f64]) -> f64 {
    values.iter().sum::<f64>() / values.len() as f64
}

/// The 512x512 maps: ours, and MovingAI's when `../shared` is there.
fn maps() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut maps = vec![root.join("maps/random512.map")];
    let maze = root.join("../shared/movingai/maze512-32-9.map");
    if maze.exists() {
        maps.push(maze);
    } else {
        eprintln!("note: {} not found; benchmarking the bundled map only", maze.display());
    }
    maps
}

fn bench(map: &Path, stride: usize, cluster: u32) {
    let grid: Grid = movingai::load_map(map).unwrap_or_else(|e| panic!("{e}"));
    let scen = PathBuf::from(format!("{}.scen", map.display()));
    let scenarios = movingai::load_scen(&scen).unwrap_or_else(|e| panic!("{e}"));
    let clock = Instant::now();
    let hpa = Hpa::build(&grid, MoveRules::MOVINGAI, cluster);
    let build_ms = micros(clock) / 1e3;
    let astar = GridSearch::default();
    let mut space = SearchSpace::new();
    let (mut speedup, mut smoothed, mut raw) = (Vec::new(), Vec::new(), Vec::new());
    for s in scenarios.iter().step_by(stride).filter(|s| s.optimal > 0.0) {
        let (start, goal) = (grid.cell(s.start.0, s.start.1), grid.cell(s.goal.0, s.goal.1));
        let clock = Instant::now();
        let exact = astar.run(&grid, start, goal, &mut space, &mut NoTrace);
        let astar_us = micros(clock);
        let clock = Instant::now();
        let result = hpa.query(&grid, start, goal, HpaQuery { smooth: true }, &mut space, &mut NoTrace);
        let hpa_us = micros(clock);
        let optimal = exact.cost().expect("scenario goals are reachable");
        speedup.push(astar_us / hpa_us);
        smoothed.push(result.path.expect("HPA* finds what A* finds").0 / optimal - 1.0);
        raw.push(result.unsmoothed_cost.expect("found") / optimal - 1.0);
    }
    println!(
        "{}: {} queries, HPA* (clusters of {cluster}: {} nodes, {} edges, built in {build_ms:.1} ms)",
        map.file_name().unwrap().to_string_lossy(),
        speedup.len(),
        hpa.node_count(),
        hpa.edge_count()
    );
    println!(
        "  median speedup over A* {:.2}x; suboptimality after smoothing mean {:.2}% p95 {:.2}%, before smoothing mean {:.2}% p95 {:.2}%",
        percentile(speedup.clone(), 0.5),
        100.0 * mean(&smoothed),
        100.0 * percentile(smoothed.clone(), 0.95),
        100.0 * mean(&raw),
        100.0 * percentile(raw.clone(), 0.95),
    );
}

fn main() {
    let stride = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(4);
    for map in maps() {
        for cluster in [10, 16, 32] {
            bench(&map, stride, cluster);
        }
    }
}
