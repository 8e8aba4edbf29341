//! The polygon lesson inside a lecture cell: the page's own canvas, replays, statistics,
//! pseudocode and narration, without its panel of settings (the lecture sets them).

use egui::{Rect, Vec2};

use super::{MeshCommand, NavmeshLab, ReplayKind};
use crate::app::notebook::LiveCell;
use crate::app::widgets;

/// The statistics, pseudocode and narration beside the canvas.
const SIDE_WIDTH: f32 = 420.0;

impl LiveCell for NavmeshLab {
    fn error_mut(&mut self) -> Option<&mut Option<String>> {
        Some(&mut self.error)
    }

    fn cell_ui(&mut self, ui: &mut egui::Ui, height: f32) -> Rect {
        let mut commands = Vec::new();
        self.advance_playback(ui);
        ui.horizontal(|ui| {
            for kind in [ReplayKind::Search, ReplayKind::Funnel, ReplayKind::Walk] {
                if ui.radio(self.replay == kind, kind.name()).clicked() {
                    commands.push(MeshCommand::SetReplay(kind));
                }
            }
            ui.separator();
            self.placing_toggle(ui, &mut commands);
        });
        let (step, len) = self.replay_position();
        let mut replay = Vec::new();
        self.bar.compact_ui(ui, step, len, &mut replay);
        commands.extend(replay.into_iter().map(MeshCommand::Replay));
        if let Some(job) = &self.job
            && widgets::progress(ui, &job.label, None, job.elapsed())
        {
            self.job = None;
        }
        if let Some(error) = &self.error {
            widgets::error(ui, error);
        }
        ui.horizontal_top(|ui| {
            let size = Vec2::new((ui.available_width() - SIDE_WIDTH).max(240.0), height);
            ui.allocate_ui(size, |ui| self.canvas(ui, &mut commands));
            ui.vertical(|ui| {
                widgets::compact(ui, height, |ui| {
                    self.stats(ui, false);
                    // The prose names no colours (palettes change): it points here.
                    self.legend(ui);
                    ui.separator();
                    self.pseudocode(ui);
                });
            });
        });
        for command in commands {
            self.apply(command);
        }
        self.transform.as_ref().map_or(Rect::NOTHING, |at| at.rect)
    }
}
