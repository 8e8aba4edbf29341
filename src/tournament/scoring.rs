//! Scoring finished games. Plain scoring counts a win 1, a draw ½ and a loss 0. The Barca
//! report's scoring resolves more finely, which gradient ascent needs: a win is worth more the
//! shorter the game, and a draw goes to the side whose positions both agents judged better.

use serde::{Deserialize, Serialize};

use super::elo::Wdl;

/// One game's result from the first contestant's point of view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameResult {
    Win,
    Draw,
    Loss,
}

/// What a finished game leaves for scoring, from the first contestant's point of view.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// Which opening of the suite the game started from (both games of a pair share it).
    pub pair: u32,
    pub first_plays_white: bool,
    pub result: GameResult,
    /// Plies played after the opening.
    pub plies: usize,
    /// The mean over the game's positions of both agents' evaluations averaged, each taken from
    /// the first contestant's side: how good the game looked for it by both opinions.
    pub mean_eval: f64,
}

/// The constants of the report-style score.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ReportScoring {
    /// A win in at most this many plies earns the full 1; longer wins earn 0.5 + 0.5 · this / plies.
    pub quick_win_plies: f64,
    /// Evaluation units that make a draw's mean evaluation count as a clear edge (tanh's scale).
    pub draw_eval_scale: f64,
}

/// A draw earns at most this much either way, so any win outscores any draw.
pub const DRAW_SHARE: f64 = 0.25;

impl Default for ReportScoring {
    fn default() -> Self {
        Self { quick_win_plies: 20.0, draw_eval_scale: 100.0 }
    }
}

impl ReportScoring {
    /// The game's score in −1..1 for the first contestant (0 is even). Wins score
    /// 0.5..1, inversely proportional to the length beyond `quick_win_plies`; losses mirror wins;
    /// draws score ±[`DRAW_SHARE`]·tanh(mean evaluation / scale), a smooth, bounded difference of
    /// the two sides' average positions.
    pub fn score(&self, game: &GameRecord) -> f64 {
        let win = || 0.5 + 0.5 * (self.quick_win_plies / (game.plies.max(1) as f64)).min(1.0);
        match game.result {
            GameResult::Win => win(),
            GameResult::Loss => -win(),
            GameResult::Draw => DRAW_SHARE * (game.mean_eval / self.draw_eval_scale).tanh(),
        }
    }

    /// The mean report score of `games` (0 for none).
    pub fn mean(&self, games: &[GameRecord]) -> f64 {
        if games.is_empty() {
            return 0.0;
        }
        games.iter().map(|g| self.score(g)).sum::<f64>() / games.len() as f64
    }
}

/// Plain scoring: win 1, draw ½, loss 0.
pub fn plain_score(game: &GameRecord) -> f64 {
    match game.result {
        GameResult::Win => 1.0,
        GameResult::Draw => 0.5,
        GameResult::Loss => 0.0,
    }
}

/// The W/D/L count of `games`.
pub fn tally(games: &[GameRecord]) -> Wdl {
    let mut wdl = Wdl::default();
    for game in games {
        match game.result {
            GameResult::Win => wdl.wins += 1,
            GameResult::Draw => wdl.draws += 1,
            GameResult::Loss => wdl.losses += 1,
        }
    }
    wdl
}
