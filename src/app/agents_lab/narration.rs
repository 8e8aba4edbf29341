//! What the page says about the plan: the sentence for the current event, the pseudocode with
//! its line, and the statistics (sum of costs, makespan, expansions per agent, failures).

use egui::RichText;

use super::canvas::{COLLISION, agent_colour, expanded_colour};
use super::{AgentsLab, Shown};
use crate::app::widgets;
use crate::pathfinding::mapf::replay::{line, pseudocode};
use crate::pathfinding::mapf::{Conflict, MapfEvent};

/// The time step an event is about, if it is about one.
pub fn event_time(event: &MapfEvent) -> Option<u32> {
    match event {
        MapfEvent::Search { t, .. }
        | MapfEvent::Push { t, .. }
        | MapfEvent::Expand { t, .. }
        | MapfEvent::Reserve { t, .. }
        | MapfEvent::Park { t, .. }
        | MapfEvent::Window { t, .. } => Some(*t),
        MapfEvent::Found { path, .. } => path.last().map(|step| step[2]),
        MapfEvent::Conflict(Conflict::Vertex { t, .. } | Conflict::Edge { t, .. }) => Some(*t),
        MapfEvent::Failed { .. } => None,
    }
}

/// The sentence for `event`, numbering agents from 1 as the map does.
fn sentence(shown: &Shown, event: &MapfEvent) -> String {
    let view = shown.player.view();
    match event {
        MapfEvent::Search { agent, x, y, t, until } => {
            let window = until.map_or(String::new(), |until| format!(" up to t = {until}"));
            format!(
                "Agent {} searches space-time from ({x},{y}) at t = {t}{window}, around {} reservations.",
                agent + 1,
                view.reserved.len() + view.parked.len()
            )
        }
        MapfEvent::Push { x, y, t, g, h } => {
            format!("({x},{y}) at t = {t} goes on the open list: g = {g}, h = {h}, f = {}.", g + h)
        }
        MapfEvent::Expand { x, y, t } => {
            let agent = view.search.map_or(0, |search| search.agent + 1);
            let count = view.expanded.len();
            format!("Agent {agent} expands ({x},{y}) at t = {t}, state {count} of this search: the lowest f.")
        }
        MapfEvent::Found { agent, path, arrived } => {
            let end = path.last().map_or(0, |step| step[2]);
            let expanded = view.expanded.len();
            match arrived {
                true => format!("Agent {} reaches its goal at t = {end}, after {expanded} expansions.", agent + 1),
                false => format!("Agent {} plans to t = {end}, the window's end ({expanded} expansions).", agent + 1),
            }
        }
        MapfEvent::Failed { agent, reason } => format!("Agent {} fails: {reason}.", agent + 1),
        MapfEvent::Reserve { agent, x, y, t } => format!("Agent {} reserves ({x},{y}) at t = {t}.", agent + 1),
        MapfEvent::Park { agent, x, y, t } => {
            format!("Agent {} holds its goal ({x},{y}) from t = {t} on.", agent + 1)
        }
        MapfEvent::Window { t, until } => {
            format!("A new window, t = {t} to {until}: the table keeps only the goals of agents that arrived.")
        }
        MapfEvent::Conflict(Conflict::Vertex { a, b, cell: (x, y), t }) => {
            format!("Collision: agents {} and {} are both at ({x},{y}) at t = {t}.", a + 1, b + 1)
        }
        MapfEvent::Conflict(Conflict::Edge { a, b, from, to, t }) => format!(
            "Collision: agents {} and {} swap ({},{}) and ({},{}) between t = {t} and {}.",
            a + 1,
            b + 1,
            from.0,
            from.1,
            to.0,
            to.1,
            t + 1
        ),
    }
}

impl AgentsLab {
    pub(super) fn narration(&self) -> String {
        let Some(shown) = &self.shown else { return String::new() };
        match shown.player.current_event() {
            Some(event) => sentence(shown, event),
            None => {
                format!("{} agents, planned by {}: press Step to follow the planner.", self.agents.len(), shown.spec)
            }
        }
    }

    pub(super) fn pseudocode(&self, ui: &mut egui::Ui) {
        let Some(shown) = &self.shown else { return };
        let current = shown.player.current_event().map(|event| line(shown.spec, event, shown.player.view()));
        widgets::pseudocode(ui, pseudocode(shown.spec).iter().copied(), &[current]);
    }

    /// The plan's totals, then a row per agent: its cost, its expansions, or why it failed.
    pub(super) fn stats(&self, ui: &mut egui::Ui) {
        let Some(shown) = &self.shown else { return };
        let plan = &shown.plan;
        ui.label(format!("Step {} / {}", shown.player.step(), shown.player.len()));
        ui.label(format!("Sum of costs: {}   Makespan: {}", plan.sum_of_costs(), plan.makespan()));
        let failed = plan.failed().len();
        ui.label(format!("Agents: {}   failed: {failed}   expanded: {}", plan.agents.len(), plan.expanded()));
        if !plan.conflicts.is_empty() {
            ui.label(format!("Collisions: {}", plan.conflicts.len()));
        }
        let palette = crate::app::theme::palette(ui.ctx());
        widgets::legend(ui, &[(expanded_colour(&palette), "expanded by the search shown"), (COLLISION, "a collision")]);
        ui.weak("A disc is an agent at time t, a ring its goal, a square outline a cell reserved at t.");
        egui::Grid::new("agents-stats").striped(true).show(ui, |ui| {
            for heading in ["Agent", "Cost", "Expanded"] {
                ui.label(RichText::new(heading).strong());
            }
            ui.end_row();
            for (agent, planned) in plan.agents.iter().enumerate() {
                ui.horizontal(|ui| {
                    widgets::swatch(ui, agent_colour(agent));
                    ui.label((agent + 1).to_string());
                });
                match (&planned.failure, planned.cost()) {
                    (Some(reason), _) => ui.label(RichText::new(format!("failed: {reason}")).weak()),
                    (None, cost) => ui.label(cost.map_or("-".to_string(), |cost| cost.to_string())),
                };
                ui.label((planned.expanded + planned.heuristic_expanded).to_string());
                ui.end_row();
            }
        });
    }
}
