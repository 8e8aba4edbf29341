//! An independent shortest-path solver for grid maps: the `pathfinding` crate's A* under the
//! MovingAI rules, with exact costs, so tests check our searches against something other than
//! themselves.

use std::cmp::Ordering;
use std::ops::Add;

use pathfinding::num_traits::Zero;
use pathfinding::prelude::{astar, bfs_reach};
use searchlab::grid::Grid;

/// `straight + diagonal * sqrt 2`, kept exact: sums of sqrt 2 steps in floating point depend on
/// the order they are added in, and the crate needs a total order on costs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct OctileCost {
    straight: i64,
    diagonal: i64,
}

impl OctileCost {
    pub fn value(self) -> f64 {
        self.straight as f64 + self.diagonal as f64 * std::f64::consts::SQRT_2
    }
}

impl Add for OctileCost {
    type Output = Self;

    fn add(self, other: Self) -> Self {
        Self { straight: self.straight + other.straight, diagonal: self.diagonal + other.diagonal }
    }
}

impl Zero for OctileCost {
    fn zero() -> Self {
        Self::default()
    }

    fn is_zero(&self) -> bool {
        *self == Self::default()
    }
}

impl Ord for OctileCost {
    /// a1 + b1 sqrt 2 against a2 + b2 sqrt 2 is x = a1 - a2 against y sqrt 2 with y = b2 - b1;
    /// sqrt 2 is irrational, so they are equal only when x = y = 0.
    fn cmp(&self, other: &Self) -> Ordering {
        let (x, y) = ((self.straight - other.straight) as i128, (other.diagonal - self.diagonal) as i128);
        match (x >= 0, y >= 0) {
            (true, false) => Ordering::Greater,
            (false, true) => Ordering::Less,
            (true, true) => (x * x).cmp(&(2 * y * y)),
            (false, false) => (2 * y * y).cmp(&(x * x)),
        }
    }
}

impl PartialOrd for OctileCost {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// The moves out of (x, y): 8-connected, no corner cutting (a diagonal step needs both
/// orthogonal neighbours free), each step's length (1 or sqrt 2) times the weight of the cell entered.
fn movingai_moves(grid: &Grid, (x, y): (i64, i64)) -> Vec<((i64, i64), OctileCost)> {
    let free = |x: i64, y: i64| grid.is_passable(x, y);
    let mut next = Vec::with_capacity(8);
    for (dx, dy) in [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)] {
        let (nx, ny) = (x + dx, y + dy);
        let diagonal = dx != 0 && dy != 0;
        if !free(nx, ny) || (diagonal && !(free(nx, y) && free(x, ny))) {
            continue;
        }
        let weight = grid.weight(grid.cell(nx as u32, ny as u32)) as i64;
        let cost = if diagonal {
            OctileCost { straight: 0, diagonal: weight }
        } else {
            OctileCost { straight: weight, diagonal: 0 }
        };
        next.push(((nx, ny), cost));
    }
    next
}

/// How many cells can be reached from `start` (itself included) under the MovingAI rules.
pub fn movingai_reachable(grid: &Grid, start: (u32, u32)) -> usize {
    let moves = |&cell: &(i64, i64)| movingai_moves(grid, cell).into_iter().map(|(next, _)| next);
    bfs_reach((start.0 as i64, start.1 as i64), moves).count()
}

/// The cheapest cost from `start` to `goal` (cells as (x, y)) under the MovingAI rules (see
/// `movingai_moves`); `None` if the goal cannot be reached.
pub fn movingai_cost(grid: &Grid, start: (u32, u32), goal: (u32, u32)) -> Option<f64> {
    let successors = |&cell: &(i64, i64)| movingai_moves(grid, cell);
    let goal = (goal.0 as i64, goal.1 as i64);
    // Octile distance: admissible, as every weight is at least 1.
    let heuristic = |&(x, y): &(i64, i64)| {
        let (dx, dy) = ((x - goal.0).abs(), (y - goal.1).abs());
        OctileCost { straight: dx.max(dy) - dx.min(dy), diagonal: dx.min(dy) }
    };
    astar(&(start.0 as i64, start.1 as i64), successors, heuristic, |&cell| cell == goal).map(|(_, cost)| cost.value())
}

/// The cost of walking `path` (cells as (x, y)) under the MovingAI rules, or `None` if a step is
/// not a legal move.
pub fn movingai_path_cost(grid: &Grid, path: &[(u32, u32)]) -> Option<f64> {
    let mut total = OctileCost::default();
    for pair in path.windows(2) {
        let ((x, y), next) = (pair[0], (pair[1].0 as i64, pair[1].1 as i64));
        let (_, cost) = movingai_moves(grid, (x as i64, y as i64)).into_iter().find(|&(cell, _)| cell == next)?;
        total = total + cost;
    }
    Some(total.value())
}

/// Whether `ours` equals the reference cost `reference` within 1e-6 relative.
pub fn same_cost(ours: f64, reference: f64) -> bool {
    (ours - reference).abs() <= 1e-6 * reference.max(1.0)
}
