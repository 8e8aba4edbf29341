//! HPA* returns valid, near-optimal paths, reports unreachable goals like A*, and its local
//! updates agree with a rebuild.

mod common;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use searchlab::grid::movingai::{self, Scenario};
use searchlab::grid::{Grid, GridGraph, MoveRules, generate};
use searchlab::pathfinding::hpa::{Hpa, HpaQuery};
use searchlab::pathfinding::{Algorithm, GridSearch, PlanEvent, SearchSpace, path_cost};
use searchlab::trace::{NoTrace, Recorder, SearchEvent};

const SMOOTH: HpaQuery = HpaQuery { smooth: true };

fn bundled(name: &str) -> (Grid, Vec<Scenario>) {
    let map = common::project_map(name);
    (movingai::load_map(&map).unwrap(), movingai::load_scen(&map.with_file_name(format!("{name}.scen"))).unwrap())
}

/// Checks that `path` walks legal grid steps from start to goal with the claimed cost.
fn assert_valid(grid: &Grid, rules: MoveRules, start: u32, goal: u32, cost: f64, path: &[u32]) {
    assert_eq!((path[0], *path.last().unwrap()), (start, goal));
    assert!(path.iter().all(|&c| grid.is_cell_passable(c)));
    let walked = path_cost(&GridGraph::new(grid, rules), path).expect("every step is a legal move");
    assert!((walked - cost).abs() < 1e-6, "claimed {cost}, walked {walked}");
}

fn optimal(grid: &Grid, rules: MoveRules, start: u32, goal: u32, space: &mut SearchSpace) -> Option<f64> {
    GridSearch { algorithm: Algorithm::Dijkstra, rules, ..GridSearch::default() }.run(grid, start, goal, space, &mut NoTrace).cost()
}

/// Runs every scenario, checks each path, and returns the mean suboptimality.
fn check_scenarios(grid: &Grid, scenarios: &[Scenario], cluster: u32) -> f64 {
    let hpa = Hpa::build(grid, MoveRules::MOVINGAI, cluster);
    let mut space = SearchSpace::new();
    let mut total = 0.0;
    for s in scenarios {
        let (start, goal) = (grid.cell(s.start.0, s.start.1), grid.cell(s.goal.0, s.goal.1));
        let result = hpa.query(grid, start, goal, SMOOTH, &mut space, &mut NoTrace);
        let (cost, path) = result.path.expect("scenario goals are reachable");
        assert_valid(grid, MoveRules::MOVINGAI, start, goal, cost, &path);
        assert!(cost >= s.optimal - 1e-3, "line {}: {cost} beats the optimum {}", s.line, s.optimal);
        assert!(cost <= result.unsmoothed_cost.unwrap() + 1e-9, "smoothing never makes a path longer");
        total += cost / s.optimal.max(1e-9) - 1.0;
    }
    total / scenarios.len() as f64
}

#[test]
fn bundled_maps_get_valid_near_optimal_paths() {
    for (map, cluster, bound) in [("maze64.map", 10, 0.01), ("rooms128.map", 16, 0.03), ("random512.map", 10, 0.03)] {
        let (grid, scenarios) = bundled(map);
        let mean = check_scenarios(&grid, &scenarios, cluster);
        assert!(mean <= bound, "{map}: mean suboptimality {mean:.4} above {bound}");
    }
}

#[test]
fn movingai_maze_paths_are_within_one_percent_on_average() {
    let Some(dir) = common::shared_data("movingai") else { return };
    let grid = movingai::load_map(&dir.join("maze512-32-9.map")).unwrap();
    let scenarios: Vec<Scenario> =
        movingai::load_scen(&dir.join("maze512-32-9.map.scen")).unwrap().into_iter().step_by(20).collect();
    let mean = check_scenarios(&grid, &scenarios, 10);
    assert!(mean <= 0.01, "mean suboptimality {mean:.4}");
}

#[test]
fn other_rules_and_weights_stay_valid() {
    let mut grid = generate::rooms(60, 45, 7, 0.3, 8);
    let mut rng = StdRng::seed_from_u64(2);
    for _ in 0..300 {
        let (x, y) = (rng.random_range(0..60), rng.random_range(0..45));
        grid.set_weight(x, y, rng.random_range(1..=9));
    }
    let mut space = SearchSpace::new();
    for rules in [MoveRules::MOVINGAI, MoveRules::FOUR, MoveRules { corner_cutting: true, ..MoveRules::MOVINGAI }] {
        let hpa = Hpa::build(&grid, rules, 8);
        for s in generate::scenarios(&grid, "w", 40, 3) {
            let (start, goal) = (grid.cell(s.start.0, s.start.1), grid.cell(s.goal.0, s.goal.1));
            let best = optimal(&grid, rules, start, goal, &mut space).unwrap();
            let (cost, path) = hpa.query(&grid, start, goal, SMOOTH, &mut space, &mut NoTrace).path.unwrap();
            assert_valid(&grid, rules, start, goal, cost, &path);
            assert!(cost >= best - 1e-6);
        }
    }
}

#[test]
fn unreachable_goals_are_reported_like_astar() {
    let grid = generate::random(50, 50, 0.42, 13);
    let hpa = Hpa::build(&grid, MoveRules::MOVINGAI, 10);
    common::assert_reports_unreachable_like_astar(&grid, 4, |start, goal, space| {
        hpa.query(&grid, start, goal, SMOOTH, space, &mut NoTrace).path.is_some()
    });
}

#[test]
fn start_and_goal_in_one_cluster_or_on_one_cell() {
    let (grid, _) = bundled("maze64.map");
    let hpa = Hpa::build(&grid, MoveRules::MOVINGAI, 10);
    let mut space = SearchSpace::new();
    let (a, b) = (grid.cell(1, 1), grid.cell(2, 2));
    let (cost, path) = hpa.query(&grid, a, b, SMOOTH, &mut space, &mut NoTrace).path.unwrap();
    assert_eq!((cost, path.len()), (std::f64::consts::SQRT_2, 2));
    let (cost, path) = hpa.query(&grid, a, a, SMOOTH, &mut space, &mut NoTrace).path.unwrap();
    assert_eq!((cost, path), (0.0, vec![a]));
}

#[test]
fn recording_changes_nothing_and_marks_each_stage() {
    let (grid, scenarios) = bundled("rooms128.map");
    let hpa = Hpa::build(&grid, MoveRules::MOVINGAI, 16);
    let s = scenarios.last().unwrap();
    let (start, goal) = (grid.cell(s.start.0, s.start.1), grid.cell(s.goal.0, s.goal.1));
    let mut recorder = Recorder::default();
    let traced = hpa.query(&grid, start, goal, SMOOTH, &mut SearchSpace::new(), &mut recorder);
    let plain = hpa.query(&grid, start, goal, SMOOTH, &mut SearchSpace::new(), &mut NoTrace);
    assert_eq!(traced, plain);
    let events = recorder.finish().events;
    let stages: Vec<&str> =
        events.iter().filter_map(|e| if let PlanEvent::Stage { stage, .. } = e { Some(*stage) } else { None }).collect();
    assert_eq!(stages.len(), 5, "{stages:?}");
    let last_found = events.iter().rev().find_map(|e| match e {
        PlanEvent::Search(SearchEvent::Found { path, .. }) => Some(path.clone()),
        _ => None,
    });
    assert_eq!(last_found, plain.path.map(|(_, p)| p), "the last Found event is the final path");
    // The abstract search speaks in grid cells, so the grid view can replay it.
    assert!(events.iter().all(|e| match e {
        PlanEvent::Search(SearchEvent::Expand { node }) => (*node as usize) < grid.cell_count(),
        _ => true,
    }));
}

#[test]
fn edits_update_a_few_clusters_and_match_a_rebuild() {
    let mut grid = generate::random(120, 90, 0.25, 21);
    let mut hpa = Hpa::build(&grid, MoveRules::MOVINGAI, 10);
    let mut rng = StdRng::seed_from_u64(5);
    let mut space = SearchSpace::new();
    for _ in 0..15 {
        let (x, y) = (rng.random_range(0..120), rng.random_range(0..90));
        grid.set_passable(x, y, !grid.is_passable(x as i64, y as i64));
        let redone = hpa.update(&grid, &[(x, y)]);
        assert!(redone <= 5, "only the cluster and its neighbours");
        let fresh = Hpa::build(&grid, MoveRules::MOVINGAI, 10);
        for s in generate::scenarios(&grid, "e", 5, x as u64) {
            let (start, goal) = (grid.cell(s.start.0, s.start.1), grid.cell(s.goal.0, s.goal.1));
            let updated = hpa.query(&grid, start, goal, SMOOTH, &mut space, &mut NoTrace);
            let rebuilt = fresh.query(&grid, start, goal, SMOOTH, &mut space, &mut NoTrace);
            assert_eq!(updated.path.map(|p| p.0), rebuilt.path.map(|p| p.0));
        }
    }
}
