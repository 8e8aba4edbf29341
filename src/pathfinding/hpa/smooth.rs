//! HPA*'s post-processing: straight shortcuts over the refined path.

use crate::graph::Graph;
use crate::grid::{GridGraph, SQRT2};
use crate::pathfinding::COST_EPSILON;

/// Replaces stretches of `path` by straight runs (orthogonal or diagonal, at most `reach` steps)
/// wherever the run is cheaper, as HPA*'s post-processing does. From each kept cell it tries the
/// later path cells (furthest first, up to `3 * reach` path steps ahead) that lie on one of the
/// eight rays from it and whose stretch of path costs more than the run could at its cheapest, so
/// only promising runs are ever walked.
///
/// `joints` (ascending path indices) are where the path's pieces meet, each piece a cheapest
/// way inside one cluster, as HPA* refines them. A straight run between two cells of a cluster
/// stays inside it (clusters are rectangles), so it never beats a piece: only runs across a joint
/// are tried. Where clusters' pieces are long (open ground, caves) most cells are farther than the
/// window from the next joint and are passed over at once.
pub fn smooth(graph: &GridGraph, path: Vec<u32>, joints: &[usize], reach: u32) -> Smoothed {
    let grid = graph.grid;
    let coords: Vec<(i64, i64)> = path.iter().map(|&c| grid.coords(c)).map(|(x, y)| (x as i64, y as i64)).collect();
    // A step's cost from the coordinates at hand: `step_cost` would find them again from the cells.
    let step_cost = |(x, y): (i64, i64), (nx, ny): (i64, i64)| {
        graph.step(x as u32, y as u32, nx - x, ny - y).expect("path steps are grid moves").1
    };
    // cost_to[i] = cost of path[..=i].
    let mut cost_to = vec![0.0; path.len()];
    for i in 1..path.len() {
        cost_to[i] = cost_to[i - 1] + step_cost(coords[i - 1], coords[i]);
    }
    // straight_to[i]: the last cell of the straight line the path follows from cell i. A run to a
    // cell before it is that very stretch of path, never cheaper.
    let step = |i: usize| (coords[i + 1].0 - coords[i].0, coords[i + 1].1 - coords[i].1);
    let mut straight_to: Vec<usize> = (0..path.len()).collect();
    for i in (0..path.len().saturating_sub(1)).rev() {
        straight_to[i] = if i + 2 < path.len() && step(i) == step(i + 1) { straight_to[i + 1] } else { i + 1 };
    }
    let window = 3 * reach as usize;
    let lines = Lines::new(coords);
    // Per line, where in `members` its cells past the window begin, as far as known: windows
    // only move forward, so this does too, and finding a window's end costs nothing per look (a
    // binary search for it took 15% of smoothing on a 1-wide maze).
    let mut window_end = lines.line_start.clone();
    let coords = &lines.coords;
    let reach = reach as i64;
    let mut out = Vec::with_capacity(path.len());
    // The cost of `out`, added up step by step in path order as `path_cost` would.
    let mut cost = 0.0;
    // A run is never longer than the path it replaces.
    let mut rays = Rays::new((reach as usize).min(path.len()));
    let mut next_joint = 0;
    let mut i = 0;
    while i + 1 < path.len() {
        out.push(path[i]);
        let (x, y) = coords[i];
        next_joint += joints[next_joint..].iter().take_while(|&&joint| joint <= i).count();
        let past = joints.get(next_joint).map_or(path.len(), |&joint| joint).max(straight_to[i]);
        let last = (i + window).min(path.len() - 1);
        if past >= last {
            cost += step_cost(coords[i], coords[i + 1]);
            i += 1;
            continue;
        }
        rays.restart(x, y);
        let open = open_lines(graph, path[i]);
        let is_shortcut = |j: usize| {
            let (dx, dy) = (coords[j].0 - x, coords[j].1 - y);
            let steps = dx.abs().max(dy.abs());
            let detour = cost_to[j] - cost_to[i];
            // A run costs at least its steps' lengths (weights are at least 1): no run beats a
            // stretch of path that cheap, so it is not walked.
            let cheapest = steps as f64 * if dx != 0 && dy != 0 { SQRT2 } else { 1.0 };
            steps <= reach
                && cheapest + COST_EPSILON < detour
                && rays.run_cost(graph, dx, dy).is_some_and(|c| c + COST_EPSILON < detour)
        };
        // Past the next joint and the end of the straight stretch: the cells before are no shortcut.
        match lines.furthest_after(i, past, last, open, &mut window_end, is_shortcut) {
            Some(j) => {
                let (tx, ty) = coords[j];
                let (dx, dy) = ((tx - x).signum(), (ty - y).signum());
                let steps = (tx - x).abs().max((ty - y).abs());
                for k in 1..=steps {
                    let (from, to) = ((x + dx * (k - 1), y + dy * (k - 1)), (x + dx * k, y + dy * k));
                    cost += step_cost(from, to);
                    if k < steps {
                        out.push(grid.cell(to.0 as u32, to.1 as u32));
                    }
                }
                i = j;
            }
            None => {
                cost += step_cost(coords[i], coords[i + 1]);
                i += 1;
            }
        }
    }
    out.push(*path.last().expect("paths are never empty"));
    Smoothed { unsmoothed_cost: cost_to.last().copied().unwrap_or(0.0), path: out, cost }
}

/// A path after smoothing, with its cost and the cost of the path it came from, each added up
/// step by step as `path_cost` does: the query needs both, and walking both paths again to add
/// them up took a fifth to a quarter of smoothing's time on mazes (examples/bench_hierarchy).
#[derive(Debug, Clone, PartialEq)]
pub struct Smoothed {
    pub path: Vec<u32>,
    pub cost: f64,
    pub unsmoothed_cost: f64,
}

/// Which of the four lines through `cell` (as `Lines` numbers them) lead on to a neighbour: on a
/// winding path most lead into walls both ways, and their cells need no look.
fn open_lines(graph: &GridGraph, cell: u32) -> [bool; 4] {
    let width = graph.grid.width() as i64;
    if width < 3 {
        // Offsets of different lines coincide; look at all.
        return [true; 4];
    }
    let mut open = [false; 4];
    graph.for_each_neighbor(cell, |next, _| {
        let line = match (next as i64 - cell as i64).abs() {
            1 => 0,
            offset if offset == width => 1,
            offset if offset == width + 1 => 2,
            _ => 3,
        };
        open[line] = true;
    });
    open
}

/// The straight runs from one cell in the eight directions, walked only as far as asked and
/// once per cell: on a winding path many candidates share a ray, most of them behind a wall.
struct Rays {
    from: (i64, i64),
    reach: usize,
    /// Direction d's cost of its first k steps at `d * (reach + 1) + k`, for k up to `walked[d]`.
    costs: Vec<f64>,
    walked: [usize; 8],
    blocked: [bool; 8],
}

impl Rays {
    fn new(reach: usize) -> Rays {
        Rays { from: (0, 0), reach, costs: vec![0.0; 8 * (reach + 1)], walked: [0; 8], blocked: [false; 8] }
    }

    fn restart(&mut self, x: i64, y: i64) {
        self.from = (x, y);
        self.walked = [0; 8];
        self.blocked = [false; 8];
    }

    /// The cost of the straight run to the cell `(dx, dy)` away (on a ray, at most `reach`
    /// steps), if it is walkable.
    fn run_cost(&mut self, graph: &GridGraph, dx: i64, dy: i64) -> Option<f64> {
        let steps = dx.abs().max(dy.abs()) as usize;
        let (sx, sy) = (dx.signum(), dy.signum());
        let direction = ((sx + 1) * 3 + sy + 1) as usize;
        let direction = direction - usize::from(direction > 4);
        let costs = &mut self.costs[direction * (self.reach + 1)..][..self.reach + 1];
        let walked = &mut self.walked[direction];
        while *walked < steps && !self.blocked[direction] {
            let k = *walked as i64;
            let (x, y) = (self.from.0 + sx * k, self.from.1 + sy * k);
            match graph.step(x as u32, y as u32, sx, sy) {
                Some((_, cost)) => {
                    costs[*walked + 1] = costs[*walked] + cost;
                    *walked += 1;
                }
                None => self.blocked[direction] = true,
            }
        }
        (*walked >= steps).then(|| costs[steps])
    }
}

/// A path's cells filed by the four straight lines through each (row, column, both diagonals),
/// in path order: the later cells on the eight rays from a cell are the later cells on its
/// lines. On a winding path (a maze's) few are, so a cell is compared with those few rather than
/// with every cell of its window (which made smoothing 92% of a query on 1-wide mazes).
struct Lines {
    /// Path cell i's line of family f (0: row, 1: column, 2: x - y, 3: x + y) is number
    /// `line_of(f, i)`; its cells are `members[line_start[l]..line_start[l + 1]]` (l counted over
    /// all families), ascending.
    members: Vec<u32>,
    line_start: Vec<u32>,
    /// Where path cell i sits in `members` on its line of family f: at `f * n + i`.
    slot: Vec<u32>,
    /// Per family: its first line's number, and one past its last.
    family_lines: [usize; 5],
    corner: (i64, i64),
    span_y: i64,
    coords: Vec<(i64, i64)>,
}

impl Lines {
    /// Files the cells of a path whose coordinates are `coords`.
    fn new(coords: Vec<(i64, i64)>) -> Lines {
        let n = coords.len();
        let min_x = coords.iter().map(|c| c.0).min().unwrap_or(0);
        let min_y = coords.iter().map(|c| c.1).min().unwrap_or(0);
        let span_x = coords.iter().map(|c| c.0 - min_x).max().unwrap_or(0) as usize;
        let span_y = coords.iter().map(|c| c.1 - min_y).max().unwrap_or(0) as usize;
        let counts = [span_y + 1, span_x + 1, span_x + span_y + 1, span_x + span_y + 1];
        let mut family_lines = [0; 5];
        for family in 0..4 {
            family_lines[family + 1] = family_lines[family] + counts[family];
        }
        let mut lines = Lines {
            members: vec![0; 4 * n],
            line_start: vec![0; family_lines[4] + 1],
            slot: vec![0; 4 * n],
            family_lines,
            corner: (min_x, min_y),
            span_y: span_y as i64,
            coords,
        };
        // Count each line's cells, turn the counts into where each line ends, then fill each
        // line from its end backwards: it keeps path order, and `line_start` ends up true.
        for family in 0..4 {
            for i in 0..n {
                let line = lines.line_of(family, i);
                lines.line_start[line] += 1;
            }
        }
        lines.line_start[family_lines[4]] = 4 * n as u32;
        // The running sum kept in a register: adding the stored entry before made each step wait
        // for the last one's store (a sixth of smoothing's time on open 512x512 maps).
        let mut ends = 0;
        for count in &mut lines.line_start[..family_lines[4]] {
            ends += *count;
            *count = ends;
        }
        for family in 0..4 {
            for i in (0..n).rev() {
                let line = lines.line_of(family, i);
                lines.line_start[line] -= 1;
                let at = lines.line_start[line];
                lines.members[at as usize] = i as u32;
                lines.slot[family * n + i] = at;
            }
        }
        lines
    }

    fn line_of(&self, family: usize, i: usize) -> usize {
        let (x, y) = (self.coords[i].0 - self.corner.0, self.coords[i].1 - self.corner.1);
        let line = match family {
            0 => y,
            1 => x,
            2 => x - y + self.span_y,
            _ => x + y,
        };
        self.family_lines[family] + line as usize
    }

    /// The largest path index in `after + 1..=last` on one of the `open` lines through path
    /// cell `i` for which `accept` holds.
    /// `window_end[l]`: where line l's cells after the window begin in `members`, or before; calls
    /// come with `last` never smaller than the call before's.
    fn furthest_after(
        &self,
        i: usize,
        after: usize,
        last: usize,
        open: [bool; 4],
        window_end: &mut [u32],
        mut accept: impl FnMut(usize) -> bool,
    ) -> Option<usize> {
        let n = self.coords.len();
        let mut best: Option<usize> = None;
        for family in (0..4).filter(|&family| open[family]) {
            let from = self.slot[family * n + i] as usize + 1;
            let line = self.line_of(family, i);
            let (line_end, mut end) = (self.line_start[line + 1] as usize, window_end[line] as usize);
            while end < line_end && self.members[end] as usize <= last {
                end += 1;
            }
            window_end[line] = end as u32;
            let floor = best.map_or(after, |b| b.max(after));
            if let Some(&j) =
                self.members[from..end].iter().rev().take_while(|&&j| j as usize > floor).find(|&&j| accept(j as usize))
            {
                best = Some(j as usize);
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::path_cost;
    use crate::grid::{Grid, MoveRules};

    #[test]
    fn smoothing_straightens_a_staircase() {
        let grid = Grid::new(6, 6);
        let graph = GridGraph::new(&grid, MoveRules::MOVINGAI);
        // Right, right, down, down instead of two diagonals... then on to (4,4).
        let zigzag: Vec<u32> =
            [(0, 0), (1, 0), (2, 0), (2, 1), (2, 2), (3, 3), (4, 4)].iter().map(|&(x, y)| grid.cell(x, y)).collect();
        let every_cell: Vec<usize> = (0..zigzag.len()).collect();
        let smoothed = smooth(&graph, zigzag.clone(), &every_cell, 10);
        let straight: Vec<u32> = (0..5).map(|i| grid.cell(i, i)).collect();
        assert_eq!(smoothed.path, straight);
        assert_eq!(smoothed.cost, path_cost(&graph, &straight).unwrap());
        assert_eq!(smoothed.unsmoothed_cost, path_cost(&graph, &zigzag).unwrap());
        assert!(smoothed.cost < smoothed.unsmoothed_cost);
    }
}
