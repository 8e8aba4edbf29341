//! The Barca lesson: play against a friend or the computer, take moves back, load and save
//! positions and games, and see how the evaluation scores the position. The computer thinks on a
//! worker thread with the library's searches; the page only plays what they answer.

pub mod ai;
mod cell;
mod scene;
mod view;

use crate::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use self::ai::{AiAnswer, ComputerPlayer, Thinking, ai_engine};
use super::Lesson;
use super::barca_board::{BoardDecor, Square};
use super::worker::Response;
use crate::adversarial::choice::Difficulty;
pub use crate::adversarial::engine::EngineAlgorithm;
use crate::games::barca::{Barca, BarcaMove, Weights, game_text, parse_game, side_name, square_name};
use crate::games::{Game, Outcome, Side};
use crate::scene::Scene;

/// Who makes a side's moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Seat {
    Human,
    Computer,
}

/// The usual pairings, for the mode selector.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    HumanVsHuman,
    HumanVsComputer,
    ComputerVsHuman,
    ComputerVsComputer,
}

impl Mode {
    pub const ALL: [Mode; 4] =
        [Mode::HumanVsHuman, Mode::HumanVsComputer, Mode::ComputerVsHuman, Mode::ComputerVsComputer];

    pub fn name(self) -> &'static str {
        match self {
            Mode::HumanVsHuman => "Human vs human",
            Mode::HumanVsComputer => "You play White vs the computer",
            Mode::ComputerVsHuman => "You play Black vs the computer",
            Mode::ComputerVsComputer => "Computer vs computer",
        }
    }

    /// White's seat, Black's seat.
    pub fn players(self) -> [Seat; 2] {
        use Seat::{Computer, Human};
        match self {
            Mode::HumanVsHuman => [Human, Human],
            Mode::HumanVsComputer => [Human, Computer],
            Mode::ComputerVsHuman => [Computer, Human],
            Mode::ComputerVsComputer => [Computer, Computer],
        }
    }

    fn of(players: [Seat; 2]) -> Mode {
        Mode::ALL.into_iter().find(|mode| mode.players() == players).expect("every pairing is a mode")
    }
}

/// Everything the page remembers between runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct BarcaSettings {
    pub players: [Seat; 2],
    /// The computer: `Id` (alpha-beta) or `Uct`, at `difficulty`.
    pub algorithm: EngineAlgorithm,
    pub difficulty: Difficulty,
    /// Pause between two computer moves, so computer-vs-computer games can be followed.
    pub move_delay_ms: u64,
    pub weights_path: String,
    pub game_path: String,
    pub flipped: bool,
}

impl Default for BarcaSettings {
    fn default() -> Self {
        Self {
            players: Mode::HumanVsComputer.players(),
            algorithm: EngineAlgorithm::Id,
            difficulty: Difficulty::Medium,
            move_delay_ms: 500,
            weights_path: "weights.json".to_string(),
            game_path: "game.txt".to_string(),
            flipped: false,
        }
    }
}

/// Every action of the page; the board, buttons and tests all go through [`BarcaLab::apply`].
#[derive(Debug, Clone, PartialEq)]
pub enum BarcaCommand {
    /// A click on a square: select an animal, move the selected one, or explain why not.
    ClickSquare(Square),
    /// Play a move (after checking it is legal); drops the moves that were taken back.
    Play(BarcaMove),
    Undo,
    Redo,
    /// Go to the position after this many moves (0: the starting position).
    GoTo(usize),
    NewGame,
    SetMode(Mode),
    SetAlgorithm(EngineAlgorithm),
    SetDifficulty(Difficulty),
    SetMoveDelay(u64),
    SetFlipped(bool),
    /// Let the computer move for the side to move now (also a hint in human games).
    ComputerMove,
    /// Make the computer play the best move found so far.
    Stop,
    /// Let the computer players move again after taking moves back.
    Resume,
    LoadPosition(String),
    /// Play a game text (an optional `FEN:` line, then moves) from its start position.
    LoadGame(String),
    LoadGameFile(String),
    SaveGameFile(String),
    LoadWeights(String),
    DefaultWeights,
}

/// A line shown under the board: what just happened, or why an action was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notice {
    pub text: String,
    pub is_error: bool,
}

pub struct BarcaLab {
    settings: BarcaSettings,
    game: Barca,
    /// Moves taken back, the next one to redo last.
    redo: Vec<BarcaMove>,
    selected: Option<Square>,
    notice: Option<Notice>,
    weights: Weights,
    /// Where the weights came from ("default" or a file).
    weights_source: String,
    fen_text: String,
    game_text: String,
    /// Computer players wait after a take-back until a human move or Resume.
    paused: bool,
    thinking: Option<Thinking>,
    /// The computer player between moves, with its table and UCT tree (taken by a running search).
    engine: Option<ComputerPlayer>,
    /// The last computer move's search, in one line.
    last_search: Option<String>,
    last_move_at: Instant,
    moves_made: u64,
    repaint: Option<egui::Context>,
}

impl Default for BarcaLab {
    fn default() -> Self {
        Self::new()
    }
}

fn side_index(side: Side) -> usize {
    match side {
        Side::First => 0,
        Side::Second => 1,
    }
}

impl BarcaLab {
    pub fn new() -> Self {
        Self::with_settings(BarcaSettings::default())
    }

    /// The lab as it was left: `saved` is what `Lesson::save` returned in an earlier run.
    pub fn from_saved(saved: Option<&str>) -> Self {
        Self::with_settings(crate::app::settings_from(saved))
    }

    pub fn with_settings(settings: BarcaSettings) -> Self {
        let game = Barca::start();
        Self {
            fen_text: game.to_fen(),
            game_text: String::new(),
            settings,
            game,
            redo: Vec::new(),
            selected: None,
            notice: None,
            weights: Weights::default(),
            weights_source: "default".to_string(),
            paused: false,
            thinking: None,
            engine: None,
            last_search: None,
            last_move_at: Instant::now(),
            moves_made: 0,
            repaint: None,
        }
    }

    pub fn game(&self) -> &Barca {
        &self.game
    }

    pub fn settings(&self) -> &BarcaSettings {
        &self.settings
    }

    pub fn notice(&self) -> Option<&Notice> {
        self.notice.as_ref()
    }

    pub fn weights(&self) -> &Weights {
        &self.weights
    }

    /// The last computer move's search, in one line.
    pub fn last_search(&self) -> Option<&str> {
        self.last_search.as_deref()
    }

    pub fn is_thinking(&self) -> bool {
        self.thinking.is_some()
    }

    /// The moves of the game so far, as text.
    pub fn moves_text(&self) -> String {
        self.game.moves_played().map(|mv| mv.to_string()).collect::<Vec<_>>().join(" ")
    }

    /// The game so far in the save format.
    pub fn game_text(&self) -> String {
        let moves: Vec<BarcaMove> = self.game.moves_played().collect();
        game_text(&self.start_fen(), &moves)
    }

    /// The position the game started from.
    pub fn start_fen(&self) -> String {
        let mut start = self.game.clone();
        while start.ply() > 0 {
            start.unmake_move();
        }
        start.to_fen()
    }

    /// The end of the game, or `None` while it goes on (no legal move is a draw).
    pub fn outcome(&self) -> Option<Outcome> {
        self.game.outcome().or_else(|| (self.game.count_legal_moves() == 0).then_some(Outcome::Draw))
    }

    fn to_move_is_computer(&self) -> bool {
        self.settings.players[side_index(self.game.side_to_move())] == Seat::Computer
    }

    /// What the board should draw on top of the position.
    pub fn decor(&self) -> BoardDecor {
        let mut decor = BoardDecor {
            last_move: self.game.moves_played().last(),
            selected: self.selected,
            flipped: self.settings.flipped,
            best_so_far: self.thinking.as_ref().and_then(Thinking::best_so_far),
            ..BoardDecor::default()
        };
        if let Some(moves) = self.selected.and_then(|square| self.game.animal_moves(square)) {
            decor.green_dots = moves.legal;
            decor.red_dots = moves.scared_destinations();
        }
        decor
    }

    fn say(&mut self, text: impl Into<String>) {
        self.notice = Some(Notice { text: text.into(), is_error: false });
    }

    fn refuse(&mut self, text: impl Into<String>) {
        self.notice = Some(Notice { text: text.into(), is_error: true });
    }

    /// Throws away a running search (its answer would be for another position).
    fn cancel_thinking(&mut self) {
        self.thinking = None;
    }

    /// A new position on the board: selection, search and take-backs no longer apply.
    fn position_changed(&mut self) {
        self.cancel_thinking();
        self.selected = None;
        self.fen_text = self.game.to_fen();
    }

    fn play(&mut self, mv: BarcaMove) {
        if let Some(outcome) = self.outcome() {
            self.refuse(format!("The game is over ({}): take moves back or start a new game", outcome_text(outcome)));
            return;
        }
        if let Err(why) = self.game.check_legal(mv) {
            self.refuse(why);
            return;
        }
        // Playing the move that was taken back keeps the rest of the line; any other starts a new one.
        if self.redo.last() == Some(&mv) {
            self.redo.pop();
        } else {
            self.redo.clear();
        }
        self.game.make_move(mv);
        self.moves_made += 1;
        self.last_move_at = Instant::now();
        self.position_changed();
        self.paused = false;
        self.notice = None;
    }

    pub fn apply(&mut self, command: BarcaCommand) {
        match command {
            BarcaCommand::ClickSquare(square) => self.click(square),
            BarcaCommand::Play(mv) => self.play(mv),
            BarcaCommand::Undo => self.go_to(self.game.ply().saturating_sub(1)),
            BarcaCommand::Redo => self.go_to(self.game.ply() + 1),
            BarcaCommand::GoTo(ply) => self.go_to(ply),
            BarcaCommand::NewGame => {
                self.game = Barca::start();
                self.new_game_loaded("New game");
            }
            BarcaCommand::SetMode(mode) => {
                self.settings.players = mode.players();
                self.cancel_thinking();
                self.paused = false;
            }
            BarcaCommand::SetAlgorithm(algorithm) => {
                self.settings.algorithm = algorithm;
                self.cancel_thinking();
            }
            BarcaCommand::SetDifficulty(difficulty) => {
                self.settings.difficulty = difficulty;
                self.cancel_thinking();
            }
            BarcaCommand::SetMoveDelay(ms) => self.settings.move_delay_ms = ms,
            BarcaCommand::SetFlipped(flipped) => self.settings.flipped = flipped,
            BarcaCommand::ComputerMove => self.start_thinking(),
            BarcaCommand::Stop => match &self.thinking {
                Some(thinking) => {
                    thinking.stop();
                    self.say("Stopped: the computer plays the best move it has found so far");
                }
                None => self.paused = true,
            },
            BarcaCommand::Resume => self.paused = false,
            BarcaCommand::LoadPosition(text) => match Barca::from_fen(text.trim()) {
                Ok(game) => {
                    self.game = game;
                    self.new_game_loaded("Position loaded");
                }
                Err(error) => self.refuse(format!("Position not loaded: {error}. The game on the board is kept.")),
            },
            BarcaCommand::LoadGame(text) => self.load_game(&text, "Game loaded"),
            BarcaCommand::LoadGameFile(path) => match crate::files::read_text(path.as_ref(), crate::files::MAX_TEXT) {
                Ok(text) => self.load_game(&text, &format!("Game loaded from {path}")),
                Err(error) => self.refuse(error.at(&path)),
            },
            BarcaCommand::SaveGameFile(path) => match crate::files::write(path.as_ref(), self.game_text() + "\n") {
                Ok(()) => self.say(format!("Game saved to {path}")),
                Err(error) => self.refuse(format!("{path}: {error}")),
            },
            BarcaCommand::LoadWeights(path) => match Weights::load(std::path::Path::new(&path)) {
                Ok(weights) => {
                    self.weights = weights;
                    self.weights_source = path.clone();
                    self.settings.weights_path = path;
                    self.cancel_thinking();
                    // Its table and tree hold scores of the old weights.
                    self.engine = None;
                    self.say(format!("Weights loaded from {}", self.weights_source));
                }
                Err(error) => self.refuse(format!("Weights not loaded, still using {}: {error}", self.weights_source)),
            },
            BarcaCommand::DefaultWeights => {
                self.weights = Weights::default();
                self.weights_source = "default".to_string();
                self.cancel_thinking();
                self.engine = None;
                self.say("Default weights");
            }
        }
    }

    fn load_game(&mut self, text: &str, done: &str) {
        match parse_game(text) {
            Ok(game) => {
                self.game = game;
                self.new_game_loaded(done);
                self.game_text = self.game_text();
            }
            Err(error) => self.refuse(format!("Game not loaded: {error}. The game on the board is kept.")),
        }
    }

    /// After a new game, a loaded position or a loaded game: computer players wait for Resume.
    fn new_game_loaded(&mut self, done: &str) {
        self.redo.clear();
        self.position_changed();
        self.engine = None;
        self.paused = self.settings.players.contains(&Seat::Computer);
        self.last_search = None;
        // The Resume button shows only when a computer is to move; otherwise the next human move resumes.
        let resume = match (self.paused, self.to_move_is_computer()) {
            (false, _) => "",
            (true, true) => " (the computer waits: press Resume)",
            (true, false) => " (the computer answers your next move)",
        };
        self.say(format!("{done}{resume}"));
    }

    /// Takes moves back or replays taken-back ones until the game has `ply` moves.
    fn go_to(&mut self, ply: usize) {
        let target = ply.min(self.game.ply() + self.redo.len());
        if target == self.game.ply() {
            self.refuse(if ply < self.game.ply() || ply == 0 { "Nothing to take back" } else { "Nothing to redo" });
            return;
        }
        while self.game.ply() > target {
            let mv = self.game.moves_played().last().expect("a move to take back");
            self.game.unmake_move();
            self.redo.push(mv);
        }
        while self.game.ply() < target {
            let mv = self.redo.pop().expect("a move to redo");
            self.game.make_move(mv);
        }
        self.position_changed();
        if self.settings.players.contains(&Seat::Computer) {
            self.paused = true;
        }
        self.notice = None;
    }

    fn click(&mut self, square: Square) {
        let side = self.game.side_to_move();
        if let Some(outcome) = self.outcome() {
            self.refuse(format!("The game is over ({}): take moves back or start a new game", outcome_text(outcome)));
            return;
        }
        if self.to_move_is_computer() && !self.paused {
            self.refuse(format!("It is the computer's turn ({} to move)", side_name(side)));
            return;
        }
        let own_animal = self.game.piece_at(square).is_some_and(|(owner, _)| owner == side);
        match self.selected {
            Some(from) if from == square => self.selected = None,
            Some(from) if !own_animal => {
                let mv = BarcaMove { from, to: square };
                self.play(mv);
            }
            _ if own_animal => self.select(square),
            _ => match self.game.piece_at(square) {
                Some((owner, animal)) => self.refuse(format!(
                    "The {} on {} is {}'s: {} to move",
                    animal.name(),
                    square_name(square),
                    side_name(owner),
                    side_name(side)
                )),
                None => self.refuse(format!("Click one of {}'s animals first", side_name(side))),
            },
        }
    }

    fn select(&mut self, square: Square) {
        self.selected = Some(square);
        let moves = self.game.animal_moves(square).expect("an animal of the side to move");
        let name = moves.animal.name();
        if moves.legal != 0 {
            self.notice = None;
        } else if moves.reachable == 0 {
            self.refuse(format!("The {name} on {} is blocked in", square_name(square)));
        } else if self.game.scared_animals(self.game.side_to_move()) & !(1 << square) != 0 {
            self.refuse(format!("The {name} must wait: a scared animal has to run first"));
        } else {
            self.refuse(format!("Every square the {name} reaches would scare it"));
        }
    }

    fn start_thinking(&mut self) {
        if let Some(outcome) = self.outcome() {
            self.refuse(format!("The game is over ({})", outcome_text(outcome)));
            return;
        }
        if self.thinking.is_some() {
            return;
        }
        // The player chosen now, with what it learnt on earlier moves if it is the same one.
        let spec = ai_engine(self.settings.algorithm, self.settings.difficulty);
        let engine = self.engine.take().filter(|engine| *engine.spec() == spec);
        self.selected = None;
        self.thinking = Some(Thinking::start(
            &self.game,
            &self.weights,
            engine.unwrap_or_else(|| ComputerPlayer::new(spec)),
            self.moves_made ^ self.game.hash(),
            self.repaint.clone(),
        ));
    }

    /// Plays the computer's answer when it is in, and starts the next search when a computer is to move.
    fn poll_computer(&mut self) {
        let answer = self.thinking.as_ref().and_then(|t| t.job.poll());
        if let Some(Err(error)) = &answer {
            // The computer cannot move: wait for the user rather than fail again.
            self.cancel_thinking();
            self.paused = true;
            self.refuse(error.clone());
        }
        if let Some(Ok(Response::BarcaMove(AiAnswer { mv, summary, engine }))) = answer {
            let thinking = self.thinking.take().expect("the search that answered");
            let stopped = thinking.is_stopping();
            self.engine = Some(thinking.into_player(engine));
            self.last_search = Some(summary);
            match mv {
                Some(mv) => {
                    let notice = self.notice.clone();
                    self.play(mv);
                    if stopped {
                        self.notice = notice;
                    }
                }
                None => self.refuse("The computer found no move"),
            }
        }
        let waited = self.last_move_at.elapsed() >= Duration::from_millis(self.settings.move_delay_ms);
        let computer_turn = self.to_move_is_computer() && !self.paused && self.outcome().is_none();
        if computer_turn && self.thinking.is_none() {
            if waited {
                self.start_thinking();
            } else if let Some(ctx) = &self.repaint {
                ctx.request_repaint_after(Duration::from_millis(self.settings.move_delay_ms));
            }
        }
    }
}

fn outcome_text(outcome: Outcome) -> String {
    match outcome {
        Outcome::Win(side) => format!("{} won", side_name(side)),
        Outcome::Draw => "draw".to_string(),
    }
}

impl Lesson for BarcaLab {
    fn scene(&self) -> Option<Scene> {
        Some(BarcaLab::scene(self))
    }

    fn set_scene(&mut self, scene: &Scene) -> Result<(), String> {
        BarcaLab::set_scene(self, scene)
    }

    fn ui(&mut self, ui: &mut egui::Ui) {
        let mut commands = Vec::new();
        self.show(ui, &mut commands);
        for command in commands {
            self.apply(command);
        }
    }

    fn save(&self) -> Option<String> {
        serde_json::to_string(&self.settings).ok()
    }

    fn is_busy(&self) -> bool {
        self.is_thinking()
    }

    fn logic(&mut self, ctx: &egui::Context) {
        self.repaint.get_or_insert_with(|| ctx.clone());
        self.poll_computer();
    }
}
