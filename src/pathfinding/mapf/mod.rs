//! Multi-agent pathfinding: several agents, each with a start and a goal, move at once on a grid.
//!
//! **Model.** The grid is 4-connected and an agent may also wait; every move or wait takes one
//! time step. Two agents may not be in the same cell at the same time (a vertex conflict) nor
//! swap cells along an edge in the same step (an edge conflict). An agent that reaches its goal
//! stays there, so its cell stays reserved forever after it arrives; its cost is its arrival
//! time. Agents are given in priority order: starts must differ and goals must differ.
//!
//! **Planners**, one file each: [`independent`] A* per agent, blind to the others, to show the
//! collisions ([`conflicts`] lists them); [`cooperative`] A* (Silver 2005), each agent searched in
//! space-time against a [`reservations`] table holding the agents before it; and [`whca`]
//! (windowed hierarchical cooperative A*), which plans `window` steps at a time with a true
//! distance from reverse resumable A* ([`rra`]) beyond the window.
//!
//! **Failures** are per agent: an agent without a path gets a reason and no path, and is left out
//! of the plan (it reserves nothing, as if it never entered the map).

pub mod agents;
pub mod conflicts;
pub mod cooperative;
pub mod independent;
pub mod replay;
pub mod reservations;
pub mod rra;
mod space_time;
pub mod whca;

use std::fmt;
use std::str::FromStr;

use crate::grid::Grid;
use crate::spec_text::SpecText;
use crate::text::quote;
use crate::trace::Tracer;
pub use agents::Agent;
pub use conflicts::{Conflict, conflicts};

/// The multi-agent planners and their options, written `independent`, `cooperative` or
/// `whca:window=W`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MapfSpec {
    Independent,
    Cooperative,
    /// WHCA* with a window of `window` steps, replanned every `max(1, window / 2)` steps.
    Whca {
        window: u32,
    },
}

impl MapfSpec {
    /// Silver's experiments used windows of 8 to 32 steps.
    pub const DEFAULT_WINDOW: u32 = 8;
    /// Longer windows cost more per replan than cooperative A* does once.
    pub const MAX_WINDOW: u32 = 1024;

    pub fn validate(&self) -> Result<(), String> {
        match *self {
            MapfSpec::Whca { window } if !(1..=Self::MAX_WINDOW).contains(&window) => {
                Err(format!("window {window} is not a whole number from 1 to {}", Self::MAX_WINDOW))
            }
            _ => Ok(()),
        }
    }

    /// Plans every agent; see the module's model.
    pub fn plan<T: Tracer<MapfEvent>>(&self, grid: &Grid, agents: &[Agent], tracer: &mut T) -> Plan {
        match *self {
            MapfSpec::Independent => independent::plan(grid, agents, tracer),
            MapfSpec::Cooperative => cooperative::plan(grid, agents, tracer),
            MapfSpec::Whca { window } => whca::plan(grid, agents, window, tracer),
        }
    }
}

impl FromStr for MapfSpec {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let mut spec = SpecText::parse(text)?;
        let value = match spec.name {
            "independent" => MapfSpec::Independent,
            "cooperative" => MapfSpec::Cooperative,
            "whca" => MapfSpec::Whca { window: spec.value("window")?.unwrap_or(Self::DEFAULT_WINDOW) },
            other => {
                return Err(format!(
                    "unknown multi-agent planner '{}' (independent, cooperative, whca:window=W)",
                    quote(other)
                ));
            }
        };
        spec.done(value, MapfSpec::validate)
    }
}

impl fmt::Display for MapfSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            MapfSpec::Independent => crate::spec_text::write(f, "independent", &[]),
            MapfSpec::Cooperative => crate::spec_text::write(f, "cooperative", &[]),
            MapfSpec::Whca { window } => crate::spec_text::write(f, "whca", &[format!("window={window}")]),
        }
    }
}

crate::serde_as_text!(MapfSpec);

/// One agent's part of a plan.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct AgentPlan {
    /// The agent's cell at each time step from 0 to its arrival; after that it stays at the last.
    /// `None` when it failed.
    pub path: Option<Vec<u32>>,
    /// Why the agent has no path.
    pub failure: Option<String>,
    /// Space-time states expanded for this agent (WHCA*: over all its windows).
    pub expanded: usize,
    /// Cells the true-distance heuristic (RRA*) expanded for this agent (WHCA* only).
    pub heuristic_expanded: usize,
}

impl AgentPlan {
    fn failed(reason: String, expanded: usize) -> Self {
        Self { path: None, failure: Some(reason), expanded, heuristic_expanded: 0 }
    }

    /// The arrival time, if the agent has a path.
    pub fn cost(&self) -> Option<u32> {
        self.path.as_ref().map(|path| path.len() as u32 - 1)
    }
}

/// Every agent's path, in the agents' order, and the conflicts between them.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Plan {
    pub agents: Vec<AgentPlan>,
    /// Empty for cooperative A* and WHCA*; the collisions of independent A*.
    pub conflicts: Vec<Conflict>,
}

impl Plan {
    /// The agents' paths as [`conflicts`] reads them.
    pub fn paths(&self) -> Vec<Option<&[u32]>> {
        self.agents.iter().map(|agent| agent.path.as_deref()).collect()
    }

    pub fn sum_of_costs(&self) -> u64 {
        self.agents.iter().filter_map(AgentPlan::cost).map(u64::from).sum()
    }

    /// When the last agent arrives.
    pub fn makespan(&self) -> u32 {
        self.agents.iter().filter_map(AgentPlan::cost).max().unwrap_or(0)
    }

    /// The agents without a path, by index.
    pub fn failed(&self) -> Vec<usize> {
        self.agents.iter().enumerate().filter(|(_, agent)| agent.path.is_none()).map(|(i, _)| i).collect()
    }

    pub fn expanded(&self) -> usize {
        self.agents.iter().map(|agent| agent.expanded + agent.heuristic_expanded).sum()
    }
}

/// One step of a multi-agent planner, for replaying each agent's space-time search.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum MapfEvent {
    /// `agent` starts a space-time search from `(x, y)` at time `t`; WHCA* searches up to time
    /// `until` (the window's end), the others until the agent arrives.
    Search { agent: usize, x: u32, y: u32, t: u32, until: Option<u32> },
    /// The state `(x, y, t)` enters the open list with `g` steps so far and estimate `h`.
    Push { x: u32, y: u32, t: u32, g: u32, h: u32 },
    /// The state `(x, y, t)` leaves the open list and is expanded.
    Expand { x: u32, y: u32, t: u32 },
    /// The search found `path` (`[x, y, t]` per step) for `agent`; `arrived` is false for a
    /// WHCA* window that ends before the goal.
    Found { agent: usize, path: Vec<[u32; 3]>, arrived: bool },
    /// `agent` gets no path.
    Failed { agent: usize, reason: String },
    /// `agent` reserves `(x, y)` at time `t`.
    Reserve { agent: usize, x: u32, y: u32, t: u32 },
    /// `agent` reserves its goal `(x, y)` from time `t` on, forever.
    Park { agent: usize, x: u32, y: u32, t: u32 },
    /// WHCA*: a new window starts at time `t`; the table keeps only the parked agents, which
    /// `Park` events list again.
    Window { t: u32, until: u32 },
    /// Independent A*: a collision between two agents' paths.
    Conflict(Conflict),
}

/// `[x, y, t]` for each cell of a path whose first cell is at time `t0`.
pub fn timed(grid: &Grid, path: &[u32], t0: u32) -> Vec<[u32; 3]> {
    path.iter()
        .zip(t0..)
        .map(|(&cell, t)| {
            let (x, y) = grid.coords(cell);
            [x, y, t]
        })
        .collect()
}

/// Why `agent` cannot reach its goal even alone on the map, if it cannot.
fn unreachable_goal(grid: &Grid, components: &[u32], agent: &Agent) -> Option<String> {
    let (start, goal) = (agent.start_cell(grid), agent.goal_cell(grid));
    (components[start as usize] != components[goal as usize]).then(|| {
        format!(
            "goal ({},{}) cannot be reached from start ({},{}) on this map",
            agent.goal.0, agent.goal.1, agent.start.0, agent.start.1
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_read_back_as_written() {
        for text in ["independent", "cooperative", "whca:window=4"] {
            assert_eq!(text.parse::<MapfSpec>().unwrap().to_string(), text);
        }
        assert_eq!("whca".parse::<MapfSpec>(), Ok(MapfSpec::Whca { window: MapfSpec::DEFAULT_WINDOW }));
        assert!("whca:window=0".parse::<MapfSpec>().unwrap_err().contains("window 0"));
        assert!("whca:w=3".parse::<MapfSpec>().unwrap_err().contains("unknown option"));
        assert!("cbs".parse::<MapfSpec>().unwrap_err().contains("unknown multi-agent planner"));
    }
}
