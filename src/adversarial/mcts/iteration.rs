//! One iteration: selection down the tree, expansion of a leaf, backup of the reward, implicit
//! minimax and the MCTS-Solver's proofs.

use crate::games::{Evaluator, Game, Side};
use crate::trace::{NO_NODE, Tracer};

use super::super::iterative::move_slot;
use super::super::mcts_trace::{ExpandedChild, MctsEvent, PlayoutEnd};
use super::tree::Node;
use super::value::{mean, rave_mean, selection_score};
use super::{MAST_SLOTS, Mcts, Proven, squash};

impl<G: Game> Mcts<G> {
    /// One select-expand-playout-backpropagate round; returns the depth reached and the playout length.
    pub(super) fn iterate<E: Evaluator<G>, T: Tracer<MctsEvent>>(
        &mut self,
        evaluator: &E,
        tracer: &mut T,
    ) -> (usize, u32) {
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
        if self.config.rave.is_some() {
            self.update_amaf(&path, reward_of);
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
            amaf: self.amaf_updates.clone(),
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

    /// RAVE's backup: each child of a node on `path` whose move its mover played later in this
    /// simulation (further down the tree or in the playout) gains one AMAF sample, that mover's reward.
    fn update_amaf(&mut self, path: &[u32], reward_of: impl Fn(Side) -> f64) {
        let mut seen = std::mem::take(&mut self.played_after);
        seen.clear();
        seen.extend(self.playout_moves.iter().copied());
        self.amaf_updates.clear();
        for (i, &id) in path.iter().enumerate().rev() {
            if let Some(&next) = path.get(i + 1) {
                let n = &self.nodes[next as usize];
                seen.insert((n.mover, n.mv.expect("children have moves")));
            }
            for c in self.nodes[id as usize].children() {
                let child = &mut self.nodes[c as usize];
                if seen.contains(&(child.mover, child.mv.expect("children have moves"))) {
                    let reward = reward_of(child.mover);
                    child.amaf.add(reward);
                    self.amaf_updates.push((c, reward));
                }
            }
        }
        self.played_after = seen;
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
                rave_mean(mean(child.value_sum, child.visits), child.visits, &child.amaf, &self.config),
                child.visits,
                parent.visits,
                log_parent,
                prior,
                child.minimax.into(),
                &self.config,
            );
            let (fresh, key) = match score {
                Some(score) => (false, score),
                // With RAVE the untried move with the best AMAF mean goes first.
                None if self.config.rave.is_some() => (true, child.amaf.mean()),
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
}
