//! The page's panels: the controls, the figures, the canvas with its clicks, and the legend.

use egui::emath::TSTransform;
use egui::{Color32, Sense, Vec2};

use super::canvas::Transform;
use super::{Endpoint, MAPS, MeshAlgorithm, MeshCommand, NavmeshLab, PolygonKind, ReplayKind};
use crate::app::canvas_nav::Nav;
use crate::app::history;
use crate::app::theme::{self, Palette};
use crate::app::widgets;
use crate::navmesh::polygon::hole_name;
use crate::navmesh::reduction::Role;
use crate::pathfinding::search_trace::SearchOutcome;
use crate::text::counted;

impl NavmeshLab {
    pub(super) fn controls(&mut self, ui: &mut egui::Ui, commands: &mut Vec<MeshCommand>) {
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
            for algorithm in [MeshAlgorithm::Ta, MeshAlgorithm::Tra, MeshAlgorithm::Polyanya] {
                if ui.radio(self.search.algorithm == algorithm, algorithm.label()).clicked() {
                    commands.push(MeshCommand::SetAlgorithm(algorithm));
                }
            }
        });
        if self.polyanya() {
            ui.horizontal_wrapped(|ui| {
                ui.label("Polyanya searches:");
                for (kind, name) in
                    [(PolygonKind::Triangles, "the triangles"), (PolygonKind::Merged, "merged polygons")]
                {
                    if ui.radio(self.search.mesh == kind, name).clicked() {
                        commands.push(MeshCommand::SetPolygons(kind));
                    }
                }
            });
        }
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
            ReplayKind::Funnel if self.polyanya() => {
                "Nothing to replay: Polyanya needs no funnel, its roots are the path's corners (Search shows them)."
            }
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
    pub(super) fn stats(&self, ui: &mut egui::Ui, offer_grid: bool) {
        if self.polyanya() {
            self.polyanya_stats(ui);
            self.comparison_stats(ui, offer_grid);
            return;
        }
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
        self.comparison_stats(ui, offer_grid);
    }

    /// The walk's step, and grid A*'s octile path beside the any-angle one on a grid map.
    fn comparison_stats(&self, ui: &mut egui::Ui, offer_grid: bool) {
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

    pub(super) fn canvas(&mut self, ui: &mut egui::Ui, commands: &mut Vec<MeshCommand>) {
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
    pub(super) fn placing_toggle(&self, ui: &mut egui::Ui, commands: &mut Vec<MeshCommand>) {
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
            ReplayKind::Search if self.polyanya() => self.polyanya_legend(p),
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

    pub(super) fn legend(&self, ui: &mut egui::Ui) {
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
