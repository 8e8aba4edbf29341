//! The reservation table: which agent holds which cell at which time, and the goals held
//! forever by agents that arrived. Swaps are found from the cells alone: moving `from -> to`
//! between `t` and `t + 1` swaps with the agent that holds `to` at `t` and `from` at `t + 1`.

use std::collections::HashMap;

use super::MapfEvent;
use crate::grid::Grid;
use crate::trace::Tracer;

/// Cells reserved by time, and goals reserved from a time on.
#[derive(Debug, Clone, Default)]
pub struct ReservationTable {
    /// `(cell, t)` -> the agent there at time `t`.
    timed: HashMap<(u32, u32), usize>,
    /// cell -> the time from which an arrived agent holds it forever, and that agent.
    parked: HashMap<u32, (u32, usize)>,
    /// cell -> the latest time it is reserved in `timed`.
    last_timed: HashMap<u32, u32>,
    /// The latest time of any reservation or parking: from the next step on, only parked agents
    /// remain, and the table no longer changes with time. `None` for an empty table.
    latest: Option<u32>,
}

impl ReservationTable {
    pub fn new() -> Self {
        Self::default()
    }

    /// The agent holding `cell` at time `t`, if any.
    pub fn holder(&self, cell: u32, t: u32) -> Option<usize> {
        if let Some(&(from, agent)) = self.parked.get(&cell)
            && t >= from
        {
            return Some(agent);
        }
        self.timed.get(&(cell, t)).copied()
    }

    pub fn is_free(&self, cell: u32, t: u32) -> bool {
        self.holder(cell, t).is_none()
    }

    /// Whether an agent at `from` at time `t` may be at `to` at `t + 1` (`to == from`: wait).
    pub fn can_move(&self, from: u32, to: u32, t: u32) -> bool {
        if !self.is_free(to, t + 1) {
            return false;
        }
        from == to || self.holder(to, t).is_none_or(|other| self.holder(from, t + 1) != Some(other))
    }

    /// Whether an agent may arrive at `cell` at time `t` and stay there forever.
    pub fn is_free_from(&self, cell: u32, t: u32) -> bool {
        !self.parked.contains_key(&cell) && self.last_timed.get(&cell).is_none_or(|&last| last < t)
    }

    /// The first time from which the table no longer changes: [`Self::holder`] and
    /// [`Self::can_move`] answer the same for every later time.
    pub fn static_from(&self) -> u32 {
        self.latest.map_or(0, |t| t + 1)
    }

    pub fn reserve(&mut self, agent: usize, cell: u32, t: u32) {
        self.timed.insert((cell, t), agent);
        let last = self.last_timed.entry(cell).or_insert(t);
        *last = (*last).max(t);
        self.latest = self.latest.max(Some(t));
    }

    /// `agent` holds `cell` from time `t` on, forever.
    pub fn park(&mut self, agent: usize, cell: u32, t: u32) {
        self.parked.insert(cell, (t, agent));
        self.latest = self.latest.max(Some(t));
    }
}

/// Reserves `path` (its first cell at time `t0`) for `agent`, and its last cell forever from its
/// time on if the agent `arrived` there.
pub(super) fn reserve_path<T: Tracer<MapfEvent>>(
    grid: &Grid,
    table: &mut ReservationTable,
    agent: usize,
    path: &[u32],
    t0: u32,
    arrived: bool,
    tracer: &mut T,
) {
    let arrival = t0 + path.len() as u32 - 1;
    for (&cell, t) in path.iter().zip(t0..) {
        let (x, y) = grid.coords(cell);
        if arrived && t == arrival {
            table.park(agent, cell, t);
            tracer.record(|| MapfEvent::Park { agent, x, y, t });
        } else {
            table.reserve(agent, cell, t);
            tracer.record(|| MapfEvent::Reserve { agent, x, y, t });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn swaps_and_parked_goals_are_refused() {
        let mut table = ReservationTable::new();
        // Agent 0 moves 1 -> 2 between t = 3 and 4, then parks at 2.
        table.reserve(0, 1, 3);
        table.park(0, 2, 4);
        assert!(!table.can_move(2, 1, 3), "swap with agent 0");
        assert!(!table.can_move(5, 2, 3), "cell 2 is held from t = 4");
        assert!(table.can_move(1, 1, 1) && table.can_move(2, 3, 2));
        assert!(!table.is_free_from(1, 3) && table.is_free_from(1, 4) && !table.is_free_from(2, 100));
        assert_eq!(table.static_from(), 5);
        assert_eq!(ReservationTable::new().static_from(), 0, "an empty table never changes");
    }
}
