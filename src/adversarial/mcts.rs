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

use crate::time::Instant;
use std::ops::Range;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};

use crate::games::{Evaluator, Game, MAX_PLY, Outcome, Score, Side, WIN, is_proven};
use crate::trace::{BestSoFar, Control, NO_NODE, Tracer};

use super::mcts_trace::{ExpandedChild, MctsEvent, MctsView, PlayoutEnd, ViewNode};

use super::iterative::move_slot;

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
    /// random moves at rate E) or `off`, `solver=on|off`, `seed=S`.
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
                .ok_or_else(|| format!("{key}={value}: not a number >= {low}"))
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
            "solver" if value == "on" || value == "off" => self.solver = value == "on",
            "seed" => self.seed = value.parse().map_err(|_| format!("{key}={value}: not a whole number"))?,
            _ => {
                return Err(format!(
                    "unknown uct option '{item}' (plain, exploration, playout-cutoff, eval-scale, bias, minimax, mast, solver, seed)"
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

    fn of_outcome(outcome: Outcome, player: Side) -> Proven {
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
fn selection_score(
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
}

impl ChildStats {
    pub(super) fn new(
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
        Self { mv, visits, mean, ucb: ucb(mean, visits, parent_visits, prior, config), prior, proven }
    }
}

/// What decides which of a node's moves is played: its proof, visits and mean, for its mover.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlayRank {
    pub visits: u32,
    pub value_sum: f64,
    pub proven: Option<Proven>,
    pub proof_plies: u16,
}

/// The one order of moves to play, best first, for the engine's move and every list of moves: a
/// proven win (the quickest first), then moves not proven lost by visits (ties to the better
/// mean), then proven losses (the slowest first). Equal moves keep their order: take the first
/// of the best ([`Iterator::min_by`], a stable sort).
pub fn play_order(a: &PlayRank, b: &PlayRank) -> std::cmp::Ordering {
    let class = |r: &PlayRank| match r.proven {
        Some(Proven::Win) => 0,
        Some(Proven::Loss) => 2,
        _ => 1,
    };
    class(a).cmp(&class(b)).then_with(|| match a.proven {
        Some(Proven::Win) => a.proof_plies.cmp(&b.proof_plies),
        Some(Proven::Loss) => b.proof_plies.cmp(&a.proof_plies),
        _ => (b.visits, mean(b.value_sum, b.visits))
            .partial_cmp(&(a.visits, mean(a.value_sum, a.visits)))
            .unwrap_or(std::cmp::Ordering::Equal),
    })
}

pub(super) fn mean(value_sum: f64, visits: u32) -> f64 {
    if visits == 0 { 0.5 } else { value_sum / visits as f64 }
}

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

#[derive(Debug, Clone, Serialize, Deserialize)]
struct Node<M> {
    /// The move into this node; `None` at the root.
    mv: Option<M>,
    parent: u32,
    first_child: u32,
    child_count: u32,
    expanded: bool,
    /// The player who moved into this node; its statistics are from this player's point of view.
    mover: Side,
    proven: Option<Proven>,
    proof_plies: u16,
    visits: u32,
    value_sum: f64,
    prior: f32,
    /// With implicit minimax: the minimax value for `mover` of the evaluations below (at a leaf,
    /// its own evaluation).
    minimax: f32,
}

impl<M> Node<M> {
    fn new(mv: Option<M>, parent: u32, mover: Side) -> Self {
        Self {
            mv,
            parent,
            first_child: 0,
            child_count: 0,
            expanded: false,
            mover,
            proven: None,
            proof_plies: 0,
            visits: 0,
            value_sum: 0.0,
            prior: 0.5,
            minimax: 0.5,
        }
    }

    fn children(&self) -> Range<u32> {
        self.first_child..self.first_child + self.child_count
    }

    fn rank(&self) -> PlayRank {
        PlayRank { visits: self.visits, value_sum: self.value_sum, proven: self.proven, proof_plies: self.proof_plies }
    }
}

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
    /// The moves of the current playout with their movers, for MAST.
    #[serde(skip)]
    playout_moves: Vec<(Side, G::Move)>,
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
                    ChildStats::new(text, n.visits, n.value_sum, n.prior, n.proven, root.visits, &self.config);
                stats.ucb = selection_score(
                    stats.mean,
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

    /// A fresh one-node tree at the current position. The root is never scored as a repetition:
    /// the game goes on from here whatever happened before.
    fn reset_root(&mut self) {
        self.nodes.clear();
        let mut root = Node::new(None, NO_NODE, self.game.side_to_move().other());
        root.proven = self.game.outcome().map(|o| Proven::of_outcome(o, root.mover));
        self.nodes.push(root);
    }

    /// Plays `mv` (either side's) and keeps the subtree below it as the new tree.
    pub fn advance(&mut self, mv: G::Move) {
        let child = self.nodes[0].children().find(|&c| self.nodes[c as usize].mv == Some(mv));
        self.game.make_move(mv);
        let Some(child) = child else {
            self.reset_root();
            return;
        };
        // Copy the subtree breadth-first, so every node's children stay contiguous.
        let mut kept = Vec::with_capacity(self.nodes.len());
        let mut root = self.nodes[child as usize].clone();
        root.mv = None;
        root.parent = NO_NODE;
        kept.push(root);
        let mut next = 0;
        while next < kept.len() {
            let old_children = kept[next].children();
            if kept[next].expanded {
                kept[next].first_child = kept.len() as u32;
            }
            for c in old_children {
                kept.push(Node { parent: next as u32, ..self.nodes[c as usize].clone() });
            }
            next += 1;
        }
        self.nodes = kept;
        if !self.nodes[0].expanded {
            // A leaf may have been proven a draw as a repetition; as the root it is played on.
            let mover = self.nodes[0].mover;
            self.nodes[0].proven = self.game.outcome().map(|o| Proven::of_outcome(o, mover));
        }
    }

    /// Moves the tree on to `game` when that is its position or one move after it (the
    /// opponent's reply in a match), keeping what was searched below; false when it is neither.
    pub fn follow(&mut self, game: &G) -> bool {
        if game.ply() == self.game.ply() {
            return game.hash() == self.game.hash();
        }
        if game.ply() != self.game.ply() + 1 {
            return false;
        }
        let mut moves = Vec::new();
        self.game.legal_moves(&mut moves);
        let reply = moves.into_iter().find(|&mv| {
            self.game.make_move(mv);
            let same = self.game.hash() == game.hash();
            self.game.unmake_move();
            same
        });
        reply.map(|mv| self.advance(mv)).is_some()
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

    /// The root's most visited move (see [`Self::best_child`]), once the root has children.
    fn best_so_far(&self) -> Option<BestSoFar> {
        let mv = self.nodes[self.best_child(0)? as usize].mv.expect("children have moves");
        Some(BestSoFar { mv: self.game.move_text(mv), depth: 0, score: None })
    }

    fn result(&self, stats: MctsStats) -> MctsResult<G::Move> {
        let best = self.best_child(0).map(|c| &self.nodes[c as usize]);
        let best_move = best.and_then(|n| n.mv);
        // For the side to move; with no move at all, the game is over at the root.
        let root = self.nodes[0].proven.map(Proven::flipped);
        let proven = match best {
            Some(n) => n.proven.map(|p| (p, n.proof_plies as Score + 1)),
            None => root.map(|p| (p, 0)),
        };
        // The mean playout reward, even of a proven move; a move never played out has none: its proof stands in.
        let value = match best {
            Some(n) if n.visits > 0 => mean(n.value_sum, n.visits),
            Some(n) => n.proven.map_or(0.5, Proven::reward),
            None => root.map_or(0.5, Proven::reward),
        };
        let score = match proven {
            Some((Proven::Win, plies)) => WIN - plies,
            Some((Proven::Loss, plies)) => -(WIN - plies),
            Some((Proven::Draw, _)) => 0,
            // The inverse of the squash, clamped short of ±infinity.
            None => {
                let p = value.clamp(1e-3, 1.0 - 1e-3);
                (self.config.eval_scale * (p / (1.0 - p)).ln()).round() as Score
            }
        };
        MctsResult {
            best_move,
            best_move_text: best_move.map(|mv| self.game.move_text(mv)),
            score,
            value,
            proven: root,
            pv: self.principal_variation(),
            stats,
        }
    }

    fn principal_variation(&self) -> Vec<String> {
        let mut game = self.game.clone();
        let mut pv = Vec::new();
        let mut node = 0;
        while let Some(child) = self.best_child(node) {
            let mv = self.nodes[child as usize].mv.expect("children have moves");
            pv.push(game.move_text(mv));
            game.make_move(mv);
            node = child;
        }
        pv
    }

    /// The move to play at `node`, by [`play_order`].
    fn best_child(&self, node: u32) -> Option<u32> {
        let rank = |c: &u32| self.nodes[*c as usize].rank();
        self.nodes[node as usize].children().min_by(|a, b| play_order(&rank(a), &rank(b)))
    }

    /// One select-expand-playout-backpropagate round; returns the depth reached and the playout length.
    fn iterate<E: Evaluator<G>, T: Tracer<MctsEvent>>(&mut self, evaluator: &E, tracer: &mut T) -> (usize, u32) {
        let mut path = std::mem::take(&mut self.path);
        path.clear();
        path.push(0);
        let mut node = 0;
        while self.nodes[node as usize].proven.is_none() && self.nodes[node as usize].expanded {
            node = self.descend(node, &mut path);
        }
        tracer.record(|| MctsEvent::Select { path: path.clone() });
        let leaf = &self.nodes[node as usize];
        let evaluated = self.leaves_are_evaluated();
        if leaf.proven.is_none() && (leaf.visits > 0 || node == 0 || evaluated) {
            self.expand(node, evaluator, tracer);
            if self.nodes[node as usize].proven.is_none() {
                node = self.descend(node, &mut path);
            }
        }

        let leaf = &self.nodes[node as usize];
        self.playout_moves.clear();
        let (reward, plies, end) = match leaf.proven {
            Some(proven) => (proven.reward(), 0, PlayoutEnd::Proven),
            None if evaluated => (leaf.prior as f64, 0, PlayoutEnd::CutOff),
            None => self.playout(evaluator),
        };
        tracer.record(|| MctsEvent::Playout { node, plies, reward, end });

        let leaf_mover = self.nodes[node as usize].mover;
        let reward_of = |side: Side| if side == leaf_mover { reward } else { 1.0 - reward };
        for &id in &path {
            let n = &mut self.nodes[id as usize];
            n.visits += 1;
            n.value_sum += reward_of(n.mover);
        }
        if self.config.mast.is_some() {
            let tree_moves = path[1..]
                .iter()
                .map(|&id| &self.nodes[id as usize])
                .map(|n| (n.mover, n.mv.expect("children have moves")));
            for (side, mv) in tree_moves.chain(self.playout_moves.iter().copied()) {
                let slot = &mut self.mast[move_slot(side, mv, MAST_SLOTS)];
                *slot = (slot.0 + reward_of(side) as f32, slot.1 + 1);
            }
        }
        tracer.record(|| MctsEvent::Backpropagate {
            path: path.clone(),
            rewards: path
                .iter()
                .map(|&id| if self.nodes[id as usize].mover == leaf_mover { reward } else { 1.0 - reward })
                .collect(),
        });

        if self.config.solver {
            for i in (1..path.len()).rev() {
                if self.nodes[path[i] as usize].proven.is_none() || !self.try_prove(path[i - 1], tracer) {
                    break;
                }
            }
        }
        if self.config.implicit_minimax > 0.0 {
            for &id in path.iter().rev() {
                self.back_up_minimax(id);
            }
        }
        for _ in 1..path.len() {
            self.game.unmake_move();
        }
        let depth = path.len() - 1;
        self.path = path;
        (depth, plies)
    }

    /// Whether a new node's playout would only repeat the evaluation its expansion already made (a
    /// cut-off at once, with priors evaluated): then its reward is that prior, and a leaf is worth
    /// expanding on its first visit, since the visit itself teaches nothing new.
    fn leaves_are_evaluated(&self) -> bool {
        self.config.playout_cutoff == Some(0) && (self.config.prior_weight > 0.0 || self.config.implicit_minimax > 0.0)
    }

    /// A node's minimax value for its mover: a proven result, or the opponent's best child negated
    /// (a leaf keeps its evaluation).
    fn back_up_minimax(&mut self, node: u32) {
        let n = &self.nodes[node as usize];
        let value = match n.proven {
            Some(proven) => proven.reward() as f32,
            None if n.child_count == 0 => return,
            None => {
                let best = n.children().map(|c| {
                    let child = &self.nodes[c as usize];
                    child.proven.map_or(child.minimax, |p| p.reward() as f32)
                });
                1.0 - best.fold(0.0, f32::max)
            }
        };
        self.nodes[node as usize].minimax = value;
    }

    /// Selects a child of `node` by UCB1, plays its move and appends it to `path`.
    fn descend(&mut self, node: u32, path: &mut Vec<u32>) -> u32 {
        let child = self.select_child(node);
        self.game.make_move(self.nodes[child as usize].mv.expect("children have moves"));
        path.push(child);
        child
    }

    /// Unvisited children first (the highest prior among them), then the best UCB score. With the
    /// solver, children proven lost are never chosen (the parent would be proven if all were).
    fn select_child(&self, node: u32) -> u32 {
        let parent = &self.nodes[node as usize];
        let mut best = (NO_NODE, false, f64::NEG_INFINITY);
        let log_parent = (parent.visits as f64 + 1.0).ln();
        for c in parent.children() {
            let child = &self.nodes[c as usize];
            if self.config.solver && child.proven == Some(Proven::Loss) {
                continue;
            }
            let prior = child.prior as f64;
            let score = selection_score(
                mean(child.value_sum, child.visits),
                child.visits,
                parent.visits,
                log_parent,
                prior,
                child.minimax.into(),
                &self.config,
            );
            let (fresh, key) = match score {
                Some(score) => (false, score),
                None => (true, prior),
            };
            if (fresh, key) > (best.1, best.2) || best.0 == NO_NODE {
                best = (c, fresh, key);
            }
        }
        debug_assert_ne!(best.0, NO_NODE, "an unproven expanded node has a child to try");
        best.0
    }

    /// Creates `node`'s children; the game is at `node`'s position. Moves that end the game or
    /// repeat a position are proven at once; a node without moves is a proven draw.
    fn expand<E: Evaluator<G>, T: Tracer<MctsEvent>>(&mut self, node: u32, evaluator: &E, tracer: &mut T) {
        let mut moves = std::mem::take(&mut self.moves);
        moves.clear();
        self.game.legal_moves(&mut moves);
        let first = self.nodes.len() as u32;
        let mover = self.game.side_to_move();
        for &mv in &moves {
            self.game.make_move(mv);
            let mut child = Node::new(Some(mv), node, mover);
            child.proven = match self.game.outcome() {
                Some(outcome) => Some(Proven::of_outcome(outcome, mover)),
                None if self.game.repeats_earlier_position() => Some(Proven::Draw),
                None => None,
            };
            child.prior = match child.proven {
                Some(proven) => proven.reward() as f32,
                None if self.config.prior_weight > 0.0 || self.config.implicit_minimax > 0.0 => {
                    1.0 - squash(evaluator.evaluate(&self.game), self.config.eval_scale) as f32
                }
                None => 0.5,
            };
            child.minimax = child.prior;
            self.game.unmake_move();
            self.nodes.push(child);
        }
        let n = &mut self.nodes[node as usize];
        n.expanded = true;
        n.first_child = first;
        n.child_count = moves.len() as u32;
        tracer.record(|| MctsEvent::Expand {
            node,
            first,
            mover,
            children: self.nodes[first as usize..]
                .iter()
                .map(|c| ExpandedChild {
                    mv: self.game.move_text(c.mv.expect("children have moves")),
                    prior: c.prior,
                    proven: c.proven,
                })
                .collect(),
        });
        if moves.is_empty() {
            self.set_proven(node, Proven::Draw, 0, tracer);
        } else if self.config.solver {
            self.try_prove(node, tracer);
        }
        self.moves = moves;
    }

    /// Proves `node` from its children if it can: one child won for its mover means `node` is
    /// lost for its own; all children proven means `node` gets the best of them, negated.
    fn try_prove<T: Tracer<MctsEvent>>(&mut self, node: u32, tracer: &mut T) -> bool {
        let n = &self.nodes[node as usize];
        if n.proven.is_some() || n.child_count == 0 {
            return false;
        }
        let mut quickest_win: Option<u16> = None;
        let mut all_proven = true;
        // The best proven child for the player to move at `node`: a draw beats a loss, a slow loss a quick one.
        let mut best: Option<(Proven, u16)> = None;
        let rank = |(proven, plies): (Proven, u16)| {
            (proven == Proven::Draw, if proven == Proven::Draw { u16::MAX - plies } else { plies })
        };
        for c in n.children() {
            let child = &self.nodes[c as usize];
            match child.proven {
                None => all_proven = false,
                Some(Proven::Win) => {
                    quickest_win = Some(quickest_win.map_or(child.proof_plies, |q| q.min(child.proof_plies)))
                }
                Some(other) => {
                    let candidate = (other, child.proof_plies);
                    if best.is_none_or(|b| rank(candidate) > rank(b)) {
                        best = Some(candidate);
                    }
                }
            }
        }
        let (proven, plies) = match (quickest_win, best) {
            (Some(plies), _) => (Proven::Loss, plies),
            (None, Some((best, plies))) if all_proven => (best.flipped(), plies),
            _ => return false,
        };
        self.set_proven(node, proven, plies.saturating_add(1), tracer);
        true
    }

    fn set_proven<T: Tracer<MctsEvent>>(&mut self, node: u32, proven: Proven, plies: u16, tracer: &mut T) {
        let n = &mut self.nodes[node as usize];
        n.proven = Some(proven);
        n.proof_plies = plies;
        tracer.record(|| MctsEvent::Solved { node, proven, plies });
    }

    /// Random moves from the current position until the game ends or the cut-off; returns the
    /// reward of the player who moved into the starting node, the plies played and why it stopped.
    fn playout<E: Evaluator<G>>(&mut self, evaluator: &E) -> (f64, u32, PlayoutEnd) {
        let mover = self.game.side_to_move().other();
        let cutoff = self.config.playout_cutoff.unwrap_or(MAX_PLY as u32);
        let mut moves = std::mem::take(&mut self.moves);
        let mut plies = 0;
        let (reward, end) = loop {
            if let Some(outcome) = self.game.outcome() {
                break (Proven::of_outcome(outcome, mover).reward(), PlayoutEnd::GameOver);
            }
            if plies >= cutoff {
                let to_move = squash(evaluator.evaluate(&self.game), self.config.eval_scale);
                break (if self.game.side_to_move() == mover { to_move } else { 1.0 - to_move }, PlayoutEnd::CutOff);
            }
            moves.clear();
            self.game.legal_moves(&mut moves);
            if moves.is_empty() {
                break (Proven::Draw.reward(), PlayoutEnd::GameOver);
            }
            let mv = self.playout_move(&moves);
            if self.config.mast.is_some() {
                self.playout_moves.push((self.game.side_to_move(), mv));
            }
            self.game.make_move(mv);
            plies += 1;
        };
        for _ in 0..plies {
            self.game.unmake_move();
        }
        self.moves = moves;
        (reward, plies, end)
    }

    /// A random move, or with MAST usually the move with the best average reward so far.
    fn playout_move(&mut self, moves: &[G::Move]) -> G::Move {
        let greedy = self.config.mast.is_some_and(|epsilon| !self.rng.random_bool(epsilon.clamp(0.0, 1.0)));
        if !greedy {
            return moves[self.rng.random_range(0..moves.len())];
        }
        let side = self.game.side_to_move();
        let average = |&mv: &G::Move| {
            let (sum, count) = self.mast[move_slot(side, mv, MAST_SLOTS)];
            // Moves never played yet count as even.
            if count == 0 { 0.5 } else { sum / count as f32 }
        };
        *moves.iter().max_by(|a, b| average(a).total_cmp(&average(b))).expect("playouts only pick among legal moves")
    }

    /// The whole tree as a replay view, the state to start a recorded search's [`crate::trace::Player`] from.
    pub fn view(&self) -> MctsView {
        let mut nodes: Vec<ViewNode> = self.nodes.iter().map(ViewNode::from).collect();
        let mut game = self.game.clone();
        self.name_moves(&mut game, 0, &mut nodes);
        MctsView::from_nodes(nodes, &self.config)
    }

    fn name_moves(&self, game: &mut G, node: u32, out: &mut [ViewNode]) {
        for c in self.nodes[node as usize].children() {
            let mv = self.nodes[c as usize].mv.expect("children have moves");
            out[c as usize].mv = game.move_text(mv);
            if self.nodes[c as usize].expanded {
                game.make_move(mv);
                self.name_moves(game, c, out);
                game.unmake_move();
            }
        }
    }
}

/// The node without its move text, which needs the game.
impl<M> From<&Node<M>> for ViewNode {
    fn from(n: &Node<M>) -> Self {
        ViewNode {
            parent: n.parent,
            first_child: n.first_child,
            child_count: n.child_count,
            expanded: n.expanded,
            mv: String::new(),
            mover: n.mover,
            visits: n.visits,
            value_sum: n.value_sum,
            prior: n.prior,
            proven: n.proven,
            proof_plies: n.proof_plies,
        }
    }
}
