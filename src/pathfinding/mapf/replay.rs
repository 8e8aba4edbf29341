//! A multi-agent planner's recording replayed: the view after some of its events (the agent
//! searching and the states it expanded, the reservation table, the paths found so far) and the
//! line of the planner's pseudocode each event is at.

use super::{Conflict, MapfEvent, MapfSpec};
use crate::trace::Replay;

/// Where a space-time search began: agent, cell, time, and the window's end (WHCA*).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SearchStart {
    pub agent: usize,
    pub x: u32,
    pub y: u32,
    pub t: u32,
    pub until: Option<u32>,
}

/// What a planner's recording shows after some of its events.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct AgentsView {
    /// The search running (none yet, or a WHCA* window's table being set up).
    pub search: Option<SearchStart>,
    /// The states `[x, y, t]` the running search expanded, in order.
    pub expanded: Vec<[u32; 3]>,
    /// States the running search put on its open list.
    pub pushed: usize,
    /// The reservation table: `(agent, [x, y, t])`, a cell held at one time step.
    pub reserved: Vec<(usize, [u32; 3])>,
    /// Goals held forever: `(agent, [x, y, from])`.
    pub parked: Vec<(usize, [u32; 3])>,
    /// WHCA*: the window planned now, `(from, until)`.
    pub window: Option<(u32, u32)>,
    /// Every path found, in order: `(agent, [x, y, t] per step)`; a WHCA* agent has one per window.
    pub found: Vec<(usize, Vec<[u32; 3]>)>,
    pub failed: Vec<(usize, String)>,
    pub conflicts: Vec<Conflict>,
}

/// What stepping back over an event needs besides the event.
#[derive(Debug, Clone)]
pub enum Undo {
    /// The event added one entry (or one push): remove it.
    Added,
    /// A search began: the one before it.
    Search { before: Option<SearchStart>, expanded: Vec<[u32; 3]>, pushed: usize },
    /// A window began: the table and search before it.
    Window { before: Option<(u32, u32)>, search: Option<SearchStart>, table: Table },
}

type Table = (Vec<(usize, [u32; 3])>, Vec<(usize, [u32; 3])>);

impl Replay for AgentsView {
    type Event = MapfEvent;
    type Undo = Undo;

    fn apply(&mut self, event: &MapfEvent) -> Undo {
        match event {
            &MapfEvent::Search { agent, x, y, t, until } => {
                let before = self.search.replace(SearchStart { agent, x, y, t, until });
                let expanded = std::mem::take(&mut self.expanded);
                return Undo::Search { before, expanded, pushed: std::mem::replace(&mut self.pushed, 0) };
            }
            &MapfEvent::Window { t, until } => {
                let table = (std::mem::take(&mut self.reserved), std::mem::take(&mut self.parked));
                let search = self.search.take();
                return Undo::Window { before: self.window.replace((t, until)), search, table };
            }
            MapfEvent::Push { .. } => self.pushed += 1,
            &MapfEvent::Expand { x, y, t } => self.expanded.push([x, y, t]),
            MapfEvent::Found { agent, path, .. } => self.found.push((*agent, path.clone())),
            MapfEvent::Failed { agent, reason } => self.failed.push((*agent, reason.clone())),
            &MapfEvent::Reserve { agent, x, y, t } => self.reserved.push((agent, [x, y, t])),
            &MapfEvent::Park { agent, x, y, t } => self.parked.push((agent, [x, y, t])),
            MapfEvent::Conflict(conflict) => self.conflicts.push(conflict.clone()),
        }
        Undo::Added
    }

    fn revert(&mut self, done: &[MapfEvent], undo: Undo) {
        let Some(event) = done.last() else { return };
        match (event, undo) {
            (_, Undo::Search { before, expanded, pushed }) => {
                (self.search, self.expanded, self.pushed) = (before, expanded, pushed);
            }
            (_, Undo::Window { before, search, table }) => {
                (self.window, self.search) = (before, search);
                (self.reserved, self.parked) = table;
            }
            (MapfEvent::Push { .. }, _) => self.pushed -= 1,
            (MapfEvent::Expand { .. }, _) => drop(self.expanded.pop()),
            (MapfEvent::Found { .. }, _) => drop(self.found.pop()),
            (MapfEvent::Failed { .. }, _) => drop(self.failed.pop()),
            (MapfEvent::Reserve { .. }, _) => drop(self.reserved.pop()),
            (MapfEvent::Park { .. }, _) => drop(self.parked.pop()),
            (MapfEvent::Conflict(_), _) => drop(self.conflicts.pop()),
            (MapfEvent::Search { .. } | MapfEvent::Window { .. }, Undo::Added) => {}
        }
    }

    fn footprint(&self) -> usize {
        let steps: usize = self.found.iter().map(|(_, path)| path.len()).sum();
        std::mem::size_of::<Self>() + 16 * (self.expanded.len() + self.reserved.len() + self.parked.len() + steps)
    }
}

impl AgentsView {
    /// Where `agent` is at time `t` by the paths found so far: on the last one it began by `t`
    /// (WHCA* plans window after window), at its end once it is past it. `None` before any.
    pub fn position(&self, agent: usize, t: u32) -> Option<[u32; 2]> {
        self.positions(agent, t..=t).pop()
    }

    /// [`Self::position`] at each of `times`, those with one, in one pass over the agent's paths.
    pub fn positions(&self, agent: usize, times: std::ops::RangeInclusive<u32>) -> Vec<[u32; 2]> {
        // An agent's paths begin in time order (WHCA*'s rounds move forward).
        let paths: Vec<&[[u32; 3]]> =
            self.found.iter().filter(|(a, path)| *a == agent && !path.is_empty()).map(|(_, p)| &p[..]).collect();
        let (mut current, mut next) = (None, 0);
        times
            .filter_map(|t| {
                while next < paths.len() && paths[next][0][2] <= t {
                    (current, next) = (Some(paths[next]), next + 1);
                }
                let path = current?;
                let [x, y, _] = path[((t - path[0][2]) as usize).min(path.len() - 1)];
                Some([x, y])
            })
            .collect()
    }

    /// The cells reserved at time `t` and by whom: held at `t`, or parked by then.
    pub fn reserved_at(&self, t: u32) -> impl Iterator<Item = (usize, [u32; 2])> + '_ {
        let timed = self.reserved.iter().filter(move |(_, s)| s[2] == t);
        let parked = self.parked.iter().filter(move |(_, s)| s[2] <= t);
        timed.chain(parked).map(|&(agent, [x, y, _])| (agent, [x, y]))
    }

    /// The latest time any path found so far reaches.
    pub fn last_time(&self) -> u32 {
        self.found.iter().filter_map(|(_, path)| path.last().map(|s| s[2])).max().unwrap_or(0)
    }
}

/// Each planner's pseudocode, as the page shows it.
pub fn pseudocode(spec: MapfSpec) -> &'static [&'static str] {
    match spec {
        MapfSpec::Independent => &[
            "for each agent a, in priority order:",
            "    A* from start(a) to goal(a), alone on the map",
            "        expand the open cell with the lowest f = g + h",
            "        add its free neighbours to open",
            "    a follows its path, then waits at its goal (or fails)",
            "list the collisions: one cell at one t, or a swap",
        ],
        MapfSpec::Cooperative => &[
            "table := no reservations",
            "for each agent a, in priority order:",
            "    A* in space-time from (start(a), t = 0)",
            "        expand the open state (cell, t) with the lowest f = t + h",
            "        add wait or move to t + 1, unless reserved or a swap",
            "    until a is at goal(a) and nobody comes there later (or fails)",
            "    reserve each cell of a's path at its t, and goal(a) from then on",
        ],
        MapfSpec::Whca { .. } => &[
            "T := 0",
            "while some agent has not arrived:",
            "    table := the goals of the agents that arrived",
            "    for each travelling agent a, in priority order:",
            "        A* in space-time from (a's cell, T) until T + W",
            "            h := true distance to goal(a), by reverse resumable A*",
            "            expand the lowest f; add wait or move unless reserved or a swap",
            "        reserve a's cells in the window (or a fails)",
            "    every agent moves W/2 steps along its window; T := T + W/2",
        ],
    }
}

/// The line of [`pseudocode`] that `event` (the last applied, `view` after it) is at.
pub fn line(spec: MapfSpec, event: &MapfEvent, view: &AgentsView) -> usize {
    use MapfEvent::*;
    match spec {
        MapfSpec::Independent => match event {
            Search { .. } => 1,
            Expand { .. } => 2,
            Push { .. } => 3,
            Found { .. } | Failed { .. } | Reserve { .. } | Park { .. } | Window { .. } => 4,
            Conflict(_) => 5,
        },
        MapfSpec::Cooperative => match event {
            Search { .. } => 2,
            Expand { .. } => 3,
            Push { .. } => 4,
            Found { .. } | Failed { .. } => 5,
            Reserve { .. } | Park { .. } | Window { .. } | Conflict(_) => 6,
        },
        MapfSpec::Whca { .. } => match event {
            Window { .. } => 2,
            // Parked goals listed again as a window's table is set up, before its first search.
            Park { .. } if view.search.is_none() => 2,
            Search { .. } => 4,
            Push { .. } | Expand { .. } => 6,
            Found { .. } | Failed { .. } | Reserve { .. } | Park { .. } | Conflict(_) => 7,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::movingai::parse_map;
    use crate::pathfinding::mapf::Agent;
    use crate::trace::{Player, Recorder};

    /// Two agents crossing in a corridor with a side pocket, so the second must step aside.
    fn crossing() -> (crate::grid::Grid, Vec<Agent>) {
        let grid = parse_map("t", "type octile\nheight 2\nwidth 7\nmap\n.......\n@@@@.@@\n").unwrap();
        let agents = vec![Agent { start: (0, 0), goal: (6, 0) }, Agent { start: (6, 0), goal: (0, 0) }];
        (grid, agents)
    }

    #[test]
    fn stepping_back_restores_every_view_and_the_end_shows_the_plan() {
        let (grid, agents) = crossing();
        for spec in [MapfSpec::Independent, MapfSpec::Cooperative, MapfSpec::Whca { window: 2 }] {
            let mut recorder = Recorder::default();
            let plan = spec.plan(&grid, &agents, &mut recorder);
            let trace = recorder.finish();
            let mut player = Player::new(trace.clone(), AgentsView::default());
            let mut views = vec![player.view().clone()];
            while player.forward() {
                views.push(player.view().clone());
                let event = player.current_event().unwrap();
                assert!(line(spec, event, player.view()) < pseudocode(spec).len());
            }
            for step in (0..views.len()).rev() {
                player.seek(step);
                assert_eq!(player.view(), &views[step], "{spec} at step {step}");
            }
            player.seek(usize::MAX);
            for (agent, planned) in plan.agents.iter().enumerate() {
                let Some(path) = &planned.path else { continue };
                for (t, &cell) in path.iter().enumerate() {
                    let (x, y) = grid.coords(cell);
                    assert_eq!(player.view().position(agent, t as u32), Some([x, y]), "{spec}: agent {agent} at {t}");
                }
            }
            assert_eq!(player.view().conflicts, plan.conflicts);
            assert_eq!(spec == MapfSpec::Independent, !plan.conflicts.is_empty(), "{spec}: they meet head on");
            let mut failed: Vec<usize> = player.view().failed.iter().map(|(agent, _)| *agent).collect();
            failed.sort();
            assert_eq!(failed, plan.failed(), "{spec}");
        }
    }
}
