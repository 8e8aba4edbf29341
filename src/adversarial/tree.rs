//! The trace of a game-tree search and the view that replays it: the tree growing node by node,
//! values backing up, windows narrowing, branches cut off, forward and backward.
//!
//! Values and windows in events are the ones the algorithm holds: `First`'s point of view for
//! minimax, the side to move's for the negamax family (see [`TreeEvent::Start`]); every node
//! records its side to move so a view can show either.

use std::collections::HashMap;
use std::fmt;
use std::ops::Deref;
use std::sync::{OnceLock, RwLock};

use serde::{Deserialize, Deserializer, Serialize};

use super::INF;
use crate::games::{Score, Side};
use crate::trace::{NO_NODE, Replay};

/// Whose point of view the values of a trace take.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Perspective {
    /// Minimax: positive is good for `First` at every node (MAX nodes) and bad at `Second`'s (MIN nodes).
    First,
    /// Negamax family: positive is good for the side to move at that node.
    SideToMove,
}

/// Why a node was not expanded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum LeafReason {
    /// The game is over here.
    Terminal,
    /// No legal moves (and no outcome): scored as a draw.
    NoMoves,
    /// The depth limit: the evaluator scored it.
    Horizon,
    /// The position occurred earlier in the game: scored as a draw.
    Repetition,
    /// The transposition table already held a good enough value.
    Table,
}

/// Which bound a cutoff beat: in MAX/MIN terms a beta cutoff happens at a MAX node (`First` to
/// move), an alpha cutoff at a MIN node.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum CutoffKind {
    Alpha,
    Beta,
}

impl CutoffKind {
    pub fn at(side: Side) -> CutoffKind {
        match side {
            Side::First => CutoffKind::Beta,
            Side::Second => CutoffKind::Alpha,
        }
    }
}

/// Every move text seen so far, numbered: games have few distinct move texts (Barca's are bounded
/// by its squares), so each is kept once for the life of the program.
struct MoveTexts {
    texts: Vec<&'static str>,
    ids: HashMap<&'static str, u32>,
}

fn move_texts() -> &'static RwLock<MoveTexts> {
    static TABLE: OnceLock<RwLock<MoveTexts>> = OnceLock::new();
    TABLE.get_or_init(|| RwLock::new(MoveTexts { texts: vec![""], ids: HashMap::from([("", 0)]) }))
}

/// A move's text as a 4-byte id: a full tic-tac-toe tree holds one per node in its events and one
/// in its view, and a `String` would cost a heap allocation each.
#[derive(Clone, Copy, PartialEq, Eq, Default)]
pub struct MoveText(u32);

impl MoveText {
    pub fn new(text: &str) -> Self {
        if let Some(&id) = move_texts().read().expect("move texts").ids.get(text) {
            return MoveText(id);
        }
        let mut table = move_texts().write().expect("move texts");
        if let Some(&id) = table.ids.get(text) {
            return MoveText(id);
        }
        let id = table.texts.len() as u32;
        let text: &'static str = Box::leak(text.into());
        table.texts.push(text);
        table.ids.insert(text, id);
        MoveText(id)
    }

    pub fn as_str(&self) -> &'static str {
        move_texts().read().expect("move texts").texts[self.0 as usize]
    }
}

impl Deref for MoveText {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl fmt::Display for MoveText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for MoveText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl Serialize for MoveText {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for MoveText {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(MoveText::new(&String::deserialize(deserializer)?))
    }
}

/// An algorithm's name. Spelt as an alias so serde's derive does not borrow it from the input
/// (which would tie decoding to `'static` input): [`kept_text`] reads it instead.
type AlgorithmName = &'static str;

/// A name read back (from a Web Worker's answer) kept for the life of the program, as
/// [`MoveText`] keeps move texts.
fn kept_text<'de, D: Deserializer<'de>>(deserializer: D) -> Result<AlgorithmName, D::Error> {
    Ok(MoveText::new(&String::deserialize(deserializer)?).as_str())
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum TreeEvent {
    /// A search begins: its name and the perspective of its values.
    Start {
        #[serde(deserialize_with = "kept_text")]
        algorithm: AlgorithmName,
        perspective: Perspective,
    },
    /// Iterative deepening starts an iteration to `depth`; earlier iterations' nodes stay, marked old.
    Iteration { depth: u32 },
    /// A node is entered: `mv` is the move text that led here (empty at the root), `depth` the
    /// remaining depth, `alpha..beta` the window it is searched with (full for minimax/negamax).
    /// `depth` is a `u16` so that the event, the most frequent one, fits 24 bytes.
    Enter { node: u32, parent: u32, mv: MoveText, side: Side, depth: u16, alpha: Score, beta: Score },
    /// The node was scored without expanding it.
    Leaf { node: u32, value: Score, reason: LeafReason },
    /// A child returned and improved the node: its value so far and window now.
    Window { node: u32, value: Score, alpha: Score, beta: Score, best_child: u32 },
    /// The node stops early: `pruned` are the moves it will not search.
    Cutoff { node: u32, kind: CutoffKind, pruned: Box<[String]> },
    /// The node is done with this value.
    Exit { node: u32, value: Score, best_child: u32 },
    /// The search's final principal variation and root value.
    Pv { moves: Box<[String]>, value: Score },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum NodeState {
    /// Being searched (on the current path).
    Open,
    Leaf(LeafReason),
    /// Fully searched or cut off.
    Done,
}

/// One node of the replayed tree: 28 bytes, as a full tic-tac-toe tree holds 549,946 of them (its
/// window is kept beside the nodes, see [`TreeView::window`], and its ply is counted on demand).
#[derive(Debug, Clone, PartialEq)]
pub struct TreeNode {
    pub parent: u32,
    pub mv: MoveText,
    pub side: Side,
    pub depth: u16,
    /// The newest child and the sibling entered just before this node (`NO_NODE` when none): the
    /// children as links rather than a list per node (see [`TreeView::children`]).
    last_child: u32,
    prev_sibling: u32,
    /// The value so far, [`NO_VALUE`] until a child returned or the node was scored.
    value: Score,
    pub best_child: u32,
    pub state: NodeState,
}

/// A node's value before it has one (scores lie within ±`INF`).
const NO_VALUE: Score = Score::MIN;
/// The window of every node of minimax and negamax.
const FULL_WINDOW: (Score, Score) = (-INF, INF);

impl TreeNode {
    /// The value so far (`None` until a child returned or the node was scored).
    pub fn value(&self) -> Option<Score> {
        (self.value != NO_VALUE).then_some(self.value)
    }
}

/// The visible state of a tree search at one step of its trace.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TreeView {
    pub algorithm: Option<&'static str>,
    pub perspective: Option<Perspective>,
    pub nodes: Vec<TreeNode>,
    /// The node the last event touched.
    pub current: Option<u32>,
    pub iteration: u32,
    pub pv: Option<(Vec<String>, Score)>,
    /// Nodes scored without expansion so far.
    pub leaf_count: u64,
    /// Nodes that stopped early so far.
    pub cutoff_count: u64,
    /// Which bound each node that stopped early beat, and the moves it left unsearched (kept
    /// beside the nodes: few have one).
    cutoffs: HashMap<u32, (CutoffKind, Vec<String>)>,
    /// Nodes entered so far at each ply below the root (all iterations together).
    pub nodes_per_ply: Vec<u64>,
    /// Each node's window (α, β) by id, up to the last node whose window is not the full one:
    /// empty all along for minimax and negamax.
    windows: Vec<(Score, Score)>,
    /// Events applied.
    applied: usize,
    keyframes: Keyframes,
}

/// Events between two of a [`TreeView`]'s keyframes: a seek back replays at most this many.
const KEYFRAME_SPACING: usize = 1 << 12;

/// What a [`TreeView`] needs to come back to a step it has been past: nodes off the current path
/// then were finished and never change again, so a keyframe keeps only the path's nodes (a few
/// hundred bytes) besides the counters.
/// A node open at a keyframe: its id, the node, its window and its cutoff if it had one.
type OpenNode = (u32, TreeNode, (Score, Score), Option<(CutoffKind, Vec<String>)>);

#[derive(Debug, Clone)]
struct TreeKeyframe {
    node_count: u32,
    /// Each node open then (and the current one): its id, the node, its window and its cutoff if
    /// it had one.
    path: Vec<OpenNode>,
    current: Option<u32>,
    iteration: u32,
    pv: Option<(Vec<String>, Score)>,
    leaf_count: u64,
    cutoff_count: u64,
    nodes_per_ply: Vec<u64>,
    start: (Option<&'static str>, Option<Perspective>),
}

/// The keyframes taken so far, every [`KEYFRAME_SPACING`] events from the first: the same for every
/// view of the same trace, so not part of what a view shows.
#[derive(Debug, Clone, Default)]
struct Keyframes(Vec<TreeKeyframe>);

impl PartialEq for Keyframes {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

/// The fields of a node an event may change: all an undo has to keep (cheap for huge trees).
#[derive(Debug, Clone)]
struct NodeChange {
    value: Score,
    window: (Score, Score),
    best_child: u32,
    state: NodeState,
}

/// How to take one [`TreeEvent`] back.
#[derive(Debug, Clone)]
pub struct TreeUndo {
    /// The changed node's fields before the event.
    node: Option<(u32, NodeChange)>,
    added: bool,
    /// The node whose cutoff the event recorded.
    cut: Option<u32>,
    current: Option<u32>,
    iteration: u32,
    pv: Option<Option<(Vec<String>, Score)>>,
    start: Option<(Option<&'static str>, Option<Perspective>)>,
}

impl TreeView {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn node(&self, id: u32) -> &TreeNode {
        &self.nodes[id as usize]
    }

    /// Which bound `id` beat when it stopped early, and the moves it left unsearched.
    pub fn cutoff(&self, id: u32) -> Option<&(CutoffKind, Vec<String>)> {
        self.cutoffs.get(&id)
    }

    /// The children of `id` in the order they were entered.
    pub fn children(&self, id: u32) -> Vec<u32> {
        let linked = |link: u32| (link != NO_NODE).then_some(link);
        let mut children: Vec<u32> =
            std::iter::successors(linked(self.node(id).last_child), |&child| linked(self.node(child).prev_sibling))
                .collect();
        children.reverse();
        children
    }

    /// The nodes from the root of the current iteration down to the current node.
    pub fn current_path(&self) -> Vec<u32> {
        let mut path = Vec::new();
        let mut at = self.current.unwrap_or(NO_NODE);
        while at != NO_NODE {
            path.push(at);
            at = self.node(at).parent;
        }
        path.reverse();
        path
    }

    fn node_mut(&mut self, id: u32) -> &mut TreeNode {
        &mut self.nodes[id as usize]
    }

    fn take_keyframe(&self) -> TreeKeyframe {
        let path = self
            .current_path()
            .into_iter()
            .map(|id| (id, self.node(id).clone(), self.window(id), self.cutoffs.get(&id).cloned()))
            .collect();
        TreeKeyframe {
            node_count: self.nodes.len() as u32,
            path,
            current: self.current,
            iteration: self.iteration,
            pv: self.pv.clone(),
            leaf_count: self.leaf_count,
            cutoff_count: self.cutoff_count,
            nodes_per_ply: self.nodes_per_ply.clone(),
            start: (self.algorithm, self.perspective),
        }
    }

    /// Comes back to the keyframe's step from a later one.
    fn restore(&mut self, keyframe: &TreeKeyframe, step: usize) {
        let count = keyframe.node_count;
        self.nodes.truncate(count as usize);
        self.truncate_windows();
        self.cutoffs.retain(|&id, _| id < count);
        for (id, node, window, cutoff) in &keyframe.path {
            self.nodes[*id as usize] = node.clone();
            self.set_window(*id, *window);
            match cutoff {
                Some(cutoff) => self.cutoffs.insert(*id, cutoff.clone()),
                None => self.cutoffs.remove(id),
            };
        }
        self.current = keyframe.current;
        self.iteration = keyframe.iteration;
        self.pv.clone_from(&keyframe.pv);
        (self.leaf_count, self.cutoff_count) = (keyframe.leaf_count, keyframe.cutoff_count);
        self.nodes_per_ply.clone_from(&keyframe.nodes_per_ply);
        (self.algorithm, self.perspective) = keyframe.start;
        self.applied = step;
    }

    /// The window (α, β) the node is searched with now.
    pub fn window(&self, id: u32) -> (Score, Score) {
        self.windows.get(id as usize).copied().unwrap_or(FULL_WINDOW)
    }

    fn set_window(&mut self, id: u32, window: (Score, Score)) {
        let id = id as usize;
        if id >= self.windows.len() {
            if window == FULL_WINDOW {
                return;
            }
            self.windows.resize(id + 1, FULL_WINDOW);
        }
        self.windows[id] = window;
        self.truncate_windows();
    }

    /// Drops the windows of nodes gone and the full windows at the end: the same step has the
    /// same list however it was reached.
    fn truncate_windows(&mut self) {
        self.windows.truncate(self.nodes.len());
        while self.windows.last() == Some(&FULL_WINDOW) {
            self.windows.pop();
        }
    }

    /// Plies below its iteration's root.
    pub fn ply(&self, id: u32) -> u16 {
        let mut ply = 0;
        let mut at = self.node(id).parent;
        while at != NO_NODE {
            ply += 1;
            at = self.node(at).parent;
        }
        ply
    }

    /// Saves `id` for the undo record and returns it for changing.
    fn change(&mut self, undo: &mut TreeUndo, id: u32) -> &mut TreeNode {
        let n = self.node(id);
        let before = NodeChange { value: n.value, window: self.window(id), best_child: n.best_child, state: n.state };
        undo.node = Some((id, before));
        self.current = Some(id);
        self.node_mut(id)
    }
}

/// The mean number of moves of the expanded nodes at each ply of a recorded search, counting the
/// moves a cutoff left unsearched: the branching factor the game really has along this tree.
pub fn branching_per_ply(events: &[TreeEvent]) -> Vec<f64> {
    let mut ply_of: Vec<u32> = Vec::new();
    let mut moves: Vec<u32> = Vec::new();
    for event in events {
        match event {
            TreeEvent::Enter { parent, .. } => {
                let ply = if *parent == NO_NODE {
                    0
                } else {
                    moves[*parent as usize] += 1;
                    ply_of[*parent as usize] + 1
                };
                ply_of.push(ply);
                moves.push(0);
            }
            TreeEvent::Cutoff { node, pruned, .. } => moves[*node as usize] += pruned.len() as u32,
            _ => {}
        }
    }
    let mut sums: Vec<(f64, u32)> = Vec::new();
    for (&ply, &count) in ply_of.iter().zip(&moves).filter(|&(_, &count)| count > 0) {
        if sums.len() <= ply as usize {
            sums.resize(ply as usize + 1, (0.0, 0));
        }
        sums[ply as usize].0 += f64::from(count);
        sums[ply as usize].1 += 1;
    }
    sums.into_iter().map(|(sum, n)| if n == 0 { 0.0 } else { sum / f64::from(n) }).collect()
}

/// Nodes at each ply (0 to `branching.len()`) of the minimal tree alpha-beta must search in a tree
/// whose nodes at ply `i` have `branching[i]` moves (Knuth and Moore, 1975): with perfect ordering
/// ply `d` holds the product of the even plies' branching plus that of the odd plies' minus one.
pub fn minimal_nodes_per_ply(branching: &[f64]) -> Vec<f64> {
    let (mut even, mut odd) = (1.0, 1.0);
    let mut counts = vec![1.0];
    for (i, &b) in branching.iter().enumerate() {
        if i % 2 == 0 {
            even *= b
        } else {
            odd *= b
        }
        counts.push(even + odd - 1.0);
    }
    counts
}

impl Replay for TreeView {
    type Event = TreeEvent;
    type Undo = TreeUndo;
    const JUMPS: bool = true;

    fn apply(&mut self, event: &TreeEvent) -> TreeUndo {
        if self.applied == KEYFRAME_SPACING * self.keyframes.0.len() {
            self.keyframes.0.push(self.take_keyframe());
        }
        self.applied += 1;
        let mut undo = TreeUndo {
            node: None,
            added: false,
            cut: None,
            current: self.current,
            iteration: self.iteration,
            pv: None,
            start: None,
        };
        match event {
            TreeEvent::Start { algorithm, perspective } => {
                undo.start = Some((self.algorithm, self.perspective));
                self.algorithm = Some(algorithm);
                self.perspective = Some(*perspective);
            }
            TreeEvent::Iteration { depth } => {
                self.iteration = *depth;
                self.current = None;
            }
            TreeEvent::Enter { node, parent, mv, side, depth, alpha, beta } => {
                debug_assert_eq!(*node as usize, self.nodes.len(), "nodes are numbered in entry order");
                let ply = if *parent == NO_NODE { 0 } else { self.ply(*parent) + 1 };
                if self.nodes_per_ply.len() <= ply as usize {
                    self.nodes_per_ply.resize(ply as usize + 1, 0);
                }
                self.nodes_per_ply[ply as usize] += 1;
                let prev_sibling = if *parent == NO_NODE {
                    NO_NODE
                } else {
                    std::mem::replace(&mut self.node_mut(*parent).last_child, *node)
                };
                self.nodes.push(TreeNode {
                    parent: *parent,
                    mv: *mv,
                    side: *side,
                    depth: *depth,
                    last_child: NO_NODE,
                    prev_sibling,
                    value: NO_VALUE,
                    best_child: NO_NODE,
                    state: NodeState::Open,
                });
                self.set_window(*node, (*alpha, *beta));
                undo.added = true;
                self.current = Some(*node);
            }
            TreeEvent::Leaf { node, value, reason } => {
                let n = self.change(&mut undo, *node);
                n.value = *value;
                n.state = NodeState::Leaf(*reason);
                self.leaf_count += 1;
            }
            TreeEvent::Window { node, value, alpha, beta, best_child } => {
                let n = self.change(&mut undo, *node);
                (n.value, n.best_child) = (*value, *best_child);
                self.set_window(*node, (*alpha, *beta));
            }
            TreeEvent::Cutoff { node, kind, pruned } => {
                self.current = Some(*node);
                self.cutoffs.insert(*node, (*kind, pruned.to_vec()));
                undo.cut = Some(*node);
                self.cutoff_count += 1;
            }
            TreeEvent::Exit { node, value, best_child } => {
                let n = self.change(&mut undo, *node);
                (n.value, n.best_child, n.state) = (*value, *best_child, NodeState::Done);
            }
            TreeEvent::Pv { moves, value } => {
                undo.pv = Some(self.pv.replace((moves.to_vec(), *value)));
            }
        }
        undo
    }

    fn prepare(&mut self, events: &[TreeEvent]) {
        self.nodes.reserve(events.iter().filter(|event| matches!(event, TreeEvent::Enter { .. })).count());
    }

    /// From the nearest keyframe at or before `to`, when the player's undo records do not reach.
    fn jump(&mut self, events: &[TreeEvent], _from: usize, to: usize, replay: Option<usize>) -> bool {
        if replay.is_some() {
            return false;
        }
        let index = to / KEYFRAME_SPACING;
        let keyframes = std::mem::take(&mut self.keyframes);
        self.restore(&keyframes.0[index], index * KEYFRAME_SPACING);
        self.keyframes = keyframes;
        for event in &events[index * KEYFRAME_SPACING..to] {
            self.apply(event);
        }
        true
    }

    fn revert(&mut self, _done: &[TreeEvent], undo: TreeUndo) {
        self.applied -= 1;
        if undo.added {
            let ply = self.ply(self.nodes.len() as u32 - 1) as usize;
            let node = self.nodes.pop().expect("an added node to remove");
            self.truncate_windows();
            if node.parent != NO_NODE {
                self.node_mut(node.parent).last_child = node.prev_sibling;
            }
            let count = &mut self.nodes_per_ply[ply];
            *count -= 1;
            if *count == 0 && ply + 1 == self.nodes_per_ply.len() {
                self.nodes_per_ply.pop();
            }
        }
        if let Some((id, before)) = undo.node {
            let n = &mut self.nodes[id as usize];
            if matches!(n.state, NodeState::Leaf(_)) && !matches!(before.state, NodeState::Leaf(_)) {
                self.leaf_count -= 1;
            }
            (n.value, n.best_child, n.state) = (before.value, before.best_child, before.state);
            self.set_window(id, before.window);
        }
        if let Some(id) = undo.cut {
            self.cutoffs.remove(&id);
            self.cutoff_count -= 1;
        }
        if let Some(pv) = undo.pv {
            self.pv = pv;
        }
        if let Some((algorithm, perspective)) = undo.start {
            (self.algorithm, self.perspective) = (algorithm, perspective);
        }
        self.current = undo.current;
        self.iteration = undo.iteration;
    }
}

/// A node's value for the side moving first (MAX), from a search that scores nodes from
/// `perspective`, the node's `side` to move.
pub fn value_for_first(value: Score, side: Side, perspective: Option<Perspective>) -> Score {
    match perspective {
        Some(Perspective::SideToMove) => side.sign() * value,
        _ => value,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::adversarial::{alphabeta, minimax};
    use crate::games::DefaultEval;
    use crate::games::tictactoe::TicTacToe;
    use crate::games::uniform_tree::{Ordering, UniformTree};
    use crate::trace::{Player, Recorder};
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]
        #[test]
        fn seeks_in_any_order_match_a_replay_from_the_start(
            position in proptest::sample::select(vec!["x../.../...", ".x./o../...", "x.o/.o./x.."]),
            pruned in any::<bool>(),
            targets in proptest::collection::vec(0.0..=1.0f64, 1..10),
        ) {
            let game = TicTacToe::from_position(position).unwrap();
            let mut recorder = Recorder::default();
            if pruned {
                alphabeta::search(&game, &DefaultEval, 9, &mut recorder);
            } else {
                minimax::search(&game, &DefaultEval, 9, &mut recorder);
            }
            let trace = recorder.finish();
            let len = trace.events.len();
            let mut player = Player::new(trace.clone(), TreeView::new());
            for target in targets.iter().map(|t| (t * len as f64) as usize) {
                player.seek(target);
                let mut fresh = Player::new(trace.clone(), TreeView::new());
                fresh.seek(target);
                prop_assert_eq!(player.view(), fresh.view(), "at step {} of {}", target, len);
            }
        }
    }

    #[test]
    fn counters_follow_the_replay_both_ways() {
        let game = TicTacToe::from_position("x.o/.o./x..").unwrap();
        let mut recorder = Recorder::default();
        let result = alphabeta::search(&game, &DefaultEval, 9, &mut recorder);
        let mut player = Player::new(recorder.finish(), TreeView::new());
        player.seek(usize::MAX);
        let view = player.view();
        assert_eq!(view.nodes.len() as u64, result.stats.nodes);
        assert_eq!(view.leaf_count, result.stats.leaves);
        assert_eq!(view.cutoff_count, result.stats.cutoffs);
        assert_eq!(view.nodes_per_ply.iter().sum::<u64>(), result.stats.nodes);
        assert_eq!(view.nodes_per_ply[0], 1);
        assert_eq!(view.nodes_per_ply[1], 5, "five empty cells under the root");
        player.seek(0);
        assert_eq!(player.view(), &TreeView::new());
    }

    #[test]
    fn uniform_branching_is_measured_and_gives_the_knuth_moore_count() {
        let game = UniformTree::new(3, 4, Ordering::Perfect);
        let mut recorder = Recorder::default();
        let result = alphabeta::search(&game, &DefaultEval, 4, &mut recorder);
        let trace = recorder.finish();
        let branching = branching_per_ply(&trace.events);
        assert_eq!(branching, vec![3.0; 4], "pruned moves count towards the branching");
        let minimal = minimal_nodes_per_ply(&branching);
        assert_eq!(minimal[4], UniformTree::minimal_leaf_count(3, 4) as f64);
        let mut player = Player::new(trace, TreeView::new());
        player.seek(usize::MAX);
        let visited: Vec<f64> = player.view().nodes_per_ply.iter().map(|&n| n as f64).collect();
        assert_eq!(visited, minimal, "perfect ordering visits exactly the minimal tree");
        assert_eq!(result.stats.nodes as f64, minimal.iter().sum::<f64>());
    }

    #[test]
    fn full_width_search_measures_the_tic_tac_toe_branching() {
        let mut recorder = Recorder::default();
        minimax::search(&TicTacToe::new(), &DefaultEval, 2, &mut recorder);
        assert_eq!(branching_per_ply(&recorder.finish().events), vec![9.0, 8.0]);
    }
}
