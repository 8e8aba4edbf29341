//! Rewards and selection scores: proven results, the evaluation's squash into a reward, UCB1 with
//! progressive bias and implicit minimax, and one move's statistics as shown.

use serde::{Deserialize, Serialize};

use crate::games::{Outcome, Score, Side, is_proven};

use super::MctsConfig;

/// A game-theoretic value established by the solver (or by a terminal position), for the player
/// who moved into the node.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Proven {
    Win,
    Draw,
    Loss,
}

impl Proven {
    /// The same result seen by the other player.
    pub fn flipped(self) -> Proven {
        match self {
            Proven::Win => Proven::Loss,
            Proven::Draw => Proven::Draw,
            Proven::Loss => Proven::Win,
        }
    }

    pub fn reward(self) -> f64 {
        match self {
            Proven::Win => 1.0,
            Proven::Draw => 0.5,
            Proven::Loss => 0.0,
        }
    }

    pub(super) fn of_outcome(outcome: Outcome, player: Side) -> Proven {
        match outcome {
            Outcome::Draw => Proven::Draw,
            Outcome::Win(side) if side == player => Proven::Win,
            Outcome::Win(_) => Proven::Loss,
        }
    }
}

/// Squashes a side-to-move evaluation into a reward for the side to move.
pub fn squash(score: Score, eval_scale: f64) -> f64 {
    if is_proven(score) {
        if score > 0 { 1.0 } else { 0.0 }
    } else {
        1.0 / (1.0 + (-(score as f64) / eval_scale).exp())
    }
}

/// AMAF ("all moves as first") statistics of a move for RAVE: the rewards of its mover in the
/// simulations through the parent in which that move was played at any later point.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Amaf {
    pub visits: u32,
    pub sum: f64,
}

impl Amaf {
    /// The AMAF mean; 0.5 (even) before the first sample.
    pub fn mean(&self) -> f64 {
        mean(self.sum, self.visits)
    }

    pub(in crate::adversarial) fn add(&mut self, reward: f64) {
        self.visits += 1;
        self.sum += reward;
    }
}

/// RAVE's weight of the AMAF mean for a child visited `visits` times: β = sqrt(K / (3n + K)).
pub fn rave_beta(k: f64, visits: u32) -> f64 {
    (k / (3.0 * visits as f64 + k)).sqrt()
}

/// The mean selection works with: with RAVE, `(1 - β)·mean + β·amaf_mean`; else `mean`.
pub fn rave_mean(mean: f64, visits: u32, amaf: &Amaf, config: &MctsConfig) -> f64 {
    config.rave.map_or(mean, |k| {
        let beta = rave_beta(k, visits);
        (1.0 - beta) * mean + beta * amaf.mean()
    })
}

/// A child's selection score: UCB1 plus progressive bias; `None` (try first) while unvisited.
pub fn ucb(mean: f64, visits: u32, parent_visits: u32, prior: f64, config: &MctsConfig) -> Option<f64> {
    (visits > 0).then(|| {
        let n = visits as f64;
        mean + config.exploration * ((parent_visits as f64).ln() / n).sqrt() + config.prior_weight * prior / (n + 1.0)
    })
}

/// The engine's selection score: [`ucb`], or with implicit minimax backups the blended mean (an
/// unvisited child's mean is its minimax value, its evaluation) and `visits + 1` in the
/// exploration term, so unvisited children compete instead of going first.
/// `log_parent` is `ln(parent_visits + 1)`, computed once per selection rather than per child.
pub(super) fn selection_score(
    mean: f64,
    visits: u32,
    parent_visits: u32,
    log_parent: f64,
    prior: f64,
    minimax: f64,
    config: &MctsConfig,
) -> Option<f64> {
    let alpha = config.implicit_minimax;
    if alpha == 0.0 {
        return ucb(mean, visits, parent_visits, prior, config);
    }
    let n = visits as f64 + 1.0;
    let mean = if visits == 0 { minimax } else { mean };
    let explore = config.exploration * (log_parent / n).sqrt();
    Some((1.0 - alpha) * mean + alpha * minimax + explore + config.prior_weight * prior / n)
}

/// One move at a node as the UI and the CLI show it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChildStats {
    #[serde(rename = "move")]
    pub mv: String,
    pub visits: u32,
    /// Mean reward of the player making this move.
    pub mean: f64,
    /// The selection score at this moment; `None` while unvisited.
    pub ucb: Option<f64>,
    pub prior: f64,
    pub proven: Option<Proven>,
    /// With RAVE: the move's AMAF statistics.
    #[serde(default)]
    pub amaf: Option<Amaf>,
}

impl ChildStats {
    pub(in crate::adversarial) fn new(
        mv: String,
        visits: u32,
        value_sum: f64,
        prior: f32,
        proven: Option<Proven>,
        parent_visits: u32,
        config: &MctsConfig,
    ) -> Self {
        let mean = mean(value_sum, visits);
        let prior = prior as f64;
        Self { mv, visits, mean, ucb: ucb(mean, visits, parent_visits, prior, config), prior, proven, amaf: None }
    }

    /// With RAVE on in `config`: the AMAF statistics shown, and UCB computed on the blended mean.
    pub(in crate::adversarial) fn with_amaf(mut self, amaf: Amaf, parent_visits: u32, config: &MctsConfig) -> Self {
        if config.rave.is_some() {
            let blended = rave_mean(self.mean, self.visits, &amaf, config);
            self.ucb = ucb(blended, self.visits, parent_visits, self.prior, config);
            self.amaf = Some(amaf);
        }
        self
    }
}

pub(in crate::adversarial) fn mean(value_sum: f64, visits: u32) -> f64 {
    if visits == 0 { 0.5 } else { value_sum / visits as f64 }
}
