//! Recording a query on the worker: the search, the funnel over its channel, jump-and-walk and
//! grid A*'s path, and installing the recordings when they arrive.

use std::sync::Arc;

use super::{NavmeshLab, WALK_SAMPLES};
use crate::app::worker::{Job, Request, Response, shared};
use crate::grid::Grid;
use crate::navmesh::funnel::{FunnelEvent, FunnelView, channel_path};
use crate::navmesh::grid_outline::cell_centre;
use crate::navmesh::merge::ConvexMesh;
use crate::navmesh::polyanya_search::PolyanyaEvent;
use crate::navmesh::polyanya_view::PolyanyaView;
use crate::navmesh::reduction::Reduction;
use crate::navmesh::search::{MeshRecorder, MeshSearch};
use crate::navmesh::tastar::MeshSearchResult;
use crate::navmesh::walk::{WalkEvent, WalkView, jump_and_walk};
use crate::navmesh::{Navmesh, Point};
use crate::pathfinding::search_trace::{SearchEvent, SearchSnapshot};
use crate::pathfinding::{GridSearch, SearchSpace};
use crate::trace::{NoTrace, Player, Recorder, Trace};

/// What the worker sends back for one query.
#[derive(serde::Serialize, serde::Deserialize)]
pub struct Recorded {
    result: Result<MeshSearchResult, String>,
    search: Trace<SearchEvent>,
    /// Polyanya's search (empty for TA* and TRA*).
    intervals: Trace<PolyanyaEvent>,
    funnel: Trace<FunnelEvent>,
    walk: Trace<WalkEvent>,
    /// Grid A*'s path between the start and goal cells, on a grid map: length and cell centres.
    grid_path: Option<(f64, Vec<Point>)>,
}

/// One query to record, on the page's mesh (shared with a worker thread, copied to a Web Worker).
#[derive(serde::Serialize, serde::Deserialize)]
pub struct MeshJob {
    #[serde(with = "shared")]
    mesh: Arc<Navmesh>,
    #[serde(with = "shared")]
    reduction: Arc<Reduction>,
    #[serde(with = "shared")]
    polygons: Arc<ConvexMesh>,
    #[serde(with = "shared::optional")]
    grid: Option<Arc<Grid>>,
    search: MeshSearch,
    start: Point,
    goal: Point,
}

#[cfg(test)]
impl Recorded {
    pub fn path(&self) -> Option<&crate::navmesh::tastar::MeshPath> {
        self.result.as_ref().ok()?.path.as_ref()
    }

    pub fn grid_path(&self) -> Option<&(f64, Vec<Point>)> {
        self.grid_path.as_ref()
    }
}

impl MeshJob {
    pub fn run(self) -> Recorded {
        let meshes = (&*self.mesh, &*self.reduction, &*self.polygons);
        record(meshes, self.grid.as_deref(), &self.search, self.start, self.goal)
    }
}

/// Records the search and, if it finds a path, the funnel over its channel; jump-and-walk to the goal.
fn record(
    (mesh, reduction, polygons): (&Navmesh, &Reduction, &ConvexMesh),
    grid: Option<&Grid>,
    search: &MeshSearch,
    start: Point,
    goal: Point,
) -> Recorded {
    let mut recorder = MeshRecorder::default();
    let result = search.run(mesh, Some(reduction), Some(polygons), start, goal, &mut recorder);
    let mut funnel = Recorder::default();
    if let Ok(Some(path)) = result.as_ref().map(|result| &result.path) {
        channel_path(mesh, start, goal, &path.channel, search.radius, &mut funnel);
    }
    let mut walk = Recorder::default();
    jump_and_walk(mesh, goal, WALK_SAMPLES, &mut walk);
    let grid_path = grid.and_then(|grid| {
        let cell_at = |p: Point| {
            let (x, y) = (p[0].floor() as i64, p[1].floor() as i64);
            grid.is_passable(x, y).then(|| grid.cell(x as u32, y as u32))
        };
        let (start, goal) = (cell_at(start)?, cell_at(goal)?);
        let result = GridSearch::default().run(grid, start, goal, &mut SearchSpace::new(), &mut NoTrace);
        let (cost, cells) = result.path?;
        Some((cost, cells.into_iter().map(|c| cell_centre(grid, c)).collect()))
    });
    let (search, intervals) = (recorder.search.finish(), recorder.polyanya.finish());
    Recorded { result, search, intervals, funnel: funnel.finish(), walk: walk.finish(), grid_path }
}

impl NavmeshLab {
    /// Records the search, the funnel over its channel and the walk on the worker; the replays on
    /// screen stay until they arrive.
    pub(super) fn run(&mut self) {
        // A new query: the last one's message no longer applies.
        self.error = None;
        if self.convex.0 != self.search.mesh {
            self.convex = (self.search.mesh, Arc::new(self.search.mesh.polygons(&self.mesh)));
        }
        self.job = Some(Job::start("Recording the search", self.repaint.clone(), Request::Mesh(self.query())));
    }

    /// The query on screen, as a job.
    pub fn query(&self) -> MeshJob {
        let (mesh, reduction, grid) = (Arc::clone(&self.mesh), Arc::clone(&self.reduction), self.grid.clone());
        let polygons = Arc::clone(&self.convex.1);
        MeshJob { mesh, reduction, polygons, grid, search: self.search, start: self.start, goal: self.goal }
    }

    /// Installs the worker's recordings once they are in.
    pub(super) fn poll_job(&mut self) {
        let Some(Response::Mesh(recorded)) = Job::finish(&mut self.job, &mut self.error) else { return };
        self.player = Player::new(recorded.search, SearchSnapshot::new(self.mesh.triangles.len()));
        // Open on the outcome, the path drawn; Start or the timeline go back to watch it grow.
        self.player.seek(usize::MAX);
        self.intervals = Player::new(recorded.intervals, PolyanyaView::default());
        self.intervals.seek(usize::MAX);
        match recorded.result {
            Ok(result) => self.result = Some(result),
            Err(e) => {
                self.result = None;
                self.error = Some(e);
            }
        }
        self.funnel = Player::new(recorded.funnel, FunnelView::default());
        self.walk = Player::new(recorded.walk, WalkView::default());
        self.grid_path = recorded.grid_path;
        // A refused query has no steps: its reason stays the message.
        if let Some(step) = self.scene_step.take().filter(|_| self.result.is_some()) {
            self.open_scene_step(step);
        }
    }

    /// Forgets the replays of the previous map (their triangles are not this map's): until the new
    /// ones arrive, the bare map shows.
    pub(super) fn clear_replays(&mut self) {
        self.result = None;
        self.grid_path = None;
        self.player = Player::new(Recorder::new(0).finish(), SearchSnapshot::new(self.mesh.triangles.len()));
        self.intervals = Player::new(Recorder::new(0).finish(), PolyanyaView::default());
        self.funnel = Player::new(Recorder::new(0).finish(), FunnelView::default());
        self.walk = Player::new(Recorder::new(0).finish(), WalkView::default());
    }
}
