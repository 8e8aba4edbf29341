//! The static evaluation: a weighted sum of four named features, each the side to move's count
//! minus the opponent's: mobility, corners, stable discs and discs.

use super::Othello;
use super::board::{CORNERS, stable_discs};
use crate::games::barca::FeatureTerm;
use crate::games::{Evaluator, Game, Score, Side};

/// Weight per unit of each feature.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Weights {
    /// Per square the side could play now: the opponent is short of good moves when this is high.
    pub mobility: Score,
    /// Per corner held: a corner disc is never turned over and anchors its edges.
    pub corners: Score,
    /// Per disc that can never be turned over.
    pub stability: Score,
    /// Per disc: what decides the game, but a poor guide until the end.
    pub discs: Score,
}

/// Hand-picked in the usual order of importance: corners, then stability and mobility, discs last.
pub const DEFAULT_WEIGHTS: Weights = Weights { mobility: 10, corners: 80, stability: 15, discs: 1 };

impl Default for Weights {
    fn default() -> Weights {
        DEFAULT_WEIGHTS
    }
}

const NAMES: [&str; 4] = ["mobility", "corners", "stability", "disc difference"];

/// One side's raw feature values, in [`NAMES`] order.
fn features(game: &Othello, side: Side) -> [u32; 4] {
    let (own, opponent) = (game.discs(side), game.discs(side.other()));
    [
        game.legal_squares(side).count_ones(),
        (own & CORNERS).count_ones(),
        stable_discs(own, opponent).count_ones(),
        own.count_ones(),
    ]
}

impl Weights {
    fn as_array(&self) -> [Score; 4] {
        [self.mobility, self.corners, self.stability, self.discs]
    }

    /// The evaluation from the side to move's point of view.
    pub fn score(&self, game: &Othello) -> Score {
        let side = game.side_to_move();
        linear_score(&self.as_array(), &features(game, side), &features(game, side.other()))
    }
}

impl Evaluator<Othello> for Weights {
    fn evaluate(&self, game: &Othello) -> Score {
        self.score(game)
    }
}

/// The evaluation feature by feature, side to move first; the contributions sum to the score.
pub fn breakdown(game: &Othello, weights: &Weights) -> Vec<FeatureTerm> {
    let side = game.side_to_move();
    linear_terms(&NAMES, &weights.as_array(), &features(game, side), &features(game, side.other()))
}

/// An evaluation linear in per-side counts, term by term: `weight * own - weight * opponent` per
/// feature. (Hus's evaluation has the same shape and uses it too.)
pub fn linear_terms(names: &[&'static str], weights: &[Score], own: &[u32], opponent: &[u32]) -> Vec<FeatureTerm> {
    (0..names.len())
        .map(|i| {
            let (own_score, opponent_score) = (weights[i] * own[i] as Score, weights[i] * opponent[i] as Score);
            FeatureTerm {
                name: names[i],
                own: own[i],
                opponent: opponent[i],
                weight: Some(weights[i]),
                own_score,
                opponent_score,
                contribution: own_score - opponent_score,
            }
        })
        .collect()
}

/// The sum of [`linear_terms`]' contributions, without building them (the searches' hot path).
#[inline]
pub fn linear_score(weights: &[Score], own: &[u32], opponent: &[u32]) -> Score {
    (0..weights.len()).map(|i| weights[i] * (own[i] as Score - opponent[i] as Score)).sum()
}
