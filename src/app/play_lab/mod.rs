//! "Play a game": any registered game, each side a human or one of the engines, on the game's own
//! board. Moves are kept as text from the position the game started in, so undo, redo, the move
//! list and loading a position are the same for every game; the game checks each move and its
//! refusal is what an illegal click shows. The computer thinks in a worker job ([`ai`]).
//!
//! Seats are per side and the turn is asked of the position, so a game where both sides move at
//! once could seat both players for the same turn; none is registered yet.

pub mod ai;
mod boards;

use self::ai::{ENGINES, PlayJob, engine_spec};
use crate::app::worker::{Job, Request, Response};
use crate::app::{Lesson, widgets};
use crate::games::{GameKind, GameVisitor, Outcome, Position, RegisteredGame, Side};

/// The page's title, in the list of lessons.
pub const TITLE: &str = "Play a game";

/// Who plays a side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Seat {
    Human,
    /// The engine of [`ENGINES`] at this index.
    Computer(usize),
}

/// A Hus move being shown seed by seed: the pits after each step, and when it began.
struct Sowing {
    steps: Vec<[crate::games::hus::Pits; 2]>,
    started: f64,
}

/// How long a step of the sowing animation shows, in seconds: long moves go faster.
fn step_seconds(steps: usize) -> f64 {
    (2.0 / steps as f64).clamp(0.02, 0.15)
}

pub struct PlayLab {
    kind: GameKind,
    /// The position the game started in (the start, or one loaded).
    start: Position,
    /// The moves played from `start`, as text.
    moves: Vec<String>,
    /// Moves taken back, the next to redo last.
    redo: Vec<String>,
    position: Position,
    seats: [Seat; 2],
    /// Thinking time a move, for every engine.
    millis: u64,
    /// Computers move by themselves; Stop, undo, redo and loading pause them.
    running: bool,
    thinking: Option<Job>,
    /// The last move's explanation, or why a click or a load was refused.
    message: Option<Result<String, String>>,
    /// The position text field (load and save).
    text: String,
    /// Barca: the animal picked, its move to follow.
    picked: Option<u8>,
    sowing: Option<Sowing>,
    seed: u64,
}

impl Default for PlayLab {
    fn default() -> Self {
        Self::new()
    }
}

/// The games the page offers: every registered game with a board (not the typed-in tree).
pub fn playable() -> impl Iterator<Item = GameKind> {
    GameKind::ALL.iter().copied().filter(|kind| *kind != GameKind::CustomTree)
}

impl PlayLab {
    pub fn new() -> Self {
        Self::with_game(GameKind::Othello)
    }

    fn with_game(kind: GameKind) -> Self {
        let start = kind.parse(kind.start_position()).expect("a game's start position parses");
        PlayLab {
            kind,
            text: start.text(),
            position: start.clone(),
            start,
            moves: Vec::new(),
            redo: Vec::new(),
            seats: [Seat::Human, Seat::Computer(0)],
            millis: 500,
            running: true,
            thinking: None,
            message: None,
            picked: None,
            sowing: None,
            seed: 0,
        }
    }

    /// The moves played since the game's start position, as text.
    pub fn moves(&self) -> &[String] {
        &self.moves
    }

    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The last message: a move's explanation (`Ok`), or why a click or load was refused.
    pub fn message(&self) -> Option<&Result<String, String>> {
        self.message.as_ref()
    }

    /// A new game of `kind` from its start, the seats and thinking time kept.
    fn new_game(&mut self, kind: GameKind) {
        let (seats, millis) = (self.seats, self.millis);
        *self = PlayLab { seats, millis, ..Self::with_game(kind) };
    }

    /// Plays `text` if the game allows it; otherwise says why, in one sentence.
    fn play(&mut self, text: &str, ctx: &egui::Context) {
        match self.position.after([text]) {
            Ok(next) => {
                if let Position::Hus(game) = &self.position
                    && let Ok(pit) = text.parse::<u8>()
                {
                    self.sowing = Some(Sowing { steps: game.sowing_steps(pit), started: ctx.input(|i| i.time) });
                }
                self.position = next;
                self.moves.push(text.to_string());
                self.redo.clear();
                self.picked = None;
                self.text = self.position.text();
            }
            Err(why) => self.message = Some(Err(format!("{text} is not legal here: {why}."))),
        }
    }

    /// Replays the moves from the start: after undo or redo.
    fn replay(&mut self) {
        self.thinking = None;
        self.sowing = None;
        self.picked = None;
        self.running = false;
        self.position = self.start.after(self.moves.iter().map(String::as_str)).expect("moves played before replay");
        self.text = self.position.text();
    }

    fn undo(&mut self) {
        if let Some(mv) = self.moves.pop() {
            self.redo.push(mv);
            self.replay();
        }
    }

    fn redo(&mut self) {
        if let Some(mv) = self.redo.pop() {
            self.moves.push(mv);
            self.replay();
        }
    }

    fn load(&mut self) {
        match self.kind.parse(&self.text) {
            Ok(position) => {
                let (seats, millis, kind) = (self.seats, self.millis, self.kind);
                *self = PlayLab { seats, millis, running: false, ..Self::with_game(kind) };
                self.text = position.text();
                self.start = position.clone();
                self.position = position;
                self.message = Some(Ok("Position loaded.".to_string()));
            }
            Err(why) => self.message = Some(Err(format!("Not loaded: {why}."))),
        }
    }

    /// Whose turn it is, or `None` when the game is over.
    fn to_move(&self) -> Option<Side> {
        (self.result().is_none()).then(|| self.position.side_to_move())
    }

    /// The game's result: its outcome, or a draw when the side to move has no move at all.
    fn result(&self) -> Option<Outcome> {
        self.position.outcome().or_else(|| self.position.visit(LegalMoves).is_empty().then_some(Outcome::Draw))
    }

    fn side_name(&self, side: Side) -> &'static str {
        self.kind.side_name(side)
    }

    fn start_thinking(&mut self, ctx: &egui::Context) {
        let Some(side) = self.to_move() else { return };
        let Seat::Computer(engine) = self.seats[usize::from(side == Side::Second)] else { return };
        self.seed += 1;
        let job = PlayJob { position: self.position.clone(), spec: engine_spec(engine, self.millis), seed: self.seed };
        let label = format!("{} ({}) is thinking", ENGINES[engine], self.side_name(side));
        self.thinking = Some(Job::start(label, Some(ctx.clone()), Request::PlayMove(job)));
    }

    fn stop(&mut self) {
        self.thinking = None;
        self.running = false;
    }
}

/// The legal moves' texts, of whichever game.
struct LegalMoves;

impl GameVisitor for LegalMoves {
    type Output = Vec<String>;

    fn visit<G: RegisteredGame>(self, game: &G) -> Vec<String> {
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        moves.into_iter().map(|mv| game.move_text(mv)).collect()
    }
}

impl Lesson for PlayLab {
    fn logic(&mut self, ctx: &egui::Context) {
        let mut error = None;
        if let Some(Response::PlayMove(answer)) = Job::finish(&mut self.thinking, &mut error) {
            let side = self.position.side_to_move();
            match answer.mv {
                Some(mv) => {
                    self.message = Some(Ok(format!("{} played {mv}: {}.", self.side_name(side), answer.summary)));
                    self.play(&mv, ctx);
                }
                None => self.running = false,
            }
        }
        if let Some(error) = error {
            self.message = Some(Err(error));
            self.running = false;
        }
        if let Some(sowing) = &self.sowing {
            let shown = (ctx.input(|i| i.time) - sowing.started) / step_seconds(sowing.steps.len());
            if shown as usize + 1 >= sowing.steps.len() {
                self.sowing = None;
            } else {
                ctx.request_repaint();
            }
        }
        if self.running && self.thinking.is_none() && self.sowing.is_none() {
            self.start_thinking(ctx);
        }
    }

    fn is_busy(&self) -> bool {
        self.thinking.is_some()
    }

    fn ui(&mut self, ui: &mut egui::Ui) {
        widgets::side_panel(ui, "play settings", 0.3, |ui| self.settings_ui(ui));
        egui::CentralPanel::default().show(ui, |ui| self.board_ui(ui));
    }
}

mod view;
