//! Choosing a move to play: difficulty levels, and the Barca report's randomization — score the
//! root moves, keep the best five, and sample one in proportion to its (shifted positive) score,
//! so the engine varies its play without throwing games away.

use rand::Rng;

use super::engine::{Choice, EngineResult};
use super::iterative::IterativeDeepening;
use super::tree::TreeEvent;
use super::{SearchLimits, alphabeta};
use crate::games::{Evaluator, Game, Score, is_proven};
use crate::trace::{Control, Tracer};

/// How many of the best root moves the randomization samples from.
pub const TOP_MOVES: usize = 5;

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Difficulty {
    /// Looks one move ahead and samples among the best five.
    Easy,
    /// Looks three plies ahead and samples among the best five.
    Medium,
    /// Iterative deepening for one second, always the best move.
    Hard,
}

impl Difficulty {
    /// The depth of the randomized levels (`None`: a timed search that plays its best move).
    pub fn sampling_depth(self) -> Option<u32> {
        match self {
            Difficulty::Easy => Some(1),
            Difficulty::Medium => Some(3),
            Difficulty::Hard => None,
        }
    }

    pub fn search_millis(self) -> u64 {
        1000
    }
}

/// Each root move's exact score to `depth` plies (alpha-beta with a full window below each move),
/// for the side to move at the root; in move-generation order. When `observer` says stop, the moves
/// scored so far (at least the first, so there is a move to play).
pub fn root_move_scores<G: Game, E: Evaluator<G>, T: Tracer<TreeEvent>>(
    game: &G,
    eval: &E,
    depth: u32,
    observer: &mut T,
) -> Vec<(G::Move, Score)> {
    let mut moves = Vec::new();
    if game.outcome().is_none() {
        game.legal_moves(&mut moves);
    }
    let mut child = game.clone();
    let mut scored = Vec::with_capacity(moves.len());
    for mv in moves {
        child.make_move(mv);
        let score = if child.repeats_earlier_position() {
            0
        } else {
            one_ply_up(-alphabeta::search(&child, eval, depth.saturating_sub(1), observer).score)
        };
        child.unmake_move();
        let stopped = observer.control() == Control::Stop;
        // A search cut short gives no score, but an answer needs one move.
        if stopped && !scored.is_empty() {
            break;
        }
        scored.push((mv, score));
        if stopped {
            break;
        }
    }
    scored
}

/// A score from a search rooted one ply lower: proven results are one ply further away.
fn one_ply_up(score: Score) -> Score {
    if !is_proven(score) {
        score
    } else if score > 0 {
        score - 1
    } else {
        score + 1
    }
}

/// Samples among the `top` best scored moves with weights `score - worst + 1`. A proven win is
/// always played, and proven losses are avoided while anything else is left.
pub fn sample_top<M: Copy>(scored: &[(M, Score)], top: usize, rng: &mut impl Rng) -> Option<M> {
    let mut ranked = scored.to_vec();
    ranked.sort_by_key(|&(_, score)| std::cmp::Reverse(score));
    let &(best, best_score) = ranked.first()?;
    if is_proven(best_score) && best_score > 0 {
        return Some(best);
    }
    ranked.truncate(top.max(1));
    ranked.retain(|&(_, score)| !(is_proven(score) && score < 0) || score == best_score);
    let worst = i64::from(ranked.last().expect("the best move is kept").1);
    let weights: Vec<i64> = ranked.iter().map(|&(_, score)| i64::from(score) - worst + 1).collect();
    let mut ticket = rng.random_range(0..weights.iter().sum::<i64>());
    for (&(mv, _), weight) in ranked.iter().zip(weights) {
        if ticket < weight {
            return Some(mv);
        }
        ticket -= weight;
    }
    unreachable!("the ticket is below the total weight")
}

/// The move to play at `difficulty`, the searches watched by `observer`. `engine` serves the timed
/// level and keeps its table between moves.
pub fn choose_move<G: Game, E: Evaluator<G>>(
    game: &G,
    eval: &E,
    difficulty: Difficulty,
    engine: &mut IterativeDeepening<G>,
    rng: &mut impl Rng,
    observer: &mut impl Tracer<TreeEvent>,
) -> Choice<G::Move> {
    match difficulty.sampling_depth() {
        Some(depth) => {
            Choice { mv: sample_top(&root_move_scores(game, eval, depth, observer), TOP_MOVES, rng), search: None }
        }
        None => {
            let limits = SearchLimits::millis(difficulty.search_millis());
            Choice::searched(EngineResult::Tree(engine.search(game, eval, &limits, observer)))
        }
    }
}
