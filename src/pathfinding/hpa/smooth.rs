//! HPA*'s post-processing: straight shortcuts over the refined path.

use crate::graph::Graph;
use crate::grid::{GridGraph, SQRT2};
use crate::pathfinding::COST_EPSILON;

/// Replaces stretches of `path` by straight runs (orthogonal or diagonal, at most `reach` steps)
/// wherever the run is cheaper, as HPA*'s post-processing does. From each kept cell it tries the
/// later path cells (furthest first, up to `3 * reach` path steps ahead) that lie on one of the
/// eight rays from it and whose stretch of path costs more than the run could at its cheapest, so
/// only promising runs are ever walked.
pub fn smooth(graph: &GridGraph, path: Vec<u32>, reach: u32) -> Vec<u32> {
    let grid = graph.grid;
    let coords: Vec<(i64, i64)> = path.iter().map(|&c| grid.coords(c)).map(|(x, y)| (x as i64, y as i64)).collect();
    // cost_to[i] = cost of path[..=i].
    let mut cost_to = vec![0.0; path.len()];
    for i in 1..path.len() {
        cost_to[i] = cost_to[i - 1] + graph.step_cost(path[i - 1], path[i]).expect("path steps are grid moves");
    }
    // straight_to[i]: the last cell of the straight line the path follows from cell i. A run to a
    // cell before it is that very stretch of path, never cheaper.
    let step = |i: usize| (coords[i + 1].0 - coords[i].0, coords[i + 1].1 - coords[i].1);
    let mut straight_to: Vec<usize> = (0..path.len()).collect();
    for i in (0..path.len().saturating_sub(1)).rev() {
        straight_to[i] = if i + 2 < path.len() && step(i) == step(i + 1) { straight_to[i + 1] } else { i + 1 };
    }
    // The cost of the straight run from `from` to `to` if it is walkable, None otherwise.
    let run_cost = |(x, y): (i64, i64), (tx, ty): (i64, i64)| -> Option<f64> {
        let (dx, dy) = ((tx - x).signum(), (ty - y).signum());
        let steps = (tx - x).abs().max((ty - y).abs());
        let mut total = 0.0;
        for k in 0..steps {
            total += graph.step((x + dx * k) as u32, (y + dy * k) as u32, dx, dy)?.1;
        }
        Some(total)
    };
    let window = 3 * reach as usize;
    let reach = reach as i64;
    let mut out = Vec::with_capacity(path.len());
    let mut i = 0;
    while i + 1 < path.len() {
        out.push(path[i]);
        let (x, y) = coords[i];
        // From the end of the straight stretch on: the cells before it are no shortcut.
        let shortcut = (straight_to[i] + 1..path.len().min(i + window + 1)).rev().find(|&j| {
            let (dx, dy) = (coords[j].0 - x, coords[j].1 - y);
            let on_ray = dx == 0 || dy == 0 || dx.abs() == dy.abs();
            let steps = dx.abs().max(dy.abs());
            let detour = cost_to[j] - cost_to[i];
            // A run costs at least its steps' lengths (weights are at least 1): no run beats a
            // stretch of path that cheap, so it is not walked.
            let cheapest = steps as f64 * if dx != 0 && dy != 0 { SQRT2 } else { 1.0 };
            on_ray
                && steps <= reach
                && cheapest + COST_EPSILON < detour
                && run_cost(coords[i], coords[j]).is_some_and(|c| c + COST_EPSILON < detour)
        });
        match shortcut {
            Some(j) => {
                let (tx, ty) = coords[j];
                let (dx, dy) = ((tx - x).signum(), (ty - y).signum());
                let steps = (tx - x).abs().max((ty - y).abs());
                out.extend((1..steps).map(|k| grid.cell((x + dx * k) as u32, (y + dy * k) as u32)));
                i = j;
            }
            None => i += 1,
        }
    }
    out.push(*path.last().expect("paths are never empty"));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Grid, MoveRules};
    use crate::graph::path_cost;

    #[test]
    fn smoothing_straightens_a_staircase() {
        let grid = Grid::new(6, 6);
        let graph = GridGraph::new(&grid, MoveRules::MOVINGAI);
        // Right, right, down, down instead of two diagonals... then on to (4,4).
        let zigzag: Vec<u32> = [(0, 0), (1, 0), (2, 0), (2, 1), (2, 2), (3, 3), (4, 4)]
            .iter()
            .map(|&(x, y)| grid.cell(x, y))
            .collect();
        let smoothed = smooth(&graph, zigzag.clone(), 10);
        let straight: Vec<u32> = (0..5).map(|i| grid.cell(i, i)).collect();
        assert_eq!(smoothed, straight);
        assert!(path_cost(&graph, &smoothed).unwrap() < path_cost(&graph, &zigzag).unwrap());
    }
}
