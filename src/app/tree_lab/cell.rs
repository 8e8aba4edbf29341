//! The game-tree lesson inside a lecture cell: the page's own tree, replay, statistics and
//! pseudocode, without its panel of settings (the lecture sets them).

use egui::{Rect, Vec2};

use super::{TreeCommand, TreeLab};
use crate::app::notebook::LiveCell;
use crate::app::replay_bar::ReplayCommand;
use crate::app::widgets;

/// The statistics and pseudocode beside the tree: this share of the cell, within these widths.
const SIDE_SHARE: f32 = 0.3;
const SIDE_WIDTH: std::ops::RangeInclusive<f32> = 240.0..=400.0;

impl LiveCell for TreeLab {
    fn error_mut(&mut self) -> Option<&mut Option<String>> {
        Some(&mut self.error)
    }

    fn cell_ui(&mut self, ui: &mut egui::Ui, height: f32) -> Rect {
        self.in_cell = true;
        let mut commands = Vec::new();
        let mut replay = Vec::new();
        if let Some(recording) = &self.recording {
            if let Some(step) = self.bar.advance(ui, recording.step(), recording.step_count()) {
                replay.push(ReplayCommand::Seek(step));
                ui.ctx().request_repaint();
            }
            self.bar.compact_ui(ui, recording.step(), recording.step_count(), &mut replay);
        }
        self.progress(ui, &mut commands);
        if let Some(error) = &self.error {
            widgets::error(ui, error);
        }
        let mut canvas = Rect::NOTHING;
        ui.horizontal_top(|ui| {
            let side = (ui.available_width() * SIDE_SHARE).clamp(*SIDE_WIDTH.start(), *SIDE_WIDTH.end());
            let size = Vec2::new((ui.available_width() - side).max(240.0), height);
            // Top down: the note on what is in view goes under the canvas.
            let top_down = egui::Layout::top_down(egui::Align::Min);
            canvas = ui.allocate_ui_with_layout(size, top_down, |ui| self.tree(ui, &mut commands)).response.rect;
            let narration = self.narration();
            widgets::cell_column(
                ui,
                [ui.available_width(), height],
                &narration,
                widgets::LEAST_CODE,
                |ui| self.pseudocode(ui),
                |ui| self.stats(ui),
            );
        });
        commands.extend(replay.into_iter().map(TreeCommand::Replay));
        for command in commands {
            self.apply(command);
        }
        canvas
    }
}
