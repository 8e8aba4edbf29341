//! The polygon-map lesson: the constrained Delaunay triangulation of a map, its walkable faces,
//! TA* / TRA* searching over triangles (replayed step by step), the channel found, the funnel
//! pulling the path tight portal by portal, jump-and-walk locating the goal, and the agent radius
//! closing narrow gaps. Polygons can be drawn by clicking and saved. A grid map is triangulated
//! too, and grid A*'s octile path drawn beside the any-angle one.

mod canvas;
mod cell;
mod narration;
mod scene;

use std::sync::Arc;

use egui::emath::TSTransform;
use egui::{Color32, Pos2, Sense, Vec2};

use super::Lesson;
use super::canvas_nav::Nav;
use super::history::{self, History, Step};
use super::replay_bar::{ReplayBar, ReplayCommand};
use super::worker::{Job, Request, Response, shared};
use super::{
    theme::{self, Palette},
    widgets,
};
use crate::grid::Grid;
use crate::navmesh::funnel::{FunnelEvent, FunnelView, channel_path};
use crate::navmesh::grid_outline::{cell_centre, snap_to_cell};
use crate::navmesh::polygon::hole_name;
use crate::navmesh::reduction::{Reduction, Role};
use crate::navmesh::tastar::MeshSearchResult;
use crate::navmesh::walk::{WalkEvent, WalkView, jump_and_walk};
use crate::navmesh::{Navmesh, Outline, Point, PolygonMap, Refinement, distance};
use crate::pathfinding::search_trace::{SearchEvent, SearchOutcome, SearchSnapshot};
use crate::pathfinding::{GridSearch, SearchSpace};
use crate::scene::Scene;
use crate::text::counted;
use crate::trace::{NoTrace, Player, Recorder, Trace};
use canvas::Transform;

/// How many triangles jump-and-walk samples before it walks.
const WALK_SAMPLES: usize = 6;

/// The bundled polygon maps (the first one opens) and a grid map to compare with grid A*.
pub const MAPS: [&str; 4] = ["maps/pillars.json", "maps/narrow_corridor.json", "maps/u_hall.json", "maps/rooms128.map"];

pub use crate::navmesh::search::{MeshAlgorithm, MeshSearch};

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
    error: Option<String>,
    start: Point,
    goal: Point,
    search: MeshSearch,
    result: Option<MeshSearchResult>,
    player: Player<SearchSnapshot>,
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

/// What the worker sends back for one query.
#[derive(serde::Serialize, serde::Deserialize)]
pub struct Recorded {
    result: Result<MeshSearchResult, String>,
    search: Trace<SearchEvent>,
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
        record(&self.mesh, &self.reduction, self.grid.as_deref(), &self.search, self.start, self.goal)
    }
}

/// Records the search and, if it finds a path, the funnel over its channel; jump-and-walk to the goal.
fn record(
    mesh: &Navmesh,
    reduction: &Reduction,
    grid: Option<&Grid>,
    search: &MeshSearch,
    start: Point,
    goal: Point,
) -> Recorded {
    let mut recorder = Recorder::default();
    let result = search.run(mesh, Some(reduction), start, goal, &mut recorder);
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
    Recorded { result, search: recorder.finish(), funnel: funnel.finish(), walk: walk.finish(), grid_path }
}

impl NavmeshLab {
    pub fn new() -> Self {
        let mesh = build(&fallback_map().outline(), &MeshSearch::default()).expect("the fallback map triangulates");
        let mut lab = Self {
            grid: None,
            grid_path: None,
            reduction: Arc::new(Reduction::new(&mesh)),
            extent: mesh_extent(&mesh),
            mesh: Arc::new(mesh),
            map_path: String::new(),
            error: None,
            start: [0.0; 2],
            goal: [0.0; 2],
            search: MeshSearch::default(),
            result: None,
            player: Player::new(Recorder::new(0).finish(), SearchSnapshot::new(0)),
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

    pub fn apply(&mut self, command: MeshCommand) {
        match command {
            MeshCommand::LoadMap(path) => {
                match scene::load(&path).and_then(|loaded| Ok((build(&loaded.outline, &self.search)?, loaded))) {
                    Ok((mesh, loaded)) => {
                        self.map_path = path;
                        // A drawing was over the old map; it does not belong to this one.
                        self.drawing = None;
                        self.show_map(mesh, loaded.grid, loaded.polygons);
                    }
                    // The map on screen stays; only the message changes.
                    Err(e) => self.error = Some(e),
                }
            }
            MeshCommand::SetStart(p) => {
                self.start = self.snap(p);
                self.run();
            }
            MeshCommand::SetGoal(p) => {
                self.goal = self.snap(p);
                self.run();
            }
            MeshCommand::SetPlacing(endpoint) => self.placing = endpoint,
            MeshCommand::SetRadius(radius) => {
                self.search.radius = radius.max(0.0);
                self.run();
            }
            MeshCommand::SetAlgorithm(algorithm) => {
                self.search.algorithm = algorithm;
                self.run();
            }
            MeshCommand::SetRefine(refine) => {
                self.search.min_angle = refine.then_some(Refinement::default().min_angle_deg);
                let path = self.map_path.clone();
                self.apply(MeshCommand::LoadMap(path));
            }
            MeshCommand::SetReplay(kind) => {
                self.replay = kind;
                self.bar.playing = false;
            }
            MeshCommand::Replay(command) => {
                let (step, len) = self.replay_position();
                if let Some(step) = self.bar.apply(command, step, len) {
                    self.seek(step);
                }
            }
            MeshCommand::SetDrawing(on) => {
                // Clearing a drawing can be undone; a new one starts with no history.
                match (&self.drawing, on) {
                    (Some(drawing), true) => self.drawing_history.record(drawing.clone()),
                    (None, true) => self.drawing_history = History::new(DRAWING_UNDO_LIMIT),
                    _ => {}
                }
                self.drawing = on.then(Drawing::default);
                self.notice = None;
            }
            MeshCommand::AddVertex(p) => {
                if let Some(drawing) = &mut self.drawing {
                    self.drawing_history.record(drawing.clone());
                    drawing.current.push(p);
                }
            }
            MeshCommand::CloseRing => {
                if let Some(drawing) = &mut self.drawing
                    && !drawing.current.is_empty()
                {
                    self.drawing_history.record(drawing.clone());
                    drawing.rings.push(std::mem::take(&mut drawing.current));
                }
            }
            MeshCommand::UseDrawing => {
                if let Some(drawing) = &self.drawing {
                    self.drawing_history.record(drawing.clone());
                }
                self.use_drawing();
            }
            MeshCommand::History(step) => {
                if let Some(drawing) = &mut self.drawing
                    && let Some(restored) = self.drawing_history.step(step, drawing.clone())
                {
                    *drawing = restored;
                }
            }
            MeshCommand::SaveMap(path) => match self.save(&path) {
                Ok(()) => {
                    self.notice = Some(format!("Saved {path}"));
                    self.error = None;
                }
                Err(e) => self.error = Some(e),
            },
        }
    }

    /// Moves the selected recording to `step`.
    fn seek(&mut self, step: usize) {
        match self.replay {
            ReplayKind::Search => self.player.seek(step),
            ReplayKind::Funnel => self.funnel.seek(step),
            ReplayKind::Walk => self.walk.seek(step),
        };
    }

    /// While the bar plays, moves the selected recording on by this frame's share.
    fn advance_playback(&mut self, ui: &egui::Ui) {
        let (step, len) = self.replay_position();
        if let Some(step) = self.bar.advance(ui, step, len) {
            self.seek(step);
            ui.ctx().request_repaint();
        }
    }

    /// (step, length) of the selected recording.
    fn replay_position(&self) -> (usize, usize) {
        match self.replay {
            ReplayKind::Search => (self.player.step(), self.player.len()),
            ReplayKind::Funnel => (self.funnel.step(), self.funnel.len()),
            ReplayKind::Walk => (self.walk.step(), self.walk.len()),
        }
    }

    fn show_map(&mut self, mesh: Navmesh, grid: Option<Grid>, polygons: Option<PolygonMap>) {
        self.extent = mesh_extent(&mesh);
        self.reduction = Arc::new(Reduction::new(&mesh));
        self.mesh = Arc::new(mesh);
        self.grid = grid.map(Arc::new);
        self.polygons = polygons;
        self.error = None;
        self.view = TSTransform::IDENTITY;
        self.clear_replays();
        self.place_endpoints();
        self.run();
    }

    /// The drawn rings as a map: the library's validation decides, and its message is shown.
    fn use_drawing(&mut self) {
        // Polygon maps are shown y-up; rings drawn over a grid map (y-down) are turned over so
        // the new map looks as drawn.
        let (lo, hi) = self.bounds();
        let y_down = self.grid.is_some();
        let Some(drawing) = &mut self.drawing else { return };
        if drawing.current.len() >= 3 {
            drawing.rings.push(std::mem::take(&mut drawing.current));
        }
        let Some((boundary, holes)) = drawing.rings.split_first() else {
            self.error = Some("Draw a boundary first: click its corners, then Close ring".to_string());
            return;
        };
        let as_drawn = |ring: &Vec<Point>| -> Vec<Point> {
            ring.iter().map(|&[x, y]| if y_down { [x, lo[1] + hi[1] - y] } else { [x, y] }).collect()
        };
        let map = PolygonMap { boundary: as_drawn(boundary), holes: holes.iter().map(as_drawn).collect() };
        match map.validated().and_then(|map| Ok((build(&map.outline(), &self.search)?, map))) {
            Ok((mesh, map)) => {
                self.drawing = None;
                self.map_path = "(drawn)".to_string();
                self.show_map(mesh, None, Some(map));
            }
            // The map on screen and the drawn rings stay; "Clear drawing" starts afresh.
            Err(e) => self.error = Some(format!("drawn map: {e}")),
        }
    }

    fn save(&self, path: &str) -> Result<(), String> {
        let map = self.polygons.as_ref().ok_or("only polygon maps (JSON or drawn) can be saved")?;
        let json = serde_json::to_string_pretty(map).map_err(|e| e.to_string())?;
        crate::files::write(path.as_ref(), json + "\n").map_err(|e| format!("{path}: cannot write: {e}"))
    }

    /// Start and goal at the centres of the walkable triangles nearest two opposite corners where
    /// the agent fits; when it fits nowhere on this map, the radius goes back to 0 (and says so).
    fn place_endpoints(&mut self) {
        let (lo, hi) = self.bounds();
        let mut centres: Vec<Point> = (0..self.mesh.triangles.len())
            .filter(|&t| self.mesh.triangles[t].walkable)
            .map(|t| self.snap(canvas::centre(&self.mesh, t as u32)))
            .collect();
        let nearest = |centres: &mut Vec<Point>, corner: Point, radius: f64| {
            centres.sort_by(|p, q| distance(*p, corner).total_cmp(&distance(*q, corner)));
            centres.iter().copied().find(|&p| radius == 0.0 || self.mesh.clearance(p) >= radius)
        };
        let radius = self.search.radius;
        match (nearest(&mut centres, lo, radius), nearest(&mut centres, hi, radius)) {
            (Some(start), Some(goal)) => (self.start, self.goal) = (start, goal),
            _ => {
                self.notice =
                    Some(format!("An agent of radius {radius} fits nowhere on this map: the radius is back to 0"));
                self.search.radius = 0.0;
                self.start = nearest(&mut centres, lo, 0.0).unwrap_or(lo);
                self.goal = nearest(&mut centres, hi, 0.0).unwrap_or(hi);
            }
        }
    }

    /// On a grid map, the centre of the cell holding `p`, so grid A* and TA* join the same points.
    fn snap(&self, p: Point) -> Point {
        snap_to_cell(self.grid.as_deref(), p)
    }

    fn bounds(&self) -> (Point, Point) {
        self.extent
    }

    /// Records the search, the funnel over its channel and the walk on the worker; the replays on
    /// screen stay until they arrive.
    fn run(&mut self) {
        // A new query: the last one's message no longer applies.
        self.error = None;
        self.job = Some(Job::start("Recording the search", self.repaint.clone(), Request::Mesh(self.query())));
    }

    /// The query on screen, as a job.
    pub fn query(&self) -> MeshJob {
        let (mesh, reduction, grid) = (Arc::clone(&self.mesh), Arc::clone(&self.reduction), self.grid.clone());
        MeshJob { mesh, reduction, grid, search: self.search, start: self.start, goal: self.goal }
    }

    /// Installs the worker's recordings once they are in.
    fn poll_job(&mut self) {
        let Some(Response::Mesh(recorded)) = Job::finish(&mut self.job, &mut self.error) else { return };
        self.player = Player::new(recorded.search, SearchSnapshot::new(self.mesh.triangles.len()));
        // Open on the outcome, the path drawn; Start or the timeline go back to watch it grow.
        self.player.seek(usize::MAX);
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
    fn clear_replays(&mut self) {
        self.result = None;
        self.grid_path = None;
        self.player = Player::new(Recorder::new(0).finish(), SearchSnapshot::new(self.mesh.triangles.len()));
        self.funnel = Player::new(Recorder::new(0).finish(), FunnelView::default());
        self.walk = Player::new(Recorder::new(0).finish(), WalkView::default());
    }

    fn controls(&mut self, ui: &mut egui::Ui, commands: &mut Vec<MeshCommand>) {
        ui.horizontal_wrapped(|ui| {
            ui.label("Map:");
            for map in MAPS {
                if ui.radio(self.map_path == map, map.trim_start_matches("maps/")).clicked() {
                    commands.push(MeshCommand::LoadMap(map.to_string()));
                }
            }
        });
        ui.horizontal(|ui| {
            let label = ui.label("Map file:");
            ui.text_edit_singleline(&mut self.map_path).labelled_by(label.id);
            if ui.button("Load map").clicked() {
                commands.push(MeshCommand::LoadMap(self.map_path.clone()));
            }
        });
        self.drawing_controls(ui, commands);
        if let Some(error) = &self.error {
            widgets::error(ui, error);
        } else if let Some(notice) = &self.notice {
            widgets::notice(ui, notice);
        }
        ui.separator();
        ui.horizontal_wrapped(|ui| {
            ui.label("Algorithm:");
            for algorithm in [MeshAlgorithm::Ta, MeshAlgorithm::Tra] {
                if ui.radio(self.search.algorithm == algorithm, algorithm.label()).clicked() {
                    commands.push(MeshCommand::SetAlgorithm(algorithm));
                }
            }
        });
        let mut refine = self.search.min_angle.is_some();
        if ui.checkbox(&mut refine, "Refine (no angle under 25 degrees)").changed() {
            commands.push(MeshCommand::SetRefine(refine));
        }
        let mut radius = self.search.radius;
        if ui.add(egui::Slider::new(&mut radius, 0.0..=2.0).text("Agent radius")).changed() {
            commands.push(MeshCommand::SetRadius(radius));
        }
        ui.separator();
        ui.horizontal_wrapped(|ui| {
            ui.label("Replay:");
            for kind in [ReplayKind::Search, ReplayKind::Funnel, ReplayKind::Walk] {
                if ui.radio(self.replay == kind, kind.name()).clicked() {
                    commands.push(MeshCommand::SetReplay(kind));
                }
            }
        });
        let (step, len) = self.replay_position();
        // An empty recording has no timeline to show (a 0..0 slider would sit mid-rail).
        if len == 0 {
            ui.label(self.nothing_to_replay());
            return;
        }
        let mut replay = Vec::new();
        self.bar.ui(ui, step, len, "event", &mut replay);
        commands.extend(replay.into_iter().map(MeshCommand::Replay));
    }

    /// Why the selected recording is empty.
    pub(super) fn nothing_to_replay(&self) -> &'static str {
        match self.replay {
            _ if self.job.is_some() => "Recording: the replay appears when it is done.",
            _ if self.error.is_some() => "Nothing to replay: the query was refused (the message above says why).",
            ReplayKind::Funnel => "Nothing to replay: no path was found, so there is no channel to pull tight.",
            ReplayKind::Search | ReplayKind::Walk => "Nothing to replay yet.",
        }
    }

    fn drawing_controls(&mut self, ui: &mut egui::Ui, commands: &mut Vec<MeshCommand>) {
        ui.horizontal_wrapped(|ui| match &self.drawing {
            None => {
                if ui.button("Draw a new map").clicked() {
                    commands.push(MeshCommand::SetDrawing(true));
                }
                let label = ui.label("Save as:");
                ui.text_edit_singleline(&mut self.save_path).labelled_by(label.id);
                if ui.button("Save map").clicked() {
                    commands.push(MeshCommand::SaveMap(self.save_path.clone()));
                }
            }
            Some(drawing) => {
                for (label, command) in [
                    ("Close ring", MeshCommand::CloseRing),
                    ("Triangulate drawing", MeshCommand::UseDrawing),
                    ("Clear drawing", MeshCommand::SetDrawing(true)),
                    ("Stop drawing", MeshCommand::SetDrawing(false)),
                ] {
                    if ui.button(label).clicked() {
                        commands.push(command);
                    }
                }
                commands.extend(history::buttons(ui, &self.drawing_history).map(MeshCommand::History));
                // Holes named as the map's validation messages and the canvas name them.
                let next = if drawing.rings.is_empty() {
                    "the boundary".to_string()
                } else {
                    hole_name(drawing.rings.len() - 1)
                };
                ui.label(format!(
                    "Click the corners of {next} ({} so far); click its first corner or Close ring to close it.",
                    drawing.current.len()
                ));
            }
        });
    }

    /// `offer_grid`: say that a grid map adds grid A*'s path (not on a lecture's slide).
    fn stats(&self, ui: &mut egui::Ui, offer_grid: bool) {
        let view = self.player.view();
        ui.label(format!("Step {} / {}", self.player.step(), self.player.len()));
        ui.label(format!("Expanded: {}", view.expanded));
        let walkable = self.mesh.walkable_count();
        let dropped = self.mesh.triangles.len() - walkable;
        ui.label(format!("Walkable triangles: {walkable} ({dropped} more fill obstacles: dropped)"));
        ui.label(format!(
            "TRA* roles: decision points {}   corridor {}   dead ends {}",
            self.reduction.count(Role::Decision),
            self.reduction.count(Role::Corridor),
            self.reduction.count(Role::DeadEnd)
        ));
        ui.label(match &view.outcome {
            Some(SearchOutcome::Found { cost, path }) => {
                format!("Path found: length {cost:.3} through {}", counted(path.len(), "triangle", "triangles"))
            }
            Some(SearchOutcome::Exhausted) => "No path: every channel is closed".to_string(),
            None => "No result yet at this step".to_string(),
        });
        if let Some(result) = self.result.as_ref().filter(|_| self.player.at_end())
            && let (Some(first), Some(best)) = (result.first_length, &result.path)
        {
            ui.label(format!(
                "First path: {first:.3}   Shortest path: {:.3}   ({})",
                best.length,
                improved_text(result.improvements)
            ));
        }
        ui.label(format!("Funnel step {} / {}", self.funnel.step(), self.funnel.len()));
        ui.label(format!("Walk step {} / {}", self.walk.step(), self.walk.len()));
        match (&self.grid_path, self.result.as_ref().and_then(|r| r.path.as_ref())) {
            (Some((octile, _)), Some(path)) => {
                ui.label(format!("Grid A* (octile, cell to cell): {octile:.3}"));
                let name = self.search.algorithm.label();
                ui.label(format!(
                    "{name} any-angle: {:.3} ({:.1}% shorter)",
                    path.length,
                    100.0 * (1.0 - path.length / octile)
                ));
            }
            (Some((octile, _)), None) => {
                ui.label(format!("Grid A* (octile, cell to cell): {octile:.3}"));
            }
            (None, _) if offer_grid && self.grid.is_none() => {
                ui.weak("Load a grid map (.map) to compare grid A*'s octile path with the any-angle one.");
            }
            _ => {}
        }
    }

    fn canvas(&mut self, ui: &mut egui::Ui, commands: &mut Vec<MeshCommand>) {
        let (lo, hi) = self.bounds();
        let available =
            Vec2::new(ui.available_width().min(ui.clip_rect().right() - ui.cursor().left()), ui.available_height());
        let (w, h) = ((hi[0] - lo[0]).max(1e-9) as f32, (hi[1] - lo[1]).max(1e-9) as f32);
        let scale = (available.x / w).min(available.y / h).max(1.0) * 0.97;
        let (response, painter) = ui.allocate_painter(Vec2::new(w * scale, h * scale), Sense::click_and_drag());
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Canvas, true, "Polygon canvas"));
        // The canvas keeps the map's shape: a zoomed view scales with it (a cell presented) and
        // shows the same part of the map.
        let size = response.rect.size();
        if self.view_size.x > 0.0 && self.view_size != size {
            self.view.translation *= size.x / self.view_size.x;
        }
        self.view_size = size;
        self.navigate(ui, &response);
        let at = Transform { rect: response.rect, lo, scale, y_down: self.grid.is_some(), view: self.view };
        self.transform = Some(at);
        self.paint(&painter, &at);
        let fit = egui::Rect::from_min_size(response.rect.right_top() + Vec2::new(-56.0, 6.0), Vec2::new(50.0, 22.0));
        if self.view != TSTransform::IDENTITY
            && ui.put(fit, egui::Button::new("Fit")).on_hover_text("Show the whole map again").clicked()
        {
            self.view = TSTransform::IDENTITY;
        }
        if response.clicked()
            && let Some(pos) = response.interact_pointer_pos()
        {
            let p = at.to_map(pos);
            commands.push(match &self.drawing {
                // A click on the ring's first corner closes it.
                Some(drawing) if drawing.current.len() >= 3 && at.to_screen(drawing.current[0]).distance(pos) < 8.0 => {
                    MeshCommand::CloseRing
                }
                Some(_) => MeshCommand::AddVertex(p),
                None if self.placing == Endpoint::Start || ui.input(|i| i.modifiers.shift) => MeshCommand::SetStart(p),
                None => MeshCommand::SetGoal(p),
            });
        }
    }

    /// What a click or tap on the map places, where a finger can reach it.
    fn placing_toggle(&self, ui: &mut egui::Ui, commands: &mut Vec<MeshCommand>) {
        ui.horizontal_wrapped(|ui| {
            ui.label("A click or tap places the");
            for (endpoint, name) in [(Endpoint::Goal, "Goal"), (Endpoint::Start, "Start")] {
                if ui.selectable_label(self.placing == endpoint, name).clicked() {
                    commands.push(MeshCommand::SetPlacing(endpoint));
                }
            }
            ui.weak("(Shift+click: the start)");
        });
    }

    /// Dragging pans; two fingers, ctrl + wheel or a trackpad pinch zoom (the plain wheel still
    /// scrolls the page, as a lecture's cells need).
    fn navigate(&mut self, ui: &egui::Ui, response: &egui::Response) {
        /// From the fitted map to forty times closer.
        const SCALES: egui::Rangef = egui::Rangef { min: 1.0, max: 40.0 };
        let rect = response.rect;
        let drag = if response.dragged() { response.drag_delta() } else { Vec2::ZERO };
        let hovered = response.hovered() || response.is_pointer_button_down_on();
        if let Some(nav) = Nav::read(ui, rect, hovered, drag, false) {
            let corner = TSTransform::from_translation(rect.min.to_vec2());
            let on_screen = nav.apply(corner * self.view * corner.inverse(), SCALES);
            self.view = corner.inverse() * on_screen * corner;
        }
    }

    /// Every colour the canvas shows for the selected recording, and nothing else.
    pub fn legend_entries(&self, palette: &Palette) -> Vec<(Color32, &'static str)> {
        let p = palette;
        let mut entries: Vec<(Color32, &str)> = match self.replay {
            ReplayKind::Search => vec![
                (p.open, "frontier (open)"),
                (p.closed, "expanded"),
                (p.current, "current triangle (outline)"),
                (p.channel, "channel found"),
                (p.mesh_path, "path"),
            ],
            ReplayKind::Funnel => vec![
                (p.channel, "channel"),
                (p.apex, "apex and corners fixed"),
                (p.left_side, "left chain"),
                (p.right_side, "right chain"),
                (p.portal, "portal"),
                (p.mesh_path, "path"),
            ],
            ReplayKind::Walk => vec![(p.sample, "sampled triangle"), (p.walk, "walk")],
        };
        if self.replay == ReplayKind::Search && self.search.algorithm == MeshAlgorithm::Tra {
            entries.extend([
                (p.corridor, "TRA* corridor"),
                (p.dead_end, "TRA* dead end"),
                (p.decision, "TRA* decision point"),
            ]);
        }
        if self.grid_path.is_some() {
            entries.push((p.grid_path, "grid A* (octile)"));
        }
        if self.drawing.is_some() {
            entries.push((p.drawing, "rings drawn"));
        }
        entries.extend([(p.unseen, "free space"), (p.start, "start"), (p.goal, "goal"), (p.wall, "obstacle")]);
        entries
    }

    fn legend(&self, ui: &mut egui::Ui) {
        widgets::legend(ui, &self.legend_entries(&theme::palette(ui.ctx())));
    }
}

/// TA*/TRA*'s `paths_found` (each shorter than the one before) said as improvements on the first.
fn improved_text(paths_found: usize) -> String {
    match paths_found.saturating_sub(1) {
        0 => "the first path found was the shortest".to_string(),
        1 => "improved once".to_string(),
        n => format!("improved {n} times"),
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
        ui.heading("Polygon maps: triangulation, TA*, TRA* and the funnel");
        widgets::intro(
            ui,
            "navmesh-lab-intro",
            "Free space is cut into triangles whose corners are the map's corners (a constrained Delaunay \
             triangulation), so a huge open room costs a handful of nodes. TA* searches channels (strings of \
             triangles) and may reach a triangle along several; the funnel turns a channel into its shortest \
             path, bending only at corners. TRA* first peels off dead ends and treats each corridor as one \
             edge between decision points. A round agent keeps its radius from every corner and cannot pass a \
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
        widgets::side_panel(ui, "navmesh-lab-side", 0.36, |ui| {
            self.controls(ui, &mut commands);
            ui.separator();
            self.stats(ui, true);
            ui.separator();
            self.pseudocode(ui);
            ui.label(self.explanation());
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
