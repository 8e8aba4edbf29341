//! A small picture of a node's position: tic-tac-toe's 3×3 grid, or the Barca board widget with
//! the move that led there and the evaluation feature by feature.

use egui::{Align2, FontId, Rect, Sense, Stroke, Vec2};

use super::recording::Position;
use crate::app::barca_board::{BoardDecor, board_ui};
use crate::games::Side;
use crate::games::barca::{Weights, breakdown};

/// Draws `position`; `last_move` is the move text that led to it, if any.
pub fn paint(ui: &mut egui::Ui, position: &Position, last_move: Option<&str>) {
    match position {
        Position::TicTacToe(game) => tic_tac_toe(ui, |cell| game.owner(cell)),
        // A typed-in tree's node is its text, shown below.
        Position::CustomTree(_) => {}
        Position::Barca(game) => {
            let decor = BoardDecor { last_move: last_move.and_then(|text| text.parse().ok()), ..BoardDecor::default() };
            board_ui(ui, game, &decor, 280.0);
            ui.strong("Evaluation (default weights), for the side to move");
            egui::Grid::new("evaluation breakdown").striped(true).show(ui, |ui| {
                for header in ["feature", "own", "opponent", "weight", "score"] {
                    ui.label(header);
                }
                ui.end_row();
                let terms = breakdown(game, &Weights::default());
                for term in &terms {
                    ui.label(term.name);
                    ui.label(term.own.to_string());
                    ui.label(term.opponent.to_string());
                    ui.label(term.weight.map_or("table".to_string(), |w| w.to_string()));
                    ui.label(format!("{:+}", term.contribution));
                    ui.end_row();
                }
                ui.strong("total");
                for _ in 0..3 {
                    ui.label("");
                }
                ui.strong(format!("{:+}", terms.iter().map(|t| t.contribution).sum::<i32>()));
                ui.end_row();
            });
        }
    }
}

fn tic_tac_toe(ui: &mut egui::Ui, owner: impl Fn(u8) -> Option<Side>) {
    const CELL: f32 = 40.0;
    let (rect, _) = ui.allocate_exact_size(Vec2::splat(CELL * 3.0), Sense::hover());
    let painter = ui.painter_at(rect);
    // The tree's colours: a cell's fill is the card colour of the side that took it.
    let palette = crate::app::theme::palette(ui.ctx());
    for cell in 0..9u8 {
        let (row, column) = (f32::from(cell / 3), f32::from(cell % 3));
        let square = Rect::from_min_size(rect.min + Vec2::new(column, row) * CELL, Vec2::splat(CELL));
        let (mark, fill) = match owner(cell) {
            Some(Side::First) => ("X", palette.max_fill),
            Some(Side::Second) => ("O", palette.min_fill),
            None => ("", palette.other_fill),
        };
        painter.rect(square, 0.0, fill, Stroke::new(1.0, palette.tree_edge), egui::StrokeKind::Inside);
        painter.text(square.center(), Align2::CENTER_CENTER, mark, FontId::monospace(CELL * 0.6), palette.card_text);
    }
}
