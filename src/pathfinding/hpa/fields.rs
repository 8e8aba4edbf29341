//! Cached intra-cluster distances: for each level-1 cluster, the cost from every cell to each of
//! its entrances and back, kept from the Dijkstra searches that pre-processing runs anyway. A
//! query links its start and goal to their clusters' entrances by lookups instead of searches, and
//! refines those links by walking down the distances.

use crate::graph::Graph;
use crate::grid::{Grid, GridGraph};
use crate::pathfinding::SearchSpace;

/// The distances inside one level-1 cluster: one block per entrance (in the order of the
/// cluster's sorted entrance list), each row-major over the cluster's rectangle.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub(super) struct Fields {
    x0: u32,
    y0: u32,
    width: u32,
    height: u32,
    /// Cost from the entrance to each cell (infinite where the cluster offers no way).
    from_entrance: Vec<f32>,
    /// Cost from each cell to the entrance; `None` when no cell of the cluster is weighted, as
    /// then every step costs the same both ways.
    to_entrance: Option<Vec<f32>>,
}

impl Fields {
    pub(super) fn new((x0, y0, x1, y1): (u32, u32, u32, u32), entrances: usize, weighted: bool) -> Fields {
        let area = ((x1 - x0) * (y1 - y0)) as usize;
        let blocks = || vec![f32::INFINITY; area * entrances];
        Fields { x0, y0, width: x1 - x0, height: y1 - y0, from_entrance: blocks(), to_entrance: weighted.then(blocks) }
    }

    pub(super) fn is_symmetric(&self) -> bool {
        self.to_entrance.is_none()
    }

    fn area(&self) -> usize {
        (self.width * self.height) as usize
    }

    fn index(&self, grid: &Grid, cell: u32) -> usize {
        let (x, y) = grid.coords(cell);
        ((y - self.y0) * self.width + (x - self.x0)) as usize
    }

    fn block(&self, entrance: usize, towards: bool) -> &[f32] {
        let all = if towards { self.to_entrance.as_ref().unwrap_or(&self.from_entrance) } else { &self.from_entrance };
        &all[entrance * self.area()..(entrance + 1) * self.area()]
    }

    /// Stores the distances of a finished search from (`towards` = false) or towards entrance
    /// number `entrance`, whose nodes are the grid cells.
    pub(super) fn store(&mut self, grid: &Grid, entrance: usize, towards: bool, space: &SearchSpace) {
        let area = self.area();
        let (x0, y0, width) = (self.x0, self.y0, self.width);
        let all = if towards {
            self.to_entrance.as_mut().expect("weighted clusters keep both ways")
        } else {
            &mut self.from_entrance
        };
        for (i, distance) in all[entrance * area..(entrance + 1) * area].iter_mut().enumerate() {
            let (x, y) = (x0 + i as u32 % width, y0 + i as u32 / width);
            *distance = space.g(grid.cell(x, y)) as f32;
        }
    }

    /// The cost from `cell` to entrance number `entrance` (`towards`) or from it to `cell`.
    pub(super) fn distance(&self, grid: &Grid, entrance: usize, towards: bool, cell: u32) -> f64 {
        self.block(entrance, towards)[self.index(grid, cell)] as f64
    }

    fn inside(&self, grid: &Grid, cell: u32) -> bool {
        let (x, y) = grid.coords(cell);
        x >= self.x0 && y >= self.y0 && x < self.x0 + self.width && y < self.y0 + self.height
    }

    /// A cheapest way inside the cluster between `end` and entrance number `entrance` (at
    /// `entrance_cell`): from `end` if `towards`, else from the entrance; as its grid cells after
    /// the first. `end` must have a finite distance.
    pub(super) fn walk(
        &self,
        graph: &GridGraph,
        entrance: usize,
        entrance_cell: u32,
        end: u32,
        towards: bool,
    ) -> Vec<u32> {
        let grid = graph.grid;
        let block = self.block(entrance, towards);
        let mut cells = Vec::new();
        let mut at = end;
        // Each step goes to the neighbour that a cheapest way continues through: its distance is
        // lower by the step's cost (at least 1), so the walk ends, at the entrance (distance 0).
        while at != entrance_cell {
            let mut best = (f64::INFINITY, at);
            graph.for_each_neighbor(at, |next, cost| {
                if self.inside(grid, next) {
                    // Walking back from the goal, the step is taken the other way: it costs the cell `at`.
                    let cost = if towards { cost } else { cost / grid.weight(next) as f64 * grid.weight(at) as f64 };
                    let through = block[self.index(grid, next)] as f64 + cost;
                    if through < best.0 {
                        best = (through, next);
                    }
                }
            });
            at = best.1;
            cells.push(at);
        }
        if !towards && !cells.is_empty() {
            // Walked from the goal back to the entrance: turn it round, entrance first, goal last.
            cells.pop();
            cells.reverse();
            cells.push(end);
        }
        cells
    }
}
