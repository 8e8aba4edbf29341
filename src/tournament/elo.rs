//! Elo differences from match results, with a 95% confidence interval.

use serde::{Deserialize, Serialize};

/// Elo differences are capped here: a score of 0% or 100% would be infinitely many Elo.
pub const ELO_CAP: f64 = 1200.0;

/// The expected score (0..1) of a player `elo` points stronger than the opponent (logistic model).
pub fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference that makes `score` (0..1) the expected score, within ±[`ELO_CAP`].
pub fn elo_from_score(score: f64) -> f64 {
    let score = score.clamp(0.0, 1.0);
    // `+ 0.0` turns an even score's -0 into 0.
    (-400.0 * (1.0 / score - 1.0).log10()).clamp(-ELO_CAP, ELO_CAP) + 0.0
}

/// Wins, draws and losses from one player's point of view.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Wdl {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Wdl {
    pub fn add(&mut self, other: &Wdl) {
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
    }

    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The mean score with a win 1, a draw ½ and a loss 0 (½ before any game).
    pub fn score(&self) -> f64 {
        if self.games() == 0 {
            return 0.5;
        }
        (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / f64::from(self.games())
    }

    /// The variance of one game's score around the mean score.
    pub fn variance(&self) -> f64 {
        let (n, mean) = (f64::from(self.games()), self.score());
        if n == 0.0 {
            return 0.0;
        }
        (f64::from(self.wins) * (1.0 - mean).powi(2)
            + f64::from(self.draws) * (0.5 - mean).powi(2)
            + f64::from(self.losses) * mean.powi(2))
            / n
    }
}

/// An Elo difference and its 95% confidence interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct EloEstimate {
    pub elo: f64,
    pub low: f64,
    pub high: f64,
}

/// The Elo difference of the player with these results and its 95% interval: a Wilson score
/// interval on the mean score, with the trinomial W/D/L sample's per-game variance in place of
/// p(1 − p), each end turned into Elo. Unlike mean ± 1.96 standard errors it keeps a real width
/// when the sample has no spread (4 wins out of 4 is not proof of a 1,200 Elo gap). Treats games as
/// independent, which colour-swapped pairs on one opening are not quite; the interval is then
/// slightly conservative rather than too narrow.
pub fn elo_estimate(results: &Wdl) -> EloEstimate {
    const Z: f64 = 1.96;
    let score = results.score();
    let games = f64::from(results.games().max(1));
    let shrink = 1.0 + Z * Z / games;
    let centre = (score + Z * Z / (2.0 * games)) / shrink;
    let margin = Z / shrink * (results.variance() / games + Z * Z / (4.0 * games * games)).sqrt();
    EloEstimate {
        elo: elo_from_score(score),
        low: elo_from_score(centre - margin),
        high: elo_from_score(centre + margin),
    }
}
