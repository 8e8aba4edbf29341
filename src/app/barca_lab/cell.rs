//! The Barca page inside a lecture cell: the page's own board, status (with the computer's
//! search) and move list, without its panels of settings (the lecture sets the position and the
//! computer). Both sides are the reader's; "Computer move" lets the engine search and answer.

use egui::Rect;

use super::{BarcaCommand, BarcaLab, Mode};
use crate::app::barca_board::board_ui;
use crate::app::notebook::LiveCell;

/// The status and move list beside the board.
const SIDE_WIDTH: f32 = 360.0;

impl BarcaLab {
    /// The page for a lecture cell: nobody moves until the reader does or asks the computer.
    pub fn for_cell() -> Self {
        let mut lab = Self::new();
        lab.settings.players = Mode::HumanVsHuman.players();
        lab
    }
}

impl LiveCell for BarcaLab {
    fn cell_ui(&mut self, ui: &mut egui::Ui, height: f32) -> Rect {
        let mut commands = Vec::new();
        let size = height.min(ui.available_width() - SIDE_WIDTH).max(240.0);
        let mut board = Rect::NOTHING;
        ui.horizontal_top(|ui| {
            let response = ui.scope(|ui| board_ui(ui, &self.game, &self.decor(), size));
            board = response.response.rect;
            if let Some(square) = response.inner {
                commands.push(BarcaCommand::ClickSquare(square));
            }
            ui.vertical(|ui| {
                self.status(ui, &mut commands);
                let idle = self.thinking.is_none() && self.outcome().is_none();
                let hint = "The engine the lecture sets searches this position and plays its answer";
                if ui.add_enabled(idle, egui::Button::new("Computer move")).on_hover_text(hint).clicked() {
                    commands.push(BarcaCommand::ComputerMove);
                }
                self.move_list(ui, &mut commands);
            });
        });
        for command in commands {
            self.apply(command);
        }
        board
    }
}
