//! The polygon-map lesson: the constrained Delaunay triangulation of a map, its walkable faces,
//! TA* / TRA* searching over triangles (replayed step by step), the channel found, the funnel
//! pulling the path tight portal by portal, jump-and-walk locating the goal, and the agent radius
//! closing narrow gaps. Polygons can be drawn by clicking and saved. A grid map is triangulated
//! too, and grid A*'s octile path drawn beside the any-angle one.

mod canvas;

use egui::{Color32, Pos2, RichText, Sense, Vec2};

use super::Lesson;
use super::replay_bar::{ReplayBar, ReplayCommand};
use crate::grid::{Grid, movingai};
use crate::navmesh::funnel::{FunnelEvent, FunnelView, channel_path};
use crate::navmesh::grid_outline::{cell_centre, grid_outline};
use crate::navmesh::tastar::{MeshQuery, MeshSearchResult, ta_star};
use crate::navmesh::reduction::{Reduction, Role};
use crate::navmesh::trastar::tra_star;
use crate::navmesh::walk::{WalkEvent, WalkView, jump_and_walk};
use crate::navmesh::{Navmesh, Outline, Point, PolygonMap, Refinement, distance};
use crate::pathfinding::{GridSearch, SearchSpace};
use crate::trace::{NO_NODE, NoTrace, Player, Recorder};
use crate::pathfinding::search_trace::{SearchEvent, SearchOutcome, SearchSnapshot};
use canvas::Transform;

/// How many triangles jump-and-walk samples before it walks.
const WALK_SAMPLES: usize = 6;

/// The bundled polygon maps (the first one opens) and a grid map to compare with grid A*.
pub const MAPS: [&str; 4] = ["maps/pillars.json", "maps/narrow_corridor.json", "maps/u_hall.json", "maps/rooms128.map"];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MeshAlgorithm {
    Ta,
    Tra,
}

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

/// Every action of the page; controls, clicks and tests all go through [`NavmeshLab::apply`].
#[derive(Debug, Clone, PartialEq)]
pub enum MeshCommand {
    LoadMap(String),
    SetStart(Point),
    SetGoal(Point),
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
}

pub struct NavmeshLab {
    map_path: String,
    /// The grid when the map is a grid map, for the octile comparison.
    grid: Option<Grid>,
    /// Grid A*'s path between the start and goal cells: length and cell centres.
    grid_path: Option<(f64, Vec<Point>)>,
    mesh: Navmesh,
    /// The mesh's bounding box, kept because every frame needs it.
    extent: (Point, Point),
    reduction: Reduction,
    error: Option<String>,
    start: Point,
    goal: Point,
    radius: f64,
    algorithm: MeshAlgorithm,
    refine: bool,
    result: Option<MeshSearchResult>,
    player: Player<SearchSnapshot>,
    funnel: Player<FunnelView>,
    walk: Player<WalkView>,
    replay: ReplayKind,
    bar: ReplayBar,
    /// The current map as polygons, when it is one (for saving).
    polygons: Option<PolygonMap>,
    drawing: Option<Drawing>,
    save_path: String,
    notice: Option<String>,
    /// Where the canvas was last painted, for clicks and tests.
    transform: Option<Transform>,
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

fn build(outline: &Outline, refine: bool) -> Result<Navmesh, String> {
    Navmesh::build(outline, refine.then(Refinement::default))
}

/// What a map file holds: its outline, and the grid or the polygons it came from.
struct Loaded {
    outline: Outline,
    grid: Option<Grid>,
    polygons: Option<PolygonMap>,
}

/// A grid map (`.map`), a Polyanya mesh (`.mesh`) or a polygon map (JSON).
fn load(path: &str) -> Result<Loaded, String> {
    if path.ends_with(".map") {
        let grid = movingai::load_map(path.as_ref()).map_err(|e| e.to_string())?;
        Ok(Loaded { outline: grid_outline(&grid), grid: Some(grid), polygons: None })
    } else if path.ends_with(".mesh") {
        let outline = crate::navmesh::polyanya::load_mesh(path.as_ref()).map_err(|e| e.to_string())?;
        Ok(Loaded { outline, grid: None, polygons: None })
    } else {
        let map = PolygonMap::load(path.as_ref()).map_err(|e| e.to_string())?;
        Ok(Loaded { outline: map.outline(), grid: None, polygons: Some(map) })
    }
}

impl NavmeshLab {
    pub fn new() -> Self {
        let mesh = build(&fallback_map().outline(), false).expect("the fallback map triangulates");
        let mut lab = Self {
            grid: None,
            grid_path: None,
            reduction: Reduction::new(&mesh),
            extent: mesh_extent(&mesh),
            mesh,
            map_path: String::new(),
            error: None,
            start: [0.0; 2],
            goal: [0.0; 2],
            radius: 0.0,
            algorithm: MeshAlgorithm::Ta,
            refine: false,
            result: None,
            player: Player::new(Recorder::new(0).finish(), SearchSnapshot::new(0)),
            funnel: Player::new(Recorder::new(0).finish(), FunnelView::default()),
            walk: Player::new(Recorder::new(0).finish(), WalkView::default()),
            replay: ReplayKind::Search,
            bar: ReplayBar::new(20.0),
            polygons: None,
            drawing: None,
            save_path: "maps/drawn.json".to_string(),
            notice: None,
            transform: None,
        };
        lab.apply(MeshCommand::LoadMap(MAPS[0].to_string()));
        if let Some(error) = lab.error.take() {
            // Run from another folder, or a broken bundled map: a built-in room still teaches.
            let fallback = fallback_map();
            let mesh = build(&fallback.outline(), false).expect("the fallback map triangulates");
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
            MeshCommand::LoadMap(path) => match load(&path).and_then(|loaded| Ok((build(&loaded.outline, self.refine)?, loaded))) {
                Ok((mesh, loaded)) => {
                    self.map_path = path;
                    self.show_map(mesh, loaded.grid, loaded.polygons);
                }
                // The map on screen stays; only the message changes.
                Err(e) => self.error = Some(e),
            },
            MeshCommand::SetStart(p) => {
                self.start = self.snap(p);
                self.run();
            }
            MeshCommand::SetGoal(p) => {
                self.goal = self.snap(p);
                self.run();
            }
            MeshCommand::SetRadius(radius) => {
                self.radius = radius.max(0.0);
                self.run();
            }
            MeshCommand::SetAlgorithm(algorithm) => {
                self.algorithm = algorithm;
                self.run();
            }
            MeshCommand::SetRefine(refine) => {
                self.refine = refine;
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
                self.drawing = on.then(Drawing::default);
                self.notice = None;
            }
            MeshCommand::AddVertex(p) => {
                if let Some(drawing) = &mut self.drawing {
                    drawing.current.push(p);
                }
            }
            MeshCommand::CloseRing => {
                if let Some(drawing) = &mut self.drawing
                    && !drawing.current.is_empty()
                {
                    drawing.rings.push(std::mem::take(&mut drawing.current));
                }
            }
            MeshCommand::UseDrawing => self.use_drawing(),
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
        if let Some(step) = self.bar.advance(ui.input(|i| i.stable_dt), step, len) {
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
        self.mesh = mesh;
        self.grid = grid;
        self.polygons = polygons;
        self.reduction = Reduction::new(&self.mesh);
        self.error = None;
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
        match map.validated().and_then(|map| Ok((build(&map.outline(), self.refine)?, map))) {
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
        std::fs::write(path, json + "\n").map_err(|e| format!("{path}: cannot write: {e}"))
    }

    /// Start and goal at the centres of the walkable triangles nearest two opposite corners.
    fn place_endpoints(&mut self) {
        let (lo, hi) = self.bounds();
        let nearest = |corner: Point| {
            (0..self.mesh.triangles.len())
                .filter(|&t| self.mesh.triangles[t].walkable)
                .map(|t| canvas::centre(&self.mesh, t as u32))
                .min_by(|p, q| distance(*p, corner).total_cmp(&distance(*q, corner)))
                .unwrap_or(corner)
        };
        self.start = self.snap(nearest(lo));
        self.goal = self.snap(nearest(hi));
    }

    /// On a grid map, the centre of the cell holding `p`, so grid A* and TA* join the same points.
    fn snap(&self, p: Point) -> Point {
        match &self.grid {
            Some(grid) if grid.contains(p[0].floor() as i64, p[1].floor() as i64) => {
                cell_centre(grid, grid.cell(p[0].floor() as u32, p[1].floor() as u32))
            }
            _ => p,
        }
    }

    fn bounds(&self) -> (Point, Point) {
        self.extent
    }

    /// Records the search and, if it finds a path, the funnel over its channel.
    fn run(&mut self) {
        let query = MeshQuery { radius: self.radius, ..MeshQuery::new(self.start, self.goal) };
        let mut recorder = Recorder::default();
        let result = match self.algorithm {
            MeshAlgorithm::Ta => ta_star(&self.mesh, &query, &mut recorder),
            MeshAlgorithm::Tra => tra_star(&self.mesh, &self.reduction, &query, &mut recorder),
        };
        self.player = Player::new(recorder.finish(), SearchSnapshot::new(self.mesh.triangles.len()));
        // Open on the outcome, the path drawn; Start or the timeline go back to watch it grow.
        self.player.seek(usize::MAX);
        let mut funnel = Recorder::default();
        match result {
            Ok(result) => {
                if let Some(path) = &result.path {
                    channel_path(&self.mesh, self.start, self.goal, &path.channel, self.radius, &mut funnel);
                }
                self.result = Some(result);
                self.error = None;
            }
            Err(e) => {
                self.result = None;
                self.error = Some(e);
            }
        }
        self.funnel = Player::new(funnel.finish(), FunnelView::default());
        let mut walk = Recorder::default();
        jump_and_walk(&self.mesh, self.goal, WALK_SAMPLES, &mut walk);
        self.walk = Player::new(walk.finish(), WalkView::default());
        self.grid_path = self.grid.as_ref().and_then(|grid| {
            let cell_at = |p: Point| {
                let (x, y) = (p[0].floor() as i64, p[1].floor() as i64);
                grid.is_passable(x, y).then(|| grid.cell(x as u32, y as u32))
            };
            let (start, goal) = (cell_at(self.start)?, cell_at(self.goal)?);
            let result = GridSearch::default().run(grid, start, goal, &mut SearchSpace::new(), &mut NoTrace);
            let (cost, cells) = result.path?;
            Some((cost, cells.into_iter().map(|c| cell_centre(grid, c)).collect()))
        });
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
            ui.colored_label(Color32::from_rgb(220, 80, 60), error);
        } else if let Some(notice) = &self.notice {
            ui.colored_label(Color32::from_rgb(60, 150, 90), notice);
        }
        ui.separator();
        ui.horizontal(|ui| {
            ui.label("Algorithm:");
            for (algorithm, name) in [(MeshAlgorithm::Ta, "TA*"), (MeshAlgorithm::Tra, "TRA*")] {
                if ui.radio(self.algorithm == algorithm, name).clicked() {
                    commands.push(MeshCommand::SetAlgorithm(algorithm));
                }
            }
        });
        let mut refine = self.refine;
        if ui.checkbox(&mut refine, "Refine (no angle under 25 degrees)").changed() {
            commands.push(MeshCommand::SetRefine(refine));
        }
        let mut radius = self.radius;
        if ui.add(egui::Slider::new(&mut radius, 0.0..=2.0).text("Agent radius")).changed() {
            commands.push(MeshCommand::SetRadius(radius));
        }
        ui.separator();
        ui.horizontal(|ui| {
            ui.label("Replay:");
            for kind in [ReplayKind::Search, ReplayKind::Funnel, ReplayKind::Walk] {
                if ui.radio(self.replay == kind, kind.name()).clicked() {
                    commands.push(MeshCommand::SetReplay(kind));
                }
            }
        });
        let (step, len) = self.replay_position();
        let mut replay = Vec::new();
        self.bar.ui(ui, step, len, "event", &mut replay);
        commands.extend(replay.into_iter().map(MeshCommand::Replay));
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
                let next = if drawing.rings.is_empty() { "the boundary".to_string() } else { format!("hole {}", drawing.rings.len() - 1) };
                ui.label(format!("Click the corners of {next} ({} so far); click its first corner or Close ring to close it.", drawing.current.len()));
            }
        });
    }

    fn stats(&self, ui: &mut egui::Ui) {
        let view = self.player.view();
        ui.label(format!("Step {} / {}", self.player.step(), self.player.len()));
        ui.label(format!("Expanded: {}", view.expanded));
        ui.label(format!("Triangles: {}   walkable: {}", self.mesh.triangles.len(), self.mesh.walkable_count()));
        ui.label(format!(
            "TRA* roles: decision points {}   corridor {}   dead ends {}",
            self.reduction.count(Role::Decision),
            self.reduction.count(Role::Corridor),
            self.reduction.count(Role::DeadEnd)
        ));
        ui.label(match &view.outcome {
            Some(SearchOutcome::Found { cost, path }) => format!("Path found: length {cost:.3} through {} triangles", path.len()),
            Some(SearchOutcome::Exhausted) => "No path: every channel is closed".to_string(),
            None => "No result yet at this step".to_string(),
        });
        if let Some(result) = self.result.as_ref().filter(|_| self.player.at_end())
            && let (Some(first), Some(best)) = (result.first_length, &result.path)
        {
            ui.label(format!(
                "First path: {first:.3}   Shortest path: {:.3}   ({} improvements)",
                best.length, result.improvements
            ));
        }
        ui.label(format!("Funnel step {} / {}", self.funnel.step(), self.funnel.len()));
        ui.label(format!("Walk step {} / {}", self.walk.step(), self.walk.len()));
        match (&self.grid_path, self.result.as_ref().and_then(|r| r.path.as_ref())) {
            (Some((octile, _)), Some(path)) => {
                ui.label(format!("Grid A* (octile, cell to cell): {octile:.3}"));
                ui.label(format!("TA* any-angle: {:.3} ({:.1}% shorter)", path.length, 100.0 * (1.0 - path.length / octile)));
            }
            (Some((octile, _)), None) => {
                ui.label(format!("Grid A* (octile, cell to cell): {octile:.3}"));
            }
            (None, _) if self.grid.is_none() => {
                ui.weak("Load a grid map (.map) to compare grid A*'s octile path with the any-angle one.");
            }
            _ => {}
        }
    }

    /// The pseudocode of the selected recording, its current line highlighted, and what that
    /// line is doing right now.
    fn pseudocode(&self, ui: &mut egui::Ui) {
        let (lines, current, explanation): (&[&str], Option<usize>, String) = match self.replay {
            ReplayKind::Search => {
                let event = self.player.current_event();
                (&SEARCH_PSEUDOCODE, event.map(search_line), event.map_or_else(String::new, |e| self.explain_search(e)))
            }
            ReplayKind::Funnel => {
                let event = self.funnel.current_event();
                (&FUNNEL_PSEUDOCODE, event.map(funnel_line), event.map_or_else(String::new, |e| explain_funnel(e, self.goal)))
            }
            ReplayKind::Walk => {
                let event = self.walk.current_event();
                (&WALK_PSEUDOCODE, event.map(walk_line), event.map_or_else(String::new, explain_walk))
            }
        };
        ui.strong(format!("{} pseudocode", self.replay.name()));
        for (index, text) in lines.iter().enumerate() {
            let mut rich = RichText::new(*text).monospace();
            if current == Some(index) {
                rich = rich.background_color(Color32::from_rgb(250, 220, 90)).color(Color32::BLACK);
            }
            ui.label(rich);
        }
        ui.label(if explanation.is_empty() { "Press Step > to begin.".to_string() } else { explanation });
    }

    fn explain_search(&self, event: &SearchEvent) -> String {
        match *event {
            SearchEvent::Open { node, parent, g, h } if parent == NO_NODE => {
                format!("The start lies in triangle {node}: a first channel, f = {:.2}.", g + h)
            }
            SearchEvent::Open { node, parent, g, h } => format!(
                "From triangle {parent} a channel enters triangle {node}: at least {g:.2} travelled, \
                 at least {h:.2} to go, so f = {:.2}. It joins the frontier (green).",
                g + h
            ),
            SearchEvent::Expand { node } => format!(
                "Triangle {node} ends the channel with the lowest f: its other edges are tried. \
                 A triangle can be reached by several channels, so it may come back."
            ),
            SearchEvent::Found { cost, ref path } => format!(
                "A channel of {} triangles reaches the goal; the funnel makes it a path of length {cost:.3}. \
                 The search goes on until no channel's f is below that.",
                path.len()
            ),
            SearchEvent::Relax { node, .. } => format!("Triangle {node} is looked at again."),
            SearchEvent::Exhausted => "No channel is left: start and goal are not connected for this agent.".to_string(),
        }
    }

    fn canvas(&mut self, ui: &mut egui::Ui, commands: &mut Vec<MeshCommand>) {
        let (lo, hi) = self.bounds();
        let available = ui.available_size();
        let (w, h) = ((hi[0] - lo[0]).max(1e-9) as f32, (hi[1] - lo[1]).max(1e-9) as f32);
        let scale = (available.x / w).min(available.y / h).max(1.0) * 0.97;
        let (response, painter) = ui.allocate_painter(Vec2::new(w * scale, h * scale), Sense::click());
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Canvas, true, "Polygon canvas"));
        let at = Transform { rect: response.rect, lo, scale, y_down: self.grid.is_some() };
        self.transform = Some(at);
        self.paint(&painter, &at);
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
                None if ui.input(|i| i.modifiers.shift) => MeshCommand::SetStart(p),
                None => MeshCommand::SetGoal(p),
            });
        }
    }

    fn legend(&self, ui: &mut egui::Ui) {
        use canvas::*;
        let entries: &[(Color32, &str)] = match self.replay {
            ReplayKind::Search => &[
                (FRONTIER, "frontier (open)"),
                (EXPLORED, "expanded"),
                (CHANNEL, "channel found"),
                (PATH, "path"),
                (CORRIDOR, "TRA* corridor"),
                (DEAD_END, "TRA* dead end"),
                (DECISION, "TRA* decision point"),
                (BLOCKED, "obstacle"),
            ],
            ReplayKind::Funnel => &[
                (APEX, "apex and corners fixed"),
                (LEFT_SIDE, "left chain"),
                (RIGHT_SIDE, "right chain"),
                (PORTAL, "portal"),
                (PATH, "path"),
            ],
            ReplayKind::Walk => &[(SAMPLE, "sampled triangle"), (WALK, "walk"), (BLOCKED, "obstacle")],
        };
        ui.horizontal_wrapped(|ui| {
            for &(colour, name) in entries {
                let (rect, _) = ui.allocate_exact_size(Vec2::splat(12.0), Sense::hover());
                ui.painter().rect_filled(rect, 2.0, colour);
                ui.label(name);
            }
            if self.grid.is_some() {
                let (rect, _) = ui.allocate_exact_size(Vec2::splat(12.0), Sense::hover());
                ui.painter().rect_filled(rect, 2.0, canvas::GRID_PATH);
                ui.label("grid A* (octile)");
            }
        });
    }
}

const SEARCH_PSEUDOCODE: [&str; 9] = [
    "open the channel [start triangle]",
    "while some open channel has f < best:",
    "  take the channel c with the lowest f",
    "  if c reaches the goal: best = min(best, funnel(c))",
    "  for each edge e of c's last triangle but its entry:",
    "    skip walls, triangles on c and gaps under 2r",
    "    skip if c's funnel apex was reached shorter",
    "    open c + the triangle across e (f = g + h)",
    "no path (the open list is empty)",
];

fn search_line(event: &SearchEvent) -> usize {
    match event {
        SearchEvent::Open { parent, .. } if *parent == NO_NODE => 0,
        SearchEvent::Expand { .. } => 2,
        SearchEvent::Found { .. } => 3,
        SearchEvent::Relax { .. } => 5,
        SearchEvent::Open { .. } => 7,
        SearchEvent::Exhausted => 8,
    }
}

const FUNNEL_PSEUDOCODE: [&str; 5] = [
    "apex = start; left = right = apex",
    "for each portal (left, right), then the goal:",
    "  narrow a side to the portal's end if it can",
    "  if it crosses the other side: that corner is",
    "    a waypoint and the apex; go on after it",
];

fn funnel_line(event: &FunnelEvent) -> usize {
    match event {
        FunnelEvent::Step(_) => 2,
        FunnelEvent::Apex { .. } => 3,
    }
}

fn explain_funnel(event: &FunnelEvent, goal: Point) -> String {
    let at = |p: Point| format!("({:.2}, {:.2})", p[0], p[1]);
    match event {
        FunnelEvent::Step(step) => format!(
            "After portal {} the funnel opens from the apex {}. Its left chain bends round {} corner(s) to {}, \
             its right chain round {} to {}: the shortest paths to the portal's ends. Every straight line \
             between the chains' first legs is free.",
            step.portal,
            at(step.apex),
            step.left.len().saturating_sub(2),
            at(*step.left.last().unwrap_or(&step.apex)),
            step.right.len().saturating_sub(2),
            at(*step.right.last().unwrap_or(&step.apex)),
        ),
        &FunnelEvent::Apex { corner } if corner == goal => {
            format!("The goal {} is in sight of the apex: the path ends there.", at(corner))
        }
        &FunnelEvent::Apex { corner } => format!(
            "The sides crossed: the path must bend round the corner {}. It becomes a waypoint and the new apex.",
            at(corner)
        ),
    }
}

const WALK_PSEUDOCODE: [&str; 4] = [
    "look at k triangles spread over the mesh",
    "jump to the one whose centre is nearest the point",
    "while an edge has the point on its far side: cross it",
    "no such edge: the point lies in this triangle",
];

fn walk_line(event: &WalkEvent) -> usize {
    match event {
        WalkEvent::Sample { .. } => 0,
        WalkEvent::Jump { .. } => 1,
        WalkEvent::Step { .. } => 2,
        WalkEvent::Found { .. } => 3,
    }
}

fn explain_walk(event: &WalkEvent) -> String {
    match *event {
        WalkEvent::Sample { triangle, distance } => format!("Sample triangle {triangle}: its centre is {distance:.2} from the goal."),
        WalkEvent::Jump { triangle } => format!("Triangle {triangle} was the nearest sample; the walk starts there instead of anywhere."),
        WalkEvent::Step { triangle } => format!("The goal is beyond one edge, so the walk crosses it into triangle {triangle}."),
        WalkEvent::Found { triangle: Some(t) } => format!("No edge has the goal beyond it: the goal is in triangle {t}."),
        WalkEvent::Found { triangle: None } => "The walk left the triangulation: the goal is off the map.".to_string(),
    }
}

impl Lesson for NavmeshLab {
    fn title(&self) -> &'static str {
        "Polygon maps"
    }

    fn ui(&mut self, ui: &mut egui::Ui) {
        ui.heading("Polygon maps: triangulation, TA*, TRA* and the funnel");
        ui.label(
            "Free space is cut into triangles whose corners are the map's corners (a constrained Delaunay \
             triangulation), so a huge open room costs a handful of nodes. TA* searches channels (strings of \
             triangles) and may reach a triangle along several; the funnel turns a channel into its shortest \
             path, bending only at corners. TRA* first peels off dead ends and treats each corridor as one \
             edge between decision points. A round agent keeps its radius from every corner and cannot pass a \
             gap narrower than its width. Click: goal; Shift+click: start.",
        );
        ui.separator();
        let mut commands = Vec::new();
        let mut replay = Vec::new();
        ReplayBar::keys(ui, &mut replay);
        commands.extend(replay.into_iter().map(MeshCommand::Replay));
        self.advance_playback(ui);
        egui::Panel::right("navmesh-lab-side").resizable(false).min_size(440.0).show(ui, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                self.controls(ui, &mut commands);
                ui.separator();
                self.stats(ui);
                ui.separator();
                self.pseudocode(ui);
            });
        });
        egui::CentralPanel::default().show(ui, |ui| {
            self.legend(ui);
            self.canvas(ui, &mut commands);
        });
        for command in commands {
            self.apply(command);
        }
    }
}
