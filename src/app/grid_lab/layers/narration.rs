//! What the grid lesson says while stepping through a planner: each stage, each corridor, and the
//! events of the searches it runs, read from the replayed plan.

use super::{HierarchySettings, HierarchyState, Planner};
use crate::app::grid_lab::narration::{Order, cell_name, sentence};
use crate::grid::Grid;
use crate::pathfinding::plan_trace::{PlanEvent, PlanStage};
use crate::pathfinding::planner::Prepared;

impl HierarchyState {
    /// The sentence for the planner's current step, while stepping through it.
    pub fn narration(&self, grid: &Grid, settings: &HierarchySettings) -> Option<String> {
        let player = self.stepping(settings)?;
        let plan = self.plan.as_ref()?;
        let view = player.view();
        let Some(event) = player.current_event() else {
            return Some(format!("Press Step > to watch {} plan.", settings.planner.name()));
        };
        let level = view.level;
        // HPA*'s events name grid cells on every level; PRA*'s name the regions of the stage's level.
        let name = |node: u32| match &*plan.abstraction {
            Prepared::Pra(pyramid) if level > 0 => {
                let (x, y) = pyramid.position(grid, level, node);
                format!("region {node} at ({x:.0},{y:.0})")
            }
            _ => cell_name(grid, node),
        };
        let text = match event {
            PlanEvent::Stage { level, stage } => stage_sentence(settings.planner, *level, *stage),
            PlanEvent::Corridor { level, nodes } => format!(
                "The corridor on level {level}: the {} nodes under the path one level up and their neighbours; \
                 the next search may not leave it.",
                nodes.len()
            ),
            PlanEvent::Search(event) => {
                let order = Order::LowestF { weight: 1.0, jumps: false };
                format!("Level {level}: {}", sentence(event, &view.search, order, &name))
            }
        };
        Some(if player.at_end() { format!("{text} The plan is complete: the path is returned.") } else { text })
    }
}

fn stage_sentence(planner: Planner, level: usize, stage: PlanStage) -> String {
    match stage {
        PlanStage::LinkStart => format!("Level {level}: the start joins the graph, linked by short searches to its cluster's entrances."),
        PlanStage::LinkGoal => format!("Level {level}: the goal joins the graph, linked by short searches to its cluster's entrances."),
        PlanStage::AbstractSearch if planner == Planner::Hpa => {
            format!("A* on level {level}'s abstract graph: its nodes are entrances, its edges paths inside clusters.")
        }
        PlanStage::AbstractSearch => format!("A* on level {level} between the regions that hold the start and the goal."),
        PlanStage::RefineAbstractPath => format!("The abstract path is refined onto level {level}."),
        PlanStage::RefineEdges => "Each abstract edge becomes the grid path cached for it inside its cluster.".to_string(),
        PlanStage::Smooth => "Smoothing: detours in the grid path are replaced by straight runs where the way is free.".to_string(),
        PlanStage::Refine => format!("Level {level}: A* again, inside the corridor under the path found one level up."),
        PlanStage::RefineWithoutCorridor => {
            format!("Level {level}: the corridor held no path, so A* searches the whole level.")
        }
    }
}
