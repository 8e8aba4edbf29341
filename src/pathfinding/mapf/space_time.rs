//! A* in space-time for one agent, the search all the planners share: states are `(cell, t)`,
//! successors the four neighbours and the cell itself (a wait) at `t + 1`, each one step; the
//! reservation table decides which moves are allowed. The search ends when the agent can arrive
//! at its goal and stay there forever, or, in a window, at the window's last time step.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

use super::MapfEvent;
use super::reservations::ReservationTable;
use crate::grid::Grid;
use crate::trace::{Control, Tracer};

/// The agent's own move set: wait, then the four neighbours.
const MOVES: [(i64, i64); 5] = [(0, 0), (1, 0), (0, 1), (-1, 0), (0, -1)];

/// How far in time the search goes.
#[derive(Debug, Clone, Copy)]
pub(super) enum Horizon {
    /// Until the goal: from the table's [`ReservationTable::static_from`] on nothing changes
    /// with time, so all later times fold into that one layer. The states are then at most
    /// cells x (static_from + 1): the search ends, and ends empty only if no path exists at all.
    Unbounded,
    /// Until time `end` (WHCA*'s window): a state at `end` ends the search too.
    Until(u32),
}

/// One agent's search: from `start` at time `t0` to `goal`.
pub(super) struct Query<'a> {
    pub grid: &'a Grid,
    pub table: &'a ReservationTable,
    pub start: u32,
    pub t0: u32,
    pub goal: u32,
    pub horizon: Horizon,
}

pub(super) struct Outcome {
    /// The agent's cells from `t0` on, and whether the last is its goal, held forever.
    pub path: Option<(Vec<u32>, bool)>,
    pub expanded: usize,
    /// The tracer asked to stop.
    pub stopped: bool,
}

#[derive(Clone, Copy)]
struct Node {
    cell: u32,
    t: u32,
    g: u32,
    parent: Option<u32>,
    closed: bool,
}

/// The states seen so far and the open list.
#[derive(Default)]
struct Frontier {
    nodes: Vec<Node>,
    index: HashMap<(u32, u32), u32>,
    /// Lowest f first; among equal f the larger g (nearer the goal), then the earliest pushed.
    open: BinaryHeap<Reverse<(u32, Reverse<u32>, u32)>>,
}

impl Frontier {
    /// Opens the state `key` (at time `t` in `cell`) unless it is closed or open as cheaply.
    fn push(&mut self, key: (u32, u32), node: Node, h: u32) -> bool {
        let id = match self.index.get(&key) {
            Some(&id) if self.nodes[id as usize].closed || self.nodes[id as usize].g <= node.g => return false,
            Some(&id) => id,
            None => {
                self.nodes.push(node);
                let id = self.nodes.len() as u32 - 1;
                self.index.insert(key, id);
                id
            }
        };
        let g = node.g;
        self.nodes[id as usize] = node;
        self.open.push(Reverse((g + h, Reverse(g), id)));
        true
    }

    /// Takes the best open state off the list and closes it.
    fn pop(&mut self) -> Option<u32> {
        while let Some(Reverse((_, Reverse(g), id))) = self.open.pop() {
            let node = &mut self.nodes[id as usize];
            if !node.closed && node.g == g {
                node.closed = true;
                return Some(id);
            }
        }
        None
    }
}

/// Searches with `heuristic` (steps to the goal from a cell, `None` where the goal cannot be
/// reached), which must be consistent: the first state taken off the open list that ends the
/// search is then a cheapest one.
pub(super) fn search<T: Tracer<MapfEvent>>(
    query: &Query,
    mut heuristic: impl FnMut(u32) -> Option<u32>,
    tracer: &mut T,
) -> Outcome {
    let Query { grid, table, start, t0, goal, horizon } = *query;
    let fold = table.static_from().max(t0);
    let key = |cell: u32, t: u32| match horizon {
        Horizon::Unbounded => (cell, t.min(fold)),
        Horizon::Until(_) => (cell, t),
    };
    let mut frontier = Frontier::default();
    let mut push = |frontier: &mut Frontier, cell: u32, t: u32, parent: Option<u32>, tracer: &mut T| {
        let Some(h) = heuristic(cell) else { return };
        let g = t - t0;
        if frontier.push(key(cell, t), Node { cell, t, g, parent, closed: false }, h) {
            tracer.record(|| {
                let (x, y) = grid.coords(cell);
                MapfEvent::Push { x, y, t, g, h }
            });
        }
    };
    push(&mut frontier, start, t0, None, tracer);
    let mut expanded = 0;
    while let Some(id) = frontier.pop() {
        let Node { cell, t, .. } = frontier.nodes[id as usize];
        expanded += 1;
        tracer.record(|| {
            let (x, y) = grid.coords(cell);
            MapfEvent::Expand { x, y, t }
        });
        if tracer.control() == Control::Stop {
            return Outcome { path: None, expanded, stopped: true };
        }
        let arrived = cell == goal && table.is_free_from(goal, t);
        if arrived || matches!(horizon, Horizon::Until(end) if t >= end) {
            return Outcome { path: Some((path_to(&frontier.nodes, id), arrived)), expanded, stopped: false };
        }
        let (x, y) = grid.coords(cell);
        for (dx, dy) in MOVES {
            let (nx, ny) = (x as i64 + dx, y as i64 + dy);
            if !grid.is_passable(nx, ny) {
                continue;
            }
            let next = grid.cell(nx as u32, ny as u32);
            if table.can_move(cell, next, t) {
                push(&mut frontier, next, t + 1, Some(id), tracer);
            }
        }
    }
    Outcome { path: None, expanded, stopped: false }
}

/// The cells from the start to node `id`, one per time step.
fn path_to(nodes: &[Node], id: u32) -> Vec<u32> {
    let mut path = Vec::new();
    let mut at = Some(id);
    while let Some(id) = at {
        path.push(nodes[id as usize].cell);
        at = nodes[id as usize].parent;
    }
    path.reverse();
    path
}

/// Steps between two cells ignoring walls: consistent for 4-connected unit moves.
pub(super) fn manhattan(grid: &Grid, a: u32, b: u32) -> u32 {
    let ((ax, ay), (bx, by)) = (grid.coords(a), grid.coords(b));
    ax.abs_diff(bx) + ay.abs_diff(by)
}
