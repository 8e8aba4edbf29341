//! The polygon-map lesson: the constrained Delaunay triangulation of a map, its walkable faces,
//! TA* / TRA* searching over triangles (replayed step by step), the channel found, the funnel
//! pulling the path tight portal by portal, and the agent radius closing narrow gaps. A grid map
//! is triangulated too, and grid A*'s octile path drawn beside the any-angle one.

use egui::{Color32, Pos2, Sense, Shape, Stroke, Vec2};

use super::Lesson;
use crate::grid::{Grid, movingai};
use crate::navmesh::funnel::{FunnelView, channel_path};
use crate::navmesh::grid_outline::{cell_centre, grid_outline};
use crate::navmesh::tastar::{MeshSearchResult, MeshQuery, ta_star};
use crate::navmesh::trastar::{Reduction, Role, tra_star};
use crate::navmesh::{Navmesh, Outline, Point, PolygonMap, Refinement, distance};
use crate::pathfinding::{GridSearch, SearchSpace};
use crate::trace::{NoTrace, NodeStatus, Player, Recorder, SearchOutcome, SearchSnapshot};

/// The bundled polygon maps (the first one opens) and a grid map to compare with grid A*.
pub const MAPS: [&str; 4] = ["maps/pillars.json", "maps/narrow_corridor.json", "maps/u_hall.json", "maps/rooms128.map"];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MeshAlgorithm {
    Ta,
    Tra,
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
    StepForward,
    StepBack,
    ToStart,
    ToEnd,
    Seek(usize),
    SeekFunnel(usize),
}

pub struct NavmeshLab {
    map_path: String,
    /// The grid when the map is a grid map, for the octile comparison.
    grid: Option<Grid>,
    /// Grid A*'s path between the start and goal cells: length and cell centres.
    grid_path: Option<(f64, Vec<Point>)>,
    mesh: Navmesh,
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

fn build(outline: &Outline, refine: bool) -> Result<Navmesh, String> {
    Navmesh::build(outline, refine.then(Refinement::default))
}

/// A polygon map, or a grid map (`.map`) with its grid.
fn load(path: &str) -> Result<(Outline, Option<Grid>), String> {
    if path.ends_with(".map") {
        let grid = movingai::load_map(path.as_ref()).map_err(|e| e.to_string())?;
        Ok((grid_outline(&grid), Some(grid)))
    } else {
        Ok((PolygonMap::load(path.as_ref()).map_err(|e| e.to_string())?.outline(), None))
    }
}

impl NavmeshLab {
    pub fn new() -> Self {
        let mesh = build(&fallback_map().outline(), false).expect("the fallback map triangulates");
        let mut lab = Self {
            grid: None,
            grid_path: None,
            reduction: Reduction::new(&mesh),
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
        };
        lab.apply(MeshCommand::LoadMap(MAPS[0].to_string()));
        lab
    }

    pub fn player(&self) -> &Player<SearchSnapshot> {
        &self.player
    }

    pub fn funnel(&self) -> &Player<FunnelView> {
        &self.funnel
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
            MeshCommand::LoadMap(path) => match load(&path).and_then(|(outline, grid)| Ok((build(&outline, self.refine)?, grid))) {
                Ok((mesh, grid)) => {
                    self.mesh = mesh;
                    self.grid = grid;
                    self.reduction = Reduction::new(&self.mesh);
                    self.map_path = path;
                    self.error = None;
                    self.place_endpoints();
                    self.run();
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
            MeshCommand::StepForward => {
                self.player.forward();
            }
            MeshCommand::StepBack => {
                self.player.back();
            }
            MeshCommand::ToStart => {
                self.player.seek(0);
            }
            MeshCommand::ToEnd => {
                self.player.seek(usize::MAX);
            }
            MeshCommand::Seek(step) => {
                self.player.seek(step);
            }
            MeshCommand::SeekFunnel(step) => {
                self.funnel.seek(step);
            }
        }
    }

    /// Start and goal at the centres of the walkable triangles nearest two opposite corners.
    fn place_endpoints(&mut self) {
        let (lo, hi) = self.bounds();
        let centre = |t: usize| {
            let [a, b, c] = self.mesh.triangle_points(t as u32);
            [(a[0] + b[0] + c[0]) / 3.0, (a[1] + b[1] + c[1]) / 3.0]
        };
        let nearest = |corner: Point| {
            (0..self.mesh.triangles.len())
                .filter(|&t| self.mesh.triangles[t].walkable)
                .map(centre)
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
        self.mesh.vertices.iter().fold(([f64::MAX; 2], [f64::MIN; 2]), |(lo, hi), p| {
            ([lo[0].min(p[0]), lo[1].min(p[1])], [hi[0].max(p[0]), hi[1].max(p[1])])
        })
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

    fn controls(&mut self, ui: &mut egui::Ui) {
        let mut commands = Vec::new();
        ui.horizontal(|ui| {
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
        if let Some(error) = &self.error {
            ui.colored_label(Color32::from_rgb(220, 80, 60), error);
        }
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
        ui.horizontal(|ui| {
            let buttons = [
                ("|< Start", MeshCommand::ToStart),
                ("< Step back", MeshCommand::StepBack),
                ("Step >", MeshCommand::StepForward),
                ("End >|", MeshCommand::ToEnd),
            ];
            for (label, command) in buttons {
                if ui.button(label).clicked() {
                    commands.push(command);
                }
            }
        });
        let mut step = self.player.step();
        if ui.add(egui::Slider::new(&mut step, 0..=self.player.len()).text("Search step")).changed() {
            commands.push(MeshCommand::Seek(step));
        }
        let mut funnel_step = self.funnel.step();
        if ui.add(egui::Slider::new(&mut funnel_step, 0..=self.funnel.len()).text("Funnel step")).changed() {
            commands.push(MeshCommand::SeekFunnel(funnel_step));
        }
        for command in commands {
            self.apply(command);
        }
    }

    fn stats(&self, ui: &mut egui::Ui) {
        let view = self.player.view();
        ui.label(format!("Step {} / {}", self.player.step(), self.player.len()));
        ui.label(format!("Expanded: {}", view.expanded));
        ui.label(format!(
            "Walkable triangles: {}   decision points: {}   corridor: {}   dead ends: {}",
            self.mesh.walkable_count(),
            self.reduction.count(Role::Decision),
            self.reduction.count(Role::Corridor),
            self.reduction.count(Role::DeadEnd)
        ));
        ui.label(match &view.outcome {
            Some(SearchOutcome::Found { cost, path }) => format!("Path found: length {cost:.3} through {} triangles", path.len()),
            Some(SearchOutcome::Exhausted) => "No path: every channel is closed".to_string(),
            None => "Searching...".to_string(),
        });
        if let Some(result) = self.result.as_ref().filter(|_| self.player.at_end())
            && let (Some(first), Some(best)) = (result.first_length, &result.path)
        {
            ui.label(format!("First path: {first:.3}   Shortest path: {:.3}", best.length));
        }
        ui.label(format!("Funnel step {} / {}", self.funnel.step(), self.funnel.len()));
        if let Some((length, _)) = &self.grid_path {
            ui.label(format!("Grid A* (octile, cell to cell): {length:.3}"));
        }
    }

    fn canvas(&mut self, ui: &mut egui::Ui) {
        let (lo, hi) = self.bounds();
        let available = ui.available_size();
        let (w, h) = ((hi[0] - lo[0]).max(1e-9) as f32, (hi[1] - lo[1]).max(1e-9) as f32);
        let scale = (available.x / w).min(available.y / h).max(1.0) * 0.97;
        let (response, painter) = ui.allocate_painter(Vec2::new(w * scale, h * scale), Sense::click());
        let rect = response.rect;
        // y points up in a polygon map; grid rows count down, as the grid lab shows them.
        let down = if self.grid.is_some() { 1.0 } else { -1.0 };
        let top = if self.grid.is_some() { rect.min.y } else { rect.max.y };
        let to_screen = |p: Point| Pos2::new(rect.min.x + (p[0] - lo[0]) as f32 * scale, top + down * (p[1] - lo[1]) as f32 * scale);
        let to_map = |p: Pos2| [lo[0] + ((p.x - rect.min.x) / scale) as f64, lo[1] + (down * (p.y - top) / scale) as f64];
        let view = self.player.view();
        let channel: &[u32] = match &view.outcome {
            Some(SearchOutcome::Found { path, .. }) => path,
            _ => &[],
        };
        for (t, tri) in self.mesh.triangles.iter().enumerate() {
            let fill = if !tri.walkable {
                Color32::from_gray(50)
            } else if channel.contains(&(t as u32)) {
                Color32::from_rgb(250, 225, 120)
            } else {
                match view.node(t as u32).status {
                    NodeStatus::Unseen => Color32::from_gray(235),
                    NodeStatus::Open => Color32::from_rgb(150, 220, 150),
                    NodeStatus::Closed => Color32::from_rgb(160, 185, 235),
                }
            };
            let points = self.mesh.triangle_points(t as u32).map(to_screen).to_vec();
            painter.add(Shape::convex_polygon(points, fill, Stroke::new(0.5, Color32::from_gray(150))));
        }
        for &[a, b] in &self.mesh.obstacle_edges {
            let (a, b) = (self.mesh.vertices[a as usize], self.mesh.vertices[b as usize]);
            painter.line_segment([to_screen(a), to_screen(b)], Stroke::new(2.5, Color32::BLACK));
        }
        // TRA*'s decision points.
        if self.algorithm == MeshAlgorithm::Tra {
            for t in (0..self.mesh.triangles.len()).filter(|&t| self.reduction.roles[t] == Role::Decision) {
                let [a, b, c] = self.mesh.triangle_points(t as u32);
                let centre = [(a[0] + b[0] + c[0]) / 3.0, (a[1] + b[1] + c[1]) / 3.0];
                painter.circle_filled(to_screen(centre), 4.0, Color32::from_rgb(200, 60, 160));
            }
        }
        if let Some(current) = view.current {
            let points = self.mesh.triangle_points(current).map(to_screen).to_vec();
            painter.add(Shape::closed_line(points, Stroke::new(2.5, Color32::from_rgb(220, 40, 40))));
        }
        if self.player.at_end()
            && let Some(path) = self.result.as_ref().and_then(|r| r.path.as_ref())
        {
            let points: Vec<Pos2> = path.waypoints.iter().copied().map(to_screen).collect();
            painter.add(Shape::line(points, Stroke::new(3.0, Color32::from_rgb(230, 120, 20))));
        }
        if let Some((_, centres)) = &self.grid_path {
            let points: Vec<Pos2> = centres.iter().copied().map(to_screen).collect();
            painter.add(Shape::line(points, Stroke::new(2.0, Color32::from_rgb(0, 170, 190))));
        }
        self.draw_funnel(&painter, &to_screen);
        for (p, colour) in [(self.start, Color32::from_rgb(30, 160, 60)), (self.goal, Color32::from_rgb(170, 40, 170))] {
            painter.circle_filled(to_screen(p), 5.0, colour);
            if self.radius > 0.0 {
                painter.circle_stroke(to_screen(p), self.radius as f32 * scale, Stroke::new(1.5, colour));
            }
        }
        if response.clicked()
            && let Some(pos) = response.interact_pointer_pos()
        {
            let command = if ui.input(|i| i.modifiers.shift) { MeshCommand::SetStart(to_map(pos)) } else { MeshCommand::SetGoal(to_map(pos)) };
            self.apply(command);
        }
    }

    /// The funnel at its current step: the corners fixed so far, and the apex with its two sides.
    fn draw_funnel(&self, painter: &egui::Painter, to_screen: &impl Fn(Point) -> Pos2) {
        let funnel = self.funnel.view();
        let Some((_, apex, left, right)) = funnel.step else { return };
        let mut fixed = vec![to_screen(self.start)];
        fixed.extend(funnel.corners.iter().copied().map(to_screen));
        painter.add(Shape::line(fixed, Stroke::new(2.0, Color32::from_rgb(120, 60, 20))));
        painter.line_segment([to_screen(apex), to_screen(left)], Stroke::new(2.0, Color32::from_rgb(40, 90, 220)));
        painter.line_segment([to_screen(apex), to_screen(right)], Stroke::new(2.0, Color32::from_rgb(220, 50, 50)));
        painter.circle_filled(to_screen(apex), 4.5, Color32::from_rgb(120, 60, 20));
    }
}

impl Lesson for NavmeshLab {
    fn title(&self) -> &'static str {
        "Polygon maps"
    }

    fn ui(&mut self, ui: &mut egui::Ui) {
        ui.heading("Polygon maps: triangulation, TA*, TRA* and the funnel");
        ui.label(
            "The free space is cut into triangles (a constrained Delaunay triangulation; obstacle edges in \
             black, blocked triangles dark). TA* searches channels of triangles: open triangles green, \
             explored blue, the channel found yellow. The funnel then pulls the path tight (apex brown, \
             left side blue, right side red). TRA* first removes dead ends and collapses corridors, so it \
             branches only at decision points (magenta). A bigger agent keeps its radius from every corner \
             and cannot pass gaps narrower than its width. On a grid map, grid A*'s octile path (teal) runs \
             beside the any-angle one. Click: goal, Shift+click: start.",
        );
        ui.separator();
        egui::Panel::right("navmesh-lab-side").resizable(false).min_size(420.0).show(ui, |ui| {
            self.controls(ui);
            ui.separator();
            self.stats(ui);
        });
        egui::CentralPanel::default().show(ui, |ui| self.canvas(ui));
    }
}
