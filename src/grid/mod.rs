//! Grid maps: passable/blocked cells with optional per-cell weights, and the move rules that turn
//! a grid into a graph for the searches in `pathfinding`.

pub mod generate;
pub mod jump_bits;
pub mod movingai;

use crate::graph::Graph;
use jump_bits::{Cache as JumpBitsCache, JumpBits};

/// The cost of a diagonal step.
pub const SQRT2: f64 = std::f64::consts::SQRT_2;
/// Heaviest cell weight; weights are 1..=MAX_WEIGHT so every heuristic stays admissible.
pub const MAX_WEIGHT: u8 = 9;

/// A rectangular map of cells indexed `y * width + x`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Grid {
    width: u32,
    height: u32,
    /// Per cell, the cost multiplier for entering it (1 = plain ground, up to MAX_WEIGHT), or 0
    /// for a blocked cell: one byte answers both questions a search asks of a neighbour.
    cells: Vec<u8>,
    /// What jump point search reads of the map, built on its first search and dropped by every
    /// change to passability.
    #[serde(skip)]
    jump_bits: JumpBitsCache,
}

impl Grid {
    /// An all-passable grid.
    pub fn new(width: u32, height: u32) -> Self {
        let cells = width as usize * height as usize;
        Self { width, height, cells: vec![1; cells], jump_bits: JumpBitsCache::default() }
    }

    pub fn width(&self) -> u32 {
        self.width
    }

    pub fn height(&self) -> u32 {
        self.height
    }

    pub fn cell_count(&self) -> usize {
        self.cells.len()
    }

    pub fn cell(&self, x: u32, y: u32) -> u32 {
        debug_assert!(x < self.width && y < self.height);
        y * self.width + x
    }

    pub fn coords(&self, cell: u32) -> (u32, u32) {
        let y = cell / self.width;
        (cell - y * self.width, y)
    }

    /// The free cell at `(x, y)` as a query's `what` ("start", "goal"), or why it cannot be one:
    /// "the start 0,0 is a blocked cell". The one check the CLI, the lab and lectures share.
    pub fn endpoint(&self, (x, y): (u32, u32), what: &str) -> Result<u32, String> {
        if !self.contains(i64::from(x), i64::from(y)) {
            return Err(format!("the {what} {x},{y} is outside the {}x{} map", self.width(), self.height()));
        }
        let cell = self.cell(x, y);
        if !self.is_cell_passable(cell) {
            return Err(format!("the {what} {x},{y} is a blocked cell"));
        }
        Ok(cell)
    }

    pub fn contains(&self, x: i64, y: i64) -> bool {
        x >= 0 && y >= 0 && x < self.width as i64 && y < self.height as i64
    }

    /// False outside the map.
    pub fn is_passable(&self, x: i64, y: i64) -> bool {
        self.contains(x, y) && self.cells[(y as usize) * self.width as usize + x as usize] != 0
    }

    pub fn is_cell_passable(&self, cell: u32) -> bool {
        self.cells[cell as usize] != 0
    }

    /// Blocking a cell forgets its weight; opening a blocked cell makes it plain ground.
    pub fn set_passable(&mut self, x: u32, y: u32, passable: bool) {
        let cell = self.cell(x, y) as usize;
        self.jump_bits = JumpBitsCache::default();
        self.cells[cell] = match (passable, self.cells[cell]) {
            (false, _) => 0,
            (true, 0) => 1,
            (true, weight) => weight,
        };
    }

    /// Passability as bits for jump point search (built on the first call after a change).
    pub fn jump_bits(&self) -> &JumpBits {
        self.jump_bits.get_or_build(|| JumpBits::new(self))
    }

    /// The cost multiplier of a passable cell (1 for blocked ones, which are never entered).
    pub fn weight(&self, cell: u32) -> u8 {
        self.cells[cell as usize].max(1)
    }

    /// Clamps to `1..=MAX_WEIGHT`; blocked cells stay blocked.
    pub fn set_weight(&mut self, x: u32, y: u32, weight: u8) {
        let cell = self.cell(x, y) as usize;
        if self.cells[cell] != 0 {
            self.cells[cell] = weight.clamp(1, MAX_WEIGHT);
        }
    }

    pub fn has_weights(&self) -> bool {
        self.cells.iter().any(|&w| w > 1)
    }

    pub fn passable_count(&self) -> usize {
        self.cells.iter().filter(|&&c| c != 0).count()
    }

    /// The passable cells, in index order.
    pub fn passable_cells(&self) -> Vec<u32> {
        (0..self.cell_count() as u32).filter(|&c| self.is_cell_passable(c)).collect()
    }

    /// The connected component of every cell under `rules` (`u32::MAX` for blocked cells).
    pub fn components(&self, rules: MoveRules) -> Vec<u32> {
        let graph = GridGraph::new(self, rules);
        let mut label = vec![u32::MAX; self.cell_count()];
        let mut stack = Vec::new();
        let mut next = 0;
        for seed in 0..self.cell_count() as u32 {
            if !self.is_cell_passable(seed) || label[seed as usize] != u32::MAX {
                continue;
            }
            label[seed as usize] = next;
            stack.push(seed);
            while let Some(cell) = stack.pop() {
                graph.for_each_neighbor(cell, |nb, _| {
                    if label[nb as usize] == u32::MAX {
                        label[nb as usize] = next;
                        stack.push(nb);
                    }
                });
            }
            next += 1;
        }
        label
    }

    /// The cells of the largest connected component under `rules` (the first found of equally
    /// large ones), in cell order; empty when every cell is blocked.
    pub fn largest_component(&self, rules: MoveRules) -> Vec<u32> {
        let labels = self.components(rules);
        let mut sizes = Vec::new();
        for &label in labels.iter().filter(|&&label| label != u32::MAX) {
            if sizes.len() <= label as usize {
                sizes.resize(label as usize + 1, 0usize);
            }
            sizes[label as usize] += 1;
        }
        // `max_by_key` takes the last of equals: reversed, that is the first.
        let Some(largest) = sizes.iter().enumerate().rev().max_by_key(|&(_, size)| size).map(|(label, _)| label as u32)
        else {
            return Vec::new();
        };
        (0..self.cell_count() as u32).filter(|&cell| labels[cell as usize] == largest).collect()
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum Connectivity {
    /// Orthogonal moves only.
    Four,
    /// Orthogonal and diagonal moves.
    #[default]
    Eight,
}

/// How an agent may move between cells. The default is the MovingAI benchmark rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct MoveRules {
    pub connectivity: Connectivity,
    /// When false (MovingAI), a diagonal step needs both orthogonally adjacent cells free; when true,
    /// one free is enough. Squeezing between two diagonal walls is never allowed.
    pub corner_cutting: bool,
}

impl Default for MoveRules {
    fn default() -> Self {
        Self::MOVINGAI
    }
}

impl MoveRules {
    pub const MOVINGAI: MoveRules = MoveRules { connectivity: Connectivity::Eight, corner_cutting: false };
    pub const FOUR: MoveRules = MoveRules { connectivity: Connectivity::Four, corner_cutting: false };

    fn diagonal_allowed(&self, side_a: bool, side_b: bool) -> bool {
        match self.connectivity {
            Connectivity::Four => false,
            Connectivity::Eight if self.corner_cutting => side_a || side_b,
            Connectivity::Eight => side_a && side_b,
        }
    }
}

/// What keeps the straight line between two cells from being a cheapest path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Obstacle {
    Wall,
    /// A wall whose corner a diagonal step would cut, which the move rules forbid.
    Corner,
    /// Heavier ground: entering it costs more than open ground would.
    Weight(u8),
}

/// Where [`GridGraph::straight_path`] stopped.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct LineStop {
    /// The cells the line crossed from the start before it.
    pub walked: Vec<u32>,
    /// The wall, the corner's wall or the heavier cell.
    pub cell: u32,
    pub obstacle: Obstacle,
}

/// A grid seen as a graph under some move rules. Step cost = length (1 or sqrt 2) x weight of the
/// cell entered.
#[derive(Debug, Clone, Copy)]
pub struct GridGraph<'a> {
    pub grid: &'a Grid,
    pub rules: MoveRules,
}

impl<'a> GridGraph<'a> {
    pub fn new(grid: &'a Grid, rules: MoveRules) -> Self {
        Self { grid, rules }
    }

    /// The cell one step from (x, y) in direction (dx, dy) (each -1, 0 or 1) and the step's cost,
    /// if the rules allow that step. Takes coordinates so walks along a line need no division.
    pub fn step(&self, x: u32, y: u32, dx: i64, dy: i64) -> Option<(u32, f64)> {
        let grid = self.grid;
        let (nx, ny) = (x as i64 + dx, y as i64 + dy);
        if !grid.is_passable(nx, ny) {
            return None;
        }
        let length = if dx != 0 && dy != 0 {
            let allowed = self.rules.diagonal_allowed(grid.is_passable(nx, y as i64), grid.is_passable(x as i64, ny));
            if !allowed {
                return None;
            }
            SQRT2
        } else {
            1.0
        };
        let next = grid.cell(nx as u32, ny as u32);
        Some((next, length * grid.cells[next as usize] as f64))
    }

    /// The path along the straight line from `start` to `goal` (Bresenham's, in grid moves; on
    /// a 4-connected grid each diagonal step turned into two), with its cost, when every move on
    /// it is allowed and enters plain ground (weight 1). It then costs what open ground would,
    /// the octile (4-connected: Manhattan) distance, which no path undercuts: it is a cheapest
    /// path. Otherwise, the first thing on it from the start that stops it. It reads a cell or
    /// three a step, where a search on open ground expands every cell of its path and looks at
    /// each one's neighbours.
    /// Halfway ties round towards the end with the smaller id, and a 4-connected corner goes
    /// through the smaller of its two cells, so a query and its reverse walk the same cells.
    pub fn straight_path(&self, start: u32, goal: u32) -> Result<(f64, Vec<u32>), LineStop> {
        let grid = self.grid;
        let ((x0, y0), (x1, y1)) = (grid.coords(start), grid.coords(goal));
        let (dx, dy) = (x1 as i64 - x0 as i64, y1 as i64 - y0 as i64);
        let (major, minor) = (dx.abs().max(dy.abs()), dx.abs().min(dy.abs()));
        // The line keeps inside the rectangle its ends span: cell ids step by fixed offsets.
        let (along, across) = if dx.abs() >= dy.abs() {
            (dx.signum(), dy.signum() * grid.width as i64)
        } else {
            (dy.signum() * grid.width as i64, dx.signum())
        };
        let four = self.rules.connectivity == Connectivity::Four;
        let mut path = Vec::with_capacity(major as usize + 1 + if four { minor as usize } else { 0 });
        path.push(start);
        // Entering `cell` costs its weight times the step's length: only plain ground keeps the bound.
        let enter = |cell: i64, path: &mut Vec<u32>| match grid.cells[cell as usize] {
            1 => {
                path.push(cell as u32);
                Ok(())
            }
            0 => Err((cell as u32, Obstacle::Wall)),
            weight => Err((cell as u32, Obstacle::Weight(weight))),
        };
        let stop = |path: Vec<u32>, (cell, obstacle): (u32, Obstacle)| LineStop { walked: path, cell, obstacle };
        let (mut cell, mut cost) = (start as i64, 0.0);
        // Bresenham: the line moves across where it passes half a cell. Step k moves across when
        // floor((k * minor + error0) / major) grows; major / 2 from the smaller end and
        // (major - 1) / 2 from the other put the same cells on the line both ways.
        let mut error = if start < goal { major / 2 } else { (major - 1) / 2 };
        for _ in 0..major {
            error += minor;
            if error < major {
                cell += along;
                if let Err(at) = enter(cell, &mut path) {
                    return Err(stop(path, at));
                }
                cost += 1.0;
                continue;
            }
            error -= major;
            // The two cells beside the diagonal step: 4-connected, the way goes through one.
            let (beside_a, beside_b, next) = (cell + along, cell + across, cell + along + across);
            if four {
                let (first, second) = (beside_a.min(beside_b), beside_a.max(beside_b));
                if let Err(at) = enter(first, &mut path)
                    && enter(second, &mut path).is_err()
                {
                    return Err(stop(path, at));
                }
                cost += 1.0;
            } else {
                let open = |c: i64| grid.cells[c as usize] != 0;
                if !self.rules.diagonal_allowed(open(beside_a), open(beside_b)) {
                    let wall = if open(beside_a) { beside_b } else { beside_a };
                    return Err(stop(path, (wall as u32, Obstacle::Corner)));
                }
            }
            if let Err(at) = enter(next, &mut path) {
                return Err(stop(path, at));
            }
            cost += if four { 1.0 } else { SQRT2 };
            cell = next;
        }
        Ok((cost, path))
    }
}

impl Graph for GridGraph<'_> {
    fn node_count(&self) -> usize {
        self.grid.cell_count()
    }

    /// One lookup, where asking for every neighbour would take eight.
    fn step_cost(&self, a: u32, b: u32) -> Option<f64> {
        let ((ax, ay), (bx, by)) = (self.grid.coords(a), self.grid.coords(b));
        let (dx, dy) = (bx as i64 - ax as i64, by as i64 - ay as i64);
        let neighbours = dx.abs() <= 1 && dy.abs() <= 1 && (dx, dy) != (0, 0);
        neighbours.then(|| self.step(ax, ay, dx, dy)).flatten().map(|(_, cost)| cost)
    }

    #[inline]
    fn for_each_neighbor(&self, cell: u32, mut visit: impl FnMut(u32, f64)) {
        let grid = self.grid;
        let w = grid.width;
        let (x, y) = grid.coords(cell);
        // Which sides exist, then which neighbours are free: no per-neighbour bounds arithmetic.
        let (has_n, has_s, has_w, has_e) = (y > 0, y + 1 < grid.height, x > 0, x + 1 < w);
        let free = |has: bool, nb: u32| has && grid.cells[nb as usize] != 0;
        let north = free(has_n, cell.wrapping_sub(w));
        let south = free(has_s, cell.wrapping_add(w));
        let west = free(has_w, cell.wrapping_sub(1));
        let east = free(has_e, cell.wrapping_add(1));
        let mut step = |nb: u32, length: f64| visit(nb, length * grid.cells[nb as usize] as f64);
        if north {
            step(cell - w, 1.0);
        }
        if east {
            step(cell + 1, 1.0);
        }
        if south {
            step(cell + w, 1.0);
        }
        if west {
            step(cell - 1, 1.0);
        }
        if self.rules.connectivity == Connectivity::Four {
            return;
        }
        // Indices of cells off the map wrap around; `inside` keeps them from being read.
        let diagonals = [
            (north, east, has_n && has_e, cell.wrapping_sub(w).wrapping_add(1)),
            (south, east, has_s && has_e, cell.wrapping_add(w + 1)),
            (south, west, has_s && has_w, cell.wrapping_add(w).wrapping_sub(1)),
            (north, west, has_n && has_w, cell.wrapping_sub(w + 1)),
        ];
        for (side_a, side_b, inside, nb) in diagonals {
            if self.rules.diagonal_allowed(side_a, side_b) && free(inside, nb) {
                step(nb, SQRT2);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn neighbors(grid: &Grid, rules: MoveRules, x: u32, y: u32) -> Vec<(u32, u32)> {
        let mut out = Vec::new();
        GridGraph::new(grid, rules).for_each_neighbor(grid.cell(x, y), |nb, _| out.push(grid.coords(nb)));
        out.sort();
        out
    }

    #[test]
    fn corner_rules_decide_diagonals() {
        // . @
        // . .   from (0,1): the diagonal to (1,0) is blocked, (1,1)->(0,0) cuts the corner of (1,0).
        let mut grid = Grid::new(2, 2);
        grid.set_passable(1, 0, false);
        assert_eq!(neighbors(&grid, MoveRules::MOVINGAI, 1, 1), vec![(0, 1)]);
        let cutting = MoveRules { corner_cutting: true, ..MoveRules::MOVINGAI };
        assert_eq!(neighbors(&grid, cutting, 1, 1), vec![(0, 0), (0, 1)]);
        assert_eq!(neighbors(&grid, MoveRules::FOUR, 0, 0), vec![(0, 1)]);
    }

    #[test]
    fn weights_scale_step_costs() {
        let mut grid = Grid::new(2, 1);
        grid.set_weight(1, 0, 3);
        let mut costs = Vec::new();
        GridGraph::new(&grid, MoveRules::MOVINGAI).for_each_neighbor(0, |_, c| costs.push(c));
        assert_eq!(costs, vec![3.0]);
    }

    #[test]
    fn a_grid_looks_one_step_up_as_its_neighbour_list_gives_it() {
        // Walls, a weight and the border; every pair of cells, under every move rule.
        let mut grid = Grid::new(4, 3);
        grid.set_passable(1, 1, false);
        grid.set_passable(3, 0, false);
        grid.set_weight(2, 1, 4);
        let cutting = MoveRules { corner_cutting: true, ..MoveRules::MOVINGAI };
        for rules in [MoveRules::MOVINGAI, cutting, MoveRules::FOUR] {
            let graph = GridGraph::new(&grid, rules);
            for a in 0..grid.cell_count() as u32 {
                for b in 0..grid.cell_count() as u32 {
                    let mut listed = None;
                    graph.for_each_neighbor(a, |nb, cost| listed = listed.or((nb == b).then_some(cost)));
                    assert_eq!(
                        graph.step_cost(a, b),
                        listed,
                        "{rules:?}: {:?} -> {:?}",
                        grid.coords(a),
                        grid.coords(b)
                    );
                }
            }
        }
    }

    #[test]
    fn components_split_by_walls() {
        let mut grid = Grid::new(3, 1);
        grid.set_passable(1, 0, false);
        let labels = grid.components(MoveRules::MOVINGAI);
        assert_eq!(labels, vec![0, u32::MAX, 1]);
        // Two regions of one cell: the first found is the largest.
        assert_eq!(grid.largest_component(MoveRules::MOVINGAI), vec![0]);
        grid.set_passable(1, 0, true);
        assert_eq!(grid.largest_component(MoveRules::MOVINGAI), vec![0, 1, 2]);
    }
}
