//! The Barca board as a widget, shared by the pages that show positions: squares, watering holes,
//! animals drawn with shapes (no images), the last move, scared animals and move dots. Every square
//! is a labelled button ("square e5") so screen readers and UI tests can find and click it.

use egui::{Color32, Painter, Pos2, Rect, Sense, Shape, Stroke, StrokeKind, Vec2, pos2, vec2};

use crate::app::theme::{self, Palette};
use crate::games::Side;
use crate::games::barca::{Animal, Barca, BarcaMove, Bitboard, HOLES, square_name};

/// A square index, a1 = 0 ... j10 = 99 (the engine's convention).
pub type Square = u8;

/// What to draw on top of the position.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BoardDecor {
    pub last_move: Option<BarcaMove>,
    /// The animal whose moves are shown.
    pub selected: Option<Square>,
    /// Destinations it may move to.
    pub green_dots: Bitboard,
    /// Destinations it can reach but may not enter because it would be scared there.
    pub red_dots: Bitboard,
    /// Draw Black's side at the bottom.
    pub flipped: bool,
    /// Leave scared animals unmarked.
    pub hide_scared: bool,
    /// The computer's best move so far while it thinks, drawn as an arrow.
    pub best_so_far: Option<BarcaMove>,
}

/// The colours on the board, for its legend.
pub fn legend_entries(palette: &Palette) -> [(Color32, &'static str); 7] {
    [
        (palette.water, "watering hole"),
        (palette.picked, "animal picked"),
        (palette.safe_move, "legal move"),
        (palette.unsafe_move, "scared there"),
        (palette.scared, "scared animal"),
        (palette.last_move, "last move"),
        (palette.best_so_far, "computer's best so far"),
    ]
}

/// The board at `size` × `size` points (coordinates included); returns the square clicked this frame.
pub fn board_ui(ui: &mut egui::Ui, game: &Barca, decor: &BoardDecor, size: f32) -> Option<Square> {
    let (rect, board) = ui.allocate_exact_size(Vec2::splat(size), Sense::hover());
    // Coordinates big enough to read from the back of a room.
    let margin = (size * 0.05).clamp(16.0, 30.0);
    let cell = (size - margin) / 10.0;
    let squares = Rect::from_min_size(rect.min + vec2(margin, 0.0), Vec2::splat(cell * 10.0));
    let square_rect = |square: Square| {
        let (column, row) = ((square % 10) as f32, (square / 10) as f32);
        let (column, row) = if decor.flipped { (9.0 - column, row) } else { (column, 9.0 - row) };
        Rect::from_min_size(squares.min + vec2(column, row) * cell, Vec2::splat(cell))
    };
    let painter = ui.painter_at(rect);
    let palette = theme::palette(ui.ctx());
    let scared =
        if decor.hide_scared { 0 } else { game.scared_animals(Side::First) | game.scared_animals(Side::Second) };
    let mut clicked = None;
    for square in 0..100u8 {
        let area = square_rect(square);
        let response = ui.interact(area, board.id.with(square), Sense::click());
        response.widget_info(|| {
            egui::WidgetInfo::labeled(egui::Role::Button, true, format!("square {}", square_name(square)))
        });
        if response.clicked() {
            clicked = Some(square);
        }
        let on = |set: Bitboard| set & (1 << square) != 0;
        let dark = (square % 10 + square / 10) % 2 == 0;
        painter.rect_filled(area, 0.0, if dark { palette.dark_square } else { palette.light_square });
        if on(HOLES) {
            draw_hole(&painter, &palette, area);
        }
        if decor.last_move.is_some_and(|mv| mv.from == square || mv.to == square) {
            painter.rect_filled(area, 0.0, palette.last_move);
        }
        if response.hovered() {
            painter.rect_filled(area, 0.0, Color32::from_white_alpha(40));
        }
        if decor.selected == Some(square) {
            painter.rect_stroke(area.shrink(1.5), 0.0, Stroke::new(3.0, palette.picked), StrokeKind::Inside);
        }
        if let Some((side, animal)) = game.piece_at(square) {
            if on(HOLES) {
                // A held watering hole stays visible as a ring of water around the animal.
                painter.rect_stroke(area.shrink(1.0), 0.0, Stroke::new(cell * 0.09, palette.water), StrokeKind::Inside);
            }
            draw_animal(&painter, &palette, area.center(), cell * 0.38, side, animal, on(scared));
        }
        if on(decor.green_dots) {
            painter.circle_filled(area.center(), cell * 0.14, palette.safe_move);
        }
        if on(decor.red_dots) {
            painter.circle_stroke(area.center(), cell * 0.13, Stroke::new(cell * 0.05, palette.unsafe_move));
            let arm = cell * 0.09;
            let c = area.center();
            painter
                .line_segment([c - vec2(arm, arm), c + vec2(arm, arm)], Stroke::new(cell * 0.04, palette.unsafe_move));
        }
    }
    if let Some(mv) = decor.best_so_far {
        let (from, to) = (square_rect(mv.from).center(), square_rect(mv.to).center());
        painter.arrow(from, to - from, Stroke::new(cell * 0.12, palette.best_so_far));
    }
    painter.rect_stroke(squares, 0.0, Stroke::new(1.5, palette.white_ink), StrokeKind::Outside);
    draw_coordinates(&painter, squares, cell, margin, decor.flipped, ui.visuals().text_color());
    clicked
}

fn draw_hole(painter: &Painter, palette: &Palette, area: Rect) {
    painter.circle_filled(area.center(), area.width() * 0.44, palette.water);
    let stroke = Stroke::new(area.width() * 0.035, palette.water_line);
    for offset in [-0.15, 0.15] {
        let y = area.center().y + offset * area.height();
        let wave: Vec<Pos2> = (0..=8)
            .map(|i| {
                let t = i as f32 / 8.0;
                let x = area.left() + area.width() * (0.22 + 0.56 * t);
                pos2(x, y + (t * std::f32::consts::TAU).sin() * area.height() * 0.04)
            })
            .collect();
        painter.add(Shape::line(wave, stroke));
    }
}

fn draw_coordinates(painter: &Painter, squares: Rect, cell: f32, margin: f32, flipped: bool, colour: Color32) {
    let font = egui::FontId::proportional((margin * 0.8).min(cell * 0.45));
    for i in 0..10u8 {
        let (column, row) = if flipped { (9 - i, i) } else { (i, 9 - i) };
        let x = squares.left() + (i as f32 + 0.5) * cell;
        let file = ((b'a' + column) as char).to_string();
        painter.text(pos2(x, squares.bottom() + margin * 0.5), egui::Align2::CENTER_CENTER, file, font.clone(), colour);
        let y = squares.top() + (i as f32 + 0.5) * cell;
        let rank = (row + 1).to_string();
        painter.text(pos2(squares.left() - margin * 0.5, y), egui::Align2::CENTER_CENTER, rank, font.clone(), colour);
    }
}

/// A disc in the side's colour with the animal's head drawn in ink; a scared animal gets a red ring
/// and an exclamation mark.
fn draw_animal(
    painter: &Painter,
    palette: &Palette,
    centre: Pos2,
    radius: f32,
    side: Side,
    animal: Animal,
    scared: bool,
) {
    let (fill, ink) = match side {
        Side::First => (palette.white_fill, palette.white_ink),
        Side::Second => (palette.black_fill, palette.black_ink),
    };
    painter.circle_filled(centre + vec2(0.0, radius * 0.08), radius, Color32::from_black_alpha(60));
    painter.circle_filled(centre, radius, fill);
    painter.circle_stroke(centre, radius, Stroke::new(radius * 0.08, ink));
    let at = |x: f32, y: f32| centre + vec2(x, y) * radius;
    let line = Stroke::new(radius * 0.1, ink);
    match animal {
        Animal::Elephant => {
            // Big ears either side of the head, a trunk curling down, two tusks.
            for x in [-0.48, 0.48] {
                painter.circle_filled(at(x, -0.12), radius * 0.3, ink);
            }
            painter.circle_filled(at(0.0, -0.15), radius * 0.32, fill);
            painter.circle_stroke(at(0.0, -0.15), radius * 0.32, line);
            let trunk = vec![at(0.0, 0.05), at(0.02, 0.35), at(0.12, 0.6), at(0.3, 0.62)];
            painter.add(Shape::line(trunk, Stroke::new(radius * 0.16, ink)));
            painter.line_segment([at(-0.15, 0.12), at(-0.28, 0.38)], line);
            for x in [-0.12, 0.12] {
                painter.circle_filled(at(x, -0.22), radius * 0.06, ink);
            }
        }
        Animal::Lion => {
            // A mane of tufts around a round face.
            for i in 0..12 {
                let angle = i as f32 * std::f32::consts::TAU / 12.0;
                painter.circle_filled(at(0.52 * angle.cos(), 0.52 * angle.sin()), radius * 0.17, ink);
            }
            painter.circle_filled(centre, radius * 0.42, fill);
            painter.circle_stroke(centre, radius * 0.42, Stroke::new(radius * 0.06, ink));
            for x in [-0.15, 0.15] {
                painter.circle_filled(at(x, -0.1), radius * 0.06, ink);
            }
            painter.add(Shape::convex_polygon(vec![at(-0.09, 0.08), at(0.09, 0.08), at(0.0, 0.18)], ink, Stroke::NONE));
            painter.line_segment([at(0.0, 0.18), at(0.0, 0.26)], Stroke::new(radius * 0.05, ink));
        }
        Animal::Mouse => {
            // Two big round ears, a pointed face with eyes, a curly tail.
            for x in [-0.36, 0.36] {
                painter.circle_filled(at(x, -0.32), radius * 0.27, ink);
                painter.circle_filled(at(x, -0.32), radius * 0.13, fill);
            }
            let face = vec![at(-0.34, -0.16), at(0.34, -0.16), at(0.0, 0.48)];
            painter.add(Shape::convex_polygon(face, ink, Stroke::NONE));
            for x in [-0.12, 0.12] {
                painter.circle_filled(at(x, -0.02), radius * 0.06, fill);
            }
            painter.circle_filled(at(0.0, 0.46), radius * 0.07, fill);
            let tail = vec![at(0.3, 0.25), at(0.55, 0.3), at(0.6, 0.5), at(0.45, 0.6)];
            painter.add(Shape::line(tail, Stroke::new(radius * 0.06, ink)));
        }
    }
    if scared {
        painter.circle_stroke(centre, radius * 1.08, Stroke::new(radius * 0.16, palette.scared));
        let badge = at(0.72, -0.72);
        painter.circle_filled(badge, radius * 0.3, palette.scared);
        painter.text(badge, egui::Align2::CENTER_CENTER, "!", egui::FontId::proportional(radius * 0.5), Color32::WHITE);
    }
}
