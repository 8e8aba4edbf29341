//! The map canvas and what the mouse and keyboard do on it: zoom, pan, painting, dragging the
//! endpoints, dropped files.

use egui::{Color32, Key, PointerButton, Sense, Vec2};

use super::canvas::{self, Overlay};
use super::{Brush, Drag, GridCommand, GridLab, Tool};
use crate::app::canvas_nav::Nav;
use crate::app::history;
use crate::app::replay_bar::ReplayBar;
use crate::pathfinding::search_trace::NodeStatus;
use crate::trace::NO_NODE;

impl GridLab {
    /// One map canvas showing replay `side`; the plain wheel zooms it where it `wheel_zooms` (on
    /// the page; in a lecture cell it scrolls the lecture, and ctrl + wheel zooms).
    pub(super) fn canvas(
        &mut self,
        ui: &mut egui::Ui,
        side: usize,
        size: Vec2,
        wheel_zooms: bool,
        commands: &mut Vec<GridCommand>,
    ) {
        let (response, painter) = ui.allocate_painter(size, Sense::click_and_drag());
        let name = if side == 0 { "Map canvas" } else { "Right map canvas" };
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Canvas, true, name));
        let rect = response.rect;
        self.canvas_rects[side] = Some(rect);
        self.map_view.follow(rect.size(), &self.grid);
        let replay = &self.replays[side];
        let texture = self.textures[side].update(ui.ctx(), &self.grid, self.replay_id, &replay.player);
        painter.rect_filled(rect, 0.0, crate::app::theme::palette(ui.ctx()).background);
        let map_rect = egui::Rect::from_min_max(
            self.map_view.to_screen(rect, 0.0, 0.0),
            self.map_view.to_screen(rect, self.grid.width() as f32, self.grid.height() as f32),
        );
        let uv = egui::Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(1.0, 1.0));
        painter.image(texture, map_rect, uv, Color32::WHITE);
        self.hierarchy.paint_below(ui.ctx(), &painter, rect, &self.map_view, &self.grid, &self.settings.hierarchy);

        let pointer_cell = |pos: egui::Pos2| {
            let (x, y) = self.map_view.cell_at(rect, pos);
            self.grid.contains(x, y).then(|| self.grid.cell(x as u32, y as u32))
        };
        let hovered = response.hover_pos().and_then(pointer_cell);
        if side == 0 {
            self.hovered = hovered;
        }
        let (mut start, mut goal) = (self.start, self.goal);
        if let Some(Drag::Endpoint { goal: moving_goal, cell }) = self.drag {
            *(if moving_goal { &mut goal } else { &mut start }) = cell;
        }
        let overlay = Overlay {
            grid: &self.grid,
            view: replay.player.view(),
            start,
            goal,
            show_values: self.settings.show_values,
            hovered,
        };
        canvas::paint_overlays(&painter, rect, &self.map_view, &overlay);
        self.hierarchy.paint_above(&painter, rect, &self.map_view, &self.grid, &self.settings.hierarchy);
        if let Some(cell) = hovered {
            let text = self.cell_info(side, cell);
            response.clone().on_hover_text_at_pointer(text);
        }
        if ui.input(|i| !i.raw.hovered_files.is_empty()) {
            painter.rect_filled(rect, 0.0, Color32::from_black_alpha(160));
            let font = egui::FontId::proportional(26.0);
            painter.text(rect.center(), egui::Align2::CENTER_CENTER, "Drop a .map or .scen file", font, Color32::WHITE);
        }
        self.canvas_input(ui, &response, rect, wheel_zooms, commands);
    }

    pub(super) fn cell_info(&self, side: usize, cell: u32) -> String {
        let record = self.replays[side].player.view().node(cell);
        let (x, y) = self.grid.coords(cell);
        let weight =
            if self.grid.is_cell_passable(cell) { format!("weight {}", self.grid.weight(cell)) } else { "wall".into() };
        match record.status {
            // A wall is never reached: "not yet" would promise otherwise.
            _ if !self.grid.is_cell_passable(cell) => format!("cell ({x}, {y}), wall"),
            NodeStatus::Unseen => format!("cell ({x}, {y}), {weight}\nnot reached yet"),
            status => {
                let parent = if record.parent == NO_NODE {
                    "-".to_string()
                } else {
                    format!("{:?}", self.grid.coords(record.parent))
                };
                let status = if status == NodeStatus::Open { "open" } else { "closed" };
                format!(
                    "cell ({x}, {y}), {weight}, {status}\ng = {:.3}\nh = {:.3}\nf = {:.3}\nparent {parent}",
                    record.g,
                    record.h,
                    record.f()
                )
            }
        }
    }

    /// Zoom, pan, painting and dragging the endpoints. Two fingers pan and zoom whatever the tool;
    /// a second finger ends the first one's edit (what it painted stays), so a pinch never paints.
    pub(super) fn canvas_input(
        &mut self,
        ui: &egui::Ui,
        response: &egui::Response,
        rect: egui::Rect,
        wheel_zooms: bool,
        commands: &mut Vec<GridCommand>,
    ) {
        let nav =
            Nav::read(ui, rect, response.hovered() || response.is_pointer_button_down_on(), Vec2::ZERO, wheel_zooms);
        let touching = nav.is_some_and(|nav| nav.touch);
        if let Some(nav) = nav {
            if nav.pan != Vec2::ZERO {
                self.map_view.pan(nav.pan);
            }
            if nav.zoom != 1.0 {
                self.map_view.zoom_at(rect, nav.about, nav.zoom);
            }
        }
        if touching {
            if let Some(Drag::Paint { painted: true, .. }) = self.drag.take() {
                commands.push(GridCommand::Rerun);
            }
            // The finger left down after the pinch pans; the pinch itself moved the view above.
            self.drag = response.is_pointer_button_down_on().then_some(Drag::Pan);
            return;
        }
        let cell_xy = |pos: egui::Pos2| self.map_view.cell_at(rect, pos);
        let cell_of = |(x, y): (i64, i64)| self.grid.contains(x, y).then(|| self.grid.cell(x as u32, y as u32));
        let brush = match self.settings.tool {
            Tool::Wall => Some(Brush::Wall),
            Tool::Erase => Some(Brush::Erase),
            Tool::Weight => Some(Brush::Weight(self.settings.paint_weight)),
            Tool::Pan | Tool::Start | Tool::Goal => None,
        };
        if response.clicked()
            && let Some(cell) = response.interact_pointer_pos().map(cell_xy).and_then(cell_of)
        {
            match (self.settings.tool, brush) {
                (_, Some(brush)) => commands.extend([GridCommand::Paint(brush, vec![cell]), GridCommand::Rerun]),
                (Tool::Start, _) => commands.push(GridCommand::SetStart(cell)),
                (Tool::Goal, _) => commands.push(GridCommand::SetGoal(cell)),
                _ => {}
            }
        }
        // A drag begun during a pinch is already a pan.
        if response.drag_started() && self.drag.is_none() {
            let origin = ui.input(|i| i.pointer.press_origin()).unwrap_or(rect.center());
            let pressed = cell_of(cell_xy(origin));
            let primary = response.dragged_by(PointerButton::Primary) && !ui.input(|i| i.modifiers.ctrl);
            self.drag = Some(match (primary, pressed, brush) {
                (false, _, _) => Drag::Pan,
                (true, Some(cell), _) if cell == self.start => Drag::Endpoint { goal: false, cell },
                (true, Some(cell), _) if cell == self.goal => Drag::Endpoint { goal: true, cell },
                (true, _, _) if self.settings.tool == Tool::Start => Drag::Endpoint { goal: false, cell: self.start },
                (true, _, _) if self.settings.tool == Tool::Goal => Drag::Endpoint { goal: true, cell: self.goal },
                (true, _, Some(brush)) => Drag::Paint { brush, last: cell_xy(origin), painted: false },
                (true, _, None) => Drag::Pan,
            });
        }
        if response.dragged()
            && let Some(pos) = response.interact_pointer_pos()
        {
            match &mut self.drag {
                Some(Drag::Pan) => self.map_view.pan(response.drag_delta()),
                Some(Drag::Paint { brush, last, painted }) => {
                    let here = cell_xy(pos);
                    let cells: Vec<u32> = canvas::line_cells(*last, here).into_iter().filter_map(cell_of).collect();
                    *last = here;
                    if !cells.is_empty() {
                        *painted = true;
                        commands.push(GridCommand::Paint(*brush, cells));
                    }
                }
                Some(Drag::Endpoint { cell, .. }) => {
                    if let Some(here) = cell_of(cell_xy(pos)).filter(|&c| self.grid.is_cell_passable(c)) {
                        *cell = here;
                    }
                }
                None => {}
            }
        }
        if response.drag_stopped() {
            match self.drag.take() {
                Some(Drag::Paint { painted: true, .. }) => commands.push(GridCommand::Rerun),
                Some(Drag::Endpoint { goal: false, cell }) if cell != self.start => {
                    commands.push(GridCommand::SetStart(cell))
                }
                Some(Drag::Endpoint { goal: true, cell }) if cell != self.goal => {
                    commands.push(GridCommand::SetGoal(cell))
                }
                _ => {}
            }
        }
    }

    pub(super) fn keyboard(&self, ui: &egui::Ui, commands: &mut Vec<GridCommand>) {
        if ui.ctx().egui_wants_keyboard_input() {
            return;
        }
        let mut replay = Vec::new();
        ReplayBar::keys(ui, &mut replay);
        commands.extend(replay.into_iter().map(GridCommand::Replay));
        let keys = [(Key::F, GridCommand::Fit), (Key::Enter, GridCommand::Run), (Key::Escape, GridCommand::Cancel)];
        for (key, command) in keys {
            if ui.input(|i| i.key_pressed(key)) {
                commands.push(command);
            }
        }
        commands.extend(history::keys(ui).map(GridCommand::History));
    }

    pub(super) fn dropped_files(&self, ui: &egui::Ui, commands: &mut Vec<GridCommand>) {
        for file in ui.input(|i| i.raw.dropped_files.clone()) {
            let path = file.path().display().to_string();
            let scenarios = crate::files::has_extension(file.path(), "scen");
            commands.push(if scenarios { GridCommand::LoadScenarios(path) } else { GridCommand::LoadMap(path) });
        }
    }
}
