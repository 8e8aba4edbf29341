//! The grid lab inside a lecture cell: the page's own canvas, replay, statistics and pseudocode,
//! without its panel of settings (the lecture sets them).

use egui::{Rect, Vec2};

use super::{GridCommand, GridLab, describe};
use crate::app::notebook::LiveCell;
use crate::app::widgets;

/// The statistics and pseudocode beside the canvas.
const SIDE_WIDTH: f32 = 380.0;

impl LiveCell for GridLab {
    fn error_mut(&mut self) -> Option<&mut Option<String>> {
        Some(&mut self.error)
    }

    fn cell_ui(&mut self, ui: &mut egui::Ui, height: f32) -> Rect {
        let mut commands = Vec::new();
        self.advance_playback(ui);
        let mut replay = Vec::new();
        self.bar.compact_ui(ui, self.timeline_position(), self.timeline_len(), &mut replay);
        commands.extend(replay.into_iter().map(GridCommand::Replay));
        self.progress(ui, &mut commands);
        self.messages(ui);
        let mut canvas = Rect::NOTHING;
        ui.horizontal_top(|ui| {
            let sides = self.replays.len();
            let spacing = ui.spacing().item_spacing.x;
            // A map no wider than the cell's height leaves the rest of the width to the column
            // (a planner's comparison table needs it); at least SIDE_WIDTH, or a share of a narrow cell.
            let header = if sides == 2 {
                ui.text_style_height(&egui::TextStyle::Body) + ui.spacing().item_spacing.y
            } else {
                0.0
            };
            let map = height * self.grid.width() as f32 / self.grid.height().max(1) as f32;
            let side = SIDE_WIDTH
                .min(ui.available_width() * 0.35)
                .max(ui.available_width() - sides as f32 * (map + spacing) - spacing);
            let width = ((ui.available_width() - side) / sides as f32 - spacing).max(160.0);
            for index in 0..sides {
                ui.vertical(|ui| {
                    if sides == 2 {
                        ui.add(
                            egui::Label::new(egui::RichText::new(describe(&self.replays[index].search)).strong())
                                .truncate(),
                        );
                    }
                    self.canvas(ui, index, Vec2::new(width, height), false, &mut commands);
                });
                canvas = canvas.union(self.canvas_rects[index].unwrap_or(Rect::NOTHING));
            }
            // Beside the column headers too, when two searches are compared.
            let narration = self.narration();
            // Stepping through a planner, its code is what the class follows: more of it than of a
            // search's, whose figures a compared cell shows whole.
            let least_code = if self.plan_player().is_some() { 8.0 } else { widgets::LEAST_CODE };
            widgets::cell_column(
                ui,
                [ui.available_width(), height + header],
                &narration,
                least_code,
                |ui| {
                    if !self.hierarchy.pseudocode(ui, &self.settings.hierarchy) {
                        self.pseudocode(ui);
                    }
                },
                |ui| {
                    // A planner's own figures (the prose quotes them), then the replayed search's.
                    self.hierarchy.stats(ui, self.grid());
                    self.stats(ui);
                },
            );
        });
        for command in commands {
            self.apply(command);
        }
        canvas
    }
}
