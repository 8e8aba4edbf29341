//! How a UCT search runs: its parameters, the tuned and plain presets, and the `uct:` spec items.

use serde::{Deserialize, Serialize};

/// How a search runs. Rewards lie in [0, 1]: 1 a win, 0.5 a draw, 0 a loss.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct MctsConfig {
    /// C in UCB1 = mean + C·sqrt(ln N_parent / n_child).
    pub exploration: f64,
    /// Stop after this many iterations in one search.
    pub iterations: Option<u64>,
    /// Stop after this many milliseconds.
    pub millis: Option<u64>,
    /// Playouts score the position with the evaluator after this many random plies; `None` plays
    /// to the end of the game (at most `MAX_PLY` plies: random Barca games rarely end).
    pub playout_cutoff: Option<u32>,
    /// Evaluations become rewards by the logistic 1 / (1 + e^(-score / eval_scale)).
    pub eval_scale: f64,
    /// Progressive bias: a child's selection score gains `prior_weight · prior / (visits + 1)`, where
    /// the prior is the child position's squashed evaluation. 0 skips the evaluations altogether.
    pub prior_weight: f64,
    /// Implicit minimax backups (Lanctot et al. 2014): every node also keeps the minimax value of
    /// the evaluations below it, and selection blends it with the mean reward,
    /// `(1 - α)·mean + α·minimax`. 0 (the default) is plain UCT; above 0 an unvisited child counts
    /// its evaluation as its mean, so a node's children need not all be tried once first.
    pub implicit_minimax: f64,
    /// MAST (move-average sampling): playouts pick the move with the best average reward over all
    /// playouts so far (by mover and move), or with this probability a random move; `None` plays
    /// uniformly random moves.
    pub mast: Option<f64>,
    /// RAVE (Gelly & Silver 2007/2011) with equivalence parameter K: every node also keeps AMAF
    /// ("all moves as first") statistics, the rewards of the simulations through its parent in
    /// which its mover played its move at any later point, and selection uses
    /// `(1 - β)·mean + β·amaf_mean` in place of the mean, `β = sqrt(K / (3n + K))` for a child of `n`
    /// visits (β is ½ at n = K). Untried children still go first, the best AMAF mean first.
    /// `None` (the default) is plain UCT.
    pub rave: Option<f64>,
    /// MCTS-Solver: propagate proven results up the tree and never re-simulate proven nodes.
    pub solver: bool,
    /// Seeds the playouts' random generator when the tree is created or reconfigured.
    pub seed: u64,
}

impl Default for MctsConfig {
    fn default() -> Self {
        Self {
            exploration: std::f64::consts::SQRT_2,
            iterations: Some(10_000),
            millis: None,
            playout_cutoff: None,
            eval_scale: 200.0,
            prior_weight: 0.0,
            implicit_minimax: 0.0,
            mast: None,
            rave: None,
            solver: true,
            seed: 0,
        }
    }
}

impl MctsConfig {
    /// The UCT that plays (`uct:<T>ms`): leaves scored by the evaluation straight away, selection
    /// by the implicit minimax value alone (weight 1) with little exploration, no progressive bias.
    /// Tuned at 2,000 playouts a move against `id:3` (see the README): weight 1 beat 0.7 and 0.4,
    /// and progressive bias on top cost 0.17 of the score. Once leaves were expanded at their first
    /// visit, C was tuned again at 30 ms a move against `id:30ms`: 0.02 beat 0.1, 0.05 and 0 (0.01
    /// to 0.03 were close).
    pub fn tuned() -> Self {
        Self {
            exploration: TUNED_EXPLORATION,
            playout_cutoff: Some(0),
            eval_scale: 200.0,
            prior_weight: TUNED_PRIOR_WEIGHT,
            implicit_minimax: TUNED_IMPLICIT_MINIMAX,
            ..Self::default()
        }
    }
}

impl MctsConfig {
    /// Plain UCT as the match engines played it before the evaluation was put to use: UCB1 with
    /// C = √2, uniformly random playouts scored by the evaluation after 20 plies.
    pub fn plain() -> Self {
        Self { playout_cutoff: Some(PLAIN_PLAYOUT_CUTOFF), ..Self::default() }
    }

    /// Applies one item of a `uct:` engine spec (after its budget): `plain` (all of
    /// [`MctsConfig::plain`]), `exploration=C`, `playout-cutoff=P` or `none`, `eval-scale=S`,
    /// `bias=W` (progressive bias), `minimax=A` (implicit minimax weight), `mast=E` (MAST with
    /// random moves at rate E) or `off`, `rave=K` (RAVE with equivalence parameter K) or `off`,
    /// `solver=on|off`, `seed=S`.
    pub fn apply_item(&mut self, item: &str) -> Result<(), String> {
        if item == "plain" {
            *self = Self { iterations: self.iterations, millis: self.millis, seed: self.seed, ..Self::plain() };
            return Ok(());
        }
        let (key, value) = item.split_once('=').ok_or_else(|| format!("'{item}' is not plain or key=value"))?;
        let number = |low: f64| -> Result<f64, String> {
            value
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite() && *v >= low)
                // The smallest positive float stands for "above 0", which is how it reads.
                .ok_or_else(|| {
                    if low > 0.0 {
                        format!("{key}={value}: not a number > 0")
                    } else {
                        format!("{key}={value}: not a number >= {}", crate::text::number(low))
                    }
                })
        };
        match key {
            "exploration" => self.exploration = number(0.0)?,
            "playout-cutoff" if value == "none" => self.playout_cutoff = None,
            "playout-cutoff" => {
                self.playout_cutoff =
                    Some(value.parse().map_err(|_| format!("{key}={value}: not a whole number or none"))?)
            }
            "eval-scale" => self.eval_scale = number(f64::MIN_POSITIVE)?,
            "bias" => self.prior_weight = number(0.0)?,
            "minimax" => {
                self.implicit_minimax = number(0.0)
                    .ok()
                    .filter(|a| *a <= 1.0)
                    .ok_or_else(|| format!("{key}={value}: not a weight from 0 to 1"))?
            }
            "mast" if value == "off" => self.mast = None,
            "mast" => {
                self.mast = Some(
                    number(0.0)
                        .ok()
                        .filter(|e| *e <= 1.0)
                        .ok_or_else(|| format!("{key}={value}: not a rate from 0 to 1, or off"))?,
                )
            }
            "rave" if value == "off" => self.rave = None,
            "rave" => self.rave = Some(number(f64::MIN_POSITIVE)?),
            "solver" if value == "on" || value == "off" => self.solver = value == "on",
            "seed" => self.seed = value.parse().map_err(|_| format!("{key}={value}: not a whole number"))?,
            _ => {
                return Err(format!(
                    "unknown uct option '{item}' (plain, exploration, playout-cutoff, eval-scale, bias, minimax, mast, rave, solver, seed)"
                ));
            }
        }
        Ok(())
    }

    /// The items that turn `base` into this configuration, in [`MctsConfig::apply_item`]'s form:
    /// starting from `plain` when that takes fewer.
    pub fn items_from(&self, base: &MctsConfig) -> Vec<String> {
        let direct = self.differences(base);
        let plain = Self { iterations: base.iterations, millis: base.millis, seed: base.seed, ..Self::plain() };
        let via_plain: Vec<String> = std::iter::once("plain".to_string()).chain(self.differences(&plain)).collect();
        if via_plain.len() < direct.len() { via_plain } else { direct }
    }

    fn differences(&self, base: &MctsConfig) -> Vec<String> {
        let mut items = Vec::new();
        let mut differ = |same: bool, item: String| {
            if !same {
                items.push(item)
            }
        };
        differ(self.exploration == base.exploration, format!("exploration={}", self.exploration));
        differ(
            self.playout_cutoff == base.playout_cutoff,
            format!("playout-cutoff={}", self.playout_cutoff.map_or("none".to_string(), |p| p.to_string())),
        );
        differ(self.eval_scale == base.eval_scale, format!("eval-scale={}", self.eval_scale));
        differ(self.prior_weight == base.prior_weight, format!("bias={}", self.prior_weight));
        differ(self.implicit_minimax == base.implicit_minimax, format!("minimax={}", self.implicit_minimax));
        differ(self.mast == base.mast, format!("mast={}", self.mast.map_or("off".to_string(), |e| e.to_string())));
        differ(self.rave == base.rave, format!("rave={}", self.rave.map_or("off".to_string(), |k| k.to_string())));
        differ(self.solver == base.solver, format!("solver={}", if self.solver { "on" } else { "off" }));
        differ(self.seed == base.seed, format!("seed={}", self.seed));
        items
    }
}

/// Random plies before a plain UCT playout is scored by the evaluation: random Barca games rarely end.
pub const PLAIN_PLAYOUT_CUTOFF: u32 = 20;
const TUNED_EXPLORATION: f64 = 0.02;
const TUNED_PRIOR_WEIGHT: f64 = 0.0;
const TUNED_IMPLICIT_MINIMAX: f64 = 1.0;
