//! The straight line HPA* and PRA* try first is returned only when it is a cheapest path: checked
//! against the `pathfinding` crate (MovingAI rules) and Dijkstra (the other rules), and the
//! planners answer such queries with it.

mod common;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use searchlab::graph::path_cost;
use searchlab::grid::{Connectivity, Grid, GridGraph, MoveRules, Obstacle};
use searchlab::pathfinding::hpa::{Hpa, HpaQuery};
use searchlab::pathfinding::plan_trace::{PlanEvent, PlanStage};
use searchlab::pathfinding::pra::{PraOptions, Pyramid};
use searchlab::pathfinding::{Algorithm, GridSearch, SearchSpace};
use searchlab::trace::{NoTrace, Recorder};

fn random_grid(rng: &mut StdRng, side: u32, density: f64, weighted: bool) -> Grid {
    let mut grid = Grid::new(side, side);
    for y in 0..side {
        for x in 0..side {
            if rng.random_bool(density) {
                grid.set_passable(x, y, false);
            } else if weighted && rng.random_bool(0.05) {
                grid.set_weight(x, y, rng.random_range(2..=4));
            }
        }
    }
    grid
}

const RULES: [MoveRules; 3] =
    [MoveRules::MOVINGAI, MoveRules::FOUR, MoveRules { connectivity: Connectivity::Eight, corner_cutting: true }];

#[test]
fn a_straight_line_is_returned_only_when_it_is_a_cheapest_path() {
    let mut rng = StdRng::seed_from_u64(11);
    let mut space = SearchSpace::new();
    let (mut lines, mut queries) = (0, 0);
    for (density, weighted) in [(0.0, false), (0.03, true), (0.1, false), (0.25, true)] {
        for _ in 0..6 {
            let grid = random_grid(&mut rng, 24, density, weighted);
            let cells = grid.passable_cells();
            for _ in 0..40 {
                let (start, goal) = (cells[rng.random_range(0..cells.len())], cells[rng.random_range(0..cells.len())]);
                for rules in RULES {
                    queries += 1;
                    let graph = GridGraph::new(&grid, rules);
                    let Ok((cost, path)) = graph.straight_path(start, goal) else {
                        assert!(density > 0.0, "on empty ground every line is free ({rules:?})");
                        continue;
                    };
                    lines += 1;
                    assert_eq!((path[0], *path.last().unwrap()), (start, goal));
                    let walked = path_cost(&graph, &path).expect("every step is a legal move");
                    assert!((walked - cost).abs() < 1e-9, "claimed {cost}, walked {walked}");
                    let optimal = if rules == MoveRules::MOVINGAI {
                        let (s, g) = (grid.coords(start), grid.coords(goal));
                        common::reference::movingai_cost(&grid, s, g)
                    } else {
                        GridSearch { algorithm: Algorithm::Dijkstra, rules, ..GridSearch::default() }
                            .run(&grid, start, goal, &mut space, &mut NoTrace)
                            .cost()
                    };
                    let optimal = optimal.expect("a free line joins its ends");
                    assert!(
                        common::reference::same_cost(cost, optimal),
                        "{rules:?}: line {cost} against optimal {optimal}"
                    );
                }
            }
        }
    }
    // Both outcomes were seen many times.
    assert!(lines > queries / 10 && lines < queries, "{lines} free lines of {queries} queries");
}

#[test]
fn a_wall_a_corner_or_heavy_ground_on_the_line_stops_it_and_says_where() {
    let mut grid = Grid::new(9, 5);
    let (start, goal) = (grid.cell(0, 2), grid.cell(8, 2));
    let line =
        |grid: &Grid, rules: MoveRules, start: u32, goal: u32| GridGraph::new(grid, rules).straight_path(start, goal);
    assert_eq!(line(&grid, MoveRules::MOVINGAI, start, goal).map(|(cost, path)| (cost, path.len())), Ok((8.0, 9)));
    grid.set_weight(4, 2, 3);
    let stop =
        line(&grid, MoveRules::MOVINGAI, start, goal).expect_err("a weight makes the line dearer than open ground");
    assert_eq!((stop.cell, stop.obstacle), (grid.cell(4, 2), Obstacle::Weight(3)));
    assert_eq!(stop.walked, (0..4).map(|x| grid.cell(x, 2)).collect::<Vec<_>>(), "the cells before it");
    grid.set_weight(4, 2, 1);
    grid.set_passable(4, 2, false);
    assert_eq!(
        line(&grid, MoveRules::MOVINGAI, start, goal).map_err(|stop| (stop.cell, stop.obstacle)),
        Err((grid.cell(4, 2), Obstacle::Wall))
    );
    // A diagonal past a wall's corner is no MovingAI move, though a corner-cutting one.
    let mut grid = Grid::new(2, 2);
    grid.set_passable(1, 0, false);
    let (start, goal) = (grid.cell(0, 0), grid.cell(1, 1));
    let stop = line(&grid, MoveRules::MOVINGAI, start, goal).expect_err("the corner is cut");
    assert_eq!((stop.cell, stop.obstacle), (grid.cell(1, 0), Obstacle::Corner));
    let cutting = MoveRules { connectivity: Connectivity::Eight, corner_cutting: true };
    assert_eq!(line(&grid, cutting, start, goal), Ok((std::f64::consts::SQRT_2, vec![start, goal])));
    // 4-connected, the step round the corner goes the other way.
    assert_eq!(line(&grid, MoveRules::FOUR, start, goal), Ok((2.0, vec![start, grid.cell(0, 1), goal])));
}

#[test]
fn a_query_and_its_reverse_get_the_same_line() {
    let mut rng = StdRng::seed_from_u64(5);
    let (mut free, mut pairs) = (0, 0);
    for density in [0.05, 0.15] {
        let grid = random_grid(&mut rng, 30, density, true);
        let cells = grid.passable_cells();
        for _ in 0..300 {
            let (a, b) = (cells[rng.random_range(0..cells.len())], cells[rng.random_range(0..cells.len())]);
            // A path enters its goal, not its start: heavy ends make the two ways cost differently.
            if grid.weight(a) != 1 || grid.weight(b) != 1 {
                continue;
            }
            for rules in RULES {
                let graph = GridGraph::new(&grid, rules);
                let (there, back) = (graph.straight_path(a, b), graph.straight_path(b, a));
                pairs += 1;
                match (there, back) {
                    (Ok((cost, path)), Ok((back_cost, mut back_path))) => {
                        free += 1;
                        back_path.reverse();
                        assert_eq!(path, back_path, "{rules:?}: the same cells both ways");
                        assert!((cost - back_cost).abs() < 1e-9);
                    }
                    // Each way stops at the first obstacle from its own start.
                    (Err(_), Err(_)) => {}
                    (there, back) => panic!("{rules:?}: {a} to {b} is {there:?} one way, {back:?} the other"),
                }
            }
        }
    }
    assert!(free > pairs / 20 && free < pairs, "{free} free lines of {pairs}");
}

/// The stages a planner records for a query, and whether the line tried first was blocked.
fn stages(record: impl FnOnce(&mut Recorder<PlanEvent>)) -> (Vec<PlanStage>, bool) {
    let mut recorder = Recorder::default();
    record(&mut recorder);
    let events = recorder.finish().events;
    let stages = events.iter().filter_map(|event| match event {
        PlanEvent::Stage { stage, .. } => Some(*stage),
        _ => None,
    });
    (stages.collect(), events.iter().any(|event| matches!(event, PlanEvent::LineBlocked(_))))
}

#[test]
fn hpa_and_pra_answer_a_free_line_with_it_and_plan_otherwise() {
    let mut grid = Grid::new(64, 64);
    for y in 10..54 {
        grid.set_passable(32, y, false);
    }
    let hpa = Hpa::build_levels(&grid, MoveRules::MOVINGAI, 16, 1);
    let pyramid = Pyramid::build(&grid, MoveRules::MOVINGAI);
    let mut space = SearchSpace::new();
    let free = (grid.cell(2, 3), grid.cell(60, 7));
    let blocked = (grid.cell(20, 30), grid.cell(44, 30));
    for ((start, goal), straight) in [(free, true), (blocked, false)] {
        let line = GridGraph::new(&grid, MoveRules::MOVINGAI).straight_path(start, goal).ok();
        assert_eq!(line.is_some(), straight);
        let hpa_stages = stages(|r| drop(hpa.query(&grid, start, goal, HpaQuery { smooth: true }, &mut space, r)));
        let pra_stages = stages(|r| drop(pyramid.query(&grid, start, goal, PraOptions::default(), &mut space, r)));
        let pra_k = pyramid.query(
            &grid,
            start,
            goal,
            PraOptions { k: Some(1), ..PraOptions::default() },
            &mut space,
            &mut NoTrace,
        );
        // The line is always tried first; free, it is the whole plan.
        for (planner, (stages, blocked)) in [("HPA*", hpa_stages), ("PRA*", pra_stages)] {
            assert_eq!(stages[0], PlanStage::StraightLine, "{planner}");
            assert_eq!((stages.len() == 1, blocked), (straight, !straight), "{planner}: {stages:?}");
        }
        if let Some(line) = line {
            assert_eq!(
                hpa.query(&grid, start, goal, HpaQuery { smooth: true }, &mut space, &mut NoTrace).path,
                Some(line.clone())
            );
            // PRA*(k) needs its first steps: the whole line holds them.
            assert!(pra_k.complete);
            assert_eq!(pra_k.path, Some(line));
        } else {
            assert!(!pra_k.complete, "round the wall PRA*(1) keeps its first steps only");
        }
    }
}
