//! Drawing the Barca page: explanation, board, status and banners, move list, controls and the
//! evaluation breakdown. Everything the user does becomes a [`BarcaCommand`].

use egui::{Color32, RichText};

use super::ai::{AI_ALGORITHMS, ai_engine, budget, difficulty_name};
use super::{BarcaCommand, BarcaLab, Mode, Seat, side_name};
use crate::adversarial::choice::Difficulty;
use crate::app::barca_board::board_ui;
use crate::app::widgets;
use crate::games::barca::{FeatureTerm, START_FEN, breakdown};
use crate::games::{Game, Outcome, Side};

const EXPLANATION: &str = "Each side has two elephants, two lions and two mice. Elephants move like chess \
queens, lions diagonally, mice straight; nothing jumps or captures. Each animal fears one enemy kind — \
the mouse fears the lion, the lion the elephant, the elephant the mouse — and an animal next to one it \
fears is scared (ringed, with an exclamation mark): its side must move a scared animal to safety first, and no animal may move \
next to what it fears. Whoever first holds three of the four watering holes wins; a position seen for \
the third time is a draw. Click an animal to see its moves: dots are legal, crossed rings are squares \
it could reach but would be scared on. The computer uses the same searches as the search-tree lessons, \
scoring positions with the weighted features in the table on the right.";

/// The evaluation table's headings, short so that it fits a projector's panel at 130% (their
/// hovers say the rest); `side` is the side to move's name.
fn headings(side: &str) -> [&str; 5] {
    ["Feature", side, "Opp.", "Wt", "Score"]
}

impl BarcaLab {
    pub(super) fn show(&mut self, ui: &mut egui::Ui, commands: &mut Vec<BarcaCommand>) {
        ui.heading("Barca: play against a friend or the computer");
        // Folded on a short screen (a projector at 130%): the board needs the height.
        egui::CollapsingHeader::new("Rules")
            .default_open(ui.available_height() > 800.0)
            .show(ui, |ui| ui.label(EXPLANATION));
        widgets::side_panel(ui, "barca-lab-side", 0.4, |ui| {
            egui::CollapsingHeader::new("Players and computer")
                .default_open(true)
                .show(ui, |ui| self.player_controls(ui, commands));
            egui::CollapsingHeader::new("Evaluation of this position")
                .default_open(true)
                .show(ui, |ui| self.evaluation(ui, commands));
            egui::CollapsingHeader::new("Load and save").default_open(true).show(ui, |ui| self.load_save(ui, commands));
        });
        egui::CentralPanel::default().show(ui, |ui| {
            self.status(ui, commands);
            let available = ui.available_size();
            let size = (available.x - 190.0).min(available.y - 8.0).clamp(240.0, 900.0);
            ui.horizontal_top(|ui| {
                if let Some(square) = board_ui(ui, &self.game, &self.decor(), size) {
                    commands.push(BarcaCommand::ClickSquare(square));
                }
                ui.vertical(|ui| self.move_list(ui, commands));
            });
        });
    }

    /// Who is to move, the result banner, the last message and the computer's progress.
    pub(super) fn status(&self, ui: &mut egui::Ui, commands: &mut Vec<BarcaCommand>) {
        if let Some(outcome) = self.outcome() {
            let text = match outcome {
                Outcome::Win(side) => format!("{} wins: three watering holes held", side_name(side)),
                Outcome::Draw if self.game.occurrences() >= 3 => "Draw by threefold repetition".to_string(),
                Outcome::Draw if self.game.outcome().is_some() => "Draw: the move limit is reached".to_string(),
                Outcome::Draw => "Draw: the side to move has no legal move".to_string(),
            };
            let banner = crate::app::theme::palette(ui.ctx()).banner;
            egui::Frame::new().fill(banner).inner_margin(8.0).corner_radius(4.0).show(ui, |ui| {
                ui.label(RichText::new(text).size(20.0).strong().color(Color32::WHITE));
            });
        }
        ui.horizontal_wrapped(|ui| {
            let side = self.game.side_to_move();
            ui.label(RichText::new(format!("{} to move", side_name(side))).strong());
            let player = self.settings.players[super::side_index(side)];
            if player == Seat::Computer && self.paused && self.outcome().is_none() {
                ui.label("(computer paused)");
                if ui.button("Resume").on_hover_text("Let the computer players move again").clicked() {
                    commands.push(BarcaCommand::Resume);
                }
            }
            for (side, name) in [(Side::First, "White"), (Side::Second, "Black")] {
                ui.weak(format!("{name} holds {} hole(s)", self.game.holes_held(side)));
            }
        });
        match &self.thinking {
            Some(thinking) => {
                ui.horizontal_wrapped(|ui| {
                    ui.spinner();
                    ui.label(thinking.progress_text());
                    if ui.button("Stop").on_hover_text("Play the best move found so far").clicked() {
                        commands.push(BarcaCommand::Stop);
                    }
                });
            }
            None => {
                // Wrapped: one long line would widen the page under the side panel, board and moves with it.
                let last = self.last_search.as_deref().unwrap_or("no computer move yet");
                ui.add(egui::Label::new(RichText::new(format!("Last computer search: {last}")).weak()).wrap());
            }
        }
        match &self.notice {
            Some(notice) => {
                if notice.is_error {
                    widgets::error(ui, &notice.text);
                } else {
                    widgets::notice(ui, &notice.text);
                }
            }
            None if self.settings.players.contains(&Seat::Human) => {
                ui.weak("Click an animal, then one of its dots.");
            }
            None => {
                ui.weak("The computer plays both sides; the delay slider sets the pace.");
            }
        }
        widgets::legend(ui, &crate::app::barca_board::legend_entries(&crate::app::theme::palette(ui.ctx())));
    }

    pub(super) fn move_list(&self, ui: &mut egui::Ui, commands: &mut Vec<BarcaCommand>) {
        ui.horizontal(|ui| {
            if ui.button("Undo").on_hover_text("Take the last move back").clicked() {
                commands.push(BarcaCommand::Undo);
            }
            if ui.button("Redo").on_hover_text("Replay a move taken back").clicked() {
                commands.push(BarcaCommand::Redo);
            }
        });
        ui.strong("Moves");
        ui.weak("Click a move to go back to it; a new move there starts a new line.");
        let moves: Vec<_> = self.game.moves_played().chain(self.redo.iter().rev().copied()).collect();
        let current = self.game.ply();
        egui::ScrollArea::vertical().id_salt("barca-moves").max_height(ui.available_height() - 8.0).show(ui, |ui| {
            // A loaded position is where this game began, not Barca's start.
            let start = if self.start_fen() == START_FEN { "Start position" } else { "Given position" };
            if ui.selectable_label(current == 0, start).clicked() {
                commands.push(BarcaCommand::GoTo(0));
            }
            egui::Grid::new("barca-move-list").num_columns(3).striped(true).show(ui, |ui| {
                let black_first = self.start_fen().ends_with(" b");
                let mut column = 0;
                if black_first && !moves.is_empty() {
                    ui.label("1.");
                    ui.label("...");
                    column = 2;
                }
                for (i, mv) in moves.iter().enumerate() {
                    if column == 0 {
                        ui.label(format!("{}.", (i + usize::from(black_first)) / 2 + 1));
                        column = 1;
                    }
                    let text = RichText::new(mv.to_string());
                    let text = if i < current { text } else { text.weak() };
                    if ui.selectable_label(i + 1 == current, text).clicked() {
                        commands.push(BarcaCommand::GoTo(i + 1));
                    }
                    column += 1;
                    if column == 3 {
                        ui.end_row();
                        column = 0;
                    }
                }
            });
        });
    }

    fn player_controls(&self, ui: &mut egui::Ui, commands: &mut Vec<BarcaCommand>) {
        let mode = Mode::of(self.settings.players);
        ui.horizontal_wrapped(|ui| {
            ui.label("Mode:");
            for choice in Mode::ALL {
                if ui.radio(choice == mode, choice.name()).clicked() {
                    commands.push(BarcaCommand::SetMode(choice));
                }
            }
        });
        let algorithm = self.settings.algorithm;
        ui.horizontal_wrapped(|ui| {
            ui.label("Computer:");
            for (choice, name) in AI_ALGORITHMS {
                if ui.radio(choice == algorithm, name).clicked() {
                    commands.push(BarcaCommand::SetAlgorithm(choice));
                }
            }
        });
        ui.horizontal_wrapped(|ui| {
            ui.label("Difficulty:");
            for difficulty in [Difficulty::Easy, Difficulty::Medium, Difficulty::Hard] {
                let name = difficulty_name(difficulty);
                if ui.selectable_label(self.settings.difficulty == difficulty, name).clicked() {
                    commands.push(BarcaCommand::SetDifficulty(difficulty));
                }
            }
        });
        ui.weak(format!("The computer {}.", budget(&ai_engine(algorithm, self.settings.difficulty))));
        let mut delay = self.settings.move_delay_ms;
        if ui.add(egui::Slider::new(&mut delay, 0..=3000).text("Move delay (ms)")).changed() {
            commands.push(BarcaCommand::SetMoveDelay(delay));
        }
        ui.horizontal_wrapped(|ui| {
            let can_move = self.thinking.is_none() && self.outcome().is_none();
            let hint = "The computer plays one move for the side to move (a hint in human games)";
            if ui.add_enabled(can_move, egui::Button::new("Computer move")).on_hover_text(hint).clicked() {
                commands.push(BarcaCommand::ComputerMove);
            }
            if ui.button("New game").clicked() {
                commands.push(BarcaCommand::NewGame);
            }
            let mut flipped = self.settings.flipped;
            if ui.checkbox(&mut flipped, "Black at the bottom").changed() {
                commands.push(BarcaCommand::SetFlipped(flipped));
            }
        });
    }

    fn evaluation(&mut self, ui: &mut egui::Ui, commands: &mut Vec<BarcaCommand>) {
        let side = side_name(self.game.side_to_move());
        let terms = breakdown(&self.game, &self.weights);
        ui.label(format!(
            "Score {:+} for {side} (to move), with the {} weights: each feature counted for {side} \
             and for the opponent (Opp.), times its weight (Wt); its score is the difference.",
            self.weights.score(&self.game),
            self.weights_source
        ));
        // The four number columns as shown, below their headings.
        let numbers: Vec<[String; 4]> = terms
            .iter()
            .map(|term| {
                let weight = term.weight.map_or("table".to_string(), |w| w.to_string());
                [term.own.to_string(), term.opponent.to_string(), weight, format!("{:+}", term.contribution)]
            })
            .collect();
        // A panel narrower than a projector's at 130% scrolls the table sideways rather than
        // growing over the board.
        egui::ScrollArea::horizontal().id_salt("barca-eval-scroll").show(ui, |ui| {
            // Feature names wrap, at word breaks, in what the number columns leave.
            let spacing = egui::vec2(6.0, ui.spacing().item_spacing.y);
            let widest = |column: usize| {
                numbers
                    .iter()
                    .map(|row| widgets::text_width(ui, &row[column], egui::TextStyle::Body))
                    .fold(0.0, f32::max)
            };
            let columns: f32 = headings(side)[1..]
                .iter()
                .enumerate()
                .map(|(i, heading)| widgets::text_width(ui, heading, egui::TextStyle::Body).max(widest(i)) + spacing.x)
                .sum();
            let longest_word = terms
                .iter()
                .flat_map(|term| term.name.split(' '))
                .map(|word| widgets::text_width(ui, word, egui::TextStyle::Body))
                .fold(0.0, f32::max);
            let feature = (ui.available_width() - columns).max(longest_word);
            let grid = egui::Grid::new("barca-eval")
                .striped(true)
                .num_columns(5)
                .spacing(spacing)
                .min_col_width(0.0)
                .max_col_width(feature);
            grid.show(ui, |ui| Self::evaluation_rows(ui, side, &terms, &numbers));
        });
        ui.weak(format!(
            "Table weights: holes held 0–3 score {:?}; each way onto a hole next move scores {:?} by the holes it would make.",
            self.weights.holes_held, self.weights.holes_next_turn
        ));
        ui.horizontal_wrapped(|ui| {
            let label = ui.label("Weights file (JSON)");
            ui.add(egui::TextEdit::singleline(&mut self.settings.weights_path).desired_width(180.0))
                .labelled_by(label.id);
        });
        ui.horizontal_wrapped(|ui| {
            if ui.button("Load weights").clicked() {
                commands.push(BarcaCommand::LoadWeights(self.settings.weights_path.clone()));
            }
            if ui.button("Default weights").clicked() {
                commands.push(BarcaCommand::DefaultWeights);
            }
        });
    }

    /// The evaluation table: a heading row, then one row per feature.
    fn evaluation_rows(ui: &mut egui::Ui, side: &str, terms: &[FeatureTerm], numbers: &[[String; 4]]) {
        let hovers = [
            "What the evaluation counts, for each side".to_string(),
            format!("The feature counted for {side}, the side to move"),
            "The feature counted for the opponent".to_string(),
            "Weight: points per unit of the feature; 'table': points from the table below".to_string(),
            format!("The feature's contribution to the score: {side}'s points minus the opponent's"),
        ];
        for (heading, hover) in headings(side).into_iter().zip(hovers) {
            ui.add(egui::Label::new(egui::RichText::new(heading).strong()).extend()).on_hover_text(hover);
        }
        ui.end_row();
        for (term, [own, opponent, weight, contribution]) in terms.iter().zip(numbers) {
            ui.add(egui::Label::new(term.name).wrap());
            ui.label(own);
            ui.label(opponent);
            ui.label(weight)
                .on_hover_text(format!("{side}: {:+}, opponent: {:+}", term.own_score, term.opponent_score));
            ui.label(contribution);
            ui.end_row();
        }
    }

    fn load_save(&mut self, ui: &mut egui::Ui, commands: &mut Vec<BarcaCommand>) {
        ui.horizontal_wrapped(|ui| {
            let label = ui.label("Position (FEN)");
            ui.add(egui::TextEdit::singleline(&mut self.fen_text).desired_width(240.0)).labelled_by(label.id);
        });
        ui.horizontal_wrapped(|ui| {
            if ui.button("Load position").clicked() {
                commands.push(BarcaCommand::LoadPosition(self.fen_text.clone()));
            }
            if ui.button("Copy position from board").clicked() {
                self.fen_text = self.game.to_fen();
            }
        });
        ui.separator();
        let label = ui.label("Game (moves)");
        ui.add(egui::TextEdit::multiline(&mut self.game_text).desired_rows(3).desired_width(f32::INFINITY))
            .labelled_by(label.id);
        ui.horizontal_wrapped(|ui| {
            if ui.button("Load game text").clicked() {
                commands.push(BarcaCommand::LoadGame(self.game_text.clone()));
            }
            if ui.button("Copy game from board").clicked() {
                self.game_text = self.game_text();
            }
        });
        ui.horizontal_wrapped(|ui| {
            let label = ui.label("Game file");
            ui.add(egui::TextEdit::singleline(&mut self.settings.game_path).desired_width(200.0)).labelled_by(label.id);
        });
        ui.horizontal_wrapped(|ui| {
            if ui.button("Save game").clicked() {
                commands.push(BarcaCommand::SaveGameFile(self.settings.game_path.clone()));
            }
            if ui.button("Load game file").clicked() {
                commands.push(BarcaCommand::LoadGameFile(self.settings.game_path.clone()));
            }
        });
    }
}
