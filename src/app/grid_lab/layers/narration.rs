//! What the grid lesson says while stepping through a planner: each stage, each corridor, and the
//! events of the searches it runs, read from the replayed plan.

use super::{Answer, HierarchySettings, HierarchyState, PlannerChoice};
use crate::app::grid_lab::narration::{cell_name, sentence};
use crate::grid::{Grid, Obstacle};
use crate::pathfinding::plan_trace::{PlanEvent, PlanStage, PlanView};
use crate::pathfinding::planner::Prepared;
use crate::pathfinding::search_trace::SearchEvent;
use crate::text::counted;
use crate::trace::NO_NODE;

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
        // PRA*(k) aims below its plan level at a virtual node, one past the level's last, joined to
        // every node of the region it keeps one level up.
        let virtual_goal = match &*plan.abstraction {
            Prepared::Pra(pyramid) => Some(pyramid.node_count(grid, level) as u32),
            _ => None,
        };
        let name = |node: u32| match &*plan.abstraction {
            _ if Some(node) == virtual_goal => "the region kept one level up".to_string(),
            Prepared::Pra(pyramid) if level > 0 => {
                let (x, y) = pyramid.position(grid, level, node);
                format!("region {node} at ({x:.0},{y:.0})")
            }
            _ => cell_name(grid, node),
        };
        if player.at_end()
            && let PlanEvent::Search(SearchEvent::Found { cost, path }) = event
        {
            let cells = counted(path.len(), "cell", "cells");
            return Some(match &plan.answer {
                _ if view.stage == Some(PlanStage::StraightLine) => format!(
                    "The straight line is free, on plain ground: it costs the distance in open ground, which no path undercuts, so a path of cost {cost:.3} through {cells} is returned without planning."
                ),
                Answer::Pra(result) if !result.complete => {
                    format!(
                        "PRA*(k) returns the first {cells} of the way (cost {cost:.3}); the unit moves along them and plans again from their end."
                    )
                }
                Answer::Hpa(result) if view.stage == Some(PlanStage::Smooth) => {
                    let changed = result.unsmoothed_cost.filter(|refined| (refined - cost).abs() > 1e-9);
                    let refined = changed.map_or_else(String::new, |refined| {
                        format!(" (the refined path cost {refined:.3} before smoothing)")
                    });
                    format!("The plan is complete: a path of cost {cost:.3} through {cells}{refined} is returned.")
                }
                _ => format!("The plan is complete: a path of cost {cost:.3} through {cells} is returned."),
            });
        }
        if let PlanEvent::Search(SearchEvent::Found { cost, path }) = event
            && path.last() == virtual_goal.as_ref()
        {
            let nodes = counted(path.len() - 1, "node", "nodes");
            return Some(format!(
                "Level {level}: the search reaches the region kept one level up: a way of cost {cost:.3} through {nodes}."
            ));
        }
        Some(plan_sentence(settings, event, view, &name))
    }
}

/// The sentence for `event`, the last event applied to `view`; `name` names a node of the view's level.
fn plan_sentence(
    settings: &HierarchySettings,
    event: &PlanEvent,
    view: &PlanView,
    name: &dyn Fn(u32) -> String,
) -> String {
    let planner = settings.planner;
    // HPA* links start and goal on level 1 by the distances cached in their clusters (before any
    // search the stage may run straight to a goal in the start's cluster).
    if planner == PlannerChoice::Hpa
        && view.level == 0
        && view.search.expanded == 0
        && let (
            Some(stage @ (PlanStage::LinkStart | PlanStage::LinkGoal)),
            PlanEvent::Search(SearchEvent::Open { node, parent, g, .. }),
        ) = (view.stage, event)
        && *parent != NO_NODE
    {
        return match stage {
            PlanStage::LinkStart => format!(
                "Level 1: the start reaches entrance {} at cost {g:.3}, a distance cached inside its cluster.",
                name(*node)
            ),
            _ => format!(
                "Level 1: entrance {} reaches the goal at cost {g:.3}, a distance cached inside its cluster.",
                name(*node)
            ),
        };
    }
    if let PlanEvent::Search(SearchEvent::Found { cost, path }) = event
        && let (Some(stage @ (PlanStage::RefineEdges | PlanStage::RefineAbstractPath)), Some(&first), Some(&last)) =
            (view.stage, path.first(), path.last())
    {
        // Not a search reaching its goal: a piece of the path from the cache, or the path one level down.
        return match stage {
            PlanStage::RefineEdges => format!(
                "Level 0: the abstract step from {} to {} becomes its grid path inside the cluster: {}, cost {cost:.3}.",
                name(first),
                name(last),
                counted(path.len(), "cell", "cells")
            ),
            _ => format!(
                "The abstract path on level {}: {}, cost {cost:.3} as on the level above.",
                view.level,
                counted(path.len(), "node", "nodes")
            ),
        };
    }
    match event {
        PlanEvent::Stage { level, stage } => stage_sentence(planner, *level, *stage),
        PlanEvent::LineBlocked(stop) => {
            let at = name(stop.cell);
            let why = match stop.obstacle {
                Obstacle::Wall => format!("a wall at {at}"),
                Obstacle::Corner => format!("the corner of the wall at {at}, which a diagonal step may not cut"),
                Obstacle::Weight(weight) => {
                    format!("heavier ground (weight {weight}) at {at}, dearer than open ground")
                }
            };
            format!("The straight line is blocked by {why}: {} plans.", planner.name())
        }
        PlanEvent::Corridor { level, nodes } => {
            // PRA*(k) takes no rings: its next search only has to reach the next kept region.
            let rings = match (settings.pra_k, settings.pra_width) {
                (Some(_), _) | (None, 0) => String::new(),
                (None, width) => format!(" and {} of their neighbours", counted(width, "ring", "rings")),
            };
            if *level == 0 {
                let cells = counted(nodes.len(), "cell", "cells");
                return format!(
                    "The corridor on the grid: {cells}, those under the path one level up{rings} and the free cells around them; the next search may not leave it."
                );
            }
            let nodes = counted(nodes.len(), "node", "nodes");
            format!(
                "The corridor on level {level}: the {nodes} under the path one level up{rings}; the next search may not leave it."
            )
        }
        PlanEvent::Search(event) => {
            // Every level searches with plain A*.
            let order = crate::pathfinding::GridSearch::default().order();
            let text = format!("Level {}: {}", view.level, sentence(event, &view.search, order, name, view.level == 0));
            match event {
                SearchEvent::Found { path, .. }
                    if planner == PlannerChoice::Pra && view.level > 0 && path.len() == 1 =>
                {
                    format!(
                        "{text} Start and goal share this region, so the levels below search inside it (and its rings)."
                    )
                }
                _ => text,
            }
        }
    }
}

fn stage_sentence(planner: PlannerChoice, level: usize, stage: PlanStage) -> String {
    match stage {
        PlanStage::StraightLine => {
            "First the straight line from the start to the goal: if every move on it is free, on plain ground, \
             it costs the distance in open ground, which no path undercuts, and is returned without planning."
                .to_string()
        }
        // On level 1 the distances cached inside each cluster give the links; above, searches on the level below.
        PlanStage::LinkStart if level == 0 => {
            "Level 1: the start joins the abstract graph; the distances cached inside its cluster \
             give its cost to each entrance (a search runs only straight to a goal in the same cluster)."
                .to_string()
        }
        PlanStage::LinkGoal if level == 0 => {
            "Level 1: the goal joins the abstract graph; the distances cached inside its cluster \
             give its cost from each entrance, without a search."
                .to_string()
        }
        PlanStage::LinkStart | PlanStage::LinkGoal => {
            let end = if stage == PlanStage::LinkStart { "start" } else { "goal" };
            format!(
                "Level {}: the {end} joins the abstract graph, linked by searches on level {level} inside its cluster.",
                level + 1
            )
        }
        PlanStage::AbstractSearch if planner == PlannerChoice::Hpa => {
            format!("A* on level {level}'s abstract graph: its nodes are entrances, its edges paths inside clusters.")
        }
        PlanStage::AbstractSearch if level == 0 => {
            "Planning on level 0, the grid: plain A* from the start to the goal, no corridor.".to_string()
        }
        PlanStage::AbstractSearch => {
            format!("A* on level {level} between the regions that hold the start and the goal.")
        }
        PlanStage::RefineAbstractPath => format!("The abstract path is refined onto level {level}."),
        PlanStage::RefineEdges => {
            "Each abstract edge becomes the grid path cached for it inside its cluster.".to_string()
        }
        PlanStage::Smooth => {
            "Smoothing: detours in the grid path are replaced by straight runs where the way is free.".to_string()
        }
        PlanStage::Refine => {
            format!("Level {level}: the path found one level up is refined, by A* inside a corridor under it.")
        }
        PlanStage::RefineWithoutCorridor => {
            format!("Level {level}: the corridor held no path, so A* searches the whole level.")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pathfinding::search_trace::SearchEvent;

    #[test]
    fn a_pra_expansion_on_an_abstract_level_names_the_region_and_its_f_g_h() {
        let mut player = super::super::recorded_pra_plan();
        // The second expansion of the abstract search (on the plan level, above the grid).
        let expansions: Vec<usize> = (0..player.len())
            .filter(|&i| matches!(player.trace().events[i], PlanEvent::Search(SearchEvent::Expand { .. })))
            .collect();
        player.seek(expansions[1] + 1);
        let view = player.view();
        assert!(view.level > 0, "PRA* begins above the grid");
        let Some(PlanEvent::Search(SearchEvent::Expand { node })) = player.current_event() else { unreachable!() };
        let name = |n: u32| format!("region {n}");
        let settings = HierarchySettings { planner: PlannerChoice::Pra, ..HierarchySettings::default() };
        let text = plan_sentence(&settings, player.current_event().unwrap(), view, &name);
        let record = view.search.node(*node);
        assert!(text.starts_with(&format!("Level {}:", view.level)), "{text}");
        assert!(text.contains(&format!("region {node}")), "{text}");
        for number in [record.f(), record.g, record.h] {
            assert!(text.contains(&format!("{number:.3}")), "{number:.3} missing from {text}");
        }
        // The corridor's size is the event's; on the grid it counts the cells around as well.
        let corridors = (0..player.len()).filter(|&i| matches!(player.trace().events[i], PlanEvent::Corridor { .. }));
        for corridor in corridors.collect::<Vec<_>>() {
            player.seek(corridor + 1);
            let Some(PlanEvent::Corridor { level, nodes }) = player.current_event() else { unreachable!() };
            assert_eq!(player.view().level, *level, "the canvas shows the corridor's level as it is told");
            let text = plan_sentence(&settings, player.current_event().unwrap(), player.view(), &name);
            let size = if *level == 0 {
                format!("{} cells, those under", nodes.len())
            } else {
                format!("the {} nodes under", nodes.len())
            };
            assert!(text.contains(&size), "{text}");
        }
    }
}
