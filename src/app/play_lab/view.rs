//! The play page's panels: the settings and move list beside the board, the board with the turn,
//! the computer's progress and the last message above it.

use super::boards::{self, Click};
use super::{ENGINES, PlayLab, Seat, playable, step_seconds};
use crate::app::widgets;
use crate::games::{Game, Outcome, Position, Side};

impl PlayLab {
    pub(super) fn settings_ui(&mut self, ui: &mut egui::Ui) {
        ui.heading(super::TITLE);
        let mut kind = self.kind;
        egui::ComboBox::from_label("Game").selected_text(kind.name()).show_ui(ui, |ui| {
            for game in playable() {
                ui.selectable_value(&mut kind, game, game.name());
            }
        });
        if kind != self.kind {
            self.new_game(kind);
        }
        ui.horizontal_wrapped(|ui| {
            let engine = self.seats.iter().find_map(|seat| match seat {
                Seat::Computer(engine) => Some(*engine),
                Seat::Human => None,
            });
            let computer = Seat::Computer(engine.unwrap_or(0));
            for (label, seats) in [
                ("Human vs human", [Seat::Human, Seat::Human]),
                ("Human vs computer", [Seat::Human, computer]),
                ("Computer vs computer", [computer, computer]),
            ] {
                if ui.selectable_label(self.seats == seats, label).clicked() {
                    self.seat(seats);
                }
            }
        });
        for side in [Side::First, Side::Second] {
            self.seat_ui(ui, side);
        }
        ui.add(egui::Slider::new(&mut self.millis, 50..=5000).logarithmic(true).suffix(" ms").text("Thinking time"));
        ui.horizontal_wrapped(|ui| {
            if ui.button("New game").clicked() {
                self.new_game(self.kind);
            }
            if ui.add_enabled(!self.moves.is_empty(), egui::Button::new("Undo")).clicked() {
                self.undo();
            }
            if ui.add_enabled(!self.redo.is_empty(), egui::Button::new("Redo")).clicked() {
                self.redo();
            }
        });
        ui.separator();
        let label = ui.label("Position");
        let text = egui::TextEdit::multiline(&mut self.text).desired_rows(2).desired_width(f32::INFINITY).code_editor();
        ui.add(text).labelled_by(label.id);
        ui.label(egui::RichText::new(self.kind.position_help()).small());
        ui.horizontal(|ui| {
            if ui.button("Load position").clicked() {
                self.load();
            }
            if ui.button("Copy position").clicked() {
                self.text = self.position.text();
                ui.ctx().copy_text(self.text.clone());
                self.message = Some(Ok("Position copied.".to_string()));
            }
        });
        ui.separator();
        self.move_list(ui);
    }

    fn seat_ui(&mut self, ui: &mut egui::Ui, side: Side) {
        let seat = self.seats[usize::from(side == Side::Second)];
        let name = |seat: Seat| match seat {
            Seat::Human => "Human",
            Seat::Computer(engine) => ENGINES[engine],
        };
        let mut chosen = seat;
        let side_name = self.kind.side_name(side);
        egui::ComboBox::from_label(side_name).selected_text(name(chosen)).show_ui(ui, |ui| {
            ui.selectable_value(&mut chosen, Seat::Human, "Human");
            for (engine, label) in ENGINES.iter().enumerate() {
                ui.selectable_value(&mut chosen, Seat::Computer(engine), *label);
            }
        });
        let mut seats = self.seats;
        seats[usize::from(side == Side::Second)] = chosen;
        self.seat(seats);
    }

    /// New players: a thinking computer that is no longer seated stops, and computers play on.
    fn seat(&mut self, seats: [Seat; 2]) {
        if seats != self.seats {
            self.seats = seats;
            self.thinking = None;
            self.running = true;
        }
    }

    fn move_list(&self, ui: &mut egui::Ui) {
        ui.label(format!("Moves ({})", self.moves.len()));
        egui::ScrollArea::vertical().max_height(220.0).stick_to_bottom(true).show(ui, |ui| {
            for (pair, moves) in self.moves.chunks(2).enumerate() {
                ui.monospace(format!("{:>3}. {}", pair + 1, moves.join("  ")));
            }
        });
    }

    /// Whose turn, or the result, in one line.
    fn status(&self) -> String {
        match (self.result(), self.to_move()) {
            (Some(Outcome::Win(side)), _) => format!("Game over: {} wins.", self.side_name(side)),
            (Some(Outcome::Draw), _) => "Game over: a draw.".to_string(),
            (None, Some(side)) => format!("{} to move.", self.side_name(side)),
            (None, None) => String::new(),
        }
    }

    pub(super) fn board_ui(&mut self, ui: &mut egui::Ui) {
        ui.label(egui::RichText::new(self.status()).strong());
        if let Some(job) = &self.thinking {
            let progress = job.progress();
            let best = progress.best_so_far().map(|best| format!(", best so far {}", best.mv)).unwrap_or_default();
            let text = format!("{}: {} nodes or playouts{best}", job.label, progress.done());
            if widgets::progress(ui, &text, None, job.elapsed()) {
                self.stop();
            }
        } else if !self.running
            && self.result().is_none()
            && self.seats.iter().any(|s| *s != Seat::Human)
            && ui.button("Computer: play on").clicked()
        {
            self.running = true;
        }
        match &self.message {
            Some(Ok(text)) => widgets::notice(ui, text),
            Some(Err(text)) => widgets::error(ui, text),
            None => {}
        }
        if self.position.visit(super::LegalMoves) == ["pass"] && ui.button("Pass").clicked() {
            self.human_click(Click::Move("pass".to_string()), ui.ctx());
        }
        let size = ui.available_width().min(ui.available_height() - 10.0).max(200.0);
        let click = match &self.position {
            Position::Othello(game) => {
                let last = self.moves.last().and_then(|mv| crate::games::othello::parse_move_text(mv).ok());
                let last = last.and_then(|mv| match mv {
                    crate::games::othello::OthelloMove::Place(square) => Some(square),
                    crate::games::othello::OthelloMove::Pass => None,
                });
                boards::othello(ui, game, last, size)
            }
            Position::Hus(game) => {
                let names = [self.kind.side_name(Side::First), self.kind.side_name(Side::Second)];
                let shown = self.sowing.as_ref().map(|sowing| {
                    let step = (ui.input(|i| i.time) - sowing.started) / step_seconds(sowing.steps.len());
                    sowing.steps[(step as usize).min(sowing.steps.len() - 1)]
                });
                let pits = shown.unwrap_or([*game.pits(Side::First), *game.pits(Side::Second)]);
                boards::hus(ui, &pits, game.side_to_move(), names, ui.available_width())
            }
            Position::TicTacToe(game) => boards::tictactoe(ui, game, size.min(360.0)),
            Position::Barca(game) => boards::barca(ui, game, self.picked, size),
            _ => None,
        };
        if let Some(click) = click {
            self.human_click(click, ui.ctx());
        }
    }

    /// A click on the board: a move when a human is to move, else one sentence saying why not.
    fn human_click(&mut self, click: Click, ctx: &egui::Context) {
        self.sowing = None;
        let Some(side) = self.to_move() else {
            self.message = Some(Err(format!("{} The game is over: undo or start a new game.", self.status())));
            return;
        };
        if self.seats[usize::from(side == Side::Second)] != Seat::Human {
            let text =
                format!("It is the computer's move ({}): wait for it, or seat a human there.", self.side_name(side));
            self.message = Some(Err(text));
            return;
        }
        match click {
            Click::Move(text) => {
                self.message = None;
                self.play(&text, ctx);
                self.running = true;
            }
            Click::Pick(square) => {
                self.message = None;
                self.picked = square;
            }
            Click::Refused(why) => self.message = Some(Err(why)),
        }
    }
}
