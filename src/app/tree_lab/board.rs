//! A small picture of a position: tic-tac-toe's 3×3 grid or Barca's 10×10 board with its
//! watering holes and animals as letters (E, L, M; White's light, Black's dark).

use egui::{Align2, Color32, FontId, Rect, Sense, Stroke, Vec2};

use super::recording::Position;
use crate::games::Side;
use crate::games::barca::{Animal, HOLES, Barca};

pub fn paint(ui: &mut egui::Ui, position: &Position) {
    match position {
        Position::TicTacToe(game) => {
            let cells = (0..9u8).map(|c| game.owner(c).map(|side| (side, if side == Side::First { "X" } else { "O" }))).collect();
            grid(ui, 3, 40.0, cells, |_| false);
        }
        Position::Barca(game) => {
            // Row 10 at the top, as the board is printed in the notation.
            let cells = (0..100u8).map(|i| barca_piece(game, (9 - i / 10) * 10 + i % 10)).collect();
            grid(ui, 10, 22.0, cells, |i| HOLES & (1u128 << ((9 - i / 10) * 10 + i % 10)) != 0);
        }
    }
}

fn barca_piece(game: &Barca, square: u8) -> Option<(Side, &'static str)> {
    game.piece_at(square).map(|(side, animal)| {
        let letter = match animal {
            Animal::Elephant => "E",
            Animal::Lion => "L",
            Animal::Mouse => "M",
        };
        (side, letter)
    })
}

/// `cells` row by row from the top left; `marked` cells get a blue ground.
fn grid(ui: &mut egui::Ui, size: usize, cell: f32, cells: Vec<Option<(Side, &str)>>, marked: impl Fn(u8) -> bool) {
    let (rect, _) = ui.allocate_exact_size(Vec2::splat(cell * size as f32), Sense::hover());
    let painter = ui.painter_at(rect);
    for (i, piece) in cells.into_iter().enumerate() {
        let (row, column) = (i / size, i % size);
        let square = Rect::from_min_size(rect.min + Vec2::new(column as f32, row as f32) * cell, Vec2::splat(cell));
        let ground = if marked(i as u8) {
            Color32::from_rgb(60, 110, 170)
        } else if (row + column) % 2 == 0 {
            Color32::from_gray(70)
        } else {
            Color32::from_gray(58)
        };
        painter.rect(square, 0.0, ground, Stroke::new(1.0, Color32::from_gray(30)), egui::StrokeKind::Inside);
        if let Some((side, letter)) = piece {
            let (token, colour) = match side {
                Side::First => (Color32::from_gray(235), Color32::from_gray(20)),
                Side::Second => (Color32::from_gray(25), Color32::from_gray(235)),
            };
            // Barca's animals sit on tokens of their side's colour; X and O are plain letters.
            let colour = if size > 3 {
                painter.circle_filled(square.center(), cell * 0.42, token);
                colour
            } else {
                Color32::WHITE
            };
            painter.text(square.center(), Align2::CENTER_CENTER, letter, FontId::monospace(cell * 0.6), colour);
        }
    }
}
