//! The trace of a UCT search and the view that replays it: selections, expansions, playouts and
//! backed-up rewards, forward and backward (the engine is in [`super::mcts`]).

use std::ops::Range;

use serde::{Deserialize, Serialize};

use super::mcts::{Amaf, ChildStats, MctsConfig, PlayRank, Proven, mean, play_order};
use crate::games::Side;
use crate::trace::{NO_NODE, Replay};

/// Why a playout ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum PlayoutEnd {
    /// The game ended (or had no legal move).
    GameOver,
    /// The evaluator scored the position after the cut-off depth.
    CutOff,
    /// The node's value is proven: nothing was simulated.
    Proven,
}

/// A child created by an expansion.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExpandedChild {
    pub mv: String,
    pub prior: f32,
    /// Set when the move ends the game (or repeats a position): proven in 0 plies.
    pub proven: Option<Proven>,
}

/// The steps of UCT, for replay.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum MctsEvent {
    /// Selection walked from the root (first) to the leaf (last).
    Select { path: Vec<u32> },
    /// `node` got its children, node ids `first..first + children.len()`, moved into by `mover`.
    Expand { node: u32, first: u32, mover: Side, children: Vec<ExpandedChild> },
    /// A playout from `node` over `plies` random moves gave `reward` to the player who moved into `node`.
    Playout { node: u32, plies: u32, reward: f64, end: PlayoutEnd },
    /// Each node of `path` gained a visit and `rewards[i]`, the reward of the player who moved into
    /// it; with RAVE each `(node, reward)` of `amaf` gained an AMAF sample.
    Backpropagate {
        path: Vec<u32>,
        rewards: Vec<f64>,
        #[serde(default)]
        amaf: Vec<(u32, f64)>,
    },
    /// `node` was proven for the player who moved into it, in `plies` plies.
    Solved { node: u32, proven: Proven, plies: u16 },
}

#[derive(Debug, Clone, PartialEq)]
pub struct ViewNode {
    pub parent: u32,
    pub first_child: u32,
    pub child_count: u32,
    pub expanded: bool,
    /// The move into this node (empty at the root).
    pub mv: String,
    pub mover: Side,
    pub visits: u32,
    /// Sum of the rewards of `mover`.
    pub value_sum: f64,
    pub prior: f32,
    pub proven: Option<Proven>,
    pub proof_plies: u16,
    /// With RAVE: the move's AMAF statistics.
    pub amaf: Amaf,
}

impl ViewNode {
    /// A node before its first visit: unexpanded, unproven, prior 0.5.
    pub fn unvisited(parent: u32, mover: Side) -> Self {
        ViewNode {
            parent,
            first_child: 0,
            child_count: 0,
            expanded: false,
            mv: String::new(),
            mover,
            visits: 0,
            value_sum: 0.0,
            prior: 0.5,
            proven: None,
            proof_plies: 0,
            amaf: Amaf::default(),
        }
    }

    /// The mean reward of `mover`; `None` before the first visit.
    pub fn mean(&self) -> Option<f64> {
        (self.visits > 0).then(|| mean(self.value_sum, self.visits))
    }

    pub fn rank(&self) -> PlayRank {
        PlayRank { visits: self.visits, value_sum: self.value_sum, proven: self.proven, proof_plies: self.proof_plies }
    }

    pub fn children(&self) -> Range<u32> {
        self.first_child..self.first_child + self.child_count
    }
}

/// The last playout, as shown.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlayoutShown {
    pub node: u32,
    pub plies: u32,
    pub reward: f64,
    pub end: PlayoutEnd,
}

/// The UCT tree rebuilt from [`MctsEvent`]s, stepping forward and back.
#[derive(Debug, Clone, PartialEq)]
pub struct MctsView {
    nodes: Vec<ViewNode>,
    config: MctsConfig,
    /// The current selection path, root first.
    pub path: Vec<u32>,
    pub playout: Option<PlayoutShown>,
    /// Iterations completed (backpropagations replayed).
    pub iterations: u64,
}

/// How to take one [`MctsEvent`] back.
#[derive(Debug, Clone)]
pub enum MctsUndo {
    Select {
        path: Vec<u32>,
        playout: Option<PlayoutShown>,
    },
    Expand {
        node: u32,
    },
    Playout {
        playout: Option<PlayoutShown>,
    },
    /// Node ids with their visits and value sums before the update, and their AMAF statistics.
    Backpropagate {
        before: Vec<(u32, u32, f64)>,
        amaf_before: Vec<(u32, Amaf)>,
    },
    Solved {
        node: u32,
        proven: Option<Proven>,
        plies: u16,
    },
}

impl MctsView {
    /// A tree holding only the root, for a search that starts from scratch at a position where
    /// `to_move` is the side to move.
    pub fn new(to_move: Side, config: &MctsConfig) -> Self {
        let root = ViewNode::unvisited(NO_NODE, to_move.other());
        Self::from_nodes(vec![root], config)
    }

    pub(super) fn from_nodes(nodes: Vec<ViewNode>, config: &MctsConfig) -> Self {
        Self { nodes, config: *config, path: Vec::new(), playout: None, iterations: 0 }
    }

    pub fn nodes(&self) -> &[ViewNode] {
        &self.nodes
    }

    pub fn node(&self, id: u32) -> &ViewNode {
        &self.nodes[id as usize]
    }

    /// The configuration the selection scores are computed with.
    pub fn config(&self) -> &MctsConfig {
        &self.config
    }

    /// The children of `node`, the move the engine would play there first (see [`play_order`]).
    pub fn children_to_play(&self, node: u32) -> Vec<u32> {
        let mut children: Vec<u32> = self.node(node).children().collect();
        children.sort_by(|&a, &b| play_order(&self.node(a).rank(), &self.node(b).rank()));
        children
    }

    /// The move the engine would play at `node` now, if it has any.
    pub fn best_child(&self, node: u32) -> Option<u32> {
        self.children_to_play(node).first().copied()
    }

    /// The children of `node` with the selection scores UCT would compute now.
    pub fn child_stats(&self, node: u32) -> Vec<ChildStats> {
        let parent = self.node(node);
        parent
            .children()
            .map(|c| {
                let n = self.node(c);
                ChildStats::new(n.mv.clone(), n.visits, n.value_sum, n.prior, n.proven, parent.visits, &self.config)
                    .with_amaf(n.amaf, parent.visits, &self.config)
            })
            .collect()
    }
}

impl Replay for MctsView {
    type Event = MctsEvent;
    type Undo = MctsUndo;

    fn apply(&mut self, event: &MctsEvent) -> MctsUndo {
        match event {
            MctsEvent::Select { path } => {
                MctsUndo::Select { path: std::mem::replace(&mut self.path, path.clone()), playout: self.playout.take() }
            }
            MctsEvent::Expand { node, first, mover, children } => {
                debug_assert_eq!(*first as usize, self.nodes.len(), "children are appended in event order");
                for child in children {
                    let mut created = ViewNode::unvisited(*node, *mover);
                    created.mv = child.mv.clone();
                    created.prior = child.prior;
                    created.proven = child.proven;
                    self.nodes.push(created);
                }
                let n = &mut self.nodes[*node as usize];
                n.expanded = true;
                n.first_child = *first;
                n.child_count = children.len() as u32;
                MctsUndo::Expand { node: *node }
            }
            &MctsEvent::Playout { node, plies, reward, end } => {
                MctsUndo::Playout { playout: self.playout.replace(PlayoutShown { node, plies, reward, end }) }
            }
            MctsEvent::Backpropagate { path, rewards, amaf } => {
                let before = path
                    .iter()
                    .zip(rewards)
                    .map(|(&id, &reward)| {
                        let n = &mut self.nodes[id as usize];
                        let before = (id, n.visits, n.value_sum);
                        n.visits += 1;
                        n.value_sum += reward;
                        before
                    })
                    .collect();
                let amaf_before = amaf
                    .iter()
                    .map(|&(id, reward)| {
                        let n = &mut self.nodes[id as usize];
                        let before = (id, n.amaf);
                        n.amaf.add(reward);
                        before
                    })
                    .collect();
                self.iterations += 1;
                MctsUndo::Backpropagate { before, amaf_before }
            }
            &MctsEvent::Solved { node, proven, plies } => {
                let n = &mut self.nodes[node as usize];
                let undo = MctsUndo::Solved { node, proven: n.proven, plies: n.proof_plies };
                n.proven = Some(proven);
                n.proof_plies = plies;
                undo
            }
        }
    }

    /// Nodes dominate; each holds a short move text on the heap.
    fn footprint(&self) -> usize {
        self.nodes.len() * (std::mem::size_of::<ViewNode>() + 24)
    }

    fn revert(&mut self, _done: &[MctsEvent], undo: MctsUndo) {
        match undo {
            MctsUndo::Select { path, playout } => {
                self.path = path;
                self.playout = playout;
            }
            MctsUndo::Expand { node } => {
                let n = &mut self.nodes[node as usize];
                let first = n.first_child as usize;
                n.expanded = false;
                n.first_child = 0;
                n.child_count = 0;
                self.nodes.truncate(first);
            }
            MctsUndo::Playout { playout } => self.playout = playout,
            MctsUndo::Backpropagate { before, amaf_before } => {
                for (id, amaf) in amaf_before {
                    self.nodes[id as usize].amaf = amaf;
                }
                for (id, visits, value_sum) in before {
                    let n = &mut self.nodes[id as usize];
                    n.visits = visits;
                    n.value_sum = value_sum;
                }
                self.iterations -= 1;
            }
            MctsUndo::Solved { node, proven, plies } => {
                let n = &mut self.nodes[node as usize];
                n.proven = proven;
                n.proof_plies = plies;
            }
        }
    }
}
