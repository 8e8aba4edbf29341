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
        if let Some(error) = &self.error {
            widgets::error(ui, error);
        }
        let mut canvas = Rect::NOTHING;
        ui.horizontal_top(|ui| {
            let sides = self.replays.len();
            let side = SIDE_WIDTH.min(ui.available_width() * 0.35);
            let width = ((ui.available_width() - side) / sides as f32 - ui.spacing().item_spacing.x).max(160.0);
            for index in 0..sides {
                ui.vertical(|ui| {
                    if sides == 2 {
                        ui.add(egui::Label::new(egui::RichText::new(describe(&self.replays[index].search)).strong()).truncate());
                    }
                    self.canvas(ui, index, Vec2::new(width, height), &mut commands);
                });
                canvas = canvas.union(self.canvas_rects[index].unwrap_or(Rect::NOTHING));
            }
            ui.vertical(|ui| {
                ui.set_max_width(ui.available_width());
                // Beside the column headers too, when two searches are compared.
                let header = if sides == 2 { ui.text_style_height(&egui::TextStyle::Body) + ui.spacing().item_spacing.y } else { 0.0 };
                widgets::compact(ui, height + header, |ui| {
                    // A planner's own figures (the prose quotes them), then the replayed search's.
                    self.hierarchy.stats(ui);
                    self.stats(ui);
                    ui.separator();
                    if !self.hierarchy.pseudocode(ui, &self.settings.hierarchy) {
                        self.pseudocode(ui);
                    }
                });
            });
        });
        for command in commands {
            self.apply(command);
        }
        canvas
    }
}
