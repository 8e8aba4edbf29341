//! `--algo ...` searches on any game, shared by `searchlab tictactoe search` and `searchlab barca search`.

use clap::{Args, ValueEnum};
use serde_json::{Value, json};

use super::CliError;
use crate::adversarial::SearchResult;
use crate::adversarial::engine::{EngineAlgorithm, EngineResult, EngineSpec, UCT_PLAYOUT_CUTOFF};
use crate::adversarial::iterative::{IdOptions, IterativeDeepening};
use crate::adversarial::mcts::MctsConfig;
use crate::games::{Evaluator, Game};
use crate::trace::{Control, NoTrace, Tracer};

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Algo {
    Minimax,
    Negamax,
    Alphabeta,
    /// Alpha-beta with iterative deepening, transposition table, killers and history.
    Id,
    /// Monte Carlo tree search (UCT); decoupled UCT on a simultaneous-move game.
    Uct,
    /// Simultaneous-move games only: SM-MCTS with regret matching.
    Regret,
}

#[derive(Debug, Args)]
pub struct SearchArgs {
    #[arg(long, value_enum)]
    pub algo: Algo,
    /// Plies to search (minimax, negamax, alphabeta; the deepest iteration for id). Default: 4 on
    /// Barca, 9 (the whole game) on tic-tac-toe, and for id too unless --millis or --nodes is given.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Time limit in milliseconds (id, uct).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub millis: Option<u64>,
    /// Node limit (id).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Playouts (uct; default 10000, or unlimited with --millis alone).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub iterations: Option<u64>,
    /// UCT's exploration constant C (default sqrt(2); 0.5 for decoupled UCT), or regret matching's
    /// share of uniform play (default 0.05).
    #[arg(long)]
    pub exploration: Option<f64>,
    /// UCT playouts are scored by the evaluation after this many random plies: random Barca games
    /// rarely end (tic-tac-toe games end long before).
    #[arg(long, default_value_t = UCT_PLAYOUT_CUTOFF)]
    pub playout_cutoff: u32,
    /// Seed of UCT's random playouts.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
}

/// What `score` and `value` mean, for the search commands' help.
pub const OUTPUT_HELP: &str = "Output: `score` is for the side to move: 0 is a draw, 1000000 - n a win in n plies \
(negative: a loss), anything else the evaluation at the searched depth (Barca's evaluation units). \
UCT's `value` is the best move's mean playout reward (0 = loss, 0.5 = even, 1 = win; a proven move never played \
out: its result); its `score` is a proven \
result, or on Barca that value turned back into evaluation units (tic-tac-toe has none: no `score` until proven). \
`stats.depth_reached` is the depth of the deepest completed search, fewer plies where the game ends sooner; \
UCT reports `stats.max_depth`, the deepest node its tree grew to.";

/// Runs the search `args` asks for on `game`. Fixed-depth searches without `--depth`, and id without
/// any limit, search `default_depth` plies. `evaluated`: the game's evaluation has units that UCT's
/// unproven score can be given in.
pub fn run<G: Game, E: Evaluator<G>>(
    game: &G,
    eval: &E,
    args: &SearchArgs,
    default_depth: u32,
    evaluated: bool,
) -> Result<Value, CliError> {
    let fixed_depth = matches!(args.algo, Algo::Minimax | Algo::Negamax | Algo::Alphabeta);
    if fixed_depth && (args.millis.is_some() || args.nodes.is_some()) {
        return Err(CliError("--millis applies to --algo id and uct, --nodes to id only".to_string()));
    }
    if args.algo == Algo::Uct && (args.depth.is_some() || args.nodes.is_some()) {
        return Err(CliError(
            "--depth and --nodes do not apply to --algo uct (use --iterations or --millis)".to_string(),
        ));
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
        Algo::Regret => return Err(CliError("--algo regret applies to simultaneous-move games only".to_string())),
    };
    let spec = EngineSpec {
        depth: match args.algo {
            Algo::Uct => None,
            Algo::Id if args.millis.is_some() || args.nodes.is_some() => args.depth,
            _ => Some(args.depth.unwrap_or(default_depth)),
        },
        millis: args.millis,
        nodes: args.nodes,
        iterations: args.iterations,
        // The flags set plain UCT's knobs (the match engines' `uct:` specs play the tuned one).
        uct: MctsConfig {
            exploration: args.exploration.unwrap_or(std::f64::consts::SQRT_2),
            playout_cutoff: Some(args.playout_cutoff),
            ..MctsConfig::plain()
        },
        seed: args.seed,
        ..EngineSpec::new(algorithm)
    };
    spec.validate().map_err(|e| CliError::of_option(e, &["depth", "millis", "nodes", "exploration"]))?;
    let mut id = IterativeDeepening::new(IdOptions::default());
    let mut counter = NodeCounter::new();
    let searched = spec.search(game, eval, &mut id, &mut counter, &mut NoTrace);
    counter.spinner.finish_and_clear();
    match searched.map_err(CliError)? {
        EngineResult::Tree(result) => Ok(result_json(game, algorithm, &result)),
        EngineResult::Uct(result) => {
            let mut out = json!({
                "algo": "uct",
                "best_move": result.best_move_text,
                "value": result.value,
                "proven": result.proven,
                "pv": result.pv,
                "stats": result.stats,
            });
            if evaluated || result.proven.is_some() {
                out["score"] = json!(result.score);
            }
            Ok(out)
        }
    }
}

/// Shows on a terminal how many nodes a tree search has entered, so that a deep fixed-depth
/// search (minimax to depth 7 on Barca takes hours) is seen to run; nothing when stderr is a file.
struct NodeCounter {
    nodes: u64,
    spinner: indicatif::ProgressBar,
}

impl NodeCounter {
    fn new() -> Self {
        let spinner = indicatif::ProgressBar::new_spinner();
        spinner.set_style(
            indicatif::ProgressStyle::with_template("{spinner} {elapsed} searching: {msg}").expect("valid template"),
        );
        spinner.enable_steady_tick(std::time::Duration::from_millis(250));
        Self { nodes: 0, spinner }
    }
}

impl<E> Tracer<E> for NodeCounter {
    const ENABLED: bool = false;

    fn record(&mut self, _make: impl FnOnce() -> E) {}

    fn control(&mut self) -> Control {
        self.nodes += 1;
        if self.nodes.is_multiple_of(1 << 20) {
            self.spinner.set_message(format!("{:.0} million nodes", self.nodes as f64 / 1e6));
        }
        Control::Continue
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
    if algorithm != EngineAlgorithm::Id {
        // Only iterative deepening searches depth by depth.
        stats.as_object_mut().expect("stats are an object").remove("nodes_per_depth");
    }
    json!({
        "algo": algorithm.name(),
        "best_move": result.best_move.map(|mv| game.move_text(mv)),
        "score": result.score,
        "pv": pv,
        "stats": stats,
    })
}
