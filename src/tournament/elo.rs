//! Elo differences from match results, with a 95% confidence interval.

use std::fmt;

use serde::{Deserialize, Serialize};

/// The expected score (0..1) of a player `elo` points stronger than the opponent (logistic model).
pub fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference that makes `score` (0..1) the expected score: infinite at 0 and 1, where
/// no finite difference predicts the score (a clamp there would read as a measured value).
pub fn elo_from_score(score: f64) -> f64 {
    let score = score.clamp(0.0, 1.0);
    // `+ 0.0` turns an even score's -0 into 0.
    -400.0 * (1.0 / score - 1.0).log10() + 0.0
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

    /// The mean score's 95% Wilson interval (a draw half a win; its p(1 - p) bounds the variance of
    /// a score with draws, so the interval is if anything wide), sensible at 0 % and 100 % too.
    pub fn score_interval(&self) -> (f64, f64) {
        let (n, p, z) = (f64::from(self.games().max(1)), self.score(), 1.96);
        let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
        let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
        ((centre - half).max(0.0), (centre + half).min(1.0))
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

/// An Elo difference and its 95% confidence interval. An end is infinite when the results
/// bound it on one side only (every game won, or lost); JSON writes it as "+inf" or "-inf".
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct EloEstimate {
    #[serde(with = "maybe_infinite")]
    pub elo: f64,
    #[serde(with = "maybe_infinite")]
    pub low: f64,
    #[serde(with = "maybe_infinite")]
    pub high: f64,
}

/// "+19 [-9, +48]"; an infinite end shows as "+∞" or "−∞".
impl fmt::Display for EloEstimate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let show = |elo: f64| match elo {
            f64::INFINITY => "+∞".to_string(),
            f64::NEG_INFINITY => "−∞".to_string(),
            finite => format!("{finite:+.0}"),
        };
        write!(f, "{} [{}, {}]", show(self.elo), show(self.low), show(self.high))
    }
}

/// JSON has no infinity: there a finite number is written as a number, an infinite one as "+inf"
/// or "-inf". Binary formats (the Web Worker's messages) carry the f64 as it is.
mod maybe_infinite {
    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    pub fn serialize<S: Serializer>(value: &f64, serializer: S) -> Result<S::Ok, S::Error> {
        match *value {
            f64::INFINITY if serializer.is_human_readable() => serializer.serialize_str("+inf"),
            f64::NEG_INFINITY if serializer.is_human_readable() => serializer.serialize_str("-inf"),
            value => serializer.serialize_f64(value),
        }
    }

    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Written {
        Number(f64),
        Text(String),
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<f64, D::Error> {
        if !deserializer.is_human_readable() {
            return f64::deserialize(deserializer);
        }
        match Written::deserialize(deserializer)? {
            Written::Number(number) => Ok(number),
            Written::Text(text) => match text.as_str() {
                "+inf" => Ok(f64::INFINITY),
                "-inf" => Ok(f64::NEG_INFINITY),
                _ => {
                    Err(D::Error::custom(format!("'{text}' is not an Elo difference (a number, \"+inf\" or \"-inf\")")))
                }
            },
        }
    }
}

/// The Elo difference of the player with these results and its 95% interval: a Wilson score
/// interval on the mean score, with the trinomial W/D/L sample's per-game variance in place of
/// p(1 − p), each end turned into Elo. Unlike mean ± 1.96 standard errors it keeps a real width
/// when the sample has no spread (4 wins out of 4 bound the difference from below only). Treats games as
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clean_sweep_is_a_lower_bound_not_a_number() {
        let sweep = elo_estimate(&Wdl { wins: 4, draws: 0, losses: 0 });
        assert_eq!((sweep.elo, sweep.high), (f64::INFINITY, f64::INFINITY));
        assert!(sweep.low.is_finite() && sweep.low > 0.0, "{sweep:?}");
        assert!(sweep.to_string().starts_with("+∞ [+"), "{sweep}");
        let json = serde_json::to_string(&sweep).unwrap();
        assert!(json.contains(r#""elo":"+inf""#), "{json}");
        assert_eq!(serde_json::from_str::<EloEstimate>(&json).unwrap(), sweep);
        let bytes = postcard::to_allocvec(&sweep).unwrap();
        assert_eq!(postcard::from_bytes::<EloEstimate>(&bytes).unwrap(), sweep);
        let lost = elo_estimate(&Wdl { wins: 0, draws: 0, losses: 4 });
        assert_eq!((lost.elo, lost.low), (f64::NEG_INFINITY, f64::NEG_INFINITY));
    }

    #[test]
    fn a_mixed_result_is_finite_and_reads_back() {
        // 3 wins, 1 loss: score 0.75, 400·log10(3) = 190.8 Elo.
        let estimate = elo_estimate(&Wdl { wins: 3, draws: 0, losses: 1 });
        assert!((estimate.elo - 190.85).abs() < 0.01, "{estimate:?}");
        assert!(estimate.low < estimate.elo && estimate.elo < estimate.high && estimate.high.is_finite());
        let json = serde_json::to_string(&estimate).unwrap();
        assert_eq!(serde_json::from_str::<EloEstimate>(&json).unwrap(), estimate);
        assert!(serde_json::from_str::<EloEstimate>(r#"{"elo":"lots","low":0,"high":1}"#).is_err());
    }
}
