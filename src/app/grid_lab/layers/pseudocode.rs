//! HPA*'s and PRA*'s pseudocode, and the line each step of a recorded plan belongs to.

use super::{HierarchySettings, HierarchyState, PlannerChoice};
use crate::app::widgets;
use crate::pathfinding::plan_trace::{PlanEvent, PlanStage, PlanView};
use crate::pathfinding::search_trace::SearchEvent;
use crate::trace::Player;

impl HierarchyState {
    /// The planner's pseudocode with the line of the current step highlighted, while stepping
    /// through it; false (nothing drawn) otherwise.
    pub fn pseudocode(&self, ui: &mut egui::Ui, settings: &HierarchySettings) -> bool {
        let Some(player) = self.stepping(settings) else { return false };
        let lines: &[&str] = if settings.planner == PlannerChoice::Hpa { &HPA_PSEUDOCODE } else { &PRA_PSEUDOCODE };
        widgets::pseudocode(ui, lines.iter().copied(), &[plan_line(settings.planner, player)]);
        true
    }
}

const HPA_PSEUDOCODE: [&str; 8] = [
    "if every move on the straight line from start to goal is free, on plain ground: return it (a cheapest path)",
    "for each level: link start and goal to their cluster's entrances",
    "A* on the top level's abstract graph from start to goal:",
    "    expand the abstract node with the lowest f (one entered from inside its cluster: only its border crossings)",
    "refine the abstract path to the level below",
    "for each abstract edge: its cached path inside the cluster",
    "smooth: replace detours by straight runs",
    "return the path",
];

const PRA_PSEUDOCODE: [&str; 9] = [
    "if every move on the straight line from start to goal is free, on plain ground: return it (a cheapest path)",
    "A* on level L between the parents of start and goal:",
    "    expand the abstract node with the lowest f",
    "for each level l from L - 1 down to the grid:",
    "    corridor := the nodes under level l + 1's path, W rings of its neighbours (PRA*(k): none) and, on the grid, the free cells around them",
    "    A* on level l inside the corridor (PRA*(k): the path above is cut after k steps)",
    "        expand the node with the lowest f",
    "    no way through the corridor: A* on the whole level",
    "return the grid path (PRA*(k): its first steps)",
];

/// The text of the planner's pseudocode line at the current step of `player`, trimmed: what the
/// label under the canvas names, so it always agrees with the highlighted line.
pub(super) fn plan_line_text(planner: PlannerChoice, player: &Player<PlanView>) -> Option<&'static str> {
    let lines: &[&'static str] = if planner == PlannerChoice::Hpa { &HPA_PSEUDOCODE } else { &PRA_PSEUDOCODE };
    plan_line(planner, player).map(|line| lines[line].trim().trim_end_matches(':'))
}

/// The planner's pseudocode line at the current step of `player`.
fn plan_line(planner: PlannerChoice, player: &Player<PlanView>) -> Option<usize> {
    let event = player.current_event()?;
    let expanding = matches!(event, PlanEvent::Search(SearchEvent::Expand { .. }));
    let stage = player.view().stage;
    match planner {
        _ if stage == Some(PlanStage::StraightLine) => Some(0),
        _ if player.at_end() => Some(if planner == PlannerChoice::Hpa { 7 } else { 8 }),
        PlannerChoice::Hpa => match stage {
            Some(PlanStage::AbstractSearch) => Some(2 + expanding as usize),
            Some(PlanStage::RefineAbstractPath) => Some(4),
            Some(PlanStage::RefineEdges) => Some(5),
            Some(PlanStage::Smooth) => Some(6),
            _ => Some(1),
        },
        PlannerChoice::Pra => match (stage, event) {
            (_, PlanEvent::Corridor { .. }) => Some(4),
            (Some(PlanStage::Refine), PlanEvent::Stage { .. }) => Some(3),
            (Some(PlanStage::AbstractSearch), _) => Some(1 + expanding as usize),
            (Some(PlanStage::Refine), _) => Some(5 + expanding as usize),
            (Some(PlanStage::RefineWithoutCorridor), _) => Some(7),
            _ => None,
        },
        PlannerChoice::Off => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pra_pseudocode_follows_the_stages() {
        let mut player = super::super::recorded_pra_plan();
        assert_eq!(plan_line(PlannerChoice::Pra, &player), None, "nothing before the first event");
        let mut lines = Vec::new();
        while player.forward() {
            let line = plan_line(PlannerChoice::Pra, &player).expect("every event has a line");
            // Every stage the planner records has its own line here: a new stage fails the test.
            let expected = match (player.current_event().unwrap(), player.view().stage) {
                (_, Some(PlanStage::StraightLine)) => 0,
                _ if player.at_end() => 8,
                (PlanEvent::Corridor { .. }, _) => 4,
                (PlanEvent::Stage { .. }, Some(PlanStage::Refine)) => 3,
                (PlanEvent::Search(SearchEvent::Expand { .. }), Some(PlanStage::AbstractSearch)) => 2,
                (_, Some(PlanStage::AbstractSearch)) => 1,
                (PlanEvent::Search(SearchEvent::Expand { .. }), Some(PlanStage::Refine)) => 6,
                (_, Some(PlanStage::Refine)) => 5,
                (_, Some(PlanStage::RefineWithoutCorridor)) => 7,
                (event, stage) => panic!("no expected line for {event:?} in stage {stage:?}"),
            };
            assert_eq!(line, expected);
            lines.push(line);
        }
        for line in [1, 2, 3, 4, 5, 6, 8] {
            assert!(lines.contains(&line), "line {line} is reached");
        }
    }
}
