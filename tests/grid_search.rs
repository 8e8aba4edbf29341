//! Properties of the grid searches and of replaying their traces.

mod common;

use std::collections::HashSet;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use searchlab::graph::path_cost;
use searchlab::grid::movingai::{self, Scenario};
use searchlab::grid::{Grid, GridGraph, MoveRules, generate};
use searchlab::pathfinding::search_trace::{SearchEvent, SearchOutcome, SearchSnapshot};
use searchlab::pathfinding::{Algorithm, GridSearch, Heuristic, SearchSpace, scenarios};
use searchlab::trace::{NoTrace, Player, Progress, Recorder, Trace, Watched};

fn bundled(name: &str) -> (Grid, Vec<Scenario>) {
    let map = common::project_map(name);
    let grid = movingai::load_map(&map).unwrap();
    let scen = movingai::load_scen(&map.with_file_name(format!("{name}.scen"))).unwrap();
    (grid, scen)
}

fn endpoints(grid: &Grid, s: &Scenario) -> (u32, u32) {
    (grid.cell(s.start.0, s.start.1), grid.cell(s.goal.0, s.goal.1))
}

fn record(
    search: &GridSearch,
    grid: &Grid,
    start: u32,
    goal: u32,
) -> (Trace<SearchEvent>, searchlab::pathfinding::PathResult) {
    let mut recorder = Recorder::default();
    let result = search.run(grid, start, goal, &mut SearchSpace::new(), &mut recorder);
    (recorder.finish(), result)
}

fn astar(heuristic: Heuristic, weight: f64) -> GridSearch {
    GridSearch { algorithm: Algorithm::Astar, heuristic, weight, rules: MoveRules::MOVINGAI, reopen: None }
}

fn dijkstra() -> GridSearch {
    GridSearch { algorithm: Algorithm::Dijkstra, ..GridSearch::default() }
}

#[test]
fn replay_forward_then_back_equals_direct_replay() {
    let (grid, scen) = bundled("rooms128.map");
    let (start, goal) = endpoints(&grid, &scen[scen.len() - 1]);
    let (trace, _) = record(&astar(Heuristic::Octile, 1.0), &grid, start, goal);
    let len = trace.events.len();
    assert!(len > 1000, "a long query makes a long trace");
    let mut rng = StdRng::seed_from_u64(11);
    let mut wandering = Player::new(trace.clone(), SearchSnapshot::new(grid.cell_count()));
    for _ in 0..25 {
        let (k, j) = (rng.random_range(0..=len), rng.random_range(0..=len));
        wandering.seek(k);
        wandering.seek(j);
        let mut direct = Player::new(trace.clone(), SearchSnapshot::new(grid.cell_count()));
        direct.seek(j);
        assert_eq!(wandering.view(), direct.view(), "after seeking {k} then {j}");
        assert_eq!(wandering.current_event(), direct.current_event());
    }
}

#[test]
fn replay_end_state_matches_the_search_result() {
    let (grid, scen) = bundled("maze64.map");
    for s in scen.iter().step_by(7) {
        let (start, goal) = endpoints(&grid, s);
        for search in [
            astar(Heuristic::Octile, 1.0),
            dijkstra(),
            GridSearch { algorithm: Algorithm::Bfs, ..GridSearch::default() },
        ] {
            let (trace, result) = record(&search, &grid, start, goal);
            assert!(!trace.truncated);
            let mut player = Player::new(trace, SearchSnapshot::new(grid.cell_count()));
            player.seek(usize::MAX);
            let view = player.view();
            assert_eq!(view.expanded, result.expanded);
            let (cost, path) = result.path.clone().expect("bundled scenarios are solvable");
            assert_eq!(view.outcome, Some(SearchOutcome::Found { cost, path: path.clone() }));
            // Parent links in the replayed view lead from the goal back to the start.
            let mut node = goal;
            let mut walked = vec![node];
            while view.node(node).parent != searchlab::trace::NO_NODE {
                node = view.node(node).parent;
                walked.push(node);
            }
            walked.reverse();
            assert_eq!(walked, path);
            player.seek(0);
            assert_eq!(player.view(), &SearchSnapshot::new(grid.cell_count()));
        }
    }
}

#[test]
fn truncated_trace_is_marked_and_still_replays() {
    let (grid, scen) = bundled("maze64.map");
    let (start, goal) = endpoints(&grid, scen.last().unwrap());
    let mut recorder = Recorder::new(100);
    let result = astar(Heuristic::Octile, 1.0).run(&grid, start, goal, &mut SearchSpace::new(), &mut recorder);
    let trace = recorder.finish();
    assert!(trace.truncated && trace.events.len() == 100);
    assert!(result.path.is_some(), "truncating the recording never changes the search");
    let mut player = Player::new(trace, SearchSnapshot::new(grid.cell_count()));
    assert_eq!(player.seek(1000), 100);
}

fn expanded_set(trace: &Trace<SearchEvent>) -> Vec<u32> {
    trace.events.iter().filter_map(|e| if let SearchEvent::Expand { node } = e { Some(*node) } else { None }).collect()
}

#[test]
fn astar_with_zero_heuristic_expands_what_dijkstra_expands() {
    for map in ["maze64.map", "rooms128.map"] {
        let (grid, scen) = bundled(map);
        for s in scen.iter().step_by(5) {
            let (start, goal) = endpoints(&grid, s);
            let (zero, zero_result) = record(&astar(Heuristic::Zero, 1.0), &grid, start, goal);
            let (plain, plain_result) = record(&dijkstra(), &grid, start, goal);
            let (a, b) = (expanded_set(&zero), expanded_set(&plain));
            assert_eq!(a.iter().collect::<HashSet<_>>(), b.iter().collect::<HashSet<_>>(), "{map} line {}", s.line);
            assert_eq!(zero_result.cost(), plain_result.cost());
        }
    }
}

#[test]
fn weighted_astar_stays_within_w_times_optimal() {
    for map in ["maze64.map", "rooms128.map", "random512.map"] {
        let (grid, scen) = bundled(map);
        let mut space = SearchSpace::new();
        let mut saved = 0usize;
        for s in scen.iter().step_by(4) {
            let (start, goal) = endpoints(&grid, s);
            let plain = astar(Heuristic::Octile, 1.0).run(&grid, start, goal, &mut space, &mut NoTrace);
            for w in [1.5, 2.0, 5.0] {
                let weighted = astar(Heuristic::Octile, w).run(&grid, start, goal, &mut space, &mut NoTrace);
                let cost = weighted.cost().unwrap();
                assert!(cost <= w * s.optimal + 1e-9, "{map} line {}: w={w} cost {cost} > w x {}", s.line, s.optimal);
                assert!(cost >= s.optimal - 1e-6, "nothing beats the optimum");
                saved += plain.expanded.saturating_sub(weighted.expanded);
            }
        }
        assert!(saved > 0, "{map}: weighting the heuristic should save expansions somewhere");
    }
}

#[test]
fn paths_are_connected_steps_with_the_reported_cost() {
    let (grid, scen) = bundled("rooms128.map");
    let mut space = SearchSpace::new();
    for rules in [MoveRules::MOVINGAI, MoveRules::FOUR, MoveRules { corner_cutting: true, ..MoveRules::MOVINGAI }] {
        let graph = GridGraph::new(&grid, rules);
        for &algorithm in Algorithm::ALL {
            let search = GridSearch { algorithm, heuristic: Heuristic::Chebyshev, weight: 1.0, rules, reopen: None };
            if search.refusal(&grid).is_some() {
                continue; // JPS under other rules: refused, tests/jps.rs checks that
            }
            for s in scen.iter().step_by(9) {
                let (start, goal) = endpoints(&grid, s);
                let (cost, path) = search.run(&grid, start, goal, &mut space, &mut NoTrace).path.unwrap();
                assert_eq!((path[0], *path.last().unwrap()), (start, goal));
                let walked = path_cost(&graph, &path).expect("consecutive path cells are legal steps");
                assert!((walked - cost).abs() < 1e-9);
            }
        }
    }
}

#[test]
fn bfs_finds_fewest_steps_on_four_connected_grids() {
    let grid = generate::random(40, 40, 0.3, 5);
    let rules = MoveRules::FOUR;
    let mut space = SearchSpace::new();
    let set = scenarios::generate(&grid, "r", 40, 6);
    for s in &set {
        let (start, goal) = endpoints(&grid, s);
        let bfs = GridSearch { algorithm: Algorithm::Bfs, rules, ..GridSearch::default() };
        let best = GridSearch { algorithm: Algorithm::Dijkstra, rules, ..GridSearch::default() };
        let steps = bfs.run(&grid, start, goal, &mut space, &mut NoTrace).cost();
        assert_eq!(steps, best.run(&grid, start, goal, &mut space, &mut NoTrace).cost());
    }
}

#[test]
fn unreachable_goals_are_reported_by_every_algorithm() {
    let mut grid = Grid::new(5, 3);
    for y in 0..3 {
        grid.set_passable(2, y, false);
    }
    let (start, goal) = (grid.cell(0, 1), grid.cell(4, 1));
    for &algorithm in Algorithm::ALL {
        let search = GridSearch { algorithm, ..GridSearch::default() };
        let (trace, result) = record(&search, &grid, start, goal);
        assert_eq!(result.path, None, "{algorithm:?}");
        assert_eq!(trace.events.last(), Some(&SearchEvent::Exhausted));
        // JPS scans the left side too, but finds no jump point there: it expands only the start.
        let expected = if algorithm == Algorithm::Jps { 1 } else { 6 };
        assert_eq!(result.expanded, expected, "{algorithm:?} explores the whole left side");
    }
}

#[test]
fn a_stopped_search_returns_without_a_path_at_its_first_expansion() {
    let grid = generate::maze(64, 64, 1, 3);
    let cells = grid.passable_cells();
    let progress = Progress::default();
    progress.stop();
    for &algorithm in Algorithm::ALL {
        let search = GridSearch { algorithm, ..GridSearch::default() };
        let mut watched = Watched::new(NoTrace, &progress);
        let result = search.run(&grid, cells[0], *cells.last().unwrap(), &mut SearchSpace::new(), &mut watched);
        // A watcher made after the stop answers Stop at the first unit of work.
        assert_eq!((result.path, result.expanded), (None, 1), "{algorithm:?} stops at its first expansion");
        assert!(watched.stopped());
    }
}

#[test]
fn cell_weights_make_searches_go_around() {
    // A band of weight-9 cells across the middle row, with one plain gap at the far right.
    let mut grid = Grid::new(4, 3);
    for x in 0..3 {
        grid.set_weight(x, 1, 9);
    }
    let (start, goal) = (grid.cell(0, 0), grid.cell(0, 2));
    let cheapest = astar(Heuristic::Octile, 1.0).run(&grid, start, goal, &mut SearchSpace::new(), &mut NoTrace);
    let straight_through = 9.0 + 1.0;
    let around = cheapest.cost().unwrap();
    assert!((around - (4.0 + 2.0 * std::f64::consts::SQRT_2)).abs() < 1e-9, "two steps, the gap diagonally, two back");
    assert!(around < straight_through, "the detour ({around}) beats crossing weight 9");
    let through = dijkstra().run(&grid, start, goal, &mut SearchSpace::new(), &mut NoTrace).cost().unwrap();
    assert!((through - around).abs() < 1e-9);
}
