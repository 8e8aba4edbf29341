//! The tree's storage: the node arena, a fresh root, reuse of a subtree after a move, and the replay view.

use std::ops::Range;

use serde::{Deserialize, Serialize};

use crate::games::{Game, Side};
use crate::trace::NO_NODE;

use super::super::mcts_trace::{MctsView, ViewNode};
use super::{Amaf, Mcts, PlayRank, Proven};

#[derive(Debug, Clone, Serialize, Deserialize)]
pub(super) struct Node<M> {
    /// The move into this node; `None` at the root.
    pub(super) mv: Option<M>,
    pub(super) parent: u32,
    pub(super) first_child: u32,
    pub(super) child_count: u32,
    pub(super) expanded: bool,
    /// The player who moved into this node; its statistics are from this player's point of view.
    pub(super) mover: Side,
    pub(super) proven: Option<Proven>,
    pub(super) proof_plies: u16,
    pub(super) visits: u32,
    pub(super) value_sum: f64,
    pub(super) prior: f32,
    /// With implicit minimax: the minimax value for `mover` of the evaluations below (at a leaf,
    /// its own evaluation).
    pub(super) minimax: f32,
    /// With RAVE: the move's AMAF statistics, for `mover`.
    pub(super) amaf: Amaf,
}

impl<M> Node<M> {
    pub(super) fn new(mv: Option<M>, parent: u32, mover: Side) -> Self {
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
            amaf: Amaf::default(),
        }
    }

    pub(super) fn children(&self) -> Range<u32> {
        self.first_child..self.first_child + self.child_count
    }

    pub(super) fn rank(&self) -> PlayRank {
        PlayRank { visits: self.visits, value_sum: self.value_sum, proven: self.proven, proof_plies: self.proof_plies }
    }
}

impl<G: Game> Mcts<G> {
    /// A fresh one-node tree at the current position. The root is never scored as a repetition:
    /// the game goes on from here whatever happened before.
    pub(super) fn reset_root(&mut self) {
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
            amaf: n.amaf,
        }
    }
}
