//! `--algo ...` searches on any game, shared by `searchlab tictactoe search` and `searchlab barca search`.

use clap::{Args, ValueEnum};
use serde_json::{Value, json};

use super::CliError;
use crate::adversarial::SearchResult;
use crate::adversarial::engine::{EngineAlgorithm, EngineResult, EngineSpec, UCT_PLAYOUT_CUTOFF};
use crate::adversarial::iterative::{IdOptions, IterativeDeepening};
use crate::adversarial::mcts::MctsConfig;
use crate::games::{Evaluator, Game};
use crate::trace::NoTrace;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Algo {
    Minimax,
    Negamax,
    Alphabeta,
    /// Alpha-beta with iterative deepening, transposition table, killers and history.
    Id,
    /// Monte Carlo tree search (UCT).
    Uct,
}

#[derive(Debug, Args)]
pub struct SearchArgs {
    #[arg(long, value_enum)]
    pub algo: Algo,
    /// Plies to search (minimax, negamax, alphabeta; the deepest iteration for id).
    #[arg(long)]
    pub depth: Option<u32>,
    /// Time limit in milliseconds (id, uct).
    #[arg(long)]
    pub millis: Option<u64>,
    /// Node limit (id).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Playouts (uct; default 10000, or unlimited with --millis alone).
    #[arg(long)]
    pub iterations: Option<u64>,
    /// UCT's exploration constant C.
    #[arg(long, default_value_t = std::f64::consts::SQRT_2)]
    pub exploration: f64,
    /// UCT playouts are scored by the evaluation after this many random plies: random Barca games
    /// rarely end (tic-tac-toe games end long before).
    #[arg(long, default_value_t = UCT_PLAYOUT_CUTOFF)]
    pub playout_cutoff: u32,
    /// Seed of UCT's random playouts.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
}


/// Runs the search `args` asks for on `game`; fixed-depth searches without `--depth` use `default_depth`.
pub fn run<G: Game, E: Evaluator<G>>(game: &G, eval: &E, args: &SearchArgs, default_depth: u32) -> Result<Value, CliError> {
    let fixed_depth = matches!(args.algo, Algo::Minimax | Algo::Negamax | Algo::Alphabeta);
    if fixed_depth && (args.millis.is_some() || args.nodes.is_some()) {
        return Err(CliError("--millis applies to --algo id and uct, --nodes to id only".to_string()));
    }
    if args.algo == Algo::Uct && (args.depth.is_some() || args.nodes.is_some()) {
        return Err(CliError("--depth and --nodes do not apply to --algo uct (use --iterations or --millis)".to_string()));
    }
    if args.algo != Algo::Uct && args.iterations.is_some() {
        return Err(CliError("--iterations applies to --algo uct only".to_string()));
    }
    let algorithm = match args.algo {
        Algo::Minimax => EngineAlgorithm::Minimax,
        Algo::Negamax => EngineAlgorithm::Negamax,
        Algo::Alphabeta => EngineAlgorithm::AlphaBeta,
        Algo::Id => EngineAlgorithm::Id,
        Algo::Uct => EngineAlgorithm::Uct,
    };
    let spec = EngineSpec {
        depth: if fixed_depth { Some(args.depth.unwrap_or(default_depth)) } else { args.depth },
        millis: args.millis,
        nodes: args.nodes,
        iterations: args.iterations,
        // The flags set plain UCT's knobs (the match engines' `uct:` specs play the tuned one).
        uct: MctsConfig { exploration: args.exploration, playout_cutoff: Some(args.playout_cutoff), ..MctsConfig::plain() },
        seed: args.seed,
        ..EngineSpec::new(algorithm)
    };
    spec.validate().map_err(|e| CliError::of_option(e, &["depth", "millis", "exploration"]))?;
    let mut id = IterativeDeepening::new(IdOptions::default());
    match spec.search(game, eval, &mut id, &mut NoTrace, &mut NoTrace).map_err(CliError)? {
        EngineResult::Tree(result) => Ok(result_json(game, algorithm, &result)),
        EngineResult::Uct(result) => Ok(json!({
            "algo": "uct",
            "best_move": result.best_move_text,
            "score": result.score,
            "value": result.value,
            "proven": result.proven,
            "pv": result.pv,
            "stats": result.stats,
        })),
    }
}

/// The result as JSON: moves as text, the score for the side to move, the statistics.
pub fn result_json<G: Game>(game: &G, algorithm: EngineAlgorithm, result: &SearchResult<G::Move>) -> Value {
    let mut line = game.clone();
    let pv: Vec<String> = result
        .pv
        .iter()
        .map(|&mv| {
            let text = line.move_text(mv);
            line.make_move(mv);
            text
        })
        .collect();
    let mut stats = serde_json::to_value(&result.stats).expect("stats serialize");
    stats["first_move_cutoff_rate"] = json!(result.stats.first_move_cutoff_rate());
    json!({
        "algo": algorithm.name(),
        "best_move": result.best_move.map(|mv| game.move_text(mv)),
        "score": result.score,
        "pv": pv,
        "stats": stats,
    })
}
