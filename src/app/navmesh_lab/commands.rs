//! What the page's commands do: loading and drawing maps, placing the ends, the replay bar.

use std::sync::Arc;

use egui::emath::TSTransform;

use super::{DRAWING_UNDO_LIMIT, Drawing, MeshCommand, NavmeshLab, ReplayKind, build, canvas, mesh_extent, scene};
use crate::app::history::History;
use crate::grid::Grid;
use crate::navmesh::grid_outline::snap_to_cell;
use crate::navmesh::reduction::Reduction;
use crate::navmesh::{Navmesh, Point, PolygonMap, Refinement, distance};

impl NavmeshLab {
    /// Shows the map file at `path` with an agent of `radius`.
    fn load_map(&mut self, path: String, radius: f64) {
        let search = super::MeshSearch { radius, ..self.search };
        match scene::load(&path).and_then(|loaded| Ok((build(&loaded.outline, &search)?, loaded))) {
            Ok((mesh, loaded)) => {
                self.map_path = path;
                self.search = search;
                // A drawing was over the old map; it does not belong to this one.
                self.drawing = None;
                self.show_map(mesh, loaded.grid, loaded.polygons);
            }
            // The map on screen stays; only the message changes.
            Err(e) => self.error = Some(e),
        }
    }

    pub fn apply(&mut self, command: MeshCommand) {
        match command {
            // An agent sized for the old map starts over as a point on another one.
            MeshCommand::LoadMap(path) => self.load_map(path, 0.0),
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
            MeshCommand::SetPolygons(kind) => {
                self.search.mesh = kind;
                self.run();
            }
            MeshCommand::SetRefine(refine) => {
                self.search.min_angle = refine.then_some(Refinement::default().min_angle_deg);
                self.load_map(self.map_path.clone(), self.search.radius);
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
    pub(super) fn seek(&mut self, step: usize) {
        match self.replay {
            ReplayKind::Search if self.polyanya() => self.intervals.seek(step),
            ReplayKind::Search => self.player.seek(step),
            ReplayKind::Funnel => self.funnel.seek(step),
            ReplayKind::Walk => self.walk.seek(step),
        };
    }

    /// While the bar plays, moves the selected recording on by this frame's share.
    pub(super) fn advance_playback(&mut self, ui: &egui::Ui) {
        let (step, len) = self.replay_position();
        if let Some(step) = self.bar.advance(ui, step, len) {
            self.seek(step);
            ui.ctx().request_repaint();
        }
    }

    /// (step, length) of the selected recording.
    pub(super) fn replay_position(&self) -> (usize, usize) {
        match self.replay {
            ReplayKind::Search if self.polyanya() => (self.intervals.step(), self.intervals.len()),
            ReplayKind::Search => (self.player.step(), self.player.len()),
            ReplayKind::Funnel => (self.funnel.step(), self.funnel.len()),
            ReplayKind::Walk => (self.walk.step(), self.walk.len()),
        }
    }

    pub(super) fn show_map(&mut self, mesh: Navmesh, grid: Option<Grid>, polygons: Option<PolygonMap>) {
        self.extent = mesh_extent(&mesh);
        self.reduction = Arc::new(Reduction::new(&mesh));
        self.convex = (self.search.mesh, Arc::new(self.search.mesh.polygons(&mesh)));
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
    pub(super) fn snap(&self, p: Point) -> Point {
        snap_to_cell(self.grid.as_deref(), p)
    }

    pub(super) fn bounds(&self) -> (Point, Point) {
        self.extent
    }
}
