//! The page's body, on the page and in a lecture cell: the map at the time chosen, and beside it
//! the time slider, the narration, the pseudocode and the statistics.

use egui::{Rect, Vec2};

use super::AgentsLab;
use crate::app::notebook::LiveCell;
use crate::app::replay_bar::slider_in_row;
use crate::app::widgets;

/// The column beside the map gets at least this share of the width.
const SIDE_SHARE: f32 = 0.36;
/// On a phone the map takes at most this share of the body's height, the column the rest.
const NARROW_MAP_SHARE: f32 = 0.5;
/// The column under the map on a phone is at least this tall (points).
const MIN_NARROW_COLUMN: f32 = 240.0;

impl AgentsLab {
    /// The running job's line (Cancel drops it) and the page's error.
    pub(super) fn progress_and_errors(&mut self, ui: &mut egui::Ui) {
        if let Some(job) = &self.job {
            let fraction = job.progress().fraction();
            if widgets::progress(ui, &job.label, fraction, job.elapsed()) {
                self.job = None;
            }
        }
        if let Some(error) = &self.error {
            widgets::error(ui, error);
        }
    }

    /// The map and its column, `height` tall; returns the map's rect.
    pub(super) fn body(&mut self, ui: &mut egui::Ui, height: f32) -> Rect {
        let aspect = self.grid.width() as f32 / self.grid.height().max(1) as f32;
        if widgets::is_narrow(ui.ctx()) {
            // A phone: the map the whole width, its column under it.
            let width = ui.available_width();
            let map_height = (width / aspect).min(height * NARROW_MAP_SHARE).max(160.0);
            let canvas = self.canvas(ui, Vec2::new(width, map_height));
            self.column(ui, (height - map_height).max(MIN_NARROW_COLUMN));
            return canvas;
        }
        let mut canvas = Rect::NOTHING;
        ui.horizontal_top(|ui| {
            let side = ui.available_width() * SIDE_SHARE;
            let width = (height * aspect).min(ui.available_width() - side).max(160.0);
            canvas = self.canvas(ui, Vec2::new(width, height));
            ui.vertical(|ui| {
                ui.set_max_width(ui.available_width());
                self.column(ui, height);
            });
        });
        canvas
    }

    /// The map's column, `height` tall: time slider, narration, pseudocode and statistics.
    fn column(&mut self, ui: &mut egui::Ui, height: f32) {
        let top = ui.cursor().top();
        self.time_slider(ui);
        let narration = self.narration();
        widgets::rest_of_column(ui, [top, height], &narration, |ui| self.pseudocode(ui), |ui| self.stats(ui));
    }

    /// "Time t": where the agents are drawn, from 0 to the plan's last step.
    fn time_slider(&mut self, ui: &mut egui::Ui) {
        let Some(shown) = &self.shown else { return };
        let last = shown.player.view().last_time();
        ui.horizontal_wrapped(|ui| {
            for (label, to) in [("t = 0", 0), ("t - 1", self.time.saturating_sub(1)), ("t + 1", self.time + 1)] {
                if ui.button(label).clicked() {
                    self.time = to.min(last);
                }
            }
            slider_in_row(ui, egui::Slider::new(&mut self.time, 0..=last.max(1)).text("Time t"), "Time t");
        });
    }
}

impl LiveCell for AgentsLab {
    fn error_mut(&mut self) -> Option<&mut Option<String>> {
        Some(&mut self.error)
    }

    fn cell_ui(&mut self, ui: &mut egui::Ui, height: f32) -> Rect {
        self.advance_playback(ui);
        let mut replay = Vec::new();
        let (step, len) = self.shown.as_ref().map_or((0, 0), |shown| (shown.player.step(), shown.player.len()));
        self.bar.compact_ui(ui, step, len, &mut replay);
        for command in replay {
            self.replay(command);
        }
        self.progress_and_errors(ui);
        self.body(ui, height)
    }
}
