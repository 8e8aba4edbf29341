//! A small picture of a node's position, the app's table of boards by game: tic-tac-toe's 3×3
//! grid, Othello's discs, Hus's pits, or the Barca board widget with the move that led there and
//! the evaluation feature by feature.

use egui::{Align2, FontId, Rect, Sense, Stroke, Vec2};

use super::recording::Position;
use crate::app::barca_board::{BoardDecor, board_ui};
use crate::games::Side;
use crate::games::barca::{Weights, breakdown};

/// Draws `position`; `last_move` is the move text that led to it, if any.
pub fn paint(ui: &mut egui::Ui, position: &Position, last_move: Option<&str>) {
    match position {
        Position::TicTacToe(game) => tic_tac_toe(ui, |cell| game.owner(cell)),
        Position::Othello(game) => othello(ui, game),
        Position::Hus(game) => hus(ui, game),
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

/// A board of `columns` x `rows` squares `size` points wide, each with its text and the side it
/// belongs to, filled in the tree's colour of that side.
fn squares(ui: &mut egui::Ui, [columns, rows]: [u8; 2], size: f32, square: impl Fn(u8, u8) -> (String, Option<Side>)) {
    let (rect, _) = ui.allocate_exact_size(Vec2::new(f32::from(columns), f32::from(rows)) * size, Sense::hover());
    let painter = ui.painter_at(rect);
    let palette = crate::app::theme::palette(ui.ctx());
    for (row, column) in (0..rows).flat_map(|row| (0..columns).map(move |column| (row, column))) {
        let corner = rect.min + Vec2::new(f32::from(column), f32::from(row)) * size;
        let cell = Rect::from_min_size(corner, Vec2::splat(size));
        let (text, side) = square(row, column);
        let fill = match side {
            Some(Side::First) => palette.max_fill,
            Some(Side::Second) => palette.min_fill,
            None => palette.other_fill,
        };
        painter.rect(cell, 0.0, fill, Stroke::new(1.0, palette.tree_edge), egui::StrokeKind::Inside);
        painter.text(cell.center(), Align2::CENTER_CENTER, text, FontId::monospace(size * 0.55), palette.card_text);
    }
}

/// Tic-tac-toe's cells, row by row from the top left.
fn tic_tac_toe(ui: &mut egui::Ui, owner: impl Fn(u8) -> Option<Side>) {
    squares(ui, [3, 3], 40.0, |row, column| {
        let side = owner(row * 3 + column);
        let mark = match side {
            Some(Side::First) => "X",
            Some(Side::Second) => "O",
            None => "",
        };
        (mark.to_string(), side)
    });
}

/// Othello's board, rank 8 at the top: X Black, O White.
fn othello(ui: &mut egui::Ui, game: &crate::games::othello::Othello) {
    squares(ui, [8, 8], 28.0, |row, column| {
        let side = game.disc_at((7 - row) * 8 + column);
        let disc = match side {
            Some(Side::First) => "X",
            Some(Side::Second) => "O",
            None => "",
        };
        (disc.to_string(), side)
    });
}

/// Hus's pits with their seeds: the second player's two rows above, the first player's below,
/// the inner rows (pits 16..31) in the middle.
fn hus(ui: &mut egui::Ui, game: &crate::games::hus::Hus) {
    squares(ui, [16, 4], 22.0, |row, column| {
        let side = if row < 2 { Side::Second } else { Side::First };
        let pit = if row == 1 || row == 2 { 16 + column } else { column };
        (game.pits(side)[usize::from(pit)].to_string(), Some(side))
    });
}
