//! Greedy best-first search against independent facts: the `pathfinding` crate's reachability and
//! optimal costs, a legal walk of the path it returns, and its order read back from its own events
//! (each expansion has the lowest h on the open list, a cell goes on it once).

mod common;

use std::collections::HashMap;

use egui_kittest::kittest::Queryable;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use searchlab::grid::{Grid, MoveRules, generate};
use searchlab::pathfinding::planner::Planner;
use searchlab::pathfinding::search_trace::SearchEvent;
use searchlab::pathfinding::{Algorithm, GridSearch, Heuristic, SearchSpace};
use searchlab::trace::Recorder;

use common::cli::{assert_fails, json_lines, searchlab};
use common::reference::{movingai_cost, movingai_path_cost, same_cost};

fn greedy(heuristic: Heuristic) -> GridSearch {
    GridSearch { algorithm: Algorithm::Greedy, heuristic, weight: 1.0, reopen: None, rules: MoveRules::MOVINGAI }
}

/// The octile distance between two cells, computed here.
fn octile(grid: &Grid, a: u32, b: u32) -> f64 {
    let ((ax, ay), (bx, by)) = (grid.coords(a), grid.coords(b));
    let (dx, dy) = ((ax as f64 - bx as f64).abs(), (ay as f64 - by as f64).abs());
    dx.max(dy) + (2f64.sqrt() - 1.0) * dx.min(dy)
}

#[test]
fn greedy_walks_legal_paths_never_cheaper_than_the_optimum_and_finds_one_whenever_one_exists() {
    let mut rng = StdRng::seed_from_u64(7);
    let mut suboptimal = 0;
    for seed in 0..40 {
        let density = [0.1, 0.25, 0.35][seed as usize % 3];
        let grid = generate::random(40, 30, density, seed);
        let cells = grid.passable_cells();
        for _ in 0..10 {
            let (start, goal) = (cells[rng.random_range(0..cells.len())], cells[rng.random_range(0..cells.len())]);
            let mut recorder = Recorder::default();
            let result = greedy(Heuristic::Octile).run(&grid, start, goal, &mut SearchSpace::new(), &mut recorder);
            let optimal = movingai_cost(&grid, grid.coords(start), grid.coords(goal));
            assert_eq!(result.path.is_some(), optimal.is_some(), "seed {seed}: a path iff one exists");
            let (Some((cost, path)), Some(optimal)) = (result.path, optimal) else { continue };
            let walked: Vec<(u32, u32)> = path.iter().map(|&cell| grid.coords(cell)).collect();
            let legal = movingai_path_cost(&grid, &walked).expect("every step a legal move");
            assert!(same_cost(cost, legal), "seed {seed}: reported {cost}, walked {legal}");
            assert!(cost >= optimal - 1e-9, "seed {seed}: {cost} below the optimum {optimal}");
            suboptimal += usize::from(cost > optimal + 1e-6);
            assert_order(&grid, goal, &recorder.finish().events);
        }
    }
    assert!(suboptimal > 0, "greedy best-first is not optimal: some path should cost more");
}

/// Replays the events: every node expanded has the lowest h (octile to the goal) of the open nodes,
/// and goes on the open list at most once.
fn assert_order(grid: &Grid, goal: u32, events: &[SearchEvent]) {
    let mut open: HashMap<u32, f64> = HashMap::new();
    let mut opened = 0;
    for event in events {
        match *event {
            SearchEvent::Open { node, h, .. } => {
                assert!((h - octile(grid, node, goal)).abs() < 1e-9, "h is the octile distance");
                assert!(open.insert(node, h).is_none(), "a cell goes on the open list once");
                opened += 1;
            }
            SearchEvent::Expand { node } => {
                let lowest = open.values().copied().fold(f64::INFINITY, f64::min);
                let h = open.remove(&node).expect("an expanded node was open");
                assert!(h <= lowest + 1e-9, "expanded h = {h} while {lowest} was open");
            }
            _ => {}
        }
    }
    let distinct: std::collections::HashSet<u32> =
        events.iter().filter_map(|e| if let SearchEvent::Open { node, .. } = e { Some(*node) } else { None }).collect();
    assert_eq!(distinct.len(), opened);
}

#[test]
fn on_open_ground_greedy_expands_only_the_cells_of_its_path() {
    let grid = Grid::new(20, 12);
    let (start, goal) = (grid.cell(1, 2), grid.cell(17, 9));
    let result = greedy(Heuristic::Octile).run(&grid, start, goal, &mut SearchSpace::new(), &mut Recorder::default());
    let (cost, path) = result.path.unwrap();
    // 16 across, 7 down: 7 diagonal and 9 straight steps, the octile distance.
    assert!((cost - (9.0 + 7.0 * 2f64.sqrt())).abs() < 1e-9, "{cost}");
    assert_eq!(result.expanded, path.len());
}

/// A wall between start and goal with its opening far away: greedy walks into the pocket before it,
/// and returns a path longer than the cheapest (which Dijkstra finds).
#[test]
fn a_wall_in_the_way_makes_greedy_pay_more_than_the_optimum() {
    let text = "type octile\nheight 7\nwidth 9\nmap\n.........\n.........\n.@@@@@@@.\n.......@.\n.......@.\n.......@.\n.........\n";
    let grid = searchlab::grid::movingai::parse_map("trap.map", text).unwrap();
    let (start, goal) = (grid.cell(4, 6), grid.cell(4, 0));
    let run = |search: GridSearch| search.run(&grid, start, goal, &mut SearchSpace::new(), &mut Recorder::default());
    let greedy = run(greedy(Heuristic::Octile));
    let optimal = movingai_cost(&grid, (4, 6), (4, 0)).unwrap();
    let greedy_cost = greedy.cost().unwrap();
    assert!(greedy_cost > optimal + 1e-6, "greedy {greedy_cost} against the optimum {optimal}");
    let dijkstra = run(GridSearch { algorithm: Algorithm::Dijkstra, ..GridSearch::default() });
    assert!(same_cost(dijkstra.cost().unwrap(), optimal));
}

#[test]
fn greedy_reads_the_heuristics_of_astar_and_no_weight() {
    for (text, heuristic) in [("greedy", Heuristic::Octile), ("greedy:manhattan,4conn", Heuristic::Manhattan)] {
        let planner: Planner = text.parse().unwrap();
        let search = planner.grid_search().unwrap();
        assert_eq!((search.algorithm, search.heuristic), (Algorithm::Greedy, heuristic));
    }
    assert_eq!("greedy".parse::<Planner>().unwrap().to_string(), "greedy:octile");
    assert_eq!("greedy:manhattan,4conn".parse::<Planner>().unwrap().to_string(), "greedy:manhattan,4conn");
    let error = "greedy:weight=2".parse::<Planner>().unwrap_err();
    assert!(error.contains("unknown option 'weight=2'") && error.contains("euclidean"), "{error}");
}

#[test]
fn the_command_line_runs_greedy_by_flag_and_by_spec() {
    let by_flag =
        searchlab(&["path", "--map", "maps/maze64.map", "--from", "1,1", "--to", "62,62", "--algo", "greedy"]);
    let by_spec =
        searchlab(&["path", "--map", "maps/maze64.map", "--from", "1,1", "--to", "62,62", "--spec", "greedy"]);
    let (flag, spec) = (&json_lines(&by_flag)[0], &json_lines(&by_spec)[0]);
    assert_eq!(flag["algo"], "greedy");
    assert_eq!((&flag["cost"], &flag["expanded"]), (&spec["cost"], &spec["expanded"]));
    let grid = searchlab::grid::movingai::load_map(&common::project_map("maze64.map")).unwrap();
    let optimal = movingai_cost(&grid, (1, 1), (62, 62)).unwrap();
    assert!(flag["cost"].as_f64().unwrap() >= optimal - 1e-9);
    assert_fails(
        &["path", "--map", "maps/maze64.map", "--from", "1,1", "--to", "2,2", "--algo", "greedy", "--weight", "2"],
        "--weight applies to astar only",
    );
    assert_fails(
        &["path", "--map", "maps/maze64.map", "--from", "1,1", "--to", "2,2", "--spec", "greedy", "--algo", "astar"],
        "give the options in one place",
    );
}

/// The grid lab offers greedy best-first search: its button, its pseudocode with the line of the
/// event replayed, and narration that names h, the value it orders by.
#[test]
fn the_grid_lab_steps_through_greedy_with_its_pseudocode_and_narration() {
    let mut harness = common::grid_lab::lab_harness();
    common::ui::click(&mut harness, "Greedy");
    common::grid_lab::settle(&mut harness);
    assert_eq!(harness.state().settings().searches[0].algorithm, Algorithm::Greedy);
    common::ui::click(&mut harness, "Step >");
    common::ui::click(&mut harness, "Step >");
    harness.get_by_label_contains("u := the open node with the lowest h");
    harness.get_by_label_contains("the lowest h on the open list, h = ");
    harness.get_by_label_contains("entries, lowest h first");
}
