//! The polygon-map lesson: the constrained Delaunay triangulation of a map, its walkable faces,
//! TA* / TRA* searching over triangles and Polyanya over intervals of convex polygons (the
//! triangles or them merged), replayed step by step, the channel found, the funnel
//! pulling the path tight portal by portal, jump-and-walk locating the goal, and the agent radius
//! closing narrow gaps. Polygons can be drawn by clicking and saved. A grid map is triangulated
//! too, and grid A*'s octile path drawn beside the any-angle one.

mod canvas;
mod cell;
mod commands;
mod narration;
mod panels;
mod polyanya;
mod recording;
mod scene;

use std::sync::Arc;

use egui::emath::TSTransform;
use egui::{Pos2, Vec2};

use super::Lesson;
use super::history::{self, History, Step};
use super::replay_bar::{ReplayBar, ReplayCommand};
use super::widgets;
use super::worker::Job;
use crate::grid::Grid;
use crate::navmesh::funnel::FunnelView;
use crate::navmesh::merge::ConvexMesh;
use crate::navmesh::polyanya_view::PolyanyaView;
use crate::navmesh::reduction::Reduction;
use crate::navmesh::tastar::MeshSearchResult;
use crate::navmesh::walk::WalkView;
use crate::navmesh::{Navmesh, Outline, Point, PolygonMap};
use crate::pathfinding::search_trace::SearchSnapshot;
use crate::scene::Scene;
use crate::trace::{Player, Recorder};
use canvas::Transform;
pub use recording::{MeshJob, Recorded};

/// How many triangles jump-and-walk samples before it walks.
const WALK_SAMPLES: usize = 6;

/// The bundled polygon maps (the first one opens) and a grid map to compare with grid A*.
pub const MAPS: [&str; 4] = ["maps/pillars.json", "maps/narrow_corridor.json", "maps/u_hall.json", "maps/rooms128.map"];

pub use crate::navmesh::search::{MeshAlgorithm, MeshSearch, PolygonKind};

/// Which recording the step controls move through.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReplayKind {
    Search,
    Funnel,
    Walk,
}

impl ReplayKind {
    fn name(self) -> &'static str {
        match self {
            ReplayKind::Search => "Search",
            ReplayKind::Funnel => "Funnel",
            ReplayKind::Walk => "Point location",
        }
    }
}

/// A polygon map being drawn: closed rings (the boundary first, then holes) and the open one.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Drawing {
    pub rings: Vec<Vec<Point>>,
    pub current: Vec<Point>,
}

/// What a click or tap on the map places.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Endpoint {
    Goal,
    Start,
}

/// Every action of the page; controls, clicks and tests all go through [`NavmeshLab::apply`].
#[derive(Debug, Clone, PartialEq)]
pub enum MeshCommand {
    LoadMap(String),
    SetStart(Point),
    SetGoal(Point),
    /// What the next clicks and taps place (Shift+click always places the start).
    SetPlacing(Endpoint),
    SetRadius(f64),
    SetAlgorithm(MeshAlgorithm),
    /// The polygons Polyanya searches.
    SetPolygons(PolygonKind),
    SetRefine(bool),
    /// The replay bar acts on this recording.
    SetReplay(ReplayKind),
    Replay(ReplayCommand),
    /// Start drawing a new map (clicks add vertices) or stop.
    SetDrawing(bool),
    AddVertex(Point),
    CloseRing,
    /// Validate the drawn rings and, if they form a map, triangulate it; otherwise keep the map.
    UseDrawing,
    /// Save the current polygon map as JSON.
    SaveMap(String),
    /// Back to the drawing before the last point, closed ring or clearing, or forward again.
    History(Step),
}

/// Drawing edits kept for undo (each a copy of a few rings).
const DRAWING_UNDO_LIMIT: usize = 200;

pub struct NavmeshLab {
    map_path: String,
    /// The grid when the map is a grid map, for the octile comparison.
    grid: Option<Arc<Grid>>,
    /// Grid A*'s path between the start and goal cells: length and cell centres.
    grid_path: Option<(f64, Vec<Point>)>,
    mesh: Arc<Navmesh>,
    /// The mesh's bounding box, kept because every frame needs it.
    extent: (Point, Point),
    reduction: Arc<Reduction>,
    /// The polygons Polyanya searches on this mesh, of the kind they were made.
    convex: (PolygonKind, Arc<ConvexMesh>),
    error: Option<String>,
    start: Point,
    goal: Point,
    search: MeshSearch,
    result: Option<MeshSearchResult>,
    player: Player<SearchSnapshot>,
    /// Polyanya's search replayed (the Search replay when Polyanya runs).
    intervals: Player<PolyanyaView>,
    funnel: Player<FunnelView>,
    walk: Player<WalkView>,
    replay: ReplayKind,
    bar: ReplayBar,
    /// The current map as polygons, when it is one (for saving).
    polygons: Option<PolygonMap>,
    drawing: Option<Drawing>,
    /// The drawing before each point added, ring closed or clearing, to undo it.
    drawing_history: History<Drawing>,
    save_path: String,
    notice: Option<String>,
    /// Where the canvas was last painted, for clicks and tests.
    transform: Option<Transform>,
    /// The student's pan and zoom of the canvas (see `Transform::view`).
    view: TSTransform,
    /// The canvas's size when `view` was last drawn.
    view_size: Vec2,
    /// What a click or tap places: a touch screen has no Shift.
    placing: Endpoint,
    /// The recordings of the last query, while the worker makes them.
    job: Option<Job>,
    /// A scene's step, opened when the next recording arrives.
    scene_step: Option<crate::scene::Step>,
    /// Wakes the UI when the worker finishes (known after the first frame).
    repaint: Option<egui::Context>,
}

impl Default for NavmeshLab {
    fn default() -> Self {
        Self::new()
    }
}

/// A square room with one pillar, for when no map file can be read.
fn fallback_map() -> PolygonMap {
    PolygonMap {
        boundary: vec![[0.0, 0.0], [20.0, 0.0], [20.0, 20.0], [0.0, 20.0]],
        holes: vec![vec![[8.0, 8.0], [12.0, 8.0], [12.0, 12.0], [8.0, 12.0]]],
    }
}

fn mesh_extent(mesh: &Navmesh) -> (Point, Point) {
    mesh.vertices.iter().fold(([f64::MAX; 2], [f64::MIN; 2]), |(lo, hi), p| {
        ([lo[0].min(p[0]), lo[1].min(p[1])], [hi[0].max(p[0]), hi[1].max(p[1])])
    })
}

fn build(outline: &Outline, search: &MeshSearch) -> Result<Navmesh, String> {
    Navmesh::build(outline, search.refinement())
}

impl NavmeshLab {
    pub fn new() -> Self {
        let mesh = build(&fallback_map().outline(), &MeshSearch::default()).expect("the fallback map triangulates");
        let mut lab = Self {
            grid: None,
            grid_path: None,
            reduction: Arc::new(Reduction::new(&mesh)),
            convex: (PolygonKind::default(), Arc::new(PolygonKind::default().polygons(&mesh))),
            extent: mesh_extent(&mesh),
            mesh: Arc::new(mesh),
            map_path: String::new(),
            error: None,
            start: [0.0; 2],
            goal: [0.0; 2],
            search: MeshSearch::default(),
            result: None,
            player: Player::new(Recorder::new(0).finish(), SearchSnapshot::new(0)),
            intervals: Player::new(Recorder::new(0).finish(), PolyanyaView::default()),
            funnel: Player::new(Recorder::new(0).finish(), FunnelView::default()),
            walk: Player::new(Recorder::new(0).finish(), WalkView::default()),
            replay: ReplayKind::Search,
            bar: ReplayBar::new(20.0),
            polygons: None,
            drawing: None,
            drawing_history: History::new(DRAWING_UNDO_LIMIT),
            save_path: "maps/drawn.json".to_string(),
            notice: None,
            transform: None,
            view: TSTransform::IDENTITY,
            view_size: Vec2::ZERO,
            job: None,
            scene_step: None,
            repaint: None,
            placing: Endpoint::Goal,
        };
        lab.apply(MeshCommand::LoadMap(MAPS[0].to_string()));
        if let Some(error) = lab.error.take() {
            // Run from another folder, or a broken bundled map: a built-in room still teaches.
            let fallback = fallback_map();
            let mesh = build(&fallback.outline(), &lab.search).expect("the fallback map triangulates");
            lab.show_map(mesh, None, Some(fallback));
            lab.error = Some(format!("{error}; showing a small built-in room instead"));
        }
        lab
    }

    pub fn player(&self) -> &Player<SearchSnapshot> {
        &self.player
    }

    pub fn intervals(&self) -> &Player<PolyanyaView> {
        &self.intervals
    }

    /// The convex polygons Polyanya searches.
    pub fn polygons(&self) -> &ConvexMesh {
        &self.convex.1
    }

    /// The search replay shows Polyanya's intervals rather than triangles.
    fn polyanya(&self) -> bool {
        self.search.algorithm == MeshAlgorithm::Polyanya
    }

    pub fn funnel(&self) -> &Player<FunnelView> {
        &self.funnel
    }

    pub fn walk(&self) -> &Player<WalkView> {
        &self.walk
    }

    pub fn drawing(&self) -> Option<&Drawing> {
        self.drawing.as_ref()
    }

    /// Where map point `p` was on screen in the last frame.
    pub fn point_on_screen(&self, p: Point) -> Option<Pos2> {
        self.transform.map(|t| t.to_screen(p))
    }

    pub fn result(&self) -> Option<&MeshSearchResult> {
        self.result.as_ref()
    }

    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }

    pub fn mesh(&self) -> &Navmesh {
        &self.mesh
    }

    /// Grid A*'s octile path length on a grid map.
    pub fn grid_length(&self) -> Option<f64> {
        self.grid_path.as_ref().map(|(length, _)| *length)
    }
}

impl Lesson for NavmeshLab {
    fn scene(&self) -> Option<Scene> {
        Some(NavmeshLab::scene(self))
    }

    fn set_scene(&mut self, scene: &Scene) -> Result<(), String> {
        NavmeshLab::set_scene(self, scene)
    }

    fn is_busy(&self) -> bool {
        self.job.is_some()
    }

    fn copy_refused(&self) -> Option<String> {
        self.job.is_some().then(|| crate::app::STILL_RECORDING.to_string())
    }

    fn logic(&mut self, ctx: &egui::Context) {
        self.repaint.get_or_insert_with(|| ctx.clone());
        self.poll_job();
    }

    fn ui(&mut self, ui: &mut egui::Ui) {
        ui.heading("Polygon maps: triangulation, TA*, TRA*, Polyanya and the funnel");
        widgets::intro(
            ui,
            "navmesh-lab-intro",
            "Free space is cut into triangles whose corners are the map's corners (a constrained Delaunay \
             triangulation), so a huge open room costs a handful of nodes. TA* searches channels (strings of \
             triangles) and may reach a triangle along several; the funnel turns a channel into its shortest \
             path, bending only at corners. TRA* first peels off dead ends and treats each corridor as one \
             edge between decision points. Polyanya searches intervals of polygon edges seen from a root \
             corner, on the triangles or on them merged into convex polygons (fewer, larger). A round agent keeps its radius from every corner and cannot pass a \
             gap narrower than its width. A click or tap places the goal (or the start: pick it above the map, \
             or Shift+click); drag to pan, ctrl+wheel to zoom, on a touch screen two fingers pan and pinch.",
        );
        ui.separator();
        let mut commands = Vec::new();
        let mut replay = Vec::new();
        ReplayBar::keys(ui, &mut replay);
        commands.extend(replay.into_iter().map(MeshCommand::Replay));
        if self.drawing.is_some() {
            commands.extend(history::keys(ui).map(MeshCommand::History));
        }
        self.advance_playback(ui);
        let sentence = self.explanation();
        let pinned = |ui: &mut egui::Ui| widgets::Narration::pinned(ui, &sentence);
        widgets::side_panel_pinned(ui, "navmesh-lab-side", 0.36, pinned, |ui| {
            self.controls(ui, &mut commands);
            ui.separator();
            self.stats(ui, true);
            ui.separator();
            self.pseudocode(ui);
        });
        egui::CentralPanel::default().show(ui, |ui| {
            if let Some(job) = &self.job
                && widgets::progress(ui, &job.label, None, job.elapsed())
            {
                self.job = None;
            }
            self.legend(ui);
            if self.drawing.is_none() {
                self.placing_toggle(ui, &mut commands);
            }
            self.canvas(ui, &mut commands);
        });
        for command in commands {
            self.apply(command);
        }
    }
}
