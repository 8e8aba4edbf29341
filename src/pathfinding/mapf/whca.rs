//! Windowed hierarchical cooperative A* (WHCA*, Silver 2005). Time runs in rounds. At the start
//! of each round (time `T`) the reservation table is cleared but for the agents that arrived,
//! which hold their goals forever. Each agent still travelling, in priority order, then searches
//! space-time from where it is up to time `T + window` around the reservations made so far this
//! round: the search ends when the agent can arrive and stay, or at a state at time
//! `T + window`, whose remaining cost beyond the window is the true distance to the goal given
//! by reverse resumable A* ([`super::rra`]), which is also the heuristic inside the window. The
//! agent reserves its window's cells; then every agent moves `max(1, window / 2)` steps along its
//! window (the replanning rule), and the next round starts.
//!
//! An agent that finds no move in a window, or is still travelling at time `2 x free cells +
//! agents` (the horizon: an agent held up forever, e.g. by an agent parked in a corridor, would
//! otherwise keep the rounds going), fails and leaves the plan: taking it away takes away
//! reservations only, so the other paths stay free of conflicts.

use super::reservations::{ReservationTable, reserve_path};
use super::rra::TrueDistance;
use super::space_time::{Horizon, Query, search};
use super::{Agent, AgentPlan, MapfEvent, Plan, timed, unreachable_goal};
use crate::grid::{Grid, MoveRules};
use crate::trace::Tracer;

/// Where an agent is in the rounds.
enum Progress {
    /// Moving; its cells so far, one per time step.
    Travelling(Vec<u32>),
    /// At its goal for good.
    Arrived(Vec<u32>),
    Failed(String),
}

pub fn plan<T: Tracer<MapfEvent>>(grid: &Grid, agents: &[Agent], window: u32, tracer: &mut T) -> Plan {
    let window = window.max(1);
    let step = (window / 2).max(1);
    let horizon = (2 * grid.passable_count() + agents.len()).min(u32::MAX as usize / 2) as u32;
    let components = grid.components(MoveRules::FOUR);
    let mut progress = Vec::with_capacity(agents.len());
    for (i, agent) in agents.iter().enumerate() {
        progress.push(match unreachable_goal(grid, &components, agent) {
            Some(reason) => {
                tracer.record(|| MapfEvent::Failed { agent: i, reason: reason.clone() });
                Progress::Failed(reason)
            }
            None => Progress::Travelling(vec![agent.start_cell(grid)]),
        });
    }
    let mut distances: Vec<TrueDistance> =
        agents.iter().map(|agent| TrueDistance::new(grid, agent.goal_cell(grid), agent.start_cell(grid))).collect();
    let mut expanded = vec![0; agents.len()];
    let mut now = 0;
    while progress.iter().any(|p| matches!(p, Progress::Travelling(_))) {
        if now >= horizon {
            give_up(&mut progress, &format!("not at its goal by the horizon t = {horizon}"), tracer);
            break;
        }
        let until = now + window;
        tracer.record(|| MapfEvent::Window { t: now, until });
        let mut table = ReservationTable::new();
        for (i, p) in progress.iter().enumerate() {
            if let Progress::Arrived(path) = p {
                reserve_path(grid, &mut table, i, &path[path.len() - 1..], path.len() as u32 - 1, true, tracer);
            }
        }
        let mut windows = vec![None; agents.len()];
        for i in 0..agents.len() {
            let Progress::Travelling(path) = &progress[i] else { continue };
            let start = *path.last().expect("a path has its start");
            let (x, y) = grid.coords(start);
            tracer.record(|| MapfEvent::Search { agent: i, x, y, t: now, until: Some(until) });
            let goal = agents[i].goal_cell(grid);
            let query = Query { grid, table: &table, start, t0: now, goal, horizon: Horizon::Until(until) };
            let distance = &mut distances[i];
            let outcome = search(&query, |cell| distance.distance(grid, cell), tracer);
            expanded[i] += outcome.expanded;
            let Some((cells, arrived)) = outcome.path else {
                let reason = match outcome.stopped {
                    true => "stopped".to_string(),
                    false => format!("no move within the window from ({x},{y}) at t = {now}"),
                };
                tracer.record(|| MapfEvent::Failed { agent: i, reason: reason.clone() });
                progress[i] = Progress::Failed(reason);
                if outcome.stopped {
                    give_up(&mut progress, "stopped", tracer);
                    break;
                }
                continue;
            };
            tracer.record(|| MapfEvent::Found { agent: i, path: timed(grid, &cells, now), arrived });
            reserve_path(grid, &mut table, i, &cells, now, arrived, tracer);
            windows[i] = Some((cells, arrived));
        }
        for (p, window) in progress.iter_mut().zip(windows) {
            let (Progress::Travelling(path), Some((cells, arrived))) = (&mut *p, window) else { continue };
            let moves = cells.len() - 1;
            path.extend_from_slice(&cells[1..=moves.min(step as usize)]);
            if arrived && moves <= step as usize {
                *p = Progress::Arrived(std::mem::take(path));
            }
        }
        now += step;
    }
    let plans = progress.into_iter().zip(expanded).zip(&distances).map(|((p, expanded), distance)| match p {
        Progress::Arrived(path) => {
            AgentPlan { path: Some(path), failure: None, expanded, heuristic_expanded: distance.expanded }
        }
        Progress::Failed(reason) => {
            AgentPlan { path: None, failure: Some(reason), expanded, heuristic_expanded: distance.expanded }
        }
        // The rounds end when no agent travels.
        Progress::Travelling(_) => AgentPlan::failed("still travelling".to_string(), expanded),
    });
    Plan { agents: plans.collect(), conflicts: Vec::new() }
}

/// Every agent still travelling fails for `reason`.
fn give_up<T: Tracer<MapfEvent>>(progress: &mut [Progress], reason: &str, tracer: &mut T) {
    for (agent, p) in progress.iter_mut().enumerate() {
        if matches!(p, Progress::Travelling(_)) {
            tracer.record(|| MapfEvent::Failed { agent, reason: reason.to_string() });
            *p = Progress::Failed(reason.to_string());
        }
    }
}
