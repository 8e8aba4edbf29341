//! Gradient ascent over the Barca evaluation weights, after the Barca report's loop: estimate each
//! partial derivative by a match between two perturbed vectors, step along the gradient, measure
//! every new vector against a FIXED reference, and restart from the best vector so far with a
//! smaller delta or learning rate when progress stalls.
//!
//! Guards against the report's "moving goalposts" (vectors that win the draw tie-break by
//! penalising watering holes): the win term `holes_held[3]` is pinned, holding more holes may never
//! score less than holding fewer, a chance to step onto a hole is never negative, and progress is
//! only ever measured against the fixed reference, never against the tuner's own recent vectors.

use serde::{Deserialize, Serialize};

use super::elo::EloEstimate;
use super::engine::EngineSpec;
use super::runner::{Contestant, MatchConfig, MatchObserver, run_match};
use super::scoring::{GameRecord, ReportScoring, plain_score};
use crate::adversarial::engine::EngineAlgorithm;
use crate::games::barca::Barca;
use crate::games::barca::eval::Weights;
use crate::games::{Score, WIN};
use crate::text::{number, one_line, quote, without_bom};

/// The tuned weights, in [`tunable`] order (`holes_held[3]`, the win, is pinned).
pub const TUNED_NAMES: [&str; 10] = [
    "holes_held[0]",
    "holes_held[1]",
    "holes_held[2]",
    "holes_next_turn[0]",
    "holes_next_turn[1]",
    "holes_next_turn[2]",
    "next_to_hole",
    "scared",
    "centre",
    "teammates",
];

/// The weights gradient ascent may change, in [`TUNED_NAMES`] order.
pub fn tunable(weights: &Weights) -> [Score; 10] {
    let [h0, h1, h2, _] = weights.holes_held;
    let [n0, n1, n2] = weights.holes_next_turn;
    [h0, h1, h2, n0, n1, n2, weights.next_to_hole, weights.scared, weights.centre, weights.teammates]
}

/// `values` in [`TUNED_NAMES`] order with `pinned`'s win term, moved into the allowed region:
/// hole counts score in increasing order below the win, stepping onto a hole is never negative,
/// and no weight outgrows the win term (which also keeps every evaluation far below a proven win,
/// so the weights always pass [`Weights::check`]).
pub fn with_tunable(pinned: &Weights, values: [Score; 10]) -> Weights {
    let win = pinned.holes_held[3];
    let cap = win.abs().min(WIN / 500);
    let [h0, h1, h2, n0, n1, n2, next_to_hole, scared, centre, teammates] = values.map(|v| v.clamp(-cap, cap));
    let h2 = h2.min(win - 1);
    let h1 = h1.min(h2);
    Weights {
        holes_held: [h0.min(h1), h1, h2, win],
        holes_next_turn: [n0.max(0), n1.max(0), n2.max(0)],
        next_to_hole,
        scared,
        centre,
        teammates,
    }
}

/// What gradient ascent maximises: the report's fine-grained score, or plain W/D/L results
/// (mapped to −1..1 like the report's, so the same steps fit both).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Objective {
    #[default]
    Report,
    Plain,
}

impl std::str::FromStr for Objective {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        match text {
            "report" => Ok(Objective::Report),
            "plain" => Ok(Objective::Plain),
            _ => Err(format!("unknown objective '{}': use report or plain", quote(text))),
        }
    }
}

impl Objective {
    /// The mean objective of `games`, −1..1 (0 is even).
    pub fn mean(self, scoring: &ReportScoring, games: &[GameRecord]) -> f64 {
        match self {
            Objective::Report => scoring.mean(games),
            Objective::Plain => {
                games.iter().map(|g| 2.0 * plain_score(g) - 1.0).sum::<f64>() / games.len().max(1) as f64
            }
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TuneConfig {
    pub iterations: u32,
    /// Games in every match: each derivative and each comparison with the reference.
    pub games_per_eval: u32,
    pub engine: EngineSpec,
    pub seed: u64,
    pub opening_plies: usize,
    pub ply_limit: usize,
    /// The perturbation, as a fraction of each weight's scale.
    pub delta: f64,
    /// The step, in weight scales per unit of derivative.
    pub learning_rate: f64,
    /// No weight moves more than this many scales in one step.
    pub max_step: f64,
    /// Iterations without beating the best score vs the reference before a restart.
    pub patience: u32,
    pub start: Weights,
    pub reference: Weights,
    pub scoring: ReportScoring,
    pub objective: Objective,
}

impl TuneConfig {
    /// Defaults around the hand-picked weights, tuned and judged against themselves.
    pub fn new(iterations: u32, games_per_eval: u32, depth: u32) -> Self {
        Self {
            iterations,
            games_per_eval,
            engine: EngineSpec::depth(EngineAlgorithm::Id, depth),
            seed: 1,
            opening_plies: 4,
            ply_limit: 200,
            delta: 0.25,
            learning_rate: 0.5,
            max_step: 0.5,
            patience: 2,
            start: Weights::default(),
            reference: Weights::default(),
            scoring: ReportScoring::default(),
            objective: Objective::Report,
        }
    }

    /// Matches played in all: the start vs the reference, then per iteration one per tuned weight
    /// and one vs the reference.
    pub fn total_games(&self) -> u64 {
        u64::from(self.games_per_eval) * (1 + u64::from(self.iterations) * (TUNED_NAMES.len() as u64 + 1))
    }
}

/// One row of the log: the vector after an iteration's step and how it fared against the reference.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct IterationLog {
    /// 0 is the starting vector.
    pub iteration: u32,
    /// The report's score vs the reference, −1..1.
    pub report_score: f64,
    /// Plain W/D/L score vs the reference, 0..1.
    pub plain_score: f64,
    /// The tuning objective vs the reference, −1..1: what picks the best vector.
    #[serde(default)]
    pub objective_score: f64,
    pub elo: EloEstimate,
    pub weights: Weights,
    /// Estimated derivative of the objective per weight scale ([`TUNED_NAMES`] order).
    pub gradient: Vec<f64>,
    pub delta: f64,
    pub learning_rate: f64,
    /// This iteration ended by going back to the best vector with a new delta or learning rate.
    pub restarted: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TuneLog {
    pub weight_names: Vec<String>,
    pub engine: String,
    /// Older logs without it were tuned on the report score.
    #[serde(default)]
    pub objective: Objective,
    pub games_per_eval: u32,
    pub reference: Weights,
    pub iterations: Vec<IterationLog>,
    /// The vector that scored best against the reference, and when.
    pub best: Weights,
    pub best_iteration: u32,
    pub cancelled: bool,
}

impl TuneLog {
    /// Reads a log; scores outside their ranges are refused, so a plot never has to show them.
    pub fn from_json(text: &str) -> Result<TuneLog, String> {
        let log: TuneLog =
            serde_json::from_str(without_bom(text)).map_err(|error| one_line(&format!("tuning log: {error}")))?;
        for row in &log.iterations {
            let scores = [
                ("report score", row.report_score, -1.0),
                ("plain score", row.plain_score, 0.0),
                ("objective score", row.objective_score, -1.0),
            ];
            for (name, score, lowest) in scores {
                if !(lowest..=1.0).contains(&score) {
                    let iteration = row.iteration;
                    return Err(format!(
                        "tuning log: iteration {iteration}: {name} {} is outside {lowest}..1",
                        number(score)
                    ));
                }
            }
        }
        Ok(log)
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("log serializes")
    }

    /// One line per iteration: scores, step sizes and the tuned weights.
    pub fn to_csv(&self) -> String {
        let mut csv =
            String::from("iteration,report_score,plain_score,elo,elo_low,elo_high,delta,learning_rate,restarted");
        for name in TUNED_NAMES {
            csv += &format!(",{name}");
        }
        csv.push('\n');
        for row in &self.iterations {
            csv += &format!(
                "{},{:.4},{:.4},{:.1},{:.1},{:.1},{},{},{}",
                row.iteration,
                row.report_score,
                row.plain_score,
                row.elo.elo,
                row.elo.low,
                row.elo.high,
                row.delta,
                row.learning_rate,
                row.restarted
            );
            for value in tunable(&row.weights) {
                csv += &format!(",{value}");
            }
            csv.push('\n');
        }
        csv
    }
}

/// Each weight's unit of change: its starting size, at least 5 so small weights can still move.
fn scales(start: &Weights) -> [f64; 10] {
    tunable(start).map(|w| f64::from(w.abs()).max(5.0))
}

fn rounded(values: &[f64; 10]) -> [Score; 10] {
    values.map(|v| v.round() as Score)
}

/// Runs gradient ascent; stops early (marking the log) when `observer` cancels.
pub fn tune(config: &TuneConfig, observer: &dyn MatchObserver) -> Result<TuneLog, String> {
    let mut start = Barca::start();
    start.set_ply_limit(Some(config.ply_limit));
    let play = |first: &Weights, second: &Weights| {
        let contestants = [first, second].map(|w| Contestant { engine: config.engine, eval: w.clone() });
        let match_config = MatchConfig {
            games: config.games_per_eval,
            seed: config.seed,
            opening_plies: config.opening_plies,
            sprt: None,
            scoring: config.scoring,
        };
        run_match(&start, &contestants, &match_config, observer)
    };
    let judge = |weights: &Weights, iteration: u32, gradient: Vec<f64>, delta: f64, learning_rate: f64| {
        play(weights, &config.reference).map(|report| {
            let summary = report.summary(&config.scoring);
            let row = IterationLog {
                iteration,
                report_score: summary.report_score,
                plain_score: summary.score,
                objective_score: config.objective.mean(&config.scoring, &report.games),
                elo: summary.elo,
                weights: weights.clone(),
                gradient,
                delta,
                learning_rate,
                restarted: false,
            };
            (row, report.cancelled)
        })
    };

    let scale = scales(&config.start);
    let (mut delta, mut learning_rate) = (config.delta, config.learning_rate);
    let mut current = with_tunable(&config.start, tunable(&config.start));
    let (first_row, mut cancelled) = judge(&current, 0, vec![0.0; 10], delta, learning_rate)?;
    let mut log = TuneLog {
        weight_names: TUNED_NAMES.map(String::from).to_vec(),
        engine: config.engine.to_string(),
        objective: config.objective,
        games_per_eval: config.games_per_eval,
        reference: config.reference.clone(),
        best: current.clone(),
        best_iteration: 0,
        iterations: vec![first_row],
        cancelled: false,
    };
    let (mut best_score, mut stale, mut restarts) = (log.iterations[0].objective_score, 0, 0);
    for iteration in 1..=config.iterations {
        if cancelled {
            break;
        }
        let values = tunable(&current).map(f64::from);
        let mut gradient = vec![0.0; 10];
        for i in 0..10 {
            // Central difference: the vector nudged up plays the vector nudged down.
            let nudge = (delta * scale[i]).round().max(1.0);
            let (mut up, mut down) = (values, values);
            up[i] += nudge;
            down[i] -= nudge;
            let (up, down) = (with_tunable(&config.start, rounded(&up)), with_tunable(&config.start, rounded(&down)));
            if up == down {
                continue;
            }
            let report = play(&up, &down)?;
            cancelled |= report.cancelled;
            gradient[i] = config.objective.mean(&config.scoring, &report.games) / (2.0 * nudge / scale[i]);
        }
        if cancelled {
            break;
        }
        let stepped: [f64; 10] = std::array::from_fn(|i| {
            values[i] + (learning_rate * gradient[i]).clamp(-config.max_step, config.max_step) * scale[i]
        });
        current = with_tunable(&config.start, rounded(&stepped));
        let (mut row, stopped) = judge(&current, iteration, gradient, delta, learning_rate)?;
        if stopped {
            break;
        }
        if row.objective_score > best_score {
            (best_score, stale) = (row.objective_score, 0);
            log.best = current.clone();
            log.best_iteration = iteration;
        } else {
            stale += 1;
        }
        if stale >= config.patience {
            // Stuck: back to the best vector, alternately with half the delta or half the step.
            restarts += 1;
            *(if restarts % 2 == 1 { &mut delta } else { &mut learning_rate }) /= 2.0;
            current = log.best.clone();
            stale = 0;
            row.restarted = true;
        }
        log.iterations.push(row);
    }
    log.cancelled = cancelled;
    Ok(log)
}
