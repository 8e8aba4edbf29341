//! UCT iterations per second on tic-tac-toe from the start: full random playouts with and without
//! the solver, cut-off playouts, progressive bias, and a recorded search.
//!
//! cargo run --release --example bench_mcts [-- ITERATIONS]

use std::time::Instant;

use searchlab::adversarial::mcts::{MctsConfig, uct_search};
use searchlab::adversarial::mcts_trace::MctsEvent;
use searchlab::games::tictactoe::TicTacToe;
use searchlab::games::{DefaultEval, Evaluator, Game};
use searchlab::trace::{NoTrace, Recorder, Tracer};

/// Best of three runs: iterations per second, with the run's nodes and depth.
fn measure<G: Game, E: Evaluator<G>, T: Tracer<MctsEvent>>(
    label: &str,
    game: &G,
    evaluator: &E,
    config: &MctsConfig,
    tracer: impl Fn() -> T,
) {
    let mut best = 0.0f64;
    let mut last = None;
    for _ in 0..3 {
        let clock = Instant::now();
        let result = uct_search(game, evaluator, config, &mut tracer());
        let rate = result.stats.iterations as f64 / clock.elapsed().as_secs_f64();
        best = best.max(rate);
        last = Some(result);
    }
    let result = last.expect("three runs");
    println!(
        "{label:<44} {:>7.2} M it/s  iterations {:>8}  nodes {:>8}  depth {:>2}  best {}",
        best / 1e6,
        result.stats.iterations,
        result.stats.nodes,
        result.stats.max_depth,
        result.best_move_text.unwrap_or_default(),
    );
}

fn main() {
    let iterations: u64 = std::env::args().nth(1).map_or(200_000, |a| a.parse().expect("ITERATIONS is a number"));
    let start = TicTacToe::new();
    let base = MctsConfig { iterations: Some(iterations), ..MctsConfig::default() };
    println!("tic-tac-toe, from the start, {iterations} iterations");
    measure("random playouts, no solver", &start, &DefaultEval, &MctsConfig { solver: false, ..base }, || NoTrace);
    measure("random playouts, solver", &start, &DefaultEval, &base, || NoTrace);
    let cut = MctsConfig { playout_cutoff: Some(2), prior_weight: 1.0, ..base };
    measure("cut-off after 2 plies + priors, solver", &start, &DefaultEval, &cut, || NoTrace);
    let recorded = MctsConfig { iterations: Some(iterations.min(50_000)), ..base };
    measure("random playouts, solver, recorded", &start, &DefaultEval, &recorded, Recorder::<MctsEvent>::default);
}
