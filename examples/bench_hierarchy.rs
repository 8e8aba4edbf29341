//! HPA* (1 and 2 levels), PRA*, PRA*(k) and JPS against our A* on the same queries: per map, the
//! median of the per-query time ratios A* / planner (for PRA*(k) the time to the first steps),
//! the suboptimality of complete paths (mean, 95th percentile, share within 3%), and where the
//! query time of HPA* (smoothed), PRA* and PRA*(1) goes, stage by stage.
//!
//! cargo run --release --example bench_hierarchy [-- QUERIES] [MAP.map ...]
//! (about QUERIES per map, default 250; maps given replace the default set, each beside its .scen)
//!
//! Environment: MAPS=random512,maze (only maps whose path contains one of these), HPA_CONFIGS=16L1,32L1
//! (cluster side and levels; empty for none), PRA="pra:level=3;pra:width=2" (PRA* variants to measure
//! besides the default, PRA*(1) and PRA*(4)), EXTRA_MAPS=maps/rooms128.map,/tmp/r10.map (more maps,
//! each with its `.scen` beside it).

use std::path::{Path, PathBuf};
use std::time::Instant;

use searchlab::grid::movingai::{self, Scenario};
use searchlab::grid::{Grid, GridGraph, MoveRules};
use searchlab::pathfinding::hpa::{Hpa, HpaQuery};
use searchlab::pathfinding::jps::jps;
use searchlab::pathfinding::plan_trace::PlanEvent;
use searchlab::pathfinding::planner::{Method, Planner};
use searchlab::pathfinding::pra::{PraOptions, Pyramid};
use searchlab::pathfinding::{GridSearch, SearchSpace};
use searchlab::trace::{NoTrace, Tracer};

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

/// Our maps, MovingAI's when `../shared/movingai` is there, and those listed in `EXTRA_MAPS`.
fn maps() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut maps = vec![root.join("maps/random512.map"), root.join("maps/rooms512.map")];
    maps.extend(
        std::env::var("EXTRA_MAPS").iter().flat_map(|v| v.split(',').filter(|m| !m.is_empty()).map(PathBuf::from)),
    );
    let shared = root.join("../shared/movingai");
    if shared.is_dir() {
        maps.extend(["maze512-32-9.map", "arena.map"].map(|name| shared.join(name)));
    } else {
        eprintln!("note: {} not found; benchmarking the bundled maps only", shared.display());
    }
    maps
}

/// One query answered by a planner, beside our A* timed on the same query at the same moment.
struct Answer {
    micros: f64,
    astar_micros: f64,
    astar_expanded: usize,
    cost: f64,
    /// Whether the whole path was planned.
    complete: bool,
    /// Nodes expanded on every level.
    expanded: usize,
    /// Whether the straight line between the ends is a cheapest path (HPA* and PRA* take it
    /// without planning).
    line_free: bool,
}

/// The best of three runs, in microseconds.
fn best_of_three(mut work: impl FnMut()) -> f64 {
    (0..3)
        .map(|_| {
            let clock = Instant::now();
            work();
            micros(clock)
        })
        .fold(f64::INFINITY, f64::min)
}

/// Times `plan` on every (start, goal, optimal) query, each time right after A* on the same query,
/// so that a change in the machine's load between two planners' passes does not skew the ratio
/// (on a shared machine A*'s median moved by 40% from one pass to the next).
fn run(
    grid: &Grid,
    queries: &[(u32, u32, Scenario)],
    mut plan: impl FnMut(u32, u32) -> (f64, bool, usize),
) -> Vec<Answer> {
    let mut space = SearchSpace::new();
    queries
        .iter()
        .map(|&(start, goal, _)| {
            let mut astar_expanded = 0;
            let astar_micros = best_of_three(|| {
                astar_expanded = GridSearch::default().run(grid, start, goal, &mut space, &mut NoTrace).expanded
            });
            let mut answer = (f64::NAN, false, 0);
            let micros = best_of_three(|| answer = plan(start, goal));
            let line_free = GridGraph::new(grid, MoveRules::MOVINGAI).straight_path(start, goal).is_ok();
            Answer {
                micros,
                astar_micros,
                astar_expanded,
                cost: answer.0,
                complete: answer.1,
                expanded: answer.2,
                line_free,
            }
        })
        .collect()
}

/// Prints the speedup over A* (median of per-query ratios) and suboptimality of complete paths.
fn report(name: &str, queries: &[(u32, u32, Scenario)], answers: &[Answer]) {
    let speedup: Vec<f64> = answers.iter().map(|a| a.astar_micros / a.micros).collect();
    let median_micros = percentile(answers.iter().map(|a| a.micros).collect(), 0.5);
    let subopt: Vec<f64> =
        queries.iter().zip(answers).filter(|(_, a)| a.complete).map(|(q, a)| q.2.suboptimality(a.cost)).collect();
    let within_3 = subopt.iter().filter(|&&s| s <= 0.03).count() as f64 / subopt.len().max(1) as f64;
    let expanded = percentile(answers.iter().map(|a| a.expanded as f64).collect(), 0.5);
    let head = format!(
        "  {name:<34} {median_micros:8.1} us {expanded:7.0} expanded  median speedup {:6.2}x",
        percentile(speedup.clone(), 0.5)
    );
    // The queries that plan: the others go along a free straight line.
    let planned: Vec<f64> = speedup.iter().zip(answers).filter(|(_, a)| !a.line_free).map(|(s, _)| *s).collect();
    let planned = match planned.len() {
        0 => " (every line free)".to_string(),
        n if n == answers.len() => String::new(),
        n => format!(" ({n} with the line blocked: {:.2}x)", percentile(planned, 0.5)),
    };
    if subopt.is_empty() {
        println!("{head}{planned} (partial paths)");
        return;
    }
    println!(
        "{head}{planned}  suboptimality mean {:5.2}% p95 {:5.2}%  within 3%: {:5.1}%",
        100.0 * mean(&subopt),
        100.0 * percentile(subopt.clone(), 0.95),
        100.0 * within_3
    );
}

/// Adds up the time from each stage event of a planner to the next, by stage name. It keeps no
/// events (`ENABLED` is false, so the planner builds no paths for them) but looks at each one.
struct StageClock {
    last: Instant,
    stage: String,
    totals: Vec<(String, f64)>,
    /// Whether stages on different levels are told apart.
    by_level: bool,
}

impl StageClock {
    fn new(by_level: bool) -> Self {
        Self { last: Instant::now(), stage: String::new(), totals: Vec::new(), by_level }
    }

    fn lap(&mut self, next: String) {
        let elapsed = micros(self.last);
        match self.totals.iter_mut().find(|(stage, _)| *stage == self.stage) {
            Some(total) => total.1 += elapsed,
            None => self.totals.push((std::mem::take(&mut self.stage), elapsed)),
        }
        self.stage = next;
        self.last = Instant::now();
    }

    fn print(&self, planner: &str) {
        let all: f64 = self.totals.iter().map(|t| t.1).sum();
        let shares: Vec<String> = self
            .totals
            .iter()
            .map(|(stage, total)| {
                format!("{}: {:.0}%", if stage.is_empty() { "setup" } else { stage }, 100.0 * total / all)
            })
            .collect();
        println!("      where {planner}'s time goes: {}", shares.join(", "));
    }
}

impl Tracer<PlanEvent> for StageClock {
    const ENABLED: bool = false;
    fn record(&mut self, make: impl FnOnce() -> PlanEvent) {
        if let PlanEvent::Stage { stage, level } = make() {
            self.lap(if self.by_level { format!("{} {level}", stage.name()) } else { stage.name().to_string() });
        }
    }
}

fn bench(map: &Path, per_map: usize) {
    let grid: Grid = movingai::load_map(map).unwrap_or_else(|e| panic!("{e}"));
    let scen = PathBuf::from(format!("{}.scen", map.display()));
    // MovingAI's water ('W') is blocked here, so its queries from or to water are left out.
    let (scenarios, _) = movingai::load_scen(&scen)
        .and_then(|all| movingai::searchable_scenarios(&scen.display().to_string(), all, &grid))
        .unwrap_or_else(|e| panic!("{e}"));
    let stride = (scenarios.len() / per_map).max(1);
    let mut queries: Vec<(u32, u32, Scenario)> = scenarios
        .iter()
        .step_by(stride)
        .filter(|s| s.optimal > 0.0)
        .map(|s| (grid.cell(s.start.0, s.start.1), grid.cell(s.goal.0, s.goal.1), s.clone()))
        .collect();
    let mut space = SearchSpace::new();
    // Some published files are wrong (hog2's wc3maps512, see the README): suboptimality is
    // measured against our A*, which the tests hold to MovingAI's lengths and another solver's.
    let mut wrong = 0;
    for (start, goal, scenario) in &mut queries {
        let cost = GridSearch::default()
            .run(&grid, *start, *goal, &mut space, &mut NoTrace)
            .cost()
            .expect("scenario goals are reachable");
        if !scenario.is_optimal(cost) {
            wrong += 1;
            scenario.optimal = cost;
        }
    }
    if wrong > 0 {
        println!(
            "  note: {wrong} of the {} queries' lengths in {} are not A*'s; measured against A*",
            queries.len(),
            scen.display()
        );
    }
    // JPS's bits are built on its first query and kept by the grid: timed apart.
    let clock = Instant::now();
    grid.jump_bits();
    let built = micros(clock) / 1e3;
    let answers = run(&grid, &queries, |s, g| {
        let result = jps(&grid, s, g, &mut space, &mut NoTrace);
        (result.cost().unwrap(), true, result.expanded)
    });
    // The heading's A* figures: the pass timed beside JPS.
    println!(
        "{} ({}x{}): {} queries, A* median {:.1} us, {:.0} expanded",
        map.file_name().unwrap().to_string_lossy(),
        grid.width(),
        grid.height(),
        queries.len(),
        percentile(answers.iter().map(|a| a.astar_micros).collect(), 0.5),
        percentile(answers.iter().map(|a| a.astar_expanded as f64).collect(), 0.5)
    );
    for (q, a) in queries.iter().zip(&answers) {
        assert!(q.2.is_optimal(a.cost), "JPS {} vs optimal {}", a.cost, q.2.optimal);
    }
    report(&format!("JPS (bits built in {built:.2} ms)"), &queries, &answers);
    let configs: Vec<(u32, usize)> =
        std::env::var("HPA_CONFIGS").map_or(vec![(10, 2), (16, 1), (16, 2), (32, 1)], |v| {
            v.split(',')
                .filter(|c| !c.is_empty())
                .map(|c| c.split_once('L').map(|(s, l)| (s.parse().unwrap(), l.parse().unwrap())).unwrap())
                .collect()
        });
    for (cluster, levels) in configs {
        let clock = Instant::now();
        let hpa = Hpa::build_levels(&grid, MoveRules::MOVINGAI, cluster, levels);
        let built = micros(clock) / 1e3;
        for smooth in [false, true] {
            let answers = run(&grid, &queries, |s, g| {
                let result = hpa.query(&grid, s, g, HpaQuery { smooth }, &mut space, &mut NoTrace);
                let expanded = result.insertion_expanded + result.abstract_expanded;
                (result.path.expect("HPA* finds what A* finds").0, true, expanded)
            });
            let name =
                format!("HPA* {cluster}x{cluster} L{levels}{} ({built:.0} ms)", if smooth { " smoothed" } else { "" });
            report(&name, &queries, &answers);
        }
        let mut clock = StageClock::new(false);
        for &(s, g, _) in &queries {
            clock.stage.clear();
            clock.last = Instant::now();
            hpa.query(&grid, s, g, HpaQuery { smooth: true }, &mut space, &mut clock);
            clock.lap(String::new());
        }
        clock.print(&format!("HPA* {cluster}x{cluster} L{levels} smoothed"));
    }
    let clock = Instant::now();
    let pyramid = Pyramid::build(&grid, MoveRules::MOVINGAI);
    let built = micros(clock) / 1e3;
    let mut variants: Vec<PraOptions> = std::env::var("PRA").map_or(Vec::new(), |v| {
        v.split(';')
            .filter(|spec| !spec.is_empty())
            .map(|spec| match spec.parse::<Planner>().unwrap_or_else(|e| panic!("{e}")).method {
                Method::Pra(options) => options,
                _ => panic!("PRA takes pra specs, got {spec}"),
            })
            .collect()
    });
    variants.extend([
        PraOptions::default(),
        PraOptions { k: Some(1), ..PraOptions::default() },
        PraOptions { k: Some(4), ..PraOptions::default() },
    ]);
    for options in variants {
        let answers = run(&grid, &queries, |s, g| {
            let result = pyramid.query(&grid, s, g, options, &mut space, &mut NoTrace);
            (result.path.expect("PRA* finds what A* finds").0, result.complete, result.expanded_per_level.iter().sum())
        });
        let spec = Planner { method: Method::Pra(options), rules: MoveRules::MOVINGAI };
        let name = match options.k {
            None => format!("{spec} (of {} levels, {built:.0} ms)", pyramid.height()),
            Some(_) => format!("{spec} first steps"),
        };
        report(&name, &queries, &answers);
    }
    for options in [PraOptions::default(), PraOptions { k: Some(1), ..PraOptions::default() }] {
        let mut clock = StageClock::new(true);
        for &(s, g, _) in &queries {
            clock.stage.clear();
            clock.last = Instant::now();
            pyramid.query(&grid, s, g, options, &mut space, &mut clock);
            clock.lap(String::new());
        }
        clock.print(&Planner { method: Method::Pra(options), rules: MoveRules::MOVINGAI }.to_string());
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let per_map = args.iter().find_map(|a| a.parse().ok()).unwrap_or(250);
    let given: Vec<PathBuf> = args.iter().filter(|a| a.parse::<usize>().is_err()).map(PathBuf::from).collect();
    let only = std::env::var("MAPS").ok();
    for map in (if given.is_empty() { maps() } else { given })
        .into_iter()
        .filter(|m| only.as_ref().is_none_or(|o| o.split(',').any(|n| m.to_string_lossy().contains(n))))
    {
        bench(&map, per_map);
    }
}
