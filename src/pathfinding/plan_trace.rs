//! Events of the hierarchical planners (HPA*, PRA*) and the view that replays them: the stage,
//! the search running in it, the corridor and the paths found so far.

use super::search_trace::{ClearedSearch, SearchEvent, SearchSnapshot};
use crate::grid::{Grid, GridGraph, LineStop, MoveRules};
use crate::trace::{Replay, Tracer};

/// Events of a hierarchical planner (HPA*, PRA*): the stage it is in, and the events of the
/// searches it runs there, whose node ids belong to that stage's graph.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum PlanEvent {
    /// A new stage begins on abstraction `level` (0 = the grid).
    Stage {
        level: usize,
        stage: PlanStage,
    },
    /// The nodes of `level` the next search there is confined to (PRA*'s corridor).
    Corridor {
        level: usize,
        nodes: Vec<u32>,
    },
    /// The straight line from start to goal stopped here, so the planner plans.
    LineBlocked(LineStop),
    Search(SearchEvent),
}

/// The stages of a hierarchical planner.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum PlanStage {
    /// The straight line from start to goal is tried first: free, it is a cheapest path.
    StraightLine,
    /// HPA*: the start is linked to the entrances of its cluster.
    LinkStart,
    /// HPA*: the goal is linked to the entrances of its cluster.
    LinkGoal,
    /// The search on the top level (HPA*: the abstract graph; PRA*: the plan level).
    AbstractSearch,
    /// HPA*: the abstract path is refined onto the level below.
    RefineAbstractPath,
    /// HPA*: each abstract edge becomes a grid path.
    RefineEdges,
    /// HPA*: the grid path is straightened.
    Smooth,
    /// PRA*: a search on a lower level inside the corridor.
    Refine,
    /// PRA*: the corridor held no path, so the whole level is searched.
    RefineWithoutCorridor,
}

impl PlanStage {
    pub fn name(self) -> &'static str {
        match self {
            PlanStage::StraightLine => "try the straight line",
            PlanStage::LinkStart => "link start to its cluster's entrances",
            PlanStage::LinkGoal => "link goal to its cluster's entrances",
            PlanStage::AbstractSearch => "abstract search",
            PlanStage::RefineAbstractPath => "refine the abstract path",
            PlanStage::RefineEdges => "refine abstract edges",
            PlanStage::Smooth => "smooth",
            PlanStage::Refine => "refine",
            PlanStage::RefineWithoutCorridor => "refine without corridor",
        }
    }
}

/// What a hierarchical plan shows at one step: the stage and its level, the search running in
/// it, the corridor it is confined to and the paths found so far. Node ids are those of the
/// stage's level, as in the events.
#[derive(Debug, Clone, PartialEq)]
pub struct PlanView {
    pub level: usize,
    /// `None` before the first stage.
    pub stage: Option<PlanStage>,
    /// The search of the current stage; each stage starts a new one.
    pub search: SearchSnapshot,
    pub corridor: Option<(usize, Vec<u32>)>,
    /// Each path found so far with its level: abstract paths, refined segments, the final path.
    pub found: Vec<(usize, Vec<u32>)>,
    /// Where the straight line from start to goal stopped, once tried.
    pub line_stop: Option<LineStop>,
}

/// How to take one [`PlanEvent`] back.
#[derive(Debug, Clone)]
pub enum PlanUndo {
    Stage {
        level: usize,
        stage: Option<PlanStage>,
        search: ClearedSearch,
    },
    Corridor(Option<(usize, Vec<u32>)>),
    LineBlocked(Option<LineStop>),
    /// Search events take themselves back; `found` says whether one added to `found`.
    Search {
        found: bool,
    },
}

impl PlanView {
    /// Before the first event; `node_count` bounds the node ids of every level.
    pub fn new(node_count: usize) -> Self {
        Self {
            level: 0,
            stage: None,
            search: SearchSnapshot::new(node_count),
            corridor: None,
            found: Vec::new(),
            line_stop: None,
        }
    }
}

impl Replay for PlanView {
    type Event = PlanEvent;
    type Undo = PlanUndo;

    fn apply(&mut self, event: &PlanEvent) -> PlanUndo {
        match event {
            PlanEvent::Stage { level, stage } => PlanUndo::Stage {
                level: std::mem::replace(&mut self.level, *level),
                stage: self.stage.replace(*stage),
                search: self.search.clear(),
            },
            PlanEvent::Corridor { level, nodes } => PlanUndo::Corridor(self.corridor.replace((*level, nodes.clone()))),
            PlanEvent::LineBlocked(stop) => PlanUndo::LineBlocked(self.line_stop.replace(stop.clone())),
            PlanEvent::Search(event) => {
                let found = if let SearchEvent::Found { path, .. } = event {
                    self.found.push((self.level, path.clone()));
                    true
                } else {
                    false
                };
                self.search.apply(event);
                PlanUndo::Search { found }
            }
        }
    }

    fn footprint(&self) -> usize {
        let found: usize = self.found.iter().map(|(_, path)| path.len() * 4).sum();
        self.search.footprint() + found
    }

    fn revert(&mut self, done: &[PlanEvent], undo: PlanUndo) {
        match undo {
            PlanUndo::Stage { level, stage, search } => {
                (self.level, self.stage) = (level, stage);
                self.search.restore(search);
            }
            PlanUndo::Corridor(corridor) => self.corridor = corridor,
            PlanUndo::LineBlocked(stop) => self.line_stop = stop,
            PlanUndo::Search { found } => {
                if found {
                    self.found.pop();
                }
                let Some((PlanEvent::Search(event), earlier)) = done.split_last() else {
                    unreachable!("a search undo record belongs to a search event")
                };
                // The stage's search began at its `Stage` event.
                let stage_so_far = earlier.iter().rev().take_while(|e| !matches!(e, PlanEvent::Stage { .. }));
                let searched = stage_so_far.filter_map(|e| match e {
                    PlanEvent::Search(event) => Some(event),
                    _ => None,
                });
                self.search.take_back(event, searched);
            }
        }
    }
}

/// The straight line from `start` to `goal` when it is a cheapest path (see
/// [`GridGraph::straight_path`]), else where it stopped: a stage of its own, with the path or the
/// stop. HPA* and PRA* try it first: on open ground, where A* walks straight to the goal, their
/// levels cost more than that walk (bg512's open maps ran at 0.6x and 0.33x A*).
pub(crate) fn straight_line(
    grid: &Grid,
    rules: MoveRules,
    start: u32,
    goal: u32,
    tracer: &mut impl Tracer<PlanEvent>,
) -> Result<(f64, Vec<u32>), LineStop> {
    tracer.record(|| PlanEvent::Stage { level: 0, stage: PlanStage::StraightLine });
    let line = GridGraph::new(grid, rules).straight_path(start, goal);
    match &line {
        Ok((cost, path)) => tracer.record(|| PlanEvent::Search(SearchEvent::Found { cost: *cost, path: path.clone() })),
        Err(stop) => tracer.record(|| PlanEvent::LineBlocked(stop.clone())),
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::MoveRules;
    use crate::pathfinding::SearchSpace;
    use crate::pathfinding::pra::{PraOptions, Pyramid};
    use crate::trace::{Player, Recorder};

    #[test]
    fn plan_view_replays_pra_levels_forward_and_back() {
        let grid = crate::grid::generate::maze(32, 32, 1, 5);
        let cells = grid.passable_cells();
        let (start, goal) = (cells[0], *cells.last().unwrap());
        let pyramid = Pyramid::build(&grid, MoveRules::MOVINGAI);
        let mut recorder = Recorder::default();
        let result = pyramid.query(&grid, start, goal, PraOptions::default(), &mut SearchSpace::new(), &mut recorder);
        let mut player = Player::new(recorder.finish(), PlanView::new(grid.cell_count() + 1));
        let mut levels = Vec::new();
        // The view just before each new stage, to compare with on the way back.
        let mut before_stages = Vec::new();
        loop {
            if matches!(player.trace().events.get(player.step()), Some(PlanEvent::Stage { .. })) {
                before_stages.push((player.step(), player.view().clone()));
            }
            if !player.forward() {
                break;
            }
            if levels.last() != Some(&player.view().level) {
                levels.push(player.view().level);
            }
        }
        // The straight line, tried on the grid, then from the planning level down to the grid.
        let expected: Vec<usize> = std::iter::once(0).chain((0..=result.level).rev()).collect();
        assert_eq!(levels, expected, "the line, then from the planning level down to the grid");
        let view = player.view();
        assert_eq!(view.found.last().map(|(l, p)| (*l, p)), Some((0, &result.path.as_ref().unwrap().1)));
        assert_eq!(view.corridor.as_ref().map(|(l, c)| (*l, c)), Some((0, &result.corridors[0])));
        for (step, view) in before_stages.iter().rev() {
            player.seek(*step);
            assert_eq!(player.view(), view, "back before the stage at step {step}");
        }
        assert_eq!(player.view(), &PlanView::new(grid.cell_count() + 1));
    }
}
