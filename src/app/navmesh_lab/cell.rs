//! The polygon lesson inside a lecture cell: the page's own canvas, replays, statistics,
//! pseudocode and narration, without its panel of settings (the lecture sets them).

use egui::{Rect, Vec2};

use super::{MeshCommand, NavmeshLab, ReplayKind};
use crate::app::notebook::LiveCell;
use crate::app::widgets;

/// The replay's controls, statistics, pseudocode and narration beside the canvas: at least this
/// share of the cell, and never narrower than the replay's buttons.
const SIDE_SHARE: f32 = 0.35;

impl LiveCell for NavmeshLab {
    fn error_mut(&mut self) -> Option<&mut Option<String>> {
        Some(&mut self.error)
    }

    fn cell_ui(&mut self, ui: &mut egui::Ui, height: f32) -> Rect {
        let mut commands = Vec::new();
        self.advance_playback(ui);
        // The map is about as wide as it is tall: the replay's controls go beside it, with the
        // narration, pseudocode and figures, so the map takes the cell's whole height.
        ui.horizontal_top(|ui| {
            // The map as wide as its shape at the cell's height, unless the column would get less.
            let (lo, hi) = self.bounds();
            let aspect = ((hi[0] - lo[0]) / (hi[1] - lo[1]).max(1e-9)) as f32;
            let least_side =
                (ui.available_width() * SIDE_SHARE).max(self.bar.buttons_width(ui) + ui.spacing().item_spacing.x);
            let size = Vec2::new((height * aspect).min(ui.available_width() - least_side).max(240.0), height);
            ui.allocate_ui(size, |ui| self.canvas(ui, &mut commands));
            ui.vertical(|ui| {
                // Its rows wrap within what the map leaves; none widens the cell.
                ui.set_max_width(ui.available_width());
                let top = ui.cursor().top();
                ui.horizontal_wrapped(|ui| {
                    for kind in [ReplayKind::Search, ReplayKind::Funnel, ReplayKind::Walk] {
                        if ui.radio(self.replay == kind, kind.name()).clicked() {
                            commands.push(MeshCommand::SetReplay(kind));
                        }
                    }
                });
                self.placing_toggle(ui, &mut commands);
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
                let narration = self.explanation();
                widgets::rest_of_column(
                    ui,
                    [top, height],
                    &narration,
                    |ui| self.pseudocode(ui),
                    |ui| {
                        self.stats(ui, false);
                        // The prose names no colours (palettes change): it points here.
                        self.legend(ui);
                    },
                );
            });
        });
        for command in commands {
            self.apply(command);
        }
        self.transform.as_ref().map_or(Rect::NOTHING, |at| at.rect)
    }
}
