//! JPS: optimal on every scenario (against the files' optimal lengths and the `pathfinding`
//! crate), refuses what its pruning rules do not cover, and its trace replays.

mod common;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use searchlab::graph::path_cost;
use searchlab::grid::movingai;
use searchlab::grid::{Connectivity, Grid, GridGraph, MoveRules, generate};
use searchlab::pathfinding::jps::{jps, refusal};
use searchlab::pathfinding::search_trace::{SearchEvent, SearchOutcome, SearchSnapshot};
use searchlab::pathfinding::{Algorithm, GridSearch, SearchSpace};
use searchlab::trace::{NoTrace, Player, Recorder};

/// Checks that `path` walks legal MovingAI steps from start to goal with the claimed cost.
fn assert_walks(grid: &Grid, start: u32, goal: u32, cost: f64, path: &[u32]) {
    assert_eq!((path[0], *path.last().unwrap()), (start, goal));
    let walked = path_cost(&GridGraph::new(grid, MoveRules::MOVINGAI), path).expect("every step is a legal move");
    assert!((walked - cost).abs() < 1e-6, "claimed {cost}, walked {walked}");
}

fn check_scenarios(map: &std::path::Path) {
    let grid = movingai::load_map(map).unwrap();
    let scenarios =
        movingai::load_scen(&map.with_file_name(format!("{}.scen", map.file_name().unwrap().to_string_lossy())))
            .unwrap();
    assert!(refusal(&grid, MoveRules::MOVINGAI).is_none());
    let mut space = SearchSpace::new();
    for s in &scenarios {
        let (start, goal) = (grid.cell(s.start.0, s.start.1), grid.cell(s.goal.0, s.goal.1));
        let (cost, path) =
            jps(&grid, start, goal, &mut space, &mut NoTrace).path.expect("scenario goals are reachable");
        assert!((cost - s.optimal).abs() < 1e-3, "{} line {}: {cost} vs optimal {}", map.display(), s.line, s.optimal);
        assert_walks(&grid, start, goal, cost, &path);
    }
}

#[test]
fn every_bundled_scenario_gets_its_optimal_length() {
    for name in ["maze64.map", "rooms128.map", "random512.map", "rooms512.map", "lecture-u.map"] {
        check_scenarios(&common::project_map(name));
    }
}

#[test]
fn every_movingai_scenario_gets_its_optimal_length() {
    let Some(dir) = common::shared_data("movingai") else { return };
    for name in ["arena.map", "maze512-32-9.map"] {
        check_scenarios(&dir.join(name));
    }
}

/// The MovingAI moves written out on their own (not through `GridGraph`), costs in integer
/// millionths as the `pathfinding` crate needs totally ordered costs.
fn movingai_successors(grid: &Grid, cell: u32) -> Vec<(u32, u64)> {
    let (x, y) = grid.coords(cell);
    let (x, y) = (x as i64, y as i64);
    let mut out = Vec::new();
    for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)] {
        let diagonal = dx != 0 && dy != 0;
        let legal = grid.is_passable(x + dx, y + dy)
            && (!diagonal || (grid.is_passable(x + dx, y) && grid.is_passable(x, y + dy)));
        if legal {
            out.push((grid.cell((x + dx) as u32, (y + dy) as u32), if diagonal { 1_414_214 } else { 1_000_000 }));
        }
    }
    out
}

#[test]
fn agrees_with_the_pathfinding_crate_on_random_maps() {
    let mut space = SearchSpace::new();
    let (mut reached, mut unreachable) = (0, 0);
    for (seed, density) in [(1, 0.05), (2, 0.15), (3, 0.25), (4, 0.35), (5, 0.42)] {
        let grid = generate::random(61, 47, density, seed);
        let cells = grid.passable_cells();
        let mut rng = StdRng::seed_from_u64(seed);
        for _ in 0..120 {
            let (start, goal) = (cells[rng.random_range(0..cells.len())], cells[rng.random_range(0..cells.len())]);
            let theirs = pathfinding::prelude::dijkstra(&start, |&c| movingai_successors(&grid, c), |&c| c == goal);
            let ours = jps(&grid, start, goal, &mut space, &mut NoTrace);
            match (ours.path, theirs) {
                (Some((cost, path)), Some((their_path, their_cost))) => {
                    // Their sqrt 2 is rounded to millionths: allow that much per step.
                    let tolerance = 1e-6 * their_path.len() as f64 + 1e-9;
                    assert!(
                        (cost - their_cost as f64 / 1e6).abs() <= tolerance,
                        "seed {seed}: {start}->{goal}: {cost} vs {their_cost}"
                    );
                    assert_walks(&grid, start, goal, cost, &path);
                    reached += 1;
                }
                (None, None) => unreachable += 1,
                (ours, theirs) => panic!("seed {seed}: {start}->{goal}: ours {ours:?}, theirs {theirs:?}"),
            }
        }
    }
    assert!(reached > 300 && unreachable > 20, "both outcomes exercised ({reached} / {unreachable})");
}

#[test]
fn open_ground_takes_three_jump_points() {
    // From a corner, the diagonal stops where a straight scan sees the goal; from there the
    // straight scan reaches it: start, that cell and the goal are all that is expanded.
    let grid = Grid::new(64, 64);
    let (start, goal) = (grid.cell(0, 0), grid.cell(63, 40));
    let result = jps(&grid, start, goal, &mut SearchSpace::new(), &mut NoTrace);
    assert_eq!(result.expanded, 3);
    let (cost, path) = result.path.unwrap();
    assert!((cost - (23.0 + 40.0 * std::f64::consts::SQRT_2)).abs() < 1e-9);
    assert_eq!(path.len(), 64);
}

#[test]
fn refuses_weights_four_connectivity_and_corner_cutting() {
    let mut grid = Grid::new(10, 10);
    assert_eq!(refusal(&grid, MoveRules::MOVINGAI), None);
    let jps_search = |rules| GridSearch { algorithm: Algorithm::Jps, rules, ..GridSearch::default() };
    assert!(jps_search(MoveRules::FOUR).refusal(&grid).unwrap().contains("8-connected"));
    let cutting = MoveRules { connectivity: Connectivity::Eight, corner_cutting: true };
    assert!(jps_search(cutting).refusal(&grid).unwrap().contains("corner cutting"));
    grid.set_weight(3, 3, 4);
    assert!(jps_search(MoveRules::MOVINGAI).refusal(&grid).unwrap().contains("weighted"));
    assert_eq!(GridSearch::default().refusal(&grid), None, "A* takes weights");
    for reason in [refusal(&grid, MoveRules::MOVINGAI), refusal(&grid, cutting), refusal(&grid, MoveRules::FOUR)] {
        assert!(!reason.unwrap().contains('\n'), "one line");
    }
}

#[test]
fn trace_shows_jump_points_and_scanned_lines_and_replays_both_ways() {
    let grid = movingai::load_map(&common::project_map("rooms128.map")).unwrap();
    let (start, goal) = (grid.cell(124, 61), grid.cell(2, 3));
    let mut recorder = Recorder::default();
    let traced = jps(&grid, start, goal, &mut SearchSpace::new(), &mut recorder);
    let plain = jps(&grid, start, goal, &mut SearchSpace::new(), &mut NoTrace);
    assert_eq!(traced, plain);
    let trace = recorder.finish();
    let count = |keep: fn(&SearchEvent) -> bool| trace.events.iter().filter(|e| keep(e)).count();
    assert_eq!(count(|e| matches!(e, SearchEvent::Expand { .. })), plain.expanded);
    assert_eq!(count(|e| matches!(e, SearchEvent::Open { .. })), plain.pushed);
    let scanned = count(|e| matches!(e, SearchEvent::Relax { improved: false, .. }));
    assert!(scanned > 10 * plain.expanded, "scans pass over many cells per jump point ({scanned})");
    // Each jump point lies on a straight or diagonal line from the one it was reached from.
    for event in &trace.events {
        if let SearchEvent::Open { node, parent, .. } = *event
            && parent != searchlab::trace::NO_NODE
        {
            let ((x, y), (px, py)) = (grid.coords(node), grid.coords(parent));
            let (dx, dy) = (x.abs_diff(px), y.abs_diff(py));
            assert!(dx == 0 || dy == 0 || dx == dy, "{parent} -> {node}");
        }
    }
    let mut player = Player::new(trace, SearchSnapshot::new(grid.cell_count()));
    player.seek(usize::MAX);
    let (cost, path) = plain.path.unwrap();
    assert_eq!(player.view().outcome, Some(SearchOutcome::Found { cost, path }));
    player.seek(0);
    assert_eq!(player.view(), &SearchSnapshot::new(grid.cell_count()));
}

#[test]
fn command_line_runs_jps_and_refuses_what_it_cannot_do() {
    let output = common::cli::searchlab(&[
        "path",
        "--map",
        "maps/rooms128.map",
        "--scen",
        "maps/rooms128.map.scen",
        "--algo",
        "jps",
    ]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let lines = common::cli::json_lines(&output);
    let summary = &lines.last().unwrap()["summary"];
    assert_eq!((summary["queries"].as_u64(), summary["mismatches"].as_u64()), (Some(100), Some(0)));
    let map = ["path", "--map", "maps/maze64.map", "--from", "1,1", "--to", "62,62", "--algo", "jps"];
    common::cli::assert_fails(&[&map[..], &["--connectivity", "4"]].concat(), "8-connected");
    common::cli::assert_fails(&[&map[..], &["--corner-cutting"]].concat(), "corner cutting");
    let dir = common::scratch::ScratchDir::new("jps");
    let mut weighted = Grid::new(8, 8);
    weighted.set_weight(3, 3, 5);
    let path = dir.write("weighted.map", movingai::write_map(&weighted));
    common::cli::assert_fails(
        &["path", "--map", path.to_str().unwrap(), "--from", "0,0", "--to", "7,7", "--algo", "jps"],
        "weighted",
    );
}

/// A traced run's events, one a line, numbers written exactly (`{:?}` of an f64 reads back as
/// the same value).
fn trace_text(grid: &Grid, start: u32, goal: u32) -> String {
    let mut recorder = Recorder::default();
    jps(grid, start, goal, &mut SearchSpace::new(), &mut recorder);
    let mut text = String::new();
    for event in recorder.finish().events {
        let line = match event {
            SearchEvent::Open { node, parent, g, h } => format!("O {node} {parent} {g:?} {h:?}"),
            SearchEvent::Expand { node } => format!("E {node}"),
            SearchEvent::Relax { node, g, improved } => format!("R {node} {g:?} {}", u8::from(improved)),
            SearchEvent::Found { cost, path } => format!("F {cost:?} {path:?}"),
            SearchEvent::Exhausted => "X".to_string(),
        };
        text.push_str(&line);
        text.push('\n');
    }
    text
}

/// A named map and its queries (start, goal).
type TracedQuery = (String, Grid, Vec<(u32, u32)>);

/// The maps and queries of `tests/snapshots/jps_trace.txt`: bundled maps' scenarios, open
/// ground with a wall, and a random map with an unreachable goal among its pairs.
fn traced_queries() -> Vec<TracedQuery> {
    let mut cases = Vec::new();
    for (name, stride) in [("maze64.map", 23), ("rooms128.map", 29), ("lecture-u.map", 1)] {
        let map = common::project_map(name);
        let grid = movingai::load_map(&map).unwrap();
        let scenarios = movingai::load_scen(&map.with_file_name(format!("{name}.scen"))).unwrap();
        let queries = scenarios
            .iter()
            .step_by(stride)
            .take(2)
            .map(|s| (grid.cell(s.start.0, s.start.1), grid.cell(s.goal.0, s.goal.1)))
            .collect();
        cases.push((name.to_string(), grid, queries));
    }
    let mut open = Grid::new(48, 32);
    for y in 4..22 {
        open.set_passable(30, y, false);
    }
    let queries = vec![
        (open.cell(0, 0), open.cell(47, 31)),
        (open.cell(40, 6), open.cell(2, 28)),
        (open.cell(25, 12), open.cell(33, 12)),
    ];
    cases.push(("open 48x32 with a wall".to_string(), open, queries));
    let random = generate::random(37, 29, 0.35, 11);
    let cells = random.passable_cells();
    let mut rng = StdRng::seed_from_u64(11);
    let queries =
        (0..8).map(|_| (cells[rng.random_range(0..cells.len())], cells[rng.random_range(0..cells.len())])).collect();
    cases.push(("random 37x29 35%".to_string(), random, queries));
    cases
}

#[test]
fn traced_runs_record_the_events_of_the_cell_by_cell_scanner() {
    // Recorded with the scanner that stepped cell by cell (before block scans, commit f188964).
    let expected =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/snapshots/jps_trace.txt")).unwrap();
    let mut recorded = String::new();
    for (name, grid, queries) in traced_queries() {
        for (start, goal) in queries {
            recorded.push_str(&format!("# {name}: {:?} -> {:?}\n", grid.coords(start), grid.coords(goal)));
            recorded.push_str(&trace_text(&grid, start, goal));
        }
    }
    assert!(recorded == expected, "traced events differ from the recorded ones");
}

/// A side length: often 1 or near a multiple of 64 (where a line's bits fill a word), else anything up to 200.
fn side() -> impl proptest::strategy::Strategy<Value = u32> {
    use proptest::prelude::*;
    prop_oneof![Just(1u32), 2..=4u32, 62..=66u32, 126..=130u32, 1..=200u32]
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(common::fuzz::cases(64)))]

    #[test]
    fn block_scans_find_the_costs_of_an_independent_search_on_random_grids(
        width in side(), height in side(), density in 0.0..0.45f64, seed in proptest::prelude::any::<u64>(),
    ) {
        let grid = generate::random(width, height, density, seed);
        let cells = grid.passable_cells();
        proptest::prop_assume!(!cells.is_empty());
        let mut rng = StdRng::seed_from_u64(seed);
        let mut space = SearchSpace::new();
        for _ in 0..12 {
            let (start, goal) = (cells[rng.random_range(0..cells.len())], cells[rng.random_range(0..cells.len())]);
            let ours = jps(&grid, start, goal, &mut space, &mut NoTrace);
            let theirs = common::reference::movingai_cost(&grid, grid.coords(start), grid.coords(goal));
            match (&ours.path, theirs) {
                (Some((cost, path)), Some(reference)) => {
                    proptest::prop_assert!(common::reference::same_cost(*cost, reference), "{start}->{goal}: {cost} vs {reference}");
                    assert_walks(&grid, start, goal, *cost, path);
                }
                (None, None) => {}
                (ours, theirs) => proptest::prop_assert!(false, "{start}->{goal}: ours {ours:?}, theirs {theirs:?}"),
            }
            let traced = jps(&grid, start, goal, &mut SearchSpace::new(), &mut Recorder::default());
            proptest::prop_assert_eq!(traced, ours, "a tracer changes nothing found");
        }
    }
}

#[test]
fn a_wall_drawn_after_a_search_is_seen_by_the_next() {
    // The passability bits are built by the first search and must not outlive a change.
    let mut grid = Grid::new(90, 3);
    let (start, goal) = (grid.cell(0, 1), grid.cell(89, 1));
    assert_eq!(jps(&grid, start, goal, &mut SearchSpace::new(), &mut NoTrace).cost(), Some(89.0));
    for y in 0..3 {
        grid.set_passable(70, y, false);
    }
    assert_eq!(jps(&grid, start, goal, &mut SearchSpace::new(), &mut NoTrace).cost(), None);
    grid.set_passable(70, 2, true);
    let reference = common::reference::movingai_cost(&grid, (0, 1), (89, 1)).unwrap();
    assert!(common::reference::same_cost(
        jps(&grid, start, goal, &mut SearchSpace::new(), &mut NoTrace).cost().unwrap(),
        reference
    ));
}
