//! The sequential probability ratio test of chess-engine testing: play games until the results
//! decide between "the engine is `elo0` stronger" (H0) and "it is `elo1` stronger" (H1) with error
//! rates `alpha` (accepting H1 wrongly) and `beta` (accepting H0 wrongly).

use serde::{Deserialize, Serialize};

use super::elo::{Wdl, expected_score};

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    /// H0 holds: the engine is not `elo1` stronger.
    AcceptH0,
    /// H1 holds: the engine is at least about `elo1` stronger.
    AcceptH1,
    Continue,
}

/// The test's state after some games, for printing.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SprtStatus {
    pub llr: f64,
    pub lower_bound: f64,
    pub upper_bound: f64,
    pub decision: Decision,
}

impl Sprt {
    /// Wald's bounds: stop for H0 at or below `ln(beta / (1 - alpha))`, for H1 at or above
    /// `ln((1 - beta) / alpha)`.
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// The generalized SPRT's log-likelihood ratio in its normal approximation (as in Fishtest):
    /// with mean score x̄ over n games, per-game variance σ² and the expected scores s0, s1 of
    /// elo0 and elo1,  LLR ≈ n (s1 − s0) (2x̄ − s0 − s1) / (2σ²).
    /// σ² is estimated with half a game added to each of W, D and L, so a few identical results
    /// (zero variance) cannot end the test at once.
    pub fn llr(&self, results: &Wdl) -> f64 {
        let n = f64::from(results.games());
        if n == 0.0 {
            return 0.0;
        }
        let (s0, s1) = (expected_score(self.elo0), expected_score(self.elo1));
        let mean = results.score();
        let regularized =
            Wdl { wins: 2 * results.wins + 1, draws: 2 * results.draws + 1, losses: 2 * results.losses + 1 };
        let variance = regularized.variance();
        n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance)
    }

    pub fn status(&self, results: &Wdl) -> SprtStatus {
        let llr = self.llr(results);
        let (lower_bound, upper_bound) = self.bounds();
        let decision = if llr >= upper_bound {
            Decision::AcceptH1
        } else if llr <= lower_bound {
            Decision::AcceptH0
        } else {
            Decision::Continue
        };
        SprtStatus { llr, lower_bound, upper_bound, decision }
    }

    /// Checks the parameters: elo0 < elo1 and error rates strictly between 0 and ½.
    pub fn validate(&self) -> Result<(), String> {
        // Written so that a NaN bound is refused too.
        if self.elo0.partial_cmp(&self.elo1) != Some(std::cmp::Ordering::Less) {
            return Err(format!("SPRT needs elo0 < elo1, got {} and {}", self.elo0, self.elo1));
        }
        for (name, rate) in [("alpha", self.alpha), ("beta", self.beta)] {
            if !(rate > 0.0 && rate < 0.5) {
                return Err(format!("SPRT {name} must lie strictly between 0 and 0.5, got {rate}"));
            }
        }
        Ok(())
    }
}
