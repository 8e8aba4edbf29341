//! Games for adversarial search: the [`Game`] trait every search algorithm is written against,
//! and its implementations.

pub mod goofspiel;
pub mod registry;
pub mod ropasci;
pub mod sim_games;
pub mod simultaneous;
pub mod uniform_tree;

pub use registry::{GameVisitor, RegisteredGame};

registry::games! {
    tictactoe: TicTacToe,
    barca: Barca,
    othello: Othello,
    hus: Hus,
    custom_tree: CustomTree,
}

use std::fmt::Debug;
use std::hash::Hash;

/// One of the two players. `First` moves first (Barca's White, tic-tac-toe's X).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Side {
    First,
    Second,
}

impl Side {
    pub fn other(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }

    /// +1 for `First`, -1 for `Second`: turns a side-to-move score into a `First`-relative one.
    pub fn sign(self) -> Score {
        match self {
            Side::First => 1,
            Side::Second => -1,
        }
    }
}

/// How a finished game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Outcome {
    Win(Side),
    Draw,
}

/// Search values, always from the point of view of the side to move unless a function says otherwise.
pub type Score = i32;

/// The value of a won game at the root; a win found `ply` plies down scores `WIN - ply`, so shorter
/// wins are preferred and any score beyond `WIN - MAX_PLY` is a proven result.
pub const WIN: Score = 1_000_000;
/// No search goes deeper than this many plies.
pub const MAX_PLY: usize = 1_000;

/// True when `score` is a proven win or loss rather than a heuristic estimate.
pub fn is_proven(score: Score) -> bool {
    score.abs() > WIN - MAX_PLY as Score
}

/// A two-player, zero-sum, perfect-information game, played by making and unmaking moves on one
/// state. The state keeps its own move history, so `unmake_move` needs no argument and repetition
/// can be detected from the hash history.
pub trait Game: Clone + Send + 'static {
    type Move: Copy + Eq + Hash + Debug + Send + Sync + 'static;

    fn side_to_move(&self) -> Side;

    /// Appends the legal moves of the side to move to `moves` (which the caller has cleared).
    fn legal_moves(&self, moves: &mut Vec<Self::Move>);

    /// Plays `mv`, which must be legal here.
    fn make_move(&mut self, mv: Self::Move);

    /// Takes back the last move made.
    fn unmake_move(&mut self);

    /// The game's result if it has ended (win, repetition, ply limit), else `None`. A position
    /// without an outcome and without legal moves is also a draw; searches check that themselves,
    /// so this never has to generate moves.
    fn outcome(&self) -> Option<Outcome>;

    /// The value the game itself gives this finished position, from the side to move's point of
    /// view (a typed-in tree's leaf). Searches score it as a terminal node, at any depth.
    fn leaf_value(&self) -> Option<Score> {
        None
    }

    /// True when the current position occurred earlier in this game's history. Searches score
    /// such a node as a draw below the root: a cycle gains nobody anything.
    fn repeats_earlier_position(&self) -> bool {
        false
    }

    /// A 64-bit Zobrist-style hash of the position (pieces and side to move, not the history).
    fn hash(&self) -> u64;

    /// The game's default static evaluation, from the side to move's point of view.
    fn evaluate(&self) -> Score;

    /// Number of moves made since the start of this game's history.
    fn ply(&self) -> usize;

    fn move_text(&self, mv: Self::Move) -> String;

    /// Parses a move in the game's notation and checks that it is legal here.
    fn parse_move(&self, text: &str) -> Result<Self::Move, String>;

    /// Plays moves written in the game's notation and separated by whitespace; the error names
    /// the move by its ply and says why it cannot be played.
    fn play_moves(&mut self, text: &str) -> Result<(), String> {
        for token in text.split_whitespace() {
            let ply = self.ply() + 1;
            let mv = self.parse_move(token).map_err(|error| format!("move {ply}: {error}"))?;
            self.make_move(mv);
        }
        Ok(())
    }
}

/// A static evaluation the searches call at their horizon, from the side to move's point of view.
/// Searches are generic over it so one game can be searched with different weights (tuning, matches).
pub trait Evaluator<G: Game>: Sync {
    fn evaluate(&self, game: &G) -> Score;
}

/// Evaluates with the game's own [`Game::evaluate`].
#[derive(Debug, Clone, Copy, Default)]
pub struct DefaultEval;

impl<G: Game> Evaluator<G> for DefaultEval {
    #[inline]
    fn evaluate(&self, game: &G) -> Score {
        game.evaluate()
    }
}

/// A hash key for taking child `index` at `ply`: XOR-ing the keys of a path hashes the node it
/// leads to, for games whose positions are paths in a tree.
pub fn path_key(ply: usize, index: u32) -> u64 {
    let mut z = (ply as u64) << 32 | u64::from(index);
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A uniformly random legal move, or `None` when there is none.
pub fn random_move<G: Game>(game: &G, rng: &mut impl rand::Rng) -> Option<G::Move> {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    (!moves.is_empty()).then(|| moves[rng.random_range(0..moves.len())])
}

/// Plays up to `plies` random legal moves on `game`, stopping early when the game ends: how tests,
/// benchmarks and match openings reach varied positions with a real history behind them.
pub fn random_playout<G: Game>(game: &mut G, plies: usize, rng: &mut impl rand::Rng) {
    for _ in 0..plies {
        if game.outcome().is_some() {
            return;
        }
        match random_move(game, rng) {
            Some(mv) => game.make_move(mv),
            None => return,
        }
    }
}
