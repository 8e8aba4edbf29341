//! One board widget per game on the play page. Each square, cell or pit is a labelled button
//! ("square d3", "cell b2", "pit 17") so screen readers and UI tests can find and click it; a
//! widget returns what was clicked as the game's move text, which the game itself then checks.

use egui::{Align2, Color32, FontId, Rect, Response, Sense, Stroke, StrokeKind, Vec2, vec2};

use crate::app::barca_board::{self, BoardDecor};
use crate::app::theme;
use crate::games::barca::{Barca, square_name as barca_square};
use crate::games::hus::{INNER, PITS, Pits};
use crate::games::othello::{Othello, square_name};
use crate::games::tictactoe::TicTacToe;
use crate::games::{Game, Side};

/// What a click on a board asks for.
#[derive(Debug, Clone, PartialEq)]
pub enum Click {
    /// A move, in the game's text.
    Move(String),
    /// A Barca animal picked (or the pick dropped: `None`), its move to follow.
    Pick(Option<u8>),
    /// A click that cannot be a move, and why (one sentence).
    Refused(String),
}

/// A square of a board: drawn by the caller, clicked as a button named `label`.
fn square(ui: &egui::Ui, area: Rect, id: egui::Id, label: String) -> Response {
    let response = ui.interact(area, id, Sense::click());
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, label.clone()));
    response
}

fn hover(painter: &egui::Painter, response: &Response, area: Rect) {
    if response.hovered() {
        painter.rect_filled(area, 0.0, Color32::from_white_alpha(40));
    }
}

/// Othello: discs on green, a dot on each square the side to move may play.
pub fn othello(ui: &mut egui::Ui, game: &Othello, last: Option<u8>, size: f32) -> Option<Click> {
    let (rect, board) = ui.allocate_exact_size(Vec2::splat(size), Sense::hover());
    let cell = size / 8.0;
    let painter = ui.painter_at(rect);
    let palette = theme::palette(ui.ctx());
    let legal = if game.is_finished() { 0 } else { game.legal_squares(game.side_to_move()) };
    let mut clicked = None;
    for index in 0..64u8 {
        // a1 top left, rows downwards: the notation's row 1 is at the top.
        let area =
            Rect::from_min_size(rect.min + vec2(f32::from(index % 8), f32::from(index / 8)) * cell, Vec2::splat(cell));
        let response = square(ui, area, board.id.with(index), format!("square {}", square_name(index)));
        if response.clicked() {
            clicked = Some(Click::Move(square_name(index)));
        }
        painter.rect_filled(area, 0.0, Color32::from_rgb(0x2e, 0x7d, 0x32));
        painter.rect_stroke(area, 0.0, Stroke::new(1.0, Color32::from_rgb(0x1b, 0x4d, 0x1e)), StrokeKind::Inside);
        if last == Some(index) {
            painter.rect_filled(area.shrink(2.0), 0.0, palette.last_move);
        }
        hover(&painter, &response, area);
        match game.disc_at(index) {
            Some(side) => {
                let (fill, rim) = disc_colours(side);
                painter.circle(area.center(), cell * 0.4, fill, Stroke::new(1.5, rim));
            }
            None if legal & (1 << index) != 0 => {
                let (fill, _) = disc_colours(game.side_to_move());
                painter.circle_filled(area.center(), cell * 0.12, fill.gamma_multiply(0.8));
            }
            None => {}
        }
    }
    clicked
}

fn disc_colours(side: Side) -> (Color32, Color32) {
    match side {
        Side::First => (Color32::from_gray(20), Color32::from_gray(120)),
        Side::Second => (Color32::from_gray(240), Color32::from_gray(90)),
    }
}

/// Where pit `pit` of `side` is: (column, row), player 1's rows on top, each player's outer row
/// at its own edge; a player's pits run left to right along the outer row as seen from its seat.
pub fn pit_place(side: Side, pit: usize) -> (usize, usize) {
    match (side, pit < INNER) {
        (Side::First, true) => (pit, 3),
        (Side::First, false) => (PITS - 1 - pit, 2),
        (Side::Second, true) => (INNER - 1 - pit, 0),
        (Side::Second, false) => (pit - INNER, 1),
    }
}

/// Hus: both players' pits with their seed counts (`pits`, perhaps a step of a sowing being
/// animated); the mover's playable pits outlined. Pits of the side to move are buttons "pit N";
/// the other side's are "pit N of <name>".
pub fn hus(ui: &mut egui::Ui, pits: &[Pits; 2], mover: Side, names: [&str; 2], width: f32) -> Option<Click> {
    let cell = width / 16.0;
    let (rect, board) = ui.allocate_exact_size(vec2(width, cell * 4.0 + 8.0), Sense::hover());
    let painter = ui.painter_at(rect);
    let palette = theme::palette(ui.ctx());
    let font = FontId::proportional(cell * 0.38);
    let mut clicked = None;
    for side in [Side::First, Side::Second] {
        let own = &pits[usize::from(side == Side::Second)];
        for (pit, &seeds) in own.iter().enumerate() {
            let (column, row) = pit_place(side, pit);
            let gap = if row >= 2 { 8.0 } else { 0.0 };
            let area =
                Rect::from_min_size(rect.min + vec2(column as f32 * cell, row as f32 * cell + gap), Vec2::splat(cell));
            let label = match side == mover {
                true => format!("pit {pit}"),
                false => format!("pit {pit} of {}", names[usize::from(side == Side::Second)]),
            };
            let response = square(ui, area, board.id.with((side == Side::Second, pit)), label);
            if response.clicked() {
                let owner = names[usize::from(side == Side::Second)];
                let mover_name = names[usize::from(mover == Side::Second)];
                clicked = Some(match side == mover {
                    true => Click::Move(pit.to_string()),
                    false => Click::Refused(format!("Pit {pit} is {owner}'s: {mover_name} sows from their own pits.")),
                });
            }
            let tint = if side == Side::First {
                Color32::from_rgb(0x8d, 0x6e, 0x63)
            } else {
                Color32::from_rgb(0x5d, 0x7d, 0x9a)
            };
            painter.circle_filled(area.center(), cell * 0.44, tint);
            if side == mover && seeds >= 2 {
                painter.circle_stroke(area.center(), cell * 0.44, Stroke::new(2.5, palette.last_move));
            }
            hover(&painter, &response, area);
            painter.text(area.center(), Align2::CENTER_CENTER, seeds.to_string(), font.clone(), Color32::WHITE);
        }
    }
    clicked
}

/// Tic-tac-toe: a 3 x 3 grid of X and O, cell a3 top left.
pub fn tictactoe(ui: &mut egui::Ui, game: &TicTacToe, size: f32) -> Option<Click> {
    let (rect, board) = ui.allocate_exact_size(Vec2::splat(size), Sense::hover());
    let cell = size / 3.0;
    let painter = ui.painter_at(rect);
    let ink = ui.visuals().text_color();
    let mut clicked = None;
    for index in 0..9u8 {
        let area =
            Rect::from_min_size(rect.min + vec2(f32::from(index % 3), f32::from(index / 3)) * cell, Vec2::splat(cell));
        let name = TicTacToe::cell_text(index);
        let response = square(ui, area, board.id.with(index), format!("cell {name}"));
        if response.clicked() {
            clicked = Some(Click::Move(name));
        }
        painter.rect_stroke(area, 0.0, Stroke::new(2.0, ink), StrokeKind::Inside);
        hover(&painter, &response, area);
        let mark = match game.owner(index) {
            Some(Side::First) => "X",
            Some(Side::Second) => "O",
            None => continue,
        };
        painter.text(area.center(), Align2::CENTER_CENTER, mark, FontId::proportional(cell * 0.6), ink);
    }
    clicked
}

/// Barca, on the Barca page's board: a first click picks an animal, a second its destination.
pub fn barca(ui: &mut egui::Ui, game: &Barca, picked: Option<u8>, size: f32) -> Option<Click> {
    let mut decor = BoardDecor { selected: picked, ..BoardDecor::default() };
    if let Some(from) = picked {
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        decor.green_dots = moves.iter().filter(|mv| mv.from == from).fold(0, |dots, mv| dots | 1u128 << mv.to);
    }
    let square = barca_board::board_ui(ui, game, &decor, size)?;
    Some(match picked {
        Some(from) if from == square => Click::Pick(None),
        Some(from) if game.piece_at(square).is_none_or(|(side, _)| side != game.side_to_move()) => {
            Click::Move(format!("{}{}", barca_square(from), barca_square(square)))
        }
        _ if game.piece_at(square).is_some_and(|(side, _)| side == game.side_to_move()) => Click::Pick(Some(square)),
        _ => {
            let side = crate::games::barca::side_name(game.side_to_move());
            Click::Refused(format!("{} holds none of {side}'s animals: pick one of them first.", barca_square(square)))
        }
    })
}
