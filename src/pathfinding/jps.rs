//! Jump point search (Harabor & Grastien 2011) under the MovingAI rule: 8-connected moves of cost
//! 1 and √2 on uniform ground, a diagonal step only when both orthogonal cells are free.
//!
//! A* over jump points. From an expanded node JPS scans lines in the directions its parent leaves
//! open and puts on the open list only the first cell of each line where a turn can be needed: the
//! goal, a cell beside the end of a wall (a forced neighbour: the wall hides it from the cell
//! behind), or a diagonal cell from which a straight scan finds one. Among equally short paths it
//! keeps the one that goes diagonal first, which is why the cells in between can be skipped.
//! Without corner cutting a diagonal arrival means both cells behind are free, so only straight
//! lines have forced neighbours.
//!
//! Scans are block-based (Harabor & Grastien 2014, "Improving jump point search"): a word of
//! [`JumpBits`] says for 64 cells of a line which ones end a scan, so a trailing- or leading-zero
//! count finds the end; the grid keeps the bits, built on its first search.
//!
//! Traced as A* is: `Open`/`Expand` for jump points, and one `Relax { improved: false }` per cell
//! a scan passes over (told from the scanned range, only to a tracer that is on), so a replay
//! shows the lines being scanned.

use super::search_trace::SearchEvent;
use super::registry::{GridAlgorithm, Key, Line, Order, best_first};
use super::{COST_EPSILON, GridSearch, Heuristic, PathResult, SearchSpace};
use crate::grid::jump_bits::{self, JumpBits, PAD, window};
use crate::grid::{Connectivity, Grid, MoveRules, SQRT2};
use crate::trace::{Control, NO_NODE, Tracer};

/// Why JPS cannot search this map under these rules, if it cannot (one line, for the user).
pub fn refusal(grid: &Grid, rules: MoveRules) -> Option<&'static str> {
    if rules.connectivity == Connectivity::Four {
        Some("JPS needs 8-connected moves: its pruning rules are written for diagonal steps")
    } else if rules.corner_cutting {
        Some("JPS here follows the MovingAI rule: a diagonal step needs both orthogonal cells free (no corner cutting)")
    } else if grid.has_weights() {
        Some("JPS needs uniform ground: it jumps over cells without pricing them, so weighted cells are refused")
    } else {
        None
    }
}

/// Where a straight scan ended: it passed over `passed` cells, and the cell after them is a jump
/// point if `found` (else it is blocked).
struct Scan {
    passed: u32,
    found: bool,
}

/// Scans a line (`free`: its passability bits, `stops`: where a scan in direction `step` (±1)
/// must stop) from position `from` on, 64 cells at a time, up to the first stop or the goal
/// (`goal`: its position, when it lies on this line).
fn scan_line(free: &[u64], stops: &[u64], from: i64, step: i64, goal: Option<i64>) -> Scan {
    let origin = PAD as i64 + from;
    let goal_bit =
        |first: i64| goal.map(|g| PAD as i64 + g - first).filter(|g| (0..64).contains(g)).map_or(0, |g| 1 << g);
    let stop = if step > 0 {
        let mut first = origin + 1;
        loop {
            let ends = window(stops, first as usize) | goal_bit(first);
            if ends != 0 {
                break first + ends.trailing_zeros() as i64;
            }
            first += 64;
        }
    } else {
        // The padding before position 0 is blocked, so `first` never goes below bit 0.
        let mut first = origin - 64;
        loop {
            let ends = window(stops, first as usize) | goal_bit(first);
            if ends != 0 {
                break first + 63 - ends.leading_zeros() as i64;
            }
            first -= 64;
        }
    };
    let found = free[stop as usize / 64] >> (stop % 64) & 1 != 0;
    Scan { passed: (stop - origin).unsigned_abs() as u32 - 1, found }
}

/// The line scanner: passability bits (blocked off the map) and the goal to stop at.
struct Scanner<'a> {
    bits: &'a JumpBits,
    goal: (i64, i64),
}

impl Scanner<'_> {
    fn free(&self, x: i64, y: i64) -> bool {
        self.bits.free(x, y)
    }

    /// Scans from (x, y) along the straight direction (dx, dy).
    fn straight(&self, (x, y): (i64, i64), (dx, dy): (i64, i64)) -> Scan {
        let (direction, step, goal) = match (dx, dy) {
            (1, _) => (jump_bits::ScanDirection::East, 1, (self.goal.1 == y).then_some(self.goal.0)),
            (-1, _) => (jump_bits::ScanDirection::West, -1, (self.goal.1 == y).then_some(self.goal.0)),
            (_, 1) => (jump_bits::ScanDirection::South, 1, (self.goal.0 == x).then_some(self.goal.1)),
            _ => (jump_bits::ScanDirection::North, -1, (self.goal.0 == x).then_some(self.goal.1)),
        };
        let (free, stops, from) = self.bits.line(direction, x, y);
        scan_line(free, stops, from, step, goal)
    }

    /// Scans from (x, y) along the diagonal (dx, dy), each cell followed by straight scans along
    /// its two components; returns the jump point and the diagonal steps to it. The cells passed
    /// over are told to `passed` (see [`trace_passed`]) in scan order.
    fn diagonal(
        &self,
        (mut x, mut y): (i64, i64),
        (dx, dy): (i64, i64),
        passed: &mut impl FnMut((i64, i64), (i64, i64), u32, f64),
    ) -> Option<(i64, i64, u32)> {
        let mut steps = 0;
        loop {
            if !(self.free(x + dx, y) && self.free(x, y + dy) && self.free(x + dx, y + dy)) {
                return None;
            }
            (x, y) = (x + dx, y + dy);
            steps += 1;
            if (x, y) == self.goal {
                return Some((x, y, steps));
            }
            let base = steps as f64 * SQRT2;
            for side in [(dx, 0), (0, dy)] {
                let scan = self.straight((x, y), side);
                passed((x, y), side, scan.passed, base);
                if scan.found {
                    return Some((x, y, steps));
                }
            }
            passed((x, y), (0, 0), 1, base);
        }
    }
}

/// The directions worth scanning from (x, y) when it was reached moving along (dx, dy);
/// (0, 0) for the start, which scans all eight.
fn pruned_directions(scan: &Scanner, (x, y): (i64, i64), (dx, dy): (i64, i64), out: &mut Vec<(i64, i64)>) {
    out.clear();
    if (dx, dy) == (0, 0) {
        out.extend([(1, 0), (0, 1), (-1, 0), (0, -1), (1, 1), (-1, 1), (-1, -1), (1, -1)]);
    } else if dx != 0 && dy != 0 {
        out.extend([(dx, 0), (0, dy), (dx, dy)]);
    } else {
        out.push((dx, dy));
        // A side cell whose neighbour behind is blocked can only be reached well through here:
        // turn towards it, straight and diagonally ahead.
        let (sx, sy) = (dy.abs(), dx.abs());
        for side in [1, -1] {
            let (px, py) = (sx * side, sy * side);
            if scan.free(x + px, y + py) && !scan.free(x + px - dx, y + py - dy) {
                out.extend([(px, py), (dx + px, dy + py)]);
            }
        }
    }
}

/// The cells from jump point `a` to jump point `b` (on one straight or diagonal line), `a` excluded.
fn line(grid: &Grid, a: u32, b: u32) -> impl Iterator<Item = u32> + '_ {
    let ((ax, ay), (bx, by)) = (grid.coords(a), grid.coords(b));
    let (dx, dy) = ((bx as i64 - ax as i64).signum(), (by as i64 - ay as i64).signum());
    let steps = ax.abs_diff(bx).max(ay.abs_diff(by)) as i64;
    (1..=steps).map(move |k| grid.cell((ax as i64 + dx * k) as u32, (ay as i64 + dy * k) as u32))
}

/// Records one `Relax { improved: false }` for each of the `count` cells after `from` along
/// `along`, `distance` from the expanded node (at g `g_node`) to `from`; with `along` (0, 0) for
/// `from` itself. Nothing at all without a tracer.
fn trace_passed<T: Tracer<SearchEvent>>(
    tracer: &mut T,
    grid: &Grid,
    g_node: f64,
    from: (i64, i64),
    along: (i64, i64),
    count: u32,
    distance: f64,
) {
    if !T::ENABLED {
        return;
    }
    if along == (0, 0) {
        let cell = grid.cell(from.0 as u32, from.1 as u32);
        tracer.record(|| SearchEvent::Relax { node: cell, g: g_node + distance, improved: false });
        return;
    }
    for k in 1..=count as i64 {
        let cell = grid.cell((from.0 + along.0 * k) as u32, (from.1 + along.1 * k) as u32);
        tracer.record(|| SearchEvent::Relax { node: cell, g: g_node + (distance + k as f64), improved: false });
    }
}

/// Finds a shortest path from `start` to `goal` (passable cells) as grid cells. The map and rules
/// must pass [`refusal`]: the map is searched as uniform, 8-connected, without corner cutting.
pub fn jps<T: Tracer<SearchEvent>>(
    grid: &Grid,
    start: u32,
    goal: u32,
    space: &mut SearchSpace,
    tracer: &mut T,
) -> PathResult {
    space.begin(grid.cell_count());
    let (gx, gy) = grid.coords(goal);
    let scan = Scanner { bits: grid.jump_bits(), goal: (gx as i64, gy as i64) };
    let h = |x: i64, y: i64| Heuristic::Octile.estimate((x - gx as i64) as f64, (y - gy as i64) as f64);
    let (sx, sy) = grid.coords(start);
    let h_start = h(sx as i64, sy as i64);
    space.open(start, NO_NODE, 0.0, h_start);
    tracer.record(|| SearchEvent::Open { node: start, parent: NO_NODE, g: 0.0, h: h_start });
    let (mut expanded, mut pushed) = (0, 1);
    let mut directions = Vec::with_capacity(8);
    while let Some(node) = space.expand_next(tracer) {
        expanded += 1;
        if node == goal {
            let cost = space.g_seen(node);
            let jump_points = space.path_to(goal);
            let mut path = vec![start];
            for pair in jump_points.windows(2) {
                path.extend(line(grid, pair[0], pair[1]));
            }
            if T::ENABLED {
                tracer.record(|| SearchEvent::Found { cost, path: path.clone() });
            }
            return PathResult { path: Some((cost, path)), expanded, pushed, out_of_budget: false };
        }
        if tracer.control() == Control::Stop {
            return PathResult { path: None, expanded, pushed, out_of_budget: false };
        }
        let g_node = space.g_seen(node);
        let (x, y) = grid.coords(node);
        let here = (x as i64, y as i64);
        let parent = space.slots[node as usize].parent;
        let arrival = if parent == NO_NODE {
            (0, 0)
        } else {
            let (px, py) = grid.coords(parent);
            ((x as i64 - px as i64).signum(), (y as i64 - py as i64).signum())
        };
        pruned_directions(&scan, here, arrival, &mut directions);
        for &direction in &directions {
            let mut passed =
                |from, along, count, distance| trace_passed(tracer, grid, g_node, from, along, count, distance);
            let found = if direction.0 != 0 && direction.1 != 0 {
                scan.diagonal(here, direction, &mut passed).map(|(jx, jy, steps)| (jx, jy, steps as f64 * SQRT2))
            } else {
                let Scan { passed: count, found } = scan.straight(here, direction);
                passed(here, direction, count, 0.0);
                let steps = count as i64 + 1;
                found.then(|| (here.0 + direction.0 * steps, here.1 + direction.1 * steps, steps as f64))
            };
            let Some((jx, jy, distance)) = found else { continue };
            let jump_point = grid.cell(jx as u32, jy as u32);
            let g = g_node + distance;
            let improved = g + COST_EPSILON < space.g(jump_point);
            tracer.record(|| SearchEvent::Relax { node: jump_point, g, improved });
            if improved {
                let h = h(jx, jy);
                space.open(jump_point, node, g, g + h);
                pushed += 1;
                tracer.record(|| SearchEvent::Open { node: jump_point, parent: node, g, h });
            }
        }
    }
    tracer.record(|| SearchEvent::Exhausted);
    PathResult { path: None, expanded, pushed, out_of_budget: false }
}

/// JPS in the registry.
pub struct Jps;

impl GridAlgorithm for Jps {
    const ID: &'static str = "jps";
    const LABEL: &'static str = "JPS";
    const PSEUDOCODE: &'static [Line] = &best_first("    u := the open jump point with the lowest f = g + h");

    fn order(_search: &GridSearch) -> Order {
        Order { label: Self::LABEL, key: Key::F { weight: 1.0 }, first_route_only: false, jumps: true }
    }

    fn run<T: Tracer<SearchEvent>>(
        _search: &GridSearch,
        grid: &Grid,
        start: u32,
        goal: u32,
        space: &mut SearchSpace,
        tracer: &mut T,
    ) -> PathResult {
        jps(grid, start, goal, space, tracer)
    }

    fn prepare(grid: &Grid) {
        // Its bits, kept by the grid.
        grid.jump_bits();
    }

    fn refusal(grid: &Grid, rules: MoveRules) -> Option<&'static str> {
        refusal(grid, rules)
    }
}
