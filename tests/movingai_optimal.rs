//! Our searches reproduce the optimal lengths of MovingAI's own scenario files.

mod common;

use rayon::prelude::*;
use searchlab::grid::movingai::{self, Scenario};
use searchlab::grid::{Grid, MoveRules};
use searchlab::pathfinding::{Algorithm, GridSearch, Heuristic, SearchSpace};
use searchlab::trace::NoTrace;

/// Every search that must be optimal under MovingAI rules.
fn optimal_searches() -> Vec<GridSearch> {
    let rules = MoveRules::MOVINGAI;
    let mut searches = vec![GridSearch {
        algorithm: Algorithm::Dijkstra,
        heuristic: Heuristic::Zero,
        weight: 1.0,
        rules,
        reopen: None,
    }];
    for heuristic in Heuristic::ALL.into_iter().filter(|h| h.is_admissible(rules)) {
        searches.push(GridSearch { algorithm: Algorithm::Astar, heuristic, weight: 1.0, rules, reopen: None });
    }
    searches
}

/// Queries whose cost differs from the scenario's optimal length, as readable lines.
fn mismatches(grid: &Grid, scenarios: &[Scenario], search: &GridSearch) -> Vec<String> {
    scenarios
        .par_iter()
        .map_init(SearchSpace::new, |space, s| {
            let (start, goal) = (grid.cell(s.start.0, s.start.1), grid.cell(s.goal.0, s.goal.1));
            let cost = search.run(grid, start, goal, space, &mut NoTrace).cost();
            match cost {
                Some(c) if (c - s.optimal).abs() <= 1e-3 => None,
                _ => {
                    Some(format!("line {}: {:?} -> {:?}: got {cost:?}, optimal {}", s.line, s.start, s.goal, s.optimal))
                }
            }
        })
        .flatten()
        .collect()
}

/// Checks `map` against its scenarios; `stride` > 1 keeps every stride-th query (spread over all
/// buckets) where running them all would take minutes.
fn check_map(map: &str, stride: usize) {
    let Some(dir) = common::shared_data("movingai") else { return };
    let grid = movingai::load_map(&dir.join(map)).unwrap();
    let scen_path = dir.join(format!("{map}.scen"));
    let (all, left_out) = movingai::searchable_scenarios(
        &scen_path.display().to_string(),
        movingai::load_scen(&scen_path).unwrap(),
        &grid,
    )
    .unwrap();
    assert!(left_out.is_empty(), "{left_out:?}");
    let scenarios: Vec<Scenario> = all.iter().step_by(stride).cloned().collect();
    assert!(scenarios.len() >= 100, "{map}: too few scenarios to mean anything");
    for search in optimal_searches() {
        let wrong = mismatches(&grid, &scenarios, &search);
        assert!(
            wrong.is_empty(),
            "{map}, {} with {:?}: {} of {} queries off, e.g. {:?}",
            search.algorithm.name(),
            search.heuristic,
            wrong.len(),
            scenarios.len(),
            &wrong[..wrong.len().min(3)]
        );
    }
}

#[test]
fn arena_costs_equal_scen_optimal() {
    check_map("arena.map", 1);
}

/// In this maze almost every query expands most of the 250k free cells, even with a heuristic, so
/// the default run takes every 40th query; `maze512_every_query` checks all 8,010.
#[test]
fn maze512_costs_equal_scen_optimal() {
    check_map("maze512-32-9.map", 40);
}

#[test]
#[ignore = "minutes of work: run with cargo test --release -- --ignored"]
fn maze512_every_query() {
    check_map("maze512-32-9.map", 1);
}
