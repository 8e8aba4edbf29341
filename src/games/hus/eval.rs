//! The static evaluation: a weighted sum of four named features, each the side to move's count
//! minus the opponent's: seeds, exposed inner pits, capture threats and mobility.

use super::{Hus, INNER, PITS, Pits};
use crate::games::barca::FeatureTerm;
use crate::games::othello::eval::{linear_score, linear_terms};
use crate::games::{Evaluator, Game, Score, Side};

/// Weight per unit of each feature.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Weights {
    /// Per seed owned: the game is won by leaving the opponent without seeds to move.
    pub seeds: Score,
    /// Per inner pit holding seeds: only inner pits can be captured from.
    pub exposed_inner_pits: Score,
    /// Per move whose first sowing round would capture.
    pub capture_threats: Score,
    /// Per pit of 2 or more seeds (a legal move when it is the side's turn).
    pub mobility: Score,
}

/// Hand-picked: seeds decide the game; threats and mobility keep the initiative.
pub const DEFAULT_WEIGHTS: Weights = Weights { seeds: 10, exposed_inner_pits: -2, capture_threats: 6, mobility: 3 };

impl Default for Weights {
    fn default() -> Weights {
        DEFAULT_WEIGHTS
    }
}

const NAMES: [&str; 4] = ["seed difference", "exposed inner pits", "capture threats", "mobility"];

/// The moves of the player with pits `own` whose first sowing round ends in an occupied inner pit
/// facing a non-empty inner pit of `opponent`: they capture unless captures are still refused.
pub fn capture_threats(own: &Pits, opponent: &Pits) -> u32 {
    let mut threats = 0;
    for (start, &seeds) in own.iter().enumerate().filter(|&(_, &seeds)| seeds >= 2) {
        let seeds = usize::from(seeds);
        let end = (start + seeds) % PITS;
        // Steps from the start to the end pit on the first lap (a full lap ends where it began).
        let steps = match seeds % PITS {
            0 => PITS,
            steps => steps,
        };
        let dropped = (seeds - steps) / PITS + 1;
        let before = if end == start { 0 } else { usize::from(own[end]) };
        threats += u32::from(before + dropped >= 2 && end >= INNER && opponent[3 * INNER - 1 - end] > 0);
    }
    threats
}

/// One side's raw feature values, in [`NAMES`] order.
fn features(game: &Hus, side: Side) -> [u32; 4] {
    let (own, opponent) = (game.pits(side), game.pits(side.other()));
    [
        own.iter().map(|&seeds| u32::from(seeds)).sum(),
        own[INNER..].iter().filter(|&&seeds| seeds > 0).count() as u32,
        capture_threats(own, opponent),
        game.playable_pits(side),
    ]
}

impl Weights {
    fn as_array(&self) -> [Score; 4] {
        [self.seeds, self.exposed_inner_pits, self.capture_threats, self.mobility]
    }

    /// The evaluation from the side to move's point of view.
    pub fn score(&self, game: &Hus) -> Score {
        let side = game.side_to_move();
        linear_score(&self.as_array(), &features(game, side), &features(game, side.other()))
    }
}

impl Evaluator<Hus> for Weights {
    fn evaluate(&self, game: &Hus) -> Score {
        self.score(game)
    }
}

/// The evaluation feature by feature, side to move first; the contributions sum to the score.
pub fn breakdown(game: &Hus, weights: &Weights) -> Vec<FeatureTerm> {
    let side = game.side_to_move();
    linear_terms(&NAMES, &weights.as_array(), &features(game, side), &features(game, side.other()))
}
