//! The bundled `maps/*.scen` files were written by our own A*: every optimal length in them is
//! checked here against an independent solver (the `pathfinding` crate), so tests that compare
//! with these lengths compare with an outside fact.

mod common;

use common::reference::{movingai_cost, same_cost};
use rayon::prelude::*;
use searchlab::grid::movingai;

#[test]
fn every_bundled_scenario_length_is_optimal_by_an_independent_solver() {
    let maps = std::fs::read_dir(common::project_map(""))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "scen"));
    let mut checked = Vec::new();
    for scen_path in maps {
        let map_path = scen_path.with_extension("");
        let grid = movingai::load_map(&map_path).unwrap();
        let file = scen_path.display().to_string();
        let (scenarios, left_out) =
            movingai::searchable_scenarios(&file, movingai::load_scen(&scen_path).unwrap(), &grid).unwrap();
        assert!(left_out.is_empty(), "{left_out:?}");
        let wrong: Vec<String> = scenarios
            .par_iter()
            .filter_map(|s| {
                let reference = movingai_cost(&grid, s.start, s.goal);
                match reference {
                    // MovingAI's bucket is the optimal length divided by 4, rounded down.
                    Some(cost) if same_cost(s.optimal, cost) && s.bucket == (cost / 4.0).floor() as u32 => None,
                    _ => Some(format!(
                        "{file}:{}: says {} (bucket {}), the reference solver finds {reference:?}",
                        s.line, s.optimal, s.bucket
                    )),
                }
            })
            .collect();
        assert!(
            wrong.is_empty(),
            "{} of {} queries off: {:?}",
            wrong.len(),
            scenarios.len(),
            &wrong[..wrong.len().min(3)]
        );
        checked.push((map_path.file_name().unwrap().to_string_lossy().into_owned(), scenarios.len()));
    }
    checked.sort();
    let names: Vec<&str> = checked.iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(
        names,
        ["lecture-u.map", "maze64.map", "random512.map", "rooms128.map", "rooms512.map"],
        "every bundled scenario file"
    );
    assert!(checked.iter().all(|&(_, n)| n > 0), "{checked:?}");
}

/// The reference solver itself, on costs worked out by hand.
#[test]
fn reference_solver_follows_the_movingai_rules() {
    // . . .
    // . @ .    no diagonal may touch the pillar's corner (no corner cutting), so (0,0) -> (2,2)
    // . . .    is four straight steps around it.
    let mut grid = searchlab::grid::Grid::new(3, 3);
    grid.set_passable(1, 1, false);
    assert_eq!(movingai_cost(&grid, (0, 0), (2, 2)), Some(4.0));
    assert_eq!(movingai_cost(&grid, (0, 0), (1, 0)), Some(1.0));
    let open = searchlab::grid::Grid::new(4, 3);
    assert!(same_cost(movingai_cost(&open, (0, 0), (3, 2)).unwrap(), 1.0 + 2.0 * std::f64::consts::SQRT_2));
    let mut weighted = searchlab::grid::Grid::new(2, 1);
    weighted.set_weight(1, 0, 3);
    assert_eq!(movingai_cost(&weighted, (0, 0), (1, 0)), Some(3.0), "entering a cell costs its weight");
    let mut split = searchlab::grid::Grid::new(3, 1);
    split.set_passable(1, 0, false);
    assert_eq!(movingai_cost(&split, (0, 0), (2, 0)), None);
}
