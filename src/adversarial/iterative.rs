//! Alpha-beta with iterative deepening: searches depth 1, 2, 3, ... until a limit (depth, time,
//! nodes, the tracer's stop) stops it, answering with the last completed iteration. Each iteration
//! orders moves with what the previous ones learnt: the transposition table's best move first,
//! then two killer moves per ply (quiet moves that cut off a sibling), then the history heuristic
//! (moves that cut off anywhere, weighted by depth²). Moves after the first are searched as in
//! principal variation search: a null window first, the full window only for a move that beats
//! the best so far. The values equal plain alpha-beta's at the same depth (with `exact_depth`).

use std::hash::{Hash, Hasher};

use crate::time::{Duration, Instant};
use serde::{Deserialize, Serialize};

use super::tree::{LeafReason, Perspective, TreeEvent};
use super::tt::{Bound, TranspositionTable, from_table, to_table};
use super::{INF, SearchLimits, SearchResult, Walk};
use crate::games::{Evaluator, Game, MAX_PLY, Score, Side, WIN, is_proven};
use crate::trace::{BestSoFar, NO_NODE, Tracer};

/// Stored as an entry's depth when its subtree never met the horizon: the score holds at any depth.
const RESOLVED: u32 = u32::MAX;
/// Iterations run when no depth limit is given.
pub const DEFAULT_MAX_DEPTH: u32 = 64;
const HISTORY_SLOTS: usize = 4096;
/// Moves picked one at a time by selection before the rest of a node's moves are sorted together.
const SELECTED_MOVES: usize = 3;
/// Nodes with less remaining depth skip the transposition table: the children of a depth-1 node
/// are leaves, and a table probe (often a cache miss) costs more than the few leaves it saves.
const TABLE_MIN_DEPTH: u32 = 2;
/// The clock is read once per this many nodes.
const CHECK_EVERY: u64 = 1024;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct IdOptions {
    /// The transposition table has `2^tt_bits` slots.
    pub tt_bits: u32,
    pub killers: bool,
    pub history: bool,
    /// Use a table entry only if it was searched to exactly the depth needed (or fully resolved).
    /// Deeper entries normally improve the answer; this makes it equal a fixed-depth search's,
    /// which is what the tests compare against.
    pub exact_depth: bool,
}

impl Default for IdOptions {
    fn default() -> Self {
        // 2^18 slots (6 MB) hold what a search of several seconds stores and stay in cache better.
        Self { tt_bits: 18, killers: true, history: true, exact_depth: false }
    }
}

/// The search engine: keeps its table, killers and history between searches (the next move's
/// search starts with what this one learnt).
/// Serializable, table and all, so the computer player's engine can cross to a Web Worker and back.
#[derive(Serialize, Deserialize)]
#[serde(bound(serialize = "G::Move: Serialize", deserialize = "G::Move: Deserialize<'de>"))]
pub struct IterativeDeepening<G: Game> {
    pub options: IdOptions,
    tt: TranspositionTable<G::Move>,
    killers: Vec<[Option<G::Move>; 2]>,
    history: Vec<i32>,
}

impl<G: Game> IterativeDeepening<G> {
    pub fn new(options: IdOptions) -> Self {
        Self {
            options,
            tt: TranspositionTable::new(options.tt_bits),
            killers: Vec::new(),
            history: vec![0; 2 * HISTORY_SLOTS],
        }
    }

    /// Searches until `limits` stop it. The score is for the root side to move.
    pub fn search<E: Evaluator<G>, T: Tracer<TreeEvent>>(
        &mut self,
        game: &G,
        eval: &E,
        limits: &SearchLimits,
        tracer: &mut T,
    ) -> SearchResult<G::Move> {
        let started = Instant::now();
        self.tt.new_search();
        for slot in &mut self.history {
            *slot /= 8;
        }
        let max_depth = limits.depth.unwrap_or(DEFAULT_MAX_DEPTH).clamp(1, MAX_PLY as u32 - 1);
        let mut run = Run {
            walk: Walk::new(eval, tracer, "iterative deepening", Perspective::SideToMove),
            engine: self,
            deadline: limits.millis.map(|ms| started + Duration::from_millis(ms)),
            node_limit: limits.nodes,
            stopped: false,
            unresolved: 0,
            order: Vec::new(),
            sorting: Vec::new(),
        };
        let mut position = game.clone();
        let mut answer: Option<(Vec<G::Move>, Score)> = None;
        for depth in 1..=max_depth {
            run.walk.tracer.record(|| TreeEvent::Iteration { depth });
            let nodes_before = run.walk.stats.nodes;
            run.unresolved = 0;
            let score = run.node(&mut position, depth, 0, -INF, INF, NO_NODE, String::new());
            if run.stopped {
                break;
            }
            let pv = run.walk.root_pv();
            if run.unresolved == 0 {
                run.walk.stats.complete_to(depth);
            } else {
                // Table values can stand in for the plies below: the nominal depth was reached.
                run.walk.stats.depth_reached = depth;
            }
            run.walk.stats.nodes_per_depth.push(run.walk.stats.nodes - nodes_before);
            run.walk
                .tracer
                .best_so_far(|| pv.first().map(|&mv| BestSoFar { mv: game.move_text(mv), depth, score: Some(score) }));
            answer = Some((pv, score));
            let proven_within_reach = is_proven(score) && (WIN - score.abs()) as u32 <= depth;
            if run.unresolved == 0 || proven_within_reach {
                break;
            }
        }
        let (pv, score) = answer.unwrap_or_else(|| {
            // Stopped inside the first iteration: the best root move searched so far, if any.
            let partial = run.walk.root_pv().into_iter().take(1).collect::<Vec<_>>();
            let mut moves = Vec::new();
            game.legal_moves(&mut moves);
            (if partial.is_empty() { moves.into_iter().take(1).collect() } else { partial }, 0)
        });
        run.walk.finish(game, pv, score, score, started)
    }

    /// Forgets everything learnt (a new game).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.killers.clear();
        self.history.fill(0);
    }

    fn history_slot(side: Side, mv: G::Move) -> usize {
        move_slot(side, mv, HISTORY_SLOTS)
    }
}

/// A move's slot in a table of `slots_per_side` (a power of two) per side, First's first.
pub(crate) fn move_slot(side: Side, mv: impl Hash, slots_per_side: usize) -> usize {
    let mut hasher = MoveHasher(0);
    mv.hash(&mut hasher);
    let offset = if side == Side::First { 0 } else { slots_per_side };
    offset + (hasher.finish() as usize & (slots_per_side - 1))
}

/// A small multiplicative hash for history slots (moves only need spreading, not security).
struct MoveHasher(u64);

impl Hasher for MoveHasher {
    fn finish(&self) -> u64 {
        self.0 ^ (self.0 >> 29)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u64(&mut self, value: u64) {
        self.0 = (self.0.rotate_left(5) ^ value).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    fn write_u8(&mut self, value: u8) {
        self.write_u64(u64::from(value));
    }

    fn write_u16(&mut self, value: u16) {
        self.write_u64(u64::from(value));
    }

    fn write_u32(&mut self, value: u32) {
        self.write_u64(u64::from(value));
    }

    fn write_usize(&mut self, value: usize) {
        self.write_u64(value as u64);
    }
}

/// One search's state.
struct Run<'e, 'w, G: Game, E, T> {
    walk: Walk<'w, G, E, T>,
    engine: &'e mut IterativeDeepening<G>,
    deadline: Option<Instant>,
    node_limit: Option<u64>,
    stopped: bool,
    /// Leaves this iteration whose value depends on the depth or the path (horizon, repetition,
    /// depth-limited table entries). None means the iteration solved the game from the root.
    unresolved: u64,
    /// Ordering keys per ply, parallel to the move lists.
    order: Vec<Vec<i32>>,
    /// Scratch space for sorting the moves left at a node that has not cut off early.
    sorting: Vec<(i32, G::Move)>,
}

impl<G: Game, E: Evaluator<G>, T: Tracer<TreeEvent>> Run<'_, '_, G, E, T> {
    fn should_stop(&self) -> bool {
        let nodes = self.walk.stats.nodes;
        if self.walk.stopped || self.node_limit.is_some_and(|limit| nodes > limit) {
            return true;
        }
        nodes.is_multiple_of(CHECK_EVERY) && self.deadline.is_some_and(|deadline| Instant::now() >= deadline)
    }

    fn leaf(&mut self, node: u32, value: Score, reason: LeafReason) -> Score {
        if matches!(reason, LeafReason::Horizon | LeafReason::Repetition) {
            self.unresolved += 1;
        }
        self.walk.leaf(node, value, reason)
    }

    /// The table's value for this node if it settles the window, and its best move.
    fn probe(
        &mut self,
        game: &G,
        depth: u32,
        ply: usize,
        alpha: Score,
        beta: Score,
    ) -> (Option<Score>, Option<G::Move>) {
        self.walk.stats.tt_probes += 1;
        let Some(entry) = self.engine.tt.probe(game.hash()) else {
            return (None, None);
        };
        self.walk.stats.tt_hits += 1;
        let deep_enough = entry.depth == RESOLVED
            || if self.engine.options.exact_depth { entry.depth == depth } else { entry.depth >= depth };
        if ply == 0 || !deep_enough {
            return (None, entry.best_move);
        }
        let score = from_table(entry.score, ply);
        let settles = match entry.bound {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
        };
        if settles && entry.depth != RESOLVED {
            self.unresolved += 1;
        }
        (settles.then_some(score), entry.best_move)
    }

    /// Ordering keys: the hash move, then killers, then history.
    fn order_keys(&mut self, side: Side, ply: usize, moves: &[G::Move], hash_move: Option<G::Move>) -> Vec<i32> {
        if ply >= self.order.len() {
            self.order.resize_with(ply + 1, Vec::new);
        }
        let mut keys = std::mem::take(&mut self.order[ply]);
        keys.clear();
        let options = self.engine.options;
        let killers = if options.killers { self.engine.killers.get(ply).copied() } else { None };
        for &mv in moves {
            let key = if Some(mv) == hash_move {
                i32::MAX
            } else if killers.is_some_and(|k| k[0] == Some(mv)) {
                i32::MAX - 1
            } else if killers.is_some_and(|k| k[1] == Some(mv)) {
                i32::MAX - 2
            } else if options.history {
                self.engine.history[IterativeDeepening::<G>::history_slot(side, mv)]
            } else {
                0
            };
            keys.push(key);
        }
        keys
    }

    /// A quiet move refuted the opponent's move: remember it for siblings and for later.
    fn reward(&mut self, side: Side, ply: usize, mv: G::Move, depth: u32) {
        if self.engine.options.killers {
            if ply >= self.engine.killers.len() {
                self.engine.killers.resize(ply + 1, [None, None]);
            }
            let slot = &mut self.engine.killers[ply];
            if slot[0] != Some(mv) {
                slot[1] = slot[0];
                slot[0] = Some(mv);
            }
        }
        if self.engine.options.history {
            let entry = &mut self.engine.history[IterativeDeepening::<G>::history_slot(side, mv)];
            *entry = entry.saturating_add((depth * depth) as i32).min(i32::MAX - 3);
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn node(
        &mut self,
        game: &mut G,
        depth: u32,
        ply: usize,
        mut alpha: Score,
        beta: Score,
        parent: u32,
        mv: String,
    ) -> Score {
        let id = self.walk.enter(game, parent, mv, depth, alpha, beta);
        if self.should_stop() {
            self.stopped = true;
            return self.walk.exit(id, 0, NO_NODE);
        }
        if let Some((value, reason)) = self.walk.static_leaf(game, depth, ply) {
            return self.leaf(id, value, reason);
        }
        let (table_score, hash_move) =
            if depth >= TABLE_MIN_DEPTH { self.probe(game, depth, ply, alpha, beta) } else { (None, None) };
        if let Some(score) = table_score {
            return self.leaf(id, score, LeafReason::Table);
        }
        let mut moves = self.walk.moves(game, ply);
        if moves.is_empty() {
            self.walk.give_back(ply, moves);
            return self.leaf(id, 0, LeafReason::NoMoves);
        }
        let side = game.side_to_move();
        let mut keys = self.order_keys(side, ply, &moves, hash_move);
        let (alpha_in, unresolved_in) = (alpha, self.unresolved);
        let mut best = -INF;
        let mut best_move = None;
        let mut best_child = NO_NODE;
        for i in 0..moves.len() {
            self.bring_forward(i, &mut moves, &mut keys);
            let mv = moves[i];
            let (value, child) = self.search_move(game, mv, i == 0, depth, ply, alpha, beta, id);
            if self.stopped {
                self.walk.give_back(ply, moves);
                self.order[ply] = keys;
                return self.walk.exit(id, 0, NO_NODE);
            }
            if value > best {
                (best, best_move, best_child) = (value, Some(mv), child);
                if value > alpha {
                    alpha = value;
                    self.walk.update_pv(ply, mv);
                }
                self.walk.window(id, best, alpha, beta, best_child);
                if value >= beta {
                    self.walk.cutoff(game, id, i + 1, &moves[i + 1..]);
                    if Some(mv) != hash_move {
                        self.reward(side, ply, mv, depth);
                    }
                    break;
                }
            }
        }
        self.walk.give_back(ply, moves);
        self.order[ply] = keys;
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha_in {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let stored_depth = if self.unresolved == unresolved_in { RESOLVED } else { depth };
        if depth >= TABLE_MIN_DEPTH {
            self.engine.tt.store(game.hash(), stored_depth, to_table(best, ply), bound, best_move);
        }
        self.walk.exit(id, best, best_child)
    }

    /// Puts the `i`th move to search in place: a selection sort step for the first few (a cutoff,
    /// usually on the first move, saves sorting the rest), then one sort of all the rest.
    fn bring_forward(&mut self, i: usize, moves: &mut [G::Move], keys: &mut [i32]) {
        if i < SELECTED_MOVES {
            let pick = (i..moves.len()).max_by_key(|&j| (keys[j], std::cmp::Reverse(j))).expect("i < len");
            moves.swap(i, pick);
            keys.swap(i, pick);
        } else if i == SELECTED_MOVES {
            // No cutoff yet: most likely every move will be searched, so sort the rest at once.
            self.sorting.clear();
            self.sorting.extend(keys[i..].iter().copied().zip(moves[i..].iter().copied()));
            self.sorting.sort_by_key(|&(key, _)| std::cmp::Reverse(key));
            for (j, &(key, mv)) in self.sorting.iter().enumerate() {
                (keys[i + j], moves[i + j]) = (key, mv);
            }
        }
    }

    /// Searches `mv` from the side to move's point of view; returns its value and the node that gave it.
    #[allow(clippy::too_many_arguments)]
    fn search_move(
        &mut self,
        game: &mut G,
        mv: G::Move,
        first: bool,
        depth: u32,
        ply: usize,
        alpha: Score,
        beta: Score,
        parent: u32,
    ) -> (Score, u32) {
        let mut child = self.walk.next_node();
        let text = Walk::<G, E, T>::text(game, mv);
        game.make_move(mv);
        let mut value;
        if first {
            value = -self.node(game, depth - 1, ply + 1, -beta, -alpha, parent, text);
        } else {
            // Principal variation search: with good ordering the first move is best, so a null
            // window only has to show that a later move is no better; one that is gets searched again.
            value = -self.node(game, depth - 1, ply + 1, -alpha - 1, -alpha, parent, text.clone());
            if value > alpha && value < beta && !self.stopped {
                child = self.walk.next_node();
                value = -self.node(game, depth - 1, ply + 1, -beta, -alpha, parent, text);
            }
        }
        game.unmake_move();
        (value, child)
    }
}
