//! Cooperative A* (Silver 2005): agents plan one at a time in priority order, each by A* in
//! space-time (Manhattan distance as the heuristic) around the cells the agents before it
//! reserved, then reserves its own path: each cell at its time, and its goal forever from its
//! arrival. Each path is a shortest one given the reservations before it; an agent whose goal
//! cannot be reached around them fails.
//!
//! No time horizon is needed: once the last agent before it has arrived, the table no longer
//! changes, so the search folds all later times into one layer and ends after at most
//! cells x (that arrival time + 2) states. A failure means no path exists at all.

use super::reservations::{ReservationTable, reserve_path};
use super::space_time::{Horizon, Query, manhattan, search};
use super::{Agent, AgentPlan, MapfEvent, Plan, timed, unreachable_goal};
use crate::grid::{Grid, MoveRules};
use crate::trace::Tracer;

pub fn plan<T: Tracer<MapfEvent>>(grid: &Grid, agents: &[Agent], tracer: &mut T) -> Plan {
    let components = grid.components(MoveRules::FOUR);
    let mut table = ReservationTable::new();
    let mut plans = Vec::with_capacity(agents.len());
    let mut stopped = false;
    for (i, agent) in agents.iter().enumerate() {
        let (start, goal) = (agent.start_cell(grid), agent.goal_cell(grid));
        tracer.record(|| MapfEvent::Search { agent: i, x: agent.start.0, y: agent.start.1, t: 0, until: None });
        let mut expanded = 0;
        let path = match unreachable_goal(grid, &components, agent) {
            _ if stopped => Err("stopped".to_string()),
            Some(reason) => Err(reason),
            None => {
                let query = Query { grid, table: &table, start, t0: 0, goal, horizon: Horizon::Unbounded };
                let outcome = search(&query, |cell| Some(manhattan(grid, cell, goal)), tracer);
                expanded = outcome.expanded;
                stopped = outcome.stopped;
                match outcome.path {
                    Some((path, _)) => Ok(path),
                    None if stopped => Err("stopped".to_string()),
                    None => Err("no path around the reservations of the agents before it".to_string()),
                }
            }
        };
        plans.push(match path {
            Ok(path) => {
                tracer.record(|| MapfEvent::Found { agent: i, path: timed(grid, &path, 0), arrived: true });
                reserve_path(grid, &mut table, i, &path, 0, true, tracer);
                AgentPlan { path: Some(path), failure: None, expanded, heuristic_expanded: 0 }
            }
            Err(reason) => {
                tracer.record(|| MapfEvent::Failed { agent: i, reason: reason.clone() });
                AgentPlan::failed(reason, expanded)
            }
        });
    }
    Plan { agents: plans, conflicts: Vec::new() }
}
