//! Independent A*: each agent plans alone, as if the map were empty of the others. Its paths are
//! as short as paths get, and they collide: the plan lists every conflict between them.

use super::reservations::ReservationTable;
use super::space_time::{Horizon, Query, manhattan, search};
use super::{Agent, AgentPlan, MapfEvent, Plan, conflicts, unreachable_goal};
use crate::grid::{Grid, MoveRules};
use crate::trace::Tracer;

/// Each agent's A* path (in space-time against an empty table: times fold into one layer, so
/// this is plain A* on the 4-connected grid), and the conflicts between the paths.
pub fn plan<T: Tracer<MapfEvent>>(grid: &Grid, agents: &[Agent], tracer: &mut T) -> Plan {
    let components = grid.components(MoveRules::FOUR);
    let empty = ReservationTable::new();
    let mut plans = Vec::with_capacity(agents.len());
    for (i, agent) in agents.iter().enumerate() {
        let (start, goal) = (agent.start_cell(grid), agent.goal_cell(grid));
        tracer.record(|| MapfEvent::Search { agent: i, x: agent.start.0, y: agent.start.1, t: 0, until: None });
        if let Some(reason) = unreachable_goal(grid, &components, agent) {
            tracer.record(|| MapfEvent::Failed { agent: i, reason: reason.clone() });
            plans.push(AgentPlan::failed(reason, 0));
            continue;
        }
        let query = Query { grid, table: &empty, start, t0: 0, goal, horizon: Horizon::Unbounded };
        let outcome = search(&query, |cell| Some(manhattan(grid, cell, goal)), tracer);
        plans.push(match outcome.path {
            Some((path, _)) => {
                tracer.record(|| MapfEvent::Found { agent: i, path: super::timed(grid, &path, 0), arrived: true });
                AgentPlan { path: Some(path), failure: None, expanded: outcome.expanded, heuristic_expanded: 0 }
            }
            None => {
                let reason = "stopped".to_string();
                tracer.record(|| MapfEvent::Failed { agent: i, reason: reason.clone() });
                AgentPlan::failed(reason, outcome.expanded)
            }
        });
    }
    let mut plan = Plan { agents: plans, conflicts: Vec::new() };
    plan.conflicts = conflicts(grid, &plan.paths());
    for conflict in &plan.conflicts {
        tracer.record(|| MapfEvent::Conflict(conflict.clone()));
    }
    plan
}
