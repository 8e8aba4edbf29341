//! The trace of an SM-MCTS search and the view that replays it (the engine is in
//! [`super::sm_mcts`]): a node's joint-action matrix, visits and mean payoff per pair, each
//! player's marginal strategy and the pair selected, forward and backward.

use serde::{Deserialize, Serialize};

use super::sm_mcts::{JointStats, SelectionRule};
use crate::games::simultaneous::SIDES;
use crate::trace::{NO_NODE, Replay};

/// Why a playout ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum PlayoutEnd {
    GameOver,
    /// The game's estimate scored the position after the cut-off.
    CutOff,
}

/// The steps of SM-MCTS, for replay. Node ids are given in creation order, the root 0.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum SmMctsEvent {
    /// Selection walked `path` from the root; `pairs[k]` (row, column) led from `path[k]` to
    /// `path[k + 1]`. A last node not seen before was created by this selection.
    Select { path: Vec<u32>, pairs: Vec<(u16, u16)> },
    /// `node`'s first visit: the actions of `[First, Second]`, as text.
    Expand { node: u32, actions: [Vec<String>; 2] },
    /// A playout from `node` over `turns` random joint actions reached `payoffs` (`[First, Second]`).
    Playout { node: u32, turns: u32, payoffs: [f64; 2], end: PlayoutEnd },
    /// Every node of `path` but the last backed up `payoffs` through its pair of `pairs`; the
    /// last gained a visit.
    Backpropagate { path: Vec<u32>, pairs: Vec<(u16, u16)>, payoffs: [f64; 2] },
}

#[derive(Debug, Clone, PartialEq)]
pub struct SmViewNode {
    pub parent: u32,
    /// The joint action from the parent (none at the root).
    pub pair_in: Option<(u16, u16)>,
    /// `None` until the node's first visit.
    pub actions: Option<[Vec<String>; 2]>,
    pub stats: JointStats,
}

/// The last playout, as shown.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlayoutShown {
    pub node: u32,
    pub turns: u32,
    pub payoffs: [f64; 2],
    pub end: PlayoutEnd,
}

/// A node's joint actions as a table: rows are `First`'s actions, columns `Second`'s.
#[derive(Debug, Clone, PartialEq)]
pub struct JointMatrix {
    pub rows: Vec<String>,
    pub columns: Vec<String>,
    /// `cells[row][column]`: the pair's visits and `First`'s mean payoff, `None` if never tried.
    pub cells: Vec<Vec<Option<(u32, f64)>>>,
    /// Each player's final strategy now (visit shares, less regret matching's exploration).
    pub marginals: [Vec<f64>; 2],
    /// Each player's current sampling distribution under the rule (for UCT, the visit shares).
    pub current: [Vec<f64>; 2],
    /// The pair the current selection took here.
    pub selected: Option<(u16, u16)>,
}

/// The SM-MCTS tree rebuilt from [`SmMctsEvent`]s.
#[derive(Debug, Clone, PartialEq)]
pub struct SmMctsView {
    nodes: Vec<SmViewNode>,
    rule: SelectionRule,
    pub path: Vec<u32>,
    pub pairs: Vec<(u16, u16)>,
    pub playout: Option<PlayoutShown>,
    /// Iterations completed (backpropagations replayed).
    pub iterations: u64,
}

/// How to take one [`SmMctsEvent`] back.
#[derive(Debug, Clone)]
pub enum SmMctsUndo {
    Select {
        path: Vec<u32>,
        pairs: Vec<(u16, u16)>,
        playout: Option<PlayoutShown>,
        created: bool,
    },
    Expand {
        node: u32,
        stats: JointStats,
    },
    Playout {
        playout: Option<PlayoutShown>,
    },
    /// The statistics of the path's nodes before the update.
    Backpropagate {
        before: Vec<(u32, JointStats)>,
    },
}

impl SmMctsView {
    /// A tree holding only the unvisited root, for a search with `rule`.
    pub fn new(rule: SelectionRule) -> Self {
        let root = SmViewNode { parent: NO_NODE, pair_in: None, actions: None, stats: JointStats::default() };
        Self { nodes: vec![root], rule, path: Vec::new(), pairs: Vec::new(), playout: None, iterations: 0 }
    }

    pub fn nodes(&self) -> &[SmViewNode] {
        &self.nodes
    }

    pub fn node(&self, id: u32) -> &SmViewNode {
        &self.nodes[id as usize]
    }

    /// The joint-action matrix of `node`, `None` before its first visit (or for a finished game).
    pub fn matrix(&self, id: u32) -> Option<JointMatrix> {
        let node = self.node(id);
        let [rows, columns] = node.actions.clone()?;
        let cells = (0..rows.len())
            .map(|i| {
                (0..columns.len())
                    .map(|j| {
                        node.stats
                            .pair(i, j)
                            .filter(|p| p.visits > 0)
                            .map(|p| (p.visits, p.reward_sum[0] / f64::from(p.visits)))
                    })
                    .collect()
            })
            .collect();
        let selected = self.path.iter().position(|&n| n == id).and_then(|k| self.pairs.get(k).copied());
        Some(JointMatrix {
            rows,
            columns,
            cells,
            marginals: SIDES.map(|side| node.stats.final_strategy(side, self.rule)),
            current: SIDES.map(|side| node.stats.current_strategy(side, self.rule)),
            selected,
        })
    }
}

impl Replay for SmMctsView {
    type Event = SmMctsEvent;
    type Undo = SmMctsUndo;

    fn apply(&mut self, event: &SmMctsEvent) -> SmMctsUndo {
        match event {
            SmMctsEvent::Select { path, pairs } => {
                let leaf = *path.last().expect("a selection path holds the root");
                let created = leaf as usize == self.nodes.len();
                if created {
                    let parent = path[path.len() - 2];
                    let pair = *pairs.last().expect("a new node has a pair into it");
                    self.nodes[parent as usize].stats.link(pair.0.into(), pair.1.into(), leaf);
                    self.nodes.push(SmViewNode {
                        parent,
                        pair_in: Some(pair),
                        actions: None,
                        stats: JointStats::default(),
                    });
                }
                SmMctsUndo::Select {
                    path: std::mem::replace(&mut self.path, path.clone()),
                    pairs: std::mem::replace(&mut self.pairs, pairs.clone()),
                    playout: self.playout.take(),
                    created,
                }
            }
            SmMctsEvent::Expand { node, actions } => {
                let n = &mut self.nodes[*node as usize];
                n.actions = Some(actions.clone());
                let stats = std::mem::replace(&mut n.stats, JointStats::new(actions[0].len(), actions[1].len()));
                SmMctsUndo::Expand { node: *node, stats }
            }
            &SmMctsEvent::Playout { node, turns, payoffs, end } => {
                SmMctsUndo::Playout { playout: self.playout.replace(PlayoutShown { node, turns, payoffs, end }) }
            }
            SmMctsEvent::Backpropagate { path, pairs, payoffs } => {
                let before = path.iter().map(|&id| (id, self.nodes[id as usize].stats.clone())).collect();
                for (&id, &(row, column)) in path.iter().zip(pairs) {
                    self.nodes[id as usize].stats.update(row.into(), column.into(), *payoffs, self.rule);
                }
                if let Some(&leaf) = path.last() {
                    self.nodes[leaf as usize].stats.visits += 1;
                }
                self.iterations += 1;
                SmMctsUndo::Backpropagate { before }
            }
        }
    }

    fn revert(&mut self, _done: &[SmMctsEvent], undo: SmMctsUndo) {
        match undo {
            SmMctsUndo::Select { path, pairs, playout, created } => {
                if created {
                    let node = self.nodes.pop().expect("the created node is the last");
                    let (row, column) = node.pair_in.expect("a created node has a pair into it");
                    self.nodes[node.parent as usize].stats.unlink(row.into(), column.into());
                }
                self.path = path;
                self.pairs = pairs;
                self.playout = playout;
            }
            SmMctsUndo::Expand { node, stats } => {
                let n = &mut self.nodes[node as usize];
                n.actions = None;
                n.stats = stats;
            }
            SmMctsUndo::Playout { playout } => self.playout = playout,
            SmMctsUndo::Backpropagate { before } => {
                for (id, stats) in before {
                    self.nodes[id as usize].stats = stats;
                }
                self.iterations -= 1;
            }
        }
    }

    /// Nodes dominate: their statistics and action texts.
    fn footprint(&self) -> usize {
        self.nodes.iter().map(|n| std::mem::size_of::<SmViewNode>() + n.stats.footprint()).sum()
    }
}
