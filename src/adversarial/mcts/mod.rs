//! UCT: Monte Carlo tree search with UCB1 selection, MCTS-Solver, evaluation cut-off playouts,
//! progressive bias and tree reuse between moves.
//!
//! The tree lives in an arena: node 0 is the root and a node's children occupy one contiguous index
//! range, allocated together when the node is expanded (children keep the move generator's order).
//! A node's statistics are from the point of view of the player who moved into it, so a parent
//! simply picks the child that is best for itself.
//!
//! One iteration: select down the tree by UCB1, expand the leaf if it was visited before (its first
//! visit only runs a playout, so the tree grows by about one visited node per iteration), play a
//! random game out from the new node, back the reward up the path, and try to prove the nodes on the
//! path won, lost or drawn.

mod config;
mod final_move;
mod iteration;
mod playout;
mod tree;
mod value;

pub use config::{MctsConfig, PLAIN_PLAYOUT_CUTOFF};
pub use final_move::{PlayRank, play_order};
pub(super) use value::mean;
pub use value::{Amaf, ChildStats, Proven, rave_beta, rave_mean, squash, ucb};

use std::collections::HashSet;

use crate::time::Instant;

use rand::SeedableRng;
use rand::rngs::StdRng;
use serde::{Deserialize, Serialize};

use crate::games::{Evaluator, Game, Score, Side};
use crate::trace::{Control, Tracer};

use super::mcts_trace::MctsEvent;
use tree::Node;
use value::selection_score;

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct MctsStats {
    /// Iterations run by this search (the tree may hold more visits from earlier searches).
    pub iterations: u64,
    pub nodes: usize,
    /// Deepest node reached by selection and expansion, in plies below the root.
    pub max_depth: usize,
    /// Random plies played in all playouts.
    pub playout_plies: u64,
    pub millis: u64,
    pub root_visits: u32,
    pub children: Vec<ChildStats>,
}

#[derive(Debug, Clone, Serialize)]
pub struct MctsResult<M> {
    #[serde(skip)]
    pub best_move: Option<M>,
    pub best_move_text: Option<String>,
    /// For the side to move: a proven win in p plies is `WIN - p`; otherwise the best move's mean
    /// reward mapped back through the squash into evaluation units.
    pub score: Score,
    /// Mean playout reward of the best move for the side to move (a proven move never played
    /// out: its result, 1, 0.5 or 0).
    pub value: f64,
    /// The root's proven value for the side to move.
    pub proven: Option<Proven>,
    /// Most visited line from the root.
    pub pv: Vec<String>,
    pub stats: MctsStats,
}

/// How many iterations pass between clock reads and reports of the best move so far.
const CHECK_EVERY: u64 = 16;

/// A UCT search tree rooted at a game position, kept between moves.
/// Serializable, so the computer player's tree can cross to a Web Worker and back; the random
/// generator does not cross (a tree is [`Mcts::reconfigure`]d with a new seed before each move).
#[derive(Serialize, Deserialize)]
#[serde(bound(
    serialize = "G: Serialize, G::Move: Serialize",
    deserialize = "G: Deserialize<'de>, G::Move: Deserialize<'de>"
))]
pub struct Mcts<G: Game> {
    /// The root position; iterations make moves on it and take them all back.
    game: G,
    config: MctsConfig,
    nodes: Vec<Node<G::Move>>,
    #[serde(skip, default = "unseeded")]
    rng: StdRng,
    #[serde(skip)]
    moves: Vec<G::Move>,
    #[serde(skip)]
    path: Vec<u32>,
    /// MAST's reward sums and counts by mover and move (hashed into [`MAST_SLOTS`] per side).
    mast: Vec<(f32, u32)>,
    /// The moves of the current playout with their movers, for MAST and RAVE.
    #[serde(skip)]
    playout_moves: Vec<(Side, G::Move)>,
    /// RAVE's scratch set: the moves played after the node being updated, with their movers.
    #[serde(skip)]
    played_after: HashSet<(Side, G::Move)>,
    /// The AMAF samples of the current backup (node, reward), for the tracer.
    #[serde(skip)]
    amaf_updates: Vec<(u32, f64)>,
}

fn unseeded() -> StdRng {
    StdRng::seed_from_u64(0)
}

/// MAST table slots per side.
const MAST_SLOTS: usize = 4096;

/// Runs one UCT search from `game` with a fresh tree.
pub fn uct_search<G: Game, E: Evaluator<G>, T: Tracer<MctsEvent>>(
    game: &G,
    evaluator: &E,
    config: &MctsConfig,
    tracer: &mut T,
) -> MctsResult<G::Move> {
    Mcts::new(game.clone(), *config).search(evaluator, tracer)
}

impl<G: Game> Mcts<G> {
    pub fn new(game: G, config: MctsConfig) -> Self {
        let rng = StdRng::seed_from_u64(config.seed);
        let mut mcts = Self {
            game,
            config,
            nodes: Vec::new(),
            rng,
            moves: Vec::new(),
            path: Vec::new(),
            mast: Vec::new(),
            playout_moves: Vec::new(),
            played_after: HashSet::new(),
            amaf_updates: Vec::new(),
        };
        mcts.reset_root();
        mcts
    }

    pub fn game(&self) -> &G {
        &self.game
    }

    pub fn config(&self) -> &MctsConfig {
        &self.config
    }

    /// Limits, parameters and a new seed for the playouts of the next searches.
    pub fn reconfigure(&mut self, config: MctsConfig) {
        self.rng = StdRng::seed_from_u64(config.seed);
        self.config = config;
    }

    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    pub fn root_visits(&self) -> u32 {
        self.nodes[0].visits
    }

    /// Statistics of the root's moves, in move generation order.
    pub fn root_stats(&self) -> Vec<ChildStats> {
        let root = &self.nodes[0];
        let log_parent = (root.visits as f64 + 1.0).ln();
        root.children()
            .map(|c| {
                let n = &self.nodes[c as usize];
                let text = self.game.move_text(n.mv.expect("children have moves"));
                let mut stats =
                    ChildStats::new(text, n.visits, n.value_sum, n.prior, n.proven, root.visits, &self.config)
                        .with_amaf(n.amaf, root.visits, &self.config);
                stats.ucb = selection_score(
                    rave_mean(stats.mean, n.visits, &n.amaf, &self.config),
                    n.visits,
                    root.visits,
                    log_parent,
                    stats.prior,
                    n.minimax.into(),
                    &self.config,
                );
                stats
            })
            .collect()
    }

    /// Searches until a limit is hit, the tracer says stop or the root is proven. The tracer hears
    /// of the most visited move every few iterations.
    pub fn search<E: Evaluator<G>, T: Tracer<MctsEvent>>(
        &mut self,
        evaluator: &E,
        tracer: &mut T,
    ) -> MctsResult<G::Move> {
        let start = Instant::now();
        let mut iterations = 0u64;
        if self.config.mast.is_some() && self.mast.is_empty() {
            self.mast = vec![(0.0, 0); 2 * MAST_SLOTS];
        }
        let mut max_depth = 0;
        let mut playout_plies = 0u64;
        while self.nodes[0].proven.is_none() && self.config.iterations.is_none_or(|limit| iterations < limit) {
            if iterations.is_multiple_of(CHECK_EVERY) {
                if self.config.millis.is_some_and(|ms| start.elapsed().as_millis() >= ms as u128) {
                    break;
                }
                tracer.best_so_far(|| self.best_so_far());
            }
            if tracer.control() == Control::Stop {
                break;
            }
            let (depth, plies) = self.iterate(evaluator, tracer);
            max_depth = max_depth.max(depth);
            playout_plies += plies as u64;
            iterations += 1;
        }
        tracer.best_so_far(|| self.best_so_far());
        let stats = MctsStats {
            iterations,
            nodes: self.nodes.len(),
            max_depth,
            playout_plies,
            millis: start.elapsed().as_millis() as u64,
            root_visits: self.nodes[0].visits,
            children: self.root_stats(),
        };
        self.result(stats)
    }
}
