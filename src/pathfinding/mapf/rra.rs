//! Reverse resumable A* (Silver 2005): the true distance from any cell to an agent's goal on the
//! map without other agents, the heuristic of WHCA*. A* runs backward from the goal towards the
//! agent's start (Manhattan distance to the start as its heuristic); a cell asked for that is not
//! closed yet resumes the same search until it is. The heuristic is consistent, so a closed
//! cell's g is its exact distance.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

use super::space_time::manhattan;
use crate::grid::Grid;

/// One agent's true distances to its goal, computed on demand.
#[derive(Debug, Clone)]
pub struct TrueDistance {
    /// Where the backward search heads: the agent's start.
    toward: u32,
    /// cell -> (g, closed).
    seen: HashMap<u32, (u32, bool)>,
    open: BinaryHeap<Reverse<(u32, Reverse<u32>, u32)>>,
    /// Cells expanded so far.
    pub expanded: usize,
}

impl TrueDistance {
    pub fn new(grid: &Grid, goal: u32, toward: u32) -> Self {
        let mut seen = HashMap::new();
        seen.insert(goal, (0, false));
        let open = BinaryHeap::from([Reverse((manhattan(grid, goal, toward), Reverse(0), goal))]);
        Self { toward, seen, open, expanded: 0 }
    }

    /// Steps from `cell` to the goal on the empty map, `None` if it cannot reach it.
    pub fn distance(&mut self, grid: &Grid, cell: u32) -> Option<u32> {
        if let Some(&(g, true)) = self.seen.get(&cell) {
            return Some(g);
        }
        while let Some(Reverse((_, Reverse(g), node))) = self.open.pop() {
            let entry = self.seen.get_mut(&node).expect("pushed cells are seen");
            if entry.1 || entry.0 != g {
                continue;
            }
            entry.1 = true;
            self.expanded += 1;
            let (x, y) = grid.coords(node);
            for (dx, dy) in [(1i64, 0i64), (0, 1), (-1, 0), (0, -1)] {
                let (nx, ny) = (x as i64 + dx, y as i64 + dy);
                if !grid.is_passable(nx, ny) {
                    continue;
                }
                let next = grid.cell(nx as u32, ny as u32);
                let better = self.seen.get(&next).is_none_or(|&(old, closed)| !closed && g + 1 < old);
                if better {
                    self.seen.insert(next, (g + 1, false));
                    let f = g + 1 + manhattan(grid, next, self.toward);
                    self.open.push(Reverse((f, Reverse(g + 1), next)));
                }
            }
            if node == cell {
                return Some(g);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances_go_around_walls() {
        // A wall at x = 1 from y = 0 to 2 of a 3x4 map: (0,0) reaches (2,0) by the bottom row.
        let mut grid = Grid::new(3, 4);
        for y in 0..3 {
            grid.set_passable(1, y, false);
        }
        let goal = grid.cell(2, 0);
        let mut distance = TrueDistance::new(&grid, goal, grid.cell(0, 0));
        assert_eq!(distance.distance(&grid, grid.cell(0, 0)), Some(8));
        assert_eq!(distance.distance(&grid, grid.cell(2, 3)), Some(3), "resumed");
        assert_eq!(distance.distance(&grid, grid.cell(1, 3)), Some(4));
        assert_eq!(distance.distance(&grid, grid.cell(1, 0)), None, "a wall");
    }
}
