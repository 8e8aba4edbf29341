//! Scenario sets for a map: random queries with their optimal lengths, written as MovingAI `.scen`.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::astar::{astar, grid_heuristic};
use super::{Heuristic, SearchSpace};
use crate::grid::movingai::Scenario;
use crate::grid::{Grid, GridGraph, MoveRules};
use crate::trace::NoTrace;

/// `count` random queries between connected cells with their optimal octile lengths (MovingAI
/// rules), sorted by length; bucket = length / 4 as in the MovingAI sets.
pub fn generate(grid: &Grid, map_name: &str, count: usize, seed: u64) -> Vec<Scenario> {
    let rules = MoveRules::MOVINGAI;
    let labels = grid.components(rules);
    let cells = grid.passable_cells();
    if cells.len() < 2 {
        return Vec::new();
    }
    let graph = GridGraph::new(grid, rules);
    let mut space = SearchSpace::new();
    let mut rng = StdRng::seed_from_u64(seed);
    let mut out = Vec::with_capacity(count);
    let mut attempts = 0;
    while out.len() < count && attempts < count * 50 {
        attempts += 1;
        let start = cells[rng.random_range(0..cells.len())];
        let goal = cells[rng.random_range(0..cells.len())];
        if start == goal || labels[start as usize] != labels[goal as usize] {
            continue;
        }
        let heuristic = grid_heuristic(grid, goal, Heuristic::Octile);
        let Some(optimal) = astar(&graph, start, goal, heuristic, 1.0, &mut space, &mut NoTrace).cost() else {
            continue;
        };
        out.push(Scenario {
            bucket: (optimal / 4.0) as u32,
            map: map_name.to_string(),
            map_width: grid.width(),
            map_height: grid.height(),
            start: grid.coords(start),
            goal: grid.coords(goal),
            optimal,
            // As write_scen prints it.
            optimal_decimals: 8,
            line: 0,
        });
    }
    out.sort_by(|a, b| a.optimal.total_cmp(&b.optimal));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::generate::random;

    #[test]
    fn scenarios_join_connected_cells() {
        let grid = random(30, 30, 0.3, 2);
        let labels = grid.components(MoveRules::MOVINGAI);
        let set = generate(&grid, "r.map", 20, 4);
        assert_eq!(set.len(), 20);
        for s in &set {
            let (a, b) = (grid.cell(s.start.0, s.start.1), grid.cell(s.goal.0, s.goal.1));
            assert_eq!(labels[a as usize], labels[b as usize]);
        }
    }
}
