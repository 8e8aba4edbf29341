//! Hierarchical planners (HPA* with 1 and 2 levels, PRA*, PRA*(k)) against our A* on 512x512 maps: per-query speedup
//! (median of the per-query ratios; for PRA*(k) the time to the first steps) and suboptimality
//! (mean, 95th percentile, share within 3%).
//!
//! cargo run --release --example bench_hierarchy [-- STRIDE]   (every STRIDE-th scenario, default 4)

use std::path::{Path, PathBuf};
use std::time::Instant;

use searchlab::grid::movingai;
use searchlab::grid::{Grid, MoveRules};
use searchlab::pathfinding::hpa::{Hpa, HpaQuery};
use searchlab::pathfinding::pra::{PraOptions, Pyramid};
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

/// One query answered by a planner: (micros, cost found, whether the whole path was planned).
type Answer = (f64, f64, bool);

/// Times `plan` on every (start, goal, optimal) query.
fn run(queries: &[(u32, u32, f64)], mut plan: impl FnMut(u32, u32) -> (f64, bool)) -> Vec<Answer> {
    queries
        .iter()
        .map(|&(start, goal, _)| {
            let clock = Instant::now();
            let (cost, complete) = plan(start, goal);
            (micros(clock), cost, complete)
        })
        .collect()
}

/// Prints speedup over `astar` (median of per-query ratios) and suboptimality of complete paths.
fn report(name: &str, queries: &[(u32, u32, f64)], astar: &[Answer], answers: &[Answer]) {
    let speedup: Vec<f64> = astar.iter().zip(answers).map(|(a, b)| a.0 / b.0).collect();
    let subopt: Vec<f64> =
        queries.iter().zip(answers).filter(|(_, a)| a.2).map(|(q, a)| a.1 / q.2 - 1.0).collect();
    let within_3 = subopt.iter().filter(|&&s| s <= 0.03).count() as f64 / subopt.len().max(1) as f64;
    if subopt.is_empty() {
        println!("  {name:<34} median speedup {:6.2}x (partial paths)", percentile(speedup, 0.5));
        return;
    }
    println!(
        "  {name:<34} median speedup {:6.2}x  suboptimality mean {:5.2}% p95 {:5.2}%  within 3%: {:5.1}%",
        percentile(speedup, 0.5),
        100.0 * mean(&subopt),
        100.0 * percentile(subopt.clone(), 0.95),
        100.0 * within_3
    );
}

fn bench(map: &Path, stride: usize) {
    let grid: Grid = movingai::load_map(map).unwrap_or_else(|e| panic!("{e}"));
    let scen = PathBuf::from(format!("{}.scen", map.display()));
    let scenarios = movingai::load_scen(&scen).unwrap_or_else(|e| panic!("{e}"));
    let queries: Vec<(u32, u32, f64)> = scenarios
        .iter()
        .step_by(stride)
        .filter(|s| s.optimal > 0.0)
        .map(|s| (grid.cell(s.start.0, s.start.1), grid.cell(s.goal.0, s.goal.1), s.optimal))
        .collect();
    println!("{}: {} queries", map.file_name().unwrap().to_string_lossy(), queries.len());
    let mut space = SearchSpace::new();
    let astar = run(&queries, |s, g| (GridSearch::default().run(&grid, s, g, &mut space, &mut NoTrace).cost().unwrap(), true));
    for (cluster, levels) in [10, 16, 32].into_iter().flat_map(|c| [(c, 1), (c, 2)]) {
        let clock = Instant::now();
        let hpa = Hpa::build_levels(&grid, MoveRules::MOVINGAI, cluster, levels);
        let built = micros(clock) / 1e3;
        for smooth in [false, true] {
            let answers = run(&queries, |s, g| {
                let result = hpa.query(&grid, s, g, HpaQuery { smooth }, &mut space, &mut NoTrace);
                (result.path.expect("HPA* finds what A* finds").0, true)
            });
            let name = format!("HPA* {cluster}x{cluster} L{levels}{} ({built:.0} ms)", if smooth { " smoothed" } else { "" });
            report(&name, &queries, &astar, &answers);
        }
    }
    let clock = Instant::now();
    let pyramid = Pyramid::build(&grid, MoveRules::MOVINGAI);
    let built = micros(clock) / 1e3;
    for k in [None, Some(1), Some(4)] {
        let answers = run(&queries, |s, g| {
            let result = pyramid.query(&grid, s, g, PraOptions { level: None, k }, &mut space, &mut NoTrace);
            (result.path.expect("PRA* finds what A* finds").0, result.complete)
        });
        let name = match k {
            None => format!("PRA* ({} levels, {built:.0} ms)", pyramid.height()),
            Some(k) => format!("PRA*({k}) first steps"),
        };
        report(&name, &queries, &astar, &answers);
    }
}

fn main() {
    let stride = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(4);
    for map in maps() {
        bench(&map, stride);
    }
}
