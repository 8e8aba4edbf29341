//! The trace of a game-tree search and the view that replays it: the tree growing node by node,
//! values backing up, windows narrowing, branches cut off, forward and backward.
//!
//! Values and windows in events are the ones the algorithm holds: `First`'s point of view for
//! minimax, the side to move's for the negamax family (see [`TreeEvent::Start`]); every node
//! records its side to move so a view can show either.

use serde::Serialize;

use crate::games::{Score, Side};
use crate::trace::{NO_NODE, Replay};

/// Whose point of view the values of a trace take.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Perspective {
    /// Minimax: positive is good for `First` at every node (MAX nodes) and bad at `Second`'s (MIN nodes).
    First,
    /// Negamax family: positive is good for the side to move at that node.
    SideToMove,
}

/// Why a node was not expanded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
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

#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum TreeEvent {
    /// A search begins: its name and the perspective of its values.
    Start { algorithm: &'static str, perspective: Perspective },
    /// Iterative deepening starts an iteration to `depth`; earlier iterations' nodes stay, marked old.
    Iteration { depth: u32 },
    /// A node is entered: `mv` is the move text that led here (empty at the root), `depth` the
    /// remaining depth, `alpha..beta` the window it is searched with (full for minimax/negamax).
    Enter { node: u32, parent: u32, mv: String, side: Side, depth: u32, alpha: Score, beta: Score },
    /// The node was scored without expanding it.
    Leaf { node: u32, value: Score, reason: LeafReason },
    /// A child returned and improved the node: its value so far and window now.
    Window { node: u32, value: Score, alpha: Score, beta: Score, best_child: u32 },
    /// The node stops early: `pruned` are the moves it will not search.
    Cutoff { node: u32, kind: CutoffKind, pruned: Vec<String> },
    /// The node is done with this value.
    Exit { node: u32, value: Score, best_child: u32 },
    /// The search's final principal variation and root value.
    Pv { moves: Vec<String>, value: Score },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum NodeState {
    /// Being searched (on the current path).
    Open,
    Leaf(LeafReason),
    /// Fully searched or cut off.
    Done,
}

/// One node of the replayed tree.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TreeNode {
    pub parent: u32,
    pub mv: String,
    pub side: Side,
    pub depth: u32,
    /// The iterative-deepening iteration the node belongs to (0 for single searches).
    pub iteration: u32,
    pub children: Vec<u32>,
    /// The value so far (`None` until a child returned or the node was scored).
    pub value: Option<Score>,
    pub alpha: Score,
    pub beta: Score,
    pub best_child: u32,
    pub state: NodeState,
    /// Set when the node stopped early: which bound, and the moves left unsearched.
    pub cutoff: Option<(CutoffKind, Vec<String>)>,
}

/// The visible state of a tree search at one step of its trace.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct TreeView {
    pub algorithm: Option<&'static str>,
    pub perspective: Option<Perspective>,
    pub nodes: Vec<TreeNode>,
    /// The node the last event touched.
    pub current: Option<u32>,
    pub iteration: u32,
    pub pv: Option<(Vec<String>, Score)>,
}

/// How to take one [`TreeEvent`] back.
#[derive(Debug, Clone)]
pub struct TreeUndo {
    /// The node's record before the event, or `None` when the event added the node.
    node: Option<(u32, TreeNode)>,
    added: bool,
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

    /// Saves `id` for the undo record and returns it for changing.
    fn change(&mut self, undo: &mut TreeUndo, id: u32) -> &mut TreeNode {
        undo.node = Some((id, self.node(id).clone()));
        self.current = Some(id);
        self.node_mut(id)
    }
}

impl Replay for TreeView {
    type Event = TreeEvent;
    type Undo = TreeUndo;

    fn apply(&mut self, event: &TreeEvent) -> TreeUndo {
        let mut undo =
            TreeUndo { node: None, added: false, current: self.current, iteration: self.iteration, pv: None, start: None };
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
                self.nodes.push(TreeNode {
                    parent: *parent,
                    mv: mv.clone(),
                    side: *side,
                    depth: *depth,
                    iteration: self.iteration,
                    children: Vec::new(),
                    value: None,
                    alpha: *alpha,
                    beta: *beta,
                    best_child: NO_NODE,
                    state: NodeState::Open,
                    cutoff: None,
                });
                if *parent != NO_NODE {
                    self.node_mut(*parent).children.push(*node);
                }
                undo.added = true;
                self.current = Some(*node);
            }
            TreeEvent::Leaf { node, value, reason } => {
                let n = self.change(&mut undo, *node);
                n.value = Some(*value);
                n.state = NodeState::Leaf(*reason);
            }
            TreeEvent::Window { node, value, alpha, beta, best_child } => {
                let n = self.change(&mut undo, *node);
                (n.value, n.alpha, n.beta, n.best_child) = (Some(*value), *alpha, *beta, *best_child);
            }
            TreeEvent::Cutoff { node, kind, pruned } => {
                self.change(&mut undo, *node).cutoff = Some((*kind, pruned.clone()));
            }
            TreeEvent::Exit { node, value, best_child } => {
                let n = self.change(&mut undo, *node);
                (n.value, n.best_child, n.state) = (Some(*value), *best_child, NodeState::Done);
            }
            TreeEvent::Pv { moves, value } => {
                undo.pv = Some(self.pv.replace((moves.clone(), *value)));
            }
        }
        undo
    }

    fn revert(&mut self, undo: TreeUndo) {
        if undo.added {
            let node = self.nodes.pop().expect("an added node to remove");
            if node.parent != NO_NODE {
                self.node_mut(node.parent).children.pop();
            }
        }
        if let Some((id, record)) = undo.node {
            *self.node_mut(id) = record;
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
