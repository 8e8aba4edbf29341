//! Game-tree search algorithms, written once against the [`Game`] trait and generic over a
//! [`Tracer`] of [`TreeEvent`]s: `NoTrace` for full speed, a `Recorder` for the UI to replay.
//!
//! Shared rules: a node is terminal when [`Game::outcome`] says so (a win found `ply` plies below
//! the root scores `WIN - ply`), a position repeating an earlier one is a draw below the root, a
//! position without moves is a draw, and depth-limited searches score their horizon with the
//! [`Evaluator`]. Every result's `score` is from the root side to move's point of view.

pub mod alphabeta;
pub mod bound;
pub mod choice;
pub mod engine;
pub mod iterative;
pub mod matrix_nash;
pub mod mcts;
pub mod mcts_trace;
pub mod minimax;
pub mod negamax;
pub mod recording;
pub mod sm_mcts;
pub mod sm_mcts_trace;
pub mod tree;
pub mod tt;

use serde::{Deserialize, Serialize};

use crate::games::{Evaluator, Game, Outcome, Score, WIN};
use crate::trace::{Control, Tracer};
use tree::{CutoffKind, LeafReason, MoveText, Perspective, TreeEvent};

/// Above every score, so a window `(-INF, INF)` is open.
pub const INF: Score = WIN + 1;

/// When a search must stop. Fixed-depth searches read only `depth`; iterative deepening stops at
/// the first limit reached and answers with its last completed iteration. A watcher on another
/// thread stops a search, and reads its progress, through the tracer ([`crate::trace::Watched`]).
#[derive(Debug, Clone, Default)]
pub struct SearchLimits {
    pub depth: Option<u32>,
    pub millis: Option<u64>,
    pub nodes: Option<u64>,
}

impl SearchLimits {
    pub fn depth(depth: u32) -> Self {
        Self { depth: Some(depth), ..Self::default() }
    }

    pub fn millis(millis: u64) -> Self {
        Self { millis: Some(millis), ..Self::default() }
    }
}

/// Counters every search reports.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SearchStats {
    /// Nodes entered, the root included.
    pub nodes: u64,
    /// Nodes scored without expanding them (terminal, no moves, horizon, repetition, table).
    pub leaves: u64,
    /// Nodes that stopped searching their moves early.
    pub cutoffs: u64,
    /// Cutoffs caused by the first move searched: a measure of move ordering.
    pub first_move_cutoffs: u64,
    pub tt_probes: u64,
    /// Probes that found the position (whether or not its value could be used).
    pub tt_hits: u64,
    /// The depth of the deepest completed search: its nominal depth, or where the game tree ends
    /// sooner the deepest ply searched (five empty tic-tac-toe squares are 5 plies, not 9).
    pub depth_reached: u32,
    /// The deepest ply any node was entered at.
    pub max_ply: u32,
    /// Nodes entered by each iteration of iterative deepening (index 0 is depth 1).
    pub nodes_per_depth: Vec<u64>,
    pub micros: u64,
}

impl SearchStats {
    /// Records a completed search of nominal `depth`: where every line ended sooner, it reached
    /// only its deepest ply.
    pub(crate) fn complete_to(&mut self, depth: u32) {
        self.depth_reached = depth.min(self.max_ply);
    }

    /// Share of cutoffs made by the first move; `None` when there were none (minimax never cuts).
    pub fn first_move_cutoff_rate(&self) -> Option<f64> {
        (self.cutoffs > 0).then(|| self.first_move_cutoffs as f64 / self.cutoffs as f64)
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct SearchResult<M> {
    /// `None` when the root has no moves (or the game is over).
    pub best_move: Option<M>,
    /// From the root side to move's point of view.
    pub score: Score,
    /// The principal variation, starting with `best_move`.
    pub pv: Vec<M>,
    pub stats: SearchStats,
}

/// The score of a game that ended `ply` plies below the root, for the side to move there.
pub fn outcome_score<G: Game>(game: &G, outcome: Outcome, ply: usize) -> Score {
    match outcome {
        Outcome::Draw => 0,
        Outcome::Win(side) if side == game.side_to_move() => WIN - ply as Score,
        Outcome::Win(_) => -(WIN - ply as Score),
    }
}

/// The walk every depth-first search shares: node numbering and events, counters, one reusable
/// move list per ply and a triangular principal-variation table.
pub(crate) struct Walk<'a, G: Game, E, T> {
    pub eval: &'a E,
    pub tracer: &'a mut T,
    pub stats: SearchStats,
    /// The tracer said stop: the search unwinds, every node left scored as a leaf.
    pub stopped: bool,
    next_node: u32,
    lists: Vec<Vec<G::Move>>,
    pv: Vec<Vec<G::Move>>,
}

impl<'a, G: Game, E: Evaluator<G>, T: Tracer<TreeEvent>> Walk<'a, G, E, T> {
    pub fn new(eval: &'a E, tracer: &'a mut T, algorithm: &'static str, perspective: Perspective) -> Self {
        tracer.record(|| TreeEvent::Start { algorithm, perspective });
        Self {
            eval,
            tracer,
            stats: SearchStats::default(),
            stopped: false,
            next_node: 0,
            lists: Vec::new(),
            pv: Vec::new(),
        }
    }

    /// The move's text when events are kept (it is computed on the position before the move).
    pub fn text(game: &G, mv: G::Move) -> String {
        if T::ENABLED { game.move_text(mv) } else { String::new() }
    }

    /// Counts and announces a node; returns its id.
    pub fn enter(&mut self, game: &G, parent: u32, mv: String, depth: u32, alpha: Score, beta: Score) -> u32 {
        let node = self.next_node;
        self.next_node += 1;
        self.stats.nodes += 1;
        let side = game.side_to_move();
        let depth = u16::try_from(depth).unwrap_or(u16::MAX);
        self.tracer.record(|| TreeEvent::Enter { node, parent, mv: MoveText::new(&mv), side, depth, alpha, beta });
        self.stopped |= self.tracer.control() == Control::Stop;
        node
    }

    /// Scores the node without moves if it is a leaf before move generation: game over,
    /// repetition below the root, or the horizon. The value is for the side to move.
    pub fn static_leaf(&mut self, game: &G, depth: u32, ply: usize) -> Option<(Score, LeafReason)> {
        self.stats.max_ply = self.stats.max_ply.max(ply as u32);
        self.clear_line(ply);
        if let Some(outcome) = game.outcome() {
            return Some((outcome_score(game, outcome, ply), LeafReason::Terminal));
        }
        if let Some(value) = game.leaf_value() {
            return Some((value, LeafReason::Terminal));
        }
        if ply > 0 && game.repeats_earlier_position() {
            return Some((0, LeafReason::Repetition));
        }
        if depth == 0 || ply >= crate::games::MAX_PLY - 1 {
            return Some((self.eval.evaluate(game), LeafReason::Horizon));
        }
        None
    }

    /// Empties the line of the node at `ply`, so a parent never joins its move to a line left there by
    /// an earlier sibling's subtree (that line can be illegal here).
    fn clear_line(&mut self, ply: usize) {
        if ply >= self.pv.len() {
            self.pv.resize_with(ply + 1, Vec::new);
        }
        self.pv[ply].clear();
    }

    /// The start of every plain search node: the moves to search, or the value of a leaf (static or
    /// without moves) already recorded. `sign` turns side-to-move values into the search's point of view.
    /// Once stopped every node is a leaf worth 0, so the search unwinds in a few steps per ply.
    pub fn moves_or_leaf(
        &mut self,
        node: u32,
        game: &G,
        depth: u32,
        ply: usize,
        sign: Score,
    ) -> Result<Vec<G::Move>, Score> {
        if self.stopped {
            self.clear_line(ply);
            return Err(self.leaf(node, 0, LeafReason::Horizon));
        }
        if let Some((value, reason)) = self.static_leaf(game, depth, ply) {
            return Err(self.leaf(node, sign * value, reason));
        }
        let moves = self.moves(game, ply);
        if moves.is_empty() {
            self.give_back(ply, moves);
            return Err(self.leaf(node, 0, LeafReason::NoMoves));
        }
        Ok(moves)
    }

    /// Records a leaf: `value` as the algorithm holds it.
    pub fn leaf(&mut self, node: u32, value: Score, reason: LeafReason) -> Score {
        self.stats.leaves += 1;
        self.tracer.record(|| TreeEvent::Leaf { node, value, reason });
        value
    }

    /// The legal moves at `ply`, in a list reused between nodes; hand it back with `give_back`.
    pub fn moves(&mut self, game: &G, ply: usize) -> Vec<G::Move> {
        if ply >= self.lists.len() {
            self.lists.resize_with(ply + 1, Vec::new);
        }
        let mut list = std::mem::take(&mut self.lists[ply]);
        list.clear();
        game.legal_moves(&mut list);
        list
    }

    pub fn give_back(&mut self, ply: usize, list: Vec<G::Move>) {
        self.lists[ply] = list;
    }

    /// `mv` became the best move at `ply`: its line is `mv` then the child's line.
    pub fn update_pv(&mut self, ply: usize, mv: G::Move) {
        let (upper, lower) = self.pv.split_at_mut(ply + 1);
        let line = &mut upper[ply];
        line.clear();
        line.push(mv);
        if let Some(child) = lower.first() {
            line.extend_from_slice(child);
        }
    }

    pub fn root_pv(&self) -> Vec<G::Move> {
        self.pv.first().cloned().unwrap_or_default()
    }

    pub fn window(&mut self, node: u32, value: Score, alpha: Score, beta: Score, best_child: u32) {
        self.tracer.record(|| TreeEvent::Window { node, value, alpha, beta, best_child });
    }

    /// Counts a cutoff at `node` after its `searched`-th move; `rest` are the moves left unsearched.
    /// Failing high on the last move prunes nothing, so it is no cutoff.
    pub fn cutoff(&mut self, game: &G, node: u32, searched: usize, rest: &[G::Move]) {
        if rest.is_empty() {
            return;
        }
        self.stats.cutoffs += 1;
        if searched == 1 {
            self.stats.first_move_cutoffs += 1;
        }
        let kind = CutoffKind::at(game.side_to_move());
        self.tracer.record(|| TreeEvent::Cutoff {
            node,
            kind,
            pruned: rest.iter().map(|&m| game.move_text(m)).collect(),
        });
    }

    pub fn exit(&mut self, node: u32, value: Score, best_child: u32) -> Score {
        self.tracer.record(|| TreeEvent::Exit { node, value, best_child });
        value
    }

    /// Id the next entered node will get (the best child's id is known once it is entered).
    pub fn next_node(&self) -> u32 {
        self.next_node
    }

    /// Ends the search: records the PV and builds the result. `value` is as the algorithm holds it.
    pub fn finish(
        self,
        game: &G,
        pv: Vec<G::Move>,
        score: Score,
        value: Score,
        started: crate::time::Instant,
    ) -> SearchResult<G::Move> {
        if T::ENABLED {
            let mut line = game.clone();
            let mut moves = Vec::new();
            for &mv in &pv {
                moves.push(line.move_text(mv));
                line.make_move(mv);
            }
            self.tracer.record(|| TreeEvent::Pv { moves: moves.into(), value });
        }
        let mut stats = self.stats;
        stats.micros = started.elapsed().as_micros() as u64;
        SearchResult { best_move: pv.first().copied(), score, pv, stats }
    }
}
